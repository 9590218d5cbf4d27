"""Queue moves: hand a buffer to another device (or queue) without copying when possible.

`query_move` decides from static facts only (the allocation's memory space and placement, the
topology edge from the target to that memory, grants, owners, the requested params and flags),
so the decision is the same at query time and at enqueue, and REQUIRE_ALIAS can fail before
anything is enqueued.

A move aliases (ALIAS; ALIAS_AFTER_GRANT with ALLOW_GRANT; IMPORT when the edge says so) when
the target reaches the memory and nothing below forces a copy. It copies when:
- the target cannot reach the memory (NO_PEER), needs a grant without ALLOW_GRANT
  (POOL_ACCESS), or reaches it only remotely without ALLOW_LOW_PERFORMANCE (LOW_PERFORMANCE);
- the requested memory type is not something the backing is from the target (TYPE_WIDENED),
  or usage/access are not subsets of the source's (USAGE_WIDENED/ACCESS_WIDENED);
- the range is not the whole root allocation (SUBSPAN);
- the memory is external/imported (EXTERNAL), the allocation has other owners (NOT_TERMINAL),
  KEEP_SOURCE was given, or FORCE_COPY was given (FORCED).

Execution. ALIAS: one op on the target queue that waits, then marks the result ready (a wrapper
over the same root with the target's residency; the root's placement is untouched, so its
dealloca still goes to the origin). COPY: alloca on the target -> copy -> dealloca of the source
at its origin (PREFER_ORIGIN), chained by internal semaphores, the last one signalling `signal`.
The source is freed only when the caller owned all of it (its handle covers the whole root, it
is terminal, not external, no KEEP_SOURCE), even if only part of it was moved (memory that
queue deallocas do not free, such as synchronous allocations, is released by its last owner
instead); otherwise a barrier ends the chain. A failed wait fails every part in turn: nothing
is allocated, the source is not freed, and once the failure is known the source is exactly as
it was before the move (readable, copyable, movable and freeable; its owners as before).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from streamopt.move_api import MoveFlags, MoveMode, MoveReason
from streamopt.runtime.buffers import AllocationState, Buffer, Residency
from streamopt.runtime.commands import CopyCommand
from streamopt.runtime.params import (
    BufferParams,
    DeallocaFlags,
    MemoryAccess,
    format_flags,
)
from streamopt.runtime.queue import BufferUse, QueueOp
from streamopt.runtime.semaphores import Timepoint, WaitList
from streamopt.runtime.status import MoveRecord, StatusCode, hal_error
from streamopt.runtime.topology import AccessMode, MemoryEdge

if TYPE_CHECKING:
    from streamopt.runtime.devices import Device, Pool

_COPY_KEEPS_SOURCE = MoveReason.EXTERNAL | MoveReason.NOT_TERMINAL | MoveReason.KEEP_SOURCE
"""Reasons under which a copying move must not free the source allocation (a source handle
that is itself a subspan of a larger root does not free it either)."""

_ACCESS_BITS = MemoryAccess.READ | MemoryAccess.WRITE | MemoryAccess.DISCARD


@dataclass(frozen=True)
class MoveInfo:
    """The outcome of `query_buffer_move`."""

    mode: MoveMode
    reasons: MoveReason
    """Why the move copies (NONE when it aliases)."""
    provided: BufferParams
    """What the result will have: its memory type, usage, access and queue affinity."""
    memory_space: str
    """Where the result's bytes live."""
    access_mode: AccessMode
    """How the target reaches the source's memory."""
    copy_device: str | None = None
    """For COPY: the device whose queue runs the copy."""

    def describe(self) -> str:
        """`"alias"` or `"copy (NO_PEER, SUBSPAN)"`."""
        if self.reasons:
            return f"{self.mode.value} ({', '.join(self.reasons.names())})"
        return self.mode.value


@dataclass(frozen=True)
class MoveResult:
    """What `queue_move` returns: the result handle (usable now as metadata) and the mode."""

    buffer: Buffer
    mode: MoveMode
    info: MoveInfo
    move_id: int


