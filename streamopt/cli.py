"""The `streamopt` command: read IR, run passes in command-line order, print IR.

    streamopt [INPUT|-] [-o OUT] [--split-input-file] [--verify-diagnostics]
              [--print-ir-after-all] [--stats] [--pass-pipeline=a,b] [--<pass> ...]

IR goes to stdout (or -o) as plain text; diagnostics go to stderr as
`file:line:col: error: message` with the source line and a caret. Exit status: 0 on success, 1
when there were diagnostics, 2 for usage errors, 70 for an internal error.
"""

from __future__ import annotations

import gc
import os
import re
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

import click

from streamopt.diagnostics import (
    Diagnostic,
    DiagnosticError,
    Location,
    Source,
    displayable,
    encode_output,
    read_source,
    render,
)

if TYPE_CHECKING:
    from streamopt.atomic_file import AtomicFile

T = TypeVar("T")

SPLIT_MARKER = re.compile(r"^// -----[ \t]*$", re.MULTILINE)
EXIT_INTERNAL = 70


@dataclass
class Chunk:
    """One piece of a split input: its text and the line it starts at in the file."""

    text: str
    line_offset: int


def split_input(text: str, split: bool) -> list[Chunk]:
    """Split `text` on `// -----` lines (when `split`), keeping file line numbers."""
    if not split:
        return [Chunk(text, 0)]
    chunks: list[Chunk] = []
    start = 0
    line = 0
    for match in SPLIT_MARKER.finditer(text):
        piece = text[start : match.start()]
        chunks.append(Chunk(piece, line))
        line += piece.count("\n") + 1
        start = match.end() + 1 if text[match.end() : match.end() + 1] == "\n" else match.end()
    chunks.append(Chunk(text[start:], line))
    return chunks


def _pass_flags() -> dict[str, str]:
    """Each pass flag with its summary, from the index (no pass module is imported)."""
    from streamopt.passes import PASS_INDEX

    return {flag: entry.summary for flag, entry in PASS_INDEX.items()}


class _PassFlagCommand(click.Command):
    """A click command that lists the registered passes in `--help`."""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_help(ctx, formatter)
        rows = [(f"--{flag}", summary) for flag, summary in _pass_flags().items()]
        with formatter.section("Passes (run in the order given)"):
            formatter.write_dl(rows)


