"""Queue operations and the deterministic scheduler that runs them.

Ordering comes only from semaphores: an op runs once every timepoint in its wait list is
reached, whatever queue it is on. Among ready ops the scheduler always runs the one enqueued
first, so a run is deterministic. Work is lazy: nothing runs at enqueue; ops run when the host
waits (`Semaphore.wait`, `Fence.wait`) or on `Runtime.drain()` / `Device.flush()`.

An op whose wait failed is skipped: its signals fail with a clone of the wait's status and its
action never runs (a skipped dealloca frees nothing). An op whose action raises `HalError` fails
its signals with that status, which poisons everything downstream. Either way the op's
`on_failure` gives back what enqueueing it claimed (a skipped dealloca leaves its buffer
freeable again; a skipped move leaves its source usable), before anyone waiting on its signals
sees the failure.

Time is logical: an op starts when its queue is free and its waits were reached, and lasts
`1 + bytes // 1024` ticks (one tick per KiB touched), so traces are identical between runs.
"""

from __future__ import annotations

import enum
import heapq
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from streamopt.runtime.semaphores import Semaphore, Timepoint
from streamopt.runtime.status import HalError, Status
from streamopt.runtime.trace import TraceEvent

if TYPE_CHECKING:
    from streamopt.runtime.buffers import Buffer
    from streamopt.runtime.devices import Device
    from streamopt.runtime.system import Runtime

TICK_BYTES = 1024
"""Bytes an op touches per logical tick."""


class OpState(enum.Enum):
    PENDING = "pending"
    DONE = "done"
    FAILED = "failed"
    """The action raised: signals failed with its status."""
    SKIPPED = "skipped"
    """A wait failed: the action never ran; signals failed with the wait's status."""


@dataclass(frozen=True)
class BufferUse:
    """A buffer handle an op touches, checked right before the op runs."""

    buffer: Buffer
    use: str
    """How, for error messages ("read by queue_copy")."""


@dataclass(eq=False)
class QueueOp:
    """One enqueued queue operation."""

    id: int
    kind: str
    """alloca, dealloca, fill, update, copy, dispatch, execute, barrier, or move.<part>."""
    device: Device
    queue: int
    wait: tuple[Timepoint, ...]
    signal: tuple[Timepoint, ...]
    action: Callable[[], int]
    """Does the work; returns the bytes it touched; raises HalError on failure."""
    uses: tuple[BufferUse, ...] = ()
    location: object | None = None
    move_id: int | None = None
    """The move this op is part of (its own uses of the moved source are allowed)."""
    args: dict[str, Any] = field(default_factory=dict)
    on_failure: Callable[[], None] | None = None
    """Undoes what enqueueing claimed (a dealloca pending, a move's hold on its source) when
    the op is skipped or fails, so that what it would have consumed stays usable."""
    state: OpState = OpState.PENDING
    status: Status | None = None
    start: int = 0
    end: int = 0

    @property
    def name(self) -> str:
        return f"{self.kind}#{self.id}"

    def first_unresolved(self) -> Timepoint | None:
        """A wait timepoint that is neither reached nor failed, if any."""
        for timepoint in self.wait:
            if not timepoint.semaphore.is_resolved(timepoint.value):
                return timepoint
        return None

    def wait_failure(self) -> Status | None:
        """The status of the first failed wait, if any."""
        for timepoint in self.wait:
            if timepoint.semaphore.failure is not None:
                return timepoint.semaphore.failure
        return None

    def check_uses(self) -> None:
        """Raise if a touched handle is unusable now (moved away, freed, not produced)."""
        for use in self.uses:
            use.buffer.check_usable(use.use, self.location, self.move_id)


class Scheduler:
    """Runs ready queue ops in enqueue order."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.pending: dict[int, QueueOp] = {}
        self._ready: list[int] = []
        self._blocked: dict[int, list[QueueOp]] = {}
        self._queue_free: dict[tuple[str, int], int] = {}
        self.executed = 0

    def watch(self, semaphore: Semaphore) -> None:
        """Re-check ops blocked on `semaphore` whenever it changes."""
        semaphore.add_listener(self._on_semaphore)

    def enqueue(self, op: QueueOp) -> None:
        self.pending[op.id] = op
        self._park(op)

    def _park(self, op: QueueOp) -> None:
        blocker = op.first_unresolved()
        if blocker is None:
            heapq.heappush(self._ready, op.id)
        else:
            self._blocked.setdefault(blocker.semaphore.id, []).append(op)

    def _on_semaphore(self, semaphore: Semaphore) -> None:
        for op in self._blocked.pop(semaphore.id, []):
            self._park(op)

    def step(self) -> bool:
        """Run the earliest-enqueued ready op; False if none is ready."""
        while self._ready:
            op = self.pending.pop(heapq.heappop(self._ready), None)
            if op is not None:
                self._execute(op)
                return True
        return False

    def run_until(self, done: Callable[[], bool]) -> None:
        """Run ops until `done()` holds or nothing is ready."""
        while not done() and self.step():
            pass

    def drain(self) -> int:
        """Run every op that can run; returns how many ran."""
        count = 0
        while self.step():
            count += 1
        return count

    def _execute(self, op: QueueOp) -> None:
        queue_key = (op.device.name, op.queue)
        start = self._queue_free.get(queue_key, 0)
        for timepoint in op.wait:
            start = max(start, timepoint.semaphore.time_reached(timepoint.value))
        op.start = start
        stats = self.runtime.stats.device(op.device.name)
        failure = op.wait_failure()
        touched = 0
        if failure is not None:
            op.state = OpState.SKIPPED
            op.status = failure.clone(f"{op.name} on {op.device.name} skipped")
        else:
            try:
                op.check_uses()
                touched = op.action()
                op.state = OpState.DONE
            except HalError as error:
                op.state = OpState.FAILED
                status = error.status
                if status.location is None and op.location is not None:
                    error = HalError(Status(status.code, status.message, op.location))
                op.status = replace(error.status, error=error)
                self.runtime.errors.append(error)
        op.end = start + (1 + touched // TICK_BYTES if op.state is OpState.DONE else 0)
        self._queue_free[queue_key] = op.end
        self.executed += 1
        if op.status is not None:
            stats.failed_ops += 1
            if op.on_failure is not None:
                op.on_failure()
            for timepoint in op.signal:
                timepoint.semaphore.fail(op.status, op.end)
        else:
            for timepoint in op.signal:
                timepoint.semaphore.queue_signal(timepoint.value, op.end)
        args = dict(op.args)
        args["wait"] = [repr(t) for t in op.wait]
        args["signal"] = [repr(t) for t in op.signal]
        if op.status is not None:
            args["status"] = str(op.status)
        self.runtime.trace.record(
            TraceEvent(
                name=op.kind,
                kind=op.kind.split(".")[0],
                device=op.device.name,
                queue=op.queue,
                start=op.start,
                end=op.end,
                args=args,
                failed=op.status is not None,
            )
        )

    def summary(self) -> str:
        """Which ops are still pending and what each waits for."""
        if not self.pending:
            return "no queue ops pending"
        parts = []
        for op in list(self.pending.values())[:8]:
            blocker = op.first_unresolved()
            parts.append(f"{op.name} on {op.device.name} waits {blocker!r}")
        more = len(self.pending) - len(parts)
        return "pending: " + "; ".join(parts) + (f"; and {more} more" if more > 0 else "")
