"""Every type a stream, hal or util op spells, changed to each type of a small vocabulary:
streamopt refuses exactly the programs iree-opt refuses, each on the line iree-opt names.

The programs start from each `// -----` case of the round-trip lit files under
test/lit/dialects/{stream,hal,util}/ (not the `invalid` ones, not those with the
streamopt-only move ops iree-opt has no definition of, nor those with a `loc(...)`, whose
errors are reported in another file). In each line of a stream, hal or util op, each
integer, index, float, timepoint or hal handle type that stands alone (not a parameter of
another type) becomes each other type of VOCABULARY, one change per program. The change
reaches the op's operand and result constraints, the parser's checks of the types a use
states, and typed attributes (`1 : i32`).

One difference is known and allowed: iree-opt types an execution region op's own operands
after its region, so when a value is misused both in the `with(...)` captures and inside the
region, it names the use inside; streamopt names the capture, with the same message.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import NamedTuple

import pytest
from differential import first_errors_of_both

DIALECTS = Path(__file__).parents[1] / "lit" / "dialects"
VOCABULARY = ["index", "i1", "i8", "i32", "i64", "f32", "!stream.timepoint", "!hal.buffer"]
VOCABULARY += ["!hal.fence"]
STREAMOPT_ONLY = ("stream.async.move", "stream.cmd.move", "hal.device.queue.move")
# A type standing alone: not a dialect parameter (`<i32>`), a value name or a keyword part.
TYPE = re.compile(
    r"(?<![\w.!<%#@-])(index|i1|i8|i16|i32|i64|f16|f32|!stream\.timepoint|!hal\.[a-z_]+)"
    r"(?![\w<.])"
)
# The op a line starts (after its results), if it starts one.
OP_NAME = re.compile(r"^\s*(?:%[^=]*=\s*)?([a-z_]+\.[\w.]+)")
REGION_OPS = ("stream.cmd.execute", "stream.async.execute")


class Variant(NamedTuple):
    """One program: line `line` (0-based) of a case of `file`, with `old` at `column`
    changed to `new`."""

    file: str
    line: int
    column: int
    old: str
    new: str
    text: str

    def describe(self) -> str:
        return f"{self.file}: {self.old} -> {self.new} at line {self.line + 1} of:\n{self.text}"


def _variants() -> list[Variant]:
    variants = []
    for dialect in ("stream", "hal", "util"):
        for path in sorted((DIALECTS / dialect).glob("*.mlir")):
            if "invalid" in path.name:
                continue
            for chunk in path.read_text().split("// -----\n"):
                if any(name in chunk for name in STREAMOPT_ONLY) or "loc(" in chunk:
                    continue
                lines = [line for line in chunk.split("\n") if not line.lstrip().startswith("//")]
                for number, line in enumerate(lines):
                    op = OP_NAME.match(line)
                    if op is None or op[1].partition(".")[0] not in ("stream", "hal", "util"):
                        continue
                    for found in TYPE.finditer(line):
                        for new in VOCABULARY:
                            if new == found[1]:
                                continue
                            changed = line[: found.start()] + new + line[found.end() :]
                            text = "\n".join([*lines[:number], changed, *lines[number + 1 :]])
                            text = text.rstrip("\n") + "\n"
                            variants.append(
                                Variant(path.name, number, found.start(), found[1], new, text)
                            )
    return variants


VARIANTS = _variants()


def test_the_vocabulary_reaches_every_dialect() -> None:
    files = {variant.file for variant in VARIANTS}
    assert {"ops.mlir", "async-ops.mlir", "cmd-ops.mlir", "lowering-ops.mlir"} <= files
    assert len(VARIANTS) > 3000


def _op_at(lines: list[str], line: int) -> str | None:
    """The name of the op line `line` (1-based) of a program starts, if it starts one."""
    op = OP_NAME.match(lines[line - 1]) if 0 < line <= len(lines) else None
    return op[1] if op is not None else None


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (the test extra)")
def test_streamopt_refuses_what_iree_opt_refuses() -> None:
    iree, ours = first_errors_of_both([variant.text for variant in VARIANTS])
    lines_of = {}
    offset = 0
    for index, variant in enumerate(VARIANTS):
        lines_of[index] = (offset, variant.text.split("\n"))
        offset += variant.text.count("\n") + 1  # And the `// -----` line after it.
    problems = []
    for index, variant in enumerate(VARIANTS):
        want, got = iree.get(index), ours.get(index)
        if want is None and got is None:
            continue
        start, lines = lines_of[index]
        if (
            want is not None
            and got is not None
            and want[2] == got[2]
            and got[0] < want[0]
            and _op_at(lines, got[0] - start) in REGION_OPS
        ):
            continue  # The known difference (see the module's docstring).
        if want is None or got is None or want[0] != got[0]:
            problems.append(f"iree-opt: {want}\nstreamopt: {got}\n{variant.describe()}")
    assert not problems, f"{len(problems)} programs:\n\n" + "\n\n".join(problems[:20])
