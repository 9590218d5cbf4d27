"""The hal dialect: the device queue, fence, allocator, buffer view and command buffer ops that
lowering from stream emits and real IREE dumps contain.

Syntax follows the assemblyFormat of IREE's HALOps.td (and the `custom<Bindings>`,
`custom<BindingTable>`, `custom<DeviceQueueAffinityList>` directives of HALOps.cpp). Every op
is declared (streamopt.ir.opdef): its operands in IREE's order and IREE's assembly format, from
which its parser, printer and grammar rule come. Bit-enum attributes (`flags("None")`,
`flags(PreferOrigin)`, `mode("OneShot|AllowInlineExecution")`) are `BitEnumAttr`s printed the
way MLIR prints them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import Diagnostic, DiagnosticError, Location, error
from streamopt.dialects import parse_rule, register_op, unmodelled_check
from streamopt.dialects.builtin import OpaqueOp
from streamopt.dialects.common import (
    ANY_ATTRIBUTE,
    STRING,
    SYMBOL,
    TYPE_ATTRIBUTE,
    IndexKind,
    SegmentedOp,
    check_operand_type,
    op_error,
)
from streamopt.ir.core import Access, Operation, RegionKind, Value
from streamopt.ir.opdef import (
    AttributeKind,
    CustomDirective,
    DeclaredOp,
    FormatReader,
    attr_def,
    custom_directive,
    operand_def,
    result_def,
)
from streamopt.ir.types import (
    HAL_ALLOCATOR,
    HAL_BUFFER,
    HAL_BUFFER_CONSTRAINT,
    HAL_BUFFER_VIEW,
    HAL_BUFFER_VIEW_CONSTRAINT,
    HAL_COMMAND_BUFFER,
    HAL_COMMAND_BUFFER_CONSTRAINT,
    HAL_DEVICE,
    HAL_DEVICE_CONSTRAINT,
    HAL_FENCE,
    HAL_FENCE_CONSTRAINT,
    I1,
    I32,
    I32_CONSTRAINT,
    I64,
    I64_CONSTRAINT,
    INDEX,
    INDEX_CONSTRAINT,
    Attribute,
    DialectType,
    IntegerType,
    OpaqueAttr,
    ShapedType,
    Type,
    TypeAttr,
    TypeConstraint,
    signless_integer,
)
from streamopt.parser import token_values
from streamopt.parser.parts import TOKEN_CLASSES, Clause
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


# -- bit enums --------------------------------------------------------------------------------


class BitEnum(AttributeKind):
    """A HAL bit-enum attribute kind (`flags("None")`, `flags(PreferOrigin)`): `None` then its
    `cases` (`"Name=bits ..."`), in IREE's declaration order."""

    grammar = "_hal_enum"

    def __init__(self, name: str, cases: str) -> None:
        self.name = name
        self.by_name = {"None": 0}
        for case in cases.split():
            spelling, _, bits = case.partition("=")
            self.by_name[spelling] = int(bits, 0)
        # One attribute per value (attributes are never changed in place): a lowered module
        # has a `flags` on most ops.
        self._attrs: dict[int, BitEnumAttr] = {}

    def parse(self, text: str) -> int | None:
        """The value of `A|B` (names joined by `|`), or None if a name is unknown."""
        value = 0
        for piece in text.split("|"):
            case = self.by_name.get(piece.strip())
            if case is None:
                return None
            value |= case
        return value

    def stringify(self, value: int) -> str:
        """MLIR's spelling: every case whose bits are all set, in declaration order."""
        if value == 0:
            return "None"
        return "|".join(
            name for name, bits in self.by_name.items() if bits and value & bits == bits
        )

    def attr(self, value: int | str) -> BitEnumAttr:
        """The attribute for `value` (an int or a spelling such as "PreferOrigin")."""
        if isinstance(value, str):
            parsed = self.parse(value)
            if parsed is None:
                raise ValueError(f"{value!r} is not a {self.name} value")
            value = parsed
        found = self._attrs.get(value)
        if found is None:
            found = self._attrs[value] = BitEnumAttr(self, value)
        return found

    def make(self, value: Any) -> Attribute:
        return self.attr(value)

    def from_part(self, reader: FormatReader, name: str, token: Any) -> Attribute:
        """The value `token` spells; an unknown case is an error at the token, worded as
        IREE words it."""
        text = str(token)
        value = self.parse(text[1:-1] if token.type == "STRING" else text)
        if value is None:
            where = reader.builder.location(token) if hasattr(token, "line") else reader.location
            raise error(_unknown_case(reader.definition.name, name, token, self.by_name), where)
        return self.attr(value)


def _unknown_case(op_name: str, attribute: str, token: Any, cases: Iterable[str]) -> str:
    """iree-opt's words for enum attribute `attribute` of op `op_name` when `token`, a
    string or a keyword, names none of its `cases`."""
    if token.type == "STRING":
        return f"custom op '{op_name}' invalid {attribute} attribute specification: {token}"
    return (
        f"custom op '{op_name}' expected string or keyword containing one of the following enum "
        f"values for attribute '{attribute}' [{', '.join(cases)}]"
    )


class BitEnumAttr(Attribute):
    """A value of a `BitEnum`, printed bare when it is one bit (`PreferOrigin`) and quoted
    otherwise (`"None"`, `"Transfer|Dispatch"`), as MLIR prints bit enums."""

    __slots__ = ("enum", "value")

    def __init__(self, enum: BitEnum, value: int) -> None:
        spelling = enum.stringify(value)
        single_bit = value != 0 and value & (value - 1) == 0
        super().__init__(spelling if single_bit else f'"{spelling}"')
        self.enum = enum
        self.value = value

    def key(self) -> Any:
        return (self.enum.name, self.value)

    def __contains__(self, name: str) -> bool:
        """True if case `name` is set."""
        bits = self.enum.by_name[name]
        return self.value & bits == bits


