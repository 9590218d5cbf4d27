"""Integer literals of every integer type, read and printed as MLIR does.

Every literal from a vocabulary of values at the edges of each width (0, 1, 2**k - 1, 2**k,
2**k + 1 for k in 1, 7, 8, 63, 64), in decimal and hexadecimal, positive and negative, typed
with each of i1, i8, si8, ui8, i64, si64, ui64 and index, and untyped, as a dictionary's
value: streamopt refuses it exactly when iree-opt does, with iree-opt's first error at its
column, and prints what both read as iree-opt prints it (decimal, as the type's width holds
it; `true`/`false` for i1; `: i64` for an untyped one).
"""

from __future__ import annotations

import itertools
import shutil
from functools import cache

import pytest
from differential import Errors, first_errors_of_both, split_outputs_of_both

VALUES = sorted({max(0, (1 << k) + d) for k in (0, 1, 7, 8, 63, 64) for d in (-1, 0, 1)} | {0})
TYPES = ["", " : i1", " : i8", " : si8", " : ui8", " : i64", " : si64", " : ui64", " : index"]
LITERALS = [
    f"{sign}{spelling}{type}"
    for value, sign, hexadecimal, type in itertools.product(VALUES, ("", "-"), (False, True), TYPES)
    for spelling in [hex(value) if hexadecimal else str(value)]
]
CASES = [f"util.func private @f() attributes {{a = {literal}}}\n" for literal in LITERALS]


@cache
def _first_errors() -> tuple[Errors, Errors]:
    """Both tools' first errors on CASES: the module's two tests share one run of each."""
    return first_errors_of_both(CASES)


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_literal_is_read_as_iree_opt_reads_it() -> None:
    assert len(LITERALS) == len(VALUES) * 2 * 2 * len(TYPES) == 16 * 36
    iree, ours = _first_errors()
    assert 0 < len(iree) < len(CASES)
    assert {message for _, _, message in iree.values()} >= {
        "integer constant out of range for attribute",
        "negative integer literal not valid for unsigned integer type",
    }
    assert ours == iree


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_literal_both_read_prints_as_iree_opt_prints_it() -> None:
    iree_errors, _ = _first_errors()
    iree, ours = split_outputs_of_both([c for i, c in enumerate(CASES) if i not in iree_errors])
    assert ours == iree
    assert "a = true" in ours and "a = -1 : i8" in ours
