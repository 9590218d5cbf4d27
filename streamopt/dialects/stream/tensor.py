"""stream tensor ops: `stream.tensor.import`, `stream.tensor.export` and `stream.tensor.sizeof`,
and the checks of tensor ops streamopt keeps as written."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import Location, error
from streamopt.dialects import register_op, unmodelled_check
from streamopt.dialects.builtin import OpaqueOp, top_level_parts
from streamopt.dialects.common import check_operand_type, require_index_type, split_clauses
from streamopt.dialects.stream.base import (
    ANY_OR_STAGING_LIFETIMES,
    StreamOp,
    check_dims,
    check_lifetime,
    one_size,
    op_attributes,
    sized_text,
    with_affinity,
)
from streamopt.ir.core import Access, Operation, Value
from streamopt.ir.types import INDEX, INDEX_CONSTRAINT, UNIT, Attribute, Type, TypeAttr
from streamopt.parser.parts import ValueList
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


def _encoding_parts(rest: list[Any]) -> tuple[list[Value], list[Any]]:
    """Pull the `{dims}` value list of an encoding out of `rest`."""
    for i, part in enumerate(rest):
        if isinstance(part, ValueList):
            return list(part), rest[:i] + rest[i + 1 :]
    return [], rest


def _print_encoding(p: Printer, encoding: Type, dims: Sequence[Value]) -> str:
    return encoding.text + ("{" + p.values(dims) + "}" if dims else "")


@register_op
class TensorImportOp(StreamOp):
    """`%r = stream.tensor.import on(A) consume? %buf : !util.buffer -> tensor<?x5xf32>{%d} in
    !stream.resource<external>{%s}`: an external buffer as a resource.

    IREE ties the result to the buffer; streamopt does not report that tie, because the buffer
    is not a resource: the import is where a resource's storage starts. `consume` says the
    resource now owns the storage (as a fresh allocation would); without it the storage stays
    borrowed from the buffer's owner.
    """

    __slots__ = ()
    name = "stream.tensor.import"
    inherent_attributes = frozenset({"result_encoding", "consume", "affinity"})
    operand_types = {
        "result_encoding_dims": INDEX_CONSTRAINT,
        "result_size_value": INDEX_CONSTRAINT,
    }
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> TensorImportOp:
        clauses, rest = split_clauses(parts)
        dims, rest = _encoding_parts(rest)
        source, source_type, encoding, result = rest
        check_operand_type(source, source_type, location)
        attributes = op_attributes(clauses)
        attributes["result_encoding"] = TypeAttr(encoding)
        if "consume" in clauses:
            attributes["consume"] = UNIT
        operands = [source, *dims, one_size(result, location)]
        return cls(operands, [result.type], attributes, location=location)

    @classmethod
    def create(
        cls,
        source: Value,
        encoding: Type,
        encoding_dims: Sequence[Value],
        result_type: Type,
        result_size: Value,
        consume: bool = False,
        affinity: Attribute | None = None,
    ) -> TensorImportOp:
        """Import `source` (a `!util.buffer` or `!hal.buffer_view`) as `result_type`."""
        attributes = with_affinity({"result_encoding": TypeAttr(encoding)}, affinity)
        if consume:
            attributes["consume"] = UNIT
        return cls([source, *encoding_dims, result_size], [result_type], attributes)

    @property
    def source(self) -> Value:
        return self.operands[0]

    @property
    def consume(self) -> bool:
        """True for `consume`: ownership of the storage moves to the imported resource."""
        return "consume" in self.attribute_map

    @property
    def result_encoding(self) -> Type:
        encoding = self.attributes["result_encoding"]
        assert isinstance(encoding, TypeAttr)
        return encoding.type

    @property
    def result_encoding_dims(self) -> list[Value]:
        return list(self.operands[1:-1])

    @property
    def result_size_value(self) -> Value:
        return self.operands[-1]

    def operand_access(self, index: int) -> Access:
        if index != 0:
            return Access.NONE
        # The buffer's storage leaves its owner (consume) or is shared with stream (borrowed).
        return Access.CONSUME if self.consume else Access.ESCAPE

    def result_size(self, index: int) -> Value | None:
        return self.operands[-1]

    def verify(self) -> None:
        check_dims(self, self.result_encoding, self.result_encoding_dims)
        check_lifetime(self, "result", 0, self.result.type, ANY_OR_STAGING_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write("stream.tensor.import")
        self.print_affinity(p)
        if self.consume:
            p.write(" consume")
        p.write(
            f" {p.v(self.source)} : {type_text(self.source.type)} -> "
            f"{_print_encoding(p, self.result_encoding, self.result_encoding_dims)} in "
            f"{sized_text(p, self.result.type, self.result_size_value)}"
        )
        p.attr_dict(self, ("affinity", "result_encoding", "consume"), keyword=True)


@register_op
class TensorExportOp(StreamOp):
    """`%b = stream.tensor.export on(A) %x : tensor<4xf32> in !stream.resource<external>{%s} ->
    !util.buffer`: hands the resource's storage out (it escapes; IREE's tie to the result is
    not reported, as for import)."""

    __slots__ = ()
    name = "stream.tensor.export"
    inherent_attributes = frozenset({"source_encoding", "affinity"})
    operand_types = {"source_encoding_dims": INDEX_CONSTRAINT, "source_size": INDEX_CONSTRAINT}
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> TensorExportOp:
        clauses, rest = split_clauses(parts)
        dims, rest = _encoding_parts(rest)
        source, encoding, source_sized, result_type = rest
        check_operand_type(source, source_sized.type, location)
        attributes = op_attributes(clauses)
        attributes["source_encoding"] = TypeAttr(encoding)
        operands = [source, *dims, one_size(source_sized, location)]
        return cls(operands, [result_type], attributes, location=location)

    @classmethod
    def create(
        cls,
        source: Value,
        encoding: Type,
        encoding_dims: Sequence[Value],
        source_size: Value,
        result_type: Type,
        affinity: Attribute | None = None,
    ) -> TensorExportOp:
        """Export `source` as `result_type` (a `!util.buffer` or `!hal.buffer_view`)."""
        attributes = with_affinity({"source_encoding": TypeAttr(encoding)}, affinity)
        return cls([source, *encoding_dims, source_size], [result_type], attributes)

    @property
    def source(self) -> Value:
        return self.operands[0]

    @property
    def source_encoding(self) -> Type:
        encoding = self.attributes["source_encoding"]
        assert isinstance(encoding, TypeAttr)
        return encoding.type

    @property
    def source_encoding_dims(self) -> list[Value]:
        return list(self.operands[1:-1])

    @property
    def source_size(self) -> Value:
        return self.operands[-1]

    def operand_access(self, index: int) -> Access:
        return Access.ESCAPE if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.operands[-1] if index == 0 else None

    def verify(self) -> None:
        check_dims(self, self.source_encoding, self.source_encoding_dims)
        check_lifetime(self, "operand", 0, self.source.type, ANY_OR_STAGING_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write("stream.tensor.export")
        self.print_affinity(p)
        p.write(
            f" {p.v(self.source)} : "
            f"{_print_encoding(p, self.source_encoding, self.source_encoding_dims)} in "
            f"{sized_text(p, self.source.type, self.source_size)} -> {self.result.type}"
        )
        p.attr_dict(self, ("affinity", "source_encoding"), keyword=True)


@register_op
class TensorSizeOfOp(StreamOp):
    """`%s = stream.tensor.sizeof on(A) tensor<?x4xf32>{%d} : index`: storage size of a type."""

    __slots__ = ()
    name = "stream.tensor.sizeof"
    inherent_attributes = frozenset({"encoding", "affinity"})
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> TensorSizeOfOp:
        clauses, rest = split_clauses(parts)
        dims, rest = _encoding_parts(rest)
        attributes = op_attributes(clauses)
        encoding, *middle, result_type = rest
        require_index_type(cls.name, result_type, location)
        for part in middle:
            attributes = {**part, **attributes}
        attributes["encoding"] = TypeAttr(encoding)
        return cls(dims, [result_type], attributes, location=location)

    @classmethod
    def create(
        cls,
        encoding: Type,
        encoding_dims: Sequence[Value] = (),
        affinity: Attribute | None = None,
    ) -> TensorSizeOfOp:
        """The storage size of `encoding` (a tensor type) with its dynamic dims."""
        attributes = with_affinity({"encoding": TypeAttr(encoding)}, affinity)
        return cls(list(encoding_dims), [INDEX], attributes)

    @property
    def encoding(self) -> Type:
        encoding = self.attributes["encoding"]
        assert isinstance(encoding, TypeAttr)
        return encoding.type

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def verify(self) -> None:
        check_dims(self, self.encoding, self.operands)

    def print(self, p: Printer) -> None:
        p.write("stream.tensor.sizeof")
        self.print_affinity(p)
        p.write(" " + _print_encoding(p, self.encoding, self.operands))
        p.attr_dict(self, ("affinity", "encoding"))
        p.write(f" : {self.result.type}")


# -- ops kept as written, checked as IREE's verifiers check them ---------------------------


def _encoding(entry: str) -> str:
    """The encoding type of an encoded shaped type entry (`tensor<?xf32>{%d} in ...`)."""
    return top_level_parts(top_level_parts(entry, " in ")[0], "{")[0]


@unmodelled_check("stream.tensor.dispatch")
def _check_tensor_dispatch(op: Operation) -> None:
    """verifyTiedOperandEncodings of TensorDispatchOp::verify: a result tied to an operand
    (`-> tensor<4xf32>{...} in %operand{%size}`) has the encoding that operand is given in
    the function type, read off the kept text."""
    if not isinstance(op, OpaqueOp):
        return
    text = op.written_text(value_ids=True)
    written = op.trailing_type_text(value_ids=True)
    # The operand list is the first `(` after the entry points (`on(...)` comes before).
    entry = text.find(" @")
    open_paren = text.find("(", entry) if entry >= 0 else -1
    if written is None or open_paren < 0:
        return
    arguments = top_level_parts(text[open_paren + 1 :], ")")[0]
    names = [name for name in top_level_parts(arguments, ",") if name]
    sides = top_level_parts(written, "->")
    if len(sides) != 2 or not (sides[0].startswith("(") and sides[0].endswith(")")):
        return
    operand_entries = [e for e in top_level_parts(sides[0][1:-1], ",") if e]
    encodings = [
        _encoding(e) if len(top_level_parts(e, " in ")) == 2 else None for e in operand_entries
    ]
    results = sides[1]
    if results.startswith("(") and results.endswith(")"):
        results = results[1:-1]
    for result in top_level_parts(results, ","):
        parts = top_level_parts(result, " in ")
        if len(parts) != 2 or not parts[1].startswith("%v"):
            continue
        tied = top_level_parts(parts[1], "{")[0]
        if tied not in names:
            continue
        index = names.index(tied)
        operand_encoding = encodings[index] if index < len(encodings) else None
        result_encoding = _encoding(result)
        if operand_encoding is None:
            continue
        if operand_encoding.replace(" ", "") != result_encoding.replace(" ", ""):
            raise error(
                f"the {index}-th operandEncoding ({operand_encoding}) does not match the "
                f"resultEncoding ({result_encoding})",
                op.location,
            )
