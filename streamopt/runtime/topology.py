"""Devices and the memory each can reach.

A `Topology` lists memory spaces (a physical backing such as host RAM or one GPU's VRAM),
devices (name, kind, queue count, the spaces they allocate from) and, for each device and
space, a `MemoryEdge`: how the device reaches that memory (`AccessMode`) and which memory
type bits the memory has when used from that device (host RAM is `DEVICE_LOCAL` to a CPU but
only `DEVICE_VISIBLE` to a GPU that reads it over PCIe). Queues of one device share its edges.

Sources of a topology:
- `default_topology()`: two CPU devices sharing host memory and one discrete device with its
  own memory;
- `load_topology(path)`: a JSON or TOML file (format in `topology_from_dict`);
- `topology_from_module(device_names, topology_attr, kinds)`: a module's device globals and
  its `stream.topology` attribute.
"""

from __future__ import annotations

import enum
import importlib
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from streamopt.runtime.params import MemoryType, format_flags, parse_flags


class AccessMode(enum.Enum):
    """How a device reaches a memory space (the HAL topology edge modes plus capability
    bits)."""

    NATIVE = "native"
    """Usable as-is (same memory, unified memory, or a peer already mapped)."""
    REMOTE = "remote"
    """Usable as-is but slowly (over a bus); aliasing needs ALLOW_LOW_PERFORMANCE."""
    GRANT = "grant"
    """Usable after programming access (pool grant); aliasing needs ALLOW_GRANT."""
    IMPORT = "import"
    """Usable after importing (registering) the allocation on the device."""
    NONE = "none"
    """Not reachable: data must be copied."""


CPU_MEMORY_TYPES = (
    MemoryType.HOST_LOCAL
    | MemoryType.HOST_CACHED
    | MemoryType.DEVICE_LOCAL
    | MemoryType.DEVICE_VISIBLE
)
"""Host RAM as a CPU device sees it: host memory is that device's local memory."""

DISCRETE_MEMORY_TYPES = MemoryType.DEVICE_LOCAL | MemoryType.DEVICE_VISIBLE
"""A discrete device's own memory as it sees it (not host visible)."""

REMOTE_HOST_MEMORY_TYPES = MemoryType.HOST_LOCAL | MemoryType.DEVICE_VISIBLE
"""Host RAM seen from a device that reaches it over a bus: visible, not local."""


@dataclass(frozen=True)
class MemorySpace:
    """A physical backing. `capacity` (bytes) is None for unlimited."""

    name: str
    capacity: int | None = None


@dataclass(frozen=True)
class MemoryEdge:
    """How one device reaches one memory space."""

    mode: AccessMode
    types: MemoryType = MemoryType.NONE
    """Memory type bits of this memory when used from the device."""


NO_ACCESS = MemoryEdge(AccessMode.NONE)


@dataclass(frozen=True)
class DeviceSpec:
    """A device: name, kind (`cpu`, `gpu`, ...), queue count and the memory spaces its
    allocator uses, in preference order."""

    name: str
    kind: str
    queue_count: int = 1
    memory: tuple[str, ...] = ()