ALLOCA_FLAGS = BitEnum("AllocaFlag", "IndeterminateLifetime=1")
DEALLOCA_FLAGS = BitEnum("DeallocaFlag", "PreferOrigin=1")
# `hal.device.queue.move` (proposed; not in IREE yet): PreferOrigin frees a copied source on its
# origin queue, as queue.dealloca's does; the rest are the proposed HAL_MOVE_FLAG_* bits.
MOVE_FLAGS = BitEnum(
    "MoveFlag",
    "PreferOrigin=0x1 RequireAlias=0x2 ForceCopy=0x4 AllowGrant=0x8 KeepSource=0x10 "
    "AllowLowPerformance=0x20",
)
COPY_FLAGS = BitEnum("CopyFlag", "Reserved=1")
READ_FLAGS = BitEnum("ReadFlag", "Reserved=1")
MEMORY_ACCESS = BitEnum(
    "MemoryAccess", "Read=0x1 Write=0x2 Discard=0x4 MayAlias=0x8 Unaligned=0x10 Any=0x20"
)
FILL_FLAGS = BitEnum("FillFlag", "Reserved=1")
EXECUTE_FLAGS = BitEnum("ExecuteFlag", "Reserved=1")
FENCE_FLAGS = BitEnum("FenceFlag", "Reserved=1")
WAIT_FLAGS = BitEnum("WaitFlag", "Reserved=1")
DISPATCH_FLAGS = BitEnum("DispatchFlags", "Reserved=1")
EXECUTION_BARRIER_FLAGS = BitEnum("ExecutionBarrierFlag", "Reserved=1")
COMMAND_BUFFER_MODE = BitEnum("CommandBufferMode", "OneShot=0x1 AllowInlineExecution=0x10")
COMMAND_CATEGORY = BitEnum("CommandCategory", "Transfer=0x1 Dispatch=0x2")
EXECUTION_STAGE = BitEnum(
    "ExecutionStage",
    "CommandIssue=0x1 CommandProcess=0x2 Dispatch=0x4 Transfer=0x8 CommandRetire=0x10 Host=0x20",
)
MEMORY_TYPE = BitEnum(
    "MemoryType",
    "Optimal=0x1 HostVisible=0x2 HostCoherent=0x4 HostCached=0x8 HostLocal=0x46 "
    "DeviceVisible=0x10 DeviceLocal=0x30",
)
BUFFER_USAGE = BitEnum(
    "BufferUsage",
    "TransferSource=0x1 TransferTarget=0x2 Transfer=0x3 DispatchIndirectParameters=0x100 "
    "DispatchUniformRead=0x200 DispatchStorageRead=0x400 DispatchStorageWrite=0x800 "
    "DispatchStorage=0xC00 DispatchImageRead=0x1000 DispatchImageWrite=0x2000 "
    "DispatchImage=0x3000 SharingExport=0x10000 SharingReplicate=0x20000 "
    "SharingConcurrent=0x40000 SharingImmutable=0x80000 MappingScoped=0x1000000 "
    "MappingPersistent=0x2000000 MappingOptional=0x4000000 MappingAccessRandom=0x8000000 "
    "MappingAccessSequentialWrite=0x10000000 Mapping=0x9000000",
)

# `!hal.file`: what `hal.ex.file.from_memory` makes and `hal.device.queue.read` reads.
HAL_FILE = DialectType("!hal.file")

# The lifetimes `hal.allocator.resolve_memory_properties` accepts (`*` is unknown).
LIFETIMES = ("*", "external", "staging", "transient", "variable", "constant")
# The `lifetime(...)` attribute of each, shared by the ops a lowering makes.
_LIFETIME_ATTRS = {lifetime: OpaqueAttr(lifetime) for lifetime in LIFETIMES}


# -- the declared base ------------------------------------------------------------------------

# A buffer, or the index of a binding table slot (AnyTypeOf<[Index, HAL_BufferType]>).
_BUFFER_OR_SLOT = TypeConstraint(
    "index or buffer", lambda t: HAL_BUFFER_CONSTRAINT.accepts(t) or INDEX_CONSTRAINT.accepts(t)
)

# The type HALOps.td gives the operands of these names (HAL_Device, HAL_DeviceQueueAffinity,
# HAL_Fence, HAL_DeviceQueuePool, HAL_MemoryType, HAL_BufferUsage, HAL_DeviceSize, ...).
_OPERAND_TYPES: Mapping[str, TypeConstraint] = {
    name: constraint
    for names, constraint in (
        ("device", HAL_DEVICE_CONSTRAINT),
        ("command_buffer", HAL_COMMAND_BUFFER_CONSTRAINT),
        ("buffer_view", HAL_BUFFER_VIEW_CONSTRAINT),
        ("wait_fence signal_fence", HAL_FENCE_CONSTRAINT),
        ("source_buffer target_buffer", HAL_BUFFER_CONSTRAINT),
        ("queue_affinity pool entry_point", I64_CONSTRAINT),
        ("memory_types buffer_usage element_type encoding_type", I32_CONSTRAINT),
        ("pattern", signless_integer(8, 16, 32)),  # HAL_FillPatternType.
        (
            "result_size source_offset target_offset source_length offset length minimum_length "
            "workgroup_x workgroup_y workgroup_z",
            INDEX_CONSTRAINT,
        ),
    )
    for name in names.split()
}


# What hal.device.resolve gives: AnyTypeOf<[HAL_Device, HAL_Allocator, HAL_DeviceQueueAffinity]>.
_DEVICE_ALLOCATOR_OR_AFFINITY = TypeConstraint(
    "device or allocator or 64-bit signless integer",
    lambda t: t in (HAL_DEVICE, HAL_ALLOCATOR, I64),
)


class HalOp(DeclaredOp):
    """A hal op declared by its fields and IREE's assembly format (see streamopt.ir.opdef).
    Operands are named as in HALOps.td, and a name means one type there (`_OPERAND_TYPES`)."""

    default_operand_types = _OPERAND_TYPES


# -- device queue ops -------------------------------------------------------------------------

_QUEUE_FORMAT = (
    "`<` $device `:` type($device) `>` `affinity` `(` $queue_affinity `)` "
    "`wait` `(` $wait_fence `)` `signal` `(` $signal_fence `)` "
)


class QueueOp(HalOp):
    """A device queue op: runs on `device` / `queue_affinity` after `wait_fence` is reached
    and signals `signal_fence` when done."""

    device = operand_def()
    queue_affinity = operand_def()
    wait_fence = operand_def()
    signal_fence = operand_def()

    def verify(self) -> None:
        wait = self.wait_fence
        producer = wait.defining_op
        if wait is self.signal_fence and (producer is None or producer.name != "util.null"):
            raise op_error(
                self, "device queue operations cannot wait and signal on the same fence."
            )


@register_op
class DeviceQueueAllocaOp(QueueOp):
    """`hal.device.queue.alloca`: a buffer whose memory is usable once `signal_fence` is."""

    name = "hal.device.queue.alloca"
    pool = operand_def()
    memory_types = operand_def()
    buffer_usage = operand_def()
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    flags = attr_def(ALLOCA_FLAGS, default=0)
    result = result_def(HAL_BUFFER, asm_name="transient_buffer")
    assembly_format = _QUEUE_FORMAT + (
        "`pool` `(` $pool `)` `type` `(` $memory_types `)` `usage` `(` $buffer_usage `)` "
        "`flags` `(` $flags `)` `:` type($result) `{` $result_size `}` "
        "attr-dict-with-keyword"
    )


@register_op
class DeviceQueueDeallocaOp(QueueOp):
    """`hal.device.queue.dealloca`: free `buffer` once `wait_fence` is reached."""

    name = "hal.device.queue.dealloca"
    buffer = operand_def(access=Access.CONSUME)
    flags = attr_def(DEALLOCA_FLAGS, default=0)
    assembly_format = _QUEUE_FORMAT + (
        "`buffer` `(` $buffer `:` type($buffer) `)` `flags` `(` $flags `)` attr-dict-with-keyword"
    )

    @property
    def prefer_origin(self) -> bool:
        return "PreferOrigin" in self.flags


