"""The stream dialect: async resource ops, timeline ops, tensor import/export, cmd-phase ops.

Syntax follows the assemblyFormat of IREE's StreamOps.td. Each op class exposes the interfaces
the analyses read: `affinity`, tied results (`tied_operand_index`), the size operand of each
resource operand and result, and whether it reads or writes its resource operands.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from streamopt.diagnostics import UNKNOWN_LOCATION, Diagnostic, DiagnosticError, Location, error
from streamopt.dialects import parse_rule, register_op, unmodelled_check
from streamopt.dialects.builtin import ModuleOp, OpaqueOp, top_level_parts
from streamopt.dialects.common import (
    SegmentedOp,
    affinity_attrs,
    check_operand_type,
    dynamic_dim_count,
    is_sized,
    print_shaped_function_type,
    print_shaped_result_list,
    print_shaped_type_list,
    require_index_type,
    split_clauses,
)
from streamopt.ir.core import (
    Access,
    Block,
    BlockArgument,
    Operation,
    OpResult,
    Region,
    RegionKind,
    Value,
)
from streamopt.ir.opdef import DeclaredOp, TextAttributeKind, attr_def, operand_def, result_def
from streamopt.ir.types import (
    I1,
    INDEX,
    INDEX_CONSTRAINT,
    STREAM_FILE,
    TIMEPOINT,
    TIMEPOINT_CONSTRAINT,
    UNIT,
    ArrayAttr,
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
from streamopt.lazy_regex import lazy_compile
from streamopt.parser import interpret
from streamopt.parser.interpret import integer_literal
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
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.ir.format import FormatReader
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


def _sized(p: Printer, type: Type | None, size: Value) -> str:
    return f"{type_text(type)}{{{p.value_name(size)}}}"


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
        return self.attribute_map.get(self.affinity_attr_name)

    def print_affinity(self, p: Printer) -> None:
        affinity = self.attribute_map.get(self.affinity_attr_name)
        if affinity is not None:
            p.write(f" on({affinity.text})")


class _AffinityKind(TextAttributeKind):
    """An affinity attribute (`#hal.device.affinity<@dev>`), written in an `on(...)`,
    `from(...)` or `to(...)` clause (which the grammar reads as one rule)."""

    grammar = "ATTR_REF"

    def from_part(self, reader: FormatReader, name: str, part: Any) -> Attribute:
        return interpret.attribute_from_token("ATTR_REF", str(part), None)


AFFINITY = _AffinityKind()


class _DeclaredStreamOp(DeclaredOp, StreamOp):
    """A stream op declared by its fields and IREE's assembly format (streamopt.ir.opdef)."""

    __slots__ = ()


@register_op
class AsyncSplatOp(_DeclaredStreamOp):
    """`%r = stream.async.splat on(A) await(%t)? %v : i32 -> !stream.resource<*>{%s}`."""

    __slots__ = ()
    name = "stream.async.splat"
    await_timepoint: Value | None = operand_def(TIMEPOINT_CONSTRAINT, optional=True)
    value = operand_def()
    result_size_value = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(check=_require_resource)
    assembly_format = (
        "(`on` `(` $affinity^ `)`)? (`await` `(` $await_timepoint^ `)`)? $value `:` "
        "type($value) `->` type($result) `` `{` $result_size_value `}` attr-dict-with-keyword"
    )


@register_op
class AsyncCloneOp(_DeclaredStreamOp):
    """`%r = stream.async.clone on(A) %x : T{%s} -> T'{%s}`: copy-on-write clone."""

    __slots__ = ()
    name = "stream.async.clone"
    source = operand_def(access=Access.READ, check=_require_resource)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    result_size_value = operand_def(INDEX_CONSTRAINT, size_of="result")
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(check=_require_resource)
    assembly_format = (
        "(`on` `(` $affinity^ `)`)? $source `:` type($source) `` `{` $source_size `}` `->` "
        "type($result) `` `{` $result_size_value `}` attr-dict-with-keyword"
    )


class _TransferLikeOp(_DeclaredStreamOp):
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
        _verify_consumed_source(self, context)


_EXPORT_HEADER = lazy_compile(
    r"^[ \t]*stream\.executable\.export\s+(?:(?:public|private|nested)\s+)?"
    r"(@[^\s({]+)([^\n]*)",
    re.MULTILINE,
)


def _export_workload_counts(executable: Operation) -> dict[str, int]:
    """Each export of a stream.executable kept verbatim that has a workgroup count region ->
    how many workload operands it takes (that region's arguments), read from its text. An
    export without one takes any workload."""
    counts: dict[str, int] = {}
    for match in _EXPORT_HEADER.finditer(getattr(executable, "text", "")):
        workgroups = re.match(r"\s*workgroups\(([^)]*)\)", match.group(2))
        if workgroups is not None:
            counts[symbol_ref_from_text(match.group(1)).root] = workgroups.group(1).count("%")
    return counts


def _verify_workload(
    op: Operation, entry_points: Sequence[Attribute], provided: int, context: Any
) -> None:
    """IREE's verifyDispatchWorkload: the workload matches the arguments of each entry point's
    workgroup count region (checked for the exports of stream.executables in the module)."""
    from streamopt.ir.symbols import SymbolTable

    cache: dict[int, dict[str, int]] = context.get("export_workloads", lambda module: {})
    table = SymbolTable.nearest(op)
    for entry_point in entry_points:
        if not isinstance(entry_point, SymbolRefAttr) or len(entry_point.path) != 2:
            continue
        executable = table.lookup(entry_point.root)
        if executable is None or executable.name != "stream.executable" or executable.is_known:
            continue
        counts = cache.get(id(executable))
        if counts is None:
            counts = cache[id(executable)] = _export_workload_counts(executable)
        expected = counts.get(entry_point.path[1])
        if expected is not None and expected != provided:
            raise _op_error(
                op,
                f"workload mismatch; entry point expects {expected} arguments but dispatch "
                f"provides {provided}",
            )


