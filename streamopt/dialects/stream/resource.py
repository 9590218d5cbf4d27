"""stream resource ops: timeline allocation (`stream.resource.alloca` / `dealloca`), constant
uploads, sizes, host loads and stores, mapping, subviews and packing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.common import (
    EffectsNotModelledOp,
    SegmentedOp,
    ValueKind,
    array_of,
    check_operand_type,
    op_error,
)
from streamopt.dialects.stream.base import (
    AFFINITY,
    ANY_RESOURCE,
    ARRAY,
    AWAIT,
    CONSTANT_OR_VARIABLE_RESOURCE,
    ON,
    STAGING_RESOURCE,
    StreamOp,
    TimelineOp,
    check_lifetime,
    check_variadic_results,
    field_values,
    one_size,
    require_resource,
    sized_text,
)
from streamopt.ir.core import Access, OpResult, Value
from streamopt.ir.opdef import (
    UNIT_KIND,
    CustomDirective,
    DeclaredOp,
    attr_def,
    custom_directive,
    operand_def,
    result_def,
)
from streamopt.ir.types import (
    I1,
    INDEX,
    INDEX_CONSTRAINT,
    TIMEPOINT,
    TIMEPOINT_CONSTRAINT,
    ArrayAttr,
    Attribute,
    IntegerAttr,
    ResourceType,
    TypeConstraint,
)
from streamopt.parser.token_values import integer_literal
from streamopt.records import Record

if TYPE_CHECKING:
    from streamopt.ir.opdef import FormatReader
    from streamopt.parser.builder import Builder
    from streamopt.parser.lalr import Tree
    from streamopt.parser.parts import Sized
    from streamopt.printer import Printer


@register_op
class ResourceAllocaOp(TimelineOp):
    """`stream.resource.alloca`: allocate memory with undefined contents on a timeline.

        %r, %t = stream.resource.alloca uninitialized on(A) await(%t0) =>
            !stream.resource<transient>{%s} => !stream.timepoint

    The memory is usable once the result timepoint is reached. `indeterminate` marks a lifetime
    analysis could not bound: it must not be freed asynchronously.
    """

    name = "stream.resource.alloca"
    storage_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    indeterminate_lifetime: Attribute | None = attr_def(UNIT_KIND)
    await_timepoint = operand_def(TIMEPOINT_CONSTRAINT, optional=True, type=TIMEPOINT)
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(asm_name="result")
    result_timepoint = result_def(TIMEPOINT, asm_name="result_timepoint")
    assembly_format = (
        "`uninitialized` (`indeterminate` $indeterminate_lifetime^)? " + ON + AWAIT + ":(`:`)? "
        "attr-dict type($result) `{` $storage_size `}` `=` `` `>` type($result_timepoint)"
    )

    def verify(self) -> None:
        if not isinstance(self.result.type, ResourceType):
            raise op_error(
                self, f"result #0 must be any stream-compatible type, but got '{self.result.type}'"
            )


@register_op
class ResourceDeallocaOp(TimelineOp):
    """`%t = stream.resource.dealloca origin? on(A) await(%t0) => %r : T{%s} => !stream.timepoint`.

    Frees `%r` once the await timepoint is reached; the result timepoint says when the memory
    may be reused. `origin` asks to free it on the queue that allocated it.
    """

    name = "stream.resource.dealloca"
    # Freeing ends the storage's life: nothing may use it afterwards. (IREE's `$operand`.)
    resource = operand_def(access=Access.CONSUME, check=require_resource)
    resource_size = operand_def(INDEX_CONSTRAINT, size_of="resource")
    prefer_origin: Attribute | None = attr_def(UNIT_KIND)
    await_timepoint = operand_def(TIMEPOINT_CONSTRAINT, optional=True, type=TIMEPOINT)
    affinity: Attribute | None = attr_def(AFFINITY)
    result_timepoint = result_def(TIMEPOINT)
    assembly_format = (
        "(`origin` $prefer_origin^)? " + ON + AWAIT + "? $resource `:` type($resource) "
        "`{` $resource_size `}` `=` `` `>` type($result_timepoint) attr-dict"
    )


class ConstantValue(Record):
    """`T{%size} = value` in a `stream.resource.constants` list."""

    sized: Sized
    value: Attribute


@parse_rule("constant_value")
def _constant_value(b: Builder, children: list[Any]) -> ConstantValue:
    return ConstantValue(children[0], children[-1])


def _parse_constant_values(
    reader: FormatReader, part: Tree, args: Sequence[tuple[str, str]]
) -> None:
    (_, results), (_, sizes), (_, values) = args
    constants: list[ConstantValue] = part.children
    for constant in constants:
        require_resource(constant.sized.type, reader.location)
    reader.result_types[results] = [c.sized.type for c in constants]
    reader.operands[sizes] = [one_size(c.sized, reader.location) for c in constants]
    reader.attributes[values] = ArrayAttr(c.value for c in constants)


def _print_constant_values(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    results, sizes, values = field_values(op, args)
    indent = "\n" + " " * p.indent_width + "  "
    return ",".join(
        f"{indent}{sized_text(p, result.type, size)} = {value.text}"
        for result, size, value in zip(results, sizes, values)
    )


# `custom<ConstantValueList>(type($results), $result_sizes, $values)`: `T{%size} = value`, one
# per line.
custom_directive(
    "ConstantValueList",
    CustomDirective("resource_constant_values", _parse_constant_values, _print_constant_values),
)


@register_op
class ResourceConstantsOp(StreamOp):
    """`stream.resource.constants`: upload (or map) constant values, on a timeline.

        %results:2, %result_timepoint = stream.resource.constants on(A) :
          !stream.resource<constant>{%c16} = dense<[1, 2, 3, 4]> : tensor<4xi32>,
          !stream.resource<constant>{%c8} = dense<1> : tensor<2xi32>
          => !stream.timepoint

    Each result holds its value once the result timepoint is reached. `constant` results are
    immutable; `variable` results are initial values of mutable storage.
    """

    name = "stream.resource.constants"
    is_pure = True
    values: list[Attribute] = attr_def(ARRAY)
    result_sizes = operand_def(INDEX_CONSTRAINT, variadic=True, size_of="results")
    affinity: Attribute | None = attr_def(AFFINITY)
    results_ = result_def(variadic=True, asm_name="results")
    result_timepoint = result_def(TIMEPOINT, asm_name="result_timepoint")
    assembly_format = ON + (
        "attr-dict `:` custom<ConstantValueList>(type($results), $result_sizes, $values) "
        "`\\n` ` ` ` ` `=` `` `>` type($result_timepoint)"
    )

    def verify(self) -> None:
        results = self.results_
        # ODS checks the results' types before the op's verifier compares them.
        check_variadic_results(self, results, CONSTANT_OR_VARIABLE_RESOURCE)
        if len(self.operands) != len(results) or len(self.values) != len(results):
            raise op_error(self, "mismatched constant/result counts")
        if len({r.type for r in results}) > 1:
            raise op_error(self, "all results must be of the same type")


@register_op
class ResourceSizeOp(DeclaredOp):
    """`%n = stream.resource.size %r : T`: the byte size of a resource's storage."""

    name = "stream.resource.size"
    inherent_attributes = frozenset({"affinity"})
    is_pure = True
    resource: Value = operand_def(check=require_resource)
    result: OpResult = result_def(INDEX)
    assembly_format = "$resource attr-dict `:` type($resource)"

    def size_of_operand(self, index: int) -> Value | None:
        # As in IREE: the size of the operand is what this op computes.
        return self.result

    def fold(self) -> list[Value] | None:
        """The size the resource's producer already carries, if it carries one."""
        resource = self.resource
        producer = resource.defining_op
        if producer is None:
            return None
        size = producer.size_of_result(resource.index)  # type: ignore[attr-defined]
        return [size] if size is not None else None


