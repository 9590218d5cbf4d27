"""stream async resource ops (IREE's "Async resource ops"): allocation, constants, splats,
clones, slices, fills, updates, copies, transfers and moves, casts, loads, stores and barriers.

Each op is declared with IREE's fields and assembly format (streamopt.ir.opdef); its tied
results, sizes and operand accesses, which the analyses read, follow from the fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.common import ANY_ATTRIBUTE, op_error
from streamopt.dialects.stream.base import (
    AFFINITY,
    ANY_OR_STAGING_RESOURCE,
    ANY_RESOURCE,
    ON,
    STAGING_RESOURCE,
    StreamOp,
    TimelineOp,
    check_lifetime,
    field_values,
    one_size,
    require_resource,
    sized_text,
    verify_consumed_source,
)
from streamopt.ir.core import Access, Value
from streamopt.ir.opdef import (
    CustomDirective,
    DeclaredOp,
    attr_def,
    custom_directive,
    operand_def,
    result_def,
)
from streamopt.ir.types import (
    INDEX_CONSTRAINT,
    TIMEPOINT_CONSTRAINT,
    Attribute,
    signless_integer,
)

if TYPE_CHECKING:
    from streamopt.ir.opdef import FormatReader
    from streamopt.parser.builder import Builder
    from streamopt.parser.parts import Sized
    from streamopt.printer import Printer

# The operands of the ops that update a range of their target in place.
_READ_WRITE = Access.READ | Access.WRITE
# Stream_FillPatternType: what splat and fill repeat (a float is bitcast to an integer first).
FILL_PATTERN = signless_integer(8, 16, 32, 64)


@parse_rule("tied_to_target")
def _tied_to_target(b: Builder, children: list[Any]) -> Sized:
    return children[-1]  # type: ignore[no-any-return]


def _parse_tied_result(reader: FormatReader, part: Sized, args: Sequence[tuple[str, str]]) -> None:
    (_, target), (_, size) = args
    reader.set_type(target, part.type)
    reader.operands[size] = one_size(part, reader.location)


def _print_tied_result(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    target, size = field_values(op, args)
    return f"{p.v(target)} as {sized_text(p, target.type, size)}"


# `custom<ShapedTiedResult>(type($target), $target_size)`: the result is the target, printed
# `%target as T{%size}`. Like IREE, the name before `as` is not looked up (hand-written tests
# often write any name there): the grammar hands over only the type.
custom_directive(
    "ShapedTiedResult",
    CustomDirective("(tied_to_target | sized_type)", _parse_tied_result, _print_tied_result),
)


@register_op
class AsyncAllocaOp(StreamOp):
    """`%r = stream.async.alloca on(A) : !stream.resource<transient>{%s}`: undefined contents."""

    name = "stream.async.alloca"
    storage_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def()
    assembly_format = ON + "attr-dict `:` type($result) `{` $storage_size `}`"

    def verify(self) -> None:
        check_lifetime(self, "result", 0, self.result.type, ANY_RESOURCE)


@register_op
class AsyncConstantOp(TimelineOp):
    """`%cst = stream.async.constant on(A) await(%t)? : T{%s} = dense<3> : tensor<8xi32>`."""

    name = "stream.async.constant"
    is_pure = True
    await_timepoint: Value | None = operand_def(TIMEPOINT_CONSTRAINT, optional=True)
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    value: Attribute = attr_def(ANY_ATTRIBUTE)
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(asm_name="cst")
    assembly_format = ON + (
        "(`await` `(` $await_timepoint^ `)`)? `:` type($result) `` `{` $result_size `}` "
        "`=` $value attr-dict-with-keyword"
    )

    def verify(self) -> None:
        check_lifetime(self, "result", 0, self.result.type, ANY_RESOURCE)


@register_op
class AsyncSplatOp(TimelineOp):
    """`%r = stream.async.splat on(A) await(%t)? %v : i32 -> !stream.resource<*>{%s}`."""

    name = "stream.async.splat"
    await_timepoint: Value | None = operand_def(TIMEPOINT_CONSTRAINT, optional=True)
    value = operand_def(FILL_PATTERN)
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(check=require_resource)
    assembly_format = ON + (
        "(`await` `(` $await_timepoint^ `)`)? $value `:` type($value) `->` type($result) `` "
        "`{` $result_size `}` attr-dict-with-keyword"
    )

    def verify(self) -> None:
        check_lifetime(self, "result", 0, self.result.type, ANY_RESOURCE)


@register_op
class AsyncCloneOp(StreamOp):
    """`%r = stream.async.clone on(A) %x : T{%s} -> T'{%s}`: copy-on-write clone."""

    name = "stream.async.clone"
    operand_types_first = True
    source = operand_def(ANY_RESOURCE, access=Access.READ, check=require_resource)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(check=require_resource)
    assembly_format = ON + (
        "$source `:` type($source) `` `{` $source_size `}` `->` type($result) `` "
        "`{` $result_size `}` attr-dict-with-keyword"
    )

    def verify(self) -> None:
        check_lifetime(self, "result", 0, self.result.type, ANY_RESOURCE)


@register_op
class AsyncSliceOp(StreamOp):
    """`%r = stream.async.slice on(A) %x[%o to %e] : T{%s} -> T{%len}`: a copy of a range."""

    name = "stream.async.slice"
    is_pure = True
    source = operand_def(ANY_RESOURCE, access=Access.READ)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    source_offset = operand_def(INDEX_CONSTRAINT)
    source_end = operand_def(INDEX_CONSTRAINT)
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def()
    same_types = (("source", "result"),)
    assembly_format = ON + (
        "$source `[` $source_offset `to` $source_end `]` `:` type($source) `` "
        "`{` $source_size `}` `->` type($result) `` `{` $result_size `}` "
        "attr-dict-with-keyword"
    )


class _UpdateInPlaceOp(StreamOp):
    """An op that writes into its target in place (fill, update, copy, store): the result is
    the target, tied to it and sized by the target's size."""

    target = operand_def(ANY_RESOURCE, access=_READ_WRITE)
    target_size = operand_def(INDEX_CONSTRAINT, size_of=("target", "result"))
    result = result_def(same_as="target", tied_to="target")
    same_types = (("target", "result"),)


