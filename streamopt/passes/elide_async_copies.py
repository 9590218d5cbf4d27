"""`--elide-async-copies`: remove clones that are not needed and turn last-use transfers into
moves.

Each rewrite asks the storage model (streamopt/analysis/storage.py, docs/storage-model.md)
one question and does what it answers:

* **Transfer to move** (`consume`): the source storage is owned and the transfer is an
  exclusive use of it (nothing else may observe it from there on).

      %t = stream.async.transfer %x : !stream.resource<*>{%c16} from(A) -> to(B) ...{%c16}
      (no later use of %x)
    becomes
      %t = stream.async.move %x : !stream.resource<*>{%c16} from(A) -> to(B) ...{%c16}

* **Clone removal**, **same-device transfer removal** and **unified-memory transfer removal**
  (`share`): `%c = stream.async.clone %s` goes (uses of `%c` use `%s`) when the two may be
  one storage from the clone on: the clone is the source's last use, or neither side is
  changed while both may be seen. A same-lifetime transfer on one device is a clone; one
  between devices the module's `stream.topology` marks `unified_memory` is one too, when the
  target shares the memory of the device the storage lives in.
* **Slice folding** (`share_bytes`): the consumers of `stream.async.slice` read its range of
  the source in place, when they only read it and the sliced bytes do not change after it.
* **Update removal** (`drop_write`): a `stream.async.update` nothing reads before it is
  overwritten goes.

Each sweep works from one model. A rewrite tells the model what it did; questions whose facts
went stale wait for the next sweep, on a new model, as do candidates that depend on them;
unrelated candidates go ahead. Moves are made at the end of a sweep: a move has its
transfer's uses and result, so the model stays true of everything but the consumed source.
"""

from __future__ import annotations

from dataclasses import dataclass

from streamopt.analysis.ranges import (
    ByteRange,
    constant_index,
    disjoint,
    dispatch_range_position,
    same_range,
    use_range,
)
from streamopt.analysis.storage import Refusal, RefusalKind, Sharing, StorageModel
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
)
from streamopt.ir.core import Access, Operation, Value
from streamopt.ir.module import Module
from streamopt.ir.types import AffinityAttr, Attribute, TopologyAttr
from streamopt.passes import Pass, register_pass


@dataclass
class Decision:
    """What to do with one candidate op, and why."""

    action: str  # "keep", "elide", "remove", "move", "drop-update", "fold-slice"
    reason: str
    # Kept only because some facts it needs went stale this sweep: decide again next sweep.
    stale: bool = False
    # How the storages merge, for a removed copy (tells the model what went stale).
    sharing: Sharing | None = None
    # For a removed unified-memory transfer: the device whose memory holds the storage.
    home: str | None = None


