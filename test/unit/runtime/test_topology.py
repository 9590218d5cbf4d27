"""Topology model: the embedded default, files, and a module's `stream.topology`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from streamopt.ir.types import BoolAttr, TopologyAttr, TopologyLink
from streamopt.runtime import (
    AccessMode,
    MemoryType,
    default_topology,
    load_topology,
    topology_from_dict,
    topology_from_module,
)


def test_default_has_two_cpus_sharing_host_and_a_discrete_device() -> None:
    topology = default_topology()
    assert [(d.name, d.kind) for d in topology.devices.values()] == [
        ("cpu0", "cpu"),
        ("cpu1", "cpu"),
        ("gpu0", "gpu"),
    ]
    assert topology.home_memory("cpu0") == topology.home_memory("cpu1") == "host"
    assert topology.edge("cpu1", "host").mode is AccessMode.NATIVE
    assert topology.edge("gpu0", "host").mode is AccessMode.NONE
    assert topology.edge("cpu0", "gpu0.vram").mode is AccessMode.NONE
    assert topology.edge("gpu0", "gpu0.vram").types & MemoryType.DEVICE_LOCAL
    assert not topology.edge("gpu0", "gpu0.vram").types & MemoryType.HOST_VISIBLE


def test_bind_renames_devices_in_order_and_adds_discrete_ones() -> None:
    bound = default_topology().bind(["dev_a", "dev_b", "dev_c", "dev_d"])
    assert list(bound.devices) == ["dev_a", "dev_b", "dev_c", "dev_d"]
    assert bound.home_memory("dev_a") == bound.home_memory("dev_b") == "host"
    assert bound.home_memory("dev_c") == "dev_c.vram"
    assert bound.edge("dev_c", "dev_c.vram").mode is AccessMode.NATIVE
    assert bound.home_memory("dev_d") == "dev_d.vram"
    assert bound.edge("dev_d", "host").mode is AccessMode.NONE


def test_bind_keeps_named_devices() -> None:
    bound = default_topology().bind(["gpu0", "cpu1"])
    assert list(bound.devices) == ["gpu0", "cpu1"]
    assert bound.edge("cpu1", "host").mode is AccessMode.NATIVE


def test_file_round_trip_json(tmp_path: Path) -> None:
    path = tmp_path / "topology.json"
    path.write_text(json.dumps(default_topology().to_dict()))
    loaded = load_topology(path)
    assert loaded.to_dict() == default_topology().to_dict()


def test_toml_file_with_remote_edge(tmp_path: Path) -> None:
    path = tmp_path / "apu.toml"
    path.write_text(
        """
[devices.cpu]
kind = "cpu"
memory = ["host"]

[devices.gpu]
kind = "gpu"
queues = 4
memory = ["gpu.vram"]

[[access]]
device = "gpu"
memory = "host"
mode = "remote"
types = "HostLocal|DeviceVisible"
"""
    )
    topology = load_topology(path)
    assert topology.devices["gpu"].queue_count == 4
    edge = topology.edge("gpu", "host")
    assert edge.mode is AccessMode.REMOTE
    assert edge.types == MemoryType.HOST_LOCAL | MemoryType.DEVICE_VISIBLE


def test_bad_file_entries_are_reported() -> None:
    with pytest.raises(ValueError, match="devices"):
        topology_from_dict({"memory": {}})
    with pytest.raises(ValueError, match="bad access entry"):
        topology_from_dict(
            {"devices": {"a": {"memory": ["m"]}}, "access": [{"device": "a", "mode": "x"}]}
        )


def _link(source: str, destination: str, **flags: bool) -> TopologyLink:
    return TopologyLink(source, destination, {k: BoolAttr(v) for k, v in flags.items()})


def test_module_without_topology_binds_the_default() -> None:
    topology = topology_from_module(["dev_a", "dev_b"])
    assert topology.home_memory("dev_a") == topology.home_memory("dev_b") == "host"


def test_module_topology_links_are_directional() -> None:
    attr = TopologyAttr(
        [
            _link("a", "b", unified_memory=True),
            _link("b", "c", transparent_access=True),
            _link("c", "a"),
        ]
    )
    topology = topology_from_module(["a", "b", "c"], attr)
    # Memory resident on `a` is usable on `b` as-is; not the other way round.
    assert topology.edge("b", "a.memory").mode is AccessMode.NATIVE
    assert topology.edge("a", "b.memory").mode is AccessMode.NONE
    assert topology.edge("c", "b.memory").mode is AccessMode.REMOTE
    remote_types = topology.edge("c", "b.memory").types
    assert (remote_types & MemoryType.DEVICE_LOCAL) != MemoryType.DEVICE_LOCAL
    assert topology.edge("a", "c.memory").mode is AccessMode.NONE


def test_module_cpu_kinds_share_host_memory() -> None:
    attr = TopologyAttr([])
    topology = topology_from_module(
        ["a", "b", "g"], attr, kinds={"a": "cpu", "b": "cpu", "g": "gpu"}
    )
    assert topology.home_memory("a") == topology.home_memory("b") == "host"
    assert topology.home_memory("g") == "g.memory"
    assert topology.edge("g", "host").mode is AccessMode.NONE
