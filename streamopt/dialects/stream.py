"""The stream dialect: async resource ops, timeline ops, tensor import/export, cmd-phase ops.

Syntax follows the assemblyFormat of IREE's StreamOps.td. Each op class exposes the interfaces
the analyses read: `affinity`, tied results (`tied_operand_index`), the size operand of each
resource operand and result, and whether it reads or writes its resource operands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from streamopt.diagnostics import UNKNOWN_LOCATION, Diagnostic, DiagnosticError, Location, error
from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.builtin import ModuleOp
from streamopt.dialects.common import (
    SegmentedOp,
    check_operand_type,
    dynamic_dim_count,
    print_shaped_function_type,
    print_shaped_result_list,
    print_shaped_type_list,
    split_clauses,
)
from streamopt.ir.core import Access, Block, Operation, OpResult, Region, RegionKind, Value
from streamopt.ir.types import (
    INDEX,
    TIMEPOINT,
    UNIT,
    Attribute,
    FunctionType,
    IntegerType,
    ResourceType,
    ShapedType,
    SymbolRefAttr,
    Type,
    TypeAttr,
    _symbol_spelling,
    print_attr_dict,
    symbol_ref_from_text,
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
    ValueList,
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

    def verify_in_module(self, context: Any) -> None:
        # The source and every other name of its storage must be dead after the move.
        from streamopt.analysis.alias import AliasAnalysis
        from streamopt.analysis.last_use import LastUseAnalysis

        def build(module: Any) -> LastUseAnalysis:
            return LastUseAnalysis(AliasAnalysis(module))

        last_use: LastUseAnalysis = context.get("last_use", build)
        later = last_use.later_use(self, self.source)
        if later is None:
            return
        user = later.user
        if later.reason == "used later":
            message = (
                f"'{self.name}' op source is used after the move, by '{user.name}' at "
                f"{user.location}"
            )
        else:
            message = (
                f"'{self.name}' op source may be used after the move: {later.reason} "
                f"('{user.name}' at {user.location})"
            )
        diagnostic = Diagnostic("error", message, self.location)
        diagnostic.attach_note("later use here", user.location)
        raise DiagnosticError(diagnostic)


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


# -- async-phase, tensor and timeline ops ---------------------------------------------------------

# Lifetimes IREE's `Stream_AnyStreamResource` allows (every one but staging), and the wording its
# ODS verifier uses for them, so our diagnostics read like iree-opt's.
_ANY_LIFETIMES = frozenset({"*", "external", "transient", "variable", "constant"})
_ANY_OR_STAGING_LIFETIMES = _ANY_LIFETIMES | {"staging"}
_STAGING_LIFETIMES = frozenset({"staging"})
_ANY_RESOURCE_TEXT = (
    "resource or external resource or transient resource or variable resource or constant resource"
)
_LIFETIME_TEXT = {
    _ANY_LIFETIMES: _ANY_RESOURCE_TEXT,
    _ANY_OR_STAGING_LIFETIMES: _ANY_RESOURCE_TEXT + " or staging resource",
    _STAGING_LIFETIMES: "staging resource",
}
_FILL_PATTERN_WIDTHS = (8, 16, 32, 64)

# Ops whose region may end in `stream.yield` (IREE's ParentOneOf on stream.yield).
_YIELD_PARENTS = (
    "stream.async.execute",
    "stream.async.concurrent",
    "stream.cmd.execute",
    "stream.cmd.serial",
    "stream.cmd.concurrent",
)


def _op_error(op: Operation, message: str) -> DiagnosticError:
    """An error worded like MLIR's `emitOpError`: `'name' op message`."""
    return error(f"'{op.name}' op {message}", op.location)


def _check_lifetime(
    op: Operation, what: str, index: int, type: Type | None, allowed: frozenset[str]
) -> None:
    """Raise unless `type` is a resource whose lifetime is in `allowed` (ODS type constraint)."""
    if isinstance(type, ResourceType) and type.lifetime in allowed:
        return
    raise _op_error(op, f"{what} #{index} must be {_LIFETIME_TEXT[allowed]}, but got '{type}'")


def _check_timepoint(op: Operation, what: str, index: int, type: Type | None) -> None:
    if type != TIMEPOINT:
        raise _op_error(op, f"{what} #{index} must be a timepoint, but got '{type}'")


def _check_dims(op: Operation, encoding: Type, dims: Sequence[Value]) -> None:
    """IREE's verifyOpDynamicDims: one dim value per `?` of the encoding."""
    required = dynamic_dim_count(encoding) if isinstance(encoding, ShapedType) else 0
    if len(dims) != required:
        raise _op_error(
            op,
            f"type set has {required} dynamic dimensions but only {len(dims)} dimension "
            "values are attached",
        )


def _positional(parts: list[Any]) -> list[Any]:
    """`parts` without the keyword tokens (`to`, `for`, `as`, `with`) the rules keep."""
    return [p for p in parts if not isinstance(p, TOKEN_CLASSES)]


def _attributes(clauses: dict[str, Any], affinity_name: str = "affinity") -> dict[str, Attribute]:
    """The op attributes from `attributes {...}` and `on(...)` clauses."""
    attributes: dict[str, Attribute] = dict(clauses.get("attributes", {}))
    if "on" in clauses:
        attributes[affinity_name] = clauses["on"]
    return attributes


def _with_affinity(
    attributes: dict[str, Attribute] | None, affinity: Attribute | None
) -> dict[str, Attribute]:
    out = dict(attributes or {})
    if affinity is not None:
        out["affinity"] = affinity
    return out


def _tied_target(result: Sized | Tied, target: Value, location: Location) -> tuple[Type, Value]:
    """Type and size of a `custom<ShapedTiedResult>`: `%target as T{%s}` or `T{%s}`.

    The result is always tied to the target, so a name other than the target's is an error
    (iree-opt ignores the name; rejecting it catches typos in hand-written IR).
    """
    if isinstance(result, Tied):
        if result.type is None:
            raise error("expected 'as' after the tied result's operand", location)
        if result.operand is not target:
            raise error("tied result must name the target operand", location)
        sized = Sized(result.type, result.sizes)
    else:
        sized = result
    check_operand_type(target, sized.type, location)
    return sized.type, _one_size(sized, location)


def _type_text(value: Value) -> str:
    return value.type.text if value.type is not None else "?"


def _print_tied_target(p: Printer, target: Value, size: Value) -> str:
    """`%target as T{%s}`: IREE always prints the tied operand of a ShapedTiedResult."""
    return f"{p.v(target)} as {_sized(p, target.type, size)}"


def _resolve_shaped_results(
    items: Sequence[Any], operands: Sequence[Value], location: Location
) -> tuple[list[Type], list[Value], list[int | None]]:
    """Types, sizes and tied operand positions of a `custom<ShapedResultList>`."""
    types: list[Type] = []
    sizes: list[Value] = []
    tied: list[int | None] = []
    for item in items:
        if isinstance(item, Tied):
            position = next((i for i, v in enumerate(operands) if v is item.operand), None)
            if position is None:
                raise error("tied operand not found for result reference", location)
            tied.append(position)
            type = item.type if item.type is not None else operands[position].type
            assert type is not None
            types.append(type)
            sizes.extend(item.sizes)
        elif isinstance(item, Sized):
            tied.append(None)
            types.append(item.type)
            sizes.extend(item.sizes)
        else:
            tied.append(None)
            types.append(item)
    return types, sizes, tied


def _check_size_counts(
    op: Operation, values_or_types: Sequence[Type | None], sizes: Sequence[Value]
) -> None:
    """IREE's verifyOpValueSizes: one size per resource in the list."""
    required = sum(1 for t in values_or_types if isinstance(t, ResourceType))
    if len(sizes) != required:
        raise _op_error(
            op,
            f"value set has {required} dynamic dimensions but only {len(sizes)} dimension "
            "values are attached",
        )


