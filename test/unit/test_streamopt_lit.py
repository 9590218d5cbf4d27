"""`streamopt.lit.configure`, the lit.cfg.py helper for suites of users' own: the example suite
under examples/lit-suite/ passes with it, fails when a check is wrong, and the substitutions name
the installed tools."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import streamopt.lit

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "examples" / "lit-suite"


def copy_suite(tmp_path: Path) -> Path:
    """The example suite and the dump its tests read, copied under `tmp_path`."""
    examples = tmp_path / "examples"
    shutil.copytree(SUITE, examples / "lit-suite", ignore=shutil.ignore_patterns("Output"))
    shutil.copy(ROOT / "examples" / "two-devices.mlir", examples)
    return examples / "lit-suite"


def run_lit(suite: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", "from lit.main import main; main()", "-v", str(suite)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )


def test_the_example_suite_passes(tmp_path: Path) -> None:
    result = run_lit(copy_suite(tmp_path))
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    tests = sorted(path.name for path in SUITE.glob("*.mlir"))
    assert len(tests) >= 3
    for name in tests:
        # Each test ran (or, needing iree-opt where it is missing, was reported unsupported).
        assert re.search(rf"^(PASS|UNSUPPORTED): streamopt-example :: {name} ", output, re.M), (
            output
        )
    if shutil.which("iree-opt"):
        assert "UNSUPPORTED" not in output


def test_a_wrong_check_fails_the_suite(tmp_path: Path) -> None:
    suite = copy_suite(tmp_path)
    test = suite / "moves.mlir"
    test.write_text(test.read_text().replace("// CHECK: stream.async.transfer", "// CHECK: nope"))
    result = run_lit(suite)
    assert result.returncode != 0
    assert "FAIL: streamopt-example :: moves.mlir" in result.stdout + result.stderr


class _Config:
    """What `configure` reads and writes of lit's TestingConfig."""

    def __init__(self) -> None:
        self.test_format: object = None
        self.suffixes: set[str] = set()
        self.environment: dict[str, str] = {"PATH": "/usr/bin"}
        self.substitutions: list[tuple[str, str]] = [("%filecheck", "my-filecheck")]
        self.available_features: set[str] = set()


def test_configure_names_the_environments_tools() -> None:
    config = _Config()
    streamopt.lit.configure(config)
    assert config.suffixes == [".mlir"]
    assert config.test_format is not None
    bin_dir = os.path.dirname(sys.executable)
    assert config.environment["PATH"] == os.pathsep.join([bin_dir, "/usr/bin"])
    patterns = [pattern for pattern, _ in config.substitutions]
    # A suite's own substitution is kept; `%streamopt-run` comes before its prefix.
    assert patterns.count("%filecheck") == 1 and config.substitutions[0][1] == "my-filecheck"
    assert patterns.index("%streamopt-run") < patterns.index("%streamopt")
    substitutions = dict(config.substitutions)
    assert substitutions["%streamopt"].endswith("streamopt")
    assert ("iree-opt" in config.available_features) == ("%iree-opt" in substitutions)
