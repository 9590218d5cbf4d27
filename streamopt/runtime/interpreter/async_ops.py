"""Async-level stream ops: each one is queue work on the device of its affinity.

At this level the IR has no timepoints between ops, so the interpreter supplies the ordering a
scheduler would: an op waits for the last write of every resource it reads, and for the last
write and every read since of every resource it writes (`Interpreter.begin_work`). Results
that are not tied to an operand get fresh storage (a queue alloca on the op's device), which
the interpreter frees after the result's last use. A transfer allocates on its target and
copies; a move calls `Device.queue_move`, which aliases or copies and consumes the source.
Tensor import/export, timepoint ops and `stream.async.execute` regions are here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from streamopt.diagnostics import error
from streamopt.dialects.stream import (
    AsyncCallOp,
    AsyncCloneOp,
    AsyncConstantOp,
    AsyncCopyOp,
    AsyncDispatchOp,
    AsyncFillOp,
    AsyncLoadOp,
    AsyncSliceOp,
    AsyncSplatOp,
    AsyncStoreOp,
    AsyncUpdateOp,
    ResourceRegionOp,
    TensorExportOp,
    TensorImportOp,
    TensorSizeOfOp,
    TimepointAwaitOp,
    TimepointBarrierOp,
    TransferLikeOp,
)
from streamopt.ir.core import Operation, Value
from streamopt.ir.types import Attribute, ResourceType, SymbolRefAttr, Type
from streamopt.runtime.buffers import Buffer
from streamopt.runtime.commands import DispatchBinding
from streamopt.runtime.params import MemoryAccess
from streamopt.runtime.semaphores import Fence

from .constants import constant_bytes
from .kernels import READ, READ_WRITE, WRITE, binding_accesses
from .machine import (
    ExecuteContext,
    Frame,
    Interpreter,
    handles,
    lifetime_params,
    resource_lifetime,
)
from .std_ops import _hand_over, bit_width, scalar_bits, wrap
from .values import BufferView, HostBuffer, Resource, element_type, parse_tensor_type


def _size(interp: Interpreter, frame: Frame, value: Value, op: Operation) -> int:
    size = interp.integer(frame, value, op)
    if size < 0:
        raise error(f"'{op.name}' has a negative size {size}", op.location)
    return size


def _awaits(interp: Interpreter, frame: Frame, op: Operation, values: Sequence[Value]) -> list[Any]:
    timepoints: list[Any] = []
    for value in values:
        fence = interp.fence(frame, value, op)
        if fence is not None:
            timepoints.extend(fence.timepoints)
    return timepoints


def pattern_of(value: Any, type: Type | None) -> tuple[int, int]:
    """A scalar as a fill pattern: (bits, byte width)."""
    return scalar_bits(value, type), max(1, bit_width(type) // 8)


def _fill(
    interp: Interpreter,
    frame: Frame,
    op: Operation,
    target: Resource,
    offset: int,
    length: int,
    value: Any,
    type: Type | None,
    extra: Sequence[Any] = (),
) -> None:
    device, mask = interp.op_affinity(op)
    bits, width = pattern_of(value, type)
    wait, signal = interp.begin_work(frame, writes=[target], extra=extra)
    if width in (1, 2, 4) and offset % width == 0 and length % width == 0:
        device.queue_fill(
            mask, wait, signal, target.buffer, offset, length, bits, width, location=op.location
        )
    else:
        # Patterns the queue cannot fill (8 bytes, or a ragged range) go in as host bytes.
        unit = bits.to_bytes(width, "little")
        data = (unit * (length // width + 1))[:length]
        device.queue_update(
            mask, wait, signal, data, 0, target.buffer, offset, length, location=op.location
        )
    interp.end_work(frame, signal, writes=[target])


def _copy(
    interp: Interpreter,
    frame: Frame,
    op: Operation,
    source: Resource,
    source_offset: int,
    target: Resource,
    target_offset: int,
    length: int,
    device_attr: Attribute | None = None,
) -> None:
    device, mask = interp.op_affinity(op, device_attr)
    wait, signal = interp.begin_work(frame, reads=[source], writes=[target])
    device.queue_copy(
        mask, wait, signal, source.buffer, source_offset, target.buffer, target_offset, length,
        location=op.location,
    )  # fmt: skip
    interp.end_work(frame, signal, reads=[source], writes=[target])


@handles("stream.async.alloca")
def _alloca(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    device, mask = interp.op_affinity(op)
    size = _size(interp, frame, op.operands[0], op)
    return [interp.allocate(frame, op, device, mask, size, resource_lifetime(op.results[0]))]


@handles("stream.async.splat")
def _splat(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, AsyncSplatOp)
    device, mask = interp.op_affinity(op)
    size = _size(interp, frame, op.result_size, op)
    awaits = _awaits(interp, frame, op, [op.await_timepoint] if op.await_timepoint else [])
    result = interp.allocate(frame, op, device, mask, size, resource_lifetime(op.result))
    value = interp.get(frame, op.value, op)
    _fill(interp, frame, op, result, 0, size, value, op.value.type, awaits)
    return [result]


@handles("stream.async.clone")
def _clone(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, AsyncCloneOp)
    source = interp.resource(frame, op.source, op)
    device, mask = interp.op_affinity(op)
    size = _size(interp, frame, op.result_size, op)
    result = interp.allocate(frame, op, device, mask, size, resource_lifetime(op.result))
    _copy(interp, frame, op, source, 0, result, 0, min(size, source.size))
    return [result]


@handles("stream.async.slice")
def _slice(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, AsyncSliceOp)
    source = interp.resource(frame, op.source, op)
    offset = _size(interp, frame, op.source_offset, op)
    end = _size(interp, frame, op.source_end, op)
    device, mask = interp.op_affinity(op)
    size = _size(interp, frame, op.result_size, op)
    result = interp.allocate(frame, op, device, mask, size, resource_lifetime(op.result))
    _copy(interp, frame, op, source, offset, result, 0, min(size, end - offset))
    return [result]


@handles("stream.async.fill")
def _async_fill(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, AsyncFillOp)
    target = interp.resource(frame, op.target, op)
    offset = _size(interp, frame, op.target_offset, op)
    length = _size(interp, frame, op.target_length, op)
    value = interp.get(frame, op.value, op)
    _fill(interp, frame, op, target, offset, length, value, op.value.type)
    return [target.view(lifetime=resource_lifetime(op.results[0]))]


@handles("stream.async.update")
def _update(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, AsyncUpdateOp)
    target = interp.resource(frame, op.target, op)
    update = interp.resource(frame, op.update, op)
    offset = _size(interp, frame, op.target_offset, op)
    _copy(interp, frame, op, update, 0, target, offset, update.size)
    return [target.view(lifetime=resource_lifetime(op.results[0]))]


@handles("stream.async.copy")
def _async_copy(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, AsyncCopyOp)
    target = interp.resource(frame, op.target, op)
    source = interp.resource(frame, op.source, op)
    source_offset = _size(interp, frame, op.source_offset, op)
    target_offset = _size(interp, frame, op.target_offset, op)
    length = _size(interp, frame, op.length, op)
    _copy(interp, frame, op, source, source_offset, target, target_offset, length)
    return [target.view(lifetime=resource_lifetime(op.results[0]))]


@handles("stream.async.store")
def _store(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, AsyncStoreOp)
    target = interp.resource(frame, op.target, op)
    offset = _size(interp, frame, op.target_offset, op)
    value = interp.get(frame, op.value, op)
    bits, width = pattern_of(value, op.value.type)
    device, mask = interp.op_affinity(op)
    wait, signal = interp.begin_work(frame, writes=[target])
    data = bits.to_bytes(width, "little")
    device.queue_update(
        mask, wait, signal, data, 0, target.buffer, offset, width, location=op.location
    )
    interp.end_work(frame, signal, writes=[target])
    return [target.view(lifetime=resource_lifetime(op.results[0]))]


@handles("stream.async.load")
def _load(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, AsyncLoadOp)
    source = interp.resource(frame, op.source, op)
    offset = _size(interp, frame, op.source_offset, op)
    # The host reads: it waits for the last write first.
    Fence(source.storage.read_dependencies()).wait()
    type = op.results[0].type
    width = max(1, bit_width(type) // 8)
    source.buffer.check_not_moved("read by stream.async.load", op.location)
    data = source.buffer.read(offset, width)
    return [decode_scalar(data, type)]


def decode_scalar(data: bytes, type: Type | None) -> Any:
    """A scalar of `type` from its little-endian bytes."""
    text = type.text if type is not None else "i64"
    element = element_type(text)
    array = np.frombuffer(data[: element.byte_width], dtype=element.dtype)
    if element.name == "bf16":
        return float(np.uint32(int(array[0]) << 16).view(np.float32))
    if element.is_float:
        return float(array[0])
    return wrap(int(array[0]), type)


@handles("stream.async.constant")
def _async_constant(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, AsyncConstantOp)
    device, mask = interp.op_affinity(op)
    size = _size(interp, frame, op.result_size, op)
    awaits = _awaits(interp, frame, op, op.await_timepoints)
    data = constant_bytes(interp.module, op.value, size, op.location)
    result = interp.allocate(frame, op, device, mask, size, resource_lifetime(op.result))
    wait, signal = interp.begin_work(frame, writes=[result], extra=awaits)
    device.queue_update(mask, wait, signal, data, 0, result.buffer, 0, size, location=op.location)
    interp.end_work(frame, signal, writes=[result])
    return [result]


@handles("stream.async.cast", "stream.async.barrier")
def _passthrough(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    source = interp.resource(frame, op.operands[0], op)
    return [source.view(lifetime=resource_lifetime(op.results[0]))]


def _transfer_devices(interp: Interpreter, op: TransferLikeOp) -> tuple[Any, int, Any, int]:
    """(executing device, mask, target device, mask) of a transfer or move."""
    context_device, context_mask = interp.op_affinity(op)
    execute_attr = op.affinity or op.source_affinity
    if execute_attr is not None:
        device, mask = interp.resolve_affinity(execute_attr, op.location)
    else:
        device, mask = context_device, context_mask
    target_attr = op.target_affinity or op.affinity
    if target_attr is not None:
        target, target_mask = interp.resolve_affinity(target_attr, op.location)
    else:
        target, target_mask = context_device, context_mask
    return device, mask, target, target_mask


@handles("stream.async.transfer")
def _transfer(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, TransferLikeOp)
    source = interp.resource(frame, op.source, op)
    size = _size(interp, frame, op.result_size, op)
    device, mask, target, target_mask = _transfer_devices(interp, op)
    result = interp.allocate(frame, op, target, target_mask, size, resource_lifetime(op.result))
    wait, signal = interp.begin_work(frame, reads=[source], writes=[result])
    device.queue_copy(
        mask, wait, signal, source.buffer, 0, result.buffer, 0, min(size, source.size),
        location=op.location,
    )  # fmt: skip
    interp.end_work(frame, signal, reads=[source], writes=[result])
    return [result]


@handles("stream.async.move")
def _move(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, TransferLikeOp)
    source = interp.resource(frame, op.source, op)
    size = _size(interp, frame, op.result_size, op)
    _, _, target, target_mask = _transfer_devices(interp, op)
    lifetime = resource_lifetime(op.result)
    # The move frees (or hands over) the source: it waits for every reader, as a dealloca.
    wait, signal = interp.begin_work(frame, writes=[source])
    moved = target.queue_move(
        target_mask, wait, signal, source.buffer, 0, size, None, lifetime_params(lifetime),
        location=op.location,
    )  # fmt: skip
    storage = interp.make_storage(moved.buffer, auto_free=True)
    storage.last_write = list(signal.timepoints)
    interp.end_work(frame, signal)
    return [Resource(storage, moved.buffer, lifetime)]


def dispatch_symbol(attr: Attribute) -> str:
    """`ex::fn` for `@ex::@fn` (a variant in the middle is dropped)."""
    if isinstance(attr, SymbolRefAttr):
        path = attr.path
        return f"{path[0]}::{path[-1]}" if len(path) > 1 else path[0]
    return attr.text.replace("@", "")


def run_dispatch(
    interp: Interpreter,
    frame: Frame,
    op: Operation,
    symbol: str,
    bindings: list[tuple[Resource, int, int, MemoryAccess]],
    constants: list[int],
    device: Any,
    mask: int,
) -> None:
    """Enqueue a kernel over `bindings` (resource, offset, length, access from the op); the
    executable's code, when the module has it, decides the accesses."""
    executable, _, export = symbol.partition("::")
    code = interp.executables.accesses(executable, export or executable)
    accesses = binding_accesses(code, [b[3] for b in bindings])
    reads = [b[0] for b, a in zip(bindings, accesses) if a & READ]
    writes = [b[0] for b, a in zip(bindings, accesses) if a & WRITE]
    wait, signal = interp.begin_work(frame, reads=reads, writes=writes)
    device.queue_dispatch(
        mask,
        wait,
        signal,
        interp.kernel(symbol),
        [DispatchBinding(r.buffer, o, n, a) for (r, o, n, _), a in zip(bindings, accesses)],
        constants,
        location=op.location,
    )
    interp.end_work(frame, signal, reads=reads, writes=writes)


