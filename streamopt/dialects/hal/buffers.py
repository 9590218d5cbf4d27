"""hal element and encoding types, buffers and buffer views."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import error
from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.common import (
    STRING,
    TYPE_ATTRIBUTE,
    EffectsNotModelledOp,
    IndexKind,
    op_error,
)
from streamopt.dialects.hal.base import BUFFER_USAGE, MEMORY_TYPE, BitEnumAttr, HalOp
from streamopt.ir.core import Access
from streamopt.ir.opdef import (
    AttributeKind,
    FormatReader,
    attr_def,
    operand_def,
    result_def,
)
from streamopt.ir.types import (
    HAL_BUFFER,
    HAL_BUFFER_CONSTRAINT,
    HAL_BUFFER_VIEW,
    HAL_BUFFER_VIEW_CONSTRAINT,
    I1,
    I32,
    INDEX,
    INDEX_CONSTRAINT,
    Attribute,
    IntegerType,
    Type,
    TypeAttr,
)
from streamopt.parser import token_values
from streamopt.parser.parts import TOKEN_CLASSES

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder


@register_op
class ElementTypeOp(HalOp):
    """`%element_type_f32 = hal.element_type<f32> : i32`: the runtime code of an element
    type."""

    name = "hal.element_type"
    is_pure = True
    type_: TypeAttr = attr_def(TYPE_ATTRIBUTE)
    result = result_def(I32)
    assembly_format = "`<` $type `>` attr-dict `:` type($result)"

    @property
    def element_type(self) -> Type:
        return self.type_.type

    def asm_result_name(self, index: int) -> str | None:
        return "element_type_" + "".join(
            c if c.isalnum() or c in "_$." else "_" for c in self.element_type.text
        )

    def verify(self) -> None:
        type = self.element_type
        text = type.text
        if not (
            isinstance(type, IntegerType)
            or text in ("f16", "bf16", "f32", "f64", "index")
            or text.startswith(("f8", "f6", "f4", "complex<"))
        ):
            raise op_error(self, "unsupported element type")


class _BitsConstantOp(HalOp):
    """`%r = hal.<name><"A|B"> : i32`: the runtime value of a bit-enum (folds to a constant)."""

    is_pure = True

    @property
    def value(self) -> int:
        attr = self.attribute_map[next(iter(self.definition.attributes))]
        assert isinstance(attr, BitEnumAttr)
        return attr.value


@register_op
class MemoryTypeOp(_BitsConstantOp):
    """`%memory_type = hal.memory_type<"DeviceVisible|DeviceLocal"> : i32`."""

    name = "hal.memory_type"
    type_ = attr_def(MEMORY_TYPE)
    result = result_def(I32, asm_name="memory_type")
    assembly_format = "`<` $type `>` attr-dict `:` type($result)"


@register_op
class BufferUsageOp(_BitsConstantOp):
    """`%buffer_usage = hal.buffer_usage<"TransferSource|...|SharingImmutable"> : i32`."""

    name = "hal.buffer_usage"
    usage = attr_def(BUFFER_USAGE)
    result = result_def(I32, asm_name="buffer_usage")
    assembly_format = "`<` $usage `>` attr-dict `:` type($result)"


class _EncodingKind(AttributeKind):
    """The encoding of `hal.encoding_type<#enc>`: an attribute; a keyword other than the
    `dense_row_major` its format spells is an error."""

    grammar = "(ATTR_REF | BARE_ID)"

    def from_part(self, reader: FormatReader, name: str, part: Any) -> Attribute:
        if part.type != "ATTR_REF":
            raise error(
                f"expected 'dense_row_major' or an attribute, got '{part}'", reader.location
            )
        return token_values.attribute_from_token("ATTR_REF", str(part), None)

    reads_generic = True  # Any attribute, as it is.


@register_op
class EncodingTypeOp(HalOp):
    """`%dense_row_major = hal.encoding_type<dense_row_major> : i32`."""

    name = "hal.encoding_type"
    is_pure = True
    encoding = attr_def(_EncodingKind())
    result = result_def(I32)
    assembly_format = "`<` ($encoding^):( `` `dense_row_major`)? `>` attr-dict `:` type($result)"

    def asm_result_name(self, index: int) -> str | None:
        return None if "encoding" in self.attribute_map else "dense_row_major"

    def verify(self) -> None:
        if "encoding" in self.attribute_map:
            raise op_error(self, "unsupported encoding type")


# The end of the buffer view ops that take a shape, an element type and an encoding.
_SHAPE_FORMAT = (
    "`shape` `(` `[` $shape `]` `)` `type` `(` $element_type `)` `encoding` `(` $encoding_type `)`"
)


@register_op
class BufferViewAssertOp(HalOp):
    """`hal.buffer_view.assert<%v : !hal.buffer_view> message("m") shape([%d]) type(%t)
    encoding(%e)`: abort unless the view holds such a tensor."""

    name = "hal.buffer_view.assert"
    buffer_view = operand_def()
    element_type = operand_def(type=I32)
    encoding_type = operand_def(type=I32)
    shape = operand_def(INDEX_CONSTRAINT, variadic=True)
    message = attr_def(STRING)
    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `message` `(` $message `)` "
        + _SHAPE_FORMAT
        + " attr-dict-with-keyword"
    )


@register_op
class BufferViewCreateOp(HalOp):
    """`%view = hal.buffer_view.create buffer(%b : !hal.buffer)[%offset, %length] shape([%d])
    type(%t) encoding(%e) : !hal.buffer_view`: a tensor view of a buffer range."""

    name = "hal.buffer_view.create"
    is_pure = True
    source_buffer = operand_def()
    source_offset = operand_def(type=INDEX)
    source_length = operand_def(type=INDEX)
    element_type = operand_def(type=I32)
    encoding_type = operand_def(type=I32)
    shape = operand_def(INDEX_CONSTRAINT, variadic=True)
    result = result_def(HAL_BUFFER_VIEW, asm_name="view")
    assembly_format = (
        "`buffer` `(` $source_buffer `:` type($source_buffer) `)` "
        "`` `[` $source_offset `,` $source_length `]` "
        + _SHAPE_FORMAT
        + " `:` type($result) attr-dict-with-keyword"
    )

    def tied_operand_index(self, result_index: int) -> int | None:
        # The view names the buffer's storage (as `hal.buffer_view.buffer` of it does).
        return 0


@register_op
class BufferViewRankOp(HalOp):
    """`%rank = hal.buffer_view.rank<%view : !hal.buffer_view> : index`: its number of dims."""

    name = "hal.buffer_view.rank"
    is_pure = True
    buffer_view = operand_def()
    result = result_def(INDEX)
    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `:` type($result) attr-dict-with-keyword"
    )


@register_op
class BufferViewBufferOp(HalOp):
    """`%buffer = hal.buffer_view.buffer<%view : !hal.buffer_view> : !hal.buffer`."""

    name = "hal.buffer_view.buffer"
    is_pure = True
    buffer_view = operand_def()
    result = result_def(HAL_BUFFER, asm_name="buffer")
    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `:` type($result) attr-dict-with-keyword"
    )

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0


@parse_rule("hal_dim_index")
def _hal_dim_index(b: Builder, children: list[Any]) -> int:
    # iree-opt takes any integer here, a negative one too (its verifier does not look at it).
    negative = any(isinstance(c, TOKEN_CLASSES) and str(c) == "-" for c in children)
    value = token_values.integer_literal(str(children[-1]))
    # An index attribute holds 64 bits, signed.
    if value > (1 << 63) - (0 if negative else 1):
        raise b.error("integer constant out of range for attribute", children[-1])
    return -value if negative else value


class _DimIndexKind(IndexKind):
    """`[0]`: an IndexAttr read by `hal_dim_index` (a sign, a range check)."""

    grammar = "hal_dim_index"


@register_op
class BufferViewDimOp(HalOp):
    """`%dim = hal.buffer_view.dim<%view : !hal.buffer_view>[0] : index`: the size of one
    dimension of a view."""

    name = "hal.buffer_view.dim"
    is_pure = True
    buffer_view = operand_def()
    index = attr_def(_DimIndexKind())
    result = result_def(INDEX)
    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `` `[` $index `]` `:` type($result) "
        "attr-dict-with-keyword"
    )


@register_op
class BufferSubspanOp(HalOp):
    """`%buffer = hal.buffer.subspan<%b : !hal.buffer>[%offset, %length] : !hal.buffer`: a
    buffer aliasing a byte range of another."""

    name = "hal.buffer.subspan"
    is_pure = True
    source_buffer = operand_def()
    source_offset = operand_def()
    length = operand_def()
    result = result_def(HAL_BUFFER, asm_name="buffer")
    assembly_format = (
        "`<` $source_buffer `:` type($source_buffer) `>` `` `[` $source_offset `,` $length `]` "
        "`:` type($result) attr-dict-with-keyword"
    )

    def tied_operand_index(self, result_index: int) -> int | None:
        # The subspan shares the source's storage.
        return 0


@register_op
class BufferLoadOp(HalOp):
    """`%v = hal.buffer.load<%b : !hal.buffer>[%offset] : i32`: a host read of one element
    (what `stream.resource.load` lowers to)."""

    name = "hal.buffer.load"
    source_buffer = operand_def(access=Access.READ)
    source_offset = operand_def()
    result = result_def()
    assembly_format = (
        "`<` $source_buffer `:` type($source_buffer) `>` `` `[` $source_offset `]` "
        "`:` type($result) attr-dict-with-keyword"
    )


@register_op
class BufferStoreOp(HalOp):
    """`hal.buffer.store<%b : !hal.buffer>[%offset] value(%v : i32)`: a host write of one
    element (what `stream.resource.store` lowers to)."""

    name = "hal.buffer.store"
    value = operand_def()
    target_buffer = operand_def(access=Access.WRITE)
    target_offset = operand_def()
    assembly_format = (
        "`<` $target_buffer `:` type($target_buffer) `>` `` `[` $target_offset `]` "
        "`value` `(` $value `:` type($value) `)` attr-dict-with-keyword"
    )


@register_op
class BufferLengthOp(HalOp):
    """`%length = hal.buffer.length<%b : !hal.buffer> : index`: the byte length of a buffer."""

    name = "hal.buffer.length"
    is_pure = True
    buffer = operand_def()
    result = result_def(INDEX, asm_name="length")
    assembly_format = "`<` $buffer `:` type($buffer) `>` `:` type($result) attr-dict-with-keyword"


@register_op
class BufferAssertOp(HalOp):
    """`hal.buffer.assert<%b : !hal.buffer> message("m") allocator(%a : !hal.allocator)
    minimum_length(%n) type(DeviceVisible) usage("...")`: abort unless the buffer fits."""

    name = "hal.buffer.assert"
    buffer = operand_def()
    allocator = operand_def()
    minimum_length = operand_def()
    message = attr_def(STRING)
    memory_types = attr_def(MEMORY_TYPE)
    buffer_usage = attr_def(BUFFER_USAGE)
    assembly_format = (
        "`<` $buffer `:` type($buffer) `>` `message` `(` $message `)` "
        "`allocator` `(` $allocator `:` type($allocator) `)` "
        "`minimum_length` `(` $minimum_length `)` `type` `(` $memory_types `)` "
        "`usage` `(` $buffer_usage `)` attr-dict-with-keyword"
    )


# -- declared, effects not modelled -----------------------------------------------------------


class _AllocationOp(EffectsNotModelledOp, HalOp):
    buffer = operand_def(HAL_BUFFER_CONSTRAINT)


_ALLOCATION = "`<` $buffer `:` type($buffer) `>`"


@register_op
class BufferAllocationDiscardOp(_AllocationOp):
    """`%was_terminal = hal.buffer.allocation.discard<%b : !hal.buffer> : i1`: drops the
    caller's ownership of the allocation; true when it was the last owner."""

    name = "hal.buffer.allocation.discard"
    result = result_def(I1, asm_name="was_terminal")
    assembly_format = _ALLOCATION + " `:` type($result) attr-dict-with-keyword"


