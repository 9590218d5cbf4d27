"""Statistics a run report needs.

Per device: queue ops by kind (as enqueued; a move counts once as `move`), bytes copied (split
into copies made by moves and all other copies), bytes filled and updated, bytes allocated,
allocations and frees, and resident/peak-resident bytes of allocations placed on the device.
Per memory space: resident and peak bytes (two CPU devices share one `host` space, so the
space figures show real memory use). Moves: how many aliased (by mode) and how many copied,
with the reasons.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from streamopt.move_api import MoveStats


@dataclass
class DeviceStats:
    """Counters of one device."""

    ops: Counter[str] = field(default_factory=Counter)
    failed_ops: int = 0
    bytes_copied_by_moves: int = 0
    bytes_copied_other: int = 0
    bytes_filled: int = 0
    bytes_updated: int = 0
    bytes_allocated: int = 0
    allocations: int = 0
    frees: int = 0
    resident_bytes: int = 0
    peak_resident_bytes: int = 0
    deallocas_off_origin: int = 0
    """Deallocas enqueued on a device other than the buffer's origin without PREFER_ORIGIN."""

    @property
    def bytes_copied(self) -> int:
        return self.bytes_copied_by_moves + self.bytes_copied_other

    def to_dict(self) -> dict[str, Any]:
        return {
            "ops": dict(sorted(self.ops.items())),
            "failed_ops": self.failed_ops,
            "bytes_copied": self.bytes_copied,
            "bytes_copied_by_moves": self.bytes_copied_by_moves,
            "bytes_copied_other": self.bytes_copied_other,
            "bytes_filled": self.bytes_filled,
            "bytes_updated": self.bytes_updated,
            "bytes_allocated": self.bytes_allocated,
            "allocations": self.allocations,
            "frees": self.frees,
            "resident_bytes": self.resident_bytes,
            "peak_resident_bytes": self.peak_resident_bytes,
            "deallocas_off_origin": self.deallocas_off_origin,
        }


@dataclass
class MemoryStats:
    """Resident bytes of one memory space."""

    resident_bytes: int = 0
    peak_resident_bytes: int = 0


class Statistics:
    """All counters of a runtime."""

    def __init__(self) -> None:
        self.devices: dict[str, DeviceStats] = {}
        self.memory: dict[str, MemoryStats] = {}
        self.moves = MoveStats()
        self.resident_bytes = 0
        self.peak_resident_bytes = 0

    def device(self, name: str) -> DeviceStats:
        stats = self.devices.get(name)
        if stats is None:
            stats = self.devices[name] = DeviceStats()
        return stats

    def allocated(self, device: str, memory_space: str, size: int) -> None:
        """Count an allocation committed on `device` in `memory_space`."""
        stats = self.device(device)
        stats.allocations += 1
        stats.bytes_allocated += size
        stats.resident_bytes += size
        stats.peak_resident_bytes = max(stats.peak_resident_bytes, stats.resident_bytes)
        memory = self.memory.setdefault(memory_space, MemoryStats())
        memory.resident_bytes += size
        memory.peak_resident_bytes = max(memory.peak_resident_bytes, memory.resident_bytes)
        self.resident_bytes += size
        self.peak_resident_bytes = max(self.peak_resident_bytes, self.resident_bytes)

    def freed(self, device: str, memory_space: str, size: int) -> None:
        """Count a free of an allocation placed on `device` in `memory_space`."""
        stats = self.device(device)
        stats.frees += 1
        stats.resident_bytes -= size
        self.memory.setdefault(memory_space, MemoryStats()).resident_bytes -= size
        self.resident_bytes -= size

    @property
    def bytes_copied_by_moves(self) -> int:
        return sum(d.bytes_copied_by_moves for d in self.devices.values())

    @property
    def bytes_copied(self) -> int:
        return sum(d.bytes_copied for d in self.devices.values())

    def to_dict(self) -> dict[str, Any]:
        """Everything, as plain data (for JSON reports and tests)."""
        return {
            "devices": {name: stats.to_dict() for name, stats in self.devices.items()},
            "memory": {
                name: {
                    "resident_bytes": stats.resident_bytes,
                    "peak_resident_bytes": stats.peak_resident_bytes,
                }
                for name, stats in self.memory.items()
            },
            "moves": self.moves.to_dict(),
            "bytes_copied": self.bytes_copied,
            "bytes_copied_by_moves": self.bytes_copied_by_moves,
            "resident_bytes": self.resident_bytes,
            "peak_resident_bytes": self.peak_resident_bytes,
        }
