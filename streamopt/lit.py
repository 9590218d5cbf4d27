"""Using streamopt in a lit suite of your own: `configure(config)` in its lit.cfg.py.

    # lit.cfg.py
    import streamopt.lit

    config.name = "my-passes"
    streamopt.lit.configure(config)

    // RUN: %streamopt --elide-async-copies %s | %filecheck %s

`configure` sets the test format (lit's shell tests), the suffix `.mlir` and, as
substitutions, the tools of the Python environment lit runs in (where streamopt is installed):
`%streamopt`, `%streamopt-run`, `%filecheck` (the `filecheck` package's FileCheck) and, when
IREE's compiler is installed, `%iree-opt` with the lit feature `iree-opt` (so a test can say
`REQUIRES: iree-opt`). It only adds what the suite has not set itself. examples/lit-suite/ is a
suite configured this way; the tests run it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from typing import Any


def tool_path(name: str) -> str | None:
    """The console script `name` of the Python environment this runs in, or one on PATH."""
    bin_dir = os.path.dirname(sys.executable)
    return shutil.which(name, path=bin_dir) or shutil.which(name)


def configure(config: Any) -> None:
    """Configure lit `config` (a suite's TestingConfig) to run streamopt's tools."""
    import lit.formats  # Only in lit's own process.

    if config.test_format is None:
        config.test_format = lit.formats.ShTest(execute_external=False)
    if not config.suffixes:
        config.suffixes = [".mlir"]
    bin_dir = os.path.dirname(sys.executable)
    path = config.environment.get("PATH", os.environ.get("PATH", ""))
    config.environment["PATH"] = os.pathsep.join([bin_dir, path])
    # The longer name first: lit substitutes in order, and `%streamopt` is a prefix of it.
    tools = [
        ("%streamopt-run", "streamopt-run"),
        ("%streamopt", "streamopt"),
        ("%filecheck", "filecheck"),
        ("%iree-opt", "iree-opt"),
    ]
    defined = {pattern for pattern, _ in config.substitutions}
    for pattern, name in tools:
        found = tool_path(name)
        if found is None or pattern in defined:
            continue
        config.substitutions.append((pattern, shlex.quote(found)))
        if name == "iree-opt":
            config.available_features.add("iree-opt")
