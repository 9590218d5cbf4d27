"""util global ops: `util.global` (custom<SymbolVisibility>, custom<TypeOrAttr>), its loads and
stores, and the pointer ops `util.global.address` and `util.global.{load,store}.indirect`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import error
from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.builtin import attribute_type
from streamopt.dialects.common import (
    ANY_ATTRIBUTE,
    INDEX_ATTRIBUTE,
    SYMBOL_NAME,
    TYPE,
    VISIBILITY,
    EffectsNotModelledOp,
    op_error,
)
from streamopt.dialects.util.base import (
    FLAT_SYMBOL,
    lookup_symbol,
    sanitize_identifier,
    type_parameter,
)
from streamopt.ir.core import Access, Operation, Value, shared_attributes
from streamopt.ir.opdef import (
    UNIT_KIND,
    CustomDirective,
    DeclaredOp,
    any_type,
    attr_def,
    custom_directive,
    operand_def,
    result_def,
)
from streamopt.ir.types import (
    INDEX,
    UNIT,
    ArrayAttr,
    Attribute,
    DictAttr,
    IntegerAttr,
    ResourceType,
    ShapedType,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    TypeConstraint,
    UnitAttr,
    symbol_ref,
    symbol_spelling,
    typed_text,
)
from streamopt.parser import token_values
from streamopt.parser.parts import AttrDict, Clause

if TYPE_CHECKING:
    from streamopt.ir.opdef import FormatReader
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


def _parse_visibility(reader: FormatReader, part: Any, args: Sequence[tuple[str, str]]) -> None:
    if part.children:  # A parser.lalr.Tree: the visibility's token, when one is written.
        reader.attributes[args[0][1]] = VISIBILITY.from_part(reader, args[0][1], part.children[0])


# `custom<SymbolVisibility>($sym_visibility)`: `private`, `nested` or `public` (also when unset).
custom_directive(
    "SymbolVisibility",
    CustomDirective(
        "util_visibility",
        _parse_visibility,
        lambda op, p, args: getattr(op, args[0][1]) or "public",
    ),
)


@parse_rule("util_properties")
def _util_properties(b: Builder, children: list[Any]) -> Clause:
    """`<{alignment = 64 : index}>` (generic) or `<alignment = 64>` (prop-dict)."""
    if len(children) == 1 and isinstance(children[0], AttrDict):
        return Clause("properties", dict(children[0]))
    return Clause("properties", dict(children))


def _parse_properties(reader: FormatReader, part: Clause, args: Sequence[tuple[str, str]]) -> None:
    op = reader.definition.name
    names = [name for _, name in args]
    for name, value in part.value.items():
        if name not in names:
            message = reader.definition.cls.unknown_property  # type: ignore[attr-defined]
            raise error(message.format(name), reader.location)
        kind = reader.definition.attributes[name].kind
        if kind is INDEX_ATTRIBUTE and not isinstance(value, IntegerAttr):
            raise error(f"'{op}' {name} must be an integer", reader.location)
        if kind is INDEX_ATTRIBUTE and value.type not in (None, INDEX):  # `<{alignment = 8 : i8}>`
            message = f"attribute '{name}' failed to satisfy constraint: index attribute"
            raise error(f"'{op}' op {message}", reader.location)
        reader.attributes[name] = kind.make(value)


def _print_properties(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    kinds = op.definition.attributes
    found = [(name, op.attribute_map.get(name)) for _, name in args]
    return "<" + ", ".join(f"{k} = {kinds[k].kind.text(a)}" for k, a in found if a) + ">"


# MLIR prints the properties an op's format does not name as `<name = value, ...>` before its
# attr-dict (an index without its `: index`); custom<Properties>($a, $b) is that, for the
# properties it names (the parser also reads the generic `<{alignment = 64 : index}>`).
custom_directive(
    "Properties",
    CustomDirective(
        "util_properties",
        _parse_properties,
        _print_properties,
        lambda op, args: any(name in op.attribute_map for _, name in args),
    ),
)


@parse_rule("util_global_value")
def _util_global_value(b: Builder, children: list[Any]) -> tuple[Type | None, Attribute | None]:
    """`= attr`, `: T` or `: T = attr`: (the type, the initial value), each maybe None."""
    if isinstance(children[0], Type):
        return (children[0], children[1] if len(children) > 1 else None)
    return (None, children[0])


def _parse_type_or_attr(
    reader: FormatReader,
    part: tuple[Type | None, Attribute | None],
    args: Sequence[tuple[str, str]],
) -> None:
    type, initial = part
    initial_type = attribute_type(initial, reader.builder.alias_values)
    if type is None:
        type = initial_type
        if type is None:
            raise error("expected a typed initial value or ': type'", reader.location)
    reader.attributes[args[0][1]] = TypeAttr(type)
    if initial is not None:
        reader.attributes[args[1][1]] = initial
    reader.extra["initial_value_type"] = initial_type


def _print_type_or_attr(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    assert isinstance(op, GlobalOp)
    initial = op.initial_value
    # The type is implied by a typed initial value of that type.
    implied = initial is not None and op.initial_value_type == op.global_type
    text = "" if implied else f": {op.global_type.text}"
    return text if initial is None else f"{text} = {typed_text(initial)}".lstrip()


# `custom<TypeOrAttr>($type, $initial_value)`: `: T`, `= attr` or `: T = attr`. A global may
# hold any type, a function type too.
custom_directive(
    "TypeOrAttr", CustomDirective("util_global_value", _parse_type_or_attr, _print_type_or_attr)
)


def is_global_type_compatible(global_type: Type | None, access_type: Type | None) -> bool:
    """Whether a load may read a global of `global_type` as `access_type` (IREE's rule)."""
    if global_type is None or access_type is None:
        return True
    if isinstance(global_type, ShapedType) and isinstance(access_type, ShapedType):
        # mlir::verifyCompatibleShape: the shapes only (not the element types), and an
        # unranked type is compatible with any.
        if "<*x" in global_type.text or "<*x" in access_type.text:
            return True
        a, b = global_type.shape, access_type.shape
        return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b))
    if isinstance(global_type, ResourceType):
        return access_type == global_type or isinstance(access_type, ShapedType)
    return global_type == access_type


