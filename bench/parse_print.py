"""Parse/verify/print throughput of streamopt on generated modules of N chained async ops.

    python bench/parse_print.py [--sizes 1000,5000,10000,50000] [--no-iree-opt] [--profile N]

For each N it writes bench/out/chain-N.mlir: one `util.func` whose body is a chain of N async ops
in the syntax iree-opt prints (numbered results, affinities on every op), cycling through

    %s = stream.async.splat on(A) ...                      a fresh resource
    %d = stream.async.dispatch on(A) @ex::@fn[..](%prev[..], %s[..]) : (..) -> %s{%c16}
                                                         in place: tied to %s
    %c = stream.async.clone on(A) %d ...
    %t = stream.async.transfer %c ... from(A) -> to(B)    and the chain goes on on B

with the device globals and the executable it dispatches to declared, so iree-opt accepts it.
Each size is measured in a fresh subprocess (so peak RSS is that size's own): parse, verify
(`verify_module`), print, their total, MB/s over parse+print, and peak RSS. The output must equal
the input byte for byte (the file is generated in canonical form); the script fails otherwise.
When `iree-opt` is installed its wall and CPU time on the same file are shown for comparison,
with the ratio of CPU times (a loaded machine disturbs CPU time less than wall time; the target
is at most 6x, issue 12).

The summary checks three targets: total time at 50k over 5k ops (<= 12x, i.e. close to linear),
parse+print throughput (>= 2 MB/s), and peak memory over input size (<= 40x; the memory counted
is the growth of peak RSS over the process after imports and grammar loading).
`--profile N` prints the top cProfile entries of parsing the N-op file.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"

DEVICES = ("dev_a", "dev_b")

HEADER = """\
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device
  stream.executable private @ex {
    stream.executable.export public @fn workgroups(%arg0: index) -> (index, index, index) {
      stream.return %arg0, %arg0, %arg0 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: !stream.binding) {
        return
      }
    }
  }
  util.func public @chain(%arg0: i32) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c1_i32 = arith.constant 1 : i32
