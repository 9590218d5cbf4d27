"""The util dialect: functions, calls, globals and the small helpers around them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lark import Token

from streamopt.diagnostics import UNKNOWN_LOCATION, Location, error
from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.common import check_operand_type, split_clauses
from streamopt.ir.core import Access, Block, Operation, Region, RegionKind, Value
from streamopt.ir.types import Attribute, FunctionType, Type, print_attr_dict
from streamopt.parser.parts import TOKEN_CLASSES, AttrDict

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


@dataclass
class FuncHeader:
    """What `util.func` says before its body: name, visibility, signature."""

    visibility: str | None
    sym_name: str
    arg_types: list[Type]
    arg_attrs: list[AttrDict | None]
    result_types: list[Type]
    result_attrs: list[AttrDict | None]
    tied_results: list[int | None]
    attributes: dict[str, Attribute]
    entry_args: list[tuple[Token, Type, str | None]] | None = field(default=None)
    location: Location = UNKNOWN_LOCATION

    @classmethod
    def from_parts(cls, b: Builder, children: list[Any]) -> FuncHeader:
        visibility: str | None = None
        sym_name = ""
        args: list[tuple[Token | None, Type, AttrDict | None]] = []
        results: list[tuple[Type | None, Token | None, AttrDict | None]] = []
        attributes: dict[str, Attribute] = {}
        first: Token | None = None
        for child in children:
            if isinstance(child, TOKEN_CLASSES):
                if first is None:
                    first = child
                if child.type == "BARE_ID":
                    visibility = str(child)
                elif child.type == "SYMBOL_REF":
                    sym_name = str(child)
            elif isinstance(child, AttrDict):
                attributes = dict(child)
            elif isinstance(child, FuncArgs):
                args = child
            elif isinstance(child, FuncResults):
                results = child
        named = [a for a in args if a[0] is not None]
        if named and len(named) != len(args):
            raise error("expected all arguments to be named or none", b.location(first))  # type: ignore[arg-type]
        arg_names = [str(a[0]) for a in args if a[0] is not None]
        tied: list[int | None] = []
        result_types: list[Type] = []
        for type, token, _ in results:
            if token is not None:
                name = str(token)
                if name not in arg_names:
                    raise error(
                        f"tied result '{name}' does not name an argument", b.location(token)
                    )
                index = arg_names.index(name)
                tied.append(index)
                result_types.append(args[index][1])
            else:
                assert type is not None
                tied.append(None)
                result_types.append(type)
        header = cls(
            visibility=visibility,
            sym_name=sym_name[1:],
            arg_types=[a[1] for a in args],
            arg_attrs=[a[2] for a in args],
            result_types=result_types,
            result_attrs=[r[2] for r in results],
            tied_results=tied,
            attributes=attributes,
            location=b.location(first) if first is not None else UNKNOWN_LOCATION,
        )
        if named:
            header.entry_args = [(a[0], a[1], None) for a in args]  # type: ignore[misc]
        return header


@parse_rule("util_func_header")
def _util_func_header(b: Builder, children: list[Any]) -> FuncHeader:
    header = FuncHeader.from_parts(b, children)
    # Declare the arguments for the body region that follows.
    b.pending_entry_args = header.entry_args
    return header


class FuncArgs(list[tuple[Any, Type, "AttrDict | None"]]):
    """`(%a: T {attrs}, ...)` or `(T, ...)` of a function signature."""


class FuncResults(list[tuple["Type | None", Any, "AttrDict | None"]]):
    """`-> T` or `-> (T {attrs}, %arg0, ...)` of a function signature."""


@parse_rule("func_args")
def _func_args(b: Builder, children: list[Any]) -> FuncArgs:
    return FuncArgs(children)


@parse_rule("func_arg_named")
def _func_arg_named(b: Builder, children: list[Any]) -> tuple[Any, Type, AttrDict | None]:
    return (children[0], children[1], children[2] if len(children) > 2 else None)


@parse_rule("func_arg_anonymous")
def _func_arg_anonymous(b: Builder, children: list[Any]) -> tuple[None, Type, AttrDict | None]:
    return (None, children[0], children[1] if len(children) > 1 else None)


@parse_rule("func_result_list")
def _func_result_list(b: Builder, children: list[Any]) -> FuncResults:
    return FuncResults(children)


@parse_rule("func_single_result")
def _func_single_result(b: Builder, children: list[Any]) -> FuncResults:
    return FuncResults([(children[0], None, None)])


@parse_rule("func_result")
def _func_result(b: Builder, children: list[Any]) -> tuple[Type | None, Any, Any]:
    return (children[0], None, children[1] if len(children) > 1 else None)


@parse_rule("func_result_tied")
def _func_result_tied(b: Builder, children: list[Any]) -> tuple[Type | None, Any, Any]:
    return (None, children[0], None)


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
        header: FuncHeader = parts[0]
        body = parts[1] if len(parts) > 1 else None
        if body is None and header.entry_args is not None:
            raise error("expected a body for a function with named arguments", location)
        return cls(header, body, location)

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, FuncOp)
        new.header = FuncHeader(
            **{k: getattr(self.header, k) for k in self.header.__dataclass_fields__}
        )
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

    @property
    def arguments(self) -> list[Any]:
        return list(self.body.arguments) if self.regions else []

    def tied_result_argument(self, result_index: int) -> int | None:
        """The argument result `result_index` is tied to, if any."""
        return self.header.tied_results[result_index]

    def print(self, p: Printer) -> None:
        h = self.header
        p.write("util.func ")
        # IREE always spells the visibility out, `public` included.
        p.write((h.visibility or "public") + " ")
        p.write("@" + _symbol(h.sym_name))
        args: list[str] = []
        body_args = self.body.arguments if self.regions else None
        for i, type in enumerate(h.arg_types):
            text = f"{p.value_name(body_args[i])}: {type.text}" if body_args else type.text
            attrs = h.arg_attrs[i] if i < len(h.arg_attrs) else None
            if attrs:
                text += " " + print_attr_dict(attrs)
            args.append(text)
        p.write("(" + ", ".join(args) + ")")
        if h.result_types:
            results: list[str] = []
            for i, type in enumerate(h.result_types):
                tied = h.tied_results[i]
                if tied is not None and body_args:
                    results.append(p.value_name(body_args[tied]))
                    continue
                text = type.text
                attrs = h.result_attrs[i] if i < len(h.result_attrs) else None
                if attrs:
                    text += " " + print_attr_dict(attrs)
                results.append(text)
            simple = (
                len(results) == 1
                and h.tied_results[0] is None
                and not (h.result_attrs and h.result_attrs[0])
                and not isinstance(h.result_types[0], FunctionType)
            )
            p.write(" -> " + (results[0] if simple else "(" + ", ".join(results) + ")"))
        if self.attributes:
            p.write(" attributes " + print_attr_dict(self.attributes))
        if self.regions:
            p.write(" ")
            p.print_region(self.regions[0])

    def verify(self) -> None:
        if self.regions:
            args = self.body.arguments
            if [a.type for a in args] != list(self.header.arg_types):
                raise error(
                    "entry block arguments do not match the function signature", self.location
                )


def _symbol(name: str) -> str:
    from streamopt.ir.types import _symbol_spelling

    return _symbol_spelling(name)


@register_op
class ReturnOp(Operation):
    """`util.return %a, %b : T, T`."""

    __slots__ = ()
    name = "util.return"
    is_terminator = True

    def operand_access(self, index: int) -> Access:
        return Access.ESCAPE

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ReturnOp:
        clauses, rest = split_clauses(parts)
        values: list[Value] = []
        attributes: dict[str, Attribute] = {}
        if rest and isinstance(rest[0], list) and not isinstance(rest[0], AttrDict):
            values = rest[0]
            types: list[Type] = rest[1]
            if len(values) != len(types):
                raise error(f"{len(values)} operands present, but expected {len(types)}", location)
            for value, type in zip(values, types):
                check_operand_type(value, type, location)
            rest = rest[2:]
        if rest and isinstance(rest[0], AttrDict):
            attributes = dict(rest[0])
        return cls(values, (), attributes, location=location)

    def print(self, p: Printer) -> None:
        p.write("util.return")
        if self.operands:
            p.write(" " + p.values(self.operands) + " : ")
            p.write(", ".join(v.type.text if v.type else "?" for v in self.operands))
        p.attr_dict(self)

    def verify(self) -> None:
        func = self.parent_op
        if isinstance(func, FuncOp):
            expected = func.header.result_types
            actual = [v.type for v in self.operands]
            if len(expected) != len(actual):
                raise error(
                    f"has {len(actual)} operands, but enclosing function (@{func.sym_name}) "
                    f"returns {len(expected)}",
                    self.location,
                )
            for i, (want, got) in enumerate(zip(expected, actual)):
                if got is not None and want != got:
                    raise error(
                        f"type of return operand {i} ({got}) doesn't match function result "
                        f"type ({want}) in function @{func.sym_name}",
                        self.location,
                    )
