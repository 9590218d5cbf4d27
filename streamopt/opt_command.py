"""The `streamopt` command: read IR, run passes in command-line order, print IR.

    streamopt [INPUT|-] [-o OUT] [--split-input-file] [--verify-diagnostics]
              [--mlir-print-debuginfo] [--print-ir-before-all] [--print-ir-after-all]
              [--stats] [--mlir-timing] [--no-verify] [--pass-pipeline=a,b] [--<pass> ...]

IR goes to stdout (or -o) as plain text, without locations unless `--mlir-print-debuginfo`
(as iree-opt prints it); diagnostics go to stderr as `file:line:col: error: message` with the
source line and a caret. Exit status: 0 on success, 1 when there were diagnostics, 2 for usage
errors, 70 for an internal error. As in mlir-opt, a long option may be spelled with one dash
(`-split-input-file`, see `mlir_style_argv`), and mlir-opt's names of the options are accepted
too (`--mlir-print-ir-after-all`, `--mlir-pass-statistics`).

The command's options are `OPTIONS` and the pass index; click builds the command from them
(`streamopt.opt_options`: --help, usage errors, every spelling click allows). A command line
that spells each option plainly, once, is read here without click (`plain_invocation`): lit runs
streamopt once per RUN line, and importing click is about a third of a short run. Both ways
end in `run(Invocation)`; a test checks that they read every command line alike.
"""

from __future__ import annotations

import gc
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar, cast

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
from streamopt.lazy_regex import lazy_compile

if TYPE_CHECKING:
    import click

    from streamopt.atomic_file import AtomicFile

T = TypeVar("T")

SPLIT_MARKER = lazy_compile(r"^// -----[ \t]*$", re.MULTILINE)
EXIT_INTERNAL = 70


class Chunk:
    """One piece of a split input: its text and the line it starts at in the file."""

    __slots__ = ("line_offset", "text")

    def __init__(self, text: str, line_offset: int) -> None:
        self.text = text
        self.line_offset = line_offset


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


class Option:
    """An option of the `streamopt` command besides the pass flags: its spelling (and other
    spellings of it, such as mlir-opt's), the `Invocation` attribute it sets, whether it takes
    a value, and its `--help` text."""

    __slots__ = ("aliases", "attribute", "help", "metavar", "spelling")

    def __init__(
        self,
        spelling: str,
        attribute: str,
        help: str,
        metavar: str | None = None,
        aliases: tuple[str, ...] = (),
    ):
        self.spelling = spelling
        self.attribute = attribute
        self.help = help
        # Options with a metavar take a value; the others are flags.
        self.metavar = metavar
        self.aliases = aliases

    @property
    def spellings(self) -> tuple[str, ...]:
        return (self.spelling, *self.aliases)


# In --help order. `--pass-pipeline` adds to `Invocation.pipeline`.
OPTIONS: tuple[Option, ...] = (
    Option("-o", "output_file", "Write output here.", metavar="OUT"),
    Option("--split-input-file", "split_input_file", "Process each '// -----' chunk separately."),
    Option(
        "--verify-diagnostics",
        "verify_diagnostics",
        "Check diagnostics against '// expected-error @+1 {{...}}' comments.",
    ),
    Option(
        "--mlir-print-debuginfo",
        "print_debuginfo",
        "Print debug locations (loc(...)); without it they are left out, as iree-opt does.",
    ),
    Option(
        "--print-ir-before-all",
        "print_ir_before_all",
        "Print the IR to stderr before each pass.",
        aliases=("--mlir-print-ir-before-all",),
    ),
    Option(
        "--print-ir-after-all",
        "print_ir_after_all",
        "Print the IR to stderr after each pass.",
        aliases=("--mlir-print-ir-after-all",),
    ),
    Option(
        "--stats",
        "stats",
        "Print pass statistics to stderr.",
        aliases=("--mlir-pass-statistics",),
    ),
    Option(
        "--mlir-timing",
        "timing",
        "Print how long parsing, each pass and printing took to stderr (MLIR's report).",
    ),
    Option(
        "--pass-pipeline",
        "pipeline",
        "Comma-separated pass flags (without --), e.g. 'canonicalize,elide-async-copies'.",
        metavar="PASSES",
    ),
    Option("--no-verify", "no_verify", "Do not verify the IR after each pass."),
    Option(
        "--allow-unregistered-dialect",
        "allow_unregistered_dialect",
        "Keep ops (generic form), attributes and types of dialects iree-opt does not register.",
    ),
)


