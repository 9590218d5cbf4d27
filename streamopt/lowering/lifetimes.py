"""Which storages lowering frees, and after which op.

Lowering allocates storage for every async op with a fresh result (`stream.resource.alloca`,
or `stream.cmd.move` for moves) and frees it with `stream.resource.dealloca` after its last use.
`DeallocaPlan` decides, on the async IR before it is rewritten, which storage roots (see
`AliasAnalysis`) get a dealloca and where:

* a root the lowering allocates (the result of alloca, splat, clone, slice, transfer, move or
  an untied dispatch result), or a merge (a block argument, a control-flow result) every one
  of whose sources is such a root or another such merge, handed over as its last use: the
  source is forwarded by that op alone, once, and none of its names is used after it, nor
  inside the loop it is the initial value of (each iteration frees the loop-carried value,
  which is the initial storage at first, while the body may read that storage again);
* that never escapes: not returned, passed to a call, stored in a global, exported, used by an
  op streamopt does not model (or inside its regions);
* freed on every path from its definition that neither consumes it (`stream.async.move`) nor
  hands it over (`scf.yield`, a branch, a loop's initial value: then the merge it is handed to
  frees it, if it can). A path that does either owns it no more: it is never freed there.

The dealloca goes right after the op, in the block defining the root, that holds its last use
(an `scf.for` using it in its body frees it after the loop); a root with no use is freed right
after it is defined. When one region of an `scf.if` / `scf.index_switch` consumes or hands over
the storage, each other region frees it after its own last use there (an `scf.if` without an
else gets one). Across the blocks of a region, each block still owning the storage frees it
after its last use when no successor uses it any more; a branch edge into a block that does not
use it frees it at the start of that block, when every edge into the block does the same.

Imports, globals, constants, function arguments and call results are never freed. A storage
that escapes on one path, or whose merge cannot be freed, is left allocated, as is one consumed
or handed over on some paths where the lowering cannot free it on the others (inside a loop,
used after it, or dying on a branch edge into a block other paths enter too): never freed too
early or twice, possibly leaked, and then listed by `leaks`.
"""

from __future__ import annotations

import enum
from collections import Counter

