"""Host-code syntax the parser reads as iree-opt does: what it must take, and what it must not.

The lit cases under test/lit/dialects and test/lit/parser check each rejection's message;
here each rule of `streamopt.parser.token_values` is also held to the valid spellings around it
(being stricter than iree-opt must never reject IR it accepts), and, where iree-opt is
installed, iree-opt is asked whether it agrees on every spelling.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from streamopt.diagnostics import DiagnosticError
from streamopt.dialects.registered import unregistered_dialect_op_problem
from streamopt.ir.types import ShapedType
from streamopt.parser import parse_module
from streamopt.parser.token_values import (
    dense_problem,
    dialect_attribute_problem,
    location_problem,
    shaped_type_problem,
    unregistered_dialect_problem,
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
    '#hal.executable.target<"llvm-cpu", "elf">',
    '#hal.executable.target<"a", "b", {c = [1, 2], d = "x>, y"}>',
]
INVALID_ATTRIBUTES = {
    "#hal.device.affinZity<@dev_a>": "unknown HAL attribute: device.affinZity",
    "#stream.lifetime<external>": "unknown attribute `lifetime` in dialect `stream`",
    '#hal.device.target<"local" {ordinal = 0 : index}>': "expected '>'",
    '#hal.device.target<"local", []>': "expected attribute value",
    '#hal.executable.target<"llvm-cpu" "elf">': "expected ','",
    '#hal.executable.target<"llvm-cpu">': "expected ','",
    '#hal.executable.target<"a", 3>': "invalid kind of attribute specified",
    '#hal.executable.target<"a", "b" {c = 1}>': "expected '>'",
    '#hal.executable.target<"a", "b", 4>': "invalid kind of attribute specified",
    '#hal.executable.target<"a", "b",>': "expected attribute value",
    '#hal.executable.target<"a", "b", {c = 1}, 3>': "expected '>'",
}

# Attributes and types of dialects iree-opt registers (or builtin ones, or aliases), then
# those of dialects it does not register, each with where MLIR reports it.
REGISTERED_DIALECT_SPELLINGS = [
    "#iree_cpu.cpu_encoding_resolver<>",
    '#hal.executable.target<"a", "b", {r = #iree_cpu.cpu_encoding_resolver<>}>',
    "#executable_target",
    '"#foo.bar<1>"',
    "tensor<4xf32, #encoding>",
    "!iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>",
    "#linalg.iterator_type<parallel>",
]
UNREGISTERED_DIALECT_SPELLINGS = {
    "#foo.bar<1>": (5, '#"foo"<"bar<1>"> : \'none\' attribute'),
    '#foo<"a">': (0, '#"foo"<""a""> : \'none\' attribute'),
    '#hal.executable.target<"a", "b", {r = #iree_c$pu.resolver<>}>': (49, '#"iree_c$pu"'),
    "[1, #foo.e : i32]": (9, '#"foo"<"e"> : \'i32\' attribute'),
    "tensor<4xf32, #foo.enc>": (19, '#"foo"<"enc"> : \'none\' attribute'),
    "!foo.t": (5, '`!"foo"<"t">` type'),
    'tensor<4x!foo<"t">>': (9, '`!"foo"<""t"">` type'),
}


@pytest.mark.parametrize("text", REGISTERED_DIALECT_SPELLINGS)
def test_registered_dialects_are_taken(text: str) -> None:
    assert unregistered_dialect_problem(text) is None


@pytest.mark.parametrize(("text", "where"), UNREGISTERED_DIALECT_SPELLINGS.items())
def test_unregistered_dialects_are_refused(text: str, where: tuple[int, str]) -> None:
    problem = unregistered_dialect_problem(text)
    assert problem is not None
    offset, start = where
    assert problem[0] == offset
    assert problem[1].startswith(start)
    assert problem[1].endswith(
        "created with unregistered dialect. If this is intended, please "
        "use --allow-unregistered-dialect"
    )


def test_unregistered_dialects_are_kept_when_allowed() -> None:
    text = '#executable_target = #hal.executable.target<"a", "b", {r = #foo.r<>}>\n'
    text += "util.global private @g {x = #foo.bar<1>, y = [#executable_target]} : !foo.t\n"
    with pytest.raises(DiagnosticError):
        parse_module(text)
    module = parse_module(text, allow_unregistered_dialect=True)
    assert [op.name for op in module.walk()] == ["builtin.module", "util.global"]


# Ops: the dialects iree-opt registers but streamopt does not model are kept as written; the
# custom form of any other dialect's op is refused, and its generic form unless allowed.
REGISTERED_DIALECT_OPS = [
    "%x = tensor.empty() : tensor<4xf32>",
    '%x = "tensor.empty"() : () -> tensor<4xf32>',
    "%x = gpu.thread_id x",
    "%x = ub.poison : i32",
]
# Each with MLIR's message and the column it reports at: the op's name in the custom form,
# the `(` after the name in the generic form.
CUSTOM_UNREGISTERED = "Dialect `foo' not found for custom op 'foo.bar'"
GENERIC_UNREGISTERED = (
    "operation being parsed with an unregistered dialect. If this is intended, please use "
    "--allow-unregistered-dialect"
)
UNREGISTERED_DIALECT_OPS = {
    "foo.bar": (CUSTOM_UNREGISTERED, 3),
    "%x = foo.bar : i32": (CUSTOM_UNREGISTERED, 8),
    '"foo.bar"() : () -> ()': (GENERIC_UNREGISTERED, 12),
    '%x = "bar" () : () -> i32': (GENERIC_UNREGISTERED, 14),
}
FUNCTION = "util.func private @f{}() {{\n  {}\n  util.return\n}}"


@pytest.mark.parametrize("op", REGISTERED_DIALECT_OPS)
def test_ops_of_registered_dialects_are_kept(op: str) -> None:
    parse_module(FUNCTION.format(0, op) + "\n")


@pytest.mark.parametrize(("op", "where"), UNREGISTERED_DIALECT_OPS.items())
def test_ops_of_unregistered_dialects_are_refused(op: str, where: tuple[str, int]) -> None:
    with pytest.raises(DiagnosticError) as refused:
        parse_module(FUNCTION.format(0, op) + "\n")
    diagnostic = refused.value.diagnostics[0]
    assert (diagnostic.message, diagnostic.location.column) == where
    assert diagnostic.location.line == 2


def test_generic_ops_of_unregistered_dialects_are_kept_when_allowed() -> None:
    assert unregistered_dialect_op_problem("foo.bar", generic=True, allowed=True) is None
    assert unregistered_dialect_op_problem("foo.bar", generic=False, allowed=True) is not None
    text = FUNCTION.format(0, '"foo.bar"() : () -> ()') + "\n"
    parse_module(text, allow_unregistered_dialect=True)


# `dense<"...">` with the shaped type after it: a hex string's length against the element type
# (a splat or every element, each in whole bytes; i1 too; none for i0), strings of other
# element types; `dense<[...]>`: the shape of its nesting against the type's (a scalar splats).
VALID_DENSE = [
    'dense<"0x0000803F"> : tensor<f32>',
    'dense<"0x0000803F"> : tensor<4xf32>',
    'dense<"0x0000803F0000803F"> : tensor<2xf32>',
    'dense<"0x000000aB"> : tensor<f32>',
    'dense<"0x01"> : tensor<16xi1>',
    'dense<"0x010001"> : tensor<3xi1>',
    'dense<"0x00"> : tensor<2xi4>',
    'dense<"0x000000"> : tensor<tf32>',
    'dense<"0x0000000000000000"> : tensor<2xcomplex<f16>>',
    'dense<"0x00000000000000000000000000000000"> : tensor<2xindex>',
    'dense<"0x00000000"> : vector<[4]xf32>',
    'dense<"0x"> : tensor<0xf32>',
    "dense<> : tensor<0x4xi32>",
    'dense<"0x00"> : tensor<2x2xui8, #encoding>',
    'dense<"anything"> : tensor<2x!util.buffer>',
    "dense<[1, 2]> : tensor<2xi32>",
    'dense<"0x"> : tensor<2xi0>',
    "dense<[0, 0]> : tensor<2xi0>",
    "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>",
    "dense<[[-1, 2]]> : tensor<1x2xi32>",
    "dense<[]> : tensor<0xi32>",
    "dense<[[]]> : tensor<1x0xi32>",
    "dense<1> : tensor<2x3xi32>",
    "dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>",
    'dense<["a, ]", "b"]> : tensor<2x!util.buffer>',
]
INVALID_DENSE = {
    'dense<"0x0000803F"> : tensor<?xf32>': (0, "elements literal type must have static shape"),
    'dense<"0x0000803"> : tensor<f32>': (
        6,
        "expected string containing hex digits starting with `0x`",
    ),
    'dense<"0X0000803F"> : tensor<f32>': (
        6,
        "expected string containing hex digits starting with `0x`",
    ),
    'dense<"3\xff0x0000803F"> : tensor<f32>': (
        6,
        "expected string containing hex digits starting with `0x`",
    ),
    'dense<"0x0000803G"> : tensor<f32>': (
        6,
        "expected string containing hex digits starting with `0x`",
    ),
    'dense<"0x0000803F00"> : tensor<2xf32>': (
        0,
        "elements hex data size is invalid for provided type: 'tensor<2xf32>'",
    ),
    'dense<"0x0102"> : tensor<16xi1>': (
        0,
        "elements hex data size is invalid for provided type: 'tensor<16xi1>'",
    ),
    'dense<"0x00000000"> : tensor<index>': (
        0,
        "elements hex data size is invalid for provided type: 'tensor<index>'",
    ),
    'dense<"0x0000"> : tensor<2xi0>': (
        0,
        "elements hex data size is invalid for provided type: 'tensor<2xi0>'",
    ),
    "dense<[1, 2]> : tensor<3xi32>": (
        0,
        "inferred shape of elements literal ([2]) does not match type ([3])",
    ),
    "dense<> : tensor<4xi32>": (
        0,
        "parsed zero elements, but type ('tensor<4xi32>') expected at least 1",
    ),
    "dense<[[1, 2], [3, 4]]> : tensor<4xi32>": (
        0,
        "inferred shape of elements literal ([2, 2]) does not match type ([4])",
    ),
    "dense<[[1], [2]]> : tensor<2xi32>": (
        0,
        "inferred shape of elements literal ([2, 1]) does not match type ([2])",
    ),
    "dense<[]> : tensor<0x3xi32>": (
        0,
        "inferred shape of elements literal ([0]) does not match type ([0, 3])",
    ),
    "dense<[5]> : tensor<i32>": (
        0,
        "inferred shape of elements literal ([1]) does not match type ([])",
    ),
    "dense<[(1.0, 2.0)]> : tensor<2xcomplex<f32>>": (
        0,
        "inferred shape of elements literal ([1]) does not match type ([2])",
    ),
}


def _dense_parts(spelling: str) -> tuple[str, ShapedType]:
    dense, type = spelling.split(" : ")
    return dense, ShapedType(type)


@pytest.mark.parametrize("spelling", VALID_DENSE)
def test_valid_dense_attributes_are_taken(spelling: str) -> None:
    assert dense_problem(*_dense_parts(spelling)) is None


@pytest.mark.parametrize(("spelling", "problem"), INVALID_DENSE.items())
def test_dense_hex_strings_the_type_does_not_take_are_refused(
    spelling: str, problem: tuple[int, str]
) -> None:
    assert dense_problem(*_dense_parts(spelling)) == problem


def test_dense_hex_strings_are_checked_where_a_constant_is_read() -> None:
    value = 'dense<"0x0000803G"> : tensor<f32>'
    constant = f"  %0 = stream.async.constant : !stream.resource<constant>{{%c4}} = {value}"
    text = f"util.func private @f() {{\n  %c4 = arith.constant 4 : index\n{constant}\n"
    text += "  util.return\n}\n"
    with pytest.raises(DiagnosticError) as refused:
        parse_module(text)
    location = refused.value.diagnostics[0].location
    assert (location.line, location.column) == (3, text.split("\n")[2].index(value) + 7)


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


# Something other than `>` (or a tensor's or memref's `,`) after a plain element type: at the
# end of the element type, in MLIR's words.
AFTER_ELEMENT_TYPE = {
    "tensor<2xi8 2xi8>": (11, "expected '>' in tensor type"),
    "vector<2xi8, i8>": (11, "expected '>' in vector type"),
    "memref<2xi8 i8>": (11, "expected ',' or '>' in memref type"),
    "tensor<2x!util.buffer 3>": (21, "expected '>' in tensor type"),
}


@pytest.mark.parametrize(("text", "problem"), AFTER_ELEMENT_TYPE.items())
def test_what_follows_the_element_type_is_checked(text: str, problem: tuple[int, str]) -> None:
    assert shaped_type_problem(text) == problem


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
    each one streamopt refuses (one file each, or one chunk each of a file iree-opt reads with
    --verify-diagnostics where streamopt's message is iree-opt's: a few seconds in all)."""
    header = '#loc1 = loc("x":1:1)\n#loc2 = loc("y":1:1)\n#loc3 = loc("z":1:1)\n'
    header += '#encoding = "e"\n#executable_target = #hal.executable.target<"a", "b">\n'
    header += '#a = #hal.executable.target<"a", "b">\n'
    spellings = [
        (VALID_LOCATIONS, list(INVALID_LOCATIONS), "util.global private @g{} : i32 {}"),
        (VALID_SHAPES, [*INVALID_SHAPES, *AFTER_ELEMENT_TYPE], "util.global private @g{} : {}"),
        (VALID_ATTRIBUTES, list(INVALID_ATTRIBUTES), "util.global private @g{} {{x = {}}} : i32"),
        (VALID_STRINGS, ['"a\\q"', '"a\vb"'], "util.global private @g{} {{x = {}}} : i32"),
    ]
    # Refused with the message iree-opt gives (up to where streamopt names its own flag).
    with_messages = [
        (
            REGISTERED_DIALECT_SPELLINGS,
            list(UNREGISTERED_DIALECT_SPELLINGS),
            "util.global private @g{} {{x = {}}} : i32",
        ),
        (REGISTERED_DIALECT_OPS, list(UNREGISTERED_DIALECT_OPS), FUNCTION),
        (VALID_DENSE, list(INVALID_DENSE), "util.global private @g{} {{x = {}}} : i32"),
    ]
    valid_lines = [
        line.format(index, text)
        for group, (valid, _, line) in enumerate(spellings + with_messages)
        for index, text in enumerate(valid, 100 * group)
    ]
    files = [("\n".join(valid_lines), 0)]
    files += [(line.format(0, text), 1) for _, invalid, line in spellings for text in invalid]
    path = tmp_path / "case.mlir"
    for body, expected in files:
        path.write_text(header + body + "\n")
        result = subprocess.run(["iree-opt", str(path)], capture_output=True, check=False)
        assert result.returncode == expected, (body, result.stderr)
    chunks = []
    for _, invalid, line in with_messages:
        for text in invalid:
            body = line.format(0, text)
            with pytest.raises(DiagnosticError) as refused:
                parse_module(body + "\n")
            message = refused.value.diagnostics[0].message.split(" If this is intended")[0]
            lines = body.split("\n")
            line_index = next(i for i, piece in enumerate(lines) if text in piece)
            expectation = f"// expected-error @+1 {{{{{message}}}}}"
            if message.startswith("Dialect"):  # iree-opt also wants the note it attaches.
                expectation = expectation.replace("@+1", "@+2")
                expectation += "\n// expected-note @+1 {{Available dialects}}"
            chunks.append("\n".join([*lines[:line_index], expectation, *lines[line_index:]]))
    path.write_text("\n// -----\n".join(header + chunk for chunk in chunks) + "\n")
    command = ["iree-opt", "--split-input-file", "--verify-diagnostics", str(path)]
    result = subprocess.run(command, capture_output=True, check=False)
    assert result.returncode == 0, result.stderr.decode()


