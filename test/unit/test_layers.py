"""The layers of docs/internals.md, as import contracts (`[tool.importlinter]` in
pyproject.toml): a module imports only from the layers below its own, and only
`streamopt.iree` imports IREE's Python packages. import-linter reads every import, those inside
functions too, so an import moved into a function to hide a cycle still breaks a contract."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[2]


def test_import_contracts_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    # import-linter finds the package on sys.path and pyproject.toml in the working directory.
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0
