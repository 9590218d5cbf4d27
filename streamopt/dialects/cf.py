"""The cf dialect: unstructured branches between the blocks of a region.

Syntax is upstream MLIR's as `iree-opt` prints it:

    cf.br ^bb1(%a : index)
    cf.cond_br %c weights([1, 2]), ^bb1, ^bb2(%a : index)
    cf.switch %flag : i32, [
      default: ^bb1,
      0: ^bb2(%a : index)
    ]

The blocks are the op's `successors`; the values passed to them are its operands, in successor
order (`successor_operands(i)`). Passing a value to a block hands it on to that block's argument,
so every successor operand escapes as far as the op itself can tell.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import UNKNOWN_LOCATION, DiagnosticError, Location, error
from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.common import SegmentedOp, check_operand_type
from streamopt.ir.core import Access, Block, Operation, Value
from streamopt.ir.types import ArrayAttr, Attribute, IntegerAttr, IntegerType, Type
from streamopt.parser.parts import TOKEN_CLASSES, AttrDict, Successor
from streamopt.parser.token_values import integer_literal
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


class BranchLikeOp(SegmentedOp):
    """A terminator whose operands after the first `num_leading` are its successors' operands.

    Segment 0 holds the leading operands (a condition or flag), segment i + 1 the operands of
    successor i.
    """

    __slots__ = ()
    is_terminator = True
    num_leading = 0

    def successor_operands(self, index: int) -> list[Value]:
        """The values passed to the arguments of successor `index`."""
        return self.segment(index + 1)

    def set_successor_operands(self, index: int, values: Sequence[Value]) -> None:
        self.set_segment(index + 1, values)

    def successor_operand_index(self, operand_index: int) -> tuple[int, int] | None:
        """(successor, argument) that operand `operand_index` is passed to, or None."""
        cursor = self.segments[0]
        if operand_index < cursor:
            return None
        for successor, count in enumerate(self.segments[1:]):
            if operand_index < cursor + count:
                return (successor, operand_index - cursor)
            cursor += count
        return None

    def operand_access(self, index: int) -> Access:
        return Access.NONE if index < self.segments[0] else Access.ESCAPE

    def forwarded_operands(self) -> Iterable[tuple[int, Sequence[Value]]]:
        for index in range(self.segments[0], len(self.operands)):
            place = self.successor_operand_index(index)
            if place is not None and place[0] < len(self.successors):
                arguments = self.successors[place[0]].arguments
                if place[1] < len(arguments):
                    yield index, (arguments[place[1]],)

    def verify(self) -> None:
        if len(self.segments) != len(self.successors) + 1 or sum(self.segments) != len(
            self.operands
        ):
            raise _op_error(
                self.name, "operand segments do not match the successors", self.location
            )
        for i, block in enumerate(self.successors):
            values = self.successor_operands(i)
            if len(values) != len(block.arguments):
                raise error(
                    f"branch has {len(values)} operands for successor #{i}, but target block "
                    f"has {len(block.arguments)}",
                    self.location,
                )
            for j, (value, arg) in enumerate(zip(values, block.arguments)):
                if value.type is not None and arg.type is not None and value.type != arg.type:
                    raise error(
                        f"type mismatch for bb argument #{j} of successor #{i}", self.location
                    )
            if block.parent is None or block.parent is not (
                self.parent.parent if self.parent else None
            ):
                raise _op_error(
                    self.name,
                    f"successor #{i} is not a block of the region holding the branch",
                    self.location,
                )


def _op_error(op_name: str, message: str, location: Location) -> DiagnosticError:
    return error(f"'{op_name}' op {message}", location)


def _successor_text(p: Printer, block: Block, values: Sequence[Value]) -> str:
    return p.successor(block, values)


@register_op
class BranchOp(BranchLikeOp):
    """`cf.br ^bb1(%a, %b : T, U)`."""

    __slots__ = ()
    name = "cf.br"

    @classmethod
    def create(
        cls, dest: Block, operands: Sequence[Value] = (), location: Location = UNKNOWN_LOCATION
    ) -> BranchOp:
        return cls(operands, successors=[dest], location=location, segments=(0, len(operands)))

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> BranchOp:
        successor: Successor = parts[0]
        attributes = dict(parts[1]) if len(parts) > 1 else {}
        return cls(
            successor.arguments,
            (),
            attributes,
            successors=[successor.block],
            location=location,
            segments=(0, len(successor.arguments)),
        )

    @property
    def dest(self) -> Block:
        return self.successors[0]

    @property
    def dest_operands(self) -> list[Value]:
        return list(self.operands)

    def print(self, p: Printer) -> None:
        p.write("cf.br " + _successor_text(p, self.dest, self.operands))
        p.attr_dict(self)


@parse_rule("cf_weights")
def _cf_weights(b: Builder, children: list[Any]) -> ArrayAttr:
    return ArrayAttr([IntegerAttr(integer_literal(str(c)), IntegerType(32)) for c in children])


@register_op
class CondBranchOp(BranchLikeOp):
    """`cf.cond_br %c weights([1, 2])?, ^bb1(%a : T), ^bb2`."""

    __slots__ = ()
    name = "cf.cond_br"
    inherent_attributes = frozenset({"branch_weights"})

    @classmethod
    def create(
        cls,
        condition: Value,
        true_dest: Block,
        true_operands: Sequence[Value],
        false_dest: Block,
        false_operands: Sequence[Value],
        location: Location = UNKNOWN_LOCATION,
    ) -> CondBranchOp:
        return cls(
            [condition, *true_operands, *false_operands],
            successors=[true_dest, false_dest],
            location=location,
            segments=(1, len(true_operands), len(false_operands)),
        )

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> CondBranchOp:
        condition: Value = parts[0]
        check_operand_type(condition, IntegerType(1), location)
        attributes: dict[str, Attribute] = {}
        successors: list[Successor] = []
        for part in parts[1:]:
            if isinstance(part, ArrayAttr):
                attributes["branch_weights"] = part
            elif isinstance(part, Successor):
                successors.append(part)
            elif isinstance(part, AttrDict):
                attributes.update(part)
        true, false = successors
        return cls(
            [condition, *true.arguments, *false.arguments],
            (),
            attributes,
            successors=[true.block, false.block],
            location=location,
            segments=(1, len(true.arguments), len(false.arguments)),
        )

    @property
    def condition(self) -> Value:
        return self.operands[0]

    @property
    def true_dest(self) -> Block:
        return self.successors[0]

    @property
    def false_dest(self) -> Block:
        return self.successors[1]

    @property
    def true_operands(self) -> list[Value]:
        return self.successor_operands(0)

    @property
    def false_operands(self) -> list[Value]:
        return self.successor_operands(1)

    def print(self, p: Printer) -> None:
        p.write(f"cf.cond_br {p.v(self.condition)}")
        weights = self.attribute_map.get("branch_weights")
        if isinstance(weights, ArrayAttr):
            values = ", ".join(str(getattr(w, "value", w)) for w in weights.elements)
            p.write(f" weights([{values}])")
        p.write(", " + _successor_text(p, self.true_dest, self.true_operands))
        p.write(", " + _successor_text(p, self.false_dest, self.false_operands))
        p.attr_dict(self, ("branch_weights",))


class _SwitchCase(tuple[Any, ...]):
    """(case value, Successor)."""


@parse_rule("cf_case")
def _cf_case(b: Builder, children: list[Any]) -> _SwitchCase:
    negative = any(isinstance(c, TOKEN_CLASSES) and str(c) == "-" for c in children)
    number = next(c for c in children if getattr(c, "type", None) == "INTEGER")
    successor = next(c for c in children if isinstance(c, Successor))
    value = integer_literal(str(number))
    return _SwitchCase((-value if negative else value, successor))


@register_op
class SwitchOp(BranchLikeOp):
    """`cf.switch %flag : i32, [default: ^bb1, 0: ^bb2(%a : T)]` (one entry per line).

    Successor 0 is the default destination; successor k + 1 is taken when the flag equals
    `case_values[k]`.
    """

    __slots__ = ("case_values",)
    name = "cf.switch"
    inherent_attributes = frozenset({"case_values", "case_operand_segments"})

    def __init__(self, *args: Any, case_values: Sequence[int] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.case_values: list[int] = list(case_values)

    def _copy_extra_state(self, new: Operation) -> None:
        super()._copy_extra_state(new)
        assert isinstance(new, SwitchOp)
        new.case_values = list(self.case_values)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> SwitchOp:
        flag: Value = parts[0]
        flag_type: Type = parts[1]
        check_operand_type(flag, flag_type, location)
        default: Successor = parts[2]
        cases = [p for p in parts[3:] if isinstance(p, _SwitchCase)]
        attributes = next((dict(p) for p in parts[3:] if isinstance(p, AttrDict)), {})
        successors = [default, *(successor for _, successor in cases)]
        operands = [flag]
        for successor in successors:
            operands.extend(successor.arguments)
        return cls(
            operands,
            (),
            attributes,
            successors=[s.block for s in successors],
            location=location,
            segments=(1, *(len(s.arguments) for s in successors)),
            case_values=[value for value, _ in cases],
        )

    @property
    def flag(self) -> Value:
        return self.operands[0]

    @property
    def default_dest(self) -> Block:
        return self.successors[0]

    @property
    def case_dests(self) -> list[Block]:
        return list(self.successors[1:])

    def print(self, p: Printer) -> None:
        indent = " " * p.indent_width
        p.write(f"cf.switch {p.v(self.flag)} : {type_text(self.flag.type)}, [\n")
        p.write(f"{indent}  default: " + _successor_text(p, self.default_dest, self.segment(1)))
        width = self.flag.type.width if isinstance(self.flag.type, IntegerType) else 64
        for k, value in enumerate(self.case_values):
            # Case values print as signed numbers of the flag's width.
            value &= (1 << width) - 1
            if width > 1 and value >> (width - 1):
                value -= 1 << width
            block = self.successors[k + 1]
            p.write(f",\n{indent}  {value}: " + _successor_text(p, block, self.segment(k + 2)))
        if self.case_values:
            p.write(f"\n{indent}")
        p.write("]")
        p.attr_dict(self)

    def verify(self) -> None:
        if len(self.case_values) != len(self.successors) - 1:
            raise _op_error(
                self.name,
                f"number of case values ({len(self.case_values)}) and case destinations "
                f"({len(self.successors) - 1}) should match",
                self.location,
            )
        super().verify()
