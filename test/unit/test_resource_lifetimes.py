"""Each stream op takes the resource lifetimes IREE's op definitions allow, and no others.

Most stream ops take `Stream_AnyStreamResource` (every lifetime but staging); a few take staging
resources too, or only them. The programs start from each `// -----` case of the round-trip
lit files under test/lit/dialects/stream/ (not the `invalid` ones, and without the
streamopt-only move ops iree-opt has no definition of):

- one `!stream.resource<L>` of one stream op's own text replaced by each of the six lifetimes,
  the rest of the case as it is (648 programs). Most changed types no longer match the other
  uses of their value, so these mostly test the parser's type checks of uses;
- every `!stream.resource<L>` of the case for one L replaced by each other lifetime (170
  programs): the uses stay consistent, so these reach the ops' verifiers.

And, for the ops those cases hold only with resources other ops made (or not at all), one op
on resources the function takes, of each lifetime (OPS: 126 programs).

streamopt refuses exactly the programs iree-opt refuses, each with iree-opt's first error at
its line and column.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import NamedTuple

import pytest
from differential import first_errors_of_both

STREAM_LIT = Path(__file__).parents[1] / "lit" / "dialects" / "stream"
LIFETIMES = ["*", "external", "transient", "variable", "constant", "staging"]
STREAMOPT_ONLY = ("stream.async.move", "stream.cmd.move", "hal.device.queue.move")
RESOURCE = re.compile(r"!stream\.resource<([^>]*)>")
# The op a line starts (after its results), if it starts one.
OP_NAME = re.compile(r"^\s*(?:%[^=]*=\s*)?([a-z_]+\.[\w.]+)")


class Variant(NamedTuple):
    """One program: a case of `file` with the occurrence at `column` (0-based) of its `line`
    (1-based in the program; 0: every occurrence) changed from `old` to `new`."""

    file: str
    line: int
    column: int
    old: str
    new: str
    text: str

    def describe(self) -> str:
        where = f"line {self.line}" if self.line else "every line"
        return f"{self.file}: {self.old} -> {self.new} at {where} of:\n{self.text}"


def _cases() -> list[tuple[str, list[str]]]:
    """The `// -----` cases of the round-trip files, as lines without comment-only lines."""
    cases = []
    for path in sorted(STREAM_LIT.glob("*.mlir")):
        if "invalid" in path.name:
            continue
        for chunk in path.read_text().split("// -----\n"):
            if any(name in chunk for name in STREAMOPT_ONLY):
                continue
            lines = [line for line in chunk.split("\n") if not line.lstrip().startswith("//")]
            if any(line.strip() for line in lines):
                cases.append((path.name, lines))
    return cases


def _is_stream_op_text(line: str) -> bool:
    """The line is (part of) a stream op's own text: a stream op, or a line that continues one
    (a dispatch's resource, a constant's value, a region's closing `} =>`)."""
    if line.lstrip().startswith("//") or RESOURCE.search(line) is None:
        return False
    name = OP_NAME.match(line)
    return name is None or name[1].startswith("stream.")


def _variants() -> list[Variant]:
    variants = []
    for file, lines in _cases():
        for index, line in enumerate(lines):
            if not _is_stream_op_text(line):
                continue
            for match in RESOURCE.finditer(line):
                for lifetime in LIFETIMES:
                    changed = line[: match.start(1)] + lifetime + line[match.end(1) :]
                    text = "\n".join([*lines[:index], changed, *lines[index + 1 :]])
                    variants.append(
                        Variant(file, index + 1, match.start(), match[1], lifetime, text)
                    )
    return variants


def _whole_case_variants() -> list[Variant]:
    variants = []
    for file, lines in _cases():
        text = "\n".join(lines)
        for old in sorted(set(RESOURCE.findall(text))):
            for lifetime in LIFETIMES:
                if lifetime != old:
                    changed = text.replace(
                        f"!stream.resource<{old}>", f"!stream.resource<{lifetime}>"
                    )
                    variants.append(Variant(file, 0, 0, old, lifetime, changed))
    return variants


# One op each, `{L}` the lifetime of every resource it names.
_HEADER = "util.func public @f(%r: !stream.resource<{L}>, %s: index, %t: !stream.timepoint, "
OPS = [
    _HEADER + "%v: i32) -> i32 {{\n  %c0 = arith.constant 0 : index\n"
    "  %0 = stream.resource.load %r[%c0] : !stream.resource<{L}>{{%s}} -> i32\n"
    "  util.return %0 : i32\n}}\n",
    _HEADER + "%v: i32) {{\n  %c0 = arith.constant 0 : index\n"
    "  stream.resource.store %v, %r[%c0] : i32 -> !stream.resource<{L}>{{%s}}\n"
    "  util.return\n}}\n",
    _HEADER + "%b: !util.buffer) -> !stream.resource<{L}> {{\n  %c0 = arith.constant 0 : index\n"
    "  %ok, %0 = stream.resource.try_map %b[%c0] : !util.buffer -> i1, "
    "!stream.resource<{L}>{{%s}}\n  util.return %0 : !stream.resource<{L}>\n}}\n",
    _HEADER + "%f: !stream.file) -> !stream.timepoint {{\n  %c0 = arith.constant 0 : index\n"
    "  %c0_i64 = arith.constant 0 : i64\n"
    "  %0 = stream.file.read await(%t) => %f[%c0_i64], %r[%c0], %s : !stream.file -> "
    "!stream.resource<{L}>{{%s}} => !stream.timepoint\n  util.return %0 : !stream.timepoint\n}}\n",
    _HEADER + "%v: i32) -> !stream.resource<{L}> {{\n"
    "  %0 = stream.async.splat %v : i32 -> !stream.resource<{L}>{{%s}}\n"
    "  util.return %0 : !stream.resource<{L}>\n}}\n",
    _HEADER + "%v: i32) -> !stream.resource<*> {{\n"
    "  %0 = stream.async.clone %r : !stream.resource<{L}>{{%s}} -> !stream.resource<*>{{%s}}\n"
    "  util.return %0 : !stream.resource<*>\n}}\n",
    _HEADER + "%v: i32) -> !stream.resource<*> {{\n"
    "  %0 = stream.async.cast %r : !stream.resource<{L}>{{%s}} -> !stream.resource<*>{{%s}}\n"
    "  util.return %0 : !stream.resource<*>\n}}\n",
    _HEADER + "%v: i32) -> !stream.resource<{L}> {{\n  %c0 = arith.constant 0 : index\n"
    "  %0 = stream.async.fill %v, %r[%c0 to %s for %s] : i32 -> %r as "
    "!stream.resource<{L}>{{%s}}\n  util.return %0 : !stream.resource<{L}>\n}}\n",
    _HEADER + "%v: i32) -> !stream.resource<{L}> {{\n  %c0 = arith.constant 0 : index\n"
    "  %0 = stream.async.update %r, %r[%c0 to %s] : !stream.resource<{L}>{{%s}} -> %r as "
    "!stream.resource<{L}>{{%s}}\n  util.return %0 : !stream.resource<{L}>\n}}\n",
    _HEADER + "%v: i32) -> !stream.resource<{L}> {{\n  %c0 = arith.constant 0 : index\n"
    "  %0 = stream.async.copy %r[%c0 to %s], %r[%c0 to %s], %s : !stream.resource<{L}>{{%s}} -> "
    "%r as !stream.resource<{L}>{{%s}}\n  util.return %0 : !stream.resource<{L}>\n}}\n",
    _HEADER + "%v: i32) -> !stream.resource<{L}> {{\n  %c0 = arith.constant 0 : index\n"
    "  %0 = stream.async.slice %r[%c0 to %s] : !stream.resource<{L}>{{%s}} -> "
    "!stream.resource<{L}>{{%s}}\n  util.return %0 : !stream.resource<{L}>\n}}\n",
    _HEADER + "%v: i32) -> !stream.resource<{L}> {{\n"
    "  %0 = stream.async.transfer %r : !stream.resource<{L}>{{%s}} -> "
    "!stream.resource<{L}>{{%s}}\n  util.return %0 : !stream.resource<{L}>\n}}\n",
    _HEADER + "%v: i32) -> !stream.resource<{L}> {{\n"
    "  %0 = stream.async.barrier %r : !stream.resource<{L}>{{%s}}\n"
    "  util.return %0 : !stream.resource<{L}>\n}}\n",
    _HEADER + "%v: i32) -> !stream.resource<{L}> {{\n  %c0 = arith.constant 0 : index\n"
    "  %0 = stream.async.dispatch @ex::@fn(%r[%c0 to %s for %s]) : (!stream.resource<{L}>{{%s}}) "
    "-> %r{{%s}}\n  util.return %0 : !stream.resource<{L}>\n}}\n",
    _HEADER + "%v: i32) -> !util.buffer {{\n"
    "  %0 = stream.tensor.export %r : tensor<4xf32> in !stream.resource<{L}>{{%s}} -> "
    "!util.buffer\n  util.return %0 : !util.buffer\n}}\n",
    _HEADER + "%b: !util.buffer) -> !stream.resource<{L}> {{\n"
    "  %0 = stream.tensor.import %b : !util.buffer -> tensor<4xf32> in "
    "!stream.resource<{L}>{{%s}}\n  util.return %0 : !stream.resource<{L}>\n}}\n",
    _HEADER + "%v: i32) -> !stream.timepoint {{\n"
    "  %0 = stream.resource.dealloca await(%t) => %r : !stream.resource<{L}>{{%s}} => "
    "!stream.timepoint\n  util.return %0 : !stream.timepoint\n}}\n",
    _HEADER + "%v: i32) -> !stream.resource<{L}> {{\n  %c0 = arith.constant 0 : index\n"
    "  %0 = stream.resource.subview %r[%c0] : !stream.resource<{L}>{{%s}} -> "
    "!stream.resource<{L}>{{%s}}\n  util.return %0 : !stream.resource<{L}>\n}}\n",
    _HEADER + "%v: i32) -> !stream.resource<{L}> {{\n"
    "  %0 = stream.resource.alloc uninitialized : !stream.resource<{L}>{{%s}}\n"
    "  util.return %0 : !stream.resource<{L}>\n}}\n",
    _HEADER + "%v: i32) -> !stream.timepoint {{\n  %c0 = arith.constant 0 : index\n"
    "  %0 = stream.cmd.execute with(%r as %a: !stream.resource<{L}>{{%s}}) {{\n"
    "    stream.cmd.flush %a[%c0 for %s] : !stream.resource<{L}>{{%s}}\n"
    "    stream.cmd.copy %a[%c0], %a[%c0], %s : !stream.resource<{L}>{{%s}} -> "
    "!stream.resource<{L}>{{%s}}\n"
    "    stream.cmd.fill %v, %a[%c0 for %s] : i32 -> !stream.resource<{L}>{{%s}}\n"
    "  }} => !stream.timepoint\n  util.return %0 : !stream.timepoint\n}}\n",
    _HEADER + "%v: i32) -> !stream.timepoint {{\n  %c0 = arith.constant 0 : index\n"
    "  %0 = stream.cmd.execute with(%r as %a: !stream.resource<{L}>{{%s}}) {{\n"
    "    stream.cmd.dispatch @ex::@fn {{\n      rw %a[%c0 for %s] : !stream.resource<{L}>{{%s}}\n"
    "    }}\n  }} => !stream.timepoint\n  util.return %0 : !stream.timepoint\n}}\n",
]


def _op_variants() -> list[Variant]:
    return [
        Variant("OPS", 0, 0, "", lifetime, template.format(L=lifetime))
        for template in OPS
        for lifetime in LIFETIMES
    ]


def test_the_variants_change_every_resource_of_every_stream_op() -> None:
    variants = _variants()
    files = {variant.file for variant in variants}
    assert {"async-ops.mlir", "cmd-ops.mlir", "ops.mlir"} <= files
    assert len(variants) % len(LIFETIMES) == 0
    # Every op of the round-trip files that names a resource type is changed somewhere.
    changed = {OP_NAME.match(v.text.split("\n")[v.line - 1]) for v in variants}
    names = {match[1] for match in changed if match is not None}
    assert {"stream.async.splat", "stream.async.clone", "stream.cmd.fill"} <= names
    assert "util.return" not in names and "util.func" not in names
    assert len(variants) == 648
    assert len(_whole_case_variants()) == 170
    assert len(_op_variants()) == 126


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_lifetime_is_refused_as_iree_opt_refuses_it() -> None:
    variants = _variants()
    _read_alike(variants)


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_lifetime_of_a_whole_case_is_refused_as_iree_opt_refuses_it() -> None:
    _read_alike(_whole_case_variants())


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_lifetime_of_each_op_is_refused_as_iree_opt_refuses_it() -> None:
    _read_alike(_op_variants())


def _read_alike(variants: list[Variant]) -> None:
    """streamopt refuses the programs of `variants` iree-opt refuses, each with iree-opt's
    first error; the disagreements, if any, in the program's own lines."""
    iree, ours = first_errors_of_both([variant.text + "\n" for variant in variants])
    # The first line of each program in the joined input, to name lines as the program's.
    starts = [1]
    for variant in variants[:-1]:
        starts.append(starts[-1] + variant.text.count("\n") + 2)
    # The cases as written are valid; staging is refused somewhere; the rest are read, both.
    assert not any(i in iree for i, v in enumerate(variants) if v.old == v.new)
    assert any("but got '!stream.resource<staging>'" in error[2] for error in iree.values())
    assert 0 < len(iree) < len(variants)
    disagreements = []
    for index in sorted(set(iree) | set(ours)):
        if iree.get(index) != ours.get(index):
            local = [
                None if found is None else (found[0] - starts[index] + 1, *found[1:])
                for found in (iree.get(index), ours.get(index))
            ]
            disagreements.append(
                f"iree-opt: {local[0]}\nstreamopt: {local[1]}\n{variants[index].describe()}"
            )
    assert not disagreements, f"{len(disagreements)} of {len(variants)}:\n" + "\n\n".join(
        disagreements[:10]
    )
