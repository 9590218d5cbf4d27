"""Devices, their allocators and their queue operations.

A `Device` has a name, a kind, `queue_count` queues (affinity bit i = queue i) and an
`Allocator` that places memory in the spaces the topology gives the device. Queue operations
follow the HAL's `iree_hal_device_queue_*`: each takes an affinity, a wait list and a signal
list (a `Fence`, a sequence of `Timepoint`s, or None) and returns at once. Validation errors
raise `HalError` synchronously and enqueue nothing; everything else happens when the scheduler
runs the op (see `streamopt.runtime.queue`). Every op takes an optional `location`, an opaque
object (the interpreter passes the IR op's location) that errors and the trace carry along.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from streamopt.move_api import MoveFlags
from streamopt.runtime.buffers import (
    Allocation,
    AllocationState,
    Buffer,
    Bytes,
    Placement,
    Residency,
)
from streamopt.runtime.commands import (
    BindingTableEntry,
    Command,
    CommandBuffer,
    CopyCommand,
    DispatchBinding,
    DispatchCommand,
    FillCommand,
    UpdateCommand,
    pattern_bytes,
)
from streamopt.runtime.kernels import Kernel
from streamopt.runtime.params import (
    ALL_ACCESS,
    DEFAULT_PARAMS,
    DEFAULT_USAGE,
    QUEUE_AFFINITY_ANY,
    AllocaFlags,
    BufferParams,
    DeallocaFlags,
    format_flags,
)
from streamopt.runtime.queue import BufferUse, QueueOp
from streamopt.runtime.semaphores import WaitList, timepoints_of
from streamopt.runtime.status import StatusCode, hal_error
from streamopt.runtime.topology import HOST_MEMORY, AccessMode, DeviceSpec, MemoryEdge

if TYPE_CHECKING:
    from streamopt.runtime.move import MoveInfo, MoveResult
    from streamopt.runtime.system import Runtime


@dataclass(frozen=True)
class Pool:
    """A memory pool: allocations from it go to `memory_space` of `device`."""

    device: Device
    memory_space: str
    name: str = ""


class Allocator:
    """Places a device's allocations in memory spaces the topology lets it use natively."""

    def __init__(self, device: Device) -> None:
        self.device = device

    def choose_memory(
        self, params: BufferParams, pool: Pool | None = None
    ) -> tuple[str, MemoryEdge] | None:
        """The memory space (and the device's edge to it) an allocation with `params` goes
        to: the pool's space, else the first of the device's spaces whose types include the
        required ones; None if none qualifies."""
        topology = self.device.runtime.topology
        required = params.required_type()
        if pool is not None:
            candidates: Sequence[str] = (pool.memory_space,)
        else:
            candidates = self.device.spec.memory
        for space in candidates:
            edge = topology.edge(self.device.name, space)
            if edge.mode is AccessMode.NATIVE and required & ~edge.types == 0:
                return space, edge
        return None

    def new_allocation(
        self,
        params: BufferParams,
        size: int,
        queue: int,
        pool: Pool | None = None,
        asynchronous: bool = True,
        indeterminate: bool = False,
        external: bool = False,
        name: str | None = None,
    ) -> Buffer:
        """A handle onto a new RESERVED allocation (no bytes yet)."""
        if size < 0:
            raise hal_error(StatusCode.INVALID_ARGUMENT, f"allocation size {size} is negative")
        if pool is not None and pool.device is not self.device:
            raise hal_error(
                StatusCode.INVALID_ARGUMENT,
                f"pool '{pool.name}' belongs to '{pool.device.name}', not '{self.device.name}'",
            )
        choice = self.choose_memory(params, pool)
        if choice is None:
            raise hal_error(
                StatusCode.INVALID_ARGUMENT,
                f"device '{self.device.name}' has no memory of type "
                f"{format_flags(params.required_type())}",
            )
        space, edge = choice
        runtime = self.device.runtime
        affinity = 1 << queue
        allocation = Allocation(
            runtime.next_id("allocation"),
            size,
            space,
            Placement(self.device, affinity, asynchronous, indeterminate),
            edge.types,
            external=external,
        )
        return Buffer(
            allocation,
            0,
            size,
            edge.types,
            params.usage or DEFAULT_USAGE,
            params.access or ALL_ACCESS,
            Residency(self.device, affinity),
            name or f"{self.device.name}.buffer{allocation.id}",
        )

    def commit(
        self, allocation: Allocation, data: Bytes | None = None, overwritten: bool = False
    ) -> None:
        """Back `allocation` with bytes, checking the memory space's capacity (see
        `Allocation.commit` for `overwritten`)."""
        runtime = self.device.runtime
        capacity = runtime.topology.memory_spaces[allocation.memory_space].capacity
        memory = runtime.stats.memory.get(allocation.memory_space)
        resident = memory.resident_bytes if memory is not None else 0
        if capacity is not None and resident + allocation.size > capacity:
            raise hal_error(
                StatusCode.RESOURCE_EXHAUSTED,
                f"memory '{allocation.memory_space}' is full: {resident} of {capacity} B used, "
                f"{allocation.size} B requested",
            )
        allocation.commit(data, overwritten)
        runtime.stats.allocated(
            allocation.placement.device.name, allocation.memory_space, allocation.size
        )

    def free(self, allocation: Allocation) -> None:
        """Drop the bytes of a committed allocation (external memory is never freed)."""
        if allocation.external or allocation.state is not AllocationState.COMMITTED:
            return
        allocation.free()
        self.device.runtime.stats.freed(
            allocation.placement.device.name, allocation.memory_space, allocation.size
        )

    def allocate(
        self,
        params: BufferParams,
        size: int,
        data: bytes | Bytes | None = None,
        name: str | None = None,
    ) -> Buffer:
        """A synchronous allocation, committed (and optionally filled) at once. Its placement
        is not asynchronous: a queue dealloca of it is a barrier; `Runtime.discard` of the last
        owner frees it."""
        buffer = self.new_allocation(params, size, 0, asynchronous=False, name=name)
        self.commit(buffer.allocation)
        buffer.ready = True
        if data is not None:
            buffer.write(np.frombuffer(data, dtype=np.uint8) if isinstance(data, bytes) else data)
        return buffer

    def import_buffer(
        self,
        data: Bytes,
        params: BufferParams = DEFAULT_PARAMS,
        memory_space: str | None = None,
        name: str | None = None,
    ) -> Buffer:
        """Wrap caller-owned bytes (shared, not copied) as an external buffer. The runtime never
        frees it; a dealloca of it is a barrier and moves of it copy."""
        if data.dtype != np.uint8 or data.ndim != 1:
            raise hal_error(StatusCode.INVALID_ARGUMENT, "import needs a 1-D uint8 array")
        pool = Pool(self.device, memory_space) if memory_space is not None else None
        buffer = self.new_allocation(
            params, len(data), 0, pool=pool, asynchronous=False, external=True, name=name
        )
        buffer.allocation.commit(data)
        buffer.ready = True
        return buffer

    def try_import_host(
        self, data: Bytes, params: BufferParams, name: str | None = None
    ) -> Buffer | None:
        """Use host bytes (shared, not copied) as a buffer of this device, as
        `iree_hal_allocator_import_buffer` does with a host allocation; None when the device
        cannot use host memory with the memory type `params` asks for (host memory is not
        device local to a discrete device). The buffer is external: the runtime never frees
        it."""
        topology = self.device.runtime.topology
        if HOST_MEMORY not in topology.memory_spaces:
            return None
        edge = topology.edge(self.device.name, HOST_MEMORY)
        if edge.mode not in (AccessMode.NATIVE, AccessMode.IMPORT):
            return None
        if params.required_type() & ~edge.types:
            return None
        if data.dtype != np.uint8 or data.ndim != 1:
            raise hal_error(StatusCode.INVALID_ARGUMENT, "import needs a 1-D uint8 array")
        runtime = self.device.runtime
        allocation = Allocation(
            runtime.next_id("allocation"),
            len(data),
            HOST_MEMORY,
            Placement(self.device, 1, False, False),
            edge.types,
            external=True,
        )
        allocation.commit(data)
        buffer = Buffer(
            allocation,
            0,
            len(data),
            edge.types,
            params.usage or DEFAULT_USAGE,
            params.access or ALL_ACCESS,
            Residency(self.device, 1),
            name or f"{self.device.name}.import{allocation.id}",
        )
        buffer.ready = True
        return buffer


