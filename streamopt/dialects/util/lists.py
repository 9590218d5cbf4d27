"""util list ops (`!util.list<T>`) and IREE's rule for which values a list may hold."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import error
from streamopt.dialects import register_op
from streamopt.dialects.common import check_operand_type
from streamopt.dialects.util.base import EffectsNotModelledOp, type_parameter
from streamopt.ir.opdef import (
    CustomDirective,
    DeclaredOp,
    any_type,
    custom_directive,
    operand_def,
    result_def,
)
from streamopt.ir.types import Type, TypeConstraint, is_primitive
from streamopt.parser import token_values
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.ir.opdef import FormatReader
    from streamopt.printer import Printer


def _parse_value_type_list(
    reader: FormatReader, part: Any, args: Sequence[tuple[str, str]]
) -> None:
    pairs = part.children  # A parser.lalr.Tree: a value, its type, the next value, ...
    values = pairs[0::2]
    for value, type in zip(values, pairs[1::2]):
        check_operand_type(value, type, reader.location)
    reader.operands[args[0][1]] = values


def _print_value_type_list(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    values = op.definition.field_value(op, args[0][1])
    return "[" + ", ".join(f"{p.v(v)} : {type_text(v.type)}" for v in values) + "]"


# `custom<ValueTypeList>($values, type($values))`: `[%a : T, %b : U]`.
custom_directive(
    "ValueTypeList",
    CustomDirective("util_value_type_list", _parse_value_type_list, _print_value_type_list),
)

_LIST = TypeConstraint("Dense list container type.", lambda t: t.text.startswith("!util.list<"))


@register_op
class ListConstructOp(EffectsNotModelledOp):
    """`%list = util.list.construct [%a : T, ...] : !util.list<T>`: a list of the values."""

    name = "util.list.construct"
    values = any_type(operand_def(variadic=True))
    result = result_def(constraint=_LIST)
    assembly_format = (
        "custom<ValueTypeList>($values, type($values)) attr-dict `:` qualified(type($result))"
    )

    def verify(self) -> None:
        element = type_parameter(self.result.type.text, "!util.list")
        for index, value in enumerate(self.values):
            if element is not None and not list_can_implicitly_cast(value.type, element):
                # IREE's words, without the op's name.
                message = f"list[{index}] type '{value.type}' cannot be be cast to list type"
                raise error(f"{message} '{element}'", self.location)


def _is_object_compatible(type: Type) -> bool:
    """IREE's ObjectType::isCompatible: anything but an integer, index, float or complex."""
    return not is_primitive(type)


def list_can_implicitly_cast(source: Type, target_text: str) -> bool:
    """IREE's ListType::canImplicitlyCast from a value of type `source` to list element type
    `target_text` (as written in the list type)."""
    if target_text == "?":
        return True
    target = token_values.type_from_text(target_text)
    return (
        "!util.variant" in (source.text, target.text)
        or (source.text == "!util.object" and _is_object_compatible(target))
        or (target.text == "!util.object" and _is_object_compatible(source))
        or (source.text.startswith("tensor<") and target.text.startswith("tensor<"))
        or source == target
    )
