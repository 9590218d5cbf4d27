"""streamopt as a stage of IREE's compiler: compile time per stage and memory per call.

For each program under examples/iree (its source program.mlir), this builds it

* plainly: `iree-compile program.mlir` (one stage), and
* through streamopt: `iree-compile` up to the IR before IREE's second ElideAsyncCopies,
  streamopt's passes (`--elide-async-copies --lower-to-cmd --lower-cmd-moves-to-calls`), then
  `iree-compile --compile-from=stream`,

runs both on IREE's runtime (one local-task device per device the program names, seeded
inputs; each run in a fresh process) and prints, per program: the wall seconds of each stage
(best of `--repeat` builds), whether the outputs are byte-identical, and per call the device
bytes IREE's allocators allocated and their peak (IREE's allocator statistics; the local-task
devices of a process share them, so they cover all devices).

Bytes copied per call cannot be read from IREE's runtime: it keeps no count of copies, and its
allocator statistics leave out queue-ordered allocations (`queue_alloca`, where transfers and
expanded moves put what they copy), so the allocator columns show only what is allocated
synchronously (results, imports). The streamopt build runs with streamopt's move module
(`streamopt.iree.moves`), whose moves alias between local-task devices; what that saves in
time and memory is measured by `bench/iree_moves.py`, and on the reference runtime by
`streamopt-run --compare`.

Run: `python bench/iree_stage.py [NAME ...] [--repeat N]` (needs iree-base-compiler and
iree-base-runtime). Timings on a machine shared with other work are noisy.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from streamopt.iree.build import Build, Program, build_plain, build_streamopt
from streamopt.iree.moves import QueueMoves
from streamopt.iree.run import IreeRun, run_vmfb
from streamopt.run_command import first_difference

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "iree"


@dataclass
class Figures:
    name: str
    devices: int
    plain: Build
    streamopt: Build
    plain_run: IreeRun
    streamopt_run: IreeRun


def _best(builds: list[Build]) -> Build:
    return min(builds, key=lambda b: b.seconds())


def measure(name: str, repeat: int) -> Figures:
    path = EXAMPLES / name / "program.mlir"
    program = Program.read(path, path.read_text(encoding="utf-8"))
    plain: list[Build] = []
    streamopt: list[Build] = []
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        for _ in range(repeat):
            plain.append(build_plain(program, work))
            streamopt.append(build_streamopt(program, work))
        plain_run = _run_fresh(plain[-1].vmfb, program.devices)
        streamopt_run = _run_fresh(streamopt[-1].vmfb, program.devices)
    return Figures(
        name, len(program.devices), _best(plain), _best(streamopt), plain_run, streamopt_run
    )


def _run_fresh(vmfb: Path, devices: list[str]) -> IreeRun:
    """`run_vmfb` in a new process, so the allocator's peak is this run's."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(run_vmfb, vmfb, devices, None, [], [QueueMoves(devices)]).result()


def _bytes(run: IreeRun) -> tuple[int, int]:
    stats = run.allocator_statistics
    return stats.get("device_bytes_allocated", 0), stats.get("device_bytes_peak", 0)


def _stage(build: Build, prefix: str) -> float:
    return sum(t.seconds for t in build.timings if t.stage.startswith(prefix))


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="programs under examples/iree (default: all)")
    parser.add_argument("--repeat", type=int, default=1, help="builds per program (best kept)")
    args = parser.parse_args(argv)
    names = args.names or sorted(
        p.name for p in EXAMPLES.iterdir() if (p / "program.mlir").exists()
    )
    header = (
        f"{'program':<20} {'dev':>3} {'plain s':>8} | {'to elide':>8} {'streamopt':>9} "
        f"{'from stream':>11} {'total s':>8} | {'same':>4} | {'plain alloc':>11} "
        f"{'streamopt alloc':>15} {'plain peak':>10} {'streamopt peak':>14}"
    )
    print(header)
    print("-" * len(header))
    totals = [0.0, 0.0]
    for name in names:
        figures = measure(name, args.repeat)
        plain_bytes = _bytes(figures.plain_run)
        streamopt_bytes = _bytes(figures.streamopt_run)
        same = first_difference(figures.plain_run, figures.streamopt_run) is None
        totals[0] += figures.plain.seconds()
        totals[1] += figures.streamopt.seconds()
        print(
            f"{name:<20} {figures.devices:>3} {figures.plain.seconds():>8.2f} | "
            f"{_stage(figures.streamopt, 'iree-compile to the elide'):>8.2f} "
            f"{_stage(figures.streamopt, 'streamopt'):>9.2f} "
            f"{_stage(figures.streamopt, 'iree-compile --compile-from'):>11.2f} "
            f"{figures.streamopt.seconds():>8.2f} | {'yes' if same else 'NO':>4} | "
            f"{plain_bytes[0]:>11} {streamopt_bytes[0]:>15} {plain_bytes[1]:>10} "
            f"{streamopt_bytes[1]:>14}",
            flush=True,
        )
    print("-" * len(header))
    print(f"total build seconds: plain {totals[0]:.2f}, streamopt {totals[1]:.2f} "
          f"({totals[1] / totals[0]:.2f}x)")  # fmt: skip
    print(
        "alloc: device bytes allocated synchronously by the call; peak: their peak (IREE's "
        "allocator statistics, all devices together; queue allocations are not counted)"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