@handles("stream.async.dispatch")
def _dispatch(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, AsyncDispatchOp)
    device, mask = interp.op_affinity(op)
    offsets, lengths = op.segment(3), op.segment(5)
    bindings: list[tuple[Resource, int, int, MemoryAccess]] = []
    constants: list[int] = []
    start = op.segments[0]
    ranges = 0
    operand_resources: list[Resource] = []
    for position, value in enumerate(op.resource_operands):
        if isinstance(value.type, ResourceType):
            resource = interp.resource(frame, value, op)
            offset = _size(interp, frame, offsets[ranges], op)
            length = _size(interp, frame, lengths[ranges], op)
            ranges += 1
            access = op.operand_access(start + position)
            bindings.append((resource, offset, length, READ_WRITE if access & WRITE else READ))
            operand_resources.append(resource)
        else:
            constants.append(scalar_bits(interp.get(frame, value, op), value.type))
            operand_resources.append(None)  # type: ignore[arg-type]
    results: list[Any] = []
    sizes = iter(op.result_sizes)
    for index, result in enumerate(op.results):
        tied = op.tied_operands[index]
        if not isinstance(result.type, ResourceType):
            raise error("dispatch results must be resources", op.location)
        size = _size(interp, frame, next(sizes), op)
        if tied is not None:
            results.append(operand_resources[tied].view(lifetime=resource_lifetime(result)))
            continue
        fresh = interp.allocate(frame, op, device, mask, size, resource_lifetime(result))
        bindings.append((fresh, 0, size, WRITE))
        results.append(fresh)
    run_dispatch(
        interp, frame, op, dispatch_symbol(op.entry_points[0]), bindings, constants, device, mask
    )
    return results