def query_move(
    target: Device,
    source: Buffer,
    offset: int,
    length: int | None,
    params: BufferParams,
    flags: MoveFlags,
    location: object | None = None,
) -> MoveInfo:
    """Decide how to move `source[offset:offset + length]` to `target` (pure)."""
    source.check_not_moved("moved", location)
    allocation = source.allocation
    if allocation.state is AllocationState.FREED:
        raise hal_error(
            StatusCode.FAILED_PRECONDITION,
            f"move of '{source.name}': its allocation was freed",
            location,
        )
    if allocation.dealloca_enqueued:
        raise hal_error(
            StatusCode.FAILED_PRECONDITION,
            f"move of '{source.name}': a dealloca of it is already enqueued",
            location,
        )
    if length is None:
        length = source.length - offset
    source.check_range(offset, length, "move")
    queue = target.select_queue(params.queue_affinity)

    usage = params.usage or source.usage
    access = params.access or source.access
    required_type = params.required_type()
    reasons = MoveReason.NONE
    if flags & MoveFlags.FORCE_COPY:
        reasons |= MoveReason.FORCED
    if flags & MoveFlags.KEEP_SOURCE:
        reasons |= MoveReason.KEEP_SOURCE
    if not (source.is_whole_root and offset == 0 and length == source.length):
        reasons |= MoveReason.SUBSPAN
    if allocation.external:
        reasons |= MoveReason.EXTERNAL
    if not source.is_terminal:
        reasons |= MoveReason.NOT_TERMINAL
    if usage & ~source.usage:
        reasons |= MoveReason.USAGE_WIDENED
    if access & ~source.access & _ACCESS_BITS:
        reasons |= MoveReason.ACCESS_WIDENED

    edge = target.runtime.topology.edge(target.name, allocation.memory_space)
    if target.name in allocation.granted and edge.mode is AccessMode.GRANT:
        edge = MemoryEdge(AccessMode.NATIVE, edge.types)
    alias_mode = MoveMode.ALIAS
    if edge.mode is AccessMode.REMOTE and not flags & MoveFlags.ALLOW_LOW_PERFORMANCE:
        reasons |= MoveReason.LOW_PERFORMANCE
    elif edge.mode is AccessMode.GRANT:
        if flags & MoveFlags.ALLOW_GRANT:
            alias_mode = MoveMode.ALIAS_AFTER_GRANT
        else:
            reasons |= MoveReason.POOL_ACCESS
    elif edge.mode is AccessMode.IMPORT:
        alias_mode = MoveMode.IMPORT
    elif edge.mode is AccessMode.NONE:
        reasons |= MoveReason.NO_PEER
    if edge.mode is not AccessMode.NONE and required_type & ~edge.types:
        reasons |= MoveReason.TYPE_WIDENED

    if not reasons:
        provided = BufferParams(edge.types, usage, access, 1 << queue, params.min_alignment)
        return MoveInfo(alias_mode, reasons, provided, allocation.memory_space, edge.mode)

    choice = target.allocator.choose_memory(params)
    if choice is None:
        provided = BufferParams(params.type, usage, access, 1 << queue, params.min_alignment)
        return MoveInfo(MoveMode.UNSUPPORTED, reasons, provided, "", edge.mode)
    space, new_edge = choice
    provided = BufferParams(new_edge.types, usage, access, 1 << queue, params.min_alignment)
    return MoveInfo(
        MoveMode.COPY, reasons, provided, space, edge.mode, _copy_device(target, source, space)
    )


def _copy_device(target: Device, source: Buffer, destination_space: str) -> str:
    """The device whose queue copies: the source's device if it can write the destination
    memory (peer copy), else the target (which then pulls, or stages through the host)."""
    topology = target.runtime.topology
    source_device = source.residency.device.name
    if topology.edge(source_device, destination_space).mode is AccessMode.NATIVE:
        return source_device
    return target.name


