"""The stream dialect: async resource ops, timeline ops, tensor import/export, cmd-phase ops.

Syntax follows the assemblyFormat of IREE's StreamOps.td. Each op class exposes the interfaces
the analyses read: `affinity`, tied results (`tied_operand_index`), the size operand of each
resource operand and result, and whether it reads or writes its resource operands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from streamopt.diagnostics import UNKNOWN_LOCATION, DiagnosticError, Location, error
from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.common import (
    SegmentedOp,
    check_operand_type,
    is_sized,
    print_shaped_function_type,
    split_clauses,
)
from streamopt.ir.core import (
    Access,
    Block,
    BlockArgument,
    Operation,
    Region,
    RegionKind,
    Value,
)
from streamopt.ir.types import (
    INDEX,
    TIMEPOINT,
    UNIT,
    Attribute,
    IntegerType,
    ResourceType,
    Type,
)
from streamopt.parser.parts import (
    TOKEN_CLASSES,
    AttrDict,
    Clause,
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
#
# Timeline resource ops (`stream.resource.alloca` / `dealloca`), resource metadata ops, and the
# explicit command ops of `stream.cmd.execute` regions. Syntax follows StreamOps.td and the
# `custom<ExplicitResourceRegion>` / `custom<DispatchResources>` directives of StreamOps.cpp.


def _op_error(op: Operation, message: str) -> DiagnosticError:
    """MLIR's op diagnostic: `'name' op message`."""
    return error(f"'{op.name}' op {message}", op.location)


def _clause_attributes(clauses: dict[str, Any]) -> dict[str, Attribute]:
    """The attribute dictionary written after `attributes` (or inline), as a fresh dict."""
    return dict(clauses.get("attributes", {}))


def _split(parts: list[Any]) -> tuple[dict[str, Any], list[Any]]:
    """`split_clauses`, dropping keyword tokens (`for`, `as`) from the positional parts."""
    clauses, rest = split_clauses(parts)
    return clauses, [part for part in rest if not isinstance(part, TOKEN_CLASSES)]


def _rest_of(rest: list[Any], kind: type) -> list[Any]:
    return [part for part in rest if isinstance(part, kind)]


def _check_sized_operand(value: Value, sized: Sized, location: Location) -> Value:
    """Type-check `value` against `T{%s}` and return the size operand."""
    check_operand_type(value, sized.type, location)
    _require_resource(sized.type, location)
    return _one_size(sized, location)


def value_access(value: Value) -> Access:
    """Everything the users of `value` (and of results tied to it) do to it."""
    access = Access.NONE
    for use in value.uses:
        user = use.operation
        access |= user.operand_access(use.index)
        for result in user.results:
            if user.tied_operand_index(result.index) == use.index:
                access |= value_access(result)
    return access


class _TimelineOp(StreamOp):
    """A stream op that may await one timepoint (`await(%t) =>`), kept as its last operand."""

    __slots__ = ()
    # How many operands the op has without the await timepoint.
    fixed_operand_count = 0

    @property
    def await_timepoint(self) -> Value | None:
        """The timepoint the op waits on before it starts, if any."""
        operands = self.operands
        return operands[-1] if len(operands) > self.fixed_operand_count else None

    def set_await_timepoint(self, timepoint: Value | None) -> None:
        """Make the op wait on `timepoint` (None: start at once)."""
        operands = list(self.operands[: self.fixed_operand_count])
        if timepoint is not None:
            operands.append(timepoint)
        self.set_operands(operands)

    @property
    def await_timepoints(self) -> list[Value]:
        timepoint = self.await_timepoint
        return [timepoint] if timepoint is not None else []

    @property
    def result_timepoint(self) -> Value:
        return self.results[-1]

    def print_await(self, p: Printer) -> bool:
        """Print ` await(%t) =>` if the op awaits; tell whether it did."""
        timepoint = self.await_timepoint
        if timepoint is None:
            return False
        p.write(f" await({p.v(timepoint)}) =>")
        return True

    def operand_access(self, index: int) -> Access:
        return Access.NONE