def _size_in_list(index: int, types: Sequence[Type | None], sizes: Sequence[Value]) -> Value | None:
    """IREE's findValueSizeInList: the size of entry `index` among the sized entries."""
    if index >= len(types) or not isinstance(types[index], ResourceType):
        return None
    position = sum(1 for t in types[:index] if isinstance(t, ResourceType))
    return sizes[position] if position < len(sizes) else None


@register_op
class AsyncAllocaOp(StreamOp):
    """`%r = stream.async.alloca on(A) : !stream.resource<transient>{%s}`: undefined contents."""

    __slots__ = ()
    name = "stream.async.alloca"

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncAllocaOp:
        clauses, rest = split_clauses(parts)
        attributes = _attributes(clauses)
        if isinstance(rest[0], AttrDict):
            attributes = {**rest[0], **attributes}
            rest = rest[1:]
        result: Sized = rest[0]
        return cls([_one_size(result, location)], [result.type], attributes, location=location)

    @classmethod
    def create(cls, type: Type, size: Value, affinity: Attribute | None = None) -> AsyncAllocaOp:
        """Allocate `size` bytes of `type` (a resource type) on `affinity`."""
        return cls([size], [type], _with_affinity(None, affinity))

    @property
    def storage_size(self) -> Value:
        return self.operands[0]

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def result_size(self, index: int) -> Value | None:
        return self.operands[0]

    def verify(self) -> None:
        _check_lifetime(self, "result", 0, self.result.type, _ANY_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write("stream.async.alloca")
        self.print_affinity(p)
        p.attr_dict(self, ("affinity",))
        p.write(" : " + _sized(p, self.result.type, self.storage_size))


@register_op
class AsyncConstantOp(StreamOp):
    """`%cst = stream.async.constant on(A) await(%t)? : T{%s} = dense<3> : tensor<8xi32>`."""

    __slots__ = ("has_await",)
    name = "stream.async.constant"
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
        attributes = _attributes(clauses)
        attributes["value"] = value
        operands = [_one_size(result, location)]
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
        attributes = _with_affinity({"value": value}, affinity)
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
        _check_lifetime(self, "result", 0, self.result.type, _ANY_LIFETIMES)
        if self.has_await:
            _check_timepoint(self, "operand", 0, self.operands[0].type)

    def print(self, p: Printer) -> None:
        p.write("stream.async.constant")
        self.print_affinity(p)
        if self.has_await:
            p.write(f" await({p.v(self.operands[0])})")
        p.write(f" : {_sized(p, self.result.type, self.result_size_value)} = {self.value.text}")
        p.attr_dict(self, ("affinity", "value"), keyword=True)


@register_op
class AsyncSliceOp(StreamOp):
    """`%r = stream.async.slice on(A) %x[%o to %e] : T{%s} -> T{%len}`: a copy of a range."""

    __slots__ = ()
    name = "stream.async.slice"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncSliceOp:
        clauses, rest = split_clauses(parts)
        source, offset, end, source_sized, result_sized = _positional(rest)
        check_operand_type(source, source_sized.type, location)
        operands = [
            source,
            _one_size(source_sized, location),
            offset,
            end,
            _one_size(result_sized, location),
        ]
        return cls(operands, [result_sized.type], _attributes(clauses), location=location)

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
            _with_affinity(None, affinity),
        )

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
    def source_end(self) -> Value:
        return self.operands[3]

    @property
    def result_size_value(self) -> Value:
        return self.operands[4]

    def operand_access(self, index: int) -> Access:
        return Access.READ if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.operands[1] if index == 0 else None

    def result_size(self, index: int) -> Value | None:
        return self.operands[4]

    def verify(self) -> None:
        _check_lifetime(self, "operand", 0, self.source.type, _ANY_LIFETIMES)
        if self.source.type != self.result.type:
            raise _op_error(self, "failed to verify that all of {source, result} have same type")

    def print(self, p: Printer) -> None:
        p.write("stream.async.slice")
        self.print_affinity(p)
        p.write(
            f" {p.v(self.source)}[{p.v(self.source_offset)} to {p.v(self.source_end)}] : "
            f"{_sized(p, self.source.type, self.source_size)} -> "
            f"{_sized(p, self.result.type, self.result_size_value)}"
        )
        p.attr_dict(self, ("affinity",), keyword=True)


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

    def _verify_target(self, allowed: frozenset[str] = _ANY_LIFETIMES) -> None:
        _check_lifetime(self, "operand", 0, self.target.type, allowed)
        if self.target.type != self.result.type:
            raise _op_error(self, "failed to verify that all of {target, result} have same type")


