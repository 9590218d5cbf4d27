"""Ordering and failure propagation across queues and devices, mirroring the HAL CTS
semaphore_submission_test."""

from __future__ import annotations

import pytest

from streamopt.runtime import (
    BufferParams,
    HalError,
    OpState,
    Runtime,
    Status,
    StatusCode,
    Timepoint,
)


def test_submit_with_wait(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    wait = runtime.create_semaphore(0)
    signal = runtime.create_semaphore(0)
    cpu0.queue_barrier(0, [Timepoint(wait, 1)], [Timepoint(signal, 1)])
    runtime.drain()
    assert signal.value == 0
    wait.signal(1)
    signal.wait(1)
    assert signal.value == 1


def test_cross_queue_wait_before_signal(runtime: Runtime) -> None:
    cpu0, gpu = runtime.device("cpu0"), runtime.device("gpu0")
    semaphore = runtime.create_semaphore(0)
    done = runtime.create_fence()
    # The waiter is enqueued before the op that signals what it waits for.
    gpu.queue_barrier(0, [Timepoint(semaphore, 1)], done)
    cpu0.queue_barrier(0, None, [Timepoint(semaphore, 1)])
    done.wait()
    names = [(e.name, e.device) for e in runtime.trace.events]
    assert names == [("barrier", "cpu0"), ("barrier", "gpu0")]


def test_same_queue_is_not_fifo(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    gate = runtime.create_fence("gate")
    first, second = runtime.create_fence("first"), runtime.create_fence("second")
    blocked = cpu0.queue_barrier(0b1, gate, first)
    free = cpu0.queue_barrier(0b1, None, second)
    second.wait()
    assert free.state is OpState.DONE
    assert blocked.state is OpState.PENDING
    gate.signal()
    first.wait()


def test_multi_queue_fan_out(runtime: Runtime) -> None:
    start = runtime.create_fence()
    ends = []
    for device in runtime.devices.values():
        for queue in range(device.queue_count):
            end = runtime.create_fence()
            device.queue_barrier(1 << queue, start, end)
            ends.append(end)
    runtime.drain()
    assert not any(end.is_reached for end in ends)
    start.signal()
    for end in ends:
        end.wait()
    assert len(runtime.trace.events) == 6


def test_batch_waiting_on_smaller_value(runtime: Runtime) -> None:
    semaphore = runtime.create_semaphore(0)
    done = runtime.create_fence()
    runtime.device("cpu0").queue_barrier(0, [Timepoint(semaphore, 2)], done)
    semaphore.signal(5)
    done.wait()


def test_propagate_fail_signal(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    gate, allocated, filled = (runtime.create_fence() for _ in range(3))
    buffer = cpu0.queue_alloca(0, gate, allocated, None, BufferParams(), 16)
    fill = cpu1.queue_fill(0, allocated, filled, buffer, 0, 16, 1, 1)
    gate.fail(Status(StatusCode.CANCELLED, "boom"))
    with pytest.raises(HalError) as error:
        filled.wait()
    assert error.value.code is StatusCode.CANCELLED
    assert fill.state is OpState.SKIPPED
    assert runtime.stats.devices["cpu0"].allocations == 0  # nothing was allocated
    assert runtime.stats.devices["cpu1"].failed_ops == 1


def test_op_failure_poisons_downstream(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    gate, filled, after = (runtime.create_fence() for _ in range(3))
    buffer = cpu0.queue_alloca(0, gate, None, None, BufferParams(), 16)
    cpu0.queue_fill(0, None, filled, buffer, 0, 16, 1, 1)  # runs before the alloca commits
    cpu0.queue_barrier(0, filled, after)
    with pytest.raises(HalError) as error:
        after.wait()
    assert error.value.code is StatusCode.FAILED_PRECONDITION
    assert runtime.errors and runtime.errors[0].code is StatusCode.FAILED_PRECONDITION


def test_location_travels_with_errors(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    gate, filled = runtime.create_fence(), runtime.create_fence()
    buffer = cpu0.queue_alloca(0, gate, None, None, BufferParams(), 16)
    cpu0.queue_fill(0, None, filled, buffer, 0, 16, 1, 1, location="prog.mlir:7:3")
    runtime.drain()
    assert filled.failure is not None
    assert filled.failure.location == "prog.mlir:7:3"
