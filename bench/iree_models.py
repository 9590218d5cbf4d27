"""What moves save on models, on IREE's runtime: every program of examples/iree, three builds.

For each program (its source `program.mlir`, as a user would build it):

* plain: `iree-compile program.mlir` (IREE's transfers);
* streamopt: `python -m streamopt.iree.build`'s build, each move decided at run time by
  streamopt's move module (between local-task devices of one process every move aliases);
* forced copy: the same .vmfb with FORCE_COPY on every move.

Each run is a fresh process that makes the seeded arguments, calls `main` once to warm up and
then `--calls` times; the runs of the three builds are interleaved, `--rounds` times (plain,
streamopt, forced, plain, ...), so they share the machine's minutes. Reported per build:

* ms/call: the median of every timed call of every round, with the range of the rounds'
  medians (`lo-hi`); `x plain`: plain's ms / this build's, the median of the rounds' ratios;
* peak MiB: the resident set's peak during the calls above the resident set just before them
  (the program loaded, its arguments made), median of the rounds; `x plain` likewise;
* copied MiB: bytes copied per call by transfers or moves: the `stream.cmd.copy` ops of the
  build's final stream IR (a static count: a copy in a loop counts once) plus what the move
  module copied per call;
* alias/copy: moves aliased and copied per call; same: all runs returned identical bytes.

`--plot FILE.png` draws time and peak per program, the three builds side by side (needs
matplotlib: `pip install -e '.[bench]'`).

Run: `python bench/iree_models.py [NAME ...] [--rounds 3] [--calls 3] [--plot FILE.png]`
(needs iree-base-compiler and iree-base-runtime; the model-sized programs need about 2 GiB).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from iree_common import (
    MIB,
    Calls,
    Spread,
    in_fresh_process,
    load,
    ratio_spread,
    run_calls,
)

from streamopt.iree.build import (
    TARGET_FLAGS,
    Program,
    build_plain,
    build_streamopt,
    device_flags,
)
from streamopt.iree.tools import find_tool, run_stage
from streamopt.lazy_regex import lazy_compile
from streamopt.move_api import MoveFlags
from streamopt.runtime.interpreter.report import human_bytes

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "iree"

BUILDS: list[tuple[str, str, int | None]] = [
    ("plain", "plain", None),
    ("streamopt", "streamopt", int(MoveFlags.NONE)),
    ("forced copy", "streamopt", int(MoveFlags.FORCE_COPY)),
]
"""(label, which .vmfb, move flags or None for no move module)."""

_INDEX_CONSTANT = lazy_compile(r"(%c[\w]*) = arith\.constant (\d+) : index")
_CMD_COPY = lazy_compile(r"stream\.cmd\.copy [^,]+, [^,]+, (%[\w]+) :")


def static_copy_bytes(stream_ir: str) -> int:
    """Bytes of every `stream.cmd.copy` in `stream_ir` (lengths that are index constants)."""
    constants = {name: int(value) for name, value in _INDEX_CONSTANT.findall(stream_ir)}
    return sum(constants.get(length, 0) for length in _CMD_COPY.findall(stream_ir))


@dataclass
class ProgramBuilds:
    name: str
    program: Program
    vmfbs: dict[str, Path]
    static_copies: dict[str, int]
    """Bytes of `stream.cmd.copy` in each build's final stream IR."""


def build(name: str, work: Path) -> ProgramBuilds:
    path = EXAMPLES / name / "program.mlir"
    program = Program.read(path, path.read_text(encoding="utf-8"))
    work.mkdir()
    plain = build_plain(program, work)
    streamopt = build_streamopt(program, work)
    # The plain build's stream IR, where its transfers are `stream.cmd.copy`s.
    plain_stream = work / "plain.stream.mlir"
    run_stage(
        "iree-compile --compile-to=stream",
        [find_tool("iree-compile"), str(path), *device_flags(program.devices), *TARGET_FLAGS,
         "--compile-to=stream", "-o", str(plain_stream)],
    )  # fmt: skip
    streamopt_stream = streamopt.intermediate["streamopt"]  # streamopt's cmd-level output
    copies = {
        "plain": static_copy_bytes(plain_stream.read_text(encoding="utf-8")),
        "streamopt": static_copy_bytes(streamopt_stream.read_text(encoding="utf-8")),
    }
    return ProgramBuilds(name, program, {"plain": plain.vmfb, "streamopt": streamopt.vmfb}, copies)


@dataclass
class Row:
    """One build of one program over every round."""

    label: str
    runs: list[Calls] = field(default_factory=list)

    def call_ms(self) -> Spread:
        every = [s * 1e3 for run in self.runs for s in run.call_seconds]
        rounds = [statistics.median(run.call_seconds) * 1e3 for run in self.runs]
        return Spread(statistics.median(every), min(rounds), max(rounds))

    def round_ms(self) -> list[float]:
        return [statistics.median(run.call_seconds) * 1e3 for run in self.runs]

    def peaks(self) -> list[float]:
        return [run.peak_above_start / MIB for run in self.runs]


