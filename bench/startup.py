"""Start-up of streamopt against iree-opt, and a lit-style run of one process per test case.

    python bench/startup.py [--runs 20] [--cases 200] [--no-iree-opt]

Start-up: the median wall time (and the median CPU time, user + system, which a loaded machine
disturbs less) of `--runs` runs of each command on a three-line module, no pass:

    python -c pass                        the interpreter's own floor
    streamopt tiny.mlir                   target <= 0.1 s
    streamopt tiny.mlir --elide-async-copies                 target <= 0.15 s
    iree-opt tiny.mlir                    IREE's binary (not the Python wrapper script of the
                                          same name, which adds an interpreter's start-up)

Lit-style: the `// -----` cases of test/lit (the first `--cases` of them), each written to a
file of its own and run once per tool, one process per case as lit does; then each test/lit
file once with --split-input-file. Exit codes are not checked (iree-opt rejects streamopt's own
ops, such as stream.async.move); only time is measured. The ratios streamopt / iree-opt follow.

The file cache is warm (one untimed run of each command first), and Python may write and use
bytecode caches (PYTHONDONTWRITEBYTECODE is removed from the environment), as on a user's
machine after the first run.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out" / "startup"

TINY = "util.func public @f() {\n  util.return\n}\n"
SPLIT = re.compile(r"^// -----[ \t]*$", re.MULTILINE)


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(ROOT)
    return env


def iree_opt_binary() -> str | None:
    """IREE's iree-opt executable, rather than the console script that starts Python first."""
    try:
        from iree.compiler.tools.binaries import find_tool  # type: ignore[import-not-found]

        found: str = find_tool("iree-opt")
        return found
    except Exception:
        return shutil.which("iree-opt")


def run_once(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one run of `command`, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def median_run(command: list[str], env: dict[str, str], runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds over `runs` runs, after one untimed warm-up run."""
    run_once(command, env)
    samples = [run_once(command, env) for _ in range(runs)]
    return (
        statistics.median(wall for wall, _ in samples),
        statistics.median(cpu for _, cpu in samples),
    )


def lit_cases(limit: int) -> tuple[list[Path], list[Path]]:
    """Write the split cases of test/lit to bench/out/startup; return (cases, whole files)."""
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("case-*.mlir"):
        old.unlink()
    files = sorted((ROOT / "test" / "lit").rglob("*.mlir"))
    cases: list[Path] = []
    for source in files:
        for index, piece in enumerate(SPLIT.split(source.read_text())):
            if len(cases) >= limit:
                break
            if not piece.strip():
                continue
            path = OUT / f"case-{len(cases):04d}-{source.stem}-{index}.mlir"
            path.write_text(piece)
            cases.append(path)
    return cases, files


def total_time(commands: list[list[str]], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of running every command once, one after another."""
    wall = cpu = 0.0
    for command in commands:
        one_wall, one_cpu = run_once(command, env)
        wall += one_wall
        cpu += one_cpu
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="Runs per start-up figure.")
    parser.add_argument("--cases", type=int, default=200, help="Split cases of test/lit to run.")
    parser.add_argument("--no-iree-opt", action="store_true")
    args = parser.parse_args()

    env = environment()
    OUT.mkdir(parents=True, exist_ok=True)
    tiny = OUT / "tiny.mlir"
    tiny.write_text(TINY)
    streamopt = [sys.executable, "-m", "streamopt"]
    iree_opt = None if args.no_iree_opt else iree_opt_binary()

    rows: list[tuple[str, list[str]]] = [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("streamopt tiny.mlir", [*streamopt, str(tiny)]),
        (
            "streamopt tiny.mlir --elide-async-copies",
            [*streamopt, str(tiny), "--elide-async-copies"],
        ),
    ]
    if iree_opt:
        rows.append(("iree-opt tiny.mlir", [iree_opt, str(tiny)]))
    print(f"start-up, median of {args.runs} runs (a loaded machine inflates wall time):")
    print(f"  {'command':<44} {'wall s':>7} {'cpu s':>7}")
    figures: dict[str, tuple[float, float]] = {}
    for label, command in rows:
        figures[label] = median_run(command, env, args.runs)
        wall, cpu = figures[label]
        print(f"  {label:<44} {wall:>7.3f} {cpu:>7.3f}")
    floor = figures["python -c pass"][0]
    plain = figures["streamopt tiny.mlir"][0]
    elide = figures["streamopt tiny.mlir --elide-async-copies"][0]
    print(f"  streamopt over the interpreter's floor: {plain - floor:.3f} s")
    print(f"  target: streamopt tiny.mlir <= 0.100 s: {plain:.3f} s")
    print(f"  target: with --elide-async-copies <= 0.150 s: {elide:.3f} s")
    if iree_opt:
        iree = figures["iree-opt tiny.mlir"][0]
        print(f"  streamopt / iree-opt: {plain / iree:.1f}x")

    cases, files = lit_cases(args.cases)
    print(f"\nlit-style, one process per case ({len(cases)} cases of test/lit):")
    print(f"  {'tool':<44} {'wall s':>7} {'cpu s':>7} {'per case':>9}")
    ours = total_time([[*streamopt, str(case)] for case in cases], env)
    print(f"  {'streamopt':<44} {ours[0]:>7.2f} {ours[1]:>7.2f} {ours[0] / len(cases):>9.3f}")
    theirs = None
    if iree_opt:
        theirs = total_time([[iree_opt, str(case)] for case in cases], env)
        print(
            f"  {'iree-opt':<44} {theirs[0]:>7.2f} {theirs[1]:>7.2f} {theirs[0] / len(cases):>9.3f}"
        )
        print(f"  streamopt / iree-opt: {ours[0] / theirs[0]:.1f}x")

    print(f"\n--split-input-file, one process per file ({len(files)} files of test/lit):")
    ours = total_time([[*streamopt, "--split-input-file", str(f)] for f in files], env)
    print(f"  {'streamopt':<44} {ours[0]:>7.2f} {ours[1]:>7.2f}")
    if iree_opt:
        theirs = total_time([[iree_opt, "--split-input-file", str(f)] for f in files], env)
        print(f"  {'iree-opt':<44} {theirs[0]:>7.2f} {theirs[1]:>7.2f}")
        print(f"  streamopt / iree-opt: {ours[0] / theirs[0]:.1f}x")


if __name__ == "__main__":
    main()