def _append_pass(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        ctx.ensure_object(dict).setdefault("pipeline", []).append(param.name.replace("_", "-"))


def _append_pipeline(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if not value:
        return
    known = _pass_flags()
    text = value.strip()
    # Accept `builtin.module(a,b)` as mlir-opt writes pipelines, and plain `a,b`.
    inner = re.fullmatch(r"(?:builtin\.module)?\((.*)\)", text)
    if inner:
        text = inner.group(1)
    for name in [n.strip() for n in text.split(",") if n.strip()]:
        if name not in known:
            raise click.BadParameter(f"unknown pass '{name}'", ctx=ctx, param=param)
        ctx.ensure_object(dict).setdefault("pipeline", []).append(name)


def _pass_options(function: Any) -> Any:
    for flag, summary in reversed(list(_pass_flags().items())):
        function = click.option(
            f"--{flag}",
            is_flag=True,
            expose_value=False,
            callback=_append_pass,
            help=summary,
            # Listed once, in the "Passes" section of --help.
            hidden=True,
        )(function)
    return function


@click.command(cls=_PassFlagCommand, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("input_file", default="-", metavar="[INPUT|-]", type=click.Path(allow_dash=True))
@click.option("-o", "output_file", default="-", metavar="OUT", help="Write output here.")
@click.option("--split-input-file", is_flag=True, help="Process each '// -----' chunk separately.")
@click.option(
    "--verify-diagnostics",
    is_flag=True,
    help="Check diagnostics against '// expected-error @+1 {{...}}' comments.",
)
@click.option("--print-ir-after-all", is_flag=True, help="Print the IR to stderr after each pass.")
@click.option("--stats", is_flag=True, help="Print pass statistics to stderr.")
@click.option(
    "--pass-pipeline",
    metavar="PASSES",
    expose_value=False,
    callback=_append_pipeline,
    help="Comma-separated pass flags (without --), e.g. 'canonicalize,elide-async-copies'.",
)
@click.option("--no-verify", is_flag=True, help="Do not verify the IR after each pass.")
@click.option(
    "--allow-unregistered-dialect",
    is_flag=True,
    help="Keep ops (generic form), attributes and types of dialects iree-opt does not register.",
)
@_pass_options
@click.pass_context
def command(
    ctx: click.Context,
    input_file: str,
    output_file: str,
    split_input_file: bool,
    verify_diagnostics: bool,
    print_ir_after_all: bool,
    stats: bool,
    no_verify: bool,
    allow_unregistered_dialect: bool,
) -> None:
    """Parse stream/hal IR, run the given passes in order, and print the result."""
    pipeline: list[str] = (ctx.obj or {}).get("pipeline", [])
    try:
        if input_file == "-":
            text = _read_stdin()
            name = "<stdin>"
        else:
            with open(input_file, "rb") as handle:
                text = read_source(handle)
            name = input_file
    except OSError as exc:
        click.echo(f"streamopt: error: cannot read '{input_file}': {exc.strerror}", err=True)
        ctx.exit(1)
    driver = Driver(pipeline, print_ir_after_all, stats, not no_verify, allow_unregistered_dialect)
    # Each chunk's text as the printer's pieces: a large module is written out without being
    # joined into one string (which would double the memory its text takes). A file gets them
    # as they are printed, so that there the text is never held at all.
    outputs: list[list[str]] = []
    target = None
    if output_file != "-":
        from streamopt.atomic_file import AtomicFile

        target = AtomicFile(output_file)
        ctx.call_on_close(target.discard)  # Also when a bug ends the run.
    failed = False
    for chunk in split_input(text, split_input_file):
        source = Source(name, chunk.text, chunk.line_offset)
        pieces: list[str] = []
        write: Callable[[str], object] = pieces.append
        if target is not None:
            mark = target.tell()
            if outputs:
                target.write(b"// -----\n")
            write = _encoding_writer(target)
        printed, diagnostics = driver.process(source, write)
        if verify_diagnostics:
            if not check_expected_diagnostics(source, diagnostics):
                failed = True
        elif diagnostics:
            failed = True
            for diagnostic in diagnostics:
                click.echo(render(diagnostic), err=True)
        if printed:
            outputs.append(pieces)
        elif target is not None:
            target.truncate(mark)  # What was printed before the printer refused.
    if target is None:
        _write_stdout(outputs)
    elif not failed:
        # A failed run leaves an existing output file as it was.
        try:
            target.commit()
        except OSError as exc:
            click.echo(f"streamopt: error: cannot write '{output_file}': {exc.strerror}", err=True)
            failed = True
    if stats:
        click.echo(driver.statistics_text(), err=True, nl=False)
    ctx.exit(EXIT_INTERNAL if driver.internal_error else 1 if failed else 0)


def _read_stdin() -> str:
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # A text stream with no bytes under it (a test's StringIO).
        return sys.stdin.read()
    return read_source(buffer)


def _write_stdout(outputs: list[list[str]]) -> None:
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # A text stream with no bytes under it (a test's StringIO).
        for piece in _chunk_pieces(outputs):
            sys.stdout.write(displayable(piece))
    else:
        for data in _encoded_chunks(outputs):
            buffer.write(data)
        buffer.flush()


def _encoding_writer(target: AtomicFile) -> Callable[[str], None]:
    """A function writing printed text to `target` as bytes (see `encode_output`)."""
    write = target.write
    return lambda text: write(encode_output(text))


def _chunk_pieces(outputs: list[list[str]]) -> Iterable[str]:
    """The chunks' texts, piece by piece, separated by `// -----` lines."""
    for index, pieces in enumerate(outputs):
        if index:
            yield "// -----\n"
        yield from pieces


def _encoded_chunks(outputs: list[list[str]]) -> Iterable[bytes]:
    """`_chunk_pieces` as bytes (see `encode_output`)."""
    for piece in _chunk_pieces(outputs):
        yield encode_output(piece)


class Driver:
    """Runs parse, passes and print on one chunk, collecting diagnostics."""

    def __init__(
        self,
        pipeline: list[str],
        print_ir_after_all: bool,
        stats: bool,
        verify: bool,
        allow_unregistered_dialect: bool = False,
    ):
        self.pipeline = pipeline
        self.print_ir_after_all = print_ir_after_all
        self.stats = stats
        self.verify = verify
        self.allow_unregistered_dialect = allow_unregistered_dialect
        self.managers: list[Any] = []
        # Set when a chunk hit a bug in streamopt (the exit status is then EXIT_INTERNAL).
        self.internal_error = False

    def process(
        self, source: Source, write: Callable[[str], object]
    ) -> tuple[bool, list[Diagnostic]]:
        """Whether the chunk was printed, its text handed to `write` piece by piece (when it
        was not, `write` may have had what was printed before the printer refused), and the
        chunk's diagnostics."""
        from streamopt.ir.verify import verify_module
        from streamopt.parser import parse_module
        from streamopt.passes import PassManager
        from streamopt.printer import UnprintableError, print_module_blocks

        try:
            module = parse_module(
                source.text, source.name, source.line_offset, self.allow_unregistered_dialect
            )
            verify_module(module)
            manager = PassManager.from_flags(
                self.pipeline,
                verify_each=self.verify,
                after_pass=self._dump_after if self.print_ir_after_all else None,
            )
            self.managers.append(manager)
            manager.run(module)
            for piece in print_module_blocks(module, write):
                write(piece)
            write("\n")
            return True, []
        except DiagnosticError as exc:
            return False, exc.diagnostics
        except UnprintableError as exc:
            # A bug, located at the op it would have printed wrongly: refuse, do not print.
            self.internal_error = True
            return False, [exc.diagnostic]

    @staticmethod
    def _dump_after(pass_: Any, module: Any) -> None:
        from streamopt.printer import print_module

        header = f"// -----// IR Dump After {pass_.name} ({pass_.flag}) //----- //"
        click.echo(displayable(header + "\n" + print_module(module)), err=True)

    def statistics_text(self) -> str:
        if not self.managers:
            return ""
        # Sum statistics across split chunks, as mlir-opt reports one table per run.
        first = self.managers[0]
        for other in self.managers[1:]:
            for mine, theirs in zip(first.passes, other.passes):
                for key, statistic in theirs.statistics.items():
                    if key in mine.statistics:
                        mine.statistics[key].value += statistic.value
                    else:
                        mine.statistics[key] = statistic
                mine.report_lines.extend(theirs.report_lines)
        text: str = first.statistics_report()
        return text


_EXPECTED = re.compile(
    r"//\s*expected-(error|warning|note|remark)\s*(@(?:[+-]\d+|above|below))?\s*\{\{(.*?)\}\}"
)


@dataclass
class _Expectation:
    severity: str
    line: int
    message: str
    comment_line: int
    matched: bool = False


def check_expected_diagnostics(source: Source, diagnostics: list[Diagnostic]) -> bool:
    """MLIR's --verify-diagnostics: every diagnostic must be expected and vice versa.

    `// expected-error {{msg}}` applies to its own line, `@+N`/`@-N` to a line relative to it;
    the message must contain `msg`. Problems are reported on stderr; returns True when clean.
    """
    expectations: list[_Expectation] = []
    for index, line_text in enumerate(source.text.split("\n")):
        line = index + 1 + source.line_offset
        for match in _EXPECTED.finditer(line_text):
            offset = match.group(2)
            target = line
            if offset in ("@above",):
                target = line - 1
            elif offset in ("@below",):
                target = line + 1
            elif offset:
                target = line + int(offset[1:])
            expectations.append(_Expectation(match.group(1), target, match.group(3), line))
    ok = True
    flat: list[Diagnostic] = []
    for diagnostic in diagnostics:
        flat.append(diagnostic)
        flat.extend(diagnostic.notes)
    for diagnostic in flat:
        found = next(
            (
                e
                for e in expectations
                if not e.matched
                and e.severity == diagnostic.severity
                and e.line == diagnostic.location.line
                and e.message in diagnostic.message
            ),
            None,
        )
        if found is None:
            if diagnostic.severity == "note" and diagnostic not in diagnostics:
                # Notes only need an expectation when a test spells one out.
                continue
            ok = False
            click.echo(
                render(
                    Diagnostic(
                        "error",
                        f"unexpected {diagnostic.severity}: {diagnostic.message}",
                        diagnostic.location,
                    )
                ),
                err=True,
            )
        else:
            found.matched = True
    for expectation in expectations:
        if not expectation.matched:
            ok = False
            location = Location(source, expectation.comment_line, 1)
            click.echo(
                render(
                    Diagnostic(
                        "error",
                        f'expected {expectation.severity} "{expectation.message}" was not produced',
                        location,
                    )
                ),
                err=True,
            )
    return ok


# The printer, the verifiers and the analyses recurse once or a few times per level of nesting
# (regions, attributes), and the parser accepts MAX_NESTING levels (see streamopt.parser): the
# tools run in a thread with room for that. The stack is reserved, not used, until it is needed.
_STACK_BYTES = 512 << 20
_RECURSION_LIMIT = 1_000_000


def call_with_deep_stack(function: Callable[[], T]) -> T:
    """`function()`, run in a thread with a stack and a recursion limit for deeply nested IR
    (in this thread if no such thread can be made)."""
    outcome: list[tuple[bool, Any]] = []

    def target() -> None:
        try:
            outcome.append((True, function()))
        except BaseException as exc:
            outcome.append((False, exc))

    previous_limit = sys.getrecursionlimit()
    try:
        previous_size = threading.stack_size(_STACK_BYTES)
    except (ValueError, RuntimeError):
        return function()
    try:
        sys.setrecursionlimit(max(previous_limit, _RECURSION_LIMIT))
        thread = threading.Thread(target=target, name=function.__qualname__, daemon=True)
        try:
            thread.start()
        except RuntimeError:
            outcome.append((True, function()))
        else:
            thread.join()
    finally:
        threading.stack_size(previous_size)
        sys.setrecursionlimit(previous_limit)
    returned, value = outcome[0]
    if returned:
        return cast(T, value)
    raise value


def run_command(tool: click.Command, program: str) -> None:
    """Run a click command as a console script: its exit status, and a short report instead
    of a traceback if it crashes (exit 70)."""
    # One short run that keeps its IR until the end: the cyclic collector would only rescan
    # millions of live objects (superlinear on large inputs) and find nothing to free.
    gc.disable()
    try:
        # Without standalone mode click returns ctx.exit()'s code instead of raising Exit.
        code = call_with_deep_stack(lambda: tool.main(standalone_mode=False))
        sys.exit(code if isinstance(code, int) else 0)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except (click.exceptions.Abort, KeyboardInterrupt):
        sys.exit(1)
    except BrokenPipeError:
        sys.exit(1)
    except Exception as exc:
        import traceback  # Only here: importing it costs every run a few milliseconds.

        frame = traceback.extract_tb(exc.__traceback__)[-1]
        sys.stderr.write(
            f"{program}: internal error: {type(exc).__name__}: {exc}\n"
            f"  at {frame.filename}:{frame.lineno} in {frame.name}\n"
            "  This is a bug in streamopt; please report it with the input that caused it.\n"
        )
        sys.exit(EXIT_INTERNAL)


def main() -> None:
    """Run `streamopt` on `sys.argv`; ends by raising SystemExit with the exit status (so it
    can be called in-process, as the tests do)."""
    run_command(command, "streamopt")


def console_main() -> NoReturn:
    """Console-script entry point of `streamopt`: `main()`, then end the process at once."""
    exit_without_teardown(main)


def exit_without_teardown(function: Callable[[], object]) -> NoReturn:
    """Run `function` (which ends with SystemExit), flush stdout and stderr, and end the
    process with its exit status without the interpreter's teardown.

    The teardown only frees memory the operating system takes back anyway, and it costs: it
    walks every object still alive, which is about a third of a short run's time and seconds
    after a big input (mypy ends its runs the same way). Nothing in the `streamopt` command
    needs it: it registers no exit handlers and closes its output files itself.
    """
    try:
        function()
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # sys.exit("message") prints the message and exits 1, as the interpreter does.
        sys.stderr.write(f"{code}\n")
        status = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # A closed pipe, or a stream already closed.
            status = status or 1
    os._exit(status)


if __name__ == "__main__":
    console_main()
