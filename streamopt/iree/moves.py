"""Queue moves on IREE's runtime: the module that implements `streamopt.queue_move.*`.

`--lower-cmd-moves-to-calls` turns each `stream.cmd.move` into a call of an imported function
(the ABI is `streamopt.move_api`'s); `QueueMoves` supplies it to IREE's VM as a Python module
(`iree.runtime.PyModuleInterface`) beside the HAL module, on the devices the program runs on.
Each call decides at run time, from the actual `iree_hal_buffer_t` and the target device's
allocator, with the reference runtime's modes, flags and reasons:

* ALIAS when the move covers the whole buffer and either the target is the source's device or
  the target's allocator reports a buffer of the source's memory type and allowed usage usable
  for dispatch and transfer (`query_buffer_compatibility` gives QUEUE_DISPATCH and
  QUEUE_TRANSFER; a source of unknown origin always asks). No queue op runs: the result is the
  source buffer, ready when its pending work is, so the result fence is the fence the move
  waited on.
* COPY otherwise (reasons SUBSPAN, NO_PEER), or with FORCE_COPY (FORCED) or KEEP_SOURCE: a
  buffer of `length` bytes on the target (from the target's pool, else a queue alloca), a queue
  copy (a one-copy command buffer for a part of the buffer, since the Python binding's
  `queue_copy` copies whole buffers, and for `COMMAND_BUFFER_COPY` bytes or more, which copy
  faster that way), then the source is let go, unless KEEP_SOURCE is given or only part of
  the buffer moved (the caller does not own the rest): a source the program allocated (lifetime
  transient) on a known device goes to that device's pool and the result fence is the copy's;
  any other is freed by a queue dealloca on the device it came from (the target's when unknown)
  and the result fence signals after it, as in `--expand-cmd-moves`.
* The pool does for moves what IREE's build does for its transfers: `iree-stream-reuse-allocations`
  gives the next alloca of the same size and affinity on a timeline the buffer a dealloca before
  it freed, so the plain ping-pong copies between two buffers. Fresh memory costs its first
  touch on every copy (local-task serves an alloca beyond its 64 MiB suballocating pool with a
  fresh host allocation); reused memory does not. Each device keeps at most `POOL_LIMIT` sources,
  each with the fence after which nothing uses it. A COPY to that device of the same size takes
  one (its copy also waits on that fence) instead of a queue alloca, when the result's lifetime
  is not staging and the buffer has the memory type and usage IREE gives every other lifetime
  (`POOL_MEMORY_TYPE`, `POOL_USAGE`). Past the limit the oldest is freed (a queue dealloca
  after its fence); `QueueMoves.release()` frees the rest at the end of the run. A kept source
  whose fence failed is dropped unfreed, never handed on.
* REQUIRE_ALIAS on a move that must copy raises `MoveUnavailable` before anything is enqueued;
  the VM call fails with its message.
* A failed wait fence fails the result fence and frees nothing: an alias hands the failed fence
  on; a copy whose wait fence has failed already enqueues nothing and neither takes from nor adds
  to the pool; one whose wait fails later has its copy and dealloca skipped (a queue op skips
  after a failed wait and fails its signals), and a source kept behind it is dropped, unfreed,
  when the pool next looks at it. A pool buffer taken while its fence is still pending hands a
  failure that comes later on to the move that took it, as the plain build's reused allocations
  do.

What IREE's runtime lets this observe: a buffer's memory type, allowed usage and byte length,
and the allocator's answer for *parameters* (it never looks at an existing buffer or where it
lives), so "usable" is only sound where every device reaches every buffer, as the local-task
devices of one process do (they share the driver's allocator, whose statistics therefore count
every device). A buffer that is a subspan of a larger allocation, or imported memory, looks like
any other buffer here. The queue affinity goes unused: the binding's queue operations take none.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from streamopt.move_api import (
    QUEUE_MOVE_FUNCTION,
    QUEUE_MOVE_MODULE,
    RESOURCE_LIFETIMES,
    UNKNOWN_DEVICE,
    MoveFlags,
    MoveMode,
    MoveReason,
    MoveStats,
)

CCONV = "0rIIIIIIr_rr"
"""The VM calling convention of every `queue_move` import: a buffer, six i64s, a fence ->
a buffer and a fence."""

_BUFFER_COMPATIBILITY_QUEUE_TRANSFER = 1 << 10
_BUFFER_COMPATIBILITY_QUEUE_DISPATCH = 1 << 11
_BUFFER_USAGE_TRANSFER = 0x3
_BUFFER_USAGE_DISPATCH_STORAGE = 0xC00
_MEMORY_TYPE_DEVICE_VISIBLE = 0x10
_MEMORY_TYPE_DEVICE_LOCAL = 0x30
"""DEVICE_LOCAL as IREE spells it: it includes DEVICE_VISIBLE."""

_REQUIRE_ALIAS = int(MoveFlags.REQUIRE_ALIAS)
_FORCE_COPY = int(MoveFlags.FORCE_COPY)
_KEEP_SOURCE = int(MoveFlags.KEEP_SOURCE)
_REASON_FORCED = int(MoveReason.FORCED)
_REASON_KEEP_SOURCE = int(MoveReason.KEEP_SOURCE)
_REASON_SUBSPAN = int(MoveReason.SUBSPAN)
_REASON_NO_PEER = int(MoveReason.NO_PEER)

COMMAND_BUFFER_COPY = 4 << 20
"""Copies of at least this many bytes are recorded in a one-copy command buffer instead of a
`queue_copy`: on local-task, `queue_copy` measured 1.4x slower at 64 MiB and 1.6x at 512 MiB
(`bench/iree_copy_cost.py`), the same at 4 MiB, and faster at 1 MiB."""

POOL_LIMIT = 2
"""Sources each device's pool keeps at most (the oldest is freed past it)."""

