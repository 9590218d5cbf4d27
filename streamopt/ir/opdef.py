"""One declaration per op: its fields, traits and assembly format, from which the rest derives.

    @register_op
    class BufferLengthOp(HalOp):
        name = "hal.buffer.length"
        is_pure = True
        buffer = operand_def(HAL_BUFFER_CONSTRAINT)
        length = result_def(INDEX)
        assembly_format = "`<` $buffer `:` type($buffer) `>` `:` type($length) attr-dict"

Fields are class attributes, in the order of IREE's op definition (operands are stored in that
order): `operand_def(...)`, `result_def(...)` and `attr_def(...)`. Each is also the op's accessor
(`op.buffer` is the operand's value, `op.flags` the attribute). From them and the format the
class gets `from_parse` and `print` (through `streamopt.ir.format`), `inherent_attributes`,
`constrained_operands` (operand type checks), `operand_access`, `operand_size` /
`result_size` (a size operand names the resource it sizes), `asm_result_name` and
`create(*operands, *attributes)`. Formats are compiled the first time an op of the class is
parsed or printed, as ODS generates its parsers ahead of time: nothing is read per op.

At most one operand may be variadic or optional (ops with several variadic groups keep
`SegmentedOp`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from streamopt.ir.core import Access, Operation, Value, shared_attributes
from streamopt.ir.types import UNIT, Attribute, Type, TypeConstraint

if TYPE_CHECKING:
    from streamopt.diagnostics import Location
    from streamopt.ir.format import CompiledFormat, FormatReader
    from streamopt.printer import Printer


# What a parser checks of a type as written: raise a DiagnosticError at the location.
TypeCheck = Callable[[Type, "Location"], None]


class AttributeKind(Protocol):
    """How an attribute field is written: its grammar (a terminal or shared rule), how a parsed
    part becomes the attribute, its text, and the attribute for a Python value."""

    grammar: str

    def from_part(self, reader: FormatReader, name: str, part: Any) -> Attribute: ...

    def text(self, attribute: Attribute) -> str: ...

    def make(self, value: Any) -> Attribute: ...


class TextAttributeKind:
    """Base of attribute kinds whose attribute prints as its own text and is given as an
    Attribute already; subclasses set `grammar` and `from_part` (and `make` if they take
    Python values)."""

    grammar = ""

    def from_part(self, reader: FormatReader, name: str, part: Any) -> Attribute:
        raise NotImplementedError

    def text(self, attribute: Attribute) -> str:
        return attribute.text

    def make(self, value: Any) -> Attribute:
        assert isinstance(value, Attribute), value
        return value


class UnitAttributeKind(TextAttributeKind):
    """A unit attribute (ODS's UnitAttr): written by its presence alone, so it has no grammar
    and no part; it anchors an optional group (`` (`mutable` $is_mutable^)? ``)."""

    def make(self, value: Any) -> Attribute:
        return UNIT


UNIT_KIND = UnitAttributeKind()


class Field:
    """A declared operand, result or attribute; `name` is set from the class attribute, less
    the trailing `_` of a name that is a Python keyword or an Operation attribute (`global_`,
    `name_`), as MLIR's Python bindings spell them."""

    name: str = ""
    index: int = -1
    check: TypeCheck | None = None
    # Whether `type($name)` reads a function type too (see `any_type`).
    function_type: bool = False

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name.removesuffix("_")


class OperandField(Field):
    def __init__(
        self,
        constraint: TypeConstraint | None,
        access: Access,
        variadic: bool,
        optional: bool,
        size_of: str | tuple[str, ...] | None,
        type: Type | None,
        check: TypeCheck | None,
    ) -> None:
        self.constraint = constraint
        self.type = type
        self.check = check
        self.access = access
        self.variadic = variadic
        self.optional = optional
        self.sizes: tuple[str, ...] = (size_of,) if isinstance(size_of, str) else size_of or ()

    def __get__(self, op: Any, owner: type) -> Any:
        if op is None:
            return self
        return op.definition.field_value(op, self.name)


class ResultField(Field):
    def __init__(
        self,
        type: Type | None,
        asm_name: str | None,
        check: TypeCheck | None,
        same_as: str | None,
        variadic: bool = False,
    ) -> None:
        self.type = type
        self.asm_name = asm_name
        self.check = check
        self.same_as = same_as
        self.variadic = variadic

    def __get__(self, op: Any, owner: type) -> Any:
        if op is None:
            return self
        return op.definition.field_value(op, self.name)


class AttributeField(Field):
    def __init__(self, kind: AttributeKind, default: Any) -> None:
        self.kind = kind
        self.default = default

    def __get__(self, op: Any, owner: type) -> Any:
        if op is None:
            return self
        return op.attribute_map.get(self.name)


def operand_def(
    constraint: TypeConstraint | None = None,
    *,
    access: Access = Access.NONE,
    variadic: bool = False,
    optional: bool = False,
    size_of: str | tuple[str, ...] | None = None,
    type: Type | None = None,
    check: TypeCheck | None = None,
) -> Any:
    """An operand: its type constraint (checked by the verifier), how the op accesses it, for
    a size the operand or result (by field name) whose size it is, and `type` when the op's
    definition fixes the type (ODS's buildable types: the parser gives the operand that type
    where the format does not spell it, and refuses a value of another type). `check(type,
    location)` is what the op's parser checks of the type as written (the constraints IREE's
    custom directives check)."""
    return OperandField(constraint, access, variadic, optional, size_of, type, check)


def result_def(
    type: Type | None = None,
    *,
    asm_name: str | None = None,
    check: TypeCheck | None = None,
    same_as: str | None = None,
    variadic: bool = False,
) -> Any:
    """A result: its type when the format does not spell it (or `same_as`, the operand whose
    type it has: ODS's AllTypesMatch), the name iree-opt prints it with (`asm_name`, from the
    op's getAsmResultNames), and a `check` as operands have. A `variadic` result is the op's
    last, a list (`same_as` then names a variadic operand, result i having operand i's type)."""
    return ResultField(type, asm_name, check, same_as, variadic)


def any_type(field: Any) -> Any:
    """`field`, whose `type($name)` may also be a function type (`(index) -> i32`, a global's
    type, say). The grammar reads function types only where a field asks: everywhere, `-> (`
    would be ambiguous in result lists."""
    field.function_type = True
    return field


def attr_def(kind: AttributeKind, *, default: Any = None) -> Any:
    """An inherent attribute written as `kind` says; `default` is what `create` gives it."""
    return AttributeField(kind, default)


class OpDefinition:
    """The fields of one op class, in declaration order, and its compiled format."""

    def __init__(self, cls: type[DeclaredOp]) -> None:
        self.name = cls.name
        self.cls = cls
        self.operands: dict[str, OperandField] = {}
        self.results: dict[str, ResultField] = {}
        self.attributes: dict[str, AttributeField] = {}
        for klass in reversed(cls.__mro__):
            for value in vars(klass).values():
                # A subclass may redefine a field (its access, say); it keeps its place.
                if isinstance(value, OperandField):
                    self.operands[value.name] = value
                elif isinstance(value, ResultField):
                    self.results[value.name] = value
                elif isinstance(value, AttributeField):
                    self.attributes[value.name] = value
        self.operand_list = list(self.operands.values())
        self.result_list = list(self.results.values())
        self.operand_index = {name: i for i, name in enumerate(self.operands)}
        self.result_index = {name: i for i, name in enumerate(self.results)}
        assert not any(f.variadic for f in self.result_list[:-1]), (
            f"{self.name}: a variadic result must be the last"
        )
        self.variable = next(
            (i for i, f in enumerate(self.operand_list) if f.variadic or f.optional), None
        )
        assert sum(f.variadic or f.optional for f in self.operand_list) <= 1, (
            f"{self.name}: more than one variadic operand"
        )
        self._format: CompiledFormat | None = None
        # The fields whose types the parser checks, in declaration order.
        self.checked: list[tuple[str, TypeCheck]] = [
            (f.name, f.check)
            for f in (*self.operand_list, *self.result_list)
            if f.check is not None
        ]

    @property
    def format(self) -> CompiledFormat:
        if self._format is None:
            # The grammar rule of the op's custom form (dialects.rule_name_for_op).
            rule = "op_" + self.name.replace(".", "_")
            # Imported when the first declared op is parsed or printed, not on every run's
            # start-up (a run over util ops, or a pass that only imports the dialects).
            from streamopt.ir.format import compile_format

            self._format = compile_format(self, self.cls.assembly_format, rule)
        return self._format

    def has_field(self, name: str) -> bool:
        return name in self.operands or name in self.results or name in self.attributes

    def is_variadic(self, name: str) -> bool:
        found = self.operands.get(name) or self.results.get(name)
        return found is not None and found.variadic

    def operand_span(self, op: Operation, name: str) -> tuple[int, int]:
        """Where operand field `name`'s values are in `op.operands`."""
        index = self.operand_index[name]
        variable = self.variable
        extra = len(op.operands) - len(self.operand_list)
        if variable is None or index < variable:
            return index, index + 1
        if index == variable:
            return index, index + 1 + extra
        return index + extra, index + extra + 1

    def field_value(self, op: Operation, name: str) -> Any:
        """An operand field's value (a list for a variadic one, None for an absent optional
        one) or a result."""
        if name in self.results:
            index = self.result_index[name]
            return op.results[index:] if self.results[name].variadic else op.results[index]
        start, end = self.operand_span(op, name)
        found = self.operands[name]
        if found.variadic:
            return list(op.operands[start:end])
        if found.optional:
            return op.operands[start] if end > start else None
        return op.operands[start]

    def field_of_operand(self, op: Operation, index: int) -> OperandField | None:
        """The field of operand `index`; None past the declared ones (an op whose further
        operands are segments of its own, see SegmentedOp)."""
        variable = self.variable
        extra = len(op.operands) - len(self.operand_list)
        if variable is None or index < variable:
            return self.operand_list[index] if index < len(self.operand_list) else None
        if index <= variable + extra:
            return self.operand_list[variable]
        return self.operand_list[index - extra]


class _LazyDefinition:
    """`cls.definition`: an op class's OpDefinition, built the first time it is asked for
    (most runs meet few of the declared ops; building them all was start-up time)."""

    def __get__(self, op: Any, owner: type[DeclaredOp]) -> OpDefinition:
        found: OpDefinition | None = owner.__dict__.get("_definition")
        if found is None:
            found = OpDefinition(owner)
            owner._definition = found  # type: ignore[attr-defined]
        return found


class _LazyInherentAttributes:
    """`cls.inherent_attributes` of a declared op: its attribute fields."""

    def __get__(self, op: Any, owner: type[DeclaredOp]) -> frozenset[str]:
        names = frozenset(owner.definition.attributes)
        owner.inherent_attributes = names  # From now on a plain class attribute.
        return names


DeclaredOpT = TypeVar("DeclaredOpT", bound="DeclaredOp")


class DeclaredOp(Operation):
    """An op whose syntax, accessors and interfaces come from its declared fields."""

    __slots__ = ()
    assembly_format: ClassVar[str] = ""
    definition: ClassVar[OpDefinition] = _LazyDefinition()  # type: ignore[assignment]
    # Operand types by field name where a field gives none (a dialect's naming convention).
    default_operand_types: ClassVar[Mapping[str, TypeConstraint]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" in vars(cls) and cls.name and "inherent_attributes" not in vars(cls):
            # The attribute fields, read when the first op of the class is parsed: the
            # definition itself is built then too (see _LazyDefinition).
            cls.inherent_attributes = _LazyInherentAttributes()  # type: ignore[assignment]

    # -- syntax ----------------------------------------------------------------------------

    @classmethod
    def from_parse(cls, b: Any, parts: list[Any], location: Location) -> Operation:
        op: Operation = cls.definition.format.build(cls, b, parts, location)
        return op

    def print(self, p: Printer) -> None:
        p.write(self.name)
        self.definition.format.print(self, p)

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def create(cls: type[DeclaredOpT], *args: Any, **kwargs: Any) -> DeclaredOpT:
        """The op from its operands, its attributes then its result types, in declaration
        order (positionally or by field name); attributes may be Python values (`kind.make`),
        and take their default when not given. A variadic operand is a sequence, an absent
        optional one None."""
        definition = cls.definition
        names = [*definition.operands, *definition.attributes, *definition.results]
        values = dict(zip(names, args))
        values.update(kwargs)
        operands: list[Value] = []
        for field in definition.operand_list:
            value = values.get(field.name)
            if field.variadic:
                operands.extend(value or ())
            elif value is not None:
                operands.append(value)
            else:
                assert field.optional, f"{cls.name}: operand {field.name} missing"
        attributes: dict[str, Attribute] = {}
        for name, attribute_field in definition.attributes.items():
            value = values.get(name, attribute_field.default)
            if value is None:
                continue
            if not isinstance(value, Attribute):
                value = attribute_field.kind.make(value)
            attributes[name] = value
        result_types: list[Type | None] = []
        for name, result in definition.results.items():
            if result.variadic and result.same_as is not None and name not in values:
                result_types.extend(v.type for v in values.get(result.same_as) or ())
            elif result.variadic:
                result_types.extend(values.get(name) or ())
            else:
                result_types.append(values.get(name, result.type))
        return cls(operands, result_types, shared_attributes(attributes))

    # -- interfaces ------------------------------------------------------------------------

    def operand(self, name: str) -> Value:
        """The operand called `name` in the op's definition."""
        value: Value = self.definition.field_value(self, name)
        return value

    def constrained_operands(self) -> Iterator[tuple[Value, TypeConstraint, bool]]:
        definition = self.definition
        defaults = self.default_operand_types
        overrides = self.operand_types
        for index, value in enumerate(self.operands):
            field = definition.field_of_operand(self, index)
            if field is None:
                continue
            constraint = overrides.get(field.name) or field.constraint or defaults.get(field.name)
            if constraint is not None:
                yield value, constraint, field.variadic

    def operand_access(self, index: int) -> Access:
        field = self.definition.field_of_operand(self, index)
        return field.access if field is not None else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        definition = self.definition
        field = definition.field_of_operand(self, index)
        if field is None:
            return None
        target = field.name
        for field in definition.operand_list:
            if target in field.sizes:
                value: Value = definition.field_value(self, field.name)
                return value
        return None

    def result_size(self, index: int) -> Value | None:
        definition = self.definition
        target = definition.result_list[index].name if index < len(definition.result_list) else ""
        for field in definition.operand_list:
            if target in field.sizes:
                value: Value = definition.field_value(self, field.name)
                return value
        return None

    def asm_result_name(self, index: int) -> str | None:
        results = self.definition.result_list
        if results and index >= len(results) and results[-1].variadic:
            return results[-1].asm_name
        return results[index].asm_name if index < len(results) else None


def declared_fields(cls: type[DeclaredOp]) -> Sequence[str]:
    """The field names of an op class, operands then results then attributes."""
    definition = cls.definition
    return [*definition.operands, *definition.results, *definition.attributes]