@register_op
class DeviceQueueMoveOp(QueueOp):
    """`hal.device.queue.move`: hand `source` to this queue as a buffer with the requested
    memory type and usage, aliasing it when the device can and copying otherwise.

        %r = hal.device.queue.move<%dev : !hal.device> affinity(%q) wait(%wf) signal(%sf)
            source(%src : !hal.buffer)[%off] pool(%pool) type(%t) usage(%u)
            flags(PreferOrigin) : !hal.buffer{%n}

    The result handle is usable at once; its contents are valid once `signal_fence` is reached.
    The move consumes the source: nothing may touch it after the op is issued (unless
    `KeepSource`). `PreferOrigin` frees a copied source on the queue that allocated it. Flags
    follow the proposed `hal_device_queue_move` API (hal-semantics section 4).
    """

    name = "hal.device.queue.move"
    source_buffer = operand_def(access=Access.READ | Access.CONSUME)
    source_offset = operand_def()
    pool = operand_def()
    memory_types = operand_def()
    buffer_usage = operand_def()
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    flags = attr_def(MOVE_FLAGS, default=0)
    result = result_def(HAL_BUFFER, asm_name="moved_buffer")
    assembly_format = _QUEUE_FORMAT + (
        "`source` `(` $source_buffer `:` type($source_buffer) `)` `` `[` $source_offset `]` "
        "`pool` `(` $pool `)` `type` `(` $memory_types `)` `usage` `(` $buffer_usage `)` "
        "`flags` `(` $flags `)` `:` type($result) `{` $result_size `}` "
        "attr-dict-with-keyword"
    )

    def operand_access(self, index: int) -> Access:
        # The move reads the source and ends the caller's ownership of it, unless `KeepSource`.
        return Access.NONE if "KeepSource" in self.flags else super().operand_access(index)

    def verify(self) -> None:
        super().verify()
        # Every operand's type, before the checks below (the layer checks them after these).
        for index, (value, (_, want, _)) in enumerate(
            zip(self.operands, self.definition.constraints)
        ):
            if value.type is not None and not want.accepts(value.type):
                raise op_error(
                    self, f"operand #{index} must be {want.description}, but got '{value.type}'"
                )
        if self.result.type != HAL_BUFFER:
            raise op_error(self, f"result #0 must be buffer, but got '{self.result.type}'")
        flags = self.flags
        if "RequireAlias" in flags and "ForceCopy" in flags:
            raise op_error(self, "cannot both require aliasing (RequireAlias) and force a copy")
        if "KeepSource" not in flags:
            _verify_not_used_after(self, self.source_buffer)


def _verify_not_used_after(op: Operation, source: Value) -> None:
    """Raise if `source` may be used after `op` consumed it: by a later op of `op`'s block (or
    an op nested in one), or again by `op` itself in a later iteration of an enclosing loop."""
    block = op.parent
    if block is None:
        return
    for use in source.uses:
        user = use.operation
        if user is op:
            continue
        anchor = block.find_ancestor_op_in_block(user)
        if anchor is not None and anchor is not op and op.is_before_in_block(anchor):
            message = f"source is used after the move, by '{user.name}' at {user.location}"
            raise _noted(op, message, "later use here", user.location)
    node = op
    while node.parent is not source.parent_block and (ancestor := node.parent_op) is not None:
        if ancestor.region_kind is RegionKind.LOOP:
            message = "source may be used after the move: inside a loop that runs it again"
            raise _noted(op, message, "loop here", ancestor.location)
        node = ancestor


def _noted(op: Operation, message: str, note: str, where: Location) -> DiagnosticError:
    """`op_error(op, message)` with a note at `where`."""
    diagnostic = Diagnostic("error", f"'{op.name}' op {message}", op.location)
    return DiagnosticError(diagnostic.attach_note(note, where))


@register_op
class DeviceQueueCopyOp(QueueOp):
    """`hal.device.queue.copy`: copy `length` bytes between buffers on a queue."""

    name = "hal.device.queue.copy"
    source_buffer = operand_def(access=Access.READ)
    source_offset = operand_def()
    target_buffer = operand_def(access=Access.WRITE)
    target_offset = operand_def()
    length = operand_def()
    flags = attr_def(COPY_FLAGS, default=0)
    assembly_format = _QUEUE_FORMAT + (
        "`source` `(` $source_buffer `:` type($source_buffer) `)` `` `[` $source_offset `]` "
        "`target` `(` $target_buffer `:` type($target_buffer) `)` `` `[` $target_offset `]` "
        "`length` `(` $length `)` `flags` `(` $flags `)` attr-dict-with-keyword"
    )


@register_op
class DeviceQueueFillOp(QueueOp):
    """`hal.device.queue.fill`: splat a 1/2/4-byte pattern into a buffer range on a queue."""

    name = "hal.device.queue.fill"
    target_buffer = operand_def(access=Access.WRITE)
    target_offset = operand_def()
    length = operand_def()
    pattern = operand_def()
    flags = attr_def(FILL_FLAGS, default=0)
    assembly_format = _QUEUE_FORMAT + (
        "`target` `(` $target_buffer `:` type($target_buffer) `)` `` `[` $target_offset `]` "
        "`length` `(` $length `)` `pattern` `(` $pattern `:` type($pattern) `)` "
        "`flags` `(` $flags `)` attr-dict-with-keyword"
    )


@register_op
class DeviceQueueExecuteOp(QueueOp):
    """`hal.device.queue.execute`: run a recorded command buffer on a queue."""

    name = "hal.device.queue.execute"
    # The buffers the commands touch were named when they were recorded.
    command_buffer = operand_def(access=Access.READ)
    flags = attr_def(EXECUTE_FLAGS, default=0)
    assembly_format = _QUEUE_FORMAT + (
        "`commands` `(` $command_buffer `)` `flags` `(` $flags `)` attr-dict-with-keyword"
    )


@register_op
class DeviceQueueBarrierOp(QueueOp):
    """`hal.device.queue.barrier`: signal `signal_fence` once `wait_fence` is reached."""

    name = "hal.device.queue.barrier"
    flags = attr_def(EXECUTE_FLAGS, default=0)
    assembly_format = _QUEUE_FORMAT + "`flags` `(` $flags `)` attr-dict-with-keyword"


@register_op
class DeviceQueueReadOp(QueueOp):
    """`hal.device.queue.read`: stream `length` bytes of a file into a buffer on a queue.

        hal.device.queue.read<%dev : !hal.device> affinity(%q) wait(%wf) signal(%sf)
            source(%file : !hal.file)[%c0_i64] target(%buffer : !hal.buffer)[%c0]
            length(%n) flags("None")

    How IREE uploads constant data a device cannot import (`--iree-hal-conversion` of a
    `stream.file.read`); the source offset is an i64, the target offset and length are sizes.
    """

    name = "hal.device.queue.read"
    source_file = operand_def(access=Access.READ)
    source_offset = operand_def(I64_CONSTRAINT)  # A file offset.
    target_buffer = operand_def(access=Access.WRITE)
    target_offset = operand_def()
    length = operand_def()
    flags = attr_def(READ_FLAGS, default=0)
    assembly_format = _QUEUE_FORMAT + (
        "`source` `(` $source_file `:` type($source_file) `)` `` `[` $source_offset `]` "
        "`target` `(` $target_buffer `:` type($target_buffer) `)` `` `[` $target_offset `]` "
        "`length` `(` $length `)` `flags` `(` $flags `)` attr-dict-with-keyword"
    )


