"""stream tensor ops: `stream.tensor.import`, `stream.tensor.export`, `stream.tensor.sizeof` and
`stream.tensor.dispatch`, and the tensor ops declared with their effects not modelled (empty,
constant, splat, clone, encode, slice, update, fill, load, store)."""

from __future__ import annotations

from typing import Any

from streamopt.diagnostics import error
from streamopt.dialects import register_op
from streamopt.dialects.common import (
    ANY_ATTRIBUTE,
    TIED_OPERANDS,
    TYPE,
    TYPE_ARRAY,
    EffectsNotModelledOp,
    SegmentedOp,
    op_error,
)
from streamopt.dialects.stream.async_control import TiedResourcesOp
from streamopt.dialects.stream.base import (
    AFFINITY,
    ANY_OR_STAGING_RESOURCE,
    ANY_RESOURCE,
    ANY_RESOURCE_OR_PRIMITIVE,
    ARRAY,
    ON,
    STAGING_RESOURCE,
    StreamOp,
    check_dims,
    check_lifetime,
    check_variadic_results,
    verify_workload,
)
from streamopt.ir.core import Access, Operation
from streamopt.ir.opdef import UNIT_KIND, attr_def, operand_def, result_def
from streamopt.ir.types import (
    INDEX,
    INDEX_CONSTRAINT,
    Attribute,
    ShapedType,
    Type,
    TypeConstraint,
    is_primitive,
)


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


# -- declared, effects not modelled -----------------------------------------------------------
# The tensor ops IREE converts to async ops (stream encode-host-tensors): their syntax and
# verifiers, but no analysis reads them (EffectsNotModelledOp).

# IREE's Stream_PrimitiveType, and it or a vector (what a tensor load or store moves).
_PRIMITIVE = TypeConstraint("index or integer or floating-point or complex-type", is_primitive)
_PRIMITIVE_OR_VECTOR = TypeConstraint(
    _PRIMITIVE.description + " or vector of any non-token type values",
    lambda t: is_primitive(t) or (t.text.startswith("vector<") and t.text != "vector<>"),
)


def _encoding(field: str) -> str:
    """`$x_encoding (`` `{` $x_encoding_dims^ `}`)?`: a tensor type and its dynamic dims."""
    return f"${field}_encoding (`` `{{` ${field}_encoding_dims^ `}}`)? "


def _encoded(field: str) -> str:
    """Field `field`'s encoding and sized type: `tensor<?xf32>{%d} in T{%size}`."""
    return _encoding(field) + f"`in` type(${field}) `` `{{` ${field}_size `}}` "


def _check_rank(op: Operation, encoding: Type, count: int, what: str) -> None:
    rank = len(encoding.shape) if isinstance(encoding, ShapedType) else 0
    if count != rank:
        raise op_error(op, f"{what} rank mismatch")


def _indices() -> Any:
    """A list of `index` operands (dynamic dimensions, start indices, lengths)."""
    return operand_def(INDEX_CONSTRAINT, variadic=True)


@register_op
class TensorEmptyOp(EffectsNotModelledOp):
    """`%empty = stream.tensor.empty on(A)? : tensor<?x4xf32>{%d} in T{%s}`."""

    name = "stream.tensor.empty"
    result_encoding: Type = attr_def(TYPE)
    result_encoding_dims = _indices()
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(asm_name="empty", constraint=ANY_RESOURCE)
    assembly_format = ON + "`:` " + _encoded("result") + "attr-dict-with-keyword"

    def verify(self) -> None:
        check_dims(self, [self.result_encoding], self.result_encoding_dims)


@register_op
class TensorConstantOp(EffectsNotModelledOp):
    """`%cst = stream.tensor.constant on(A)? : tensor<2xi32> in T = dense<...>`."""

    name = "stream.tensor.constant"
    value = attr_def(ANY_ATTRIBUTE)
    result_encoding: Type = attr_def(TYPE)
    result_encoding_dims = _indices()
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(asm_name="cst", constraint=ANY_RESOURCE)
    assembly_format = ON + (
        "`:` " + _encoding("result") + "`in` type($result) `=` $value attr-dict-with-keyword"
    )

    def verify(self) -> None:
        check_dims(self, [self.result_encoding], self.result_encoding_dims)


@register_op
class TensorSplatOp(EffectsNotModelledOp):
    """`%r = stream.tensor.splat on(A)? %v : f32 -> tensor<?x4xf32>{%d} in T{%s}`."""

    name = "stream.tensor.splat"
    value = operand_def(_PRIMITIVE)
    result_encoding: Type = attr_def(TYPE)
    result_encoding_dims = _indices()
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(constraint=ANY_RESOURCE)
    assembly_format = ON + (
        "$value `:` type($value) `->` " + _encoded("result") + "attr-dict-with-keyword"
    )

    def verify(self) -> None:
        check_dims(self, [self.result_encoding], self.result_encoding_dims)


class _TensorCopyOp(EffectsNotModelledOp, SegmentedOp):
    """A tensor op from a source to a new result, each with its encoding (clone, encode)."""

    source = operand_def(ANY_RESOURCE)
    source_encoding: Type = attr_def(TYPE)
    source_encoding_dims = _indices()
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    result_encoding: Type = attr_def(TYPE)
    result_encoding_dims = _indices()
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(constraint=ANY_RESOURCE)
    assembly_format = ON + (
        "$source `:` "
        + _encoded("source")
        + "`->` "
        + _encoded("result")
        + "attr-dict-with-keyword"
    )

    def verify(self) -> None:
        check_dims(self, [self.source_encoding], self.source_encoding_dims)
        check_dims(self, [self.result_encoding], self.result_encoding_dims)