@register_op
class ResourceAllocaOp(_TimelineOp):
    """`stream.resource.alloca`: allocate memory with undefined contents on a timeline.

        %r, %t = stream.resource.alloca uninitialized on(A) await(%t0) =>
            !stream.resource<transient>{%s} => !stream.timepoint

    The memory is usable once the result timepoint is reached. `indeterminate` marks a lifetime
    analysis could not bound: it must not be freed asynchronously.
    """

    __slots__ = ()
    name = "stream.resource.alloca"
    fixed_operand_count = 1

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourceAllocaOp:
        clauses, rest = _split(parts)
        attributes = _clause_attributes(clauses)
        for part in rest:
            if isinstance(part, AttrDict):
                attributes.update(part)
        sized: Sized = _rest_of(rest, Sized)[0]
        timepoint_type: Type = next(p for p in rest if isinstance(p, Type))
        _require_timepoint(timepoint_type, location)
        operands = [_one_size(sized, location)]
        if "await" in clauses:
            check_operand_type(clauses["await"], TIMEPOINT, location)
            operands.append(clauses["await"])
        if "indeterminate" in clauses:
            attributes["indeterminate_lifetime"] = UNIT
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        return cls(operands, [sized.type, TIMEPOINT], attributes, location=location)

    @classmethod
    def create(
        cls,
        size: Value,
        type: ResourceType,
        affinity: Attribute | None = None,
        await_timepoint: Value | None = None,
        indeterminate: bool = False,
    ) -> ResourceAllocaOp:
        """An allocation of `size` bytes of `type`, on `affinity`, after `await_timepoint`."""
        attributes: dict[str, Attribute] = {}
        if indeterminate:
            attributes["indeterminate_lifetime"] = UNIT
        if affinity is not None:
            attributes["affinity"] = affinity
        operands = [size] if await_timepoint is None else [size, await_timepoint]
        return cls(operands, [type, TIMEPOINT], attributes)

    @property
    def storage_size(self) -> Value:
        return self.operands[0]

    @property
    def indeterminate_lifetime(self) -> bool:
        return "indeterminate_lifetime" in self.attributes

    def result_size(self, index: int) -> Value | None:
        return self.storage_size if index == 0 else None

    def asm_result_name(self, index: int) -> str | None:
        return ("result", "result_timepoint")[index]

    def verify(self) -> None:
        if not isinstance(self.results[0].type, ResourceType):
            raise _op_error(
                self,
                f"result #0 must be any stream-compatible type, but got '{self.results[0].type}'",
            )

    def print(self, p: Printer) -> None:
        p.write("stream.resource.alloca uninitialized")
        if self.indeterminate_lifetime:
            p.write(" indeterminate")
        self.print_affinity(p)
        if not self.print_await(p):
            p.write(" :")
        p.attr_dict(self, ("affinity", "indeterminate_lifetime"))
        p.write(f" {_sized(p, self.results[0].type, self.storage_size)} => !stream.timepoint")


@register_op
class ResourceDeallocaOp(_TimelineOp):
    """`%t = stream.resource.dealloca origin? on(A) await(%t0) => %r : T{%s} => !stream.timepoint`.

    Frees `%r` once the await timepoint is reached; the result timepoint says when the memory
    may be reused. `origin` asks to free it on the queue that allocated it.
    """

    __slots__ = ()
    name = "stream.resource.dealloca"
    fixed_operand_count = 2

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourceDeallocaOp:
        clauses, rest = _split(parts)
        attributes = _clause_attributes(clauses)
        resource: Value = rest[0]
        sized: Sized = rest[1]
        _require_timepoint(rest[2], location)
        for part in rest[3:]:
            if isinstance(part, AttrDict):
                attributes.update(part)
        operands = [resource, _check_sized_operand(resource, sized, location)]
        if "await" in clauses:
            check_operand_type(clauses["await"], TIMEPOINT, location)
            operands.append(clauses["await"])
        if "origin" in clauses:
            attributes["prefer_origin"] = UNIT
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        return cls(operands, [TIMEPOINT], attributes, location=location)

    @classmethod
    def create(
        cls,
        resource: Value,
        size: Value,
        affinity: Attribute | None = None,
        await_timepoint: Value | None = None,
        prefer_origin: bool = False,
    ) -> ResourceDeallocaOp:
        """Free `resource` (of `size` bytes) on `affinity` after `await_timepoint`."""
        attributes: dict[str, Attribute] = {}
        if prefer_origin:
            attributes["prefer_origin"] = UNIT
        if affinity is not None:
            attributes["affinity"] = affinity
        operands = (
            [resource, size] if await_timepoint is None else [resource, size, await_timepoint]
        )
        return cls(operands, [TIMEPOINT], attributes)

    @property
    def resource(self) -> Value:
        return self.operands[0]

    @property
    def resource_size(self) -> Value:
        return self.operands[1]

    @property
    def prefer_origin(self) -> bool:
        return "prefer_origin" in self.attributes

    def operand_access(self, index: int) -> Access:
        # Freeing ends the storage's life: nothing may use it afterwards.
        return Access.CONSUME if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.resource_size if index == 0 else None

    def print(self, p: Printer) -> None:
        p.write("stream.resource.dealloca")
        if self.prefer_origin:
            p.write(" origin")
        self.print_affinity(p)
        self.print_await(p)
        resource = self.resource
        p.write(f" {p.v(resource)} : {_sized(p, resource.type, self.resource_size)}")
        p.write(" => !stream.timepoint")
        p.attr_dict(self, ("affinity", "prefer_origin"))


@register_op
class ResourceSizeOp(Operation):
    """`%n = stream.resource.size %r : T`: the byte size of a resource's storage."""

    __slots__ = ()
    name = "stream.resource.size"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourceSizeOp:
        resource: Value = parts[0]
        attributes = dict(parts[1]) if isinstance(parts[1], AttrDict) else {}
        type: Type = parts[-1]
        check_operand_type(resource, type, location)
        _require_resource(type, location)
        return cls([resource], [INDEX], attributes, location=location)

    @classmethod
    def create(cls, resource: Value) -> ResourceSizeOp:
        return cls([resource], [INDEX])

    @property
    def resource(self) -> Value:
        return self.operands[0]

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def operand_size(self, index: int) -> Value | None:
        # As in IREE: the size of the operand is what this op computes.
        return self.result

    def fold(self) -> list[Value] | None:
        """The size the resource's producer already carries, if it carries one."""
        resource = self.resource
        producer = resource.defining_op
        if producer is None:
            return None
        size = producer.result_size(resource.index)  # type: ignore[attr-defined]
        return [size] if size is not None else None

    def print(self, p: Printer) -> None:
        resource = self.resource
        p.write(f"stream.resource.size {p.v(resource)}")
        p.attr_dict(self)
        p.write(f" : {resource.type.text if resource.type else '?'}")


