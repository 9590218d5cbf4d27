"""Last-use queries: can any other name of a storage be used after a given op?

A use nested in a region counts at its ancestor in the block being compared, so for an op `X`
we look, at every level from `X` out to its function, for a use in an op after `X`'s ancestor
in that block. Around that:

* a loop (or a region streamopt does not model) re-runs its body, so a storage defined outside
  it is never last-used inside it, and a use inside it of any other name defined outside it
  runs again after the op;
* regions of one `scf.if` exclude each other: a use in the `else` branch is neither before nor
  after a use in the `then` branch (it is nested in the same ancestor, never after it);
* in a region with several blocks, every block reachable from the op's block runs after it,
  and a block on a cycle may run again.

For each storage the positions of its uses are projected to every enclosing block once (the
largest position per block), so each query costs O(nesting depth).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from streamopt.analysis.alias import AliasAnalysis, is_defined_inside
from streamopt.analysis.graph import strongly_connected_components
from streamopt.ir.core import (
    Block,
    BlockArgument,
    Operation,
    OpResult,
    Region,
    RegionKind,
    Use,
    Value,
)


@dataclass(frozen=True, slots=True)
class LaterUse:
    """Why an op is not the last use: `user` may run after it (`reason` says how)."""

    user: Operation
    reason: str


class UsePositions:
    """The largest position, per enclosing block, of a set of uses (and the use there)."""

    __slots__ = ("latest",)

    def __init__(self) -> None:
        self.latest: dict[Block, tuple[int, Operation]] = {}

    def add(self, user: Operation) -> None:
        op: Operation | None = user
        latest = self.latest
        while op is not None:
            block = op.parent
            if block is None:
                return
            block.ensure_order()
            order = op._order
            current = latest.get(block)
            if current is None or current[0] < order:
                latest[block] = (order, user)
            parent = block.parent.parent if block.parent is not None else None
            if parent is not None and parent.region_kind is RegionKind.CALLABLE:
                return
            op = parent

    def merge(self, other: UsePositions) -> None:
        latest = self.latest
        for block, entry in other.latest.items():
            current = latest.get(block)
            if current is None or current[0] < entry[0]:
                latest[block] = entry


UseFilter = Callable[[Use], bool]


class _Reachability:
    """For each block of a region, the blocks that may run after it (reachable from its
    successors), as a bit set over the region's blocks. Built over the strongly connected
    components of the block graph, successors first, so a region costs blocks x edges / 64
    word operations rather than a walk per block."""

    __slots__ = ("_after", "_avoiding", "_bit", "_successors")

    def __init__(
        self, bit: dict[Block, int], after: dict[Block, int], successors: dict[Block, list[Block]]
    ) -> None:
        self._bit = bit
        self._after = after
        self._successors = successors
        self._avoiding: dict[tuple[Block, Block], int] = {}

    @classmethod
    def of(cls, region: Region) -> _Reachability | None:
        successors: dict[Block, list[Block]] = {}
        for block in region.blocks:
            terminator = block.last_op
            if terminator is not None and not terminator.is_known and terminator.name:
                return None
            successors[block] = list(terminator.successors) if terminator is not None else []
        bit = {block: 1 << index for index, block in enumerate(region.blocks)}
        after: dict[Block, int] = {}
        for component in strongly_connected_components(
            region.blocks, lambda block: [s for s in successors[block] if s in bit]
        ):
            members = 0
            for block in component:
                members |= bit[block]
            reach = 0
            cyclic = len(component) > 1
            for block in component:
                for successor in successors[block]:
                    if successor not in bit:
                        continue
                    if successor in after:
                        reach |= bit[successor] | after[successor]
                    else:  # In this component.
                        cyclic = True
            if cyclic:
                reach |= members
            for block in component:
                after[block] = reach
        return cls(bit, after, successors)

    def after(self, block: Block) -> int:
        return self._after.get(block, 0)

    def from_entry(self, block: Block) -> int:
        """`block` and the blocks that may run after it: what runs once control enters it."""
        return self._after.get(block, 0) | self._bit.get(block, 0)

    def contains(self, bits: int, block: Block) -> bool:
        return bool(bits & self._bit.get(block, 0))

    def after_avoiding(self, block: Block, avoided: Block) -> int:
        """The blocks that may run after `block` on paths that do not enter `avoided`.

        Only blocks from which `avoided` can still be reached are walked; everything after
        a block that cannot reach it is taken whole from the bit sets. So a query costs the
        blocks between `block` and `avoided` (the loop they share), once per pair."""
        after = self._after.get(block, 0)
        if not self.contains(after, avoided):
            return after
        key = (block, avoided)
        cached = self._avoiding.get(key)
        if cached is not None:
            return cached
        bit, successors = self._bit, self._successors
        reach = 0
        seen: set[Block] = set()
        pending = [s for s in successors[block] if s is not avoided and s in bit]
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            if not self.contains(self._after.get(current, 0), avoided):
                reach |= self.from_entry(current)
                continue
            reach |= bit[current]
            pending.extend(
                s for s in successors[current] if s is not avoided and s in bit and s not in seen
            )
        self._avoiding[key] = reach
        return reach

    def entered_avoiding(self, block: Block, start: Block | None, avoided: Block) -> int:
        """The blocks that may run after `block` (after entering `start`, when given: `block`
        branches there) on paths that do not enter `avoided`."""
        if start is None:
            return self.after_avoiding(block, avoided)
        if start is avoided:
            return 0
        return self._bit.get(start, 0) | self.after_avoiding(start, avoided)


def _order_chain(op: Operation) -> dict[Block, int]:
    """For each block enclosing `op`, the position of `op`'s ancestor in it."""
    chain: dict[Block, int] = {}
    current: Operation | None = op
    while current is not None and current.parent is not None:
        block = current.parent
        block.ensure_order()
        chain[block] = current._order
        current = current.parent_op
    return chain


