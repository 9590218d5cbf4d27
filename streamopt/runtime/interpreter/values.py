"""What SSA values hold while the interpreter runs.

Scalars (`index`, integers, floats) are Python ints and floats; `!stream.timepoint` and
`!hal.fence` values are runtime `Fence`s (None for `util.null`); `!hal.device` values are
runtime `Device`s and `!hal.buffer` values runtime `Buffer`s. The classes below hold the rest:

- `Storage`: one allocation as the async level sees it, shared by every SSA name of it (tied
  results, casts, subviews). It remembers the queue work that last wrote it and the reads
  since, so an async op can wait on exactly what its operands need, and counts the SSA
  bindings that still name it so the interpreter frees it after its last use.
- `Resource`: a `!stream.resource` value: a buffer handle (possibly a subspan) of a storage.
- `BufferView`, `CommandBufferValue`, `ExecutableRef`: `!hal.buffer_view`,
  `!hal.command_buffer` and `!hal.executable` values.

Element types: `ElementType` gives the numpy dtype, byte width and IREE's element type code of
a builtin type, for inputs, constants, buffer views and printing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from streamopt.ir.types import split_shaped_type
from streamopt.runtime.buffers import Buffer
from streamopt.runtime.semaphores import Fence, Timepoint

if TYPE_CHECKING:
    from streamopt.runtime.commands import CommandBuffer
    from streamopt.runtime.devices import Device


class Storage:
    """An allocation as async ops see it: its root handle, pending work and SSA references."""

    __slots__ = ("auto_free", "buffer", "freed", "last_write", "name", "reads", "refs")

    def __init__(self, buffer: Buffer, name: str, auto_free: bool) -> None:
        self.buffer = buffer
        self.name = name
        self.auto_free = auto_free
        """Freed by the interpreter once no SSA binding names it (async-level results);
        False for imports, explicit allocations and anything a global or view holds."""
        self.refs = 0
        self.last_write: list[Timepoint] = []
        """Timepoints of the last queue op that wrote the storage (or made it)."""
        self.reads: list[Timepoint] = []
        """Timepoints of the queue ops that read it since that write."""
        self.freed = False

    def __repr__(self) -> str:
        return f"Storage({self.name}, refs={self.refs})"

    def read_dependencies(self) -> list[Timepoint]:
        """What a reader must wait for: the last write."""
        return list(self.last_write)

    def write_dependencies(self) -> list[Timepoint]:
        """What a writer (or a free, or a move) must wait for: the last write and every read
        since."""
        return [*self.last_write, *self.reads]

    def note_read(self, signal: Fence) -> None:
        # Reads that already completed order nothing: drop them so loops that read one value
        # many times do not grow the wait lists without bound.
        self.reads = [t for t in self.reads if not t.semaphore.is_reached(t.value)]
        self.reads.extend(signal.timepoints)

    def note_write(self, signal: Fence) -> None:
        self.last_write = list(signal.timepoints)
        self.reads = []


@dataclass(eq=False)
class Resource:
    """A `!stream.resource` value: `buffer` (a handle of `storage`, maybe a subspan)."""

    storage: Storage
    buffer: Buffer
    lifetime: str = "*"

    @property
    def size(self) -> int:
        return self.buffer.length

    def view(self, buffer: Buffer | None = None, lifetime: str | None = None) -> Resource:
        """Another name of the same storage (a tied result, cast or subview)."""
        return Resource(
            self.storage,
            buffer if buffer is not None else self.buffer,
            lifetime if lifetime is not None else self.lifetime,
        )

    def __repr__(self) -> str:
        return f"Resource({self.buffer.name}, {self.size} B, {self.lifetime})"


@dataclass(eq=False)
class BufferView:
    """A `!hal.buffer_view`: a buffer range seen as a tensor."""

    buffer: Buffer
    shape: tuple[int, ...]
    element_type: int
    """IREE's element type code (see `ElementType.code`)."""
    encoding: int = 1
    resource: Resource | None = None
    """The resource an export made the view of (keeps it alive)."""

    def __repr__(self) -> str:
        dims = "x".join(str(d) for d in self.shape)
        return f"BufferView({dims}, {self.element_type:#x}, {self.buffer.name})"


@dataclass(eq=False)
class CommandBufferValue:
    """A `!hal.command_buffer` being recorded for `device`."""

    command_buffer: CommandBuffer
    device: Device
    queue_affinity: int


@dataclass(frozen=True)
class ExecutableRef:
    """A `!hal.executable` value: the executable symbol it was looked up by."""

    symbol: str


@dataclass(frozen=True)
class ExportOrdinal:
    """An export ordinal (`hal.executable.export.ordinal`): an index that remembers which
    entry point it names, so a dispatch can name its kernel."""

    executable: str
    export: str
    ordinal: int = 0

    def __index__(self) -> int:
        return self.ordinal

    def __int__(self) -> int:
        return self.ordinal


@dataclass
class HostBuffer:
    """A `!util.buffer`: host bytes."""

    data: bytearray = field(default_factory=bytearray)


