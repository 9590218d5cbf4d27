"""`streamopt-run FILE --backend iree`: build FILE with streamopt's passes inside IREE's
pipeline, run it on IREE's runtime and print its results as the reference backend does.

The streamopt build's moves are calls of the runtime's `queue_move`, which `moves.QueueMoves`
supplies (each move aliases or copies as the run decides; `--iree-moves` can force every move
to copy, require every move to alias, or expand moves into copies at compile time instead).
The results print with a table of the stages and one of the moves per device pair (aliased,
copied and why, bytes). `--compare` also runs the same .vmfb with every move forced to copy and
builds FILE with plain IREE, and fails (exit 1) unless all of them give byte-identical
results. Errors of IREE's tools and runtime are streamopt diagnostics naming the failing stage
(exit 1). `--iree-module FILE.py` adds a module supplied at run time: the file
defines `extension()`, returning a `run.RuntimeExtension` whose VM modules are put in the
context beside the HAL module (how an implementation of a function the program imports is
supplied).
"""

from __future__ import annotations

import importlib.util
import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from streamopt.diagnostics import (
    UNKNOWN_LOCATION,
    Diagnostic,
    DiagnosticError,
    Location,
    Source,
    render,
)
from streamopt.iree.build import (
    EXPANDED_MOVES_PASSES,
    STREAMOPT_PASSES,
    Build,
    Program,
    build_plain,
    build_streamopt,
)
from streamopt.iree.moves import QueueMoves
from streamopt.iree.run import IreeRun, RuntimeExtension, RuntimeMissing, run_vmfb
from streamopt.iree.tools import ToolMissing
from streamopt.move_api import MoveFlags
from streamopt.runtime.interpreter.report import first_difference
from streamopt.text_table import TextColumn, TextTable, show

MOVE_CHOICES: dict[str, MoveFlags | None] = {
    "runtime": MoveFlags.NONE,
    "force-copy": MoveFlags.FORCE_COPY,
    "require-alias": MoveFlags.REQUIRE_ALIAS,
    "expand": None,
}
"""`--iree-moves`: the flags added to every move at run time, or None for moves expanded into
copies at compile time (`EXPANDED_MOVES_PASSES`)."""


@dataclass
class IreeOptions:
    """What `streamopt-run --backend iree` was asked for."""

    path: str
    text: str
    function: str | None
    inputs: Sequence[str]
    compare: bool
    report_path: str | None
    keep_dir: str | None
    devices: Sequence[str]
    extension_paths: Sequence[str]
    no_table: bool
    verify: bool
    moves: str = "runtime"
    """A key of `MOVE_CHOICES`."""

    @property
    def passes(self) -> list[str]:
        """streamopt's passes in the streamopt build."""
        return EXPANDED_MOVES_PASSES if self.moves == "expand" else STREAMOPT_PASSES

    @property
    def forced_flags(self) -> MoveFlags:
        return MOVE_CHOICES[self.moves] or MoveFlags.NONE


@dataclass
class BuildRun:
    """One run of a build: its label, the build, what it gave and what its moves did."""

    label: str
    build: Build
    run: IreeRun
    moves: QueueMoves
    new_build: bool = True
    """False when it reruns the .vmfb of the run before it."""


