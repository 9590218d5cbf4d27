"""Bit flags and parameter records of the reference HAL: memory types, usage, access, queue
affinities, buffer parameters and the flags of each queue operation.

The bit values follow IREE's HAL enums (HALAttrs.td), and `parse_flags` accepts IREE's spelling
(`"DeviceLocal|HostVisible"`), so an interpreter can turn IR attributes into these values
directly. Move modes, flags and reasons follow the proposed `hal_device_queue_move` API.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypeVar

QUEUE_AFFINITY_ANY = (1 << 64) - 1
"""An affinity mask that lets the device pick any of its queues."""

_F = TypeVar("_F", bound=enum.IntFlag)


def parse_flags(flag_type: type[_F], text: str) -> _F:
    """Parse `"A|B"` in IREE's CamelCase spelling (`DeviceLocal`) or ours (`DEVICE_LOCAL`).

    `"None"` and the empty string give no bits. Raises ValueError on an unknown name.
    """
    value = flag_type(0)
    for part in text.replace(" ", "").split("|"):
        if not part or part == "None":
            continue
        key = _camel_to_upper(part) if not part.isupper() else part
        try:
            value |= flag_type[key]
        except KeyError:
            raise ValueError(f"unknown {flag_type.__name__} bit '{part}'") from None
    return value


def _camel_to_upper(name: str) -> str:
    out: list[str] = []
    for i, ch in enumerate(name):
        if ch.isupper() and i > 0:
            out.append("_")
        out.append(ch.upper())
    return "".join(out)


def format_flags(value: enum.IntFlag) -> str:
    """`"A|B"`: the names that cover the bits of `value`, widest first (`"NONE"` for zero).

    Composite names win over their parts (`HOST_LOCAL`, not `HOST_VISIBLE|HOST_COHERENT|...`).
    """
    members = sorted(
        (m for m in type(value).__members__.values() if m.value),
        key=lambda m: (-bin(m.value).count("1"), m.value),
    )
    remaining = value.value
    names: list[str] = []
    for member in members:
        if member.value & value.value == member.value and member.value & remaining:
            names.append(member.name or str(member.value))
            remaining &= ~member.value
    if remaining:
        names.append(hex(remaining))
    return "|".join(names) if names else "NONE"


class MemoryType(enum.IntFlag):
    """Where memory lives and who may touch it; values as in IREE (`HostLocal` implies
    `HostVisible|HostCoherent`, `DeviceLocal` implies `DeviceVisible`)."""

    NONE = 0
    OPTIMAL = 0x0001
    HOST_VISIBLE = 0x0002
    HOST_COHERENT = 0x0004
    HOST_CACHED = 0x0008
    HOST_LOCAL = 0x0046
    DEVICE_VISIBLE = 0x0010
    DEVICE_LOCAL = 0x0030


class BufferUsage(enum.IntFlag):
    """What a buffer may be used for; values as in IREE."""

    NONE = 0
    TRANSFER_SOURCE = 0x00000001
    TRANSFER_TARGET = 0x00000002
    TRANSFER = 0x00000003
    DISPATCH_INDIRECT_PARAMETERS = 0x00000100
    DISPATCH_UNIFORM_READ = 0x00000200
    DISPATCH_STORAGE_READ = 0x00000400
    DISPATCH_STORAGE_WRITE = 0x00000800
    DISPATCH_STORAGE = 0x00000C00
    DISPATCH_IMAGE_READ = 0x00001000
    DISPATCH_IMAGE_WRITE = 0x00002000
    DISPATCH_IMAGE = 0x00003000
    SHARING_EXPORT = 0x00010000
    SHARING_REPLICATE = 0x00020000
    SHARING_CONCURRENT = 0x00040000
    SHARING_IMMUTABLE = 0x00080000
    MAPPING_SCOPED = 0x01000000
    MAPPING_PERSISTENT = 0x02000000
    MAPPING_OPTIONAL = 0x04000000
    MAPPING_ACCESS_RANDOM = 0x08000000
    MAPPING_ACCESS_SEQUENTIAL_WRITE = 0x10000000
    MAPPING = 0x09000000


DEFAULT_USAGE = BufferUsage.TRANSFER | BufferUsage.DISPATCH_STORAGE
"""The usage a buffer gets when its parameters leave usage at zero."""


class MemoryAccess(enum.IntFlag):
    """Which accesses a buffer handle allows; values as in IREE."""

    NONE = 0
    READ = 0x01
    WRITE = 0x02
    DISCARD = 0x04
    MAY_ALIAS = 0x08
    UNALIGNED = 0x10
    ANY = 0x20


ALL_ACCESS = MemoryAccess.READ | MemoryAccess.WRITE | MemoryAccess.DISCARD
"""The access a buffer gets when its parameters leave access at zero."""


@dataclass(frozen=True)
class BufferParams:
    """`hal_buffer_params_t`: zero in a field means "default" (see `with_defaults`)."""

    type: MemoryType = MemoryType.NONE
    usage: BufferUsage = BufferUsage.NONE
    access: MemoryAccess = MemoryAccess.NONE
    queue_affinity: int = 0
    min_alignment: int = 0

    def required_type(self) -> MemoryType:
        """The type bits a backing must have: the request minus the `OPTIMAL` hint."""
        return self.type & ~MemoryType.OPTIMAL

    def with_defaults(
        self,
        usage: BufferUsage = DEFAULT_USAGE,
        access: MemoryAccess = ALL_ACCESS,
        queue_affinity: int = QUEUE_AFFINITY_ANY,
    ) -> BufferParams:
        """These params with each zero field replaced by the given default."""
        return BufferParams(
            type=self.type,
            usage=self.usage or usage,
            access=self.access or access,
            queue_affinity=self.queue_affinity or queue_affinity,
            min_alignment=self.min_alignment,
        )


DEFAULT_PARAMS = BufferParams()
"""All defaults: any memory type, default usage and access, any queue."""


class AllocaFlags(enum.IntFlag):
    """Flags of `queue_alloca`."""

    NONE = 0
    INDETERMINATE_LIFETIME = 1 << 0
    """`queue_dealloca` is a barrier; memory is freed when the last owner discards it."""


class DeallocaFlags(enum.IntFlag):
    """Flags of `queue_dealloca`."""

    NONE = 0
    PREFER_ORIGIN = 1 << 0
    """Run the dealloca on the buffer's placement (origin) device and queue."""