def _quads(part: Any) -> list[list[Any]]:
    """The children of a list rule without a callback (parser.lalr.Tree), four per item: the
    values and types of `(%buffer : T)[%offset, %length]` or `(%device, %queue : T, U)`."""
    items = part.children
    return [items[i : i + 4] for i in range(0, len(items), 4)]


def _parse_bindings(reader: FormatReader, part: Any, args: Sequence[tuple[str, str]]) -> None:
    buffers, _, offsets, lengths = (name for _, name in args)
    bindings = _quads(part)
    for buffer, type, offset, length in bindings:
        check_operand_type(buffer, type, reader.location)
        check_operand_type(offset, INDEX, reader.location)
        check_operand_type(length, INDEX, reader.location)
    reader.operands[buffers] = [binding[0] for binding in bindings]
    reader.operands[offsets] = [binding[2] for binding in bindings]
    reader.operands[lengths] = [binding[3] for binding in bindings]


def _print_bindings(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    buffers, _, offsets, lengths = (op.definition.field_value(op, name) for _, name in args)
    indent = " " * p.indent_width
    items = [
        f"\n{indent}  ({p.v(buffer)} : {type_text(buffer.type)})[{p.v(offset)}, {p.v(length)}]"
        for buffer, offset, length in zip(buffers, offsets, lengths)
    ]
    return ", ".join(items) + f"\n{indent}"


# `custom<Bindings>($binding_buffers, type($binding_buffers), $binding_offsets,
# $binding_lengths)` (and custom<BindingTable>, which IREE prints alike): one
# `(%buffer : T)[%offset, %length]` per line.
_BINDINGS = CustomDirective("hal_bindings", _parse_bindings, _print_bindings)
custom_directive("Bindings", _BINDINGS)
custom_directive("BindingTable", _BINDINGS)


@register_op
class DeviceQueueExecuteIndirectOp(QueueOp, SegmentedOp):
    """`hal.device.queue.execute.indirect`: run a reusable command buffer with its binding
    table (`bindings([(%buffer : !hal.buffer)[%offset, %length], ...])`)."""

    name = "hal.device.queue.execute.indirect"
    command_buffer = operand_def(access=Access.READ)
    # What the commands do with each binding is not written here.
    binding_buffers = operand_def(variadic=True, access=Access.READ | Access.WRITE)
    binding_offsets = operand_def(variadic=True)
    binding_lengths = operand_def(variadic=True)
    flags = attr_def(EXECUTE_FLAGS, default=0)
    assembly_format = _QUEUE_FORMAT + (
        "`commands` `(` $command_buffer `)` `bindings` `(` `[` custom<BindingTable>("
        "$binding_buffers, type($binding_buffers), $binding_offsets, $binding_lengths) `]` `)` "
        "`flags` `(` $flags `)` attr-dict-with-keyword"
    )


# -- fences -----------------------------------------------------------------------------------


@register_op
class FenceCreateOp(HalOp):
    """`%fence = hal.fence.create device(%d : !hal.device) flags("None") : !hal.fence`."""

    name = "hal.fence.create"
    device = operand_def()
    flags = attr_def(FENCE_FLAGS, default=0)
    result = result_def(HAL_FENCE, asm_name="fence")
    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `flags` `(` $flags `)` `:` type($result) "
        "attr-dict-with-keyword"
    )


@register_op
class FenceJoinOp(HalOp):
    """`%fence = hal.fence.join at([%a, %b]) flags("None") -> !hal.fence`: reached when all
    of the fences are."""

    name = "hal.fence.join"
    fences = operand_def(HAL_FENCE_CONSTRAINT, variadic=True, type=HAL_FENCE)
    flags = attr_def(FENCE_FLAGS, default=0)
    result = result_def(HAL_FENCE, asm_name="fence")
    assembly_format = (
        "`at` `(` `[` $fences `]` `)` `flags` `(` $flags `)` `->` type($result) "
        "attr-dict-with-keyword"
    )


@register_op
class FenceAwaitOp(HalOp):
    """`%status = hal.fence.await until([%f]) timeout_millis(%t) flags("None") : i32`: block
    the host until the fences are reached."""

    name = "hal.fence.await"
    timeout_millis = operand_def(I32_CONSTRAINT, type=I32)
    fences = operand_def(HAL_FENCE_CONSTRAINT, variadic=True, type=HAL_FENCE)
    flags = attr_def(WAIT_FLAGS, default=0)
    status = result_def(I32, asm_name="status")
    assembly_format = (
        "`until` `(` `[` $fences `]` `)` `timeout_millis` `(` $timeout_millis `)` "
        "`flags` `(` $flags `)` `:` type($status) attr-dict-with-keyword"
    )


@register_op
class FenceQueryOp(HalOp):
    """`%status = hal.fence.query<%fence : !hal.fence> : i32`: OK once the fence is reached."""

    name = "hal.fence.query"
    fence = operand_def(HAL_FENCE_CONSTRAINT)
    status = result_def(I32)
    assembly_format = "`<` $fence `:` type($fence) `>` `:` type($status) attr-dict-with-keyword"


@register_op
class FenceSignalOp(HalOp):
    """`hal.fence.signal<%fence : !hal.fence>`: reach the fence from the host."""

    name = "hal.fence.signal"
    fence = operand_def(HAL_FENCE_CONSTRAINT)
    assembly_format = "`<` $fence `:` type($fence) `>` attr-dict-with-keyword"


@register_op
class FenceFailOp(HalOp):
    """`hal.fence.fail<%fence : !hal.fence> status(%status)`: fail the fence with a status."""

    name = "hal.fence.fail"
    fence = operand_def(HAL_FENCE_CONSTRAINT)
    status = operand_def(I32_CONSTRAINT, type=I32)
    assembly_format = (
        "`<` $fence `:` type($fence) `>` `status` `(` $status `)` attr-dict-with-keyword"
    )


# -- allocator and device lookup --------------------------------------------------------------


@parse_rule("hal_lifetime")
def _hal_lifetime(b: Builder, children: list[Any]) -> Attribute:
    (token,) = children
    quoted = token.type == "STRING"
    name = str(token)[1:-1] if quoted else str(token)
    # `*` is no keyword: it is written as a string.
    if name not in LIFETIMES or (name == "*" and not quoted):
        op_name = "hal.allocator.resolve_memory_properties"
        raise error(_unknown_case(op_name, "lifetime", token, LIFETIMES), b.location(token))
    return _LIFETIME_ATTRS[name]


class _LifetimeKind(AttributeKind):
    """HAL_LifetimeAttr (`lifetime(transient)`), read by `hal_lifetime`; `*`, not a keyword,
    is written as a string. The accessor gives the lifetime's name."""

    grammar = "hal_lifetime"

    def from_part(self, reader: FormatReader, name: str, part: Any) -> Attribute:
        attribute: Attribute = part
        return attribute

    def text(self, attribute: Attribute) -> str:
        return '"*"' if attribute.text == "*" else attribute.text

    def make(self, value: Any) -> Attribute:
        return _LIFETIME_ATTRS[value]

    def value(self, attribute: Attribute) -> str:
        return attribute.text


@parse_rule("hal_for_affinity")
def _hal_for_affinity(b: Builder, children: list[Any]) -> Clause:
    token = next(c for c in children if getattr(c, "type", None) == "ATTR_REF")
    return b.affinity_clause("for", token)