@register_op
class TensorCloneOp(_TensorCopyOp):
    """`%r = stream.tensor.clone on(A)? %x : tensor<..>{..} in T{%s} -> tensor<..> in T{%n}`.

    IREE also refuses a clone that changes the tensor's encoding attribute, as far as the
    encodings say they are incompatible; streamopt does not ask that."""

    name = "stream.tensor.clone"


@register_op
class TensorEncodeOp(_TensorCopyOp):
    """`%r = stream.tensor.encode on(A)? %x : tensor<..> in T{%s} -> tensor<.., #e> in T{%n}`."""

    name = "stream.tensor.encode"


@register_op
class TensorSliceOp(EffectsNotModelledOp, SegmentedOp):
    """`%r = stream.tensor.slice on(A)? %x[%i, %j for %m, %n] : tensor<..> in T{%s} ->
    tensor<..> in T{%n}`."""

    name = "stream.tensor.slice"
    source = operand_def(ANY_RESOURCE)
    source_encoding: Type = attr_def(TYPE)
    source_encoding_dims = _indices()
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    start_indices = _indices()
    lengths = _indices()
    result_encoding: Type = attr_def(TYPE)
    result_encoding_dims = _indices()
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(constraint=ANY_RESOURCE)
    assembly_format = ON + (
        "$source `[` $start_indices `for` $lengths `]` `:` "
        + _encoded("source")
        + "`->` "
        + _encoded("result")
        + "attr-dict-with-keyword"
    )

    def verify(self) -> None:
        check_dims(self, [self.source_encoding], self.source_encoding_dims)
        check_dims(self, [self.result_encoding], self.result_encoding_dims)
        for indices in (self.start_indices, self.lengths):
            _check_rank(self, self.source_encoding, len(indices), "start_indices/lengths")


_IN_TARGET = "`in` custom<ShapedTiedResult>(type($target), $target_size) attr-dict-with-keyword"


class _TensorTargetOp(EffectsNotModelledOp, SegmentedOp):
    """A tensor op that writes its target (update, fill, store): the result is the target."""

    target = operand_def(ANY_RESOURCE)
    target_encoding: Type = attr_def(TYPE)
    target_encoding_dims = _indices()
    target_size = operand_def(INDEX_CONSTRAINT, size_of=("target", "result"))
    result = result_def(same_as="target")


@register_op
class TensorUpdateOp(_TensorTargetOp):
    """`%r = stream.tensor.update on(A)? %u, %x[%i, %j] : tensor<..> in T{%us} -> tensor<..>
    in %x as T{%s}`."""

    name = "stream.tensor.update"
    start_indices = _indices()
    update = operand_def(ANY_RESOURCE)
    update_encoding: Type = attr_def(TYPE)
    update_encoding_dims = _indices()
    update_size = operand_def(INDEX_CONSTRAINT, size_of="update")
    affinity: Attribute | None = attr_def(AFFINITY)
    assembly_format = ON + (
        "$update `,` $target `[` $start_indices `]` `:` "
        + _encoded("update")
        + "`->` "
        + _encoding("target")
        + _IN_TARGET
    )

    def verify(self) -> None:
        check_dims(self, [self.update_encoding], self.update_encoding_dims)
        check_dims(self, [self.target_encoding], self.target_encoding_dims)


@register_op
class TensorFillOp(_TensorTargetOp):
    """`%r = stream.tensor.fill on(A)? %v, %x[%i for %n]? : f32 -> tensor<..> in %x as T{%s}`."""

    name = "stream.tensor.fill"
    start_indices = _indices()
    lengths = _indices()
    value = operand_def(_PRIMITIVE)
    affinity: Attribute | None = attr_def(AFFINITY)
    assembly_format = ON + (
        "$value `,` $target (`[` $start_indices `for` $lengths^ `]`)? `:` type($value) `->` "
        + _encoding("target")
        + _IN_TARGET
    )

    def verify(self) -> None:
        check_dims(self, [self.target_encoding], self.target_encoding_dims)


@register_op
class TensorLoadOp(EffectsNotModelledOp, SegmentedOp):
    """`%v = stream.tensor.load %x[%i, %j]? : tensor<..> in !stream.resource<staging>{%s} ->
    f32`."""

    name = "stream.tensor.load"
    source = operand_def(STAGING_RESOURCE)
    source_encoding: Type = attr_def(TYPE)
    source_encoding_dims = _indices()
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    indices = _indices()
    result = result_def(constraint=_PRIMITIVE_OR_VECTOR)
    assembly_format = (
        "$source (`[` $indices^ `]`)? `:` "
        + _encoded("source")
        + "`->` type($result) attr-dict-with-keyword"
    )

    def verify(self) -> None:
        check_dims(self, [self.source_encoding], self.source_encoding_dims)
        _check_rank(self, self.source_encoding, len(self.indices), "indices")


@register_op
class TensorStoreOp(_TensorTargetOp):
    """`%r = stream.tensor.store %v, %x[%i, %j]? : f32 -> tensor<..> in %x as
    !stream.resource<staging>{%s}`."""

    name = "stream.tensor.store"
    target = operand_def(STAGING_RESOURCE)
    indices = _indices()
    value = operand_def(_PRIMITIVE_OR_VECTOR)
    assembly_format = (
        "$value `,` $target (`[` $indices^ `]`)? `:` type($value) `->` "
        + _encoding("target")
        + _IN_TARGET
    )

    def verify(self) -> None:
        check_dims(self, [self.target_encoding], self.target_encoding_dims)
        _check_rank(self, self.target_encoding, len(self.indices), "indices")
