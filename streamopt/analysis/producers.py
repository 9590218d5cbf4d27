"""Where a storage root comes from: fresh, borrowed, merged, an argument, or a call result.

This is the ownership rule of design section 4.1 applied to one root: results of ops that
allocate (alloca, splat, clone, slice, transfer, move, untied dispatch/call/execute results) are
fresh; a `consume` import is fresh when nothing else uses or names the imported buffer;
constants, global loads, non-consume imports and results of ops streamopt does not model are
borrowed.
Block arguments and results of control-flow ops are merges decided by what flows into them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from streamopt.analysis.effects import CALL_OP, GLOBAL_LOAD_OP, TENSOR_IMPORT_OP
from streamopt.ir.core import BlockArgument, DetachedValue, Operation, OpResult, Value
from streamopt.ir.types import ResourceType

# Ops whose untied resource results are new storage nobody else can name.
FRESH_PRODUCERS = frozenset(
    {
        "stream.async.alloca",
        "stream.async.splat",
        "stream.async.clone",
        "stream.async.slice",
        "stream.async.transfer",
        "stream.async.move",
        "stream.async.dispatch",
        "stream.async.call",
        "stream.async.collective",
        "stream.tensor.empty",
        "stream.tensor.splat",
        "stream.tensor.clone",
        "stream.tensor.slice",
        "stream.tensor.dispatch",
    }
)


class RootKind(enum.Enum):
    FRESH = "fresh"
    BORROWED = "borrowed"
    MERGE = "merge"  # decided by the values passed into it
    FUNCTION_ARGUMENT = "function argument"  # decided by the call sites
    CALL_RESULT = "call result"  # decided by the callee's summary


@dataclass(frozen=True, slots=True)
class RootOrigin:
    kind: RootKind
    reason: str = ""


def is_sole_consume_import(op: Operation) -> bool:
    """True if `op` is a `consume` import and nothing else uses or names its buffer: the
    caller handed the buffer over, so no other name may reach it."""
    if op.name != TENSOR_IMPORT_OP or not getattr(op, "consume", False):
        return False
    buffer = op.operands[0]
    # A buffer tied to another (a view's buffer, a subspan) has other names.
    tied = buffer.op.tied_operand_index(buffer.index) if isinstance(buffer, OpResult) else None
    return len(buffer.uses) == 1 and tied is None


def classify_root(root: Value, has_incoming: bool) -> RootOrigin:
    """Where the storage named by `root` (the start of a tied chain) comes from.

    `has_incoming` says whether some op forwards values into `root` (AliasAnalysis.incoming).
    """
    if isinstance(root.type, ResourceType) and root.type.lifetime == "constant":
        return RootOrigin(RootKind.BORROWED, "constant lifetime")
    if isinstance(root, DetachedValue):
        symbol = getattr(root, "symbol", None)
        if symbol is not None:
            return RootOrigin(RootKind.BORROWED, f"held by global '@{symbol}'")
        return RootOrigin(RootKind.BORROWED, "defined by an unmodelled op")
    if isinstance(root, BlockArgument):
        owner = root.block.parent_op
        if owner is not None and owner.name == "util.func" and root.block.is_entry_block():
            return RootOrigin(RootKind.FUNCTION_ARGUMENT)
        if owner is None or not owner.is_known:
            return RootOrigin(RootKind.BORROWED, "argument of an unmodelled region")
        if has_incoming:
            return RootOrigin(RootKind.MERGE)
        return RootOrigin(RootKind.BORROWED, "block argument with unknown sources")
    assert isinstance(root, OpResult)
    op = root.op
    name = op.name
    if not op.is_known:
        return RootOrigin(RootKind.BORROWED, f"produced by unmodelled op '{name}'")
    if name in FRESH_PRODUCERS:
        return RootOrigin(RootKind.FRESH)
    if name == TENSOR_IMPORT_OP:
        if is_sole_consume_import(op):
            return RootOrigin(RootKind.FRESH)
        if getattr(op, "consume", False):
            return RootOrigin(RootKind.BORROWED, "imported buffer has other uses or names")
        return RootOrigin(RootKind.BORROWED, "imported without consume")
    if name == "stream.async.constant":
        return RootOrigin(RootKind.BORROWED, "constant")
    if name == GLOBAL_LOAD_OP:
        return RootOrigin(RootKind.BORROWED, "loaded from a global")
    if name == CALL_OP:
        return RootOrigin(RootKind.CALL_RESULT)
    if has_incoming:
        return RootOrigin(RootKind.MERGE)
    return RootOrigin(RootKind.BORROWED, f"result of '{name}'")
