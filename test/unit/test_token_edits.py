"""Every one-token edit of a small program: streamopt refuses exactly the programs iree-opt
refuses, each on the line iree-opt names.

The program holds the util ops whose syntax is declared but whose effects are not modelled
(`util.global.address`, `util.global.load.indirect`, `util.global.store.indirect`,
`util.list.construct`, `util.string.format`). Each token of each of their lines is deleted,
written twice, and swapped with the next one, one edit per program. A deleted result name
leaves a line that starts with `=`, which MLIR reads as the start of the next op and refuses
at the end of the line before ("expected operation name in quotes"). Both tools are run once
on all the programs (`--split-input-file`).
"""

from __future__ import annotations

import re
import shutil

import pytest
from differential import first_errors_of_both

PROGRAM = """\
util.global private mutable @g : i32
util.func public @f(%arg0: i32, %arg1: !util.buffer, %arg2: index) -> (i32, !util.list<?>) {
  %ptr_g = util.global.address @g : !util.ptr<i32>
  %0 = util.global.load.indirect immutable %ptr_g {note = "kept"} : !util.ptr<i32> -> i32
  util.global.store.indirect %arg0, %ptr_g : i32 -> !util.ptr<i32>
  %1 = util.list.construct [%arg0 : i32, %arg1 : !util.buffer] : !util.list<?>
  %2 = util.list.construct [] {note = "kept"} : !util.list<i32>
  %blk_N = util.string.format "blk.{}"(%arg2) : (index) -> !util.buffer
  %N_N = util.string.format "{1}-{0}"(%arg0, %arg1) : (i32, !util.buffer) -> !util.buffer
  util.return %0, %1 : i32, !util.list<?>
}
"""
EDITED_LINES = range(2, 9)  # 0-based: the lines of the ops above.
# A string, a dialect type, a value, a symbol, a word, an arrow, or one character.
TOKEN = re.compile(r'"[^"]*"|![\w.]+<[^>]*>|%\w+|@\w+|[\w.]+|->|\S')


def programs() -> list[str]:
    """The program with one token of one edited line deleted, doubled or swapped with the
    next, each distinct program once, in a stable order."""
    lines = PROGRAM.split("\n")
    out: set[str] = set()
    for number in EDITED_LINES:
        line = lines[number]
        tokens = [(m.start(), m.end()) for m in TOKEN.finditer(line)]
        for index, (start, end) in enumerate(tokens):
            edits = [line[:start] + line[end:], line[:end] + " " + line[start:]]
            if index + 1 < len(tokens):
                start2, end2 = tokens[index + 1]
                edits.append(
                    line[:start]
                    + line[start2:end2]
                    + line[end:start2]
                    + line[start:end]
                    + line[end2:]
                )
            out.update("\n".join([*lines[:number], edit, *lines[number + 1 :]]) for edit in edits)
    return sorted(out)


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (the test extra)")
def test_streamopt_refuses_what_iree_opt_refuses_on_its_line() -> None:
    edited = programs()
    iree, ours = first_errors_of_both(edited)
    # Most edits break the program: the comparison is not of two empty sets.
    assert len(iree) > len(edited) * 0.9
    problems = [
        f"iree-opt: {iree.get(index)}\nstreamopt: {ours.get(index)}"
        for index in range(len(edited))
        if (iree.get(index) is None) != (ours.get(index) is None)
        or (index in iree and iree[index][0] != ours[index][0])
    ]
    assert not problems, f"{len(problems)} of {len(edited)} programs:\n\n" + "\n\n".join(
        problems[:20]
    )
