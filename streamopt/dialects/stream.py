"""The stream dialect: async resource ops, timeline ops, tensor import/export, cmd-phase ops.

Syntax follows the assemblyFormat of IREE's StreamOps.td. Each op class exposes the interfaces
the analyses read: `affinity`, tied results (`tied_operand_index`), the size operand of each
resource operand and result, and whether it reads or writes its resource operands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import Location, error
from streamopt.dialects import register_op
from streamopt.dialects.common import (
    SegmentedOp,
    check_operand_type,
    print_shaped_function_type,
    split_clauses,
)
from streamopt.ir.core import Access, Operation, Value
from streamopt.ir.types import Attribute, ResourceType, Type
from streamopt.parser.parts import (
    AttrDict,
    EntryPoints,
    OperandRange,
    Operands,
    ShapedResults,
    ShapedTypes,
    Sized,
    Tied,
)

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


def _sized(p: Printer, type: Type | None, size: Value) -> str:
    return f"{type.text if type else '?'}{{{p.value_name(size)}}}"


def _one_size(sized: Sized, location: Location) -> Value:
    if len(sized.sizes) != 1:
        raise error(f"expected one size for '{sized.type}'", location)
    return sized.sizes[0]


def _require_resource(type: Type, location: Location) -> None:
    if not isinstance(type, ResourceType):
        raise error(f"expected a !stream.resource type, got '{type}'", location)


class StreamOp(Operation):
    """Base of stream ops: the execution affinity is `on(...)`."""

    __slots__ = ()
    affinity_attr_name = "affinity"

    @property
    def affinity(self) -> Attribute | None:
        """Where the op executes (`on(...)`), if set."""
        return self.attributes.get(self.affinity_attr_name)

    def print_affinity(self, p: Printer) -> None:
        affinity = self.attributes.get(self.affinity_attr_name)
        if affinity is not None:
            p.write(f" on({affinity.text})")


@register_op
class AsyncSplatOp(StreamOp):
    """`%r = stream.async.splat on(A) await(%t)? %v : i32 -> !stream.resource<*>{%s}`."""

    __slots__ = ("has_await",)
    name = "stream.async.splat"

    def __init__(self, *args: Any, has_await: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.has_await = has_await

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, AsyncSplatOp)
        new.has_await = self.has_await

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncSplatOp:
        clauses, rest = split_clauses(parts)
        value, value_type, result = rest
        check_operand_type(value, value_type, location)
        _require_resource(result.type, location)
        operands = [value, _one_size(result, location)]
        if "await" in clauses:
            operands.insert(0, clauses["await"])
        attributes = dict(clauses.get("attributes", {}))
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        return cls(
            operands, [result.type], attributes, location=location, has_await="await" in clauses
        )

    @property
    def await_timepoint(self) -> Value | None:
        return self.operands[0] if self.has_await else None

    @property
    def value(self) -> Value:
        return self.operands[-2]

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def result_size(self, index: int) -> Value | None:
        return self.result_size_value

    @property
    def result_size_value(self) -> Value:
        return self.operands[-1]

    def print(self, p: Printer) -> None:
        p.write("stream.async.splat")
        self.print_affinity(p)
        if self.has_await:
            p.write(f" await({p.v(self.operands[0])})")
        value = self.value
        p.write(f" {p.v(value)} : {value.type.text if value.type else '?'} -> ")
        p.write(_sized(p, self.result.type, self.result_size_value))
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class AsyncCloneOp(StreamOp):
    """`%r = stream.async.clone on(A) %x : T{%s} -> T'{%s}`: copy-on-write clone."""

    __slots__ = ()
    name = "stream.async.clone"

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncCloneOp:
        clauses, rest = split_clauses(parts)
        source, source_sized, result_sized = rest
        check_operand_type(source, source_sized.type, location)
        _require_resource(source_sized.type, location)
        _require_resource(result_sized.type, location)
        attributes = dict(clauses.get("attributes", {}))
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        operands = [source, _one_size(source_sized, location), _one_size(result_sized, location)]
        return cls(operands, [result_sized.type], attributes, location=location)

    @property
    def source(self) -> Value:
        return self.operands[0]

    @property
    def source_size(self) -> Value:
        return self.operands[1]

    @property
    def result_size_value(self) -> Value:
        return self.operands[2]

    def operand_access(self, index: int) -> Access:
        return Access.READ if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.operands[1] if index == 0 else None

    def result_size(self, index: int) -> Value | None:
        return self.operands[2]

    def print(self, p: Printer) -> None:
        p.write("stream.async.clone")
        self.print_affinity(p)
        p.write(f" {p.v(self.source)} : {_sized(p, self.source.type, self.source_size)} -> ")
        p.write(_sized(p, self.result.type, self.result_size_value))
        p.attr_dict(self, ("affinity",), keyword=True)


class _TransferLikeOp(StreamOp):
    """Shared by `stream.async.transfer` and `stream.async.move` (same operands and syntax)."""

    __slots__ = ()
    affinity_attr_name = "execution_affinity"

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        source, source_sized, result_sized = rest
        check_operand_type(source, source_sized.type, location)
        attributes = dict(clauses.get("attributes", {}))
        if "on" in clauses:
            attributes["execution_affinity"] = clauses["on"]
        if "from" in clauses:
            attributes["source_affinity"] = clauses["from"]
        if "to" in clauses:
            attributes["target_affinity"] = clauses["to"]
        operands = [source, _one_size(source_sized, location), _one_size(result_sized, location)]
        return cls(operands, [result_sized.type], attributes, location=location)

    @property
    def source(self) -> Value:
        return self.operands[0]

    @property
    def source_size(self) -> Value:
        return self.operands[1]

    @property
    def result_size_value(self) -> Value:
        return self.operands[2]

    def operand_access(self, index: int) -> Access:
        return Access.READ if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.operands[1] if index == 0 else None

    def result_size(self, index: int) -> Value | None:
        return self.operands[2]

    @property
    def source_affinity(self) -> Attribute | None:
        return self.attributes.get("source_affinity")

    @property
    def target_affinity(self) -> Attribute | None:
        return self.attributes.get("target_affinity")

    def print(self, p: Printer) -> None:
        p.write(self.name)
        self.print_affinity(p)
        p.write(f" {p.v(self.source)} : {_sized(p, self.source.type, self.source_size)}")
        source_affinity = self.attributes.get("source_affinity")
        if source_affinity is not None:
            p.write(f" from({source_affinity.text})")
        p.write(" ->")
        target_affinity = self.attributes.get("target_affinity")
        if target_affinity is not None:
            p.write(f" to({target_affinity.text})")
        p.write(" " + _sized(p, self.result.type, self.result_size_value))
        p.attr_dict(
            self, ("execution_affinity", "source_affinity", "target_affinity"), keyword=True
        )


@register_op
class AsyncTransferOp(_TransferLikeOp):
    """`%r = stream.async.transfer %x : T{%s} from(A) -> to(B) T{%s}`: always copies."""

    __slots__ = ()
    name = "stream.async.transfer"
    is_pure = True

    def verify(self) -> None:
        _verify_transfer_like(self)


def _verify_transfer_like(op: _TransferLikeOp) -> None:
    """Checks shared by transfer and move: resource types and index sizes."""
    source_type = op.source.type
    result_type = op.result.type
    if not isinstance(source_type, ResourceType) or not isinstance(result_type, ResourceType):
        raise error(f"'{op.name}' op expects !stream.resource source and result types", op.location)
    for size in (op.source_size, op.result_size_value):
        if size.type is not None and size.type.text != "index":
            raise error(f"'{op.name}' op expects index sizes, got '{size.type}'", op.location)


@register_op
class AsyncMoveOp(_TransferLikeOp):
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


@register_op
class AsyncDispatchOp(StreamOp, SegmentedOp):
    """`stream.async.dispatch on(A) @ex::@fn[%w](%a[%o to %e for %l], %c) : (...) -> (...)`."""

    __slots__ = ("entry_points", "tied_operands")
    name = "stream.async.dispatch"
    is_pure = True
    segment_names = (
        "workload",
        "resource_operands",
        "resource_operand_sizes",
        "resource_operand_offsets",
        "resource_operand_ends",
        "resource_operand_lengths",
        "result_sizes",
    )

    def __init__(
        self,
        *args: Any,
        entry_points: list[Attribute] | None = None,
        tied_operands: list[int | None] | None = None,
        has_workload: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.entry_points = entry_points or []
        self.tied_operands = tied_operands or [None] * len(self.results)

    def _copy_extra_state(self, new: Operation) -> None:
        SegmentedOp._copy_extra_state(self, new)
        assert isinstance(new, AsyncDispatchOp)
        new.entry_points = list(self.entry_points)
        new.tied_operands = list(self.tied_operands)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncDispatchOp:
        clauses, rest = split_clauses(parts)
        entry_points: list[Attribute] = []
        operand_parts: list[Any] = []
        attributes: dict[str, Attribute] = {}
        operand_types: list[Any] = []
        result_items: list[Any] = []
        for part in rest:
            if isinstance(part, EntryPoints):
                entry_points = part
            elif isinstance(part, Operands):
                operand_parts = part
            elif isinstance(part, AttrDict):
                attributes = dict(part)
            elif isinstance(part, ShapedTypes):
                operand_types = part
            elif isinstance(part, ShapedResults):
                result_items = part
        operands: list[Value] = []
        offsets: list[Value] = []
        ends: list[Value] = []
        lengths: list[Value] = []
        for item in operand_parts:
            if isinstance(item, OperandRange):
                operands.append(item.value)
                offsets.append(item.offset)
                ends.append(item.end)
                lengths.append(item.length)
            else:
                operands.append(item)
        if len(operand_types) != len(operands):
            raise error(
                f"expected {len(operands)} operand types, got {len(operand_types)}", location
            )
        operand_sizes: list[Value] = []
        for value, type_part in zip(operands, operand_types):
            type = type_part.type if isinstance(type_part, Sized) else type_part
            check_operand_type(value, type, location)
            if isinstance(type_part, Sized):
                operand_sizes.extend(type_part.sizes)
        result_types: list[Type] = []
        result_sizes: list[Value] = []
        tied: list[int | None] = []
        for item in result_items:
            if isinstance(item, Tied):
                position = next((i for i, v in enumerate(operands) if v is item.operand), None)
                if position is None:
                    raise error("tied operand not found for result reference", location)
                tied.append(position)
                result_types.append(item.type if item.type is not None else operands[position].type)  # type: ignore[arg-type]
                result_sizes.extend(item.sizes)
            elif isinstance(item, Sized):
                tied.append(None)
                result_types.append(item.type)
                result_sizes.extend(item.sizes)
            else:
                tied.append(None)
                result_types.append(item)
        workload = list(clauses.get("workload", []))
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        segments = [
            len(workload),
            len(operands),
            len(operand_sizes),
            len(offsets),
            len(ends),
            len(lengths),
            len(result_sizes),
        ]
        all_operands = workload + operands + operand_sizes + offsets + ends + lengths + result_sizes
        op = cls(
            all_operands,
            result_types,
            attributes,
            location=location,
            segments=segments,
            entry_points=entry_points,
            tied_operands=tied,
        )
        return op

    @property
    def workload(self) -> list[Value]:
        return self.segment(0)

    @property
    def resource_operands(self) -> list[Value]:
        return self.segment(1)

    @property
    def resource_operand_sizes(self) -> list[Value]:
        return self.segment(2)

    @property
    def result_sizes(self) -> list[Value]:
        return self.segment(6)

    def tied_operand_index(self, result_index: int) -> int | None:
        """Index (into all operands) of the operand result `result_index` is tied to."""
        tied = self.tied_operands[result_index]
        return None if tied is None else self.segments[0] + tied

    def operand_access(self, index: int) -> Access:
        start = self.segments[0]
        position = index - start
        if position < 0 or position >= self.segments[1]:
            return Access.NONE
        if not isinstance(self.operands[index].type, ResourceType):
            return Access.NONE
        if position in self.tied_operands:
            return Access.READ | Access.WRITE
        return Access.READ

    def operand_size(self, index: int) -> Value | None:
        position = index - self.segments[0]
        if position < 0 or position >= self.segments[1]:
            return None
        # Sizes are listed for the sized operands only, in order.
        sized = [
            i for i, v in enumerate(self.resource_operands) if isinstance(v.type, ResourceType)
        ]
        if position not in sized:
            return None
        return self.resource_operand_sizes[sized.index(position)]

    def result_size(self, index: int) -> Value | None:
        sized = [i for i, r in enumerate(self.results) if isinstance(r.type, ResourceType)]
        if index not in sized:
            return None
        return self.result_sizes[sized.index(index)]

    def print(self, p: Printer) -> None:
        write = p.write
        write("stream.async.dispatch")
        self.print_affinity(p)
        entry = self.entry_points
        if len(entry) == 1:
            write(" " + entry[0].text)
        else:
            write(" {" + ", ".join(e.text for e in entry) + "}")
        workload = self.workload
        if workload:
            write("[" + p.values(workload) + "]")
        operands = self.resource_operands
        offsets = self.segment(3)
        ends = self.segment(4)
        lengths = self.segment(5)
        parts: list[str] = []
        range_index = 0
        for value in operands:
            if isinstance(value.type, ResourceType):
                parts.append(
                    f"{p.v(value)}[{p.v(offsets[range_index])} to {p.v(ends[range_index])} for "
                    f"{p.v(lengths[range_index])}]"
                )
                range_index += 1
            else:
                parts.append(p.v(value))
        write("(" + ", ".join(parts) + ")")
        p.attr_dict(self, ("affinity",))
        write(" : ")
        write(
            print_shaped_function_type(
                p,
                self,
                operands,
                [v.type for v in operands],  # type: ignore[misc]
                self.resource_operand_sizes,
                [r.type for r in self.results],  # type: ignore[misc]
                self.result_sizes,
                self.tied_operands,
            )
        )


# -- resource and cmd-phase ops ---------------------------------------------------------------
