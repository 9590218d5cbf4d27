"""The wheel holds every package and the grammar (the README's first command installs it)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]


def listed_packages() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(config["tool"]["setuptools"]["packages"])


def test_every_package_is_listed() -> None:
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "streamopt").rglob("__init__.py")
    }
    assert on_disk | {"streamopt.grammar"} == listed_packages()


def test_wheel_ships_the_grammar(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("streamopt-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "streamopt/grammar/stream.lark" in names
    assert "streamopt/runtime/interpreter/__init__.py" in names
