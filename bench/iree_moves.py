"""Moves on IREE's runtime: a ping-pong between two local-task devices, three ways.

The program (written here, a source program iree-compile takes) fills a tensor of SIZE bytes
with an iota, then for each of STEPS steps transfers it to the other device
(`flow.tensor.transfer`) and writes 16 floats of it there (an in-place update), and returns
its first 1024 floats. Each transfer is the last use of its source, so streamopt makes it a
move. Three runs per size:

* plain: the program built by plain `iree-compile` (each transfer copies: alloca, copy,
  dealloca);
* moves: the streamopt build, each move decided at run time by `streamopt.iree.moves` (between
  local-task devices every one aliases: no copy, no second buffer);
* forced copy: the same .vmfb with FORCE_COPY on every move (a copy in streamopt's module into
  the buffer the move before it let go on that device, as the plain build's reused allocations
  do, or into a fresh queue alloca when its pool has none; `reused` counts the first).

Each run is a fresh process (so its peak RSS is its own) that calls the function once (for the
peak) and then, on new devices, `--warmup` times untimed and `--calls` times timed (a first
call on new devices pays for their pools and threads: at 1 MiB it measured 1.4x the later
ones, 7 ms, as much as two hundred steps). A step costs (best call of the STEPS-step program
- best call of the STEPS/2-step one, which is the same program otherwise and ends on the same
device) / (STEPS - STEPS/2); the run-to-run noise of the iota, which grows with SIZE, is left
in. One run of each build at a size cannot be judged on a shared machine (forced copies
measured 0.5x to 1.0x of plain at 512 MiB over three runs), so each size is measured
`--repeats` times with the three builds interleaved in every repetition (plain, moves, forced,
plain, ...): the table gives the median per step with the range of the repetitions, and the
speed against plain paired by repetition (the plain run next to it in time), median and
range, with the machine's load before and after. The move module also times itself: wall
time in `queue_move` per move. Peak RSS is the
process's maximum resident set above what it held before the first call, in MiB, and in buffers
of SIZE: 1 + (that - the same for the program with no steps, which holds one buffer) / SIZE
(moves should hold one, transfers two while a copy runs). All three runs must return the same
bytes. Timings on a machine shared with other work are noisy.

Run: `python bench/iree_moves.py [--sizes 1 64 512] [--steps 64] [--calls 3] [--warmup 1]
[--repeats 5]`
(sizes in MiB;
needs iree-base-compiler and iree-base-runtime, and memory for two buffers of the largest
size).
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import resource
import statistics
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from iree_common import Spread, load

from streamopt.iree.build import Build, Program, build_plain, build_streamopt
from streamopt.iree.moves import QueueMoves
from streamopt.iree.run import run_vmfb
from streamopt.move_api import MoveFlags

DEVICES = ["dev_a", "dev_b"]
MIB = 1 << 20


def ping_pong(steps: int) -> str:
    """The program: an iota of `%size` floats, then `steps` transfers alternating between
    dev_a and dev_b, each followed by an update of 16 floats where it arrived.

    IREE runs the iota where its first transfer goes (the transfer of a fresh value folds into
    its producer), so the program starts with one transfer more, to dev_a, and its update.
    With no steps it is the iota and that one update on dev_a (without an update IREE would
    compute only the 1024 floats returned)."""
    lines = [
        "func.func @main(%size: i64) -> tensor<1024xf32> {",
        "  %n = arith.index_cast %size : i64 to index",
        "  %empty = tensor.empty(%n) : tensor<?xf32>",
        "  %x0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>],",
        '      iterator_types = ["parallel"]} outs(%empty : tensor<?xf32>) {',
        "  ^bb0(%out: f32):",
        "    %i = linalg.index 0 : index",
        "    %i64 = arith.index_cast %i : index to i64",
        "    %f = arith.sitofp %i64 : i64 to f32",
        "    linalg.yield %f : f32",
        "  } -> tensor<?xf32>",
    ]
    for step in range(1, steps + 2):
        device = "dev_a" if step % 2 else "dev_b"
        target = f"%t{step}"
        if steps:
            lines.append(
                f"  %t{step} = flow.tensor.transfer %x{step - 1} : tensor<?xf32>{{%n}} "
                f"to #hal.device.promise<@{device}>"
            )
        else:
            target = f"%x{step - 1}"
        lines += [
            f"  %v{step} = arith.constant dense<{-float(step)}> : tensor<16xf32>",
            f"  %x{step} = tensor.insert_slice %v{step} into {target}[{16 * (step - 1) % 1024}] "
            "[16] [1] : tensor<16xf32> into tensor<?xf32>",
        ]
    lines += [
        f"  %r = tensor.extract_slice %x{steps + 1}[0] [1024] [1] : "
        "tensor<?xf32> to tensor<1024xf32>",
        "  return %r : tensor<1024xf32>",
        "}",
    ]
    return "\n".join(lines) + "\n"


@dataclass
class Measured:
    """One run (a process of its own)."""

    best_call: float
    peak_above_start: int
    outputs: str
    moves_aliased: int
    moves_copied: int
    bytes_copied_by_moves: int
    reused: int
    """Copies (per call) into a buffer the move module's pool kept."""
    seconds_per_move: float
    """Wall seconds in streamopt's `queue_move` per move (0 without the module)."""


