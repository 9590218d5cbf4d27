"""stream cmd-phase ops: `stream.cmd.move` (streamopt's timeline move) and the explicit
command ops of `stream.cmd.execute` regions. Syntax follows StreamOps.td and the
`custom<ExplicitResourceRegion>` / `custom<DispatchResources>` directives of StreamOps.cpp."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import Location
from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.common import SegmentedOp, ValueKind, check_operand_type, is_sized, op_error
from streamopt.dialects.stream.base import (
    AFFINITY,
    ANY_RESOURCE,
    ARRAY,
    AWAIT,
    ON,
    TimelineOp,
    check_size_count,
    check_sized_operand,
    field_values,
    one_size,
    print_captures,
    require_resource,
    sized_text,
    value_access,
    verify_consumed_source,
    verify_workload,
)
from streamopt.ir.core import Access, Block, Value
from streamopt.ir.opdef import (
    UNIT_KIND,
    CustomDirective,
    DeclaredOp,
    attr_def,
    custom_directive,
    operand_def,
    region_def,
    result_def,
)
from streamopt.ir.types import (
    I32,
    INDEX,
    INDEX_CONSTRAINT,
    TIMEPOINT,
    TIMEPOINT_CONSTRAINT,
    ArrayAttr,
    Attribute,
    IntegerAttr,
    OpaqueAttr,
    ResourceType,
    signless_integer,
)
from streamopt.parser.parts import Sized
from streamopt.records import Record

if TYPE_CHECKING:
    from streamopt.ir.opdef import FormatReader
    from streamopt.parser.builder import Builder
    from streamopt.parser.lalr import Tree
    from streamopt.printer import Printer


@register_op
class CmdMoveOp(TimelineOp):
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
    correct for whole allocations. Its syntax is streamopt's proposal, in IREE's style.
    """

    name = "stream.cmd.move"
    # Reads the bytes and frees the storage: nothing may use the source afterwards.
    source = operand_def(access=Access.READ | Access.CONSUME, check=require_resource)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    await_timepoint = operand_def(TIMEPOINT_CONSTRAINT, optional=True, type=TIMEPOINT)
    prefer_origin: Attribute | None = attr_def(UNIT_KIND)
    affinity: Attribute | None = attr_def(AFFINITY)
    source_affinity: Attribute | None = attr_def(AFFINITY)
    target_affinity: Attribute | None = attr_def(AFFINITY)
    result = result_def(asm_name="result", check=require_resource)
    result_timepoint = result_def(TIMEPOINT, asm_name="result_timepoint")
    assembly_format = (
        "(`origin` $prefer_origin^)? " + ON + AWAIT + "? $source `:` type($source) `` "
        "`{` $source_size `}` (`from` `(` $source_affinity^ `)`)? `->` "
        "(`to` `(` $target_affinity^ `)`)? type($result) `` `{` $result_size `}` "
        "`=` `` `>` type($result_timepoint) attr-dict"
    )

    def verify(self) -> None:
        for what, value in (("operand #0", self.source), ("result #0", self.results[0])):
            if not isinstance(value.type, ResourceType):
                raise op_error(self, f"{what} must be a resource, but got '{value.type}'")
        for size in (self.source_size, self.result_size):
            if size.type is not None and size.type != INDEX:
                raise op_error(self, f"expects index sizes, got '{size.type}'")

    def verify_in_module(self, context: Any) -> None:
        verify_consumed_source(self, context)


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


class _CmdRegionOp(DeclaredOp):
    """Base of the ops holding a region of commands (execute, serial, concurrent)."""

    # IREE's SingleBlockImplicitTerminator<"stream.yield">: streamopt keeps no yield there.
    has_no_terminator = True
    body_ = region_def(terminator="stream.yield", arguments="resource_operands")

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]

    def verify(self) -> None:
        for nested in self.body.ops:
            name = nested.name
            if name not in _CMD_REGION_OPS and not name.startswith(_CMD_REGION_PREFIXES):
                raise op_error(nested, "explicit execution regions must only contain explicit ops")


@parse_rule("cmd_captures")
def _cmd_captures(
    b: Builder, children: list[tuple[Value, Any, Sized]]
) -> list[tuple[Value, Sized]]:
    """The captures, as the `resource_capture`s of async execution regions read them."""
    # The region that follows gets one entry argument per capture.
    b.pending_entry_args = [(argument, sized.type, None) for _, argument, sized in children]
    return [(operand, sized) for operand, _, sized in children]


