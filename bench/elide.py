"""`--elide-async-copies` against `iree-opt --iree-stream-elide-async-copies` on generated IR.

    python bench/elide.py [--sizes 1000,5000,10000,50000] [--shapes chain,fanout,calls,...]
                          [--iree-timeout 300] [--no-iree-opt]

Six generators, each writing bench/out/elide-SHAPE-N.mlir with about N async ops in the syntax
iree-opt prints (device globals and the dispatched executable declared, so iree-opt accepts it):

* chain:  splat, clone of the previous value, in-place dispatch on the clone, transfer A->B, over
          and over: every clone and every transfer is the last use of its source (iree-opt's pass
          is quadratic on this shape).
* fanout: one resource per group of 16 ops, read by dispatches and sent to the other device by
          several transfers: only the last transfer of each group may move.
* calls:  a chain of private functions, each transferring its by-value argument and returning a
          dispatch result, called one after another from a public function.
* loops:  a chain of scf.for loops, each carrying the last one's result: the body clones the
          iteration argument, fills the clone in place and transfers it to the other device.
* imports: public functions that each import a view argument and return a clone of it (all
          the imports are buffers from outside, one storage class).
* wide:   one private function whose results are clones of its arguments, one per argument.

For each file and tool: wall time of the whole command (start-up included), peak RSS of the
process (from wait4), and what it did: clones removed and transfers turned into moves (iree-opt
has no moves; its transfers are counted as kept). The summary checks that streamopt's time at
50k ops is at most 12x its time at 5k ops on every shape, and that it never removes fewer clones
than iree-opt.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"

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
"""

RES = "!stream.resource<*>{%c16}"


def affinity(device: str) -> str:
    return f"#hal.device.affinity<@{device}>"


def constants() -> list[str]:
    return [
        "    %c0 = arith.constant 0 : index",
        "    %c4 = arith.constant 4 : index",
        "    %c16 = arith.constant 16 : index",
    ]


