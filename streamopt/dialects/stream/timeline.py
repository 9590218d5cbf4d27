"""stream timepoint ops: `stream.timepoint.immediate`, `join`, `await` and `barrier`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import Location, error
from streamopt.dialects import register_op
from streamopt.dialects.common import (
    SegmentedOp,
    check_operand_type,
    print_shaped_type_list,
    split_clauses,
)
from streamopt.dialects.stream.base import (
    AFFINITY,
    ANY_OR_STAGING_LIFETIMES,
    DeclaredStreamOp,
    StreamOp,
    check_lifetime,
    check_size_counts,
    check_timepoint,
    op_attributes,
    op_error,
    with_affinity,
)
from streamopt.ir.core import Access, Value
from streamopt.ir.opdef import attr_def, operand_def, result_def
from streamopt.ir.types import (
    INDEX_CONSTRAINT,
    TIMEPOINT,
    TIMEPOINT_CONSTRAINT,
    UNIT,
    Attribute,
    Type,
)
from streamopt.parser.parts import Sized

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


@register_op
class TimepointImmediateOp(DeclaredStreamOp):
    """`%t = stream.timepoint.immediate => !stream.timepoint`: already reached."""

    __slots__ = ()
    name = "stream.timepoint.immediate"
    is_pure = True
    result_timepoint = result_def(TIMEPOINT)
    assembly_format = "attr-dict `=` `` `>` type($result_timepoint)"

    @property
    def await_timepoints(self) -> list[Value]:
        return []

    def verify(self) -> None:
        check_timepoint(self, "result", 0, self.result.type)


@register_op
class TimepointJoinOp(DeclaredStreamOp):
    """`%t = stream.timepoint.join max(%a, %b) => !stream.timepoint`: reached when all are."""

    __slots__ = ()
    name = "stream.timepoint.join"
    is_pure = True
    await_timepoints = operand_def(TIMEPOINT_CONSTRAINT, variadic=True, type=TIMEPOINT)
    result_timepoint = result_def(TIMEPOINT)
    assembly_format = (
        "`max` `(` $await_timepoints `)` `=` `` `>` type($result_timepoint) attr-dict-with-keyword"
    )

    def verify(self) -> None:
        check_timepoint(self, "result", 0, self.result.type)


@register_op
class TimepointAwaitOp(StreamOp, SegmentedOp):
    """`%r:2 = stream.timepoint.await sync? %t => %a, %b : T{%s}, T{%s2}`: the resources as of
    the timepoint (each result is tied to its operand)."""

    __slots__ = ()
    name = "stream.timepoint.await"
    inherent_attributes = frozenset({"sync"})
    operand_types = {
        "resource_operand_sizes": INDEX_CONSTRAINT,
        "await_timepoints": TIMEPOINT_CONSTRAINT,
    }
    is_pure = True
    segment_names = ("resource_operands", "resource_operand_sizes", "await_timepoint")

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> TimepointAwaitOp:
        clauses, rest = split_clauses(parts)
        timepoint, values, types = rest
        check_operand_type(timepoint, TIMEPOINT, location)
        if len(values) != len(types):
            raise error(
                "number of operands and types do not match: got "
                f"{len(values)} operands and {len(types)} types",
                location,
            )
        sizes: list[Value] = []
        result_types: list[Type] = []
        for value, type_part in zip(values, types):
            type = type_part.type if isinstance(type_part, Sized) else type_part
            check_operand_type(value, type, location)
            result_types.append(type)
            if isinstance(type_part, Sized):
                sizes.extend(type_part.sizes)
        attributes = op_attributes(clauses)
        if "sync" in clauses:
            attributes["sync"] = UNIT
        return cls(
            [*values, *sizes, timepoint],
            result_types,
            attributes,
            location=location,
            segments=[len(values), len(sizes), 1],
        )

    @classmethod
    def create(
        cls,
        timepoint: Value,
        resources: Sequence[Value],
        sizes: Sequence[Value],
        sync: bool = False,
    ) -> TimepointAwaitOp:
        """`resources` (with their `sizes`) as of `timepoint`."""
        return cls(
            [*resources, *sizes, timepoint],
            [v.type for v in resources],
            {"sync": UNIT} if sync else {},
            segments=[len(resources), len(sizes), 1],
        )

    @property
    def resource_operands(self) -> list[Value]:
        return self.segment(0)

    @property
    def resource_operand_sizes(self) -> list[Value]:
        return self.segment(1)

    @property
    def await_timepoint(self) -> Value:
        return self.operands[-1]

    @property
    def await_timepoints(self) -> list[Value]:
        return [self.operands[-1]]

    @property
    def result_timepoint(self) -> Value | None:
        return None

    @property
    def sync(self) -> bool:
        return "sync" in self.attribute_map

    def tied_operand_index(self, result_index: int) -> int | None:
        return result_index

    # A passthrough: the results are the operands, later on the timeline.
    def operand_access(self, index: int) -> Access:
        return Access.READ if index < self.segments[0] else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        if index >= self.segments[0]:
            return None
        return self.resource_operand_sizes[index]

    def result_size(self, index: int) -> Value | None:
        return self.resource_operand_sizes[index]

    def verify(self) -> None:
        values = self.resource_operands
        for i, value in enumerate(values):
            check_lifetime(self, "operand", i, value.type, ANY_OR_STAGING_LIFETIMES)
        check_size_counts(self, [v.type for v in values], self.resource_operand_sizes)
        if [r.type for r in self.results] != [v.type for v in values]:
            raise op_error(self, "result types must match the resource operand types")

    def print(self, p: Printer) -> None:
        p.write("stream.timepoint.await")
        if self.sync:
            p.write(" sync")
        values = self.resource_operands
        p.write(f" {p.v(self.await_timepoint)} => {p.values(values)} : ")
        p.write(
            print_shaped_type_list(p, [v.type for v in values], self.resource_operand_sizes)  # type: ignore[misc]
        )
        p.attr_dict(self, ("sync",), keyword=True)


@register_op
class TimepointBarrierOp(DeclaredStreamOp):
    """`%result, %result_timepoint = stream.timepoint.barrier on(A) %x : T{%s} =>
    !stream.timepoint`: the resource (tied) and when it is available."""

    __slots__ = ()
    name = "stream.timepoint.barrier"
    is_pure = True
    # A passthrough, like stream.timepoint.await.
    resource = operand_def(access=Access.READ)
    resource_size = operand_def(INDEX_CONSTRAINT, size_of=("resource", "result"))
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(same_as="resource", asm_name="result")
    result_timepoint = result_def(asm_name="result_timepoint")
    assembly_format = (
        "(`on` `(` $affinity^ `)`)? $resource `:` type($resource) `` `{` $resource_size `}` "
        "`=` `` `>` type($result_timepoint) attr-dict-with-keyword"
    )

    @classmethod
    def create(
        cls, resource: Value, size: Value, affinity: Attribute | None = None
    ) -> TimepointBarrierOp:
        return cls([resource, size], [resource.type, TIMEPOINT], with_affinity(None, affinity))

    @property
    def await_timepoints(self) -> list[Value]:
        return []

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0 if result_index == 0 else None

    def verify(self) -> None:
        check_lifetime(self, "operand", 0, self.resource.type, ANY_OR_STAGING_LIFETIMES)
        check_timepoint(self, "result", 1, self.results[1].type)
