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
`constrained_operands` (operand type checks), `operand_access`, `size_of_operand` /
`size_of_result` (a size operand names the resource it sizes), `asm_result_name` and
`create(*operands, *attributes)`. Formats are compiled into Python code the first time an op
of the class is parsed or printed, as ODS generates its parsers ahead of time, and the code is
cached on disk (`generated_function`): nothing is read per op, nor per run once cached.

At most one operand may be variadic or optional (ops with several variadic groups keep
`SegmentedOp`).
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from streamopt.diagnostics import OperandTypeMismatch, error
from streamopt.ir.core import Access, Block, Operation, Region, Value, shared_attributes
from streamopt.ir.types import (
    BUILDABLE_TYPE,
    CONSTRAINT_OF,
    TIMEPOINT,
    UNIT,
    Attribute,
    FunctionType,
    IndexType,
    IntegerType,
    ResourceType,
    Type,
    TypeConstraint,
    UnitAttr,
    print_attr_dict,
)
from streamopt.parser.parts import AttrDict, AttributesClause, Clause, FormatGroup
from streamopt.parser.tables import cache_file, store
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.diagnostics import Location
    from streamopt.ir.format import CompiledFormat
    from streamopt.printer import Printer


# What a parser checks of a type as written: raise a DiagnosticError at the location.
TypeCheck = Callable[[Type, "Location"], None]


class AttributeKind:
    """How an attribute field is written: its grammar (a terminal or shared rule), how a parsed
    part becomes the attribute, its text, and the attribute for a Python value. By default the
    attribute prints as its own text and is given as an Attribute already; subclasses set
    `grammar` and `from_part` (and `make` if they take Python values)."""

    grammar = ""

    def from_part(self, reader: FormatReader, name: str, part: Any) -> Attribute:
        raise NotImplementedError

    def text(self, attribute: Attribute) -> str:
        return attribute.text

    def make(self, value: Any) -> Attribute:
        assert isinstance(value, Attribute), value
        return value

    # Whether `from_attribute` reads the kind off MLIR's generic form: an op with an attribute
    # field of a kind that does not is kept in the generic form when written in it.
    reads_generic = False

    def from_attribute(self, attribute: Attribute) -> Attribute | None:
        """The attribute of this kind that `attribute`, the generic form's property, stands
        for; None where MLIR's property conversion refuses it."""
        return attribute


class UnitAttributeKind(AttributeKind):
    """A unit attribute (ODS's UnitAttr): written by its presence alone, so it has no grammar
    and no part; it anchors an optional group (`` (`mutable` $is_mutable^)? ``)."""

    def make(self, value: Any) -> Attribute:
        return UNIT

    reads_generic = True

    def from_attribute(self, attribute: Attribute) -> Attribute | None:
        return UNIT if isinstance(attribute, UnitAttr) else None


UNIT_KIND = UnitAttributeKind()


# -- custom directives -------------------------------------------------------------------------
#
# Kept here, beside the fields, so that dialect modules register theirs without importing the
# format layer, which a run imports only when it meets a declared op.


class CustomDirective:
    """`custom<Name>(args)`: `grammar` is the rule text its parts come from (one part, or a
    tuple of `parts` of them); `parse(reader, part, args)` stores what the part says through
    the reader; `print(op, printer, args)` returns the text, or writes it itself when
    `writes` (a directive that prints a region). `args` are the directive's arguments as
    (`kind`, field) pairs: kind "type" for `type($x)`, "value" for `$x` and `ref($x)`."""

    def __init__(
        self,
        grammar: str,
        parse: Callable[[FormatReader, Any, Sequence[tuple[str, str]]], None],
        print: Callable[[DeclaredOp, Printer, Sequence[tuple[str, str]]], str | None],
        present: Callable[[DeclaredOp, Sequence[tuple[str, str]]], bool] | None = None,
        parts: int = 1,
        writes: bool = False,
    ) -> None:
        self.grammar = grammar
        self.parse = parse
        self.print = print
        self.parts = parts
        self.writes = writes
        # False when the directive prints nothing for this op (an optional group anchored on
        # it is then left out).
        self.present = present or (lambda op, args: True)


CUSTOM_DIRECTIVES: dict[str, CustomDirective] = {}


