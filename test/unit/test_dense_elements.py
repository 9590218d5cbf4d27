"""The elements of `dense<...>` literals, read and printed as MLIR does.

MLIR's TensorLiteralParser reads each element by the element type: an integer type takes
integers the type holds (`true`/`false` only for i1, no sign for an unsigned type), a float
type takes float literals and hexadecimal bit patterns of its width. The attribute prints each
element as its type holds it (`255` of i8 as `-1`, `0x3F800000` of f32 as `1.000000e+00`),
one value for a list whose elements are all equal, and more than 100 elements as hex data
(which, of fewer, it prints as a list).

Every element of a vocabulary (signs, both bases, widths' edges, floats, bit patterns, words
no number type takes, numbers MLIR's lexer ends early: `1e4` is `1` and `e4`), alone as a
splat and in every ordered pair as a two-element list, of each of nine element types:
streamopt refuses it exactly when iree-opt does, with iree-opt's first error at its column,
and prints what both read as iree-opt prints it. So does hex data of each type (one element,
all equal, all distinct) and a list of each, of 2, 100 and 101 elements.
"""

from __future__ import annotations

import itertools
import shutil

import pytest
from differential import first_errors_of_both, split_outputs_of_both

ELEMENTS = [
    "1",
    "-1",
    "- 1",
    "0",
    "255",
    "256",
    "-129",
    "0x3F800000",
    "-0x1",
    "0x100000000",
    "1.5",
    "-0.0",
    "1.0e40",
    "true",
    "false",
    "-",
    "x",
    "1e4",
    "0x",
]
TYPES = ["i1", "i8", "ui8", "si8", "index", "f16", "bf16", "f32", "f64"]
BODIES = ELEMENTS + [f"[{a}, {b}]" for a, b in itertools.product(ELEMENTS, repeat=2)]
CASES = [
    f"util.func private @f() attributes {{m = dense<{body}> : tensor<2x{type}>}}\n"
    for type in TYPES
    for body in BODIES
]


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_small_dense_literal_is_read_as_iree_opt_reads_it() -> None:
    assert len(CASES) == len(TYPES) * (19 + 19 * 19)
    iree, ours = first_errors_of_both(CASES)
    assert {message for _, _, message in iree.values()} >= {
        "integer constant out of range for type",
        "expected unsigned integer elements, but parsed negative value",
        "expected integer elements, but parsed floating-point",
        "expected i1 type for 'true' or 'false' values",
        "expected floating point literal",
        "unexpected decimal integer literal for a floating point value",
        "hexadecimal float literal should not have a leading minus",
        "hexadecimal float constant out of range for type",
        "expected integer or floating point literal",
        "expected element literal of primitive type",
        "expected '>'",
        "expected ']'",
    }
    assert ours == iree
    read = [case for index, case in enumerate(CASES) if index not in iree]
    iree_text, ours_text = split_outputs_of_both(read)
    assert ours_text == iree_text
    # Splats, lists, and lists of equal elements printed as one are all met.
    assert "dense<-1> : tensor<2xi8>" in iree_text
    assert "dense<[1, -1]> : tensor<2xi8>" in iree_text
    assert "dense<[1.500000e+00, 1.000000e+00]> : tensor<2xf32>" in iree_text


def _hex_cases() -> list[str]:
    """Hex data and long lists of each type: one element (a splat), every element equal,
    and distinct elements, of 2, 100 and 101 elements (MLIR prints more than 100 distinct
    elements as hex data)."""
    sizes = {"i1": 1, "i8": 1, "ui8": 1, "si8": 1, "index": 8, "f16": 2, "bf16": 2, "f32": 4}
    sizes["f64"] = 8
    cases = []
    for type, size in sizes.items():
        for count in (2, 100, 101):
            # Bytes that make every float a number (no NaN, no infinity) and i1 a 0 or 1.
            elements = [
                bytes([k % 2]) if type == "i1" else bytes([(k * 37 + 11) % 64] * size)
                for k in range(count)
            ]
            for data in (elements[0], elements[0] * count, b"".join(elements)):
                cases.append(f'dense<"0x{data.hex()}"> : tensor<{count}x{type}>')
            if type != "i1":
                listed = ", ".join(str(k % 50) for k in range(count))
                literal = f"{listed.replace(', ', '.0, ')}.0" if type[0] in "fb" else listed
                cases.append(f"dense<[{literal}]> : tensor<{count}x{type}>")
    return [f"util.func private @f() attributes {{m = {case}}}\n" for case in cases]


HEX_CASES = _hex_cases()


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_hex_data_and_long_lists_print_as_iree_opt_prints_them() -> None:
    assert len(HEX_CASES) == 9 * 3 * 3 + 8 * 3
    iree, ours = split_outputs_of_both(HEX_CASES)
    assert ours == iree
    assert 'dense<"0x' in iree and "dense<[0, 1, 0, 1]" not in iree
