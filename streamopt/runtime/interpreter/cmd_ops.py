"""Cmd-level stream ops: explicit allocation, command regions and moves on timepoints.

At this level ordering is explicit: an op waits on the timepoint it awaits and signals the one
it returns, nothing else (a missing await in lowered IR shows up as work running too early).
`stream.cmd.execute` records its region into a command buffer and submits it with one queue
execute; `stream.resource.alloca`/`dealloca` are queue alloca/dealloca; `stream.cmd.move`
(handled by name: `%r, %t = stream.cmd.move on(E) await(%t0) => %x : T{%n} from(A) -> to(B)
T{%n} => !stream.timepoint`) is `Device.queue_move`.
"""

from __future__ import annotations

import re
from typing import Any

from streamopt.diagnostics import error
from streamopt.dialects.stream import (
    CmdCopyOp,
    CmdDispatchOp,
    CmdExecuteOp,
    CmdFillOp,
    ResourceAllocaOp,
    ResourceDeallocaOp,
    ResourceLoadOp,
    ResourcePackOp,
    ResourceStoreOp,
    ResourceSubviewOp,
)
from streamopt.ir.core import Block, Operation
from streamopt.parser import token_values
from streamopt.runtime.commands import CommandBuffer, DispatchBinding
from streamopt.runtime.params import (
    AllocaFlags,
    BufferParams,
    BufferUsage,
    DeallocaFlags,
    MemoryAccess,
    MemoryType,
)
from streamopt.runtime.semaphores import Fence

from .async_ops import dispatch_symbol, pattern_of
from .kernels import READ, READ_WRITE, WRITE, binding_accesses
from .machine import Frame, Interpreter, handles, lifetime_params, resource_lifetime
from .optext import op_text
from .std_ops import scalar_bits
from .values import HostBuffer, HostFile, Resource

_CMD_ACCESS = {"ro": READ, "wo": WRITE, "rw": READ_WRITE}

# Cache maintenance is a no-op for the runtime's host memory; a yield ends the region.
_NOT_RECORDED = frozenset(
    {"stream.cmd.flush", "stream.cmd.invalidate", "stream.cmd.discard", "stream.yield"}
)


def _await(interp: Interpreter, frame: Frame, op: Operation) -> Fence | None:
    timepoint = getattr(op, "await_timepoint", None)
    return interp.fence(frame, timepoint, op) if timepoint is not None else None


@handles("stream.resource.alloca")
def _alloca(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, ResourceAllocaOp)
    device, mask = interp.op_affinity(op)
    size = interp.integer(frame, op.storage_size, op)
    lifetime = resource_lifetime(op.results[0])
    signal = interp.runtime.create_fence()
    flags = AllocaFlags.INDETERMINATE_LIFETIME if op.indeterminate_lifetime else AllocaFlags.NONE
    buffer = device.queue_alloca(
        mask, _await(interp, frame, op), signal, None, lifetime_params(lifetime), size, flags,
        location=op.location,
    )  # fmt: skip
    storage = interp.make_storage(buffer, auto_free=False)
    storage.last_write = list(signal.timepoints)
    return [Resource(storage, buffer, lifetime), signal]


@handles("stream.resource.dealloca")
def _dealloca(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, ResourceDeallocaOp)
    resource = interp.resource(frame, op.resource, op)
    device, mask = interp.op_affinity(op)
    signal = interp.runtime.create_fence()
    flags = DeallocaFlags.PREFER_ORIGIN if op.prefer_origin else DeallocaFlags.NONE
    resource.storage.auto_free = False
    device.queue_dealloca(
        mask, _await(interp, frame, op), signal, resource.buffer, flags, location=op.location
    )
    return [signal]