@handles("stream.async.call")
def _async_call(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, AsyncCallOp)
    callee = interp.symbols.lookup(op.callee)
    arguments = [interp.get(frame, v, op) for v in op.resource_operands]
    if callee is not None and callee.regions and callee.regions[0].blocks:
        return _hand_over(interp, interp.call(op.callee.root, arguments, op.location))
    # An external function: like a dispatch of a kernel the runtime does not know.
    device, mask = interp.op_affinity(op)
    offsets, lengths = op.segment(2), op.segment(4)
    bindings: list[tuple[Resource, int, int, MemoryAccess]] = []
    constants: list[int] = []
    ranges = 0
    for position, (value, obj) in enumerate(zip(op.resource_operands, arguments)):
        if isinstance(obj, Resource):
            offset = _size(interp, frame, offsets[ranges], op)
            length = _size(interp, frame, lengths[ranges], op)
            ranges += 1
            write = op.operand_access(position) & WRITE
            bindings.append((obj, offset, length, READ_WRITE if write else READ))
        else:
            constants.append(scalar_bits(obj, value.type))
    results: list[Any] = []
    sizes = iter(op.result_sizes)
    for index, result in enumerate(op.results):
        tied = op.tied_operands[index]
        if tied is not None:
            results.append(arguments[tied].view(lifetime=resource_lifetime(result)))
            continue
        if not isinstance(result.type, ResourceType):
            raise error("external call results must be resources", op.location)
        size = _size(interp, frame, next(sizes), op)
        fresh = interp.allocate(frame, op, device, mask, size, resource_lifetime(result))
        bindings.append((fresh, 0, size, WRITE))
        results.append(fresh)
    run_dispatch(interp, frame, op, op.callee.root, bindings, constants, device, mask)
    return results


