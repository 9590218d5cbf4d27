"""Float values as MLIR reads and prints them: a decimal literal of a float type becomes the
nearest value of that type (through a double, as MLIR's parser goes), a hexadecimal one the
value of those bits, printed as MLIR's printFloatValue prints it: `1.500000e+00` where six
digits give the value back, else APFloat's shortest round-trip spelling (`1.00000012`), else
the bits in hexadecimal (`0x7F800000`, infinity).

Values are exact: a ratio of integers (numerator, denominator) going in, and `significand *
2**exponent` (a `Binary`, the significand odd or zero) once rounded. Python's `fractions`
would do, but importing it costs a short run several milliseconds."""

from __future__ import annotations

import math
import re

# The IEEE formats streamopt prints as MLIR does, by type name: (precision in bits with the
# leading one, lowest normal exponent, highest exponent, width in bits).
FORMATS: dict[str, tuple[int, int, int, int]] = {
    "f16": (11, -14, 15, 16),
    "bf16": (8, -126, 127, 16),
    "f32": (24, -126, 127, 32),
    "f64": (53, -1022, 1023, 64),
}

# A nonnegative value `significand * 2**exponent`, the significand odd (or zero, exponent 0).
Binary = tuple[int, int]

_DECIMAL = re.compile(r"-?(\d+)(?:\.(\d*))?(?:[eE]([-+]?\d+))?")


def float_text(value: float, type_name: str) -> str | None:
    """`value` (a double, as MLIR's parser reads a literal) converted to the float type
    `type_name` and spelled as MLIR prints it; None for a type not in FORMATS, or NaN."""
    spec = FORMATS.get(type_name)
    if spec is None or value != value:
        return None
    precision = spec[0]
    negative = value < 0 or str(value).startswith("-")
    rounded = None if abs(value) == float("inf") else _round(*abs(value).as_integer_ratio(), spec)
    if rounded == (0, 0):
        return ("-" if negative else "") + "0.000000e+00"
    if rounded is not None:
        sign = "-" if negative else ""
        text = _to_string(rounded, precision, 6, 0, False)
        if _round(*_ratio(text), spec) == rounded:
            return sign + text
        text = _to_string(rounded, precision, 0, 3, True)
        if "." in text:
            return sign + text
    return _bits_text(rounded, negative, spec)


def float_from_bits(bits: int, type_name: str) -> tuple[float, str] | None:
    """The value of float type `type_name` whose bits are `bits` (a hexadecimal literal of
    that type, which fits its width) and its spelling as MLIR prints it; None for a type not
    in FORMATS."""
    spec = FORMATS.get(type_name)
    if spec is None:
        return None
    precision, emin, emax, width = spec
    fraction_bits = precision - 1
    fraction = bits & ((1 << fraction_bits) - 1)
    exponent = (bits >> fraction_bits) & ((1 << (width - precision)) - 1)
    sign = -1.0 if bits >> (width - 1) else 1.0
    if exponent == 2 * emax + 1:
        if fraction:  # A NaN: MLIR prints its bits, payload and all.
            return math.nan, f"0x{bits:0{width // 4}X}"
        value = sign * math.inf
    elif exponent == 0:
        value = sign * math.ldexp(fraction, emin - fraction_bits)
    else:
        value = sign * math.ldexp(fraction | 1 << fraction_bits, exponent - emax - fraction_bits)
    text = float_text(value, type_name)
    assert text is not None
    return value, text


def float_bits(value: float, type_name: str) -> int:
    """The bits of `value` (a double, not a NaN) rounded to the float type `type_name` of
    FORMATS."""
    spec = FORMATS[type_name]
    negative = math.copysign(1.0, value) < 0
    rounded = None if abs(value) == math.inf else _round(*abs(value).as_integer_ratio(), spec)
    if rounded == (0, 0):
        return negative << (spec[3] - 1)
    return int(_bits_text(rounded, negative, spec), 16)


def _ratio(text: str) -> tuple[int, int]:
    """The exact value of the unsigned decimal literal `text`, as (numerator, denominator)."""
    match = _DECIMAL.fullmatch(text)
    assert match is not None, text
    whole, fraction, power = match.group(1), match.group(2) or "", int(match.group(3) or 0)
    scale = power - len(fraction)
    digits = int(whole + fraction)
    return (digits * 10**scale, 1) if scale >= 0 else (digits, 10**-scale)