def enqueue_move(
    target: Device,
    affinity: int,
    wait: WaitList,
    signal: WaitList,
    source: Buffer,
    offset: int,
    length: int | None,
    pool: Pool | None,
    params: BufferParams,
    flags: MoveFlags,
    *,
    name: str | None = None,
    location: object | None = None,
) -> MoveResult:
    """`Device.queue_move`: decide now, return the result handle, enqueue the work."""
    runtime = target.runtime
    if length is None:
        length = source.length - offset
    params = replace(params, queue_affinity=params.queue_affinity or affinity)
    info = query_move(target, source, offset, length, params, flags, location)
    if info.mode is MoveMode.UNSUPPORTED:
        raise hal_error(
            StatusCode.INVALID_ARGUMENT,
            f"move of '{source.name}' to '{target.name}' must copy ({info.describe()}) but "
            f"'{target.name}' has no memory of type {format_flags(params.required_type())}",
            location,
        )
    if flags & MoveFlags.REQUIRE_ALIAS and not info.mode.is_zero_copy:
        runtime.stats.moves.rejected += 1
        raise hal_error(
            StatusCode.UNAVAILABLE,
            f"move of '{source.name}' to '{target.name}' cannot alias: "
            f"{', '.join(info.reasons.names())}",
            location,
        )

    move_id = runtime.next_id("move")
    queue = target.select_queue(params.queue_affinity)
    result_name = name or f"{target.name}.move{move_id}"
    record = MoveRecord(move_id, target.name, info.mode.value, location)
    args = {
        "move": move_id,
        "source": source.name,
        "result": result_name,
        "bytes": length,
        "mode": info.describe(),
    }
    owners = source.allocation.owners
    if info.mode.is_zero_copy:
        result, last = _enqueue_alias(
            target, affinity, wait, signal, source, offset, length, info, queue, result_name,
            move_id, location, args,
        )  # fmt: skip
    else:
        result, last = _enqueue_copy(
            target, affinity, wait, signal, source, offset, length, pool, info, queue,
            result_name, move_id, flags, location, args,
        )  # fmt: skip
    runtime.stats.device(target.name).ops["move"] += 1
    runtime.stats.moves.record(info.mode, info.reasons)
    if not flags & MoveFlags.KEEP_SOURCE:
        source.moved = record
    _give_back_on_failure(last, source, record, owners - source.allocation.owners)
    return MoveResult(result, info.mode, info, move_id)


def _give_back_on_failure(
    last: QueueOp, source: Buffer, record: MoveRecord, owners_taken: int
) -> None:
    """If the move does not complete (a wait failed, or one of its parts), leave `source`
    exactly as it was before the move: not consumed, its logical owners counted as before and
    no dealloca pending, so it can be read, copied, moved or deallocated again. Its last part
    (`last`) fails whenever any part does, and runs only after every part touching the source.
    """
    undo_part = last.on_failure

    def give_back() -> None:
        if undo_part is not None:
            undo_part()
        if source.moved is record:
            source.moved = None
            source.moved_executed = False
        source.allocation.owners += owners_taken

    last.on_failure = give_back


def _enqueue_alias(
    target: Device,
    affinity: int,
    wait: WaitList,
    signal: WaitList,
    source: Buffer,
    offset: int,
    length: int,
    info: MoveInfo,
    queue: int,
    result_name: str,
    move_id: int,
    location: object | None,
    args: dict[str, object],
) -> tuple[Buffer, QueueOp]:
    """A wrapper over the source's root with the target's residency, made ready by one op
    that waits on `wait` (so a pending writer of the source is honoured)."""
    provided = info.provided
    result = Buffer(
        source.allocation,
        source.offset + offset,
        length,
        provided.type,
        provided.usage,
        provided.access,
        Residency(target, 1 << queue),
        result_name,
    )
    if info.mode is MoveMode.ALIAS_AFTER_GRANT:
        # Recorded at enqueue: later decisions read it as a static fact.
        source.allocation.granted.add(target.name)

    def action() -> int:
        # Cache maintenance (release on the source side, acquire on the target) would go here;
        # host memory needs none, so aliasing touches no bytes.
        result.ready = True
        source.moved_executed = True
        return 0

    last = target.enqueue_op(
        f"move.{info.mode.value}", affinity, wait, signal, action,
        [BufferUse(source, "moved")], location, queue=queue, move_id=move_id, args=args,
        counted=False,
    )  # fmt: skip
    return result, last