@register_op
class ResourceLoadOp(DeclaredOp):
    """`%v = stream.resource.load %r[%o] : !stream.resource<staging>{%s} -> i32`: a host read
    of one element of a staging resource (what `stream.async.load` lowers to)."""

    name = "stream.resource.load"
    source = operand_def(STAGING_RESOURCE, access=Access.READ, check=require_resource)
    source_size = operand_def(size_of="source")
    source_offset = operand_def()
    result = result_def()
    assembly_format = (
        "$source `[` $source_offset `]` `:` type($source) `` `{` $source_size `}` `->` "
        "type($result) attr-dict-with-keyword"
    )


@register_op
class ResourceStoreOp(DeclaredOp):
    """`stream.resource.store %v, %r[%o] : i32 -> !stream.resource<staging>{%s}`: a host write
    of one element of a staging resource (what `stream.async.store` lowers to)."""

    name = "stream.resource.store"
    target = operand_def(STAGING_RESOURCE, access=Access.WRITE, check=require_resource)
    target_size = operand_def(size_of="target")
    target_offset = operand_def()
    value = operand_def()
    assembly_format = (
        "$value `,` $target `[` $target_offset `]` `:` type($value) `->` type($target) "
        "`{` $target_size `}` attr-dict-with-keyword"
    )