@register_op
class BufferAllocationIsTerminalOp(_AllocationOp):
    """`%is_terminal = hal.buffer.allocation.is_terminal<%b : !hal.buffer> : i1`."""

    name = "hal.buffer.allocation.is_terminal"
    result = result_def(I1, asm_name="is_terminal")
    assembly_format = _ALLOCATION + " `:` type($result) attr-dict-with-keyword"


@register_op
class BufferAllocationPreserveOp(_AllocationOp):
    """`hal.buffer.allocation.preserve<%b : !hal.buffer>`: adds an owner of the allocation."""

    name = "hal.buffer.allocation.preserve"
    assembly_format = _ALLOCATION + " attr-dict-with-keyword"


@register_op
class BufferViewElementTypeOp(EffectsNotModelledOp, HalOp):
    """`%0 = hal.buffer_view.element_type<%view : !hal.buffer_view> : i32`."""

    name = "hal.buffer_view.element_type"
    buffer_view = operand_def()
    result = result_def(I32)
    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `:` type($result) attr-dict-with-keyword"
    )


@register_op
class BufferViewEncodingTypeOp(EffectsNotModelledOp, HalOp):
    """`%0 = hal.buffer_view.encoding_type<%view : !hal.buffer_view> : i32`."""

    name = "hal.buffer_view.encoding_type"
    buffer_view = operand_def()
    result = result_def(I32)
    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `:` type($result) attr-dict-with-keyword"
    )


@register_op
class BufferViewTraceOp(EffectsNotModelledOp, HalOp):
    """`hal.buffer_view.trace "key" = %a, %b : !hal.buffer_view, !hal.buffer_view`."""

    name = "hal.buffer_view.trace"
    key = attr_def(STRING)
    # IREE's `$operands` (a name Operation has).
    views = operand_def(HAL_BUFFER_VIEW_CONSTRAINT, variadic=True)
    assembly_format = "$key `=` $views `:` type($views) attr-dict-with-keyword"
