"""The runtime: a topology's devices, the scheduler, statistics, trace and host clock.

Typical use (what an interpreter or a test does):

```python
runtime = Runtime()                      # the embedded default topology
cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
ready = runtime.create_fence()
buffer = cpu0.queue_alloca(0, None, ready, None, BufferParams(), 1024)
moved = runtime.create_fence()
result = cpu1.queue_move(0, ready, moved, buffer).buffer
moved.wait()                             # runs the queued ops
```
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

from streamopt.runtime.buffers import Buffer
from streamopt.runtime.devices import Device
from streamopt.runtime.queue import Scheduler
from streamopt.runtime.semaphores import Fence, Semaphore
from streamopt.runtime.stats import Statistics
from streamopt.runtime.status import HalError, StatusCode, hal_error
from streamopt.runtime.topology import Topology, default_topology
from streamopt.runtime.trace import TraceRecorder


class Runtime:
    """Devices of one topology sharing a scheduler, statistics and a trace."""

    def __init__(self, topology: Topology | None = None) -> None:
        self.topology = topology if topology is not None else default_topology()
        self._counters: dict[str, Iterator[int]] = {}
        self.host_time = 0
        """The host's logical time: raised to the time of each value it waits for."""
        self.stats = Statistics()
        self.errors: list[HalError] = []
        """Failures of queue ops as they ran (use after move, use after free, ...)."""
        self.devices: dict[str, Device] = {
            name: Device(self, spec) for name, spec in self.topology.devices.items()
        }
        for name in self.devices:
            self.stats.device(name)
        self.trace = TraceRecorder([(d.name, d.queue_count) for d in self.devices.values()])
        self.scheduler = Scheduler(self)

    def __repr__(self) -> str:
        return f"Runtime({', '.join(self.devices)})"

    def next_id(self, kind: str) -> int:
        """A fresh id for `kind` (ids count from 1 per runtime, so runs are reproducible)."""
        counter = self._counters.get(kind)
        if counter is None:
            counter = self._counters[kind] = itertools.count(1)
        return next(counter)

    def device(self, name: str) -> Device:
        """The device called `name` (NOT_FOUND if there is none)."""
        device = self.devices.get(name)
        if device is None:
            raise hal_error(
                StatusCode.NOT_FOUND,
                f"no device '{name}' (devices: {', '.join(self.devices)})",
            )
        return device

    def create_semaphore(self, initial: int = 0, name: str = "") -> Semaphore:
        """A timeline semaphore at `initial` whose changes wake the scheduler."""
        semaphore = Semaphore(self, self.next_id("semaphore"), initial, name)
        self.scheduler.watch(semaphore)
        return semaphore

    def create_fence(self, name: str = "") -> Fence:
        """A fence on a fresh semaphore (`hal.fence.create`)."""
        return Fence.create(self, name)

    def drain(self) -> int:
        """Run every queue op that can run; returns how many ran."""
        return self.scheduler.drain()

    def run_until(self, done: Callable[[], bool]) -> None:
        """Run queue ops until `done()` holds or nothing can run."""
        self.scheduler.run_until(done)

    def pending_summary(self) -> str:
        return self.scheduler.summary()

    def advance_host_time(self, time: int) -> None:
        self.host_time = max(self.host_time, time)

    def discard(self, buffer: Buffer) -> None:
        """Drop a logical owner of `buffer`; the last owner of memory that queue deallocas do
        not free (synchronous allocations, indeterminate lifetime) frees it now."""
        last = buffer.discard()
        placement = buffer.placement
        if last and (not placement.asynchronous or placement.indeterminate_lifetime):
            placement.device.allocator.free(buffer.allocation)