_TIED_TARGET = "`->` custom<ShapedTiedResult>(type($target), $target_size) attr-dict-with-keyword"


@register_op
class AsyncFillOp(_UpdateInPlaceOp):
    """`%r = stream.async.fill on(A) %v, %x[%o to %e for %l] : i32 -> %x as T{%s}`."""

    name = "stream.async.fill"
    target_offset = operand_def(INDEX_CONSTRAINT)
    target_end = operand_def(INDEX_CONSTRAINT)
    target_length = operand_def(INDEX_CONSTRAINT)
    value = operand_def(FILL_PATTERN)
    affinity: Attribute | None = attr_def(AFFINITY)
    assembly_format = ON + (
        "$value `,` $target `[` $target_offset `to` $target_end `for` $target_length `]` `:` "
        "type($value) " + _TIED_TARGET
    )


@register_op
class AsyncUpdateOp(_UpdateInPlaceOp):
    """`%r = stream.async.update on(A) %u, %x[%o to %e] : T{%us} -> %x as T{%s}`."""

    name = "stream.async.update"
    target_offset = operand_def(INDEX_CONSTRAINT)
    target_end = operand_def(INDEX_CONSTRAINT)
    update = operand_def(ANY_RESOURCE, access=Access.READ)
    update_size = operand_def(INDEX_CONSTRAINT, size_of="update")
    affinity: Attribute | None = attr_def(AFFINITY)
    assembly_format = ON + (
        "$update `,` $target `[` $target_offset `to` $target_end `]` `:` type($update) `` "
        "`{` $update_size `}` " + _TIED_TARGET
    )


@register_op
class AsyncCopyOp(_UpdateInPlaceOp):
    """`%r = stream.async.copy on(A) %src[%so to %se], %dst[%do to %de], %len : T{%ss} ->
    %dst as T{%ds}`: in place into the target."""

    name = "stream.async.copy"
    target_offset = operand_def(INDEX_CONSTRAINT)
    target_end = operand_def(INDEX_CONSTRAINT)
    source = operand_def(ANY_RESOURCE, access=Access.READ)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    source_offset = operand_def(INDEX_CONSTRAINT)
    source_end = operand_def(INDEX_CONSTRAINT)
    length = operand_def(INDEX_CONSTRAINT)
    affinity: Attribute | None = attr_def(AFFINITY)
    assembly_format = ON + (
        "$source `[` $source_offset `to` $source_end `]` `,` $target `[` $target_offset `to` "
        "$target_end `]` `,` $length `:` type($source) `` `{` $source_size `}` " + _TIED_TARGET
    )


@register_op
class AsyncStoreOp(_UpdateInPlaceOp):
    """`%r = stream.async.store %v, %x[%o] : i32 -> %x as !stream.resource<staging>{%s}`."""

    name = "stream.async.store"
    is_pure = True
    target = operand_def(STAGING_RESOURCE, access=_READ_WRITE)
    target_offset = operand_def(INDEX_CONSTRAINT)
    value = operand_def()
    assembly_format = "$value `,` $target `[` $target_offset `]` `:` type($value) " + _TIED_TARGET


