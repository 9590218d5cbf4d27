"""stream file ops: `stream.file.constant` and `stream.file.read`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import Location
from streamopt.dialects import register_op
from streamopt.dialects.common import affinity_attrs, check_operand_type
from streamopt.dialects.stream.base import (
    StreamOp,
    _TimelineOpBase,
    check_sized_operand,
    keyword_attributes,
    one_size,
    sized_text,
    split_keywords,
)
from streamopt.ir.core import Access, Value
from streamopt.ir.types import STREAM_FILE, TIMEPOINT, Attribute

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


@register_op
class FileConstantOp(StreamOp):
    """`%f = stream.file.constant on(A) %buf[%o for %n] : !util.buffer{%s} -> !stream.file`: a
    file handle over host data, for `stream.file.read`."""

    __slots__ = ()
    name = "stream.file.constant"
    inherent_attributes = frozenset({"affinity"})
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> FileConstantOp:
        clauses, rest = split_keywords(parts)
        source, offset, length, sized, result_type = rest
        check_operand_type(source, sized.type, location)
        attributes = keyword_attributes(clauses)
        affinity_attrs(clauses, attributes)
        operands = [source, one_size(sized, location), offset, length]
        return cls(operands, [result_type], attributes, location=location)

    @classmethod
    def create(
        cls, source: Value, source_size: Value, offset: Value, length: Value,
        affinity: Attribute | None,
    ) -> FileConstantOp:  # fmt: skip
        attributes: dict[str, Attribute] = {} if affinity is None else {"affinity": affinity}
        return cls([source, source_size, offset, length], [STREAM_FILE], attributes)

    def asm_result_name(self, index: int) -> str | None:
        return "file"

    def print(self, p: Printer) -> None:
        source, size, offset, length = self.operands
        p.write("stream.file.constant")
        self.print_affinity(p)
        p.write(
            f" {p.v(source)}[{p.v(offset)} for {p.v(length)}] : {sized_text(p, source.type, size)}"
            f" -> {self.results[0].type}"
        )
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class FileReadOp(_TimelineOpBase):
    """`%t = stream.file.read on(A) await(%t0) => %f[%fo], %r[%o], %n : !stream.file -> T{%s}
    => !stream.timepoint`: read `%n` bytes of a file into a resource on a queue."""

    __slots__ = ()
    name = "stream.file.read"
    inherent_attributes = frozenset({"affinity"})
    fixed_operand_count = 6

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> FileReadOp:
        clauses, rest = split_keywords(parts)
        source, source_offset, target, target_offset, length, source_type, sized, _ = rest
        check_operand_type(source, source_type, location)
        size = check_sized_operand(target, sized, location)
        attributes = keyword_attributes(clauses)
        affinity_attrs(clauses, attributes)
        operands = [source, source_offset, target, size, target_offset, length]
        if "await" in clauses:
            check_operand_type(clauses["await"], TIMEPOINT, location)
            operands.append(clauses["await"])
        return cls(operands, [TIMEPOINT], attributes, location=location)

    @classmethod
    def create(
        cls, source: Value, source_offset: Value, target: Value, target_size: Value,
        target_offset: Value, length: Value, affinity: Attribute | None,
        await_timepoint: Value | None,
    ) -> FileReadOp:  # fmt: skip
        attributes: dict[str, Attribute] = {} if affinity is None else {"affinity": affinity}
        operands = [source, source_offset, target, target_size, target_offset, length]
        if await_timepoint is not None:
            operands.append(await_timepoint)
        return cls(operands, [TIMEPOINT], attributes)

    def operand_access(self, index: int) -> Access:
        return Access.WRITE if index == 2 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.operands[3] if index == 2 else None

    def print(self, p: Printer) -> None:
        source, source_offset, target, size, target_offset, length = self.operands[:6]
        p.write("stream.file.read")
        self.print_affinity(p)
        if not self.print_await(p):
            p.write(" :")
        p.write(
            f" {p.v(source)}[{p.v(source_offset)}], {p.v(target)}[{p.v(target_offset)}], "
            f"{p.v(length)} : {source.type} -> {sized_text(p, target.type, size)} => "
            "!stream.timepoint"
        )
        p.attr_dict(self, ("affinity",), keyword=True)