@register_op
class GlobalOp(DeclaredOp):
    """`util.global private mutable @g {attrs} : T = value`: a module-level variable."""

    __slots__ = ("initial_value_type",)
    name = "util.global"
    sym_visibility: str | None = attr_def(VISIBILITY)
    sym_name: str = attr_def(SYMBOL_NAME)
    type_: Type = attr_def(TYPE)
    is_mutable = attr_def(UNIT_KIND)
    initial_value: Attribute | None = attr_def(ANY_ATTRIBUTE)
    inlining_policy = attr_def(ANY_ATTRIBUTE)
    assembly_format = (
        "custom<SymbolVisibility>($sym_visibility) (`mutable` $is_mutable^)? $sym_name "
        "(custom<Properties>($inlining_policy)^)? attr-dict custom<TypeOrAttr>($type, "
        "$initial_value)"
    )
    unknown_property = "'util.global' op has no property '{}' to set"

    def __init__(self, *args: Any, initial_value_type: Type | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The type of the initial value, when it has one. Kept beside the attribute because
        # an alias (`= #device_target_0`) only says its type where the alias is defined.
        self.initial_value_type = initial_value_type

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, GlobalOp)
        new.initial_value_type = self.initial_value_type

    @classmethod
    def generic_state(
        cls, attributes: Mapping[str, Attribute], alias_values: Mapping[str, Any]
    ) -> dict[str, Any]:
        initial = attributes.get("initial_value")
        return {"initial_value_type": attribute_type(initial, alias_values)}

    def set_initial_value(self, value: Attribute | None, type: Type | None = None) -> None:
        """Set (or with None, drop) the initial value; `type` defaults to the value's own."""
        if value is None:
            self.attributes.pop("initial_value", None)
            self.initial_value_type = None
            return
        self.attributes["initial_value"] = value
        self.initial_value_type = type if type is not None else attribute_type(value)

    @classmethod
    def create(
        cls, sym_name: str, type: Type, visibility: str | None = "private", mutable: bool = False
    ) -> GlobalOp:
        """A global without an initial value (see `set_initial_value`)."""
        attributes: dict[str, Attribute] = {
            "sym_name": StringAttr(sym_name),
            "type": TypeAttr(type),
        }
        if visibility is not None:
            attributes["sym_visibility"] = StringAttr(visibility)
        if mutable:
            attributes["is_mutable"] = UNIT
        return cls(attributes=attributes)

    @property
    def global_type(self) -> Type:
        return self.type_

    def verify(self) -> None:
        if self.initial_value is None:
            return
        # ODS types `initial_value` as a TypedAttr: builtin attributes without a type (a
        # symbol, say, for a global of a function type) are refused before any type check.
        if isinstance(self.initial_value, (SymbolRefAttr, ArrayAttr, DictAttr, TypeAttr, UnitAttr)):
            raise op_error(
                self, "attribute 'initial_value' failed to satisfy constraint: TypedAttr instance"
            )
        value_type = self.initial_value_type
        if value_type is not None and not is_global_type_compatible(self.global_type, value_type):
            raise op_error(
                self,
                f'initial value type mismatch; global "{self.sym_name}" is '
                f"'{self.global_type}' but initial value provided is '{value_type}'",
            )


def _lookup_global(op: GlobalLoadOp | GlobalStoreOp) -> GlobalOp | None:
    """The global `op` names (see lookup_symbol)."""
    message = f"undefined global: @{symbol_spelling(op.global_)}"
    return lookup_symbol(op, op.global_, GlobalOp, message)


