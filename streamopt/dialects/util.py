"""The util dialect: functions, calls, globals and the small helpers around them.

Syntax follows the assemblyFormat and custom printers of IREE's UtilOps.td/UtilOps.cpp
(custom<SymbolVisibility>, custom<TypeOrAttr>, custom<TiedFunctionResultList>). Symbol
references (`callee`, `global`) are kept as `SymbolRefAttr`s in the attribute dictionary under
MLIR's names, so a pass that renames a symbol finds every use by scanning attributes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from streamopt.diagnostics import UNKNOWN_LOCATION, Location, error
from streamopt.dialects import parse_rule, register_op, unmodelled_check
from streamopt.dialects.builtin import (
    GenericOp,
    ModuleOp,
    OpaqueOp,
    attribute_type,
    top_level_parts,
    type_after_colon,
)
from streamopt.dialects.common import (
    ANY_ATTRIBUTE,
    INDEX_ATTRIBUTE,
    STRING,
    SYMBOL_NAME,
    TIED_OPERANDS,
    TYPE,
    VISIBILITY,
    ValueKind,
    check_operand_type,
    op_error,
    resolve_tied_results,
    result_list_text,
    shaped_result_texts,
    split_clauses,
)
from streamopt.ir.core import (
    Access,
    Block,
    Operation,
    Region,
    RegionKind,
    Value,
    shared_attributes,
)
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
from streamopt.ir.symbols import SymbolTable
from streamopt.ir.types import (
    I32,
    I32_CONSTRAINT,
    INDEX,
    UNIT,
    UTIL_BUFFER,
    AliasAttr,
    ArrayAttr,
    Attribute,
    DictAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    ResourceType,
    ShapedType,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    TypeConstraint,
    UnitAttr,
    is_primitive,
    print_attr_dict,
    symbol_ref,
    symbol_ref_from_text,
    symbol_spelling,
    unescape_string,
)
from streamopt.parser import token_values
from streamopt.parser.lalr import Token
from streamopt.parser.parts import TOKEN_CLASSES, AttrDict, Clause, Tied, TypeList
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.ir.opdef import FormatReader
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


class FuncHeader:
    """What `util.func` says before its body: name, visibility, signature."""

    __slots__ = (
        "arg_attrs",
        "arg_types",
        "attributes",
        "location",
        "result_attrs",
        "result_types",
        "sym_name",
        "tied_results",
        "visibility",
    )

    def __init__(
        self,
        visibility: str | None,
        sym_name: str,
        arg_types: list[Type],
        arg_attrs: list[AttrDict | None],
        result_types: list[Type],
        result_attrs: list[AttrDict | None],
        tied_results: list[int | None],
        attributes: dict[str, Attribute],
        location: Location = UNKNOWN_LOCATION,
    ) -> None:
        self.visibility = visibility
        self.sym_name = sym_name
        self.arg_types = arg_types
        self.arg_attrs = arg_attrs
        self.result_types = result_types
        self.result_attrs = result_attrs
        self.tied_results = tied_results
        self.attributes = attributes
        self.location = location  # The op's, for the builder.

    def copy(self) -> FuncHeader:
        """A shallow copy: a new header holding the same lists and dict."""
        return FuncHeader(**{name: getattr(self, name) for name in self.__slots__})


class FuncArgs(list[tuple[Any, Type, "AttrDict | None"]]):
    """`(%a: T {attrs}, ...)` or `(T, ...)` of a function signature."""


@parse_rule("util_func_header")
def _util_func_header(b: Builder, children: list[Any]) -> FuncHeader:
    """`util.func private @f(%a: T) -> (%a, U) attributes {...}`, whose named arguments the
    body region that follows declares."""
    first = children[0]  # The visibility, or the symbol.
    visibility = str(first) if first.type == "BARE_ID" else None
    sym_name = str(children[1] if visibility is not None else first)
    args = next((c for c in children if isinstance(c, FuncArgs)), FuncArgs())
    results = [c for c in children if isinstance(c, tuple)]  # See _func_result.
    attributes = children[-1] if isinstance(children[-1], AttrDict) else AttrDict()
    # The op is located at its name, which the rule does not hand over.
    start = b.text.rfind("util.func", 0, first.start_pos)
    location = b.source.location_at(start) if start >= 0 else b.location(first)
    if attributes:
        _check_function_attr_dict(b, attributes, children[-2], location)
    names = [str(a[0]) for a in args if a[0] is not None]
    if names and len(names) != len(args):
        raise error("expected all arguments to be named or none", b.location(first))
    tied: list[int | None] = []
    result_types: list[Type] = []
    for type, token, _ in results:
        index = None
        if token is not None:
            if str(token) not in names:
                raise error(f"tied result '{token}' does not name an argument", b.location(token))
            index = names.index(str(token))
            type = type if type is not None else args[index][1]
        tied.append(index)
        result_types.append(type)
    # A declaration names its arguments only for tied results: FuncOp.from_parse drops them.
    b.pending_entry_args = [(a[0], a[1], None) for a in args] if names else None
    return FuncHeader(
        visibility,
        symbol_ref_from_text(sym_name).root,
        [a[1] for a in args],
        [a[2] for a in args],
        result_types,
        [r[2] for r in results],
        tied,
        dict(attributes),
        location,
    )


def _check_function_attr_dict(
    b: Builder, attributes: AttrDict, keyword: Token, location: Location
) -> None:
    """util.func's parser is hand-written (MLIR's function op parser): after `attributes`
    (`keyword`), the names its syntax gives are refused as inferred, at the keyword, and
    `tied_operands`, which it always sets, as given twice, at the op's name (`location`)."""
    for name in ("sym_visibility", "sym_name", "function_type"):
        if name in attributes:
            raise error(
                f"custom op 'util.func' '{name}' is an inferred attribute and should not be "
                "specified in the explicit attribute dictionary",
                b.location(keyword),
            )
    if "tied_operands" in attributes:
        _check_set_twice("util.func", attributes, "tied_operands", location)


