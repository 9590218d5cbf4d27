"""stream cmd-phase ops: `stream.cmd.move` (streamopt's timeline move) and the explicit
command ops of `stream.cmd.execute` regions. Syntax follows StreamOps.td and the
`custom<ExplicitResourceRegion>` / `custom<DispatchResources>` directives of StreamOps.cpp."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from streamopt.diagnostics import UNKNOWN_LOCATION, Location, error
from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.common import SegmentedOp, check_operand_type, is_sized
from streamopt.dialects.stream.base import (
    AFFINITY,
    _TimelineOpBase,
    check_sized_operand,
    keyword_attributes,
    one_size,
    op_error,
    require_resource,
    require_timepoint,
    sized_text,
    split_keywords,
    value_access,
    verify_consumed_source,
    verify_workload,
)
from streamopt.ir.core import Access, Block, BlockArgument, Operation, Region, RegionKind, Value
from streamopt.ir.opdef import DeclaredOp, attr_def, operand_def
from streamopt.ir.types import (
    INDEX,
    INDEX_CONSTRAINT,
    TIMEPOINT,
    TIMEPOINT_CONSTRAINT,
    UNIT,
    Attribute,
    IntegerType,
    ResourceType,
    Type,
)
from streamopt.parser.parts import TOKEN_CLASSES, AttrDict, Clause, EntryPoints, Sized
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


@register_op
class CmdMoveOp(_TimelineOpBase):
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
        clauses, rest = split_keywords(parts)
        attributes = keyword_attributes(clauses)
        source: Value = rest[0]
        source_sized: Sized = rest[1]
        result_sized: Sized = rest[2]
        require_timepoint(rest[3], location)
        for part in rest[4:]:
            if isinstance(part, AttrDict):
                attributes.update(part)
        source_size = check_sized_operand(source, source_sized, location)
        require_resource(result_sized.type, location)
        operands = [source, source_size, one_size(result_sized, location)]
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
                raise op_error(self, f"{what} must be a resource, but got '{value.type}'")
        for size in (self.source_size, self.result_size_value):
            if size.type is not None and size.type != INDEX:
                raise op_error(self, f"expects index sizes, got '{size.type}'")

    def verify_in_module(self, context: Any) -> None:
        verify_consumed_source(self, context)

    def print(self, p: Printer) -> None:
        p.write("stream.cmd.move")
        if self.prefer_origin:
            p.write(" origin")
        self.print_affinity(p)
        self.print_await(p)
        source = self.source
        p.write(f" {p.v(source)} : {sized_text(p, source.type, self.source_size)}")
        source_affinity = self.source_affinity
        if source_affinity is not None:
            p.write(f" from({source_affinity.text})")
        p.write(" ->")
        target_affinity = self.target_affinity
        if target_affinity is not None:
            p.write(f" to({target_affinity.text})")
        p.write(f" {sized_text(p, self.results[0].type, self.result_size_value)}")
        p.write(" => !stream.timepoint")
        p.attr_dict(self, ("affinity", "source_affinity", "target_affinity", "prefer_origin"))


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
            raise op_error(nested, "explicit execution regions must only contain explicit ops")


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
class CmdExecuteOp(_CmdRegionOp, _TimelineOpBase, SegmentedOp):
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
        require_timepoint(parts[2], location)
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
                sizes.append(one_size(sized, header.location))
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
            raise op_error(
                self,
                f"value set has {sized} dynamic dimensions but only {self.segments[1]} "
                "dimension values are attached",
            )
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
                sized_text(p, argument.type, next(sizes))
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
            raise op_error(
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
    target = operand_def(check=require_resource)
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
    target = operand_def(access=Access.READ, check=require_resource)
    source_affinity: Attribute | None = attr_def(AFFINITY)
    assembly_format = "(`to` `(` $source_affinity^ `)`)? " + _CmdSubrangeOp.assembly_format


@register_op
class CmdInvalidateOp(_CmdSubrangeOp):
    """`stream.cmd.invalidate from(A)? %r[%o for %l] : T{%s}`: make another device's writes
    visible here."""

    __slots__ = ()
    name = "stream.cmd.invalidate"
    # Refreshing the local view acts as a write for ordering: reads must come after it.
    target = operand_def(access=Access.READ | Access.WRITE, check=require_resource)
    source_affinity: Attribute | None = attr_def(AFFINITY)
    assembly_format = "(`from` `(` $source_affinity^ `)`)? " + _CmdSubrangeOp.assembly_format


@register_op
class CmdDiscardOp(_CmdSubrangeOp):
    """`stream.cmd.discard %r[%o for %l] : T{%s}`: the range's contents are no longer needed."""

    __slots__ = ()
    name = "stream.cmd.discard"
    target = operand_def(access=Access.WRITE, check=require_resource)


@register_op
class CmdFillOp(DeclaredOp):
    """`stream.cmd.fill %v, %r[%o for %l] : i32 -> T{%s}`: splat a pattern into a range."""

    __slots__ = ()
    name = "stream.cmd.fill"
    target = operand_def(access=Access.WRITE, check=require_resource)
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
            raise op_error(
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
        clauses, rest = split_keywords(parts)
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
            sizes.append(check_sized_operand(resource.value, resource.sized, location))
            check_operand_type(resource.offset, INDEX, location)
            check_operand_type(resource.length, INDEX, location)
        return cls.create(
            entry_points,
            workload,
            uniform,
            [(r.value, size, r.offset, r.length, r.access) for r, size in zip(resources, sizes)],
            keyword_attributes(clauses),
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
            raise op_error(
                self, f"dispatch with {count} resources has mismatched associated ranges"
            )
        if not self.entry_points:
            raise op_error(self, "at least one entry point must be defined")
        for access in self.accesses:
            if access not in _CMD_ACCESS:
                raise op_error(self, f"unknown resource access '{access}'")

    def verify_in_module(self, context: Any) -> None:
        verify_workload(self, self.entry_points, len(self.workload), context)

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
                f"{sized_text(p, value.type, size)}"
            )
        write(",".join(lines))
        write(f"\n{indent}}}")
        p.attr_dict(self, keyword=True)
