"""stream file ops: `stream.file.constant`, `stream.file.read` and `stream.file.write`."""

from __future__ import annotations

from streamopt.dialects import register_op
from streamopt.dialects.common import EffectsNotModelledOp
from streamopt.dialects.stream.base import (
    AFFINITY,
    ANY_RESOURCE,
    StreamOp,
    TimelineOp,
    require_resource,
)
from streamopt.ir.core import Access
from streamopt.ir.opdef import attr_def, operand_def, result_def
from streamopt.ir.types import (
    I64_CONSTRAINT,
    INDEX_CONSTRAINT,
    STREAM_FILE,
    TIMEPOINT,
    TIMEPOINT_CONSTRAINT,
    Attribute,
    TypeConstraint,
)


@register_op
class FileConstantOp(StreamOp):
    """`%f = stream.file.constant on(A) %buf[%o for %n] : !util.buffer{%s} -> !stream.file`: a
    file handle over host data, for `stream.file.read`."""

    name = "stream.file.constant"
    is_pure = True
    source = operand_def()
    source_size = operand_def(size_of="source")
    source_offset = operand_def()
    source_length = operand_def()
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(STREAM_FILE, asm_name="file")
    assembly_format = (
        "(`on` `(` $affinity^ `)`)? $source `[` $source_offset `for` $source_length `]` `:` "
        "type($source) `` `{` $source_size `}` `->` type($result) attr-dict-with-keyword"
    )


@register_op
class FileReadOp(TimelineOp):
    """`%t = stream.file.read on(A) await(%t0) => %f[%fo], %r[%o], %n : !stream.file -> T{%s}
    => !stream.timepoint`: read `%n` bytes of a file into a resource on a queue."""

    name = "stream.file.read"
    source = operand_def()
    source_offset = operand_def()
    target = operand_def(ANY_RESOURCE, access=Access.WRITE, check=require_resource)
    target_size = operand_def(size_of="target")
    target_offset = operand_def()
    length = operand_def()
    await_timepoint = operand_def(TIMEPOINT_CONSTRAINT, optional=True, type=TIMEPOINT)
    affinity: Attribute | None = attr_def(AFFINITY)
    result_timepoint = result_def(TIMEPOINT)
    assembly_format = (
        "(`on` `(` $affinity^ `)`)? (`await` `(` $await_timepoint^ `)` `=` `` `>`):(`:`)? "
        "$source `[` $source_offset `]` `,` $target `[` $target_offset `]` `,` $length `:` "
        "type($source) `->` type($target) `` `{` $target_size `}` `=` `` `>` "
        "type($result_timepoint) attr-dict-with-keyword"
    )


_FILE = TypeConstraint(
    "A file handle used for I/O operations.", lambda t: t == STREAM_FILE, kind="stream.file"
)


@register_op
class FileWriteOp(EffectsNotModelledOp):
    """`%t = stream.file.write on(A) await(%t0) => %r[%o], %f[%fo], %n : T{%s} -> !stream.file
    => !stream.timepoint`: write `%n` bytes of a resource to a file on a queue."""

    name = "stream.file.write"
    source = operand_def(ANY_RESOURCE)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    source_offset = operand_def(INDEX_CONSTRAINT)
    target = operand_def(_FILE)
    target_offset = operand_def(I64_CONSTRAINT)
    length = operand_def(INDEX_CONSTRAINT)
    await_timepoint = operand_def(TIMEPOINT_CONSTRAINT, optional=True)
    affinity: Attribute | None = attr_def(AFFINITY)
    result_timepoint = result_def(TIMEPOINT)
    assembly_format = (
        "(`on` `(` $affinity^ `)`)? (`await` `(` $await_timepoint^ `)` `=` `` `>`):(`:`)? "
        "$source `[` $source_offset `]` `,` $target `[` $target_offset `]` `,` $length `:` "
        "type($source) `` `{` $source_size `}` `->` type($target) `=` `` `>` "
        "type($result_timepoint) attr-dict-with-keyword"
    )
