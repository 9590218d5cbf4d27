"""The scf dialect: structured control flow (if, for, while, index_switch) and its terminators.

Syntax is upstream MLIR's as `iree-opt` prints it:

    %r = scf.if %c -> (T) { ... scf.yield %a : T } else { ... }
    %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %init) -> (T) { ... }
    %r = scf.while (%a = %init) : (T) -> T { ... scf.condition(%c) %a : T } do {
    ^bb0(%a: T): ... scf.yield %a : T }
    %r = scf.index_switch %i -> T
    case 0 { ... }
    default { ... }

`scf.if` and `scf.for` may leave out a `scf.yield` that has no operands: the parser adds it and
the printer leaves it out again whenever the op has no results (as MLIR does). The header of
`scf.for` and `scf.while` declares the entry block arguments of the region that follows.

For analyses: `scf.if`/`scf.index_switch` regions are exclusive, loop bodies run any number of
times, and values passed to `scf.yield`, `scf.condition` or a loop's initial arguments flow on
to results or block arguments (ESCAPE).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import UNKNOWN_LOCATION, DiagnosticError, Location, error
from streamopt.dialects import parse_rule, register_op, unmodelled_check
from streamopt.dialects.common import check_operand_type, split_clauses
from streamopt.ir.core import Access, Block, Operation, Region, RegionKind, Value
from streamopt.ir.types import (
    INDEX,
    UNIT,
    Attribute,
    FunctionType,
    IndexType,
    IntegerType,
    Type,
)
from streamopt.ir.verify import is_empty_region
from streamopt.parser.lalr import Token
from streamopt.parser.parts import TOKEN_CLASSES, AttrDict, TypeList, ValueList
from streamopt.parser.token_values import integer_literal
from streamopt.printer import known_type, type_text

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


def op_error(op_name: str, message: str, location: Location) -> DiagnosticError:
    """An error worded as MLIR's `emitOpError` words it: `'scf.if' op <message>`."""
    return error(f"'{op_name}' op {message}", location)


def _types_text(values: Sequence[Value]) -> str:
    return ", ".join(type_text(v.type) for v in values)


def _check_edge(
    op: Operation,
    source: str,
    target: str,
    operands: Sequence[Value],
    inputs: Sequence[Type | None],
) -> None:
    """Check that values passed along a control-flow edge match what the target receives.

    Worded as MLIR's RegionBranchOpInterface verifier words it, on the op owning the regions.
    """
    prefix = f"along control flow edge from {source} to {target}: "
    if len(operands) != len(inputs):
        raise op_error(
            op.name,
            prefix + f"region branch point has {len(operands)} operands, but region successor "
            f"needs {len(inputs)} inputs",
            op.location,
        )
    for i, (value, want) in enumerate(zip(operands, inputs)):
        if value.type is not None and want is not None and value.type != want:
            raise op_error(
                op.name,
                prefix + f"successor operand type #{i} '{value.type}' should match successor "
                f"input type #{i} '{want}'",
                op.location,
            )


def _ensure_yield(region: Region) -> None:
    """Give a single-block region whose block cannot end with what it holds an empty
    `scf.yield`, as MLIR's parser does."""
    if not region.blocks:
        region.add_block(Block())
    block = region.blocks[-1]
    last = block.last_op
    if last is None or not last.might_be_terminator:
        block.append(YieldOp([]))


def _terminator(region: Region) -> Operation | None:
    if not region.blocks:
        return None
    return region.blocks[-1].terminator


def _not_yield(op: Operation, region: Region) -> DiagnosticError:
    """MLIR's error when a region of `op` (with an implicit `scf.yield`) ends otherwise."""
    last = region.blocks[-1].last_op if region.blocks else None
    found = f", found '{last.name}'" if last is not None else ""
    return op_error(op.name, f"expects regions to end with 'scf.yield'{found}", op.location)


# -- terminators ----------------------------------------------------------------------------


