"""`--elide-async-copies`: remove clones that are not needed and turn last-use transfers into
moves.

Three rewrites, run to a fixed point (design section 4), each stated against the storage
model of docs/storage-model.md (owned, exclusive use, escaped, written after):

* **Clone elision.** `%c = stream.async.clone %s` is removed (uses of `%c` use `%s`) when `%s`
  is owned and the clone is its last use (an exclusive use: no other name of the storage is
  used after it or ever escaped), or when neither side is ever written in place, freed or
  leaked. Never when a borrowed source (a global, a non-consume import, a by-reference
  argument) could then be mutated through the clone's users.
* **Unified-memory transfer removal.** A transfer between devices that the module's
  `stream.topology` marks `unified_memory`, keeping the lifetime, is removed when its result is
  not mutated while the source may still be used.
* **Transfer to move.** Any other transfer whose source storage is owned and that is an
  exclusive use of it becomes a `stream.async.move`.

    %t = stream.async.transfer %x : !stream.resource<*>{%c16} from(A) -> to(B) ...{%c16}
    (no later use of %x)
  becomes
    %t = stream.async.move %x : !stream.resource<*>{%c16} from(A) -> to(B) ...{%c16}

Each sweep works from one set of analyses. A rewrite changes what the analyses say about every
storage connected to it (by ties, handovers or calls), so later candidates in that connected
set wait for the next sweep, which recomputes the analyses, as do candidates whose source a
move made in this sweep (the analyses do not know the new value); unrelated candidates go
ahead.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from streamopt.analysis import ResourceAnalysis
from streamopt.analysis.effects import RETURN_OP
from streamopt.analysis.last_use import UsePositions
from streamopt.analysis.ownership import ConflictKind, describe_use
from streamopt.analysis.ranges import (
    ByteRange,
    constant_index,
    disjoint,
    dispatch_range_position,
    same_range,
    use_range,
)
from streamopt.dialects.arith import AddIOp, ConstantOp
from streamopt.dialects.stream import (
    AsyncCloneOp,
    AsyncCopyOp,
    AsyncDispatchOp,
    AsyncFillOp,
    AsyncMoveOp,
    AsyncSliceOp,
    AsyncTransferOp,
    AsyncUpdateOp,
    StreamOp,
)
from streamopt.ir.core import Access, Operation, OpResult, Use, Value
from streamopt.ir.module import Module
from streamopt.ir.types import AffinityAttr, Attribute, TopologyAttr
from streamopt.passes import Pass, register_pass


@dataclass
class Decision:
    """What to do with one candidate op, and why."""

    action: str  # "keep", "elide", "remove", "move"
    reason: str
    # The source and result share storage that nothing changes (no new writers appear).
    read_only: bool = False
    # Kept only because some facts it needs went stale this sweep: decide again next sweep.
    stale: bool = False
    # Removed because the source was owned and this was its last use.
    exclusive: bool = False
    # For a removed unified-memory transfer: the device whose memory holds the storage.
    home: str | None = None


@dataclass(frozen=True)
class _Fresh:
    """Which facts about a candidate's storage are still current in this sweep."""

    uses: bool
    writes: bool


class _Stale:
    """Roots whose facts went stale in this sweep: single roots, and the connected sets
    (`ResourceAnalysis.affected_roots`) of storages a rewrite touched, kept whole so that
    marking a large set costs one hash rather than its size every time."""

    def __init__(self, analysis: ResourceAnalysis) -> None:
        self.analysis = analysis
        self.roots: set[Value] = set()
        self.connected: set[frozenset[Value]] = set()

    def add_roots(self, roots: Iterable[Value]) -> None:
        self.roots.update(roots)

    def add_connected(self, *values: Value) -> None:
        for value in values:
            self.connected.add(self.analysis.affected_roots(value))

    def __contains__(self, root: Value) -> bool:
        if root in self.roots:
            return True
        return bool(self.connected) and self.analysis.affected_roots(root) in self.connected


