"""Time and peak memory of the streamopt command on big inputs, and where the time goes.

    python bench/big_input.py [--megabytes 20,200] [--no-passes] [--profile OPS]
                              [--memory-profile]

For each size it writes bench/out/big-MB.mlir, the op chain of bench/parse_print.py (in the
syntax iree-opt prints) grown to about MB megabytes, and runs, each in a fresh process:

    streamopt FILE -o OUT                                   parse, verify, print
    streamopt FILE --elide-async-copies --lower-to-hal -o OUT

reporting wall and CPU seconds, seconds per MB, and the process's peak RSS over the input size
(target: at most 10x for parse+print). The plain run's output must equal the input byte for
byte. Between sizes, seconds per MB show whether the time grows linearly.

`--profile OPS` then profiles one parse, verify and print of an OPS-op chain in this process
and prints each phase's share and the functions with the most own time (cProfile slows
everything about 2x, evenly enough to read the shares).

`--memory-profile` then runs the passes on each size once more, in a fresh process as the
command line does (cyclic collector off), stage by stage (parse, each stage of each pass,
the verifications between them, print), and prints after each the seconds, the op count and
the process's RSS and peak RSS (over the input size); then the module's memory by part (op
objects, use lists, attribute dictionaries...: shallow sizes, each object once) over the op
count, and the cyclic garbage left (objects only a collection would free: with the
collector off they are never freed, so anything but 0 is memory held to the end).
"""

from __future__ import annotations

import argparse
import cProfile
import filecmp
import os
import pstats
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"
sys.path.insert(0, str(HERE))

from parse_print import generate  # noqa: E402

# bench/parse_print.py's chain is about 154 bytes per op.
OPS_PER_MB = 6480


def run(command: list[str]) -> tuple[float, float, int, int, str]:
    """Wall s, CPU s, peak RSS bytes, exit code and stderr of one run of `command`."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert process.stderr is not None
    stderr = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    rss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    return wall, cpu, rss, process.returncode, stderr


def profile(count: int) -> None:
    """Profile parse, verify and print of a `count`-op chain in this process."""
    import gc

    from streamopt.ir.verify import verify_module
    from streamopt.parser import get_parser, parse_module
    from streamopt.printer import print_module_blocks

    path = OUT / f"chain-{count}.mlir"
    if not path.exists():
        path.write_text(generate(count))
    text = path.read_text()
    get_parser()
    gc.disable()
    profiler = cProfile.Profile()
    times: dict[str, float] = {}
    profiler.enable()
    start = time.perf_counter()
    module = parse_module(text, str(path))
    times["parse"] = time.perf_counter() - start
    start = time.perf_counter()
    verify_module(module)
    times["verify"] = time.perf_counter() - start
    start = time.perf_counter()
    print_module_blocks(module)
    times["print"] = time.perf_counter() - start
    profiler.disable()
    total = sum(times.values())
    print(f"\nprofile of a {count}-op chain ({len(text) / 1e6:.1f} MB), under cProfile:")
    print("  " + "  ".join(f"{k} {v:.2f} s ({100 * v / total:.0f}%)" for k, v in times.items()))
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(25)


STAGES = ("elide-async-copies", "lower-to-hal")


def _memory_now() -> tuple[int, int]:
    """This process's RSS and peak RSS, in bytes (Linux: /proc/self/status)."""
    found: dict[str, int] = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0]) * 1024
    return found.get("VmRSS", 0), found.get("VmHWM", 0)


def _module_parts(module: object) -> tuple[int, dict[str, int]]:
    """The op count of `module` and the shallow bytes of its parts, each object counted once."""
    from streamopt.ir.core import Operation

    seen: set[int] = set()
    parts: dict[str, int] = {}

    def add(part: str, obj: object) -> None:
        if id(obj) not in seen:
            seen.add(id(obj))
            parts[part] = parts.get(part, 0) + sys.getsizeof(obj)

    ops = 0
    for op in module.walk():  # type: ignore[attr-defined]
        assert isinstance(op, Operation)
        ops += 1
        add("op objects", op)
        add("operand lists", op._operands)
        add("Use objects and tuples", op._uses)
        for use in op._uses:
            add("Use objects and tuples", use)
        add("result lists", op.results)
        for result in op.results:
            add("results (OpResult)", result)
            add("use lists of results", result.uses)
        add("attribute dictionaries", op._attributes)
        for value in op._attributes.values():
            add("attribute objects", value)
        if not isinstance(op._location, int):
            add("locations", op._location)
        for region in op.regions:
            for block in region.blocks:
                add("blocks and arguments", block)
                for argument in block.arguments:
                    add("blocks and arguments", argument)
                    add("use lists of block arguments", argument.uses)
    return ops, parts