def _check_set_twice(
    op_name: str, attributes: Mapping[str, Attribute], name: str, location: Location
) -> None:
    """An attribute a hand-written parser sets from the op's syntax (`name`), also in its
    attribute dictionary: MLIR's op parser refuses the duplicate once the op is read."""
    if name in attributes:
        raise error(
            f"custom op '{op_name}' attribute '{name}' occurs more than once in the attribute list",
            location,
        )


@parse_rule("func_args")
def _func_args(b: Builder, children: list[Any]) -> FuncArgs:
    return FuncArgs(children)


@parse_rule("func_arg")
def _func_arg(b: Builder, children: list[Any]) -> tuple[Any, Type, AttrDict | None]:
    """`%a: T {attrs}` or `T {attrs}`: (the name's token or None, type, attributes or None)."""
    name = children[0] if isinstance(children[0], TOKEN_CLASSES) else None
    rest = children[1:] if name is not None else children
    return (name, rest[0], rest[1] if len(rest) > 1 else None)


@parse_rule("func_result")
def _func_result(b: Builder, children: list[Any]) -> tuple[Type | None, Any, Any]:
    """`T {attrs}` or `%a as T {attrs}`: (type, the tied argument's token, attributes), each
    maybe None."""
    tied = children[0] if isinstance(children[0], TOKEN_CLASSES) else None
    type = next((c for c in children if isinstance(c, Type)), None)
    return (type, tied, next((c for c in children if isinstance(c, AttrDict)), None))