@register_op
class ResourceTryMapOp(StreamOp):
    """`%ok, %r = stream.resource.try_map on(A) %buf[%o] : !util.buffer -> i1, T{%n}`: use host
    memory in place as a resource if the device can (`%ok`), as IREE's PackConstants does for
    constant data."""

    name = "stream.resource.try_map"
    operand_types_first = True
    is_pure = True
    source = operand_def()
    source_offset = operand_def()
    result_size = operand_def(size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    did_map = result_def(I1, asm_name="did_map")
    result = result_def(asm_name="result", check=require_resource)
    assembly_format = ON + (
        "$source `[` $source_offset `]` `:` type($source) `->` type($did_map) `,` "
        "type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )

    def verify(self) -> None:
        check_lifetime(self, "result", 1, self.result.type, ANY_RESOURCE)


@register_op
class ResourceAllocOp(StreamOp):
    """`%r = stream.resource.alloc uninitialized on(A) : T{%n}`: allocate at once (not on a
    timeline), as IREE's PackConstants does for data it reads from a file."""

    name = "stream.resource.alloc"
    storage_size = operand_def(size_of="result")
    uninitialized: Attribute | None = attr_def(UNIT_KIND)
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(check=require_resource)
    assembly_format = (
        "(`uninitialized` $uninitialized^)? " + ON + "attr-dict `:` type($result) "
        "`{` $storage_size `}`"
    )


@register_op
class ResourceSubviewOp(DeclaredOp):
    """`%v = stream.resource.subview %r[%offset] : T{%size} -> T{%length}`: an alias of a range."""

    name = "stream.resource.subview"
    is_pure = True
    # Making a view touches no bytes; what users of the view do reaches the source through the
    # tie.
    source = operand_def(check=require_resource)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    source_offset = operand_def(INDEX_CONSTRAINT, type=INDEX)
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    result = result_def(check=require_resource, same_as="source", tied_to="source")
    assembly_format = (
        "$source `[` $source_offset `]` `:` type($source) `` `{` $source_size `}` `->` "
        "type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )
    same_types = (("source", "result"),)


class PackSlice(Record):
    """`[start, end] = %size` in `stream.resource.pack`: a slice live over [start, end]."""

    start: int
    end: int
    size: Value


@parse_rule("pack_slice")
def _pack_slice(b: Builder, children: list[Any]) -> PackSlice:
    start, end = (
        integer_literal(str(c)) for c in children if getattr(c, "type", None) == "INTEGER"
    )
    return PackSlice(start, end, children[-1])


def _parse_pack_slices(reader: FormatReader, part: Tree, args: Sequence[tuple[str, str]]) -> None:
    (_, intervals), (_, sizes), (_, offsets) = args
    slices: list[PackSlice] = part.children
    for piece in slices:
        check_operand_type(piece.size, INDEX, reader.location)
    reader.attributes[intervals] = _INTERVALS.make([(s.start, s.end) for s in slices])
    reader.operands[sizes] = [s.size for s in slices]
    reader.result_types[offsets] = [INDEX] * len(slices)


def _print_pack_slices(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    intervals, sizes = field_values(op, args[:2])
    slices = [f"[{start}, {end}] = {p.v(size)}" for (start, end), size in zip(intervals, sizes)]
    if not slices:
        return ""
    indent = " " * p.indent_width
    return f"\n{indent}  " + f",\n{indent}  ".join(slices) + f"\n{indent}"


# `custom<PackSliceRanges>($lifetime_intervals, $dynamic_slice_sizes, type($packed_offsets))`:
# `[start, end] = %size`, one per line.
custom_directive(
    "PackSliceRanges", CustomDirective("pack_slices", _parse_pack_slices, _print_pack_slices)
)


def _interval_pairs(attribute: ArrayAttr) -> list[tuple[int, int]]:
    bounds = [element.value for element in attribute.elements]  # type: ignore[attr-defined]
    return list(zip(bounds[::2], bounds[1::2]))


# `[start, end]` pairs, kept as IREE's flat index array; the accessor gives the pairs.
_INTERVALS = ValueKind(
    lambda pairs: ArrayAttr(IntegerAttr(bound, INDEX) for pair in pairs for bound in pair),
    _interval_pairs,
    generic=array_of(IntegerAttr),
)


@register_op
class ResourcePackOp(StreamOp, SegmentedOp):
    """`%total, %offsets:N = stream.resource.pack on(A) offset(%o)? slices({[0, 1] = %s, ...})
    : index`: place slices with the given lifetimes in one slab (slices whose lifetimes do not
    overlap may share bytes); results are the slab size and each slice's offset."""

    name = "stream.resource.pack"
    is_pure = True
    offset = operand_def(INDEX_CONSTRAINT, optional=True)
    lifetime_intervals: list[tuple[int, int]] = attr_def(_INTERVALS)
    dynamic_slice_sizes = operand_def(INDEX_CONSTRAINT, variadic=True)
    affinity: Attribute | None = attr_def(AFFINITY)
    total_length = result_def(INDEX)
    packed_offsets = result_def(variadic=True)
    assembly_format = ON + (
        "(`offset` `(` $offset^ `)`)? `slices` `(` `{` custom<PackSliceRanges>("
        "$lifetime_intervals, $dynamic_slice_sizes, type($packed_offsets)) `}` `)` `:` "
        "type($total_length) attr-dict-with-keyword"
    )

    def verify(self) -> None:
        count = len(self.results) - 1
        if len(self.lifetime_intervals) != count:
            raise op_error(self, "requires a [start, end] range for each slice")
        if len(self.dynamic_slice_sizes) != count:
            raise op_error(self, "requires a size for each slice")


# IREE's Stream_AnyResource: a resource of any lifetime, staging too.
_RESOURCE = TypeConstraint("any stream-compatible type", lambda t: isinstance(t, ResourceType))
_RESOURCE_FORMAT = "$operand attr-dict `:` type($operand) `{` $operand_size `}`"


@register_op
class ResourceRetainOp(EffectsNotModelledOp):
    """`stream.resource.retain %r : T{%s}`: one more owner of the resource."""

    name = "stream.resource.retain"
    operand_ = operand_def(_RESOURCE)
    operand_size = operand_def(INDEX_CONSTRAINT, size_of="operand")
    assembly_format = _RESOURCE_FORMAT


@register_op
class ResourceReleaseOp(EffectsNotModelledOp):
    """`%is_terminal = stream.resource.release %r : T{%s}`: one owner fewer; true when it was
    the last."""

    name = "stream.resource.release"
    operand_ = operand_def(_RESOURCE)
    operand_size = operand_def(INDEX_CONSTRAINT, size_of="operand")
    result = result_def(I1, asm_name="is_terminal")
    assembly_format = _RESOURCE_FORMAT


@register_op
class ResourceIsTerminalOp(EffectsNotModelledOp):
    """`%is_terminal = stream.resource.is_terminal %r : T{%s}`: whether there is one owner."""

    name = "stream.resource.is_terminal"
    operand_ = operand_def(_RESOURCE)
    operand_size = operand_def(INDEX_CONSTRAINT, size_of="operand")
    result = result_def(I1, asm_name="is_terminal")
    assembly_format = _RESOURCE_FORMAT


@register_op
class ResourceTransientsOp(EffectsNotModelledOp):
    """`%result, %result_timepoint = stream.resource.transients on(A) await(%t) => %r : T{%s}
    from %storage : U{%n} => !stream.timepoint`: the resource's transient allocations placed
    in the storage."""

    name = "stream.resource.transients"
    resource = operand_def(ANY_RESOURCE)
    resource_size = operand_def(INDEX_CONSTRAINT, size_of=("resource", "result"))
    storage = operand_def(_RESOURCE)
    storage_size = operand_def(INDEX_CONSTRAINT, size_of="storage")
    await_timepoint = operand_def(TIMEPOINT_CONSTRAINT, optional=True)
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(same_as="resource", asm_name="result")
    result_timepoint = result_def(TIMEPOINT, asm_name="result_timepoint")
    assembly_format = ON + (
        AWAIT + "? $resource `:` type($resource) `` `{` $resource_size `}` `from` $storage `:` "
        "type($storage) `` `{` $storage_size `}` `=` `` `>` type($result_timepoint) "
        "attr-dict-with-keyword"
    )
