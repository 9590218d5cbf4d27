"""Op classes for the dialects streamopt models, and the table that finds them by name.

Each dialect module defines its ops as `Operation` subclasses with their name, accessors,
verifier, custom printer and interfaces, and registers them with `register_op`. The parser finds
the class for a custom-form rule `op_<dialect>_<name>` through `op_class_for_rule`.
"""

from __future__ import annotations

from typing import TypeVar

from streamopt.ir.core import Operation

OpClass = TypeVar("OpClass", bound=type[Operation])

OPS: dict[str, type[Operation]] = {}


def register_op(cls: OpClass) -> OpClass:
    """Class decorator: make `cls` the op class for `cls.name`."""
    assert cls.name and cls.name not in OPS, f"op {cls.name!r} registered twice"
    OPS[cls.name] = cls
    return cls


def rule_name_for_op(name: str) -> str:
    """The grammar rule holding the custom form of op `name`."""
    return "op_" + name.replace(".", "_")


def load_all() -> dict[str, type[Operation]]:
    """Import every dialect module so that all ops are registered; return the table."""
    from streamopt.dialects import arith, builtin, cf, hal, scf, stream, util  # noqa: F401

    return OPS