@register_op
class YieldOp(Operation):
    """`scf.yield %a, %b : T, U`: ends a region, passing values to the parent op's results
    (or, in a loop body, to the next iteration)."""

    __slots__ = ()
    name = "scf.yield"
    is_terminator = True
    parent_names = (
        "scf.execute_region",
        "scf.for",
        "scf.if",
        "scf.index_switch",
        "scf.while",
    )

    def __init__(
        self,
        values: Sequence[Value] = (),
        attributes: dict[str, Attribute] | None = None,
        location: Location = UNKNOWN_LOCATION,
    ) -> None:
        super().__init__(values, (), attributes, location=location)

    @classmethod
    def create(cls, values: Sequence[Value] = (), location: Location = UNKNOWN_LOCATION) -> YieldOp:
        return cls(values, location=location)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> YieldOp:
        values, attributes = _values_and_types(parts, location)
        return cls(values, attributes, location)

    def operand_access(self, index: int) -> Access:
        return Access.ESCAPE

    def forwarded_operands(self) -> Iterable[tuple[int, Sequence[Value]]]:
        # Into the parent's results, and for loops into the next iteration's arguments.
        parent = self.parent_op
        for index in range(len(self.operands)):
            targets: list[Value] = []
            if isinstance(parent, ForOp):
                targets.append(parent.body.arguments[1 + index])
                targets.append(parent.results[index])
            elif isinstance(parent, WhileOp):
                targets.append(parent.before_block.arguments[index])
            elif parent is not None and index < len(parent.results):
                targets.append(parent.results[index])
            if targets:
                yield index, targets

    def print(self, p: Printer) -> None:
        p.write("scf.yield")
        p.attr_dict(self)
        if self.operands:
            p.write(f" {p.values(self.operands)} : {_types_text(self.operands)}")


def _values_and_types(parts: list[Any], location: Location) -> tuple[list[Value], dict[str, Any]]:
    """`{attrs}? (%a, %b : T, U)?` of yield-like ops."""
    values: list[Value] = []
    types: list[Type] = []
    attributes: dict[str, Attribute] = {}
    for part in parts:
        if isinstance(part, AttrDict):
            attributes = dict(part)
        elif isinstance(part, ValueList):
            values = part
        elif isinstance(part, TypeList):
            types = part
    if len(values) != len(types):
        raise error(f"{len(values)} operands present, but expected {len(types)}", location)
    for value, type in zip(values, types):
        check_operand_type(value, type, location)
    return values, attributes


@register_op
class ConditionOp(Operation):
    """`scf.condition(%c) %a, %b : T, U`: ends the `before` region of `scf.while`.

    When `%c` is true the values go to the `do` region's arguments, else to the results.
    """

    __slots__ = ()
    name = "scf.condition"
    is_terminator = True
    parent_names = ("scf.while",)

    @classmethod
    def create(
        cls, condition: Value, values: Sequence[Value] = (), location: Location = UNKNOWN_LOCATION
    ) -> ConditionOp:
        return cls([condition, *values], location=location)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ConditionOp:
        condition: Value = parts[0]
        check_operand_type(condition, IntegerType(1), location)
        values, attributes = _values_and_types(parts[1:], location)
        return cls([condition, *values], (), attributes, location=location)

    @property
    def condition(self) -> Value:
        return self.operands[0]

    @property
    def args(self) -> list[Value]:
        """The values forwarded to the `do` region or to the results."""
        return list(self.operands[1:])

    def operand_access(self, index: int) -> Access:
        return Access.NONE if index == 0 else Access.ESCAPE

    def forwarded_operands(self) -> Iterable[tuple[int, Sequence[Value]]]:
        # Operand 0 decides; the rest go to the `do` region, or out as the loop's results.
        parent = self.parent_op
        if not isinstance(parent, WhileOp):
            return
        for index in range(1, len(self.operands)):
            position = index - 1
            targets: list[Value] = []
            if position < len(parent.after_block.arguments):
                targets.append(parent.after_block.arguments[position])
            if position < len(parent.results):
                targets.append(parent.results[position])
            yield index, targets

    def print(self, p: Printer) -> None:
        p.write(f"scf.condition({p.v(self.condition)})")
        p.attr_dict(self)
        args = self.args
        if args:
            p.write(f" {p.values(args)} : {_types_text(args)}")