@register_pass
class ElideAsyncCopiesPass(Pass):
    """Elides unneeded clones and turns last-use transfers into moves."""

    flag = "elide-async-copies"
    summary = "Remove unneeded clones and turn last-use transfers into stream.async.move"

    def __init__(self) -> None:
        super().__init__()
        # Root -> the device whose memory holds it, for sources of removed unified-memory
        # transfers (the IR no longer says where that storage was made).
        self._homes: dict[Value, str] = {}

    def run(self, module: Module) -> None:
        topology = _topology(module)
        kept: dict[Operation, str] = {}
        kept_slices: dict[Operation, str] = {}
        # Another sweep is needed only when this one left candidates for later or removed an op
        # (which removes a use, so an earlier transfer may now be a last use); turning a
        # transfer into a move only makes other facts more conservative.
        while self._sweep(module, ResourceAnalysis(module), topology, kept, kept_slices):
            pass
        for op, reason in kept.items():
            if op.parent is not None:
                self.report_lines.append(f"kept transfer at {op.location}: {reason}")
                self.stat("num-transfers-kept", "Number of transfers left as copies")
        for op, reason in kept_slices.items():
            if op.parent is not None:
                self.report_lines.append(f"kept slice at {op.location}: {reason}")
                self.stat("num-slices-kept", "Number of slices left as copies")

    # -- one sweep -------------------------------------------------------------------------

    def _sweep(
        self,
        module: Module,
        analysis: ResourceAnalysis,
        topology: TopologyAttr | None,
        kept: dict[Operation, str],
        kept_slices: dict[Operation, str],
    ) -> bool:
        """Decide every candidate once; True if another sweep may find more to do."""
        candidates = [
            op
            for op in module.walk()
            if isinstance(op, AsyncCloneOp | AsyncTransferOp | AsyncUpdateOp | AsyncSliceOp)
        ]
        # Two kinds of facts go stale as a sweep rewrites: where a storage's uses are (a clone
        # or copy removed merges its result's uses into its source) and who writes it (a move
        # consumes its source; an exclusive handover merges writers). Decisions that only read
        # fresh facts go ahead: taking over storage (a move, a last-use clone) reads ownership,
        # escapes and last uses; read-only sharing reads writers. The rest wait a sweep.
        moved_uses = _Stale(analysis)
        new_writes = _Stale(analysis)
        # Results of the moves made this sweep: the analyses know only the transfers' results.
        created: set[Value] = set()
        again = False
        alias = analysis.alias
        for op in candidates:
            if op.parent is None:
                continue
            source = op.operands[0]
            if source in created:
                again = True
                continue
            roots = (alias.root(source), alias.root(op.results[0]))
            fresh = _Fresh(
                uses=not any(root in moved_uses for root in roots),
                writes=not any(root in new_writes for root in roots),
            )
            if not fresh.uses and not fresh.writes:
                again = True
                continue
            if isinstance(op, AsyncSliceOp):
                if not (fresh.uses and fresh.writes):
                    again = True
                    continue
                reason = _slice_fold_blocker(op, analysis)
                if reason is not None:
                    kept_slices[op] = reason
                    continue
                # The source gains the consumers' reads: every fact about it is stale.
                moved_uses.add_connected(source, op.results[0])
                new_writes.add_connected(source, op.results[0])
                kept_slices.pop(op, None)
                self._fold_slice(op)
                again = True
                continue
            if isinstance(op, AsyncCloneOp):
                decision = self._decide_clone(op, analysis, fresh)
            elif isinstance(op, AsyncUpdateOp):
                decision = self._decide_update(op, analysis, fresh)
            else:
                decision = self._decide_transfer(op, analysis, topology, fresh)
            if decision.action == "keep":
                if decision.stale:
                    again = True
                elif isinstance(op, AsyncTransferOp):
                    kept[op] = decision.reason
                continue
            if decision.action == "drop-update":
                # The target takes over the result's uses: every fact about the storages
                # connected to it is stale.
                moved_uses.add_connected(*op.operands[:1], op.results[0])
                new_writes.add_connected(*op.operands[:1], op.results[0])
                self._apply(op, decision)
                again = True
                continue
            if decision.action == "move":
                # Only the source changes (it is now consumed); the result is new storage
                # before and after, with the same uses.
                new_writes.add_connected(source)
            elif decision.exclusive:
                # The source was owned and this was its last use: every name that fed it is
                # dead by now and whatever the result fed keeps an owned storage, so only the
                # two merged groups' uses change. Their writers do change further out: a
                # callee that wrote only its copy now writes its argument, which its callers'
                # read-only sharing relied on.
                moved_uses.add_roots(roots)
                # The source may also have been handed on before this op, to a path this op
                # is not on (the other successor of a branch, a loop's exit): those names now
                # share a group that holds every use of the result, escapes included, so
                # whether their handovers were exclusive is decided again next sweep.
                source_root = alias.root(source)
                if alias.passes_from.get(source_root):
                    moved_uses.add_roots(alias.forward_roots(source_root))
                new_writes.add_connected(source, op.results[0])
            else:
                moved_uses.add_connected(source, op.results[0])
                if not decision.read_only:
                    new_writes.add_connected(source, op.results[0])
            kept.pop(op, None)
            if decision.home is not None:
                self._homes[alias.root(source)] = decision.home
            made = self._apply(op, decision)
            if made is not None:
                created.add(made)
            again = again or decision.action != "move"
        return again

    def _fold_slice(self, op: AsyncSliceOp) -> None:
        """Make every consumer of the slice read its range of the source, and drop it."""
        for use in list(op.result.uses):
            user = use.operation
            if isinstance(user, AsyncCopyOp):
                user.set_operand(5, op.source_size)
                user.set_operand(6, _add_offset(op.source_offset, user.operands[6], user))
                user.set_operand(7, _add_offset(op.source_offset, user.operands[7], user))
                user.set_operand(4, op.source)
            else:
                assert isinstance(user, AsyncDispatchOp)
                position = dispatch_range_position(user, use.index)
                assert position is not None
                for segment, value in (
                    (2, op.source_size),
                    (3, _add_offset(op.source_offset, user.segment(3)[position], user)),
                    (4, _add_offset(op.source_offset, user.segment(4)[position], user)),
                ):
                    user.set_operand(user.segment_start(segment) + position, value)
                user.set_operand(use.index, op.source)
        size = _slice_bytes(op)
        op.erase()
        self.stat("num-slices-folded", "Number of stream.async.slice ops folded into consumers")
        self.stat("bytes-slices-folded", "Bytes no longer sliced (constant sizes)", size)

    def _apply(self, op: Operation, decision: Decision) -> Value | None:
        """Rewrite `op` as decided; the value a move made in place of the transfer's result."""
        if isinstance(op, AsyncUpdateOp):
            op.result.replace_all_uses_with(op.target)
            op.erase()
            self.stat("num-updates-elided", "Number of stream.async.update ops removed")
            return None
        size = _constant_bytes(op)
        if decision.action == "elide":
            op.results[0].replace_all_uses_with(op.operands[0])
            op.erase()
            self.stat("num-clones-elided", "Number of stream.async.clone ops removed")
            self.stat("bytes-clones-elided", "Bytes no longer cloned (constant sizes)", size)
        elif decision.action == "remove":
            op.results[0].replace_all_uses_with(op.operands[0])
            op.erase()
            self.stat(
                "num-transfers-removed",
                "Number of transfers removed between devices sharing memory",
            )
            self.stat("bytes-transfers-removed", "Bytes no longer transferred", size)
        else:
            assert isinstance(op, AsyncTransferOp)
            move = AsyncMoveOp(
                list(op.operands), [op.result.type], dict(op.attributes), location=op.location
            )
            move.debug_loc = op.debug_loc
            move.result.name_hint = op.result.name_hint
            block = op.parent
            assert block is not None
            block.insert_before(move, op)
            op.result.replace_all_uses_with(move.result)
            op.erase()
            self.stat("num-transfers-moved", "Number of transfers turned into stream.async.move")
            self.stat("bytes-transfers-moved", "Bytes moved instead of copied", size)
            return move.result
        return None

    # -- decisions -------------------------------------------------------------------------

    def _decide_clone(
        self, op: AsyncCloneOp, analysis: ResourceAnalysis, fresh: _Fresh
    ) -> Decision:
        source, result = op.source, op.result
        if source.type != result.type:
            return Decision("keep", f"changes type from '{source.type}' to '{result.type}'")
        exclusive = self._exclusive_handover(op, source, analysis) if fresh.uses else None
        if fresh.uses and exclusive is None:
            exclusive = _copy_of_borrowed(source, analysis)
        if fresh.uses and exclusive is None:
            return Decision("elide", "the source is owned and this is its last use", exclusive=True)
        shared = self._read_only_sharing(source, result, analysis) if fresh.writes else None
        if fresh.writes and shared is None:
            return Decision("elide", "neither side is mutated", read_only=True)
        if not (fresh.uses and fresh.writes):
            return Decision("keep", "decided in a later sweep", stale=True)
        return Decision("keep", f"{exclusive}; and {shared}")

    def _decide_transfer(
        self,
        op: AsyncTransferOp,
        analysis: ResourceAnalysis,
        topology: TopologyAttr | None,
        fresh: _Fresh,
    ) -> Decision:
        source, result = op.source, op.result
        exclusive = self._exclusive_handover(op, source, analysis) if fresh.uses else "stale"
        same_type = source.type == result.type
        source_device = _source_device(op, analysis)
        target_device = _device(op.target_affinity)
        same_device = _same_device(op) or (
            source_device is not None and source_device == target_device
        )
        if same_type and same_device:
            # Same lifetime on the same device: a plain copy, removable like a clone.
            if exclusive is None:
                return Decision(
                    "remove", "same device and lifetime, and this is the last use", exclusive=True
                )
            shared = self._read_only_sharing(source, result, analysis) if fresh.writes else None
            if fresh.writes and shared is None:
                return Decision(
                    "remove", "same device and lifetime, and neither side changes", read_only=True
                )
        unified = same_type and _unified(source_device, target_device, topology)
        home: str | None = None
        away: str | None = None
        if same_type and same_device and fresh.writes:
            away = shared
        if unified:
            # The storage stays where it was made: a transfer removed before this one (the
            # first link of a chain) leaves it in the memory of that transfer's source, which
            # this target must share as well.
            home = (
                self._homes.get(analysis.alias.root(source))
                or _home_device(source, analysis)
                or source_device
            )
            assert topology is not None and target_device is not None
            if home is not None and not topology.has_unified_memory(home, target_device):
                unified = False
                away = (
                    f"the storage lives in the memory of '@{home}', which '@{target_device}' "
                    "does not share (a transfer before this one was removed)"
                )
        if unified:
            if exclusive is None:
                return Decision(
                    "remove",
                    "devices share memory and this is the last use",
                    exclusive=True,
                    home=home,
                )
            if fresh.uses and fresh.writes:
                away = self._unchanged_while_shared(op, source, result, analysis)
                if away is None:
                    return Decision(
                        "remove", "devices share memory and neither side changes", home=home
                    )
        if exclusive is None:
            return Decision("move", "the source is owned and this is its last use")
        if not (fresh.uses and fresh.writes):
            return Decision("keep", "decided in a later sweep", stale=True)
        return Decision("keep", exclusive if away is None else f"{exclusive}; and {away}")

    def _decide_update(
        self, op: AsyncUpdateOp, analysis: ResourceAnalysis, fresh: _Fresh
    ) -> Decision:
        """An update is dropped when nothing can read the bytes it writes: its target is owned
        and the update is an exclusive use of it (no other name of the storage is used later or
        escaped), and every use of its result writes those bytes again before reading them or
        reads only other bytes (proved by constant offsets)."""
        if not (fresh.uses and fresh.writes):
            return Decision("keep", "decided in a later sweep", stale=True)
        borrowed = analysis.ownership.reason_borrowed(op.target)
        if borrowed is not None:
            return Decision("keep", f"target storage is not owned ({borrowed})")
        written = ByteRange(op.target_offset, op.target_end, Access.WRITE)
        for use in op.result.uses:
            user = use.operation
            touched = use_range(user, use.index)
            if touched is None:
                return Decision("keep", f"'{user.name}' at {user.location} may read the update")
            if any(user.tied_operand_index(i) == use.index for i in range(len(user.results))):
                # Its result is another name of the storage: fine only when it writes the
                # same bytes again first (a fill, update or copy target; a dispatch reads).
                if isinstance(user, AsyncFillOp | AsyncUpdateOp | AsyncCopyOp) and same_range(
                    touched, written
                ):
                    continue
                return Decision("keep", f"'{user.name}' at {user.location} keeps the updated bytes")
            if not disjoint(touched, written):
                return Decision("keep", f"'{user.name}' at {user.location} reads the updated bytes")
        other = _other_name_after(op, analysis)
        if other is not None:
            return Decision("keep", other)
        return Decision("drop-update", "nothing reads the bytes it writes")

    @staticmethod
    def _exclusive_handover(op: Operation, source: Value, analysis: ResourceAnalysis) -> str | None:
        """None if `op` may take over `source`'s storage: owned, and nothing else may observe
        it from `op` on (no escape, no other use later)."""
        borrowed = analysis.ownership.reason_borrowed(source)
        if borrowed is not None:
            return f"source storage is not owned ({borrowed})"
        conflict = analysis.ownership.conflict_at(op, 0)
        if conflict is None:
            return None
        if conflict.kind is ConflictKind.ESCAPE:
            user = conflict.user
            return f"source storage escapes through '{user.name}' at {user.location}"
        return f"not the last use of the source ({conflict})"

    def _read_only_sharing(
        self, source: Value, result: Value, analysis: ResourceAnalysis
    ) -> str | None:
        """None if `source` and `result` may share storage because nothing ever changes it."""
        alias = analysis.alias
        # Every name that may share the source's storage, callers' included (affected_roots
        # follows calls): a caller writing what it passed stops the sharing too.
        for root in analysis.affected_roots(source):
            use = analysis.changing_use(root)
            if use is not None:
                return _mutation_text("the source", use)
        for root in alias.forward_roots(alias.root(result)):
            use = analysis.changing_use(root)
            if use is not None:
                return _mutation_text("the copy", use)
        return None

    def _unchanged_while_shared(
        self, op: Operation, source: Value, result: Value, analysis: ResourceAnalysis
    ) -> str | None:
        """None if a removed transfer's result and source could share storage safely."""
        for root in analysis.alias.forward_roots(analysis.alias.root(result)):
            use = analysis.changing_use(root)
            if use is not None:
                return _mutation_text("the result", use)
        conflict = analysis.ownership.conflict_at(op, 0)
        exclusive_but_read = conflict is None or conflict.kind is not ConflictKind.ESCAPE
        if analysis.ownership.is_owned(source) and exclusive_but_read:
            later = analysis.mutation.mutation_after(op, source)
            if later is not None:
                return "the source is changed later"
            return None
        return self._read_only_sharing(source, result, analysis)


