"""Where lines break around regions does not change what is read.

MLIR lets an op share the line of the `{` that opens its region, of the `}` that closes it,
or of a block label. Every way of joining those lines in a small program (each of the line
breaks beside its braces and labels kept or replaced by a space: 2**7 programs) must read as
the program written one op per line: the same printed IR, and the same diagnostics at the
same line and column when an op in it is wrong.
"""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess

import pytest

from streamopt.diagnostics import DiagnosticError
from streamopt.parser import parse_module, text_for_grammar
from streamopt.printer import print_module

# One op per line. Each region holds two ops or more, so that no way of joining its lines
# puts the whole region on one line (a brace pair on one line is kept as written, not read
# as a region: see test/lit/parser/region-lines.mlir).
PROGRAM = """\
util.func public @f(%arg0: index, %arg1: i1, %arg2: !stream.resource<*>) -> index {
  %0 = scf.if %arg1 -> (index) {
    %2 = arith.addi %arg0, %arg0 : index
    scf.yield %2 : index
  } else {
    %2 = arith.muli %arg0, %arg0 : index
    scf.yield %2 : index
  }
  %1 = stream.async.transfer %arg2 : !stream.resource<*>{%arg0} -> !stream.resource<*>{%arg0}
  cf.br ^bb1(%0 : index)
^bb1(%3: index):
  %4 = arith.addi %3, %BAD : index
  util.return %4 : index
}
"""

# The line breaks that may be blanks instead: after each `{` that ends a line, before each
# `}` that begins one (after its indentation), and after the block label.
_AFTER_BRACE = re.compile(r"\{\n")
_BEFORE_BRACE = re.compile(r"\n[ ]*\}")
_AFTER_LABEL = re.compile(r"\):\n")


def _breaks(text: str) -> list[int]:
    """The offsets of the line breaks of `text` that may be blanks."""
    found = [match.start() + 1 for match in _AFTER_BRACE.finditer(text)]
    found += [match.start() for match in _BEFORE_BRACE.finditer(text)]
    found += [match.start() + 2 for match in _AFTER_LABEL.finditer(text)]
    return sorted(found)


def _variants(text: str) -> list[str]:
    """`text` with each subset of its breakable line breaks replaced by a space."""
    breaks = _breaks(text)
    variants = []
    for chosen in itertools.product((False, True), repeat=len(breaks)):
        chars = list(text)
        for at, joined in zip(breaks, chosen, strict=True):
            if joined:
                chars[at] = " "
        variants.append("".join(chars))
    return variants


def _outcome(text: str) -> str:
    try:
        return print_module(parse_module(text, "f.mlir"))
    except DiagnosticError as error:
        diagnostic = error.diagnostics[0]
        where = diagnostic.location
        # Lines and columns of the variant: the column moves with the joined lines, so the
        # place is given as the text at it.
        line = text.split("\n")[where.line - 1]
        return f"{diagnostic.message} at {line[where.column - 1 :][:12]!r}"


def test_the_program_has_every_kind_of_break() -> None:
    assert len(_breaks(PROGRAM)) == 7


@pytest.mark.parametrize("bad", [False, True], ids=["valid", "undeclared-value"])
def test_every_way_of_joining_lines_reads_alike(bad: bool) -> None:
    program = PROGRAM if bad else PROGRAM.replace("%BAD", "%3")
    expected = _outcome(program)
    assert ("undeclared SSA value name '%BAD'" in expected) == bad
    assert "%BAD : index" in expected or not bad
    for variant in _variants(program):
        assert len(text_for_grammar(variant)) == len(variant)
        assert _outcome(variant) == expected, variant


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_iree_opt_reads_the_joined_program_alike() -> None:
    """The variant with every break joined is valid MLIR: iree-opt prints it as the program
    written one op per line (so the test above asks for what MLIR does)."""
    program = PROGRAM.replace("%BAD", "%3")
    joined = _variants(program)[-1]
    assert joined.count("\n") == program.count("\n") - 7

    def iree_opt(text: str) -> str:
        return subprocess.run(
            ["iree-opt"], input=text, capture_output=True, text=True, check=True
        ).stdout

    assert iree_opt(joined) == iree_opt(program)