class MoveMode(enum.Enum):
    """How `queue_move` produces its result."""

    ALIAS = "alias"
    """A wrapper over the same root with a new residency; no bytes touched."""
    ALIAS_AFTER_GRANT = "alias_after_grant"
    """Alias once the target device is granted access to the allocation."""
    IMPORT = "import"
    """Alias through an export/import of the allocation into the target device."""
    COPY = "copy"
    """alloca on the target, copy, then dealloca of the source at its origin."""
    UNSUPPORTED = "unsupported"
    """Neither aliasing nor copying can produce a buffer with the requested params."""

    @property
    def is_zero_copy(self) -> bool:
        return self in (MoveMode.ALIAS, MoveMode.ALIAS_AFTER_GRANT, MoveMode.IMPORT)


class MoveFlags(enum.IntFlag):
    """Flags of `query_buffer_move` / `queue_move`."""

    NONE = 0
    REQUIRE_ALIAS = 1 << 0
    """Fail with UNAVAILABLE (nothing enqueued) instead of copying."""
    FORCE_COPY = 1 << 1
    """Always copy (tests, determinism)."""
    ALLOW_GRANT = 1 << 2
    """The device may program access to the allocation to alias it."""
    KEEP_SOURCE = 1 << 3
    """Transfer semantics: the caller keeps the source, so it is copied and never freed."""
    ALLOW_LOW_PERFORMANCE = 1 << 4
    """Aliasing memory that is reachable only remotely (slowly) is acceptable."""


class MoveReason(enum.IntFlag):
    """Why a move copies (or cannot alias)."""

    NONE = 0
    FORCED = 1 << 0
    """FORCE_COPY was given."""
    NO_PEER = 1 << 1
    """The target device cannot reach the source's memory."""
    POOL_ACCESS = 1 << 2
    """The target needs a grant to reach the memory and ALLOW_GRANT was not given."""
    LOW_PERFORMANCE = 1 << 3
    """The memory is reachable only remotely and ALLOW_LOW_PERFORMANCE was not given."""
    TYPE_WIDENED = 1 << 4
    """The requested memory type is not a subset of what the backing is from the target."""
    USAGE_WIDENED = 1 << 5
    """The requested usage is not a subset of the source's usage."""
    ACCESS_WIDENED = 1 << 6
    """The requested access is not a subset of the source's access."""
    SUBSPAN = 1 << 7
    """The moved range is not the whole root allocation."""
    EXTERNAL = 1 << 8
    """The source is imported/external memory, which the runtime never frees."""
    NOT_TERMINAL = 1 << 9
    """The source allocation has other logical owners."""
    KEEP_SOURCE = 1 << 10
    """KEEP_SOURCE was given: the source stays live, so the result must not alias it."""

    def names(self) -> list[str]:
        """The names of the single reasons set, in declaration order."""
        # Plain ints: iterating an IntFlag and testing membership is slow, and this runs for
        # every move (trace arguments and statistics).
        value = int(self)
        return [name for name, bit in _MOVE_REASON_BITS if value & bit]


_MOVE_REASON_BITS: tuple[tuple[str, int], ...] = tuple(
    (member.name, int(member)) for member in MoveReason if member.name and int(member)
)
