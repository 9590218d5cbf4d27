"""The structural verifier: values defined before use, isolation, and each op's own checks.

`verify_module` runs in time linear in the size of the module: the position of each op in its
block is numbered once (`Block.ensure_order`), so "defined before use" is O(nesting depth) per
operand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from streamopt.diagnostics import Diagnostic, DiagnosticError
from streamopt.ir.core import Block, BlockArgument, DetachedValue, Operation, OpResult, Value
from streamopt.ir.module import Module


class VerifyContext:
    """Module-wide facts shared by the ops' `verify_in_module` checks of one verifier run.

    An op whose invariant needs an analysis (a move checking that its source is not used
    afterwards) asks for it here, so it is computed once per run rather than once per op.
    """

    def __init__(self, module: Module) -> None:
        self.module = module
        self._cache: dict[str, Any] = {}

    def get(self, key: str, factory: Callable[[Module], Any]) -> Any:
        """The value cached under `key`, made by `factory(module)` on first request."""
        if key not in self._cache:
            self._cache[key] = factory(self.module)
        return self._cache[key]


def verify_module(module: Module, max_errors: int = 64) -> None:
    """Raise DiagnosticError listing every problem found (up to `max_errors`)."""
    errors: list[Diagnostic] = []
    needs_context: list[Operation] = []
    for op in module.op.walk():
        if len(errors) >= max_errors:
            break
        problem = _check_operands(op) or _check_terminators(op)
        if problem is None and (op.parent_names or op.same_types):
            problem = _check_traits(op)
        if problem is not None:
            errors.append(problem)
            continue
        found = _own_checks(op)
        if found:
            errors.extend(found)
            continue
        if type(op).verify_in_module is not Operation.verify_in_module:
            needs_context.append(op)
    if not errors and needs_context:
        context = VerifyContext(module)
        for op in needs_context:
            try:
                op.verify_in_module(context)
            except DiagnosticError as exc:
                errors.extend(exc.diagnostics)
    if errors:
        raise DiagnosticError(errors)


def verify_operation(op: Operation) -> None:
    """Verify one op and everything nested in it."""
    errors: list[Diagnostic] = []
    for nested in op.walk():
        problem = _check_operands(nested) or _check_terminators(nested)
        if problem is None and (nested.parent_names or nested.same_types):
            problem = _check_traits(nested)
        if problem is not None:
            errors.append(problem)
            continue
        errors.extend(_own_checks(nested))
    if errors:
        raise DiagnosticError(errors)


def _check_terminators(op: Operation) -> Diagnostic | None:
    """MLIR's rules for terminators: a terminator is the last op of its block, and in a known
    op's regions every block ends in one. The last op of a block may be one whose definition
    streamopt does not know (MLIR assumes such an op may be a terminator)."""
    if op.is_terminator and op.parent is not None and op.parent.last_op is not op:
        message = f"'{op.name}' op must be the last operation in the parent block"
        return Diagnostic("error", message, op.location)
    if not op.regions or op.has_no_terminator or not op.is_known:
        return None
    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if last is None:
                if is_empty_region(block):
                    continue
                message = f"'{op.name}' op empty block: expect at least a terminator"
                return Diagnostic("error", message, op.location)
            if not last.might_be_terminator:
                return Diagnostic(
                    "error", f"block with no terminator, has '{last.name}'", last.location
                )
    return None


def parent_problem(name: str, required: Sequence[str], parent: str | None) -> str | None:
    """MLIR's error (HasParent, ParentOneOf) when op `name`, which must be nested in an op
    named in `required` (anywhere if empty), is in op `parent` (None at the top level)."""
    if not required or parent in required:
        return None
    if len(required) == 1:
        return f"'{name}' op expects parent op '{required[0]}'"
    return f"'{name}' op expects parent op to be one of '{', '.join(required)}'"


def _check_traits(op: Operation) -> Diagnostic | None:
    """The op's ODS traits (`parent_names`, `same_types`), checked before its own `verify`
    as MLIR checks traits before an op's verifier. Callers skip ops that declare none: most
    ops, and the verifier's hot loop."""
    if op.parent_names:
        parent = op.parent_op
        where = parent.name if parent is not None else None
        message = parent_problem(op.name, op.parent_names, where)
        if message is not None:
            return Diagnostic("error", message, op.location)
    for names in op.same_types:
        if len({getattr(op, name).type for name in names}) > 1:
            message = f"failed to verify that all of {{{', '.join(names)}}} have same type"
            return Diagnostic("error", f"'{op.name}' op {message}", op.location)
    return None