@unmodelled_check("scf.execute_region")
def _check_execute_region(op: Operation) -> None:
    """scf.execute_region, kept as written, has a region with blocks that each end in a
    terminator (its region has no implicit one)."""
    blocks = op.regions[0].blocks if op.regions else []
    if not blocks or (blocks[0].last_op is None and is_empty_region(blocks[0])):
        raise op_error(op.name, "region needs to have at least one block", op.location)
    for block in blocks:
        last = block.last_op
        if last is None:
            raise op_error(op.name, "empty block: expect at least a terminator", op.location)
        if not last.might_be_terminator:
            raise error(f"block with no terminator, has '{last.name}'", last.location)


# -- scf.if ---------------------------------------------------------------------------------


@register_op
class IfOp(Operation):
    """`%r = scf.if %c -> (T) { ... } else { ... }`: at most one region runs.

    Regions: then, else (the else region has no block when it was left out).
    """

    __slots__ = ()
    name = "scf.if"
    region_kind = RegionKind.EXCLUSIVE

    @classmethod
    def create(
        cls,
        condition: Value,
        result_types: Sequence[Type] = (),
        with_else: bool = False,
        location: Location = UNKNOWN_LOCATION,
    ) -> IfOp:
        """An if whose regions hold only an empty `scf.yield` (fill them, then set the yields'
        operands when there are results)."""
        then_region = Region([Block()])
        _ensure_yield(then_region)
        else_region = Region()
        if with_else or result_types:
            _ensure_yield(else_region)
        return cls([condition], result_types, regions=[then_region, else_region], location=location)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> IfOp:
        condition: Value = parts[0]
        check_operand_type(condition, IntegerType(1), location)
        result_types: list[Type] = []
        regions: list[Region] = []
        attributes: dict[str, Attribute] = {}
        for part in parts[1:]:
            if isinstance(part, TypeList):
                result_types = part
            elif isinstance(part, Region):
                regions.append(part)
            elif isinstance(part, AttrDict):
                attributes = dict(part)
        for region in regions:
            _ensure_yield(region)
        if len(regions) == 1:
            regions.append(Region())
        return cls([condition], result_types, attributes, regions, location=location)

    @property
    def condition(self) -> Value:
        return self.operands[0]

    @property
    def then_block(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def else_block(self) -> Block | None:
        blocks = self.regions[1].blocks
        return blocks[0] if blocks else None

    def ensure_else_block(self) -> Block:
        """The else block, made (holding an empty `scf.yield`) if the else was left out."""
        _ensure_yield(self.regions[1])
        return self.regions[1].blocks[0]

    @property
    def then_yield(self) -> Operation | None:
        return _terminator(self.regions[0])

    @property
    def else_yield(self) -> Operation | None:
        return _terminator(self.regions[1])

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def print(self, p: Printer) -> None:
        p.write(f"scf.if {p.v(self.condition)}")
        has_results = bool(self.results)
        if has_results:
            p.write(" -> (" + ", ".join(type_text(r.type) for r in self.results) + ")")
        p.write(" ")
        p.print_region(self.regions[0], print_block_terminators=has_results)
        if self.regions[1].blocks:
            p.write(" else ")
            p.print_region(self.regions[1], print_block_terminators=has_results)
        p.attr_dict(self)

    def verify(self) -> None:
        if len(self.regions) != 2:
            raise op_error(self.name, "expected a then and an else region", self.location)
        if self.results and not self.regions[1].blocks:
            raise op_error(self.name, "must have an else block if defining values", self.location)
        result_types = [r.type for r in self.results]
        for region in self.regions:
            if not region.blocks:
                continue
            if len(region.blocks) != 1:
                raise op_error(self.name, "expects a single block per region", self.location)
            terminator = _terminator(region)
            if not isinstance(terminator, YieldOp):
                raise _not_yield(self, region)
            _check_edge(
                self, "Operation scf.yield", "Operation scf.if", terminator.operands, result_types
            )


# -- scf.for --------------------------------------------------------------------------------


@dataclass
class ForHeader:
    """`scf.for unsigned? %iv = %lb to %ub step %s iter_args(%a = %x) -> (T) : T?`."""

    unsigned: bool
    induction_var: Any
    lower_bound: Value
    upper_bound: Value
    step: Value
    iter_args: list[tuple[Any, Value]]
    iter_types: list[Type]
    induction_type: Type
    location: Location


class _IterArgs(tuple[Any, ...]):
    """(list of (VALUE_ID token, init value), result types)."""


@parse_rule("scf_init")
def _scf_init(b: Builder, children: list[Any]) -> tuple[Token, Value]:
    return (children[0], children[-1])


@parse_rule("scf_result_types")
def _scf_result_types(b: Builder, children: list[Any]) -> TypeList:
    for child in children:
        if isinstance(child, TypeList):
            return child
    return TypeList(c for c in children if isinstance(c, Type))


@parse_rule("scf_iter_args")
def _scf_iter_args(b: Builder, children: list[Any]) -> _IterArgs:
    inits = [c for c in children if isinstance(c, tuple)]
    types = next((c for c in children if isinstance(c, TypeList)), TypeList())
    return _IterArgs((inits, types))


@parse_rule("scf_for_header")
def _scf_for_header(b: Builder, children: list[Any]) -> ForHeader:
    name_token = children[0]
    unsigned = False
    tokens: list[Any] = []
    values: list[Value] = []
    iter_args: _IterArgs = _IterArgs(([], TypeList()))
    types: list[Type] = []
    for child in children[1:]:
        if isinstance(child, TOKEN_CLASSES):
            if str(child) == "unsigned":
                unsigned = True
            elif getattr(child, "type", None) == "VALUE_ID":
                tokens.append(child)
        elif isinstance(child, _IterArgs):
            iter_args = child
        elif isinstance(child, Value):
            values.append(child)
        elif isinstance(child, Type):
            types.append(child)
    location = b.location(name_token)
    induction_type = types[0] if types else INDEX
    lower, upper, step = values
    for bound in (lower, upper, step):
        check_operand_type(bound, induction_type, location)
    inits, iter_types = iter_args
    if len(inits) != len(iter_types):
        raise error(
            f"expected as many iter_args types as iter_args: {len(inits)} vs {len(iter_types)}",
            location,
        )
    for (_, value), type in zip(inits, iter_types):
        check_operand_type(value, type, location)
    header = ForHeader(
        unsigned,
        tokens[0],
        lower,
        upper,
        step,
        list(inits),
        list(iter_types),
        induction_type,
        location,
    )
    b.pending_entry_args = [(tokens[0], induction_type, None)] + [
        (token, type, None) for (token, _), type in zip(inits, iter_types)
    ]
    return header


@register_op
class ForOp(Operation):
    """`%r = scf.for %i = %lb to %ub step %s iter_args(%a = %init) -> (T) { ... }`.

    Operands: lower bound, upper bound, step, then the initial values of the loop-carried
    arguments. The body's block arguments are the induction variable and the iteration
    arguments; its `scf.yield` passes the next iteration's values, and the last ones become the
    results.
    """

    __slots__ = ()
    name = "scf.for"
    region_kind = RegionKind.LOOP

    @classmethod
    def create(
        cls,
        lower_bound: Value,
        upper_bound: Value,
        step: Value,
        init_args: Sequence[Value] = (),
        location: Location = UNKNOWN_LOCATION,
    ) -> ForOp:
        """A loop whose body yields its iteration arguments unchanged (fill it in)."""
        block = Block([lower_bound.type, *(v.type for v in init_args)])
        block.append(YieldOp(block.arguments[1:]))
        return cls(
            [lower_bound, upper_bound, step, *init_args],
            [v.type for v in init_args],
            regions=[Region([block])],
            location=location,
        )

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ForOp:
        header: ForHeader = parts[0]
        region: Region = parts[1]
        attributes: dict[str, Attribute] = {}
        if header.unsigned:
            attributes["unsignedCmp"] = UNIT
        if len(parts) > 2:
            attributes.update(parts[2])
        _ensure_yield(region)
        operands = [
            header.lower_bound,
            header.upper_bound,
            header.step,
            *(value for _, value in header.iter_args),
        ]
        return cls(operands, header.iter_types, attributes, [region], location=location)

    @property
    def lower_bound(self) -> Value:
        return self.operands[0]

    @property
    def upper_bound(self) -> Value:
        return self.operands[1]

    @property
    def step(self) -> Value:
        return self.operands[2]

    @property
    def init_args(self) -> list[Value]:
        return list(self.operands[3:])

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def induction_var(self) -> Value:
        return self.body.arguments[0]

    @property
    def region_iter_args(self) -> list[Value]:
        return list(self.body.arguments[1:])

    @property
    def yield_op(self) -> Operation | None:
        return _terminator(self.regions[0])

    @property
    def is_unsigned(self) -> bool:
        return "unsignedCmp" in self.attribute_map

    def operand_access(self, index: int) -> Access:
        return Access.NONE if index < 3 else Access.ESCAPE

    def forwarded_operands(self) -> Iterable[tuple[int, Sequence[Value]]]:
        # Init values become the first iteration's arguments, or the results if it never runs.
        for position in range(len(self.operands) - 3):
            yield 3 + position, (self.body.arguments[1 + position], self.results[position])

    def print(self, p: Printer) -> None:
        p.write("scf.for ")
        if self.is_unsigned:
            p.write("unsigned ")
        p.write(
            f"{p.v(self.induction_var)} = {p.v(self.lower_bound)} to {p.v(self.upper_bound)} "
            f"step {p.v(self.step)}"
        )
        inits = self.init_args
        if inits:
            pairs = ", ".join(
                f"{p.v(arg)} = {p.v(init)}" for arg, init in zip(self.region_iter_args, inits)
            )
            p.write(f" iter_args({pairs}) -> ({_types_text(inits)})")
        p.write(" ")
        iv_type = self.induction_var.type
        if not isinstance(iv_type, IndexType):
            p.write(f" : {type_text(iv_type)} ")
        p.print_region(self.regions[0], print_block_terminators=bool(inits))
        p.attr_dict(self, ("unsignedCmp",))

    def verify(self) -> None:
        body = self.body
        iv_type = body.arguments[0].type if body.arguments else None
        for bound in (self.lower_bound, self.upper_bound, self.step):
            if bound.type != iv_type:
                raise op_error(
                    self.name,
                    "failed to verify that all of {lowerBound, upperBound, step} have same type "
                    "as the induction variable",
                    self.location,
                )
        inits = self.init_args
        if len(body.arguments) != len(inits) + 1:
            raise op_error(
                self.name,
                "mismatch in number of loop-carried values and defined values",
                self.location,
            )
        iter_types = [a.type for a in self.region_iter_args]
        _check_edge(self, "parent operands", "Region #0", inits, iter_types)
        terminator = self.yield_op
        if not isinstance(terminator, YieldOp):
            raise _not_yield(self, self.regions[0])
        _check_edge(self, "Operation scf.yield", "Region #0", terminator.operands, iter_types)
        if iter_types != [r.type for r in self.results]:
            raise op_error(
                self.name,
                "mismatch in number of loop-carried values and defined values",
                self.location,
            )


# -- scf.while ------------------------------------------------------------------------------


@dataclass
class WhileHeader:
    """`scf.while (%a = %x, ...) : (T, ...) -> (U, ...)`."""

    inits: list[tuple[Any, Value]]
    function_type: FunctionType
    location: Location


@parse_rule("scf_while_header")
def _scf_while_header(b: Builder, children: list[Any]) -> WhileHeader:
    name_token = children[0]
    location = b.location(name_token)
    inits = [c for c in children if isinstance(c, tuple)]
    function_type = next(c for c in children if isinstance(c, FunctionType))
    if len(inits) != len(function_type.inputs):
        raise error(
            f"expected as many input types as operands (expected {len(inits)} got "
            f"{len(function_type.inputs)})",
            location,
        )
    for (_, value), type in zip(inits, function_type.inputs):
        check_operand_type(value, type, location)
    b.pending_entry_args = [
        (token, type, None) for (token, _), type in zip(inits, function_type.inputs)
    ]
    return WhileHeader(inits, function_type, location)


@register_op
class WhileOp(Operation):
    """`%r = scf.while (%a = %init) : (T) -> U { before } do { after }`.

    The `before` region runs first and ends in `scf.condition(%c) %v`: if `%c` holds, `%v` goes
    to the `after` region's arguments and its `scf.yield` feeds `before` again; otherwise `%v`
    are the results.
    """

    __slots__ = ()
    name = "scf.while"
    region_kind = RegionKind.LOOP

    @classmethod
    def create(
        cls,
        inits: Sequence[Value],
        result_types: Sequence[Type],
        location: Location = UNKNOWN_LOCATION,
    ) -> WhileOp:
        """A loop with empty regions whose blocks have the right arguments (fill them in)."""
        before = Region([Block([v.type for v in inits])])
        after = Region([Block(result_types)])
        return cls(inits, result_types, regions=[before, after], location=location)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> WhileOp:
        header: WhileHeader = parts[0]
        clauses, rest = split_clauses(parts[1:])
        before, after = rest[0], rest[1]
        attributes = dict(clauses.get("attributes", {}))
        return cls(
            [value for _, value in header.inits],
            header.function_type.results,
            attributes,
            [before, after],
            location=location,
        )

    @property
    def inits(self) -> list[Value]:
        return list(self.operands)

    @property
    def before_block(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def after_block(self) -> Block:
        return self.regions[1].blocks[0]

    @property
    def before_arguments(self) -> list[Value]:
        return list(self.before_block.arguments)

    @property
    def after_arguments(self) -> list[Value]:
        return list(self.after_block.arguments)

    @property
    def condition_op(self) -> ConditionOp | None:
        terminator = _terminator(self.regions[0])
        return terminator if isinstance(terminator, ConditionOp) else None

    @property
    def yield_op(self) -> Operation | None:
        return _terminator(self.regions[1])

    def operand_access(self, index: int) -> Access:
        return Access.ESCAPE

    def forwarded_operands(self) -> Iterable[tuple[int, Sequence[Value]]]:
        for index in range(len(self.operands)):
            yield index, (self.before_block.arguments[index],)

    def print(self, p: Printer) -> None:
        p.write("scf.while")
        if self.operands:
            pairs = ", ".join(
                f"{p.v(arg)} = {p.v(init)}"
                for arg, init in zip(self.before_block.arguments, self.operands)
            )
            p.write(f" ({pairs})")
        function_type = FunctionType(
            [known_type(v.type) for v in self.operands], [known_type(r.type) for r in self.results]
        )
        p.write(f" : {function_type.text} ")
        p.print_region(self.regions[0])
        p.write(" do ")
        p.print_region(self.regions[1], print_entry_block_args=True)
        p.attr_dict(self, keyword=True)

    def verify(self) -> None:
        before_types = [a.type for a in self.before_block.arguments]
        _check_edge(self, "parent operands", "Region #0", self.operands, before_types)
        condition = self.condition_op
        if condition is None:
            raise op_error(
                self.name,
                "expects the 'before' region to terminate with 'scf.condition'",
                self.location,
            )
        result_types = [r.type for r in self.results]
        _check_edge(
            self, "Operation scf.condition", "Operation scf.while", condition.args, result_types
        )
        after_types = [a.type for a in self.after_block.arguments]
        _check_edge(self, "Operation scf.condition", "Region #1", condition.args, after_types)
        terminator = self.yield_op
        if not isinstance(terminator, YieldOp):
            raise op_error(
                self.name, "expects the 'after' region to terminate with 'scf.yield'", self.location
            )
        _check_edge(self, "Operation scf.yield", "Region #0", terminator.operands, before_types)


# -- scf.index_switch -----------------------------------------------------------------------


class _Case(tuple[Any, ...]):
    """(case value, region)."""


@parse_rule("scf_case")
def _scf_case(b: Builder, children: list[Any]) -> _Case:
    negative = any(isinstance(c, TOKEN_CLASSES) and str(c) == "-" for c in children)
    number = next(c for c in children if getattr(c, "type", None) == "INTEGER")
    region = next(c for c in children if isinstance(c, Region))
    value = integer_literal(str(number))
    return _Case((-value if negative else value, region))


@register_op
class IndexSwitchOp(Operation):
    """`%r = scf.index_switch %i -> T` followed by `case N { ... }` lines and `default { ... }`.

    Regions: the default region, then one per case (`case_values[k]` selects region k + 1).
    """

    __slots__ = ("case_values",)
    name = "scf.index_switch"
    inherent_attributes = frozenset({"cases"})
    region_kind = RegionKind.EXCLUSIVE
    # SingleBlockImplicitTerminator<"scf.yield">: a region of a switch without results may
    # leave its yield out, and streamopt keeps none there.
    has_no_terminator = True

    def __init__(self, *args: Any, case_values: Sequence[int] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.case_values: list[int] = list(case_values)

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, IndexSwitchOp)
        new.case_values = list(self.case_values)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> IndexSwitchOp:
        argument: Value = parts[0]
        check_operand_type(argument, INDEX, location)
        attributes: dict[str, Attribute] = {}
        result_types: list[Type] = []
        cases: list[_Case] = []
        default: Region | None = None
        for part in parts[1:]:
            if isinstance(part, AttrDict):
                attributes = dict(part)
            elif isinstance(part, TypeList):
                result_types = part
            elif isinstance(part, _Case):
                cases.append(part)
            elif isinstance(part, Region):
                default = part
        assert default is not None
        return cls(
            [argument],
            result_types,
            attributes,
            [default, *(region for _, region in cases)],
            location=location,
            case_values=[value for value, _ in cases],
        )

    @property
    def argument(self) -> Value:
        return self.operands[0]

    @property
    def default_region(self) -> Region:
        return self.regions[0]

    @property
    def case_regions(self) -> list[Region]:
        return list(self.regions[1:])

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def print(self, p: Printer) -> None:
        p.write(f"scf.index_switch {p.v(self.argument)}")
        p.attr_dict(self, ("cases",))
        if self.results:
            p.write(" -> " + ", ".join(type_text(r.type) for r in self.results))
        p.write(" ")
        indent = " " * p.indent_width
        for value, region in zip(self.case_values, self.case_regions):
            p.write(f"\n{indent}case {value} ")
            p.print_region(region)
        p.write(f"\n{indent}default ")
        p.print_region(self.default_region)

    def verify(self) -> None:
        if len(self.case_values) != len(self.case_regions):
            raise op_error(
                self.name,
                f"has {len(self.case_regions)} case regions but {len(self.case_values)} case "
                "values",
                self.location,
            )
        seen: set[int] = set()
        for value in self.case_values:
            if value in seen:
                raise op_error(self.name, f"has duplicate case value: {value}", self.location)
            seen.add(value)
        result_types = [r.type for r in self.results]
        names = ["default region", *(f"case region #{i}" for i in range(len(self.case_values)))]
        for name, region in zip(names, self.regions):
            terminator = _terminator(region)
            if terminator is None and not result_types:
                continue  # An empty region of a switch without results.
            if not isinstance(terminator, YieldOp):
                raise op_error(self.name, "expected region to end with scf.yield", self.location)
            if len(terminator.operands) != len(result_types):
                raise op_error(
                    self.name,
                    f"expected each region to return {len(result_types)} values, but {name} "
                    f"returns {len(terminator.operands)}",
                    self.location,
                )
            for i, (operand, want) in enumerate(zip(terminator.operands, result_types)):
                if operand.type != want:
                    raise op_error(
                        self.name,
                        f"expected result #{i} of each region to be '{want}'",
                        self.location,
                    )
