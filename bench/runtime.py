"""Figures for the reference runtime's queue moves.

1. Alias cost against buffer size: a move between the two CPU devices of the default topology
   aliases, so its cost (enqueue + run) must not grow with the buffer (1 MiB .. 512 MiB).
2. Copy-path bandwidth: a FORCE_COPY move (alloca + copy + dealloca of the source) against a
   plain numpy copy of the same size that also drops its source; target >= 80%.
3. Ping-pong: 64 steps between cpu0 and cpu1, each step updating the buffer on the device that
   holds it and handing it to the other device, once with moves and once with transfers
   (alloca + copy + dealloca). Reports bytes copied and peak resident memory, and checks both
   end with the same bytes.
4. Programs through the interpreter: the real two-device dump (examples/two-devices.mlir) and
   a 64-step ping-pong between two devices written as async IR (1 MiB .. 512 MiB), each as
   given (transfers), after --elide-async-copies (moves), and, when those passes are
   registered, lowered to hal and with moves expanded. Reports bytes copied, bytes copied by
   moves, peak resident memory, moves aliased/copied and wall time; checks every form computes
   the same bytes.

Run: `PYTHONPATH=. python bench/runtime.py [--quick] [--max-mib N] [--only 1,2,3,4]`. Memory
stays below about 2x the largest buffer (plus one copy of it for reading the result); buffers
are freed between steps.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable
from pathlib import Path

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


PING_PONG_FORMS: list[tuple[str, list[str]]] = [
    ("transfers", []),
    ("moves", ["elide-async-copies"]),
    ("moves on hal", ["elide-async-copies", "lower-to-hal"]),
    ("transfers on hal", ["lower-to-hal"]),
    ("expanded moves", ["elide-async-copies", "lower-to-hal", "expand-moves"]),
]
"""The forms section 4 runs (a form whose passes are not registered is reported as skipped)."""


def ping_pong_ir(size: int, steps: int) -> str:
    """Async IR: a buffer of `size` bytes updated in place on the device holding it (four
    bytes stamped with the step number), then transferred to the other device, `steps`
    times."""
    a, b = "#hal.device.affinity<@dev_a>", "#hal.device.affinity<@dev_b>"
    t = "!stream.resource<transient>{%size}"
    lines = [
        "util.global private @dev_a : !hal.device",
        "util.global private @dev_b : !hal.device",
        "util.func public @main() -> !stream.resource<transient> {",
        f"  %size = arith.constant {size} : index",
        "  %c4 = arith.constant 4 : index",
        "  %c90_i8 = arith.constant 90 : i8",
        f"  %v0 = stream.async.splat on({a}) %c90_i8 : i8 -> {t}",
    ]
    for step in range(steps):
        here, there = (a, b) if step % 2 == 0 else (b, a)
        lines += [
            f"  %o{step} = arith.constant {step * 4} : index",
            f"  %e{step} = arith.constant {step * 4 + 4} : index",
            f"  %k{step} = arith.constant {step} : i32",
            f"  %u{step} = stream.async.fill on({here}) %k{step}, %v{step}[%o{step} to %e{step} "
            f"for %c4] : i32 -> %v{step} as {t}",
            f"  %v{step + 1} = stream.async.transfer %u{step} : {t} from({here}) -> "
            f"to({there}) {t}",
        ]
    lines += [f"  util.return %v{steps} : !stream.resource<transient>", "}"]
    return "\n".join(lines) + "\n"


def _run_forms(label: str, text: str, name: str, forms: list[tuple[str, list[str]]]) -> None:
    from streamopt.passes import load_all
    from streamopt.run_command import first_difference, run_form

    registered = load_all()
    reference = None
    for form, flags in forms:
        missing = [flag for flag in flags if flag not in registered]
        if missing:
            print(f"   {label:<18} {form:<15} skipped (not registered: {', '.join(missing)})")
            continue
        start = time.perf_counter()
        result = run_form(text, name, flags, None, [], None)
        elapsed = time.perf_counter() - start
        report = result.report()
        if reference is None:
            reference = result
        same = first_difference(reference, result) is None
        print(
            f"   {label:<18} {form:<15} {report['bytes_copied']['total']:>13} "
            f"{report['bytes_copied_by_moves']['total']:>13} {report['peak_bytes']['total']:>13} "
            f"{report['moves_aliased']:>5}/{report['moves_copied']:<5} {elapsed:>8.2f}  "
            f"{'yes' if same else 'NO'}"
        )
        assert same, f"{label}: {form} computes different bytes"
        del result
        gc.collect()
        label = ""


def bench_programs(sizes: list[int], steps: int) -> None:
    print("4. programs through the interpreter (bytes; moves aliased/copied; wall seconds)")
    print(
        f"   {'program':<18} {'form':<15} {'bytes copied':>13} {'by moves':>13} "
        f"{'peak resident':>13} {'moves':>11} {'seconds':>8}  same"
    )
    dump = Path(__file__).resolve().parents[1] / "examples" / "two-devices.mlir"
    _run_forms("two-devices.mlir", dump.read_text(), str(dump), PING_PONG_FORMS)
    for size in sizes:
        _run_forms(
            f"ping-pong {size // MIB} MiB", ping_pong_ir(size, steps), "ping-pong.mlir",
            PING_PONG_FORMS,
        )  # fmt: skip
    print()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer sizes and repeats")
    parser.add_argument("--max-mib", type=int, default=512, help="largest buffer (MiB)")
    parser.add_argument("--only", default="1,2,3,4", help="sections to run, e.g. 4")
    args = parser.parse_args(argv)
    largest = min(args.max_mib, 512)
    alias_sizes = [s * MIB for s in (1, 4, 16, 64, 256, 512) if s <= largest]
    copy_sizes = [s * MIB for s in (1, 16, 64, 128, 512) if s <= largest]
    if args.quick:
        alias_sizes = [s for s in alias_sizes if s <= 64 * MIB]
        copy_sizes = [s for s in copy_sizes if s <= 16 * MIB]
    program_sizes = [s * MIB for s in (1, 16, 128, 512) if s <= largest]
    if args.quick:
        program_sizes = [s for s in program_sizes if s <= 16 * MIB]
    run: list[Callable[[], None]] = [
        lambda: bench_alias_cost(alias_sizes, 5 if args.quick else 21),
        lambda: bench_copy_bandwidth(copy_sizes, (64 if args.quick else 1024) * MIB),
        lambda: bench_ping_pong(min(64, largest) * MIB, 64),
        lambda: bench_programs(program_sizes, 64),
    ]
    wanted = {int(part) for part in args.only.split(",") if part.strip()}
    for number, bench in enumerate(run, start=1):
        if number in wanted:
            bench()


if __name__ == "__main__":
    main()
