"""Attribute and type aliases are defined before their uses, once, as MLIR's parser reads them.

MLIR looks an alias up where it reads it (`#b = [#a]` needs `#a` above; only a location's
alias may come later) and refuses a second definition. The programs: every sequence of up to
three lines from a vocabulary of definitions and uses of `#a`, `#b`, `!t` and `!u` (258, which
repeat lines), and every ordering of every subset of it (1,956, which do not). streamopt reads
each exactly as iree-opt does: the same programs refused, each with iree-opt's first error at
iree-opt's line and column.
"""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
import sys

import pytest

LINES = [
    "#a = 1 : i32",
    "#b = [#a]",
    "!t = i32",
    "!u = tensor<4x!t>",
    "util.func private @f{n}() attributes {{x = #b}}",
    "util.func private @g{n}(%arg0: !u)",
]


def _programs() -> list[str]:
    orders = [p for k in range(1, 4) for p in itertools.product(LINES, repeat=k)]
    orders += [p for k in range(1, len(LINES) + 1) for p in itertools.permutations(LINES, k)]
    return ["".join(line.format(n=i) + "\n" for i, line in enumerate(p)) for p in orders]


def _first_errors(tool: list[str], text: str) -> dict[int, tuple[int, int, str]]:
    """The first error of each `// -----` chunk of `text` that `tool` refuses, by chunk."""
    run = subprocess.run(
        [*tool, "--split-input-file", "-"], input=text, capture_output=True, text=True
    )
    assert "Traceback" not in run.stderr
    chunk_of_line = list(itertools.accumulate(int(line == "// -----") for line in text.split("\n")))
    errors: dict[int, tuple[int, int, str]] = {}
    for match in re.finditer(r"^<stdin>:(\d+):(\d+): error: (.*)$", run.stderr, re.MULTILINE):
        line = int(match[1])
        errors.setdefault(chunk_of_line[line - 1], (line, int(match[2]), match[3]))
    return errors


def test_the_programs_cover_every_outcome() -> None:
    programs = _programs()
    assert len(programs) == 6 + 36 + 216 + 1956
    assert "#b = [#a]\n#a = 1 : i32\n" in programs  # a use before its definition
    assert "#a = 1 : i32\n#a = 1 : i32\n" in programs  # a second definition


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_program_is_read_as_iree_opt_reads_it() -> None:
    programs = _programs()
    text = "// -----\n".join(programs)
    iree = _first_errors(["iree-opt"], text)
    ours = _first_errors([sys.executable, "-m", "streamopt"], text)
    messages = {message.split(" id ")[0] for _, _, message in iree.values()}
    assert messages == {
        "undefined symbol alias",
        "redefinition of attribute alias",
        "redefinition of type alias",
    }
    assert 50 < len(programs) - len(iree) < len(programs)  # Read and refused, both.
    assert ours == iree
