"""Which storages lowering frees, and after which op.

Lowering allocates storage for every async op with a fresh result (`stream.resource.alloca`,
or `stream.cmd.move` for moves) and frees it with `stream.resource.dealloca` after its last use.
`DeallocaPlan` decides, on the async IR before it is rewritten, which storage roots (see
`AliasAnalysis`) get a dealloca and where:

* a root the lowering allocates (the result of alloca, splat, clone, slice, transfer, move or
  an untied dispatch result), or a merge (a block argument, a control-flow result) every one
  of whose sources is such a root or another such merge, handed over as its last use: the
  source is forwarded by that op alone, once, and none of its names is used after it;
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

from streamopt.analysis.alias import AliasAnalysis, Pass
from streamopt.analysis.effects import UseKind, classify_use
from streamopt.analysis.graph import strongly_connected_components
from streamopt.analysis.last_use import LastUseAnalysis
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
    """Where a transfer or move runs: its `on(...)`; else, for a move, the target affinity (a
    move asks the target device for the storage, which it may grant by aliasing the source:
    `hal_device_queue_move(target, ...)`); else IREE's rule for transfers (the source affinity,
    or the target's when the source is external or staging memory). None is the default
    affinity (`stream.affinity.default`)."""
    explicit = op.attributes.get("execution_affinity")
    if explicit is not None:
        return explicit
    if isinstance(op, AsyncMoveOp):
        # A move without `to(...)` sends its result to the default affinity (None), as IREE
        # reads a missing affinity: it runs there too, not on its source.
        return op.target_affinity
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
        self.alias = alias
        self.last_use = LastUseAnalysis(alias)
        # Op -> roots to free right after it; block -> roots to free on entry (unused args).
        self.after: dict[Operation, list[Value]] = {}
        self.at_start: dict[Block, list[Value]] = {}
        # Root -> the affinity its storage was allocated on (None: unknown or several).
        self.affinity: dict[Value, Attribute | None] = {}
        # Why a root is not freed here: (kind, reason), kind one of "escapes" (someone else
        # owns it afterwards), "consumed" (a move frees it), "handed over" (a merge may free
        # it), "kept" (nobody frees it: the lowering could not prove it safe).
        self.kept: dict[Value, tuple[str, str]] = {}
        # Merge -> (whether every storage flowing in is one the lowering allocates, handed over
        # as its last use; the affinities those storages were allocated on).
        self._merges: dict[Value, tuple[bool, frozenset[Attribute | None]]] = {}
        self._solve_merges()
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

    def leaks(self) -> list[tuple[Value, str]]:
        """Storages the lowering allocates that nothing frees (on some path), with why: not
        freed here, and neither escaping, consumed by a move, nor handed over to a merge
        that is freed or escapes."""
        settled: dict[Value, bool] = {}

        def settles(root: Value, seen: set[Value]) -> bool:
            if root in settled:
                return settled[root]
            if root in self.affinity:
                return True
            kind = self.kept.get(root, ("kept", ""))[0]
            if kind in ("escapes", "consumed"):
                return True
            if kind != "handed over" or root in seen:
                return False
            seen.add(root)
            targets = [
                self.alias.root(target)
                for edge in self.alias.passes_from.get(root, ())
                for target in edge.targets
            ]
            result = any(settles(target, seen) for target in targets)
            settled[root] = result
            return result

        return [
            (root, self.kept[root][1])
            for root in self.kept
            if _is_allocated(root) and not settles(root, set())
        ]

    def _why_not_freed(self, root: Value) -> tuple[str, str] | None:
        alias = self.alias
        home = _home_block(root)
        for name in alias.group(root):
            for use in name.uses:
                user = use.operation
                kind = classify_use(user, use.index)
                if kind in (UseKind.RETURN, UseKind.CALL, UseKind.ESCAPE):
                    return ("escapes", f"escapes through '{user.name}'")
                if kind is UseKind.PASS:
                    return ("handed over", f"handed over by '{user.name}'")
                if user.operand_access(use.index) & Access.CONSUME:
                    return ("consumed", f"consumed by '{user.name}'")
                if not _lowered_between(user, home):
                    return ("escapes", f"used inside '{user.name}', which the lowering keeps")
        if _is_merge(root) and not self._merges[root][0]:
            return ("kept", "receives storage the lowering did not allocate, or that is used again")
        return None

    def _incoming(self, merge: Value) -> list[Pass]:
        """The handovers into `merge` (into any member of its group)."""
        alias = self.alias
        return [edge for member in alias.group(merge) for edge in alias.incoming.get(member, ())]

    def _handed_over_last(self, edge: Pass) -> bool:
        """True if `edge.op` hands over its operand's storage as that storage's last use: no
        other op forwards it, no other operand of the op names it, and no name of it is used
        after the op."""
        alias = self.alias
        source = alias.root(edge.value)
        if any(other.op is not edge.op for other in alias.passes_from.get(source, ())):
            return False
        op = edge.op
        for index, operand in enumerate(op.operands):
            if index != edge.operand_index and alias.root(operand) is source:
                return False
        positions = self.last_use.group_positions(source)
        return self.last_use.later_use_in(op, source, positions) is None

    def _solve_merges(self) -> None:
        """For every merge: are all storages flowing in allocated by the lowering, and on
        which affinities. Merges feed each other in cycles (loops), so the strongly connected
        components of the merge graph are solved sources first (Tarjan, iteratively): linear
        in the number of handovers."""
        alias = self.alias
        merges = [r for r in alias.groups if isinstance(r.type, ResourceType) and _is_merge(r)]
        incoming = {m: self._incoming(m) for m in merges}
        edges: dict[Value, list[Value]] = {
            m: [alias.root(edge.value) for edge in incoming[m]] for m in merges
        }
        # A merge with no handover at all receives nothing we know of (a block entered by an
        # op we cannot read).
        self._last_handovers = {
            m: bool(incoming[m]) and all(self._handed_over_last(e) for e in incoming[m])
            for m in merges
        }
        for component in strongly_connected_components(
            merges, lambda merge: [source for source in edges[merge] if source in edges]
        ):
            self._solve_component(component, edges)

    def _solve_component(self, component: list[Value], edges: dict[Value, list[Value]]) -> None:
        members = set(component)
        allocated = all(self._last_handovers[merge] for merge in component)
        affinities: set[Attribute | None] = set()
        for merge in component:
            for source in edges[merge]:
                if source in members:
                    continue
                if source in self._merges:
                    source_allocated, source_affinities = self._merges[source]
                    allocated = allocated and source_allocated
                    affinities.update(source_affinities)
                elif _is_allocated(source):
                    affinities.add(allocation_affinity(source.op))  # type: ignore[attr-defined]
                else:
                    allocated = False
        result = (allocated, frozenset(affinities))
        for merge in component:
            self._merges[merge] = result

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
            self.kept[root] = ("kept", f"last used by the terminator '{anchor.name}'")
            return
        if anchor is None:
            self.at_start.setdefault(home, []).append(root)
        else:
            self.after.setdefault(anchor, []).append(root)
        self.affinity[root] = self._affinity_of(root)

    def _affinity_of(self, root: Value) -> Attribute | None:
        if _is_allocated(root):
            return allocation_affinity(root.op)  # type: ignore[attr-defined]
        affinities = self._merges[root][1]
        return next(iter(affinities)) if len(affinities) == 1 else None


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