@register_op
class GlobalLoadOp(DeclaredOp):
    """`%g = util.global.load immutable? @g : T`. The result is named after the global."""

    name = "util.global.load"
    global_: str = attr_def(FLAT_SYMBOL)
    is_immutable = attr_def(UNIT_KIND)
    result = any_type(result_def())
    assembly_format = "(`immutable` $is_immutable^)? $global attr-dict `:` type($result)"

    @classmethod
    def create(cls, global_op: GlobalOp, immutable: bool | None = None) -> GlobalLoadOp:
        """A load of `global_op`; immutable when the global is (unless told otherwise)."""
        attributes: dict[str, Attribute] = {"global": symbol_ref(global_op.sym_name)}
        if immutable if immutable is not None else not global_op.is_mutable:
            attributes["is_immutable"] = UNIT
        return cls((), [global_op.global_type], shared_attributes(attributes))

    @property
    def is_pure(self) -> bool:  # type: ignore[override]
        # A load of a mutable global is ordered against stores; an immutable one is not.
        return "is_immutable" in self.attribute_map

    def asm_result_name(self, index: int) -> str | None:
        return sanitize_identifier(self.global_)

    def verify(self) -> None:
        global_op = _lookup_global(self)
        if global_op is None:
            return
        if not is_global_type_compatible(global_op.global_type, self.result.type):
            raise op_error(
                self,
                f'global type mismatch; global "{global_op.sym_name}" is '
                f"'{global_op.global_type}' but load is '{self.result.type}'",
            )
        if self.is_immutable and global_op.is_mutable:
            raise op_error(self, "is marked as immutable but the global is mutable")


@register_op
class GlobalStoreOp(DeclaredOp):
    """`util.global.store %v, @g : T`. The stored value escapes (any later load may see it)."""

    name = "util.global.store"
    value = any_type(operand_def(access=Access.ESCAPE))
    global_: str = attr_def(FLAT_SYMBOL)
    assembly_format = "$value `,` $global attr-dict `:` type($value)"

    @classmethod
    def create(cls, value: Value, global_op: GlobalOp) -> GlobalStoreOp:
        """A store of `value` into `global_op`."""
        return cls([value], (), {"global": SymbolRefAttr([global_op.sym_name])})

    def verify(self) -> None:
        global_op = _lookup_global(self)
        if global_op is not None and global_op.global_type != self.value.type:
            raise op_error(
                self,
                f'global type mismatch; global "{global_op.sym_name}" is '
                f"'{global_op.global_type}' but store is '{self.value.type}'",
            )


_POINTER = TypeConstraint("A pointer-like reference.", lambda t: t.text.startswith("!util.ptr<"))


def _pointee(pointer: Type) -> Type | None:
    """`T` of `!util.ptr<T>`."""
    found = type_parameter(pointer.text, "!util.ptr")
    return token_values.type_from_text(found) if found is not None else None


@register_op
class GlobalAddressOp(EffectsNotModelledOp):
    """`%ptr_g = util.global.address immutable? @g : !util.ptr<T>`: a global's address."""

    name = "util.global.address"
    global_: str = attr_def(FLAT_SYMBOL)
    is_immutable = attr_def(UNIT_KIND)
    result = result_def(constraint=_POINTER)
    assembly_format = "(`immutable` $is_immutable^)? $global attr-dict `:` qualified(type($result))"

    def asm_result_name(self, index: int) -> str | None:
        return sanitize_identifier("ptr_" + self.global_)

    def verify(self) -> None:
        found = lookup_symbol(
            self,
            self.global_,
            GlobalOp,
            missing="attribute 'global' failed to satisfy constraint: flat symbol reference "
            "attribute referencing to a 'IREE::Util::GlobalOpInterface' symbol",
        )
        if found is not None and self.is_immutable and found.is_mutable:
            raise op_error(self, "is marked as immutable but the global is mutable")


def _check_pointee(op: Operation, pointer: Type | None, access: Type | None, kind: str) -> None:
    """IREE's check of an indirect load or store (`kind`) of `access` through `pointer`."""
    global_type = _pointee(pointer) if pointer is not None else None
    if not is_global_type_compatible(global_type, access):
        raise op_error(
            op,
            f"global type mismatch; global pointer is '{global_type}' but {kind} is '{access}'",
        )


@register_op
class GlobalLoadIndirectOp(EffectsNotModelledOp):
    """`%v = util.global.load.indirect immutable? %ptr : !util.ptr<T> -> T`."""

    name = "util.global.load.indirect"
    global_ = operand_def(_POINTER)
    is_immutable = attr_def(UNIT_KIND)
    result = any_type(result_def())
    assembly_format = (
        "(`immutable` $is_immutable^)? $global attr-dict `:` qualified(type($global)) "
        "`->` type($result)"
    )

    def verify(self) -> None:
        _check_pointee(self, self.global_.type, self.result.type, "load")


@register_op
class GlobalStoreIndirectOp(EffectsNotModelledOp):
    """`util.global.store.indirect %v, %ptr : T -> !util.ptr<T>`."""

    name = "util.global.store.indirect"
    value = any_type(operand_def())
    global_ = operand_def(_POINTER)
    assembly_format = "$value `,` $global attr-dict `:` type($value) `->` qualified(type($global))"

    def verify(self) -> None:
        _check_pointee(self, self.global_.type, self.value.type, "store")
