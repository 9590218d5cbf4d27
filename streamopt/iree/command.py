"""`streamopt-run FILE --backend iree`: build FILE with streamopt's passes inside IREE's
pipeline, run it on IREE's runtime and print its results as the reference backend does.

`--compare` also builds FILE with plain IREE and fails (exit 1) unless both builds give
byte-identical results. Errors of IREE's tools and runtime are streamopt diagnostics naming the
failing stage (exit 1). `--iree-module FILE.py` adds a module supplied at run time: the file
defines `extension()`, returning a `run.RuntimeExtension` whose VM modules are put in the
context beside the HAL module (how an implementation of a function the program imports is
supplied).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from streamopt.diagnostics import (
    UNKNOWN_LOCATION,
    Diagnostic,
    DiagnosticError,
    Location,
    Source,
    render,
)
from streamopt.iree.build import (
    STREAMOPT_PASSES,
    Build,
    Program,
    build_plain,
    build_streamopt,
)
from streamopt.iree.run import IreeRun, RuntimeExtension, RuntimeMissing, run_vmfb
from streamopt.iree.tools import ToolMissing
from streamopt.run_cli import first_difference


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
    passes: Sequence[str] = tuple(STREAMOPT_PASSES)
    """streamopt's passes in the streamopt build (a later layer may lower moves instead of
    expanding them)."""


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
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 132)
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
            builds: list[tuple[Build, IreeRun]] = []
            streamopt_build = build_streamopt(
                program, work, list(options.passes), verify=options.verify
            )
            builds.append((streamopt_build, _run(streamopt_build, program, options, extensions)))
            if options.compare:
                plain = build_plain(program, work)
                builds.append((plain, _run(plain, program, options, ())))
    except (DiagnosticError, ToolMissing, RuntimeMissing) as exc:
        diagnostics = (
            exc.diagnostics
            if isinstance(exc, DiagnosticError)
            else [Diagnostic("error", str(exc), UNKNOWN_LOCATION)]
        )
        for diagnostic in diagnostics:
            click.echo(render(_at_input(diagnostic, options.path)), err=True)
        return 1
    result = builds[0][1]
    for index, output in enumerate(result.outputs):
        click.echo(f"result[{index}]: {output.text}")
    if not options.no_table:
        console.print(_stage_table(builds, program))
    failed = False
    if options.compare:
        difference = first_difference(builds[1][1], result)
        if difference is not None:
            failed = True
            message = f"the streamopt build computes different bytes than plain IREE: {difference}"
            click.echo(
                render(_at_input(Diagnostic("error", message, UNKNOWN_LOCATION), options.path)),
                err=True,
            )
    if options.report_path:
        report = _report(builds, program, options)
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
    build: Build, program: Program, options: IreeOptions, extensions: Sequence[RuntimeExtension]
) -> IreeRun:
    return run_vmfb(build.vmfb, program.devices, options.function, options.inputs, extensions)


def _stage_table(builds: list[tuple[Build, IreeRun]], program: Program) -> Table:
    devices = ", ".join(program.devices)
    table = Table(
        title=f"@{builds[0][1].function} on IREE's runtime ({len(program.devices)} local-task "
        f"devices: {devices})",
        title_justify="left",
    )
    for column in ("build", "stage", "seconds", "same bytes"):
        table.add_column(column, justify="right" if column == "seconds" else "left")
    reference = builds[-1][1] if len(builds) > 1 else None
    for build, run in builds:
        same = (
            ""
            if reference is None
            else ("yes" if first_difference(reference, run) is None else "NO")
        )
        for index, timing in enumerate(build.timings):
            table.add_row(build.name if index == 0 else "", timing.stage, f"{timing.seconds:.2f}",
                          same if index == 0 else "")  # fmt: skip
        table.add_row("", "run", f"{run.seconds:.2f}", "")
    return table


def _report(
    builds: list[tuple[Build, IreeRun]], program: Program, options: IreeOptions
) -> dict[str, Any]:
    result = builds[0][1]
    report: dict[str, Any] = {
        "backend": "iree",
        "function": result.function,
        "outputs": [o.text for o in result.outputs],
        "input_kind": program.kind.value,
        "devices": program.devices,
        "builds": [
            {
                "build": build.name,
                "vmfb": str(build.vmfb) if options.keep_dir else None,
                "stages": [{"stage": t.stage, "seconds": t.seconds} for t in build.timings],
                "run_seconds": run.seconds,
                "outputs": [o.text for o in run.outputs],
                "allocator_statistics": run.allocator_statistics,
            }
            for build, run in builds
        ],
    }
    for extension_report in result.extension_reports:
        report.update(extension_report)
    if options.compare:
        report["same_bytes"] = first_difference(builds[1][1], result) is None
    return report