@register_op
class ResourceSubviewOp(Operation):
    """`%v = stream.resource.subview %r[%offset] : T{%size} -> T{%length}`: an alias of a range."""

    __slots__ = ()
    name = "stream.resource.subview"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourceSubviewOp:
        clauses, rest = _split(parts)
        source, offset, source_sized, result_sized = rest
        source_size = _check_sized_operand(source, source_sized, location)
        check_operand_type(offset, INDEX, location)
        _require_resource(result_sized.type, location)
        operands = [source, source_size, offset, _one_size(result_sized, location)]
        return cls(operands, [result_sized.type], _clause_attributes(clauses), location=location)

    @classmethod
    def create(
        cls, source: Value, source_size: Value, offset: Value, length: Value
    ) -> ResourceSubviewOp:
        """A view of `length` bytes of `source` starting at `offset`."""
        return cls([source, source_size, offset, length], [source.type])

    @property
    def source(self) -> Value:
        return self.operands[0]

    @property
    def source_size(self) -> Value:
        return self.operands[1]

    @property
    def source_offset(self) -> Value:
        return self.operands[2]

    @property
    def result_size_value(self) -> Value:
        return self.operands[3]

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0

    def operand_access(self, index: int) -> Access:
        # Making a view touches no bytes; what users of the view do reaches the source through
        # the tie.
        return Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.source_size if index == 0 else None

    def result_size(self, index: int) -> Value | None:
        return self.result_size_value

    def verify(self) -> None:
        if self.source.type != self.result.type:
            raise _op_error(self, "failed to verify that all of {source, result} have same type")

    def print(self, p: Printer) -> None:
        source = self.source
        p.write(f"stream.resource.subview {p.v(source)}[{p.v(self.source_offset)}] : ")
        p.write(f"{_sized(p, source.type, self.source_size)} -> ")
        p.write(_sized(p, self.result.type, self.result_size_value))
        p.attr_dict(self, keyword=True)


class PackSlice(NamedTuple):
    """`[start, end] = %size` in `stream.resource.pack`: a slice live over [start, end]."""

    start: int
    end: int
    size: Value


@parse_rule("pack_offset")
def _pack_offset(b: Builder, children: list[Any]) -> Clause:
    return Clause("offset", children[-1])


@parse_rule("pack_slice")
def _pack_slice(b: Builder, children: list[Any]) -> PackSlice:
    start, end = (int(str(c), 0) for c in children if getattr(c, "type", None) == "INTEGER")
    return PackSlice(start, end, children[-1])


