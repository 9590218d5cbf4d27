"""Queue moves: when they alias, when they copy, and what they leave behind.

Mirrors the move tests proposed for the HAL CTS: same-device alias checked against FORCE_COPY,
pending writers, subspans, type narrowing and widening, cross-queue and cross-CPU aliases with
dealloca at the origin, external buffers, REQUIRE_ALIAS, failed waits, A->B->A chains, other
owners, and use after move.
"""

from __future__ import annotations

import numpy as np
import pytest

from streamopt.runtime import (
    AccessMode,
    AllocationState,
    BufferParams,
    BufferUsage,
    DeallocaFlags,
    HalError,
    MemoryAccess,
    MemoryEdge,
    MemoryType,
    MoveFlags,
    MoveMode,
    MoveReason,
    Runtime,
    Status,
    StatusCode,
    Topology,
    UseAfterMoveError,
)
from streamopt.runtime.buffers import Buffer
from streamopt.runtime.topology import REMOTE_HOST_MEMORY_TYPES

from .conftest import make_buffer, pattern

SIZE = 4096


def test_alias_on_one_device_other_queue(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    data = pattern(SIZE)
    source, written = make_buffer(cpu0, data)
    moved = runtime.create_fence("moved")
    result = cpu0.queue_move(0b10, written, moved, source)
    assert result.mode is MoveMode.ALIAS
    assert result.info.reasons == MoveReason.NONE
    # Metadata is valid at once; the bytes only after the signal.
    assert result.buffer.length == SIZE
    assert result.buffer.residency.queue_affinity == 0b10
    with pytest.raises(HalError) as error:
        result.buffer.read()
    assert error.value.code is StatusCode.FAILED_PRECONDITION
    moved.wait()
    assert result.buffer.read() == data
    assert result.buffer.allocation is source.allocation
    assert runtime.stats.bytes_copied == 0


def test_alias_between_the_two_cpu_devices_deallocates_at_origin(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    data = pattern(SIZE)
    source, written = make_buffer(cpu0, data)
    moved, freed = runtime.create_fence(), runtime.create_fence()
    result = cpu1.queue_move(0, written, moved, source).buffer
    assert result.residency.device is cpu1
    assert result.placement.device is cpu0  # the root's placement is untouched
    cpu1.queue_dealloca(0, moved, freed, result, DeallocaFlags.PREFER_ORIGIN)
    freed.wait()
    events = [(e.name, e.device) for e in runtime.trace.events]
    assert ("move.alias", "cpu1") in events
    assert events[-1] == ("dealloca", "cpu0")
    assert source.allocation.state is AllocationState.FREED
    assert runtime.stats.moves.aliased == 1 and runtime.stats.moves.copied == 0
    assert runtime.stats.bytes_copied == 0
    assert runtime.stats.memory["host"].peak_resident_bytes == SIZE


def test_copy_to_the_discrete_device(runtime: Runtime) -> None:
    cpu0, gpu = runtime.device("cpu0"), runtime.device("gpu0")
    data = pattern(SIZE)
    source, written = make_buffer(cpu0, data)
    moved = runtime.create_fence()
    params = BufferParams(type=MemoryType.DEVICE_LOCAL)
    result = gpu.queue_move(0, written, moved, source, params=params)
    assert result.mode is MoveMode.COPY
    assert result.info.reasons == MoveReason.NO_PEER
    assert result.info.memory_space == "gpu0.vram"
    moved.wait()
    assert result.buffer.read() == data
    assert result.buffer.allocation is not source.allocation
    assert result.buffer.placement.device is gpu
    # The source was freed at its origin, after the copy.
    assert source.allocation.state is AllocationState.FREED
    names = [(e.name, e.device) for e in runtime.trace.events]
    assert names[-3:] == [("move.alloca", "gpu0"), ("move.copy", "gpu0"), ("move.dealloca", "cpu0")]
    assert runtime.stats.devices["gpu0"].bytes_copied_by_moves == SIZE
    assert runtime.stats.devices["gpu0"].bytes_copied_other == 0
    assert runtime.stats.moves.reasons == {"NO_PEER": 1}
    assert runtime.stats.devices["gpu0"].ops["move"] == 1


def test_force_copy_gives_the_bytes_an_alias_gives() -> None:
    outputs = []
    for flags in (MoveFlags.NONE, MoveFlags.FORCE_COPY):
        runtime = Runtime()
        cpu0 = runtime.device("cpu0")
        source, written = make_buffer(cpu0, pattern(SIZE, seed=5))
        moved = runtime.create_fence()
        result = cpu0.queue_move(0, written, moved, source, flags=flags)
        moved.wait()
        expected = MoveMode.COPY if flags else MoveMode.ALIAS
        assert result.mode is expected
        assert (result.buffer.allocation is source.allocation) == (not flags)
        outputs.append(result.buffer.read())
        assert runtime.stats.bytes_copied_by_moves == (SIZE if flags else 0)
    assert outputs[0] == outputs[1] == pattern(SIZE, seed=5)


def test_require_alias_fails_with_nothing_enqueued(runtime: Runtime) -> None:
    cpu0, gpu = runtime.device("cpu0"), runtime.device("gpu0")
    source, written = make_buffer(cpu0, pattern(64))
    moved = runtime.create_fence()
    pending_before = dict(runtime.scheduler.pending)
    with pytest.raises(HalError) as error:
        gpu.queue_move(0, written, moved, source, flags=MoveFlags.REQUIRE_ALIAS)
    assert error.value.code is StatusCode.UNAVAILABLE
    assert "NO_PEER" in str(error.value)
    assert runtime.scheduler.pending == pending_before
    assert moved.failure is None and not moved.is_reached  # signals untouched
    assert source.moved is None  # still the caller's
    written.wait()
    assert source.read() == pattern(64)
    assert runtime.stats.moves.rejected == 1
    assert runtime.stats.devices["gpu0"].ops["move"] == 0


def test_require_alias_succeeds_when_aliasing(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    source, written = make_buffer(cpu0, pattern(64))
    result = cpu1.queue_move(0, written, None, source, flags=MoveFlags.REQUIRE_ALIAS)
    assert result.mode is MoveMode.ALIAS


def test_a_pending_writer_is_honoured(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    allocated, gate, filled, moved = (runtime.create_fence() for _ in range(4))
    source = cpu0.queue_alloca(0, None, allocated, None, BufferParams(), SIZE)
    cpu0.queue_fill(0, [*allocated.timepoints, *gate.timepoints], filled, source, 0, SIZE, 0xC3, 1)
    result = cpu1.queue_move(0, filled, moved, source)
    runtime.drain()
    # The writer has not run, so the alias must not have signalled.
    assert not moved.is_reached
    assert not result.buffer.ready
    gate.signal()
    moved.wait()
    assert result.buffer.read() == b"\xc3" * SIZE
    fill = next(e for e in runtime.trace.events if e.name == "fill")
    alias = next(e for e in runtime.trace.events if e.name == "move.alias")
    assert alias.start >= fill.end


def test_an_alias_that_does_not_wait_for_its_source_fails(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    gate, moved = runtime.create_fence(), runtime.create_fence()
    source = cpu0.queue_alloca(0, gate, None, None, BufferParams(), 64)
    cpu1.queue_move(0, None, moved, source)  # no wait on the alloca
    with pytest.raises(HalError) as error:
        moved.wait()
    assert error.value.code is StatusCode.FAILED_PRECONDITION


def test_subspan_moves_copy_and_leave_the_root(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    data = pattern(SIZE)
    root, written = make_buffer(cpu0, data)
    view = root.subspan(1024, 512)
    moved = runtime.create_fence()
    result = cpu1.queue_move(0, written, moved, view)
    assert result.mode is MoveMode.COPY
    assert result.info.reasons == MoveReason.SUBSPAN
    moved.wait()
    assert result.buffer.read() == data[1024:1536]
    assert result.buffer.length == 512
    assert root.allocation.state is AllocationState.COMMITTED
    assert root.read() == data  # the root handle is still the caller's
    with pytest.raises(UseAfterMoveError):
        view.read()


def test_moving_part_of_a_whole_root_copies_and_frees_it(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    data = pattern(SIZE)
    root, written = make_buffer(cpu0, data)
    moved = runtime.create_fence()
    result = cpu1.queue_move(0, written, moved, root, 100, 200)
    assert result.info.reasons == MoveReason.SUBSPAN
    moved.wait()
    assert result.buffer.read() == data[100:300]
    assert root.allocation.state is AllocationState.FREED


def test_external_memory_is_copied_and_never_freed(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    host = np.frombuffer(pattern(SIZE), dtype=np.uint8).copy()
    imported = cpu0.allocator.import_buffer(host, name="imported")
    moved, freed = runtime.create_fence(), runtime.create_fence()
    result = cpu1.queue_move(0, None, moved, imported)
    assert result.mode is MoveMode.COPY
    assert result.info.reasons == MoveReason.EXTERNAL
    moved.wait()
    assert result.buffer.read() == host.tobytes()
    assert imported.allocation.state is AllocationState.COMMITTED
    assert imported.allocation.data is host  # still the caller's memory
    # Moving the copy and deallocating it frees the copy, never the import.
    cpu1.queue_dealloca(0, moved, freed, result.buffer, DeallocaFlags.PREFER_ORIGIN)
    freed.wait()
    assert imported.allocation.state is AllocationState.COMMITTED


def test_dealloca_of_external_memory_is_a_barrier(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    host = np.zeros(16, dtype=np.uint8)
    imported = cpu0.allocator.import_buffer(host)
    freed = runtime.create_fence()
    cpu0.queue_dealloca(0, None, freed, imported)
    freed.wait()
    assert imported.allocation.state is AllocationState.COMMITTED


def test_cpu_a_to_b_to_a_chain_aliases_throughout(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    data = pattern(SIZE)
    buffer, ready = make_buffer(cpu0, data)
    root = buffer.allocation
    for step, target in enumerate([cpu1, cpu0, cpu1, cpu0]):
        moved = runtime.create_fence(f"step{step}")
        result = target.queue_move(0, ready, moved, buffer)
        assert result.mode is MoveMode.ALIAS
        buffer, ready = result.buffer, moved
    ready.wait()
    assert buffer.read() == data
    assert buffer.allocation is root
    assert buffer.residency.device is cpu0
    assert runtime.stats.bytes_copied == 0
    assert runtime.stats.peak_resident_bytes == SIZE


def test_cpu_to_gpu_to_cpu_chain_copies_and_frees_each_source(runtime: Runtime) -> None:
    cpu0, gpu = runtime.device("cpu0"), runtime.device("gpu0")
    data = pattern(SIZE)
    buffer, ready = make_buffer(cpu0, data)
    for target in (gpu, cpu0):
        moved = runtime.create_fence()
        result = target.queue_move(0, ready, moved, buffer)
        assert result.mode is MoveMode.COPY
        buffer, ready = result.buffer, moved
    ready.wait()
    assert buffer.read() == data
    assert runtime.stats.resident_bytes == SIZE  # only the last copy is left
    assert runtime.stats.peak_resident_bytes == 2 * SIZE
    assert runtime.stats.bytes_copied_by_moves == 2 * SIZE


@pytest.mark.parametrize("target_name", ["cpu1", "gpu0"])
def test_a_failed_wait_leaves_the_source_alive(runtime: Runtime, target_name: str) -> None:
    cpu0, target = runtime.device("cpu0"), runtime.device(target_name)
    data = pattern(SIZE)
    source, written = make_buffer(cpu0, data)
    written.wait()
    gate, moved = runtime.create_fence(), runtime.create_fence()
    result = target.queue_move(0, gate, moved, source)
    gate.fail(Status(StatusCode.ABORTED, "producer failed"))
    with pytest.raises(HalError) as error:
        moved.wait()
    assert error.value.code is StatusCode.ABORTED
    assert source.allocation.state is AllocationState.COMMITTED
    assert source.allocation.data is not None and source.allocation.data.tobytes() == data
    assert not result.buffer.ready
    assert runtime.stats.devices[target_name].allocations == 0  # nothing was allocated
    assert runtime.stats.devices["cpu0"].frees == 0


def _failed_move(runtime: Runtime, target_name: str, data: bytes) -> Buffer:
    """A buffer on cpu0 holding `data` whose move to `target_name` failed: its wait failed."""
    source, written = make_buffer(runtime.device("cpu0"), data)
    written.wait()
    gate, moved = runtime.create_fence(), runtime.create_fence()
    runtime.device(target_name).queue_move(0, gate, moved, source)
    gate.fail(Status(StatusCode.ABORTED, "producer failed"))
    with pytest.raises(HalError):
        moved.wait()
    return source


@pytest.mark.parametrize("target_name", ["cpu0", "cpu1", "gpu0"])
def test_after_a_failed_wait_the_source_is_readable(runtime: Runtime, target_name: str) -> None:
    data = pattern(SIZE)
    source = _failed_move(runtime, target_name, data)
    assert source.moved is None
    assert source.read() == data
    other, ready = make_buffer(runtime.device("cpu0"), bytes(SIZE), name="other")
    copied = runtime.create_fence()
    runtime.device("cpu0").queue_copy(0, ready, copied, source, 0, other, 0, SIZE)
    copied.wait()
    assert other.read() == data


@pytest.mark.parametrize("target_name", ["cpu0", "cpu1", "gpu0"])
def test_after_a_failed_wait_the_source_is_freeable(runtime: Runtime, target_name: str) -> None:
    source = _failed_move(runtime, target_name, pattern(SIZE))
    freed = runtime.create_fence()
    runtime.device("cpu0").queue_dealloca(0, None, freed, source)
    freed.wait()
    assert source.allocation.state is AllocationState.FREED
    assert runtime.stats.devices["cpu0"].frees == 1
    assert runtime.stats.resident_bytes == 0  # its storage was reclaimed


@pytest.mark.parametrize("target_name", ["cpu1", "gpu0"])
def test_after_a_failed_wait_the_source_moves_again(runtime: Runtime, target_name: str) -> None:
    data = pattern(SIZE)
    source = _failed_move(runtime, target_name, data)
    moved = runtime.create_fence()
    result = runtime.device(target_name).queue_move(0, None, moved, source)
    moved.wait()
    assert result.buffer.read() == data
    with pytest.raises(UseAfterMoveError):
        source.read()


def test_a_failed_wait_gives_back_the_ownership_a_move_took(runtime: Runtime) -> None:
    cpu0, gpu = runtime.device("cpu0"), runtime.device("gpu0")
    source, written = make_buffer(cpu0, pattern(64))
    written.wait()
    source.preserve()  # another logical owner: the move copies and gives up one ownership
    gate, moved = runtime.create_fence(), runtime.create_fence()
    result = gpu.queue_move(0, gate, moved, source)
    assert result.info.reasons & MoveReason.NOT_TERMINAL
    assert source.allocation.owners == 1
    gate.fail(Status(StatusCode.ABORTED, "producer failed"))
    with pytest.raises(HalError):
        moved.wait()
    assert source.allocation.owners == 2
    assert source.discard() is False and source.discard() is True


def test_a_pending_move_still_holds_its_source(runtime: Runtime) -> None:
    """Until the failure is known the source stays consumed: the move may yet run."""
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    source, written = make_buffer(cpu0, pattern(64))
    written.wait()
    gate = runtime.create_fence()
    cpu1.queue_move(0, gate, None, source)
    with pytest.raises(UseAfterMoveError):
        source.read()
    with pytest.raises(UseAfterMoveError):
        cpu0.queue_dealloca(0, None, None, source)


def test_use_after_move_is_reported_at_enqueue_with_both_locations(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    source, written = make_buffer(cpu0, pattern(64))
    other = cpu0.queue_alloca(0, None, None, None, BufferParams(), 64)
    view = source.subspan(0, 16)
    cpu1.queue_move(0, written, None, source, location="prog.mlir:10:5")
    with pytest.raises(UseAfterMoveError) as error:
        cpu0.queue_copy(0, None, None, source, 0, other, 0, 64, location="prog.mlir:12:3")
    assert error.value.buffer_name == "src"
    assert error.value.move.location == "prog.mlir:10:5"
    assert error.value.move.target_device == "cpu1"
    assert error.value.use_location == "prog.mlir:12:3"
    assert "read by copy" in error.value.use
    assert "prog.mlir:10:5" in str(error.value)
    for use in (
        lambda: source.read(),
        lambda: cpu1.queue_move(0, None, None, source),
        lambda: cpu0.queue_dealloca(0, None, None, source),
        lambda: cpu0.queue_fill(0, None, None, source, 0, 4, 0, 1),
        lambda: view.read(),  # a view of the moved handle is an alias of its storage
        lambda: source.subspan(0, 4),
    ):
        with pytest.raises(UseAfterMoveError):
            use()


def test_a_reader_that_runs_after_the_move_is_use_after_move(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    source, written = make_buffer(cpu0, pattern(64))
    other_ready = runtime.create_fence()
    other = cpu0.queue_alloca(0, None, other_ready, None, BufferParams(), 64)
    late, copied, moved = runtime.create_fence(), runtime.create_fence(), runtime.create_fence()
    # Enqueued before the move but ordered after it: the move did not wait for this reader.
    cpu0.queue_copy(0, [*late.timepoints, *other_ready.timepoints], copied, source, 0, other, 0, 64)
    cpu1.queue_move(0, written, moved, source)
    moved.wait()
    late.signal()
    with pytest.raises(UseAfterMoveError) as error:
        copied.wait()  # the original error, with its details, comes back from the wait
    assert error.value.move.target_device == "cpu1"
    assert any(isinstance(e, UseAfterMoveError) for e in runtime.errors)


def test_usage_widening_copies(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    source, _ = make_buffer(cpu0, pattern(64), BufferParams(usage=BufferUsage.TRANSFER))
    info = cpu1.query_buffer_move(
        source, params=BufferParams(usage=BufferUsage.TRANSFER | BufferUsage.DISPATCH_STORAGE)
    )
    assert info.mode is MoveMode.COPY and info.reasons == MoveReason.USAGE_WIDENED
    narrowed = cpu1.query_buffer_move(
        source, params=BufferParams(usage=BufferUsage.TRANSFER_SOURCE)
    )
    assert narrowed.mode is MoveMode.ALIAS
    assert narrowed.provided.usage == BufferUsage.TRANSFER_SOURCE


def test_access_widening_copies(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    host = np.zeros(16, dtype=np.uint8)
    read_only = cpu0.allocator.import_buffer(host, BufferParams(access=MemoryAccess.READ))
    info = cpu0.query_buffer_move(
        read_only, params=BufferParams(access=MemoryAccess.READ | MemoryAccess.WRITE)
    )
    assert MoveReason.ACCESS_WIDENED in info.reasons


def test_cpu_relabels_host_memory_as_device_local(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    source, _ = make_buffer(cpu0, pattern(64), BufferParams(type=MemoryType.HOST_VISIBLE))
    info = cpu1.query_buffer_move(source, params=BufferParams(type=MemoryType.DEVICE_LOCAL))
    assert info.mode is MoveMode.ALIAS


def _pcie_gpu_runtime(mode: AccessMode) -> Runtime:
    """A CPU and a GPU that reaches host memory with `mode`, as visible (not local) memory."""
    topology = Topology()
    topology.add_device("cpu", "cpu", ["host"])
    topology.add_device("gpu", "gpu", ["gpu.vram"])
    topology.set_edge("gpu", "host", MemoryEdge(mode, REMOTE_HOST_MEMORY_TYPES))
    return Runtime(topology)


def test_type_narrowing_aliases_and_widening_copies() -> None:
    runtime = _pcie_gpu_runtime(AccessMode.NATIVE)
    cpu, gpu = runtime.device("cpu"), runtime.device("gpu")
    source, written = make_buffer(cpu, pattern(SIZE))
    narrow = gpu.query_buffer_move(source, params=BufferParams(type=MemoryType.DEVICE_VISIBLE))
    assert narrow.mode is MoveMode.ALIAS
    assert narrow.provided.type == REMOTE_HOST_MEMORY_TYPES
    wide = gpu.query_buffer_move(source, params=BufferParams(type=MemoryType.DEVICE_LOCAL))
    assert wide.mode is MoveMode.COPY and wide.reasons == MoveReason.TYPE_WIDENED
    assert wide.memory_space == "gpu.vram"
    moved = runtime.create_fence()
    result = gpu.queue_move(
        0, written, moved, source, params=BufferParams(type=MemoryType.DEVICE_LOCAL)
    )
    moved.wait()
    assert result.buffer.allocation.memory_space == "gpu.vram"
    assert result.buffer.read() == pattern(SIZE)


def test_remote_memory_aliases_only_with_allow_low_performance() -> None:
    runtime = _pcie_gpu_runtime(AccessMode.REMOTE)
    cpu, gpu = runtime.device("cpu"), runtime.device("gpu")
    source, _ = make_buffer(cpu, pattern(64))
    assert gpu.query_buffer_move(source).reasons == MoveReason.LOW_PERFORMANCE
    allowed = gpu.query_buffer_move(source, flags=MoveFlags.ALLOW_LOW_PERFORMANCE)
    assert allowed.mode is MoveMode.ALIAS


def test_grant_edges_alias_after_grant_then_alias() -> None:
    runtime = _pcie_gpu_runtime(AccessMode.GRANT)
    cpu, gpu = runtime.device("cpu"), runtime.device("gpu")
    source, written = make_buffer(cpu, pattern(64))
    assert gpu.query_buffer_move(source).reasons == MoveReason.POOL_ACCESS
    moved = runtime.create_fence()
    result = gpu.queue_move(0, written, moved, source, flags=MoveFlags.ALLOW_GRANT)
    assert result.mode is MoveMode.ALIAS_AFTER_GRANT
    back = runtime.create_fence()
    home = cpu.queue_move(0, moved, back, result.buffer)
    assert home.mode is MoveMode.ALIAS
    # The grant sticks to the allocation: moving to the GPU again needs no new grant.
    again = gpu.query_buffer_move(home.buffer)
    assert again.mode is MoveMode.ALIAS
    back.wait()
    assert home.buffer.read() == pattern(64)


def test_import_edges_import() -> None:
    runtime = _pcie_gpu_runtime(AccessMode.IMPORT)
    cpu, gpu = runtime.device("cpu"), runtime.device("gpu")
    source, written = make_buffer(cpu, pattern(64))
    moved = runtime.create_fence()
    result = gpu.queue_move(0, written, moved, source, flags=MoveFlags.REQUIRE_ALIAS)
    assert result.mode is MoveMode.IMPORT
    moved.wait()
    assert result.buffer.read() == pattern(64)
    assert runtime.stats.bytes_copied == 0


def test_other_owners_force_a_copy_without_dealloca(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    source, written = make_buffer(cpu0, pattern(64))
    source.preserve()  # e.g. a global keeps it too
    moved = runtime.create_fence()
    result = cpu1.queue_move(0, written, moved, source)
    assert result.mode is MoveMode.COPY and result.info.reasons == MoveReason.NOT_TERMINAL
    moved.wait()
    assert source.allocation.state is AllocationState.COMMITTED
    assert source.allocation.owners == 1  # the move consumed the caller's ownership


def test_keep_source_copies_and_keeps_the_source(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    source, written = make_buffer(cpu0, pattern(64))
    moved = runtime.create_fence()
    result = cpu1.queue_move(0, written, moved, source, flags=MoveFlags.KEEP_SOURCE)
    assert result.mode is MoveMode.COPY and result.info.reasons == MoveReason.KEEP_SOURCE
    moved.wait()
    assert source.read() == result.buffer.read() == pattern(64)
    assert source.allocation is not result.buffer.allocation


def test_query_is_pure(runtime: Runtime) -> None:
    cpu0, gpu = runtime.device("cpu0"), runtime.device("gpu0")
    source, _ = make_buffer(cpu0, pattern(64))
    before = (runtime.stats.to_dict(), dict(runtime.scheduler.pending), source.allocation.owners)
    for device in (cpu0, gpu):
        for flags in (MoveFlags.NONE, MoveFlags.FORCE_COPY, MoveFlags.REQUIRE_ALIAS):
            device.query_buffer_move(source, flags=flags)
    after = (runtime.stats.to_dict(), dict(runtime.scheduler.pending), source.allocation.owners)
    assert before == after
    assert source.moved is None


def test_an_impossible_copy_is_rejected_synchronously(runtime: Runtime) -> None:
    cpu0, gpu = runtime.device("cpu0"), runtime.device("gpu0")
    source, written = make_buffer(cpu0, pattern(64))
    params = BufferParams(type=MemoryType.HOST_VISIBLE)
    assert gpu.query_buffer_move(source, params=params).mode is MoveMode.UNSUPPORTED
    pending = len(runtime.scheduler.pending)
    with pytest.raises(HalError) as error:
        gpu.queue_move(0, written, None, source, params=params)
    assert error.value.code is StatusCode.INVALID_ARGUMENT
    assert len(runtime.scheduler.pending) == pending
    assert source.moved is None


def test_move_range_is_validated(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    source, _ = make_buffer(cpu0, pattern(64))
    with pytest.raises(HalError) as error:
        cpu0.queue_move(0, None, None, source, 32, 64)
    assert error.value.code is StatusCode.OUT_OF_RANGE


def test_move_of_a_buffer_with_a_dealloca_enqueued_is_rejected(runtime: Runtime) -> None:
    cpu0, cpu1 = runtime.device("cpu0"), runtime.device("cpu1")
    source, written = make_buffer(cpu0, pattern(64))
    cpu0.queue_dealloca(0, written, None, source)
    with pytest.raises(HalError) as error:
        cpu1.queue_move(0, written, None, source)
    assert error.value.code is StatusCode.FAILED_PRECONDITION


def test_move_ops_are_skipped_not_run_after_a_failed_wait(runtime: Runtime) -> None:
    cpu0, gpu = runtime.device("cpu0"), runtime.device("gpu0")
    source, written = make_buffer(cpu0, pattern(64))
    gate, moved = runtime.create_fence(), runtime.create_fence()
    gpu.queue_move(0, [*gate.timepoints, *written.timepoints], moved, source)
    gate.fail(Status(StatusCode.CANCELLED, "x"))
    runtime.drain()
    parts = [e for e in runtime.trace.events if e.name.startswith("move.")]
    assert [e.name for e in parts] == ["move.alloca", "move.copy", "move.dealloca"]
    assert all(e.failed for e in parts)
    assert not runtime.scheduler.pending
    assert runtime.stats.devices["gpu0"].failed_ops == 2
    assert runtime.stats.devices["cpu0"].failed_ops == 1  # the dealloca, at the origin


def test_a_copying_move_releases_a_synchronous_allocation(runtime: Runtime) -> None:
    cpu0, gpu = runtime.device("cpu0"), runtime.device("gpu0")
    source = cpu0.allocator.allocate(BufferParams(), 64, data=pattern(64))
    moved = runtime.create_fence()
    result = gpu.queue_move(0, None, moved, source)
    assert result.mode is MoveMode.COPY
    moved.wait()
    assert result.buffer.read() == pattern(64)
    assert source.allocation.state is AllocationState.FREED  # the move was its last owner
    assert runtime.stats.devices["cpu0"].resident_bytes == 0