# Misspelt values in an attribute position or a type position, each with iree-opt's message
# and column (MLIR reports a wrong token just after the token before it).
MISSPELT_VALUES = {
    "util.global private @g {x = affine_} : i32": (28, "expected attribute value"),
    "util.global private @g : foo": (25, "expected non-function type"),
    "util.global private @g {x = affine_map<d0 -> (d0)>} : i32": (
        40,
        "expected '(' in dimensional identifier list",
    ),
    "util.global private @g {x = affine_map<(d0) (d0)>} : i32": (44, "expected '->' or ':'"),
    "util.global private @g {x = affine_map<(d0) -> d0>} : i32": (
        47,
        "expected '(' in affine map range",
    ),
    'util.global private @g = #hal.executable.target<"a", "b", {a = 1,   = 2}> : !hal.device': (
        66,
        "expected attribute name",
    ),
    'util.global private @g = #hal.device.target<"local", {a = 1, }> : !hal.device': (
        61,
        "expected attribute name",
    ),
}
WELL_SPELT_VALUES = [
    "util.global private @g {x = unit, y = true, z = f8E4M3FN} : i32",
    "util.global private @g {x = affine_map<(d0)[s0] -> (d0 floordiv 2, s0)>} : i32",
    'util.global private @g = #hal.device.target<"local", {a = affine_map<(d0) -> (d0)>, '
    'b = "x, = y", c = [1, 2]}> : !hal.device',
]


