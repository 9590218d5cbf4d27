"""Op classes for the dialects streamopt models, and the table that finds them by name.

Each dialect module defines its ops as `Operation` subclasses with their name, accessors,
verifier, custom printer and interfaces, and registers them with `register_op`. The parser finds
the class for a custom-form rule `op_<dialect>_<name>` through `rule_callback_owner`, which
imports a dialect's module the first time a file uses one of its rules: a run pays for the
dialects its input holds (or its passes import), not for all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from streamopt.ir.core import Operation

OpClass = TypeVar("OpClass", bound=type[Operation])
RuleFunction = TypeVar("RuleFunction", bound=Callable[..., Any])

OPS: dict[str, type[Operation]] = {}
# The same classes by the grammar rule of their custom form (`rule_name_for_op`).
OP_RULES: dict[str, type[Operation]] = {}

# The dialect modules (streamopt.dialects.<name>), each registering the ops named <name>.*.
DIALECTS = ("arith", "builtin", "cf", "hal", "scf", "stream", "util")

# The dialect whose module registers a grammar rule's callback (`parse_rule`), by the rule
# name's prefix (the longest that matches), for rules not named after their dialect.
# `parse_rule` checks each registration against it, so it cannot fall behind the modules.
_RULE_PREFIX_DIALECTS = {
    **{f"{dialect}_": dialect for dialect in DIALECTS},
    "func_": "util",
    "async_func_": "stream",
    "resource_": "stream",
    "cmd_": "stream",
    "pack_": "stream",
    "tied_to_target": "stream",
    "constant_value": "stream",
}

# Callbacks for grammar rules that belong to one dialect's ops (an op header that declares its
# region's arguments, say): rule name -> function(builder, children).
RULE_CALLBACKS: dict[str, Callable[..., Any]] = {}

# Checks of ops streamopt keeps as written (custom syntax it does not model, or a known op in
# MLIR's generic form): op name -> function(op) raising DiagnosticError where IREE's verifier
# of that op fails. Each is a rule of the op's definition that can be read off the kept op
# (operand types, attributes), registered by the op's dialect module with `unmodelled_check`.
UNMODELLED_CHECKS: dict[str, Callable[[Operation], None]] = {}


def register_op(cls: OpClass) -> OpClass:
    """Class decorator: make `cls` the op class for `cls.name`."""
    assert cls.name and cls.name not in OPS, f"op {cls.name!r} registered twice"
    OPS[cls.name] = cls
    OP_RULES[rule_name_for_op(cls.name)] = cls
    return cls


def parse_rule(rule: str) -> Callable[[RuleFunction], RuleFunction]:
    """Decorator: make `function(builder, children)` the reduction of grammar rule `rule`."""

    def decorate(function: RuleFunction) -> RuleFunction:
        assert rule not in RULE_CALLBACKS, f"rule {rule!r} has two callbacks"
        # The dialect's module, or a module of its package (streamopt.dialects.stream.cmd).
        owner = function.__module__.removeprefix("streamopt.dialects.").partition(".")[0]
        assert dialect_of_rule(rule) == owner, (
            f"rule {rule!r} of {owner}: see _RULE_PREFIX_DIALECTS"
        )
        RULE_CALLBACKS[rule] = function
        return function

    return decorate


def unmodelled_check(
    *names: str,
) -> Callable[[Callable[[Operation], None]], Callable[[Operation], None]]:
    """Decorator: make `function(op)` the check of the ops `names` when they are kept as
    written (see UNMODELLED_CHECKS)."""

    def decorate(function: Callable[[Operation], None]) -> Callable[[Operation], None]:
        for name in names:
            assert name not in UNMODELLED_CHECKS, f"op {name!r} has two unmodelled checks"
            UNMODELLED_CHECKS[name] = function
        return function

    return decorate


def check_unmodelled(op: Operation) -> None:
    """Run the check registered for the kept-as-written op `op`, if there is one (importing
    the op's dialect module first)."""
    _load_dialect_of_op(op.name)
    check = UNMODELLED_CHECKS.get(op.name)
    if check is not None:
        check(op)


def rule_name_for_op(name: str) -> str:
    """The grammar rule holding the custom form of op `name`."""
    return "op_" + name.replace(".", "_")


def dialect_of_rule(rule: str) -> str | None:
    """The dialect (one of DIALECTS) whose module may register grammar rule `rule`'s callback
    or its op: `op_<dialect>_...` for ops, else by `_RULE_PREFIX_DIALECTS`; None for a rule no
    dialect module handles."""
    if rule.startswith("op_"):
        dialect = rule[3:].partition("_")[0]
        return dialect if dialect in DIALECTS else None
    found: str | None = None
    for prefix in _RULE_PREFIX_DIALECTS:
        if rule.startswith(prefix) and (found is None or len(prefix) > len(found)):
            found = prefix
    return _RULE_PREFIX_DIALECTS[found] if found is not None else None


def load_dialect(dialect: str) -> None:
    """Import the module of `dialect` (one of DIALECTS), registering its ops and rules."""
    if dialect in _LOADED:
        return
    import importlib

    importlib.import_module(f"streamopt.dialects.{dialect}")
    _LOADED.add(dialect)


# The dialects load_dialect has imported: asked once per kept-as-written op when verifying.
_LOADED: set[str] = set()

# Modules of a dialect package that importing the package does not import: each registers its
# ops the first time one of them is looked up (by name or by grammar rule), or by `load_all`,
# so a run pays only for the groups of ops its input holds. Op-name prefix -> module (under
# streamopt.dialects). A deferred module registers no grammar rule callback, no check of ops
# kept as written and no custom directive another module uses; `test_declared_ops.py` holds
# every op of these modules to a prefix here.
DEFERRED_MODULES: dict[str, str] = {
    "util.buffer.": "util.buffers",
    "util.string.": "util.buffers",
    "util.list.": "util.lists",
    **dict.fromkeys(
        ("util.cast", "util.cmp.", "util.numeric.", "util.range.", "util.align", "util.sizeof"),
        "util.arithmetic",
    ),
    "stream.channel.": "stream.channel",
    "stream.context.": "stream.channel",
    "stream.async.parameter.": "stream.parameter",
}


def _load_deferred(name: str, prefixes: dict[str, str]) -> None:
    """Import the deferred module whose prefix (a key of `prefixes`) `name` starts with."""
    for prefix, module in prefixes.items():
        if name.startswith(prefix):
            import importlib

            importlib.import_module(f"streamopt.dialects.{module}")
            return


# The same modules by the grammar rule prefix of their ops' custom forms.
_DEFERRED_RULES = {rule_name_for_op(p): m for p, m in DEFERRED_MODULES.items()}


def op_class(name: str) -> type[Operation] | None:
    """The class of op `name`, importing its dialect's module first; None when streamopt
    does not model the op."""
    _load_dialect_of_op(name)
    if name not in OPS:
        _load_deferred(name, DEFERRED_MODULES)
    return OPS.get(name)


def _load_dialect_of_op(name: str) -> None:
    """Import the module of op `name`'s dialect, when streamopt has one."""
    dialect = name.partition(".")[0]
    if dialect in DIALECTS:
        load_dialect(dialect)


def op_class_for_rule(rule: str) -> type[Operation] | None:
    """The op class whose custom form grammar rule `rule` holds, importing its dialect first;
    None when no dialect module registers an op for it."""
    dialect = dialect_of_rule(rule)
    if dialect is None or not rule.startswith("op_"):
        return None
    load_dialect(dialect)
    if rule not in OP_RULES:
        _load_deferred(rule, _DEFERRED_RULES)
    return OP_RULES.get(rule)


def rule_callback(rule: str) -> Callable[..., Any] | None:
    """The callback a dialect module registers for grammar rule `rule` (not an op rule),
    importing that dialect first; None when there is none."""
    dialect = dialect_of_rule(rule)
    if dialect is None:
        return None
    load_dialect(dialect)
    return RULE_CALLBACKS.get(rule)


def load_all() -> dict[str, type[Operation]]:
    """Import every dialect module so that all ops are registered; return the table."""
    for dialect in DIALECTS:
        load_dialect(dialect)
    for prefix in DEFERRED_MODULES:
        _load_deferred(prefix, DEFERRED_MODULES)
    return OPS
