"""Building a program two ways: with plain IREE, and with streamopt's passes inside IREE's
pipeline.

FILE is one of:

* a *source program* `iree-compile` accepts (StableHLO, linalg, ... with `flow.tensor.transfer`
  to `#hal.device.promise<@dev>` devices): the streamopt build first runs `iree-compile` up to
  the IR before IREE's second ElideAsyncCopies (`--mlir-print-ir-before`, as
  examples/iree/make-dumps.sh does); the plain build is `iree-compile FILE`;
* a *dump* IREE printed before its second ElideAsyncCopies (`before-elide-2.mlir`): the
  streamopt build starts from it; the plain build resumes IREE's pipeline on it with
  `iree-compile --compile-from=flow` (which runs the whole stream phase again: its conversion
  passes leave stream IR as it is);
* a dump before the *first* ElideAsyncCopies (lifetimes still `*`): IREE's own passes between
  the two runs (canonicalize, EmplaceAllocations, RefineUsage) refine it first, through
  `iree-opt` (stage `refine`);
* cmd IR (already lowered): compiled from the stream phase as it is, once its moves are
  lowered by the passes that follow `lower-to-cmd` in the build's.

The streamopt passes (`STREAMOPT_PASSES`) leave the IR in the form IREE's stream phase ends
in, so `iree-compile --compile-from=stream` takes it with nothing in between; its moves are
calls of an imported `streamopt.queue_move.*` (`streamopt.move_api`), which the program gets
from `streamopt.iree.moves` when it runs (`EXPANDED_MOVES_PASSES` expands them instead).
Each stage is timed (`Build.timings`).
"""

from __future__ import annotations

import enum
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from streamopt.diagnostics import DiagnosticError
from streamopt.iree.tools import StageTiming, find_tool, run_stage
from streamopt.lazy_regex import lazy_compile

STREAMOPT_PASSES: list[str] = ["elide-async-copies", "lower-to-cmd", "lower-cmd-moves-to-calls"]
"""streamopt's part of the streamopt build: elide (moves), lower to cmd as IREE's stream phase
ends (constants and dispatch operands packed, scf as cf), moves as calls of the runtime's
`queue_move` (which `streamopt.iree.moves` supplies when the program runs)."""

EXPANDED_MOVES_PASSES: list[str] = ["elide-async-copies", "lower-to-cmd", "expand-cmd-moves"]
"""The streamopt build with every move expanded into alloca + copy + dealloca at compile time
(made of IREE's own ops: the program needs no module at run time)."""

TARGET_FLAGS: list[str] = [
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=generic",
]
"""Codegen flags for every `iree-compile` run (the dumps in examples/iree were made with the
same CPU)."""

_PRINT_BEFORE_ELIDE = "--mlir-print-ir-before=iree-stream-elide-async-copies"
_DUMP_HEADER = lazy_compile(r"^// -----// IR Dump Before .*$", re.M)
_PROMISE = lazy_compile(r"#hal\.device\.(?:promise|affinity)<@([\w$.\-]+)")
# `util.global private @dev_a : !hal.device` or, as IREE prints a device with its target,
# `util.global private @dev_a = #device_target_local_0_` (an alias of a `#hal.device.target`).
_DEVICE_GLOBAL = lazy_compile(
    r"^\s*util\.global\s+(?:private\s+|public\s+)?(?:mutable\s+)?@([\w$.\-]+)\s*"
    r"(?::\s*!hal\.device|=\s*#(?:hal\.device\.target<|device_target))",
    re.M,
)

# Passes IREE runs between its two ElideAsyncCopies (see its Stream Passes.cpp): they refine
# `*` lifetimes, which streamopt's lowering needs.
_REFINE_PIPELINE = (
    "builtin.module(util.func(canonicalize,iree-stream-emplace-allocations),"
    "iree-stream-refine-usage,util.func(canonicalize))"
)


class InputKind(enum.Enum):
    """What FILE holds."""

    SOURCE = "source program"
    UNREFINED_DUMP = "dump before IREE's first ElideAsyncCopies"
    DUMP = "dump before IREE's second ElideAsyncCopies"
    CMD = "cmd IR"


def classify(text: str) -> InputKind:
    """Which kind of input `text` is (see the module docstring)."""
    if "stream.cmd.execute" in text or "stream.resource.alloca" in text:
        return InputKind.CMD
    if "!stream.resource<" in text or "stream.tensor.import" in text:
        return InputKind.UNREFINED_DUMP if "!stream.resource<*>" in text else InputKind.DUMP
    return InputKind.SOURCE


def device_names(text: str, kind: InputKind) -> list[str]:
    """The devices the program names: its `!hal.device` globals (a dump), else the devices
    its transfers and affinities name (a source program), sorted; `dev_a` when it names none."""
    if kind is InputKind.SOURCE:
        names = sorted(set(_PROMISE.findall(text)))
    else:
        names = list(dict.fromkeys(_DEVICE_GLOBAL.findall(text)))
    return names or ["dev_a"]