POOL_MEMORY_TYPE = _MEMORY_TYPE_DEVICE_LOCAL
POOL_USAGE = _BUFFER_USAGE_TRANSFER | _BUFFER_USAGE_DISPATCH_STORAGE
"""What a pool buffer must have to stand in for a queue alloca: IREE's stream-to-HAL conversion
allocates every lifetime but staging DEVICE_LOCAL with TRANSFER and DISPATCH_STORAGE usage
(staging is host-local and mapped: never from the pool)."""


class MoveUnavailable(Exception):
    """A REQUIRE_ALIAS move must copy (UNAVAILABLE in the proposed API); nothing was enqueued."""


@dataclass
class PairStats:
    """What the moves from one device to another did."""

    moves: int = 0
    aliased: int = 0
    copied: int = 0
    failed: int = 0
    """Moves whose wait fence had failed (the result fails; nothing is freed)."""
    rejected: int = 0
    bytes_moved: int = 0
    bytes_copied: int = 0
    reused: int = 0
    """Copies into a buffer from the target's pool instead of a fresh queue alloca."""
    reasons: Counter[str] = field(default_factory=Counter)
    target: str = ""
    """The target device's name (set by `QueueMoves.pair`)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "moves": self.moves,
            "aliased": self.aliased,
            "copied": self.copied,
            "failed": self.failed,
            "rejected": self.rejected,
            "bytes_moved": self.bytes_moved,
            "bytes_copied": self.bytes_copied,
            "reused": self.reused,
            "reasons": dict(sorted(self.reasons.items())),
        }


@dataclass
class PoolStats:
    """What the per-device pools of copied sources did."""

    hits: int = 0
    """Copies that took a pool buffer instead of a queue alloca."""
    misses: int = 0
    """Copies that made a queue alloca."""
    kept: int = 0
    """Sources kept instead of deallocated."""
    freed: int = 0
    """Kept sources deallocated (past `POOL_LIMIT`, or by `release()`)."""
    dropped: int = 0
    """Kept sources whose fence failed: let go without a dealloca (a failed wait frees
    nothing)."""
    peak_bytes: int = 0
    """The most bytes all pools held at once."""

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass(slots=True)
class PooledBuffer:
    """A copied move's source, kept on the device it came from."""

    buffer: Any
    free: Any
    """The fence after which nothing uses it (its copy's)."""
    length: int


