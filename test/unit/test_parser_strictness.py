"""Host-code syntax the parser reads as iree-opt does: what it must take, and what it must not.

The lit cases under test/lit/dialects and test/lit/parser check each rejection's message;
here each rule of `streamopt.parser.interpret` is also held to the valid spellings around it
(being stricter than iree-opt must never reject IR it accepts), and, where iree-opt is
installed, iree-opt is asked whether it agrees on every spelling.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from streamopt.diagnostics import DiagnosticError
from streamopt.parser import parse_module
from streamopt.parser.interpret import (
    dialect_attribute_problem,
    location_problem,
    shaped_type_problem,
)

VALID_LOCATIONS = [
    "loc(#loc3)",
    "loc(unknown)",
    'loc("program.mlir":4:1)',
    'loc("program.mlir":4)',
    'loc("program.mlir":4:1 to 5:2)',
    'loc("program.mlir":4:1 to :9)',
    'loc("name")',
    'loc("name"("program.mlir":4:1))',
    'loc(callsite("f" at callsite(#loc1 at "program.mlir":1:2)))',
    'loc(fused["a":1:2, #loc1])',
    'loc(fused<"metadata">[#loc1, unknown])',
]
INVALID_LOCATIONS = {
    "loc()": "expected location instance",
    "loc(callsite(#loc1 at ))": "expected location instance",
    "loc(callsite(#loc1 #loc2))": "expected 'at' in callsite location",
    'loc("a" "b")': "expected ')' in location",
    'loc("a":x)': "expected integer line number in FileLineColRange",
    "loc(fused #loc1)": "expected '[' in fused location",
}
VALID_SHAPES = [
    "tensor<4xf32>",
    "tensor<?x5xi8>",
    "tensor<*xf32>",
    "tensor<f32>",
    "tensor<4xf32, #encoding>",
    "tensor<4x!hal.buffer_view>",
    "tensor<4xcomplex<f32>>",
    "tensor<4xf8E4M3FN>",
    "vector<[4]xf32>",
    "vector<4x[4]xi1>",
    "memref<4xf32, strided<[1], offset: ?>, 1>",
]
# Each with the offset of where its element type should start.
INVALID_SHAPES = {"tensor<xf32>": 7, "tensor<4x4x>": 11, "vector<4xfloat>": 9}
VALID_ATTRIBUTES = [
    "#hal.device.affinity<@dev_a>",
    '#hal.device.target<"local">',
    '#hal.device.target<"local", {ordinal = 0 : index}>',
    '#hal.device.target<"local", [#executable_target]>',
    '#hal.device.target<"local", {a = "x>y, z"}, [#a, #hal.executable.target<"a", "b">]>',
    "#stream.resource_config<{alias_mutable_bindings = true}>",
    "#util.inline.never",
    '{note = "#hal.device.affinZity"}',
]
INVALID_ATTRIBUTES = {
    "#hal.device.affinZity<@dev_a>": "unknown HAL attribute: device.affinZity",
    "#stream.lifetime<external>": "unknown attribute `lifetime` in dialect `stream`",
    '#hal.device.target<"local" {ordinal = 0 : index}>': "expected '>'",
    '#hal.device.target<"local", []>': "expected attribute value",
}


@pytest.mark.parametrize("text", VALID_LOCATIONS)
def test_valid_locations_are_taken(text: str) -> None:
    assert location_problem(text) is None


@pytest.mark.parametrize(("text", "message"), INVALID_LOCATIONS.items())
def test_broken_locations_are_refused(text: str, message: str) -> None:
    problem = location_problem(text)
    assert problem is not None and problem[1] == message


@pytest.mark.parametrize("text", VALID_SHAPES)
def test_valid_shapes_are_taken(text: str) -> None:
    assert shaped_type_problem(text) is None


@pytest.mark.parametrize(("text", "offset"), INVALID_SHAPES.items())
def test_shapes_without_element_type_are_refused(text: str, offset: int) -> None:
    assert shaped_type_problem(text) == (offset, "expected non-function type")


@pytest.mark.parametrize(("text", "offset"), [("tensor<4>", 8), ("tensor<4x?>", 10)])
def test_dimensions_without_x_are_refused(text: str, offset: int) -> None:
    assert shaped_type_problem(text) == (offset, "expected 'x' in dimension list")


@pytest.mark.parametrize("text", VALID_ATTRIBUTES)
def test_valid_attributes_are_taken(text: str) -> None:
    assert dialect_attribute_problem(text) is None


@pytest.mark.parametrize(("text", "message"), INVALID_ATTRIBUTES.items())
def test_unknown_or_misshapen_attributes_are_refused(text: str, message: str) -> None:
    problem = dialect_attribute_problem(text)
    assert problem is not None and problem[1] == message


VALID_STRINGS = ['"a\\"b"', '"a\\\\q"', '"\\22x\\22"', '"tab\\tnewline\\n"']


@pytest.mark.parametrize("literal", VALID_STRINGS)
def test_valid_escapes_are_taken(literal: str) -> None:
    parse_module(f"util.global private @g {{note = {literal}}} : i32\n")


@pytest.mark.parametrize("literal", ['"a\\q"', '"a\vb"', '"a\fb"'])
def test_unknown_escapes_and_vertical_blanks_are_refused(literal: str) -> None:
    with pytest.raises(DiagnosticError):
        parse_module(f"util.global private @g {{note = {literal}}} : i32\n")


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="iree-opt is not installed")
def test_iree_opt_agrees(tmp_path: Path) -> None:
    """iree-opt takes every spelling above that streamopt takes (all in one file) and refuses
    each one streamopt refuses (one file each: a few seconds in all)."""
    header = '#loc1 = loc("x":1:1)\n#loc2 = loc("y":1:1)\n#loc3 = loc("z":1:1)\n'
    header += '#encoding = "e"\n#executable_target = #hal.executable.target<"a", "b">\n'
    header += '#a = #hal.executable.target<"a", "b">\n'
    spellings = [
        (VALID_LOCATIONS, list(INVALID_LOCATIONS), "util.global private @g{} : i32 {}"),
        (VALID_SHAPES, list(INVALID_SHAPES), "util.global private @g{} : {}"),
        (VALID_ATTRIBUTES, list(INVALID_ATTRIBUTES), "util.global private @g{} {{x = {}}} : i32"),
        (VALID_STRINGS, ['"a\\q"', '"a\vb"'], "util.global private @g{} {{x = {}}} : i32"),
    ]
    valid_lines = [
        line.format(index, text)
        for group, (valid, _, line) in enumerate(spellings)
        for index, text in enumerate(valid, 100 * group)
    ]
    files = [("\n".join(valid_lines), 0)]
    files += [(line.format(0, text), 1) for _, invalid, line in spellings for text in invalid]
    path = tmp_path / "case.mlir"
    for body, expected in files:
        path.write_text(header + body + "\n")
        result = subprocess.run(["iree-opt", str(path)], capture_output=True, check=False)
        assert result.returncode == expected, (body, result.stderr)
