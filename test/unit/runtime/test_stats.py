"""Statistics for the run report."""

from __future__ import annotations

from streamopt.runtime import BufferParams, MoveFlags, Runtime

from .conftest import make_buffer, pattern


def test_copies_are_split_between_moves_and_other_copies(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    source, written = make_buffer(cpu0, pattern(1000))
    allocated, copied, moved = (runtime.create_fence() for _ in range(3))
    target = cpu1.queue_alloca(0, None, allocated, None, BufferParams(), 1000)
    cpu1.queue_copy(
        0, [*written.timepoints, *allocated.timepoints], copied, source, 0, target, 0, 1000
    )
    cpu1.queue_move(0, copied, moved, target, flags=MoveFlags.FORCE_COPY)
    moved.wait()
    stats = runtime.stats.to_dict()
    cpu1_stats = stats["devices"]["cpu1"]
    # The forced copy runs on cpu1: it owns the source and reaches the destination memory.
    assert cpu1_stats["bytes_copied_other"] == 1000
    assert cpu1_stats["bytes_copied_by_moves"] == 1000
    assert cpu1_stats["ops"] == {"alloca": 1, "copy": 1, "move": 1}
    assert stats["devices"]["cpu0"]["ops"] == {"alloca": 1, "update": 1}
    assert stats["devices"]["cpu0"]["bytes_updated"] == 1000
    assert stats["moves"] == {
        "aliased": 0,
        "copied": 1,
        "rejected": 0,
        "modes": {"copy": 1},
        "reasons": {"FORCED": 1},
    }
    # source, target and the move's copy of target were live; the move freed target after.
    assert stats["peak_resident_bytes"] == 3000
    assert stats["resident_bytes"] == 2000
    assert stats["memory"]["host"]["peak_resident_bytes"] == 3000


def test_peak_is_per_device_by_placement(runtime: Runtime) -> None:
    cpu0, gpu = runtime.device("cpu0"), runtime.device("gpu0")
    source, written = make_buffer(cpu0, pattern(512))
    moved = runtime.create_fence()
    gpu.queue_move(0, written, moved, source)
    moved.wait()
    devices = runtime.stats.devices
    assert devices["cpu0"].peak_resident_bytes == 512 and devices["cpu0"].resident_bytes == 0
    assert devices["gpu0"].peak_resident_bytes == 512 and devices["gpu0"].resident_bytes == 512
    assert devices["gpu0"].bytes_allocated == 512
