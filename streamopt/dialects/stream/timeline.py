"""stream timepoint ops: `stream.timepoint.immediate`, `join`, `await` and `barrier`, and the
fences they are imported from and exported to."""

from __future__ import annotations

from streamopt.dialects import register_op
from streamopt.dialects.common import EffectsNotModelledOp, SegmentedOp, op_error
from streamopt.dialects.stream.base import (
    AFFINITY,
    ANY_OR_STAGING_RESOURCE,
    ON,
    StreamOp,
    TimelineOp,
    check_lifetime,
    check_size_counts,
    check_timepoint,
)
from streamopt.ir.core import Access
from streamopt.ir.opdef import UNIT_KIND, attr_def, operand_def, result_def
from streamopt.ir.types import INDEX_CONSTRAINT, TIMEPOINT, TIMEPOINT_CONSTRAINT, Attribute


@register_op
class TimepointImmediateOp(StreamOp):
    """`%t = stream.timepoint.immediate => !stream.timepoint`: already reached."""

    name = "stream.timepoint.immediate"
    is_pure = True
    result_timepoint = result_def(TIMEPOINT)
    assembly_format = "attr-dict `=` `` `>` type($result_timepoint)"

    def verify(self) -> None:
        check_timepoint(self, "result", 0, self.result.type)


@register_op
class TimepointJoinOp(StreamOp):
    """`%t = stream.timepoint.join max(%a, %b) => !stream.timepoint`: reached when all are."""

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
class TimepointAwaitOp(TimelineOp, SegmentedOp):
    """`%r:2 = stream.timepoint.await sync? %t => %a, %b : T{%s}, T{%s2}`: the resources as of
    the timepoint (each result is tied to its operand)."""

    name = "stream.timepoint.await"
    is_pure = True
    # A passthrough: the results are the operands, later on the timeline.
    resource_operands = operand_def(variadic=True, access=Access.READ)
    resource_operand_sizes = operand_def(
        INDEX_CONSTRAINT, variadic=True, size_of=("resource_operands", "results")
    )
    await_timepoint = operand_def(TIMEPOINT_CONSTRAINT, type=TIMEPOINT)
    sync: Attribute | None = attr_def(UNIT_KIND)
    results_ = result_def(variadic=True, same_as="resource_operands", tied_to="resource_operands")
    assembly_format = (
        "(`sync` $sync^)? $await_timepoint `=` `` `>` $resource_operands `:` "
        "custom<ShapedTypeList>(type($resource_operands), type($results), "
        "$resource_operand_sizes) attr-dict-with-keyword"
    )

    def verify(self) -> None:
        values = self.resource_operands
        for i, value in enumerate(values):
            check_lifetime(self, "operand", i, value.type, ANY_OR_STAGING_RESOURCE)
        check_size_counts(self, [v.type for v in values], self.resource_operand_sizes)
        if [r.type for r in self.results] != [v.type for v in values]:
            raise op_error(self, "result types must match the resource operand types")


@register_op
class TimepointBarrierOp(StreamOp):
    """`%result, %result_timepoint = stream.timepoint.barrier on(A) %x : T{%s} =>
    !stream.timepoint`: the resource (tied) and when it is available."""

    name = "stream.timepoint.barrier"
    is_pure = True
    # A passthrough, like stream.timepoint.await.
    resource = operand_def(ANY_OR_STAGING_RESOURCE, access=Access.READ)
    resource_size = operand_def(INDEX_CONSTRAINT, size_of=("resource", "result"))
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(same_as="resource", tied_to="resource", asm_name="result")
    result_timepoint = result_def(TIMEPOINT, asm_name="result_timepoint")
    assembly_format = (
        ON + "$resource `:` type($resource) `` `{` $resource_size `}` "
        "`=` `` `>` type($result_timepoint) attr-dict-with-keyword"
    )

    def verify(self) -> None:
        check_timepoint(self, "result", 1, self.results[1].type)


@register_op
class TimepointImportOp(EffectsNotModelledOp):
    """`%t = stream.timepoint.import on(A)? %fence : (!hal.fence) => !stream.timepoint`: a
    timepoint reached when the fence is signalled."""

    name = "stream.timepoint.import"
    # IREE's `$operands` (a name Operation has).
    values = operand_def(variadic=True)
    affinity: Attribute | None = attr_def(AFFINITY)
    result_timepoint = result_def(TIMEPOINT)
    assembly_format = ON + (
        "$values `:` `(` type($values) `)` `=` `` `>` type($result_timepoint) "
        "attr-dict-with-keyword"
    )


@register_op
class TimepointExportOp(EffectsNotModelledOp):
    """`%fence = stream.timepoint.export on(A)? %t => (!hal.fence)`: a fence signalled when the
    timepoint is reached."""

    name = "stream.timepoint.export"
    await_timepoint = operand_def(TIMEPOINT_CONSTRAINT)
    affinity: Attribute | None = attr_def(AFFINITY)
    results_ = result_def(variadic=True)
    assembly_format = ON + (
        "$await_timepoint `=` `` `>` `(` type($results) `)` attr-dict-with-keyword"
    )