def _mutation_text(side: str, use: Use) -> str:
    return f"{side} is changed by '{use.operation.name}' at {use.operation.location}"


def _copy_of_borrowed(source: Value, analysis: ResourceAnalysis) -> str | None:
    """Why a clone of `source` may not take over its storage although this run owns it: it
    is a same-lifetime transfer of borrowed storage, which a later elision (this pass on
    another topology, or IREE's) may remove, and then whoever writes through the clone's
    users would write the borrowed storage. IREE keeps such a clone on purpose."""
    root = analysis.alias.root(source)
    producer = root.op if isinstance(root, OpResult) else None
    if producer is not None and producer.parent is None:
        # Rewritten earlier in this sweep. Every other rewrite makes the uses of the storages
        # it touches stale, so this clone is decided here only when the transfer became a
        # move (the result is new storage with the same uses), whose source was owned.
        return None
    if (
        isinstance(producer, AsyncTransferOp)
        and producer.source.type == producer.result.type
        and not analysis.ownership.is_owned(producer.source)
    ):
        return "its source is a same-lifetime transfer of borrowed storage, which may be removed"
    return None


def _slice_fold_blocker(op: AsyncSliceOp, analysis: ResourceAnalysis) -> str | None:
    """Why the consumers of slice `op` may not read its range of the source in place, or None.

    Every consumer must only read the slice (a copy's source, a dispatch operand not tied to a
    result) on the slice's device, and use no other name of the source's storage. Then the
    bytes it reads are the slice's as long as nothing writes, frees or leaks them after the
    slice runs: every such use of any name that may share the source's storage (tied names,
    handovers, callers and callees, globals) either runs only before the slice or touches
    bytes that constant offsets prove apart from the sliced ones. A write after the consumer
    counts too (as in IREE): that keeps the rule independent of how the consumer and the
    writer are ordered.
    """
    component = analysis.affected_roots(op.source)
    for use in op.result.uses:
        user = use.operation
        if isinstance(user, AsyncCopyOp):
            if use.index != 4:
                return f"'{user.name}' at {user.location} writes into the slice"
        elif isinstance(user, AsyncDispatchOp):
            if user.operand_access(use.index) & Access.WRITE:
                return f"'{user.name}' at {user.location} writes the slice in place"
        else:
            return f"'{user.name}' at {user.location} reads the slice as a whole"
        if _device(user.affinity) != _device(op.affinity):
            return f"'{user.name}' at {user.location} runs on another device than the slice"
        for index, other in enumerate(user.operands):
            if index != use.index and analysis.alias.root(other) in component:
                return f"'{user.name}' at {user.location} also uses the source's storage"
    sliced = ByteRange(op.source_offset, op.source_end, Access.READ)
    alias, mutation, last_use = analysis.alias, analysis.mutation, analysis.last_use
    for name in alias.names(component):
        for use in name.uses:
            user = use.operation
            if user is op or not mutation.use_effect(use)[0]:
                continue
            if user.name == RETURN_OP:
                # A return ends the slice's function (its consumers have run): whoever gets
                # the storage back acts after them, through names counted here or unseen ones
                # that cannot run while this function does.
                continue
            if not last_use.may_run_before(op, user):
                continue
            touched = use_range(user, use.index)
            if touched is not None and disjoint(touched, sliced):
                continue
            return f"the sliced bytes may change after the slice: '{user.name}' at {user.location}"
    return None


