"""Float literals printed as MLIR prints them (streamopt.ir.floats).

A decimal literal of type f16, bf16, f32 or f64 is converted to the type through a double,
as MLIR's parser converts it, and printed as MLIR's printFloatValue prints it: six digits
where they give the value back, else APFloat's round-trip spelling, else the bits in
hexadecimal. Checked against iree-opt on every finite f16 value, every fourth bf16 one, and
every literal `d.de±x` of f32's and f64's exponent ranges (stepped).

A hexadecimal literal of a float type spells its bits: checked on every f16 pattern and, for
bf16, f32 and f64, the least, a middle and the greatest fraction of every exponent of either
sign (zeros, subnormals, infinities, NaNs among them); and refused as MLIR refuses it (a
leading minus, more bits than the type has, of ten float types) with iree-opt's error.
"""

from __future__ import annotations

import itertools
import shutil
import struct

import pytest
from differential import first_errors_of_both, outputs_of_both, split_outputs_of_both

from streamopt.ir.floats import float_bits, float_from_bits, float_text


@pytest.mark.parametrize(
    ("literal", "type_name", "printed"),
    [
        ("1.5", "f32", "1.500000e+00"),
        ("0.1", "f16", "9.997550e-02"),  # Rounded to f16, then six digits, truncated.
        ("-0.0", "f16", "-0.000000e+00"),
        ("1.0000001", "f32", "1.00000012"),  # Six digits do not give it back.
        ("123456792.0", "f32", "0x4CEB79A3"),  # Nor does the round-trip spelling's `.`.
        ("1.0e40", "f32", "0x7F800000"),  # Infinity.
        ("1.0e-45", "f32", "1.401300e-45"),  # The least subnormal.
        ("1.0e-8", "f16", "0.000000e+00"),
    ],
)
def test_float_text(literal: str, type_name: str, printed: str) -> None:
    assert float_text(float(literal), type_name) == printed


def test_other_float_types_are_not_spelled() -> None:
    assert float_text(1.5, "f8E4M3FN") is None and float_text(1.5, "f80") is None
    assert float_from_bits(0x38, "f8E4M3FN") is None


@pytest.mark.parametrize(
    ("bits", "type_name", "value", "printed"),
    [
        (0x3F800000, "f32", 1.0, "1.000000e+00"),
        (0x80000000, "f32", -0.0, "-0.000000e+00"),
        (0x0001, "f16", 2.0**-24, "5.960460e-08"),  # The least subnormal.
        (0xFC00, "f16", -float("inf"), "0xFC00"),
        (0x1, "f64", 5e-324, "4.940660e-324"),
    ],
)
def test_float_from_bits(bits: int, type_name: str, value: float, printed: str) -> None:
    assert float_from_bits(bits, type_name) == (value, printed)


@pytest.mark.parametrize(
    ("value", "type_name", "bits"),
    [
        (1.0, "f32", 0x3F800000),
        (0.0, "f16", 0x0000),
        (-0.0, "f16", 0x8000),
        (1.00390625, "bf16", 0x3F80),  # Half-way: to even.
        (1.0e40, "f32", 0x7F800000),  # Past the largest: infinity.
        (-float("inf"), "f64", 0xFFF0000000000000),
        (2.0**-149, "f32", 0x00000001),
    ],
)
def test_float_bits(value: float, type_name: str, bits: int) -> None:
    assert float_bits(value, type_name) == bits
    assert float_from_bits(bits, type_name) is not None


def test_a_nan_keeps_its_bits() -> None:
    value, printed = float_from_bits(0x7FC00001, "f32") or (0.0, "")
    assert value != value and printed == "0x7FC00001"


def _f16_values() -> list[str]:
    return [repr(struct.unpack("<e", struct.pack("<H", bits))[0]) for bits in range(0x7C00)]


def _bf16_values() -> list[str]:
    # A bf16 is the top half of an f32.
    return [
        repr(struct.unpack("<f", struct.pack("<I", bits << 16))[0]) for bits in range(0, 0x7F80, 4)
    ]


def _decimal_literals(exponents: range) -> list[str]:
    return [
        f"{whole}.{tenth}e{e}" for e in exponents for whole in range(1, 10) for tenth in range(10)
    ]


def _f32_values(first_bits: int, count: int) -> list[str]:
    """`count` consecutive f32 values from the one of bits `first_bits`, as doubles."""
    return [
        repr(struct.unpack("<f", struct.pack("<I", bits))[0])
        for bits in range(first_bits, first_bits + count)
    ]


