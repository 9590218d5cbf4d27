"""Line templates (streamopt.parser.builder.LineTemplates) build what parsing builds.

Each input is parsed twice, with templates and with every line parsed, and the two results
must be equal in everything an op holds (class, operands by identity, result types and names,
attributes, location, op-specific state) and print the same text; an input one rejects the
other rejects with the same diagnostic. The inputs: every .mlir file of the tests and examples
(each `// -----` chunk), the mutants of the fuzzing test (damaged real dumps), and lines made
to differ from an earlier line only where a template must not apply.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_fuzz_mutations import make_mutant

import streamopt.parser.builder as builder_module
from streamopt.diagnostics import DiagnosticError, decode_source
from streamopt.ir.core import Block, Operation, Value
from streamopt.ir.module import Module
from streamopt.opt_command import call_with_deep_stack
from streamopt.parser import parse_module
from streamopt.printer import print_module

ROOT = Path(__file__).resolve().parents[2]
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")
FILES = sorted(p for folder in ("test", "examples") for p in (ROOT / folder).rglob("*.mlir"))


def _chunks(path: Path) -> Iterator[tuple[str, int]]:
    line = 0
    for chunk in path.read_text(errors="surrogateescape").split("// -----"):
        yield chunk, line
        line += chunk.count("\n")


def _state(op: Operation) -> list[Any]:
    """The values of the slots op classes add to Operation's."""
    out: list[Any] = []
    for cls in type(op).__mro__:
        if cls is Operation:
            break
        for slot in cls.__dict__.get("__slots__", ()):
            # Without addresses: the two parses have different Source objects.
            out.append((slot, _ADDRESS.sub("", repr(getattr(op, slot, None)))))
    return out


def fingerprint(module: Module) -> list[Any]:
    """Everything the parse put in `module`'s ops, with values named by first appearance."""
    numbers: dict[int, int] = {}

    def number(value: Value) -> int:
        return numbers.setdefault(id(value), len(numbers))

    out: list[Any] = []
    for op in module.op.walk():
        location = (op.location.line, op.location.column)
        out.append(
            (
                type(op).__name__,
                op.name,
                [number(v) for v in op.operands],
                [(number(r), repr(r.type), r.name_hint) for r in op.results],
                sorted((k, repr(v)) for k, v in op.attributes.items()),
                location,
                op.debug_loc,
                _state(op),
                len(op.regions),
                [id(b) for b in op.successors] and len(op.successors),
                isinstance(op.parent, Block),
            )
        )
    return out


def outcome(text: str, line_offset: int, templates: bool, monkeypatch: Any) -> Any:
    with monkeypatch.context() as patch:
        if not templates:
            patch.setattr(builder_module.LineTemplates, "reuse", lambda *args: None)
        try:
            module = parse_module(text, "input.mlir", line_offset)
        except DiagnosticError as error:
            return [(d.message, str(d.location)) for d in error.diagnostics]
    return fingerprint(module), print_module(module)


def check_same(text: str, monkeypatch: Any, line_offset: int = 0) -> None:
    # With the tool's deep stack: some mutants nest regions hundreds of levels deep.
    reused = call_with_deep_stack(lambda: outcome(text, line_offset, True, monkeypatch))
    parsed = call_with_deep_stack(lambda: outcome(text, line_offset, False, monkeypatch))
    assert reused == parsed


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_files_build_the_same(path: Path, monkeypatch: Any) -> None:
    for chunk, line in _chunks(path):
        check_same(chunk, monkeypatch, line)


def test_mutants_build_the_same(monkeypatch: Any) -> None:
    for number in range(200):
        text = decode_source(make_mutant(number).data)
        check_same(text, monkeypatch)


HEADER = """\
util.func public @f(%arg0: i32, %arg1: index) -> !stream.resource<*> {
  %c16 = arith.constant 16 : index
  %c0 = arith.constant 0 : index
  %0 = stream.async.splat %arg0 : i32 -> !stream.resource<*>{%c16}
"""
FOOTER = "  util.return %0 : !stream.resource<*>\n}\n"


