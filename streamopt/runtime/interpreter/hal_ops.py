"""hal ops: device queues, fences, command buffers, allocators and buffer views.

Each device queue op is the runtime queue op of the same name, waiting on its wait fence and
signalling its signal fence (`util.null` fences: no wait, no signal). `hal.device.queue.move`
is handled by name (`hal.device.queue.move<%dev : !hal.device> affinity(%q) wait(%w)
signal(%s) source(%src : !hal.buffer)[%off] pool(%p) type(%t) usage(%u) flags(...) :
!hal.buffer{%n}`) and calls `Device.queue_move`. Command buffers record into runtime
`CommandBuffer`s; a binding given as an `index` is a slot of the binding table of
`hal.device.queue.execute.indirect`.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from streamopt.diagnostics import error
from streamopt.dialects.hal import (
    AllocatorAllocateOp,
    AllocatorImportOp,
    AllocatorResolveMemoryPropertiesOp,
    AllocatorSelectOp,
    BufferUsageOp,
    BufferViewAssertOp,
    BufferViewCreateOp,
    CommandBufferCopyBufferOp,
    CommandBufferCreateOp,
    CommandBufferDispatchOp,
    CommandBufferFillBufferOp,
    DeviceQueueAllocaOp,
    DeviceQueueCopyOp,
    DeviceQueueDeallocaOp,
    DeviceQueueExecuteIndirectOp,
    DeviceQueueExecuteOp,
    DeviceQueueFillOp,
    DeviceQueueReadOp,
    ElementTypeOp,
    ExFileFromMemoryOp,
    FenceAwaitOp,
    HalOp,
    MemoryTypeOp,
)
from streamopt.ir.core import Operation, Value
from streamopt.ir.types import HAL_ALLOCATOR, HAL_DEVICE, INDEX, IntegerType
from streamopt.move_api import MoveFlags
from streamopt.runtime.buffers import Buffer
from streamopt.runtime.commands import (
    BindingSlot,
    BindingTableEntry,
    CommandBuffer,
    DispatchBinding,
)
from streamopt.runtime.devices import Allocator, Device
from streamopt.runtime.params import (
    QUEUE_AFFINITY_ANY,
    AllocaFlags,
    BufferParams,
    BufferUsage,
    DeallocaFlags,
    MemoryType,
    parse_flags,
)
from streamopt.runtime.semaphores import Fence

from .kernels import READ_WRITE, binding_accesses
from .machine import Frame, Interpreter, handles, lifetime_params
from .optext import op_text
from .std_ops import bit_width, scalar_bits
from .values import (
    BufferView,
    CommandBufferValue,
    ExecutableRef,
    ExportOrdinal,
    HostBuffer,
    HostFile,
    element_type,
)


def queue_mask(value: int) -> int:
    """A HAL queue affinity (an i64, -1 for any queue) as a mask."""
    mask = value & QUEUE_AFFINITY_ANY
    return mask if mask else QUEUE_AFFINITY_ANY


def _device(interp: Interpreter, frame: Frame, value: Value, op: Operation) -> Device:
    found = interp.get(frame, value, op)
    if not isinstance(found, Device):
        raise error(f"'{op.name}' expected a device, got {type(found).__name__}", op.location)
    return found


def _buffer(interp: Interpreter, frame: Frame, value: Value, op: Operation) -> Buffer:
    found = interp.get(frame, value, op)
    if isinstance(found, BufferView):
        return found.buffer
    if not isinstance(found, Buffer):
        raise error(f"'{op.name}' expected a buffer, got {type(found).__name__}", op.location)
    return found


def _queue(interp: Interpreter, frame: Frame, op: HalOp) -> tuple[Device, int, Any, Any]:
    """(device, queue mask, wait fence, signal fence) of a device queue op."""
    device = _device(interp, frame, op.operands[0], op)
    mask = queue_mask(interp.integer(frame, op.operands[1], op))
    wait = interp.fence(frame, op.operands[2], op)
    signal = interp.fence(frame, op.operands[3], op)
    return device, mask, wait, signal


def _flag_names(attr: Any) -> str:
    text = attr.text if attr is not None else "None"
    return text.strip('"')


@handles("hal.device.queue.alloca")
def _alloca(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, DeviceQueueAllocaOp)
    device, mask, wait, signal = _queue(interp, frame, op)
    params = BufferParams(
        MemoryType(interp.integer(frame, op.operand("memory_types"), op) & 0xFFFFFFFF),
        BufferUsage(interp.integer(frame, op.operand("buffer_usage"), op) & 0xFFFFFFFF),
    )
    size = interp.integer(frame, op.result_size, op)
    flags = AllocaFlags.NONE
    if "IndeterminateLifetime" in _flag_names(op.attributes.get("flags")):
        flags |= AllocaFlags.INDETERMINATE_LIFETIME
    return [
        device.queue_alloca(mask, wait, signal, None, params, size, flags, location=op.location)
    ]


@handles("hal.device.queue.dealloca")
def _dealloca(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, DeviceQueueDeallocaOp)
    device, mask, wait, signal = _queue(interp, frame, op)
    buffer = _buffer(interp, frame, op.buffer, op)
    flags = DeallocaFlags.PREFER_ORIGIN if op.prefer_origin else DeallocaFlags.NONE
    device.queue_dealloca(mask, wait, signal, buffer, flags, location=op.location)
    return []


@handles("hal.device.queue.copy")
def _copy(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, DeviceQueueCopyOp)
    device, mask, wait, signal = _queue(interp, frame, op)
    device.queue_copy(
        mask,
        wait,
        signal,
        _buffer(interp, frame, op.source_buffer, op),
        interp.integer(frame, op.source_offset, op),
        _buffer(interp, frame, op.target_buffer, op),
        interp.integer(frame, op.target_offset, op),
        interp.integer(frame, op.length, op),
        location=op.location,
    )
    return []


@handles("hal.device.queue.fill")
def _fill(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, DeviceQueueFillOp)
    device, mask, wait, signal = _queue(interp, frame, op)
    pattern = interp.get(frame, op.pattern, op)
    device.queue_fill(
        mask,
        wait,
        signal,
        _buffer(interp, frame, op.target_buffer, op),
        interp.integer(frame, op.target_offset, op),
        interp.integer(frame, op.length, op),
        scalar_bits(pattern, op.pattern.type),
        max(1, bit_width(op.pattern.type) // 8),
        location=op.location,
    )
    return []


@handles("hal.device.queue.execute")
def _execute(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, DeviceQueueExecuteOp)
    device, mask, wait, signal = _queue(interp, frame, op)
    command_buffer = _command_buffer(interp, frame, op.command_buffer, op)
    device.queue_execute(mask, wait, signal, command_buffer.command_buffer, location=op.location)
    return []


@handles("hal.device.queue.execute.indirect")
def _execute_indirect(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, DeviceQueueExecuteIndirectOp)
    device, mask, wait, signal = _queue(interp, frame, op)
    command_buffer = _command_buffer(interp, frame, op.operands[4], op)
    table = [
        BindingTableEntry(
            _buffer(interp, frame, buffer, op),
            interp.integer(frame, offset, op),
            interp.integer(frame, length, op),
        )
        for buffer, offset, length in zip(
            op.binding_buffers, op.binding_offsets, op.binding_lengths
        )
    ]
    device.queue_execute(
        mask, wait, signal, command_buffer.command_buffer, table, location=op.location
    )
    return []


@handles("hal.device.queue.barrier")
def _barrier(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, HalOp)
    device, mask, wait, signal = _queue(interp, frame, op)
    device.queue_barrier(mask, wait, signal, location=op.location)
    return []


@handles("hal.device.queue.move")
def _move(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    text = op_text(op)
    device_value = text.after(r"<")
    if device_value is None:
        raise error("cannot find the device of 'hal.device.queue.move'", op.location)
    device = _device(interp, frame, device_value, op)

    def operand(keyword: str) -> Value:
        value = text.operand(text.group(keyword))
        if value is None:
            raise error(f"'hal.device.queue.move' has no {keyword}(...)", op.location)
        return value

    mask = queue_mask(interp.integer(frame, operand("affinity"), op))
    wait = interp.fence(frame, operand("wait"), op)
    signal = interp.fence(frame, operand("signal"), op)
    source = _buffer(interp, frame, operand("source"), op)
    offset_value = text.after(r"source\([^)]*\)\[")
    offset = interp.integer(frame, offset_value, op) if offset_value is not None else 0
    sizes = text.sized()
    length = interp.integer(frame, sizes[-1], op) if sizes else source.length - offset
    params = BufferParams(
        MemoryType(interp.integer(frame, operand("type"), op) & 0xFFFFFFFF),
        BufferUsage(interp.integer(frame, operand("usage"), op) & 0xFFFFFFFF),
    )
    flags_text = (text.group("flags") or "None").strip().strip('"')
    # PreferOrigin (free a copied source on its origin queue) is what the runtime always does.
    names = [n for n in flags_text.split("|") if n.strip() not in ("PreferOrigin", "None", "")]
    try:
        flags = parse_flags(MoveFlags, "|".join(names))
    except ValueError as exc:
        raise error(f"'hal.device.queue.move' flags: {exc}", op.location) from None
    moved = device.queue_move(
        mask, wait, signal, source, offset, length, None, params, flags, location=op.location
    )
    return [moved.buffer]


# -- fences ---------------------------------------------------------------------------------


@handles("hal.fence.create")
def _fence_create(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [interp.runtime.create_fence()]


@handles("hal.fence.join")
def _fence_join(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [Fence.join([interp.fence(frame, v, op) for v in op.operands])]


@handles("hal.fence.await")
def _fence_await(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, FenceAwaitOp)
    for value in op.fences:
        fence = interp.fence(frame, value, op)
        if fence is not None:
            fence.wait()
    return [0]


@handles("hal.fence.signal")
def _fence_signal(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    fence = interp.fence(frame, op.operands[0], op)
    if fence is not None:
        fence.signal()
    return []


# -- devices and allocators -----------------------------------------------------------------


@handles("hal.device.resolve")
def _device_resolve(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    device, mask = interp.op_affinity(op)
    results: list[Any] = []
    for result in op.results:
        if result.type == HAL_DEVICE:
            results.append(device)
        elif result.type == HAL_ALLOCATOR:
            results.append(device.allocator)
        else:
            results.append(mask if mask else -1)
    return results


@handles("hal.devices.count")
def _devices_count(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [len(interp.runtime.devices)]


@handles("hal.devices.get")
def _devices_get(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    index = interp.integer(frame, op.operands[0], op)
    devices = list(interp.runtime.devices.values())
    if not 0 <= index < len(devices):
        raise error(f"no device at ordinal {index} ({len(devices)} devices)", op.location)
    return [devices[index]]


@handles("hal.device.allocator")
def _device_allocator(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [_device(interp, frame, op.operands[0], op).allocator]


@handles("hal.allocator.select")
def _allocator_select(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, AllocatorSelectOp)
    devices, affinities = op.devices, op.queue_affinities
    if not devices:
        raise error("'hal.allocator.select' has no candidates", op.location)
    return [interp.get(frame, devices[0], op), interp.get(frame, affinities[0], op)]


@handles("hal.allocator.resolve_memory_properties")
def _resolve_memory_properties(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, AllocatorResolveMemoryPropertiesOp)
    params = lifetime_params(op.lifetime)
    return [int(params.type), int(params.usage)]


@handles("hal.command_buffer.device")
def _command_buffer_device(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [_command_buffer(interp, frame, op.operands[0], op).device]


# -- element types and buffer views ---------------------------------------------------------


@handles("hal.element_type")
def _element_type(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, ElementTypeOp)
    try:
        return [element_type(op.element_type.text).code]
    except ValueError as exc:
        raise error(str(exc), op.location) from None


@handles("hal.encoding_type")
def _encoding_type(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [1]


def _view(interp: Interpreter, frame: Frame, value: Value, op: Operation) -> BufferView:
    found = interp.get(frame, value, op)
    if not isinstance(found, BufferView):
        raise error(f"'{op.name}' expected a buffer view, got {type(found).__name__}", op.location)
    return found


@handles("hal.buffer_view.assert")
def _buffer_view_assert(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, BufferViewAssertOp)
    view = _view(interp, frame, op.operands[0], op)
    message = op.attributes["message"].text.strip('"')
    shape = tuple(interp.integer(frame, v, op) for v in op.shape)
    element = interp.integer(frame, op.operands[1], op)
    if view.shape != shape:
        raise error(
            f"{message}: buffer view has shape {_dims(view.shape)}, expected {_dims(shape)}",
            op.location,
        )
    if view.element_type != element:
        raise error(
            f"{message}: buffer view has element type {view.element_type:#010x}, expected "
            f"{element:#010x}",
            op.location,
        )
    return []


def _dims(shape: tuple[int, ...]) -> str:
    return "x".join(str(d) for d in shape) or "scalar"


@handles("hal.buffer_view.create")
def _buffer_view_create(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, BufferViewCreateOp)
    buffer = _buffer(interp, frame, op.operands[0], op)
    offset = interp.integer(frame, op.operands[1], op)
    length = interp.integer(frame, op.operands[2], op)
    if offset or length != buffer.length:
        buffer = buffer.subspan(offset, length)
    shape = tuple(interp.integer(frame, v, op) for v in op.shape)
    element = interp.integer(frame, op.operands[3], op)
    encoding = interp.integer(frame, op.operands[4], op)
    return [BufferView(buffer, shape, element, encoding)]


@handles("hal.buffer_view.buffer")
def _buffer_view_buffer(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [_view(interp, frame, op.operands[0], op).buffer]


@handles("hal.buffer_view.dim")
def _buffer_view_dim(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    view = _view(interp, frame, op.operands[0], op)
    match = re.search(r"\]?\[(\d+)\]", op_text(op).text)
    if match is None:
        raise error("cannot read the index of 'hal.buffer_view.dim'", op.location)
    index = int(match.group(1))
    if index >= len(view.shape):
        raise error(f"buffer view has rank {len(view.shape)}, no dim {index}", op.location)
    return [view.shape[index]]


@handles("hal.buffer_view.rank")
def _buffer_view_rank(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [len(_view(interp, frame, op.operands[0], op).shape)]


@handles("hal.buffer_view.element_type")
def _buffer_view_element_type(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [_view(interp, frame, op.operands[0], op).element_type]


@handles("hal.buffer_view.encoding_type")
def _buffer_view_encoding_type(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [_view(interp, frame, op.operands[0], op).encoding]


@handles("hal.buffer.assert")
def _buffer_assert(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    buffer = _buffer(interp, frame, op.operands[0], op)
    minimum = interp.integer(frame, op.operands[2], op)
    if buffer.length < minimum:
        message = op.attributes["message"].text.strip('"')
        raise error(f"{message}: buffer has {buffer.length} bytes, needs {minimum}", op.location)
    return []


@handles("hal.buffer.length")
def _buffer_length(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [_buffer(interp, frame, op.operands[0], op).length]


@handles("hal.buffer.subspan")
def _buffer_subspan(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    buffer = _buffer(interp, frame, op.operands[0], op)
    offset = interp.integer(frame, op.operands[1], op)
    length = interp.integer(frame, op.operands[2], op)
    return [buffer.subspan(offset, length)]


# -- executables and command buffers --------------------------------------------------------


@handles("hal.executable.lookup")
def _executable_lookup(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    match = re.search(r"executable\(@([\w$.\-]+)\)", op_text(op).text)
    if match is None:
        raise error("cannot read the executable of 'hal.executable.lookup'", op.location)
    return [ExecutableRef(match.group(1))]


@handles("hal.executable.export.ordinal")
def _export_ordinal(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    match = re.search(r"target\((@[^)]*)\)", op_text(op).text)
    if match is None:
        raise error("cannot read the target of 'hal.executable.export.ordinal'", op.location)
    path = [part.lstrip("@") for part in match.group(1).split("::")]
    executable, export = path[0], path[-1]
    info = interp.executables.executables.get(executable)
    ordinal = 0
    if info is not None:
        ordinal = next((o for o, name in info.ordinals.items() if name == export), 0)
        if ordinal == 0 and export in info.exports:
            ordinal = info.exports.index(export)
    return [ExportOrdinal(executable, export, ordinal)]


@handles("hal.executable.lookup.function")
def _lookup_function(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    # `%id = hal.executable.lookup.function target(%exe : !hal.executable)
    # function(@ex::@fn) : i64`: the function id names the kernel a dispatch runs.
    match = re.search(r"function\((@[^)]*)\)", op_text(op).text)
    if match is None:
        raise error("cannot read the function of 'hal.executable.lookup.function'", op.location)
    path = [part.lstrip("@") for part in match.group(1).split("::")]
    return [ExportOrdinal(path[0], path[-1])]


@handles("hal.executable.calculate_workgroups")
def _calculate_workgroups(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    # The stand-in kernels do not depend on the grid.
    return [1] * len(op.results)


def _command_buffer(
    interp: Interpreter, frame: Frame, value: Value, op: Operation
) -> CommandBufferValue:
    found = interp.get(frame, value, op)
    if not isinstance(found, CommandBufferValue):
        raise error(
            f"'{op.name}' expected a command buffer, got {type(found).__name__}", op.location
        )
    return found


@handles("hal.command_buffer.create")
def _command_buffer_create(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, CommandBufferCreateOp)
    device = _device(interp, frame, op.operands[0], op)
    mask = queue_mask(interp.integer(frame, op.operands[1], op))
    command_buffer = CommandBuffer(f"command_buffer@{op.location}")
    return [CommandBufferValue(command_buffer, device, mask)]


def _binding(interp: Interpreter, frame: Frame, value: Value, op: Operation) -> Any:
    """A buffer, or a binding table slot when the IR gives an index."""
    if value.type == INDEX:
        return BindingSlot(interp.integer(frame, value, op))
    return _buffer(interp, frame, value, op)


@handles("hal.command_buffer.fill_buffer")
def _command_fill(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, CommandBufferFillBufferOp)
    command_buffer = _command_buffer(interp, frame, op.operands[0], op).command_buffer
    pattern_value = op.operand("pattern")
    pattern = interp.get(frame, pattern_value, op)
    type = pattern_value.type
    width = type.width // 8 if isinstance(type, IntegerType) else 4
    command_buffer.fill(
        _binding(interp, frame, op.operand("target_buffer"), op),
        interp.integer(frame, op.operand("target_offset"), op),
        interp.integer(frame, op.operand("length"), op),
        scalar_bits(pattern, type),
        max(1, width),
    )
    return []


@handles("hal.command_buffer.copy_buffer")
def _command_copy(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, CommandBufferCopyBufferOp)
    command_buffer = _command_buffer(interp, frame, op.operands[0], op).command_buffer
    command_buffer.copy(
        _binding(interp, frame, op.operand("source_buffer"), op),
        interp.integer(frame, op.operand("source_offset"), op),
        _binding(interp, frame, op.operand("target_buffer"), op),
        interp.integer(frame, op.operand("target_offset"), op),
        interp.integer(frame, op.operand("length"), op),
    )
    return []


@handles("hal.command_buffer.dispatch")
def _command_dispatch(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, CommandBufferDispatchOp)
    command_buffer = _command_buffer(interp, frame, op.operands[0], op).command_buffer
    executable = interp.get(frame, op.operands[1], op)
    entry = interp.get(frame, op.operands[2], op)
    if isinstance(entry, ExportOrdinal):
        executable_name, export = entry.executable, entry.export
    else:
        executable_name = executable.symbol if isinstance(executable, ExecutableRef) else "?"
        export = interp.executables.export_at(executable_name, int(entry)) or str(int(entry))
    symbol = f"{executable_name}::{export}"
    buffers, offsets, lengths = op.binding_buffers, op.binding_offsets, op.binding_lengths
    accesses = binding_accesses(
        interp.executables.accesses(executable_name, export), [READ_WRITE] * len(buffers)
    )
    bindings = [
        DispatchBinding(
            _binding(interp, frame, buffer, op),
            interp.integer(frame, offset, op),
            interp.integer(frame, length, op),
            access,
        )
        for buffer, offset, length, access in zip(buffers, offsets, lengths, accesses)
    ]
    words = [scalar_bits(interp.get(frame, v, op), v.type) for v in op.constants]
    constants = interp.executables.kernel_constants(executable_name, export, words)
    command_buffer.dispatch(interp.kernel(symbol), bindings, constants)
    return []


@handles("hal.buffer.allocation.preserve")
def _allocation_preserve(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    _buffer(interp, frame, op.operands[0], op).preserve()
    return []


@handles("hal.buffer.allocation.discard")
def _allocation_discard(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [int(_buffer(interp, frame, op.operands[0], op).discard())]


@handles("hal.buffer.allocation.is_terminal")
def _allocation_is_terminal(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [int(_buffer(interp, frame, op.operands[0], op).is_terminal)]


@handles("hal.allocator.allocate")
def _allocator_allocate(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    # A synchronous allocation, usable at once.
    assert isinstance(op, AllocatorAllocateOp)
    allocator = _allocator(interp, frame, op.operand("allocator"), op)
    params = _params(interp, frame, op)
    return [allocator.allocate(params, interp.integer(frame, op.result_size, op))]


def _allocator(interp: Interpreter, frame: Frame, value: Value, op: Operation) -> Allocator:
    found = interp.get(frame, value, op)
    if not isinstance(found, Allocator):
        raise error(f"'{op.name}' expected an allocator, got {type(found).__name__}", op.location)
    return found


def _params(interp: Interpreter, frame: Frame, op: HalOp) -> BufferParams:
    """The memory type and usage an allocator op asks for."""
    return BufferParams(
        MemoryType(interp.integer(frame, op.operand("memory_types"), op) & 0xFFFFFFFF),
        BufferUsage(interp.integer(frame, op.operand("buffer_usage"), op) & 0xFFFFFFFF),
    )


def _host_buffer(interp: Interpreter, frame: Frame, value: Value, op: Operation) -> HostBuffer:
    found = interp.get(frame, value, op)
    if not isinstance(found, HostBuffer):
        raise error(f"'{op.name}' expected host bytes, got {type(found).__name__}", op.location)
    return found


@handles("hal.allocator.import")
def _allocator_import(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    # Host bytes used in place when the device can use host memory as asked; else a null
    # buffer and false (the lowering then reads the bytes into a new buffer).
    assert isinstance(op, AllocatorImportOp)
    allocator = _allocator(interp, frame, op.operand("allocator"), op)
    source = _host_buffer(interp, frame, op.operand("source"), op)
    offset = interp.integer(frame, op.operand("offset"), op)
    length = interp.integer(frame, op.operand("length"), op)
    if offset < 0 or offset + length > len(source.data):
        raise error(
            f"import of [{offset}, {offset + length}) from {len(source.data)} host bytes",
            op.location,
        )
    view = np.frombuffer(source.data, dtype=np.uint8)[offset : offset + length]
    buffer = allocator.try_import_host(view, _params(interp, frame, op))
    return [int(buffer is not None), buffer]


@handles("hal.memory_type", "hal.buffer_usage")
def _bits_constant(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, (MemoryTypeOp, BufferUsageOp))
    return [op.value]


@handles("hal.ex.file.from_memory")
def _file_from_memory(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, ExFileFromMemoryOp)
    source = _host_buffer(interp, frame, op.operand("buffer"), op)
    offset = interp.integer(frame, op.operand("offset"), op)
    length = interp.integer(frame, op.operand("length"), op)
    if offset < 0 or offset + length > len(source.data):
        raise error(
            f"file of [{offset}, {offset + length}) from {len(source.data)} host bytes",
            op.location,
        )
    return [HostFile(source, offset, length)]


@handles("hal.device.queue.read")
def _queue_read(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, DeviceQueueReadOp)
    device, mask, wait, signal = _queue(interp, frame, op)
    file = interp.get(frame, op.source_file, op)
    if not isinstance(file, HostFile):
        raise error(f"'{op.name}' expected a file, got {type(file).__name__}", op.location)
    source_offset = interp.integer(frame, op.source_offset, op)
    length = interp.integer(frame, op.length, op)
    device.queue_read(
        mask,
        wait,
        signal,
        file.read(source_offset, length),
        0,
        _buffer(interp, frame, op.target_buffer, op),
        interp.integer(frame, op.target_offset, op),
        length,
        location=op.location,
    )
    return []


@handles("hal.buffer.load")
def _buffer_load(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    # A host read of mapped memory (the program waited for its writer).
    from .async_ops import decode_scalar

    type = op.results[0].type
    buffer = _buffer(interp, frame, op.operands[0], op)
    offset = interp.integer(frame, op.operands[1], op)
    return [decode_scalar(buffer.read(offset, max(1, bit_width(type) // 8)), type)]


@handles("hal.buffer.store")
def _buffer_store(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    from .async_ops import pattern_of

    value, buffer_value, offset_value = op.operands
    buffer = _buffer(interp, frame, buffer_value, op)
    bits, width = pattern_of(interp.get(frame, value, op), value.type)
    buffer.write(bits.to_bytes(width, "little"), interp.integer(frame, offset_value, op))
    return []
