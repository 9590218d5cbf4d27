"""Mutation fuzzing of the whole tool over real IREE dumps.

Each mutant is a real dump (`examples/iree/*/before-elide-*.mlir`) with one or two edits of the
kinds a damaged or hand-edited file has: a deleted token, a truncation, a swapped bracket, a
renamed value, random bytes (often not UTF-8), a deleted or duplicated line, or deep nesting
(regions or attributes nested hundreds of levels). Each mutant runs twice, with no pass and with
`--elide-async-copies --lower-to-hal`, in a forked child so that a hang can be stopped. A run
must end in exit 0 with output that streamopt reads back (the same text again when no pass ran),
or in exit 1 with a located `file:line:col: error:` report; an internal error (exit 70), a
traceback, a crash or a timeout is a failure.

Mutant N is drawn from `random.Random(N)`. CI runs mutants 0 to 199, the same every time;
`STREAMOPT_FUZZ_SCALE=N` (the switch of every randomised test, see fuzzing.py) runs N times as
many from a fresh random start, and a failure names the mutant's number to draw it again with
`make_mutant`.
"""

from __future__ import annotations

import functools
import io
import multiprocessing
import os
import pickle
import random
import re
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest
from fuzzing import fuzz_seeds

import streamopt.opt_command
import streamopt.printer
from streamopt.diagnostics import decode_source, displayable
from streamopt.opt_command import main
from streamopt.parser import blank_verbatim_bodies

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "examples" / "iree").glob("*/before-elide-*.mlir"))
# How many mutants CI runs (about 30 s of CPU); STREAMOPT_FUZZ_SCALE multiplies it.
MUTANTS = 200
# Seconds one run (the tool and the read-back of its output) may take. Generous: the machine
# may be busy, and the deepest nests take a few seconds to lower.
TIMEOUT = float(os.environ.get("STREAMOPT_MUTANT_TIMEOUT", "60"))
PIPELINES: list[list[str]] = [[], ["--elide-async-copies", "--lower-to-hal"]]

TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|[%@^#!][\w.$\-]+|[A-Za-z_][\w.$]*|\d+(?:\.\d*)?|->|=>|::|\S'
)
VALUE = re.compile(r"%[\w.$\-]+(?:#\d+)?")
BRACKETS = "(){}[]<>"
HEADER = re.compile(rb"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: \S")