@handles("stream.async.execute", "stream.async.concurrent")
def _execute(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, ResourceRegionOp)
    captured = [interp.get(frame, v, op) for v in op.resource_operands]
    awaits = _awaits(interp, frame, op, getattr(op, "await_timepoints", []))
    context = ExecuteContext(list(awaits))
    frame.contexts.append(context)
    try:
        values = interp.run_nested(frame, op.regions[0], captured)
    finally:
        frame.contexts.pop()
    results = _hand_over(interp, values)
    if op.name == "stream.async.execute":
        # Reached when everything the region enqueued (and what it awaited) is done.
        results.append(Fence([*context.wait, *context.signals]))
    return results


# -- tensors --------------------------------------------------------------------------------


@handles("stream.tensor.import")
def _import(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, TensorImportOp)
    source = interp.get(frame, op.source, op)
    size = _size(interp, frame, op.result_size, op)
    if isinstance(source, BufferView):
        buffer = source.buffer
    elif isinstance(source, Buffer):
        buffer = source
    elif isinstance(source, HostBuffer):
        device, _ = interp.op_affinity(op)
        buffer = device.allocator.allocate(lifetime_params("external"), size, bytes(source.data))
    else:
        raise error(f"cannot import a {type(source).__name__}", op.location)
    if buffer.length < size:
        raise error(
            f"imported buffer has {buffer.length} bytes, the resource needs {size}", op.location
        )
    if buffer.length > size:
        buffer = buffer.subspan(0, size)
    resource = interp.import_resource(buffer, consume=bool(op.consume))
    return [resource.view(lifetime=resource_lifetime(op.result))]