@register_op
class ResourcePackOp(StreamOp, SegmentedOp):
    """`%total, %offsets:N = stream.resource.pack on(A) offset(%o)? slices({[0, 1] = %s, ...})
    : index`: place slices with the given lifetimes in one slab (slices whose lifetimes do not
    overlap may share bytes); results are the slab size and each slice's offset."""

    __slots__ = ("lifetime_intervals",)
    name = "stream.resource.pack"
    is_pure = True
    segment_names = ("offset", "dynamic_slice_sizes")

    def __init__(
        self, *args: Any, lifetime_intervals: Sequence[tuple[int, int]] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.lifetime_intervals: list[tuple[int, int]] = list(lifetime_intervals)

    def _copy_extra_state(self, new: Operation) -> None:
        SegmentedOp._copy_extra_state(self, new)
        assert isinstance(new, ResourcePackOp)
        new.lifetime_intervals = list(self.lifetime_intervals)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourcePackOp:
        clauses, rest = _split(parts)
        slices = [p for p in rest if isinstance(p, PackSlice)]
        for piece in slices:
            check_operand_type(piece.size, INDEX, location)
        result_type: Type = rest[-1]
        attributes = _clause_attributes(clauses)
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        offset = [clauses["offset"]] if "offset" in clauses else []
        return cls(
            offset + [piece.size for piece in slices],
            [result_type] * (len(slices) + 1),
            attributes,
            location=location,
            segments=(len(offset), len(slices)),
            lifetime_intervals=[(piece.start, piece.end) for piece in slices],
        )

    @classmethod
    def create(
        cls,
        slices: Sequence[tuple[int, int, Value]],
        offset: Value | None = None,
        affinity: Attribute | None = None,
    ) -> ResourcePackOp:
        """Pack `(start, end, size)` slices, offsets starting at `offset` (0 if None)."""
        base = [offset] if offset is not None else []
        return cls(
            base + [size for _, _, size in slices],
            [INDEX] * (len(slices) + 1),
            {"affinity": affinity} if affinity is not None else {},
            segments=(len(base), len(slices)),
            lifetime_intervals=[(start, end) for start, end, _ in slices],
        )

    @property
    def offset(self) -> Value | None:
        return self.operands[0] if self.segments[0] else None

    @property
    def dynamic_slice_sizes(self) -> list[Value]:
        return self.segment(1)

    @property
    def total_length(self) -> Value:
        return self.results[0]

    @property
    def packed_offsets(self) -> list[Value]:
        return list(self.results[1:])

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def verify(self) -> None:
        count = len(self.results) - 1
        if len(self.lifetime_intervals) != count:
            raise _op_error(self, "requires a [start, end] range for each slice")
        if self.segments[1] != count:
            raise _op_error(self, "requires a size for each slice")

    def print(self, p: Printer) -> None:
        p.write("stream.resource.pack")
        self.print_affinity(p)
        offset = self.offset
        if offset is not None:
            p.write(f" offset({p.v(offset)})")
        p.write(" slices({")
        slices = [
            f"[{start}, {end}] = {p.v(size)}"
            for (start, end), size in zip(self.lifetime_intervals, self.dynamic_slice_sizes)
        ]
        if slices:
            indent = " " * p.indent_width
            p.write(f"\n{indent}  " + f",\n{indent}  ".join(slices) + f"\n{indent}")
        p.write(f"}}) : {self.total_length.type}")
        p.attr_dict(self, ("affinity",), keyword=True)


def _require_timepoint(type: Type, location: Location) -> None:
    if type != TIMEPOINT:
        raise error(
            f"invalid kind of type specified: expected stream.timepoint, but found '{type}'",
            location,
        )


# Ops a command region may hold (IREE: the CmdPhaseOp trait, StreamableOpInterface, the yield).
_CMD_REGION_PREFIXES = ("stream.cmd.", "stream.async.", "stream.tensor.", "stream.file.")
_CMD_REGION_OPS = frozenset(
    {
        "stream.yield",
        "stream.resource.retain",
        "stream.resource.release",
        "stream.resource.is_terminal",
        "stream.resource.subview",
    }
)


def _verify_cmd_region(op: Operation) -> None:
    for nested in op.regions[0].blocks[0].ops:
        if nested.name not in _CMD_REGION_OPS and not nested.name.startswith(_CMD_REGION_PREFIXES):
            raise _op_error(nested, "explicit execution regions must only contain explicit ops")


def _drop_implicit_yield(region: Region) -> None:
    """Remove a written `stream.yield` with no operands: the region's implicit terminator."""
    last = region.blocks[0].last_op
    if last is not None and last.name == "stream.yield" and not last.operands:
        last.erase()


class _CmdRegionOp(Operation):
    """Base of the ops holding a region of commands (execute, serial, concurrent)."""

    __slots__ = ()
    region_kind = RegionKind.ONCE

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]


class CmdExecuteHeader(NamedTuple):
    """What `stream.cmd.execute` says before its region."""

    clauses: dict[str, Any]
    captures: list[tuple[Value, Sized]]
    location: Location


@parse_rule("cmd_once")
def _cmd_once(b: Builder, children: list[Any]) -> Clause:
    return Clause("once", UNIT)


@parse_rule("resource_indeterminate")
def _resource_indeterminate(b: Builder, children: list[Any]) -> Clause:
    return Clause("indeterminate", UNIT)


@parse_rule("resource_origin")
def _resource_origin(b: Builder, children: list[Any]) -> Clause:
    return Clause("origin", UNIT)


@parse_rule("cmd_capture")
def _cmd_capture(b: Builder, children: list[Any]) -> tuple[Value, Any, Sized]:
    operand, argument, sized = (
        c for c in children if not isinstance(c, TOKEN_CLASSES) or str(c).startswith("%")
    )
    return (operand, argument, sized)


@parse_rule("cmd_execute_header")
def _cmd_execute_header(b: Builder, children: list[Any]) -> CmdExecuteHeader:
    location = b.location(children[0])
    clauses: dict[str, Any] = {}
    captures: list[tuple[Value, Sized]] = []
    entry_args: list[tuple[Any, Type, str | None]] = []
    for child in children[1:]:
        if isinstance(child, Clause):
            clauses[child.kind] = child.value
        elif isinstance(child, tuple):
            operand, argument, sized = child
            captures.append((operand, sized))
            entry_args.append((argument, sized.type, None))
    b.pending_entry_args = entry_args
    return CmdExecuteHeader(clauses, captures, location)