@register_op
class AllocatorResolveMemoryPropertiesOp(HalOp):
    """`%memory_types, %buffer_usage = hal.allocator.resolve_memory_properties for(A)
    lifetime(transient) : i32, i32`: the memory type and usage bits a resource of that
    lifetime needs on affinity A."""

    name = "hal.allocator.resolve_memory_properties"
    is_pure = True
    affinity = attr_def(ANY_ATTRIBUTE)
    lifetime = attr_def(_LifetimeKind())
    memory_types = result_def(I32, asm_name="memory_types")
    buffer_usage = result_def(I32, asm_name="buffer_usage")
    assembly_format = (
        "(`for` `(` $affinity^ `)`)? `lifetime` `(` $lifetime `)` "
        "`:` type($memory_types) `,` type($buffer_usage) attr-dict-with-keyword"
    )

    @classmethod
    def create(
        cls, lifetime: str, affinity: Attribute | None = None
    ) -> AllocatorResolveMemoryPropertiesOp:
        """The op for a resource of `lifetime` (one of LIFETIMES) on `affinity`."""
        return super().create(affinity=affinity, lifetime=lifetime)


def _parse_affinity_list(reader: FormatReader, part: Any, args: Sequence[tuple[str, str]]) -> None:
    devices, _, affinities = (name for _, name in args)
    entries = _quads(part)
    for device, affinity, device_type, affinity_type in entries:
        check_operand_type(device, device_type, reader.location)
        check_operand_type(affinity, affinity_type, reader.location)
    reader.operands[devices] = [entry[0] for entry in entries]
    reader.operands[affinities] = [entry[1] for entry in entries]


def _print_affinity_list(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    devices, _, affinities = (op.definition.field_value(op, name) for _, name in args)
    indent = " " * p.indent_width
    entries = [
        f"({p.v(device)}, {p.v(affinity)} : {type_text(device.type)}, {type_text(affinity.type)})"
        for device, affinity in zip(devices, affinities)
    ]
    return f"[\n{indent}  " + f",\n{indent}  ".join(entries) + f"\n{indent}]"


# `custom<DeviceQueueAffinityList>($devices, type($devices), $queue_affinities)`:
# `[(%device, %queue_affinity : !hal.device, i64), ...]`, one pair per line.
custom_directive(
    "DeviceQueueAffinityList",
    CustomDirective("hal_device_queue_affinity_list", _parse_affinity_list, _print_affinity_list),
)


@register_op
class AllocatorSelectOp(HalOp, SegmentedOp):
    """`%device, %queue_affinity = hal.allocator.select from([(%d, %q : !hal.device, i64),
    ...]) type(%t) usage(%u) : !hal.device, i64`: pick the device that allocates memory shared
    by several (an `#hal.device.optimal` affinity)."""

    name = "hal.allocator.select"
    is_pure = True
    devices = operand_def(variadic=True)
    queue_affinities = operand_def(variadic=True)
    memory_types = operand_def(type=I32)
    buffer_usage = operand_def(type=I32)
    selected_device = result_def(HAL_DEVICE, asm_name="device")
    selected_queue_affinity = result_def(I64, asm_name="queue_affinity")
    assembly_format = (
        "`from` `(` custom<DeviceQueueAffinityList>($devices, type($devices), "
        "$queue_affinities) `)` `type` `(` $memory_types `)` `usage` `(` $buffer_usage `)` "
        "`:` type($selected_device) `,` type($selected_queue_affinity) attr-dict-with-keyword"
    )

    def verify(self) -> None:
        if len(self.devices) != len(self.queue_affinities):
            raise op_error(self, "requires the same number of devices and queue affinities")


@register_op
class DeviceAllocatorOp(HalOp):
    """`%allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator`."""

    name = "hal.device.allocator"
    is_pure = True
    device = operand_def()
    result = result_def(HAL_ALLOCATOR, asm_name="allocator")
    assembly_format = "`<` $device `:` type($device) `>` `:` type($result) attr-dict-with-keyword"


@register_op
class AllocatorAllocateOp(HalOp):
    """`%buffer = hal.allocator.allocate<%allocator : !hal.allocator> affinity(%q)
    type(%memory_types) usage(%buffer_usage) : !hal.buffer{%size}`: a buffer allocated at once
    (not on a queue), usable as soon as the op returns."""

    name = "hal.allocator.allocate"
    allocator = operand_def()
    queue_affinity = operand_def()
    memory_types = operand_def()
    buffer_usage = operand_def()
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    result = result_def(HAL_BUFFER, asm_name="buffer")
    assembly_format = (
        "`<` $allocator `:` type($allocator) `>` `affinity` `(` $queue_affinity `)` "
        "`type` `(` $memory_types `)` `usage` `(` $buffer_usage `)` "
        "`:` type($result) `{` $result_size `}` attr-dict-with-keyword"
    )


@register_op
class AllocatorImportOp(HalOp):
    """`%did_import, %mapped = hal.allocator.import<%allocator : !hal.allocator>
    source(%bytes : !util.buffer)[%offset, %length] affinity(%q) type(%memory_types)
    usage(%buffer_usage) : i1, !hal.buffer`: try to use host memory as a device buffer.

    When the device cannot use the memory with that type and usage (host memory as device
    local memory of a discrete device), `%did_import` is false and the buffer is null.
    """

    name = "hal.allocator.import"
    allocator = operand_def()
    queue_affinity = operand_def()
    memory_types = operand_def()
    buffer_usage = operand_def()
    source = operand_def(access=Access.ESCAPE)  # The imported buffer aliases the source bytes.
    offset = operand_def()
    length = operand_def(size_of="result")
    did_import = result_def(I1, asm_name="did_import")
    result = result_def(HAL_BUFFER, asm_name="mapped")
    assembly_format = (
        "`<` $allocator `:` type($allocator) `>` "
        "`source` `(` $source `:` type($source) `)` `` `[` $offset `,` $length `]` "
        "`affinity` `(` $queue_affinity `)` `type` `(` $memory_types `)` "
        "`usage` `(` $buffer_usage `)` `:` type($did_import) `,` type($result) "
        "attr-dict-with-keyword"
    )


@register_op
class ExFileFromMemoryOp(HalOp):
    """`%memory_file = hal.ex.file.from_memory device(%dev : !hal.device) affinity(%q)
    access(Read) buffer(%bytes : !util.buffer)[%offset for %length] flags(%flags) :
    !hal.file`: a file whose contents are a byte range of host memory (experimental in IREE)."""

    name = "hal.ex.file.from_memory"
    device = operand_def()
    queue_affinity = operand_def()
    buffer = operand_def(access=Access.ESCAPE)  # The file reads the bytes when a queue op does.
    offset = operand_def()
    length = operand_def()
    flags = operand_def()
    access = attr_def(MEMORY_ACCESS, default="Read")
    result = result_def(HAL_FILE, asm_name="memory_file")
    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `affinity` `(` $queue_affinity `)` "
        "`access` `(` $access `)` `buffer` `(` $buffer `:` type($buffer) `)` "
        "`` `[` $offset `for` $length `]` `flags` `(` $flags `)` `:` type($result) "
        "attr-dict-with-keyword"
    )