def _host_lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line outside executables and aliases: the code streamopt parses
    op by op, where most edits should land (executable bodies are kept verbatim)."""
    spans: list[tuple[int, int]] = []
    offset = 0
    # The parser's own view: executable bodies blanked, offsets kept.
    for line in blank_verbatim_bodies(text).split("\n"):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            spans.append((offset, offset + len(line)))
        offset += len(line) + 1
    return spans


def _line(rng: random.Random, text: str) -> tuple[int, int]:
    """A line to edit: a host-code line three times in four, any line otherwise."""
    host = _host_lines(text)
    if host and rng.random() < 0.75:
        return rng.choice(host)
    starts = [0, *(m.end() for m in re.finditer("\n", text))]
    start = rng.choice(starts)
    end = text.find("\n", start)
    return start, end if end >= 0 else len(text)


def delete_token(rng: random.Random, text: str) -> str:
    start, end = _line(rng, text)
    tokens = list(TOKEN.finditer(text, start, end))
    if not tokens:
        return text
    token = rng.choice(tokens)
    return text[: token.start()] + text[token.end() :]


def truncate(rng: random.Random, text: str) -> str:
    """Cut the file (half the time inside a host line, else anywhere)."""
    if rng.random() < 0.5:
        start, end = _line(rng, text)
        return text[: rng.randint(start, end)]
    return text[: rng.randrange(len(text))]


def swap_bracket(rng: random.Random, text: str) -> str:
    start, end = _line(rng, text)
    positions = [i for i in range(start, end) if text[i] in BRACKETS]
    if not positions:
        return text
    i = rng.choice(positions)
    other = rng.choice([b for b in BRACKETS if b != text[i]] + [""])
    return text[:i] + other + text[i + 1 :]


def rename_value(rng: random.Random, text: str) -> str:
    """Replace one use or definition of a value by another name of the file (or a new one)."""
    host = _host_lines(text)
    spans = host if host and rng.random() < 0.75 else [(0, len(text))]
    uses = [m for start, end in spans for m in VALUE.finditer(text, start, end)]
    if not uses:
        return text
    use = rng.choice(uses)
    names = sorted({m.group() for m in VALUE.finditer(text)} - {use.group()})
    return text[: use.start()] + rng.choice([*names, "%never_defined"]) + text[use.end() :]


def delete_line(rng: random.Random, text: str) -> str:
    start, end = _line(rng, text)
    return text[:start] + text[end + 1 :]


def duplicate_line(rng: random.Random, text: str) -> str:
    start, end = _line(rng, text)
    return text[:end] + "\n" + text[start:end] + text[end:]


# Random bytes are kept apart from the text until the end: they need not be UTF-8.
_BYTES_MARK = "\x00BYTES\x00"


def random_bytes(rng: random.Random, text: str) -> str:
    """Insert a few random bytes: in a host line, a comment, a string or anywhere."""
    where = rng.random()
    if where < 0.25:
        # In a comment of its own, which MLIR ignores whatever it holds.
        start, _ = _line(rng, text)
        return text[:start] + "// " + _BYTES_MARK + "\n" + text[start:]
    strings = list(re.finditer(r'"(?:[^"\\\n]|\\.)*"', text))
    if where < 0.5 and strings:
        string = rng.choice(strings)
        return text[: string.start() + 1] + _BYTES_MARK + text[string.start() + 1 :]
    if where < 0.85:
        start, end = _line(rng, text)
    else:
        start, end = 0, len(text)
    i = rng.randint(start, end)
    return text[:i] + _BYTES_MARK + text[i:]


def _with_bytes(rng: random.Random, text: str) -> bytes:
    data = text.encode("utf-8")
    while _BYTES_MARK.encode() in data:
        noise = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        data = data.replace(_BYTES_MARK.encode(), noise.replace(b"\n", b"\xff"), 1)
    return data


_FUNCTION_BODY = re.compile(r"^(  util\.func [^\n]*\{)\n", re.MULTILINE)


def deep_nesting(rng: random.Random, text: str) -> str:
    """Nest regions (`scf.if`) or attributes (arrays, dictionaries) hundreds of levels deep at
    the start of a function body: valid IR, or an unclosed nest when cut short."""
    depth = rng.choice([50, 300, 1000])
    bodies = list(_FUNCTION_BODY.finditer(text))
    if not bodies:
        return text
    body = rng.choice(bodies)
    if rng.random() < 0.5:
        nest = "    %deep_true = arith.constant true\n"
        nest += "    scf.if %deep_true {\n" * depth + "    }\n" * depth
    else:
        value = "1"
        for level in range(depth):
            value = f"[{value}]" if level % 2 else f"{{a = {value}}}"
        nest = "    %deep = arith.constant 1 : i32\n"
        nest += f"    %deep_barrier = util.optimization_barrier {{deep = {value}}} %deep : i32\n"
    if rng.random() < 0.2:
        nest = nest[: rng.randrange(len(nest))] + "\n"
    return text[: body.end()] + nest + text[body.end() :]


MUTATIONS: list[Callable[[random.Random, str], str]] = [
    delete_token,
    truncate,
    swap_bracket,
    rename_value,
    random_bytes,
    delete_line,
    duplicate_line,
    deep_nesting,
]


@dataclass
class Mutant:
    """One damaged copy of a seed: its bytes and how it was made."""

    number: int
    seed: Path
    edits: list[str]
    data: bytes


@functools.cache
def _seed_text(path: Path) -> str:
    return path.read_text()


def make_mutant(number: int) -> Mutant:
    """Mutant `number`: the same for the same number."""
    rng = random.Random(number)
    path = rng.choice(SEEDS)
    text = _seed_text(path)
    edits = []
    for _ in range(rng.choice([1, 1, 2])):
        mutation = rng.choice(MUTATIONS)
        edits.append(mutation.__name__)
        text = mutation(rng, text)
    return Mutant(number, path, edits, _with_bytes(rng, text))


def run_cli(args: list[str], stdin: bytes = b"") -> tuple[int, bytes, bytes]:
    """Run the `streamopt` console-script entry point in this process."""
    saved = sys.argv, sys.stdin, sys.stdout, sys.stderr
    out, err = io.BytesIO(), io.BytesIO()
    streams = (
        io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"),
        io.TextIOWrapper(out, encoding="utf-8", write_through=True),
        io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True),
    )
    sys.argv = ["streamopt", *args]
    sys.stdin, sys.stdout, sys.stderr = streams
    try:
        main()
        code: object = 0
    except SystemExit as exc:
        code = 0 if exc.code is None else exc.code
    finally:
        sys.argv, sys.stdin, sys.stdout, sys.stderr = saved
        for stream in streams:
            stream.flush()
            stream.detach()  # Closing the wrapper would close the buffer we read.
    return (code if isinstance(code, int) else -1), out.getvalue(), err.getvalue()


def check_run(path: Path, data: bytes, args: list[str]) -> str | None:
    """Run the tool on `path` (holding `data`) with `args`; what went wrong, or None."""
    code, stdout, stderr = run_cli([*args, str(path)])
    if b"Traceback" in stderr or b"internal error" in stderr or code not in (0, 1):
        return f"exit {code}: {stderr.decode('utf-8', 'replace')[-2000:]}"
    if code == 1:
        return _located_error_problem(stderr, path, data)
    printed = path.with_suffix(".out.mlir")
    printed.write_bytes(stdout)
    again = run_cli([str(printed)])
    if again[0] != 0:
        return "output does not parse again: " + again[2].decode("utf-8", "replace")[-2000:]
    if not args and again[1] != stdout:
        return "output is not a fixed point of parsing and printing"
    return None


def _located_error_problem(stderr: bytes, path: Path, data: bytes) -> str | None:
    """Why `stderr` is not `file:line:col: error:` + source line + caret, or None."""
    lines = stderr.split(b"\n")
    header = HEADER.match(lines[0])
    if not header or header["file"] != str(path).encode():
        return f"not a located error: {lines[0][:300]!r}"
    line, col = int(header["line"]), int(header["col"])
    # The text as the tool reads it (universal newlines), one U+FFFD per byte not UTF-8.
    source_lines = displayable(decode_source(data)).split("\n")
    if not 1 <= line <= len(source_lines):
        return f"line {line} is outside the file"
    source_line = source_lines[line - 1]
    if len(lines) < 3 or lines[1].decode("utf-8", "replace") != source_line:
        return f"the source line is not quoted after {lines[0][:300]!r}"
    if not 1 <= col <= len(source_line) + 1:
        return f"column {col} is outside line {line}"
    pad = "".join(c if c == "\t" else " " for c in source_line[: col - 1])
    if lines[2].decode() != pad + "^":
        return "the caret is not under the column"
    return None


def _child(path: Path, data: bytes, args: list[str], result: Path) -> None:
    try:
        problem = check_run(path, data, args)
    except BaseException as exc:  # An escaping exception is a failure too.
        problem = f"escaping {type(exc).__name__}: {exc}"
    result.write_bytes(pickle.dumps(problem))
    os._exit(0)


def run_isolated(path: Path, data: bytes, args: list[str], timeout: float) -> str | None:
    """`check_run` in a forked child, so that a crash or a hang is reported, not suffered."""
    result = path.with_suffix(".result")
    result.unlink(missing_ok=True)
    context = multiprocessing.get_context("fork")
    child = context.Process(target=_child, args=(path, data, args, result))
    child.start()
    child.join(timeout)
    if child.is_alive():
        child.kill()
        child.join()
        return f"timeout after {timeout:.0f} s"
    if not result.exists():
        return f"crashed (exit {child.exitcode})"
    problem: str | None = pickle.loads(result.read_bytes())
    return problem


def hunt(numbers: Iterable[int]) -> tuple[int, list[str]]:
    """Run the mutants `numbers` through every pipeline; (runs, failure reports)."""
    # Warm up once, so that every forked child starts with the parser tables loaded.
    assert run_cli([str(SEEDS[0])])[0] == 0
    failures: list[str] = []
    runs = 0
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "mutant.mlir"
        for mutant in map(make_mutant, numbers):
            path.write_bytes(mutant.data)
            for args in PIPELINES:
                runs += 1
                problem = run_isolated(path, mutant.data, args, TIMEOUT)
                if problem is not None:
                    kept = Path(scratch).parent / f"streamopt-mutant-{mutant.number}.mlir"
                    kept.write_bytes(mutant.data)
                    failures.append(
                        f"mutant {mutant.number} of {mutant.seed.relative_to(ROOT)} "
                        f"({', '.join(mutant.edits)}), kept as {kept}, "
                        f"streamopt {' '.join(args)}: {problem}"
                    )
    return runs, failures


def test_mutations_change_the_seeds() -> None:
    """Each kind of edit changes the text of a seed (none is a silent no-op)."""
    text = (ROOT / "examples" / "iree" / "two-devices" / "before-elide-2.mlir").read_text()
    for mutation in MUTATIONS:
        rng = random.Random(1)
        changed = sum(mutation(rng, text) != text for _ in range(20))
        assert changed >= 15, mutation.__name__


def test_the_harness_reports_what_it_looks_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An internal error, an unlocated error and output that does not read back each fail."""
    path = tmp_path / "seed.mlir"
    data = SEEDS[0].read_bytes()
    path.write_bytes(data)
    assert check_run(path, data, []) is None

    assert _located_error_problem(b"error: somewhere\n", path, data) is not None

    def crash(self: object, source: object, write: object) -> None:
        raise RuntimeError("a bug")

    with monkeypatch.context() as patch:
        patch.setattr(streamopt.opt_command.Driver, "process", crash)
        assert (check_run(path, data, []) or "").startswith("exit 70")

    real_print = streamopt.printer.print_module_blocks
    with monkeypatch.context() as patch:
        patch.setattr(streamopt.printer, "print_module_blocks", lambda *a, **k: ["garbage {\n"])
        problem = check_run(path, data, [])
        assert problem is not None and problem.startswith("output does not parse again")
    assert streamopt.printer.print_module_blocks is real_print


def test_mutants_are_deterministic() -> None:
    first = [make_mutant(number).data for number in range(20)]
    assert first == [make_mutant(number).data for number in range(20)]
    assert len(set(first)) == len(first)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="runs each mutant in a forked child")
def test_mutants_are_accepted_or_reported() -> None:
    numbers = fuzz_seeds(MUTANTS)
    runs, failures = hunt(numbers)
    assert runs == len(numbers) * len(PIPELINES)
    assert not failures, f"{len(failures)} of {runs} runs failed:\n" + "\n\n".join(failures[:10])
