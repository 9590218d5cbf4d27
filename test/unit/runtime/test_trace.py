"""The Chrome trace: one process per device, one thread per queue, deterministic times."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from streamopt.runtime import BufferParams, Runtime

from .conftest import make_buffer, pattern


def _program(runtime: Runtime) -> None:
    cpu0, cpu1, gpu = (runtime.device(n) for n in ("cpu0", "cpu1", "gpu0"))
    source, written = make_buffer(cpu0, pattern(8192))
    on_cpu1, on_gpu = runtime.create_fence(), runtime.create_fence()
    moved = cpu1.queue_move(0b10, written, on_cpu1, source).buffer
    gpu.queue_move(0, on_cpu1, on_gpu, moved)
    on_gpu.wait()


def _trace(tmp_path: Path, name: str) -> dict[str, Any]:
    runtime = Runtime()
    _program(runtime)
    path = tmp_path / name
    runtime.trace.write(path)
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_tracks_and_events(tmp_path: Path) -> None:
    trace = _trace(tmp_path, "a.json")["traceEvents"]
    processes = {e["pid"]: e["args"]["name"] for e in trace if e["name"] == "process_name"}
    assert processes == {0: "host", 1: "cpu0", 2: "cpu1", 3: "gpu0"}
    threads = {(e["pid"], e["tid"]) for e in trace if e["name"] == "thread_name"}
    assert threads == {(p, q) for p in (1, 2, 3) for q in (0, 1)}
    ops = [e for e in trace if e["ph"] == "X"]
    assert [(e["name"], e["pid"], e["tid"]) for e in ops] == [
        ("alloca", 1, 0),
        ("update", 1, 0),
        ("move.alias", 2, 1),
        ("move.alloca", 3, 0),
        ("move.copy", 3, 0),
        ("move.dealloca", 1, 0),
    ]
    # Each op starts after the one it waits for ends (the chain is serial here).
    for before, after in itertools.pairwise(ops):
        assert after["ts"] >= before["ts"] + before["dur"]
    copy = ops[4]
    assert copy["dur"] == 1 + 8192 // 1024  # one tick per KiB touched
    assert copy["args"]["mode"] == "copy (NO_PEER)"
    assert copy["args"]["bytes"] == 8192


def test_trace_is_identical_between_runs(tmp_path: Path) -> None:
    assert _trace(tmp_path, "a.json") == _trace(tmp_path, "b.json")


def test_failed_ops_are_marked(runtime: Runtime) -> None:
    cpu0 = runtime.device("cpu0")
    gate, filled = runtime.create_fence(), runtime.create_fence()
    buffer = cpu0.queue_alloca(0, gate, None, None, BufferParams(), 16)
    cpu0.queue_fill(0, None, filled, buffer, 0, 16, 1, 1)
    runtime.drain()
    events = runtime.trace.to_chrome()["traceEvents"]
    fill = next(e for e in events if e["name"] == "fill")
    assert fill["args"]["failed"] is True
    assert "FAILED_PRECONDITION" in fill["args"]["status"]