def _add_offset(base: Value, offset: Value, anchor: Operation) -> Value:
    """`base + offset` before `anchor`: a new constant when both are constants, one of them
    when the other is zero, else an `arith.addi`."""
    a, b = constant_index(base), constant_index(offset)
    if a == 0:
        return offset
    if b == 0:
        return base
    block = anchor.parent
    assert block is not None
    new: Operation
    if a is not None and b is not None:
        assert base.type is not None
        new = ConstantOp.create(a + b, base.type)
    else:
        new = AddIOp.create(base, offset)
    block.insert_before(new, anchor)
    return new.results[0]


def _slice_bytes(op: AsyncSliceOp) -> int:
    producer = op.result_size_value.defining_op
    if isinstance(producer, ConstantOp):
        return producer.int_value or 0
    return 0


def _topology(module: Module) -> TopologyAttr | None:
    attr = module.op.attributes.get("stream.topology")
    if attr is None:
        return None
    resolved = module.resolve(attr)
    return resolved if isinstance(resolved, TopologyAttr) else None


def _device(attr: Attribute | None) -> str | None:
    return attr.device if isinstance(attr, AffinityAttr) else None


def _same_device(op: AsyncTransferOp) -> bool:
    """True if the transfer stays on one device (both ends on one device, or neither named)."""
    source, target = op.source_affinity, op.target_affinity
    if source is None and target is None:
        return True
    source_device, target_device = _device(source), _device(target)
    return source_device is not None and source_device == target_device


