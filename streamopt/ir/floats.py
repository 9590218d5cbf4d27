"""Float values as MLIR reads and prints them: a decimal literal of a float type becomes the
nearest value of that type (through a double, as MLIR's parser goes), printed as MLIR's
printFloatValue prints it: `1.500000e+00` where six digits give the value back, else
APFloat's shortest round-trip spelling (`1.00000012`), else the bits in hexadecimal
(`0x7F800000`, infinity)."""

from __future__ import annotations

from fractions import Fraction

# The IEEE formats streamopt prints as MLIR does, by type name: (precision in bits with the
# leading one, lowest normal exponent, highest exponent).
FORMATS: dict[str, tuple[int, int, int]] = {
    "f16": (11, -14, 15),
    "bf16": (8, -126, 127),
    "f32": (24, -126, 127),
    "f64": (53, -1022, 1023),
}


def float_text(value: float, type_name: str) -> str | None:
    """`value` (a double, as MLIR's parser reads a literal) converted to the float type
    `type_name` and spelled as MLIR prints it; None for a type not in FORMATS."""
    spec = FORMATS.get(type_name)
    if spec is None:
        return None
    precision, emin, emax = spec
    if value != value:  # NaN: MLIR's default NaN of the type, in hexadecimal.
        return None
    rounded = _round(Fraction(value), precision, emin, emax) if abs(value) != float("inf") else None
    negative = value < 0 or (value == 0 and str(value).startswith("-"))
    if rounded is not None and rounded == 0:
        return ("-" if negative else "") + "0.000000e+00"
    if rounded is not None:
        text = _to_string(rounded, precision, 6, 0, False)
        if _round(Fraction(text), precision, emin, emax) == rounded:
            return text
        text = _to_string(rounded, precision, 0, 3, True)
        if "." in text:
            return text
    return _bits_text(rounded, negative, type_name)


def _round(value: Fraction, precision: int, emin: int, emax: int) -> Fraction | None:
    """`value` rounded to the nearest value with `precision` bits (ties to even), subnormal
    below 2**emin; None where it rounds past the largest (to infinity)."""
    if value == 0:
        return Fraction(0)
    magnitude = abs(value)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1
    quantum = Fraction(2) ** (max(exponent, emin) - precision + 1)
    steps = magnitude / quantum
    whole = steps.numerator // steps.denominator
    rest = steps - whole
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2):
        whole += 1
    result = whole * quantum
    if result >= Fraction(2) ** (emax + 1):
        return None
    return result if value > 0 else -result


def _to_string(
    value: Fraction, precision: int, format_precision: int, max_padding: int, truncate_zero: bool
) -> str:
    """APFloat::toString of nonzero `value` (exact in `precision` bits)."""
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    # significand * 2**exp, the significand odd (APFloat drops its trailing binary zeros).
    exp = 0
    while magnitude.denominator != 1:
        magnitude *= 2
        exp -= 1
    significand = magnitude.numerator
    while significand % 2 == 0:
        significand //= 2
        exp += 1
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
        return f"{sign}{mantissa}{'E' if truncate_zero else 'e'}{'+' if exp >= 0 else '-'}{power}"
    if exp >= 0:
        return sign + digits + "0" * exp
    whole = exp + count
    if whole > 0:
        return f"{sign}{digits[:whole]}.{digits[whole:]}"
    return f"{sign}0.{'0' * -whole}{digits}"


def _bits_text(value: Fraction | None, negative: bool, type_name: str) -> str:
    """The bits of `value` (None: infinity) of type `type_name` in hexadecimal, as MLIR
    prints a value it does not spell in decimal."""
    precision, emin, emax = FORMATS[type_name]
    width = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}[type_name]
    fraction_bits = precision - 1
    if value is None:
        exponent, fraction = 2 * emax + 1, 0
    else:
        magnitude = abs(value)
        exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
        if Fraction(2) ** exponent > magnitude:
            exponent -= 1
        if exponent < emin:  # Subnormal: no leading one.
            exponent, fraction = 0, int(magnitude / Fraction(2) ** (emin - fraction_bits))
        else:
            significand = int(magnitude / Fraction(2) ** (exponent - fraction_bits))
            exponent, fraction = exponent + emax, significand - (1 << fraction_bits)
    bits = (exponent << fraction_bits) | fraction | (negative << (width - 1))
    return f"0x{bits:0{width // 4}X}"
