"""util buffer ops (`!util.buffer`, host bytes) and the string ops that make buffers.

Only `util.buffer.constant` has its effects modelled; the others are EffectsNotModelledOp: the
analyses treat them as ops kept as written."""

from __future__ import annotations

import re
from typing import Any

from streamopt.diagnostics import Location, error
from streamopt.dialects import register_op
from streamopt.dialects.common import (
    ANY_ATTRIBUTE,
    INDEX_ATTRIBUTE,
    STRING,
    EffectsNotModelledOp,
    op_error,
)
from streamopt.dialects.util.base import sanitize_identifier
from streamopt.ir.opdef import DeclaredOp, attr_def, operand_def, result_def
from streamopt.ir.types import (
    I1,
    I64,
    INDEX,
    INDEX_CONSTRAINT,
    UTIL_BUFFER,
    UTIL_BUFFER_CONSTRAINT,
    FloatType,
    IntegerType,
    Type,
    TypeConstraint,
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
        _check_alignment(self)


def _check_alignment(op: BufferConstantOp | BufferAllocOp) -> None:
    alignment = op.alignment.value if op.alignment is not None else 0
    if alignment > 0 and alignment & (alignment - 1):
        raise op_error(op, "invalid alignment; must be a power of two")


# IREE's Util_Size and Util_Offset: an index.
def _size_of(field: str) -> Any:
    return operand_def(INDEX_CONSTRAINT, size_of=field)


def _offset() -> Any:
    return operand_def(INDEX_CONSTRAINT)


@register_op
class BufferAllocOp(EffectsNotModelledOp):
    """`%buffer = util.buffer.alloc uninitialized <alignment = 16>? : !util.buffer{%size}`."""

    name = "util.buffer.alloc"
    storage_size = _size_of("result")
    alignment = attr_def(INDEX_ATTRIBUTE)
    result = result_def(UTIL_BUFFER, asm_name="buffer")
    assembly_format = (
        "`uninitialized` (custom<Properties>($alignment)^)? attr-dict `:` type($result) `` "
        "`{` $storage_size `}`"
    )
    unknown_property = (
        "custom op 'util.buffer.alloc' duplicate or unknown property in properties dictionary: {}"
    )

    def verify(self) -> None:
        _check_alignment(self)


@register_op
class BufferDeallocOp(EffectsNotModelledOp):
    """`util.buffer.dealloc %buffer : !util.buffer{%size}`: its contents may be discarded."""

    name = "util.buffer.dealloc"
    operand_ = operand_def(UTIL_BUFFER_CONSTRAINT)
    operand_size = _size_of("operand")
    assembly_format = "$operand `:` type($operand) `{` $operand_size `}` attr-dict-with-keyword"


@register_op
class BufferSliceOp(EffectsNotModelledOp):
    """`%buffer = util.buffer.slice %source[%offset] : !util.buffer{%n} -> !util.buffer{%m}`:
    a copy of m bytes at the offset."""

    name = "util.buffer.slice"
    source = operand_def(UTIL_BUFFER_CONSTRAINT)
    source_size = _size_of("source")
    source_offset = _offset()
    result_size = _size_of("result")
    alignment = attr_def(INDEX_ATTRIBUTE)
    result = result_def(UTIL_BUFFER, asm_name="buffer", same_as="source")
    assembly_format = (
        "$source `[` $source_offset `]` (custom<Properties>($alignment)^)? attr-dict `:` "
        "type($source) `` `{` $source_size `}` `->` type($result) `` `{` $result_size `}`"
    )
    unknown_property = (
        "custom op 'util.buffer.slice' duplicate or unknown property in properties dictionary: {}"
    )


@register_op
class BufferSubspanOp(EffectsNotModelledOp):
    """`%buffer_span = util.buffer.subspan %source[%offset] : !util.buffer{%n} ->
    !util.buffer{%m}`: a view of m bytes at the offset (it aliases the source)."""

    name = "util.buffer.subspan"
    source = operand_def(UTIL_BUFFER_CONSTRAINT)
    source_size = _size_of("source")
    source_offset = _offset()
    result_size = _size_of("result")
    result = result_def(UTIL_BUFFER, asm_name="buffer_span", same_as="source")
    assembly_format = (
        "$source `[` $source_offset `]` `:` type($source) `` `{` $source_size `}` `->` "
        "type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )


@register_op
class BufferSizeOp(EffectsNotModelledOp):
    """`%buffer_size = util.buffer.size %buffer : !util.buffer`: its size in bytes."""

    name = "util.buffer.size"
    operand_ = operand_def(UTIL_BUFFER_CONSTRAINT)
    result = result_def(INDEX, asm_name="buffer_size")
    assembly_format = "$operand `:` type($operand) attr-dict-with-keyword"


_MEMREF = TypeConstraint(
    "memref of any type values", lambda t: t.text.startswith("memref<"), kind="builtin.memref"
)


@register_op
class BufferStorageOp(EffectsNotModelledOp):
    """`%buffer_storage, %buffer_offset = util.buffer.storage %buffer : !util.buffer{%n} ->
    (memref<?xi8>, index)`: the storage the buffer is a range of."""

    name = "util.buffer.storage"
    operand_ = operand_def(UTIL_BUFFER_CONSTRAINT)
    operand_size = _size_of("operand")
    result = result_def(asm_name="buffer_storage", constraint=_MEMREF)
    offset = result_def(INDEX, asm_name="buffer_offset")
    assembly_format = (
        "$operand `:` type($operand) `` `{` $operand_size `}` `->` `(` type($result) `,` "
        "type($offset) `)` attr-dict-with-keyword"
    )


@register_op
class BufferCopyOp(EffectsNotModelledOp):
    """`util.buffer.copy %source[%o], %target[%p], %length : !util.buffer{%n} ->
    !util.buffer{%m}`: bytes copied as by memcpy."""

    name = "util.buffer.copy"
    source = operand_def(UTIL_BUFFER_CONSTRAINT)
    source_size = _size_of("source")
    source_offset = _offset()
    target = operand_def(UTIL_BUFFER_CONSTRAINT)
    target_size = _size_of("target")
    target_offset = _offset()
    length = _offset()
    assembly_format = (
        "$source `[` $source_offset `]` `,` $target `[` $target_offset `]` `,` $length `:` "
        "type($source) `` `{` $source_size `}` `->` type($target) `` `{` $target_size `}` "
        "attr-dict-with-keyword"
    )


@register_op
class BufferCompareOp(EffectsNotModelledOp):
    """`%eq = util.buffer.compare %lhs[%o], %rhs[%p], %length : !util.buffer{%n},
    !util.buffer{%m}`: whether the two ranges hold the same bytes."""

    name = "util.buffer.compare"
    lhs = operand_def(UTIL_BUFFER_CONSTRAINT)
    lhs_size = _size_of("lhs")
    lhs_offset = _offset()
    rhs = operand_def(UTIL_BUFFER_CONSTRAINT)
    rhs_size = _size_of("rhs")
    rhs_offset = _offset()
    length = _offset()
    result = result_def(I1)
    assembly_format = (
        "$lhs `[` $lhs_offset `]` `,` $rhs `[` $rhs_offset `]` `,` $length `:` type($lhs) `` "
        "`{` $lhs_size `}` `,` type($rhs) `` `{` $rhs_size `}` attr-dict-with-keyword"
    )


# IREE's Util_Primitive and Util_FillPattern.
_PRIMITIVE = TypeConstraint(
    "index or integer or floating-point",
    lambda t: t == INDEX or isinstance(t, (IntegerType, FloatType)),
)
_PATTERN = TypeConstraint("integer or floating-point or index", _PRIMITIVE.accepts)


@register_op
class BufferFillOp(EffectsNotModelledOp):
    """`util.buffer.fill %pattern, %target[%o for %n] : i32 -> !util.buffer{%size}`."""

    name = "util.buffer.fill"
    pattern = operand_def(_PATTERN)
    target = operand_def(UTIL_BUFFER_CONSTRAINT)
    target_size = _size_of("target")
    target_offset = _offset()
    length = _offset()
    assembly_format = (
        "$pattern `,` $target `[` $target_offset `for` $length `]` `:` type($pattern) `->` "
        "type($target) `` `{` $target_size `}` attr-dict-with-keyword"
    )


class _BufferRangeReadOp(EffectsNotModelledOp):
    """An op that reads `length` bytes of a buffer at an offset (load, hash)."""

    source = operand_def(UTIL_BUFFER_CONSTRAINT)
    source_size = _size_of("source")
    source_offset = _offset()
    length = _offset()
    assembly_format = (
        "$source `[` $source_offset `for` $length `]` `:` type($source) `` `{` $source_size "
        "`}` `->` type($result) attr-dict-with-keyword"
    )


@register_op
class BufferLoadOp(_BufferRangeReadOp):
    """`%v = util.buffer.load %source[%o for %n] : !util.buffer{%size} -> i32`."""

    name = "util.buffer.load"
    result = result_def(constraint=_PRIMITIVE)


@register_op
class BufferStoreOp(EffectsNotModelledOp):
    """`util.buffer.store %v, %target[%o for %n] : i32 -> !util.buffer{%size}`."""

    name = "util.buffer.store"
    source = operand_def(_PRIMITIVE)
    target = operand_def(UTIL_BUFFER_CONSTRAINT)
    target_size = _size_of("target")
    target_offset = _offset()
    length = _offset()
    assembly_format = (
        "$source `,` $target `[` $target_offset `for` $length `]` `:` type($source) `->` "
        "type($target) `` `{` $target_size `}` attr-dict-with-keyword"
    )


@register_op
class BufferHashOp(_BufferRangeReadOp):
    """`%h = util.buffer.hash %source[%o for %n] : !util.buffer{%size} -> i64`: SipHash-2-4
    of the range."""

    name = "util.buffer.hash"
    result = result_def(I64)


_INTEGER = TypeConstraint(
    "index or signless integer",
    lambda t: t == INDEX or (isinstance(t, IntegerType) and not t.signedness),
)
_FORMAT_ARGUMENT = TypeConstraint(
    "index or signless integer or A reference counted byte buffer.",
    lambda t: t == UTIL_BUFFER or _INTEGER.accepts(t),
)


@register_op
class StringFormatOp(EffectsNotModelledOp):
    """`%blk_N = util.string.format "blk.{}"(%i) : (index) -> !util.buffer`: a formatted
    string."""

    name = "util.string.format"
    format = attr_def(STRING)
    args = operand_def(_FORMAT_ARGUMENT, variadic=True)
    result = result_def(constraint=UTIL_BUFFER_CONSTRAINT)
    assembly_format = "$format `(` $args `)` attr-dict `:` functional-type($args, $result)"

    def asm_result_name(self, index: int) -> str | None:
        return _format_name(self.format.value)

    def verify(self) -> None:
        problem = string_format_problem(self.format.value, len(self.args))
        if problem is not None:
            raise op_error(self, problem)


@register_op
class StringItoaOp(EffectsNotModelledOp):
    """`%itoa = util.string.itoa %value : index -> !util.buffer`: its unsigned decimal digits."""

    name = "util.string.itoa"
    value = operand_def(_INTEGER)
    result = result_def(UTIL_BUFFER, asm_name="itoa")
    assembly_format = "$value attr-dict `:` type($value) `->` type($result)"


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