def custom_directive(name: str, directive: CustomDirective) -> CustomDirective:
    assert name not in CUSTOM_DIRECTIVES, f"custom<{name}> defined twice"
    CUSTOM_DIRECTIVES[name] = directive
    return directive


class Field:
    """A declared operand, result or attribute; `name` is set from the class attribute, less
    the trailing `_` of a name that is a Python keyword or an Operation attribute (`global_`,
    `name_`), as MLIR's Python bindings spell them."""

    name: str = ""
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
        same_as: str | None = None,
    ) -> None:
        self.constraint = constraint
        self.type = type
        self.check = check
        self.same_as = same_as
        self.access = access
        self.variadic = variadic
        self.optional = optional
        self.sizes: tuple[str, ...] = (size_of,) if isinstance(size_of, str) else size_of or ()

    def __get__(self, op: Any, owner: type) -> Any:
        if op is None:
            return self
        definition = op.definition
        # Passes read operand accessors once per use; most fields sit at a fixed index.
        index = definition.fixed_operand_index.get(self.name)
        if index is not None:
            return op.operands[index]
        return definition.field_value(op, self.name)


class ResultField(Field):
    def __init__(
        self,
        type: Type | None,
        asm_name: str | None,
        check: TypeCheck | None,
        same_as: str | None,
        variadic: bool = False,
        tied_to: str | None = None,
        constraint: TypeConstraint | None = None,
    ) -> None:
        self.type = type
        self.asm_name = asm_name
        self.check = check
        self.constraint = constraint or (CONSTRAINT_OF.get(type) if type is not None else None)
        self.same_as = same_as
        self.variadic = variadic
        self.tied_to = tied_to

    def __get__(self, op: Any, owner: type) -> Any:
        if op is None:
            return self
        return op.definition.field_value(op, self.name)


class AttributeField(Field):
    def __init__(self, kind: AttributeKind, default: Any, required: bool) -> None:
        self.kind = kind
        self.default = default
        self.required = required
        # A kind may give the accessor a Python value (`value(attribute)`) for the attribute.
        self.value: Callable[[Attribute], Any] | None = getattr(kind, "value", None)

    def __get__(self, op: Any, owner: type) -> Any:
        if op is None:
            return self
        found = op.attribute_map.get(self.name)
        return found if self.value is None or found is None else self.value(found)


class RegionField(Field):
    def __init__(self, terminator: str | None, arguments: str | None) -> None:
        self.terminator = terminator
        self.arguments = arguments

    def __get__(self, op: Any, owner: type) -> Any:
        if op is None:
            return self
        return op.regions[op.definition.region_index[self.name]]


def operand_def(
    constraint: TypeConstraint | None = None,
    *,
    access: Access = Access.NONE,
    variadic: bool = False,
    optional: bool = False,
    size_of: str | tuple[str, ...] | None = None,
    type: Type | None = None,
    check: TypeCheck | None = None,
    same_as: str | None = None,
) -> Any:
    """An operand: its type constraint (checked by the verifier), how the op accesses it, for
    a size the operand or result (by field name) whose size it is, and `type` when the op's
    definition fixes the type (ODS's buildable types: the parser gives the operand that type
    where the format does not spell it, and refuses a value of another type). `same_as` names
    the operand or result whose type it has where the format does not spell its own (ODS's
    AllTypesMatch and SameOperandsAndResultType: `util.align %a, %b : index`). `check(type,
    location)` is what the op's parser checks of the type as written (the constraints IREE's
    custom directives check)."""
    return OperandField(constraint, access, variadic, optional, size_of, type, check, same_as)


def result_def(
    type: Type | None = None,
    *,
    asm_name: str | None = None,
    check: TypeCheck | None = None,
    same_as: str | None = None,
    variadic: bool = False,
    tied_to: str | None = None,
    constraint: TypeConstraint | None = None,
) -> Any:
    """A result: its type when the format does not spell it (or `same_as`, the operand whose
    type it has: ODS's AllTypesMatch), the name iree-opt prints it with (`asm_name`, from the
    op's getAsmResultNames), and a `check` as operands have. A `variadic` result is a list
    (`same_as` then names a variadic operand, result i having operand i's type). `tied_to`
    names the operand the result is tied to (IREE's TiedOpInterface: it is that operand's
    storage, updated in place); a variadic result is tied by the op's `tied_operands`
    attribute when it has one, else result i to operand i. The verifier holds a spelled type
    to `constraint` (by default the one `type` names: `I32` is a 32-bit signless integer), and
    the parser an `index` or integer `type` to its kind, as ODS's parser does."""
    return ResultField(type, asm_name, check, same_as, variadic, tied_to, constraint)