def load_extension(path: str) -> RuntimeExtension:
    """The extension a Python file supplies through its `extension()` function."""
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    if spec is None or spec.loader is None:
        raise click.UsageError(f"--iree-module {path}: cannot load it as a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    factory = getattr(module, "extension", None)
    if factory is None:
        raise click.UsageError(f"--iree-module {path}: defines no extension() function")
    extension: RuntimeExtension = factory()
    return extension


def run_iree(options: IreeOptions) -> int:
    """Do it all; return the exit status."""
    try:
        extensions = [load_extension(p) for p in options.extension_paths]
        with tempfile.TemporaryDirectory(prefix="streamopt-iree-") as scratch:
            work = Path(options.keep_dir) if options.keep_dir else Path(scratch)
            work.mkdir(parents=True, exist_ok=True)
            path = Path(options.path)
            if options.path == "-":
                path = work / "stdin.mlir"
                path.write_text(options.text, encoding="utf-8")
            program = Program.read(path, options.text, list(options.devices) or None)
            streamopt_build = build_streamopt(
                program, work, list(options.passes), verify=options.verify
            )
            runs = [
                _run("streamopt", streamopt_build, program, options, options.forced_flags,
                     extensions),
            ]  # fmt: skip
            if options.compare:
                if options.moves != "expand" and options.forced_flags != MoveFlags.FORCE_COPY:
                    forced = _run("streamopt, moves forced to copy", streamopt_build, program,
                                  options, MoveFlags.FORCE_COPY)  # fmt: skip
                    forced.new_build = False
                    runs.append(forced)
                plain = build_plain(program, work)
                runs.append(_run("plain", plain, program, options, MoveFlags.NONE))
    except (DiagnosticError, ToolMissing, RuntimeMissing) as exc:
        diagnostics = (
            exc.diagnostics
            if isinstance(exc, DiagnosticError)
            else [Diagnostic("error", str(exc), UNKNOWN_LOCATION)]
        )
        for diagnostic in diagnostics:
            click.echo(render(_at_input(diagnostic, options.path)), err=True)
        return 1
    result = runs[0].run
    for index, output in enumerate(result.outputs):
        click.echo(f"result[{index}]: {output.text}")
    if not options.no_table:
        tables = [_stage_table(runs, program)]
        if options.moves != "expand":
            tables.append(moves_table(runs))
        show(tables)
    failed = False
    if options.compare:
        reference = runs[-1]
        for other in runs[:-1]:
            difference = first_difference(reference.run, other.run)
            if difference is not None:
                failed = True
                message = (
                    f"the {other.label} build computes different bytes than plain IREE: "
                    f"{difference}"
                )
                click.echo(
                    render(_at_input(Diagnostic("error", message, UNKNOWN_LOCATION), options.path)),
                    err=True,
                )
    if options.report_path:
        report = _report(runs, program, options)
        with open(options.report_path, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=1)
            handle.write("\n")
    return 1 if failed else 0


def _at_input(diagnostic: Diagnostic, path: str) -> Diagnostic:
    """A diagnostic with no location is reported at the input file (`FILE: error: ...`)."""
    if diagnostic.location.source is not None:
        return diagnostic
    location = Location(Source(path, ""), 0, 0)
    return Diagnostic(diagnostic.severity, diagnostic.message, location, diagnostic.notes)


def _run(
    label: str,
    build: Build,
    program: Program,
    options: IreeOptions,
    forced_flags: MoveFlags,
    extensions: Sequence[RuntimeExtension] = (),
) -> BuildRun:
    """Run `build` with a fresh move module (every build gets one: a cmd-level input built by
    plain IREE imports it too) and `extensions`."""
    moves = QueueMoves(program.devices, forced_flags)
    run = run_vmfb(
        build.vmfb, program.devices, options.function, options.inputs, [moves, *extensions]
    )
    return BuildRun(label, build, run, moves)


def _stage_table(runs: list[BuildRun], program: Program) -> TextTable:
    devices = ", ".join(program.devices)
    table = TextTable(
        f"@{runs[0].run.function} on IREE's runtime ({len(program.devices)} local-task "
        f"devices: {devices})",
        [
            TextColumn("build", wrap=True),
            TextColumn("stage", wrap=True),
            TextColumn("seconds", right=True),
            TextColumn("same bytes"),
        ],
    )
    reference = runs[-1].run if len(runs) > 1 else None
    for entry in runs:
        same = (
            ""
            if reference is None
            else ("yes" if first_difference(reference, entry.run) is None else "NO")
        )
        timings = entry.build.timings if entry.new_build else []
        for index, timing in enumerate(timings):
            table.add_row(entry.label if index == 0 else "", timing.stage,
                          f"{timing.seconds:.2f}", same if index == 0 else "")  # fmt: skip
        if timings:
            table.add_row("", "run", f"{entry.run.seconds:.2f}", "")
        else:
            table.add_row(entry.label, "run (same .vmfb)", f"{entry.run.seconds:.2f}", same)
    return table


def moves_table(runs: list[BuildRun]) -> TextTable:
    """The moves of each run that made any, per device pair: how many aliased and copied, how
    many copies reused a buffer the target's pool kept, why they copied, and the bytes moved
    and copied."""
    # Imported when first needed: start-up time.
    from streamopt.runtime.interpreter.report import human_bytes

    counts = ("moves", "aliased", "copied", "reused")
    table = TextTable(
        "moves on IREE's runtime (queue_move)",
        [
            TextColumn("build", wrap=True),
            TextColumn("from -> to", wrap=True),
            *(TextColumn(column, right=True) for column in counts),
            TextColumn("why copied", wrap=True),
            TextColumn("moved", right=True),
            TextColumn("copied bytes", right=True),
        ],
    )
    for entry in runs:
        pairs = entry.moves.pairs
        if not pairs:
            continue
        for index, ((source, target), pair) in enumerate(pairs.items()):
            why = ", ".join(f"{name} {count}" for name, count in sorted(pair.reasons.items()))
            notes = [n for n in (f"{pair.rejected} rejected" if pair.rejected else "",
                                 f"{pair.failed} failed" if pair.failed else "") if n]  # fmt: skip
            table.add_row(
                entry.label if index == 0 else "",
                f"{source} -> {target}",
                str(pair.moves),
                str(pair.aliased),
                str(pair.copied),
                str(pair.reused),
                "; ".join([why, *notes] if why else notes) or "-",
                human_bytes(pair.bytes_moved),
                human_bytes(pair.bytes_copied),
            )
    if not table.rows:
        table.add_row("", "(no moves ran)", *[""] * 7)
    return table


def _report(runs: list[BuildRun], program: Program, options: IreeOptions) -> dict[str, Any]:
    result = runs[0].run
    report: dict[str, Any] = {
        "backend": "iree",
        "function": result.function,
        "outputs": [o.text for o in result.outputs],
        "input_kind": program.kind.value,
        "devices": program.devices,
        "moves": options.moves,
        "builds": [
            {
                "build": entry.label,
                "vmfb": str(entry.build.vmfb) if options.keep_dir else None,
                "stages": [{"stage": t.stage, "seconds": t.seconds} for t in entry.build.timings]
                if entry.new_build
                else [],
                "run_seconds": entry.run.seconds,
                "outputs": [o.text for o in entry.run.outputs],
                "allocator_statistics": entry.run.allocator_statistics,
                **entry.moves.report(),
            }
            for entry in runs
        ],
    }
    for extension_report in result.extension_reports:
        report.update(extension_report)
    if options.compare:
        report["same_bytes"] = all(
            first_difference(runs[-1].run, entry.run) is None for entry in runs[:-1]
        )
    return report