@register_op
class CmdExecuteOp(_CmdRegionOp, _TimelineOp, SegmentedOp):
    """`stream.cmd.execute`: run a region of commands on a timeline.

        %t = stream.cmd.execute once? on(A) await(%t0) => with(%x as %a: T{%s}) {
          ...
        } => !stream.timepoint

    The commands run in order (`stream.cmd.concurrent` groups may overlap) once the await
    timepoint is reached; the result timepoint signals when all of them are done. Every resource
    the commands touch is captured: the region's arguments stand for the `with(...)` operands.
    """

    __slots__ = ()
    name = "stream.cmd.execute"
    segment_names = ("resource_operands", "resource_operand_sizes", "await_timepoint")

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> CmdExecuteOp:
        header: CmdExecuteHeader = parts[0]
        region: Region = parts[1]
        _require_timepoint(parts[2], location)
        clauses = dict(header.clauses)
        attributes: dict[str, Attribute] = {}
        for part in parts[3:]:
            if isinstance(part, Clause):
                attributes.update(part.value)
        resources: list[Value] = []
        sizes: list[Value] = []
        for operand, sized in header.captures:
            check_operand_type(operand, sized.type, header.location)
            resources.append(operand)
            if is_sized(sized.type):
                sizes.append(_one_size(sized, header.location))
        awaited = [clauses["await"]] if "await" in clauses else []
        for timepoint in awaited:
            check_operand_type(timepoint, TIMEPOINT, header.location)
        if "once" in clauses:
            attributes["once"] = UNIT
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        _drop_implicit_yield(region)
        return cls(
            resources + sizes + awaited,
            [TIMEPOINT],
            attributes,
            [region],
            location=header.location,
            segments=(len(resources), len(sizes), len(awaited)),
        )

    @classmethod
    def create(
        cls,
        captures: Sequence[tuple[Value, Value]],
        affinity: Attribute | None = None,
        await_timepoint: Value | None = None,
        once: bool = False,
    ) -> CmdExecuteOp:
        """An empty execute region capturing each `(resource, size)`; fill `op.body` with
        commands on `op.body.arguments`."""
        attributes: dict[str, Attribute] = {}
        if once:
            attributes["once"] = UNIT
        if affinity is not None:
            attributes["affinity"] = affinity
        resources = [resource for resource, _ in captures]
        sizes = [size for _, size in captures]
        awaited = [await_timepoint] if await_timepoint is not None else []
        region = Region([Block([r.type for r in resources])])
        return cls(
            resources + sizes + awaited,
            [TIMEPOINT],
            attributes,
            [region],
            segments=(len(resources), len(sizes), len(awaited)),
        )

    @property
    def await_timepoint(self) -> Value | None:
        return self.operands[-1] if self.segments[2] else None

    def set_await_timepoint(self, timepoint: Value | None) -> None:
        self.set_segment(2, [timepoint] if timepoint is not None else [])

    @property
    def resource_operands(self) -> list[Value]:
        return self.segment(0)

    @property
    def resource_operand_sizes(self) -> list[Value]:
        return self.segment(1)

    @property
    def once(self) -> bool:
        return "once" in self.attributes

    def captured_value(self, argument: Value) -> Value:
        """The operand a region argument stands for."""
        assert isinstance(argument, BlockArgument) and argument.block is self.body
        return self.operands[argument.index]

    def operand_access(self, index: int) -> Access:
        if index >= self.segments[0]:
            return Access.NONE
        return value_access(self.body.arguments[index])

    def operand_size(self, index: int) -> Value | None:
        if index >= self.segments[0]:
            return None
        sized = [i for i, v in enumerate(self.resource_operands) if is_sized(v.type)]
        if index not in sized:
            return None
        return self.resource_operand_sizes[sized.index(index)]

    def verify(self) -> None:
        resources = self.resource_operands
        sized = sum(1 for v in resources if is_sized(v.type))
        if sized != self.segments[1]:
            raise _op_error(
                self,
                f"value set has {sized} dynamic dimensions but only {self.segments[1]} "
                "dimension values are attached",
            )
        arguments = self.body.arguments
        if [a.type for a in arguments] != [v.type for v in resources]:
            raise _op_error(self, "region arguments must match the captured operands")
        available: set[Value] = set(arguments)
        for nested in self.body.ops:
            available.update(nested.results)
            for operand in nested.operands:
                if isinstance(operand.type, ResourceType) and operand not in available:
                    raise _op_error(
                        nested,
                        "used resource not listed in explicit captures (or produced internally)",
                    )
        _verify_cmd_region(self)

    def print(self, p: Printer) -> None:
        p.write("stream.cmd.execute")
        if self.once:
            p.write(" once")
        self.print_affinity(p)
        self.print_await(p)
        captures: list[str] = []
        sizes = iter(self.resource_operand_sizes)
        for operand, argument in zip(self.resource_operands, self.body.arguments):
            text = f"{p.v(operand)} as {p.v(argument)}: "
            text += (
                _sized(p, argument.type, next(sizes))
                if is_sized(argument.type)
                else (argument.type.text if argument.type else "?")
            )
            captures.append(text)
        p.write(" with(" + ", ".join(captures) + ") ")
        p.print_region(self.regions[0], print_block_terminators=False)
        p.write(" => !stream.timepoint")
        p.attr_dict(self, ("affinity", "once"), keyword=True)