@pytest.mark.parametrize(
    "lines",
    [
        # A repeated shape: the copies must be the op parsing makes.
        [
            "  %1 = stream.async.clone %0 : !stream.resource<*>{%c16} -> !stream.resource<*>{%c16}",
            "  %named = stream.async.clone %1 : !stream.resource<*>{%c16} -> "
            "!stream.resource<*>{%c16}",
        ],
        # The same shape over an operand of another type: the parse reports it.
        [
            "  %1 = stream.async.clone %0 : !stream.resource<*>{%c16} -> !stream.resource<*>{%c16}",
            "  %2 = stream.async.clone %arg1 : !stream.resource<*>{%c16} -> "
            "!stream.resource<*>{%c16}",
        ],
        # A result name already taken.
        [
            "  %1 = stream.async.clone %0 : !stream.resource<*>{%c16} -> !stream.resource<*>{%c16}",
            "  %1 = stream.async.clone %0 : !stream.resource<*>{%c16} -> !stream.resource<*>{%c16}",
        ],
        # An operand not defined yet, and one never defined.
        [
            "  %1 = stream.async.clone %0 : !stream.resource<*>{%c16} -> !stream.resource<*>{%c16}",
            "  %2 = stream.async.clone %3 : !stream.resource<*>{%c16} -> !stream.resource<*>{%c16}",
            "  %3 = stream.async.clone %0 : !stream.resource<*>{%c16} -> !stream.resource<*>{%c16}",
        ],
        [
            "  %1 = stream.async.clone %0 : !stream.resource<*>{%c16} -> !stream.resource<*>{%c16}",
            "  %2 = stream.async.clone %9 : !stream.resource<*>{%c16} -> !stream.resource<*>{%c16}",
        ],
        # A line using its own result.
        [
            "  %1 = stream.async.clone %0 : !stream.resource<*>{%c16} -> !stream.resource<*>{%c16}",
            "  %2 = stream.async.clone %2 : !stream.resource<*>{%c16} -> !stream.resource<*>{%c16}",
        ],
        # Tied dispatch operands: which operand a result ties to follows which names are equal.
        [
            "  %1 = stream.async.dispatch @ex::@fn(%0[%c0 to %c16 for %c16], "
            "%0[%c0 to %c16 for %c16]) : (!stream.resource<*>{%c16}, "
            "!stream.resource<*>{%c16}) -> %0{%c16}",
            "  %2 = stream.async.dispatch @ex::@fn(%1[%c0 to %c16 for %c16], "
            "%0[%c0 to %c16 for %c16]) : (!stream.resource<*>{%c16}, "
            "!stream.resource<*>{%c16}) -> %0{%c16}",
            "  %3 = stream.async.dispatch @ex::@fn(%2[%c0 to %c16 for %c16], "
            "%1[%c0 to %c16 for %c16]) : (!stream.resource<*>{%c16}, "
            "!stream.resource<*>{%c16}) -> %1{%c16}",
        ],
        # Result groups and numbered uses are always parsed.
        [
            "  %1:2 = util.call @g(%0) : (!stream.resource<*>) -> (index, index)",
            "  %2:2 = util.call @g(%0) : (!stream.resource<*>) -> (index, index)",
            "  %3 = arith.addi %1#0, %2#1 : index",
            "  %4 = arith.addi %1#1, %2#0 : index",
        ],
        # Lines with locations and strings.
        [
            '  %1 = arith.constant 1 : index loc("a.mlir":1:2)',
            '  %2 = arith.constant 1 : index loc("a.mlir":1:3)',
            '  util.optimization_barrier {note = "%0"} %0 : !stream.resource<*>',
            '  util.optimization_barrier {note = "%1"} %c0 : !stream.resource<*>',
        ],
    ],
)
def test_lines_build_the_same(lines: list[str], monkeypatch: Any) -> None:
    check_same(HEADER + "\n".join(lines) + "\n" + FOOTER, monkeypatch)


def test_repeated_lines_are_built_from_templates(monkeypatch: Any) -> None:
    made: list[Operation] = []
    instantiate = builder_module.LineTemplates._instantiate

    def counting(self: Any, *args: Any) -> Operation | None:
        op = instantiate(self, *args)
        if op is not None:
            made.append(op)
        return op

    monkeypatch.setattr(builder_module.LineTemplates, "_instantiate", counting)
    clones = [
        f"  %{i} = stream.async.clone %{i - 1} : !stream.resource<*>{{%c16}} -> "
        "!stream.resource<*>{%c16}"
        for i in range(1, 11)
    ]
    text = HEADER + "\n".join(clones) + "\n" + FOOTER.replace("%0 :", "%10 :")
    module = parse_module(text)
    # The first clone is parsed; the other nine are copies.
    assert len(made) == 9
    printed = print_module(module)
    assert all(line.strip() in printed for line in clones)