def _runs_after(op: Operation, anchor_chain: dict[Block, int]) -> bool:
    """True if `op` certainly runs after the op whose `_order_chain` is `anchor_chain`: at
    the innermost block they share, `op`'s ancestor comes later. Ops in other blocks or
    functions are not known to run after it."""
    current: Operation | None = op
    while current is not None and current.parent is not None:
        block = current.parent
        anchor_order = anchor_chain.get(block)
        if anchor_order is not None:
            block.ensure_order()
            return current._order > anchor_order
        current = current.parent_op
    return False


def _split_blocks(a: Operation, b: Operation) -> tuple[Block, Block, Region] | None:
    """The blocks of `a` and `b` (or of their ancestors) in the innermost region holding both,
    when those are different blocks; None when one block holds both, or no region does."""
    a_block_in: dict[Region, Block] = {}
    current: Operation | None = a
    while current is not None and current.parent is not None:
        block = current.parent
        if block.parent is not None:
            a_block_in.setdefault(block.parent, block)
        current = current.parent_op
    current = b
    while current is not None and current.parent is not None:
        block = current.parent
        region = block.parent
        if region is not None and region in a_block_in:
            a_block = a_block_in[region]
            return None if a_block is block else (a_block, block, region)
        current = current.parent_op
    return None


def _innermost_split(a: Operation, b: Operation) -> tuple[Region, Operation, Operation] | None:
    """The innermost region holding both `a` and `b` (or ancestors of them), with those
    ancestors: in one block of it (the same op when one contains the other, or both are in
    regions of that op), or in two of its blocks. None when no region holds both."""
    a_tops: dict[Region, Operation] = {}
    current: Operation | None = a
    while current is not None and current.parent is not None:
        region = current.parent.parent
        if region is not None:
            a_tops.setdefault(region, current)
        current = current.parent_op
    current = b
    while current is not None and current.parent is not None:
        region = current.parent.parent
        if region is not None and region in a_tops:
            current.parent.ensure_order()
            a_top = a_tops[region]
            if a_top.parent is not None:
                a_top.parent.ensure_order()
            return region, a_top, current
        current = current.parent_op
    return None


