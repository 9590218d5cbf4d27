"""Queue-op trace: what ran where and when, on the runtime's logical clock.

Every executed queue op appends a `TraceEvent` (device, queue, start and end in logical ticks,
and arguments such as bytes and the semaphores it waited on and signalled). `write_chrome_trace`
turns the events into the Chrome Trace Event JSON format (load it in chrome://tracing or
Perfetto): one process per device, one thread per queue, a complete ("X") event per op, and
instant events for host signals and waits. The clock is logical, so the file is the same on
every run of the same program.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

HOST_TRACK = "host"


@dataclass(frozen=True)
class TraceEvent:
    """One executed queue op (or a host event when `device` is `host`)."""

    name: str
    kind: str
    device: str
    queue: int
    start: int
    end: int
    args: dict[str, Any] = field(default_factory=dict)
    failed: bool = False


class TraceRecorder:
    """Collects trace events in execution order."""

    def __init__(self, devices: Sequence[tuple[str, int]] = ()) -> None:
        self.tracks: list[tuple[str, int]] = list(devices)
        """(device name, queue count) per device, in the order processes are numbered."""
        self.events: list[TraceEvent] = []

    def record(self, event: TraceEvent) -> None:
        self.events.append(event)

    def to_chrome(self) -> dict[str, Any]:
        """The trace as a Chrome Trace Event JSON object."""
        return chrome_trace(self.events, self.tracks)

    def write(self, path: str | Path) -> None:
        """Write the Chrome trace to `path`."""
        with open(path, "w") as stream:
            write_chrome_trace(stream, self.events, self.tracks)


def chrome_trace(events: Iterable[TraceEvent], tracks: Sequence[tuple[str, int]]) -> dict[str, Any]:
    """Chrome Trace Event JSON: pid per device (host is pid 0), tid per queue."""
    pids: dict[str, int] = {HOST_TRACK: 0}
    trace: list[dict[str, Any]] = [_metadata("process_name", 0, 0, HOST_TRACK)]
    for index, (device, queue_count) in enumerate(tracks, start=1):
        pids[device] = index
        trace.append(_metadata("process_name", index, 0, device))
        trace.append({"name": "process_sort_index", "ph": "M", "pid": index, "tid": 0,
                      "args": {"sort_index": index}})  # fmt: skip
        for queue in range(queue_count):
            trace.append(_metadata("thread_name", index, queue, f"queue {queue}"))
    for event in events:
        pid = pids.setdefault(event.device, len(pids))
        args = dict(event.args)
        if event.failed:
            args["failed"] = True
        entry: dict[str, Any] = {
            "name": event.name,
            "cat": event.kind,
            "pid": pid,
            "tid": event.queue,
            "ts": event.start,
            "args": args,
        }
        if event.device == HOST_TRACK and event.end == event.start:
            entry.update(ph="i", s="t")
        else:
            entry.update(ph="X", dur=max(event.end - event.start, 0))
        trace.append(entry)
    return {"traceEvents": trace, "displayTimeUnit": "ns", "otherData": {"clock": "logical"}}


def _metadata(kind: str, pid: int, tid: int, name: str) -> dict[str, Any]:
    return {"name": kind, "ph": "M", "pid": pid, "tid": tid, "args": {"name": name}}


def write_chrome_trace(
    stream: TextIO, events: Iterable[TraceEvent], tracks: Sequence[tuple[str, int]]
) -> None:
    """Write `events` as Chrome Trace Event JSON to `stream`."""
    json.dump(chrome_trace(events, tracks), stream, indent=1)
    stream.write("\n")
