"""Where a copied move's time goes on IREE's local-task devices: the pieces of one step of
`bench/iree_moves.py`'s forced-copy build, each measured alone.

For each SIZE, on two local-task devices of one process (as the benches run them), the median
and range of `--repeats` waits for:

* `copy, reused target`: `queue_copy` of SIZE bytes into a buffer that was written before (what
  the move module does on a pool hit, and what the plain build's reused allocations do);
* `copy, fresh target`: `queue_alloca` of SIZE bytes then `queue_copy` into it (a pool miss:
  the copy pays the first touch of every page);
* `copy in a command buffer`: the copy recorded in a one-copy command buffer and
  `queue_execute`d into a reused target (how the plain build's `stream.cmd.copy` runs);
* `alloca + dealloca only`: the queue allocation alone, waited for, then freed;
* `numpy copyto`: one host thread copying SIZE bytes (a bound on the memory's speed here);
* `fence join + poll`: `HalFence.join` of two fences and one `wait(timeout=0)` poll, the host
  work a pool hit adds in `queue_move` besides the enqueue.

Run: `python bench/iree_copy_cost.py [--sizes 1 64 512] [--repeats 7]` (needs
iree-base-runtime).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from iree_common import MIB, Spread, load

from streamopt.iree.run import import_runtime


def _timed(action: Callable[[], object], repeats: int) -> Spread:
    seconds = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        seconds.append(time.perf_counter() - started)
    return Spread.of([s * 1e3 for s in seconds])


def measure_size(
    rt: Any, devices: tuple[Any, Any], size: int, repeats: int
) -> list[tuple[str, Spread, bool]]:
    """Each piece at `size` bytes: its name, milliseconds, and whether it copies `size`."""
    source_device, target = devices
    semaphore = target.create_semaphore(0)
    value = [0]

    def fences() -> tuple[Any, Any]:
        """A reached fence to wait on and a new one to signal."""
        ready = rt.HalFence.create_at(semaphore, value[0])
        value[0] += 1
        return ready, rt.HalFence.create_at(semaphore, value[0])

    usage = rt.BufferUsage.DEFAULT
    memory = rt.MemoryType.DEVICE_LOCAL
    source = source_device.allocator.allocate_buffer(memory, usage, size)
    reused = target.allocator.allocate_buffer(memory, usage, size)
    for buffer in (source, reused):  # Touch every page once.
        wait, signal = fences()
        target.queue_copy(source, buffer, wait, signal)
        signal.wait()

    def copy_reused() -> None:
        wait, signal = fences()
        target.queue_copy(source, reused, wait, signal)
        signal.wait()

    def copy_fresh() -> None:
        wait, allocated = fences()
        fresh = target.queue_alloca(size, wait, allocated)
        _, copied = fences()
        target.queue_copy(source, fresh, allocated, copied)
        _, freed = fences()
        target.queue_dealloca(fresh, copied, freed)
        copied.wait()  # The copy's time; the free follows.
        freed.wait()

    def copy_command_buffer() -> None:
        command_buffer = rt.HalCommandBuffer(target, 0, True)
        command_buffer.copy(source, reused, 0, 0, size, True)
        wait, signal = fences()
        target.queue_execute(command_buffer, wait, signal)
        signal.wait()

    def alloca_only() -> None:
        wait, allocated = fences()
        fresh = target.queue_alloca(size, wait, allocated)
        _, freed = fences()
        target.queue_dealloca(fresh, allocated, freed)
        freed.wait()

    host_source = np.ones(size // 4, np.float32)
    host_target = np.zeros_like(host_source)

    def numpy_copy() -> None:
        np.copyto(host_target, host_source)

    def join_and_poll() -> None:
        # Two reached fences (a pool hit joins the move's wait with the kept buffer's).
        first = rt.HalFence.create_at(semaphore, value[0])
        second = rt.HalFence.create_at(semaphore, value[0])
        rt.HalFence.join([first, second]).wait(timeout=0)

    pieces: list[tuple[str, Callable[[], object], bool]] = [
        ("copy, reused target", copy_reused, True),
        ("copy, fresh target", copy_fresh, True),
        ("copy in a command buffer", copy_command_buffer, True),
        ("alloca + dealloca only", alloca_only, False),
        ("numpy copyto", numpy_copy, True),
        ("fence join + poll", join_and_poll, False),
    ]
    # Interleaved: one of each, then again, so that all see the same minutes.
    samples: dict[str, list[float]] = {name: [] for name, _, _ in pieces}
    for _ in range(repeats):
        for name, action, _ in pieces:
            samples[name].append(_timed(action, 1).median)
    return [(name, Spread.of(samples[name]), moves_bytes) for name, _, moves_bytes in pieces]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 64, 512], help="MiB")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    rt = import_runtime()
    driver = rt.get_driver("local-task")
    devices = (driver.create_default_device(), driver.create_default_device())
    print(f"start: {load()}")
    print(f"{'size':>8} {'piece':<26} {'ms':>8} {'lo-hi':>17} {'GB/s':>6}")
    for size_mib in args.sizes:
        for name, spread, moves_bytes in measure_size(rt, devices, size_mib * MIB, args.repeats):
            rate = f"{size_mib * MIB / spread.median / 1e6:6.1f}" if moves_bytes else f"{'':>6}"
            print(
                f"{size_mib:>4} MiB {name:<26} {spread.median:>8.3f} "
                f"{spread.low:>8.3f}-{spread.high:<8.3f} {rate}",
                flush=True,
            )
    print(f"end: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