@dataclass(frozen=True)
class MoveDecision:
    """How one move runs, decided before anything is enqueued."""

    mode: MoveMode
    reasons: MoveReason
    frees_source: bool
    """A copy deallocates the source (not with KEEP_SOURCE, nor when only part of it moved)."""


class _Verdict:
    """A `MoveDecision` kept for every later move with the same static facts (devices, flags,
    whole or not, length, the source's memory type and usage), with what the per-move
    bookkeeping needs precomputed: deciding and recording it from scratch (an IntFlag, a
    dataclass, the allocator's answer, reason names) was most of an aliasing move's host
    time."""

    __slots__ = (
        "alias", "decision", "frees_source", "mode", "pair", "poolable", "reason_names", "whole",
    )  # fmt: skip

    def __init__(
        self, decision: MoveDecision, pair: PairStats, whole: bool, memory_type: int, usage: int
    ) -> None:
        self.decision = decision
        self.alias = decision.mode is MoveMode.ALIAS
        self.frees_source = decision.frees_source
        self.mode = decision.mode.value
        self.reason_names = tuple(decision.reasons.names())
        self.pair = pair
        self.whole = whole
        self.poolable = (
            memory_type & POOL_MEMORY_TYPE == POOL_MEMORY_TYPE and usage & POOL_USAGE == POOL_USAGE
        )
        """A copied source with these facts can stand in for a later alloca (`POOL_MEMORY_TYPE`,
        `POOL_USAGE`); any other is freed, never kept."""


VERDICT_LIMIT = 4096
"""Decisions kept at most (a program with ever new dynamic sizes makes a new one per size; past
the limit they are forgotten and made again)."""


