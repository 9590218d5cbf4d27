"""stream tensor ops: `stream.tensor.import`, `stream.tensor.export`, `stream.tensor.sizeof` and
`stream.tensor.dispatch`."""

from __future__ import annotations

from typing import Any

from streamopt.diagnostics import error
from streamopt.dialects import register_op
from streamopt.dialects.common import TIED_OPERANDS, TYPE, TYPE_ARRAY
from streamopt.dialects.stream.async_control import TiedResourcesOp
from streamopt.dialects.stream.base import (
    AFFINITY,
    ANY_OR_STAGING_RESOURCE,
    ANY_RESOURCE,
    ANY_RESOURCE_OR_PRIMITIVE,
    ARRAY,
    ON,
    StreamOp,
    check_dims,
    check_lifetime,
    check_variadic_results,
    verify_workload,
)
from streamopt.ir.core import Access
from streamopt.ir.opdef import UNIT_KIND, attr_def, operand_def, result_def
from streamopt.ir.types import INDEX, INDEX_CONSTRAINT, Attribute, Type


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
        check_dims(self, [self.result_encoding], self.result_encoding_dims)
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
        check_dims(self, [self.source_encoding], self.source_encoding_dims)


@register_op
class TensorSizeOfOp(StreamOp):
    """`%s = stream.tensor.sizeof on(A) tensor<?x4xf32>{%d} : index`: storage size of a type."""

    name = "stream.tensor.sizeof"
    is_pure = True
    encoding: Type = attr_def(TYPE)
    encoding_dims = operand_def(INDEX_CONSTRAINT, variadic=True)
    affinity: Attribute | None = attr_def(AFFINITY)
    storage_size = result_def(INDEX)
    assembly_format = ON + (
        "$encoding (`{` $encoding_dims^ `}`)? attr-dict `:` type($storage_size)"
    )

    def verify(self) -> None:
        check_dims(self, [self.encoding], self.encoding_dims)


@register_op
class TensorDispatchOp(TiedResourcesOp):
    """`%r = stream.tensor.dispatch on(A) @ex::@fn[%w](%x, %c) : (tensor<?x4xf32>{%d} in
    !stream.resource<*>{%s}, index) -> tensor<?x4xf32>{%d} in %x{%s}`: stream.async.dispatch
    before encodings are resolved, each operand and result with its tensor encoding.

    It answers as stream.async.dispatch does, IREE's semantics being the same: pure, its
    resource operands read and, when a result is tied to one, written in place (the result is
    that operand's storage); its other results are new resources."""

    name = "stream.tensor.dispatch"
    operand_types_first = True
    is_pure = True
    workload = operand_def(INDEX_CONSTRAINT, variadic=True)
    entry_points: list[Attribute] = attr_def(ARRAY)
    mixed_operands = operand_def(ANY_RESOURCE_OR_PRIMITIVE, variadic=True, access=Access.READ)
    operand_sizes = operand_def(INDEX_CONSTRAINT, variadic=True, size_of="mixed_operands")
    operand_encodings: list[Type] = attr_def(TYPE_ARRAY)
    operand_encoding_dims = operand_def(INDEX_CONSTRAINT, variadic=True)
    result_sizes = operand_def(INDEX_CONSTRAINT, variadic=True, size_of="results")
    result_encodings: list[Type] = attr_def(TYPE_ARRAY)
    result_encoding_dims = operand_def(INDEX_CONSTRAINT, variadic=True)
    tied_operands = attr_def(TIED_OPERANDS)
    affinity: Attribute | None = attr_def(AFFINITY)
    results_ = result_def(variadic=True, tied_to="mixed_operands")
    assembly_format = ON + (
        "custom<DispatchEntryPoints>($entry_points) (`[` $workload^ `]`)? `` "
        "`(` $mixed_operands `)` attr-dict `:` custom<EncodedShapedFunctionType>("
        "ref($mixed_operands), type($mixed_operands), $operand_sizes, $operand_encodings, "
        "$operand_encoding_dims, type($results), $result_sizes, $result_encodings, "
        "$result_encoding_dims, $tied_operands)"
    )

    def verify(self) -> None:
        check_variadic_results(self, self.results_, ANY_RESOURCE)
        super().verify()
        check_dims(self, self.operand_encodings, self.operand_encoding_dims)
        check_dims(self, self.result_encodings, self.result_encoding_dims)
        # verifyTiedOperandEncodings: a result tied to an operand has that operand's encoding
        # (compared as written, but for spaces).
        operand_encodings = self.operand_encodings
        for tied, encoding in zip(self.tied_operands or (), self.result_encodings):
            if tied is None:
                continue
            found = operand_encodings[tied]
            if found.text.replace(" ", "") != encoding.text.replace(" ", ""):
                raise error(
                    f"the {tied}-th operandEncoding ({found}) does not match the "
                    f"resultEncoding ({encoding})",
                    self.location,
                )

    def verify_in_module(self, context: Any) -> None:
        verify_workload(self, self.entry_points, len(self.workload), context)
