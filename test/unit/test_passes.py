"""The pass index matches the pass classes, and a run imports only what it needs."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import streamopt.lowering
import streamopt.passes
from streamopt.parser import get_parser
from streamopt.passes import PASS_INDEX, PASSES, load_all, pass_class

ROOT = Path(__file__).resolve().parents[2]
TINY = "util.func public @f() {\n  util.return\n}\n"


def test_index_lists_every_pass_with_its_module_and_summary() -> None:
    # Every module of the two packages, not only those the index names (as load_all does).
    for package in (streamopt.passes, streamopt.lowering):
        for info in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package.__name__}.{info.name}")
    registered = dict(PASSES)
    assert set(PASS_INDEX) == set(registered), "add new passes to PASS_INDEX"
    assert load_all() == registered
    for flag, entry in PASS_INDEX.items():
        cls = registered[flag]
        assert cls.__module__ == entry.module, flag
        assert cls.summary == entry.summary, f"--{flag}: the index and the class disagree"
        assert pass_class(flag) is cls


def _modules_after_run(tmp_path: Path, *args: str) -> set[str]:
    """The modules a fresh interpreter has imported after `streamopt TINY ARGS`."""
    # The first run after the grammar changes builds the parser tables with Lark; build them
    # here so the child measures an ordinary run whatever state the cache is in.
    get_parser()
    source = tmp_path / "tiny.mlir"
    source.write_text(TINY)
    script = (
        "import json, sys\n"
        "from streamopt.opt_command import main\n"
        f"sys.argv = ['streamopt', {str(source)!r}, '-o', {str(tmp_path / 'out.mlir')!r},"
        f" *{list(args)!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0, exc.code\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return set(json.loads(done.stdout))


def _imported(modules: set[str], package: str) -> list[str]:
    return sorted(m for m in modules if m == package or m.startswith(package + "."))


@pytest.mark.parametrize("args", [(), ("--elide-async-copies",)])
def test_a_run_imports_only_what_it_needs(tmp_path: Path, args: tuple[str, ...]) -> None:
    modules = _modules_after_run(tmp_path, *args)
    assert "streamopt.parser" in modules
    # Never: Lark (the parser loads its tables as data), rich, the runtime, the lowering; nor
    # click, as these command lines are read without it (streamopt.opt_command.plain_invocation).
    for package in ("lark", "lark_cython", "rich", "numpy", "streamopt.runtime", "click"):
        assert not _imported(modules, package), package
    assert not _imported(modules, "streamopt.lowering")
    if args:
        assert "streamopt.passes.elide_async_copies" in modules
        assert "streamopt.analysis" in modules
    else:
        assert not _imported(modules, "streamopt.analysis")
        # `dataclasses` imports `inspect`, a tenth of a plain run's start-up.
        assert "dataclasses" not in modules and "inspect" not in modules
        assert not [m for m in _imported(modules, "streamopt.passes") if m != "streamopt.passes"]