class TransferLikeOp(StreamOp):
    """Shared by `stream.async.transfer` and `stream.async.move` (same operands and syntax)."""

    affinity_attr_name = "execution_affinity"
    source = operand_def(ANY_OR_STAGING_RESOURCE, access=Access.READ)
    source_size = operand_def(size_of="source")
    result_size = operand_def(size_of="result")
    source_affinity: Attribute | None = attr_def(AFFINITY)
    target_affinity: Attribute | None = attr_def(AFFINITY)
    execution_affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(constraint=ANY_OR_STAGING_RESOURCE)
    assembly_format = (
        "(`on` `(` $execution_affinity^ `)`)? $source `:` type($source) `` `{` $source_size `}` "
        "(`from` `(` $source_affinity^ `)`)? `->` (`to` `(` $target_affinity^ `)`)? "
        "type($result) `` `{` $result_size `}` attr-dict-with-keyword"
    )

    def verify(self) -> None:
        # Checks shared by transfer and move: index sizes.
        for size in (self.source_size, self.result_size):
            if size.type is not None and size.type.text != "index":
                raise op_error(self, f"expects index sizes, got '{size.type}'")


@register_op
class AsyncTransferOp(TransferLikeOp):
    """`%r = stream.async.transfer %x : T{%s} from(A) -> to(B) T{%s}`: always copies."""

    name = "stream.async.transfer"
    is_pure = True


@register_op
class AsyncMoveOp(TransferLikeOp):
    """`%r = stream.async.move %x : T{%s} from(A) -> to(B) T{%s}`: a transfer that consumes
    its source.

    Same operands, attributes and syntax as `stream.async.transfer`. After it no op may use the
    source or any other name of its storage; the runtime may then hand the source's memory to
    the target as-is (a pointer cast) or copy and free it. Not pure (never merged or hoisted)
    and not tied (the result is new storage as far as allocation is concerned).
    """

    name = "stream.async.move"
    source = operand_def(ANY_OR_STAGING_RESOURCE, access=Access.READ | Access.CONSUME)

    def fold(self) -> list[Value] | None:
        # Moving storage to where it already is, unchanged, is the storage itself.
        if (
            self.source.type == self.result.type
            and self.source_affinity is not None
            and self.source_affinity == self.target_affinity
            and self.affinity in (None, self.source_affinity)
        ):
            return [self.source]
        return None

    def canonicalize(self) -> bool:
        if not self.result.uses:
            # Explicit dead-move removal: moves are not pure, so generic DCE skips them.
            self.erase()
            return True
        inner = self.source.defining_op
        if (
            isinstance(inner, AsyncMoveOp)
            and inner.result.has_one_use()
            and inner.affinity is None
            and self.affinity is None
        ):
            # move(A->B) then move(B->C) of a value used nowhere else: one move A->C.
            self.set_operand(0, inner.source)
            self.set_operand(1, inner.source_size)
            if inner.source_affinity is not None:
                self.attributes["source_affinity"] = inner.source_affinity
            else:
                self.attributes.pop("source_affinity", None)
            inner.erase()
            return True
        return False

    def verify_in_module(self, context: Any) -> None:
        verify_consumed_source(self, context)


@register_op
class AsyncCastOp(StreamOp):
    """`%r = stream.async.cast on(A) %x : T{%s} -> T'{%s}`: the same storage with another
    lifetime (tied to the source; RefineUsage must remove it)."""

    name = "stream.async.cast"
    operand_types_first = True
    is_pure = True
    # A passthrough: the op itself touches no bytes; accesses through the result are its users'.
    source = operand_def(ANY_RESOURCE, access=Access.READ)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(tied_to="source")
    assembly_format = ON + (
        "$source `:` type($source) `{` $source_size `}` `->` type($result) "
        "`{` $result_size `}` attr-dict"
    )

    def verify(self) -> None:
        check_lifetime(self, "result", 0, self.result.type, ANY_RESOURCE)
        if self.source_size is not self.result_size:
            raise op_error(self, "source and result sizes must be equal (tied storage)")


@register_op
class AsyncLoadOp(StreamOp):
    """`%v = stream.async.load %x[%o] : !stream.resource<staging>{%s} -> i32`."""

    name = "stream.async.load"
    is_pure = True
    source = operand_def(STAGING_RESOURCE, access=Access.READ)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    source_offset = operand_def(INDEX_CONSTRAINT)
    result = result_def()
    assembly_format = (
        "$source `[` $source_offset `]` `:` type($source) `` `{` $source_size `}` `->` "
        "type($result) attr-dict-with-keyword"
    )


@register_op
class AsyncBarrierOp(StreamOp):
    """`%r = stream.async.barrier on(A) %x : T{%s}`: pins the value to an affinity (tied)."""

    name = "stream.async.barrier"
    # A passthrough, like stream.async.cast.
    source = operand_def(ANY_OR_STAGING_RESOURCE, access=Access.READ)
    size = operand_def(INDEX_CONSTRAINT, size_of=("source", "result"))
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(same_as="source", tied_to="source")
    assembly_format = ON + "$source `:` type($source) `` `{` $size `}` attr-dict-with-keyword"