CASES = (
    [(v, "f16") for v in _f16_values()]
    + [(v, "bf16") for v in _bf16_values()]
    + [(v, "f32") for v in _decimal_literals(range(-46, 40))]
    + [(v, "f64") for v in _decimal_literals(range(-325, 309, 7))]
    # From 1.0 up: most need more than six digits (`1.00000012`).
    + [(v, "f32") for v in _f32_values(0x3F800000, 1024)]
    # Whole numbers near 123456792: more than six digits and no `.`, so in hexadecimal.
    + [(v, "f32") for v in _f32_values(0x4CEB7900, 256)]
)


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_case_prints_as_iree_opt_prints_it() -> None:
    assert len(CASES) == 31744 + 8160 + 7740 + 8190 + 1024 + 256
    lines = [f"  %{i} = arith.constant {v} : {t}" for i, (v, t) in enumerate(CASES)]
    iree, ours = outputs_of_both(
        "util.func public @f() {\n" + "\n".join(lines) + "\n  util.return\n}\n"
    )
    # Both print `%cst_N = arith.constant VALUE : TYPE`, one a line, in order.
    assert ours.splitlines() == iree.splitlines()
    # Each of MLIR's three spellings is met: six digits, the round-trip spelling, the bits.
    assert "= arith.constant 1.100000e+00 : f32" in iree
    assert "= arith.constant 1.00000012 : f32" in iree
    assert "= arith.constant 0x4CEB79A3 : f32" in iree


# (bits in the fraction, bits in the exponent, width) of bf16, f32 and f64.
_LAYOUTS = {"bf16": (7, 8, 16), "f32": (23, 8, 32), "f64": (52, 11, 64)}


def _hex_cases() -> list[tuple[int, str]]:
    cases = [(bits, "f16") for bits in range(1 << 16)]
    for type_name, (fraction, exponent, width) in _LAYOUTS.items():
        for sign, power in itertools.product((0, 1), range(1 << exponent)):
            top = sign << (width - 1) | power << fraction
            for low in (0, 1, 1 << (fraction - 1), (1 << fraction) - 1):
                cases.append((top | low, type_name))
    return cases


HEX_CASES = _hex_cases()


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_hexadecimal_literal_prints_as_iree_opt_prints_it() -> None:
    assert len(HEX_CASES) == 65536 + 2 * 4 * (256 + 256 + 2048)
    lines = [f"  %{i} = arith.constant 0x{bits:X} : {t}" for i, (bits, t) in enumerate(HEX_CASES)]
    iree, ours = outputs_of_both(
        "util.func public @f() {\n" + "\n".join(lines) + "\n  util.return\n}\n"
    )
    assert ours.splitlines() == iree.splitlines()
    # Values, infinities and NaNs (by their bits) are all met.
    assert "%cst = arith.constant 0.000000e+00 : f16" in iree
    assert "= arith.constant 0x7C00 : f16" in iree and "= arith.constant 0x7C01 : f16" in iree


# Each float type's width, as MLIR counts it: the hexadecimal literals around it.
_WIDTHS = {
    "f16": 16,
    "bf16": 16,
    "f32": 32,
    "f64": 64,
    "tf32": 19,
    "f8E4M3FN": 8,
    "f4E2M1FN": 4,
    "f6E3M2FN": 6,
    "f80": 80,
    "f128": 128,
}
BOUND_CASES = [
    f"util.func private @f() attributes {{a = {sign}0x{bits:X} : {type_name}}}\n"
    for type_name, width in _WIDTHS.items()
    for bits in (1, (1 << width) - 1, 1 << width)
    for sign in ("", "-")
] + [f"util.func private @f() attributes {{a = 1 : {type_name}}}\n" for type_name in _WIDTHS]


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_hexadecimal_literals_out_of_a_float_type_are_refused_as_iree_opt_refuses_them() -> None:
    iree, ours = first_errors_of_both(BOUND_CASES)
    assert {message for _, _, message in iree.values()} == {
        "hexadecimal float literal should not have a leading minus",
        "hexadecimal float constant out of range for type",
        "unexpected decimal integer literal for a floating point value",
    }
    assert ours == iree
    # Those both read print alike (f8 and other types keep their spelling: not compared).
    read = [
        c
        for i, c in enumerate(BOUND_CASES)
        if i not in iree and any(f": {t}}}" in c for t in ("f16", "bf16", "f32", "f64"))
    ]
    iree_text, ours_text = split_outputs_of_both(read)
    assert ours_text == iree_text and len(read) == 8
