"""What the stream dialect's op groups share: the `StreamOp` base and its affinity, the
lifetime and size checks worded as IREE's verifiers word them, the timeline base of ops that
await a timepoint, the helpers of IREE's shared custom directives, and `stream.yield`, the
terminator of execution regions."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import Location, error
from streamopt.dialects import register_op
from streamopt.dialects.common import (
    SegmentedOp,
    ValueKind,
    check_operand_type,
    dynamic_dim_count,
    is_sized,
    of_class,
    op_error,
    shaped_type_texts,
)
from streamopt.ir.core import Access, Operation, Value
from streamopt.ir.opdef import (
    CustomDirective,
    DeclaredOp,
    custom_directive,
    operand_def,
)
from streamopt.ir.types import (
    INDEX_CONSTRAINT,
    TIMEPOINT,
    ArrayAttr,
    Attribute,
    ResourceType,
    ShapedType,
    SymbolRefAttr,
    Type,
    TypeConstraint,
    is_primitive,
    symbol_ref_from_text,
)
from streamopt.lazy_regex import lazy_compile
from streamopt.parser import token_values
from streamopt.parser.parts import Sized
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.ir.opdef import FormatReader
    from streamopt.printer import Printer


# The format pieces most stream ops share: where the op runs and the timepoint it awaits.
ON = "(`on` `(` $affinity^ `)`)? "
AWAIT = "(`await` `(` $await_timepoint^ `)` `=` `` `>`)"


def sized_text(p: Printer, type: Type | None, size: Value) -> str:
    return f"{type_text(type)}{{{p.value_name(size)}}}"


def one_size(sized: Sized, location: Location) -> Value:
    if len(sized.sizes) != 1:
        raise error(f"expected one size for '{sized.type}'", location)
    return sized.sizes[0]


def require_resource(type: Type, location: Location) -> None:
    if not isinstance(type, ResourceType):
        raise error(f"expected a !stream.resource type, got '{type}'", location)


class StreamOp(DeclaredOp):
    """Base of the stream ops that run somewhere: the execution affinity is `on(...)`. Each is
    declared by its fields and IREE's assembly format (streamopt.ir.opdef)."""

    affinity_attr_name = "affinity"

    @property
    def affinity(self) -> Attribute | None:
        """Where the op executes (`on(...)`), if set."""
        return self.attribute_map.get(self.affinity_attr_name)


# An affinity attribute (`#hal.device.affinity<@dev>`), written in an `on(...)`, `from(...)` or
# `to(...)` clause (which the grammar reads as one rule).
AFFINITY = ValueKind(
    lambda value: value,
    None,
    "ATTR_REF",
    lambda part: token_values.attribute_from_token("ATTR_REF", str(part), None),
    # An attribute of a dialect (or an alias of one): IREE's AffinityAttrInterface.
    lambda attribute: attribute if attribute.text.startswith("#") else None,
)


# An array (entry points, constant values); the accessor gives its elements.
ARRAY = ValueKind(
    ArrayAttr, lambda attribute: list(attribute.elements), generic=of_class(ArrayAttr)
)


def _parse_entry_points(reader: FormatReader, part: Any, args: Sequence[tuple[str, str]]) -> None:
    reader.attributes[args[0][1]] = ArrayAttr(part)