def _verify_consumed_source(op: Operation, context: Any) -> None:
    """Reject a move whose source storage something else may still observe (docs/storage-
    model.md): a use of any name of it that may run after the move, an escape of it (an
    export, a global store, an unmodelled op) before the move, or a handover that fed it
    while its giver still uses it (a loop init the body also reads, a caller that uses what it
    passed after the call). The storage model's `observers_after` answers it."""
    # Imported here: the analysis layer sits above the dialects that define the ops.
    from streamopt.analysis.ownership import Conflict, ConflictKind
    from streamopt.analysis.storage import StorageModel

    model: StorageModel = context.get("storage", StorageModel)
    observer = model.observers_after(op, 0)
    if observer is None:
        return
    if not isinstance(observer, Conflict):
        raise DiagnosticError(
            Diagnostic(
                "error",
                f"'{op.name}' op source storage is still observed elsewhere: {observer}",
                op.location,
            )
        )
    user = observer.user
    if observer.kind is ConflictKind.ESCAPE:
        message = (
            f"'{op.name}' op source storage escaped before the move, through "
            f"'{user.name}' at {user.location}"
        )
        note = "escapes here"
    elif observer.reason == "used later":
        message = (
            f"'{op.name}' op source is used after the move, by '{user.name}' at {user.location}"
        )
        note = "later use here"
    else:
        message = (
            f"'{op.name}' op source may be used after the move: {observer.reason} "
            f"('{user.name}' at {user.location})"
        )
        note = "later use here"
    diagnostic = Diagnostic("error", message, op.location)
    diagnostic.attach_note(note, user.location)
    raise DiagnosticError(diagnostic)


@register_op
class AsyncDispatchOp(StreamOp, SegmentedOp):
    """`stream.async.dispatch on(A) @ex::@fn[%w](%a[%o to %e for %l], %c) : (...) -> (...)`."""

    __slots__ = ("entry_points", "tied_operands")
    name = "stream.async.dispatch"
    inherent_attributes = frozenset({"entry_points", "tied_operands", "affinity"})
    operand_types = {
        "workload": INDEX_CONSTRAINT,
        "resource_operand_sizes": INDEX_CONSTRAINT,
        "resource_operand_offsets": INDEX_CONSTRAINT,
        "resource_operand_ends": INDEX_CONSTRAINT,
        "resource_operand_lengths": INDEX_CONSTRAINT,
        "result_sizes": INDEX_CONSTRAINT,
    }
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

    def verify(self) -> None:
        operands = self.resource_operands
        _check_size_counts(self, [v.type for v in operands], self.resource_operand_sizes)
        _check_size_counts(self, [r.type for r in self.results], self.result_sizes)
        for index, tied in enumerate(self.tied_operands):
            if tied is not None and not 0 <= tied < len(operands):
                raise _op_error(self, f"result #{index} tied to invalid operand index {tied}")
        if not self.entry_points:
            raise _op_error(self, "at least one entry point must be defined")

    def verify_in_module(self, context: Any) -> None:
        _verify_workload(self, self.entry_points, len(self.workload), context)

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
    """Type and size of a `custom<ShapedTiedResult>`: `%name as T{%s}` or `T{%s}`.

    The result is always tied to the target. Like IREE, the name before `as` is not looked up
    (hand-written tests often write any name there); the grammar hands over only the type.
    """
    if isinstance(result, Tied):
        if result.type is None:
            raise error("expected 'as' after the tied result's operand", location)
        sized = Sized(result.type, result.sizes)
    else:
        sized = result
    check_operand_type(target, sized.type, location)
    return sized.type, _one_size(sized, location)


@parse_rule("tied_to_target")
def _tied_to_target(b: Builder, children: list[Any]) -> Sized:
    return children[-1]  # type: ignore[no-any-return]


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
class AsyncAllocaOp(_DeclaredStreamOp):
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
        return cls([size], [type], _with_affinity(None, affinity))

    def verify(self) -> None:
        _check_lifetime(self, "result", 0, self.result.type, _ANY_LIFETIMES)


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
class AsyncSliceOp(_DeclaredStreamOp):
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
            _with_affinity(None, affinity),
        )

    def verify(self) -> None:
        _check_lifetime(self, "operand", 0, self.source.type, _ANY_LIFETIMES)
        if self.source.type != self.result.type:
            raise _op_error(self, "failed to verify that all of {source, result} have same type")


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
            f"{p.v(self.target_end)} for {p.v(self.target_length)}] : {type_text(self.value.type)}"
            f" -> {_print_tied_target(p, self.target, self.target_size)}"
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
class AsyncCastOp(_DeclaredStreamOp):
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
        return cls([source, size, size], [result_type], _with_affinity(None, affinity))

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0

    def verify(self) -> None:
        _check_lifetime(self, "operand", 0, self.source.type, _ANY_LIFETIMES)
        _check_lifetime(self, "result", 0, self.result.type, _ANY_LIFETIMES)
        if self.source_size is not self.result_size_value:
            raise _op_error(self, "source and result sizes must be equal (tied storage)")


