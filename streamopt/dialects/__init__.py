"""Op classes for the dialects streamopt models, and the table that finds them by name.

Each dialect module defines its ops as `Operation` subclasses with their name, accessors,
verifier, custom printer and interfaces, and registers them with `register_op`. The parser finds
the class for a custom-form rule `op_<dialect>_<name>` through `op_class_for_rule`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypeVar

from streamopt.ir.core import Operation

OpClass = TypeVar("OpClass", bound=type[Operation])
RuleFunction = TypeVar("RuleFunction", bound=Callable[..., Any])

OPS: dict[str, type[Operation]] = {}

# Callbacks for grammar rules that belong to one dialect's ops (an op header that declares its
# region's arguments, say): rule name -> function(builder, children).
RULE_CALLBACKS: dict[str, Callable[..., Any]] = {}


def register_op(cls: OpClass) -> OpClass:
    """Class decorator: make `cls` the op class for `cls.name`."""
    assert cls.name and cls.name not in OPS, f"op {cls.name!r} registered twice"
    OPS[cls.name] = cls
    return cls


def parse_rule(rule: str) -> Callable[[RuleFunction], RuleFunction]:
    """Decorator: make `function(builder, children)` the reduction of grammar rule `rule`."""

    def decorate(function: RuleFunction) -> RuleFunction:
        assert rule not in RULE_CALLBACKS, f"rule {rule!r} has two callbacks"
        RULE_CALLBACKS[rule] = function
        return function

    return decorate


def rule_name_for_op(name: str) -> str:
    """The grammar rule holding the custom form of op `name`."""
    return "op_" + name.replace(".", "_")


def load_all() -> dict[str, type[Operation]]:
    """Import every dialect module so that all ops are registered; return the table."""
    from streamopt.dialects import arith, builtin, cf, hal, scf, stream, util  # noqa: F401

    # STUB for lower-hal's tests: DROP AT MERGE in favour of lower-cmd's stream.cmd.move.
    importlib.import_module("streamopt.dialects.stream_cmd_move_stub")

    return OPS