@dataclass(frozen=True)
class HostFile:
    """A `!hal.file` made from host memory (`hal.ex.file.from_memory`): a byte range of a
    host buffer, read by `hal.device.queue.read`."""

    source: HostBuffer
    offset: int
    length: int

    def read(self, offset: int, length: int) -> bytes:
        """`length` bytes from `offset` in the file (fewer past its end)."""
        end = min(offset + length, self.length)
        return bytes(self.source.data[self.offset + offset : self.offset + end])


# -------------------------------------------------------------------------------------------
# Element types

# IREE's numerical type bytes (iree_hal_numerical_type_t).
_INTEGER = 0x10
_INTEGER_SIGNED = 0x11
_INTEGER_UNSIGNED = 0x12
_BOOLEAN = 0x13
_FLOAT_IEEE = 0x21
_FLOAT_BRAIN = 0x22
_FLOAT_COMPLEX = 0x23


@dataclass(frozen=True)
class ElementType:
    """A builtin element type: its spelling, numpy dtype (raw unsigned bytes when numpy has
    none, e.g. bf16), width in bits, storage bytes and IREE's element type code."""

    name: str
    dtype: np.dtype
    bits: int
    code: int
    is_float: bool = False

    @property
    def byte_width(self) -> int:
        """Bytes per element in storage (sub-byte types take a whole byte, as IREE stores
        them unpacked by default)."""
        return max(1, (self.bits + 7) // 8)


def element_type(name: str) -> ElementType:
    """The element type spelled `name` (`f32`, `i8`, `index`, `ui16`, `bf16`, `i1`, ...).

    Raises ValueError for anything else.
    """
    name = name.strip()
    if name == "index":
        return ElementType(name, np.dtype(np.int64), 64, (_INTEGER << 24) | 64)
    if name == "i1":
        return ElementType(name, np.dtype(np.bool_), 1, (_BOOLEAN << 24) | 8)
    for prefix, numerical, kind in (
        ("si", _INTEGER_SIGNED, "i"),
        ("ui", _INTEGER_UNSIGNED, "u"),
        ("i", _INTEGER, "i"),
    ):
        if name.startswith(prefix) and name[len(prefix) :].isdigit():
            bits = int(name[len(prefix) :])
            if bits not in (8, 16, 32, 64):
                raise ValueError(f"unsupported integer element type '{name}'")
            return ElementType(name, np.dtype(f"{kind}{bits // 8}"), bits, (numerical << 24) | bits)
    floats: dict[str, tuple[np.dtype[Any], int, int]] = {
        "f16": (np.dtype(np.float16), 16, _FLOAT_IEEE),
        "f32": (np.dtype(np.float32), 32, _FLOAT_IEEE),
        "f64": (np.dtype(np.float64), 64, _FLOAT_IEEE),
        "bf16": (np.dtype(np.uint16), 16, _FLOAT_BRAIN),
    }
    if name in floats:
        dtype, bits, numerical = floats[name]
        return ElementType(name, dtype, bits, (numerical << 24) | bits, is_float=True)
    if name == "complex<f32>":
        return ElementType(name, np.dtype(np.complex64), 64, (_FLOAT_COMPLEX << 24) | 64, True)
    if name == "complex<f64>":
        return ElementType(name, np.dtype(np.complex128), 128, (_FLOAT_COMPLEX << 24) | 128, True)
    if name.startswith("f8"):
        return ElementType(name, np.dtype(np.uint8), 8, (_FLOAT_IEEE << 24) | 8, is_float=True)
    raise ValueError(f"unsupported element type '{name}'")


def element_type_from_code(code: int) -> ElementType | None:
    """The element type with IREE code `code`, if it is one `element_type` knows."""
    for name in ("f32", "f16", "f64", "bf16", "i8", "i16", "i32", "i64", "si8", "si16",
                 "si32", "si64", "ui8", "ui16", "ui32", "ui64", "i1"):  # fmt: skip
        candidate = element_type(name)
        if candidate.code == code:
            return candidate
    return None


@dataclass(frozen=True)
class TensorType:
    """`tensor<2x?x4xf32>`: dims (None when dynamic) and element type."""

    dims: tuple[int | None, ...]
    element: ElementType

    @property
    def dynamic_count(self) -> int:
        return sum(1 for d in self.dims if d is None)

    def with_dynamic(self, values: list[int]) -> tuple[int, ...]:
        """The shape with dynamic dims replaced by `values` in order."""
        it = iter(values)
        return tuple(d if d is not None else next(it) for d in self.dims)


def parse_tensor_type(text: str) -> TensorType:
    """Parse `tensor<2x?xf32>` (an encoding after a comma is ignored) or a bare element type
    (a rank-0 tensor). Raises ValueError when it is neither."""
    text = text.strip()
    if text.startswith("tensor<") and text.endswith(">"):
        dims, element = split_shaped_type(text)
        if not element:
            raise ValueError(f"bad tensor type '{text}'")
        return TensorType(dims, element_type(element))
    return TensorType((), element_type(text))