def _keep(refusal: Refusal | str) -> Decision:
    if isinstance(refusal, Refusal) and refusal.kind is RefusalKind.STALE:
        return Decision("keep", refusal.text, stale=True)
    return Decision("keep", str(refusal))


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
        while self._sweep(module, StorageModel(module, self._homes), topology, kept, kept_slices):
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
        model: StorageModel,
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
        moves: list[AsyncTransferOp] = []
        again = False
        for op in candidates:
            if op.parent is None:
                continue
            if isinstance(op, AsyncSliceOp):
                decision = self._decide_slice(op, model)
            elif isinstance(op, AsyncCloneOp):
                decision = self._decide_clone(op, model)
            elif isinstance(op, AsyncUpdateOp):
                decision = self._decide_update(op, model)
            else:
                decision = self._decide_transfer(op, model, topology)
            if decision.action == "keep":
                if decision.stale:
                    again = True
                elif isinstance(op, AsyncTransferOp):
                    kept[op] = decision.reason
                elif isinstance(op, AsyncSliceOp):
                    kept_slices[op] = decision.reason
                continue
            kept.pop(op, None)
            kept_slices.pop(op, None)
            if decision.action == "move":
                assert isinstance(op, AsyncTransferOp)
                model.rewrote(op, "move")
                moves.append(op)
                continue
            # A removed copy whose result is never changed adds no change to its source's
            # storage, so later candidates on that storage are decided in this same sweep.
            sharing = decision.sharing
            how = "merge" if sharing is None else "take over" if sharing.exclusive else "share"
            model.rewrote(op, how, decision.home)
            self._apply(op, decision)
            again = True
        for transfer in moves:
            self._move(transfer)
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

    def _apply(self, op: Operation, decision: Decision) -> None:
        """Remove `op` as decided: its result's uses take its source (or target)."""
        if isinstance(op, AsyncSliceOp):
            self._fold_slice(op)
            return
        if isinstance(op, AsyncUpdateOp):
            op.result.replace_all_uses_with(op.target)
            op.erase()
            self.stat("num-updates-elided", "Number of stream.async.update ops removed")
            return
        size = _constant_bytes(op)
        op.results[0].replace_all_uses_with(op.operands[0])
        op.erase()
        if decision.action == "elide":
            self.stat("num-clones-elided", "Number of stream.async.clone ops removed")
            self.stat("bytes-clones-elided", "Bytes no longer cloned (constant sizes)", size)
        else:
            assert decision.action == "remove"
            self.stat(
                "num-transfers-removed",
                "Number of transfers removed between devices sharing memory",
            )
            self.stat("bytes-transfers-removed", "Bytes no longer transferred", size)

    def _move(self, op: AsyncTransferOp) -> None:
        """Replace transfer `op` by the `stream.async.move` with its operands and attributes."""
        move = AsyncMoveOp(
            list(op.operands), [op.result.type], dict(op.attributes), location=op.location
        )
        move.debug_loc = op.debug_loc
        move.result.name_hint = op.result.name_hint
        block = op.parent
        assert block is not None
        size = _constant_bytes(op)
        block.insert_before(move, op)
        op.result.replace_all_uses_with(move.result)
        op.erase()
        self.stat("num-transfers-moved", "Number of transfers turned into stream.async.move")
        self.stat("bytes-transfers-moved", "Bytes moved instead of copied", size)

    # -- decisions -------------------------------------------------------------------------

    def _decide_clone(self, op: AsyncCloneOp, model: StorageModel) -> Decision:
        source, result = op.source, op.result
        if source.type != result.type:
            return Decision("keep", f"changes type from '{source.type}' to '{result.type}'")
        answer = model.share(op, source, result, model.copy_of_borrowed(source))
        if isinstance(answer, Refusal):
            return _keep(answer)
        why = (
            "the source is owned and this is its last use"
            if answer.exclusive
            else "neither side is changed while both are used"
        )
        return Decision("elide", why, sharing=answer)

    def _decide_transfer(
        self, op: AsyncTransferOp, model: StorageModel, topology: TopologyAttr | None
    ) -> Decision:
        source, result = op.source, op.result
        same_type = source.type == result.type
        # Where the source comes from: its from(...), or else where the storage was made
        # (IREE infers it the same way).
        source_device = (
            _device(op.source_affinity)
            if op.source_affinity is not None
            else model.home_device(source)
        )
        target_device = _device(op.target_affinity)
        same_device = _same_device(op) or (
            source_device is not None and source_device == target_device
        )
        unified = same_type and _unified(source_device, target_device, topology)
        home: str | None = None
        away: str | None = None
        if unified and not same_device:
            # The storage stays where it was made: a transfer removed before this one (the
            # first link of a chain) leaves it in the memory of that transfer's source, which
            # this target must share as well.
            home = model.home_device(source) or source_device
            assert topology is not None and target_device is not None
            if home is not None and not topology.has_unified_memory(home, target_device):
                unified = False
                away = (
                    f"the storage lives in the memory of '@{home}', which '@{target_device}' "
                    "does not share (a transfer before this one was removed)"
                )
        if same_type and (same_device or unified):
            # A plain copy on one device, or between devices sharing its memory: removable as
            # a clone is. When it may not be, it may not take the source over either.
            answer = model.share(op, source, result)
            if isinstance(answer, Refusal):
                return _keep(answer)
            why = "same device and lifetime" if same_device else "devices share memory"
            how = "this is the last use" if answer.exclusive else "neither side changes"
            return Decision(
                "remove",
                f"{why}, and {how}",
                sharing=answer,
                home=None if same_device else home,
            )
        consumed = model.consume(op, 0)
        if consumed is None:
            return Decision("move", "the source is owned and this is its last use")
        if consumed.kind is RefusalKind.STALE or away is None:
            return _keep(consumed)
        return Decision("keep", f"{consumed}; and {away}")

    def _decide_update(self, op: AsyncUpdateOp, model: StorageModel) -> Decision:
        """An update is dropped when nothing can read the bytes it writes: nothing but its
        result sees the target from the update on (`drop_write`), and every use of the result
        writes those bytes again before reading them or reads only other bytes (proved by
        constant offsets)."""
        refusal = model.drop_write(op, 0)
        if refusal is not None and refusal.kind in (RefusalKind.STALE, RefusalKind.BORROWED):
            return _keep(refusal)
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
        if refusal is not None:
            return _keep(refusal)
        return Decision("drop-update", "nothing reads the bytes it writes")

    def _decide_slice(self, op: AsyncSliceOp, model: StorageModel) -> Decision:
        """A slice is folded into its consumers when each only reads it (a copy's source, a
        dispatch operand not tied to a result) on the slice's device, and the sliced bytes of
        the source stay as they were while they read them (`share_bytes`)."""
        for use in op.result.uses:
            user = use.operation
            where = f"'{user.name}' at {user.location}"
            if isinstance(user, AsyncCopyOp):
                if use.index != 4:
                    return Decision("keep", f"{where} writes into the slice")
            elif isinstance(user, AsyncDispatchOp):
                if user.operand_access(use.index) & Access.WRITE:
                    return Decision("keep", f"{where} writes the slice in place")
            else:
                return Decision("keep", f"{where} reads the slice as a whole")
            if _device(user.affinity) != _device(op.affinity):
                return Decision("keep", f"{where} runs on another device than the slice")
        sliced = ByteRange(op.source_offset, op.source_end, Access.READ)
        refusal = model.share_bytes(op, op.source, op.result, sliced)
        if refusal is not None:
            return _keep(refusal)
        return Decision("fold-slice", "its consumers read the source in place")


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
    producer = op.result_size.defining_op
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


def _constant_bytes(op: Operation) -> int:
    size = op.size_of_operand(0)
    producer = size.defining_op if size is not None else None
    if isinstance(producer, ConstantOp):
        value = producer.int_value
        return value if value is not None else 0
    return 0