class QueueMoves:
    """The `streamopt` VM module for one run, and what its moves did.

    `device_names` label the devices by ordinal in the report; `forced_flags` are added to
    every move's flags (FORCE_COPY for the build `--compare` forces to copy, REQUIRE_ALIAS to
    insist that every move aliases). A `RuntimeExtension` of `streamopt.iree.run`.
    """

    def __init__(
        self, device_names: Sequence[str], forced_flags: MoveFlags = MoveFlags.NONE
    ) -> None:
        self.device_names = list(device_names)
        self.forced_flags = forced_flags
        self.forced_bits = int(forced_flags)
        self.stats = MoveStats()
        self.failed = 0
        self.pairs: dict[tuple[str, str], PairStats] = {}
        self._pairs_by_ordinal: dict[tuple[int, int], PairStats] = {}
        self.bytes_copied_by_device: Counter[str] = Counter()
        self.pool = PoolStats()
        self._implementations: list[QueueMoveImplementation] = []
        self.seconds = 0.0
        """Wall seconds spent in `queue_move`: deciding and enqueuing (the copy runs later:
        local-task's queue alloca returns at once on a pending wait fence, and raises only on
        one that has failed already)."""

    # -- RuntimeExtension -------------------------------------------------------------------

    def modules(self, instance: Any, devices: Sequence[Any]) -> list[Any]:
        """The `streamopt` module exporting `queue_move.L1.L2` for every pair of lifetimes,
        moving between `devices` (by ordinal)."""
        # Imported when first needed: start-up time.
        from streamopt.iree.run import import_runtime

        rt = import_runtime()
        implementation = QueueMoveImplementation(self, rt, list(devices))
        self._implementations.append(implementation)
        # The interface owns the implementation (and through it the devices): both go when the
        # VM module does, before the devices are released.
        interface = rt.PyModuleInterface(QUEUE_MOVE_MODULE, lambda _: implementation)
        for source in RESOURCE_LIFETIMES:
            for result in RESOURCE_LIFETIMES:
                interface.export(
                    f"{QUEUE_MOVE_FUNCTION}.{source}.{result}",
                    CCONV,
                    _vm_export(source, result),
                )
        return [interface.create()]

    def release(self) -> None:
        """Free what the pools kept (queue deallocas, waited for); the run calls it before it
        lets the devices go."""
        implementations, self._implementations = self._implementations, []
        for implementation in implementations:
            implementation.release_pool()

    def report(self) -> dict[str, Any]:
        """The reference backend's move keys (`moves_aliased`, `moves_copied`, `move_modes`,
        `move_reasons`, `bytes_copied_by_moves`), plus rejected and failed moves and the
        moves per device pair."""
        by_device = {name: self.bytes_copied_by_device.get(name, 0) for name in self.device_names}
        return {
            "moves_aliased": self.stats.aliased,
            "moves_copied": self.stats.copied,
            "moves_rejected": self.stats.rejected,
            "moves_failed": self.failed,
            "move_modes": dict(sorted(self.stats.modes.items())),
            "move_reasons": dict(sorted(self.stats.reasons.items())),
            "move_flags_forced": flag_names(self.forced_flags),
            "move_seconds": self.seconds,
            "move_pool": self.pool.to_dict(),
            "bytes_copied_by_moves": {
                "total": sum(self.bytes_copied_by_device.values()),
                "by_device": by_device,
            },
            "moves_by_device_pair": [
                {"source": source, "target": target, **pair.to_dict()}
                for (source, target), pair in self.pairs.items()
            ],
        }

    # -- bookkeeping ------------------------------------------------------------------------

    def device_name(self, ordinal: int) -> str:
        if ordinal == UNKNOWN_DEVICE:
            return "?"
        if 0 <= ordinal < len(self.device_names):
            return self.device_names[ordinal]
        return f"device{ordinal}"

    def pair(self, source_device: int, target_device: int) -> PairStats:
        # By ordinals first: naming the devices on every move cost a microsecond or two.
        stats = self._pairs_by_ordinal.get((source_device, target_device))
        if stats is None:
            key = (self.device_name(source_device), self.device_name(target_device))
            stats = self.pairs.get(key)
            if stats is None:
                stats = self.pairs[key] = PairStats()
            self._pairs_by_ordinal[source_device, target_device] = stats
            stats.target = key[1]
        return stats