@register_op
class DeviceResolveOp(HalOp):
    """`%device, %queue_affinity = hal.device.resolve on(A) : !hal.device, i64`: the device
    (allocator, queue affinity) an affinity names."""

    name = "hal.device.resolve"
    is_pure = True
    affinity = attr_def(ANY_ATTRIBUTE)
    # IREE's `$results` (a name Operation has).
    outputs = result_def(variadic=True, constraint=_DEVICE_ALLOCATOR_OR_AFFINITY)
    assembly_format = "(`on` `(` $affinity^ `)`)? attr-dict `:` type($outputs)"

    def asm_result_name(self, index: int) -> str | None:
        type = self.results[index].type
        if type == HAL_DEVICE:
            return "device"
        if type == HAL_ALLOCATOR:
            return "allocator"
        if isinstance(type, IntegerType):
            return "queue_affinity"
        return None


@register_op
class DevicesCountOp(HalOp):
    """`%device_count = hal.devices.count : index`."""

    name = "hal.devices.count"
    is_pure = True
    result = result_def(INDEX, asm_name="device_count")
    assembly_format = "attr-dict `:` type($result)"


@register_op
class DevicesGetOp(HalOp):
    """`%device_0 = hal.devices.get %c0 : !hal.device`: the device at an ordinal."""

    name = "hal.devices.get"
    is_pure = True
    index = operand_def(INDEX_CONSTRAINT, type=INDEX)
    result = result_def(HAL_DEVICE)
    assembly_format = "$index attr-dict `:` type($result)"

    def asm_result_name(self, index: int) -> str | None:
        producer = self.operands[0].defining_op
        ordinal = getattr(producer, "int_value", None) if producer is not None else None
        return f"device_{ordinal}" if isinstance(ordinal, int) else "device_n"


# -- element types, buffers and buffer views --------------------------------------------------


@register_op
class ElementTypeOp(HalOp):
    """`%element_type_f32 = hal.element_type<f32> : i32`: the runtime code of an element
    type."""

    name = "hal.element_type"
    is_pure = True
    type_: TypeAttr = attr_def(TYPE_ATTRIBUTE)
    result = result_def(I32)
    assembly_format = "`<` $type `>` attr-dict `:` type($result)"

    @property
    def element_type(self) -> Type:
        return self.type_.type

    def asm_result_name(self, index: int) -> str | None:
        return "element_type_" + "".join(
            c if c.isalnum() or c in "_$." else "_" for c in self.element_type.text
        )

    def verify(self) -> None:
        type = self.element_type
        text = type.text
        if not (
            isinstance(type, IntegerType)
            or text in ("f16", "bf16", "f32", "f64", "index")
            or text.startswith(("f8", "f6", "f4", "complex<"))
        ):
            raise op_error(self, "unsupported element type")


class _BitsConstantOp(HalOp):
    """`%r = hal.<name><"A|B"> : i32`: the runtime value of a bit-enum (folds to a constant)."""

    is_pure = True

    @property
    def value(self) -> int:
        attr = self.attribute_map[next(iter(self.definition.attributes))]
        assert isinstance(attr, BitEnumAttr)
        return attr.value


@register_op
class MemoryTypeOp(_BitsConstantOp):
    """`%memory_type = hal.memory_type<"DeviceVisible|DeviceLocal"> : i32`."""

    name = "hal.memory_type"
    type_ = attr_def(MEMORY_TYPE)
    result = result_def(I32, asm_name="memory_type")
    assembly_format = "`<` $type `>` attr-dict `:` type($result)"


@register_op
class BufferUsageOp(_BitsConstantOp):
    """`%buffer_usage = hal.buffer_usage<"TransferSource|...|SharingImmutable"> : i32`."""

    name = "hal.buffer_usage"
    usage = attr_def(BUFFER_USAGE)
    result = result_def(I32, asm_name="buffer_usage")
    assembly_format = "`<` $usage `>` attr-dict `:` type($result)"


class _EncodingKind(AttributeKind):
    """The encoding of `hal.encoding_type<#enc>`: an attribute; a keyword other than the
    `dense_row_major` its format spells is an error."""

    grammar = "(ATTR_REF | BARE_ID)"

    def from_part(self, reader: FormatReader, name: str, part: Any) -> Attribute:
        if part.type != "ATTR_REF":
            raise error(
                f"expected 'dense_row_major' or an attribute, got '{part}'", reader.location
            )
        return token_values.attribute_from_token("ATTR_REF", str(part), None)


@register_op
class EncodingTypeOp(HalOp):
    """`%dense_row_major = hal.encoding_type<dense_row_major> : i32`."""

    name = "hal.encoding_type"
    is_pure = True
    encoding = attr_def(_EncodingKind())
    result = result_def(I32)
    assembly_format = "`<` ($encoding^):( `` `dense_row_major`)? `>` attr-dict `:` type($result)"

    def asm_result_name(self, index: int) -> str | None:
        return None if "encoding" in self.attribute_map else "dense_row_major"

    def verify(self) -> None:
        if "encoding" in self.attribute_map:
            raise op_error(self, "unsupported encoding type")


# The end of the buffer view ops that take a shape, an element type and an encoding.
_SHAPE_FORMAT = (
    "`shape` `(` `[` $shape `]` `)` `type` `(` $element_type `)` `encoding` `(` $encoding_type `)`"
)


@register_op
class BufferViewAssertOp(HalOp):
    """`hal.buffer_view.assert<%v : !hal.buffer_view> message("m") shape([%d]) type(%t)
    encoding(%e)`: abort unless the view holds such a tensor."""

    name = "hal.buffer_view.assert"
    buffer_view = operand_def()
    element_type = operand_def(type=I32)
    encoding_type = operand_def(type=I32)
    shape = operand_def(INDEX_CONSTRAINT, variadic=True, type=INDEX)
    message = attr_def(STRING)
    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `message` `(` $message `)` "
        + _SHAPE_FORMAT
        + " attr-dict-with-keyword"
    )


@register_op
class BufferViewCreateOp(HalOp):
    """`%view = hal.buffer_view.create buffer(%b : !hal.buffer)[%offset, %length] shape([%d])
    type(%t) encoding(%e) : !hal.buffer_view`: a tensor view of a buffer range."""

    name = "hal.buffer_view.create"
    is_pure = True
    source_buffer = operand_def()
    source_offset = operand_def(type=INDEX)
    source_length = operand_def(type=INDEX)
    element_type = operand_def(type=I32)
    encoding_type = operand_def(type=I32)
    shape = operand_def(INDEX_CONSTRAINT, variadic=True, type=INDEX)
    result = result_def(HAL_BUFFER_VIEW, asm_name="view")
    assembly_format = (
        "`buffer` `(` $source_buffer `:` type($source_buffer) `)` "
        "`` `[` $source_offset `,` $source_length `]` "
        + _SHAPE_FORMAT
        + " `:` type($result) attr-dict-with-keyword"
    )

    def tied_operand_index(self, result_index: int) -> int | None:
        # The view names the buffer's storage (as `hal.buffer_view.buffer` of it does).
        return 0


