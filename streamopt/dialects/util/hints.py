"""util compiler hints (`util.optimization_barrier`, `util.unfoldable_constant`,
`util.assume.int`), `util.null` and `util.status.check_ok`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import UNKNOWN_LOCATION, Location, error
from streamopt.dialects import parse_rule, register_op, unmodelled_check
from streamopt.dialects.builtin import GenericOp, attribute_type, type_after_colon
from streamopt.dialects.common import STRING, check_operand_type, op_error
from streamopt.dialects.util.base import check_set_twice, inherent_attribute
from streamopt.ir.core import Access, Operation, Value
from streamopt.ir.opdef import DeclaredOp, attr_def, operand_def, result_def
from streamopt.ir.types import (
    I32,
    I32_CONSTRAINT,
    AliasAttr,
    ArrayAttr,
    Attribute,
    OpaqueAttr,
    SymbolRefAttr,
    Type,
    symbol_ref_from_text,
)
from streamopt.parser import token_values
from streamopt.parser.parts import AttrDict, TypeList
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


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
        # AllTypesMatch<["operands", "results"]>: as many results as operands, of the same
        # types (the generic form may spell any other). Operands of unknown type (results of
        # ops kept as written) are not compared.
        results = self.results
        if len(self.operands) != len(results) or any(
            v.type is not None and v.type != r.type for v, r in zip(self.operands, results)
        ):
            raise op_error(self, "failed to verify that all of {operands, results} have same type")


@register_op
class NullOp(DeclaredOp):
    """`%0 = util.null : !hal.fence`: a null reference of a reference type."""

    name = "util.null"
    is_pure = True
    result = result_def()
    assembly_format = "attr-dict `:` type($result)"


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
        check_set_twice(cls.name, attributes, "value", location)
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


@parse_rule("util_assumption")
def _util_assumption(b: Builder, children: list[Any]) -> dict[str, int]:
    """`<umin = 0, udiv = 4>`: its fields, read as the body of `#util.int.assumption` is."""
    start = children[0].start_pos
    fields, problem = token_values.int_assumption_fields(b.parsed_text, start, AssumeIntOp.name)
    if problem is not None:
        raise error(problem[1], b.source.location_at(problem[0]))
    return fields


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
        check_set_twice(cls.name, attributes, "assumptions", location)
        if len(types) != len(operands):
            raise error(f"{len(operands)} operands present, but expected {len(types)}", location)
        for (value, _), type in zip(operands, types):
            check_operand_type(value, type, location)
        return cls([o[0] for o in operands], [o[1] for o in operands], attributes, location)

    @classmethod
    def from_generic(
        cls,
        operands: list[Value],
        result_types: list[Type],
        properties: Mapping[str, Attribute] | None,
        attributes: Mapping[str, Attribute],
        location: Location,
    ) -> AssumeIntOp | str | None:
        """The op MLIR's generic form with these parts is: `assumptions` (a property, which
        wins over the attribute dictionary's) a list per operand of lists of
        `#util.int.assumption`s. Otherwise what IREE's verifier says of it (a result of
        another type than its operand), or None to keep it as written."""
        inherent = dict(properties or {})
        if set(inherent) - {"assumptions"}:
            return None
        rows = _assumption_rows(inherent.get("assumptions", attributes.get("assumptions")))
        if rows is None:
            return None
        if result_types != [value.type for value in operands]:
            return "failed to verify that all of {operands, results} have same type"
        kept = {name: a for name, a in attributes.items() if name != "assumptions"}
        return cls(operands, rows, kept, location)

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


def _assumption_rows(attribute: Attribute | None) -> list[list[dict[str, int]]] | None:
    """The rows of an `assumptions` attribute that is a list per operand of lists of
    `#util.int.assumption`s written out (not aliases), or None."""
    if not isinstance(attribute, ArrayAttr):
        return None
    rows: list[list[dict[str, int]]] = []
    for row in attribute.elements:
        if not isinstance(row, ArrayAttr):
            return None
        rows.append([])
        for item in row.elements:
            if not (isinstance(item, OpaqueAttr) and item.text.startswith(_ASSUMPTION)):
                return None
            rows[-1].append(token_values.int_assumption_fields(item.text, len(_ASSUMPTION) - 1)[0])
    return rows


_ASSUMPTION = "#util.int.assumption<"


def _assumptions_text(rows: list[dict[str, int]]) -> str:
    """`<umin = 0, udiv = 4>` for one row, `[<udiv = 4>, <udiv = 8>]` for several."""
    texts = [token_values.int_assumption_text(row) for row in rows]
    return f"<{texts[0]}>" if len(texts) == 1 else "[" + ", ".join(f"<{t}>" for t in texts) + "]"


@register_op
class StatusCheckOkOp(DeclaredOp):
    """`util.status.check_ok %status, "message"`: fail the whole invocation unless the status
    (an i32) is ok. What `stream.timepoint.await` lowers to after its `hal.fence.await`."""

    name = "util.status.check_ok"
    status = operand_def(I32_CONSTRAINT, type=I32)
    message = attr_def(STRING)
    assembly_format = "$status (`,` $message^)? attr-dict"


@unmodelled_check("util.assume.int")
def _check_generic_assume_int(op: Operation) -> None:
    """AssumeIntOp's constraints on the generic form: `assumptions` is a list, per operand, of
    lists of `#util.int.assumption`s (an alias is taken as one), with a row per operand."""
    if not isinstance(op, GenericOp):
        return
    assumptions = inherent_attribute(op, "assumptions")
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