def is_empty_region(block: Block) -> bool:
    """True for the block streamopt makes for `{}`, which MLIR reads as a region with no
    block at all (valid wherever a region may be empty)."""
    region = block.parent
    return (
        region is not None
        and len(region.blocks) == 1
        and not block.arguments
        and not block.label_hint
    )


def _own_checks(op: Operation) -> Sequence[Diagnostic]:
    """What `op.verify()` and the op's operand type constraints find, in the op's order
    (`Operation.operand_types_first`); empty when both pass."""
    first = op.operand_types_first
    problem = type_constraint_problem(op) if first else None
    if problem is None:
        try:
            op.verify()
        except DiagnosticError as exc:
            return exc.diagnostics
        if not first:
            problem = type_constraint_problem(op)
    return () if problem is None else (problem,)


def type_constraint_problem(op: Operation) -> Diagnostic | None:
    """The op definition's type constraints (`Operation.constrained_operands`, then
    `constrained_results`), worded as MLIR's verifier words them. A value of unknown type is
    not checked."""
    for value, constraint, variadic, index in op.constrained_operands():
        if value.type is None or constraint.accepts(value.type):
            continue
        if index is None:
            # The value's position, unknown: the last one when it is the op's operand more
            # than once (a resource misused as its own size: sizes follow what they size).
            index = max(i for i, operand in enumerate(op.operands) if operand is value)
        what = f"variadic of {constraint.description}" if variadic else constraint.description
        message = f"'{op.name}' op operand #{index} must be {what}, but got '{value.type}'"
        return Diagnostic("error", message, op.location)
    for value, constraint, variadic, index in op.constrained_results():
        if value.type is None or constraint.accepts(value.type):
            continue
        what = f"variadic of {constraint.description}" if variadic else constraint.description
        message = f"'{op.name}' op result #{index} must be {what}, but got '{value.type}'"
        return Diagnostic("error", message, op.location)
    return None


def _check_operands(op: Operation) -> Diagnostic | None:
    block = op.parent
    for index, value in enumerate(op.operands):
        # The common cases first: an earlier op or an argument of the same block.
        cls = value.__class__
        if cls is OpResult:
            definer = value.op  # type: ignore[attr-defined]
            if definer.parent is block and block is not None:
                block.ensure_order()
                if definer._order < op._order:
                    continue
        elif cls is BlockArgument and value.block is block:  # type: ignore[attr-defined]
            continue
        message = _definition_problem(value, op)
        if message is not None:
            return Diagnostic("error", f"operand #{index} {message}", op.location)
    return None


def _definition_problem(value: Value, user: Operation) -> str | None:
    """Why `value` may not be used by `user`, or None if it may."""
    if isinstance(value, DetachedValue):
        # Names an unmodelled op's own syntax defines; only that op's regions may use them.
        definer = value.defining
        if definer is None or not (definer is user or definer.is_ancestor_of(user)):
            return "uses a value that is not defined here"
        return None
    if isinstance(value, OpResult):
        def_op = value.op
        def_block = def_op.parent
        if def_block is None:
            return "uses the result of an op that was erased"
        ancestor = def_block.find_ancestor_op_in_block(user)
        if ancestor is None:
            if _in_same_region(def_block, user):
                return None  # Another block of a CFG region: dominance is not modelled.
            return "does not dominate this use"
        if ancestor is def_op:
            return "is used inside the op that defines it"
        if not def_op.is_before_in_block(ancestor):
            return "is used before it is defined"
        return _isolation_problem(def_op, user)
    if isinstance(value, BlockArgument):
        block = value.block
        if block.parent is None:
            return "uses an argument of a block that was erased"
        region = block.parent
        if not region.is_ancestor_of_op(user):
            return "uses a block argument from a region that does not contain it"
        return None
    return None


def _in_same_region(def_block: object, user: Operation) -> bool:
    region = getattr(def_block, "parent", None)
    return region is not None and region.is_ancestor_of_op(user)


def _isolation_problem(def_op: Operation, user: Operation) -> str | None:
    """Ops isolated from above (functions) may not use values from outside."""
    for ancestor in user.ancestors():
        if ancestor is def_op.parent_op:
            return None
        if ancestor.is_isolated_from_above:
            return "uses a value defined outside an isolated op"
    return None
