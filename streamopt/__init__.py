"""streamopt: an opt-style tool for IREE's stream and hal IR, built around move semantics for
cross-device transfers.

The package's names are its Python API (docs/python-api.md): `parse`, `parse_file`, `verify`,
`run_passes`, `print`, `pass_names`, and the classes they use. They are imported when first
used, so that `import streamopt` (which every run of the command does) stays cheap.
"""

from __future__ import annotations

import sys

# `typing` is not imported for this: `import streamopt` should cost next to nothing.
TYPE_CHECKING = False

__version__ = "0.1.0"
# The IREE release whose printed IR streamopt reads and prints (its op definitions and syntax;
# the `test` extra installs this iree-base-compiler).
IREE_VERSION = "3.13.0"

# Each name of the API and the module it comes from.
_API = {
    "parse": "streamopt.api",
    "parse_file": "streamopt.api",
    "verify": "streamopt.api",
    "run_passes": "streamopt.api",
    "print": "streamopt.api",
    "pass_names": "streamopt.api",
    "Module": "streamopt.ir.module",
    "Operation": "streamopt.ir.core",
    "Block": "streamopt.ir.core",
    "Region": "streamopt.ir.core",
    "Value": "streamopt.ir.core",
    "PassManager": "streamopt.passes",
    "Pass": "streamopt.passes",
    "Diagnostic": "streamopt.diagnostics",
    "DiagnosticError": "streamopt.diagnostics",
    "Location": "streamopt.diagnostics",
}

__all__ = [
    "IREE_VERSION",
    "Block",
    "Diagnostic",
    "DiagnosticError",
    "Location",
    "Module",
    "Operation",
    "Pass",
    "PassManager",
    "Region",
    "Value",
    "__version__",
    "parse",
    "parse_file",
    "pass_names",
    "print",
    "run_passes",
    "verify",
]

if TYPE_CHECKING:
    from streamopt.api import parse, parse_file, pass_names, print, run_passes, verify
    from streamopt.diagnostics import Diagnostic, DiagnosticError, Location
    from streamopt.ir.core import Block, Operation, Region, Value
    from streamopt.ir.module import Module
    from streamopt.passes import Pass, PassManager


def __getattr__(name: str) -> object:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'streamopt' has no attribute {name!r}")
    __import__(module)
    value = getattr(sys.modules[module], name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