class _CmdGroupOp(_CmdRegionOp):
    """`stream.cmd.serial { ... }` and `stream.cmd.concurrent { ... }`."""

    __slots__ = ()
    is_pure = False

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        region: Region = parts[0]
        attributes: dict[str, Attribute] = {}
        for part in parts[1:]:
            if isinstance(part, Clause):
                attributes.update(part.value)
        _drop_implicit_yield(region)
        return cls((), (), attributes, [region], location=location)

    @classmethod
    def create(cls) -> Operation:
        """An empty group; append commands to `op.body`."""
        return cls((), (), {}, [Region([Block()])])

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def verify(self) -> None:
        parent = self.parent_op
        if parent is None or parent.name not in (
            "stream.cmd.execute",
            "stream.cmd.serial",
            "stream.cmd.concurrent",
        ):
            raise _op_error(
                self,
                "expects parent op to be one of "
                "'stream.cmd.execute, stream.cmd.serial, stream.cmd.concurrent'",
            )
        _verify_cmd_region(self)

    def print(self, p: Printer) -> None:
        p.write(self.name + " ")
        p.print_region(self.regions[0], print_block_terminators=False)
        p.attr_dict(self, keyword=True)


@register_op
class CmdSerialOp(_CmdGroupOp):
    """`stream.cmd.serial { ... }`: commands that run one after the other."""

    __slots__ = ()
    name = "stream.cmd.serial"


@register_op
class CmdConcurrentOp(_CmdGroupOp):
    """`stream.cmd.concurrent { ... }`: commands that may run at the same time."""

    __slots__ = ()
    name = "stream.cmd.concurrent"


class _CmdSubrangeOp(Operation):
    """A command on `%target[%offset for %length] : T{%size}` (flush, invalidate, discard)."""

    __slots__ = ()
    # The access the command makes to its target.
    target_access = Access.NONE
    # The keyword of the optional affinity clause (`to` for flush, `from` for invalidate).
    affinity_keyword: str | None = None

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = _split(parts)
        target, offset, length, sized = rest
        size = _check_sized_operand(target, sized, location)
        check_operand_type(offset, INDEX, location)
        check_operand_type(length, INDEX, location)
        attributes = _clause_attributes(clauses)
        if cls.affinity_keyword is not None and cls.affinity_keyword in clauses:
            attributes["source_affinity"] = clauses[cls.affinity_keyword]
        return cls([target, size, offset, length], (), attributes, location=location)

    @classmethod
    def create(
        cls,
        target: Value,
        size: Value,
        offset: Value,
        length: Value,
        affinity: Attribute | None = None,
    ) -> Operation:
        attributes = {"source_affinity": affinity} if affinity is not None else {}
        return cls([target, size, offset, length], (), attributes)

    @property
    def target(self) -> Value:
        return self.operands[0]

    @property
    def target_size(self) -> Value:
        return self.operands[1]

    @property
    def target_offset(self) -> Value:
        return self.operands[2]

    @property
    def target_length(self) -> Value:
        return self.operands[3]

    @property
    def source_affinity(self) -> Attribute | None:
        return self.attributes.get("source_affinity")

    def operand_access(self, index: int) -> Access:
        return self.target_access if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.target_size if index == 0 else None

    def print(self, p: Printer) -> None:
        p.write(self.name)
        affinity = self.source_affinity
        if affinity is not None and self.affinity_keyword is not None:
            p.write(f" {self.affinity_keyword}({affinity.text})")
        target = self.target
        p.write(
            f" {p.v(target)}[{p.v(self.target_offset)} for {p.v(self.target_length)}] : "
            f"{_sized(p, target.type, self.target_size)}"
        )
        p.attr_dict(self, ("source_affinity",), keyword=True)


@register_op
class CmdFlushOp(_CmdSubrangeOp):
    """`stream.cmd.flush to(A)? %r[%o for %l] : T{%s}`: make a range available to another
    device."""

    __slots__ = ()
    name = "stream.cmd.flush"
    # Publishing the bytes reads them (it must follow every write).
    target_access = Access.READ
    affinity_keyword = "to"


@register_op
class CmdInvalidateOp(_CmdSubrangeOp):
    """`stream.cmd.invalidate from(A)? %r[%o for %l] : T{%s}`: make another device's writes
    visible here."""

    __slots__ = ()
    name = "stream.cmd.invalidate"
    # Refreshing the local view acts as a write for ordering: reads must come after it.
    target_access = Access.READ | Access.WRITE
    affinity_keyword = "from"


@register_op
class CmdDiscardOp(_CmdSubrangeOp):
    """`stream.cmd.discard %r[%o for %l] : T{%s}`: the range's contents are no longer needed."""

    __slots__ = ()
    name = "stream.cmd.discard"
    target_access = Access.WRITE


