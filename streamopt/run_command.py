"""The `streamopt-run` command: run a program on the reference runtime and report what it cost.

    streamopt-run FILE [--function NAME] [--input V ...] [--topology FILE] [--trace OUT.json]
                  [--report-json OUT.json] [--compare] [--no-table] [--no-verify]

Prints the function's results (as iree-run-module prints them) and a table per device: queue
ops, bytes copied (and how many of them by moves), bytes allocated and peak resident bytes, and
how many moves aliased or copied (with the reasons). `--compare` also runs the program after
`--elide-async-copies`, then lowered to cmd and to hal, each also with its moves expanded
(each form whose passes are registered) and fails unless every form computes the same bytes.
Errors print as `file:line:col: error: message` and exit with status 1.

`--backend iree` (with `--keep-vmfb DIR`, `--iree-device NAME`, `--iree-module FILE.py`,
`--iree-moves HOW`) builds FILE with streamopt's passes inside IREE's compiler and runs it on
IREE's runtime instead; it is `streamopt.iree.run_backend`, imported only then (the rest of
streamopt never imports IREE).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any, NoReturn

import click

from streamopt.diagnostics import Diagnostic, DiagnosticError, read_source, render
from streamopt.opt_command import run_command
from streamopt.text_table import TextColumn, TextTable, show

COMPARE_FORMS: list[tuple[str, list[str]]] = [
    ("as given", []),
    ("elided", ["elide-async-copies"]),
    ("lowered to cmd", ["elide-async-copies", "lower-to-cmd"]),
    ("cmd, moves expanded", ["elide-async-copies", "lower-to-cmd", "expand-cmd-moves"]),
    ("lowered to hal", ["elide-async-copies", "lower-to-hal"]),
    ("hal, moves expanded", ["elide-async-copies", "lower-to-hal", "expand-moves"]),
]
"""The forms `--compare` runs: a name and the passes that make it from the input."""


@dataclass
class FormRun:
    """One form of the program `--compare` ran (or skipped)."""

    name: str
    flags: list[str]
    result: Any = None
    skipped: str | None = None


class RunError(Exception):
    """A failure already rendered for the user."""


PROGRAM = "streamopt-run"

# Said under the results of the reference runtime, whose dispatches do not run the kernels.
STAND_IN_NOTE = (
    "note: results come from stand-in kernels (a fixed function of each kernel and its"
    " inputs), not the program's own; --backend iree runs the real ones"
)


def _fail(message: str) -> NoReturn:
    """Report `message` as `streamopt` reports what it cannot do (`streamopt-run: error:
    ...`), and exit with status 1."""
    click.echo(f"{PROGRAM}: error: {message}", err=True)
    sys.exit(1)


def _load(path: str) -> tuple[str, str]:
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        return (read_source(buffer) if buffer is not None else sys.stdin.read()), "<stdin>"
    try:
        with open(path, "rb") as handle:
            return read_source(handle), path
    except OSError as exc:
        _fail(f"cannot read '{path}': {exc.strerror}")


def _parse_and_lower(
    text: str,
    name: str,
    flags: list[str],
    verify: bool = True,
    allow_unregistered_dialect: bool = False,
) -> Any:
    # Imported when first needed: start-up time.
    from streamopt.ir.verify import verify_module
    from streamopt.parser import parse_module
    from streamopt.passes import PassManager

    module = parse_module(text, name, allow_unregistered_dialect=allow_unregistered_dialect)
    if verify:
        verify_module(module)
    PassManager.from_flags(flags, verify_each=verify).run(module)
    return module


def _topology(path: str | None) -> Any:
    if path is None or path == "default":
        # Imported when first needed: start-up time.
        from streamopt.runtime.topology import default_topology

        return default_topology() if path == "default" else None
    # Imported when first needed: start-up time.
    from streamopt.runtime.topology import load_topology

    try:
        return load_topology(path)
    except (OSError, ValueError) as exc:
        _fail(f"--topology {path}: {exc}")


def run_form(
    text: str,
    name: str,
    flags: list[str],
    function: str | None,
    inputs: list[str],
    topology: Any,
    verify: bool = True,
    allow_unregistered_dialect: bool = False,
) -> Any:
    """Parse `text`, run passes `flags`, and run the program (a `RunResult`)."""
    # Imported when first needed: start-up time.
    from streamopt.runtime.interpreter import run_module

    module = _parse_and_lower(text, name, flags, verify, allow_unregistered_dialect)
    return run_module(module, function, inputs or None, topology)


def compare_forms(
    text: str,
    name: str,
    function: str | None,
    inputs: list[str],
    topology_path: str | None,
    verify: bool = True,
    allow_unregistered_dialect: bool = False,
) -> list[FormRun]:
    """Run each form of COMPARE_FORMS whose passes are registered."""
    # Imported when first needed: start-up time.
    from streamopt.passes import load_all

    registered = load_all()
    forms: list[FormRun] = []
    for form_name, flags in COMPARE_FORMS:
        missing = [flag for flag in flags if flag not in registered]
        form = FormRun(form_name, flags)
        if missing:
            form.skipped = "not registered: " + ", ".join(f"--{flag}" for flag in missing)
        else:
            try:
                form.result = run_form(
                    text, name, flags, function, inputs, _topology(topology_path), verify,
                    allow_unregistered_dialect,
                )  # fmt: skip
            except DiagnosticError as exc:
                label = " ".join(f"--{f}" for f in flags) or "as given"
                raise DiagnosticError(
                    [_with_context(d, f"[{label}] ") for d in exc.diagnostics]
                ) from None
        forms.append(form)
    return forms


def _with_context(diagnostic: Diagnostic, prefix: str) -> Diagnostic:
    return Diagnostic(
        diagnostic.severity, prefix + diagnostic.message, diagnostic.location, diagnostic.notes
    )


def _compare_table(forms: list[FormRun]) -> TextTable:
    # Imported when first needed: start-up time.
    from streamopt.runtime.interpreter.report import first_difference, human_bytes

    figures = ("copied", "by moves", "moves alias/copy", "allocated", "peak")
    table = TextTable(
        "forms compared",
        [
            TextColumn("form", wrap=True),
            TextColumn("same bytes"),
            *(TextColumn(header, right=True) for header in figures),
        ],
    )
    reference = next((f.result for f in forms if f.result is not None), None)
    for form in forms:
        label = form.name
        if form.result is None:
            table.add_row(label, "skipped", "", "", "", "", "")
            continue
        report = form.result.report()
        same = "yes" if first_difference(reference, form.result) is None else "NO"
        table.add_row(
            label,
            same,
            human_bytes(report["bytes_copied"]["total"]),
            human_bytes(report["bytes_copied_by_moves"]["total"]),
            f"{report['moves_aliased']}/{report['moves_copied']}",
            human_bytes(report["bytes_allocated"]["total"]),
            human_bytes(report["peak_bytes"]["total"]),
        )
    return table


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("input_file", metavar="FILE", type=click.Path(allow_dash=True))
@click.option("--function", "function", metavar="NAME", help="Function to run (default: main).")
@click.option(
    "--input",
    "inputs",
    multiple=True,
    metavar="VALUE",
    help="An argument, in order: 4xf32=1.5, 2xi32=1,2, i32=3, 3 or file.npy (default: made "
    "up from the function's ABI).",
)
@click.option(
    "--topology",
    metavar="FILE",
    help="Devices and memory (JSON or TOML; 'default' for two CPUs and a discrete device). "
    "The module's device globals bind to its devices by name, else in order.",
)
@click.option("--trace", "trace_path", metavar="OUT", help="Write a Chrome trace of queue ops.")
@click.option("--report-json", "report_path", metavar="OUT", help="Write the report as JSON.")
@click.option(
    "--compare",
    is_flag=True,
    help="Also run the program after --elide-async-copies, --lower-to-hal and --expand-moves "
    "(those registered) and fail unless all compute the same bytes. With --backend iree: also "
    "build it with plain IREE and fail unless both builds give the same bytes.",
)
@click.option(
    "--backend",
    type=click.Choice(["reference", "iree"]),
    default="reference",
    show_default=True,
    help="reference: streamopt's Python runtime. iree: build FILE (a program iree-compile "
    "accepts, or a dump before ElideAsyncCopies) with streamopt's passes inside IREE's "
    "pipeline and run it on IREE's runtime; --compare then also builds it with plain IREE.",
)
@click.option(
    "--keep-vmfb",
    "keep_dir",
    metavar="DIR",
    help="With --backend iree: keep the .vmfb of each build (and the IR between stages) in DIR.",
)
@click.option(
    "--iree-device",
    "iree_devices",
    multiple=True,
    metavar="NAME",
    help="With --backend iree: the devices, in order (default: those the program names).",
)
@click.option(
    "--iree-module",
    "iree_modules",
    multiple=True,
    metavar="FILE.py",
    help="With --backend iree: a Python file whose extension() supplies VM modules at run time.",
)
@click.option(
    "--iree-moves",
    "iree_moves",
    type=click.Choice(["runtime", "force-copy", "require-alias", "expand"]),
    help="With --backend iree: how moves run. runtime (default): each move is a call of "
    "streamopt's queue_move, which aliases or copies as the run decides; force-copy: every "
    "move copies; require-alias: a move that must copy is an error; expand: moves are "
    "expanded into copies at compile time.",
)
@click.option("--no-table", is_flag=True, help="Print the results only.")
@click.option(
    "--no-verify",
    is_flag=True,
    help="Run IR the verifier rejects (as a buggy pass could leave it): a use after move is "
    "then reported when it happens.",
)
@click.option(
    "--allow-unregistered-dialect",
    is_flag=True,
    help="Keep ops (generic form), attributes and types of dialects iree-opt does not "
    "register, as streamopt's flag does (not with --backend iree).",
)
def command(
    input_file: str,
    function: str | None,
    inputs: tuple[str, ...],
    topology: str | None,
    trace_path: str | None,
    report_path: str | None,
    compare: bool,
    backend: str,
    keep_dir: str | None,
    iree_devices: tuple[str, ...],
    iree_modules: tuple[str, ...],
    iree_moves: str | None,
    no_table: bool,
    no_verify: bool,
    allow_unregistered_dialect: bool,
) -> None:
    """Run FILE on the reference runtime (or IREE's): print its results and what the run
    cost."""
    text, name = _load(input_file)
    if backend == "iree" and allow_unregistered_dialect:
        # IREE's compiler registers no more dialects than iree-opt: such ops would only fail
        # later, in iree-compile.
        raise click.UsageError("--allow-unregistered-dialect needs the reference backend")
    if backend == "iree":
        # Imported only here: the rest of streamopt runs without IREE installed.
        from streamopt.iree.run_backend import IreeOptions, run_iree

        options = IreeOptions(
            path=input_file, text=text, function=function, inputs=inputs, compare=compare,
            report_path=report_path, keep_dir=keep_dir, devices=iree_devices,
            extension_paths=iree_modules, no_table=no_table, verify=not no_verify,
            moves=iree_moves or "runtime",
        )  # fmt: skip
        sys.exit(run_iree(options))
    if keep_dir or iree_devices or iree_modules or iree_moves:
        raise click.UsageError(
            "--keep-vmfb, --iree-device, --iree-module and --iree-moves need --backend iree"
        )
    try:
        if compare:
            forms = compare_forms(
                text, name, function, list(inputs), topology, not no_verify,
                allow_unregistered_dialect,
            )  # fmt: skip
            result = forms[0].result
        else:
            forms = []
            result = run_form(
                text, name, [], function, list(inputs), _topology(topology), not no_verify,
                allow_unregistered_dialect,
            )  # fmt: skip
    except DiagnosticError as exc:
        for diagnostic in exc.diagnostics:
            click.echo(render(diagnostic, PROGRAM), err=True)
        sys.exit(1)
    for index, output in enumerate(result.outputs):
        click.echo(f"result[{index}]: {output.text}")
    report = result.report()
    if not no_table:
        # Imported when first needed: start-up time.
        from streamopt.runtime.interpreter.report import moves_line, report_table

        title = f"@{result.function} on the reference runtime"
        tables: list[TextTable | str] = [report_table(report, title), moves_line(report)]
        if result.interpreter.stand_in_kernels:
            tables.insert(0, STAND_IN_NOTE)
        if compare:
            tables.append(_compare_table(forms))
        show(tables)
    failed = False
    if compare:
        # The reference runtime's modules load only for runs that use them (start-up time).
        from streamopt.runtime.interpreter.report import first_difference

        for form in forms:
            if form.skipped:
                click.echo(f"compare: skipped '{form.name}': {form.skipped}", err=True)
            elif form.result is not result:
                difference = first_difference(result, form.result)
                if difference is not None:
                    failed = True
                    click.echo(
                        render(
                            Diagnostic(
                                "error",
                                f"'{form.name}' computes different bytes: {difference}",
                                _function_location(result),
                            ),
                            PROGRAM,
                        ),
                        err=True,
                    )
        report["compare"] = [
            {
                "form": form.name,
                "passes": form.flags,
                "skipped": form.skipped,
                "same_bytes": None
                if form.result is None
                else first_difference(result, form.result) is None,
                "report": None if form.result is None else form.result.report(),
            }
            for form in forms
        ]
    if trace_path:
        result.interpreter.runtime.trace.write(trace_path)
    if report_path:
        with open(report_path, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=1)
            handle.write("\n")
    sys.exit(1 if failed else 0)


def _function_location(result: Any) -> Any:
    """Where the function a run called is defined (what a form mismatch is reported at)."""
    return result.interpreter.lookup_function(result.function, None).location


def main() -> None:
    """Console-script entry point of `streamopt-run`."""
    run_command(command, PROGRAM)


if __name__ == "__main__":
    main()