def _round(numerator: int, denominator: int, spec: tuple[int, int, int, int]) -> Binary | None:
    """The nonnegative ratio rounded to the nearest value of the format `spec` (ties to
    even, subnormal below its lowest normal exponent); None where it rounds past the largest
    (to infinity)."""
    precision, emin, emax, _ = spec
    if numerator == 0:
        return (0, 0)
    # The power of two at or below the value.
    top = numerator.bit_length() - denominator.bit_length()
    if (denominator << top if top >= 0 else denominator) > (
        numerator if top >= 0 else numerator << -top
    ):
        top -= 1
    quantum = max(top, emin) - precision + 1  # The value of the last bit kept.
    if quantum >= 0:
        whole, rest = divmod(numerator, denominator << quantum)
        over = denominator << quantum
    else:
        whole, rest = divmod(numerator << -quantum, denominator)
        over = denominator
    if 2 * rest > over or (2 * rest == over and whole % 2):
        whole += 1
    if whole.bit_length() + quantum > emax + 1:
        return None
    if whole == 0:  # Below half the least subnormal.
        return (0, 0)
    while whole % 2 == 0:
        whole //= 2
        quantum += 1
    return (whole, quantum)


def _to_string(
    value: Binary, precision: int, format_precision: int, max_padding: int, truncate_zero: bool
) -> str:
    """APFloat::toString of the positive `value`, a value of `precision` bits."""
    significand, exp = value
    if not format_precision:
        format_precision = 2 + precision * 59 // 196
    # To a power of ten: N * 2**-e == N * 5**e * 10**-e.
    if exp > 0:
        significand <<= exp
        exp = 0
    elif exp < 0:
        significand *= 5**-exp
    # Drop the tens the precision does not need (truncating), as APFloat does first.
    bits = significand.bit_length()
    required = (format_precision * 196 + 58) // 59
    if bits > required:
        removable = (bits - required) * 59 // 196
        if removable:
            exp += removable
            significand //= 10**removable
    digits = str(significand).rstrip("0")
    exp += len(str(significand)) - len(digits)
    if len(digits) > format_precision:  # Round half up to format_precision digits.
        kept, dropped = digits[:format_precision], digits[format_precision]
        exp += len(digits) - format_precision
        if dropped >= "5":
            rounded = str(int(kept) + 1)
            if len(rounded) > len(kept):
                exp += 1
                rounded = rounded[:-1]
            kept = rounded
        stripped = kept.rstrip("0")
        exp += len(kept) - len(stripped)
        digits = stripped
    count = len(digits)
    if max_padding == 0:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or count + exp > format_precision
    else:
        top = exp + count - 1
        scientific = top < 0 and -top > max_padding
    if scientific:
        exp += count - 1
        mantissa = digits[0] + "." + (digits[1:] or ("0" if truncate_zero else ""))
        if not truncate_zero and format_precision > count - 1:
            mantissa += "0" * (format_precision - count + 1)
        power = str(abs(exp)).rjust(1 if truncate_zero else 2, "0")
        return f"{mantissa}{'E' if truncate_zero else 'e'}{'+' if exp >= 0 else '-'}{power}"
    if exp >= 0:
        return digits + "0" * exp
    whole = exp + count
    if whole > 0:
        return f"{digits[:whole]}.{digits[whole:]}"
    return f"0.{'0' * -whole}{digits}"


def _bits_text(value: Binary | None, negative: bool, spec: tuple[int, int, int, int]) -> str:
    """The bits of `value` (None: infinity) of the format `spec` in hexadecimal, as MLIR
    prints a value it does not spell in decimal."""
    precision, emin, emax, width = spec
    fraction_bits = precision - 1
    if value is None:
        exponent, fraction = 2 * emax + 1, 0
    else:
        significand, power = value
        top = significand.bit_length() - 1 + power
        if top < emin:  # Subnormal: no leading one.
            exponent, fraction = 0, significand << (power - emin + fraction_bits)
        else:
            exponent = top + emax
            fraction = (significand << (fraction_bits - significand.bit_length() + 1)) - (
                1 << fraction_bits
            )
    bits = (exponent << fraction_bits) | fraction | (negative << (width - 1))
    return f"0x{bits:0{width // 4}X}"
