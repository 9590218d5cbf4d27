"""util buffer ops (`!util.buffer`, host bytes) and the string ops that make buffers."""

from __future__ import annotations

import re

from streamopt.diagnostics import Location, error
from streamopt.dialects import register_op, unmodelled_check
from streamopt.dialects.builtin import OpaqueOp, top_level_parts
from streamopt.dialects.common import ANY_ATTRIBUTE, INDEX_ATTRIBUTE, STRING, op_error
from streamopt.dialects.util.base import EffectsNotModelledOp, sanitize_identifier
from streamopt.ir.core import Operation
from streamopt.ir.opdef import DeclaredOp, attr_def, operand_def, result_def
from streamopt.ir.types import (
    INDEX,
    UTIL_BUFFER,
    IntegerType,
    Type,
    TypeConstraint,
    unescape_string,
)


def _check_buffer_type(type: Type, location: Location) -> None:
    if type != UTIL_BUFFER:
        raise error(f"'util.buffer.constant' result must be '!util.buffer', got '{type}'", location)


@register_op
class BufferConstantOp(DeclaredOp):
    """`%buffer_cst = util.buffer.constant "name"? <alignment = 64, mime_type = "..">? :
    !util.buffer = VALUE`: host bytes serialized from a constant attribute.

    VALUE is any serializable attribute: `dense<...> : tensor<...>`, a string, or
    `#util.composite<Nxi8, [...]>` (values packed back to back, as IREE packs constant
    uploads). `alignment` (a power of two) is the minimum byte alignment of the data.
    """

    name = "util.buffer.constant"
    is_pure = True
    name_ = attr_def(STRING)
    value = attr_def(ANY_ATTRIBUTE)
    alignment = attr_def(INDEX_ATTRIBUTE)
    mime_type = attr_def(STRING)
    result = result_def(UTIL_BUFFER, check=_check_buffer_type)
    assembly_format = (
        "($name^)? (custom<Properties>($alignment, $mime_type)^)? attr-dict `:` type($result) "
        "`=` $value"
    )
    unknown_property = "'util.buffer.constant' has no property '{}'"

    def asm_result_name(self, index: int) -> str | None:
        name = self.name_
        if name is None:
            return "buffer_cst"
        return "".join(c if c.isalnum() or c in "_$.-" else "_" for c in name.value)

    def verify(self) -> None:
        alignment = self.alignment.value if self.alignment is not None else 0
        if alignment > 0 and alignment & (alignment - 1):
            raise op_error(self, "invalid alignment; must be a power of two")


_BUFFER = TypeConstraint("A reference counted byte buffer.", lambda t: t == UTIL_BUFFER)
_FORMAT_ARGUMENT = TypeConstraint(
    "index or signless integer or A reference counted byte buffer.",
    lambda t: t in (INDEX, UTIL_BUFFER) or (isinstance(t, IntegerType) and not t.signedness),
)


@register_op
class StringFormatOp(EffectsNotModelledOp):
    """`%blk_N = util.string.format "blk.{}"(%i) : (index) -> !util.buffer`: a formatted
    string."""

    name = "util.string.format"
    format = attr_def(STRING)
    args = operand_def(_FORMAT_ARGUMENT, variadic=True)
    result = result_def(constraint=_BUFFER)
    assembly_format = "$format `(` $args `)` attr-dict `:` functional-type($args, $result)"

    def asm_result_name(self, index: int) -> str | None:
        return _format_name(self.format.value)

    def verify(self) -> None:
        problem = string_format_problem(self.format.value, len(self.args))
        if problem is not None:
            raise op_error(self, problem)


def _format_name(format: str) -> str:
    """The name IREE gives a formatted string: the format's letters, digits and `_`, with `N`
    for each placeholder and `_` for `.`, `-` and `/` (at most 32 characters)."""
    name = ""
    i = 0
    while i < len(format) and len(name) < 32:
        char = format[i]
        if format.startswith(("{{", "}}"), i):
            i += 2
        elif char == "{":
            close = format.find("}", i + 1)
            if close < 0:
                break
            name += "N"
            i = close + 1
        else:
            if char in ".-/":
                name += "_"
            elif (char.isascii() and char.isalnum()) or char == "_":
                name += char
            i += 1
    return sanitize_identifier(name or "formatted")


def _unsigned(text: str) -> int | None:
    """`text` as StringRef::getAsInteger reads a base-10 `unsigned` (32 bits), or None."""
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    # No int() of a longer string: Python refuses those of more than 4,300 digits.
    return int(digits) if len(digits) <= 10 and int(digits) <= 0xFFFFFFFF else None


def string_format_problem(format: str, count: int) -> str | None:
    """Why StringFormatOp::verify rejects format string `format` with `count` arguments
    (its parseFormatString, worded by its diagnostics), or None when it accepts it."""
    sequential = 0
    explicit: list[int] = []
    # Escaped braces, a placeholder, or a brace of neither, left to right.
    for found in re.finditer(r"\{\{|\}\}|\{([^}]*)\}|[{}]", format):
        content = found[1]
        if found[0] in ("{{", "}}"):
            continue
        if content is None:
            return f"{'unclosed' if found[0] == '{' else 'unmatched'} '{found[0]}' in format string"
        if not content:
            sequential += 1
        elif (value := _unsigned(content)) is not None:
            explicit.append(value)
        else:
            return (
                f"invalid placeholder '{{{content}}}' in format string; expected '{{}}' or '{{N}}'"
            )
    if sequential and explicit:
        return "cannot mix sequential '{}' and explicit '{N}' placeholders"
    # In Python's integers, as IREE computes it in 64 bits: `{4294967295}` wants 2**32.
    expected = max(explicit) + 1 if explicit else sequential
    if expected != count:
        return f"format string placeholder count does not match the {count} provided argument(s)"
    return None


@unmodelled_check("util.buffer.alloc")
def _check_inherent_in_attr_dict(op: Operation) -> None:
    """An inherent attribute in the op's attribute dictionary (`util.buffer.alloc
    uninitialized {alignment = 16 : index}`, after the keyword its UtilOps.td format starts
    with) is an error in iree-opt, which reads inherent attributes only where the op's syntax
    spells them (strict properties)."""
    if not isinstance(op, OpaqueOp):
        return
    text = op.written_text()[len(op.name) :]
    found = re.match(r"\s*uninitialized\s*\{", text)
    if found is None:
        return
    body = top_level_parts(text[found.end() :], "}")[0]
    for entry in top_level_parts(body, ","):
        key = top_level_parts(entry, "=")[0]
        name = unescape_string(key) if key.startswith('"') and len(key) > 1 else key
        if name == "alignment":
            raise error(
                f"custom op '{op.name}' inherent attribute '{name}' cannot be parsed from "
                "attr-dict when strict properties in assembly format is enabled",
                op.location,
            )
