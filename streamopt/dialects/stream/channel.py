"""stream collective channels (`stream.channel.*`) and `stream.context.resolve`, declared with
their effects not modelled: the analyses treat them as ops kept as written."""

from __future__ import annotations

from streamopt.dialects import register_op
from streamopt.dialects.common import STRING, EffectsNotModelledOp, SegmentedOp
from streamopt.dialects.stream.base import AFFINITY, ON
from streamopt.ir.opdef import attr_def, operand_def, result_def
from streamopt.ir.types import (
    INDEX,
    INDEX_CONSTRAINT,
    UTIL_BUFFER_CONSTRAINT,
    Attribute,
    DialectType,
    TypeConstraint,
)

STREAM_CHANNEL = DialectType("!stream.channel")
_CHANNEL = TypeConstraint(
    "A collective communication channel.", lambda t: t == STREAM_CHANNEL, kind="stream.channel"
)


@register_op
class ContextResolveOp(EffectsNotModelledOp):
    """`%device, %queue = stream.context.resolve on(A)? : !hal.device, i64`: the HAL objects
    of an affinity."""

    name = "stream.context.resolve"
    affinity: Attribute | None = attr_def(AFFINITY)
    results_ = result_def(variadic=True)
    assembly_format = ON + "attr-dict `:` type($results)"


@register_op
class ChannelCreateOp(EffectsNotModelledOp, SegmentedOp):
    """`%channel = stream.channel.create on(A)? id(%id)? group("g")? rank(%r)? count(%n)? :
    !stream.channel`: a collective channel."""

    name = "stream.channel.create"
    id = operand_def(UTIL_BUFFER_CONSTRAINT, optional=True)
    group = attr_def(STRING)
    rank = operand_def(INDEX_CONSTRAINT, optional=True)
    count = operand_def(INDEX_CONSTRAINT, optional=True)
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(STREAM_CHANNEL, asm_name="channel", constraint=_CHANNEL)
    assembly_format = ON + (
        "(`id` `(` $id^ `)`)? (`group` `(` $group^ `)`)? (`rank` `(` $rank^ `)`)? "
        "(`count` `(` $count^ `)`)? `:` type($result) attr-dict-with-keyword"
    )


@register_op
class ChannelSplitOp(EffectsNotModelledOp):
    """`%channel = stream.channel.split %c, %color, %key : !stream.channel -> !stream.channel`."""

    name = "stream.channel.split"
    channel = operand_def(_CHANNEL)
    color = operand_def(INDEX_CONSTRAINT)
    key = operand_def(INDEX_CONSTRAINT)
    result = result_def(STREAM_CHANNEL, asm_name="channel", constraint=_CHANNEL)
    assembly_format = (
        "$channel `,` $color `,` $key `:` type($channel) `->` type($result) attr-dict-with-keyword"
    )


@register_op
class ChannelRankOp(EffectsNotModelledOp):
    """`%ccl_rank = stream.channel.rank %c : index`: this participant's rank."""

    name = "stream.channel.rank"
    channel = operand_def(_CHANNEL, type=STREAM_CHANNEL)
    result = result_def(INDEX, asm_name="ccl_rank")
    assembly_format = "$channel `:` type($result) attr-dict-with-keyword"


@register_op
class ChannelCountOp(EffectsNotModelledOp):
    """`%ccl_count = stream.channel.count %c : index`: the number of participants."""

    name = "stream.channel.count"
    channel = operand_def(_CHANNEL, type=STREAM_CHANNEL)
    result = result_def(INDEX, asm_name="ccl_count")
    assembly_format = "$channel `:` type($result) attr-dict-with-keyword"
