"""Every one-token edit of small programs: streamopt refuses exactly the programs iree-opt
refuses, each on the line iree-opt names.

The programs hold the util ops whose syntax is declared but whose effects are not modelled
(the pointer ops, the list ops, the buffer ops other than `util.buffer.constant`, and the
string ops). Each token of each of their lines is deleted, written twice, and swapped with
the next one, one edit per program. A deleted result name
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
BUFFERS_AND_LISTS = """\
util.func public @f(%n: index, %i: i32, %v: !util.list<?>, %l: !util.list<i32>) -> i64 {
  %b = util.buffer.alloc uninitialized : !util.buffer{%n}
  %b0 = util.buffer.alloc uninitialized <alignment = 16> : !util.buffer{%n}
  %b1 = util.buffer.slice %b[%n] : !util.buffer{%n} -> !util.buffer{%n}
  %span = util.buffer.subspan %b[%n] : !util.buffer{%n} -> !util.buffer{%n}
  %size = util.buffer.size %b : !util.buffer
  %storage, %offset = util.buffer.storage %b : !util.buffer{%n} -> (memref<?xi8>, index)
  util.buffer.copy %b[%n], %b1[%n], %n : !util.buffer{%n} -> !util.buffer{%n}
  %0 = util.buffer.compare %b[%n], %b1[%n], %n : !util.buffer{%n}, !util.buffer{%n}
  util.buffer.fill %i, %b[%n for %n] : i32 -> !util.buffer{%n}
  %1 = util.buffer.load %b[%n for %n] : !util.buffer{%n} -> i32
  util.buffer.store %i, %b[%n for %n] : i32 -> !util.buffer{%n}
  %2 = util.buffer.hash %b[%n for %n] : !util.buffer{%n} -> i64
  util.buffer.dealloc %b : !util.buffer{%n}
  %itoa = util.string.itoa %i : i32 -> !util.buffer
  %3 = util.list.create %n : !util.list<i32>
  %4 = util.list.create : !util.list<?>
  %5 = util.list.size %3 : !util.list<i32>
  util.list.resize %3, %n : !util.list<i32>
  %6 = util.list.get %l[%n] : !util.list<i32>
  %7 = util.list.get %v[%n] : !util.list<?> -> i32
  util.list.set %l[%n], %i : !util.list<i32>
  util.list.set %v[%n], %i : i32 -> !util.list<?>
  util.return %2 : i64
}
"""
# Each program and the lines (0-based) of the ops whose tokens are edited.
PROGRAMS = {
    "pointers_lists_strings": (PROGRAM, range(2, 9)),
    "buffers_lists": (BUFFERS_AND_LISTS, range(1, 23)),
}
# A string, a dialect type, a value, a symbol, a word, an arrow, or one character.
TOKEN = re.compile(r'"[^"]*"|![\w.]+<[^>]*>|%\w+|@\w+|[\w.]+|->|\S')


def programs(program: str, edited_lines: range) -> list[str]:
    """`program` with one token of one edited line deleted, doubled or swapped with the next,
    each distinct program once, in a stable order.

    Left out: a line's last `}` written twice. MLIR reads on across lines, so that `}` closes
    the function there and the error is at the next line; streamopt reads an op to the end of
    its line and refuses the `}` at the start of the next (docs/conformance.md)."""
    lines = program.split("\n")
    out: set[str] = set()
    for number in edited_lines:
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
            edits = [e for e in edits if not e.endswith("} }")]
            out.update("\n".join([*lines[:number], edit, *lines[number + 1 :]]) for edit in edits)
    return sorted(out)


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (the test extra)")
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_streamopt_refuses_what_iree_opt_refuses_on_its_line(name: str) -> None:
    edited = programs(*PROGRAMS[name])
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
