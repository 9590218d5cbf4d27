"""Timeline semaphores and fences (the CTS semaphore_test cases that apply)."""

from __future__ import annotations

import pytest

from streamopt.runtime import (
    FAILURE_VALUE,
    Fence,
    HalError,
    Runtime,
    Status,
    StatusCode,
    Timepoint,
)


def test_host_signal_and_wait(runtime: Runtime) -> None:
    semaphore = runtime.create_semaphore(0)
    semaphore.signal(3)
    semaphore.wait(2)
    assert semaphore.value == 3
    with pytest.raises(HalError) as error:
        semaphore.signal(3)
    assert error.value.code is StatusCode.INVALID_ARGUMENT


def test_wait_for_a_value_nothing_will_signal_does_not_hang(runtime: Runtime) -> None:
    semaphore = runtime.create_semaphore(0, name="never")
    with pytest.raises(HalError) as error:
        semaphore.wait(1)
    assert error.value.code is StatusCode.DEADLINE_EXCEEDED
    assert "never" in str(error.value)


def test_failure_preserves_status_code(runtime: Runtime) -> None:
    semaphore = runtime.create_semaphore(0)
    semaphore.fail(Status(StatusCode.DEADLINE_EXCEEDED, "boom"))
    assert semaphore.value == FAILURE_VALUE
    with pytest.raises(HalError) as error:
        semaphore.wait(1)
    assert error.value.code is StatusCode.DEADLINE_EXCEEDED


def test_double_failure_preserves_first(runtime: Runtime) -> None:
    semaphore = runtime.create_semaphore(0)
    semaphore.fail(Status(StatusCode.CANCELLED, "first"))
    semaphore.fail(Status(StatusCode.INTERNAL, "second"))
    assert semaphore.failure is not None
    assert semaphore.failure.code is StatusCode.CANCELLED
    # Signalling a failed semaphore reports the failure.
    with pytest.raises(HalError) as error:
        semaphore.signal(5)
    assert error.value.code is StatusCode.CANCELLED


def test_wait_then_fail(runtime: Runtime) -> None:
    semaphore = runtime.create_semaphore(0)
    semaphore.signal(1)
    semaphore.wait(1)
    semaphore.fail(Status(StatusCode.ABORTED, "late"))
    # The failure is sticky: even values reached before it now report it.
    with pytest.raises(HalError):
        semaphore.wait(1)


def test_signalling_the_failure_payload_fails(runtime: Runtime) -> None:
    semaphore = runtime.create_semaphore(0)
    semaphore.queue_signal(FAILURE_VALUE, 0)
    assert semaphore.failure is not None


def test_fence_join_is_reached_when_all_are(runtime: Runtime) -> None:
    a, b = runtime.create_fence("a"), runtime.create_fence("b")
    joined = Fence.join([a, None, b])
    assert len(joined.timepoints) == 2
    a.signal()
    assert not joined.is_reached
    b.signal()
    assert joined.is_reached
    joined.wait()


def test_fence_failure_comes_from_any_timepoint(runtime: Runtime) -> None:
    semaphore = runtime.create_semaphore(0)
    fence = Fence([Timepoint(semaphore, 1), Timepoint(semaphore, 2)])
    semaphore.signal(1)
    assert fence.failure is None and not fence.is_resolved
    semaphore.fail(Status(StatusCode.UNAVAILABLE, "gone"))
    assert fence.is_resolved
    assert fence.failure is not None and fence.failure.code is StatusCode.UNAVAILABLE