@dataclass
class Topology:
    """Devices, memory spaces, and which device reaches which memory how."""

    devices: dict[str, DeviceSpec] = field(default_factory=dict)
    memory_spaces: dict[str, MemorySpace] = field(default_factory=dict)
    edges: dict[tuple[str, str], MemoryEdge] = field(default_factory=dict)

    def add_memory(self, name: str, capacity: int | None = None) -> MemorySpace:
        """Add (or return the existing) memory space `name`."""
        space = self.memory_spaces.get(name)
        if space is None:
            space = self.memory_spaces[name] = MemorySpace(name, capacity)
        return space

    def add_device(
        self,
        name: str,
        kind: str,
        memory: Sequence[str],
        queue_count: int = 1,
        memory_types: MemoryType | None = None,
    ) -> DeviceSpec:
        """Add a device that allocates from `memory` (created if missing) and reaches each of
        those spaces natively with `memory_types` (default by kind)."""
        if name in self.devices:
            raise ValueError(f"device '{name}' is defined twice")
        if queue_count < 1 or queue_count > 64:
            raise ValueError(f"device '{name}': queue count must be in 1..64")
        types = memory_types if memory_types is not None else default_memory_types(kind)
        for space in memory:
            self.add_memory(space)
            self.edges.setdefault((name, space), MemoryEdge(AccessMode.NATIVE, types))
        spec = self.devices[name] = DeviceSpec(name, kind, queue_count, tuple(memory))
        return spec

    def set_edge(self, device: str, memory: str, edge: MemoryEdge) -> None:
        """Say how `device` reaches `memory` (both must exist)."""
        if device not in self.devices:
            raise ValueError(f"unknown device '{device}'")
        if memory not in self.memory_spaces:
            raise ValueError(f"unknown memory space '{memory}'")
        self.edges[(device, memory)] = edge

    def edge(self, device: str, memory: str) -> MemoryEdge:
        """How `device` reaches `memory` (NONE when nothing says otherwise)."""
        return self.edges.get((device, memory), NO_ACCESS)

    def home_memory(self, device: str) -> str:
        """The first memory space `device` allocates from."""
        spec = self.devices[device]
        if not spec.memory:
            raise ValueError(f"device '{device}' has no memory to allocate from")
        return spec.memory[0]

    def bind(self, names: Sequence[str]) -> Topology:
        """This topology with its devices named after `names` (a module's device globals).

        When every name is already a device, those devices are kept (in the given order) and
        the others dropped. Otherwise devices are renamed in order; a name beyond the last
        device gets a new discrete device with its own memory.
        """
        if all(name in self.devices for name in names):
            kept = Topology(memory_spaces=dict(self.memory_spaces))
            for name in names:
                kept.devices[name] = self.devices[name]
            kept.edges = {k: v for k, v in self.edges.items() if k[0] in kept.devices}
            return kept
        mapping = dict(zip(self.devices, names))
        bound = Topology()
        for old, spec in self.devices.items():
            if old not in mapping:
                continue
            bound.devices[mapping[old]] = replace(
                spec, name=mapping[old], memory=tuple(_rename(m, mapping) for m in spec.memory)
            )
        for space in self.memory_spaces.values():
            renamed = _rename(space.name, mapping)
            bound.memory_spaces[renamed] = replace(space, name=renamed)
        for (device, memory), edge in self.edges.items():
            if device in mapping:
                bound.edges[(mapping[device], _rename(memory, mapping))] = edge
        for name in names[len(self.devices) :]:
            bound.add_device(name, "gpu", [f"{name}.vram"])
        return bound

    def to_dict(self) -> dict[str, Any]:
        """The file format of `topology_from_dict` (round-trips)."""
        return {
            "memory": {
                name: ({"capacity": space.capacity} if space.capacity is not None else {})
                for name, space in self.memory_spaces.items()
            },
            "devices": {
                name: {"kind": spec.kind, "queues": spec.queue_count, "memory": list(spec.memory)}
                for name, spec in self.devices.items()
            },
            "access": [
                {
                    "device": device,
                    "memory": memory,
                    "mode": edge.mode.value,
                    "types": format_flags(edge.types),
                }
                for (device, memory), edge in self.edges.items()
            ],
        }

    def describe(self) -> str:
        """One line per device: kind, queues and how it reaches each memory space."""
        lines = []
        for name, spec in self.devices.items():
            reach = ", ".join(
                f"{memory}={edge.mode.value}"
                for (device, memory), edge in self.edges.items()
                if device == name and edge.mode is not AccessMode.NONE
            )
            lines.append(f"{name} ({spec.kind}, {spec.queue_count} queue(s)): {reach}")
        return "\n".join(lines)


def _rename(memory: str, mapping: Mapping[str, str]) -> str:
    """Rename a device-owned memory space (`dev.vram`) along with its device."""
    device, dot, rest = memory.partition(".")
    return f"{mapping[device]}.{rest}" if dot and device in mapping else memory


def default_memory_types(kind: str) -> MemoryType:
    """The memory types of a device's own memory, by device kind."""
    return CPU_MEMORY_TYPES if kind == "cpu" else DISCRETE_MEMORY_TYPES


HOST_MEMORY = "host"


def default_topology() -> Topology:
    """Two CPU devices (`cpu0`, `cpu1`) sharing host memory and one discrete device (`gpu0`)
    with its own memory, which neither side can reach directly."""
    topology = Topology()
    topology.add_device("cpu0", "cpu", [HOST_MEMORY], queue_count=2)
    topology.add_device("cpu1", "cpu", [HOST_MEMORY], queue_count=2)
    topology.add_device("gpu0", "gpu", ["gpu0.vram"], queue_count=2)
    return topology


# -------------------------------------------------------------------------------------------
# Files


def topology_from_dict(data: Mapping[str, Any]) -> Topology:
    """Build a topology from the file format:

    ```json
    {"memory": {"host": {}, "gpu0.vram": {"capacity": 1073741824}},
     "devices": {"cpu0": {"kind": "cpu", "queues": 2, "memory": ["host"]},
                 "gpu0": {"kind": "gpu", "memory": ["gpu0.vram"]}},
     "access": [{"device": "gpu0", "memory": "host", "mode": "remote",
                 "types": "HostLocal|DeviceVisible"}]}
    ```

    A device reaches the spaces it allocates from natively with the types of its kind;
    `access` entries add or override edges. Raises ValueError with the offending entry.
    """
    topology = Topology()
    for name, entry in dict(data.get("memory", {})).items():
        capacity = entry.get("capacity") if isinstance(entry, Mapping) else None
        topology.add_memory(str(name), int(capacity) if capacity is not None else None)
    devices = data.get("devices")
    if not isinstance(devices, Mapping) or not devices:
        raise ValueError("topology: 'devices' must be a non-empty table")
    for name, entry in devices.items():
        if not isinstance(entry, Mapping):
            raise ValueError(f"topology: device '{name}' must be a table")
        kind = str(entry.get("kind", "cpu"))
        memory = entry.get("memory", [f"{name}.memory"])
        if isinstance(memory, str):
            memory = [memory]
        types_text = entry.get("types")
        topology.add_device(
            str(name),
            kind,
            [str(m) for m in memory],
            queue_count=int(entry.get("queues", 1)),
            memory_types=parse_flags(MemoryType, types_text) if types_text else None,
        )
    for entry in data.get("access", []):
        try:
            device, memory = str(entry["device"]), str(entry["memory"])
            mode = AccessMode(str(entry.get("mode", "native")))
        except (KeyError, ValueError) as error:
            raise ValueError(f"topology: bad access entry {dict(entry)!r}: {error}") from None
        types_text = entry.get("types")
        if types_text is not None:
            types = parse_flags(MemoryType, str(types_text))
        elif mode is AccessMode.NATIVE:
            types = default_memory_types(topology.devices[device].kind)
        else:
            types = REMOTE_HOST_MEMORY_TYPES
        topology.add_memory(memory)
        topology.set_edge(device, memory, MemoryEdge(mode, types))
    return topology