@register_op
class AsyncLoadOp(_DeclaredStreamOp):
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
        _check_lifetime(self, "operand", 0, self.source.type, _STAGING_LIFETIMES)


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
            f"[{p.v(self.target_offset)}] : {type_text(self.value.type)} -> "
            f"{_print_tied_target(p, self.target, self.target_size)}"
        )
        p.attr_dict(self, (), keyword=True)


@register_op
class AsyncBarrierOp(_DeclaredStreamOp):
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
        return cls([source, size], [source.type], _with_affinity(None, affinity))

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0

    def verify(self) -> None:
        _check_lifetime(self, "operand", 0, self.source.type, _ANY_OR_STAGING_LIFETIMES)


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


@parse_rule("async_func_bare_results")
def _async_func_bare_results(b: Builder, children: list[Any]) -> _FuncResults:
    return _FuncResults(
        child if isinstance(child, _FuncResult) else _FuncResult(None, child, None)
        for child in children
    )


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
    inherent_attributes = frozenset(
        {"sym_name", "function_type", "tied_operands", "sym_visibility", "arg_attrs", "res_attrs"}
    )
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
    inherent_attributes = frozenset(
        {"callee", "tied_operands", "arg_attrs", "res_attrs", "affinity"}
    )
    operand_types = {
        "resource_operand_sizes": INDEX_CONSTRAINT,
        "resource_operand_offsets": INDEX_CONSTRAINT,
        "resource_operand_ends": INDEX_CONSTRAINT,
        "resource_operand_lengths": INDEX_CONSTRAINT,
        "result_sizes": INDEX_CONSTRAINT,
    }
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
    def resource_results(self) -> Sequence[OpResult]:
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
            text = f"{p.v(operand)} as {p.v(arg)}: {type_text(arg.type)}"
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
    inherent_attributes = frozenset({"tied_operands", "affinity"})
    operand_types = {
        "resource_operand_sizes": INDEX_CONSTRAINT,
        "result_sizes": INDEX_CONSTRAINT,
        "await_timepoint": TIMEPOINT_CONSTRAINT,
    }
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
    inherent_attributes = frozenset({"tied_operands", "affinity"})
    operand_types = {"resource_operand_sizes": INDEX_CONSTRAINT, "result_sizes": INDEX_CONSTRAINT}
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
    operand_types = {"resource_operand_sizes": INDEX_CONSTRAINT}
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
        _check_dims(self, self.result_encoding, self.result_encoding_dims)
        _check_lifetime(self, "result", 0, self.result.type, _ANY_OR_STAGING_LIFETIMES)

    def print(self, p: Printer) -> None:
        p.write("stream.tensor.import")
        self.print_affinity(p)
        if self.consume:
            p.write(" consume")
        p.write(
            f" {p.v(self.source)} : {type_text(self.source.type)} -> "
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
    inherent_attributes = frozenset({"source_encoding", "affinity"})
    operand_types = {"source_encoding_dims": INDEX_CONSTRAINT, "source_size": INDEX_CONSTRAINT}
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
    inherent_attributes = frozenset({"encoding", "affinity"})
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> TensorSizeOfOp:
        clauses, rest = split_clauses(parts)
        dims, rest = _encoding_parts(rest)
        attributes = _attributes(clauses)
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
class TimepointImmediateOp(_DeclaredStreamOp):
    """`%t = stream.timepoint.immediate => !stream.timepoint`: already reached."""

    __slots__ = ()
    name = "stream.timepoint.immediate"
    is_pure = True
    result_timepoint = result_def(TIMEPOINT)
    assembly_format = "attr-dict `=` `` `>` type($result_timepoint)"

    @property
    def await_timepoints(self) -> list[Value]:
        return []

    def verify(self) -> None:
        _check_timepoint(self, "result", 0, self.result.type)


@register_op
class TimepointJoinOp(_DeclaredStreamOp):
    """`%t = stream.timepoint.join max(%a, %b) => !stream.timepoint`: reached when all are."""

    __slots__ = ()
    name = "stream.timepoint.join"
    is_pure = True
    await_timepoints = operand_def(TIMEPOINT_CONSTRAINT, variadic=True, type=TIMEPOINT)
    result_timepoint = result_def(TIMEPOINT)
    assembly_format = (
        "`max` `(` $await_timepoints `)` `=` `` `>` type($result_timepoint) attr-dict-with-keyword"
    )

    def verify(self) -> None:
        _check_timepoint(self, "result", 0, self.result.type)


@register_op
class TimepointAwaitOp(StreamOp, SegmentedOp):
    """`%r:2 = stream.timepoint.await sync? %t => %a, %b : T{%s}, T{%s2}`: the resources as of
    the timepoint (each result is tied to its operand)."""

    __slots__ = ()
    name = "stream.timepoint.await"
    inherent_attributes = frozenset({"sync"})
    operand_types = {
        "resource_operand_sizes": INDEX_CONSTRAINT,
        "await_timepoints": TIMEPOINT_CONSTRAINT,
    }
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
        return "sync" in self.attribute_map

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
class TimepointBarrierOp(_DeclaredStreamOp):
    """`%result, %result_timepoint = stream.timepoint.barrier on(A) %x : T{%s} =>
    !stream.timepoint`: the resource (tied) and when it is available."""

    __slots__ = ()
    name = "stream.timepoint.barrier"
    is_pure = True
    # A passthrough, like stream.timepoint.await.
    resource = operand_def(access=Access.READ)
    resource_size = operand_def(INDEX_CONSTRAINT, size_of=("resource", "result"))
    affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(same_as="resource", asm_name="result")
    result_timepoint = result_def(asm_name="result_timepoint")
    assembly_format = (
        "(`on` `(` $affinity^ `)`)? $resource `:` type($resource) `` `{` $resource_size `}` "
        "`=` `` `>` type($result_timepoint) attr-dict-with-keyword"
    )

    @classmethod
    def create(
        cls, resource: Value, size: Value, affinity: Attribute | None = None
    ) -> TimepointBarrierOp:
        return cls([resource, size], [resource.type, TIMEPOINT], _with_affinity(None, affinity))

    @property
    def await_timepoints(self) -> list[Value]:
        return []

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0 if result_index == 0 else None

    def verify(self) -> None:
        _check_lifetime(self, "operand", 0, self.resource.type, _ANY_OR_STAGING_LIFETIMES)
        _check_timepoint(self, "result", 1, self.results[1].type)


# -- resource and cmd-phase ops ---------------------------------------------------------------
#
# Timeline resource ops (`stream.resource.alloca` / `dealloca`), resource metadata ops, and the
# explicit command ops of `stream.cmd.execute` regions. Syntax follows StreamOps.td and the
# `custom<ExplicitResourceRegion>` / `custom<DispatchResources>` directives of StreamOps.cpp.


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
    inherent_attributes = frozenset({"indeterminate_lifetime", "affinity"})
    operand_types = {"storage_size": INDEX_CONSTRAINT, "await_timepoint": TIMEPOINT_CONSTRAINT}
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
        return "indeterminate_lifetime" in self.attribute_map

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
    inherent_attributes = frozenset({"prefer_origin", "affinity"})
    operand_types = {"resource_size": INDEX_CONSTRAINT, "await_timepoint": TIMEPOINT_CONSTRAINT}
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
        return "prefer_origin" in self.attribute_map

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
class CmdMoveOp(_TimelineOp):
    """`stream.cmd.move`: hand a whole allocation to another affinity, as a timeline op.

        %r, %t = stream.cmd.move origin? on(EXEC) await(%t0) =>
            %x : T1{%n} from(A) -> to(B) T2{%n} => !stream.timepoint

    The cmd-phase form of `stream.async.move`, beside `stream.resource.alloca` / `dealloca`
    rather than inside a `stream.cmd.execute`. Once the await timepoint is reached it reads and
    frees the source and produces a new allocation holding the same bytes; the result timepoint
    signals when the result is usable. The runtime may alias the source's memory (no bytes
    move) or allocate, copy and free the source (`--expand-cmd-moves` spells that out). `origin`
    asks for the source to be freed on the queue that allocated it.

    The source must be a whole allocation (a `stream.resource.alloca` result or another move's
    result), not a subview or a packed slab: that is not checkable from the op alone (the
    source may be a block argument), so the verifier does not try; the expansion is always
    correct for whole allocations.
    """

    __slots__ = ()
    name = "stream.cmd.move"
    inherent_attributes = frozenset(
        {"prefer_origin", "affinity", "source_affinity", "target_affinity"}
    )
    operand_types = {
        "source_size": INDEX_CONSTRAINT,
        "result_size_value": INDEX_CONSTRAINT,
        "await_timepoint": TIMEPOINT_CONSTRAINT,
    }
    # source, source size, result size; then the optional await timepoint.
    fixed_operand_count = 3

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> CmdMoveOp:
        clauses, rest = _split(parts)
        attributes = _clause_attributes(clauses)
        source: Value = rest[0]
        source_sized: Sized = rest[1]
        result_sized: Sized = rest[2]
        _require_timepoint(rest[3], location)
        for part in rest[4:]:
            if isinstance(part, AttrDict):
                attributes.update(part)
        source_size = _check_sized_operand(source, source_sized, location)
        _require_resource(result_sized.type, location)
        operands = [source, source_size, _one_size(result_sized, location)]
        if "await" in clauses:
            check_operand_type(clauses["await"], TIMEPOINT, location)
            operands.append(clauses["await"])
        if "origin" in clauses:
            attributes["prefer_origin"] = UNIT
        for keyword, name in (
            ("on", "affinity"),
            ("from", "source_affinity"),
            ("to", "target_affinity"),
        ):
            if keyword in clauses:
                attributes[name] = clauses[keyword]
        return cls(operands, [result_sized.type, TIMEPOINT], attributes, location=location)

    @classmethod
    def create(
        cls,
        source: Value,
        source_size: Value,
        result_type: Type,
        result_size: Value,
        affinity: Attribute | None = None,
        source_affinity: Attribute | None = None,
        target_affinity: Attribute | None = None,
        await_timepoint: Value | None = None,
        prefer_origin: bool = False,
    ) -> CmdMoveOp:
        """Move `source` (of `source_size` bytes) into a new `result_type` allocation, on
        `affinity`, after `await_timepoint`."""
        attributes: dict[str, Attribute] = {}
        if prefer_origin:
            attributes["prefer_origin"] = UNIT
        for name, value in (
            ("affinity", affinity),
            ("source_affinity", source_affinity),
            ("target_affinity", target_affinity),
        ):
            if value is not None:
                attributes[name] = value
        operands = [source, source_size, result_size]
        if await_timepoint is not None:
            operands.append(await_timepoint)
        return cls(operands, [result_type, TIMEPOINT], attributes)

    @property
    def source(self) -> Value:
        return self.operands[0]

    @property
    def source_size(self) -> Value:
        return self.operands[1]

    @property
    def result_size_value(self) -> Value:
        return self.operands[2]

    @property
    def source_affinity(self) -> Attribute | None:
        return self.attribute_map.get("source_affinity")

    @property
    def target_affinity(self) -> Attribute | None:
        return self.attribute_map.get("target_affinity")

    @property
    def prefer_origin(self) -> bool:
        return "prefer_origin" in self.attribute_map

    def operand_access(self, index: int) -> Access:
        # Reads the bytes and frees the storage: nothing may use the source afterwards.
        return Access.READ | Access.CONSUME if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.source_size if index == 0 else None

    def result_size(self, index: int) -> Value | None:
        return self.result_size_value if index == 0 else None

    def asm_result_name(self, index: int) -> str | None:
        return ("result", "result_timepoint")[index]

    def verify(self) -> None:
        for what, value in (("operand #0", self.source), ("result #0", self.results[0])):
            if not isinstance(value.type, ResourceType):
                raise _op_error(self, f"{what} must be a resource, but got '{value.type}'")
        for size in (self.source_size, self.result_size_value):
            if size.type is not None and size.type != INDEX:
                raise _op_error(self, f"expects index sizes, got '{size.type}'")

    def verify_in_module(self, context: Any) -> None:
        _verify_consumed_source(self, context)

    def print(self, p: Printer) -> None:
        p.write("stream.cmd.move")
        if self.prefer_origin:
            p.write(" origin")
        self.print_affinity(p)
        self.print_await(p)
        source = self.source
        p.write(f" {p.v(source)} : {_sized(p, source.type, self.source_size)}")
        source_affinity = self.source_affinity
        if source_affinity is not None:
            p.write(f" from({source_affinity.text})")
        p.write(" ->")
        target_affinity = self.target_affinity
        if target_affinity is not None:
            p.write(f" to({target_affinity.text})")
        p.write(f" {_sized(p, self.results[0].type, self.result_size_value)}")
        p.write(" => !stream.timepoint")
        p.attr_dict(self, ("affinity", "source_affinity", "target_affinity", "prefer_origin"))


class ConstantValue(NamedTuple):
    """`T{%size} = value` in a `stream.resource.constants` list."""

    sized: Sized
    value: Attribute


@parse_rule("constant_value")
def _constant_value(b: Builder, children: list[Any]) -> ConstantValue:
    return ConstantValue(children[0], children[-1])


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

    __slots__ = ()
    name = "stream.resource.constants"
    inherent_attributes = frozenset({"values", "affinity"})
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourceConstantsOp:
        clauses, rest = _split(parts)
        attributes: dict[str, Attribute] = {}
        constants: list[ConstantValue] = []
        for part in rest:
            if isinstance(part, AttrDict):
                attributes.update(part)
            elif isinstance(part, ConstantValue):
                constants.append(part)
        _require_timepoint(rest[-1], location)
        for constant in constants:
            _require_resource(constant.sized.type, location)
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        attributes["values"] = ArrayAttr(c.value for c in constants)
        return cls(
            [_one_size(c.sized, location) for c in constants],
            [*(c.sized.type for c in constants), TIMEPOINT],
            attributes,
            location=location,
        )

    @classmethod
    def create(
        cls,
        constants: Sequence[tuple[Type, Value, Attribute]],
        affinity: Attribute | None = None,
    ) -> ResourceConstantsOp:
        """Upload each `(resource type, size, value)` on `affinity`."""
        attributes: dict[str, Attribute] = {"values": ArrayAttr(v for _, _, v in constants)}
        if affinity is not None:
            attributes["affinity"] = affinity
        return cls(
            [size for _, size, _ in constants],
            [*(type for type, _, _ in constants), TIMEPOINT],
            attributes,
        )

    @property
    def values(self) -> list[Attribute]:
        values = self.attributes["values"]
        return list(values.elements) if isinstance(values, ArrayAttr) else []

    @property
    def resource_results(self) -> Sequence[OpResult]:
        return self.results[:-1]

    @property
    def await_timepoints(self) -> list[Value]:
        return []

    @property
    def result_timepoint(self) -> OpResult:
        return self.results[-1]

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def result_size(self, index: int) -> Value | None:
        return self.operands[index] if index < len(self.operands) else None

    def asm_result_name(self, index: int) -> str | None:
        # MLIR names the variadic group `%results` and the timepoint `%result_timepoint`.
        if index == len(self.results) - 1:
            return "result_timepoint"
        return "results" if index == 0 else None

    def verify(self) -> None:
        results = self.resource_results
        if len(self.operands) != len(results) or len(self.values) != len(results):
            raise _op_error(self, "mismatched constant/result counts")
        if len({r.type for r in results}) > 1:
            raise _op_error(self, "all results must be of the same type")
        for index, result in enumerate(results):
            type = result.type
            if not isinstance(type, ResourceType) or type.lifetime not in ("constant", "variable"):
                raise _op_error(
                    self,
                    f"result #{index} must be variadic of constant resource or variable resource, "
                    f"but got '{type}'",
                )

    def print(self, p: Printer) -> None:
        p.write("stream.resource.constants")
        self.print_affinity(p)
        p.attr_dict(self, ("affinity", "values"))
        p.write(" : ")
        indent = "\n" + " " * p.indent_width + "  "
        entries = [
            f"{indent}{_sized(p, result.type, size)} = {value.text}"
            for result, size, value in zip(self.resource_results, self.operands, self.values)
        ]
        p.write(",".join(entries))
        p.write(f"{indent}=> !stream.timepoint")


@register_op
class ResourceSizeOp(DeclaredOp):
    """`%n = stream.resource.size %r : T`: the byte size of a resource's storage."""

    __slots__ = ()
    name = "stream.resource.size"
    inherent_attributes = frozenset({"affinity"})
    is_pure = True
    resource: Value = operand_def(check=_require_resource)
    result: OpResult = result_def(INDEX)
    assembly_format = "$resource attr-dict `:` type($resource)"

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


@register_op
class ResourceLoadOp(DeclaredOp):
    """`%v = stream.resource.load %r[%o] : !stream.resource<staging>{%s} -> i32`: a host read
    of one element of a staging resource (what `stream.async.load` lowers to)."""

    __slots__ = ()
    name = "stream.resource.load"
    source = operand_def(access=Access.READ, check=_require_resource)
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

    __slots__ = ()
    name = "stream.resource.store"
    target = operand_def(access=Access.WRITE, check=_require_resource)
    target_size = operand_def(size_of="target")
    target_offset = operand_def()
    value = operand_def()
    assembly_format = (
        "$value `,` $target `[` $target_offset `]` `:` type($value) `->` type($target) "
        "`{` $target_size `}` attr-dict-with-keyword"
    )

    @classmethod
    def create(
        cls, value: Value, target: Value, target_size: Value, offset: Value
    ) -> ResourceStoreOp:
        return cls([target, target_size, offset, value], [])


@register_op
class ResourceTryMapOp(StreamOp):
    """`%ok, %r = stream.resource.try_map on(A) %buf[%o] : !util.buffer -> i1, T{%n}`: use host
    memory in place as a resource if the device can (`%ok`), as IREE's PackConstants does for
    constant data."""

    __slots__ = ()
    name = "stream.resource.try_map"
    inherent_attributes = frozenset({"affinity"})
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourceTryMapOp:
        clauses, rest = _split(parts)
        source, offset, source_type, flag_type, sized = rest
        check_operand_type(source, source_type, location)
        _require_resource(sized.type, location)
        attributes = _clause_attributes(clauses)
        affinity_attrs(clauses, attributes)
        operands = [source, offset, _one_size(sized, location)]
        return cls(operands, [flag_type, sized.type], attributes, location=location)

    @classmethod
    def create(
        cls, source: Value, offset: Value, size: Value, type: ResourceType,
        affinity: Attribute | None,
    ) -> ResourceTryMapOp:  # fmt: skip
        attributes: dict[str, Attribute] = {} if affinity is None else {"affinity": affinity}
        return cls([source, offset, size], [I1, type], attributes)

    def result_size(self, index: int) -> Value | None:
        return self.operands[2] if index == 1 else None

    def asm_result_name(self, index: int) -> str | None:
        return ("did_map", "result")[index]

    def print(self, p: Printer) -> None:
        source, offset, size = self.operands
        p.write("stream.resource.try_map")
        self.print_affinity(p)
        p.write(
            f" {p.v(source)}[{p.v(offset)}] : {source.type} -> {self.results[0].type}, "
            f"{_sized(p, self.results[1].type, size)}"
        )
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class ResourceAllocOp(StreamOp):
    """`%r = stream.resource.alloc uninitialized on(A) : T{%n}`: allocate at once (not on a
    timeline), as IREE's PackConstants does for data it reads from a file."""

    __slots__ = ()
    name = "stream.resource.alloc"
    inherent_attributes = frozenset({"uninitialized", "affinity"})

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourceAllocOp:
        clauses, rest = _split(parts)
        attributes = _clause_attributes(clauses)
        for part in rest:
            if isinstance(part, AttrDict):
                attributes.update(part)
        sized: Sized = _rest_of(rest, Sized)[0]
        _require_resource(sized.type, location)
        affinity_attrs(clauses, attributes)
        if "uninitialized" in clauses:
            attributes["uninitialized"] = UNIT
        return cls([_one_size(sized, location)], [sized.type], attributes, location=location)

    @classmethod
    def create(cls, size: Value, type: ResourceType, affinity: Attribute | None) -> ResourceAllocOp:
        attributes: dict[str, Attribute] = {"uninitialized": UNIT}
        if affinity is not None:
            attributes["affinity"] = affinity
        return cls([size], [type], attributes)

    def result_size(self, index: int) -> Value | None:
        return self.operands[0]

    def print(self, p: Printer) -> None:
        p.write("stream.resource.alloc")
        if "uninitialized" in self.attribute_map:
            p.write(" uninitialized")
        self.print_affinity(p)
        p.attr_dict(self, ("affinity", "uninitialized"))
        p.write(f" : {_sized(p, self.results[0].type, self.operands[0])}")


@register_op
class FileConstantOp(StreamOp):
    """`%f = stream.file.constant on(A) %buf[%o for %n] : !util.buffer{%s} -> !stream.file`: a
    file handle over host data, for `stream.file.read`."""

    __slots__ = ()
    name = "stream.file.constant"
    inherent_attributes = frozenset({"affinity"})
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> FileConstantOp:
        clauses, rest = _split(parts)
        source, offset, length, sized, result_type = rest
        check_operand_type(source, sized.type, location)
        attributes = _clause_attributes(clauses)
        affinity_attrs(clauses, attributes)
        operands = [source, _one_size(sized, location), offset, length]
        return cls(operands, [result_type], attributes, location=location)

    @classmethod
    def create(
        cls, source: Value, source_size: Value, offset: Value, length: Value,
        affinity: Attribute | None,
    ) -> FileConstantOp:  # fmt: skip
        attributes: dict[str, Attribute] = {} if affinity is None else {"affinity": affinity}
        return cls([source, source_size, offset, length], [STREAM_FILE], attributes)

    def asm_result_name(self, index: int) -> str | None:
        return "file"

    def print(self, p: Printer) -> None:
        source, size, offset, length = self.operands
        p.write("stream.file.constant")
        self.print_affinity(p)
        p.write(
            f" {p.v(source)}[{p.v(offset)} for {p.v(length)}] : {_sized(p, source.type, size)}"
            f" -> {self.results[0].type}"
        )
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class FileReadOp(_TimelineOp):
    """`%t = stream.file.read on(A) await(%t0) => %f[%fo], %r[%o], %n : !stream.file -> T{%s}
    => !stream.timepoint`: read `%n` bytes of a file into a resource on a queue."""

    __slots__ = ()
    name = "stream.file.read"
    inherent_attributes = frozenset({"affinity"})
    fixed_operand_count = 6

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> FileReadOp:
        clauses, rest = _split(parts)
        source, source_offset, target, target_offset, length, source_type, sized, _ = rest
        check_operand_type(source, source_type, location)
        size = _check_sized_operand(target, sized, location)
        attributes = _clause_attributes(clauses)
        affinity_attrs(clauses, attributes)
        operands = [source, source_offset, target, size, target_offset, length]
        if "await" in clauses:
            check_operand_type(clauses["await"], TIMEPOINT, location)
            operands.append(clauses["await"])
        return cls(operands, [TIMEPOINT], attributes, location=location)

    @classmethod
    def create(
        cls, source: Value, source_offset: Value, target: Value, target_size: Value,
        target_offset: Value, length: Value, affinity: Attribute | None,
        await_timepoint: Value | None,
    ) -> FileReadOp:  # fmt: skip
        attributes: dict[str, Attribute] = {} if affinity is None else {"affinity": affinity}
        operands = [source, source_offset, target, target_size, target_offset, length]
        if await_timepoint is not None:
            operands.append(await_timepoint)
        return cls(operands, [TIMEPOINT], attributes)

    def operand_access(self, index: int) -> Access:
        return Access.WRITE if index == 2 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.operands[3] if index == 2 else None

    def print(self, p: Printer) -> None:
        source, source_offset, target, size, target_offset, length = self.operands[:6]
        p.write("stream.file.read")
        self.print_affinity(p)
        if not self.print_await(p):
            p.write(" :")
        p.write(
            f" {p.v(source)}[{p.v(source_offset)}], {p.v(target)}[{p.v(target_offset)}], "
            f"{p.v(length)} : {source.type} -> {_sized(p, target.type, size)} => "
            "!stream.timepoint"
        )
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class ResourceSubviewOp(DeclaredOp):
    """`%v = stream.resource.subview %r[%offset] : T{%size} -> T{%length}`: an alias of a range."""

    __slots__ = ()
    name = "stream.resource.subview"
    is_pure = True
    # Making a view touches no bytes; what users of the view do reaches the source through the
    # tie.
    source = operand_def(check=_require_resource)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    source_offset = operand_def(INDEX_CONSTRAINT, type=INDEX)
    result_size_value = operand_def(INDEX_CONSTRAINT, size_of="result")
    result = result_def(check=_require_resource)
    assembly_format = (
        "$source `[` $source_offset `]` `:` type($source) `` `{` $source_size `}` `->` "
        "type($result) `` `{` $result_size_value `}` attr-dict-with-keyword"
    )

    @classmethod
    def create(
        cls, source: Value, source_size: Value, offset: Value, length: Value
    ) -> ResourceSubviewOp:
        """A view of `length` bytes of `source` starting at `offset`."""
        return cls([source, source_size, offset, length], [source.type])

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0

    def verify(self) -> None:
        if self.source.type != self.result.type:
            raise _op_error(self, "failed to verify that all of {source, result} have same type")


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
    start, end = (
        integer_literal(str(c)) for c in children if getattr(c, "type", None) == "INTEGER"
    )
    return PackSlice(start, end, children[-1])


@register_op
class ResourcePackOp(StreamOp, SegmentedOp):
    """`%total, %offsets:N = stream.resource.pack on(A) offset(%o)? slices({[0, 1] = %s, ...})
    : index`: place slices with the given lifetimes in one slab (slices whose lifetimes do not
    overlap may share bytes); results are the slab size and each slice's offset."""

    __slots__ = ("lifetime_intervals",)
    name = "stream.resource.pack"
    inherent_attributes = frozenset({"lifetime_intervals", "affinity"})
    operand_types = {"offset": INDEX_CONSTRAINT, "dynamic_slice_sizes": INDEX_CONSTRAINT}
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
        require_index_type(cls.name, result_type, location)
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
    # IREE's SingleBlockImplicitTerminator<"stream.yield">: streamopt keeps no yield there.
    has_no_terminator = True

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


@parse_rule("resource_uninitialized")
def _resource_uninitialized(b: Builder, children: list[Any]) -> Clause:
    return Clause("uninitialized", True)


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
    inherent_attributes = frozenset({"once", "affinity"})
    operand_types = {
        "resource_operand_sizes": INDEX_CONSTRAINT,
        "await_timepoint": TIMEPOINT_CONSTRAINT,
    }
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
        return "once" in self.attribute_map

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
                else (type_text(argument.type))
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


class _CmdSubrangeOp(DeclaredOp):
    """A command on `%target[%offset for %length] : T{%size}` (flush, invalidate, discard)."""

    __slots__ = ()
    target = operand_def(check=_require_resource)
    target_size = operand_def(size_of="target")
    target_offset = operand_def(type=INDEX)
    target_length = operand_def(type=INDEX)
    assembly_format = (
        "$target `[` $target_offset `for` $target_length `]` `:` type($target) "
        "`` `{` $target_size `}` attr-dict-with-keyword"
    )

    @classmethod
    def create(
        cls,
        target: Value,
        size: Value,
        offset: Value,
        length: Value,
        affinity: Attribute | None = None,
    ) -> _CmdSubrangeOp:
        attributes = {"source_affinity": affinity} if affinity is not None else {}
        return cls([target, size, offset, length], (), attributes)


@register_op
class CmdFlushOp(_CmdSubrangeOp):
    """`stream.cmd.flush to(A)? %r[%o for %l] : T{%s}`: make a range available to another
    device."""

    __slots__ = ()
    name = "stream.cmd.flush"
    # Publishing the bytes reads them (it must follow every write).
    target = operand_def(access=Access.READ, check=_require_resource)
    source_affinity: Attribute | None = attr_def(AFFINITY)
    assembly_format = "(`to` `(` $source_affinity^ `)`)? " + _CmdSubrangeOp.assembly_format


@register_op
class CmdInvalidateOp(_CmdSubrangeOp):
    """`stream.cmd.invalidate from(A)? %r[%o for %l] : T{%s}`: make another device's writes
    visible here."""

    __slots__ = ()
    name = "stream.cmd.invalidate"
    # Refreshing the local view acts as a write for ordering: reads must come after it.
    target = operand_def(access=Access.READ | Access.WRITE, check=_require_resource)
    source_affinity: Attribute | None = attr_def(AFFINITY)
    assembly_format = "(`from` `(` $source_affinity^ `)`)? " + _CmdSubrangeOp.assembly_format


@register_op
class CmdDiscardOp(_CmdSubrangeOp):
    """`stream.cmd.discard %r[%o for %l] : T{%s}`: the range's contents are no longer needed."""

    __slots__ = ()
    name = "stream.cmd.discard"
    target = operand_def(access=Access.WRITE, check=_require_resource)


@register_op
class CmdFillOp(DeclaredOp):
    """`stream.cmd.fill %v, %r[%o for %l] : i32 -> T{%s}`: splat a pattern into a range."""

    __slots__ = ()
    name = "stream.cmd.fill"
    target = operand_def(access=Access.WRITE, check=_require_resource)
    target_size = operand_def(INDEX_CONSTRAINT, size_of="target")
    target_offset = operand_def(INDEX_CONSTRAINT, type=INDEX)
    target_length = operand_def(INDEX_CONSTRAINT, type=INDEX)
    value: Value = operand_def()
    assembly_format = (
        "$value `,` $target `[` $target_offset `for` $target_length `]` `:` type($value) `->` "
        "type($target) `` `{` $target_size `}` attr-dict-with-keyword"
    )

    @classmethod
    def create(
        cls, value: Value, target: Value, size: Value, offset: Value, length: Value
    ) -> CmdFillOp:
        return cls([target, size, offset, length, value], ())

    def verify(self) -> None:
        type = self.value.type
        native = isinstance(type, IntegerType) and type.width in (8, 16, 32)
        if not native or type.signedness:  # type: ignore[union-attr]
            raise _op_error(
                self,
                "operand #4 must be 8-bit signless integer or 16-bit signless integer or "
                f"32-bit signless integer, but got '{type}'",
            )


@register_op
class CmdCopyOp(DeclaredOp):
    """`stream.cmd.copy %a[%ao], %b[%bo], %len : T{%as} -> T{%bs}`: copy bytes between
    resources (the ranges must not overlap)."""

    __slots__ = ()
    name = "stream.cmd.copy"
    source = operand_def(access=Access.READ, check=_require_resource)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    source_offset = operand_def(INDEX_CONSTRAINT, type=INDEX)
    target = operand_def(access=Access.WRITE, check=_require_resource)
    target_size = operand_def(INDEX_CONSTRAINT, size_of="target")
    target_offset = operand_def(INDEX_CONSTRAINT, type=INDEX)
    length = operand_def(INDEX_CONSTRAINT, type=INDEX)
    assembly_format = (
        "$source `[` $source_offset `]` `,` $target `[` $target_offset `]` `,` $length `:` "
        "type($source) `` `{` $source_size `}` `->` type($target) `` `{` $target_size `}` "
        "attr-dict-with-keyword"
    )


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
    inherent_attributes = frozenset({"entry_points", "resource_accesses"})
    operand_types = {
        "workload": INDEX_CONSTRAINT,
        "resource_sizes": INDEX_CONSTRAINT,
        "resource_offsets": INDEX_CONSTRAINT,
        "resource_lengths": INDEX_CONSTRAINT,
    }
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

    def verify_in_module(self, context: Any) -> None:
        _verify_workload(self, self.entry_points, len(self.workload), context)

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
            types = ", ".join(type_text(v.type) for v in uniform)
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