@pytest.mark.parametrize(("text", "where"), MISSPELT_VALUES.items())
def test_misspelt_values_are_refused_where_iree_opt_refuses_them(
    text: str, where: tuple[int, str], tmp_path: Path
) -> None:
    column, message = where
    with pytest.raises(DiagnosticError) as caught:
        parse_module(text + "\n")
    diagnostic = caught.value.diagnostics[0]
    assert (diagnostic.location.line, diagnostic.location.column) == (1, column)
    assert diagnostic.message == message
    if shutil.which("iree-opt") is not None:
        path = tmp_path / "case.mlir"
        path.write_text(text + "\n")
        result = subprocess.run(["iree-opt", str(path)], capture_output=True, text=True)
        assert f"{path}:1:{column}: error: {message}" in result.stderr


@pytest.mark.parametrize("text", WELL_SPELT_VALUES)
def test_well_spelt_values_are_taken(text: str) -> None:
    parse_module(text + "\n")


# A value an op uses more than once, with a type at one use that is not the value's: iree-opt
# points at the use whose type is wrong (the first it resolves), with its line and column.
_DUPLICATE = (
    "util.func private @f(%arg0: !stream.resource<*>, %arg1: index) {{\n"
    "  %c4 = arith.constant 4 : index\n  {}\n  util.return\n}}"
)
TWICE_USED_VALUES = {
    "%0 = stream.async.dispatch @ex::@fn(%arg0[%c4 to %arg1 for %arg1], %arg0[%c4 to %arg1 for "
    "%arg1]) : (!stream.resource<*>{%arg1}, !stream.resource<external>{%arg1}) -> "
    "!stream.resource<*>{%arg1}": (
        70,
        "'%arg0'",
        "'!stream.resource<external>' vs '!stream.resource<*>'",
    ),
    "%0 = stream.async.dispatch @ex::@fn[%c4](%c4, %arg0[%c4 to %arg1 for %arg1]) : "
    "(i32, !stream.resource<*>{%arg1}) -> !stream.resource<*>{%arg1}": (
        44,
        "'%c4'",
        "'i32' vs 'index'",
    ),
    "%0 = stream.tensor.dispatch @ex::@fn(%arg0, %arg0) : (tensor<4xf32> in "
    "!stream.resource<*>{%arg1}, tensor<4xf32> in !stream.resource<external>{%arg1}) -> "
    "tensor<4xf32> in !stream.resource<*>{%arg1}": (
        47,
        "'%arg0'",
        "'!stream.resource<external>' vs '!stream.resource<*>'",
    ),
    "%0 = stream.tensor.dispatch @ex::@fn[%c4](%arg0, %c4) : (tensor<4xf32> in "
    "!stream.resource<*>{%arg1}, i32) -> tensor<4xf32> in %arg0{%arg1}": (
        52,
        "'%c4'",
        "'i32' vs 'index'",
    ),
}


@pytest.mark.parametrize(("text", "where"), TWICE_USED_VALUES.items())
def test_a_wrong_type_is_reported_at_its_use(
    text: str, where: tuple[int, str, str], tmp_path: Path
) -> None:
    column, name, types = where
    message = f"use of value {name} expects different type than prior uses: {types}"
    program = _DUPLICATE.format(text) + "\n"
    with pytest.raises(DiagnosticError) as caught:
        parse_module(program)
    diagnostic = caught.value.diagnostics[0]
    assert (diagnostic.location.line, diagnostic.location.column) == (3, column)
    assert diagnostic.message == message
    if shutil.which("iree-opt") is not None:
        path = tmp_path / "case.mlir"
        path.write_text(program)
        result = subprocess.run(["iree-opt", str(path)], capture_output=True, text=True)
        assert f"{path}:3:{column}: error: {message}" in result.stderr
