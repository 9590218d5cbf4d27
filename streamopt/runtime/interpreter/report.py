"""The figures a run reports, as plain data and as a table.

Keys (`run_report`): `moves_aliased`, `moves_copied` (counts), `move_modes` and `move_reasons`
(why moves copied), and per device with a total: `bytes_copied_by_moves`, `bytes_copied` (all
copies: moves and transfers), `bytes_allocated`, `peak_bytes` (peak resident bytes of the
allocations placed on each device; the total is the peak of all of them together, which is less
than the sum when devices peak at different times), `queue_ops` per device and kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from streamopt.text_table import TextColumn, TextTable

if TYPE_CHECKING:
    from . import RunResult


def _per_device(result: RunResult, attribute: str) -> dict[str, Any]:
    stats = result.interpreter.runtime.stats
    by_device = {name: getattr(device, attribute) for name, device in stats.devices.items()}
    return {"total": sum(by_device.values()), "by_device": by_device}


def run_report(result: RunResult) -> dict[str, Any]:
    """Everything a report holds, as JSON-ready data."""
    runtime = result.interpreter.runtime
    stats = runtime.stats
    moves = stats.moves
    peak = _per_device(result, "peak_resident_bytes")
    peak["total"] = stats.peak_resident_bytes
    return {
        "function": result.function,
        "outputs": [output.text for output in result.outputs],
        "moves_aliased": moves.aliased,
        "moves_copied": moves.copied,
        "move_modes": dict(sorted(moves.modes.items())),
        "move_reasons": dict(sorted(moves.reasons.items())),
        "bytes_copied_by_moves": _per_device(result, "bytes_copied_by_moves"),
        "bytes_copied": _per_device(result, "bytes_copied"),
        "bytes_allocated": _per_device(result, "bytes_allocated"),
        "peak_bytes": peak,
        "peak_bytes_by_memory": {
            name: memory.peak_resident_bytes for name, memory in stats.memory.items()
        },
        "queue_ops": {
            name: dict(sorted(device.ops.items())) for name, device in stats.devices.items()
        },
        "devices": {
            name: {"kind": spec.kind, "queues": spec.queue_count, "memory": list(spec.memory)}
            for name, spec in runtime.topology.devices.items()
        },
    }


def first_difference(reference: Any, other: Any) -> str | None:
    """Why `other`'s outputs differ from `reference`'s, or None if they are byte-identical.

    Works for any run whose `outputs` have `key()`, `data` (bytes or None) and `text`: the
    reference runtime's and IREE's (`streamopt.iree`)."""
    if len(reference.outputs) != len(other.outputs):
        return f"{len(other.outputs)} results instead of {len(reference.outputs)}"
    for index, (a, b) in enumerate(zip(reference.outputs, other.outputs)):
        if a.key() != b.key():
            where = ""
            if a.data is not None and b.data is not None and len(a.data) == len(b.data):
                offset = next((i for i, (x, y) in enumerate(zip(a.data, b.data)) if x != y), None)
                if offset is not None:
                    where = f" (first differing byte at offset {offset})"
            return f"result {index} differs{where}: {b.text} instead of {a.text}"
    return None


def human_bytes(count: int) -> str:
    """`512 B`, `16.0 KiB`, `1.5 MiB`."""
    value = float(count)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{count} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{count} B"


def report_table(report: dict[str, Any], title: str = "") -> TextTable:
    """Per device: queue ops, bytes copied (by moves), allocated, peak resident; a total row."""
    table = TextTable(
        title,
        [
            TextColumn("device", wrap=True),
            TextColumn("queue ops", wrap=True),
            TextColumn("bytes copied", right=True),
            TextColumn("by moves", right=True),
            TextColumn("allocated", right=True),
            TextColumn("peak resident", right=True),
        ],
    )
    for name, info in report["devices"].items():
        ops = report["queue_ops"].get(name, {})
        table.add_row(
            f"{name} ({info['kind']})",
            ", ".join(f"{kind} {count}" for kind, count in ops.items()) or "-",
            human_bytes(report["bytes_copied"]["by_device"].get(name, 0)),
            human_bytes(report["bytes_copied_by_moves"]["by_device"].get(name, 0)),
            human_bytes(report["bytes_allocated"]["by_device"].get(name, 0)),
            human_bytes(report["peak_bytes"]["by_device"].get(name, 0)),
        )
    total_ops = sum(sum(ops.values()) for ops in report["queue_ops"].values())
    table.add_section()
    table.add_row(
        "total",
        str(total_ops),
        human_bytes(report["bytes_copied"]["total"]),
        human_bytes(report["bytes_copied_by_moves"]["total"]),
        human_bytes(report["bytes_allocated"]["total"]),
        human_bytes(report["peak_bytes"]["total"]),
    )
    return table


def moves_line(report: dict[str, Any]) -> str:
    """`moves: 2 aliased, 1 copied (NO_PEER 1)`."""
    reasons = ", ".join(f"{name} {count}" for name, count in report["move_reasons"].items())
    text = f"moves: {report['moves_aliased']} aliased, {report['moves_copied']} copied"
    return text + (f" ({reasons})" if reasons and report["moves_copied"] else "")
