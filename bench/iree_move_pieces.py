"""Where a move's time goes on IREE's runtime: `bench/iree_moves.py`'s ping-pong, in one process.

The ping-pong of `iree_moves.py` (a tensor of SIZE bytes sent back and forth between two
local-task devices, 16 floats written where it arrives) built three ways, and the streamopt
build run with move modules that do more and more of a move:

* `plain`: plain IREE (each transfer a copy fused into the command buffer of the update next
  to it: one queue submission per step);
* `expanded`: streamopt's lowering with every move expanded at compile time into IREE's own
  queue alloca, a one-copy command buffer and a queue dealloca (`--expand-cmd-moves`): what
  a forced copy costs when the program makes it with native ops, no Python;
* `empty import`: the streamopt build with a module whose `queue_move` returns its source
  and fence and does nothing else: the VM's call into Python, alone;
* `moves`: streamopt's move module (every move aliases between local-task devices);
* `forced copy`: streamopt's move module with FORCE_COPY on every move.

Per step is (best call of the STEPS-step program - best call of the STEPS/2-step one) /
(STEPS - STEPS/2), after a warm-up call; each build runs `--calls` calls in a session of its own
(fresh devices), `--rounds` sessions interleaved with the other builds' (all in this process, so
they share its warm caches and the same minutes). `cpu` is the process's CPU time (every
thread: the devices' workers too) per step the same way, less sensitive than wall time to
other work on the machine. `in queue_move` is the move module's own wall time per move.

Run: `python bench/iree_move_pieces.py [--size 1] [--steps 512] [--calls 20] [--rounds 3]`
(SIZE in MiB; needs iree-base-compiler and iree-base-runtime).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iree_common import load
from iree_moves import DEVICES, MIB, ping_pong

from streamopt.iree.build import (
    EXPANDED_MOVES_PASSES,
    Program,
    build_plain,
    build_streamopt,
)
from streamopt.iree.moves import CCONV, QueueMoves
from streamopt.iree.run import import_runtime
from streamopt.move_api import (
    QUEUE_MOVE_FUNCTION,
    QUEUE_MOVE_MODULE,
    RESOURCE_LIFETIMES,
    MoveFlags,
)


class EmptyImport:
    """A move module whose `queue_move` hands its source and fence back: the VM's call into
    Python and nothing else (not a move: it neither copies nor counts)."""

    def modules(self, instance: Any, devices: Sequence[Any]) -> list[Any]:
        rt = import_runtime()
        state = object()

        def hand_back(_state: object, source: Any, *rest: Any) -> tuple[Any, Any]:
            return source, rest[-1]

        interface = rt.PyModuleInterface(QUEUE_MOVE_MODULE, lambda _: state)
        for source in RESOURCE_LIFETIMES:
            for result in RESOURCE_LIFETIMES:
                interface.export(f"{QUEUE_MOVE_FUNCTION}.{source}.{result}", CCONV, hand_back)
        return [interface.create()]

    def report(self) -> dict[str, Any]:
        return {}


@dataclass
class Piece:
    """One way of running the ping-pong: which build, with which module."""

    name: str
    build: str
    module: Callable[[], Any] | None
    walls: dict[int, list[float]] = field(default_factory=dict)
    cpus: dict[int, list[float]] = field(default_factory=dict)
    in_module: list[float] = field(default_factory=list)


def session(vmfb: Path, module: Any, size: int, calls: int) -> tuple[list[float], list[float]]:
    """`calls` calls of `vmfb` after a warm-up one, on two new local-task devices: the wall and
    CPU seconds of each."""
    rt = import_runtime()
    instance = rt.VmInstance()
    driver = rt.get_driver("local-task")
    devices = [driver.create_default_device() for _ in DEVICES]
    walls: list[float] = []
    cpus: list[float] = []
    try:
        hal = rt.create_hal_module(instance, devices=devices)
        extra = module.modules(instance, devices) if module is not None else []
        program = rt.VmModule.copy_buffer(instance, vmfb.read_bytes())
        context = rt.VmContext(instance, modules=[hal, *extra, program])
        invoker = rt.FunctionInvoker(context, devices[0], program.lookup_function("main"))
        result = invoker(size // 4)
        for _ in range(calls):
            result = None
            cpu, wall = time.process_time(), time.perf_counter()
            result = invoker(size // 4)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        del result, invoker, context, program, extra, hal
    finally:
        release = getattr(module, "release", None)
        if release is not None:
            release()
        gc.collect()
        del devices, driver, instance
        gc.collect()
    return walls, cpus


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1, help="MiB")
    parser.add_argument("--steps", type=int, default=512, help="an even number")
    parser.add_argument("--calls", type=int, default=20, help="timed calls per session")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved sessions per build")
    args = parser.parse_args(argv)
    size, counts = args.size * MIB, (args.steps, args.steps // 2)
    pieces = [
        Piece("plain", "plain", None),
        Piece("expanded (native copy)", "expanded", None),
        Piece("empty import", "streamopt", EmptyImport),
        Piece("moves (alias)", "streamopt", lambda: QueueMoves(DEVICES)),
        Piece("forced copy", "streamopt", lambda: QueueMoves(DEVICES, MoveFlags.FORCE_COPY)),
    ]
    with tempfile.TemporaryDirectory(prefix="iree-move-pieces-") as scratch:
        work = Path(scratch)
        vmfbs: dict[tuple[str, int], Path] = {}
        for count in counts:
            path = work / f"ping_pong_{count}.mlir"
            path.write_text(ping_pong(count), encoding="utf-8")
            program = Program.read(path, path.read_text(encoding="utf-8"), DEVICES)
            vmfbs["plain", count] = build_plain(program, work).vmfb
            vmfbs["streamopt", count] = build_streamopt(program, work).vmfb
            expanded = work / "expanded"
            expanded.mkdir(exist_ok=True)
            vmfbs["expanded", count] = build_streamopt(
                program, expanded, EXPANDED_MOVES_PASSES
            ).vmfb
        print(f"start: {load()}", flush=True)
        for _ in range(args.rounds):
            for piece in pieces:
                for count in counts:
                    module = piece.module() if piece.module is not None else None
                    walls, cpus = session(vmfbs[piece.build, count], module, size, args.calls)
                    piece.walls.setdefault(count, []).extend(walls)
                    piece.cpus.setdefault(count, []).extend(cpus)
                    if isinstance(module, QueueMoves) and count == args.steps:
                        report = module.report()
                        moves = report["moves_aliased"] + report["moves_copied"]
                        piece.in_module.append(report["move_seconds"] / moves)
        print(f"end: {load()}")
    half = args.steps - args.steps // 2
    print(
        f"{args.size} MiB, {args.steps}-step ping-pong, per step in us "
        f"({args.rounds} x {args.calls} calls per build)"
    )
    print(
        f"{'':<24} {'wall best':>9} {'median':>8} {'cpu best':>9} {'median':>8} "
        f"{'in queue_move':>14}"
    )

    def per_step(samples: dict[int, list[float]], pick: Callable[[list[float]], float]) -> float:
        return (pick(samples[args.steps]) - pick(samples[args.steps // 2])) / half * 1e6

    for piece in pieces:
        module = f"{statistics.median(piece.in_module) * 1e6:14.1f}" if piece.in_module else ""
        print(
            f"{piece.name:<24} {per_step(piece.walls, min):>9.1f} "
            f"{per_step(piece.walls, statistics.median):>8.1f} {per_step(piece.cpus, min):>9.1f} "
            f"{per_step(piece.cpus, statistics.median):>8.1f} {module}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
