"""Timeline semaphores and fences.

A `Semaphore` holds a monotonically increasing 64-bit value and, once failed, a sticky failure
`Status` (the first failure wins; every later wait reports it). Each value reached is stamped
with the logical time it was reached, so the scheduler can time the ops waiting on it. A
`Fence` is a set of timepoints (semaphore, value), as the VM's `!hal.fence` is: it is reached
when all are, and failed when any is.

Host waits (`Semaphore.wait`, `Fence.wait`) run the runtime's scheduler until the value is
reached, and raise `HalError` with the failure status, or DEADLINE_EXCEEDED when nothing left
to run could reach it.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from streamopt.runtime.status import HalError, Status, StatusCode, hal_error

if TYPE_CHECKING:
    from streamopt.runtime.system import Runtime

FAILURE_VALUE = 1 << 63
"""Payloads at or above this mean "failed" (as in IREE)."""


class Semaphore:
    """A timeline semaphore: value, sticky failure, and the logical time of each value."""

    def __init__(self, runtime: Runtime, semaphore_id: int, initial: int = 0, name: str = ""):
        self.runtime = runtime
        self.id = semaphore_id
        self.name = name or f"sem{semaphore_id}"
        self._value = initial
        self._failure: Status | None = None
        self._failure_time = 0
        # (value, time) pairs in increasing value order: the time each value was reached.
        self._values: list[int] = [initial]
        self._times: list[int] = [0]
        self._listeners: list[Callable[[Semaphore], None]] = []

    def __repr__(self) -> str:
        state = f"failed {self._failure}" if self._failure else str(self._value)
        return f"Semaphore({self.name}={state})"

    @property
    def value(self) -> int:
        """The current payload (FAILURE_VALUE once failed)."""
        return FAILURE_VALUE if self._failure is not None else self._value

    @property
    def failure(self) -> Status | None:
        """The first failure, if the semaphore has failed."""
        return self._failure

    def add_listener(self, listener: Callable[[Semaphore], None]) -> None:
        """Call `listener(self)` after every change of value or failure."""
        self._listeners.append(listener)

    def is_reached(self, value: int) -> bool:
        """True if `value` has been reached and the semaphore has not failed."""
        return self._failure is None and self._value >= value

    def is_resolved(self, value: int) -> bool:
        """True if a wait for `value` would return now (reached or failed)."""
        return self._failure is not None or self._value >= value

    def time_reached(self, value: int) -> int:
        """The logical time `value` was reached (or the failure time, if failed)."""
        if self._failure is not None:
            return self._failure_time
        index = bisect.bisect_left(self._values, value)
        if index >= len(self._values):
            raise ValueError(f"{self.name}: value {value} not reached")
        return self._times[index]

    def signal(self, value: int, time: int | None = None) -> None:
        """Host signal: raise the value to `value` (must increase; a failed semaphore
        reports its failure)."""
        if self._failure is not None:
            raise HalError.of(self._failure)
        if value <= self._value:
            raise hal_error(
                StatusCode.INVALID_ARGUMENT,
                f"{self.name}: signal {value} does not increase the value {self._value}",
            )
        self.queue_signal(value, self.runtime.host_time if time is None else time)

    def queue_signal(self, value: int, time: int) -> None:
        """Signal from a queue op at logical `time`. A value at or below the current one is
        ignored (a queue cannot fail the host for it); a failure payload fails the
        semaphore."""
        if self._failure is not None or value <= self._value:
            return
        if value >= FAILURE_VALUE:
            self.fail(Status(StatusCode.ABORTED, f"{self.name}: signalled a failure payload"))
            return
        self._value = value
        self._values.append(value)
        self._times.append(max(time, self._times[-1]))
        self._notify()

    def fail(self, status: Status, time: int | None = None) -> None:
        """Fail the semaphore; the first failure sticks and later ones are dropped."""
        if self._failure is not None:
            return
        self._failure = status
        self._failure_time = self.runtime.host_time if time is None else time
        self._notify()

    def wait(self, value: int) -> None:
        """Host wait: run queued work until `value` is reached.

        Raises HalError with the failure status if the semaphore failed, or
        DEADLINE_EXCEEDED if the value cannot be reached by the work enqueued so far.
        """
        self.runtime.run_until(lambda: self.is_resolved(value))
        if self._failure is not None:
            raise HalError.of(self._failure)
        if self._value < value:
            raise hal_error(
                StatusCode.DEADLINE_EXCEEDED,
                f"{self.name}: waiting for {value} forever (value {self._value}; "
                f"{self.runtime.pending_summary()})",
            )
        self.runtime.advance_host_time(self.time_reached(value))

    def _notify(self) -> None:
        for listener in list(self._listeners):
            listener(self)


@dataclass(frozen=True)
class Timepoint:
    """A semaphore and a payload value."""

    semaphore: Semaphore
    value: int

    def __repr__(self) -> str:
        return f"{self.semaphore.name}>={self.value}"


class Fence:
    """A set of timepoints, reached when all are reached and failed when any failed."""

    def __init__(self, timepoints: Iterable[Timepoint] = (), name: str = "") -> None:
        self.timepoints: tuple[Timepoint, ...] = tuple(timepoints)
        self.name = name or ",".join(repr(t) for t in self.timepoints) or "fence()"

    def __repr__(self) -> str:
        return f"Fence({self.name})"

    @staticmethod
    def create(runtime: Runtime, name: str = "") -> Fence:
        """A fence on a fresh semaphore at 0, reached when it is signalled to 1 (as
        `hal.fence.create` does)."""
        semaphore = runtime.create_semaphore(0, name=name)
        return Fence([Timepoint(semaphore, 1)], name=name or semaphore.name)

    @staticmethod
    def join(fences: Sequence[Fence | None], name: str = "") -> Fence:
        """A fence reached when all `fences` are (None entries are ignored)."""
        timepoints: list[Timepoint] = []
        for fence in fences:
            if fence is not None:
                timepoints.extend(fence.timepoints)
        return Fence(timepoints, name=name)

    @property
    def is_reached(self) -> bool:
        return all(t.semaphore.is_reached(t.value) for t in self.timepoints)

    @property
    def is_resolved(self) -> bool:
        return self.failure is not None or self.is_reached

    @property
    def failure(self) -> Status | None:
        """The failure of the first failed timepoint, if any."""
        for timepoint in self.timepoints:
            if timepoint.semaphore.failure is not None:
                return timepoint.semaphore.failure
        return None

    def signal(self) -> None:
        """Host signal of every timepoint."""
        for timepoint in self.timepoints:
            if not timepoint.semaphore.is_reached(timepoint.value):
                timepoint.semaphore.signal(timepoint.value)

    def fail(self, status: Status) -> None:
        """Fail every semaphore of the fence."""
        for timepoint in self.timepoints:
            timepoint.semaphore.fail(status)

    def wait(self) -> None:
        """Host wait for every timepoint (see `Semaphore.wait`)."""
        for timepoint in self.timepoints:
            timepoint.semaphore.wait(timepoint.value)


WaitList = Fence | Sequence[Timepoint] | None
"""What queue ops accept as wait or signal list."""


def timepoints_of(fences: WaitList) -> tuple[Timepoint, ...]:
    """The timepoints of a wait/signal argument."""
    if fences is None:
        return ()
    if isinstance(fences, Fence):
        return fences.timepoints
    return tuple(fences)