@handles("stream.tensor.export")
def _export(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, TensorExportOp)
    resource = interp.resource(frame, op.source, op)
    resource.buffer.check_enqueue("exported", op.location)
    interp.hold_forever(resource)
    result_type = op.result.type.text if op.result.type else ""
    if result_type == "!hal.buffer":
        return [resource.buffer]
    tensor = parse_tensor_type(op.source_encoding.text)
    dims = [interp.integer(frame, v, op) for v in op.source_encoding_dims]
    shape = tensor.with_dynamic(dims)
    return [BufferView(resource.buffer, shape, tensor.element.code, 1, resource)]


@handles("stream.tensor.sizeof")
def _sizeof(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, TensorSizeOfOp)
    tensor = parse_tensor_type(op.encoding.text)
    dims = [interp.integer(frame, v, op) for v in op.operands]
    count = 1
    for dim in tensor.with_dynamic(dims):
        count *= dim
    return [count * tensor.element.byte_width]


# -- timepoints -----------------------------------------------------------------------------


@handles("stream.timepoint.immediate")
def _immediate(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [Fence(())]


@handles("stream.timepoint.join")
def _join(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [Fence.join([interp.fence(frame, v, op) for v in op.operands])]


@handles("stream.timepoint.await")
def _await(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, TimepointAwaitOp)
    fence = interp.fence(frame, op.await_timepoint, op)
    if fence is not None:
        # The host blocks until the timepoint is reached (as hal.fence.await does).
        fence.wait()
    resources = [interp.resource(frame, v, op) for v in op.resource_operands]
    return [r.view(lifetime=resource_lifetime(result)) for r, result in zip(resources, op.results)]


@handles("stream.timepoint.barrier")
def _barrier(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, TimepointBarrierOp)
    resource = interp.resource(frame, op.resource, op)
    return [resource.view(), Fence(resource.storage.write_dependencies())]


@handles("stream.async.func")
def _async_func(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return []
