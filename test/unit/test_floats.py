"""Float literals printed as MLIR prints them (streamopt.ir.floats).

A decimal literal of type f16, bf16, f32 or f64 is converted to the type through a double,
as MLIR's parser converts it, and printed as MLIR's printFloatValue prints it: six digits
where they give the value back, else APFloat's round-trip spelling, else the bits in
hexadecimal. Checked against iree-opt on every finite f16 value, every fourth bf16 one, and
every literal `d.de±x` of f32's and f64's exponent ranges (stepped).
"""

from __future__ import annotations

import shutil
import struct

import pytest
from differential import outputs_of_both

from streamopt.ir.floats import float_text


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
