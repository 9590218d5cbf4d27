"""Builtin structure: the module op, and the three forms of ops streamopt does not model.

* `OpaqueOp`: an op in custom syntax streamopt does not know. Its text is kept as a template of
  literal pieces, operand references and regions, so it prints back exactly, follows renames of
  the values it uses, and still exposes its uses and results to analyses (which must treat it
  conservatively: it may read, write, capture or free anything it touches).
* `GenericOp`: an op in MLIR's generic form (`"dialect.op"(%a) {...} : (T) -> T`).
* `VerbatimOp`: an op whose whole text is kept (executables: kernel code never analysed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import UNKNOWN_LOCATION, Diagnostic, DiagnosticError, Location, error
from streamopt.dialects import OPS, check_unmodelled, register_op
from streamopt.dialects.registered import KEPT_TERMINATORS, REGISTERED_OPS, REQUIRED_PARENTS
from streamopt.ir.core import Block, DetachedValue, Operation, Region, RegionKind, Value
from streamopt.ir.debuginfo import LocationText, strip_locations
from streamopt.ir.types import (
    I1,
    I64,
    AliasAttr,
    Attribute,
    BoolAttr,
    FloatAttr,
    FloatType,
    FunctionType,
    IntegerAttr,
    Type,
    TypeAttr,
    print_attr_dict,
)
from streamopt.ir.verify import parent_problem
from streamopt.parser import token_values

if TYPE_CHECKING:
    from streamopt.printer import Printer


@register_op
class ModuleOp(Operation):
    """`module @name? attributes {...} { ... }`: the top-level container."""

    __slots__ = ("sym_name",)
    name = "builtin.module"
    inherent_attributes = frozenset({"sym_name", "sym_visibility"})
    is_isolated_from_above = True
    has_no_terminator = True
    region_kind = RegionKind.CALLABLE

    def __init__(
        self,
        body: Region | None = None,
        attributes: dict[str, Attribute] | None = None,
        sym_name: str | None = None,
        location: Location = UNKNOWN_LOCATION,
    ) -> None:
        region = body if body is not None else Region([Block()])
        super().__init__(attributes=attributes, regions=[region], location=location)
        self.sym_name = sym_name

    @classmethod
    def from_parse(cls, b: Any, parts: list[Any], location: Location) -> ModuleOp:
        sym_name: str | None = None
        attributes: dict[str, Attribute] = {}
        region: Region | None = None
        for part in parts:
            if isinstance(part, Region):
                region = part
            elif isinstance(part, dict):
                attributes = dict(part)
            elif getattr(part, "type", None) == "SYMBOL_REF":
                sym_name = str(part)
        return cls(region, attributes, sym_name, location)

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, ModuleOp)
        new.sym_name = self.sym_name

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]

    def verify(self) -> None:
        # MLIR's ModuleOp::verify: a module's own attributes belong to dialects.
        for name in self.attribute_map:
            if "." not in name and name not in ("sym_name", "sym_visibility"):
                raise error(
                    "'builtin.module' op can only contain attributes with dialect-prefixed "
                    f"names, found: '{name}'",
                    self.location,
                )
        # The SymbolTable trait: each name is defined once. Only definitions streamopt reads
        # for sure count (known ops and executables; an unmodelled op's first `@name` may be a
        # reference).
        from streamopt.ir.symbols import SymbolTable

        table = SymbolTable(self)
        for name, duplicate in table.duplicates:
            first = table.symbols[name]
            if _defines_for_sure(first) and _defines_for_sure(duplicate):
                raise DiagnosticError(
                    Diagnostic(
                        "error", f"redefinition of symbol named '{name}'", duplicate.location
                    ).attach_note("see existing symbol definition here", first.location)
                )

    def print(self, p: Printer) -> None:
        p.write("module")
        if self.sym_name is not None:
            p.write(" " + self.sym_name)
        if self.attributes:
            p.write(" attributes " + print_attr_dict(self.attributes))
        p.write(" ")
        p.print_region(self.regions[0])


def _defines_for_sure(op: Operation) -> bool:
    return op.is_known or isinstance(op, VerbatimOp)


# Pieces of an opaque op's template.
OPERAND = 0  # ("operand", index into operands)
REGION = 1  # region index
DEFINED = 2  # a DetachedValue the op's own syntax defines
RESULT_TYPES_UNKNOWN = None


def _verify_parent(op: Operation) -> None:
    """An op IREE's dialect requires to be nested in a certain op (an executable's export)
    is an error anywhere else, even kept as written."""
    parent = op.parent_op
    required = REQUIRED_PARENTS.get(op.name, ())
    problem = parent_problem(op.name, required, parent.name if parent is not None else None)
    if problem is not None:
        raise DiagnosticError(Diagnostic("error", problem, op.location))


class UnmodelledOp(Operation):
    """An op whose definition streamopt does not model (kept as written, or generic): named
    by its text, checked by the checks of ops kept as written (`unmodelled_check`)."""

    __slots__ = ("op_name",)
    op_name: str

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.op_name

    @property
    def is_known(self) -> bool:
        return False

    @property
    def is_terminator(self) -> bool:  # type: ignore[override]
        return self.op_name in KEPT_TERMINATORS

    @property
    def might_be_terminator(self) -> bool:
        # Any op of a dialect whose op list streamopt lacks, or the generic form of one it models.
        modelled = OPS.get(self.op_name)
        if modelled is not None:
            return modelled.is_terminator
        dialect, _, op = self.op_name.partition(".")
        return self.is_terminator or op not in REGISTERED_OPS.get(dialect, (op,))

    def verify(self) -> None:
        _verify_parent(self)
        check_unmodelled(self)


class OpaqueOp(UnmodelledOp):
    """An op in custom syntax that streamopt keeps as written."""

    __slots__ = ("defined_values", "template")

    def __init__(
        self,
        op_name: str,
        template: list[str | tuple[int, int] | tuple[int, DetachedValue]],
        operands: list[Value],
        num_results: int,
        regions: list[Region],
        defined_values: list[DetachedValue],
        location: Location = UNKNOWN_LOCATION,
    ) -> None:
        super().__init__(operands, [None] * num_results, None, regions, (), location)
        self.op_name = op_name
        self.template = template
        self.defined_values = defined_values

    def use_instead_of_defined(self, defined: DetachedValue, value: Value) -> None:
        """Make the name this op's syntax was taken to define as `defined` a use of `value`
        instead (an enclosing op defines the name)."""
        self.defined_values.remove(defined)
        operands = list(self._operands)
        for index, piece in enumerate(self.template):
            if isinstance(piece, tuple) and piece[0] == DEFINED and piece[1] is defined:
                self.template[index] = (OPERAND, len(operands))
                operands.append(value)
        self.set_operands(operands)

    def written_text(self) -> str:
        """The op as written, with `{}` for each region and `%_` for each value it names."""
        out: list[str] = []
        for piece in self.template:
            if isinstance(piece, str):
                out.append(piece)
            else:
                out.append("{}" if piece[0] == REGION else "%_")
        return "".join(out)

    def trailing_type_text(self) -> str | None:
        """The text after the op's last `:` outside brackets and strings (what an assembly
        format ending in `: type($result)` spells its result type with), or None."""
        parts = top_level_parts(self.written_text(), ":")
        if len(parts) == 1:
            return None
        # Without the op's location, which the kept text ends with when it has one.
        return top_level_parts(parts[-1], " loc(")[0]

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, OpaqueOp)
        new.op_name = self.op_name
        new.template = list(self.template)
        new.defined_values = list(self.defined_values)

    def print(self, p: Printer) -> None:
        write = p.write
        # A region opening on a continuation line of the op (`objects({ #target if(...) {`)
        # is indented from that line, as MLIR's printer nests it.
        line_indent = p.indent_width
        locations = p.print_debug_locations
        for piece in self.template:
            if isinstance(piece, str):
                if piece.__class__ is LocationText and not locations:
                    continue
                write(piece)
                newline = piece.rfind("\n")
                if newline >= 0:
                    rest = piece[newline + 1 :]
                    line_indent = len(rest) - len(rest.lstrip(" "))
            elif piece[0] == OPERAND:
                write(p.value_name(self._operands[piece[1]]))  # type: ignore[index]
            elif piece[0] == REGION:
                region = self.regions[piece[1]]  # type: ignore[index]
                p.print_region(region, opaque=True, indent=line_indent)
            else:
                write(p.value_name(piece[1]))  # type: ignore[arg-type]


class GenericOp(UnmodelledOp):
    """An op in MLIR's generic form, printed back in generic form."""

    __slots__ = ("problem", "properties")

    def __init__(
        self,
        op_name: str,
        operands: list[Value],
        result_types: list[Type],
        attributes: dict[str, Attribute],
        properties: dict[str, Attribute] | None,
        regions: list[Region],
        successors: list[Block],
        location: Location = UNKNOWN_LOCATION,
        problem: str | None = None,
    ) -> None:
        super().__init__(operands, result_types, attributes, regions, successors, location)
        self.op_name = op_name
        self.properties = properties
        # What the verifier says of the op: one of a class streamopt declares whose generic
        # form does not fit it (streamopt.ir.generic_form).
        self.problem = problem

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, GenericOp)
        new.op_name = self.op_name
        new.properties = dict(self.properties) if self.properties is not None else None
        new.problem = self.problem

    @property
    def spells_argument_names(self) -> bool:
        return False  # The generic form prints its regions' arguments, numbered as MLIR does.

    def verify(self) -> None:
        if self.problem is not None:
            raise error(f"'{self.op_name}' op {self.problem}", self.location)
        super().verify()

    def print(self, p: Printer) -> None:
        p.print_generic(self, self.properties)


