"""Transfer and dispatch commands, and command buffers that record them.

Queue fill/update/copy/dispatch each run one command (as IREE's queue emulation turns them into a
one-shot command buffer); `queue_execute` runs a recorded `CommandBuffer` in order. A command
may name a buffer directly or a `BindingSlot` of the binding table given to `queue_execute`
(IREE's indirect bindings); `resolve` replaces slots with the table's buffers at enqueue.

Each command validates synchronously (`validate`: ranges, usage, access, pattern sizes, copy
overlap) and lists the handles it touches (`uses`) so the scheduler can check them right before
running; `run` touches the bytes and returns how many it touched.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from streamopt.runtime.buffers import Buffer, Bytes
from streamopt.runtime.kernels import Kernel
from streamopt.runtime.params import BufferUsage, MemoryAccess, format_flags
from streamopt.runtime.queue import BufferUse
from streamopt.runtime.stats import DeviceStats
from streamopt.runtime.status import StatusCode, hal_error


@dataclass(frozen=True)
class BindingSlot:
    """Slot `index` of the binding table passed to `queue_execute`."""

    index: int


@dataclass(frozen=True)
class BindingTableEntry:
    """A binding table entry: a buffer range that slot references resolve to."""

    buffer: Buffer
    offset: int = 0
    length: int | None = None


BufferArg = Buffer | BindingSlot


def _resolve(arg: BufferArg, offset: int, table: Sequence[BindingTableEntry]) -> tuple[Buffer, int]:
    if isinstance(arg, Buffer):
        return arg, offset
    if not 0 <= arg.index < len(table):
        raise hal_error(
            StatusCode.OUT_OF_RANGE,
            f"binding slot {arg.index} outside the binding table ({len(table)} entries)",
        )
    entry = table[arg.index]
    return entry.buffer, entry.offset + offset


def _buffer(arg: BufferArg) -> Buffer:
    if not isinstance(arg, Buffer):
        raise hal_error(
            StatusCode.INVALID_ARGUMENT, f"binding slot {arg.index} used without a binding table"
        )
    return arg


def _require_usage(buffer: Buffer, needed: BufferUsage, what: str) -> None:
    if not buffer.usage & needed:
        raise hal_error(
            StatusCode.INVALID_ARGUMENT,
            f"{what}: buffer '{buffer.name}' has usage {format_flags(buffer.usage)}, "
            f"needs {format_flags(needed)}",
        )


def _require_access(buffer: Buffer, needed: MemoryAccess, what: str) -> None:
    if needed & ~buffer.access & (MemoryAccess.READ | MemoryAccess.WRITE):
        raise hal_error(
            StatusCode.INVALID_ARGUMENT,
            f"{what}: buffer '{buffer.name}' allows {format_flags(buffer.access)}, "
            f"needs {format_flags(needed)}",
        )


class Command(ABC):
    """One recorded operation."""

    kind: str

    @abstractmethod
    def resolve(self, table: Sequence[BindingTableEntry]) -> Command:
        """This command with binding slots replaced by table entries."""

    @abstractmethod
    def validate(self) -> None:
        """Raise HalError if the command can never run (checked at enqueue)."""

    @abstractmethod
    def uses(self) -> list[BufferUse]:
        """The handles the command touches."""

    @abstractmethod
    def run(self, stats: DeviceStats, by_move: bool = False) -> int:
        """Touch the bytes; count them in `stats`; return how many were touched."""


@dataclass(frozen=True)
class FillCommand(Command):
    """Fill `[offset, offset + length)` of `target` with a 1, 2 or 4 byte pattern."""

    target: BufferArg
    offset: int
    length: int
    pattern: bytes
    kind = "fill"

    def resolve(self, table: Sequence[BindingTableEntry]) -> Command:
        target, offset = _resolve(self.target, self.offset, table)
        return replace(self, target=target, offset=offset)

    def validate(self) -> None:
        target = _buffer(self.target)
        if len(self.pattern) not in (1, 2, 4):
            raise hal_error(
                StatusCode.INVALID_ARGUMENT,
                f"fill pattern must be 1, 2 or 4 bytes, got {len(self.pattern)}",
            )
        size = len(self.pattern)
        if self.offset % size or self.length % size:
            raise hal_error(
                StatusCode.INVALID_ARGUMENT,
                f"fill offset {self.offset} and length {self.length} must be multiples of "
                f"the {size}-byte pattern",
            )
        target.check_range(self.offset, self.length, "fill")
        _require_usage(target, BufferUsage.TRANSFER_TARGET, "fill")
        _require_access(target, MemoryAccess.WRITE, "fill")

    def uses(self) -> list[BufferUse]:
        return [BufferUse(_buffer(self.target), "written by fill")]

    def run(self, stats: DeviceStats, by_move: bool = False) -> int:
        view = _buffer(self.target).view(self.offset, self.length)
        pattern = np.frombuffer(self.pattern, dtype=np.uint8)
        view.reshape(-1, len(pattern))[:] = pattern
        stats.bytes_filled += self.length
        return self.length


@dataclass(frozen=True)
class UpdateCommand(Command):
    """Write host bytes (captured when the command was made) into `target`."""

    data: bytes
    target: BufferArg
    offset: int
    kind = "update"

    def resolve(self, table: Sequence[BindingTableEntry]) -> Command:
        target, offset = _resolve(self.target, self.offset, table)
        return replace(self, target=target, offset=offset)

    def validate(self) -> None:
        target = _buffer(self.target)
        target.check_range(self.offset, len(self.data), "update")
        _require_usage(target, BufferUsage.TRANSFER_TARGET, "update")
        _require_access(target, MemoryAccess.WRITE, "update")

    def uses(self) -> list[BufferUse]:
        return [BufferUse(_buffer(self.target), "written by update")]

    def run(self, stats: DeviceStats, by_move: bool = False) -> int:
        view = _buffer(self.target).view(self.offset, len(self.data))
        view[:] = np.frombuffer(self.data, dtype=np.uint8)
        stats.bytes_updated += len(self.data)
        return len(self.data)


@dataclass(frozen=True)
class CopyCommand(Command):
    """memcpy from `source` to `target` (overlapping ranges of one allocation are rejected)."""

    source: BufferArg
    source_offset: int
    target: BufferArg
    target_offset: int
    length: int
    kind = "copy"

    def resolve(self, table: Sequence[BindingTableEntry]) -> Command:
        source, source_offset = _resolve(self.source, self.source_offset, table)
        target, target_offset = _resolve(self.target, self.target_offset, table)
        return replace(
            self, source=source, source_offset=source_offset, target=target,
            target_offset=target_offset,
        )  # fmt: skip

    def validate(self) -> None:
        source, target = _buffer(self.source), _buffer(self.target)
        source.check_range(self.source_offset, self.length, "copy source")
        target.check_range(self.target_offset, self.length, "copy target")
        _require_usage(source, BufferUsage.TRANSFER_SOURCE, "copy")
        _require_usage(target, BufferUsage.TRANSFER_TARGET, "copy")
        _require_access(source, MemoryAccess.READ, "copy")
        _require_access(target, MemoryAccess.WRITE, "copy")
        if source.allocation is target.allocation:
            begin = source.offset + self.source_offset
            other = target.offset + self.target_offset
            if begin < other + self.length and other < begin + self.length:
                raise hal_error(
                    StatusCode.INVALID_ARGUMENT,
                    f"copy ranges overlap in allocation #{source.allocation.id}",
                )

    def uses(self) -> list[BufferUse]:
        return [
            BufferUse(_buffer(self.source), "read by copy"),
            BufferUse(_buffer(self.target), "written by copy"),
        ]

    def run(self, stats: DeviceStats, by_move: bool = False) -> int:
        source = _buffer(self.source).view(self.source_offset, self.length)
        target = _buffer(self.target).view(self.target_offset, self.length)
        np.copyto(target, source)
        if by_move:
            stats.bytes_copied_by_moves += self.length
        else:
            stats.bytes_copied_other += self.length
        return self.length


@dataclass(frozen=True)
class DispatchBinding:
    """A dispatch binding: a buffer range and how the kernel accesses it."""

    buffer: BufferArg
    offset: int
    length: int
    access: MemoryAccess = MemoryAccess.READ | MemoryAccess.WRITE


@dataclass(frozen=True)
class DispatchCommand(Command):
    """Run `kernel` over the binding views with push constants."""

    kernel: Kernel
    constants: tuple[int, ...]
    bindings: tuple[DispatchBinding, ...]
    kind = "dispatch"

    def resolve(self, table: Sequence[BindingTableEntry]) -> Command:
        bindings = []
        for binding in self.bindings:
            buffer, offset = _resolve(binding.buffer, binding.offset, table)
            bindings.append(replace(binding, buffer=buffer, offset=offset))
        return replace(self, bindings=tuple(bindings))

    def validate(self) -> None:
        for index, binding in enumerate(self.bindings):
            buffer = _buffer(binding.buffer)
            what = f"dispatch {self.kernel.name} binding {index}"
            buffer.check_range(binding.offset, binding.length, what)
            if binding.access & MemoryAccess.READ:
                _require_usage(
                    buffer,
                    BufferUsage.DISPATCH_STORAGE_READ
                    | BufferUsage.DISPATCH_UNIFORM_READ
                    | BufferUsage.DISPATCH_IMAGE_READ,
                    what,
                )
            if binding.access & MemoryAccess.WRITE:
                _require_usage(
                    buffer,
                    BufferUsage.DISPATCH_STORAGE_WRITE | BufferUsage.DISPATCH_IMAGE_WRITE,
                    what,
                )
            _require_access(buffer, binding.access, what)

    def uses(self) -> list[BufferUse]:
        uses = []
        for index, binding in enumerate(self.bindings):
            how = "written" if binding.access & MemoryAccess.WRITE else "read"
            uses.append(
                BufferUse(
                    _buffer(binding.buffer),
                    f"{how} by dispatch {self.kernel.name} (binding {index})",
                )
            )
        return uses

    def run(self, stats: DeviceStats, by_move: bool = False) -> int:
        views: list[Bytes] = [_buffer(b.buffer).view(b.offset, b.length) for b in self.bindings]
        accesses = [b.access for b in self.bindings]
        self.kernel(views, accesses, self.constants)
        return sum(b.length for b in self.bindings)


class CommandBuffer:
    """A recorded list of commands, run in order by `queue_execute`."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self.commands: list[Command] = []

    def fill(
        self, target: BufferArg, offset: int, length: int, pattern: int | bytes, pattern_length: int
    ) -> None:
        self.commands.append(
            FillCommand(target, offset, length, pattern_bytes(pattern, pattern_length))
        )

    def update(self, data: bytes | Bytes, target: BufferArg, offset: int) -> None:
        self.commands.append(UpdateCommand(bytes(data), target, offset))

    def copy(
        self,
        source: BufferArg,
        source_offset: int,
        target: BufferArg,
        target_offset: int,
        length: int,
    ) -> None:
        self.commands.append(CopyCommand(source, source_offset, target, target_offset, length))

    def dispatch(
        self,
        kernel: Kernel,
        bindings: Sequence[DispatchBinding],
        constants: Sequence[int] = (),
    ) -> None:
        self.commands.append(DispatchCommand(kernel, tuple(constants), tuple(bindings)))


def pattern_bytes(pattern: int | bytes, pattern_length: int) -> bytes:
    """A fill pattern as little-endian bytes of `pattern_length` (1, 2 or 4)."""
    if isinstance(pattern, bytes):
        if len(pattern) != pattern_length:
            raise hal_error(
                StatusCode.INVALID_ARGUMENT,
                f"fill pattern has {len(pattern)} bytes, pattern_length is {pattern_length}",
            )
        return pattern
    if pattern_length not in (1, 2, 4):
        raise hal_error(
            StatusCode.INVALID_ARGUMENT, f"fill pattern_length must be 1, 2 or 4: {pattern_length}"
        )
    return (pattern & ((1 << (8 * pattern_length)) - 1)).to_bytes(pattern_length, "little")