class Device:
    """A device of the runtime: queues, an allocator, and the HAL queue operations."""

    def __init__(self, runtime: Runtime, spec: DeviceSpec) -> None:
        self.runtime = runtime
        self.spec = spec
        self.allocator = Allocator(self)

    def __repr__(self) -> str:
        return f"Device({self.name}, {self.kind}, {self.queue_count} queues)"

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def kind(self) -> str:
        return self.spec.kind

    @property
    def queue_count(self) -> int:
        return self.spec.queue_count

    @property
    def queue_mask(self) -> int:
        return (1 << self.queue_count) - 1

    def select_queue(self, affinity: int) -> int:
        """The queue an op with `affinity` runs on: the lowest allowed queue (0 means any)."""
        mask = (affinity or QUEUE_AFFINITY_ANY) & self.queue_mask
        if mask == 0:
            raise hal_error(
                StatusCode.INVALID_ARGUMENT,
                f"affinity {affinity:#x} names no queue of '{self.name}' "
                f"({self.queue_count} queues)",
            )
        return (mask & -mask).bit_length() - 1

    def flush(self) -> None:
        """Run all work that can run (the HAL's flush is a hint; here it drains)."""
        self.runtime.drain()

    def drain(self) -> None:
        """Run all work that can run, on every device (ops may wait across devices)."""
        self.runtime.drain()

    # ---------------------------------------------------------------------------------------
    # Enqueueing

    def enqueue_op(
        self,
        kind: str,
        affinity: int,
        wait: WaitList,
        signal: WaitList,
        action: Callable[[], int],
        uses: Sequence[BufferUse] = (),
        location: object | None = None,
        *,
        queue: int | None = None,
        move_id: int | None = None,
        args: dict[str, Any] | None = None,
        counted: bool = True,
    ) -> QueueOp:
        """Put an op on one of this device's queues. `counted` ops show in the per-kind
        statistics (a move's parts do not: the move counts once)."""
        wait_points = timepoints_of(wait)
        signal_points = timepoints_of(signal)
        for timepoint in (*wait_points, *signal_points):
            if timepoint.semaphore.runtime is not self.runtime:
                raise hal_error(
                    StatusCode.INVALID_ARGUMENT,
                    f"semaphore {timepoint.semaphore.name} belongs to another runtime",
                    location,
                )
        op = QueueOp(
            id=self.runtime.next_id("op"),
            kind=kind,
            device=self,
            queue=self.select_queue(affinity) if queue is None else queue,
            wait=wait_points,
            signal=signal_points,
            action=action,
            uses=tuple(uses),
            location=location,
            move_id=move_id,
            args=dict(args or {}),
        )
        if counted:
            self.runtime.stats.device(self.name).ops[kind] += 1
        self.runtime.scheduler.enqueue(op)
        return op

    def enqueue_commands(
        self,
        kind: str,
        affinity: int,
        wait: WaitList,
        signal: WaitList,
        commands: Sequence[Command],
        location: object | None = None,
        args: dict[str, Any] | None = None,
    ) -> QueueOp:
        """Validate `commands` now and enqueue an op that runs them in order."""
        for command in commands:
            for use in command.uses():
                use.buffer.check_enqueue(use.use, location)
        for command in commands:
            command.validate()
        stats = self.runtime.stats.device(self.name)

        def action() -> int:
            return sum(command.run(stats) for command in commands)

        uses = [use for command in commands for use in command.uses()]
        return self.enqueue_op(kind, affinity, wait, signal, action, uses, location, args=args)

    # ---------------------------------------------------------------------------------------
    # Queue operations

    def queue_alloca(
        self,
        affinity: int,
        wait: WaitList,
        signal: WaitList,
        pool: Pool | None,
        params: BufferParams,
        size: int,
        flags: AllocaFlags = AllocaFlags.NONE,
        *,
        name: str | None = None,
        location: object | None = None,
    ) -> Buffer:
        """Allocate `size` bytes once `wait` is reached. The handle is returned now (metadata
        valid); its bytes exist after `signal`."""
        queue = self.select_queue(affinity)
        buffer = self.allocator.new_allocation(
            params,
            size,
            queue,
            pool,
            indeterminate=bool(flags & AllocaFlags.INDETERMINATE_LIFETIME),
            name=name,
        )

        def action() -> int:
            self.allocator.commit(buffer.allocation)
            buffer.ready = True
            return 0

        self.enqueue_op(
            "alloca",
            affinity,
            wait,
            signal,
            action,
            location=location,
            queue=queue,
            args={"buffer": buffer.name, "size": size, "memory": buffer.allocation.memory_space},
        )
        return buffer

    def queue_dealloca(
        self,
        affinity: int,
        wait: WaitList,
        signal: WaitList,
        buffer: Buffer,
        flags: DeallocaFlags = DeallocaFlags.NONE,
        *,
        location: object | None = None,
        move_id: int | None = None,
    ) -> QueueOp:
        """Free `buffer`'s allocation once `wait` is reached.

        PREFER_ORIGIN runs it on the allocation's placement device and queue. Buffers that were
        not queue-allocated, have indeterminate lifetime or are external get a barrier instead.
        A second dealloca of one allocation is rejected. A failed wait frees nothing and leaves
        the buffer as it was, so it can be deallocated again.
        """
        buffer.check_not_moved("deallocated", location)
        allocation = buffer.allocation
        if allocation.state is AllocationState.FREED:
            raise hal_error(
                StatusCode.FAILED_PRECONDITION,
                f"dealloca of '{buffer.name}': its allocation was already freed",
                location,
            )
        placement = allocation.placement
        device: Device = self
        queue: int | None = None
        if flags & DeallocaFlags.PREFER_ORIGIN:
            device = placement.device
            queue = device.select_queue(placement.queue_affinity)
        elif placement.device is not self:
            self.runtime.stats.device(self.name).deallocas_off_origin += 1
        counted = move_id is None
        args = {"buffer": buffer.name, "size": allocation.size}
        if not placement.asynchronous or placement.indeterminate_lifetime or allocation.external:
            return device.enqueue_op(
                "dealloca", affinity, wait, signal, lambda: 0, location=location, queue=queue,
                move_id=move_id, args={**args, "barrier": True}, counted=counted,
            )  # fmt: skip
        if allocation.dealloca_enqueued:
            raise hal_error(
                StatusCode.FAILED_PRECONDITION,
                f"'{buffer.name}' is already queued for deallocation",
                location,
            )
        allocation.dealloca_enqueued = True

        def action() -> int:
            device.allocator.free(allocation)
            return 0

        def not_freed() -> None:
            # The buffer was not freed: it may be deallocated (or moved) again.
            allocation.dealloca_enqueued = False

        kind = "dealloca" if move_id is None else "move.dealloca"
        op = device.enqueue_op(
            kind, affinity, wait, signal, action, [BufferUse(buffer, "deallocated")],
            location, queue=queue, move_id=move_id, args=args, counted=counted,
        )  # fmt: skip
        op.on_failure = not_freed
        return op

    def queue_fill(
        self,
        affinity: int,
        wait: WaitList,
        signal: WaitList,
        target: Buffer,
        offset: int,
        length: int,
        pattern: int | bytes,
        pattern_length: int,
        *,
        location: object | None = None,
    ) -> QueueOp:
        """Fill `[offset, offset + length)` of `target` with a 1, 2 or 4 byte pattern."""
        command = FillCommand(target, offset, length, pattern_bytes(pattern, pattern_length))
        return self.enqueue_commands(
            "fill", affinity, wait, signal, [command], location,
            args={"target": target.name, "bytes": length},
        )  # fmt: skip

    def queue_update(
        self,
        affinity: int,
        wait: WaitList,
        signal: WaitList,
        source: bytes | Bytes,
        source_offset: int,
        target: Buffer,
        target_offset: int,
        length: int,
        *,
        location: object | None = None,
    ) -> QueueOp:
        """Write host bytes into `target`. The bytes are captured now, so the caller may
        reuse `source` before the op runs."""
        data = bytes(source[source_offset : source_offset + length])
        if len(data) != length:
            raise hal_error(
                StatusCode.OUT_OF_RANGE,
                f"update source has {len(source)} B, needs {source_offset + length}",
                location,
            )
        command = UpdateCommand(data, target, target_offset)
        return self.enqueue_commands(
            "update", affinity, wait, signal, [command], location,
            args={"target": target.name, "bytes": length},
        )  # fmt: skip

    def queue_read(
        self,
        affinity: int,
        wait: WaitList,
        signal: WaitList,
        source: bytes | Bytes,
        source_offset: int,
        target: Buffer,
        target_offset: int,
        length: int,
        *,
        location: object | None = None,
    ) -> QueueOp:
        """Read `length` bytes of a file (here: the host bytes backing it) into `target`.
        Files are read-only, so the bytes are taken now."""
        data = bytes(source[source_offset : source_offset + length])
        if len(data) != length:
            raise hal_error(
                StatusCode.OUT_OF_RANGE,
                f"read source has {len(source)} B, needs {source_offset + length}",
                location,
            )
        command = UpdateCommand(data, target, target_offset)
        return self.enqueue_commands(
            "read", affinity, wait, signal, [command], location,
            args={"target": target.name, "bytes": length},
        )  # fmt: skip

    def queue_copy(
        self,
        affinity: int,
        wait: WaitList,
        signal: WaitList,
        source: Buffer,
        source_offset: int,
        target: Buffer,
        target_offset: int,
        length: int,
        *,
        location: object | None = None,
    ) -> QueueOp:
        """Copy `length` bytes (memcpy semantics: overlap within one allocation is rejected)."""
        command = CopyCommand(source, source_offset, target, target_offset, length)
        return self.enqueue_commands(
            "copy", affinity, wait, signal, [command], location,
            args={"source": source.name, "target": target.name, "bytes": length},
        )  # fmt: skip

    def queue_dispatch(
        self,
        affinity: int,
        wait: WaitList,
        signal: WaitList,
        kernel: Kernel,
        bindings: Sequence[DispatchBinding],
        constants: Sequence[int] = (),
        *,
        location: object | None = None,
    ) -> QueueOp:
        """Run `kernel` over `bindings` with push `constants`."""
        command = DispatchCommand(kernel, tuple(constants), tuple(bindings))
        return self.enqueue_commands(
            "dispatch", affinity, wait, signal, [command], location,
            args={"kernel": kernel.name},
        )  # fmt: skip

    def queue_execute(
        self,
        affinity: int,
        wait: WaitList,
        signal: WaitList,
        command_buffer: CommandBuffer | None,
        binding_table: Sequence[BindingTableEntry] = (),
        *,
        location: object | None = None,
    ) -> QueueOp:
        """Run a command buffer (None: a barrier), with binding slots resolved from
        `binding_table` now."""
        if command_buffer is None:
            return self.queue_barrier(affinity, wait, signal, location=location)
        commands = [command.resolve(binding_table) for command in command_buffer.commands]
        return self.enqueue_commands(
            "execute", affinity, wait, signal, commands, location,
            args={"command_buffer": command_buffer.name, "commands": len(commands)},
        )  # fmt: skip

    def queue_barrier(
        self,
        affinity: int,
        wait: WaitList,
        signal: WaitList,
        *,
        location: object | None = None,
    ) -> QueueOp:
        """Signal `signal` once `wait` is reached (an execute without a command buffer)."""
        return self.enqueue_op("barrier", affinity, wait, signal, lambda: 0, location=location)

    # ---------------------------------------------------------------------------------------
    # Moves

    def query_buffer_move(
        self,
        source: Buffer,
        offset: int = 0,
        length: int | None = None,
        params: BufferParams = DEFAULT_PARAMS,
        flags: MoveFlags = MoveFlags.NONE,
        *,
        location: object | None = None,
    ) -> MoveInfo:
        """How a move of `source[offset:offset + length]` to this device would be done: the
        mode, the reasons it cannot alias, and the params the result would have. Pure: no
        state changes. Raises HalError for an invalid move (use after move, freed source, bad
        range)."""
        # Not at the top: move needs this module's package, whose __init__ imports this module.
        from streamopt.runtime.move import query_move

        return query_move(self, source, offset, length, params, flags, location)

    def queue_move(
        self,
        affinity: int,
        wait: WaitList,
        signal: WaitList,
        source: Buffer,
        offset: int = 0,
        length: int | None = None,
        pool: Pool | None = None,
        params: BufferParams = DEFAULT_PARAMS,
        flags: MoveFlags = MoveFlags.NONE,
        *,
        name: str | None = None,
        location: object | None = None,
    ) -> MoveResult:
        """Move `source[offset:offset + length]` to this device (see `streamopt.runtime.move`).

        Returns the result handle at once (bytes valid after `signal`) and the mode decided
        now. Consumes `source` (any later use raises UseAfterMoveError) unless KEEP_SOURCE.
        """
        # Not at the top: move needs this module's package, whose __init__ imports this module.
        from streamopt.runtime.move import enqueue_move

        return enqueue_move(
            self, affinity, wait, signal, source, offset, length, pool, params, flags,
            name=name, location=location,
        )  # fmt: skip