from streamopt.analysis.alias import Handover
from streamopt.analysis.effects import UseKind, classify_use
from streamopt.analysis.graph import strongly_connected_components
from streamopt.analysis.storage import StorageModel
from streamopt.dialects.cf import BranchLikeOp
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
from streamopt.ir.core import Access, Block, BlockArgument, Operation, OpResult, Region, Value
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
        analysis = StorageModel(module)
        alias = analysis.alias
        self.alias = alias
        self.last_use = analysis.last_use
        self.ownership = analysis.ownership
        self.calls = analysis.calls
        # Op -> roots to free right after it; block -> roots to free on entry (unused args).
        self.after: dict[Operation, list[Value]] = {}
        self.at_start: dict[Block, list[Value]] = {}
        # Root -> the affinity its storage was allocated on (None: unknown or several).
        self.affinity: dict[Value, Attribute | None] = {}
        # Why a root is not freed here: (kind, reason), kind one of "escapes" (someone else
        # owns it afterwards), "consumed" (a move frees it), "handed over" (a merge may free
        # it), "kept" (nobody frees it on some path: the lowering could not prove it safe).
        self.kept: dict[Value, tuple[str, str]] = {}
        # Roots freed on some paths and handed over on others (a merge may free them there),
        # with how.
        self.handed_over_on_some_paths: dict[Value, str] = {}
        # Merge -> (whether every storage flowing in is one the lowering allocates, handed over
        # as its last use; the affinities those storages were allocated on).
        self._merges: dict[Value, tuple[bool, frozenset[Attribute | None]]] = {}
        # Region -> each block's predecessors, one entry per branch edge (None: a block ends
        # in an op whose successors streamopt cannot follow).
        self._predecessors: dict[Region, dict[Block, list[Block]] | None] = {}
        self._solve_merges()
        for root in list(alias.groups):
            if not isinstance(root.type, ResourceType):
                continue
            if not (_is_allocated(root) or _is_merge(root)):
                continue
            reason = self._plan(root)
            if reason is not None:
                self.kept[root] = reason

    def consumed_arguments(self, function: Operation) -> set[Value]:
        """The resource arguments of `function` whose storage it may free (a move, a
        dealloca, a callee that frees it): what the lowering adds may not name them."""
        summary = self.calls.summaries.get(getattr(function, "sym_name", ""))
        if summary is None:
            return set()
        arguments = function.regions[0].blocks[0].arguments
        return {arguments[i] for i, consumed in enumerate(summary.argument_consumed) if consumed}

    def leaks(self) -> list[tuple[Value, str]]:
        """Storages the lowering allocates that nothing frees (on some path), with why: not
        freed on every path here that neither consumes it nor hands it over, or handed over
        to a merge that is neither freed nor escapes."""
        # A method, not a closure: a recursive closure is a reference cycle, which would keep
        # this plan, its analyses and the IR they saw alive with the cyclic collector off.
        settled: dict[Value, bool] = {}
        found = [
            (root, reason)
            for root, (_, reason) in self.kept.items()
            if _is_allocated(root) and not self._settles(root, set(), settled)
        ]
        found.extend(
            (root, f"{how}, to storage nothing frees")
            for root, how in self.handed_over_on_some_paths.items()
            if _is_allocated(root) and not self._settles(root, set(), settled)
        )
        return found

    def _settles(self, root: Value, seen: set[Value], settled: dict[Value, bool]) -> bool:
        """Whether `root`'s storage is freed, consumed or escapes on every path, through the
        merges it is handed over to (`seen`: the roots on the way; `settled`: the answers so
        far)."""
        if root in settled:
            return settled[root]
        kind = self.kept[root][0] if root in self.kept else None
        if kind in ("escapes", "consumed"):
            return True
        if kind is None:
            if root not in self.affinity:
                return False
            if root not in self.handed_over_on_some_paths:
                return True
        elif kind != "handed over":
            return False
        if root in seen:
            return False
        seen.add(root)
        targets = [
            self.alias.root(target)
            for edge in self.alias.passes_from.get(root, ())
            for target in edge.targets
        ]
        result = any(self._settles(target, seen, settled) for target in targets)
        settled[root] = result
        return result

    def _plan(self, root: Value) -> tuple[str, str] | None:
        """Place the deallocas of `root`, or say why it gets none."""
        home = _home_block(root)
        if home is None or home.parent is None:
            return ("kept", "defined outside any block")
        paths = _Paths(self, root, home)
        escape = paths.collect()
        if escape is not None:
            return ("escapes", escape)
        try:
            places = paths.free_points()
        except _CannotFree as exc:
            how = paths.transfer_text()
            if how is None:
                return ("kept", exc.reason)
            return ("kept", f"{how} on some paths only, not freed on the others: {exc.reason}")
        if not places:
            # Every path consumes it or hands it over.
            if paths.handover is not None:
                return ("handed over", f"handed over by '{paths.handover.name}'")
            assert paths.consumer is not None
            return ("consumed", f"consumed by '{paths.consumer.name}'")
        if _is_merge(root) and not self._merges[root][0]:
            return ("kept", "receives storage the lowering did not allocate, or that is used again")
        for block, anchor in places:
            if anchor is None:
                self.at_start.setdefault(block, []).append(root)
            else:
                self.after.setdefault(anchor, []).append(root)
        self.affinity[root] = self._affinity_of(root)
        if paths.handover is not None:
            self.handed_over_on_some_paths[root] = (
                f"handed over by '{paths.handover.name}' on some paths"
            )
        return None

    def predecessors(self, region: Region) -> dict[Block, list[Block]] | None:
        """Each block of `region` -> the blocks branching to it, once per edge; None if a block
        ends in an op whose successors streamopt cannot follow."""
        if region in self._predecessors:
            return self._predecessors[region]
        found: dict[Block, list[Block]] | None = {block: [] for block in region.blocks}
        for block in region.blocks:
            terminator = block.last_op
            if terminator is None or not terminator.successors:
                continue
            if not isinstance(terminator, BranchLikeOp) or found is None:
                found = None
                break
            for successor in terminator.successors:
                if successor not in found:
                    found = None
                    break
                found[successor].append(block)
        self._predecessors[region] = found
        return found

    def _incoming(self, merge: Value) -> list[Handover]:
        """The handovers into `merge` (into any member of its group)."""
        alias = self.alias
        return [edge for member in alias.group(merge) for edge in alias.incoming.get(member, ())]

    def _handed_over_last(self, edge: Handover) -> bool:
        """True if `edge.op` hands over its operand's storage as that storage's last use: no
        other op forwards it, no other operand of the op names it, and no name of it is used
        after the op."""
        alias = self.alias
        source = alias.root(edge.value)
        if any(other.op is not edge.op for other in alias.passes_from.get(source, ())):
            return False
        op = edge.op
        if edge.operand_index is None:
            return False  # A call result handed over from a global: not the lowering's.
        for index, operand in enumerate(op.operands):
            if index != edge.operand_index and alias.root(operand) is source:
                return False
        if op.regions and self._used_inside(source, op):
            # A loop's initial value read in the loop itself: the body may read it again after
            # an iteration is done with the loop-carried value (the same storage at first).
            return False
        positions = self.last_use.group_positions(source)
        if self.last_use.later_use_in(op, source, positions) is not None:
            return False
        # Nothing else may observe the storage from the op on: no name of it escaped before
        # (an export, a global store, a call: the host or another function still holds it),
        # none is used later or inside the loop the op starts, and the op hands it on once.
        return self.ownership.conflict_at(op, edge.operand_index) is None

    def _used_inside(self, root: Value, op: Operation) -> bool:
        """True if a name of `root`'s storage is used by an op nested in `op`'s regions."""
        return any(
            op.is_ancestor_of(use.operation) for name in self.alias.group(root) for use in name.uses
        )

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

    def _affinity_of(self, root: Value) -> Attribute | None:
        if _is_allocated(root):
            return allocation_affinity(root.op)  # type: ignore[attr-defined]
        affinities = self._merges[root][1]
        return next(iter(affinities)) if len(affinities) == 1 else None


