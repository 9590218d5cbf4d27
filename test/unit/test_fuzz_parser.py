"""Parser robustness: damaged versions of valid inputs never crash the tool.

Hypothesis takes a valid file (a lit test or a real IREE dump), applies a few small mutations
(delete a token, truncate a line, delete or swap a bracket, duplicate a line, insert a
character, use another value name) and runs the command-line entry point on it in-process.
Whatever the damage, the tool must either accept the input (exit 0, and then its output reads
back unchanged) or report it (exit 1) as `file:line:col: error: message` followed by the source
line and a caret under the column; an internal error (exit 70) or an escaping exception is a bug.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from fuzzing import fuzz_examples
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fuzz_mutations import run_cli as run_cli_bytes

ROOT = Path(__file__).resolve().parents[2]


def _is_valid_seed(path: Path) -> bool:
    # Diagnostics tests are invalid on purpose; lit's Output/ holds scratch files.
    return "Output" not in path.parts and "expected-error" not in path.read_text()


def seed_flags(path: Path) -> list[str]:
    """The parsing flag the seed's RUN lines give streamopt (lit tests of ops of dialects
    iree-opt does not register)."""
    flag = "--allow-unregistered-dialect"
    return [flag] if flag in path.read_text() else []


SEEDS = sorted(
    p
    for p in [
        *(ROOT / "test" / "lit").rglob("*.mlir"),
        *(ROOT / "examples" / "iree").glob("*/before-elide-*.mlir"),
    ]
    if _is_valid_seed(p)
)
# Tokens as a user would see them, so deleting one removes a whole name, number or string.
TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|[%@^#!][\w.$\-]+|[A-Za-z_][\w.$]*|\d+(?:\.\d*)?|->|=>|::|\S'
)
VALUE = re.compile(r"%[\w.$\-]+(?:#\d+)?")
BRACKETS = "(){}[]<>"
HEADER = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: \S")


@dataclass(frozen=True)
class Mutation:
    """One edit inside one line, given as fractions so it applies to any text.

    `focus` picks the line among the lines streamopt parses op by op (not executable bodies,
    which it keeps verbatim, nor attribute aliases): random positions would mostly land in those
    long lines and rarely hit the op syntax.
    """

    kind: str
    focus: bool
    line: float
    position: float
    other: float
    char: str

    def apply(self, text: str) -> str:
        start, end = _pick_line(text, self.line, self.focus)
        line = text[start:end]
        if self.kind == "duplicate-line":
            return text[:end] + "\n" + line + text[end:]
        if self.kind == "truncate-line":
            return text[: start + int(self.position * len(line))] + text[end:]
        if self.kind == "delete-token":
            tokens = list(TOKEN.finditer(line))
            if not tokens:
                return text[:start] + text[end + 1 :]  # Drop the (blank) line instead.
            token = tokens[int(self.position * len(tokens))]
            return text[: start + token.start()] + text[start + token.end() :]
        if self.kind == "replace-value":
            uses = list(VALUE.finditer(line))
            if not uses:
                return text
            use = uses[int(self.position * len(uses))]
            names = [*sorted({m.group() for m in VALUE.finditer(text)}), "%never_defined"]
            name = names[int(self.other * len(names))]
            return text[: start + use.start()] + name + text[start + use.end() :]
        if self.kind in ("delete-bracket", "swap-bracket"):
            positions = [i for i, c in enumerate(line) if c in BRACKETS]
            if not positions:
                return text
            i = start + positions[int(self.position * len(positions))]
            others = [b for b in BRACKETS if b != text[i]]
            replacement = (
                "" if self.kind == "delete-bracket" else others[int(self.other * len(others))]
            )
            return text[:i] + replacement + text[i + 1 :]
        # insert-char
        i = start + int(self.position * (len(line) + 1))
        return text[:i] + self.char + text[i:]


_EXECUTABLE = re.compile(r"^( *)(?:stream|hal)\.executable\b.*\{$")


def _pick_line(text: str, where: float, focus: bool) -> tuple[int, int]:
    """Start and end (before the newline) of the line at fraction `where` of the candidates."""
    spans: list[tuple[int, int]] = []
    focused: list[tuple[int, int]] = []
    closing: str | None = None  # The line that ends the executable we are in.
    offset = 0
    for line in text.split("\n"):
        span = (offset, offset + len(line))
        offset += len(line) + 1
        spans.append(span)
        if closing is not None:
            if line == closing:
                closing = None
            continue
        header = _EXECUTABLE.match(line)
        if header:
            closing = header.group(1) + "}"
        elif not line.startswith("#"):
            focused.append(span)
    candidates = focused if focus and focused else spans
    return candidates[int(where * len(candidates))]


fractions = st.floats(min_value=0.0, max_value=1.0, exclude_max=True, allow_nan=False)
mutations = st.builds(
    Mutation,
    kind=st.sampled_from(
        [
            "delete-token",
            "truncate-line",
            "duplicate-line",
            "delete-bracket",
            "swap-bracket",
            "insert-char",
            "replace-value",
        ]
    ),
    # Three edits in four aim at the lines of ops (see Mutation).
    focus=st.sampled_from([True, True, True, False]),
    line=fractions,
    position=fractions,
    other=fractions,
    char=st.sampled_from(list("%@#^!{}()[]<>,:=\"'-+*/.\\0a \t\n")) | st.characters(codec="utf-8"),
)


def run_cli(args: list[str]) -> tuple[int, str, str]:
    """Run the console-script entry point in-process; return (exit code, stdout, stderr)."""
    code, out, err = run_cli_bytes(args)
    return code, out.decode("utf-8", "surrogateescape"), err.decode("utf-8", "replace")


def check_error_report(stderr: str, path: Path, text: str) -> None:
    """The first diagnostic is located in `path`, quotes its line and points at the column."""
    lines = stderr.split("\n")
    header = HEADER.match(lines[0])
    assert header, f"not a located error: {lines[0]!r}"
    assert header["file"] == str(path)
    line, col = int(header["line"]), int(header["col"])
    source_lines = text.split("\n")
    assert 1 <= line <= len(source_lines), f"line {line} is outside the file"
    source_line = source_lines[line - 1]
    assert len(lines) >= 3, f"no source line and caret after {lines[0]!r}"
    assert lines[1] == source_line
    assert 1 <= col <= len(source_line) + 1, f"column {col} is outside {source_line!r}"
    assert lines[2].rstrip("^") == "".join(c if c == "\t" else " " for c in source_line[: col - 1])
    assert lines[2].endswith("^")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def test_seeds_are_valid(workdir: Path) -> None:
    """Undamaged, every seed is accepted: the fuzz test starts from valid inputs."""
    assert len(SEEDS) >= 10
    for seed in SEEDS:
        code, _, stderr = run_cli([*seed_flags(seed), "--split-input-file", str(seed)])
        assert code == 0, stderr


# 200 keeps the test under a few seconds; STREAMOPT_FUZZ_SCALE runs a longer hunt (fuzzing.py).
@settings(max_examples=fuzz_examples(200))
@given(
    seed=st.sampled_from(SEEDS),
    edits=st.lists(mutations, min_size=1, max_size=3),
    split=st.booleans(),
)
def test_damaged_input_is_reported_not_crashed(
    workdir: Path, seed: Path, edits: list[Mutation], split: bool
) -> None:
    text = seed.read_text()
    for edit in edits:
        text = edit.apply(text)
    path = workdir / "damaged.mlir"
    path.write_text(text, encoding="utf-8", newline="")
    args = [*seed_flags(seed), str(path)]
    if split:
        args.insert(0, "--split-input-file")
    code, stdout, stderr = run_cli(args)
    assert code in (0, 1), f"exit {code}:\n{stderr}"
    assert "Traceback" not in stderr
    if code == 1:
        # Compare with the text as the tool read it (newlines translated).
        check_error_report(stderr, path, path.read_text(encoding="utf-8"))
    else:
        # Whatever was accepted prints as a fixed point: reading the output gives it back.
        printed = workdir / "printed.mlir"
        printed.write_text(stdout, encoding="utf-8")
        again = run_cli([*args[:-1], str(printed)])
        assert again == (0, stdout, "")
