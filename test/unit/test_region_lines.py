"""Where lines break around regions does not change what is read.

MLIR lets an op share the line of the `{` that opens its region, of the `}` that closes it,
or of a block label. Every way of joining those lines in small programs (each line break
beside their braces and labels kept or replaced by a space: 2**7 and 2**8 programs) must read
as the program written one op per line: the same printed IR, and the same diagnostic at the
same place when an op in it is wrong; iree-opt prints each of them alike too. Joined with
nothing between (which streamopt does not read), they read alike or are a syntax error, never
another program. The dumps under examples/ read alike with all those lines joined.
"""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from streamopt.diagnostics import DiagnosticError
from streamopt.parser import parse_module, text_for_grammar, verbatim_bodies
from streamopt.printer import print_module

# One op per line. Each region holds two ops or more: every way of joining lines leaves them
# regions that span lines.
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

# Each region holds one op: joining both lines beside its braces puts it on one line
# (`{ util.return }`), which ops whose custom form streamopt reads take as a region.
ONE_OP_REGIONS = """\
util.func public @g(%arg0: index, %arg1: i1) -> index {
  %0 = scf.if %arg1 -> (index) {
    scf.yield %BAD : index
  } else {
    scf.yield %arg0 : index
  }
  util.return %0 : index
}
util.func private @h() {
  util.return
}
"""

# The line breaks that may be blanks instead: after each `{` that ends a line, before each
# `}` that begins one (after its indentation), and after the block label.
_AFTER_BRACE = re.compile(r"\{\n")
_BEFORE_BRACE = re.compile(r"\n[ ]*\}")
_AFTER_LABEL = re.compile(r"\):\n")
# The same line breaks, each with the indentation after it.
_BREAK_AND_INDENTATION = re.compile(r"(?<=\{)\n[ ]*|\n[ ]*(?=\})|(?<=\):)\n[ ]*")


def _breaks(text: str) -> list[int]:
    """The offsets of the line breaks of `text` that may be blanks."""
    found = [match.start() + 1 for match in _AFTER_BRACE.finditer(text)]
    found += [match.start() for match in _BEFORE_BRACE.finditer(text)]
    found += [match.start() + 2 for match in _AFTER_LABEL.finditer(text)]
    return sorted(found)


def _variants(text: str, blank: str = " ") -> list[str]:
    """`text` with each subset of its breakable line breaks replaced by `blank`."""
    breaks = _breaks(text)
    variants = []
    for chosen in itertools.product((False, True), repeat=len(breaks)):
        chars = list(text)
        for at, joined in zip(breaks, chosen, strict=True):
            if joined:
                chars[at] = blank
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


def test_the_programs_have_every_kind_of_break() -> None:
    assert len(_breaks(PROGRAM)) == 7
    assert len(_breaks(ONE_OP_REGIONS)) == 8


@pytest.mark.parametrize("program", [PROGRAM, ONE_OP_REGIONS], ids=["two-op", "one-op"])
@pytest.mark.parametrize("bad", [False, True], ids=["valid", "undeclared-value"])
def test_every_way_of_joining_lines_reads_alike(program: str, bad: bool) -> None:
    program = program if bad else program.replace("%BAD", "%arg0")
    expected = _outcome(program)
    assert ("undeclared SSA value name '%BAD'" in expected) == bad
    for variant in _variants(program):
        assert len(text_for_grammar(variant)) == len(variant)
        assert _outcome(variant) == expected, variant


@pytest.mark.parametrize("program", [PROGRAM, ONE_OP_REGIONS], ids=["two-op", "one-op"])
@pytest.mark.parametrize("others", ["", " "], ids=["alone", "beside-blank-joins"])
def test_joined_with_no_blank_reads_alike_or_is_refused(program: str, others: str) -> None:
    """streamopt does not read an op against its brace with no blank between (`{util.return`,
    which MLIR reads), but it never reads such a line as another program: each way of joining
    some lines with nothing between them, alone or beside lines joined with a blank (where
    splitting happens), reads alike or is an error."""
    program = program.replace("%BAD", "%arg0")
    expected = _outcome(program)
    refused = 0
    # Each break with the indentation beside it: joined with nothing, both go.
    spans = [match.span() for match in _BREAK_AND_INDENTATION.finditer(program)]
    assert [start for start, _ in spans] == _breaks(program)
    for chosen in itertools.product(("\n", "", " "), repeat=len(spans)):
        if "" not in chosen or (others == "" and " " in chosen):
            continue
        pieces = []
        cursor = 0
        for (start, end), joined in zip(spans, chosen, strict=True):
            pieces.append(program[cursor:start])
            pieces.append(joined if joined != "\n" else program[start:end])
            cursor = end
        pieces.append(program[cursor:])
        outcome = _outcome("".join(pieces))
        if outcome != expected:
            refused += 1
            assert "expected" in outcome or "unexpected" in outcome, outcome
    assert refused > 0


@pytest.mark.parametrize("program", [PROGRAM, ONE_OP_REGIONS], ids=["two-op", "one-op"])
def test_a_tab_is_a_blank_beside_a_brace(program: str) -> None:
    """Tabs as the blanks: every break joined, and only the breaks before a `}` joined (the
    one place a tab alone marks where a line must be split)."""
    program = program.replace("%BAD", "%arg0")
    before_braces = _BEFORE_BRACE.sub("\t}", program)
    assert "\t}" in before_braces and " }" not in before_braces
    assert _outcome(_variants(program, "\t")[-1]) == _outcome(program)
    assert _outcome(before_braces) == _outcome(program)


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
@pytest.mark.parametrize("program", [PROGRAM, ONE_OP_REGIONS], ids=["two-op", "one-op"])
def test_iree_opt_reads_every_variant_alike(program: str) -> None:
    """Every variant is valid MLIR that iree-opt prints as it prints the program written one
    op per line (so the test above asks for what MLIR does)."""
    program = program.replace("%BAD", "%arg0")
    variants = _variants(program)
    assert variants[-1].count("\n") == program.count("\n") - len(_breaks(program))
    printed = subprocess.run(
        ["iree-opt", "--split-input-file"],
        input="\n// -----\n".join([program, *variants]),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    chunks = printed.split("// -----")
    assert len(chunks) == len(variants) + 1
    assert all(chunk.strip() == chunks[0].strip() for chunk in chunks), printed


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_real_dumps_read_alike_with_region_lines_joined() -> None:
    """Every dump and program under examples/ with all its breakable line breaks joined
    (outside executable bodies, which are kept as written) prints as it does as written."""
    joined = 0
    paths = sorted(EXAMPLES.rglob("*.mlir"))
    assert len(paths) > 50
    for path in paths:
        text = path.read_text(encoding="utf-8")
        bodies = verbatim_bodies(text)
        breaks = [at for at in _breaks(text) if not any(start <= at < end for start, end in bodies)]
        chars = list(text)
        for at in breaks:
            chars[at] = " "
        joined += len(breaks)
        assert _outcome("".join(chars)) == _outcome(text), path
    assert joined > 300


def test_a_one_line_region_after_many_brace_pairs() -> None:
    """The op a one-line region belongs to is found past any number of brace pairs before it
    on its line (here 5,000 argument attribute dictionaries), without recursion and in time
    linear in the line."""
    arguments = ", ".join(f"%a{i}: index {{util.x}}" for i in range(5000))
    text = f"util.func private @f({arguments}) {{ util.return }}\n"
    printed = _outcome(text)
    assert printed.endswith("{util.x}) {\n    util.return\n  }\n}\n"), printed[-200:]