"""
RESOURCE = "!stream.resource<*>{%c16}"


def affinity(device: str) -> str:
    return f"#hal.device.affinity<@{device}>"


def generate(count: int) -> str:
    """The text of a module with a chain of `count` async ops, as iree-opt prints it."""
    lines = [HEADER]
    write = lines.append
    on = 0  # Index into DEVICES of the device the chain is on.
    # The chain starts from a splat of the argument.
    write(f"    %0 = stream.async.splat on({affinity(DEVICES[on])}) %arg0 : i32 -> {RESOURCE}\n")
    previous = 0
    splat = 0
    for number in range(1, count):
        device = affinity(DEVICES[on])
        step = number % 4
        if step == 1:
            write(f"    %{number} = stream.async.splat on({device}) %c1_i32 : i32 -> {RESOURCE}\n")
            splat = number
            continue
        if step == 2:
            write(
                f"    %{number} = stream.async.dispatch on({device}) @ex::@fn[%c4]"
                f"(%{previous}[%c0 to %c16 for %c16], %{splat}[%c0 to %c16 for %c16]) : "
                f"({RESOURCE}, {RESOURCE}) -> %{splat}{{%c16}}\n"
            )
        elif step == 3:
            write(
                f"    %{number} = stream.async.clone on({device}) %{previous} : "
                f"{RESOURCE} -> {RESOURCE}\n"
            )
        else:
            target = 1 - on
            write(
                f"    %{number} = stream.async.transfer %{previous} : {RESOURCE} from({device}) "
                f"-> to({affinity(DEVICES[target])}) {RESOURCE}\n"
            )
            on = target
        previous = number
    write(f"    util.return %{previous} : !stream.resource<*>\n  }}\n}}\n\n")
    return "".join(lines)


def peak_rss_bytes() -> int:
    # ru_maxrss is in kilobytes on Linux (bytes on macOS).
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def measure(path: Path) -> dict[str, float]:
    """Parse, verify and print `path` once in this process; return the timings and memory."""
    sys.path.insert(0, str(ROOT))
    from streamopt.ir.verify import verify_module
    from streamopt.parser import get_parser, parse_module
    from streamopt.printer import print_module

    get_parser()  # Load (or build and cache) the parser tables outside the timed region.
    text = path.read_text()
    baseline = peak_rss_bytes()
    cpu_start = time.process_time()
    start = time.perf_counter()
    module = parse_module(text, str(path))
    parsed = time.perf_counter()
    verify_module(module)
    verified = time.perf_counter()
    printed_text = print_module(module)
    printed = time.perf_counter()
    cpu = time.process_time() - cpu_start
    if printed_text + "\n" != text:
        raise SystemExit(f"{path}: printing the parsed module did not give the input back")
    return {
        "bytes": len(text.encode()),
        "parse": parsed - start,
        "verify": verified - parsed,
        "print": printed - verified,
        "cpu": cpu,
        "baseline_rss": baseline,
        "peak_rss": peak_rss_bytes(),
    }


def time_iree_opt(path: Path) -> tuple[float, float] | None:
    """Wall and CPU (user + system) seconds of `iree-opt FILE` (output discarded), or None when
    iree-opt is missing."""
    iree_opt = shutil.which("iree-opt")
    if iree_opt is None:
        return None
    start = time.perf_counter()
    process = subprocess.Popen(
        [iree_opt, str(path), "-o", os.devnull], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert process.stderr is not None
    stderr = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"iree-opt rejected {path}:\n{stderr[-2000:]}")
    return elapsed, usage.ru_utime + usage.ru_stime


def profile_parse(path: Path, top: int) -> None:
    import cProfile
    import pstats

    sys.path.insert(0, str(ROOT))
    from streamopt.parser import get_parser, parse_module

    get_parser()
    text = path.read_text()
    profiler = cProfile.Profile()
    profiler.enable()
    parse_module(text, str(path))
    profiler.disable()
    print(f"\ncProfile of parsing {path.name} (top {top} by own time):")
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,5000,10000,50000")
    parser.add_argument("--no-iree-opt", action="store_true", help="Do not time iree-opt.")
    parser.add_argument("--profile", type=int, metavar="N", help="Profile parsing the N-op file.")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child is not None:
        print(json.dumps(measure(args.child)))
        return

    sizes = [int(s) for s in args.sizes.split(",")]
    OUT.mkdir(exist_ok=True)
    rows: dict[int, dict[str, float]] = {}
    for count in sizes:
        path = OUT / f"chain-{count}.mlir"
        path.write_text(generate(count))
        # A fresh interpreter per size, so peak RSS belongs to this size alone.
        child = subprocess.run(
            [sys.executable, __file__, "--child", str(path)],
            capture_output=True,
            text=True,
            check=False,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
        )
        if child.returncode != 0:
            raise SystemExit(child.stderr)
        row = json.loads(child.stdout)
        row["iree_opt"] = None if args.no_iree_opt else time_iree_opt(path)
        rows[count] = row

    print(
        f"{'ops':>7} {'MB':>6} {'parse s':>8} {'verify s':>8} {'print s':>8} {'total s':>8}"
        f" {'MB/s':>6} {'peak MB':>8} {'grow/in':>7} {'cpu s':>7} {'iree-opt s':>10}"
        f" {'iree cpu s':>10}"
    )
    for count, row in rows.items():
        megabytes = row["bytes"] / 1e6
        total = row["parse"] + row["verify"] + row["print"]
        rate = megabytes / (row["parse"] + row["print"])
        growth = (row["peak_rss"] - row["baseline_rss"]) / row["bytes"]
        iree = "-" if row["iree_opt"] is None else f"{row['iree_opt'][0]:.2f}"
        iree_cpu = "-" if row["iree_opt"] is None else f"{row['iree_opt'][1]:.2f}"
        print(
            f"{count:>7} {megabytes:>6.2f} {row['parse']:>8.3f} {row['verify']:>8.3f}"
            f" {row['print']:>8.3f} {total:>8.3f} {rate:>6.2f} {row['peak_rss'] / 1e6:>8.1f}"
            f" {growth:>6.1f}x {row['cpu']:>7.2f} {iree:>10} {iree_cpu:>10}"
        )

    print()
    if 5000 in rows and 50000 in rows:
        small, large = rows[5000], rows[50000]
        ratio = sum(large[k] for k in ("parse", "verify", "print")) / sum(
            small[k] for k in ("parse", "verify", "print")
        )
        print(f"total time 50k / 5k ops: {ratio:.1f}x (target <= 12x)")
    largest = rows[max(rows)]
    rate = largest["bytes"] / 1e6 / (largest["parse"] + largest["print"])
    print(f"parse+print throughput at {max(rows)} ops: {rate:.2f} MB/s (target >= 2 MB/s)")
    growth = (largest["peak_rss"] - largest["baseline_rss"]) / largest["bytes"]
    absolute = largest["peak_rss"] / largest["bytes"]
    print(
        f"peak memory / input size at {max(rows)} ops: {growth:.1f}x over the loaded tool"
        f" ({absolute:.1f}x counting the whole process) (target <= 40x)"
    )
    if largest["iree_opt"] is not None:
        wall, cpu = largest["iree_opt"]
        total = sum(largest[k] for k in ("parse", "verify", "print"))
        print(
            f"parse+verify+print against iree-opt at {max(rows)} ops: {largest['cpu'] / cpu:.1f}x"
            f" in CPU time, {total / wall:.1f}x in wall time (target <= 6x)"
        )

    if args.profile:
        path = OUT / f"chain-{args.profile}.mlir"
        if not path.exists():
            path.write_text(generate(args.profile))
        profile_parse(path, 20)


if __name__ == "__main__":
    main()
