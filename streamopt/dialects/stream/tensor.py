"""stream tensor ops: `stream.tensor.import`, `stream.tensor.export` and `stream.tensor.sizeof`,
and the checks of tensor ops streamopt keeps as written."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from streamopt.diagnostics import DiagnosticError, error
from streamopt.dialects import register_op, unmodelled_check, unmodelled_parse_check
from streamopt.dialects.builtin import OpaqueOp, top_level_parts
from streamopt.dialects.common import TYPE, op_error, require_index_type
from streamopt.dialects.stream.base import (
    AFFINITY,
    ANY_OR_STAGING_RESOURCE,
    ANY_RESOURCE,
    ANY_RESOURCE_OR_PRIMITIVE,
    ON,
    StreamOp,
    check_dims,
    check_lifetime,
    check_variadic_results,
)
from streamopt.ir.core import Access, Operation
from streamopt.ir.opdef import UNIT_KIND, attr_def, operand_def, result_def
from streamopt.ir.types import INDEX, INDEX_CONSTRAINT, Attribute, Type
from streamopt.lazy_regex import lazy_compile
from streamopt.parser import token_values
from streamopt.parser.lalr import make_token
from streamopt.records import Record

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder


@register_op
class TensorImportOp(StreamOp):
    """`%r = stream.tensor.import on(A) consume? %buf : !util.buffer -> tensor<?x5xf32>{%d} in
    !stream.resource<external>{%s}`: an external buffer as a resource.

    IREE ties the result to the buffer; streamopt does not report that tie, because the buffer
    is not a resource: the import is where a resource's storage starts, and the alias analysis
    makes every import of one buffer a name of the first one's storage. `consume` says the
    resource now owns the storage (as a fresh allocation would); without it the storage stays
    borrowed from the buffer's owner.
    """

    name = "stream.tensor.import"
    is_pure = True
    source = operand_def()
    result_encoding: Type = attr_def(TYPE)
    result_encoding_dims = operand_def(INDEX_CONSTRAINT, variadic=True)
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    consume: Attribute | None = attr_def(UNIT_KIND)
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def()
    assembly_format = ON + (
        "(`consume` $consume^)? $source `:` type($source) `->` $result_encoding "
        "(`` `{` $result_encoding_dims^ `}`)? `in` type($result) `{` $result_size `}` "
        "attr-dict-with-keyword"
    )

    def operand_access(self, index: int) -> Access:
        if index != 0:
            return Access.NONE
        # The buffer's storage leaves its owner (consume) or is shared with stream (borrowed).
        return Access.CONSUME if self.consume else Access.ESCAPE

    def verify(self) -> None:
        check_dims(self, self.result_encoding, self.result_encoding_dims)
        check_lifetime(self, "result", 0, self.result.type, ANY_OR_STAGING_RESOURCE)


@register_op
class TensorExportOp(StreamOp):
    """`%b = stream.tensor.export on(A) %x : tensor<4xf32> in !stream.resource<external>{%s} ->
    !util.buffer`: hands the resource's storage out (it escapes; IREE's tie to the result is
    not reported, as for import)."""

    name = "stream.tensor.export"
    is_pure = True
    source = operand_def(ANY_OR_STAGING_RESOURCE, access=Access.ESCAPE)
    source_encoding: Type = attr_def(TYPE)
    source_encoding_dims = operand_def(INDEX_CONSTRAINT, variadic=True)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def()
    assembly_format = ON + (
        "$source `:` $source_encoding (`` `{` $source_encoding_dims^ `}`)? `in` type($source) "
        "`` `{` $source_size `}` `->` type($result) attr-dict-with-keyword"
    )

    def verify(self) -> None:
        check_dims(self, self.source_encoding, self.source_encoding_dims)


@register_op
class TensorSizeOfOp(StreamOp):
    """`%s = stream.tensor.sizeof on(A) tensor<?x4xf32>{%d} : index`: storage size of a type."""

    name = "stream.tensor.sizeof"
    is_pure = True
    encoding: Type = attr_def(TYPE)
    encoding_dims = operand_def(INDEX_CONSTRAINT, variadic=True)
    affinity: Attribute | None = attr_def(AFFINITY)
    storage_size = result_def(INDEX, check=partial(require_index_type, "stream.tensor.sizeof"))
    assembly_format = ON + (
        "$encoding (`{` $encoding_dims^ `}`)? attr-dict `:` type($storage_size)"
    )

    def verify(self) -> None:
        check_dims(self, self.encoding, self.encoding_dims)


# -- ops kept as written, checked as IREE's verifiers check them ---------------------------


def _encoding(entry: str) -> str:
    """The encoding type of an encoded shaped type entry (`tensor<?xf32>{%d} in ...`)."""
    return top_level_parts(top_level_parts(entry, " in ")[0], "{")[0]


class _Signature(Record):
    """What a stream.tensor.dispatch kept as written says of its operands and results: the
    `(...)` operand list (values spelled `%vN`, N the first operand that is the value), the
    function type's operand and result entries, and how many workload values come first."""

    names: list[str]
    operands: list[str]
    results: list[str]
    workload: int


