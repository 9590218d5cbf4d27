"""util list ops (`!util.list<T>`) and IREE's rule for which values a list may hold.

Their effects are not modelled (EffectsNotModelledOp): a list holds the values put in it, so
the analyses treat every list op as an op kept as written."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import error
from streamopt.dialects import register_op
from streamopt.dialects.common import EffectsNotModelledOp, check_operand_type
from streamopt.dialects.util.base import type_parameter
from streamopt.ir.opdef import (
    CustomDirective,
    DeclaredOp,
    any_type,
    custom_directive,
    operand_def,
    result_def,
)
from streamopt.ir.types import INDEX, INDEX_CONSTRAINT, Type, TypeConstraint, is_primitive
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


def _element(list_type: Type) -> Type | None:
    """T of `!util.list<T>` (`!util.variant` for `?`), None for a type that is no list."""
    found = type_parameter(list_type.text, "!util.list")
    if found is None:
        return None
    return token_values.type_from_text("!util.variant" if found == "?" else found)


def _is_object_compatible(type: Type) -> bool:
    """IREE's ObjectType::isCompatible: anything but an integer, index, float or complex."""
    return not is_primitive(type)


def list_can_implicitly_cast(source: Type, target: Type) -> bool:
    """IREE's ListType::canImplicitlyCast from a value of type `source` to list element type
    `target` (or the other way: the rule is symmetric)."""
    return (
        "!util.variant" in (source.text, target.text)
        or (source.text == "!util.object" and _is_object_compatible(target))
        or (target.text == "!util.object" and _is_object_compatible(source))
        or (source.text.startswith("tensor<") and target.text.startswith("tensor<"))
        or source == target
    )


def _read_list_access(
    reader: FormatReader, list_type: Type, access: Type | None, args: Sequence[tuple[str, str]]
) -> Type:
    """Store `type($list)` and the accessed value's type (the list's element type when
    `access` is not written); return the element type."""
    element = _element(list_type)
    if element is None:
        raise error("expected an !util.list<T> type", reader.location)
    reader.set_type(args[0][1], list_type)
    reader.set_type(args[1][1], access or element)
    return element


def _parse_list_type_get(reader: FormatReader, part: Any, args: Sequence[tuple[str, str]]) -> None:
    list_type, *access = part.children  # A parser.lalr.Tree: `!util.list<T> (-> U)?`.
    element = _read_list_access(reader, list_type, access[0] if access else None, args)
    if access and not list_can_implicitly_cast(access[0], element):
        raise error(
            f"custom op '{reader.definition.name}' list access types must match the same base "
            "type as the list element type (when not variant)",
            reader.location,
        )


def _parse_list_type_set(reader: FormatReader, part: Any, args: Sequence[tuple[str, str]]) -> None:
    *access, list_type = part.children  # `(U ->)? !util.list<T>`.
    _read_list_access(reader, list_type, access[0] if access else None, args)


def _list_access_texts(op: DeclaredOp, args: Sequence[tuple[str, str]]) -> tuple[str, str | None]:
    """The list's type, and the accessed value's where it is not the list's element type."""
    list_type, access = (op.definition.field_value(op, arg[1]).type for arg in args)
    return type_text(list_type), type_text(access) if access != _element(list_type) else None


def _print_list_type_get(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    list_text, access = _list_access_texts(op, args)
    return list_text if access is None else f"{list_text} -> {access}"


def _print_list_type_set(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    list_text, access = _list_access_texts(op, args)
    return list_text if access is None else f"{access} -> {list_text}"


# custom<ListTypeGet>(type($list), type($result)) and custom<ListTypeSet>(type($list),
# type($value)): the list's type, and the accessed value's where it is not the element type.
custom_directive(
    "ListTypeGet", CustomDirective("util_list_access", _parse_list_type_get, _print_list_type_get)
)
custom_directive(
    "ListTypeSet", CustomDirective("util_list_access", _parse_list_type_set, _print_list_type_set)
)


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
        element = _element(self.result.type)
        for index, value in enumerate(self.values):
            if element is not None and not list_can_implicitly_cast(value.type, element):
                # IREE's words, without the op's name.
                message = f"list[{index}] type '{value.type}' cannot be be cast to list type"
                raise error(f"{message} '{element}'", self.location)


@register_op
class ListCreateOp(EffectsNotModelledOp):
    """`%list = util.list.create %capacity? : !util.list<T>`: a new empty list."""

    name = "util.list.create"
    initial_capacity = operand_def(INDEX_CONSTRAINT, optional=True)
    result = result_def(constraint=_LIST)
    assembly_format = "($initial_capacity^)? attr-dict `:` qualified(type($result))"


@register_op
class ListSizeOp(EffectsNotModelledOp):
    """`%n = util.list.size %list : !util.list<T>`: the list's size in elements."""

    name = "util.list.size"
    list_ = operand_def(_LIST)
    result = result_def(INDEX)
    # IREE's `operands attr-dict ...`: the operands, comma-separated.
    assembly_format = "$list attr-dict `:` qualified(type($list))"


@register_op
class ListResizeOp(EffectsNotModelledOp):
    """`util.list.resize %list, %n : !util.list<T>`: truncated or extended to n elements."""

    name = "util.list.resize"
    list_ = operand_def(_LIST)
    new_size = operand_def(INDEX_CONSTRAINT)
    assembly_format = "$list `,` $new_size attr-dict `:` qualified(type($list))"


@register_op
class ListGetOp(EffectsNotModelledOp):
    """`%v = util.list.get %list[%i] : !util.list<T> (-> U)?`: element i."""

    name = "util.list.get"
    list_ = operand_def(_LIST)
    index = operand_def(INDEX_CONSTRAINT)
    result = result_def()
    assembly_format = (
        "$list `[` $index `]` attr-dict `:` custom<ListTypeGet>(type($list), type($result))"
    )

    def verify(self) -> None:
        _check_access(self, self.result.type, "accessed")


@register_op
class ListSetOp(EffectsNotModelledOp):
    """`util.list.set %list[%i], %v : (U ->)? !util.list<T>`: element i becomes v."""

    name = "util.list.set"
    list_ = operand_def(_LIST)
    index = operand_def(INDEX_CONSTRAINT)
    value = operand_def()
    assembly_format = (
        "$list `[` $index `]` `,` $value attr-dict `:` custom<ListTypeSet>(type($list), "
        "type($value))"
    )

    def verify(self) -> None:
        _check_access(self, self.value.type, "mutated")


def _check_access(op: ListGetOp | ListSetOp, access: Type, verb: str) -> None:
    element = _element(op.list_.type)
    if element is not None and not list_can_implicitly_cast(access, element):
        # IREE's words, without the op's name.
        raise error(f"list contains '{element}' and cannot be {verb} as '{access}'", op.location)
