"""Pieces shared by the dialect modules: operand segments, attribute kinds, clause handling,
shaped type lists.

`SegmentedOp` stores variadic operand groups the way MLIR's `operandSegmentSizes` does, so an op
class can name its groups (`workload`, `resource_operands`, ...) over one flat operand list.
The `shaped_*_texts` helpers print the entries of IREE's shared custom directives:
`custom<ShapedTypeList>` and the result lists of `custom<ShapedFunctionType>` and
`custom<TiedFunctionResultList>`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from streamopt.diagnostics import DiagnosticError, error
from streamopt.ir.core import Operation, Value
from streamopt.ir.opdef import AttributeKind, DeclaredOp
from streamopt.ir.opdef import check_operand_type as check_operand_type
from streamopt.ir.types import (
    INDEX,
    ArrayAttr,
    Attribute,
    IntegerAttr,
    ResourceType,
    ShapedType,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    integer_attr,
    symbol_ref_from_text,
    typed_text,
)
from streamopt.parser import token_values
from streamopt.parser.parts import Clause, Sized, Tied
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.ir.opdef import FormatReader
    from streamopt.printer import Printer


class EffectsNotModelledOp(DeclaredOp):
    """An op whose syntax and verifier are declared but not its effects: the analyses and
    passes treat it as an op kept as written (`is_known` is False, and it is never pure), which
    may keep, read or write whatever it is given (a list holds its values, a pointer names a
    global's storage, a hal queue op writes a buffer)."""

    @property
    def is_known(self) -> bool:
        return False


class SegmentedOp(Operation):
    """An op whose operands form named variadic groups (segments)."""

    __slots__ = ("segments",)

    # Names of the operand groups, in order; subclasses set this.
    segment_names: ClassVar[tuple[str, ...]] = ()

    def __init__(self, *args: Any, segments: Sequence[int] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.segments: tuple[int, ...] = tuple(segments)

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, SegmentedOp)
        new.segments = self.segments

    def segment(self, index: int) -> list[Value]:
        """The operands of group `index`."""
        start = self.segment_start(index)
        return list(self.operands[start : start + self.segments[index]])

    def segment_start(self, index: int) -> int:
        return sum(self.segments[:index])

    def set_segment(self, index: int, values: Sequence[Value]) -> None:
        """Replace the operands of group `index` (the group may change length)."""
        start = self.segment_start(index)
        operands = list(self.operands)
        operands[start : start + self.segments[index]] = values
        self.set_operands(operands)
        self.segments = (*self.segments[:index], len(values), *self.segments[index + 1 :])


# -- attribute kinds of declared ops (streamopt.ir.opdef.AttributeKind) ------------------------


class ValueKind(AttributeKind):
    """An attribute kind from functions: `make` builds the attribute from a Python value
    (directives, `create`), `value` (if any) gives the accessor's value back; one written in the
    format is read from the part of grammar rule `grammar` by `read`, and one of the generic
    form by `generic` (see AttributeKind.from_attribute)."""

    def __init__(
        self,
        make: Callable[[Any], Attribute],
        value: Callable[[Any], Any] | None,
        grammar: str = "",
        read: Callable[[Any], Attribute] | None = None,
        generic: Callable[[Attribute], Attribute | None] | None = None,
    ) -> None:
        self._make = make
        self.value = value
        self.grammar = grammar
        self.read = read
        self.generic = generic
        self.reads_generic = generic is not None

    def from_attribute(self, attribute: Attribute) -> Attribute | None:
        assert self.generic is not None
        return self.generic(attribute)

    def from_part(self, reader: FormatReader, name: str, part: Any) -> Attribute:
        assert self.read is not None, name
        return self.read(part)

    def make(self, value: Any) -> Attribute:
        return value if isinstance(value, Attribute) else self._make(value)


def _attribute(value: Any) -> Attribute:
    """`value`, which is an attribute already."""
    assert isinstance(value, Attribute), value
    return value


def of_class(
    cls: type[Attribute] | tuple[type[Attribute], ...],
) -> Callable[[Attribute], Attribute | None]:
    """A ValueKind's `generic`: an attribute of class `cls`, as it is."""
    return lambda attribute: attribute if isinstance(attribute, cls) else None


def flat_symbol(attribute: Attribute) -> Attribute | None:
    """A ValueKind's `generic`: a FlatSymbolRefAttr (`@f`, not `@m::@f`), as it is."""
    if isinstance(attribute, SymbolRefAttr) and len(attribute.path) == 1:
        return attribute
    return None


def array_of(
    cls: type[Attribute] | tuple[type[Attribute], ...],
) -> Callable[[Attribute], Attribute | None]:
    """A ValueKind's `generic`: an array of attributes of class `cls`, as it is."""

    def read(attribute: Attribute) -> Attribute | None:
        if isinstance(attribute, ArrayAttr) and all(isinstance(e, cls) for e in attribute.elements):
            return attribute
        return None

    return read


# A string attribute written as a string literal (`message("...")`).
STRING = ValueKind(
    StringAttr,
    None,
    "STRING",
    lambda part: token_values.attribute_from_token("STRING", str(part), None),
    of_class(StringAttr),
)
# A symbol reference attribute (`@ex::@variant::@fn`).
SYMBOL = ValueKind(
    symbol_ref_from_text,
    None,
    "SYMBOL_REF",
    lambda part: symbol_ref_from_text(str(part)),
    of_class(SymbolRefAttr),
)


class _AnyAttributeKind(ValueKind):
    def text(self, attribute: Attribute) -> str:
        # An attribute of no fixed kind prints its type, an i64's and an f64's too.
        return typed_text(attribute)


# Any attribute, as MLIR writes one (`dense<1> : tensor<4xi32>`, `"abc"`, `4 : index`).
ANY_ATTRIBUTE = _AnyAttributeKind(_attribute, None, "attribute_value", _attribute, _attribute)
# A TypeAttr, written as its type (`hal.element_type<f32>`).
TYPE_ATTRIBUTE = ValueKind(TypeAttr, None, "type", TypeAttr, of_class(TypeAttr))
# A type attribute written as its type (a function's or a global's type, an encoding such as
# `tensor<?x4xf32>`); the accessor gives the type.
TYPE = ValueKind(TypeAttr, lambda attribute: attribute.type, "type", TypeAttr, of_class(TypeAttr))
# A TypeArrayAttr (a tensor dispatch's encodings); the accessor gives the types.
TYPE_ARRAY = ValueKind(
    lambda types: ArrayAttr(map(TypeAttr, types)),
    lambda attribute: [element.type for element in attribute.elements],
    generic=array_of(TypeAttr),
)


class IndexKind(AttributeKind):
    """An IndexAttr, written as its integer alone (`[0]`, a property's `alignment = 64`)."""

    grammar = "INTEGER"

    def from_part(self, reader: FormatReader, name: str, part: Any) -> Attribute:
        return self.make(part if isinstance(part, int) else token_values.integer_literal(str(part)))

    def text(self, attribute: Attribute) -> str:
        assert isinstance(attribute, IntegerAttr)
        return str(attribute.value)

    def make(self, value: Any) -> Attribute:
        return IntegerAttr(value.value if isinstance(value, IntegerAttr) else value, INDEX)

    reads_generic = True

    def from_attribute(self, attribute: Attribute) -> Attribute | None:
        return attribute if _is_index(attribute) else None


def _is_index(attribute: Attribute) -> bool:
    return isinstance(attribute, IntegerAttr) and attribute.type == INDEX


class TiedOperandsAttr(ArrayAttr):
    """IREE's `tied_operands`: for each result, the operand it is tied to (-1: none)."""

    __slots__ = ("positions",)

    def __init__(self, positions: tuple[int | None, ...]) -> None:
        super().__init__(integer_attr(-1 if p is None else p, INDEX) for p in positions)
        self.positions = positions


# `tied_operands`, set by the directive that reads the results; the accessor gives each result's
# operand position (None: not tied). One attribute per spelling.
_tied_operands = functools.cache(TiedOperandsAttr)


def _generic_tied_operands(attribute: Attribute) -> Attribute | None:
    if not isinstance(attribute, ArrayAttr) or not all(map(_is_index, attribute.elements)):
        return None
    values = [element.value for element in attribute.elements]  # type: ignore[attr-defined]
    return _tied_operands(tuple(None if value == -1 else value for value in values))


TIED_OPERANDS = ValueKind(
    lambda positions: _tied_operands(tuple(positions)),
    lambda attribute: attribute.positions,
    generic=_generic_tied_operands,
)


class VisibilityKind(AttributeKind):
    """IREE's custom<SymbolVisibility>: `public`, `private` or `nested`; the accessor gives it."""

    grammar = "BARE_ID"

    def from_part(self, reader: FormatReader, name: str, part: Any) -> Attribute:
        if str(part) not in ("public", "private", "nested"):
            raise error(f"expected 'public', 'private' or 'nested', got '{part}'", reader.location)
        return StringAttr(str(part))

    def text(self, attribute: Attribute) -> str:
        return self.value(attribute)

    def make(self, value: Any) -> Attribute:
        return value if isinstance(value, Attribute) else StringAttr(value)

    def value(self, attribute: Attribute) -> str:
        assert isinstance(attribute, StringAttr)
        return attribute.value

    reads_generic = True

    def from_attribute(self, attribute: Attribute) -> Attribute | None:
        if isinstance(attribute, StringAttr) and attribute.value in ("public", "private", "nested"):
            return attribute
        return None


class SymbolNameKind(VisibilityKind):
    """A symbol's name, written `@f` (IREE's SymbolNameAttr); the accessor gives the name."""

    grammar = "SYMBOL_REF"

    def from_part(self, reader: FormatReader, name: str, part: Any) -> Attribute:
        return StringAttr(symbol_ref_from_text(str(part)).root)

    def text(self, attribute: Attribute) -> str:
        return SymbolRefAttr([self.value(attribute)]).text

    def from_attribute(self, attribute: Attribute) -> Attribute | None:
        return attribute if isinstance(attribute, StringAttr) else None


INDEX_ATTRIBUTE = IndexKind()
VISIBILITY = VisibilityKind()
SYMBOL_NAME = SymbolNameKind()


def split_clauses(parts: list[Any]) -> tuple[dict[str, Any], list[Any]]:
    """Separate keyword clauses (`on(...)`, `attributes {...}`) from positional parts."""
    clauses: dict[str, Any] = {}
    rest: list[Any] = []
    for part in parts:
        if isinstance(part, Clause):
            clauses[part.kind] = part.value
        else:
            rest.append(part)
    return clauses, rest


def is_sized(type: Type | None) -> bool:
    """True for types printed with `{sizes}`: resources and dynamically shaped types."""
    if isinstance(type, ResourceType):
        return True
    if isinstance(type, ShapedType):
        return None in type.shape
    return type is not None and type.text.startswith("!stream.resource")


def dynamic_dim_count(type: Type | None) -> int:
    """How many size operands follow `type` in a shaped type list."""
    if isinstance(type, ShapedType):
        return type.shape.count(None)
    return int(is_sized(type))


def shaped_type_texts(p: Printer, types: Sequence[Type], dims: Sequence[Value]) -> list[str]:
    """`T{%s}`, `index`, `tensor<?xf32>{%d}`: each type followed by the sizes it needs."""
    out: list[str] = []
    cursor = 0
    for type in types:
        count = dynamic_dim_count(type)
        if count:
            out.append(f"{type_text(type)}{{{p.values(dims[cursor : cursor + count])}}}")
            cursor += count
        else:
            out.append(type_text(type))
    return out


def shaped_result_texts(
    p: Printer,
    operands: Sequence[Value],
    result_types: Sequence[Type | None],
    result_dims: Sequence[Value] | None,
    tied: Sequence[int | None],
) -> list[str]:
    """Results of `custom<ShapedFunctionType>`: `T{%s}`, `%x{%s}` or `%x as T{%s}`; with
    `result_dims` None, of custom<TiedFunctionResultList>: no sizes (`T`, `%x`, `%x as T`)."""
    out: list[str] = []
    cursor = 0
    for type, tied_index in zip(result_types, tied):
        operand = operands[tied_index] if tied_index is not None else None
        if operand is None:
            text = type_text(type)
        elif operand.type == type:
            text = p.value_name(operand)
        else:
            text = f"{p.value_name(operand)} as {type_text(type)}"
        count = dynamic_dim_count(type) if result_dims is not None else 0
        if count:
            text += "{" + p.values(result_dims[cursor : cursor + count]) + "}"  # type: ignore[index]
            cursor += count
        out.append(text)
    return out


def result_list_text(entries: Sequence[str]) -> str:
    """A result list as MLIR prints one: a single result alone, others in parentheses."""
    text = ", ".join(entries)
    return text if len(entries) == 1 else f"({text})"


def resolve_tied_results(
    reader: FormatReader, items: Sequence[Any], operands_name: str, names: Sequence[str]
) -> None:
    """Read a result list that may tie results to operands (`%x{%s}`, `%x as T{%s}`, `T{%s}`;
    `Tied` and `Sized` parts, or types) into the fields `names`: the result types, the result
    sizes (stream's lists; util.call has none) and `tied_operands`."""
    operands = reader.operands.get(operands_name) or []
    types: list[Type] = []
    sizes: list[Value] = []
    tied: list[int | None] = []
    for item in items:
        position = None
        if isinstance(item, Tied):
            position = next((i for i, v in enumerate(operands) if v is item.operand), None)
            if position is None:
                raise error("tied operand not found for result reference", reader.location)
        tied.append(position)
        type = item.type if isinstance(item, (Sized, Tied)) else item
        types.append(type if type is not None else operands[position].type)  # type: ignore[index]
        sizes.extend(item.sizes if isinstance(item, (Sized, Tied)) else ())
    types_name, *sizes_name, tied_name = names
    reader.result_types[types_name] = types
    if sizes_name:
        reader.operands[sizes_name[0]] = sizes
    reader.attributes[tied_name] = TIED_OPERANDS.make(tied)


def op_error(op: Operation, message: str) -> DiagnosticError:
    """An error worded like MLIR's `emitOpError`: `'name' op message`, at the op."""
    return error(f"'{op.name}' op {message}", op.location)
