"""Bit flags and parameter records of the reference HAL: memory types, usage, access, queue
affinities, buffer parameters and the flags of each queue operation.

The bit values follow IREE's HAL enums (HALAttrs.td), and `parse_flags` accepts IREE's spelling
(`"DeviceLocal|HostVisible"`), so an interpreter can turn IR attributes into these values
directly. The vocabulary of queue moves (modes, flags, reasons) is `streamopt.move_api`, which
IREE's backend shares.
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
