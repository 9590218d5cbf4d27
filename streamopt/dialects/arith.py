"""The arith dialect: constants and the integer/index arithmetic IREE prints around stream ops."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import Location, error
from streamopt.dialects import register_op
from streamopt.ir.core import Access, Operation
from streamopt.ir.types import (
    I1,
    Attribute,
    BoolAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    Type,
    TypeAttr,
    print_attr_dict,
)
from streamopt.parser import interpret
from streamopt.parser.parts import AttrDict

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


def _attribute_type(value: Attribute) -> Type | None:
    if isinstance(value, IntegerAttr | FloatAttr):
        return value.type
    if isinstance(value, BoolAttr):
        return I1
    if isinstance(value, TypeAttr):
        return None
    text = value.text
    if " : " in text:
        return interpret.type_from_text(text.rsplit(" : ", 1)[1].strip())
    return None


@register_op
class ConstantOp(Operation):
    """`%c16 = arith.constant 16 : index`."""

    __slots__ = ()
    name = "arith.constant"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ConstantOp:
        attributes: dict[str, Attribute] = {}
        if isinstance(parts[0], AttrDict):
            attributes.update(parts[0])
            parts = parts[1:]
        value: Attribute = parts[0]
        result_type = _attribute_type(value)
        if result_type is None:
            raise error("expected a typed constant value", location)
        attributes["value"] = value
        return cls((), [result_type], attributes, location=location)

    @classmethod
    def create(cls, value: int, type: Type) -> ConstantOp:
        """An integer or index constant."""
        attr: Attribute = BoolAttr(bool(value)) if type == I1 else IntegerAttr(value, type)
        return cls((), [type], {"value": attr})

    @property
    def value(self) -> Attribute:
        return self.attributes["value"]

    @property
    def int_value(self) -> int | None:
        """The integer value, or None for non-integer constants."""
        value = self.value
        if isinstance(value, IntegerAttr):
            return value.value
        if isinstance(value, BoolAttr):
            return int(value.value)
        return None

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def asm_result_name(self, index: int) -> str | None:
        value = self.value
        type = self.results[0].type
        if isinstance(value, BoolAttr):
            return "true" if value.value else "false"
        if isinstance(value, IntegerAttr):
            if isinstance(type, IntegerType) and type.width == 1:
                return "true" if value.value else "false"
            if isinstance(type, IndexType):
                return f"c{value.value}"
            return f"c{value.value}_{type.text if type else ''}"
        return "cst"

    def print(self, p: Printer) -> None:
        p.write("arith.constant ")
        rest = {k: v for k, v in self.attributes.items() if k != "value"}
        if rest:
            p.write(print_attr_dict(rest) + " ")
        p.write(self.value.text)