def device_flags(devices: list[str]) -> list[str]:
    """`--iree-hal-target-device=NAME=local[i]` per device: distinct ordinals, or IREE would
    fold identical devices into one."""
    return [f"--iree-hal-target-device={name}=local[{i}]" for i, name in enumerate(devices)]


@dataclass
class Build:
    """One build of a program: the .vmfb and how long each stage took."""

    name: str
    vmfb: Path
    timings: list[StageTiming] = field(default_factory=list)
    intermediate: dict[str, Path] = field(default_factory=dict)
    """Stage name -> the IR it wrote (kept next to the .vmfb)."""

    def seconds(self) -> float:
        return sum(t.seconds for t in self.timings)


@dataclass
class Program:
    """FILE as read: its text, kind and devices."""

    path: Path
    text: str
    kind: InputKind
    devices: list[str]

    @classmethod
    def read(cls, path: Path, text: str, devices: list[str] | None = None) -> Program:
        kind = classify(text)
        return cls(path, text, kind, devices or device_names(text, kind))


def build_plain(program: Program, work: Path) -> Build:
    """The program as plain IREE builds it."""
    compile_tool = find_tool("iree-compile")
    build = Build("plain", work / f"{program.path.stem}.plain.vmfb")
    command = [compile_tool, str(program.path), *TARGET_FLAGS, "-o", str(build.vmfb)]
    stage = "iree-compile"
    if program.kind is InputKind.SOURCE:
        command[2:2] = device_flags(program.devices)
    elif program.kind is InputKind.CMD:
        command.insert(2, "--compile-from=stream")
        stage = "iree-compile --compile-from=stream"
    else:
        command.insert(2, "--compile-from=flow")
        stage = "iree-compile --compile-from=flow"
    run_stage(stage, command, build.timings)
    return build


def build_streamopt(
    program: Program, work: Path, passes: list[str] | None = None, verify: bool = True
) -> Build:
    """The program built with streamopt's `passes` (default `STREAMOPT_PASSES`) where IREE
    runs its stream phase's second half."""
    compile_tool = find_tool("iree-compile")
    stem = program.path.stem
    build = Build("streamopt", work / f"{stem}.streamopt.vmfb")
    text, name = program.text, str(program.path)
    if program.kind is InputKind.SOURCE:
        text = _dump_before_elide(program, compile_tool, build)
        name = str(work / f"{stem}.before-elide-2.mlir")
        Path(name).write_text(text, encoding="utf-8")
        build.intermediate["dump"] = Path(name)
    elif program.kind is InputKind.UNREFINED_DUMP:
        refined = work / f"{stem}.refined.mlir"
        run_stage(
            "refine",
            [find_tool("iree-opt"), f"--pass-pipeline={_REFINE_PIPELINE}", program.path.as_posix(),
             "-o", str(refined)],
            build.timings,
        )  # fmt: skip
        text, name = refined.read_text(encoding="utf-8"), str(refined)
        build.intermediate["refine"] = refined
    passes = passes or STREAMOPT_PASSES
    if program.kind is InputKind.CMD:
        # Lowered already: only its moves (streamopt's op, which IREE lacks) are left to do.
        passes = passes[passes.index("lower-to-cmd") + 1 :] if "lower-to-cmd" in passes else []
    if program.kind is InputKind.CMD and ("stream.cmd.move" not in text or not passes):
        lowered_path = program.path
    else:
        lowered = run_streamopt(text, name, passes, build, verify)
        lowered_path = work / f"{stem}.streamopt.mlir"
        lowered_path.write_text(lowered, encoding="utf-8")
        build.intermediate["streamopt"] = lowered_path
    run_stage(
        "iree-compile --compile-from=stream",
        [compile_tool, str(lowered_path), "--compile-from=stream", *TARGET_FLAGS,
         "-o", str(build.vmfb)],
        build.timings,
    )  # fmt: skip
    return build


def run_streamopt(
    text: str, name: str, passes: list[str], build: Build, verify: bool = True
) -> str:
    """streamopt's passes on `text` (stage `streamopt`); their diagnostics name the stage."""
    # Imported when first needed: start-up time.
    from streamopt.diagnostics import Diagnostic
    from streamopt.ir.verify import verify_module
    from streamopt.parser import parse_module
    from streamopt.passes import PassManager
    from streamopt.printer import print_module

    started = time.perf_counter()
    try:
        module = parse_module(text, name)
        if verify:
            verify_module(module)
        PassManager.from_flags(passes, verify_each=verify).run(module)
        # With its locations: diagnostics of the IREE stages after it then name the input.
        out = print_module(module, print_debug_locations=True) + "\n"
    except DiagnosticError as exc:
        label = " ".join(f"--{p}" for p in passes)
        raise DiagnosticError(
            [
                Diagnostic(d.severity, f"[streamopt {label}] {d.message}", d.location, d.notes)
                for d in exc.diagnostics
            ]
        ) from None
    build.timings.append(
        StageTiming("streamopt", time.perf_counter() - started, ["streamopt", *passes])
    )
    return out