def any_type(field: Any) -> Any:
    """`field`, whose `type($name)` may also be a function type (`(index) -> i32`, a global's
    type, say). The grammar reads function types only where a field asks: everywhere, `-> (`
    would be ambiguous in result lists."""
    field.function_type = True
    return field


def region_def(*, terminator: str | None = None, arguments: str | None = None) -> Any:
    """A region; `terminator` is the op that ends its block implicitly (ODS's
    SingleBlockImplicitTerminator): the parser drops one written without operands and the
    printer prints none, so the block holds none. `create` gives its block one argument per
    value of operand field `arguments`, typed alike (the captures of an execution region)."""
    return RegionField(terminator, arguments)


def attr_def(kind: AttributeKind, *, default: Any = None, required: bool = False) -> Any:
    """An inherent attribute written as `kind` says; `default` is what `create` gives it. An
    op must have it (ODS's required attributes) when its format writes it outside optional
    groups, or when it is `required` (one a custom directive reads)."""
    return AttributeField(kind, default, required)


class OpDefinition:
    """The fields of one op class, in declaration order, and its compiled format."""

    def __init__(self, cls: type[DeclaredOp]) -> None:
        self.name = cls.name
        self.cls = cls
        self.operands: dict[str, OperandField] = {}
        self.results: dict[str, ResultField] = {}
        self.attributes: dict[str, AttributeField] = {}
        self.regions: dict[str, RegionField] = {}
        by_kind: dict[type, dict[str, Any]] = {
            OperandField: self.operands,
            ResultField: self.results,
            AttributeField: self.attributes,
            RegionField: self.regions,
        }
        # Fields are declared below Operation (its 60-odd members and object's are none).
        mro = cls.__mro__
        for klass in reversed(mro[: mro.index(Operation)]):
            for value in vars(klass).values():
                # A subclass may redefine a field (its access, say); it keeps its place.
                fields = by_kind.get(type(value))
                if fields is not None:
                    fields[value.name] = value
        self.operand_list = list(self.operands.values())
        self.result_list = list(self.results.values())
        self.operand_index = {name: i for i, name in enumerate(self.operands)}
        self.result_index = {name: i for i, name in enumerate(self.results)}
        self.region_index = {name: i for i, name in enumerate(self.regions)}
        variable = [i for i, f in enumerate(self.operand_list) if f.variadic or f.optional]
        # With several variadic or optional operands the op keeps how many values each field
        # has (MLIR's operandSegmentSizes): its class is a SegmentedOp.
        self.segmented = len(variable) > 1
        self.variable = variable[0] if len(variable) == 1 else None
        self.variable_result = next((i for i, f in enumerate(self.result_list) if f.variadic), None)
        assert sum(f.variadic for f in self.result_list) <= 1, f"{self.name}: variadic results"
        # The operand fields whose index does not depend on how many values the variadic or
        # optional ones have: the single ones before the first.
        self.fixed_operand_index = {
            name: i
            for i, name in enumerate(self.operands)
            if i < (variable or [len(self.operands)])[0]
        }
        # Each operand field's type constraint (the class's `operand_types` and defaults name
        # some by field), for the verifier, and whether any result has a name of its own.
        self.constraints = [
            (f.name, found, f.variadic)
            for f in self.operand_list
            if (
                found := cls.operand_types.get(f.name)
                or f.constraint
                or cls.default_operand_types.get(f.name)
            )
        ]
        # The type a use of each operand field is read as where the format spells none: the
        # field's own, or the one its constraint allows (ODS resolves such a use to it).
        constraint_of = {name: found for name, found, _ in self.constraints}
        self.use_types = {
            f.name: f.type or BUILDABLE_TYPE.get(constraint_of.get(f.name))  # type: ignore[arg-type]
            for f in self.operand_list
        }
        self.named_results = any(f.asm_name for f in self.result_list)
        self._format: CompiledFormat | None = None
        self._builder: Callable[..., Operation] | None = None
        self._printer: Callable[[DeclaredOp, Printer], None] | None = None
        # The fields whose types the parser checks, in declaration order.
        self.checked: list[tuple[str, TypeCheck]] = [
            (f.name, check)
            for f in (*self.operand_list, *self.result_list)
            if (check := f.check or _kind_check(self.name, f)) is not None
        ]
        self.result_constraints = [
            (f.name, f.constraint, f.variadic) for f in self.result_list if f.constraint
        ]

    @property
    def format(self) -> CompiledFormat:
        """The op's format compiled against these fields (its grammar, and the source of its
        builder and printer)."""
        if self._format is None:
            # The grammar rule of the op's custom form (dialects.rule_name_for_op).
            rule = "op_" + self.name.replace(".", "_")
            # Imported only when generated code is not in the cache (see generated_function):
            # the format compiler's import and reading the format were most of what a short
            # run spent on declared ops.
            from streamopt.ir.format import compile_format

            self._format = compile_format(self, self.cls.assembly_format, rule)
        return self._format

    def build(self, cls: type[DeclaredOp], b: Any, parts: list[Any], location: Location) -> Any:
        """The op of class `cls` that the parts of its grammar rule spell."""
        builder = self._builder
        if builder is None:
            builder = self._builder = generated_function(self, "build_op")
        return builder(cls, FormatReader(self, b, location), parts, location)

    def print(self, op: DeclaredOp, p: Printer) -> None:
        """Print `op` after its name, as mlir-tblgen's generated printer does."""
        printer = self._printer
        if printer is None:
            printer = self._printer = generated_function(self, "print_op")
        printer(op, p)

    @property
    def required_attributes(self) -> list[str]:
        """The attribute fields every op of the class has (ODS's required attributes)."""
        written = self.format.written_fields()
        return [
            name
            for name, f in self.attributes.items()
            if f.required or (name in written and f.kind is not UNIT_KIND)
        ]

    def reads_generic(self) -> bool:
        """Whether an op of the class written in the generic form is read as one (see
        streamopt.ir.generic_form): its parser is its format's, and the kinds of its attributes
        read their generic form."""
        cls = self.cls
        return (
            bool(cls.assembly_format)
            and cls.models_generic_form
            and cls.from_parse.__func__ is DeclaredOp.from_parse.__func__  # type: ignore[attr-defined]
            and all(f.kind.reads_generic for f in self.attributes.values())
        )

    def has_field(self, name: str) -> bool:
        return any(name in d for d in (self.operands, self.results, self.attributes, self.regions))

    def is_variadic(self, name: str) -> bool:
        found = self.operands.get(name) or self.results.get(name)
        return found is not None and found.variadic

    def operand_span(self, op: Operation, name: str) -> tuple[int, int]:
        """Where operand field `name`'s values are in `op.operands`."""
        index = self.operand_index[name]
        if self.segmented:
            start = sum(op.segments[:index])  # type: ignore[attr-defined]
            return start, start + op.segments[index]  # type: ignore[attr-defined]
        return _span(index, self.variable, len(op.operands) - len(self.operand_list))

    def field_value(self, op: Operation, name: str) -> Any:
        """An operand field's value (a list for a variadic one, None for an absent optional
        one) or a result (a list for a variadic one)."""
        found = self.operands.get(name)
        if found is None:
            extra = len(op.results) - len(self.result_list)
            start, end = _span(self.result_index[name], self.variable_result, extra)
            return list(op.results[start:end]) if self.results[name].variadic else op.results[start]
        if self.segmented:  # operand_span's, inline: printers ask for several fields each.
            segments = op.segments  # type: ignore[attr-defined]
            start = sum(segments[: self.operand_index[name]])
            end = start + segments[self.operand_index[name]]
        else:
            start, end = self.operand_span(op, name)
        values = op.operands[start:end]
        if found.variadic:
            return values if isinstance(values, list) else list(values)
        return values[0] if values else None

    def locate_operand(self, op: Operation, index: int) -> tuple[OperandField, int] | None:
        """The field of operand `index` and its position among the field's values; None past
        the declared ones (an op whose further operands are segments of its own)."""
        if self.segmented:
            for field, count in zip(self.operand_list, op.segments):  # type: ignore[attr-defined]
                if index < count:
                    return field, index
                index -= count
            return None
        found, position = _locate(index, self.variable, len(op.operands) - len(self.operand_list))
        return (self.operand_list[found], position) if found < len(self.operand_list) else None

    def locate_result(self, op: Operation, index: int) -> tuple[ResultField, int] | None:
        """The field of result `index` and its position among the field's results."""
        extra = len(op.results) - len(self.result_list)
        found, position = _locate(index, self.variable_result, extra)
        return (self.result_list[found], position) if found < len(self.result_list) else None

    def segments_of(self, values: Mapping[str, Any]) -> tuple[int, ...]:
        """The values each operand field has (MLIR's operandSegmentSizes), from field name to
        value (a list for a variadic field, None for an absent optional one)."""
        return tuple(
            len(values.get(f.name) or ()) if f.variadic else int(values.get(f.name) is not None)
            for f in self.operand_list
        )