def chain(count: int) -> str:
    """splat, clone of the previous value, in-place dispatch on the clone, transfer; repeated."""
    lines = [HEADER, "  util.func public @chain(%arg0: i32) -> !stream.resource<*> {", *constants()]
    devices = ("dev_a", "dev_b")
    lines.append(f"    %0 = stream.async.splat on({affinity('dev_a')}) %arg0 : i32 -> {RES}")
    previous = 0
    value = 0
    step = 0
    while value < count:
        device = devices[step % 2]
        other = devices[(step + 1) % 2]
        on = f"on({affinity(device)})"
        s, c, d, t = value + 1, value + 2, value + 3, value + 4
        lines.append(f"    %{s} = stream.async.splat {on} %arg0 : i32 -> {RES}")
        lines.append(f"    %{c} = stream.async.clone {on} %{previous} : {RES} -> {RES}")
        lines.append(
            f"    %{d} = stream.async.dispatch {on} @ex::@fn[%c4](%{c}[%c0 to %c16 for "
            f"%c16], %{s}[%c0 to %c16 for %c16]) : ({RES}, {RES}) -> %{c}{{%c16}}"
        )
        lines.append(
            f"    %{t} = stream.async.transfer %{d} : {RES} from({affinity(device)}) -> "
            f"to({affinity(other)}) {RES}"
        )
        previous = t
        value = t
        step += 1
    lines.append(f"    util.return %{previous} : !stream.resource<*>")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def fanout(count: int) -> str:
    """Groups of 16 ops: a splat read by dispatches and sent to dev_b several times."""
    results = ", ".join(["!stream.resource<*>"] * 4)
    lines = [HEADER, f"  util.func public @fanout(%arg0: i32) -> ({results}) {{", *constants()]
    value = 0
    outs: list[int] = []
    groups = max(count // 16, 1)
    for _ in range(groups):
        source = value
        lines.append(
            f"    %{source} = stream.async.splat on({affinity('dev_a')}) %arg0 : i32 -> {RES}"
        )
        value += 1
        outs = []
        for _ in range(5):
            lines.append(
                f"    %{value} = stream.async.dispatch on({affinity('dev_a')}) @ex::@fn[%c4]"
                f"(%{source}[%c0 to %c16 for %c16]) : ({RES}) -> {RES}"
            )
            value += 1
            lines.append(
                f"    %{value} = stream.async.clone on({affinity('dev_a')}) %{source} : {RES} -> "
                f"{RES}"
            )
            value += 1
            lines.append(
                f"    %{value} = stream.async.dispatch on({affinity('dev_a')}) @ex::@fn[%c4]"
                f"(%{value - 1}[%c0 to %c16 for %c16]) : ({RES}) -> {RES}"
            )
            value += 1
        for _ in range(4):
            lines.append(
                f"    %{value} = stream.async.transfer %{source} : {RES} from({affinity('dev_a')})"
                f" -> to({affinity('dev_b')}) {RES}"
            )
            outs.append(value)
            value += 1
    returned = ", ".join(f"%{v}" for v in outs)
    lines.append(f"    util.return {returned} : {results}")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def calls(count: int) -> str:
    """Private functions that transfer their argument, called in a chain."""
    functions = max(count // 6, 1)
    lines = [HEADER]
    for index in range(functions):
        device, other = ("dev_a", "dev_b") if index % 2 == 0 else ("dev_b", "dev_a")
        lines += [
            f"  util.func private @step{index}(%arg0: !stream.resource<*>) -> "
            "!stream.resource<*> {",
            *constants(),
            f"    %0 = stream.async.transfer %arg0 : {RES} from({affinity(device)}) -> "
            f"to({affinity(other)}) {RES}",
            f"    %1 = stream.async.dispatch on({affinity(other)}) @ex::@fn[%c4](%0[%c0 to %c16 "
            f"for %c16]) : ({RES}) -> {RES}",
            "    util.return %1 : !stream.resource<*>",
            "  }",
        ]
    lines += [
        "  util.func public @calls(%arg0: i32) -> !stream.resource<*> {",
        *constants(),
        f"    %0 = stream.async.splat on({affinity('dev_a')}) %arg0 : i32 -> {RES}",
    ]
    for index in range(functions):
        lines.append(
            f"    %{index + 1} = util.call @step{index}(%{index}) : (!stream.resource<*>) -> "
            "!stream.resource<*>"
        )
    lines.append(f"    util.return %{functions} : !stream.resource<*>")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def loops(count: int) -> str:
    """A chain of scf.for loops, each carrying the previous loop's result: its body clones the
    iteration argument, writes the clone in place and sends it to the other device."""
    lines = [HEADER, "  util.func public @loops(%arg0: i32, %n: index) -> !stream.resource<*> {"]
    lines += [
        *constants(),
        "    %c1 = arith.constant 1 : index",
        "    %c2_i32 = arith.constant 2 : i32",
    ]
    lines.append(f"    %v0 = stream.async.splat on({affinity('dev_a')}) %arg0 : i32 -> {RES}")
    loops_count = max(count // 4, 1)
    for i in range(loops_count):
        device, other = ("dev_a", "dev_b") if i % 2 == 0 else ("dev_b", "dev_a")
        lines += [
            f"    %v{i + 1} = scf.for %i{i} = %c0 to %n step %c1 iter_args(%acc{i} = %v{i}) -> "
            "(!stream.resource<*>) {",
            f"      %k{i} = stream.async.clone on({affinity(device)}) %acc{i} : {RES} -> {RES}",
            f"      %f{i} = stream.async.fill on({affinity(device)}) %c2_i32, %k{i}[%c0 to %c16 "
            f"for %c16] : i32 -> %k{i} as {RES}",
            f"      %t{i} = stream.async.transfer %f{i} : {RES} from({affinity(device)}) -> "
            f"to({affinity(other)}) {RES}",
            f"      scf.yield %t{i} : !stream.resource<*>",
            "    }",
        ]
    lines.append(f"    util.return %v{loops_count} : !stream.resource<*>")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def imports(count: int) -> str:
    """Public functions that each import a view argument and return a clone of it: every
    import is a buffer from outside, so all of them share one storage class."""
    lines = [HEADER]
    for index in range(max(count // 3, 1)):
        lines += [
            f"  util.func public @import{index}(%arg0: !hal.buffer_view) -> "
            "!stream.resource<external> {",
            "    %c16 = arith.constant 16 : index",
            "    %0 = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<4xi32> in "
            "!stream.resource<external>{%c16}",
            "    %1 = stream.async.clone %0 : !stream.resource<external>{%c16} -> "
            "!stream.resource<external>{%c16}",
            "    util.return %1 : !stream.resource<external>",
            "  }",
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"


def wide(count: int) -> str:
    """One function with a resource argument and result per 2 ops: each result a clone of
    its argument (a summary compares what every result may be)."""
    width = max(count // 2, 1)
    args = ", ".join(f"%a{i}: !stream.resource<*>" for i in range(width))
    types = ", ".join(["!stream.resource<*>"] * width)
    lines = [HEADER, f"  util.func private @wide({args}) -> ({types}) {{", *constants()]
    for i in range(width):
        lines.append(f"    %r{i} = stream.async.clone %a{i} : {RES} -> {RES}")
    lines.append(f"    util.return {', '.join(f'%r{i}' for i in range(width))} : {types}")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


GENERATORS = {
    "chain": chain,
    "fanout": fanout,
    "calls": calls,
    "loops": loops,
    "imports": imports,
    "wide": wide,
}


# Runs the command as its only child and reports the child's peak RSS (ru_maxrss of
# RUSAGE_CHILDREN), so each measurement has its own figure.
_WRAPPER = """
import resource, subprocess, sys
child = subprocess.run(sys.argv[1:], capture_output=True)
sys.stdout.buffer.write(child.stdout)
sys.stderr.buffer.write(child.stderr)
sys.stderr.write("\\n@@peak_rss_kb=%d\\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(child.returncode)
"""


def measured(command: list[str], timeout: float | None) -> tuple[float, int, str, str] | None:
    """(wall seconds, peak RSS bytes, stdout, stderr) of `command`, or None on timeout."""
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", _WRAPPER, *command],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        return None
    elapsed = time.perf_counter() - start
    match = re.search(r"@@peak_rss_kb=(\d+)", done.stderr)
    peak = int(match.group(1)) * 1024 if match else 0
    return elapsed, peak, done.stdout, done.stderr


def streamopt_counts(stderr: str) -> tuple[int, int, int]:
    """(clones removed, transfers moved, transfers removed) from --stats."""

    def stat(name: str) -> int:
        match = re.search(rf"\(S\)\s+(\d+) {name} ", stderr)
        return int(match.group(1)) if match else 0

    return (
        stat("num-clones-elided"),
        stat("num-transfers-moved"),
        stat("num-transfers-removed"),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,5000,10000,50000")
    parser.add_argument("--shapes", default="chain,fanout,calls,loops,imports,wide")
    parser.add_argument("--iree-timeout", type=float, default=600.0)
    parser.add_argument("--no-iree-opt", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    shapes = args.shapes.split(",")
    iree_opt = None if args.no_iree_opt else shutil.which("iree-opt")
    streamopt = [sys.executable, "-m", "streamopt"]
    OUT.mkdir(parents=True, exist_ok=True)
    # Warm the parser table cache so the first row does not pay for building it.
    subprocess.run([*streamopt, "-"], input="", text=True, capture_output=True, cwd=ROOT)

    print(
        f"{'shape':<7} {'ops':>6} {'MB':>5} | {'streamopt s':>11} {'RSS MB':>7} {'clones':>6} "
        f"{'moves':>5} {'removed':>7} | {'iree-opt s':>10} {'RSS MB':>7} {'clones':>6}"
    )
    times: dict[tuple[str, int], float] = {}
    failures: list[str] = []
    for shape in shapes:
        for size in sizes:
            text = GENERATORS[shape](size)
            path = OUT / f"elide-{shape}-{size}.mlir"
            path.write_text(text)
            clones_in = text.count("stream.async.clone")
            ours = measured([*streamopt, "--elide-async-copies", "--stats", str(path)], None)
            assert ours is not None
            seconds, peak, _, stderr = ours
            if "error" in stderr.split("@@")[0]:
                raise SystemExit(f"streamopt failed on {path}:\n{stderr}")
            clones, moves, removed = streamopt_counts(stderr)
            times[(shape, size)] = seconds
            theirs_text = "-"
            if iree_opt is not None:
                theirs = measured(
                    [iree_opt, "--iree-stream-elide-async-copies", str(path)], args.iree_timeout
                )
                if theirs is None:
                    theirs_text = f"{'>' + str(int(args.iree_timeout)):>10} {'-':>7} {'-':>6}"
                else:
                    t_seconds, t_peak, t_stdout, t_stderr = theirs
                    if "error" in t_stderr.split("@@")[0]:
                        raise SystemExit(f"iree-opt rejected {path}:\n{t_stderr[:2000]}")
                    t_clones = clones_in - t_stdout.count("stream.async.clone")
                    theirs_text = f"{t_seconds:>10.2f} {t_peak / 2**20:>7.1f} {t_clones:>6}"
                    if clones < t_clones:
                        failures.append(
                            f"{shape} {size}: streamopt removed {clones} clones, "
                            f"iree-opt {t_clones}"
                        )
            print(
                f"{shape:<7} {size:>6} {len(text) / 1e6:>5.2f} | {seconds:>11.2f} "
                f"{peak / 2**20:>7.1f} {clones:>6} {moves:>5} {removed:>7} | {theirs_text}",
                flush=True,
            )
    print()
    for shape in shapes:
        if (shape, 5000) in times and (shape, 50000) in times:
            ratio = times[(shape, 50000)] / times[(shape, 5000)]
            verdict = "ok" if ratio <= 12 else "TOO SLOW"
            print(f"{shape}: 50k/5k time ratio {ratio:.1f}x (target <= 12x) {verdict}")
            if ratio > 12:
                failures.append(f"{shape}: 50k/5k = {ratio:.1f}x")
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