class Invocation:
    """What one `streamopt` command line asks for."""

    __slots__ = (
        "allow_unregistered_dialect",
        "input_file",
        "no_verify",
        "output_file",
        "pipeline",
        "print_debuginfo",
        "print_ir_after_all",
        "print_ir_before_all",
        "split_input_file",
        "stats",
        "timing",
        "verify_diagnostics",
    )

    def __init__(
        self,
        input_file: str = "-",
        output_file: str = "-",
        split_input_file: bool = False,
        verify_diagnostics: bool = False,
        print_ir_after_all: bool = False,
        stats: bool = False,
        no_verify: bool = False,
        pipeline: Sequence[str] = (),
        allow_unregistered_dialect: bool = False,
        print_debuginfo: bool = False,
        print_ir_before_all: bool = False,
        timing: bool = False,
    ) -> None:
        self.input_file = input_file
        self.output_file = output_file
        self.split_input_file = split_input_file
        self.verify_diagnostics = verify_diagnostics
        self.print_ir_after_all = print_ir_after_all
        self.print_ir_before_all = print_ir_before_all
        self.print_debuginfo = print_debuginfo
        self.stats = stats
        self.timing = timing
        self.no_verify = no_verify
        self.allow_unregistered_dialect = allow_unregistered_dialect
        # Pass flags in the order they run.
        self.pipeline = list(pipeline)

    def as_dict(self) -> dict[str, object]:
        """Every attribute by name (for comparing two readings of a command line)."""
        return {name: getattr(self, name) for name in self.__slots__}


def pass_flags() -> dict[str, str]:
    """Each pass flag with its summary, from the index (no pass module is imported)."""
    # Imported when first needed: start-up time.
    from streamopt.passes import PASS_INDEX

    return {flag: entry.summary for flag, entry in PASS_INDEX.items()}


def pipeline_passes(text: str) -> list[str]:
    """The pass flags `--pass-pipeline` text names, in order (see `parse_pipeline`)."""
    # Imported when first needed: start-up time.
    from streamopt.passes import parse_pipeline

    return parse_pipeline(text)


_OPTIONS_BY_SPELLING = {spelling: option for option in OPTIONS for spelling in option.spellings}
# Set when a shell asks click for completions of the `streamopt` command.
_COMPLETION_VARIABLE = "_STREAMOPT_COMPLETE"

# Options click reads itself (they print something and exit): no `Invocation` attribute.
EAGER_OPTIONS = ("--help", "--version", "--list-passes")


def mlir_style_argv(argv: Sequence[str]) -> list[str]:
    """`argv` with each long option spelled with one dash, as mlir-opt accepts them
    (`-split-input-file`, `-pass-pipeline=cse`, `-elide-async-copies`), spelled with two.

    Only words that name an option or a pass change, and none after `--` or in the place of
    an option's value (`-o -x` writes to the file `-x`, as before)."""
    long_names = {
        spelling[2:]
        for option in OPTIONS
        for spelling in option.spellings
        if spelling.startswith("--")
    }
    long_names.update(name[2:] for name in EAGER_OPTIONS)
    long_names.update(pass_flags())
    takes_value = {
        spelling for option in OPTIONS if option.metavar for spelling in option.spellings
    }
    out: list[str] = []
    index = 0
    while index < len(argv):
        word = argv[index]
        index += 1
        if word == "--":
            out.extend(argv[index - 1 :])
            break
        if word.startswith("-") and not word.startswith("--"):
            name = word[1:].partition("=")[0]
            if len(name) > 1 and name in long_names:
                word = "-" + word
        out.append(word)
        if word in takes_value and index < len(argv):
            out.append(argv[index])  # The option's value, as it is.
            index += 1
    return out