class QueueMoveImplementation:
    """`queue_move` on the HAL devices of one VM context (the module's state object)."""

    def __init__(self, owner: QueueMoves, rt: Any, devices: list[Any]) -> None:
        self.owner = owner
        self.rt = rt
        self.devices = devices
        self._reached: dict[int, Any] = {}
        self._pools: dict[int, list[PooledBuffer]] = {}
        """Kept sources by device ordinal, oldest first."""
        self._pooled_bytes = 0
        self._verdicts: dict[tuple[int, ...], _Verdict] = {}
        self._freeing: list[Any] = []
        """Fences of the deallocas of evicted pool buffers (waited for at release)."""

    def vm_queue_move(
        self,
        source: Any,
        source_offset: int,
        length: int,
        source_device: int,
        target_device: int,
        queue_affinity: int,
        flags: int,
        wait: Any,
        source_lifetime: str = "external",
        result_lifetime: str = "external",
    ) -> tuple[Any, Any]:
        """The VM export: refs in, refs out (see `queue_move`)."""
        rt = self.rt
        started = time.perf_counter()
        try:
            buffer, fence = self.queue_move(
                source.deref(rt.HalBuffer),
                source_offset,
                length,
                source_device,
                target_device,
                queue_affinity,
                _checked_flags(flags),
                wait.deref(rt.HalFence, True),
                source_lifetime,
                result_lifetime,
            )
        finally:
            self.owner.seconds += time.perf_counter() - started
        return buffer.ref, fence.ref

    def decide(
        self,
        source: Any,
        source_offset: int,
        length: int,
        source_device: int,
        target_device: int,
        flags: MoveFlags | int,
    ) -> MoveDecision:
        """How the move runs (pure: it asks the target's allocator and enqueues nothing)."""
        # Plain ints until the end: IntFlag arithmetic costs microseconds an operation, and
        # this runs on the host for every move.
        bits = int(flags)
        reasons = 0
        if bits & _FORCE_COPY:
            reasons |= _REASON_FORCED
        if bits & _KEEP_SOURCE:
            reasons |= _REASON_KEEP_SOURCE
        whole = source_offset == 0 and length == source.byte_length()
        if not whole:
            reasons |= _REASON_SUBSPAN
        if target_device != source_device:
            compatibility = self.device(target_device).allocator.query_buffer_compatibility(
                source.memory_type(),
                source.allowed_usage(),
                _BUFFER_USAGE_DISPATCH_STORAGE | _BUFFER_USAGE_TRANSFER,
                length,
            )
            needed = _BUFFER_COMPATIBILITY_QUEUE_DISPATCH | _BUFFER_COMPATIBILITY_QUEUE_TRANSFER
            if compatibility & needed != needed:
                reasons |= _REASON_NO_PEER
        mode = MoveMode.COPY if reasons else MoveMode.ALIAS
        return MoveDecision(mode, MoveReason(reasons), whole and not bits & _KEEP_SOURCE)

    def queue_move(
        self,
        source: Any,
        source_offset: int,
        length: int,
        source_device: int,
        target_device: int,
        queue_affinity: int,
        flags: MoveFlags | int,
        wait: Any,
        source_lifetime: str = "external",
        result_lifetime: str = "external",
    ) -> tuple[Any, Any]:
        """Move `length` bytes of `source` (a HalBuffer) from `source_offset` to device
        `target_device` once `wait` (a HalFence, or None for none) is reached; return the
        result buffer (usable now as a handle) and the fence at which its contents are
        valid. The lifetimes are the resources' in the program (the import's name): only a
        transient source is kept for reuse, and a staging result never takes a kept one (the
        defaults, external, do neither)."""
        owner = self.owner
        bits = int(flags) | owner.forced_bits
        whole = source_offset == 0 and length == source.byte_length()
        # Everything `decide` reads, so the same facts give the same decision.
        key = (source_device, target_device, bits, whole, length,
               source.memory_type(), source.allowed_usage())  # fmt: skip
        verdict = self._verdicts.get(key)
        if verdict is None:
            verdict = self._verdict(key, source, source_offset, length)
        pair = verdict.pair
        pair.moves += 1
        pair.bytes_moved += length
        if not verdict.alias and bits & _REQUIRE_ALIAS:
            owner.stats.rejected += 1
            pair.rejected += 1
            raise MoveUnavailable(
                f"move of {length} bytes from {owner.device_name(source_device)} to "
                f"{owner.device_name(target_device)} requires aliasing (REQUIRE_ALIAS) but must "
                f"copy: {', '.join(verdict.reason_names)}"
            )
        stats = owner.stats
        stats.modes[verdict.mode] += 1
        for name in verdict.reason_names:
            stats.reasons[name] += 1
            pair.reasons[name] += 1
        if verdict.alias:
            pair.aliased += 1
            return source, wait if wait is not None else self.reached(target_device)
        pair.copied += 1
        return self._copy(source, source_offset, length, source_device, target_device,
                          verdict, wait, source_lifetime, result_lifetime)  # fmt: skip

    def _verdict(
        self, key: tuple[int, ...], source: Any, source_offset: int, length: int
    ) -> _Verdict:
        """Decide a move with the static facts `key` (see `queue_move`) and keep the decision."""
        source_device, target_device, bits = key[0], key[1], key[2]
        self.device(target_device)  # The target must be one of the run's devices.
        decision = self.decide(source, source_offset, length, source_device, target_device, bits)
        if len(self._verdicts) >= VERDICT_LIMIT:
            self._verdicts.clear()
        verdict = self._verdicts[key] = _Verdict(
            decision, self.owner.pair(source_device, target_device), bool(key[3]), key[5], key[6]
        )
        return verdict

    def _copy(
        self,
        source: Any,
        source_offset: int,
        length: int,
        source_device: int,
        target_device: int,
        verdict: _Verdict,
        wait: Any,
        source_lifetime: str,
        result_lifetime: str,
    ) -> tuple[Any, Any]:
        """(a pool buffer, or alloca(target)) -> copy -> keep or dealloca(source), chained by
        one semaphore of the target (values 1, 2, 3); the last fence is the result's."""
        fence_at = self.rt.HalFence.create_at
        owner = self.owner
        pair = verdict.pair
        target = self.devices[target_device]  # Checked when the verdict was made.
        semaphore = target.create_semaphore(0)
        copied = fence_at(semaphore, 2)
        ready = wait if wait is not None else self.reached(target_device)
        # Failed already: enqueue nothing, touch no pool (the source stands in as the result's
        # handle). local-task's alloca would return the same error; a pool hit makes none.
        failure = _failure(ready)
        reused = (
            self._take(target_device, length)
            if failure is None and result_lifetime != "staging"
            else None
        )
        if reused is not None:
            result = reused.buffer
            # Free once its last copy is done and the move's producers are.
            start = self.rt.HalFence.join([ready, reused.free])
            owner.pool.hits += 1
            pair.reused += 1
        elif failure is None:
            start = fence_at(semaphore, 1)
            try:
                result = target.queue_alloca(length, ready, start)
            except RuntimeError as exc:
                failure = str(exc)
            owner.pool.misses += 1
        if failure is not None:
            owner.failed += 1
            pair.failed += 1
            _fail(semaphore, failure)
            return source, copied
        if verdict.whole and length < COMMAND_BUFFER_COPY:
            target.queue_copy(source, result, start, copied)
        else:
            # A part of the buffer (the binding's queue_copy copies whole buffers), or a large
            # copy: recorded, it runs as the plain build's stream.cmd.copy does, faster.
            command_buffer = self.rt.HalCommandBuffer(target, 0, True)
            command_buffer.copy(source, result, source_offset, 0, length, True)
            target.queue_execute(command_buffer, start, copied)
        pair.bytes_copied += length
        owner.bytes_copied_by_device[pair.target] += length
        if not verdict.frees_source:
            return result, copied
        if source_lifetime == "transient" and source_device != UNKNOWN_DEVICE and verdict.poolable:
            # The program allocated it and gave it up: keep it where it lives for a later copy.
            self._keep(source_device, PooledBuffer(source, copied, length))
            return result, copied
        freed = fence_at(semaphore, 3)
        # At its origin; a source of unknown origin is freed where the copy ran.
        origin = target_device if source_device == UNKNOWN_DEVICE else source_device
        self.device(origin).queue_dealloca(source, copied, freed)
        return result, freed

    # -- the pool ---------------------------------------------------------------------------

    def _take(self, device: int, length: int) -> PooledBuffer | None:
        """A kept buffer of `device` of `length` bytes out of the pool (every kept buffer can
        stand in for a queue alloca of any lifetime but staging: `_copy` keeps only those);
        kept buffers whose fence failed are dropped."""
        entries = self._pools.get(device)
        if not entries:
            return None
        for entry in list(entries):
            if _failure(entry.free) is not None:
                self._remove(device, entry)
                self.owner.pool.dropped += 1
            elif entry.length == length:
                self._remove(device, entry)
                return entry
        return None

    def _keep(self, device: int, entry: PooledBuffer) -> None:
        """Keep `entry` in `device`'s pool, freeing the oldest past `POOL_LIMIT`."""
        entries = self._pools.get(device)
        if entries is None:
            entries = self._pools[device] = []
        entries.append(entry)
        self._pooled_bytes += entry.length
        pool = self.owner.pool
        pool.kept += 1
        if self._pooled_bytes > pool.peak_bytes:
            pool.peak_bytes = self._pooled_bytes
        while len(entries) > POOL_LIMIT:
            oldest = entries[0]
            self._remove(device, oldest)
            self._free(device, oldest)

    def _remove(self, device: int, entry: PooledBuffer) -> None:
        self._pools[device].remove(entry)
        self._pooled_bytes -= entry.length

    def _free(self, device: int, entry: PooledBuffer) -> None:
        """A queue dealloca of `entry` on `device` after its fence (skipped, freeing nothing,
        if that fence fails); a failed fence now drops it."""
        if _failure(entry.free) is not None:
            self.owner.pool.dropped += 1
            return
        hal_device = self.device(device)
        freed = self.rt.HalFence.create_at(hal_device.create_semaphore(0), 1)
        hal_device.queue_dealloca(entry.buffer, entry.free, freed)
        self._freeing.append(freed)
        self.owner.pool.freed += 1

    def release_pool(self) -> None:
        """Free every kept buffer and wait until the deallocas are done (or skipped)."""
        for device, entries in list(self._pools.items()):
            for entry in list(entries):
                self._remove(device, entry)
                self._free(device, entry)
        freeing, self._freeing = self._freeing, []
        for fence in freeing:
            with contextlib.suppress(RuntimeError):  # Skipped after a failure: nothing freed.
                fence.wait()

    def device(self, ordinal: int) -> Any:
        if not 0 <= ordinal < len(self.devices):
            raise ValueError(
                f"queue_move names device {ordinal}, but the program runs on "
                f"{len(self.devices)} devices"
            )
        return self.devices[ordinal]

    def reached(self, ordinal: int) -> Any:
        """A fence of `ordinal`'s that is already reached (for a move that waits on nothing)."""
        fence = self._reached.get(ordinal)
        if fence is None:
            fence = self._reached[ordinal] = self.rt.HalFence.create_at(
                self.device(ordinal).create_semaphore(1), 1
            )
        return fence