class VerbatimOp(Operation):
    """An op kept as the exact text it was written as (executables)."""

    __slots__ = ("column", "op_name", "text")

    def __init__(
        self, op_name: str, text: str, column: int, location: Location = UNKNOWN_LOCATION
    ) -> None:
        super().__init__(location=location)
        self.op_name = op_name
        self.text = text
        # The column the op started at: lines after the first are re-indented relative to it.
        self.column = column

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.op_name

    @property
    def is_known(self) -> bool:
        return False

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, VerbatimOp)
        new.op_name, new.text, new.column = self.op_name, self.text, self.column

    @property
    def symbol(self) -> str | None:
        """The symbol the executable defines (`@name`), if it can be read off the header."""
        header = self.text.split("{", 1)[0].split()
        for word in header:
            if word.startswith("@"):
                return word[1:]
        return None

    def print(self, p: Printer) -> None:
        text = self.text if p.print_debug_locations else strip_locations(self.text)
        shift = p.indent_width - (self.column - 1)
        if shift == 0:
            p.write(text)
            return
        lines = text.split("\n")
        out = [lines[0]]
        for line in lines[1:]:
            if shift > 0:
                out.append(" " * shift + line if line else line)
            else:
                strip = min(-shift, len(line) - len(line.lstrip(" ")))
                out.append(line[strip:])
        p.write("\n".join(out))