def _unified(source: str | None, target: str | None, topology: TopologyAttr | None) -> bool:
    if topology is None or source is None or target is None:
        return False
    return topology.has_unified_memory(source, target)


def _source_device(op: AsyncTransferOp, analysis: ResourceAnalysis) -> str | None:
    """The device a transfer takes its source from: its `from(...)`, or else where the source
    was made (IREE infers it the same way)."""
    if op.source_affinity is not None:
        return _device(op.source_affinity)
    return _home_device(op.source, analysis)


def _home_device(value: Value, analysis: ResourceAnalysis) -> str | None:
    """The device whose memory holds `value`'s storage, as far as the ops that made it say:
    the affinity of its producer (the target of a transfer or move), the one device every
    value handed into a merge comes from; None when unknown."""
    alias = analysis.alias
    seen: set[Value] = set()
    stack = [alias.root(value)]
    found: str | None = None
    while stack:
        root = stack.pop()
        if root in seen:
            continue
        seen.add(root)
        incoming = [edge for name in alias.group(root) for edge in alias.incoming.get(name, ())]
        device: str | None
        if incoming:
            stack.extend(alias.root(edge.value) for edge in incoming)
            continue
        if isinstance(root, OpResult) and isinstance(root.op, AsyncTransferOp | AsyncMoveOp):
            device = _device(root.op.target_affinity)
        elif isinstance(root, OpResult) and isinstance(root.op, StreamOp):
            device = _device(root.op.affinity)
        else:
            device = None
        if device is None or (found is not None and device != found):
            return None
        found = device
    return found


