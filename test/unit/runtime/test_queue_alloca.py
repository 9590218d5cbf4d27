"""Queue alloca/dealloca, mirroring the HAL CTS queue_alloca_test."""

from __future__ import annotations

import pytest

from streamopt.runtime import (
    AllocaFlags,
    AllocationState,
    BufferParams,
    DeallocaFlags,
    HalError,
    MemoryType,
    OpState,
    Runtime,
    Status,
    StatusCode,
    Topology,
)
from streamopt.runtime.params import BufferUsage


def test_basic_alloca(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    done = runtime.create_fence()
    buffer = cpu0.queue_alloca(0, None, done, None, BufferParams(), 4096)
    done.wait()
    assert buffer.allocation.state is AllocationState.COMMITTED
    assert buffer.read() == bytes(4096)
    assert runtime.stats.devices["cpu0"].bytes_allocated == 4096


def test_buffer_metadata_is_valid_before_commit(runtime: Runtime) -> None:
    cpu1 = runtime.device("cpu1")
    gate = runtime.create_fence("gate")
    done = runtime.create_fence()
    params = BufferParams(usage=BufferUsage.TRANSFER)
    buffer = cpu1.queue_alloca(0b10, gate, done, None, params, 100)
    assert buffer.length == 100
    assert buffer.usage == BufferUsage.TRANSFER
    assert buffer.placement.device is cpu1
    assert buffer.placement.asynchronous
    assert buffer.placement.queue_affinity == 0b10  # one queue bit
    assert buffer.residency.device is cpu1
    assert buffer.memory_type & MemoryType.DEVICE_LOCAL == MemoryType.DEVICE_LOCAL
    with pytest.raises(HalError) as error:
        buffer.read()
    assert error.value.code is StatusCode.FAILED_PRECONDITION


def test_alloca_does_not_signal_before_its_wait(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    gate = runtime.create_fence("gate")
    done = runtime.create_fence("done")
    buffer = cpu0.queue_alloca(0, gate, done, None, BufferParams(), 16)
    runtime.drain()
    assert not done.is_reached
    assert buffer.allocation.state is AllocationState.RESERVED
    gate.signal()
    done.wait()
    assert buffer.allocation.state is AllocationState.COMMITTED


def test_alloca_dealloca_cycle(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    for _ in range(4):
        allocated, freed = runtime.create_fence(), runtime.create_fence()
        buffer = cpu0.queue_alloca(0, None, allocated, None, BufferParams(), 1 << 16)
        cpu0.queue_dealloca(0, allocated, freed, buffer)
        freed.wait()
        assert buffer.allocation.state is AllocationState.FREED
    stats = runtime.stats.devices["cpu0"]
    assert stats.allocations == stats.frees == 4
    assert stats.resident_bytes == 0
    assert stats.peak_resident_bytes == 1 << 16


def test_chained_alloca_dealloca_on_another_queue(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    allocated, filled, freed = (runtime.create_fence() for _ in range(3))
    buffer = cpu0.queue_alloca(0b01, None, allocated, None, BufferParams(), 64)
    cpu0.queue_fill(0b10, allocated, filled, buffer, 0, 64, 0x5A, 1)
    cpu0.queue_dealloca(0b01, filled, freed, buffer)
    freed.wait()
    assert [(e.name, e.queue) for e in runtime.trace.events] == [
        ("alloca", 0),
        ("fill", 1),
        ("dealloca", 0),
    ]


def test_dealloca_releases_memory_and_later_use_fails(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    allocated, freed, filled = (runtime.create_fence() for _ in range(3))
    buffer = cpu0.queue_alloca(0, None, allocated, None, BufferParams(), 64)
    cpu0.queue_dealloca(0, allocated, freed, buffer)
    freed.wait()
    # Either a synchronous error or an asynchronous failure with the same code is allowed;
    # once the free has run, the runtime knows it at enqueue.
    with pytest.raises(HalError) as error:
        cpu0.queue_fill(0, freed, filled, buffer, 0, 64, 0, 1)
    assert error.value.code is StatusCode.FAILED_PRECONDITION or (
        error.value.code is StatusCode.INVALID_ARGUMENT
    )


def test_fill_ordered_after_dealloca_fails_asynchronously(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    allocated, freed, filled = (runtime.create_fence() for _ in range(3))
    buffer = cpu0.queue_alloca(0, None, allocated, None, BufferParams(), 64)
    cpu0.queue_dealloca(0, allocated, freed, buffer)
    cpu0.queue_fill(0, freed, filled, buffer, 0, 64, 0, 1)  # enqueued before the free ran
    with pytest.raises(HalError) as error:
        filled.wait()
    assert error.value.code is StatusCode.FAILED_PRECONDITION
    assert "freed" in str(error.value)


def test_failed_dealloca_wait_does_not_dealloca(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    allocated, gate, freed = (runtime.create_fence() for _ in range(3))
    buffer = cpu0.queue_alloca(0, None, allocated, None, BufferParams(), 64)
    allocated.wait()
    op = cpu0.queue_dealloca(0, gate, freed, buffer)
    gate.fail(Status(StatusCode.ABORTED, "upstream failed"))
    with pytest.raises(HalError) as error:
        freed.wait()
    assert error.value.code is StatusCode.ABORTED
    assert op.state is OpState.SKIPPED
    assert buffer.allocation.state is AllocationState.COMMITTED
    assert runtime.stats.devices["cpu0"].frees == 0
    # The buffer is as it was: a later dealloca frees it.
    freed_now = runtime.create_fence()
    cpu0.queue_dealloca(0, None, freed_now, buffer)
    freed_now.wait()
    assert buffer.allocation.state is AllocationState.FREED
    assert runtime.stats.devices["cpu0"].resident_bytes == 0


def test_second_dealloca_is_rejected(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    allocated, freed = runtime.create_fence(), runtime.create_fence()
    buffer = cpu0.queue_alloca(0, None, allocated, None, BufferParams(), 64)
    cpu0.queue_dealloca(0, allocated, freed, buffer)
    with pytest.raises(HalError) as error:
        cpu0.queue_dealloca(0, allocated, None, buffer)
    assert error.value.code is StatusCode.FAILED_PRECONDITION


def test_dealloca_prefers_origin_placement(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    allocated, freed = runtime.create_fence(), runtime.create_fence()
    buffer = cpu0.queue_alloca(0b10, None, allocated, None, BufferParams(), 64)
    cpu1.queue_dealloca(0, allocated, freed, buffer, DeallocaFlags.PREFER_ORIGIN)
    freed.wait()
    dealloca = runtime.trace.events[-1]
    assert (dealloca.name, dealloca.device, dealloca.queue) == ("dealloca", "cpu0", 1)
    assert runtime.stats.devices["cpu1"].deallocas_off_origin == 0


def test_dealloca_off_origin_is_counted(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    allocated, freed = runtime.create_fence(), runtime.create_fence()
    buffer = cpu0.queue_alloca(0, None, allocated, None, BufferParams(), 64)
    cpu1.queue_dealloca(0, allocated, freed, buffer)
    freed.wait()
    assert runtime.trace.events[-1].device == "cpu1"
    assert runtime.stats.devices["cpu1"].deallocas_off_origin == 1
    assert buffer.allocation.state is AllocationState.FREED


def test_indeterminate_lifetime_dealloca_is_a_barrier(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    allocated, freed = runtime.create_fence(), runtime.create_fence()
    buffer = cpu0.queue_alloca(
        0, None, allocated, None, BufferParams(), 64, AllocaFlags.INDETERMINATE_LIFETIME
    )
    cpu0.queue_dealloca(0, allocated, freed, buffer)
    freed.wait()
    assert buffer.allocation.state is AllocationState.COMMITTED
    runtime.discard(buffer)  # the last owner frees it
    assert buffer.allocation.state is AllocationState.FREED


def test_alloca_of_an_unavailable_memory_type_fails_synchronously(runtime: Runtime) -> None:
    gpu = runtime.device("gpu0")
    with pytest.raises(HalError) as error:
        gpu.queue_alloca(0, None, None, None, BufferParams(type=MemoryType.HOST_VISIBLE), 8)
    assert error.value.code is StatusCode.INVALID_ARGUMENT
    assert not runtime.scheduler.pending


def test_affinity_outside_the_device_is_rejected(runtime: Runtime) -> None:
    with pytest.raises(HalError) as error:
        runtime.device("cpu0").queue_alloca(0b100, None, None, None, BufferParams(), 8)
    assert error.value.code is StatusCode.INVALID_ARGUMENT


def test_capacity_exhaustion_fails_the_signal() -> None:
    topology = Topology()
    topology.add_memory("tiny", capacity=100)
    topology.add_device("small", "cpu", ["tiny"])
    runtime = Runtime(topology)
    device = runtime.device("small")
    first, second = runtime.create_fence(), runtime.create_fence()
    device.queue_alloca(0, None, first, None, BufferParams(), 80)
    device.queue_alloca(0, first, second, None, BufferParams(), 40)
    first.wait()
    with pytest.raises(HalError) as error:
        second.wait()
    assert error.value.code is StatusCode.RESOURCE_EXHAUSTED
