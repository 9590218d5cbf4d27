"""Which storages lowering frees, and after which op.

Lowering allocates storage for every async op with a fresh result (`stream.resource.alloca`,
or `stream.cmd.move` for moves) and frees it with `stream.resource.dealloca` after its last use.
`DeallocaPlan` decides, on the async IR before it is rewritten, which storage roots (see
`AliasAnalysis`) get a dealloca and where:

* a root the lowering allocates (the result of alloca, splat, clone, slice, transfer, move or
  an untied dispatch result), or a merge (a block argument, a control-flow result) every one
  of whose sources is such a root or another merge and that owns its storage
  (`OwnershipAnalysis`: each value flowing in is handed over as its last use);
* that never escapes: not returned, passed to a call, stored in a global, exported, consumed by
  a move, used by an op streamopt does not model (or inside its regions);
* and that is not handed over (`scf.yield`, a branch, a loop's initial value): then the merge
  it is handed to frees it, if it can.

Imports, globals, constants, function arguments and call results are never freed. A storage
that escapes on one path, or whose merge cannot be freed, is left allocated (never freed too
early, possibly leaked).

The dealloca goes right after the op, in the block defining the root, that holds its last use
(an `scf.for` using it in its body frees it after the loop); a root with no use is freed right
after it is defined.
"""

from __future__ import annotations

from streamopt.analysis.alias import AliasAnalysis
from streamopt.analysis.calls import CallGraph
from streamopt.analysis.effects import UseKind, classify_use
from streamopt.analysis.last_use import LastUseAnalysis
from streamopt.analysis.ownership import OwnershipAnalysis
from streamopt.dialects.scf import ForOp, IfOp, IndexSwitchOp, WhileOp
from streamopt.dialects.stream import (
    AsyncAllocaOp,
    AsyncCloneOp,
    AsyncConstantOp,
    AsyncDispatchOp,
    AsyncMoveOp,
    AsyncSliceOp,
    AsyncSplatOp,
    AsyncTransferOp,
)
from streamopt.dialects.util import FuncOp, InitializerOp
from streamopt.ir.core import Access, Block, BlockArgument, Operation, OpResult, Value
from streamopt.ir.module import Module
from streamopt.ir.types import Attribute, ResourceType

# Ops whose untied resource results the lowering allocates.
ALLOCATING_OPS = (
    AsyncAllocaOp,
    AsyncSplatOp,
    AsyncCloneOp,
    AsyncSliceOp,
    AsyncTransferOp,
    AsyncMoveOp,
    AsyncDispatchOp,
)
# Ops whose regions the lowering rewrites (values flowing through them are merges).
STRUCTURED_OPS = (IfOp, ForOp, WhileOp, IndexSwitchOp)
LOWERED_REGION_OPS = (FuncOp, InitializerOp, *STRUCTURED_OPS)


def allocation_affinity(op: Operation) -> Attribute | None:
    """Where the lowering allocates the result of `op` (one of ALLOCATING_OPS)."""
    if isinstance(op, AsyncTransferOp | AsyncMoveOp):
        return op.target_affinity or execution_affinity(op)
    return op.attributes.get("affinity")


def execution_affinity(op: AsyncTransferOp | AsyncMoveOp) -> Attribute | None:
    """Where a transfer or move runs: its `on(...)`, else IREE's default rule (the source
    affinity, or the target's when the source is external or staging memory)."""
    explicit = op.attributes.get("execution_affinity")
    if explicit is not None:
        return explicit
    source_type = op.source.type
    result_type = op.result.type
    source_lifetime = source_type.lifetime if isinstance(source_type, ResourceType) else "*"
    result_lifetime = result_type.lifetime if isinstance(result_type, ResourceType) else "*"
    if source_lifetime == "staging" and result_lifetime == "staging":
        return op.source_affinity
    if source_lifetime in ("external", "staging"):
        return op.target_affinity
    return op.source_affinity


def _is_allocated(root: Value) -> bool:
    if not isinstance(root, OpResult):
        return False
    if isinstance(root.op, AsyncConstantOp):
        # Constants are uploaded as constant memory; another lifetime is a copy of it.
        lifetime = getattr(root.type, "lifetime", "*")
        return lifetime not in ("constant", "variable")
    return isinstance(root.op, ALLOCATING_OPS)