@register_op
class CmdFillOp(Operation):
    """`stream.cmd.fill %v, %r[%o for %l] : i32 -> T{%s}`: splat a pattern into a range."""

    __slots__ = ()
    name = "stream.cmd.fill"

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> CmdFillOp:
        clauses, rest = _split(parts)
        value, target, offset, length, value_type, sized = rest
        check_operand_type(value, value_type, location)
        size = _check_sized_operand(target, sized, location)
        check_operand_type(offset, INDEX, location)
        check_operand_type(length, INDEX, location)
        operands = [target, size, offset, length, value]
        return cls(operands, (), _clause_attributes(clauses), location=location)

    @classmethod
    def create(
        cls, value: Value, target: Value, size: Value, offset: Value, length: Value
    ) -> CmdFillOp:
        return cls([target, size, offset, length, value], ())

    @property
    def target(self) -> Value:
        return self.operands[0]

    @property
    def target_size(self) -> Value:
        return self.operands[1]

    @property
    def target_offset(self) -> Value:
        return self.operands[2]

    @property
    def target_length(self) -> Value:
        return self.operands[3]

    @property
    def value(self) -> Value:
        return self.operands[4]

    def operand_access(self, index: int) -> Access:
        return Access.WRITE if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.target_size if index == 0 else None

    def verify(self) -> None:
        type = self.value.type
        native = isinstance(type, IntegerType) and type.width in (8, 16, 32)
        if not native or type.signedness:  # type: ignore[union-attr]
            raise _op_error(
                self,
                "operand #4 must be 8-bit signless integer or 16-bit signless integer or "
                f"32-bit signless integer, but got '{type}'",
            )

    def print(self, p: Printer) -> None:
        target = self.target
        value = self.value
        p.write(
            f"stream.cmd.fill {p.v(value)}, {p.v(target)}[{p.v(self.target_offset)} for "
            f"{p.v(self.target_length)}] : {value.type.text if value.type else '?'} -> "
            f"{_sized(p, target.type, self.target_size)}"
        )
        p.attr_dict(self, keyword=True)


@register_op
class CmdCopyOp(Operation):
    """`stream.cmd.copy %a[%ao], %b[%bo], %len : T{%as} -> T{%bs}`: copy bytes between
    resources (the ranges must not overlap)."""

    __slots__ = ()
    name = "stream.cmd.copy"

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> CmdCopyOp:
        clauses, rest = _split(parts)
        source, source_offset, target, target_offset, length, source_sized, target_sized = rest
        source_size = _check_sized_operand(source, source_sized, location)
        target_size = _check_sized_operand(target, target_sized, location)
        for index in (source_offset, target_offset, length):
            check_operand_type(index, INDEX, location)
        operands = [source, source_size, source_offset, target, target_size, target_offset, length]
        return cls(operands, (), _clause_attributes(clauses), location=location)

    @classmethod
    def create(
        cls,
        source: Value,
        source_size: Value,
        source_offset: Value,
        target: Value,
        target_size: Value,
        target_offset: Value,
        length: Value,
    ) -> CmdCopyOp:
        operands = [source, source_size, source_offset, target, target_size, target_offset, length]
        return cls(operands, ())

    @property
    def source(self) -> Value:
        return self.operands[0]

    @property
    def source_size(self) -> Value:
        return self.operands[1]

    @property
    def source_offset(self) -> Value:
        return self.operands[2]

    @property
    def target(self) -> Value:
        return self.operands[3]

    @property
    def target_size(self) -> Value:
        return self.operands[4]

    @property
    def target_offset(self) -> Value:
        return self.operands[5]

    @property
    def length(self) -> Value:
        return self.operands[6]

    def operand_access(self, index: int) -> Access:
        if index == 0:
            return Access.READ
        if index == 3:
            return Access.WRITE
        return Access.NONE

    def operand_size(self, index: int) -> Value | None:
        if index == 0:
            return self.source_size
        if index == 3:
            return self.target_size
        return None

    def print(self, p: Printer) -> None:
        source = self.source
        target = self.target
        p.write(
            f"stream.cmd.copy {p.v(source)}[{p.v(self.source_offset)}], "
            f"{p.v(target)}[{p.v(self.target_offset)}], {p.v(self.length)} : "
            f"{_sized(p, source.type, self.source_size)} -> "
            f"{_sized(p, target.type, self.target_size)}"
        )
        p.attr_dict(self, keyword=True)


_CMD_ACCESS = {"ro": Access.READ, "wo": Access.WRITE, "rw": Access.READ | Access.WRITE}


class CmdResource(NamedTuple):
    """`ro %r[%offset for %length] : T{%size}` in a `stream.cmd.dispatch` resource list."""

    access: str
    value: Value
    offset: Value
    length: Value
    sized: Sized


class CmdUniformOperands(NamedTuple):
    """`(%a, %b : index, i32)` of a `stream.cmd.dispatch`."""

    values: list[Value]
    types: list[Type]


@parse_rule("cmd_access")
def _cmd_access(b: Builder, children: list[Any]) -> str:
    return str(children[0])


@parse_rule("cmd_resource")
def _cmd_resource(b: Builder, children: list[Any]) -> CmdResource:
    values = [c for c in children if not isinstance(c, TOKEN_CLASSES)]
    access, value, offset, length, sized = values
    return CmdResource(access, value, offset, length, sized)


@parse_rule("cmd_uniform_operands")
def _cmd_uniform_operands(b: Builder, children: list[Any]) -> CmdUniformOperands:
    return CmdUniformOperands(list(children[0]), list(children[1]))