def measure(vmfb: Path, size: int, flags: int | None, calls: int, warmup: int = 1) -> Measured:
    """Run in a fresh process: `warmup` calls then `calls` timed calls of `vmfb` on SIZE bytes,
    with the move module (`flags` added to every move) unless `flags` is None."""
    inputs = [f"i64={size // 4}"]
    before = _current_rss()
    # The peak of one call (later calls can overlap the frees of the one before).
    first = QueueMoves(DEVICES, MoveFlags(flags)) if flags is not None else None
    run_vmfb(vmfb, DEVICES, None, inputs, [first] if first else [])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    moves = QueueMoves(DEVICES, MoveFlags(flags)) if flags is not None else None
    run = run_vmfb(vmfb, DEVICES, None, inputs, [moves] if moves else [], warmup + calls)
    made = warmup + calls
    digest = hashlib.sha256(b"".join(o.data for o in run.outputs)).hexdigest()[:16]
    report = moves.report() if moves else {}
    count = report.get("moves_aliased", 0) + report.get("moves_copied", 0)
    return Measured(
        min(run.call_seconds[warmup:]),
        peak - before,
        digest,
        report.get("moves_aliased", 0) // made,
        report.get("moves_copied", 0) // made,
        report.get("bytes_copied_by_moves", {}).get("total", 0) // made,
        report.get("move_pool", {}).get("hits", 0) // made,
        report.get("move_seconds", 0.0) / count if count else 0.0,
    )


def _current_rss() -> int:
    with open("/proc/self/statm", encoding="ascii") as handle:
        return int(handle.read().split()[1]) * resource.getpagesize()


def _fresh(vmfb: Path, size: int, flags: int | None, calls: int, warmup: int = 1) -> Measured:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        return pool.submit(measure, vmfb, size, flags, calls, warmup).result()