@register_op
class AsyncFillOp(_TiedTargetOp):
    """`%r = stream.async.fill on(A) %v, %x[%o to %e for %l] : i32 -> %x as T{%s}` (in place)."""

    __slots__ = ()
    name = "stream.async.fill"

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncFillOp:
        clauses, rest = split_clauses(parts)
        value, target, offset, end, length, value_type, result = _positional(rest)
        check_operand_type(value, value_type, location)
        type, size = _tied_target(result, target, location)
        operands = [target, size, offset, end, length, value]
        return cls(operands, [type], _attributes(clauses), location=location)

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
            _with_affinity(None, affinity),
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
            and type.width in _FILL_PATTERN_WIDTHS
        ):
            raise _op_error(
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
            f"{p.v(self.target_end)} for {p.v(self.target_length)}] : {_type_text(self.value)}"
            f" -> {_print_tied_target(p, self.target, self.target_size)}"
        )
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class AsyncUpdateOp(_TiedTargetOp):
    """`%r = stream.async.update on(A) %u, %x[%o to %e] : T{%us} -> %x as T{%s}` (in place)."""

    __slots__ = ()
    name = "stream.async.update"

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncUpdateOp:
        clauses, rest = split_clauses(parts)
        update, target, offset, end, update_sized, result = _positional(rest)
        check_operand_type(update, update_sized.type, location)
        type, size = _tied_target(result, target, location)
        operands = [target, size, offset, end, update, _one_size(update_sized, location)]
        return cls(operands, [type], _attributes(clauses), location=location)

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
            _with_affinity(None, affinity),
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
        _check_lifetime(self, "operand", 4, self.update.type, _ANY_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write("stream.async.update")
        self.print_affinity(p)
        p.write(
            f" {p.v(self.update)}, {p.v(self.target)}[{p.v(self.target_offset)} to "
            f"{p.v(self.target_end)}] : {_sized(p, self.update.type, self.update_size)} -> "
            f"{_print_tied_target(p, self.target, self.target_size)}"
        )
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class AsyncCopyOp(_TiedTargetOp):
    """`%r = stream.async.copy on(A) %src[%so to %se], %dst[%do to %de], %len : T{%ss} ->
    %dst as T{%ds}`: in place into the target."""

    __slots__ = ()
    name = "stream.async.copy"

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
        ) = _positional(rest)
        check_operand_type(source, source_sized.type, location)
        type, size = _tied_target(result, target, location)
        operands = [
            target,
            size,
            target_offset,
            target_end,
            source,
            _one_size(source_sized, location),
            source_offset,
            source_end,
            length,
        ]
        return cls(operands, [type], _attributes(clauses), location=location)

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
        return cls(operands, [target.type], _with_affinity(None, affinity))

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
        _check_lifetime(self, "operand", 4, self.source.type, _ANY_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write("stream.async.copy")
        self.print_affinity(p)
        p.write(
            f" {p.v(self.source)}[{p.v(self.source_offset)} to {p.v(self.source_end)}], "
            f"{p.v(self.target)}[{p.v(self.target_offset)} to {p.v(self.target_end)}], "
            f"{p.v(self.length)} : {_sized(p, self.source.type, self.source_size)} -> "
            f"{_print_tied_target(p, self.target, self.target_size)}"
        )
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class AsyncCastOp(StreamOp):
    """`%r = stream.async.cast on(A) %x : T{%s} -> T'{%s}`: the same storage with another
    lifetime (tied to the source; RefineUsage must remove it)."""

    __slots__ = ()
    name = "stream.async.cast"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncCastOp:
        clauses, rest = split_clauses(parts)
        attributes = _attributes(clauses)
        if rest and isinstance(rest[-1], AttrDict):
            attributes = {**rest[-1], **attributes}
            rest = rest[:-1]
        source, source_sized, result_sized = rest
        check_operand_type(source, source_sized.type, location)
        operands = [source, _one_size(source_sized, location), _one_size(result_sized, location)]
        return cls(operands, [result_sized.type], attributes, location=location)

    @classmethod
    def create(
        cls, source: Value, size: Value, result_type: Type, affinity: Attribute | None = None
    ) -> AsyncCastOp:
        """View `source` (of `size` bytes) as `result_type`."""
        return cls([source, size, size], [result_type], _with_affinity(None, affinity))

    @property
    def source(self) -> Value:
        return self.operands[0]

    @property
    def source_size(self) -> Value:
        return self.operands[1]

    @property
    def result_size_value(self) -> Value:
        return self.operands[2]

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0

    # A passthrough: the op itself touches no bytes; accesses through the result are its users'.
    def operand_access(self, index: int) -> Access:
        return Access.READ if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.operands[1] if index == 0 else None

    def result_size(self, index: int) -> Value | None:
        return self.operands[2]

    def verify(self) -> None:
        _check_lifetime(self, "operand", 0, self.source.type, _ANY_LIFETIMES)
        _check_lifetime(self, "result", 0, self.result.type, _ANY_LIFETIMES)
        if self.source_size is not self.result_size_value:
            raise _op_error(self, "source and result sizes must be equal (tied storage)")

    def print(self, p: Printer) -> None:
        p.write("stream.async.cast")
        self.print_affinity(p)
        p.write(
            f" {p.v(self.source)} : {_sized(p, self.source.type, self.source_size)} -> "
            f"{_sized(p, self.result.type, self.result_size_value)}"
        )
        p.attr_dict(self, ("affinity",))


@register_op
class AsyncLoadOp(StreamOp):
    """`%v = stream.async.load %x[%o] : !stream.resource<staging>{%s} -> i32`."""

    __slots__ = ()
    name = "stream.async.load"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncLoadOp:
        clauses, rest = split_clauses(parts)
        source, offset, source_sized, result_type = rest
        check_operand_type(source, source_sized.type, location)
        operands = [source, _one_size(source_sized, location), offset]
        return cls(operands, [result_type], _attributes(clauses), location=location)

    @classmethod
    def create(
        cls, source: Value, source_size: Value, offset: Value, result_type: Type
    ) -> AsyncLoadOp:
        """Read one `result_type` element of `source` at byte `offset`."""
        return cls([source, source_size, offset], [result_type])

    @property
    def source(self) -> Value:
        return self.operands[0]

    @property
    def source_size(self) -> Value:
        return self.operands[1]

    @property
    def source_offset(self) -> Value:
        return self.operands[2]

    def operand_access(self, index: int) -> Access:
        return Access.READ if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.operands[1] if index == 0 else None

    def verify(self) -> None:
        _check_lifetime(self, "operand", 0, self.source.type, _STAGING_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write(
            f"stream.async.load {p.v(self.source)}[{p.v(self.source_offset)}] : "
            f"{_sized(p, self.source.type, self.source_size)} -> {self.result.type}"
        )
        p.attr_dict(self, (), keyword=True)


@register_op
class AsyncStoreOp(_TiedTargetOp):
    """`%r = stream.async.store %v, %x[%o] : i32 -> %x as !stream.resource<staging>{%s}`."""

    __slots__ = ()
    name = "stream.async.store"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncStoreOp:
        clauses, rest = split_clauses(parts)
        value, target, offset, value_type, result = _positional(rest)
        check_operand_type(value, value_type, location)
        type, size = _tied_target(result, target, location)
        return cls([target, size, offset, value], [type], _attributes(clauses), location=location)

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
        self._verify_target(_STAGING_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write(
            f"stream.async.store {p.v(self.value)}, {p.v(self.target)}"
            f"[{p.v(self.target_offset)}] : {_type_text(self.value)} -> "
            f"{_print_tied_target(p, self.target, self.target_size)}"
        )
        p.attr_dict(self, (), keyword=True)


@register_op
class AsyncBarrierOp(StreamOp):
    """`%r = stream.async.barrier on(A) %x : T{%s}`: pins the value to an affinity (tied)."""

    __slots__ = ()
    name = "stream.async.barrier"

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncBarrierOp:
        clauses, rest = split_clauses(parts)
        source, sized = rest
        check_operand_type(source, sized.type, location)
        return cls(
            [source, _one_size(sized, location)],
            [sized.type],
            _attributes(clauses),
            location=location,
        )

    @classmethod
    def create(
        cls, source: Value, size: Value, affinity: Attribute | None = None
    ) -> AsyncBarrierOp:
        """Pin `source` to `affinity`."""
        return cls([source, size], [source.type], _with_affinity(None, affinity))

    @property
    def source(self) -> Value:
        return self.operands[0]

    @property
    def size(self) -> Value:
        return self.operands[1]

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0

    # A passthrough, like stream.async.cast.
    def operand_access(self, index: int) -> Access:
        return Access.READ if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.operands[1] if index == 0 else None

    def result_size(self, index: int) -> Value | None:
        return self.operands[1]

    def verify(self) -> None:
        _check_lifetime(self, "operand", 0, self.source.type, _ANY_OR_STAGING_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write("stream.async.barrier")
        self.print_affinity(p)
        p.write(f" {p.v(self.source)} : {_sized(p, self.source.type, self.size)}")
        p.attr_dict(self, ("affinity",), keyword=True)


class _FuncResult(NamedTuple):
    """One result of a `stream.async.func` signature: a type, or a tied argument name."""

    tied_name: Any  # the VALUE_ID token of the tied argument, or None
    type: Type | None
    attributes: AttrDict | None


class _FuncResults(list[_FuncResult]):
    """The `-> ...` part of a `stream.async.func` signature."""


@parse_rule("async_func_tied")
def _async_func_tied(b: Builder, children: list[Any]) -> _FuncResult:
    return _FuncResult(children[0], children[-1] if len(children) > 2 else None, None)


@parse_rule("async_func_typed_result")
def _async_func_typed_result(b: Builder, children: list[Any]) -> _FuncResult:
    return _FuncResult(None, children[0], children[1] if len(children) > 1 else None)


@parse_rule("async_func_single_result")
def _async_func_single_result(b: Builder, children: list[Any]) -> _FuncResults:
    child = children[0]
    if isinstance(child, _FuncResult):
        return _FuncResults([child])
    return _FuncResults([_FuncResult(None, child, None)])


@parse_rule("async_func_results")
def _async_func_results(b: Builder, children: list[Any]) -> _FuncResults:
    return _FuncResults(children)


@register_op
class AsyncFuncOp(Operation):
    """`stream.async.func private @f(%arg0: T, %arg1: index) -> %arg0`: an external function
    that `stream.async.call` can call (declarations only, as in IREE)."""

    __slots__ = (
        "arg_attrs",
        "function_type",
        "res_attrs",
        "sym_name",
        "tied_operands",
        "visibility",
    )
    name = "stream.async.func"
    is_isolated_from_above = True
    region_kind = RegionKind.CALLABLE

    def __init__(
        self,
        sym_name: str,
        function_type: FunctionType,
        tied_operands: Sequence[int | None] | None = None,
        visibility: str | None = None,
        arg_attrs: Sequence[AttrDict | None] | None = None,
        res_attrs: Sequence[AttrDict | None] | None = None,
        attributes: dict[str, Attribute] | None = None,
        location: Location = UNKNOWN_LOCATION,
    ) -> None:
        super().__init__(attributes=attributes, location=location)
        self.sym_name = sym_name
        self.function_type = function_type
        self.tied_operands: list[int | None] = list(
            tied_operands or [None] * len(function_type.results)
        )
        self.visibility = visibility
        self.arg_attrs: list[AttrDict | None] = list(
            arg_attrs or [None] * len(function_type.inputs)
        )
        self.res_attrs: list[AttrDict | None] = list(
            res_attrs or [None] * len(function_type.results)
        )

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, AsyncFuncOp)
        new.sym_name = self.sym_name
        new.function_type = self.function_type
        new.tied_operands = list(self.tied_operands)
        new.visibility = self.visibility
        new.arg_attrs = list(self.arg_attrs)
        new.res_attrs = list(self.res_attrs)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncFuncOp:
        clauses, rest = split_clauses(parts)
        visibility: str | None = None
        sym_name = ""
        args: list[tuple[Any, Type, AttrDict | None]] = []
        results: list[_FuncResult] = []
        for part in rest:
            if isinstance(part, TOKEN_CLASSES):
                # The visibility keyword (BARE_ID) or the symbol (SYMBOL_REF).
                text = str(part)
                if text.startswith("@"):
                    sym_name = text
                else:
                    visibility = text
            elif isinstance(part, _FuncResults):
                results = part
            elif isinstance(part, list):
                args = part
        if visibility not in (None, "public", "private", "nested"):
            raise error(f"expected 'public', 'private' or 'nested', got '{visibility}'", location)
        if any(name is None for name, _, _ in args):
            raise error("expected SSA operand: async function arguments are named", location)
        arg_names = [str(name) for name, _, _ in args]
        arg_types = [type for _, type, _ in args]
        result_types: list[Type] = []
        tied: list[int | None] = []
        for result in results:
            if result.tied_name is not None:
                name = str(result.tied_name)
                if name not in arg_names:
                    raise error(
                        f"tied operand not found for result reference {name}",
                        b.location(result.tied_name),
                    )
                index = arg_names.index(name)
                tied.append(index)
                result_types.append(result.type if result.type is not None else arg_types[index])
            else:
                assert result.type is not None
                tied.append(None)
                result_types.append(result.type)
        return cls(
            symbol_ref_from_text(sym_name).root,
            FunctionType(arg_types, result_types),
            tied,
            visibility,
            [attrs for _, _, attrs in args],
            [r.attributes for r in results],
            dict(clauses.get("attributes", {})),
            location,
        )

    @classmethod
    def create(
        cls,
        sym_name: str,
        function_type: FunctionType,
        tied_operands: Sequence[int | None] | None = None,
        visibility: str | None = "private",
    ) -> AsyncFuncOp:
        """Declare `@sym_name` with `function_type`; `tied_operands[i]` is the argument result
        `i` is tied to (or None)."""
        return cls(sym_name, function_type, tied_operands, visibility)

    @property
    def is_public(self) -> bool:
        return self.visibility in (None, "public")

    @property
    def is_declaration(self) -> bool:
        return True

    def tied_result_argument(self, result_index: int) -> int | None:
        """The argument result `result_index` is tied to, if any."""
        return self.tied_operands[result_index]

    def verify(self) -> None:
        if self.is_public:
            raise _op_error(self, "symbol declaration cannot have public visibility")

    def print(self, p: Printer) -> None:
        inputs = self.function_type.inputs
        results = self.function_type.results
        p.write(
            f"stream.async.func {self.visibility or 'public'} @{_symbol_spelling(self.sym_name)}("
        )
        args: list[str] = []
        for i, type in enumerate(inputs):
            text = f"%arg{i}: {type.text}"
            attrs = self.arg_attrs[i] if i < len(self.arg_attrs) else None
            if attrs:
                text += " " + print_attr_dict(attrs)
            args.append(text)
        p.write(", ".join(args) + ")")
        if results:
            any_result_attrs = any(self.res_attrs)
            items: list[str] = []
            for i, type in enumerate(results):
                tied = self.tied_operands[i]
                text = ""
                if tied is not None:
                    text = f"%arg{tied}"
                    if inputs[tied] != type:
                        text += " as " + type.text
                else:
                    text = type.text
                attrs = self.res_attrs[i] if i < len(self.res_attrs) else None
                if attrs:
                    text += " " + print_attr_dict(attrs)
                items.append(text)
            joined = ", ".join(items)
            if len(results) != 1 or any_result_attrs:
                joined = f"({joined})"
            p.write(" -> " + joined)
        p.attr_dict(self, (), keyword=True)


def _split_operand_list(
    items: Sequence[Any],
) -> tuple[list[Value], list[Value], list[Value], list[Value]]:
    """Operands and the offsets, ends and lengths of the ranged ones (custom<DispatchOperands>)."""
    operands: list[Value] = []
    offsets: list[Value] = []
    ends: list[Value] = []
    lengths: list[Value] = []
    for item in items:
        if isinstance(item, OperandRange):
            operands.append(item.value)
            offsets.append(item.offset)
            ends.append(item.end)
            lengths.append(item.length)
        else:
            operands.append(item)
    return operands, offsets, ends, lengths


def _print_operand_list(
    p: Printer,
    operands: Sequence[Value],
    offsets: Sequence[Value],
    ends: Sequence[Value],
    lengths: Sequence[Value],
) -> str:
    """`(%a[%o to %e for %l], %c)`: resources carry their range."""
    parts: list[str] = []
    range_index = 0
    for value in operands:
        if isinstance(value.type, ResourceType) and range_index < len(offsets):
            parts.append(
                f"{p.v(value)}[{p.v(offsets[range_index])} to {p.v(ends[range_index])} for "
                f"{p.v(lengths[range_index])}]"
            )
            range_index += 1
        else:
            parts.append(p.v(value))
    return "(" + ", ".join(parts) + ")"


def _lookup_symbol(op: Operation, name: str) -> Operation | None:
    """The op named `@name` in the nearest enclosing module (MLIR's lookupNearestSymbolFrom)."""
    for ancestor in op.ancestors():
        if not isinstance(ancestor, ModuleOp):
            continue
        for candidate in ancestor.body.ops:
            if getattr(candidate, "sym_name", None) == name:
                return candidate
        return None
    return None


def _function_type_text(inputs: Sequence[Type | None], results: Sequence[Type | None]) -> str:
    return FunctionType([t for t in inputs if t], [t for t in results if t]).text


@register_op
class AsyncCallOp(StreamOp, SegmentedOp):
    """`%r = stream.async.call on(A) @f(%x[%o to %e for %l], %n) : (T{%s}, index) -> %x{%s}`."""

    __slots__ = ("tied_operands",)
    name = "stream.async.call"
    segment_names = (
        "resource_operands",
        "resource_operand_sizes",
        "resource_operand_offsets",
        "resource_operand_ends",
        "resource_operand_lengths",
        "result_sizes",
    )

    def __init__(
        self, *args: Any, tied_operands: Sequence[int | None] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.tied_operands: list[int | None] = list(tied_operands or [None] * len(self.results))

    def _copy_extra_state(self, new: Operation) -> None:
        SegmentedOp._copy_extra_state(self, new)
        assert isinstance(new, AsyncCallOp)
        new.tied_operands = list(self.tied_operands)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncCallOp:
        clauses, rest = split_clauses(parts)
        attributes: dict[str, Attribute] = {}
        callee = ""
        operand_items: list[Any] = []
        operand_types: list[Any] = []
        result_items: list[Any] = []
        for part in rest:
            if isinstance(part, TOKEN_CLASSES):
                callee = str(part)
            elif isinstance(part, Operands):
                operand_items = part
            elif isinstance(part, AttrDict):
                attributes = dict(part)
            elif isinstance(part, ShapedTypes):
                operand_types = part
            elif isinstance(part, ShapedResults):
                result_items = part
        operands, offsets, ends, lengths = _split_operand_list(operand_items)
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
        result_types, result_sizes, tied = _resolve_shaped_results(result_items, operands, location)
        attributes["callee"] = symbol_ref_from_text(callee)
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        groups = [operands, operand_sizes, offsets, ends, lengths, result_sizes]
        return cls(
            [v for group in groups for v in group],
            result_types,
            attributes,
            location=location,
            segments=[len(group) for group in groups],
            tied_operands=tied,
        )

    @classmethod
    def create(
        cls,
        callee: str,
        operands: Sequence[Value],
        operand_sizes: Sequence[Value],
        ranges: Sequence[tuple[Value, Value, Value]],
        result_types: Sequence[Type],
        result_sizes: Sequence[Value],
        tied_operands: Sequence[int | None] | None = None,
        affinity: Attribute | None = None,
    ) -> AsyncCallOp:
        """Call `@callee`. `ranges` holds (offset, end, length) per resource operand, in order;
        `tied_operands[i]` is the position in `operands` result `i` is tied to, or None."""
        groups = [
            list(operands),
            list(operand_sizes),
            [r[0] for r in ranges],
            [r[1] for r in ranges],
            [r[2] for r in ranges],
            list(result_sizes),
        ]
        attributes = _with_affinity({"callee": SymbolRefAttr([callee])}, affinity)
        return cls(
            [v for group in groups for v in group],
            list(result_types),
            attributes,
            segments=[len(group) for group in groups],
            tied_operands=tied_operands,
        )

    @property
    def callee(self) -> SymbolRefAttr:
        callee = self.attributes["callee"]
        assert isinstance(callee, SymbolRefAttr)
        return callee

    @property
    def resource_operands(self) -> list[Value]:
        return self.segment(0)

    def forwarded_operands(self) -> Iterable[tuple[int, Sequence[Value]]]:
        # Yielded resources become the results of the execute/concurrent op.
        parent = self.parent_op
        if parent is None:
            return
        for index in range(self.segments[0]):
            if index < len(parent.results):
                yield index, (parent.results[index],)

    @property
    def resource_operand_sizes(self) -> list[Value]:
        return self.segment(1)

    @property
    def result_sizes(self) -> list[Value]:
        return self.segment(5)

    def tied_operand_index(self, result_index: int) -> int | None:
        """Index (into all operands) of the operand result `result_index` is tied to."""
        return self.tied_operands[result_index]

    def operand_access(self, index: int) -> Access:
        if index >= self.segments[0] or not isinstance(self.operands[index].type, ResourceType):
            return Access.NONE
        if index in self.tied_operands:
            return Access.READ | Access.WRITE
        return Access.READ

    def operand_size(self, index: int) -> Value | None:
        if index >= self.segments[0]:
            return None
        operands = self.resource_operands
        return _size_in_list(index, [v.type for v in operands], self.resource_operand_sizes)

    def result_size(self, index: int) -> Value | None:
        return _size_in_list(index, [r.type for r in self.results], self.result_sizes)

    def verify(self) -> None:
        operands = self.resource_operands
        _check_size_counts(self, [v.type for v in operands], self.resource_operand_sizes)
        _check_size_counts(self, [r.type for r in self.results], self.result_sizes)
        required = sum(1 for v in operands if isinstance(v.type, ResourceType))
        present = self.segments[2]
        if self.segments[3] != present or self.segments[4] != present:
            raise _op_error(
                self, "mismatch on resource range offsets/ends/lengths; counts must match"
            )
        if present != required:
            raise _op_error(
                self,
                f"expects {required} resource range operand sets but {present} are present",
            )
        for result in self.results:
            if not isinstance(result.type, ResourceType):
                raise _op_error(
                    self, "non-resource return values are not yet supported on async calls"
                )
        callee = _lookup_symbol(self, self.callee.root)
        if not isinstance(callee, AsyncFuncOp):
            raise _op_error(self, f"undefined external call: {self.callee.root}")
        call_inputs = [v.type for v in operands]
        call_results = [r.type for r in self.results]
        callee_type = callee.function_type
        if len(callee_type.inputs) != len(call_inputs) or len(callee_type.results) != len(
            call_results
        ):
            expected = _function_type_text(call_inputs, call_results)
            raise _op_error(
                self,
                f"function type mismatch; expected '{expected}' but callee is '{callee_type.text}'",
            )
        for callee_arg, call_arg in zip(callee_type.inputs, call_inputs):
            if not _call_type_compatible(callee_arg, call_arg):
                raise _op_error(
                    self,
                    f"function argument type mismatch; expected '{call_arg}' but callee "
                    f"provides '{callee_arg}'",
                )
        for callee_result, call_result in zip(callee_type.results, call_results):
            if not _call_type_compatible(callee_result, call_result):
                raise _op_error(
                    self,
                    f"function result type mismatch; expected '{call_result}' but callee "
                    f"provides '{callee_result}'",
                )

    def print(self, p: Printer) -> None:
        p.write("stream.async.call")
        self.print_affinity(p)
        operands = self.resource_operands
        p.write(" " + self.callee.text)
        p.write(_print_operand_list(p, operands, self.segment(2), self.segment(3), self.segment(4)))
        p.attr_dict(self, ("affinity", "callee"))
        p.write(" : ")
        p.write(
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


def _call_type_compatible(callee: Type, call: Type | None) -> bool:
    """IREE allows an async function to declare `*` for any resource lifetime of the call."""
    if callee == call:
        return True
    if isinstance(callee, ResourceType) and isinstance(call, ResourceType):
        return callee.lifetime == "*"
    return False


class ResourceCaptures(NamedTuple):
    """`with(%x as %arg0: T{%s}, ...) -> (results)` of an execute or concurrent region."""

    operands: list[Value]
    types: list[Type]
    sizes: list[Value]
    results: list[Any]


@parse_rule("resource_capture")
def _resource_capture(b: Builder, children: list[Any]) -> tuple[Value, Any, Sized]:
    value, _, arg_token, sized = children
    return (value, arg_token, sized)


@parse_rule("resource_results")
def _resource_results(b: Builder, children: list[Any]) -> ShapedResults:
    return ShapedResults(children)


@parse_rule("resource_captures")
def _resource_captures(b: Builder, children: list[Any]) -> ResourceCaptures:
    captures = [c for c in children if isinstance(c, tuple)]
    results = next((c for c in children if isinstance(c, ShapedResults)), ShapedResults())
    entry_args: list[tuple[Any, Type, str | None]] = []
    operands: list[Value] = []
    types: list[Type] = []
    sizes: list[Value] = []
    for value, arg_token, sized in captures:
        check_operand_type(value, sized.type, b.location(arg_token))
        operands.append(value)
        types.append(sized.type)
        sizes.extend(sized.sizes)
        entry_args.append((arg_token, sized.type, None))
    # The region that follows gets one entry argument per capture.
    b.pending_entry_args = entry_args
    return ResourceCaptures(operands, types, sizes, results)


@parse_rule("stream_unit_keyword")
def _stream_unit_keyword(b: Builder, children: list[Any]) -> Clause:
    return Clause(str(children[0]), UNIT)


class _ResourceRegionOp(StreamOp, SegmentedOp):
    """Shared by `stream.async.execute` and `stream.async.concurrent`: captured resources become
    the region's entry arguments, the region's `stream.yield` gives the resource results, and
    results may be tied to (update in place) a captured operand."""

    __slots__ = ("tied_operands",)
    region_kind = RegionKind.ONCE

    def __init__(
        self, *args: Any, tied_operands: Sequence[int | None] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.tied_operands: list[int | None] = list(
            tied_operands or [None] * self.resource_result_count
        )

    def _copy_extra_state(self, new: Operation) -> None:
        SegmentedOp._copy_extra_state(self, new)
        assert isinstance(new, _ResourceRegionOp)
        new.tied_operands = list(self.tied_operands)

    @property
    def resource_result_count(self) -> int:
        return len(self.results)

    @property
    def resource_results(self) -> list[OpResult]:
        return self.results[: self.resource_result_count]

    @property
    def resource_operands(self) -> list[Value]:
        return self.segment(0)

    @property
    def resource_operand_sizes(self) -> list[Value]:
        return self.segment(1)

    @property
    def result_sizes(self) -> list[Value]:
        return self.segment(2)

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def yield_op(self) -> YieldOp | None:
        terminator = self.body.last_op
        return terminator if isinstance(terminator, YieldOp) else None

    def forwarded_operands(self) -> Iterable[tuple[int, Sequence[Value]]]:
        # Captured resources are the region's entry arguments.
        arguments = self.body.arguments if self.regions and self.regions[0].blocks else []
        for index, _ in enumerate(self.resource_operands):
            if index < len(arguments):
                yield index, (arguments[index],)

    def tied_operand_index(self, result_index: int) -> int | None:
        """The captured operand result `result_index` updates in place (operands come first)."""
        if result_index >= self.resource_result_count:
            return None
        return self.tied_operands[result_index]

    def operand_access(self, index: int) -> Access:
        # As IREE's getAsyncAccessRanges: a capture is read, and written when a result is tied
        # to it; sizes and the await timepoint are plain values.
        if index >= self.segments[0] or not isinstance(self.operands[index].type, ResourceType):
            return Access.NONE
        if index in self.tied_operands:
            return Access.READ | Access.WRITE
        return Access.READ

    def operand_size(self, index: int) -> Value | None:
        if index >= self.segments[0]:
            return None
        return _size_in_list(
            index, [v.type for v in self.resource_operands], self.resource_operand_sizes
        )

    def result_size(self, index: int) -> Value | None:
        if index >= self.resource_result_count:
            return None
        return _size_in_list(index, [r.type for r in self.resource_results], self.result_sizes)

    def verify(self) -> None:
        operands = self.resource_operands
        for i, value in enumerate(operands):
            _check_lifetime(self, "operand", i, value.type, _ANY_OR_STAGING_LIFETIMES)
        results = self.resource_results
        for i, result in enumerate(results):
            _check_lifetime(self, "result", i, result.type, _ANY_OR_STAGING_LIFETIMES)
        _check_size_counts(self, [v.type for v in operands], self.resource_operand_sizes)
        _check_size_counts(self, [r.type for r in results], self.result_sizes)
        if len(self.regions) != 1 or len(self.regions[0].blocks) != 1:
            raise _op_error(self, "expects a region with one block")
        body = self.body
        if [a.type for a in body.arguments] != [v.type for v in operands]:
            raise _op_error(self, "region arguments do not match the captured operands")
        # Every resource used in the body is captured or produced there (IREE's
        # verifyAllResourcesCaptured); values from outside must come in through `with(...)`.
        for op in body.ops:
            for operand in op.operands:
                if not isinstance(operand.type, ResourceType):
                    continue
                if operand.parent_block is body and not (
                    isinstance(operand, OpResult) and operand.op is op
                ):
                    continue
                raise _op_error(
                    op, "used resource not listed in explicit captures (or produced internally)"
                )
        # IREE's parser adds no implicit terminator: a body must end in its stream.yield.
        last = body.last_op
        if last is None:
            raise _op_error(self, "empty block: expect at least a terminator")
        if not last.is_terminator:
            raise error("block with no terminator", last.location)
        yield_op = self.yield_op
        if yield_op is None:
            raise _op_error(last, "expects the region to end with 'stream.yield'")
        yielded = yield_op.resource_operands
        if len(yielded) != len(results):
            raise _op_error(yield_op, "yield result count mismatch with parent op")
        for outer, inner in zip(results, yielded):
            if outer.type != inner.type:
                raise _op_error(
                    yield_op,
                    f"result type mismatch: expected '{outer.type}' but got '{inner.type}'",
                )
        for outer_size, inner_size in zip(self.result_sizes, yield_op.resource_operand_sizes):
            if outer_size is not inner_size:
                raise _op_error(yield_op, "result size mismatch")

    def _print_captures(self, p: Printer) -> None:
        operands = self.resource_operands
        sizes = self.resource_operand_sizes
        captures: list[str] = []
        size_index = 0
        for operand, arg in zip(operands, self.body.arguments):
            text = f"{p.v(operand)} as {p.v(arg)}: {_type_text(arg)}"
            if isinstance(arg.type, ResourceType):
                text += "{" + p.v(sizes[size_index]) + "}"
                size_index += 1
            captures.append(text)
        p.write("with(" + ", ".join(captures) + ")")
        results = self.resource_results
        if results:
            text = print_shaped_result_list(
                p,
                self,
                operands,
                [r.type for r in results],  # type: ignore[misc]
                self.result_sizes,
                self.tied_operands,
            )
            p.write(" -> " + (text if len(results) == 1 else f"({text})"))
        p.write(" ")
        p.print_region(self.regions[0], print_entry_block_args=False)


def _new_region(types: Sequence[Type | None]) -> Region:
    return Region([Block(types)])


@register_op
class AsyncExecuteOp(_ResourceRegionOp):
    """`%results:2, %result_timepoint = stream.async.execute on(A) await(%t) =>
    with(%x as %arg0: T{%s}) -> (%x{%s}, T{%s2}) { ... } => !stream.timepoint`."""

    __slots__ = ()
    name = "stream.async.execute"
    segment_names = (
        "resource_operands",
        "resource_operand_sizes",
        "result_sizes",
        "await_timepoint",
    )

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncExecuteOp:
        clauses, rest = split_clauses(parts)
        captures, region, timepoint_type = rest
        types, sizes, tied = _resolve_shaped_results(captures.results, captures.operands, location)
        awaited = [clauses["await"]] if "await" in clauses else []
        groups = [captures.operands, captures.sizes, sizes, awaited]
        return cls(
            [v for group in groups for v in group],
            [*types, timepoint_type],
            _attributes(clauses),
            [region],
            location=location,
            segments=[len(group) for group in groups],
            tied_operands=tied,
        )

    @classmethod
    def create(
        cls,
        operands: Sequence[Value],
        operand_sizes: Sequence[Value],
        result_types: Sequence[Type],
        result_sizes: Sequence[Value],
        tied_operands: Sequence[int | None] | None = None,
        await_timepoint: Value | None = None,
        affinity: Attribute | None = None,
    ) -> AsyncExecuteOp:
        """An execute region capturing `operands`; its block has one argument per capture and
        no ops yet (the caller fills it and ends it with a `stream.yield`)."""
        awaited = [await_timepoint] if await_timepoint is not None else []
        groups = [list(operands), list(operand_sizes), list(result_sizes), awaited]
        return cls(
            [v for group in groups for v in group],
            [*result_types, TIMEPOINT],
            _with_affinity(None, affinity),
            [_new_region([v.type for v in operands])],
            segments=[len(group) for group in groups],
            tied_operands=tied_operands,
        )

    @property
    def resource_result_count(self) -> int:
        return len(self.results) - 1

    @property
    def await_timepoint(self) -> Value | None:
        return self.operands[-1] if self.segments[3] else None

    @property
    def await_timepoints(self) -> list[Value]:
        return self.segment(3)

    @property
    def result_timepoint(self) -> OpResult:
        return self.results[-1]

    def asm_result_name(self, index: int) -> str | None:
        # ODS names the two result groups `results` and `result_timepoint`.
        if index == len(self.results) - 1:
            return "result_timepoint"
        return "results" if index == 0 else None

    def verify(self) -> None:
        super().verify()
        _check_timepoint(self, "result", len(self.results) - 1, self.results[-1].type)
        if self.segments[3]:
            _check_timepoint(self, "operand", len(self.operands) - 1, self.operands[-1].type)

    def print(self, p: Printer) -> None:
        p.write("stream.async.execute")
        self.print_affinity(p)
        if self.segments[3]:
            p.write(f" await({p.v(self.operands[-1])}) =>")
        p.write(" ")
        self._print_captures(p)
        p.write(f" => {self.results[-1].type}")
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class AsyncConcurrentOp(_ResourceRegionOp):
    """`%r:2 = stream.async.concurrent with(%x as %arg0: T{%s}) -> (...) { ... }`: a wave of
    work inside an execute (or another concurrent) region."""

    __slots__ = ()
    name = "stream.async.concurrent"
    segment_names = ("resource_operands", "resource_operand_sizes", "result_sizes")

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncConcurrentOp:
        clauses, rest = split_clauses(parts)
        captures, region = rest
        types, sizes, tied = _resolve_shaped_results(captures.results, captures.operands, location)
        groups = [captures.operands, captures.sizes, sizes]
        return cls(
            [v for group in groups for v in group],
            types,
            _attributes(clauses),
            [region],
            location=location,
            segments=[len(group) for group in groups],
            tied_operands=tied,
        )

    @classmethod
    def create(
        cls,
        operands: Sequence[Value],
        operand_sizes: Sequence[Value],
        result_types: Sequence[Type],
        result_sizes: Sequence[Value],
        tied_operands: Sequence[int | None] | None = None,
        affinity: Attribute | None = None,
    ) -> AsyncConcurrentOp:
        """A concurrent region capturing `operands` (body left empty for the caller)."""
        groups = [list(operands), list(operand_sizes), list(result_sizes)]
        return cls(
            [v for group in groups for v in group],
            list(result_types),
            _with_affinity(None, affinity),
            [_new_region([v.type for v in operands])],
            segments=[len(group) for group in groups],
            tied_operands=tied_operands,
        )

    def verify(self) -> None:
        parent = self.parent_op
        if parent is None or parent.name not in ("stream.async.execute", "stream.async.concurrent"):
            raise _op_error(
                self,
                "expects parent op to be one of 'stream.async.execute, stream.async.concurrent'",
            )
        super().verify()

    def print(self, p: Printer) -> None:
        p.write("stream.async.concurrent")
        self.print_affinity(p)
        p.write(" ")
        self._print_captures(p)
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class YieldOp(SegmentedOp):
    """`stream.yield %a, %b : T{%s}, T{%s2}`: the resource results of an execution region."""

    __slots__ = ()
    name = "stream.yield"
    is_terminator = True
    # IREE marks it Pure, but a terminator has no results and is never dead: not pure here so
    # that dead-code removal keeps it.
    is_pure = False
    segment_names = ("resource_operands", "resource_operand_sizes")

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> YieldOp:
        attributes: dict[str, Attribute] = {}
        rest = list(parts)
        if rest and isinstance(rest[0], AttrDict):
            attributes = dict(rest[0])
            rest = rest[1:]
        values: list[Value] = []
        sizes: list[Value] = []
        if rest:
            values, types = rest
            if len(values) != len(types):
                raise error(
                    "number of operands and types do not match: got "
                    f"{len(values)} operands and {len(types)} types",
                    location,
                )
            for value, type_part in zip(values, types):
                type = type_part.type if isinstance(type_part, Sized) else type_part
                check_operand_type(value, type, location)
                if isinstance(type_part, Sized):
                    sizes.extend(type_part.sizes)
        return cls(
            [*values, *sizes], (), attributes, location=location, segments=[len(values), len(sizes)]
        )

    @classmethod
    def create(cls, values: Sequence[Value], sizes: Sequence[Value]) -> YieldOp:
        """Yield `values` with the `sizes` of the resources among them."""
        return cls([*values, *sizes], (), segments=[len(values), len(sizes)])

    @property
    def resource_operands(self) -> list[Value]:
        return self.segment(0)

    @property
    def resource_operand_sizes(self) -> list[Value]:
        return self.segment(1)

    def operand_access(self, index: int) -> Access:
        # The values flow out to the parent's results, where analyses pick them up.
        return Access.ESCAPE if index < self.segments[0] else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        if index >= self.segments[0]:
            return None
        return _size_in_list(
            index, [v.type for v in self.resource_operands], self.resource_operand_sizes
        )

    def verify(self) -> None:
        parent = self.parent_op
        if parent is None or parent.name not in _YIELD_PARENTS:
            raise _op_error(
                self, "expects parent op to be one of '" + ", ".join(_YIELD_PARENTS) + "'"
            )
        values = self.resource_operands
        _check_size_counts(self, [v.type for v in values], self.resource_operand_sizes)

    def print(self, p: Printer) -> None:
        p.write("stream.yield")
        p.attr_dict(self)
        values = self.resource_operands
        if values:
            types = [v.type for v in values]
            p.write(f" {p.values(values)} : ")
            p.write(print_shaped_type_list(p, types, self.resource_operand_sizes))  # type: ignore[arg-type]


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
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> TensorImportOp:
        clauses, rest = split_clauses(parts)
        dims, rest = _encoding_parts(rest)
        source, source_type, encoding, result = rest
        check_operand_type(source, source_type, location)
        attributes = _attributes(clauses)
        attributes["result_encoding"] = TypeAttr(encoding)
        if "consume" in clauses:
            attributes["consume"] = UNIT
        operands = [source, *dims, _one_size(result, location)]
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
        attributes = _with_affinity({"result_encoding": TypeAttr(encoding)}, affinity)
        if consume:
            attributes["consume"] = UNIT
        return cls([source, *encoding_dims, result_size], [result_type], attributes)

    @property
    def source(self) -> Value:
        return self.operands[0]

    @property
    def consume(self) -> bool:
        """True for `consume`: ownership of the storage moves to the imported resource."""
        return "consume" in self.attributes

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
        _check_dims(self, self.result_encoding, self.result_encoding_dims)
        _check_lifetime(self, "result", 0, self.result.type, _ANY_OR_STAGING_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write("stream.tensor.import")
        self.print_affinity(p)
        if self.consume:
            p.write(" consume")
        p.write(
            f" {p.v(self.source)} : {_type_text(self.source)} -> "
            f"{_print_encoding(p, self.result_encoding, self.result_encoding_dims)} in "
            f"{_sized(p, self.result.type, self.result_size_value)}"
        )
        p.attr_dict(self, ("affinity", "result_encoding", "consume"), keyword=True)


@register_op
class TensorExportOp(StreamOp):
    """`%b = stream.tensor.export on(A) %x : tensor<4xf32> in !stream.resource<external>{%s} ->
    !util.buffer`: hands the resource's storage out (it escapes; IREE's tie to the result is
    not reported, as for import)."""

    __slots__ = ()
    name = "stream.tensor.export"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> TensorExportOp:
        clauses, rest = split_clauses(parts)
        dims, rest = _encoding_parts(rest)
        source, encoding, source_sized, result_type = rest
        check_operand_type(source, source_sized.type, location)
        attributes = _attributes(clauses)
        attributes["source_encoding"] = TypeAttr(encoding)
        operands = [source, *dims, _one_size(source_sized, location)]
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
        attributes = _with_affinity({"source_encoding": TypeAttr(encoding)}, affinity)
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
        _check_dims(self, self.source_encoding, self.source_encoding_dims)
        _check_lifetime(self, "operand", 0, self.source.type, _ANY_OR_STAGING_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write("stream.tensor.export")
        self.print_affinity(p)
        p.write(
            f" {p.v(self.source)} : "
            f"{_print_encoding(p, self.source_encoding, self.source_encoding_dims)} in "
            f"{_sized(p, self.source.type, self.source_size)} -> {self.result.type}"
        )
        p.attr_dict(self, ("affinity", "source_encoding"), keyword=True)


@register_op
class TensorSizeOfOp(StreamOp):
    """`%s = stream.tensor.sizeof on(A) tensor<?x4xf32>{%d} : index`: storage size of a type."""

    __slots__ = ()
    name = "stream.tensor.sizeof"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> TensorSizeOfOp:
        clauses, rest = split_clauses(parts)
        dims, rest = _encoding_parts(rest)
        attributes = _attributes(clauses)
        encoding, *middle, result_type = rest
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
        attributes = _with_affinity({"encoding": TypeAttr(encoding)}, affinity)
        return cls(list(encoding_dims), [INDEX], attributes)

    @property
    def encoding(self) -> Type:
        encoding = self.attributes["encoding"]
        assert isinstance(encoding, TypeAttr)
        return encoding.type

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def verify(self) -> None:
        _check_dims(self, self.encoding, self.operands)

    def print(self, p: Printer) -> None:
        p.write("stream.tensor.sizeof")
        self.print_affinity(p)
        p.write(" " + _print_encoding(p, self.encoding, self.operands))
        p.attr_dict(self, ("affinity", "encoding"))
        p.write(f" : {self.result.type}")


@register_op
class TimepointImmediateOp(StreamOp):
    """`%t = stream.timepoint.immediate => !stream.timepoint`: already reached."""

    __slots__ = ()
    name = "stream.timepoint.immediate"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> TimepointImmediateOp:
        attributes: dict[str, Attribute] = {}
        if isinstance(parts[0], AttrDict):
            attributes = dict(parts[0])
        return cls((), [parts[-1]], attributes, location=location)

    @classmethod
    def create(cls) -> TimepointImmediateOp:
        return cls((), [TIMEPOINT])

    @property
    def await_timepoints(self) -> list[Value]:
        return []

    @property
    def result_timepoint(self) -> OpResult:
        return self.result

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def verify(self) -> None:
        _check_timepoint(self, "result", 0, self.result.type)

    def print(self, p: Printer) -> None:
        p.write("stream.timepoint.immediate")
        p.attr_dict(self)
        p.write(f" => {self.result.type}")


@register_op
class TimepointJoinOp(StreamOp):
    """`%t = stream.timepoint.join max(%a, %b) => !stream.timepoint`: reached when all are."""

    __slots__ = ()
    name = "stream.timepoint.join"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> TimepointJoinOp:
        clauses, rest = split_clauses(parts)
        timepoints, result_type = rest
        for timepoint in timepoints:
            check_operand_type(timepoint, TIMEPOINT, location)
        return cls(list(timepoints), [result_type], _attributes(clauses), location=location)

    @classmethod
    def create(cls, timepoints: Sequence[Value]) -> TimepointJoinOp:
        return cls(list(timepoints), [TIMEPOINT])

    @property
    def await_timepoints(self) -> list[Value]:
        return list(self.operands)

    @property
    def result_timepoint(self) -> OpResult:
        return self.result

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def verify(self) -> None:
        _check_timepoint(self, "result", 0, self.result.type)

    def print(self, p: Printer) -> None:
        p.write(f"stream.timepoint.join max({p.values(self.operands)}) => {self.result.type}")
        p.attr_dict(self, (), keyword=True)


@register_op
class TimepointAwaitOp(StreamOp, SegmentedOp):
    """`%r:2 = stream.timepoint.await sync? %t => %a, %b : T{%s}, T{%s2}`: the resources as of
    the timepoint (each result is tied to its operand)."""

    __slots__ = ()
    name = "stream.timepoint.await"
    is_pure = True
    segment_names = ("resource_operands", "resource_operand_sizes", "await_timepoint")

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> TimepointAwaitOp:
        clauses, rest = split_clauses(parts)
        timepoint, values, types = rest
        check_operand_type(timepoint, TIMEPOINT, location)
        if len(values) != len(types):
            raise error(
                "number of operands and types do not match: got "
                f"{len(values)} operands and {len(types)} types",
                location,
            )
        sizes: list[Value] = []
        result_types: list[Type] = []
        for value, type_part in zip(values, types):
            type = type_part.type if isinstance(type_part, Sized) else type_part
            check_operand_type(value, type, location)
            result_types.append(type)
            if isinstance(type_part, Sized):
                sizes.extend(type_part.sizes)
        attributes = _attributes(clauses)
        if "sync" in clauses:
            attributes["sync"] = UNIT
        return cls(
            [*values, *sizes, timepoint],
            result_types,
            attributes,
            location=location,
            segments=[len(values), len(sizes), 1],
        )

    @classmethod
    def create(
        cls,
        timepoint: Value,
        resources: Sequence[Value],
        sizes: Sequence[Value],
        sync: bool = False,
    ) -> TimepointAwaitOp:
        """`resources` (with their `sizes`) as of `timepoint`."""
        return cls(
            [*resources, *sizes, timepoint],
            [v.type for v in resources],
            {"sync": UNIT} if sync else {},
            segments=[len(resources), len(sizes), 1],
        )

    @property
    def resource_operands(self) -> list[Value]:
        return self.segment(0)

    @property
    def resource_operand_sizes(self) -> list[Value]:
        return self.segment(1)

    @property
    def await_timepoint(self) -> Value:
        return self.operands[-1]

    @property
    def await_timepoints(self) -> list[Value]:
        return [self.operands[-1]]

    @property
    def result_timepoint(self) -> Value | None:
        return None

    @property
    def sync(self) -> bool:
        return "sync" in self.attributes

    def tied_operand_index(self, result_index: int) -> int | None:
        return result_index

    # A passthrough: the results are the operands, later on the timeline.
    def operand_access(self, index: int) -> Access:
        return Access.READ if index < self.segments[0] else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        if index >= self.segments[0]:
            return None
        return self.resource_operand_sizes[index]

    def result_size(self, index: int) -> Value | None:
        return self.resource_operand_sizes[index]

    def verify(self) -> None:
        values = self.resource_operands
        for i, value in enumerate(values):
            _check_lifetime(self, "operand", i, value.type, _ANY_OR_STAGING_LIFETIMES)
        _check_size_counts(self, [v.type for v in values], self.resource_operand_sizes)
        if [r.type for r in self.results] != [v.type for v in values]:
            raise _op_error(self, "result types must match the resource operand types")

    def print(self, p: Printer) -> None:
        p.write("stream.timepoint.await")
        if self.sync:
            p.write(" sync")
        values = self.resource_operands
        p.write(f" {p.v(self.await_timepoint)} => {p.values(values)} : ")
        p.write(
            print_shaped_type_list(p, [v.type for v in values], self.resource_operand_sizes)  # type: ignore[misc]
        )
        p.attr_dict(self, ("sync",), keyword=True)


@register_op
class TimepointBarrierOp(StreamOp):
    """`%result, %result_timepoint = stream.timepoint.barrier on(A) %x : T{%s} =>
    !stream.timepoint`: the resource (tied) and when it is available."""

    __slots__ = ()
    name = "stream.timepoint.barrier"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> TimepointBarrierOp:
        clauses, rest = split_clauses(parts)
        resource, sized, timepoint_type = rest
        check_operand_type(resource, sized.type, location)
        return cls(
            [resource, _one_size(sized, location)],
            [sized.type, timepoint_type],
            _attributes(clauses),
            location=location,
        )

    @classmethod
    def create(
        cls, resource: Value, size: Value, affinity: Attribute | None = None
    ) -> TimepointBarrierOp:
        return cls([resource, size], [resource.type, TIMEPOINT], _with_affinity(None, affinity))

    @property
    def resource(self) -> Value:
        return self.operands[0]

    @property
    def resource_size(self) -> Value:
        return self.operands[1]

    @property
    def await_timepoints(self) -> list[Value]:
        return []

    @property
    def result_timepoint(self) -> OpResult:
        return self.results[1]

    def asm_result_name(self, index: int) -> str | None:
        # ODS names the two results `result` and `result_timepoint`.
        return "result" if index == 0 else "result_timepoint"

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0 if result_index == 0 else None

    # A passthrough, like stream.timepoint.await.
    def operand_access(self, index: int) -> Access:
        return Access.READ if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.operands[1] if index == 0 else None

    def result_size(self, index: int) -> Value | None:
        return self.operands[1] if index == 0 else None

    def verify(self) -> None:
        _check_lifetime(self, "operand", 0, self.resource.type, _ANY_OR_STAGING_LIFETIMES)
        _check_timepoint(self, "result", 1, self.results[1].type)

    def print(self, p: Printer) -> None:
        p.write("stream.timepoint.barrier")
        self.print_affinity(p)
        p.write(
            f" {p.v(self.resource)} : {_sized(p, self.resource.type, self.resource_size)} => "
            f"{self.results[1].type}"
        )
        p.attr_dict(self, ("affinity",), keyword=True)


# -- resource and cmd-phase ops ---------------------------------------------------------------