@register_op
class FuncOp(Operation):
    """`util.func`: a function with optional tied results. Declarations have no body."""

    __slots__ = ("header",)
    name = "util.func"
    is_isolated_from_above = True
    region_kind = RegionKind.CALLABLE

    def __init__(self, header: FuncHeader, body: Region | None, location: Location) -> None:
        super().__init__(regions=[body] if body is not None else [], location=location)
        self.header = header
        self.attributes = header.attributes

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> FuncOp:
        if len(parts) == 1:
            b.pending_entry_args = None  # A declaration: nothing to define.
        return cls(parts[0], parts[1] if len(parts) > 1 else None, location)

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, FuncOp)
        new.header = self.header.copy()
        new.header.attributes = new.attributes

    @property
    def sym_name(self) -> str:
        return self.header.sym_name

    @property
    def is_public(self) -> bool:
        return self.header.visibility in (None, "public")

    @property
    def is_declaration(self) -> bool:
        return not self.regions

    @property
    def function_type(self) -> FunctionType:
        return FunctionType(self.header.arg_types, self.header.result_types)

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]

    def print(self, p: Printer) -> None:
        h = self.header
        # IREE always spells the visibility out, `public` included.
        p.write(f"util.func {h.visibility or 'public'} @{symbol_spelling(h.sym_name)}(")
        # IREE names declaration arguments `%argN` too (printShapedFunctionSignature).
        names = [p.value_name(a) for a in self.body.arguments] if self.regions else []
        names += [f"%arg{i}" for i in range(len(names), len(h.arg_types))]
        arg_attrs = [*h.arg_attrs, *[None] * len(h.arg_types)]
        args = [_with_attrs(f"{n}: {t.text}", a) for n, t, a in zip(names, h.arg_types, arg_attrs)]
        p.write(", ".join(args) + ")")
        if h.result_types:
            result_attrs = [*h.result_attrs, *[None] * len(h.result_types)]
            results: list[str] = []
            for type, tied, attrs in zip(h.result_types, h.tied_results, result_attrs):
                if tied is None:
                    text = type.text
                else:
                    text = names[tied] + ("" if h.arg_types[tied] == type else " as " + type.text)
                results.append(_with_attrs(text, attrs))
            simple = not result_attrs[0] and not isinstance(h.result_types[0], FunctionType)
            if len(results) == 1 and simple:
                p.write(" -> " + results[0])
            else:
                p.write(" -> (" + ", ".join(results) + ")")
        p.attr_dict(self, keyword=True)
        if self.regions:
            p.write(" ")
            p.print_region(self.regions[0])

    def verify(self) -> None:
        if not self.regions and self.is_public:
            raise op_error(self, "symbol declaration cannot have public visibility")
        # MLIR's function op interface: an argument's or a result's attribute names its dialect.
        for kind, attributes in (
            ("arguments", self.header.arg_attrs),
            ("results", self.header.result_attrs),
        ):
            if any("." not in name for entries in attributes if entries for name in entries):
                raise op_error(self, f"{kind} may only have dialect attributes")
        if self.regions and self.body.is_empty():
            raise error("custom op 'util.func' expected non-empty function body", self.location)
        if self.regions and [a.type for a in self.body.arguments] != list(self.header.arg_types):
            raise error("entry block arguments do not match the function signature", self.location)


def _with_attrs(text: str, attributes: Mapping[str, Attribute] | None) -> str:
    """`text`, then the attribute dictionary when there is one."""
    return f"{text} {print_attr_dict(attributes)}" if attributes else text


@register_op
class ReturnOp(DeclaredOp):
    """`util.return %a, %b : T, T`: what the enclosing function returns."""

    name = "util.return"
    is_terminator = True
    parent_names = ("util.initializer", "util.func", "util.hoistable_conversion")
    # IREE's `$operands` (a name Operation has).
    values = operand_def(variadic=True, access=Access.ESCAPE)
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def verify(self) -> None:
        # IREE's wording; the enclosing function or initializer says what may be returned.
        func = self.parent_op
        if not isinstance(func, (FuncOp, InitializerOp)):
            return
        expected = func.header.result_types if isinstance(func, FuncOp) else []
        actual = [v.type for v in self.operands]
        if len(expected) != len(actual):
            raise op_error(
                self,
                f"has {len(actual)} operands, but enclosing function-like op returns "
                f"{len(expected)}",
            )
        for i, (want, got) in enumerate(zip(expected, actual)):
            if got is not None and want != got:
                raise op_error(
                    self,
                    f"type of return operand {i} ('{got}') doesn't match function result "
                    f"type ('{want}')",
                )


def sanitize_identifier(name: str) -> str:
    """`name` as MLIR's printer turns it into an SSA name: `a b` -> `a_b`, `+b` -> `_2Bb`.

    Letters, digits and `$._-` are kept, spaces become `_`, anything else its hex code; a name
    that does not start with a valid character gets a `_` prefix.
    """

    def valid(ch: str) -> bool:
        return (ch.isascii() and ch.isalnum()) or ch in "$._-"

    if name and all(valid(ch) for ch in name) and not name[0].isdigit():
        return name
    out = ["_"] if not name or name[0].isdigit() or not (valid(name[0]) or name[0] == " ") else []
    for ch in name:
        if valid(ch) or ch == " ":
            out.append("_" if ch == " " else ch)
        else:
            out.extend(f"{byte:X}" for byte in ch.encode("utf-8", "surrogateescape"))
    return "".join(out)


SymbolOpT = TypeVar("SymbolOpT", bound=Operation)


