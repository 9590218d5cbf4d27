"""stream async resource ops (IREE's "Async resource ops"): allocation, constants, splats,
clones, slices, fills, updates, copies, transfers and moves, casts, loads, stores and barriers.

Each op class exposes the interfaces the analyses read: `affinity`, tied results
(`tied_operand_index`), the size operand of each resource operand and result, and how it
accesses its resource operands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import Location, error
from streamopt.dialects import register_op
from streamopt.dialects.common import check_operand_type, split_clauses
from streamopt.dialects.stream.base import (
    AFFINITY,
    ANY_LIFETIMES,
    ANY_OR_STAGING_LIFETIMES,
    FILL_PATTERN_WIDTHS,
    STAGING_LIFETIMES,
    DeclaredStreamOp,
    StreamOp,
    check_lifetime,
    check_timepoint,
    one_size,
    op_attributes,
    op_error,
    positional,
    print_tied_target,
    require_resource,
    sized_text,
    tied_target,
    verify_consumed_source,
    with_affinity,
)
from streamopt.ir.core import Access, Operation, Value
from streamopt.ir.opdef import attr_def, operand_def, result_def
from streamopt.ir.types import (
    INDEX_CONSTRAINT,
    TIMEPOINT_CONSTRAINT,
    Attribute,
    IntegerType,
    ResourceType,
    Type,
)
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


@register_op
class AsyncSplatOp(DeclaredStreamOp):
    """`%r = stream.async.splat on(A) await(%t)? %v : i32 -> !stream.resource<*>{%s}`."""

    __slots__ = ()
    name = "stream.async.splat"
    await_timepoint: Value | None = operand_def(TIMEPOINT_CONSTRAINT, optional=True)
    value = operand_def()
    result_size_value = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(check=require_resource)
    assembly_format = (
        "(`on` `(` $affinity^ `)`)? (`await` `(` $await_timepoint^ `)`)? $value `:` "
        "type($value) `->` type($result) `` `{` $result_size_value `}` attr-dict-with-keyword"
    )


@register_op
class AsyncCloneOp(DeclaredStreamOp):
    """`%r = stream.async.clone on(A) %x : T{%s} -> T'{%s}`: copy-on-write clone."""

    __slots__ = ()
    name = "stream.async.clone"
    source = operand_def(access=Access.READ, check=require_resource)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    result_size_value = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(check=require_resource)
    assembly_format = (
        "(`on` `(` $affinity^ `)`)? $source `:` type($source) `` `{` $source_size `}` `->` "
        "type($result) `` `{` $result_size_value `}` attr-dict-with-keyword"
    )


class TransferLikeOp(DeclaredStreamOp):
    """Shared by `stream.async.transfer` and `stream.async.move` (same operands and syntax)."""

    __slots__ = ()
    affinity_attr_name = "execution_affinity"
    source = operand_def(access=Access.READ)
    source_size = operand_def(size_of="source")
    result_size_value = operand_def(size_of="result")
    source_affinity: Attribute | None = attr_def(AFFINITY)
    target_affinity: Attribute | None = attr_def(AFFINITY)
    execution_affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def()
    assembly_format = (
        "(`on` `(` $execution_affinity^ `)`)? $source `:` type($source) `` `{` $source_size `}` "
        "(`from` `(` $source_affinity^ `)`)? `->` (`to` `(` $target_affinity^ `)`)? "
        "type($result) `` `{` $result_size_value `}` attr-dict-with-keyword"
    )


@register_op
class AsyncTransferOp(TransferLikeOp):
    """`%r = stream.async.transfer %x : T{%s} from(A) -> to(B) T{%s}`: always copies."""

    __slots__ = ()
    name = "stream.async.transfer"
    is_pure = True

    def verify(self) -> None:
        _verify_transfer_like(self)


def _verify_transfer_like(op: TransferLikeOp) -> None:
    """Checks shared by transfer and move: resource types and index sizes."""
    source_type = op.source.type
    result_type = op.result.type
    if not isinstance(source_type, ResourceType) or not isinstance(result_type, ResourceType):
        raise error(f"'{op.name}' op expects !stream.resource source and result types", op.location)
    for size in (op.source_size, op.result_size_value):
        if size.type is not None and size.type.text != "index":
            raise error(f"'{op.name}' op expects index sizes, got '{size.type}'", op.location)


@register_op
class AsyncMoveOp(TransferLikeOp):
    """`%r = stream.async.move %x : T{%s} from(A) -> to(B) T{%s}`: a transfer that consumes
    its source.

    Same operands, attributes and syntax as `stream.async.transfer`. After it no op may use the
    source or any other name of its storage; the runtime may then hand the source's memory to
    the target as-is (a pointer cast) or copy and free it. Not pure (never merged or hoisted)
    and not tied (the result is new storage as far as allocation is concerned).
    """

    __slots__ = ()
    name = "stream.async.move"

    def operand_access(self, index: int) -> Access:
        return Access.READ | Access.CONSUME if index == 0 else Access.NONE

    @classmethod
    def create(
        cls,
        source: Value,
        source_size: Value,
        result_type: Type,
        result_size: Value,
        source_affinity: Attribute | None = None,
        target_affinity: Attribute | None = None,
        execution_affinity: Attribute | None = None,
    ) -> AsyncMoveOp:
        """A move of `source` to storage of `result_type`."""
        attributes: dict[str, Attribute] = {}
        if execution_affinity is not None:
            attributes["execution_affinity"] = execution_affinity
        if source_affinity is not None:
            attributes["source_affinity"] = source_affinity
        if target_affinity is not None:
            attributes["target_affinity"] = target_affinity
        return cls([source, source_size, result_size], [result_type], attributes)

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

    def verify(self) -> None:
        _verify_transfer_like(self)

    def verify_in_module(self, context: Any) -> None:
        verify_consumed_source(self, context)


@register_op
class AsyncAllocaOp(DeclaredStreamOp):
    """`%r = stream.async.alloca on(A) : !stream.resource<transient>{%s}`: undefined contents."""

    __slots__ = ()
    name = "stream.async.alloca"
    storage_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def()
    assembly_format = "(`on` `(` $affinity^ `)`)? attr-dict `:` type($result) `{` $storage_size `}`"

    @classmethod
    def create(cls, type: Type, size: Value, affinity: Attribute | None = None) -> AsyncAllocaOp:
        """Allocate `size` bytes of `type` (a resource type) on `affinity`."""
        return cls([size], [type], with_affinity(None, affinity))

    def verify(self) -> None:
        check_lifetime(self, "result", 0, self.result.type, ANY_LIFETIMES)


@register_op
class AsyncConstantOp(StreamOp):
    """`%cst = stream.async.constant on(A) await(%t)? : T{%s} = dense<3> : tensor<8xi32>`."""

    __slots__ = ("has_await",)
    name = "stream.async.constant"
    inherent_attributes = frozenset({"value", "affinity"})
    operand_types = {"await_timepoint": TIMEPOINT_CONSTRAINT, "result_size_value": INDEX_CONSTRAINT}
    is_pure = True

    def __init__(self, *args: Any, has_await: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.has_await = has_await

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, AsyncConstantOp)
        new.has_await = self.has_await

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncConstantOp:
        clauses, rest = split_clauses(parts)
        result, value = rest
        attributes = op_attributes(clauses)
        attributes["value"] = value
        operands = [one_size(result, location)]
        if "await" in clauses:
            operands.insert(0, clauses["await"])
        return cls(
            operands, [result.type], attributes, location=location, has_await="await" in clauses
        )

    @classmethod
    def create(
        cls,
        type: Type,
        size: Value,
        value: Attribute,
        affinity: Attribute | None = None,
        await_timepoint: Value | None = None,
    ) -> AsyncConstantOp:
        """A `size`-byte resource of `type` holding `value` (e.g. a dense attribute)."""
        attributes = with_affinity({"value": value}, affinity)
        operands = [size] if await_timepoint is None else [await_timepoint, size]
        return cls(operands, [type], attributes, has_await=await_timepoint is not None)

    @property
    def value(self) -> Attribute:
        return self.attributes["value"]

    @property
    def await_timepoint(self) -> Value | None:
        return self.operands[0] if self.has_await else None

    @property
    def await_timepoints(self) -> list[Value]:
        return [self.operands[0]] if self.has_await else []

    @property
    def result_timepoint(self) -> Value | None:
        return None

    @property
    def result_size_value(self) -> Value:
        return self.operands[-1]

    def asm_result_name(self, index: int) -> str | None:
        return "cst"

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def result_size(self, index: int) -> Value | None:
        return self.operands[-1]

    def verify(self) -> None:
        check_lifetime(self, "result", 0, self.result.type, ANY_LIFETIMES)
        if self.has_await:
            check_timepoint(self, "operand", 0, self.operands[0].type)

    def print(self, p: Printer) -> None:
        p.write("stream.async.constant")
        self.print_affinity(p)
        if self.has_await:
            p.write(f" await({p.v(self.operands[0])})")
        p.write(f" : {sized_text(p, self.result.type, self.result_size_value)} = {self.value.text}")
        p.attr_dict(self, ("affinity", "value"), keyword=True)


@register_op
class AsyncSliceOp(DeclaredStreamOp):
    """`%r = stream.async.slice on(A) %x[%o to %e] : T{%s} -> T{%len}`: a copy of a range."""

    __slots__ = ()
    name = "stream.async.slice"
    is_pure = True
    source = operand_def(access=Access.READ)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    source_offset = operand_def(INDEX_CONSTRAINT)
    source_end = operand_def(INDEX_CONSTRAINT)
    result_size_value = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def()
    assembly_format = (
        "(`on` `(` $affinity^ `)`)? $source `[` $source_offset `to` $source_end `]` `:` "
        "type($source) `` `{` $source_size `}` `->` type($result) `` `{` $result_size_value `}` "
        "attr-dict-with-keyword"
    )

    @classmethod
    def create(
        cls,
        source: Value,
        source_size: Value,
        offset: Value,
        end: Value,
        result_size: Value,
        affinity: Attribute | None = None,
    ) -> AsyncSliceOp:
        """A new resource holding bytes [`offset`, `end`) of `source`."""
        return cls(
            [source, source_size, offset, end, result_size],
            [source.type],
            with_affinity(None, affinity),
        )

    def verify(self) -> None:
        check_lifetime(self, "operand", 0, self.source.type, ANY_LIFETIMES)
        if self.source.type != self.result.type:
            raise op_error(self, "failed to verify that all of {source, result} have same type")


class _TiedTargetOp(StreamOp):
    """An op that writes into operand 0 (its target) in place; its one result is tied to it."""

    __slots__ = ()

    @property
    def target(self) -> Value:
        return self.operands[0]

    @property
    def target_size(self) -> Value:
        return self.operands[1]

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0

    def result_size(self, index: int) -> Value | None:
        return self.operands[1]

    def operand_size(self, index: int) -> Value | None:
        return self.operands[1] if index == 0 else None

    def operand_access(self, index: int) -> Access:
        return Access.READ | Access.WRITE if index == 0 else Access.NONE

    def _verify_target(self, allowed: frozenset[str] = ANY_LIFETIMES) -> None:
        check_lifetime(self, "operand", 0, self.target.type, allowed)
        if self.target.type != self.result.type:
            raise op_error(self, "failed to verify that all of {target, result} have same type")


@register_op
class AsyncFillOp(_TiedTargetOp):
    """`%r = stream.async.fill on(A) %v, %x[%o to %e for %l] : i32 -> %x as T{%s}` (in place)."""

    __slots__ = ()
    name = "stream.async.fill"
    inherent_attributes = frozenset({"affinity"})
    operand_types = {
        "target_size": INDEX_CONSTRAINT,
        "target_offset": INDEX_CONSTRAINT,
        "target_end": INDEX_CONSTRAINT,
        "target_length": INDEX_CONSTRAINT,
    }

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncFillOp:
        clauses, rest = split_clauses(parts)
        value, target, offset, end, length, value_type, result = positional(rest)
        check_operand_type(value, value_type, location)
        type, size = tied_target(result, target, location)
        operands = [target, size, offset, end, length, value]
        return cls(operands, [type], op_attributes(clauses), location=location)

    @classmethod
    def create(
        cls,
        target: Value,
        target_size: Value,
        offset: Value,
        end: Value,
        length: Value,
        value: Value,
        affinity: Attribute | None = None,
    ) -> AsyncFillOp:
        """Fill `length` bytes of `target` from `offset` with the pattern `value`."""
        return cls(
            [target, target_size, offset, end, length, value],
            [target.type],
            with_affinity(None, affinity),
        )

    @property
    def target_offset(self) -> Value:
        return self.operands[2]

    @property
    def target_end(self) -> Value:
        return self.operands[3]

    @property
    def target_length(self) -> Value:
        return self.operands[4]

    @property
    def value(self) -> Value:
        return self.operands[5]

    def verify(self) -> None:
        self._verify_target()
        type = self.value.type
        if not (
            isinstance(type, IntegerType)
            and not type.signedness
            and type.width in FILL_PATTERN_WIDTHS
        ):
            raise op_error(
                self,
                "operand #5 must be 8-bit signless integer or 16-bit signless integer or "
                "32-bit signless integer or 64-bit signless integer, but got "
                f"'{type}'",
            )

    def print(self, p: Printer) -> None:
        p.write("stream.async.fill")
        self.print_affinity(p)
        p.write(
            f" {p.v(self.value)}, {p.v(self.target)}[{p.v(self.target_offset)} to "
            f"{p.v(self.target_end)} for {p.v(self.target_length)}] : {type_text(self.value.type)}"
            f" -> {print_tied_target(p, self.target, self.target_size)}"
        )
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class AsyncUpdateOp(_TiedTargetOp):
    """`%r = stream.async.update on(A) %u, %x[%o to %e] : T{%us} -> %x as T{%s}` (in place)."""

    __slots__ = ()
    name = "stream.async.update"
    inherent_attributes = frozenset({"affinity"})
    operand_types = {
        "target_size": INDEX_CONSTRAINT,
        "target_offset": INDEX_CONSTRAINT,
        "target_end": INDEX_CONSTRAINT,
        "update_size": INDEX_CONSTRAINT,
    }

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncUpdateOp:
        clauses, rest = split_clauses(parts)
        update, target, offset, end, update_sized, result = positional(rest)
        check_operand_type(update, update_sized.type, location)
        type, size = tied_target(result, target, location)
        operands = [target, size, offset, end, update, one_size(update_sized, location)]
        return cls(operands, [type], op_attributes(clauses), location=location)

    @classmethod
    def create(
        cls,
        target: Value,
        target_size: Value,
        offset: Value,
        end: Value,
        update: Value,
        update_size: Value,
        affinity: Attribute | None = None,
    ) -> AsyncUpdateOp:
        """Write all of `update` into `target` at [`offset`, `end`)."""
        return cls(
            [target, target_size, offset, end, update, update_size],
            [target.type],
            with_affinity(None, affinity),
        )

    @property
    def target_offset(self) -> Value:
        return self.operands[2]

    @property
    def target_end(self) -> Value:
        return self.operands[3]

    @property
    def update(self) -> Value:
        return self.operands[4]

    @property
    def update_size(self) -> Value:
        return self.operands[5]

    def operand_access(self, index: int) -> Access:
        if index == 4:
            return Access.READ
        return super().operand_access(index)

    def operand_size(self, index: int) -> Value | None:
        if index == 4:
            return self.operands[5]
        return super().operand_size(index)

    def verify(self) -> None:
        self._verify_target()
        check_lifetime(self, "operand", 4, self.update.type, ANY_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write("stream.async.update")
        self.print_affinity(p)
        p.write(
            f" {p.v(self.update)}, {p.v(self.target)}[{p.v(self.target_offset)} to "
            f"{p.v(self.target_end)}] : {sized_text(p, self.update.type, self.update_size)} -> "
            f"{print_tied_target(p, self.target, self.target_size)}"
        )
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class AsyncCopyOp(_TiedTargetOp):
    """`%r = stream.async.copy on(A) %src[%so to %se], %dst[%do to %de], %len : T{%ss} ->
    %dst as T{%ds}`: in place into the target."""

    __slots__ = ()
    name = "stream.async.copy"
    inherent_attributes = frozenset({"affinity"})
    operand_types = {
        "target_size": INDEX_CONSTRAINT,
        "target_offset": INDEX_CONSTRAINT,
        "target_end": INDEX_CONSTRAINT,
        "source_size": INDEX_CONSTRAINT,
        "source_offset": INDEX_CONSTRAINT,
        "source_end": INDEX_CONSTRAINT,
        "length": INDEX_CONSTRAINT,
    }

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncCopyOp:
        clauses, rest = split_clauses(parts)
        (
            source,
            source_offset,
            source_end,
            target,
            target_offset,
            target_end,
            length,
            source_sized,
            result,
        ) = positional(rest)
        check_operand_type(source, source_sized.type, location)
        type, size = tied_target(result, target, location)
        operands = [
            target,
            size,
            target_offset,
            target_end,
            source,
            one_size(source_sized, location),
            source_offset,
            source_end,
            length,
        ]
        return cls(operands, [type], op_attributes(clauses), location=location)

    @classmethod
    def create(
        cls,
        source: Value,
        source_size: Value,
        source_offset: Value,
        source_end: Value,
        target: Value,
        target_size: Value,
        target_offset: Value,
        target_end: Value,
        length: Value,
        affinity: Attribute | None = None,
    ) -> AsyncCopyOp:
        """Copy `length` bytes from `source` at `source_offset` into `target` at
        `target_offset`."""
        operands = [
            target,
            target_size,
            target_offset,
            target_end,
            source,
            source_size,
            source_offset,
            source_end,
            length,
        ]
        return cls(operands, [target.type], with_affinity(None, affinity))

    @property
    def target_offset(self) -> Value:
        return self.operands[2]

    @property
    def target_end(self) -> Value:
        return self.operands[3]

    @property
    def source(self) -> Value:
        return self.operands[4]

    @property
    def source_size(self) -> Value:
        return self.operands[5]

    @property
    def source_offset(self) -> Value:
        return self.operands[6]

    @property
    def source_end(self) -> Value:
        return self.operands[7]

    @property
    def length(self) -> Value:
        return self.operands[8]

    def operand_access(self, index: int) -> Access:
        if index == 4:
            return Access.READ
        return super().operand_access(index)

    def operand_size(self, index: int) -> Value | None:
        if index == 4:
            return self.operands[5]
        return super().operand_size(index)

    def verify(self) -> None:
        self._verify_target()
        check_lifetime(self, "operand", 4, self.source.type, ANY_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write("stream.async.copy")
        self.print_affinity(p)
        p.write(
            f" {p.v(self.source)}[{p.v(self.source_offset)} to {p.v(self.source_end)}], "
            f"{p.v(self.target)}[{p.v(self.target_offset)} to {p.v(self.target_end)}], "
            f"{p.v(self.length)} : {sized_text(p, self.source.type, self.source_size)} -> "
            f"{print_tied_target(p, self.target, self.target_size)}"
        )
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class AsyncCastOp(DeclaredStreamOp):
    """`%r = stream.async.cast on(A) %x : T{%s} -> T'{%s}`: the same storage with another
    lifetime (tied to the source; RefineUsage must remove it)."""

    __slots__ = ()
    name = "stream.async.cast"
    is_pure = True
    # A passthrough: the op itself touches no bytes; accesses through the result are its users'.
    source = operand_def(access=Access.READ)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    result_size_value = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def()
    assembly_format = (
        "(`on` `(` $affinity^ `)`)? $source `:` type($source) `{` $source_size `}` `->` "
        "type($result) `{` $result_size_value `}` attr-dict"
    )

    @classmethod
    def create(
        cls, source: Value, size: Value, result_type: Type, affinity: Attribute | None = None
    ) -> AsyncCastOp:
        """View `source` (of `size` bytes) as `result_type`."""
        return cls([source, size, size], [result_type], with_affinity(None, affinity))

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0

    def verify(self) -> None:
        check_lifetime(self, "operand", 0, self.source.type, ANY_LIFETIMES)
        check_lifetime(self, "result", 0, self.result.type, ANY_LIFETIMES)
        if self.source_size is not self.result_size_value:
            raise op_error(self, "source and result sizes must be equal (tied storage)")


@register_op
class AsyncLoadOp(DeclaredStreamOp):
    """`%v = stream.async.load %x[%o] : !stream.resource<staging>{%s} -> i32`."""

    __slots__ = ()
    name = "stream.async.load"
    is_pure = True
    source = operand_def(access=Access.READ)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    source_offset = operand_def(INDEX_CONSTRAINT)
    result = result_def()
    assembly_format = (
        "$source `[` $source_offset `]` `:` type($source) `` `{` $source_size `}` `->` "
        "type($result) attr-dict-with-keyword"
    )

    def verify(self) -> None:
        check_lifetime(self, "operand", 0, self.source.type, STAGING_LIFETIMES)


@register_op
class AsyncStoreOp(_TiedTargetOp):
    """`%r = stream.async.store %v, %x[%o] : i32 -> %x as !stream.resource<staging>{%s}`."""

    __slots__ = ()
    name = "stream.async.store"
    operand_types = {"target_size": INDEX_CONSTRAINT, "target_offset": INDEX_CONSTRAINT}
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncStoreOp:
        clauses, rest = split_clauses(parts)
        value, target, offset, value_type, result = positional(rest)
        check_operand_type(value, value_type, location)
        type, size = tied_target(result, target, location)
        return cls([target, size, offset, value], [type], op_attributes(clauses), location=location)

    @classmethod
    def create(cls, target: Value, target_size: Value, offset: Value, value: Value) -> AsyncStoreOp:
        """Write `value` into `target` at byte `offset`."""
        return cls([target, target_size, offset, value], [target.type])

    @property
    def target_offset(self) -> Value:
        return self.operands[2]

    @property
    def value(self) -> Value:
        return self.operands[3]

    def verify(self) -> None:
        self._verify_target(STAGING_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write(
            f"stream.async.store {p.v(self.value)}, {p.v(self.target)}"
            f"[{p.v(self.target_offset)}] : {type_text(self.value.type)} -> "
            f"{print_tied_target(p, self.target, self.target_size)}"
        )
        p.attr_dict(self, (), keyword=True)


@register_op
class AsyncBarrierOp(DeclaredStreamOp):
    """`%r = stream.async.barrier on(A) %x : T{%s}`: pins the value to an affinity (tied)."""

    __slots__ = ()
    name = "stream.async.barrier"
    # A passthrough, like stream.async.cast.
    source = operand_def(access=Access.READ)
    size = operand_def(INDEX_CONSTRAINT, size_of=("source", "result"))
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(same_as="source")
    assembly_format = (
        "(`on` `(` $affinity^ `)`)? $source `:` type($source) `` `{` $size `}` "
        "attr-dict-with-keyword"
    )

    @classmethod
    def create(
        cls, source: Value, size: Value, affinity: Attribute | None = None
    ) -> AsyncBarrierOp:
        """Pin `source` to `affinity`."""
        return cls([source, size], [source.type], with_affinity(None, affinity))

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0

    def verify(self) -> None:
        check_lifetime(self, "operand", 0, self.source.type, ANY_OR_STAGING_LIFETIMES)