def _enqueue_copy(
    target: Device,
    affinity: int,
    wait: WaitList,
    signal: WaitList,
    source: Buffer,
    offset: int,
    length: int,
    pool: Pool | None,
    info: MoveInfo,
    queue: int,
    result_name: str,
    move_id: int,
    flags: MoveFlags,
    location: object | None,
    args: dict[str, object],
) -> tuple[Buffer, QueueOp]:
    """alloca(target) -> copy -> dealloca(source, at its origin) or a barrier; the result and
    the last of those ops."""
    runtime = target.runtime
    result = target.allocator.new_allocation(info.provided, length, queue, pool, name=result_name)
    allocated = Timepoint(runtime.create_semaphore(name=f"move{move_id}.allocated"), 1)
    copied = Timepoint(runtime.create_semaphore(name=f"move{move_id}.copied"), 1)

    def commit() -> int:
        # The copy below writes every byte before the result can be read.
        target.allocator.commit(result.allocation, overwritten=True)
        result.ready = True
        return 0

    target.enqueue_op(
        "move.alloca", affinity, wait, [allocated], commit, (), location, queue=queue,
        move_id=move_id, args={**args, "size": length}, counted=False,
    )  # fmt: skip

    copy_device = runtime.device(info.copy_device or target.name)
    copy = CopyCommand(source, offset, result, 0, length)
    copy_stats = runtime.stats.device(copy_device.name)
    keep_source = bool(flags & MoveFlags.KEEP_SOURCE)

    def run_copy() -> int:
        touched = copy.run(copy_stats, by_move=True)
        if not keep_source:
            source.moved_executed = True
        return touched

    copy_queue = queue if copy_device is target else None
    copy_device.enqueue_op(
        "move.copy", affinity if copy_device is target else 0, [allocated], [copied], run_copy,
        copy.uses(), location, queue=copy_queue, move_id=move_id, args=args, counted=False,
    )  # fmt: skip

    allocation = source.allocation
    placement = allocation.placement
    owns_all = source.is_whole_root and not info.reasons & _COPY_KEEPS_SOURCE
    if owns_all and placement.asynchronous and not placement.indeterminate_lifetime:
        last = target.queue_dealloca(
            affinity, [copied], signal, source, DeallocaFlags.PREFER_ORIGIN,
            location=location, move_id=move_id,
        )  # fmt: skip
    elif owns_all:
        # Memory a queue dealloca does not free (synchronous allocations, indeterminate
        # lifetime) is freed when its last owner lets go: the move is that owner.
        def release() -> int:
            allocation.owners -= 1
            if allocation.owners == 0:
                placement.device.allocator.free(allocation)
            return 0

        last = placement.device.enqueue_op(
            "move.release", 0, [copied], signal, release, [BufferUse(source, "released")],
            location, queue=placement.device.select_queue(placement.queue_affinity),
            move_id=move_id, args=args, counted=False,
        )  # fmt: skip
    else:
        if info.reasons & (MoveReason.NOT_TERMINAL | MoveReason.EXTERNAL) and not keep_source:
            # The move consumed the caller's ownership; another owner (or the importer)
            # keeps the allocation alive.
            source.allocation.owners -= 1
        last = target.enqueue_op(
            "move.release", affinity, [copied], signal, lambda: 0, (), location, queue=queue,
            move_id=move_id, args=args, counted=False,
        )  # fmt: skip
    return result, last
