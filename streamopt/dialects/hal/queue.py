"""hal device queue ops (`hal.device.queue.*`) and custom<Bindings>/<BindingTable>."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import Diagnostic, DiagnosticError, Location
from streamopt.dialects import register_op
from streamopt.dialects.common import (
    EffectsNotModelledOp,
    SegmentedOp,
    check_operand_type,
    op_error,
)
from streamopt.dialects.hal.base import (
    ALLOCA_FLAGS,
    COPY_FLAGS,
    DEALLOCA_FLAGS,
    EXECUTE_FLAGS,
    FILL_FLAGS,
    HAL_FILE_CONSTRAINT,
    MOVE_FLAGS,
    READ_FLAGS,
    UPDATE_FLAGS,
    WRITE_FLAGS,
    HalOp,
    quads,
)
from streamopt.ir.core import Access, Operation, RegionKind, Value
from streamopt.ir.opdef import (
    CustomDirective,
    DeclaredOp,
    FormatReader,
    attr_def,
    custom_directive,
    operand_def,
    result_def,
)
from streamopt.ir.types import (
    HAL_BUFFER,
    I64_CONSTRAINT,
    INDEX,
    INDEX_CONSTRAINT,
    UTIL_BUFFER_CONSTRAINT,
)
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.printer import Printer


_QUEUE_FORMAT = (
    "`<` $device `:` type($device) `>` `affinity` `(` $queue_affinity `)` "
    "`wait` `(` $wait_fence `)` `signal` `(` $signal_fence `)` "
)


def _queue_transfer(source: str, target: str) -> str:
    """The format of a queue op that moves `length` bytes from field `source` at
    `source_offset` to field `target` at `target_offset` (copy, read, update, write)."""
    return _QUEUE_FORMAT + (
        f"`source` `(` ${source} `:` type(${source}) `)` `` `[` $source_offset `]` "
        f"`target` `(` ${target} `:` type(${target}) `)` `` `[` $target_offset `]` "
        "`length` `(` $length `)` `flags` `(` $flags `)` attr-dict-with-keyword"
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
    assembly_format = _queue_transfer("source_buffer", "target_buffer")


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
    source_file = operand_def(HAL_FILE_CONSTRAINT, access=Access.READ)
    source_offset = operand_def(I64_CONSTRAINT)  # A file offset.
    target_buffer = operand_def(access=Access.WRITE)
    target_offset = operand_def()
    length = operand_def()
    flags = attr_def(READ_FLAGS, default=0)
    assembly_format = _queue_transfer("source_file", "target_buffer")


@register_op
class DeviceQueueUpdateOp(EffectsNotModelledOp, QueueOp):
    """`hal.device.queue.update<%dev : !hal.device> affinity(%q) wait(%wf) signal(%sf)
    source(%bytes : !util.buffer)[%o] target(%b : !hal.buffer)[%p] length(%n) flags("None")`:
    host bytes written into a buffer on a queue."""

    name = "hal.device.queue.update"
    source_buffer = operand_def(UTIL_BUFFER_CONSTRAINT)
    source_offset = operand_def()
    target_buffer = operand_def()
    target_offset = operand_def()
    length = operand_def()
    flags = attr_def(UPDATE_FLAGS, default=0)
    assembly_format = _queue_transfer("source_buffer", "target_buffer")


@register_op
class DeviceQueueWriteOp(EffectsNotModelledOp, QueueOp):
    """`hal.device.queue.write<%dev : !hal.device> affinity(%q) wait(%wf) signal(%sf)
    source(%b : !hal.buffer)[%o] target(%file : !hal.file)[%i64] length(%n) flags("None")`: a
    buffer's bytes written to a file on a queue (the other way from queue.read)."""

    name = "hal.device.queue.write"
    source_buffer = operand_def()
    source_offset = operand_def()
    target_file = operand_def(HAL_FILE_CONSTRAINT)
    target_offset = operand_def(I64_CONSTRAINT)  # A file offset.
    length = operand_def()
    flags = attr_def(WRITE_FLAGS, default=0)
    assembly_format = _queue_transfer("source_buffer", "target_file")


@register_op
class DeviceQueueFlushOp(EffectsNotModelledOp, HalOp):
    """`hal.device.queue.flush<%dev : !hal.device> affinity(%q)`: submits pending work."""

    name = "hal.device.queue.flush"
    device = operand_def()
    queue_affinity = operand_def()
    assembly_format = (
        "`<` $device `:` type($device) `>` `affinity` `(` $queue_affinity `)` "
        "attr-dict-with-keyword"
    )


def _parse_bindings(reader: FormatReader, part: Any, args: Sequence[tuple[str, str]]) -> None:
    buffers, _, offsets, lengths = (name for _, name in args)
    bindings = quads(part)
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
    same_variadic_operand_size = True
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
