"""The cmd -> hal stage of the lowering benchmark: `--lower-cmd-to-hal --expand-moves`.

`time_cmd_to_hal(text)` times one cmd-level module through the stage the way the command line
runs it (parse and verify, each pass followed by the verifier, print) and returns the figures;
`bench/lower.py` calls it with the cmd-level output of its async -> cmd stage. Run alone, this
script generates cmd-level programs of 1k..50k ops (allocations, single-transfer and
command-buffer executes, moves between two devices, deallocas, joins), prints the figures and
checks that the stage scales linearly: 50k ops must take at most 12x the time of 5k ops.

Run: `PYTHONPATH=. python bench/lower_hal_stage.py [--sizes 1000,5000,10000,50000] [--repeat N]`.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from dataclasses import dataclass

from streamopt.ir.module import Module
from streamopt.ir.verify import verify_module
from streamopt.parser import parse_module
from streamopt.passes import PassManager
from streamopt.printer import print_module

STAGE_FLAGS = ("lower-cmd-to-hal", "expand-moves")
# Ops one generated unit holds (top-level and nested), see `generate_cmd_program`.
OPS_PER_UNIT = 10


@dataclass
class StageTiming:
    """Seconds spent on one module, and its size before and after."""

    ops_in: int
    ops_out: int
    parse: float
    lower: float
    """Both passes, each followed by the verifier (as the command line runs them)."""
    print: float

    @property
    def total(self) -> float:
        return self.parse + self.lower + self.print


def count_ops(module: Module) -> int:
    """Ops in the module, nested ones included, the module op excluded."""
    return sum(1 for _ in module.walk()) - 1


def time_cmd_to_hal(text: str, name: str = "<bench>") -> StageTiming:
    """Time `--lower-cmd-to-hal --expand-moves` on the cmd-level module `text`."""
    gc.collect()
    start = time.perf_counter()
    module = parse_module(text, name)
    verify_module(module)
    parsed = time.perf_counter()
    ops_in = count_ops(module)
    lowered_start = time.perf_counter()
    PassManager.from_flags(STAGE_FLAGS).run(module)
    lowered = time.perf_counter()
    output = print_module(module)
    printed = time.perf_counter()
    assert "hal.device.queue.move" not in output, "a move survived --expand-moves"
    return StageTiming(
        ops_in=ops_in,
        ops_out=count_ops(module),
        parse=parsed - start,
        lower=lowered - lowered_start,
        print=printed - lowered,
    )


def generate_cmd_program(ops: int) -> str:
    """A cmd-level function of about `ops` ops: a chain of units, each allocating on device A,
    filling there, moving to device B (changing the lifetime), recording a two-command buffer
    on B, freeing the moved buffer at its origin and joining timepoints."""
    units = max(1, ops // OPS_PER_UNIT)
    a = "#hal.device.affinity<@dev_a>"
    b = "#hal.device.affinity<@dev_b>"
    transient = "!stream.resource<transient>{%size}"
    external = "!stream.resource<external>{%size}"
    lines = [
        "util.global private @dev_a : !hal.device",
        "util.global private @dev_b : !hal.device",
        "util.func public @chain(%size: index, %acc: !stream.resource<external>, "
        "%t: !stream.timepoint) -> !stream.timepoint {",
        "  %c0 = arith.constant 0 : index",
        "  %c7_i32 = arith.constant 7 : i32",
    ]
    previous = "%t"
    for k in range(units):
        lines += [
            f"  %r{k}, %ta{k} = stream.resource.alloca uninitialized on({a}) await({previous}) "
            f"=> {transient} => !stream.timepoint",
            f"  %tf{k} = stream.cmd.execute on({a}) await(%ta{k}) => "
            f"with(%r{k} as %x{k}: {transient}) {{",
            f"    stream.cmd.fill %c7_i32, %x{k}[%c0 for %size] : i32 -> {transient}",
            "  } => !stream.timepoint",
            f"  %m{k}, %tm{k} = stream.cmd.move on({b}) await(%tf{k}) => %r{k} : {transient} "
            f"from({a}) -> to({b}) {external} => !stream.timepoint",
            f"  %tc{k} = stream.cmd.execute on({b}) await(%tm{k}) => "
            f"with(%m{k} as %y{k}: {external}, %acc as %z{k}: {external}) {{",
            "    stream.cmd.serial {",
            f"      stream.cmd.fill %c7_i32, %y{k}[%c0 for %size] : i32 -> {external}",
            f"      stream.cmd.copy %y{k}[%c0], %z{k}[%c0], %size : {external} -> {external}",
            "    }",
            "  } => !stream.timepoint",
            f"  %td{k} = stream.resource.dealloca origin on({b}) await(%tc{k}) => %m{k} : "
            f"{external} => !stream.timepoint",
            f"  %tj{k} = stream.timepoint.join max(%td{k}, %tc{k}) => !stream.timepoint",
        ]
        previous = f"%tj{k}"
    lines += [f"  util.return {previous} : !stream.timepoint", "}", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,5000,10000,50000")
    parser.add_argument("--repeat", type=int, default=1, help="runs per size (best is kept)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    print("cmd -> hal stage: --lower-cmd-to-hal --expand-moves (best of", args.repeat, "runs)")
    print(
        f"  {'ops in':>7} {'ops out':>8} {'parse s':>8} {'lower s':>8} {'print s':>8} "
        f"{'total s':>8} {'us/op (lower)':>14}"
    )
    timings: dict[int, StageTiming] = {}
    for size in sizes:
        text = generate_cmd_program(size)
        best: StageTiming | None = None
        for _ in range(args.repeat):
            timing = time_cmd_to_hal(text, f"<chain {size}>")
            if best is None or timing.lower < best.lower:
                best = timing
        assert best is not None
        timings[size] = best
        print(
            f"  {best.ops_in:>7} {best.ops_out:>8} {best.parse:>8.2f} {best.lower:>8.2f} "
            f"{best.print:>8.2f} {best.total:>8.2f} {1e6 * best.lower / best.ops_in:>14.1f}"
        )
    ok = True
    if 5000 in timings and 50000 in timings:
        ratio = timings[50000].lower / timings[5000].lower
        total_ratio = timings[50000].total / timings[5000].total
        ok = ratio <= 12
        print(
            f"  50k / 5k: lower {ratio:.1f}x, parse+lower+print {total_ratio:.1f}x "
            f"(limit 12x): {'ok' if ok else 'TOO SLOW'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
