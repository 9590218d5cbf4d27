"""Time and output size of the lowering pipeline on generated chains of async ops.

    PYTHONPATH=. python bench/lower.py [--sizes 1000,5000,10000,50000] [--shapes chain,loops]

Generators (about N async ops each, in the syntax iree-opt prints):

* chain: splat, in-place dispatch, clone, transfer A->B, over and over. After
  `--elide-async-copies` every clone is gone and every transfer is a move, so the lowering
  meets a long chain of dispatches and moves across two devices.
* loops: the same groups of four ops, each group in the body of its own `scf.for` carrying the
  chain's value, so the lowering carries timepoints through every loop.

The pipeline is a list of `STAGES`, each a name and the pass flags it runs; they run one after
the other on one parsed module (each size in a fresh subprocess), and each stage reports its
time and the size of the module printed after it. Add a stage (for example the cmd-to-hal
lowering) by appending to `STAGES`.

The summary checks that the time of the whole pipeline at 50k ops is at most 12x its time at
5k ops on every shape (close to linear).
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


@dataclass(frozen=True)
class Stage:
    """One step of the measured pipeline: `flags` run as one pass manager."""

    name: str
    flags: tuple[str, ...]


STAGES: list[Stage] = [
    Stage("elide", ("elide-async-copies",)),
    Stage("lower-to-cmd", ("lower-to-cmd",)),
    # The cmd -> hal half (bench/lower_hal_stage.py times it alone on generated cmd IR).
    Stage("cmd-to-hal", ("lower-cmd-to-hal", "expand-moves")),
]

DEVICES = ("dev_a", "dev_b")
RESOURCE = "!stream.resource<*>{%c16}"
HEADER = """\
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device
  util.func public @chain(%arg0: i32, %arg1: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c1_i32 = arith.constant 1 : i32
"""


def _affinity(device: str) -> str:
    return f"#hal.device.affinity<@{device}>"


class _Writer:
    """Numbers values and writes the four-op groups of the chain."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.next = 0
        self.device = 0

    def value(self) -> str:
        name = f"%{self.next}"
        self.next += 1
        return name

    def group(self, previous: str, indent: str) -> str:
        """splat, in-place dispatch of the previous value into it, clone, transfer to the other
        device; the transferred value."""
        device = _affinity(DEVICES[self.device])
        other = _affinity(DEVICES[1 - self.device])
        write = self.lines.append
        splat, dispatch, clone, transfer = (self.value() for _ in range(4))
        write(f"{indent}{splat} = stream.async.splat on({device}) %c1_i32 : i32 -> {RESOURCE}\n")
        write(
            f"{indent}{dispatch} = stream.async.dispatch on({device}) @ex::@fn[%c4]"
            f"({previous}[%c0 to %c16 for %c16], {splat}[%c0 to %c16 for %c16]) : "
            f"({RESOURCE}, {RESOURCE}) -> {splat}{{%c16}}\n"
        )
        write(
            f"{indent}{clone} = stream.async.clone on({device}) {dispatch} : "
            f"{RESOURCE} -> {RESOURCE}\n"
        )
        write(
            f"{indent}{transfer} = stream.async.transfer {clone} : {RESOURCE} from({device}) "
            f"-> to({other}) {RESOURCE}\n"
        )
        self.device = 1 - self.device
        return transfer


def generate(shape: str, count: int) -> str:
    """A module whose function holds about `count` async ops of `shape`."""
    writer = _Writer()
    write = writer.lines.append
    write(HEADER)
    first = writer.value()
    write(
        f"    {first} = stream.async.splat on({_affinity(DEVICES[0])}) %arg0 : i32 -> {RESOURCE}\n"
    )
    previous = first
    groups = max(1, (count - 1) // 4)
    for _ in range(groups if shape == "chain" else max(1, groups // 2)):
        if shape == "chain":
            previous = writer.group(previous, "    ")
            continue
        # A loop of one group per iteration: the value goes to the other device and back.
        loop = writer.value()
        body_argument = f"%acc{loop[1:]}"
        write(
            f"    {loop} = scf.for %i{loop[1:]} = %c0 to %arg1 step %c1 "
            f"iter_args({body_argument} = {previous}) -> (!stream.resource<*>) {{\n"
        )
        there = writer.group(body_argument, "      ")
        back = writer.group(there, "      ")
        write(f"      scf.yield {back} : !stream.resource<*>\n    }}\n")
        previous = loop
    write(f"    util.return {previous} : !stream.resource<*>\n  }}\n}}\n")
    return "".join(writer.lines)


def measure(shape: str, count: int) -> dict[str, object]:
    """Parse the generated module and run every stage; times (s) and printed sizes (bytes)."""
    sys.path.insert(0, str(ROOT))
    from streamopt.parser import get_parser, parse_module
    from streamopt.passes import PassManager
    from streamopt.printer import print_module

    get_parser()
    # As the command line does: the cyclic collector would rescan every live op for nothing.
    gc.disable()
    text = generate(shape, count)
    ops = sum(1 for line in text.splitlines() if "stream.async." in line)
    start = time.perf_counter()
    module = parse_module(text, f"{shape}-{count}.mlir")
    result: dict[str, object] = {
        "ops": ops,
        "input_bytes": len(text.encode()),
        "parse": time.perf_counter() - start,
        "stages": [],
    }
    stages: list[dict[str, object]] = []
    for stage in STAGES:
        manager = PassManager.from_flags(stage.flags, verify_each=False)
        start = time.perf_counter()
        manager.run(module)
        elapsed = time.perf_counter() - start
        printed = print_module(module)
        stages.append(
            {
                "name": stage.name,
                "seconds": elapsed,
                "bytes": len(printed.encode()),
                "lines": printed.count("\n"),
            }
        )
    result["stages"] = stages
    return result


def _run_child(shape: str, count: int) -> dict[str, object]:
    output = subprocess.run(
        [sys.executable, __file__, "--child", shape, str(count)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    return json.loads(output)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,5000,10000,50000")
    parser.add_argument("--shapes", default="chain,loops")
    parser.add_argument("--child", nargs=2, metavar=("SHAPE", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child[0], int(args.child[1]))))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    shapes = args.shapes.split(",")
    names = [stage.name for stage in STAGES]
    header = f"{'shape':>6} {'ops':>7} {'in KB':>8} " + " ".join(
        f"{name + ' s':>16} {name + ' KB':>17}" for name in names
    )
    print(header)
    totals: dict[tuple[str, int], float] = {}
    for shape in shapes:
        for size in sizes:
            result = _run_child(shape, size)
            stages = result["stages"]
            assert isinstance(stages, list)
            total = sum(float(s["seconds"]) for s in stages)
            totals[(shape, size)] = total
            cells = " ".join(
                f"{float(s['seconds']):>16.3f} {int(s['bytes']) / 1024:>17.0f}" for s in stages
            )
            print(
                f"{shape:>6} {result['ops']:>7} {int(result['input_bytes']) / 1024:>8.0f} {cells}"
            )
    failed = False
    for shape in shapes:
        if (shape, 5000) in totals and (shape, 50000) in totals:
            ratio = totals[(shape, 50000)] / totals[(shape, 5000)]
            verdict = "ok" if ratio <= 12 else "TOO SLOW"
            failed |= ratio > 12
            print(f"{shape}: pipeline time 50k / 5k = {ratio:.1f}x (target <= 12x): {verdict}")
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