def _defined_in_block(value: Value, block: Block) -> bool:
    """True if `value` is an argument of `block` or the result of an op directly in it."""
    if isinstance(value, BlockArgument):
        return value.block is block
    if isinstance(value, OpResult):
        return value.op.parent is block
    return False


def _ancestor_blocks(op: Operation) -> set[Block]:
    """The blocks containing `op` or one of its ancestors."""
    blocks: set[Block] = set()
    current: Operation | None = op
    while current is not None and current.parent is not None:
        blocks.add(current.parent)
        current = current.parent_op
    return blocks


class LastUseAnalysis:
    """Answers "is there a later use of this storage?" using an AliasAnalysis."""

    def __init__(self, alias: AliasAnalysis) -> None:
        self.alias = alias
        self._group_positions: dict[tuple[Value, str], UsePositions] = {}
        self._reachable: dict[Region, _Reachability | None] = {}

    # -- positions -------------------------------------------------------------------------

    def group_positions(
        self, root: Value, key: str = "all", keep: UseFilter | None = None
    ) -> UsePositions:
        """Positions of the uses of `root`'s group (those `keep` accepts)."""
        cache_key = (root, key)
        positions = self._group_positions.get(cache_key)
        if positions is None:
            positions = UsePositions()
            for value in self.alias.group(root):
                for use in value.uses:
                    if keep is None or keep(use):
                        positions.add(use.operation)
            self._group_positions[cache_key] = positions
        return positions

    # -- queries ---------------------------------------------------------------------------

    def positions_at(
        self, root: Value, anchor: Operation, key: str = "all", keep: UseFilter | None = None
    ) -> UsePositions:
        """Positions of the uses of every name `root`'s storage may have when `anchor` runs.

        Only handovers that may run before `anchor`, on a path through it, rename the storage
        for it: a handover after `anchor` is itself a use of a name already counted (so it is
        found anyway, and what it hands to need not be followed), and one on a path exclusive
        with `anchor` (the other branch of an `scf.if`) never happens when `anchor` does.
        Keeping the followed names to those keeps long chains of handovers linear.
        """
        return self.merged_positions(self.forward_roots_at(root, anchor), key, keep)

    def merged_positions(
        self, roots: Iterable[Value], key: str = "all", keep: UseFilter | None = None
    ) -> UsePositions:
        """Positions of the uses of every group in `roots`."""
        roots = list(roots)
        if len(roots) == 1:
            return self.group_positions(roots[0], key, keep)
        positions = UsePositions()
        for other in roots:
            positions.merge(self.group_positions(other, key, keep))
        return positions

    def forward_roots_at(
        self, root: Value, anchor: Operation, skip: Operation | None = None
    ) -> set[Value]:
        """The roots `root`'s storage may have been handed to before `anchor` runs, on a path
        through `anchor` (see `positions_at`). Handovers by `skip` are not followed: they are
        the ones whose exclusivity is being decided."""
        seen = {root}
        stack = [root]
        anchor_chain: dict[Block, int] | None = None
        while stack:
            node = stack.pop()
            for edge in self.alias.passes_from.get(node, ()):
                if edge.op is skip:
                    continue
                if anchor_chain is None:
                    anchor_chain = _order_chain(anchor)
                if (
                    _runs_after(edge.op, anchor_chain)
                    or self.exclusive(edge.op, anchor)
                    or self.rebound_between(edge.op, anchor, root)
                ):
                    continue
                for target in edge.targets:
                    target_root = self.alias.root(target)
                    if target_root not in seen:
                        seen.add(target_root)
                        stack.append(target_root)
        return seen

    def handed_on_later(self, root: Value, anchor: Operation) -> set[Value]:
        """The roots `root`'s storage may reach through a handover that may run after
        `anchor` (later in its block, in a block after it, on a later trip round a loop, in
        another function), or through a return of the function (the callers' names, once it
        is done): they may hold the storage after `anchor` wherever their own uses are, even
        before `anchor` in program order (a loop's next iteration)."""
        later: set[Value] = set()
        seen: set[tuple[Value, bool]] = {(root, False)}
        stack = [(root, False)]
        while stack:
            node, after = stack.pop()
            steps = [
                (target, after or self.may_run_after(edge.op, anchor))
                for edge in self.alias.passes_from.get(node, ())
                for target in edge.targets
            ]
            steps.extend((target, True) for target in self.alias.returned_to(node))
            for target, following in steps:
                state = (self.alias.root(target), following)
                if state not in seen:
                    seen.add(state)
                    stack.append(state)
                    if following:
                        later.add(state[0])
        return later

    def may_run_after(self, a: Operation, b: Operation) -> bool:
        """False only if `a` provably never runs after `b` starts: it is earlier in their
        innermost common block, in a block `b`'s block cannot reach, in the other branch of
        an `scf.if`, or it contains `b` (its own uses run first), and nothing around it runs
        again (a loop, a block on a cycle, a region streamopt does not model). Ops of
        different functions may run in any order."""
        split = _innermost_split(a, b)
        if split is None:
            return True  # Different functions (or detached ops).
        region, a_top, b_top = split
        if a_top.parent is not b_top.parent:
            # Different blocks of `region`.
            reach = self._reachability(region)
            assert a_top.parent is not None and b_top.parent is not None
            if reach is None or reach.contains(reach.after(b_top.parent), a_top.parent):
                return True
            return self._region_repeats(region)
        if a_top is not b_top:
            return a_top._order > b_top._order or self._repeats(a_top)
        if a_top is b and a is not b:
            return True  # `a` is nested in `b`.
        if a_top is a or a_top.region_kind is RegionKind.EXCLUSIVE:
            # `a` itself or its ancestor holds `b`, or they are in branches that exclude
            # each other: only a second run brings `a` after `b`.
            return self._repeats(a_top)
        return True  # Different regions of one op that may run them in any order.

    def _repeats(self, op: Operation) -> bool:
        """True if `op` may run more than once in one run of its function: its block is on a
        cycle of blocks, or it is nested in a loop or an unmodelled region, at any level."""
        block = op.parent
        region = block.parent if block is not None else None
        if block is None or region is None:
            return False
        if len(region.blocks) > 1:
            reach = self._reachability(region)
            if reach is None or reach.contains(reach.after(block), block):
                return True
        return self._region_repeats(region)

    def _region_repeats(self, region: Region) -> bool:
        """True if `region` may run more than once in one run of its function."""
        parent = region.parent
        if parent is None or parent.region_kind is RegionKind.CALLABLE:
            return False
        if parent.region_kind in (RegionKind.LOOP, RegionKind.UNKNOWN):
            return True
        return self._repeats(parent)

    def rebound_between(self, a: Operation, b: Operation, root: Value) -> bool:
        """True if `root` is bound anew on every path from `a` to `b`: they are in (or
        nested in) different blocks of the region of the block that defines `root` (see
        `_binding_block`), and `b`'s can only be reached from `a`'s through that block.
        What `a` does with `root`'s storage then concerns storage `root` named before (in an
        earlier iteration of a loop of blocks), not the storage it names at `b`; storage
        carried back into `root` comes through a handover whose own exclusivity is checked."""
        owner = _binding_block(root)
        region = owner.parent if owner is not None else None
        if owner is None or region is None or len(region.blocks) < 2:
            return False
        a_top, b_top = _ancestor_in(a, region), _ancestor_in(b, region)
        if a_top is None or b_top is None or a_top.parent is b_top.parent:
            return False
        if isinstance(root, OpResult):
            # An op of `owner` before the definition sees the storage of the previous time
            # round (or none): keep it simple and claim nothing.
            owner.ensure_order()
            for top in (a_top, b_top):
                if top.parent is owner and top._order <= root.op._order:
                    return False
        reach = self._reachability(region)
        if reach is None:
            return False
        a_block, b_block = a_top.parent, b_top.parent
        assert a_block is not None and b_block is not None
        return not reach.contains(reach.after_avoiding(a_block, owner), b_block)

    def may_run_before(self, a: Operation, b: Operation) -> bool:
        """False if `a` can only run after `b` or never on a path through it: later in their
        innermost common block, in a block of a region that `b`'s block cannot be reached
        from, or in the other branch of an `scf.if`."""
        if self.exclusive(a, b) or _runs_after(a, _order_chain(b)):
            return False
        split = _split_blocks(a, b)
        if split is None:
            return True
        a_block, b_block, region = split
        reach = self._reachability(region)
        return reach is None or reach.contains(reach.after(a_block), b_block)

    def exclusive(self, a: Operation, b: Operation) -> bool:
        """True if `a` and `b` never run on the same path: different regions of an op whose
        regions exclude each other (scf.if), or blocks of one region neither of which reaches
        the other."""
        a_blocks = _ancestor_blocks(a)
        current: Operation | None = b
        while current is not None:
            block = current.parent
            if block is None or block in a_blocks:
                return False  # One block holds both: one runs before the other.
            region = block.parent
            if region is None:
                return False
            for other in region.blocks:
                if other is not block and other in a_blocks:
                    reach = self._reachability(region)
                    if reach is None:
                        return False  # Unknown control flow: assume one may follow the other.
                    return not reach.contains(reach.after(other), block) and not reach.contains(
                        reach.after(block), other
                    )
            owner = region.parent
            if owner is None:
                return False
            for sibling in owner.regions:
                if sibling is not region and any(blk in a_blocks for blk in sibling.blocks):
                    return owner.region_kind is RegionKind.EXCLUSIVE
            current = owner
        return False

    def later_use(self, op: Operation, value: Value) -> LaterUse | None:
        """A use of `value`'s storage (through any name) that may run after `op`, or None."""
        root = self.alias.root(value)
        roots = self.forward_roots_at(root, op)
        return self.later_use_in(op, root, self.merged_positions(roots), roots)

    def later_use_in(
        self,
        op: Operation,
        root: Value,
        positions: UsePositions,
        others: Iterable[Value] = (),
        key: str = "all",
        keep: UseFilter | None = None,
        successor: Block | None = None,
    ) -> LaterUse | None:
        """Like `later_use`, for precomputed `positions` of the storage rooted at `root`.

        `others` are further roots whose uses `positions` holds (names the storage was handed
        to): around a loop, a use of one of them inside the loop also runs again when it is
        defined outside the loop (`key`/`keep` select which of their uses count, as for
        `group_positions`). `successor`, for a branch `op`, is the block control goes to:
        only what runs once it is entered counts (not the branch's other successors).
        """
        others = [other for other in others if other is not root]
        start = successor
        current = op
        while True:
            block = current.parent
            if block is None:
                return None
            block.ensure_order()
            entry = positions.latest.get(block)
            if entry is not None and entry[0] > current._order:
                return LaterUse(entry[1], "used later")
            region = block.parent
            if region is None:
                return None
            if len(region.blocks) > 1:
                found = self._later_in_other_blocks(block, region, positions, current, root, start)
                if found is None and others:
                    found = self._again_in_cycle(block, region, others, key, keep, start)
                if found is not None:
                    return found
            start = None
            parent = region.parent
            if parent is None or parent.region_kind is RegionKind.CALLABLE:
                return None
            if parent.region_kind in (RegionKind.LOOP, RegionKind.UNKNOWN):
                kind = "loop" if parent.region_kind is RegionKind.LOOP else "unmodelled region"
                if not is_defined_inside(root, parent):
                    return LaterUse(parent, f"inside a {kind} that runs it again")
                for other in others:
                    if is_defined_inside(other, parent):
                        continue
                    user = self.used_inside(other, parent, key, keep)
                    if user is not None:
                        return LaterUse(user, f"used inside a {kind} that runs it again")
            current = parent

    def _later_in_other_blocks(
        self,
        block: Block,
        region: Region,
        positions: UsePositions,
        current: Operation,
        root: Value,
        start: Block | None = None,
    ) -> LaterUse | None:
        reach = self._reachability(region)
        if reach is None:
            # A block ends in an op whose successors we cannot see: anything may follow.
            for other in region.blocks:
                entry = positions.latest.get(other)
                if other is not block and entry is not None:
                    return LaterUse(entry[1], "used in another block")
            return None
        owner = _rebinding_block(root, region)
        if owner is not None:
            # `root` is bound anew each time control enters `owner` (a loop header's carried
            # value, as scf-to-cf makes them, or a value a block of the loop makes; `owner`
            # may be `block` itself): from then on the name denotes other storage, so only
            # blocks reached without passing through `owner` see this storage.
            unrebound = reach.entered_avoiding(block, start, owner)
            if reach.contains(unrebound, block):
                return LaterUse(
                    block.last_op or current, "inside a loop of blocks that runs it again"
                )
            for other, entry in positions.latest.items():
                if (
                    other is not block
                    and other.parent is region
                    and reach.contains(unrebound, other)
                ):
                    return LaterUse(entry[1], "used in a later block")
            return None
        after = reach.after(block) if start is None else reach.from_entry(start)
        if reach.contains(after, block) and not _defined_in_block(root, block):
            # The block runs again on the same storage; storage the block itself defines is
            # defined anew each time round.
            return LaterUse(block.last_op or current, "inside a loop of blocks that runs it again")
        for other, entry in positions.latest.items():
            if other is not block and other.parent is region and reach.contains(after, other):
                return LaterUse(entry[1], "used in a later block")
        return None

    def _again_in_cycle(
        self,
        block: Block,
        region: Region,
        others: Iterable[Value],
        key: str,
        keep: UseFilter | None,
        start: Block | None = None,
    ) -> LaterUse | None:
        """A use in `block` (before the op) of a name the block does not define, when the
        block is on a cycle: it runs again after the op."""
        reach = self._reachability(region)
        if reach is None:
            return None
        after = reach.after(block) if start is None else reach.from_entry(start)
        if not reach.contains(after, block):
            return None
        for other in others:
            if _defined_in_block(other, block):
                continue
            entry = self.group_positions(other, key, keep).latest.get(block)
            if entry is None:
                continue
            # A name carried by another block of the cycle is rebound when control gets there.
            owner = _rebinding_block(other, region)
            if owner is not None and not reach.contains(
                reach.entered_avoiding(block, start, owner), block
            ):
                continue
            return LaterUse(entry[1], "used inside a loop of blocks that runs it again")
        return None

    def used_inside(
        self, root: Value, op: Operation, key: str = "all", keep: UseFilter | None = None
    ) -> Operation | None:
        """A use of `root`'s group nested in a region of `op`, or None."""
        latest = self.group_positions(root, key, keep).latest
        for region in op.regions:
            for block in region.blocks:
                entry = latest.get(block)
                if entry is not None:
                    return entry[1]
        return None

    def _reachability(self, region: Region) -> _Reachability | None:
        """Which blocks of `region` run after which; None if a block's exits are unknown."""
        if region not in self._reachable:
            self._reachable[region] = _Reachability.of(region)
        return self._reachable[region]

    def uses_at(self, op: Operation, roots: Iterable[Value], skip_index: int) -> Operation | None:
        """`op` itself if one of its operands other than `skip_index` names one of `roots`."""
        names = set(roots)
        for index, operand in enumerate(op.operands):
            if index != skip_index and self.alias.root(operand) in names:
                return op
        return None


def _binding_block(root: Value) -> Block | None:
    """The block that defines `root` anew each time control passes through it: the block
    `root` is an argument of, or the block of the modelled op whose (untied) result it is. An
    op streamopt does not model may return the same storage every time, so its results are
    never rebound."""
    if isinstance(root, BlockArgument):
        return root.owner
    if isinstance(root, OpResult) and root.op.is_known:
        return root.op.parent
    return None


def _rebinding_block(root: Value, region: Region) -> Block | None:
    """The block of `region` that defines `root` anew (`_binding_block`), or None."""
    owner = _binding_block(root)
    if owner is not None and owner.parent is region:
        return owner
    return None


def _ancestor_in(op: Operation, region: Region) -> Operation | None:
    """`op` or the ancestor of it that is directly in a block of `region`, or None."""
    current: Operation | None = op
    while current is not None:
        block = current.parent
        if block is None:
            return None
        if block.parent is region:
            return current
        current = current.parent_op
    return None