def top_level_parts(text: str, separator: str) -> list[str]:
    """`text` split at each `separator` outside brackets and string literals (a `->` does
    not close a bracket), each part stripped."""
    parts: list[str] = []
    depth = 0
    start = 0
    index = 0
    while index < len(text):
        char = text[index]
        if char == '"':
            index += 1
            while index < len(text) and text[index] != '"':
                index += 2 if text[index] == "\\" else 1
        elif depth == 0 and text.startswith(separator, index):
            parts.append(text[start:index].strip())
            index += len(separator)
            start = index
            continue
        elif char in "<([{":
            depth += 1
        elif char in ")]}" or (char == ">" and text[index - 1 : index] != "-"):
            depth -= 1
        index += 1
    parts.append(text[start:].strip())
    return parts


def function_type_of(inputs: list[Type], results: list[Type]) -> FunctionType:
    return FunctionType(inputs, results)


# -- attribute types ------------------------------------------------------------------------

_OPENERS = {"<": ">", "(": ")", "[": "]", "{": "}"}


def _is_balanced(text: str) -> bool:
    depth = 0
    in_string = False
    for i, ch in enumerate(text):
        if in_string:
            if ch == '"' and text[i - 1] != "\\":
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in _OPENERS:
            depth += 1
        elif ch in ")]}" or (ch == ">" and text[i - 1] != "-"):
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def attribute_type(
    value: Attribute | None, aliases: Mapping[str, Attribute | Type] | None = None
) -> Type | None:
    """The type of a typed attribute (`16 : index`, `dense<0> : tensor<4xi32>`), else None.

    `aliases` resolves attribute aliases (`#device_target_0 = #hal.device.target<...> :
    !hal.device`). A bare integer is i64 and a bare float f64, as in MLIR.
    """
    if value is None:
        return None
    if isinstance(value, IntegerAttr):
        return value.type if value.type is not None else I64
    if isinstance(value, FloatAttr):
        return value.type if value.type is not None else FloatType("f64")
    if isinstance(value, BoolAttr):
        return I1
    if isinstance(value, AliasAttr):
        target = aliases.get(value.text) if aliases is not None else None
        return attribute_type(target, None) if isinstance(target, Attribute) else None
    if isinstance(value, TypeAttr):
        return None
    text = value.text
    if " : " not in text:
        return None
    head, _, tail = text.rpartition(" : ")
    # A colon inside the attribute's own brackets (`{ordinal = 0 : index}`) is not its type.
    if not (_is_balanced(head) and _is_balanced(tail)):
        return None
    return type_after_colon(tail.strip())


def type_after_colon(text: str) -> Type:
    """The type an attribute's `: T` spells: a type token's spelling, or a function type.

    The builder writes a function type's canonical text there (`(index) -> (index, i32)`),
    and the grammar's `function_type` holds only type tokens, so splitting at the top-level
    `->` and commas recovers it; a load of a function-typed global then compares equal to it.
    """
    if not text.startswith("("):
        return token_values.type_from_text(text)
    parts = top_level_parts(text, "->")
    if len(parts) != 2 or not parts[0].endswith(")"):
        return token_values.type_from_text(text)
    inputs, results = parts[0][1:-1], parts[1]
    if results.startswith("(") and results.endswith(")"):
        results = results[1:-1]
    return FunctionType(
        [token_values.type_from_text(t) for t in top_level_parts(inputs, ",") if t],
        [token_values.type_from_text(t) for t in top_level_parts(results, ",") if t],
    )
