"""Tests of streamopt.iree run only where IREE's compiler and runtime are installed (both are
in the `test` extra); elsewhere they are skipped, and only they. (This folder is not named
`iree`: on pytest's path it would hide IREE's own package.)"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from streamopt.iree.build import Build, Program


def _missing() -> str | None:
    if importlib.util.find_spec("iree.runtime") is None:
        return "iree-base-runtime is not installed"
    if shutil.which("iree-compile") is None and importlib.util.find_spec("iree.compiler") is None:
        return "iree-base-compiler is not installed"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _missing()
    if reason is None:
        return
    for item in items:
        if "test/unit/streamopt_iree" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.skip(reason=reason))


class Builds:
    """Each program built once per test session, both ways (compiling is most of the time
    these tests take): `get(path)` gives the program, its plain build and its streamopt build
    (moves as runtime calls)."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self._built: dict[Path, tuple[Program, Build, Build]] = {}

    def get(self, path: Path) -> tuple[Program, Build, Build]:
        built = self._built.get(path)
        if built is None:
            from streamopt.iree.build import Program, build_plain, build_streamopt

            program = Program.read(path, path.read_text(encoding="utf-8"))
            work = self.work / f"{len(self._built)}-{path.parent.name}-{path.stem}"
            work.mkdir()
            built = self._built[path] = (
                program,
                build_plain(program, work),
                build_streamopt(program, work),
            )
        return built


@pytest.fixture(scope="session")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Builds:
    return Builds(tmp_path_factory.mktemp("builds"))