@register_op
class CmdDispatchOp(SegmentedOp):
    """`stream.cmd.dispatch @ex::@fn[%w](%u : index) { ro %a[%o for %l] : T{%s}, ... }`.

    Runs an executable entry point over a grid of workgroups; each resource says how the
    kernel touches it (`ro`, `wo`, `rw`).
    """

    __slots__ = ("accesses", "entry_points")
    name = "stream.cmd.dispatch"
    segment_names = (
        "workload",
        "uniform_operands",
        "resources",
        "resource_sizes",
        "resource_offsets",
        "resource_lengths",
    )

    def __init__(
        self,
        *args: Any,
        entry_points: Sequence[Attribute] = (),
        accesses: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.entry_points: list[Attribute] = list(entry_points)
        # One of "ro", "wo", "rw" per resource.
        self.accesses: list[str] = list(accesses)

    def _copy_extra_state(self, new: Operation) -> None:
        SegmentedOp._copy_extra_state(self, new)
        assert isinstance(new, CmdDispatchOp)
        new.entry_points = list(self.entry_points)
        new.accesses = list(self.accesses)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> CmdDispatchOp:
        clauses, rest = _split(parts)
        entry_points: list[Attribute] = []
        uniform: list[Value] = []
        resources: list[CmdResource] = []
        for part in rest:
            if isinstance(part, EntryPoints):
                entry_points = list(part)
            elif isinstance(part, CmdUniformOperands):
                if len(part.values) != len(part.types):
                    raise error(
                        f"{len(part.values)} operands present, but expected {len(part.types)}",
                        location,
                    )
                for value, type in zip(part.values, part.types):
                    check_operand_type(value, type, location)
                uniform = part.values
            elif isinstance(part, CmdResource):
                resources.append(part)
        workload = list(clauses.get("workload", []))
        for value in workload:
            check_operand_type(value, INDEX, location)
        sizes: list[Value] = []
        for resource in resources:
            sizes.append(_check_sized_operand(resource.value, resource.sized, location))
            check_operand_type(resource.offset, INDEX, location)
            check_operand_type(resource.length, INDEX, location)
        return cls.create(
            entry_points,
            workload,
            uniform,
            [(r.value, size, r.offset, r.length, r.access) for r, size in zip(resources, sizes)],
            _clause_attributes(clauses),
            location,
        )

    @classmethod
    def create(
        cls,
        entry_points: Sequence[Attribute],
        workload: Sequence[Value],
        uniform_operands: Sequence[Value],
        resources: Sequence[tuple[Value, Value, Value, Value, str]],
        attributes: dict[str, Attribute] | None = None,
        location: Location = UNKNOWN_LOCATION,
    ) -> CmdDispatchOp:
        """A dispatch; each resource is `(value, size, offset, length, "ro"|"wo"|"rw")`."""
        operands = list(workload) + list(uniform_operands)
        for position in range(4):
            operands.extend(resource[position] for resource in resources)  # type: ignore[misc]
        count = len(resources)
        return cls(
            operands,
            (),
            attributes or {},
            location=location,
            segments=(len(workload), len(uniform_operands), count, count, count, count),
            entry_points=entry_points,
            accesses=[resource[4] for resource in resources],
        )

    @property
    def workload(self) -> list[Value]:
        return self.segment(0)

    @property
    def uniform_operands(self) -> list[Value]:
        return self.segment(1)

    @property
    def resources(self) -> list[Value]:
        return self.segment(2)

    @property
    def resource_sizes(self) -> list[Value]:
        return self.segment(3)

    @property
    def resource_offsets(self) -> list[Value]:
        return self.segment(4)

    @property
    def resource_lengths(self) -> list[Value]:
        return self.segment(5)

    def operand_access(self, index: int) -> Access:
        position = index - self.segment_start(2)
        if 0 <= position < self.segments[2]:
            return _CMD_ACCESS[self.accesses[position]]
        return Access.NONE

    def operand_size(self, index: int) -> Value | None:
        position = index - self.segment_start(2)
        if 0 <= position < self.segments[2]:
            return self.resource_sizes[position]
        return None

    def verify(self) -> None:
        count = self.segments[2]
        if any(n != count for n in self.segments[3:]) or len(self.accesses) != count:
            raise _op_error(
                self, f"dispatch with {count} resources has mismatched associated ranges"
            )
        if not self.entry_points:
            raise _op_error(self, "at least one entry point must be defined")
        for access in self.accesses:
            if access not in _CMD_ACCESS:
                raise _op_error(self, f"unknown resource access '{access}'")

    def print(self, p: Printer) -> None:
        write = p.write
        write("stream.cmd.dispatch ")
        entry = self.entry_points
        if len(entry) == 1:
            write(entry[0].text)
        else:
            write("{" + ", ".join(e.text for e in entry) + "}")
        workload = self.workload
        if workload:
            write("[" + p.values(workload) + "]")
        uniform = self.uniform_operands
        if uniform:
            types = ", ".join(v.type.text if v.type else "?" for v in uniform)
            write(f"({p.values(uniform)} : {types})")
        write(" {")
        indent = " " * p.indent_width
        lines: list[str] = []
        for access, value, size, offset, length in zip(
            self.accesses,
            self.resources,
            self.resource_sizes,
            self.resource_offsets,
            self.resource_lengths,
        ):
            lines.append(
                f"\n{indent}  {access} {p.v(value)}[{p.v(offset)} for {p.v(length)}] : "
                f"{_sized(p, value.type, size)}"
            )
        write(",".join(lines))
        write(f"\n{indent}}}")
        p.attr_dict(self, keyword=True)
