"""Tests of streamopt.iree run only where IREE's compiler and runtime are installed (both are
in the `test` extra); elsewhere they are skipped, and only they. (This folder is not named
`iree`: on pytest's path it would hide IREE's own package.)"""

from __future__ import annotations

import importlib.util
import shutil

import pytest


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
