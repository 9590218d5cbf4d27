"""Which bytes of its storage a use reads or writes.

Slice folding and update elision (`--elide-async-copies`) reason about byte ranges: a slice
may be read in place while nothing writes the bytes it copied, and an update may be dropped
when nothing reads the bytes it wrote before they are written again. `use_range` says, for
the ops whose operands name a range (`[offset to end]`), which range a use touches and how;
`disjoint` and `same_range` compare two ranges, proving only what constant offsets show.
"""

from __future__ import annotations

from dataclasses import dataclass

from streamopt.dialects.arith import ConstantOp
from streamopt.dialects.stream import (
    AsyncCopyOp,
    AsyncDispatchOp,
    AsyncFillOp,
    AsyncSliceOp,
    AsyncUpdateOp,
)
from streamopt.ir.core import Access, Operation, Value
from streamopt.ir.types import ResourceType


@dataclass(frozen=True)
class ByteRange:
    """Bytes [`offset`, `end`) of a storage, touched as `access` says."""

    offset: Value
    end: Value
    access: Access

    @property
    def writes_only(self) -> bool:
        return bool(self.access & Access.WRITE) and not self.access & Access.READ


def use_range(op: Operation, index: int) -> ByteRange | None:
    """The bytes operand `index` of `op` touches, or None when `op` does not say (the whole
    storage, or an op without ranges)."""
    if isinstance(op, AsyncFillOp) and index == 0:
        return ByteRange(op.target_offset, op.target_end, Access.WRITE)
    if isinstance(op, AsyncUpdateOp) and index == 0:
        return ByteRange(op.target_offset, op.target_end, Access.WRITE)
    if isinstance(op, AsyncCopyOp):
        if index == 0:
            return ByteRange(op.target_offset, op.target_end, Access.WRITE)
        if index == 4:
            return ByteRange(op.source_offset, op.source_end, Access.READ)
    if isinstance(op, AsyncSliceOp) and index == 0:
        return ByteRange(op.source_offset, op.source_end, Access.READ)
    if isinstance(op, AsyncDispatchOp):
        position = dispatch_range_position(op, index)
        if position is not None:
            offsets = op.segment(3)
            ends = op.segment(4)
            return ByteRange(offsets[position], ends[position], op.operand_access(index))
    return None


def dispatch_range_position(op: AsyncDispatchOp, index: int) -> int | None:
    """For a resource operand of a dispatch, its position among the ranged operands (the
    offsets, ends, lengths and sizes segments list those only)."""
    position = index - op.segments[0]
    if position < 0 or position >= op.segments[1]:
        return None
    ranged = [i for i, v in enumerate(op.resource_operands) if isinstance(v.type, ResourceType)]
    return ranged.index(position) if position in ranged else None


def constant_index(value: Value) -> int | None:
    """The integer `value` is when an `arith.constant` defines it."""
    producer = value.defining_op
    return producer.int_value if isinstance(producer, ConstantOp) else None


def same_index(a: Value, b: Value) -> bool:
    """True if `a` and `b` are provably the same number."""
    if a is b:
        return True
    x, y = constant_index(a), constant_index(b)
    return x is not None and x == y


def same_range(a: ByteRange, b: ByteRange) -> bool:
    return same_index(a.offset, b.offset) and same_index(a.end, b.end)


def disjoint(a: ByteRange, b: ByteRange) -> bool:
    """True if the two ranges provably share no byte (constant bounds, or one ends where the
    other starts)."""
    if same_index(a.end, b.offset) or same_index(b.end, a.offset):
        return True
    bounds = [constant_index(v) for v in (a.offset, a.end, b.offset, b.end)]
    if any(bound is None for bound in bounds):
        return False
    a_start, a_end, b_start, b_end = bounds
    assert a_start is not None and a_end is not None and b_start is not None
    assert b_end is not None
    return a_end <= b_start or b_end <= a_start or a_start >= a_end or b_start >= b_end