def plain_invocation(argv: Sequence[str]) -> Invocation | None:
    """What `argv` asks for, when it spells every option plainly: each option and pass flag
    at most once, a value as the next word (or `--option=value` for long options) that does
    not start with `-` unless it is `-`, and at most one input. None for any other command
    line (help, repeats, `--`, unknown words, errors): click reads those."""
    if os.environ.get(_COMPLETION_VARIABLE):
        return None
    passes = pass_flags()
    values: dict[str, Any] = {}
    pipeline: list[str] = []
    seen: set[str] = set()
    index = 0
    while index < len(argv):
        word = argv[index]
        index += 1
        if word == "-" or not word.startswith("-"):
            if "input_file" in values:
                return None
            values["input_file"] = word
            continue
        spelling, equals, joined = word.partition("=")
        option = _OPTIONS_BY_SPELLING.get(spelling)
        # Two spellings of one option are a repeat too.
        key = option.attribute if option is not None else spelling
        if key in seen:
            return None
        seen.add(key)
        if option is None:
            if equals or not spelling.startswith("--") or spelling[2:] not in passes:
                return None
            pipeline.append(spelling[2:])
            continue
        if option.metavar is None:
            if equals:
                return None
            values[option.attribute] = True
            continue
        if equals:
            if not spelling.startswith("--"):  # `-o=x` is `-o` with the value `=x`.
                return None
            value = joined
        else:
            if index == len(argv):
                return None
            value = argv[index]
            index += 1
            if value.startswith("-") and value != "-":
                return None
        if option.attribute == "pipeline":
            try:
                pipeline.extend(pipeline_passes(value))
            except ValueError:
                return None
        else:
            values[option.attribute] = value
    return Invocation(pipeline=pipeline, **values)