def _builds(work: Path, steps: int) -> dict[tuple[str, int], Build]:
    builds: dict[tuple[str, int], Build] = {}
    for count in sorted({steps, steps // 2, 0}, reverse=True):
        path = work / f"ping_pong_{count}.mlir"
        path.write_text(ping_pong(count), encoding="utf-8")
        program = Program.read(path, path.read_text(encoding="utf-8"), DEVICES)
        builds["plain", count] = build_plain(program, work)
        builds["streamopt", count] = build_streamopt(program, work)
    return builds


RUNS: list[tuple[str, str, int | None]] = [
    ("plain (transfers)", "plain", None),
    ("streamopt (moves)", "streamopt", int(MoveFlags.NONE)),
    ("moves forced to copy", "streamopt", int(MoveFlags.FORCE_COPY)),
]


@dataclass
class Repetition:
    """One repetition of one build at one size: its runs and the per-step time they give."""

    stepped: Measured
    per_step: float
    buffers: float


def _repetition(
    builds: dict[tuple[str, int], Build], build: str, flags: int | None, size: int, steps: int,
    calls: int, warmup: int, empty: Measured,
) -> Repetition:  # fmt: skip
    stepped = _fresh(builds[build, steps].vmfb, size, flags, calls, warmup)
    half = _fresh(builds[build, steps // 2].vmfb, size, flags, calls, warmup)
    # Half the steps: the same program otherwise, ending on the same device.
    per_step = (stepped.best_call - half.best_call) / (steps - steps // 2)
    # The program without steps holds one buffer: what the steps add is in SIZEs.
    buffers = 1 + (stepped.peak_above_start - empty.peak_above_start) / size
    return Repetition(stepped, per_step, buffers)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 64, 512], help="MiB")
    parser.add_argument("--steps", type=int, default=64, help="an even number")
    parser.add_argument("--calls", type=int, default=3, help="timed calls per run (best kept)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed calls before them")
    parser.add_argument(
        "--repeats", type=int, default=5, help="interleaved repetitions of the three builds"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="iree-moves-") as scratch:
        builds = _builds(Path(scratch), args.steps)
        print(
            f"{args.steps}-step ping-pong between two local-task devices; per step: "
            f"(best of {args.calls} calls after {args.warmup} untimed - the same with "
            f"{args.steps // 2} steps) / "
            f"{args.steps - args.steps // 2}; {args.repeats} repetitions, the three builds "
            "interleaved in each"
        )
        header = (
            f"{'size':>8} {'build':<21} {'ms/step':>8} {'lo-hi':>15} {'x plain':>7} "
            f"{'lo-hi':>11} {'us/move':>8} {'peak MiB':>9} {'buffers':>7} {'alias/copy':>10} "
            f"{'copied MiB':>10} {'reused':>6} {'same':>4}"
        )
        print(header)
        print("-" * len(header))
        failed = False
        for size_mib in args.sizes:
            size = size_mib * MIB
            print(f"{'':>8} start: {load()}", flush=True)
            empties = {
                label: _fresh(builds[build, 0].vmfb, size, flags, 1) for label, build, flags in RUNS
            }
            repetitions: dict[str, list[Repetition]] = {label: [] for label, _, _ in RUNS}
            for _ in range(args.repeats):
                for label, build, flags in RUNS:
                    repetition = _repetition(
                        builds,
                        build,
                        flags,
                        size,
                        args.steps,
                        args.calls,
                        args.warmup,
                        empties[label],
                    )
                    repetitions[label].append(repetition)
            plain = repetitions[RUNS[0][0]]
            for label, _, flags in RUNS:
                reps = repetitions[label]
                step = Spread.of([r.per_step * 1e3 for r in reps])
                # Paired by repetition: the plain run next to this one in time.
                speed = Spread.of(
                    [p.per_step / r.per_step for p, r in zip(plain, reps) if r.per_step > 0]
                )
                first = reps[0].stepped
                moved = first.moves_aliased + first.moves_copied
                if flags is not None and moved != args.steps:
                    print(f"warning: {label} made {moved} moves, not {args.steps}")
                same = all(r.stepped.outputs == plain[0].stepped.outputs for r in reps)
                failed |= not same
                in_module = statistics.median(r.stepped.seconds_per_move for r in reps)
                print(
                    f"{size_mib:>4} MiB {label:<21} {step.median:>8.3f} "
                    f"{step.low:>7.3f}-{step.high:<7.3f} {speed.median:>6.2f}x "
                    f"{speed.low:>5.2f}-{speed.high:<5.2f} "
                    f"{f'{in_module * 1e6:8.1f}' if in_module else f'{chr(45):>8}'} "
                    f"{statistics.median(r.stepped.peak_above_start for r in reps) / MIB:>9.0f} "
                    f"{statistics.median(r.buffers for r in reps):>7.2f} "
                    f"{first.moves_aliased:>4}/{first.moves_copied:<5} "
                    f"{first.bytes_copied_by_moves / MIB:>10.0f} {first.reused:>6} "
                    f"{'yes' if same else 'NO':>4}",
                    flush=True,
                )
            print(f"{'':>8} end: {load()}", flush=True)
        print(
            "ms/step: median over the repetitions of (best call - best call of the same build "
            "with half the steps) / the other half, lo-hi its range; x plain: plain's ms/step / "
            "this build's, paired by repetition (> 1 is faster), median and range; us/move: "
            "time in streamopt's queue_move per move (deciding and enqueuing; a copy runs "
            "later); peak MiB: peak RSS above the start; buffers: 1 + (that - the same with no "
            "steps) / SIZE; alias/copy, copied, reused: per call, by moves"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
