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
import shutil

import pytest
from differential import first_errors_of_both

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


def test_the_programs_cover_every_outcome() -> None:
    programs = _programs()
    assert len(programs) == 6 + 36 + 216 + 1956
    assert "#b = [#a]\n#a = 1 : i32\n" in programs  # a use before its definition
    assert "#a = 1 : i32\n#a = 1 : i32\n" in programs  # a second definition


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_program_is_read_as_iree_opt_reads_it() -> None:
    programs = _programs()
    iree, ours = first_errors_of_both(programs)
    messages = {message.split(" id ")[0] for _, _, message in iree.values()}
    assert messages == {
        "undefined symbol alias",
        "redefinition of attribute alias",
        "redefinition of type alias",
    }
    assert 50 < len(programs) - len(iree) < len(programs)  # Read and refused, both.
    assert ours == iree