def _report(text: str) -> None:
    """Write a line to stderr at once (so that it stays in order with other output)."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def run(invocation: Invocation) -> int:
    """Parse the input, run the passes, print the result, report diagnostics; the exit
    status."""
    started = time.perf_counter()
    input_file = invocation.input_file
    output_file = invocation.output_file
    try:
        if input_file == "-":
            text = _read_stdin()
            name = "<stdin>"
        else:
            with open(input_file, "rb") as handle:
                text = read_source(handle)
            name = input_file
    except OSError as exc:
        _report(f"streamopt: error: cannot read '{input_file}': {exc.strerror}")
        return 1
    driver = Driver(
        invocation.pipeline,
        invocation.print_ir_after_all,
        invocation.stats,
        not invocation.no_verify,
        invocation.allow_unregistered_dialect,
        print_debuginfo=invocation.print_debuginfo,
        print_ir_before_all=invocation.print_ir_before_all,
    )
    # Each chunk's text as the printer's pieces: a large module is written out without being
    # joined into one string (which would double the memory its text takes). A file gets them
    # as they are printed, so that there the text is never held at all.
    outputs: list[list[str]] = []
    target = None
    if output_file != "-":
        # Imported when first needed: start-up time.
        from streamopt.atomic_file import AtomicFile

        target = AtomicFile(output_file)
    try:
        failed = False
        for chunk in split_input(text, invocation.split_input_file):
            source = Source(name, chunk.text, chunk.line_offset)
            pieces: list[str] = []
            write: Callable[[str], object] = pieces.append
            if target is not None:
                mark = target.tell()
                if outputs:
                    target.write(b"// -----\n")
                write = _encoding_writer(target)
            printed, diagnostics = driver.process(source, write)
            if invocation.verify_diagnostics:
                if not check_expected_diagnostics(source, diagnostics):
                    failed = True
            elif diagnostics:
                failed = True
                for diagnostic in diagnostics:
                    _report(render(diagnostic))
            if printed:
                outputs.append(pieces)
            elif target is not None:
                target.truncate(mark)  # What was printed before the printer refused.
        if target is None:
            output_started = time.perf_counter()
            _write_stdout(outputs)
            driver.output_seconds += time.perf_counter() - output_started
        elif not failed:
            # A failed run leaves an existing output file as it was.
            try:
                target.commit()
            except OSError as exc:
                _report(f"streamopt: error: cannot write '{output_file}': {exc.strerror}")
                failed = True
    finally:
        if target is not None:
            target.discard()  # Also when a bug ends the run.
    if invocation.stats:
        sys.stderr.write(driver.statistics_text())
        sys.stderr.flush()
    if invocation.timing:
        sys.stderr.write(driver.timing_report(time.perf_counter() - started))
        sys.stderr.flush()
    return EXIT_INTERNAL if driver.internal_error else 1 if failed else 0


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
        print_debuginfo: bool = False,
        print_ir_before_all: bool = False,
    ):
        self.pipeline = pipeline
        self.print_ir_after_all = print_ir_after_all
        self.print_ir_before_all = print_ir_before_all
        self.print_debuginfo = print_debuginfo
        self.stats = stats
        self.verify = verify
        self.allow_unregistered_dialect = allow_unregistered_dialect
        self.managers: list[Any] = []
        # Set when a chunk hit a bug in streamopt (the exit status is then EXIT_INTERNAL).
        self.internal_error = False
        # Seconds spent parsing (and verifying the input) and printing, over all chunks.
        self.parse_seconds = 0.0
        self.output_seconds = 0.0

    def process(
        self, source: Source, write: Callable[[str], object]
    ) -> tuple[bool, list[Diagnostic]]:
        """Whether the chunk was printed, its text handed to `write` piece by piece (when it
        was not, `write` may have had what was printed before the printer refused), and the
        chunk's diagnostics."""
        # Imported when first needed: start-up time.
        from streamopt.ir.verify import verify_module
        from streamopt.parser import parse_module
        from streamopt.passes import PassManager
        from streamopt.printer import UnprintableError, print_module_blocks

        parse_started: float | None = time.perf_counter()
        output_started: float | None = None
        try:
            module = parse_module(
                source.text, source.name, source.line_offset, self.allow_unregistered_dialect
            )
            verify_module(module)
            assert parse_started is not None
            self.parse_seconds += time.perf_counter() - parse_started
            parse_started = None
            manager = PassManager.from_flags(
                self.pipeline,
                verify_each=self.verify,
                after_pass=self._dump_after if self.print_ir_after_all else None,
                before_pass=self._dump_before if self.print_ir_before_all else None,
            )
            self.managers.append(manager)
            manager.run(module)
            output_started = time.perf_counter()
            for piece in print_module_blocks(module, write, self.print_debuginfo):
                write(piece)
            write("\n")
            return True, []
        except DiagnosticError as exc:
            return False, exc.diagnostics
        except UnprintableError as exc:
            # A bug, located at the op it would have printed wrongly: refuse, do not print.
            self.internal_error = True
            return False, [exc.diagnostic]
        finally:
            if parse_started is not None:
                self.parse_seconds += time.perf_counter() - parse_started
            if output_started is not None:
                self.output_seconds += time.perf_counter() - output_started

    def _dump_before(self, pass_: Any, module: Any) -> None:
        self._dump("Before", pass_, module)

    def _dump_after(self, pass_: Any, module: Any) -> None:
        self._dump("After", pass_, module)

    def _dump(self, when: str, pass_: Any, module: Any) -> None:
        # Imported when first needed: start-up time.
        from streamopt.printer import print_module

        header = f"// -----// IR Dump {when} {pass_.name} ({pass_.flag}) //----- //"
        text = print_module(module, self.print_debuginfo)
        _report(displayable(header + "\n" + text))

    def timing_report(self, total: float) -> str:
        """mlir-opt's `--mlir-timing` report: the seconds of the parser, each pass (summed
        over split chunks, in pipeline order) and the output, the rest, and the total."""
        rows: list[tuple[str, float]] = [("Parser", self.parse_seconds)]
        if self.managers:
            first = self.managers[0]
            for index, pass_ in enumerate(first.passes):
                seconds = sum(
                    manager.seconds[index]
                    for manager in self.managers
                    if index < len(manager.seconds)
                )
                rows.append((pass_.name, seconds))
        rows.append(("Output", self.output_seconds))
        rows.append(("Rest", total - sum(seconds for _, seconds in rows)))
        rows.append(("Total", total))
        return timing_report_text(rows, total)

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


