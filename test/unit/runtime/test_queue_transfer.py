"""Fill, update, copy, dispatch and execute, mirroring the HAL CTS queue_transfer_test and
transient_buffer_test."""

from __future__ import annotations

import numpy as np
import pytest

from streamopt.runtime import (
    BindingSlot,
    BindingTableEntry,
    BufferParams,
    BufferUsage,
    CommandBuffer,
    DeterministicKernel,
    DispatchBinding,
    HalError,
    MemoryAccess,
    Runtime,
    StatusCode,
)

from .conftest import make_buffer, pattern

SIZES = [1, 3, 4, 17, 256, 4099]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("offset", [0, 4, 12])
def test_fill_with_each_pattern_size(runtime: Runtime, size: int, offset: int) -> None:
    cpu0 = runtime.device("cpu0")
    allocated = runtime.create_fence()
    buffer = cpu0.queue_alloca(0, None, allocated, None, BufferParams(), size * 4 + 16)
    fences = [allocated]
    for pattern_length, value in ((1, 0xAB), (2, 0xBEEF), (4, 0x01020304)):
        done = runtime.create_fence()
        cpu0.queue_fill(0, fences[-1], done, buffer, offset, size * 4, value, pattern_length)
        fences.append(done)
        done.wait()
        expected = value.to_bytes(pattern_length, "little") * (size * 4 // pattern_length)
        assert buffer.read(offset, size * 4) == expected
        assert buffer.read(0, offset) == bytes(offset)  # nothing before the range


def test_fill_validates_pattern_and_alignment(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    buffer = cpu0.queue_alloca(0, None, None, None, BufferParams(), 64)
    with pytest.raises(HalError, match="1, 2 or 4"):
        cpu0.queue_fill(0, None, None, buffer, 0, 64, 0, 3)
    with pytest.raises(HalError, match="multiples"):
        cpu0.queue_fill(0, None, None, buffer, 2, 8, 0, 4)
    with pytest.raises(HalError) as error:
        cpu0.queue_fill(0, None, None, buffer, 60, 8, 0, 1)
    assert error.value.code is StatusCode.OUT_OF_RANGE
    assert not [op for op in runtime.scheduler.pending.values() if op.kind == "fill"]


@pytest.mark.parametrize("size", SIZES)
def test_update_and_copy_at_offsets(runtime: Runtime, size: int) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    data = pattern(size)
    source, written = make_buffer(cpu0, data)
    allocated, copied = runtime.create_fence(), runtime.create_fence()
    target = cpu1.queue_alloca(0, None, allocated, None, BufferParams(), size + 8)
    cpu1.queue_copy(
        0, [*written.timepoints, *allocated.timepoints], copied, source, 0, target, 5, size
    )
    copied.wait()
    assert target.read(5, size) == data
    assert target.read(0, 5) == bytes(5)
    assert runtime.stats.devices["cpu1"].bytes_copied_other == size
    assert runtime.stats.devices["cpu1"].bytes_copied_by_moves == 0


def test_update_captures_source_before_wait_resolves(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    gate, done = runtime.create_fence(), runtime.create_fence()
    buffer = cpu0.queue_alloca(0, None, None, None, BufferParams(), 8)
    host = bytearray(b"original")
    cpu0.queue_update(0, gate, done, host, 0, buffer, 0, 8)
    host[:] = b"changed!"
    gate.signal()
    done.wait()
    assert buffer.read() == b"original"


def test_copy_rejects_overlap_in_one_allocation(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    buffer = cpu0.queue_alloca(0, None, None, None, BufferParams(), 64)
    with pytest.raises(HalError, match="overlap"):
        cpu0.queue_copy(0, None, None, buffer, 0, buffer, 8, 16)
    cpu0.queue_copy(0, None, None, buffer, 0, buffer, 16, 16)  # disjoint is fine


def test_copy_checks_usage(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    dispatch_only = cpu0.queue_alloca(
        0, None, None, None, BufferParams(usage=BufferUsage.DISPATCH_STORAGE), 16
    )
    other = cpu0.queue_alloca(0, None, None, None, BufferParams(), 16)
    with pytest.raises(HalError, match="TRANSFER_SOURCE"):
        cpu0.queue_copy(0, None, None, dispatch_only, 0, other, 0, 16)


def test_chained_fill_and_copy(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    a_ready, b_ready, filled, copied = (runtime.create_fence() for _ in range(4))
    a = cpu0.queue_alloca(0, None, a_ready, None, BufferParams(), 32)
    b = cpu0.queue_alloca(0, None, b_ready, None, BufferParams(), 32)
    cpu0.queue_fill(0, a_ready, filled, a, 0, 32, 0x77, 1)
    cpu0.queue_copy(0, [*filled.timepoints, *b_ready.timepoints], copied, a, 0, b, 0, 32)
    copied.wait()
    assert b.read() == b"\x77" * 32


def test_transient_used_before_alloca_commits_fails(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    gate, filled = runtime.create_fence(), runtime.create_fence()
    buffer = cpu0.queue_alloca(0, gate, None, None, BufferParams(), 16)
    cpu0.queue_fill(0, None, filled, buffer, 0, 16, 1, 1)  # forgot to wait for the alloca
    with pytest.raises(HalError) as error:
        filled.wait()
    assert error.value.code is StatusCode.FAILED_PRECONDITION
    assert "before the op producing it" in str(error.value)


def test_barrier_preserves_ordering(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    buffer, written = make_buffer(cpu0, bytes(8))
    barrier, filled = runtime.create_fence(), runtime.create_fence()
    cpu1.queue_barrier(0, written, barrier)
    cpu0.queue_fill(0, barrier, filled, buffer, 0, 8, 9, 1)
    filled.wait()
    names = [(e.name, e.device) for e in runtime.trace.events]
    assert names.index(("barrier", "cpu1")) < names.index(("fill", "cpu0"))
    assert buffer.read() == b"\x09" * 8


def test_execute_command_buffer_with_binding_table(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    data = pattern(64)
    source, written = make_buffer(cpu0, data)
    allocated, done = runtime.create_fence(), runtime.create_fence()
    target = cpu0.queue_alloca(0, None, allocated, None, BufferParams(), 128)
    commands = CommandBuffer("cb")
    commands.fill(BindingSlot(1), 0, 64, 0xEE, 1)
    commands.copy(BindingSlot(0), 0, BindingSlot(1), 0, 32)
    commands.update(b"\x01\x02", BindingSlot(1), 62)
    cpu0.queue_execute(
        0,
        [*written.timepoints, *allocated.timepoints],
        done,
        commands,
        [BindingTableEntry(source), BindingTableEntry(target, 64, 64)],
    )
    done.wait()
    assert target.read(0, 64) == bytes(64)
    assert target.read(64, 64) == data[:32] + b"\xee" * 30 + b"\x01\x02"
    stats = runtime.stats.devices["cpu0"]
    assert stats.ops["execute"] == 1
    assert stats.bytes_copied_other == 32 and stats.bytes_filled == 64


def test_execute_rejects_a_slot_outside_the_table(runtime: Runtime) -> None:
    commands = CommandBuffer()
    commands.fill(BindingSlot(3), 0, 4, 0, 1)
    with pytest.raises(HalError) as error:
        runtime.device("cpu0").queue_execute(0, None, None, commands, [])
    assert error.value.code is StatusCode.OUT_OF_RANGE


def _run_dispatch(runtime: Runtime, data: bytes, symbol: str) -> bytes:
    cpu0 = runtime.device("cpu0")
    source, written = make_buffer(cpu0, data)
    allocated, done = runtime.create_fence(), runtime.create_fence()
    out = cpu0.queue_alloca(0, None, allocated, None, BufferParams(), 48)
    cpu0.queue_dispatch(
        0,
        [*written.timepoints, *allocated.timepoints],
        done,
        DeterministicKernel(symbol),
        [
            DispatchBinding(source, 0, len(data), MemoryAccess.READ),
            DispatchBinding(out, 0, 48, MemoryAccess.WRITE),
        ],
        constants=[3],
    )
    done.wait()
    return out.read()


def test_deterministic_kernel_depends_on_symbol_and_inputs() -> None:
    first = _run_dispatch(Runtime(), pattern(32), "ex::main")
    assert first == _run_dispatch(Runtime(), pattern(32), "ex::main")
    assert first != _run_dispatch(Runtime(), pattern(32, seed=2), "ex::main")
    assert first != _run_dispatch(Runtime(), pattern(32), "ex::other")
    assert len(set(first)) > 8  # not a constant fill


def test_dispatch_checks_access(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    read_only = cpu0.queue_alloca(0, None, None, None, BufferParams(access=MemoryAccess.READ), 16)
    with pytest.raises(HalError, match="needs"):
        cpu0.queue_dispatch(
            0, None, None, DeterministicKernel("k"),
            [DispatchBinding(read_only, 0, 16, MemoryAccess.WRITE)],
        )  # fmt: skip


def test_host_write_and_read_through_numpy_views(runtime: Runtime) -> None:
    buffer = runtime.device("cpu0").allocator.allocate(BufferParams(), 16, data=pattern(16))
    assert buffer.read() == pattern(16)
    view = buffer.view(4, 4)
    view[:] = np.array([1, 2, 3, 4], dtype=np.uint8)
    assert buffer.read(4, 4) == b"\x01\x02\x03\x04"
