"""util type manipulation and arithmetic ops (`util.cast`, `util.cmp.eq`/`ne`,
`util.numeric.optional_narrow`, `util.range.min`/`max`, `util.align`, `util.sizeof`), declared
with their effects not modelled: the analyses treat them as ops kept as written."""

from __future__ import annotations

from streamopt.dialects import register_op
from streamopt.dialects.common import ANY_ATTRIBUTE, TYPE, EffectsNotModelledOp, op_error
from streamopt.ir.core import Operation
from streamopt.ir.opdef import attr_def, operand_def, result_def
from streamopt.ir.types import (
    I1,
    INDEX,
    FloatType,
    IntegerType,
    Type,
    TypeConstraint,
    is_primitive,
)
from streamopt.parser import token_values


def _same_operand_and_result_types(op: Operation) -> None:
    """ODS's SameOperandsAndResultType (which wants an operand)."""
    if not op.operands:
        raise op_error(op, "expected 1 or more operands, but found 0")
    if len({v.type for v in (*op.operands, *op.results)}) > 1:
        raise op_error(op, "requires the same type for all operands and results")


@register_op
class CastOp(EffectsNotModelledOp):
    """`%r = util.cast %x : !util.buffer to !util.object`: the same reference as another
    object type."""

    name = "util.cast"
    operand_ = operand_def()
    result = result_def()
    assembly_format = "$operand attr-dict `:` type($operand) `to` type($result)"

    def verify(self) -> None:
        source, target = self.operand_.type, self.result.type
        # CastOpInterface first (MLIR verifies interfaces before the op's own verifier).
        if source != target and "!util.object" not in (source.text, target.text):
            raise op_error(
                self, f"operand type '{source}' and result type '{target}' are cast incompatible"
            )
        for what, type in (("operand", source), ("result", target)):
            if is_primitive(type):  # IREE's ObjectType::isCompatible.
                raise op_error(self, f"{what} type '{type}' is not object cast compatible")


class _CompareOp(EffectsNotModelledOp):
    lhs = operand_def()
    rhs = operand_def(same_as="lhs")
    result = result_def(I1)
    same_types = (("lhs", "rhs"),)
    # IREE's `operands attr-dict ...`: the operands, comma-separated.
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs)"


@register_op
class CmpEqOp(_CompareOp):
    """`%eq = util.cmp.eq %a, %b : T`: whether two values of any type are equal."""

    name = "util.cmp.eq"


@register_op
class CmpNeOp(_CompareOp):
    """`%ne = util.cmp.ne %a, %b : T`: whether two values of any type differ."""

    name = "util.cmp.ne"


def _is_element(type: Type) -> bool:
    """IREE's Util_Element: a signless integer or a float."""
    return isinstance(type, FloatType) or (isinstance(type, IntegerType) and not type.signedness)


_ELEMENT_OR_TENSOR = TypeConstraint(
    "signless integer or floating-point or tensor of signless integer or floating-point values",
    lambda t: _is_element(t) or (t.text.startswith("tensor<") and _tensor_of_elements(t)),
)


def _tensor_of_elements(type: Type) -> bool:
    element = getattr(type, "element_type_text", None)
    return element is not None and _is_element(token_values.type_from_text(element))


@register_op
class NumericOptionalNarrowOp(EffectsNotModelledOp):
    """`%r = util.numeric.optional_narrow %x : f32 as f16 <min_value = ..>?`: a value the
    compiler may narrow to the semantic type."""

    name = "util.numeric.optional_narrow"
    operand_ = operand_def(_ELEMENT_OR_TENSOR)
    semantic_type: Type = attr_def(TYPE)
    min_value = attr_def(ANY_ATTRIBUTE)
    max_value = attr_def(ANY_ATTRIBUTE)
    result = result_def(same_as="operand", constraint=_ELEMENT_OR_TENSOR)
    assembly_format = (
        "$operand `:` type($operand) `as` $semantic_type "
        "(custom<Properties>($min_value, $max_value)^)? attr-dict"
    )
    unknown_property = (
        "custom op 'util.numeric.optional_narrow' duplicate or unknown property in properties "
        "dictionary: {}"
    )

    def verify(self) -> None:
        _same_operand_and_result_types(self)


# IREE's Util_Range and SignlessIntegerOrIndexLike.
_RANGE = TypeConstraint("index or integer", lambda t: t == INDEX or isinstance(t, IntegerType))
_SIGNLESS_INTEGER_LIKE = TypeConstraint(
    "signless-integer-like",
    lambda t: t == INDEX or (isinstance(t, IntegerType) and not t.signedness),
)


class _RangeOp(EffectsNotModelledOp):
    # IREE's `$operands` (a name Operation has).
    values = operand_def(_RANGE, variadic=True, same_as="result")
    result = result_def(constraint=_RANGE)
    assembly_format = "$values attr-dict `:` type($result)"

    def verify(self) -> None:
        _same_operand_and_result_types(self)


@register_op
class RangeMinOp(_RangeOp):
    """`%min = util.range.min %a, %b : index`: the least of the values."""

    name = "util.range.min"


@register_op
class RangeMaxOp(_RangeOp):
    """`%max = util.range.max %a, %b : index`: the greatest of the values."""

    name = "util.range.max"


@register_op
class AlignOp(EffectsNotModelledOp):
    """`%r = util.align %value, %alignment : index`: the value rounded up to the alignment."""

    name = "util.align"
    value = operand_def(_SIGNLESS_INTEGER_LIKE, same_as="result")
    alignment = operand_def(_SIGNLESS_INTEGER_LIKE, same_as="result")
    result = result_def(constraint=_SIGNLESS_INTEGER_LIKE)
    assembly_format = "$value `,` $alignment attr-dict `:` type($result)"

    def verify(self) -> None:
        _same_operand_and_result_types(self)


@register_op
class SizeOfOp(EffectsNotModelledOp):
    """`%size = util.sizeof T`: the size of a value of the type in bytes."""

    name = "util.sizeof"
    sizedType: Type = attr_def(TYPE)  # IREE's name, which the generic form spells.
    size = result_def(INDEX)
    assembly_format = "$sizedType attr-dict-with-keyword"