def _constant_bytes(op: Operation) -> int:
    size = op.operand_size(0)
    producer = size.defining_op if size is not None else None
    if isinstance(producer, ConstantOp):
        value = producer.int_value
        return value if value is not None else 0
    return 0


def _other_name_after(op: AsyncUpdateOp, analysis: ResourceAnalysis) -> str | None:
    """Why a name of the update's target storage other than its result (and the names its
    users tie to that) may see the storage after the update, or None: a use after it of a
    name the storage has when it runs, or an escape before it."""
    alias, last_use = analysis.alias, analysis.last_use
    root = alias.root(op.target)
    derived: set[Value] = {op.result}
    names = last_use.forward_roots_at(root, op, skip=op)
    positions = UsePositions()
    for name in alias.names(names):
        if isinstance(name, OpResult):
            tied = name.op.tied_operand_index(name.index)
            if tied is not None and name.op.operands[tied] in derived:
                derived.add(name)
        if name in derived:
            continue
        for use in name.uses:
            if use.operation is not op:
                positions.add(use.operation)
    later = last_use.later_use_in(op, root, positions, names)
    if later is not None:
        return f"the target storage is {describe_use(later.user, later.reason)}"
    escape = analysis.mutation.escape_among(names, before=op, bound=root)
    if escape is not None:
        user = escape.operation
        return f"the target storage escaped through '{user.name}' at {user.location}"
    return None