@register_op
class BufferViewRankOp(HalOp):
    """`%rank = hal.buffer_view.rank<%view : !hal.buffer_view> : index`: its number of dims."""

    name = "hal.buffer_view.rank"
    is_pure = True
    buffer_view = operand_def()
    result = result_def(INDEX)
    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `:` type($result) attr-dict-with-keyword"
    )


@register_op
class BufferViewBufferOp(HalOp):
    """`%buffer = hal.buffer_view.buffer<%view : !hal.buffer_view> : !hal.buffer`."""

    name = "hal.buffer_view.buffer"
    is_pure = True
    buffer_view = operand_def()
    result = result_def(HAL_BUFFER, asm_name="buffer")
    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `:` type($result) attr-dict-with-keyword"
    )

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0


@parse_rule("hal_dim_index")
def _hal_dim_index(b: Builder, children: list[Any]) -> int:
    # iree-opt takes any integer here, a negative one too (its verifier does not look at it).
    negative = any(isinstance(c, TOKEN_CLASSES) and str(c) == "-" for c in children)
    value = token_values.integer_literal(str(children[-1]))
    # An index attribute holds 64 bits, signed.
    if value > (1 << 63) - (0 if negative else 1):
        raise b.error("integer constant out of range for attribute", children[-1])
    return -value if negative else value


class _DimIndexKind(IndexKind):
    """`[0]`: an IndexAttr read by `hal_dim_index` (a sign, a range check)."""

    grammar = "hal_dim_index"


@register_op
class BufferViewDimOp(HalOp):
    """`%dim = hal.buffer_view.dim<%view : !hal.buffer_view>[0] : index`: the size of one
    dimension of a view."""

    name = "hal.buffer_view.dim"
    is_pure = True
    buffer_view = operand_def()
    index = attr_def(_DimIndexKind())
    result = result_def(INDEX)
    assembly_format = (
        "`<` $buffer_view `:` type($buffer_view) `>` `` `[` $index `]` `:` type($result) "
        "attr-dict-with-keyword"
    )


@register_op
class BufferSubspanOp(HalOp):
    """`%buffer = hal.buffer.subspan<%b : !hal.buffer>[%offset, %length] : !hal.buffer`: a
    buffer aliasing a byte range of another."""

    name = "hal.buffer.subspan"
    is_pure = True
    source_buffer = operand_def()
    source_offset = operand_def()
    length = operand_def()
    result = result_def(HAL_BUFFER, asm_name="buffer")
    assembly_format = (
        "`<` $source_buffer `:` type($source_buffer) `>` `` `[` $source_offset `,` $length `]` "
        "`:` type($result) attr-dict-with-keyword"
    )

    def tied_operand_index(self, result_index: int) -> int | None:
        # The subspan shares the source's storage.
        return 0


@register_op
class BufferLoadOp(HalOp):
    """`%v = hal.buffer.load<%b : !hal.buffer>[%offset] : i32`: a host read of one element
    (what `stream.resource.load` lowers to)."""

    name = "hal.buffer.load"
    source_buffer = operand_def(access=Access.READ)
    source_offset = operand_def()
    result = result_def()
    assembly_format = (
        "`<` $source_buffer `:` type($source_buffer) `>` `` `[` $source_offset `]` "
        "`:` type($result) attr-dict-with-keyword"
    )


@register_op
class BufferStoreOp(HalOp):
    """`hal.buffer.store<%b : !hal.buffer>[%offset] value(%v : i32)`: a host write of one
    element (what `stream.resource.store` lowers to)."""

    name = "hal.buffer.store"
    value = operand_def()
    target_buffer = operand_def(access=Access.WRITE)
    target_offset = operand_def()
    assembly_format = (
        "`<` $target_buffer `:` type($target_buffer) `>` `` `[` $target_offset `]` "
        "`value` `(` $value `:` type($value) `)` attr-dict-with-keyword"
    )


@register_op
class BufferLengthOp(HalOp):
    """`%length = hal.buffer.length<%b : !hal.buffer> : index`: the byte length of a buffer."""

    name = "hal.buffer.length"
    is_pure = True
    buffer = operand_def()
    result = result_def(INDEX, asm_name="length")
    assembly_format = "`<` $buffer `:` type($buffer) `>` `:` type($result) attr-dict-with-keyword"


@register_op
class BufferAssertOp(HalOp):
    """`hal.buffer.assert<%b : !hal.buffer> message("m") allocator(%a : !hal.allocator)
    minimum_length(%n) type(DeviceVisible) usage("...")`: abort unless the buffer fits."""

    name = "hal.buffer.assert"
    buffer = operand_def()
    allocator = operand_def()
    minimum_length = operand_def()
    message = attr_def(STRING)
    memory_types = attr_def(MEMORY_TYPE)
    buffer_usage = attr_def(BUFFER_USAGE)
    assembly_format = (
        "`<` $buffer `:` type($buffer) `>` `message` `(` $message `)` "
        "`allocator` `(` $allocator `:` type($allocator) `)` "
        "`minimum_length` `(` $minimum_length `)` `type` `(` $memory_types `)` "
        "`usage` `(` $buffer_usage `)` attr-dict-with-keyword"
    )


# -- executables ------------------------------------------------------------------------------

HAL_EXECUTABLE = DialectType("!hal.executable")


@register_op
class ExecutableLookupOp(HalOp):
    """`%exe = hal.executable.lookup device(%d : !hal.device) executable(@ex) :
    !hal.executable`: the (cached, possibly lazily loaded) executable on a device."""

    name = "hal.executable.lookup"
    is_pure = True
    device = operand_def()
    executable = attr_def(SYMBOL)
    result = result_def(HAL_EXECUTABLE, asm_name="exe")
    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `executable` `(` $executable `)` "
        "`:` type($result) attr-dict-with-keyword"
    )


@register_op
class ExecutableLookupFunctionOp(HalOp):
    """`%function_id = hal.executable.lookup.function target(%exe : !hal.executable)
    function(@ex::@variant::@fn) : i64`: the runtime id of an exported function."""

    name = "hal.executable.lookup.function"
    is_pure = True
    executable = operand_def()
    entry_point = attr_def(SYMBOL)
    result = result_def(I64, asm_name="function_id")
    assembly_format = (
        "`target` `(` $executable `:` type($executable) `)` `function` `(` $entry_point `)` "
        "`:` type($result) attr-dict-with-keyword"
    )


@register_op
class ExecutableCalculateWorkgroupsOp(HalOp):
    """`%x, %y, %z = hal.executable.calculate_workgroups device(%d : !hal.device)
    target(@ex::@variant::@fn) workload([%w0, ...]) : index, index, index`: the workgroup
    count the export's count region computes for a workload."""

    name = "hal.executable.calculate_workgroups"
    is_pure = True
    device = operand_def()
    workload = operand_def(INDEX_CONSTRAINT, variadic=True, type=INDEX)
    entry_point = attr_def(SYMBOL)
    workgroup_x = result_def(INDEX, asm_name="workgroup_x")
    workgroup_y = result_def(INDEX, asm_name="workgroup_y")
    workgroup_z = result_def(INDEX, asm_name="workgroup_z")
    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `target` `(` $entry_point `)` "
        "(`workload` `(` `[` $workload^ `]` `)`)? "
        "`:` type($workgroup_x) `,` type($workgroup_y) `,` type($workgroup_z) "
        "attr-dict-with-keyword"
    )