def _print_entry_points(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    entries = getattr(op, args[0][1])
    return entries[0].text if len(entries) == 1 else "{" + ", ".join(e.text for e in entries) + "}"


# `custom<DispatchEntryPoints>($entry_points)`: `@ex::@fn` or `{@a::@b, @c::@d}`.
custom_directive(
    "DispatchEntryPoints",
    CustomDirective("dispatch_entry_points", _parse_entry_points, _print_entry_points),
)


def field_values(op: DeclaredOp, args: Sequence[tuple[str, str]]) -> list[Any]:
    """What each field a directive names holds, for its printer: values (lists for lists),
    attributes as their accessors give them, regions. A segmented op's operand lists are
    read in one pass over its segments: a printer asks for several."""
    definition = op.definition
    starts = [0, *accumulate(op.segments)] if definition.segmented else []  # type: ignore[attr-defined]
    operands = op.operands
    out: list[Any] = []
    for _, name in args:
        index = definition.operand_index.get(name)
        if starts and index is not None and definition.operands[name].variadic:
            out.append(operands[starts[index] : starts[index + 1]])
        elif name in definition.attributes:
            out.append(getattr(op, name))
        elif name in definition.regions:
            out.append(op.regions[definition.region_index[name]])
        else:
            out.append(definition.field_value(op, name))
    return out


def print_captures(
    p: Printer, operands: Sequence[Value], arguments: Sequence[Value], sizes: Sequence[Value]
) -> str:
    """`(%x as %arg0: T{%s}, ...)`: the operands an execution region captures, with the region
    arguments that stand for them (custom<ResourceRegion> / <ExplicitResourceRegion>)."""
    remaining = iter(sizes)
    captures = [
        f"{p.v(operand)} as {p.v(argument)}: {type_text(argument.type)}"
        + ("{" + p.v(next(remaining)) + "}" if is_sized(argument.type) else "")
        for operand, argument in zip(operands, arguments)
    ]
    return "(" + ", ".join(captures) + ")"


class TimelineOp(StreamOp):
    """A stream op on a timeline (IREE's TimelineOpInterface): it starts once its optional
    `await_timepoint` operand is reached (and signals its `result_timepoint`, if it has one)."""

    @property
    def await_timepoints(self) -> list[Value]:
        timepoint = self.await_timepoint  # type: ignore[attr-defined]
        return [timepoint] if timepoint is not None else []

    def set_await_timepoint(self, timepoint: Value | None) -> None:
        """Make the op wait on `timepoint` (None: start at once)."""
        values = [timepoint] if timepoint is not None else []
        definition = self.definition
        if definition.segmented:
            self.set_segment(definition.operand_index["await_timepoint"], values)  # type: ignore[attr-defined]
            return
        start, end = definition.operand_span(self, "await_timepoint")
        self.set_operands([*self.operands[:start], *values, *self.operands[end:]])


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


def verify_workload(
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
            raise op_error(
                op,
                f"workload mismatch; entry point expects {expected} arguments but dispatch "
                f"provides {provided}",
            )


def verify_consumed_source(op: Operation, context: Any) -> None:
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
        raise op_error(op, f"source storage is still observed elsewhere: {observer}")
    user = observer.user
    where = f"'{user.name}' at {user.location}"
    note = "later use here"
    if observer.kind is ConflictKind.ESCAPE:
        message = f"source storage escaped before the move, through {where}"
        note = "escapes here"
    elif observer.reason == "used later":
        message = f"source is used after the move, by {where}"
    else:
        message = f"source may be used after the move: {observer.reason} ({where})"
    problem = op_error(op, message)
    problem.diagnostics[0].attach_note(note, user.location)
    raise problem


def _lifetimes(description: str, *lifetimes: str) -> TypeConstraint:
    return TypeConstraint(description, lambda t: getattr(t, "lifetime", None) in lifetimes)


# IREE's Stream_AnyStreamResource (every lifetime but staging) and its staging resources, worded
# as its ODS verifier words them, so our diagnostics read like iree-opt's.
_ANY = ("*", "external", "transient", "variable", "constant")
_ANY_TEXT = (
    "resource or external resource or transient resource or variable resource or constant resource"
)
ANY_RESOURCE = _lifetimes(_ANY_TEXT, *_ANY)
ANY_OR_STAGING_RESOURCE = _lifetimes(_ANY_TEXT + " or staging resource", *_ANY, "staging")
STAGING_RESOURCE = _lifetimes("staging resource", "staging")
# The results of stream.resource.constants.
CONSTANT_OR_VARIABLE_RESOURCE = _lifetimes(
    "constant resource or variable resource", "constant", "variable"
)


# AnyTypeOf<[Stream_AnyStreamResource, Stream_PrimitiveType]>: the operands of a dispatch, the
# results of a call (Stream_PrimitiveType is Index, AnyInteger, AnyFloat, AnyComplex).
ANY_RESOURCE_OR_PRIMITIVE = TypeConstraint(
    _ANY_TEXT + " or index or integer or floating-point or complex-type",
    lambda t: ANY_RESOURCE.accepts(t) or is_primitive(t),
)


def check_lifetime(
    op: Operation, what: str, index: int, type: Type | None, allowed: TypeConstraint
) -> None:
    """Raise unless `type` meets `allowed`, for the results and operand lists whose field
    constraints the verifier would not word as IREE's does."""
    if type is None or not allowed.accepts(type):
        raise op_error(op, f"{what} #{index} must be {allowed.description}, but got '{type}'")


def check_variadic_results(
    op: Operation, results: Sequence[Value], allowed: TypeConstraint
) -> None:
    """`check_lifetime` of each result of a variadic result list, worded as ODS words it; the
    results before the list (none in the ops that use it) would shift the numbers."""
    for index, result in enumerate(results):
        if result.type is None or not allowed.accepts(result.type):
            raise op_error(
                op,
                f"result #{index} must be variadic of {allowed.description}, "
                f"but got '{result.type}'",
            )


def check_timepoint(op: Operation, what: str, index: int, type: Type | None) -> None:
    if type != TIMEPOINT:
        raise op_error(op, f"{what} #{index} must be a timepoint, but got '{type}'")


def check_size_count(op: Operation, what: str, required: int, attached: int) -> None:
    """IREE's verifyOpDynamicDims and verifyOpValueSizes, worded as they are: the `what` set
    (`type` or `value`) needs `required` size values and has `attached`."""
    if attached != required:
        raise op_error(
            op,
            f"{what} set has {required} dynamic dimensions but only {attached} dimension "
            "values are attached",
        )


def check_dims(op: Operation, encodings: Sequence[Type], dims: Sequence[Value]) -> None:
    """IREE's verifyOpDynamicDims: one dim value per `?` of the encodings."""
    required = sum(dynamic_dim_count(e) for e in encodings if isinstance(e, ShapedType))
    check_size_count(op, "type", required, len(dims))


def check_size_counts(
    op: Operation, values_or_types: Sequence[Type | None], sizes: Sequence[Value]
) -> None:
    """IREE's verifyOpValueSizes: one size per resource in the list."""
    required = sum(1 for t in values_or_types if isinstance(t, ResourceType))
    check_size_count(op, "value", required, len(sizes))


def check_sized_operand(value: Value, sized: Sized, location: Location) -> Value:
    """Type-check `value` against `T{%s}` and return the size operand."""
    check_operand_type(value, sized.type, location)
    require_resource(sized.type, location)
    return one_size(sized, location)


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


def _parse_shaped_types(reader: FormatReader, part: Any, args: Sequence[tuple[str, str]]) -> None:
    (_, values), *results, (_, sizes) = args
    written = reader.operands.get(values) or []
    if len(written) != len(part):
        raise error(
            "number of operands and types do not match: got "
            f"{len(written)} operands and {len(part)} types",
            reader.location,
        )
    types = [item.type if isinstance(item, Sized) else item for item in part]
    reader.set_type(values, types)
    for _, name in results:
        reader.result_types[name] = types
    reader.operands[sizes] = [
        size for item in part if isinstance(item, Sized) for size in item.sizes
    ]


def _print_shaped_types(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    values, sizes = field_values(op, [args[0], args[-1]])
    return ", ".join(shaped_type_texts(p, [v.type for v in values], sizes))


# `custom<ShapedTypeList>(type($values), [type($results),] $sizes)`: `T{%s}, index`, each type
# with the sizes it needs; results, when named, have the operands' types.
custom_directive(
    "ShapedTypeList", CustomDirective("shaped_types", _parse_shaped_types, _print_shaped_types)
)


@register_op
class YieldOp(DeclaredOp, SegmentedOp):
    """`stream.yield %a, %b : T{%s}, T{%s2}`: the resource results of an execution region."""

    name = "stream.yield"
    is_terminator = True
    same_variadic_operand_size = True
    parent_names = (
        "stream.async.execute",
        "stream.async.concurrent",
        "stream.cmd.execute",
        "stream.cmd.serial",
        "stream.cmd.concurrent",
    )
    # IREE marks it Pure, but a terminator has no results and is never dead: not pure here so
    # that dead-code removal keeps it.
    is_pure = False
    # The values flow out to the parent's results (forwarded_operands), as scf.yield's do.
    resource_operands = operand_def(variadic=True, access=Access.ESCAPE)
    resource_operand_sizes = operand_def(
        INDEX_CONSTRAINT, variadic=True, size_of="resource_operands"
    )
    assembly_format = (
        "attr-dict ($resource_operands^ `:` custom<ShapedTypeList>(type($resource_operands), "
        "$resource_operand_sizes))?"
    )

    def forwarded_operands(self) -> Iterable[tuple[int, Sequence[Value]]]:
        # Yielded resources become the async region op's resource results (IREE's
        # getMutableSuccessorOperands); a command region has none.
        parent = self.parent_op
        results = getattr(parent, "results_", ()) if parent is not None else ()
        for index, result in enumerate(results[: len(self.resource_operands)]):
            yield index, (result,)

    def verify(self) -> None:
        values = self.resource_operands
        check_size_counts(self, [v.type for v in values], self.resource_operand_sizes)