@handles("stream.resource.size")
def _size(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [interp.resource(frame, op.operands[0], op).size]


@handles("stream.resource.subview")
def _subview(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, ResourceSubviewOp)
    source = interp.resource(frame, op.source, op)
    offset = interp.integer(frame, op.source_offset, op)
    length = interp.integer(frame, op.result_size, op)
    return [source.view(buffer=source.buffer.subspan(offset, length))]


PACK_ALIGNMENT = 64


@handles("stream.resource.pack")
def _pack(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, ResourcePackOp)
    # Slices never share bytes here: correct for any lifetimes, if not as small as IREE's.
    base = interp.integer(frame, op.offset, op) if op.offset is not None else 0
    offsets: list[int] = []
    cursor = base
    for size_value in op.dynamic_slice_sizes:
        size = interp.integer(frame, size_value, op)
        cursor = -(-cursor // PACK_ALIGNMENT) * PACK_ALIGNMENT
        offsets.append(cursor)
        cursor += size
    return [cursor - base, *offsets]


@handles("stream.cmd.execute")
def _execute(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, CmdExecuteOp)
    device, mask = interp.op_affinity(op)
    command_buffer = CommandBuffer(f"cmd.execute@{op.location}")
    arguments = op.body.arguments
    for argument, value in zip(arguments, op.resource_operands):
        frame.env[argument] = interp.get(frame, value, op)
    try:
        _record(interp, frame, op.body, command_buffer)
    finally:
        for argument in arguments:
            frame.env.pop(argument, None)
    signal = interp.runtime.create_fence()
    device.queue_execute(
        mask, _await(interp, frame, op), signal, command_buffer, location=op.location
    )
    return [signal]


def _record(interp: Interpreter, frame: Frame, block: Block, command_buffer: CommandBuffer) -> None:
    """Record the commands of a cmd region in order (concurrent groups run in order too)."""
    for op in block.ops:
        if isinstance(op, CmdCopyOp):
            source = interp.resource(frame, op.source, op)
            target = interp.resource(frame, op.target, op)
            command_buffer.copy(
                source.buffer,
                interp.integer(frame, op.source_offset, op),
                target.buffer,
                interp.integer(frame, op.target_offset, op),
                interp.integer(frame, op.length, op),
            )
        elif isinstance(op, CmdFillOp):
            target = interp.resource(frame, op.target, op)
            bits, width = pattern_of(interp.get(frame, op.value, op), op.value.type)
            command_buffer.fill(
                target.buffer,
                interp.integer(frame, op.target_offset, op),
                interp.integer(frame, op.target_length, op),
                bits,
                width,
            )
        elif isinstance(op, CmdDispatchOp):
            _record_dispatch(interp, frame, op, command_buffer)
        elif op.name in ("stream.cmd.serial", "stream.cmd.concurrent"):
            _record(interp, frame, op.regions[0].blocks[0], command_buffer)
        elif op.name in _NOT_RECORDED:
            continue
        else:
            # Host-side ops allowed in regions (subviews) run as usual.
            interp.execute(frame, op)


def _record_dispatch(
    interp: Interpreter, frame: Frame, op: CmdDispatchOp, command_buffer: CommandBuffer
) -> None:
    symbol = dispatch_symbol(op.entry_points[0])
    executable, _, export = symbol.partition("::")
    fallback: list[MemoryAccess] = [_CMD_ACCESS[a] for a in op.resource_accesses]
    accesses = binding_accesses(interp.executables.accesses(executable, export), fallback)
    bindings = []
    for value, offset, length, access in zip(
        op.resources, op.resource_offsets, op.resource_lengths, accesses
    ):
        resource = interp.resource(frame, value, op)
        bindings.append(
            DispatchBinding(
                resource.buffer,
                interp.integer(frame, offset, op),
                interp.integer(frame, length, op),
                access,
            )
        )
    words = [scalar_bits(interp.get(frame, v, op), v.type) for v in op.uniform_operands]
    constants = interp.executables.kernel_constants(executable, export, words)
    command_buffer.dispatch(interp.kernel(symbol), bindings, constants)


@handles("stream.cmd.move")
def _cmd_move(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    text = op_text(op)
    await_group = text.group("await")
    awaited = text.operand(await_group)
    source_value = text.after(r"=>") if awaited is not None else text.operand(text.text)
    if source_value is None:
        raise error("cannot find the source of 'stream.cmd.move'", op.location)
    sizes = text.sized()
    source = interp.resource(frame, source_value, op)
    size = interp.integer(frame, sizes[-1], op) if sizes else source.size
    target_text = text.group("to") or text.group("on")
    if target_text is not None:
        attr = token_values.attribute_from_token("ATTR_REF", target_text, None)
        device, mask = interp.resolve_affinity(attr, op.location)
    else:
        device, mask = interp.op_affinity(op)
    lifetime = resource_lifetime(op.results[0])
    if lifetime == "*" and op.results[0].type is None:
        # An opaque op has no result types: read the target type off the text.
        types = re.findall(r"!stream\.resource<([\w*]+)>", text.text)
        lifetime = types[-1] if types else "*"
    wait = interp.fence(frame, awaited, op) if awaited is not None else None
    signal = interp.runtime.create_fence()
    moved = device.queue_move(
        mask, wait, signal, source.buffer, 0, size, None, lifetime_params(lifetime),
        location=op.location,
    )  # fmt: skip
    storage = interp.make_storage(moved.buffer, auto_free=False)
    storage.last_write = list(signal.timepoints)
    return [Resource(storage, moved.buffer, lifetime), signal]


@handles("stream.timepoint.chain_external", "stream.timepoint.export")
def _unsupported_timepoint(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    raise error(f"the interpreter does not support '{op.name}'", op.location)


@handles("stream.resource.store")
def _resource_store(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    # The host writes into mapped staging memory (the program awaited its last use already).
    assert isinstance(op, ResourceStoreOp)
    target_value, _, offset_value, value = op.operands
    target = interp.resource(frame, target_value, op)
    bits, width = pattern_of(interp.get(frame, value, op), value.type)
    target.buffer.write(bits.to_bytes(width, "little"), interp.integer(frame, offset_value, op))
    return []


@handles("stream.resource.load")
def _resource_load(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    # The host reads mapped staging memory (the program awaited its writer already).
    from .async_ops import decode_scalar
    from .std_ops import bit_width

    assert isinstance(op, ResourceLoadOp)
    source_value, _, offset_value = op.operands
    type = op.results[0].type
    source = interp.resource(frame, source_value, op)
    offset = interp.integer(frame, offset_value, op)
    data = source.buffer.read(offset, max(1, bit_width(type) // 8))
    return [decode_scalar(data, type)]


def _first_resource(interp: Interpreter, frame: Frame, op: Operation) -> Resource:
    return interp.resource(frame, op.operands[0], op)


@handles("stream.resource.retain")
def _retain(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    _first_resource(interp, frame, op).buffer.preserve()
    return []


@handles("stream.resource.release")
def _release(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    # True when this was the last owner (the caller may then deallocate).
    return [int(_first_resource(interp, frame, op).buffer.discard())]


@handles("stream.resource.is_terminal")
def _is_terminal(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [int(_first_resource(interp, frame, op).buffer.is_terminal)]


@handles("stream.resource.constants")
def _constants(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    # `%r:N, %t = stream.resource.constants on(A) : T{%n} = dense<...>, ... => !stream.timepoint`
    # (op class from the cmd lowering: `values`, one size operand per resource): upload each
    # value into a fresh allocation; the timepoint is reached when all are in.
    from .constants import constant_bytes

    values = list(getattr(op, "values", []) or [])
    resources = op.results[:-1]
    if len(values) != len(resources) or len(op.operands) < len(resources):
        raise error("cannot read the values of 'stream.resource.constants'", op.location)
    device, mask = interp.op_affinity(op)
    results: list[Any] = []
    uploaded: list[Fence] = []
    for result, value, size_value in zip(resources, values, op.operands):
        size = interp.integer(frame, size_value, op)
        lifetime = resource_lifetime(result)
        allocated, done = interp.runtime.create_fence(), interp.runtime.create_fence()
        buffer = device.queue_alloca(
            mask, None, allocated, None, lifetime_params(lifetime), size, location=op.location
        )
        data = constant_bytes(interp.module, value, size, op.location)
        device.queue_update(mask, allocated, done, data, 0, buffer, 0, size, location=op.location)
        storage = interp.make_storage(buffer, auto_free=False)
        storage.last_write = list(done.timepoints)
        results.append(Resource(storage, buffer, lifetime))
        uploaded.append(done)
    return [*results, Fence.join(uploaded)]


# -- constants as IREE's PackConstants uploads them --------------------------------------------

# What `stream.resource.try_map` asks of the device (IREE's StreamToHAL imports constant data
# as device-local, immutable storage usable by transfers and dispatches).
_MAPPED_CONSTANT = BufferParams(
    MemoryType.DEVICE_LOCAL,
    BufferUsage.SHARING_IMMUTABLE | BufferUsage.TRANSFER | BufferUsage.DISPATCH_STORAGE,
)


def _host_data(
    interp: Interpreter, frame: Frame, op: Operation, offset: int, length: int, what: str
) -> HostBuffer:
    """The host bytes `op` reads (its first operand), checked to hold [offset, offset+length)."""
    found = interp.get(frame, op.operands[0], op)
    if not isinstance(found, HostBuffer):
        raise error(f"'{op.name}' expected host bytes, got {type(found).__name__}", op.location)
    if offset < 0 or offset + length > len(found.data):
        raise error(
            f"{what} of [{offset}, {offset + length}) from {len(found.data)} host bytes",
            op.location,
        )
    return found


@handles("stream.resource.try_map")
def _try_map(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    # Host bytes used in place when the device can use host memory; else false (the program
    # then reads them into memory of its own).
    import numpy as np

    offset = interp.integer(frame, op.operands[1], op)
    size = interp.integer(frame, op.operands[2], op)
    source = _host_data(interp, frame, op, offset, size, "map")
    device, _ = interp.op_affinity(op)
    view = np.frombuffer(source.data, dtype=np.uint8)[offset : offset + size]
    buffer = device.allocator.try_import_host(view, _MAPPED_CONSTANT)
    if buffer is None:
        return [0, None]
    storage = interp.make_storage(buffer, auto_free=False)
    return [1, Resource(storage, buffer, resource_lifetime(op.results[1]))]


@handles("stream.resource.alloc")
def _alloc(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    # A synchronous allocation, usable at once.
    device, _ = interp.op_affinity(op)
    lifetime = resource_lifetime(op.results[0])
    size = interp.integer(frame, op.operands[0], op)
    buffer = device.allocator.allocate(lifetime_params(lifetime), size)
    return [Resource(interp.make_storage(buffer, auto_free=False), buffer, lifetime)]


@handles("stream.file.constant")
def _file_constant(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    offset = interp.integer(frame, op.operands[2], op)
    length = interp.integer(frame, op.operands[3], op)
    source = _host_data(interp, frame, op, offset, length, "file")
    return [HostFile(source, offset, length)]


@handles("stream.file.read")
def _file_read(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    file = interp.get(frame, op.operands[0], op)
    if not isinstance(file, HostFile):
        raise error(f"'{op.name}' expected a file, got {type(file).__name__}", op.location)
    source_offset = interp.integer(frame, op.operands[1], op)
    target = interp.resource(frame, op.operands[2], op)
    target_offset = interp.integer(frame, op.operands[4], op)
    length = interp.integer(frame, op.operands[5], op)
    device, mask = interp.op_affinity(op)
    signal = interp.runtime.create_fence()
    device.queue_read(
        mask, _await(interp, frame, op), signal, file.read(source_offset, length), 0,
        target.buffer, target_offset, length, location=op.location,
    )  # fmt: skip
    target.storage.last_write = list(signal.timepoints)
    return [signal]