def _dump_before_elide(program: Program, compile_tool: str, build: Build) -> str:
    """The module IREE prints before its second ElideAsyncCopies, compiling `program`."""
    command = [compile_tool, str(program.path), *device_flags(program.devices), *TARGET_FLAGS,
               _PRINT_BEFORE_ELIDE, "--compile-to=stream", "-o", "/dev/null"]  # fmt: skip
    import subprocess

    started = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    build.timings.append(
        StageTiming("iree-compile to the elide point", time.perf_counter() - started, command)
    )
    if completed.returncode != 0:
        # Report it as run_stage does.
        run_stage("iree-compile to the elide point", command)
    dumps = _DUMP_HEADER.split(completed.stderr)[1:]
    if len(dumps) != 2:
        # Imported when first needed: start-up time.
        from streamopt.diagnostics import UNKNOWN_LOCATION, Diagnostic

        raise DiagnosticError(
            Diagnostic(
                "error",
                f"[iree-compile to the elide point] expected IREE to print 2 modules before "
                f"ElideAsyncCopies, got {len(dumps)}",
                UNKNOWN_LOCATION,
            )
        )
    return dumps[1].lstrip("\n").rstrip("\n") + "\n"


# -- `python -m streamopt.iree.build`: build once, ship the .vmfb ------------------------------


def build_vmfb(
    input_path: Path, output: Path, devices: list[str] | None = None, expand: bool = False
) -> Program:
    """Build `input_path` (any `InputKind`) with streamopt's passes and
    `iree-compile --compile-from=stream` into `output`; return the program read (its
    `devices` are the HAL devices the .vmfb expects, in order). With `expand`, moves are
    copies made of IREE's ops (`EXPANDED_MOVES_PASSES`: no module needed at run time);
    otherwise the .vmfb imports `streamopt.queue_move.*`, which `streamopt.iree.moves.QueueMoves`
    supplies."""
    import shutil
    import tempfile

    program = Program.read(input_path, input_path.read_text(encoding="utf-8"), devices)
    passes = EXPANDED_MOVES_PASSES if expand else STREAMOPT_PASSES
    with tempfile.TemporaryDirectory(prefix="streamopt-build-") as scratch:
        build = build_streamopt(program, Path(scratch), passes)
        # A failed build leaves an existing OUTPUT as it was.
        staged = output.with_name(f".{output.name}.partial")
        shutil.copyfile(build.vmfb, staged)
        staged.replace(output)
    return program


def main(argv: list[str] | None = None) -> int:
    """`python -m streamopt.iree.build INPUT -o OUTPUT.vmfb [--device NAME ...] [--expand]`."""
    import argparse
    import sys

    # Imported when first needed: start-up time.
    from streamopt.diagnostics import Diagnostic, Location, Source, render
    from streamopt.iree.tools import ToolMissing

    parser = argparse.ArgumentParser(
        prog="python -m streamopt.iree.build",
        description="Build a program (a source iree-compile takes, or a dump IREE printed "
        "before ElideAsyncCopies) into a .vmfb with streamopt's moves.",
    )
    parser.add_argument("input", type=Path)
    parser.add_argument("-o", "--output", type=Path, required=True, help="the .vmfb to write")
    parser.add_argument(
        "--device",
        action="append",
        dest="devices",
        metavar="NAME",
        help="the program's devices, in the order the runtime gives them (default: the "
        "devices it names, sorted for a source program, as declared for a dump)",
    )
    parser.add_argument(
        "--expand",
        action="store_true",
        help="expand moves into alloca + copy + dealloca at compile time (the .vmfb then "
        "needs no move module)",
    )
    args = parser.parse_args(argv)
    try:
        program = build_vmfb(args.input, args.output, args.devices, args.expand)
    except (DiagnosticError, ToolMissing, OSError) as exc:
        # An error with no place in a file is reported at INPUT, as streamopt-run does.
        at_input = Location(Source(str(args.input), ""), 0, 0)
        diagnostics = (
            exc.diagnostics
            if isinstance(exc, DiagnosticError)
            else [Diagnostic("error", str(exc), at_input)]
        )
        for diagnostic in diagnostics:
            if diagnostic.location.source is None:
                diagnostic = Diagnostic("error", diagnostic.message, at_input, diagnostic.notes)
            print(render(diagnostic), file=sys.stderr)
        return 1
    modules = "none" if args.expand else "streamopt.iree.moves.QueueMoves"
    print(
        f"{args.output}: devices {', '.join(program.devices)} (in this order); "
        f"move module: {modules}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
