"""stream parameter ops (`stream.async.parameter.load`, `read` and `write`: a model's weights
read from or written to a parameter archive), declared with their effects not modelled: the
analyses treat them as ops kept as written."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from streamopt.dialects import register_op
from streamopt.dialects.common import EffectsNotModelledOp, SegmentedOp, check_operand_type
from streamopt.dialects.stream.base import AFFINITY, ANY_RESOURCE, ON
from streamopt.ir.opdef import CustomDirective, attr_def, custom_directive, operand_def, result_def
from streamopt.ir.types import (
    I64_CONSTRAINT,
    INDEX_CONSTRAINT,
    TIMEPOINT,
    TIMEPOINT_CONSTRAINT,
    UTIL_BUFFER,
    UTIL_BUFFER_CONSTRAINT,
    Attribute,
)

if TYPE_CHECKING:
    from streamopt.ir.opdef import DeclaredOp, FormatReader
    from streamopt.printer import Printer


def _parse_parameter_reference(
    reader: FormatReader, part: Any, args: Sequence[tuple[str, str]]
) -> None:
    *scope, key = part.children  # A parser.lalr.Tree: `%scope::%key` or `%key`.
    for value in part.children:
        check_operand_type(value, UTIL_BUFFER, reader.location)
    reader.operands[args[0][1]] = scope[0] if scope else None
    reader.operands[args[1][1]] = key


def _print_parameter_reference(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    scope, key = (op.definition.field_value(op, name) for _, name in args)
    return f"{p.v(scope)}::{p.v(key)}" if scope is not None else p.v(key)


# custom<ParameterReference>($scope, $key): `%scope::%key`, or `%key` in no scope.
custom_directive(
    "ParameterReference",
    CustomDirective(
        "stream_parameter_reference", _parse_parameter_reference, _print_parameter_reference
    ),
)

_AWAIT = "(`await` `(` $await_timepoint^ `)`)? "


@register_op
class AsyncParameterLoadOp(EffectsNotModelledOp, SegmentedOp):
    """`%result, %result_timepoint = stream.async.parameter.load on(A)? await(%t)?
    %scope::%key[%offset] : T{%size} => !stream.timepoint`: a new resource holding the
    parameter's bytes."""

    name = "stream.async.parameter.load"
    await_timepoint = operand_def(TIMEPOINT_CONSTRAINT, optional=True)
    source_scope = operand_def(UTIL_BUFFER_CONSTRAINT, optional=True)
    source_key = operand_def(UTIL_BUFFER_CONSTRAINT)
    source_offset = operand_def(I64_CONSTRAINT)
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(asm_name="result", constraint=ANY_RESOURCE)
    result_timepoint = result_def(TIMEPOINT, asm_name="result_timepoint")
    assembly_format = (
        ON
        + _AWAIT
        + (
            "custom<ParameterReference>($source_scope, $source_key) `` `[` $source_offset `]` `:` "
            "type($result) `` `{` $result_size `}` `=` `` `>` type($result_timepoint) "
            "attr-dict-with-keyword"
        )
    )


@register_op
class AsyncParameterReadOp(EffectsNotModelledOp, SegmentedOp):
    """`%result, %result_timepoint = stream.async.parameter.read on(A)? await(%t)?
    %scope::%key[%offset] -> %target[%o to %e for %n] : T{%size} => !stream.timepoint`: the
    parameter's bytes read into a range of the target."""

    name = "stream.async.parameter.read"
    target = operand_def(ANY_RESOURCE)
    target_size = operand_def(INDEX_CONSTRAINT, size_of=("target", "result"))
    target_offset = operand_def(INDEX_CONSTRAINT)
    target_end = operand_def(INDEX_CONSTRAINT)
    target_length = operand_def(INDEX_CONSTRAINT)
    source_scope = operand_def(UTIL_BUFFER_CONSTRAINT, optional=True)
    source_key = operand_def(UTIL_BUFFER_CONSTRAINT)
    source_offset = operand_def(I64_CONSTRAINT)
    await_timepoint = operand_def(TIMEPOINT_CONSTRAINT, optional=True)
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(asm_name="result", same_as="target")
    result_timepoint = result_def(TIMEPOINT, asm_name="result_timepoint")
    assembly_format = (
        ON
        + _AWAIT
        + (
            "custom<ParameterReference>($source_scope, $source_key) `` `[` $source_offset `]` `->` "
            "$target `` `[` $target_offset `to` $target_end `for` $target_length `]` `:` "
            "type($target) `` `{` $target_size `}` `=` `` `>` type($result_timepoint) "
            "attr-dict-with-keyword"
        )
    )


@register_op
class AsyncParameterWriteOp(EffectsNotModelledOp, SegmentedOp):
    """`%result, %result_timepoint = stream.async.parameter.write on(A)? await(%t)?
    %source[%o to %e for %n] -> %scope::%key[%offset] : T{%size} => !stream.timepoint`: a
    range of the source written to the parameter."""

    name = "stream.async.parameter.write"
    source = operand_def(ANY_RESOURCE)
    source_size = operand_def(INDEX_CONSTRAINT, size_of=("source", "result"))
    source_offset = operand_def(INDEX_CONSTRAINT)
    source_end = operand_def(INDEX_CONSTRAINT)
    source_length = operand_def(INDEX_CONSTRAINT)
    target_scope = operand_def(UTIL_BUFFER_CONSTRAINT, optional=True)
    target_key = operand_def(UTIL_BUFFER_CONSTRAINT)
    target_offset = operand_def(I64_CONSTRAINT)
    await_timepoint = operand_def(TIMEPOINT_CONSTRAINT, optional=True)
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(asm_name="result", same_as="source")
    result_timepoint = result_def(TIMEPOINT, asm_name="result_timepoint")
    assembly_format = (
        ON
        + _AWAIT
        + (
            "$source `` `[` $source_offset `to` $source_end `for` $source_length `]` `->` "
            "custom<ParameterReference>($target_scope, $target_key) `` `[` $target_offset `]` `:` "
            "type($source) `` `{` $source_size `}` `=` `` `>` type($result_timepoint) "
            "attr-dict-with-keyword"
        )
    )