# The types whose kind ODS's parsers check where a result's type is spelled (their C++ class).
_KINDS: tuple[tuple[str, Callable[[Type], bool]], ...] = (
    ("builtin.index", lambda t: isinstance(t, IndexType)),
    ("builtin.integer", lambda t: isinstance(t, IntegerType)),
    ("stream.timepoint", lambda t: t == TIMEPOINT),
)


def _kind_check(op_name: str, field: Field) -> TypeCheck | None:
    """ODS's parser check of a field whose type has a C++ class: a result declared with such
    a type (`Index`, `I32`, a timepoint), or an operand or result whose constraint names its
    kind (`Util_BufferType`). A spelled type of another kind is refused where it is written."""
    want = field.type if isinstance(field, ResultField) else None
    found_kind = next(((k, is_kind) for k, is_kind in _KINDS if want and is_kind(want)), None)
    constraint = getattr(field, "constraint", None)
    if found_kind is None and constraint is not None and constraint.kind is not None:
        found_kind = (constraint.kind, constraint.accepts)
    if found_kind is None:
        return None
    kind, is_kind = found_kind

    def check(found: Type, location: Location) -> None:
        if not is_kind(found):
            raise error(
                f"custom op '{op_name}' invalid kind of type specified: expected {kind}, but "
                f"found '{type_text(found)}'",
                location,
            )

    return check