_ALL_MOVE_FLAGS = 0
for _flag in MoveFlags:
    _ALL_MOVE_FLAGS |= int(_flag)


def _checked_flags(bits: int) -> int:
    """`bits` as they came from the program, once they are known to be `MoveFlags` bits (left
    an int: making an IntFlag per move was a good part of the module's time)."""
    if bits & ~_ALL_MOVE_FLAGS:
        raise ValueError(f"queue_move flags {bits:#x} hold bits that are not MoveFlags")
    return bits


def flag_names(flags: MoveFlags) -> str:
    """`"FORCE_COPY|KEEP_SOURCE"`, or `"NONE"`."""
    return "|".join(f.name for f in MoveFlags if f and f.name and f & flags) or "NONE"


def _vm_export(source_lifetime: str, result_lifetime: str) -> Any:
    """The method exported as `queue_move.<source_lifetime>.<result_lifetime>`."""

    def export(
        implementation: QueueMoveImplementation,
        source: Any,
        source_offset: int,
        length: int,
        source_device: int,
        target_device: int,
        queue_affinity: int,
        flags: int,
        wait: Any,
    ) -> tuple[Any, Any]:
        return implementation.vm_queue_move(
            source, source_offset, length, source_device, target_device, queue_affinity,
            flags, wait, source_lifetime, result_lifetime,
        )  # fmt: skip

    return export


def _failure(fence: Any) -> str | None:
    """The error `fence` (a HalFence) failed with, or None while it is pending or reached."""
    try:
        fence.wait(timeout=0)
    except RuntimeError as exc:
        return str(exc)
    return None


def _fail(semaphore: Any, message: str) -> None:
    """Fail `semaphore` unless it already failed (the first failure sticks)."""
    with contextlib.suppress(RuntimeError):
        semaphore.fail(message)
