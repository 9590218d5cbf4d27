"""Figures for the reference runtime's queue moves.

1. Alias cost against buffer size: a move between the two CPU devices of the default topology
   aliases, so its cost (enqueue + run) must not grow with the buffer (1 MiB .. 512 MiB).
2. Copy-path bandwidth: a FORCE_COPY move (alloca + copy + dealloca of the source) against a
   plain numpy copy of the same size that also drops its source; target >= 80%.
3. Ping-pong: 64 steps between cpu0 and cpu1, each step updating the buffer on the device that
   holds it and handing it to the other device, once with moves and once with transfers
   (alloca + copy + dealloca). Reports bytes copied and peak resident memory, and checks both
   end with the same bytes.

Run: `PYTHONPATH=. python bench/runtime.py [--quick] [--max-mib N]`. Memory stays below about
2x the largest buffer; buffers are freed between steps.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable

import numpy as np

from streamopt.runtime import BufferParams, Fence, MoveFlags, MoveMode, Runtime
from streamopt.runtime.buffers import Buffer

MIB = 1 << 20


def _fresh_buffer(runtime: Runtime, size: int) -> tuple[Buffer, Fence]:
    """A committed, filled buffer on cpu0 (so its pages are really resident)."""
    cpu0 = runtime.device("cpu0")
    allocated, filled = runtime.create_fence(), runtime.create_fence()
    buffer = cpu0.queue_alloca(0, None, allocated, None, BufferParams(), size)
    cpu0.queue_fill(0, allocated, filled, buffer, 0, size, 0x5A, 1)
    filled.wait()
    return buffer, filled


def _time_moves(
    runtime: Runtime, buffer: Buffer, ready: Fence, count: int, flags: MoveFlags
) -> tuple[list[float], Buffer, Fence]:
    """Move `buffer` back and forth `count` times; the seconds each move took (enqueue + run)."""
    devices = [runtime.device("cpu1"), runtime.device("cpu0")]
    times = []
    for step in range(count):
        moved = runtime.create_fence()
        start = time.perf_counter()
        result = devices[step % 2].queue_move(0, ready, moved, buffer, flags=flags)
        moved.wait()
        times.append(time.perf_counter() - start)
        buffer, ready = result.buffer, moved
    return times, buffer, ready


def bench_alias_cost(sizes: list[int], repeats: int) -> None:
    print("1. alias move cost vs size (cpu0 <-> cpu1, enqueue + run, median of", repeats, ")")
    print(f"   {'size':>9}  {'median us':>10}  {'min us':>8}  {'bytes copied':>12}")
    medians = []
    for size in sizes:
        runtime = Runtime()
        buffer, ready = _fresh_buffer(runtime, size)
        times, buffer, _ = _time_moves(runtime, buffer, ready, repeats, MoveFlags.REQUIRE_ALIAS)
        assert runtime.stats.moves.copied == 0
        median = statistics.median(times) * 1e6
        medians.append(median)
        print(
            f"   {size // MIB:>5} MiB  {median:>10.1f}  {min(times) * 1e6:>8.1f}  "
            f"{runtime.stats.bytes_copied:>12}"
        )
        del runtime, buffer
        gc.collect()
    ratio = max(medians) / min(medians)
    print(f"   largest/smallest median: {ratio:.2f}x (flat means no bytes touched)\n")


def _numpy_copy_seconds(size: int, repeats: int) -> float:
    """Best time of `dst = src.copy()` then dropping `src`, as a copying move does."""
    source = np.full(size, 0x5A, dtype=np.uint8)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        target = np.empty(size, dtype=np.uint8)
        np.copyto(target, source)
        source = target  # drops (frees) the old source inside the timed region
        best = min(best, time.perf_counter() - start)
    return best


def bench_copy_bandwidth(sizes: list[int], budget: int) -> None:
    """Best of N for each size, N = `budget` bytes / size (at least 4): small copies are
    noisy on shared cores and the first ones fault pages in."""
    print("2. copy-path bandwidth: FORCE_COPY move (alloca + copy + dealloca) vs numpy copy")
    print(f"   {'size':>9}  {'move GB/s':>9}  {'numpy GB/s':>10}  {'ratio':>6}  {'>= 80%':>6}")
    for size in sizes:
        repeats = max(4, min(64, budget // size))
        runtime = Runtime()
        buffer, ready = _fresh_buffer(runtime, size)
        times, buffer, _ = _time_moves(runtime, buffer, ready, repeats, MoveFlags.FORCE_COPY)
        assert runtime.stats.moves.copied == repeats
        assert runtime.stats.bytes_copied_by_moves == repeats * size
        move_seconds = min(times)
        del runtime, buffer
        gc.collect()
        numpy_seconds = _numpy_copy_seconds(size, repeats)
        gc.collect()
        move_bw = size / move_seconds / 1e9
        numpy_bw = size / numpy_seconds / 1e9
        ratio = move_bw / numpy_bw
        print(
            f"   {size // MIB:>5} MiB  {move_bw:>9.2f}  {numpy_bw:>10.2f}  {ratio:>6.0%}  "
            f"{'yes' if ratio >= 0.8 else 'no':>6}"
        )
    print()


def _ping_pong(size: int, steps: int, use_moves: bool) -> tuple[Runtime, bytes, float]:
    """Run the ping-pong; returns the runtime (for its statistics), the final bytes' digest
    input (first and last KiB) and the wall time."""
    runtime = Runtime()
    devices = [runtime.device("cpu0"), runtime.device("cpu1")]
    start = time.perf_counter()
    buffer, ready = _fresh_buffer(runtime, size)
    for step in range(steps):
        here, there = devices[step % 2], devices[(step + 1) % 2]
        updated = runtime.create_fence()
        # Each step "computes" on the device holding the buffer: stamp the step number.
        here.queue_update(0, ready, updated, step.to_bytes(4, "little"), 0, buffer, step * 4, 4)
        handed = runtime.create_fence()
        if use_moves:
            result = there.queue_move(0, updated, handed, buffer)
            assert result.mode is MoveMode.ALIAS
            buffer = result.buffer
        else:
            allocated, copied = runtime.create_fence(), runtime.create_fence()
            copy = there.queue_alloca(0, None, allocated, None, BufferParams(), size)
            there.queue_copy(0, Fence.join([updated, allocated]), copied, buffer, 0, copy, 0, size)
            here.queue_dealloca(0, copied, handed, buffer)
            buffer = copy
        ready = handed
    ready.wait()
    elapsed = time.perf_counter() - start
    data = buffer.read(0, 1024) + buffer.read(size - 1024, 1024)
    return runtime, data, elapsed


def bench_ping_pong(size: int, steps: int) -> None:
    print(f"3. ping-pong cpu0 <-> cpu1, {steps} steps, {size // MIB} MiB buffer")
    print(
        f"   {'variant':>9}  {'bytes copied':>13}  {'peak resident':>13}  {'buffers':>7}  "
        f"{'ops':>5}  {'seconds':>7}"
    )
    results = {}
    for variant, use_moves in (("moves", True), ("transfers", False)):
        runtime, data, elapsed = _ping_pong(size, steps, use_moves)
        stats = runtime.stats
        ops = sum(sum(d.ops.values()) for d in stats.devices.values())
        results[variant] = data
        print(
            f"   {variant:>9}  {stats.bytes_copied:>13}  {stats.peak_resident_bytes:>13}  "
            f"{stats.peak_resident_bytes / size:>7.0f}  {ops:>5}  {elapsed:>7.3f}"
        )
        del runtime
        gc.collect()
    same = results["moves"] == results["transfers"]
    print(f"   same final bytes: {same}\n")
    assert same


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer sizes and repeats")
    parser.add_argument("--max-mib", type=int, default=512, help="largest buffer (MiB)")
    args = parser.parse_args(argv)
    largest = min(args.max_mib, 512)
    alias_sizes = [s * MIB for s in (1, 4, 16, 64, 256, 512) if s <= largest]
    copy_sizes = [s * MIB for s in (1, 16, 64, 128, 512) if s <= largest]
    if args.quick:
        alias_sizes = [s for s in alias_sizes if s <= 64 * MIB]
        copy_sizes = [s for s in copy_sizes if s <= 16 * MIB]
    run: list[Callable[[], None]] = [
        lambda: bench_alias_cost(alias_sizes, 5 if args.quick else 21),
        lambda: bench_copy_bandwidth(copy_sizes, (64 if args.quick else 1024) * MIB),
        lambda: bench_ping_pong(min(64, largest) * MIB, 64),
    ]
    for bench in run:
        bench()


if __name__ == "__main__":
    main()