def _span(index: int, variable: int | None, extra: int) -> tuple[int, int]:
    """Where field `index`'s values are when field `variable` holds `extra` values more than
    one (-1: an absent optional one)."""
    if variable is None or index < variable:
        return index, index + 1
    if index == variable:
        return index, index + 1 + extra
    return index + extra, index + extra + 1


def _locate(index: int, variable: int | None, extra: int) -> tuple[int, int]:
    """The field of value `index` and its position among the field's values (see `_span`)."""
    if variable is None or index < variable:
        return index, 0
    if index <= variable + extra:
        return variable, index - variable
    return index - extra, 0


class _LazyDefinition:
    """`cls.definition`: an op class's OpDefinition, built the first time it is asked for
    (most runs meet few of the declared ops; building them all was start-up time).

    Each declared class has one of its own (see DeclaredOp.__init_subclass__), which the
    first lookup replaces with the plain value: accessors read `op.definition` once per use,
    and a descriptor call on each showed in the elide pass's profile."""

    def __get__(self, op: Any, owner: type[DeclaredOp]) -> OpDefinition:
        found = OpDefinition(owner)
        owner.definition = found
        return found


class _LazyInherentAttributes:
    """`cls.inherent_attributes` of a declared op: its attribute fields."""

    def __get__(self, op: Any, owner: type[DeclaredOp]) -> frozenset[str]:
        names = frozenset(owner.definition.attributes)
        owner.inherent_attributes = names  # From now on a plain class attribute.
        return names


DeclaredOpT = TypeVar("DeclaredOpT", bound="DeclaredOp")


class _DeclaredOpType(type):
    """The class of declared op classes: each gets empty `__slots__` unless it names some.
    A declared op keeps nothing of its own (its fields are its operands, results, attributes
    and regions), and an instance without a `__dict__` is what keeps large modules small."""

    def __new__(
        mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any
    ) -> _DeclaredOpType:
        namespace.setdefault("__slots__", ())
        return super().__new__(mcs, name, bases, namespace, **kwargs)