def _lookup(
    op: Operation, name: str, cls: type[SymbolOpT], missing: str | None = None
) -> SymbolOpT | None:
    """The callee or global (`cls`) named `name` in the module holding `op`, if there are
    both; None also when an op streamopt does not model defines it.

    Raises IREE's diagnostic (`missing`, or the callee's or the global's) when the module
    defines no such symbol, or as another known op.
    """
    table = SymbolTable.nearest(op)
    if not isinstance(table.table_op, ModuleOp):
        return None
    found = table.lookup(name)
    if found is None or (found.is_known and not isinstance(found, cls)):
        if missing is not None:
            raise op_error(op, missing)
        if cls is FuncOp:
            raise op_error(op, f"undefined/incompatible callee: {name}")
        raise op_error(op, f"undefined global: @{symbol_spelling(name)}")
    return found if isinstance(found, cls) else None


# -- util.call ------------------------------------------------------------------------------


@parse_rule("util_call_result_tied_as")
def _util_call_result_tied_as(b: Builder, children: list[Any]) -> Tied:
    return Tied(children[0], children[-1], [])


@parse_rule("util_operand_types")
def _util_operand_types(b: Builder, children: list[Any]) -> tuple[Type, ...]:
    # A tuple: a list after `$operands` would read as the operands when there are none.
    return tuple(children[0]) if children else ()


def _parse_operand_types(
    reader: FormatReader, part: tuple[Type, ...], args: Sequence[tuple[str, str]]
) -> None:
    operands = reader.operands[args[0][1]]
    if len(operands) != len(part):
        raise error(f"expected {len(operands)} operand types but had {len(part)}", reader.location)
    for value, type in zip(operands, part):
        check_operand_type(value, type, reader.location)