def _is_merge(root: Value) -> bool:
    if isinstance(root, BlockArgument):
        owner = root.block.parent_op
        if isinstance(owner, FuncOp | InitializerOp):
            return not root.block.is_entry_block()
        return isinstance(owner, STRUCTURED_OPS)
    return isinstance(root, OpResult) and isinstance(root.op, STRUCTURED_OPS)


class DeallocaPlan:
    """The roots lowering frees, where, and on which affinity."""

    def __init__(self, module: Module) -> None:
        alias = AliasAnalysis(module)
        calls = CallGraph(module, alias)
        last_use = LastUseAnalysis(alias)
        self.alias = alias
        self.ownership = OwnershipAnalysis(alias, calls, last_use)
        # Op -> roots to free right after it; block -> roots to free on entry (unused args).
        self.after: dict[Operation, list[Value]] = {}
        self.at_start: dict[Block, list[Value]] = {}
        # Root -> the affinity its storage was allocated on (None: unknown or several).
        self.affinity: dict[Value, Attribute | None] = {}
        # Why a root is not freed (for --stats and tests).
        self.kept: dict[Value, str] = {}
        for root in list(alias.groups):
            if not isinstance(root.type, ResourceType):
                continue
            if not (_is_allocated(root) or _is_merge(root)):
                continue
            reason = self._why_not_freed(root)
            if reason is not None:
                self.kept[root] = reason
                continue
            self._place(root)

    def _why_not_freed(self, root: Value) -> str | None:
        alias = self.alias
        if _is_merge(root):
            if not self.ownership.is_owned(root):
                return self.ownership.reason_borrowed(root) or "not owned"
            for source in alias.backward_roots(root):
                if source is not root and not (_is_allocated(source) or _is_merge(source)):
                    return "receives storage the lowering did not allocate"
        home = _home_block(root)
        for name in alias.group(root):
            for use in name.uses:
                user = use.operation
                kind = classify_use(user, use.index)
                if kind in (UseKind.RETURN, UseKind.CALL, UseKind.ESCAPE):
                    return f"escapes through '{user.name}'"
                if kind is UseKind.PASS:
                    return f"handed over by '{user.name}'"
                if user.operand_access(use.index) & Access.CONSUME:
                    return f"consumed by '{user.name}'"
                if not _lowered_between(user, home):
                    return f"used inside an op the lowering does not rewrite ('{user.name}')"
        return None

    def _place(self, root: Value) -> None:
        alias = self.alias
        home = _home_block(root)
        assert home is not None
        home.ensure_order()
        anchor: Operation | None = root.op if isinstance(root, OpResult) else None
        for name in alias.group(root):
            for use in name.uses:
                ancestor = home.find_ancestor_op_in_block(use.operation)
                if ancestor is None:
                    continue
                if anchor is None or anchor._order < ancestor._order:
                    anchor = ancestor
        if anchor is not None and anchor.is_terminator:
            self.kept[root] = f"last used by the terminator '{anchor.name}'"
            return
        if anchor is None:
            self.at_start.setdefault(home, []).append(root)
        else:
            self.after.setdefault(anchor, []).append(root)
        self.affinity[root] = self._affinity_of(root)

    def _affinity_of(self, root: Value) -> Attribute | None:
        if _is_allocated(root):
            return allocation_affinity(root.op)  # type: ignore[attr-defined]
        affinities = {
            allocation_affinity(source.op)  # type: ignore[attr-defined]
            for source in self.alias.backward_roots(root)
            if _is_allocated(source)
        }
        return affinities.pop() if len(affinities) == 1 else None


def _home_block(root: Value) -> Block | None:
    if isinstance(root, BlockArgument):
        return root.block
    if isinstance(root, OpResult):
        return root.op.parent
    return None


def _lowered_between(user: Operation, home: Block | None) -> bool:
    """True if every op enclosing `user` below `home` is one whose regions lowering rewrites."""
    current = user.parent_op
    while current is not None and (home is None or current is not home.parent_op):
        if not isinstance(current, LOWERED_REGION_OPS):
            return False
        current = current.parent_op
    return True