def measure(builds: ProgramBuilds, rounds: int, calls: int) -> list[Row]:
    rows = [Row(label) for label, _, _ in BUILDS]
    for _ in range(rounds):
        for row, (_, which, flags) in zip(rows, BUILDS):
            vmfb = builds.vmfbs[which]
            row.runs.append(in_fresh_process(run_calls, vmfb, builds.program.devices, flags, calls))
    return rows


def largest_move(rows: list[Row]) -> int:
    pairs = rows[1].runs[0].moves.get("moves_by_device_pair", [])
    moves = sum(p["moves"] for p in pairs)
    return max((p["bytes_moved"] // max(p["moves"], 1) for p in pairs), default=0) if moves else 0


HEADER = (
    f"{'program':<21} {'build':<11} {'ms/call':>9} {'lo-hi':>15} {'x plain':>7} "
    f"{'peak MiB':>8} {'x plain':>7} {'copied MiB':>10} {'alias/copy':>10} {'same':>4}"
)


def report(builds: ProgramBuilds, rows: list[Row]) -> tuple[list[str], dict[str, object]]:
    """The program's table lines and its figures for the plot."""
    lines = []
    plain = rows[0]
    digest = plain.runs[0].digest
    figures: dict[str, object] = {"name": builds.name}
    for row in rows:
        time = row.call_ms()
        speed = ratio_spread(plain.round_ms(), row.round_ms())
        peak = max(statistics.median(row.peaks()), 0.0)  # A page or two of noise: never < 0
        plain_peak = max(statistics.median(plain.peaks()), 0.0)
        # Below a MiB the peak is page-level noise: no ratio.
        memory = f"{plain_peak / peak:>6.2f}x" if min(peak, plain_peak) >= 1 else f"{'-':>7}"
        which = "plain" if row is plain else "streamopt"
        by_moves = row.runs[0].per_call("bytes_copied_by_moves")
        copied = (builds.static_copies[which] + by_moves) / MIB
        aliased = row.runs[0].per_call("moves_aliased")
        copies = row.runs[0].per_call("moves_copied")
        moves = f"{aliased:g}/{copies:g}" if row is not plain else "-"
        same = all(run.digest == digest for r in rows for run in r.runs)
        lines.append(
            f"{builds.name if row is plain else '':<21} {row.label:<11} {time.median:>9.2f} "
            f"{time.low:>7.2f}-{time.high:<7.2f} {speed.median:>6.2f}x {peak:>8.1f} "
            f"{memory} {copied:>10.1f} {moves:>10} {'yes' if same else 'NO':>4}"
        )
        figures[row.label] = (time.median, peak)
        figures["same"] = same
    return lines, figures


def plot(figures: list[dict[str, object]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [str(f["name"]) for f in figures]
    fig, axes = plt.subplots(2, 1, figsize=(12, 8), sharex=True)
    width = 0.27
    for index, (label, _, _) in enumerate(BUILDS):
        xs = [i + (index - 1) * width for i in range(len(names))]
        times = [f[label][0] for f in figures]  # type: ignore[index]
        peaks = [max(f[label][1], 0.1) for f in figures]  # type: ignore[index]
        axes[0].bar(xs, times, width, label=label)
        axes[1].bar(xs, peaks, width, label=label)
    axes[0].set_yscale("log")
    axes[0].set_ylabel("ms per call (median)")
    axes[1].set_yscale("log")
    axes[1].set_ylabel("peak MiB above start")
    axes[1].set_xticks(range(len(names)))
    axes[1].set_xticklabels(names, rotation=35, ha="right")
    axes[0].legend()
    axes[0].set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="programs (default: all of examples/iree)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--calls", type=int, default=3, help="timed calls per run")
    parser.add_argument("--plot", type=Path, help="write the plot here (PNG)")
    args = parser.parse_args(argv)
    names = args.names or sorted(
        p.name for p in EXAMPLES.iterdir() if (p / "program.mlir").exists()
    )
    print(f"start: {load()}")
    print(f"{args.rounds} interleaved rounds x (1 warm-up + {args.calls} calls), fresh processes")
    print(HEADER)
    print("-" * len(HEADER))
    failed = False
    figures = []
    with tempfile.TemporaryDirectory(prefix="iree-models-") as scratch:
        for name in names:
            builds = build(name, Path(scratch) / name)
            rows = measure(builds, args.rounds, args.calls)
            lines, program_figures = report(builds, rows)
            largest = largest_move(rows)
            if largest:
                lines[0] += f"   largest move {human_bytes(largest)}"
            print("\n".join(lines), flush=True)
            figures.append(program_figures)
            failed |= not program_figures["same"]
    print(f"end: {load()}")
    print(
        "ms/call: median of all timed calls, lo-hi: range of the rounds' medians; x plain: "
        "plain / this build (median of the rounds' ratios; > 1 is faster or smaller); peak: "
        "resident set above the start of the calls; copied: per call by stream.cmd.copy "
        "(static) and moves"
    )
    if args.plot:
        plot(figures, args.plot, f"{args.rounds} rounds x {args.calls} calls; {load()}")
        print(f"wrote {args.plot}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