def _print_operand_types(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    values = op.definition.field_value(op, args[0][1])
    return "(" + ", ".join(type_text(v.type) for v in values) + ")"


# `custom<OperandTypeList>(type($operands))`: `(T, index)`.
custom_directive(
    "OperandTypeList",
    CustomDirective("util_operand_types", _parse_operand_types, _print_operand_types),
)


def _parse_tied_results(reader: FormatReader, part: Any, args: Sequence[tuple[str, str]]) -> None:
    # A parser.lalr.Tree: types and `Tied` results (`%x`: the builder's tied_result).
    operands, _, results, tied = (name for _, name in args)
    resolve_tied_results(reader, part.children, operands, (results, tied))


def _print_tied_results(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    assert isinstance(op, CallOp)
    types = [r.type for r in op.results]
    ties = op.tied_operands or [None] * len(types)
    return result_list_text(shaped_result_texts(p, op.operands, types, None, ties))


# `custom<TiedFunctionResultList>(ref($operands), ref(type($operands)), type($results),
# $tied_operands)`: `T`, `(%x, %y as T, U)`; a tied result is the operand's storage.
custom_directive(
    "TiedFunctionResultList",
    CustomDirective("util_call_results", _parse_tied_results, _print_tied_results),
)


# A flat symbol reference (`@f`); the accessor gives the name, without `@`.
_FLAT_SYMBOL = ValueKind(
    lambda name: SymbolRefAttr([name]),
    lambda attribute: attribute.root,
    "SYMBOL_REF",
    lambda part: symbol_ref_from_text(str(part)),
)


@register_op
class CallOp(DeclaredOp):
    """`%r:2 = util.call @f(%x, %n) : (T, index) -> (%x, T)`: a call with tied results.

    The callee may do anything with the operands, so each one escapes.
    """

    name = "util.call"
    callee: str = attr_def(_FLAT_SYMBOL)
    operands_ = operand_def(variadic=True, access=Access.ESCAPE)
    tied_operands: tuple[int | None, ...] | None = attr_def(TIED_OPERANDS)
    arg_attrs = attr_def(ANY_ATTRIBUTE)
    res_attrs = attr_def(ANY_ATTRIBUTE)
    results_ = result_def(variadic=True, tied_to="operands")
    assembly_format = (
        "$callee `(` $operands `)` attr-dict `:` custom<OperandTypeList>(type($operands)) `->` "
        "custom<TiedFunctionResultList>(ref($operands), ref(type($operands)), type($results), "
        "$tied_operands)"
    )

    @classmethod
    def create(
        cls,
        callee: FuncOp,
        operands: Sequence[Value],
        location: Location = UNKNOWN_LOCATION,
    ) -> CallOp:
        """A call of `callee` with its result types and ties."""
        attributes = {
            "callee": SymbolRefAttr([callee.sym_name]),
            "tied_operands": TIED_OPERANDS.make(callee.header.tied_results),
        }
        return cls(operands, callee.header.result_types, attributes, location=location)

    def verify(self) -> None:
        ties = self.tied_operands or [None] * len(self.results)  # None: no result is tied.
        if len(ties) != len(self.results):
            raise op_error(self, "results/tied operand indices mismatch")
        for tied in ties:
            if tied is not None and not 0 <= tied < len(self.operands):
                raise op_error(self, f"tied operand index {tied} out of range")
        callee = _lookup(self, self.callee, FuncOp)
        if callee is None:
            return  # Not in a module, or defined by an op streamopt does not model.
        expected = FunctionType([v.type for v in self.operands], [r.type for r in self.results])  # type: ignore[misc]
        if expected != callee.function_type:
            raise op_error(
                self,
                f"function type mismatch; expected '{expected}' but callee is "
                f"'{callee.function_type}'",
            )
        mine, theirs = _ties_text(ties), _ties_text(callee.header.tied_results)
        if mine != theirs:
            raise op_error(
                self, f"function tied operands mismatch; have {mine} but callee is {theirs}"
            )


def _ties_text(ties: Sequence[int | None]) -> str:
    """IREE's spelling of a call's or function's tied operands: `none` when none is tied."""
    if all(t is None for t in ties):
        return "none"
    return "[" + ", ".join(str(t if t is not None else -1) for t in ties) + "]"


# -- globals --------------------------------------------------------------------------------


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
    return text if initial is None else f"{text} = {initial.text}".lstrip()


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


@register_op
class GlobalLoadOp(DeclaredOp):
    """`%g = util.global.load immutable? @g : T`. The result is named after the global."""

    name = "util.global.load"
    global_: str = attr_def(_FLAT_SYMBOL)
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
        global_op = _lookup(self, self.global_, GlobalOp)
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
    global_: str = attr_def(_FLAT_SYMBOL)
    assembly_format = "$value `,` $global attr-dict `:` type($value)"

    @classmethod
    def create(cls, value: Value, global_op: GlobalOp) -> GlobalStoreOp:
        """A store of `value` into `global_op`."""
        return cls([value], (), {"global": SymbolRefAttr([global_op.sym_name])})

    def verify(self) -> None:
        global_op = _lookup(self, self.global_, GlobalOp)
        if global_op is not None and global_op.global_type != self.value.type:
            raise op_error(
                self,
                f'global type mismatch; global "{global_op.sym_name}" is '
                f"'{global_op.global_type}' but store is '{self.value.type}'",
            )


class EffectsNotModelledOp(DeclaredOp):
    """A util op whose syntax and verifier are declared but not its effects: the analyses and
    passes treat it as an op kept as written (`is_known` is False, and it is never pure), which
    may keep, read or write whatever it is given (a list holds its values, a pointer names a
    global's storage)."""

    @property
    def is_known(self) -> bool:
        return False


_POINTER = TypeConstraint("A pointer-like reference.", lambda t: t.text.startswith("!util.ptr<"))


def _pointee(pointer: Type) -> Type | None:
    """`T` of `!util.ptr<T>`."""
    found = _type_parameter(pointer.text, "!util.ptr")
    return token_values.type_from_text(found) if found is not None else None


@register_op
class GlobalAddressOp(EffectsNotModelledOp):
    """`%ptr_g = util.global.address immutable? @g : !util.ptr<T>`: a global's address."""

    name = "util.global.address"
    global_: str = attr_def(_FLAT_SYMBOL)
    is_immutable = attr_def(UNIT_KIND)
    result = result_def(constraint=_POINTER)
    assembly_format = "(`immutable` $is_immutable^)? $global attr-dict `:` qualified(type($result))"

    def asm_result_name(self, index: int) -> str | None:
        return sanitize_identifier("ptr_" + self.global_)

    def verify(self) -> None:
        found = _lookup(
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


# -- lists and strings ----------------------------------------------------------------------


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
        element = _type_parameter(self.result.type.text, "!util.list")
        for index, value in enumerate(self.values):
            if element is not None and not list_can_implicitly_cast(value.type, element):
                # IREE's words, without the op's name.
                message = f"list[{index}] type '{value.type}' cannot be be cast to list type"
                raise error(f"{message} '{element}'", self.location)


_BUFFER = TypeConstraint("A reference counted byte buffer.", lambda t: t == UTIL_BUFFER)
_FORMAT_ARGUMENT = TypeConstraint(
    "index or signless integer or A reference counted byte buffer.",
    lambda t: t in (INDEX, UTIL_BUFFER) or (isinstance(t, IntegerType) and not t.signedness),
)


@register_op
class StringFormatOp(EffectsNotModelledOp):
    """`%blk_N = util.string.format "blk.{}"(%i) : (index) -> !util.buffer`: a formatted
    string."""

    name = "util.string.format"
    format = attr_def(STRING)
    args = operand_def(_FORMAT_ARGUMENT, variadic=True)
    result = result_def(constraint=_BUFFER)
    assembly_format = "$format `(` $args `)` attr-dict `:` functional-type($args, $result)"

    def asm_result_name(self, index: int) -> str | None:
        return _format_name(self.format.value)

    def verify(self) -> None:
        problem = string_format_problem(self.format.value, len(self.args))
        if problem is not None:
            raise op_error(self, problem)


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


# -- small helpers --------------------------------------------------------------------------


@register_op
class OptimizationBarrierOp(DeclaredOp):
    """`%r:2 = util.optimization_barrier %a, %b : T, U`: an identity the compiler may not see
    through. Result i is operand i (tied), and the op has effects so it is never removed."""

    name = "util.optimization_barrier"
    # IREE's `$operands` and `$results` (names Operation has).
    values = operand_def(variadic=True)
    outputs = result_def(variadic=True, same_as="values")
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def tied_operand_index(self, result_index: int) -> int | None:
        return result_index

    def verify(self) -> None:
        _check_optimization_barrier(self)


@unmodelled_check("util.optimization_barrier")
def _check_optimization_barrier(op: Operation) -> None:
    """AllTypesMatch<["operands", "results"]>: as many results as operands, of the same
    types (also on the generic form, which may spell any other). Operands of unknown type
    (results of ops kept as written) are not compared."""
    results = op.results
    if len(op.operands) != len(results) or any(
        v.type is not None and v.type != r.type for v, r in zip(op.operands, results)
    ):
        raise op_error(op, "failed to verify that all of {operands, results} have same type")


@register_op
class NullOp(DeclaredOp):
    """`%0 = util.null : !hal.fence`: a null reference of a reference type."""

    name = "util.null"
    is_pure = True
    result = result_def()
    assembly_format = "attr-dict `:` type($result)"


@register_op
class InitializerOp(Operation):
    """`util.initializer { ... }`: code run once at module load, in module order."""

    __slots__ = ()
    name = "util.initializer"
    is_isolated_from_above = True
    region_kind = RegionKind.CALLABLE

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        attributes = dict(clauses.get("attributes", {}))
        _check_set_twice(cls.name, attributes, "function_type", location)
        return cls(attributes=attributes, regions=[rest[0]], location=location)

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]

    def print(self, p: Printer) -> None:
        p.write("util.initializer")
        p.attr_dict(self, ("function_type",), keyword=True)
        p.write(" ")
        p.print_region(self.regions[0])


@register_op
class UnfoldableConstantOp(Operation):
    """`%0 = util.unfoldable_constant 4 : index`: a constant the compiler must not fold.

    A symbol value prints its type after it (`util.unfoldable_constant @f : T`).
    """

    __slots__ = ()
    name = "util.unfoldable_constant"

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        attributes: dict[str, Attribute] = dict(parts[0]) if len(parts) > 1 else {}
        _check_set_twice(cls.name, attributes, "value", location)
        value: Attribute = parts[-1]
        text = value.text
        result_type: Type | None
        if text.startswith("@") and " : " in text:
            symbol, _, type_text = text.rpartition(" : ")
            value = symbol_ref_from_text(symbol)
            result_type = type_after_colon(type_text)
        else:
            result_type = attribute_type(value, b.alias_values)
            if result_type is None:
                raise error("expected a typed constant value", location)
        attributes = {"value": value, **attributes}
        return cls((), [result_type], attributes, location=location)

    @property
    def value(self) -> Attribute:
        return self.attribute_map["value"]

    def print(self, p: Printer) -> None:
        # IREE's printer writes a space before the attribute dictionary's own leading space.
        p.write("util.unfoldable_constant ")
        p.attr_dict(self, ("value",))
        if len(self.attributes) > 1:
            p.write(" ")
        p.write(self.value.text)
        if isinstance(self.value, SymbolRefAttr):
            p.write(" : " + type_text(self.result.type))


# -- util.assume.int ------------------------------------------------------------------------

# The fields of `#util.int.assumption`, in the order IREE prints them.
ASSUMPTION_FIELDS = ("umin", "umax", "udiv")


@parse_rule("util_assumption_entry")
def _util_assumption_entry(b: Builder, children: list[Any]) -> tuple[str, int] | None:
    key = str(children[0])
    if key not in ASSUMPTION_FIELDS:
        raise b.error(f"unknown int assumption '{key}'", children[0])
    if len(children) == 1:
        return None  # `umin = `: no value.
    return (key, token_values.integer_literal(str(children[1])))


@parse_rule("util_assumption")
def _util_assumption(b: Builder, children: list[Any]) -> dict[str, int]:
    return dict(child for child in children if child is not None)


@parse_rule("util_assume_operand")
def _util_assume_operand(b: Builder, children: list[Any]) -> tuple[Value, list[dict[str, int]]]:
    """`%a<...>` or `%a[<...>, <...>]`: the value and its rows."""
    return (children[0], [c for c in children[1:] if isinstance(c, dict)])


@register_op
class AssumeIntOp(Operation):
    """`%0 = util.assume.int %a<umin = 0, umax = 9>, %b[<udiv = 4>, <udiv = 8>] : index, i32`.

    Result i is operand i with facts known about its value: one or more rows of
    (umin, umax, udiv) per operand. `assumptions[i]` lists the rows of operand i.
    """

    __slots__ = ("assumptions",)
    name = "util.assume.int"
    is_pure = True

    def __init__(
        self,
        operands: Sequence[Value],
        assumptions: Sequence[Sequence[dict[str, int]]],
        attributes: dict[str, Attribute] | None = None,
        location: Location = UNKNOWN_LOCATION,
    ) -> None:
        super().__init__(operands, [v.type for v in operands], attributes, location=location)
        self.assumptions: list[list[dict[str, int]]] = [
            [dict(row) for row in rows] for rows in assumptions
        ]

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, AssumeIntOp)
        new.assumptions = [[dict(row) for row in rows] for rows in self.assumptions]

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AssumeIntOp:
        operands = [p for p in parts if isinstance(p, tuple)]
        types = next(p for p in parts if isinstance(p, TypeList))
        attributes = next((dict(p) for p in parts if isinstance(p, AttrDict)), {})
        _check_set_twice(cls.name, attributes, "assumptions", location)
        if len(types) != len(operands):
            raise error(f"{len(operands)} operands present, but expected {len(types)}", location)
        for (value, _), type in zip(operands, types):
            check_operand_type(value, type, location)
        return cls([o[0] for o in operands], [o[1] for o in operands], attributes, location)

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def print(self, p: Printer) -> None:
        pieces = [
            p.v(v) + _assumptions_text(rows) for v, rows in zip(self.operands, self.assumptions)
        ]
        # Several operands go one to a line, as IREE prints them.
        multi_line = len(self.operands) > 1
        indent = "\n" + " " * (p.indent_width + 4) if multi_line else ""
        p.write("util.assume.int " + indent + f", {indent}".join(pieces))
        p.write("\n" + " " * (p.indent_width + 2) if multi_line else " ")
        p.write(": " + ", ".join(type_text(v.type) for v in self.operands))
        p.attr_dict(self)

    def verify(self) -> None:
        if len(self.assumptions) != len(self.operands):
            raise op_error(
                self, f"expected {len(self.operands)} assumption rows to match number of operands"
            )
        rank: int | None = None
        for index, rows in enumerate(self.assumptions):
            if len(rows) == 1:
                continue  # A single row applies to every row of the others.
            if rank is not None and len(rows) != rank:
                raise op_error(
                    self,
                    f"expected operand #{index} to have {rank} assumptions but it has {len(rows)}",
                )
            rank = len(rows)


def _assumptions_text(rows: list[dict[str, int]]) -> str:
    """`<umin = 0, udiv = 4>` for one row, `[<udiv = 4>, <udiv = 8>]` for several."""
    texts = [", ".join(f"{k} = {row[k]}" for k in ASSUMPTION_FIELDS if k in row) for row in rows]
    return f"<{texts[0]}>" if len(texts) == 1 else "[" + ", ".join(f"<{t}>" for t in texts) + "]"


@register_op
class StatusCheckOkOp(DeclaredOp):
    """`util.status.check_ok %status, "message"`: fail the whole invocation unless the status
    (an i32) is ok. What `stream.timepoint.await` lowers to after its `hal.fence.await`."""

    name = "util.status.check_ok"
    status = operand_def(I32_CONSTRAINT, type=I32)
    message = attr_def(STRING)
    assembly_format = "$status (`,` $message^)? attr-dict"


# -- host byte buffers ------------------------------------------------------------------------


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
        alignment = self.alignment.value if self.alignment is not None else 0
        if alignment > 0 and alignment & (alignment - 1):
            raise op_error(self, "invalid alignment; must be a power of two")


# -- ops kept as written, checked as IREE's verifiers check them ---------------------------


def _type_parameter(text: str, type_name: str) -> str | None:
    """`T` of type `text` when it is `type_name<T>` (`!util.list<?>`, `!util.ptr<i32>`), else
    None."""
    if text.startswith(type_name + "<") and text.endswith(">"):
        return text[len(type_name) + 1 : -1].strip()
    return None


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


def _inherent_attribute(op: GenericOp, name: str) -> Attribute | None:
    """Inherent attribute `name` of a generic-form op: a property, or (as MLIR also reads
    it) an entry of the attribute dictionary."""
    found = op.properties.get(name) if op.properties is not None else None
    return found if found is not None else op.attribute_map.get(name)


@unmodelled_check("util.assume.int")
def _check_generic_assume_int(op: Operation) -> None:
    """AssumeIntOp's constraints on the generic form: `assumptions` is a list, per operand, of
    lists of `#util.int.assumption`s (an alias is taken as one), with a row per operand."""
    if not isinstance(op, GenericOp):
        return
    assumptions = _inherent_attribute(op, "assumptions")
    if assumptions is None or isinstance(assumptions, AliasAttr):
        return
    if not isinstance(assumptions, ArrayAttr) or not all(
        isinstance(row, ArrayAttr)
        and all(
            isinstance(item, AliasAttr) or item.text.startswith("#util.int.assumption<")
            for item in row.elements
        )
        for row in assumptions.elements
    ):
        raise op_error(
            op,
            "attribute 'assumptions' failed to satisfy constraint: list of int attribute "
            "assumptions for multiple values",
        )
    if len(assumptions.elements) != len(op.operands):
        raise op_error(
            op, f"expected {len(op.operands)} assumption rows to match number of operands"
        )


@unmodelled_check("util.func")
def _check_generic_func(op: Operation) -> None:
    """FuncOp::verify on the generic form: each `tied_operands` index is -1 (untied) or one
    of the function type's inputs (the custom form cannot spell any other)."""
    if not isinstance(op, GenericOp):
        return
    function_type = _inherent_attribute(op, "function_type")
    tied = _inherent_attribute(op, "tied_operands")
    if not isinstance(tied, ArrayAttr) or not isinstance(function_type, TypeAttr):
        return
    if not isinstance(function_type.type, FunctionType):
        return
    inputs = len(function_type.type.inputs)
    for result_index, index in enumerate(tied.elements):
        if isinstance(index, IntegerAttr) and not -1 <= index.value < inputs:
            raise op_error(
                op, f"result #{result_index} tied to invalid operand index {index.value}"
            )


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


@unmodelled_check("util.buffer.alloc")
def _check_inherent_in_attr_dict(op: Operation) -> None:
    """An inherent attribute in the op's attribute dictionary (`util.buffer.alloc
    uninitialized {alignment = 16 : index}`, after the keyword its UtilOps.td format starts
    with) is an error in iree-opt, which reads inherent attributes only where the op's syntax
    spells them (strict properties)."""
    if not isinstance(op, OpaqueOp):
        return
    text = op.written_text()[len(op.name) :]
    found = re.match(r"\s*uninitialized\s*\{", text)
    if found is None:
        return
    body = top_level_parts(text[found.end() :], "}")[0]
    for entry in top_level_parts(body, ","):
        key = top_level_parts(entry, "=")[0]
        name = unescape_string(key) if key.startswith('"') and len(key) > 1 else key
        if name == "alignment":
            raise error(
                f"custom op '{op.name}' inherent attribute '{name}' cannot be parsed from "
                "attr-dict when strict properties in assembly format is enabled",
                op.location,
            )
