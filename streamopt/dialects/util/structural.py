"""util structural ops (UtilOps.td's OpGroupStructuralOps): `util.func`, `util.call`,
`util.return` and `util.initializer`, with custom<FunctionSignature>'s header and
custom<TiedFunctionResultList>."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import UNKNOWN_LOCATION, Location, error
from streamopt.dialects import parse_rule, register_op, unmodelled_check
from streamopt.dialects.builtin import GenericOp
from streamopt.dialects.common import (
    ANY_ATTRIBUTE,
    TIED_OPERANDS,
    check_operand_type,
    op_error,
    resolve_tied_results,
    result_list_text,
    shaped_result_texts,
    split_clauses,
)
from streamopt.dialects.util.base import (
    FLAT_SYMBOL,
    check_set_twice,
    inherent_attribute,
    lookup_symbol,
)
from streamopt.ir.core import Access, Block, Operation, Region, RegionKind, Value
from streamopt.ir.opdef import (
    CustomDirective,
    DeclaredOp,
    attr_def,
    custom_directive,
    operand_def,
    result_def,
)
from streamopt.ir.types import (
    ArrayAttr,
    Attribute,
    FunctionType,
    IntegerAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    print_attr_dict,
    symbol_ref_from_text,
    symbol_spelling,
)
from streamopt.parser.lalr import Token
from streamopt.parser.parts import TOKEN_CLASSES, AttrDict, Tied
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
        check_set_twice("util.func", attributes, "tied_operands", location)


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


@register_op
class CallOp(DeclaredOp):
    """`%r:2 = util.call @f(%x, %n) : (T, index) -> (%x, T)`: a call with tied results.

    The callee may do anything with the operands, so each one escapes.
    """

    name = "util.call"
    callee: str = attr_def(FLAT_SYMBOL)
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
        callee = lookup_symbol(
            self, self.callee, FuncOp, f"undefined/incompatible callee: {self.callee}"
        )
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
        check_set_twice(cls.name, attributes, "function_type", location)
        return cls(attributes=attributes, regions=[rest[0]], location=location)

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]

    def print(self, p: Printer) -> None:
        p.write("util.initializer")
        p.attr_dict(self, ("function_type",), keyword=True)
        p.write(" ")
        p.print_region(self.regions[0])


@unmodelled_check("util.func")
def _check_generic_func(op: Operation) -> None:
    """FuncOp::verify on the generic form: each `tied_operands` index is -1 (untied) or one
    of the function type's inputs (the custom form cannot spell any other)."""
    if not isinstance(op, GenericOp):
        return
    function_type = inherent_attribute(op, "function_type")
    tied = inherent_attribute(op, "tied_operands")
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