# -- command buffers --------------------------------------------------------------------------


@register_op
class CommandBufferCreateOp(HalOp):
    """`%cmd = hal.command_buffer.create device(%d : !hal.device) mode(OneShot)
    categories(Transfer) affinity(%q) bindings(%n)? : !hal.command_buffer`."""

    name = "hal.command_buffer.create"
    device = operand_def()
    queue_affinity = operand_def()
    binding_capacity = operand_def(INDEX_CONSTRAINT, optional=True, type=INDEX)
    modes = attr_def(COMMAND_BUFFER_MODE)
    command_categories = attr_def(COMMAND_CATEGORY)
    result = result_def(HAL_COMMAND_BUFFER, asm_name="cmd")
    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `mode` `(` $modes `)` "
        "`categories` `(` $command_categories `)` `affinity` `(` $queue_affinity `)` "
        "(`bindings` `(` $binding_capacity^ `)`)? `:` type($result) attr-dict-with-keyword"
    )


@register_op
class CommandBufferFinalizeOp(HalOp):
    """`hal.command_buffer.finalize<%cmd : !hal.command_buffer>`: end recording."""

    name = "hal.command_buffer.finalize"
    command_buffer = operand_def()
    assembly_format = "`<` $command_buffer `:` type($command_buffer) `>` attr-dict-with-keyword"


@register_op
class CommandBufferDeviceOp(HalOp):
    """`%d = hal.command_buffer.device<%cmd : !hal.command_buffer> : !hal.device`."""

    name = "hal.command_buffer.device"
    is_pure = True
    command_buffer = operand_def()
    result = result_def(HAL_DEVICE)
    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>` `:` type($result) attr-dict-with-keyword"
    )


@register_op
class CommandBufferExecutionBarrierOp(HalOp):
    """`hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("...")
    target("...") flags("None")`: later commands wait for earlier ones."""

    name = "hal.command_buffer.execution_barrier"
    command_buffer = operand_def()
    source_stage_mask = attr_def(EXECUTION_STAGE)
    target_stage_mask = attr_def(EXECUTION_STAGE)
    flags = attr_def(EXECUTION_BARRIER_FLAGS, default=0)
    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>` `source` `(` $source_stage_mask `)` "
        "`target` `(` $target_stage_mask `)` `flags` `(` $flags `)` attr-dict-with-keyword"
    )


class _CommandOp(HalOp):
    """A command buffer op whose buffers may be binding table slots (an `index`, no buffer):
    only a buffer operand has its field's access."""

    def operand_access(self, index: int) -> Access:
        return Access.NONE if self.operands[index].type == INDEX else super().operand_access(index)


@register_op
class CommandBufferFillBufferOp(_CommandOp):
    """`hal.command_buffer.fill_buffer<%cmd : T> target(%b : !hal.buffer)[%o, %l]
    pattern(%p : i32) flags("None")`. The target may be a binding slot (`index`)."""

    name = "hal.command_buffer.fill_buffer"
    command_buffer = operand_def()
    target_buffer = operand_def(_BUFFER_OR_SLOT, access=Access.WRITE)
    target_offset = operand_def()
    length = operand_def()
    pattern = operand_def()
    flags = attr_def(FILL_FLAGS, default=0)
    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>` "
        "`target` `(` $target_buffer `:` type($target_buffer) `)` "
        "`` `[` $target_offset `,` $length `]` `pattern` `(` $pattern `:` type($pattern) `)` "
        "`flags` `(` $flags `)` attr-dict-with-keyword"
    )


@register_op
class CommandBufferCopyBufferOp(_CommandOp):
    """`hal.command_buffer.copy_buffer<%cmd : T> source(%a : !hal.buffer)[%o]
    target(%b : !hal.buffer)[%o] length(%l) flags("None")`. Buffers may be binding slots."""

    name = "hal.command_buffer.copy_buffer"
    command_buffer = operand_def()
    source_buffer = operand_def(_BUFFER_OR_SLOT, access=Access.READ)
    source_offset = operand_def()
    target_buffer = operand_def(_BUFFER_OR_SLOT, access=Access.WRITE)
    target_offset = operand_def()
    length = operand_def()
    flags = attr_def(COPY_FLAGS, default=0)
    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>` "
        "`source` `(` $source_buffer `:` type($source_buffer) `)` `` `[` $source_offset `]` "
        "`target` `(` $target_buffer `:` type($target_buffer) `)` `` `[` $target_offset `]` "
        "`length` `(` $length `)` `flags` `(` $flags `)` attr-dict-with-keyword"
    )


@register_op
class CommandBufferDispatchOp(_CommandOp, SegmentedOp):
    """`hal.command_buffer.dispatch<%cmd : T> target(%exe : !hal.executable)[%ordinal]
    workgroups([%x, %y, %z]) constants([...])? bindings([...]) flags("None")`."""

    name = "hal.command_buffer.dispatch"
    command_buffer = operand_def()
    executable = operand_def()
    entry_point = operand_def()
    workgroup_x = operand_def()
    workgroup_y = operand_def()
    workgroup_z = operand_def()
    constants = operand_def(variadic=True, type=I32)
    # A kernel may read and write each binding (a binding slot, an index, is no buffer).
    binding_buffers = operand_def(variadic=True, access=Access.READ | Access.WRITE)
    binding_offsets = operand_def(variadic=True)
    binding_lengths = operand_def(variadic=True)
    flags = attr_def(DISPATCH_FLAGS, default=0)
    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>` "
        "`target` `(` $executable `:` type($executable) `)` `` `[` $entry_point `]` "
        "`workgroups` `(` `[` $workgroup_x `,` $workgroup_y `,` $workgroup_z `]` `)` "
        "(`constants` `(` `[` $constants^ `]` `)`)? `bindings` `(` `[` custom<Bindings>("
        "$binding_buffers, type($binding_buffers), $binding_offsets, $binding_lengths) `]` `)` "
        "`flags` `(` $flags `)` attr-dict-with-keyword"
    )

    def verify(self) -> None:
        if not len(self.binding_buffers) == len(self.binding_offsets) == len(self.binding_lengths):
            raise op_error(
                self, "requires that binding fields all have the same number of elements"
            )


# -- ops kept as written, checked as IREE's verifiers check them ---------------------------


@unmodelled_check("hal.interface.binding.subspan")
def _check_binding_subspan(op: Operation) -> None:
    """InterfaceBindingSubspanOp::verify: a shaped result type has one `{...}` value per
    dynamic dimension (`... : memref<?x4xi8>{%dim}`, read off the kept text)."""
    if not isinstance(op, OpaqueOp):
        return
    written = op.trailing_type_text()
    if written is None:
        return
    type_text, _, dims = written.partition("{")
    type_text = type_text.strip()
    if not type_text.startswith(("memref<", "tensor<", "vector<")) or "<*" in type_text:
        return
    dynamic = ShapedType(type_text).shape.count(None)
    values = dims.count("%_")
    if dynamic != values:
        raise op_error(
            op,
            f"result type '{type_text}' has {dynamic} dynamic dimensions but {values} "
            "associated dimension SSA values",
        )