def _parse_explicit_region(
    reader: FormatReader, part: tuple[list[tuple[Value, Sized]], Any], args: Sequence[Any]
) -> None:
    operands, _, sizes, body = (name for _, name in args)
    captures, region = part
    for operand, sized in captures:
        check_operand_type(operand, sized.type, reader.location)
    reader.operands[operands] = [operand for operand, _ in captures]
    reader.operands[sizes] = [
        one_size(sized, reader.location) for _, sized in captures if is_sized(sized.type)
    ]
    reader.regions[body] = region


def _print_explicit_region(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> None:
    operands, _, sizes, region = field_values(op, args)
    p.write(print_captures(p, operands, region.blocks[0].arguments, sizes) + " ")
    p.print_region(region, print_block_terminators=False)


# `custom<ExplicitResourceRegion>($operands, type($operands), $operand_sizes, $body)`:
# `(%x as %arg0: T{%s}) {...}`, the captured resources and the region of commands on them.
custom_directive(
    "ExplicitResourceRegion",
    CustomDirective(
        "cmd_captures region",
        _parse_explicit_region,
        _print_explicit_region,
        parts=2,
        writes=True,
    ),
)


@register_op
class CmdExecuteOp(_CmdRegionOp, TimelineOp, SegmentedOp):
    """`stream.cmd.execute`: run a region of commands on a timeline.

        %t = stream.cmd.execute once? on(A) await(%t0) => with(%x as %a: T{%s}) {
          ...
        } => !stream.timepoint

    The commands run in order (`stream.cmd.concurrent` groups may overlap) once the await
    timepoint is reached; the result timepoint signals when all of them are done. Every resource
    the commands touch is captured: the region's arguments stand for the `with(...)` operands.
    """

    name = "stream.cmd.execute"
    resource_operands = operand_def(variadic=True)
    resource_operand_sizes = operand_def(
        INDEX_CONSTRAINT, variadic=True, size_of="resource_operands"
    )
    once: Attribute | None = attr_def(UNIT_KIND)
    await_timepoint = operand_def(TIMEPOINT_CONSTRAINT, optional=True, type=TIMEPOINT)
    affinity: Attribute | None = attr_def(AFFINITY)
    result_timepoint = result_def(TIMEPOINT)
    assembly_format = (
        "(`once` $once^)? " + ON + AWAIT + "? `with` `` custom<ExplicitResourceRegion>("
        "$resource_operands, type($resource_operands), $resource_operand_sizes, $body) "
        "`=` `` `>` type($result_timepoint) attr-dict-with-keyword"
    )

    def operand_access(self, index: int) -> Access:
        if index >= len(self.resource_operands):
            return Access.NONE
        return value_access(self.body.arguments[index])

    def verify(self) -> None:
        resources = self.resource_operands
        sized = sum(1 for v in resources if is_sized(v.type))
        check_size_count(self, "value", sized, len(self.resource_operand_sizes))
        arguments = self.body.arguments
        if [a.type for a in arguments] != [v.type for v in resources]:
            raise op_error(self, "region arguments must match the captured operands")
        available: set[Value] = set(arguments)
        for nested in self.body.ops:
            available.update(nested.results)
            for operand in nested.operands:
                if isinstance(operand.type, ResourceType) and operand not in available:
                    raise op_error(
                        nested,
                        "used resource not listed in explicit captures (or produced internally)",
                    )
        super().verify()


class _CmdGroupOp(_CmdRegionOp):
    """`stream.cmd.serial { ... }` and `stream.cmd.concurrent { ... }`."""

    parent_names = ("stream.cmd.execute", "stream.cmd.serial", "stream.cmd.concurrent")
    assembly_format = "$body attr-dict-with-keyword"


@register_op
class CmdSerialOp(_CmdGroupOp):
    """`stream.cmd.serial { ... }`: commands that run one after the other."""

    name = "stream.cmd.serial"


@register_op
class CmdConcurrentOp(_CmdGroupOp):
    """`stream.cmd.concurrent { ... }`: commands that may run at the same time."""

    name = "stream.cmd.concurrent"


class _CmdSubrangeOp(DeclaredOp):
    """A command on `%target[%offset for %length] : T{%size}` (flush, invalidate, discard)."""

    target = operand_def(check=require_resource)
    target_size = operand_def(size_of="target")
    target_offset = operand_def(type=INDEX)
    target_length = operand_def(type=INDEX)
    assembly_format = (
        "$target `[` $target_offset `for` $target_length `]` `:` type($target) "
        "`` `{` $target_size `}` attr-dict-with-keyword"
    )


@register_op
class CmdFlushOp(_CmdSubrangeOp):
    """`stream.cmd.flush to(A)? %r[%o for %l] : T{%s}`: make a range available to another
    device."""

    name = "stream.cmd.flush"
    # Publishing the bytes reads them (it must follow every write).
    target = operand_def(access=Access.READ, check=require_resource)
    source_affinity: Attribute | None = attr_def(AFFINITY)
    assembly_format = "(`to` `(` $source_affinity^ `)`)? " + _CmdSubrangeOp.assembly_format


@register_op
class CmdInvalidateOp(_CmdSubrangeOp):
    """`stream.cmd.invalidate from(A)? %r[%o for %l] : T{%s}`: make another device's writes
    visible here."""

    name = "stream.cmd.invalidate"
    # Refreshing the local view acts as a write for ordering: reads must come after it.
    target = operand_def(access=Access.READ | Access.WRITE, check=require_resource)
    source_affinity: Attribute | None = attr_def(AFFINITY)
    assembly_format = "(`from` `(` $source_affinity^ `)`)? " + _CmdSubrangeOp.assembly_format


@register_op
class CmdDiscardOp(_CmdSubrangeOp):
    """`stream.cmd.discard %r[%o for %l] : T{%s}`: the range's contents are no longer needed."""

    name = "stream.cmd.discard"
    target = operand_def(access=Access.WRITE, check=require_resource)


@register_op
class CmdFillOp(DeclaredOp):
    """`stream.cmd.fill %v, %r[%o for %l] : i32 -> T{%s}`: splat a pattern into a range."""

    name = "stream.cmd.fill"
    target = operand_def(ANY_RESOURCE, access=Access.WRITE, check=require_resource)
    target_size = operand_def(INDEX_CONSTRAINT, size_of="target")
    target_offset = operand_def(INDEX_CONSTRAINT, type=INDEX)
    target_length = operand_def(INDEX_CONSTRAINT, type=INDEX)
    value: Value = operand_def(signless_integer(8, 16, 32))
    assembly_format = (
        "$value `,` $target `[` $target_offset `for` $target_length `]` `:` type($value) `->` "
        "type($target) `` `{` $target_size `}` attr-dict-with-keyword"
    )


@register_op
class CmdCopyOp(DeclaredOp):
    """`stream.cmd.copy %a[%ao], %b[%bo], %len : T{%as} -> T{%bs}`: copy bytes between
    resources (the ranges must not overlap)."""

    name = "stream.cmd.copy"
    source = operand_def(access=Access.READ, check=require_resource)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    source_offset = operand_def(INDEX_CONSTRAINT, type=INDEX)
    target = operand_def(access=Access.WRITE, check=require_resource)
    target_size = operand_def(INDEX_CONSTRAINT, size_of="target")
    target_offset = operand_def(INDEX_CONSTRAINT, type=INDEX)
    length = operand_def(INDEX_CONSTRAINT, type=INDEX)
    assembly_format = (
        "$source `[` $source_offset `]` `,` $target `[` $target_offset `]` `,` $length `:` "
        "type($source) `` `{` $source_size `}` `->` type($target) `` `{` $target_size `}` "
        "attr-dict-with-keyword"
    )


_CMD_ACCESS = {"ro": Access.READ, "wo": Access.WRITE, "rw": Access.READ | Access.WRITE}


class CmdResource(Record):
    """`ro %r[%offset for %length] : T{%size}` in a `stream.cmd.dispatch` resource list;
    `location`, where `%r` is (a type mismatch names that use, not another of the value)."""

    access: str
    value: Value
    offset: Value
    length: Value
    sized: Sized
    location: Location


@parse_rule("cmd_access")
def _cmd_access(b: Builder, children: list[Any]) -> Any:
    return children[0]  # The token: the resource's value follows it.


@parse_rule("cmd_resource")
def _cmd_resource(b: Builder, children: list[Any]) -> CmdResource:
    access, value, offset, _, length, sized = children  # `_`: the `for` keyword
    text = b.parsed_text
    start = access.end_pos
    while text[start] in " \t\n":
        start += 1
    location = b.source.location_at(start)
    return CmdResource(str(access), value, offset, length, sized, location)


def _parse_resources(reader: FormatReader, part: Tree, args: Sequence[tuple[str, str]]) -> None:
    resources, _, sizes, offsets, lengths, accesses = (name for _, name in args)
    location = reader.location
    written: list[CmdResource] = part.children
    reader.operands[sizes] = [check_sized_operand(r.value, r.sized, r.location) for r in written]
    for resource in written:
        check_operand_type(resource.offset, INDEX, location)
        check_operand_type(resource.length, INDEX, location)
    reader.operands[resources] = [r.value for r in written]
    reader.operands[offsets] = [r.offset for r in written]
    reader.operands[lengths] = [r.length for r in written]
    reader.attributes[accesses] = _ACCESSES.make([r.access for r in written])


def _print_resources(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    resources, _, sizes, offsets, lengths, accesses = field_values(op, args)
    indent = " " * p.indent_width
    return ",".join(
        f"\n{indent}  {access} {p.v(value)}[{p.v(offset)} for {p.v(length)}] : "
        f"{sized_text(p, value.type, size)}"
        for access, value, size, offset, length in zip(accesses, resources, sizes, offsets, lengths)
    )


# `custom<DispatchResources>($resources, type($resources), $resource_sizes, $resource_offsets,
# $resource_lengths, $resource_accesses)`: `ro %r[%offset for %length] : T{%size}`, one per
# line.
custom_directive(
    "DispatchResources", CustomDirective("cmd_resources", _parse_resources, _print_resources)
)


# How a dispatch touches each resource (`ro`, `wo`, `rw`); the accessor gives them. The generic
# form has IREE's ResourceAccessBitfield values (Read = 1, Write = 2).
_ACCESS_BITS = {1: "ro", 2: "wo", 3: "rw"}


def _generic_accesses(attribute: Attribute) -> Attribute | None:
    elements = attribute.elements if isinstance(attribute, ArrayAttr) else None
    if elements is None or not all(
        isinstance(e, IntegerAttr) and e.type == I32 and e.value in _ACCESS_BITS for e in elements
    ):
        return None
    return ArrayAttr(OpaqueAttr(_ACCESS_BITS[e.value]) for e in elements)  # type: ignore[attr-defined]


_ACCESSES = ValueKind(
    lambda accesses: ArrayAttr(map(OpaqueAttr, accesses)),
    lambda attribute: [element.text for element in attribute.elements],
    generic=_generic_accesses,
)


@register_op
class CmdDispatchOp(DeclaredOp, SegmentedOp):
    """`stream.cmd.dispatch @ex::@fn[%w](%u : index) { ro %a[%o for %l] : T{%s}, ... }`.

    Runs an executable entry point over a grid of workgroups; each resource says how the
    kernel touches it (`ro`, `wo`, `rw`).
    """

    name = "stream.cmd.dispatch"
    workload = operand_def(INDEX_CONSTRAINT, variadic=True, type=INDEX)
    entry_points: list[Attribute] = attr_def(ARRAY)
    uniform_operands = operand_def(variadic=True)
    resources = operand_def(ANY_RESOURCE, variadic=True)
    resource_sizes = operand_def(INDEX_CONSTRAINT, variadic=True, size_of="resources")
    resource_offsets = operand_def(INDEX_CONSTRAINT, variadic=True)
    resource_lengths = operand_def(INDEX_CONSTRAINT, variadic=True)
    resource_accesses: list[str] = attr_def(_ACCESSES)
    assembly_format = (
        "custom<DispatchEntryPoints>($entry_points) (`[` $workload^ `]`)? `` "
        "(`(` $uniform_operands^ `:` type($uniform_operands) `)`)? `{` "
        "custom<DispatchResources>($resources, type($resources), $resource_sizes, "
        "$resource_offsets, $resource_lengths, $resource_accesses) `\\n` `}` "
        "attr-dict-with-keyword"
    )

    def operand_access(self, index: int) -> Access:
        start, end = self.definition.operand_span(self, "resources")
        if start <= index < end:
            return _CMD_ACCESS[self.resource_accesses[index - start]]
        return Access.NONE

    def verify(self) -> None:
        count = len(self.resources)
        accesses = self.resource_accesses
        if any(n != count for n in self.segments[3:]) or len(accesses) != count:
            raise op_error(
                self, f"dispatch with {count} resources has mismatched associated ranges"
            )
        if not self.entry_points:
            raise op_error(self, "at least one entry point must be defined")
        for access in accesses:
            if access not in _CMD_ACCESS:
                raise op_error(self, f"unknown resource access '{access}'")

    def verify_in_module(self, context: Any) -> None:
        verify_workload(self, self.entry_points, len(self.workload), context)