def memory_profile(path: Path) -> None:
    """Run the passes on `path` stage by stage in this process, as the command line does,
    printing time and memory after each stage (see the module docstring)."""
    import gc

    sys.path.insert(0, str(ROOT))
    from streamopt.ir.verify import verify_module
    from streamopt.parser import get_parser, parse_module
    from streamopt.passes import PipelinePass, load_all
    from streamopt.printer import print_module_blocks

    registry = load_all()
    get_parser()
    gc.disable()
    text = path.read_text()
    size = len(text.encode())
    _, before = _memory_now()
    print(f"\nmemory profile of the passes on {path.name} ({size / 1e6:.1f} MB), stage by stage:")
    print(f"  {'stage':<24} {'s':>6} {'ops':>9} {'RSS MB':>8} {'peak MB':>8} {'peak/in':>7}")

    def report(stage: str, start: float, ops: int | None = None) -> None:
        rss, peak = _memory_now()
        count = "" if ops is None else str(ops)
        print(
            f"  {stage:<24} {time.perf_counter() - start:>6.1f} {count:>9}"
            f" {rss / 1e6:>8.0f} {peak / 1e6:>8.0f} {peak / size:>6.1f}x",
            flush=True,
        )

    print(f"  {'(imports, grammar)':<24} {'':>6} {'':>9} {'':>8} {before / 1e6:>8.0f}")
    start = time.perf_counter()
    module = parse_module(text, str(path))
    del text
    report("parse", start, sum(1 for _ in module.walk()))
    start = time.perf_counter()
    verify_module(module)
    report("  verify", start)
    for flag in STAGES:
        pass_class = registry[flag]
        stages = pass_class.stages if issubclass(pass_class, PipelinePass) else (flag,)
        for stage in stages:
            start = time.perf_counter()
            registry[stage]().run(module)
            report(stage, start, sum(1 for _ in module.walk()))
            start = time.perf_counter()
            verify_module(module)
            report("  verify", start)
    start = time.perf_counter()
    printed = [0]

    def count(piece: str) -> None:
        printed[0] += len(piece)

    print_module_blocks(module, count)
    report(f"print ({printed[0] / 1e6:.0f} MB of text)", start)
    ops, parts = _module_parts(module)
    total = sum(parts.values())
    print(
        f"  the lowered module: {ops} ops, {total / 1e6:.0f} MB in these parts, {total // ops} B/op"
    )
    for part, amount in sorted(parts.items(), key=lambda item: -item[1]):
        print(f"    {part:<30} {amount / 1e6:>7.1f} MB {amount // ops:>5} B/op")
    print(f"  cyclic garbage left: {gc.collect()} objects")


def main() -> None:

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--megabytes", default="20,200")
    parser.add_argument("--no-passes", action="store_true", help="Only parse and print.")
    parser.add_argument("--profile", type=int, metavar="OPS", help="Profile an OPS-op chain.")
    parser.add_argument(
        "--memory-profile", action="store_true", help="Time and memory of each pass stage."
    )
    parser.add_argument("--memory-profile-of", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_profile_of is not None:
        memory_profile(args.memory_profile_of)
        return

    OUT.mkdir(exist_ok=True)
    streamopt = [sys.executable, "-m", "streamopt"]
    runs: list[tuple[str, list[str]]] = [("parse+print", [])]
    if not args.no_passes:
        runs.append(("elide+lower-to-hal", ["--elide-async-copies", "--lower-to-hal"]))
    print(
        f"{'MB':>6} {'ops':>8}  {'run':<19} {'wall s':>8} {'cpu s':>8} {'cpu s/MB':>8}"
        f" {'peak MB':>8} {'peak/in':>7}"
    )
    per_mb: dict[str, list[float]] = {}
    inputs: list[Path] = []
    for megabytes in [int(m) for m in args.megabytes.split(",")]:
        count = megabytes * OPS_PER_MB
        path = OUT / f"big-{megabytes}.mlir"
        if not path.exists() or path.stat().st_size < megabytes * 900_000:
            path.write_text(generate(count))
        size = path.stat().st_size
        inputs.append(path)
        output = OUT / f"big-{megabytes}.out.mlir"
        for label, flags in runs:
            wall, cpu, rss, code, stderr = run([*streamopt, str(path), *flags, "-o", str(output)])
            if code != 0:
                raise SystemExit(f"streamopt {label} failed on {path}:\n{stderr[-2000:]}")
            if not flags and not filecmp.cmp(path, output, shallow=False):
                raise SystemExit(f"{path}: the printed module is not the input")
            per_mb.setdefault(label, []).append(cpu / (size / 1e6))
            print(
                f"{size / 1e6:>6.0f} {count:>8}  {label:<19} {wall:>8.1f} {cpu:>8.1f}"
                f" {cpu / (size / 1e6):>8.2f} {rss / 1e6:>8.0f} {rss / size:>6.1f}x",
                flush=True,
            )
        output.unlink()
    for label, rates in per_mb.items():
        if len(rates) > 1:
            print(
                f"{label}: CPU seconds per MB, largest over smallest input: "
                f"{rates[-1] / rates[0]:.2f} (1.00 is linear)"
            )
    if args.memory_profile:
        for path in inputs:
            # A fresh process, so that its peak is the profiled run's own.
            subprocess.run(
                [sys.executable, __file__, "--memory-profile-of", str(path)],
                check=True,
                env=dict(os.environ, PYTHONPATH=str(ROOT)),
            )
    if args.profile:
        profile(args.profile)


if __name__ == "__main__":
    main()