def load_topology(path: str | Path) -> Topology:
    """Read a topology file: TOML if it ends in `.toml`, JSON otherwise."""
    path = Path(path)
    text = path.read_text()
    if path.suffix == ".toml":
        if sys.version_info < (3, 11):
            raise ValueError("TOML topology files need Python 3.11 (tomllib); use JSON")
        # Imported by name: the package still type-checks against Python 3.10.
        tomllib: Any = importlib.import_module("tomllib")
        data: Any = tomllib.loads(text)
    else:
        data = json.loads(text)
    if not isinstance(data, Mapping):
        raise ValueError(f"{path}: a topology file holds one table")
    return topology_from_dict(data)


# -------------------------------------------------------------------------------------------
# Modules


class TopologyLinkLike(Protocol):
    """What `topology_from_module` reads from a link (see streamopt.ir.types.TopologyLink)."""

    source: str
    destination: str

    def flag(self, name: str) -> bool: ...


class TopologyAttrLike(Protocol):
    """What `topology_from_module` reads from `stream.topology` (see
    streamopt.ir.types.TopologyAttr)."""

    @property
    def links(self) -> Sequence[TopologyLinkLike]: ...


def topology_from_module(
    device_names: Sequence[str],
    topology_attr: TopologyAttrLike | None = None,
    kinds: Mapping[str, str] | None = None,
    queue_count: int = 2,
) -> Topology:
    """The runtime topology for a module's device globals.

    Without `topology_attr`, the embedded default is bound to the names in order (two CPUs
    sharing host memory, then discrete devices). With it, each device owns its memory
    (`<name>.memory`; CPU-kind devices in `kinds` share `host`, as local devices do in one
    process), and a link `(@a -> @b = {...})` says how memory resident on `a` is usable on
    `b`, the direction IREE's transfer elision reads it in: `unified_memory` makes `a`'s
    memory native to `b` with `b`'s local types; `transparent_access` alone makes it remote
    (visible, not local). Any other link property is ignored, except `requires_grant` (GRANT)
    and `import` (IMPORT).
    """
    if topology_attr is None:
        return default_topology().bind(device_names)
    kinds = dict(kinds or {})
    topology = Topology()
    for name in device_names:
        kind = kinds.get(name, "gpu")
        memory = HOST_MEMORY if kind == "cpu" else f"{name}.memory"
        topology.add_device(name, kind, [memory], queue_count=queue_count)
    for link in topology_attr.links:
        if link.source not in topology.devices or link.destination not in topology.devices:
            continue
        memory = topology.home_memory(link.source)
        target_kind = topology.devices[link.destination].kind
        if link.flag("unified_memory"):
            edge = MemoryEdge(AccessMode.NATIVE, default_memory_types(target_kind))
        elif link.flag("transparent_access"):
            edge = MemoryEdge(AccessMode.REMOTE, _remote_types(topology, link.source))
        elif link.flag("requires_grant"):
            edge = MemoryEdge(AccessMode.GRANT, default_memory_types(target_kind))
        elif link.flag("import"):
            edge = MemoryEdge(AccessMode.IMPORT, _remote_types(topology, link.source))
        else:
            continue
        current = topology.edge(link.destination, memory)
        if current.mode is not AccessMode.NATIVE:
            topology.set_edge(link.destination, memory, edge)
    return topology


def _remote_types(topology: Topology, owner: str) -> MemoryType:
    """Memory of `owner` seen over a bus: device visible, host visible if the owner is a
    CPU."""
    if topology.devices[owner].kind == "cpu":
        return REMOTE_HOST_MEMORY_TYPES
    return MemoryType.DEVICE_VISIBLE


def device_kinds(names: Iterable[str], targets: Mapping[str, str]) -> dict[str, str]:
    """Device kinds from HAL target backends (`local`/`llvm-cpu` are CPUs, the rest GPUs)."""
    cpu_backends = ("local", "llvm-cpu", "vmvx", "cpu")
    return {
        name: "cpu" if any(b in targets.get(name, "") for b in cpu_backends) else "gpu"
        for name in names
    }