class _CannotFree(Exception):
    """The lowering cannot free a storage on every path that still owns it (`reason`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Outcome(enum.Enum):
    """What running an op (or a block) does to the ownership of a storage."""

    KEPT = "kept"  # no path through it consumes or hands over the storage
    GONE = "gone"  # every path through it does
    PARTLY = "partly"  # some of its regions do; the others free it (inside it)
    SOME_EDGES = "some edges"  # a branch handing it to some of its successors only


# A dealloca: in a block, right after an op (None: at the start of the block).
FreePoint = tuple[Block, Operation | None]


class _Paths:
    """Where one root's storage must be freed: on each path from its definition that neither
    consumes it nor hands it over, right after the last use on that path.

    Only ops holding a use (or containing one) are looked at, and only the blocks between the
    definition and the uses: the cost is linear in the uses and in the blocks the storage is
    live in.
    """

    def __init__(self, plan: DeallocaPlan, root: Value, home: Block) -> None:
        self.plan = plan
        self.root = root
        self.home = home
        # Block -> the ops in it that use the storage or contain a use (as an ordered set).
        self.holders: dict[Block, dict[Operation, None]] = {}
        # Op consuming or handing over the storage -> the successors a branch hands it to
        # (None: every path leaving the op).
        self.transfers: dict[Operation, frozenset[Block] | None] = {}
        # Ops with a consuming or handing-over use nested in their regions.
        self.enclosing: set[Operation] = set()
        self.consumer: Operation | None = None
        self.handover: Operation | None = None

    def transfer_text(self) -> str | None:
        """How the storage leaves on the paths it does ("consumed by 'op'"), if any."""
        if self.consumer is not None:
            return f"consumed by '{self.consumer.name}'"
        if self.handover is not None:
            return f"handed over by '{self.handover.name}'"
        return None

    def collect(self) -> str | None:
        """Record the ops using the storage; say how it escapes, if it does."""
        alias = self.plan.alias
        for name in alias.group(self.root):
            for use in name.uses:
                user = use.operation
                kind = classify_use(user, use.index)
                if kind in (UseKind.RETURN, UseKind.CALL, UseKind.ESCAPE):
                    return f"escapes through '{user.name}'"
                if not _lowered_between(user, self.home):
                    return f"used inside '{user.name}', which the lowering keeps"
                transfer = False
                if kind is UseKind.PASS:
                    self.handover = self.handover or user
                    self._add_handover(user, use.index)
                    transfer = True
                elif user.operand_access(use.index) & Access.CONSUME:
                    self.consumer = self.consumer or user
                    self.transfers[user] = None
                    transfer = True
                if not self._add_holder(user, transfer):
                    return f"used by '{user.name}' outside the region defining it"
        return None

    def _add_handover(self, user: Operation, index: int) -> None:
        if not isinstance(user, BranchLikeOp):
            self.transfers[user] = None
            return
        place = user.successor_operand_index(index)
        if place is None:
            return
        if user in self.transfers and self.transfers[user] is None:
            return
        previous = self.transfers.get(user) or frozenset()
        self.transfers[user] = previous | {user.successors[place[0]]}

    def _add_holder(self, user: Operation, transfer: bool) -> bool:
        """Record `user` and its ancestors up to the home region; False if it is not inside
        that region."""
        region = self.home.parent
        op = user
        while True:
            block = op.parent
            if block is None:
                return False
            holders = self.holders.setdefault(block, {})
            if op in holders and not transfer:
                return True  # Its ancestors are recorded already.
            holders[op] = None
            if block.parent is region:
                return True
            parent = block.parent_op
            if parent is None:
                return False
            if transfer:
                self.enclosing.add(parent)
            op = parent

    # -- where to free ---------------------------------------------------------------------

    def free_points(self) -> list[FreePoint]:
        """Where to free the storage; none if every path consumes it or hands it over.
        Raises _CannotFree if some path keeps it where the lowering cannot free it."""
        home = self.home
        region = home.parent
        elsewhere = any(block is not home and block.parent is region for block in self.holders)
        if not elsewhere:
            outcome, inner, last = self._scan(home)
            if outcome is _Outcome.GONE:
                return []
            if outcome is _Outcome.PARTLY:
                return inner
            if outcome is _Outcome.KEPT:
                return [self._after_last_use(home, last)]
        assert region is not None
        return self._across_blocks(region)

    def _scan(self, block: Block) -> tuple[_Outcome, list[FreePoint], Operation | None]:
        """What `block` does to the storage (frees inside it where it does so partly), and
        its last op using it. A consuming or handing-over op must be the last use."""
        holders = self.holders.get(block)
        if not holders:
            return _Outcome.KEPT, [], None
        block.ensure_order()
        ordered = sorted(holders, key=lambda op: op._order)
        last = ordered[-1]
        for op in ordered:
            if op not in self.transfers and op not in self.enclosing:
                continue
            outcome, inner = self._outcome_of(op)
            if outcome is _Outcome.KEPT:
                continue
            if op is not last:
                raise _CannotFree(f"used after '{op.name}' consumes it or hands it over")
            return outcome, inner, last
        return _Outcome.KEPT, [], last

    def _outcome_of(self, op: Operation) -> tuple[_Outcome, list[FreePoint]]:
        if op in self.transfers:
            successors = self.transfers[op]
            if successors is None or all(s in successors for s in op.successors):
                return _Outcome.GONE, []
            return _Outcome.SOME_EDGES, []
        if isinstance(op, IfOp | IndexSwitchOp):
            return self._exclusive(op)
        raise _CannotFree(
            f"consumed or handed over inside '{op.name}', which may run that several times or "
            "not at all"
        )

    def _exclusive(self, op: IfOp | IndexSwitchOp) -> tuple[_Outcome, list[FreePoint]]:
        """One region of `op` runs: regions that keep the storage free it after their last
        use, if another region consumes it or hands it over."""
        if isinstance(op, IfOp):
            op.ensure_else_block()
        outcomes: list[tuple[Block, _Outcome, list[FreePoint], Operation | None]] = []
        for region in op.regions:
            if len(region.blocks) != 1:
                raise _CannotFree(f"used in a region of '{op.name}' with several blocks")
            block = region.blocks[0]
            outcome, inner, last = self._scan(block)
            if outcome is _Outcome.SOME_EDGES:
                raise _CannotFree(f"handed to some successors only inside '{op.name}'")
            outcomes.append((block, outcome, inner, last))
        kinds = {outcome for _, outcome, _, _ in outcomes}
        if kinds == {_Outcome.GONE} or kinds == {_Outcome.KEPT}:
            return kinds.pop(), []
        places: list[FreePoint] = []
        for block, outcome, inner, last in outcomes:
            if outcome is _Outcome.PARTLY:
                places.extend(inner)
            elif outcome is _Outcome.KEPT:
                places.append(self._after_last_use(block, last))
        return _Outcome.PARTLY, places

    def _after_last_use(self, block: Block, last: Operation | None) -> FreePoint:
        """Right after `last` in `block`; with no use there, right after the definition in the
        home block, else at the start of `block`."""
        if last is None:
            if block is self.home and isinstance(self.root, OpResult):
                return (block, self.root.op)
            return (block, None)
        if last.is_terminator:
            raise _CannotFree(f"last used by the terminator '{last.name}'")
        return (block, last)

    def _across_blocks(self, region: Region) -> list[FreePoint]:
        """The storage is used in several blocks of `region` (or handed to some successors of
        a branch only). A block owning it passes it on along each edge to a block that still
        uses it (or is on the way to one); where no edge does, the block frees it after its
        last use; an edge into a block that does not use it frees it at the start of that
        block, if every edge into that block does."""
        predecessors = self.plan.predecessors(region)
        if predecessors is None:
            raise _CannotFree("used across blocks whose branches streamopt cannot follow")
        home = self.home
        entry = region.blocks[0]
        # Blocks after the definition using the storage or leading to a use (without passing
        # the definition again).
        live: set[Block] = set()
        stack = [block for block in self.holders if block.parent is region and block is not home]
        while stack:
            block = stack.pop()
            if block in live:
                continue
            if block is entry:
                raise _CannotFree("used in a block its definition does not dominate")
            live.add(block)
            stack.extend(p for p in predecessors[block] if p is not home and p not in live)
        owned = {home}
        owned_edges: Counter[Block] = Counter()
        dying_edges: Counter[Block] = Counter()
        places: list[FreePoint] = []
        worklist = [home]
        while worklist:
            block = worklist.pop()
            outcome, inner, last = self._scan(block)
            if outcome is _Outcome.GONE:
                continue
            if outcome is _Outcome.PARTLY:
                places.extend(inner)
                continue
            terminator = block.last_op
            handed = self.transfers.get(terminator) if terminator is not None else None
            handed_to = handed if outcome is _Outcome.SOME_EDGES and handed else frozenset()
            passes_on = False
            dying: list[Block] = []
            for successor in terminator.successors if terminator is not None else ():
                if successor in handed_to:
                    passes_on = True
                elif successor in live:
                    passes_on = True
                    owned_edges[successor] += 1
                    if successor not in owned:
                        owned.add(successor)
                        worklist.append(successor)
                else:
                    dying.append(successor)
            if not passes_on:
                places.append(self._after_last_use(block, last))
            else:
                dying_edges.update(dying)
        if not live <= owned:
            raise _CannotFree("used in a block entered after a path consumed or handed it over")
        for block in owned:
            if block is not home and owned_edges[block] != len(predecessors[block]):
                raise _CannotFree("used in a block other paths, not owning it, enter too")
        for block, edges in dying_edges.items():
            if block is home or block is entry or block in owned:
                raise _CannotFree("dies on a branch back to a block that owns it again")
            if edges != len(predecessors[block]):
                raise _CannotFree(
                    "dies on a branch into a block other paths enter too (freeing it there "
                    "would need a block of its own)"
                )
            places.append((block, None))
        return places


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