def timing_report_text(rows: Sequence[tuple[str, float]], total: float) -> str:
    """Rows of (name, wall seconds) in the layout of MLIR's execution time report."""
    title = "... Execution time report ..."
    rule = "===" + "-" * 73 + "==="
    lines = [
        rule,
        " " * ((80 - len(title)) // 2) + title,
        rule,
        f"  Total Execution Time: {total:.4f} seconds",
        "",
        "  ----Wall Time----  ----Name----",
    ]
    for name, seconds in rows:
        share = 100.0 * seconds / total if total > 0 else 0.0
        lines.append(f"  {seconds:8.4f} ({share:5.1f}%)  {name}")
    return "\n".join(lines) + "\n"


_EXPECTED = lazy_compile(
    r"//\s*expected-(error|warning|note|remark)\s*(@(?:[+-]\d+|above|below))?\s*\{\{(.*?)\}\}"
)


class _Expectation:
    """An `expected-<severity>` comment: what it expects at which line."""

    __slots__ = ("comment_line", "line", "matched", "message", "severity")

    def __init__(self, severity: str, line: int, message: str, comment_line: int) -> None:
        self.severity = severity
        self.line = line
        self.message = message
        self.comment_line = comment_line
        self.matched = False


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
            message = f"unexpected {diagnostic.severity}: {diagnostic.message}"
            _report(render(Diagnostic("error", message, diagnostic.location)))
        else:
            found.matched = True
    for expectation in expectations:
        if not expectation.matched:
            ok = False
            location = Location(source, expectation.comment_line, 1)
            message = f'expected {expectation.severity} "{expectation.message}" was not produced'
            _report(render(Diagnostic("error", message, location)))
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


def run_command(tool: click.Command, program: str, args: Sequence[str] | None = None) -> NoReturn:
    """Run a click command as a console script on `args` (default: `sys.argv`'s), see
    `run_guarded`."""
    run_guarded(lambda: _click_main(tool, program, args), program)


def _click_main(tool: click.Command, program: str, args: Sequence[str] | None = None) -> int:
    """Let click read `args` and run `tool`; the exit status (usage errors reported)."""
    import click

    try:
        # Without standalone mode click returns ctx.exit()'s code instead of raising Exit.
        code = tool.main(
            args=list(args) if args is not None else None,
            prog_name=program,
            standalone_mode=False,
        )
        return code if isinstance(code, int) else 0
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Abort:
        return 1


def run_guarded(function: Callable[[], int], program: str) -> NoReturn:
    """Exit with `function()`'s status, called with a deep stack; a short report instead of
    a traceback if it crashes (exit 70)."""
    # One short run that keeps its IR until the end: the cyclic collector would only rescan
    # millions of live objects (superlinear on large inputs) and find nothing to free.
    gc.disable()
    try:
        sys.exit(call_with_deep_stack(function))
    except (KeyboardInterrupt, BrokenPipeError):
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
    argv = mlir_style_argv(sys.argv[1:])
    invocation = plain_invocation(argv)
    if invocation is not None:
        run_guarded(lambda: run(invocation), "streamopt")
    # Imported when first needed: start-up time.
    from streamopt.opt_options import command

    run_command(command, "streamopt", argv)


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