def _signature(op: OpaqueOp) -> _Signature | None:
    text = op.written_text(value_ids=True)
    written = op.trailing_type_text(value_ids=True)
    # The operand list is the first `(` after the entry points (`on(...)` comes before).
    entry = text.find(" @")
    open_paren = text.find("(", entry) if entry >= 0 else -1
    if written is None or open_paren < 0:
        return None
    arguments = top_level_parts(text[open_paren + 1 :], ")")[0]
    names = [name for name in top_level_parts(arguments, ",") if name]
    sides = top_level_parts(written, "->")
    if len(sides) != 2 or not (sides[0].startswith("(") and sides[0].endswith(")")):
        return None
    operands = [e for e in top_level_parts(sides[0][1:-1], ",") if e]
    results = sides[1]
    if results.startswith("(") and results.endswith(")"):
        results = results[1:-1]
    return _Signature(
        names,
        operands,
        [r for r in top_level_parts(results, ",") if r],
        text[entry:open_paren].count("%v"),
    )


def _entry_type(op: OpaqueOp, entry: str) -> Type | None:
    """The type an entry of the function type gives its value: the resource of `T{%d} in
    R{%s}`, the operand's of a tied `T in %vN{%s}`, else the type itself (`index`)."""
    spelled = top_level_parts(top_level_parts(entry, " in ")[-1], "{")[0]
    if spelled.startswith("%v"):
        return op.operands[int(spelled[2:])].type
    try:
        return token_values.type_from_text(spelled)
    except (DiagnosticError, ValueError):
        return None


@unmodelled_parse_check("stream.tensor.dispatch")
def _type_tensor_dispatch(b: Builder, op: Operation) -> None:
    """As IREE's parser: each value of the operand list has the type the function type gives
    it (a use of another type is refused at the value), and each result its type."""
    if not isinstance(op, OpaqueOp):
        return
    signature = _signature(op)
    if signature is None or len(signature.names) != len(signature.operands):
        return
    # The values of the operand list as written, for where a mismatch is reported.
    text = b.parsed_text
    start = b.source.offset_of(op.location)
    end = text.find("\n", start)
    entry = text.find(" @", start, end)
    open_paren = text.find("(", entry, end) if entry >= 0 else -1
    close_paren = text.find(")", open_paren, end)
    if open_paren < 0 or close_paren < 0:
        return
    written = list(_VALUE.finditer(text, open_paren + 1, close_paren))
    if len(written) != len(signature.names):
        return
    for name, entry_text, use in zip(signature.names, signature.operands, written):
        type = _entry_type(op, entry_text)
        if type is not None:
            token = make_token("VALUE_ID", use[0], use.start(), use.end())
            b.check_type(op.operands[int(name[2:])], type, token)
    if len(signature.results) == len(op.results):
        for result, entry_text in zip(op.results, signature.results):
            result.type = _entry_type(op, entry_text)


_VALUE = lazy_compile(r"%[^\s,)]+")


@unmodelled_check("stream.tensor.dispatch")
def _check_tensor_dispatch(op: Operation) -> None:
    """The operand and result constraints of TensorDispatchOp (resources but staging, and
    primitive operands), then verifyTiedOperandEncodings of its verifier: a result tied to an
    operand (`-> tensor<4xf32>{...} in %operand{%size}`) has the encoding that operand is
    given in the function type, read off the kept text."""
    if not isinstance(op, OpaqueOp):
        return
    signature = _signature(op)
    if signature is None:
        return
    names = signature.names
    for index, name in enumerate(names):
        type = op.operands[int(name[2:])].type
        if type is not None and not ANY_RESOURCE_OR_PRIMITIVE.accepts(type):
            raise op_error(
                op,
                f"operand #{signature.workload + index} must be variadic of "
                f"{ANY_RESOURCE_OR_PRIMITIVE.description}, but got '{type}'",
            )
    check_variadic_results(op, [r for r in op.results if r.type is not None], ANY_RESOURCE)
    encodings = [
        _encoding(e) if len(top_level_parts(e, " in ")) == 2 else None for e in signature.operands
    ]
    for result in signature.results:
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
