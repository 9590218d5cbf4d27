"""Allocations and buffer handles.

An `Allocation` is a root: real bytes (a numpy uint8 array once committed), the memory space
they live in, a *placement* (origin device and queue: where its dealloca goes), logical owners,
and whether it is external (imported; never freed by the runtime). A `Buffer` is a handle onto a
range of an allocation with its own memory type, usage, access and *residency* (the device and
queue it is usable on now). A fresh alloca's handle has residency == placement; a move that
aliases returns a new handle over the same root with the target's residency.

Lifecycle of an allocation: RESERVED (alloca enqueued: metadata valid, no bytes) -> COMMITTED
(alloca executed) -> FREED (dealloca executed). Handles are *ready* once the op producing them
has executed (alloca commit or move completion). A handle consumed by a move is *poisoned*:
any later use raises `UseAfterMoveError`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from streamopt.runtime.params import BufferUsage, MemoryAccess, MemoryType, format_flags
from streamopt.runtime.status import MoveRecord, StatusCode, UseAfterMoveError, hal_error

if TYPE_CHECKING:
    from streamopt.runtime.devices import Device

Bytes = npt.NDArray[np.uint8]


class AllocationState(enum.Enum):
    RESERVED = "reserved"
    COMMITTED = "committed"
    FREED = "freed"


@dataclass(frozen=True)
class Placement:
    """Where an allocation came from: its dealloca goes here (`PREFER_ORIGIN`)."""

    device: Device
    queue_affinity: int
    asynchronous: bool = True
    """Allocated by a queue alloca (so a queue dealloca frees it)."""
    indeterminate_lifetime: bool = False
    """Queue dealloca is a barrier; freed when the last owner discards it."""


@dataclass(frozen=True)
class Residency:
    """Where a buffer handle is usable now."""

    device: Device
    queue_affinity: int

    def __repr__(self) -> str:
        return f"{self.device.name}[{self.queue_affinity:#x}]"


class Allocation:
    """A root allocation: bytes, memory space, placement, owners."""

    def __init__(
        self,
        allocation_id: int,
        size: int,
        memory_space: str,
        placement: Placement,
        memory_type: MemoryType,
        external: bool = False,
    ) -> None:
        self.id = allocation_id
        self.size = size
        self.memory_space = memory_space
        self.placement = placement
        self.memory_type = memory_type
        self.external = external
        self.state = AllocationState.RESERVED
        self.data: Bytes | None = None
        self.owners = 1
        """Logical owners (preserve/discard), counted apart from Python references."""
        self.granted: set[str] = set()
        """Devices granted access by ALIAS_AFTER_GRANT moves."""
        self.dealloca_enqueued = False

    def __repr__(self) -> str:
        return f"Allocation(#{self.id}, {self.size} B in {self.memory_space}, {self.state.value})"

    @property
    def is_live(self) -> bool:
        """Committed and not freed: its bytes exist."""
        return self.state is AllocationState.COMMITTED

    def commit(self, data: Bytes | None = None, overwritten: bool = False) -> None:
        """Back the allocation with bytes: `data` if given, else zeros, so runs are
        deterministic even when a program reads memory it never wrote. `overwritten` promises
        every byte is written before anything can read it (a copying move's destination);
        then the memory is left uninitialised, which saves zeroing it (fresh zeroed pages
        fault in one by one and cost more than the copy itself)."""
        if data is None:
            data = (np.empty if overwritten else np.zeros)(self.size, dtype=np.uint8)
        self.data = data
        self.state = AllocationState.COMMITTED

    def free(self) -> None:
        """Drop the bytes; later uses fail with FAILED_PRECONDITION."""
        self.data = None
        self.state = AllocationState.FREED


class Buffer:
    """A handle onto `[offset, offset + length)` of an allocation.

    Metadata (size, type, usage, placement, residency) is valid as soon as the handle exists;
    bytes are accessible once the handle is ready and its allocation committed.
    """

    def __init__(
        self,
        allocation: Allocation,
        offset: int,
        length: int,
        memory_type: MemoryType,
        usage: BufferUsage,
        access: MemoryAccess,
        residency: Residency,
        name: str,
        ready: bool = False,
        parent: Buffer | None = None,
    ) -> None:
        if offset < 0 or length < 0 or offset + length > allocation.size:
            raise hal_error(
                StatusCode.OUT_OF_RANGE,
                f"range [{offset}, {offset + length}) outside allocation of {allocation.size} B",
            )
        self.allocation = allocation
        self.offset = offset
        self.length = length
        self.memory_type = memory_type
        self.usage = usage
        self.access = access
        self.residency = residency
        self.name = name
        self.parent = parent
        """The handle this one is a subspan of: readiness and moves of it apply here too."""
        self._ready = ready
        self.moved: MoveRecord | None = None
        """Set when a move consumed this handle (at enqueue)."""
        self.moved_executed = False
        """Set when that move has executed: later ops touching the handle fail."""

    def __repr__(self) -> str:
        state = "moved" if self.moved else ("ready" if self.ready else "pending")
        return (
            f"Buffer({self.name}: {self.length} B @{self.offset} of #{self.allocation.id}, "
            f"{format_flags(self.memory_type)}, on {self.residency}, {state})"
        )

    @property
    def ready(self) -> bool:
        """True once the op producing the handle (or the handle it is a subspan of) ran."""
        return self.parent.ready if self.parent is not None else self._ready

    @ready.setter
    def ready(self, value: bool) -> None:
        self._ready = value

    def moved_handle(self) -> Buffer | None:
        """This handle, or the nearest handle it is a subspan of, if a move consumed it."""
        handle: Buffer | None = self
        while handle is not None:
            if handle.moved is not None:
                return handle
            handle = handle.parent
        return None

    @property
    def placement(self) -> Placement:
        """The root's placement (a subspan or alias reports its root's)."""
        return self.allocation.placement

    @property
    def is_whole_root(self) -> bool:
        """True if the handle covers its whole allocation."""
        return self.offset == 0 and self.length == self.allocation.size

    @property
    def is_terminal(self) -> bool:
        """True if the caller is the allocation's only logical owner."""
        return self.allocation.owners == 1

    def preserve(self) -> None:
        """Add a logical owner (a later move of any owner must then copy)."""
        self.check_not_moved("preserved")
        self.allocation.owners += 1

    def discard(self) -> bool:
        """Drop a logical owner; returns True if this was the last one."""
        self.check_not_moved("discarded")
        if self.allocation.owners <= 0:
            raise hal_error(
                StatusCode.FAILED_PRECONDITION, f"buffer '{self.name}' has no owner to discard"
            )
        self.allocation.owners -= 1
        return self.allocation.owners == 0

    def subspan(self, offset: int, length: int, name: str | None = None) -> Buffer:
        """A handle onto `[offset, offset + length)` of this handle, with the same metadata."""
        self.check_not_moved("subspanned")
        if offset < 0 or length < 0 or offset + length > self.length:
            raise hal_error(
                StatusCode.OUT_OF_RANGE,
                f"subspan [{offset}, {offset + length}) outside '{self.name}' ({self.length} B)",
            )
        return Buffer(
            self.allocation,
            self.offset + offset,
            length,
            self.memory_type,
            self.usage,
            self.access,
            self.residency,
            name or f"{self.name}[{offset}:{offset + length}]",
            parent=self,
        )

    def check_range(self, offset: int, length: int, what: str) -> None:
        """Raise OUT_OF_RANGE unless `[offset, offset + length)` lies inside the handle."""
        if offset < 0 or length < 0 or offset + length > self.length:
            raise hal_error(
                StatusCode.OUT_OF_RANGE,
                f"{what}: range [{offset}, {offset + length}) outside '{self.name}' "
                f"({self.length} B)",
            )

    def check_not_moved(self, use: str, location: object | None = None) -> None:
        """Raise UseAfterMoveError if a move consumed this handle (or one it views)."""
        handle = self.moved_handle()
        if handle is not None:
            assert handle.moved is not None
            raise UseAfterMoveError(
                handle.name,
                handle.moved,
                f"{use} (as '{self.name}')" if handle is not self else use,
                location,
            )

    def check_enqueue(self, use: str, location: object | None = None) -> None:
        """Raise if an op may not be enqueued on this handle: it was moved away, or its
        allocation is already freed."""
        self.check_not_moved(use, location)
        if self.allocation.state is AllocationState.FREED:
            raise hal_error(
                StatusCode.FAILED_PRECONDITION,
                f"buffer '{self.name}' {use} after its allocation was freed",
                location,
            )

    def check_usable(
        self, use: str, location: object | None = None, move_id: int | None = None
    ) -> None:
        """Raise unless the handle's bytes can be touched now: not moved away by a move that
        already ran (other than move `move_id`, whose own ops may read and free it), produced
        (ready), and its allocation committed and not freed."""
        handle = self.moved_handle()
        if handle is not None and handle.moved_executed:
            assert handle.moved is not None
            if handle.moved.move_id != move_id:
                raise UseAfterMoveError(handle.name, handle.moved, use, location)
        if self.allocation.state is AllocationState.FREED:
            raise hal_error(
                StatusCode.FAILED_PRECONDITION,
                f"buffer '{self.name}' {use} after its allocation was freed",
                location,
            )
        if not self.ready or self.allocation.state is not AllocationState.COMMITTED:
            raise hal_error(
                StatusCode.FAILED_PRECONDITION,
                f"buffer '{self.name}' {use} before the op producing it executed",
                location,
            )

    def view(self, offset: int = 0, length: int | None = None) -> Bytes:
        """The bytes of `[offset, offset + length)` (a numpy view, no copy); the handle must
        be usable."""
        if length is None:
            length = self.length - offset
        self.check_range(offset, length, "view")
        self.check_usable("viewed")
        data = self.allocation.data
        assert data is not None
        start = self.offset + offset
        return data[start : start + length]

    def read(self, offset: int = 0, length: int | None = None) -> bytes:
        """Host read of the handle's bytes (a copy). Raises UseAfterMoveError after a move and
        FAILED_PRECONDITION before the bytes exist or after they were freed."""
        self.check_not_moved("read by the host")
        return self.view(offset, length).tobytes()

    def write(self, data: bytes | Bytes, offset: int = 0) -> None:
        """Host write into the handle (same checks as `read`)."""
        self.check_not_moved("written by the host")
        source = np.frombuffer(data, dtype=np.uint8) if isinstance(data, bytes) else data
        self.view(offset, len(source))[:] = source