class DeclaredOp(Operation, metaclass=_DeclaredOpType):
    """An op whose syntax, accessors and interfaces come from its declared fields (a
    subclass needs no `__slots__`: see _DeclaredOpType)."""

    assembly_format: ClassVar[str] = ""
    # False for a class that models less of IREE's op than its generic form can spell (a body
    # region, say): the generic form is then kept as written.
    models_generic_form: ClassVar[bool] = True
    # ODS's SameVariadicOperandSize: the variadic operand fields have as many values each, and
    # the generic form gives no operandSegmentSizes.
    same_variadic_operand_size: ClassVar[bool] = False
    definition: ClassVar[OpDefinition] = _LazyDefinition()  # type: ignore[assignment]
    # Operand types by field name where a field gives none (a dialect's naming convention).
    default_operand_types: ClassVar[Mapping[str, TypeConstraint]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.definition = _LazyDefinition()  # type: ignore[assignment]
        if "name" in vars(cls) and cls.name and "inherent_attributes" not in vars(cls):
            # The attribute fields, read when the first op of the class is parsed: the
            # definition itself is built then too (see _LazyDefinition).
            cls.inherent_attributes = _LazyInherentAttributes()  # type: ignore[assignment]

    # -- syntax ----------------------------------------------------------------------------

    @classmethod
    def from_parse(cls, b: Any, parts: list[Any], location: Location) -> Operation:
        op: Operation = cls.definition.build(cls, b, parts, location)
        return op

    def print(self, p: Printer) -> None:
        p.write(self.name)
        self.definition.print(self, p)

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def create(cls: type[DeclaredOpT], *args: Any, **kwargs: Any) -> DeclaredOpT:
        """The op from its operands, its attributes then its result types, in declaration
        order (positionally or by field name); attributes may be Python values (`kind.make`),
        and take their default when not given. A variadic operand is a sequence, an absent
        optional one None. Regions are made with one block each (see `region_def`)."""
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
            if value is None or value is False:
                continue
            if not isinstance(value, Attribute):
                value = attribute_field.kind.make(value)
            attributes[name] = value
        result_types: list[Type | None] = []
        for name, result in definition.results.items():
            same_as = values.get(result.same_as or "") if name not in values else None
            if result.variadic:
                result_types.extend([v.type for v in same_as] if same_as else values.get(name, ()))
            else:
                result_types.append(same_as.type if same_as else values.get(name, result.type))
        regions = [
            Region([Block([v.type for v in values.get(f.arguments or "") or ()])])
            for f in definition.regions.values()
        ]
        extra: dict[str, Any] = {"segments": definition.segments_of(values)}
        if not definition.segmented:
            extra = {}
        return cls(operands, result_types, shared_attributes(attributes), regions, **extra)

    # -- the generic form ------------------------------------------------------------------

    @classmethod
    def generic_state(
        cls, attributes: Mapping[str, Attribute], alias_values: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Keyword arguments of the class's constructor for state that is not an operand,
        type, attribute or region, from the inherent attributes of its generic form (and the
        values of attribute aliases)."""
        return {}

    # -- interfaces ------------------------------------------------------------------------

    def operand(self, name: str) -> Value:
        """The operand called `name` in the op's definition."""
        value: Value = self.definition.field_value(self, name)
        return value

    def constrained_operands(self) -> Iterator[tuple[Value, TypeConstraint, bool, int | None]]:
        definition = self.definition
        operands = self.operands
        for name, constraint, variadic in definition.constraints:
            index = definition.fixed_operand_index.get(name)
            if index is not None:
                yield operands[index], constraint, variadic, index
                continue
            start, end = definition.operand_span(self, name)
            for index in range(start, end):
                yield operands[index], constraint, variadic, index

    def constrained_results(self) -> Iterator[tuple[Value, TypeConstraint, bool, int]]:
        definition = self.definition
        for name, constraint, variadic in definition.result_constraints:
            found = definition.field_value(self, name)
            for value in found if variadic else (found,):
                yield value, constraint, variadic, value.index

    def operand_access(self, index: int) -> Access:
        found = self.definition.locate_operand(self, index)
        return found[0].access if found is not None else Access.NONE

    def size_of_operand(self, index: int) -> Value | None:
        found = self.definition.locate_operand(self, index)
        return self._size_of(found[0].name, found[1]) if found is not None else None

    def size_of_result(self, index: int) -> Value | None:
        found = self.definition.locate_result(self, index)
        return self._size_of(found[0].name, found[1]) if found is not None else None

    def _size_of(self, target: str, position: int) -> Value | None:
        """The size operand of value `position` of field `target`: the field that names it in
        `size_of`; a list of sizes holds one per resource of the list, in order (IREE's
        findValueSizeInList)."""
        definition = self.definition
        for field in definition.operand_list:
            if target not in field.sizes:
                continue
            sizes = definition.field_value(self, field.name)
            if not field.variadic:
                return sizes  # type: ignore[no-any-return]
            values = definition.field_value(self, target)
            if not isinstance(values[position].type, ResourceType):
                return None
            count = sum(isinstance(v.type, ResourceType) for v in values[:position])
            return sizes[count] if count < len(sizes) else None
        return None

    def tied_operand_index(self, result_index: int) -> int | None:
        definition = self.definition
        found = definition.locate_result(self, result_index)
        if found is None or found[0].tied_to is None:
            return None
        field, position = found
        start, _ = definition.operand_span(self, field.tied_to)  # type: ignore[arg-type]
        if not field.variadic:
            return start
        if "tied_operands" in definition.attributes:
            # Its kind gives the accessor the operand position of each result (or None).
            tied = self.tied_operands or ()  # type: ignore[attr-defined]
            offset: int | None = tied[position] if position < len(tied) else None
            return None if offset is None else start + offset
        return start + position

    def asm_result_name(self, index: int) -> str | None:
        # A variadic result's name is its first result's: the rest print in its group.
        if not self.definition.named_results:
            return None
        found = self.definition.locate_result(self, index)
        return found[0].asm_name if found is not None and found[1] == 0 else None


# -- the generated builder and printer -----------------------------------------------------------


class FormatReader:
    """What parsing one op's parts collects; custom directives write into it."""

    __slots__ = (
        "attributes",
        "builder",
        "definition",
        "extra",
        "location",
        "operands",
        "regions",
        "result_types",
    )

    def __init__(self, definition: OpDefinition, builder: Any, location: Any) -> None:
        self.definition = definition
        self.builder = builder
        self.location = location
        self.operands: dict[str, Any] = {}
        self.result_types: dict[str, Any] = {}
        self.attributes: dict[str, Any] = {}
        self.regions: dict[str, Any] = {}
        # Keyword arguments of the op's constructor, for state a directive reads that is not
        # an operand, type, attribute or region (util.global's initial value type).
        self.extra: dict[str, Any] = {}

    def set_type(self, name: str, type: Any) -> None:
        """`type($name)` was written: a result's type, or the check of an operand's."""
        if name in self.definition.results:
            self.result_types[name] = type
            return
        value = self.operands[name]
        if value is None:
            return  # An optional operand that is not written.
        if isinstance(value, list) and len(value) != len(type):
            # MLIR's resolveOperands, for `$x `:` type($x)` of a variadic operand.
            raise error(f"{len(value)} operands present, but expected {len(type)}", self.location)
        values = value if isinstance(value, list) else [value]
        for position, (one, one_type) in enumerate(
            zip(values, type if isinstance(type, list) else [type])
        ):
            try:
                check_operand_type(one, one_type, self.location)
            except OperandTypeMismatch as exc:
                # Which use of the value in the op this is, for the parser to point at it:
                # the fields read before this one are written before it.
                fields = list(self.operands.values())
                earlier = fields[: list(self.operands).index(name)]
                written = [v for f in earlier for v in (f if isinstance(f, list) else [f])]
                exc.use = [*written, *values[:position]].count(one)
                raise


def check_operand_type(value: Any, type: Any, location: Any) -> None:
    """A forward reference takes the type written for it; a known value must have it."""
    found = value.type
    if found is None:
        value.type = type
    elif found != type:
        raise OperandTypeMismatch(value, type, location)


# Tokens kept in an op's parts that say nothing the format needs: keywords of the custom forms
# (a literal `for` or `from` in a format is lexed as the grammar's named keyword terminal).
KEYWORD_TOKENS = frozenset({"ON", "FROM", "TO", "AWAIT", "WITH", "AS", "FOR"})


def is_keyword(part: Any) -> bool:
    """Whether `part` is a keyword token of a custom form (see KEYWORD_TOKENS)."""
    return getattr(part, "type", None) in KEYWORD_TOKENS and hasattr(part, "start_pos")


def drop_terminator(region: Region, name: str) -> Region:
    """`region` without its written implicit terminator `name` (when it has no operands)."""
    last = region.blocks[0].last_op
    if last is not None and last.name == name and not last.operands:
        last.erase()
    return region


def builder_namespace(definition: OpDefinition) -> dict[str, Any]:
    """The names the code of `CompiledFormat.builder_source` reads."""
    return {
        "is_keyword": is_keyword,
        "directives": CUSTOM_DIRECTIVES,
        "kinds": {name: f.kind for name, f in definition.attributes.items()},
        "FormatGroup": FormatGroup,
        "Value": Value,
        "Clause": Clause,
        "AttrDict": AttrDict,
        "AttributesClause": AttributesClause,
        "error": error,
        "check_type": check_operand_type,
        "fixed": definition.use_types,
        "results": {f.name: f.type for f in definition.result_list},
        "checks": dict(definition.checked),
        "drop_terminator": drop_terminator,
        "segments_of": definition.segments_of,
    }


def printer_namespace(definition: OpDefinition) -> dict[str, Any]:
    """The names the code of `CompiledFormat.printer_source` reads."""
    return {
        "type_text": type_text,
        "function_type_text": lambda inputs, results: FunctionType(inputs, results).text,
        "print_attr_dict": print_attr_dict,
        "field_value": definition.field_value,
        "directives": CUSTOM_DIRECTIVES,
        "kinds": {name: f.kind for name, f in definition.attributes.items()},
        "elided": frozenset(definition.attributes),
    }


_NAMESPACES = {"build_op": builder_namespace, "print_op": printer_namespace}


def generated_function(definition: OpDefinition, kind: str) -> Callable[..., Any]:
    """The op's `build_op` or `print_op` (`kind`), generated from its format.

    The compiled code is kept in the cache directory under the op's class, its format and the
    state of the files that generate it (see `_source_stamp`), so a later run neither imports
    the format compiler nor reads the format."""
    cls = definition.cls
    key = f"{kind}\0{cls.__module__}.{cls.__qualname__}\0{cls.assembly_format}\0"
    key += _source_stamp(definition)
    path = cache_file("op", key.encode())
    try:
        with open(path, "rb") as handle:
            cached, code = marshal.loads(handle.read())
        if cached != key:
            raise ValueError(path)  # Another key with the same checksum.
    except (OSError, EOFError, ValueError, TypeError):
        format = definition.format
        source = format.builder_source() if kind == "build_op" else format.printer_source()
        code = compile(source, f"<{definition.name} {kind}>", "exec")
        store(path, (key, code))
    namespace = _NAMESPACES[kind](definition)
    exec(code, namespace)
    function: Callable[..., Any] = namespace[kind]
    return function


_STAMPS: dict[str, str] = {}
# The format compiler's file, stamped whether or not this run has imported it.
_FORMAT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "format.py")


def _source_stamp(definition: OpDefinition) -> str:
    """The size and modification time of the files whose text decides the op's generated
    code: the op layer, the modules of its class and base classes (its fields), of its
    attribute kinds, and of the custom directives its format names. A change to any of them
    makes new code; looking at them is much cheaper than generating it."""
    cls = definition.cls
    modules = {__name__, *(c.__module__ for c in cls.__mro__)}
    modules.update(type(f.kind).__module__ for f in definition.attributes.values())
    for text in cls.assembly_format.split("custom<")[1:]:
        directive = CUSTOM_DIRECTIVES.get(text.partition(">")[0])
        modules.add(getattr(directive and directive.parse, "__module__", None) or "")
    paths = {_FORMAT_PATH}
    for name in modules:
        path = getattr(sys.modules.get(name), "__file__", None)
        if path is not None:
            paths.add(path)
    return "".join(_file_stamp(path) for path in sorted(paths))


def _file_stamp(path: str) -> str:
    """`path:size:mtime;` of the file at `path` (looked at once per run)."""
    found = _STAMPS.get(path)
    if found is None:
        try:
            status = os.stat(path)
            found = f"{path}:{status.st_size}:{status.st_mtime_ns};"
        except OSError:
            found = f"{path};"
        _STAMPS[path] = found
    return found
