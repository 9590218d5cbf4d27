"""What the IREE benches share: runs in fresh processes, peak memory of the calls, medians with
their spread, and the machine's load.

Each measured run is a process of its own (`in_fresh_process`), so its peak resident memory is
its own and the builds of a comparison can be interleaved: run plain, streamopt and forced-copy
one after another, then again, so that all three see the same minutes of a shared machine.

Peak memory is Linux's high-water mark of the resident set (`VmHWM`), reset just before the
first call (writing 5 to `/proc/self/clear_refs`), minus the resident set at that moment: what
the calls added on top of the loaded program and its arguments.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import os
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from streamopt.iree.moves import QueueMoves
from streamopt.iree.run import run_vmfb
from streamopt.move_api import MoveFlags

MIB = 1 << 20
T = TypeVar("T")


def in_fresh_process(function: Callable[..., T], *args: Any) -> T:
    """`function(*args)` in a new (spawned) Python process."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        return pool.submit(function, *args).result()


def _status_kib(key: str) -> int:
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise KeyError(key)


class PeakMemory:
    """The resident set's high-water mark since `mark()`, above what it was then."""

    def __init__(self) -> None:
        self.start = 0

    def mark(self) -> None:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
            handle.write("5")  # Reset VmHWM to the current resident set.
        self.start = _status_kib("VmRSS") * 1024

    def above_mark(self) -> int:
        return _status_kib("VmHWM") * 1024 - self.start


@dataclass
class Calls:
    """One fresh-process run of a .vmfb: timed calls after a warm-up."""

    call_seconds: list[float]
    """The calls after the warm-up ones."""
    peak_above_start: int
    """Peak resident bytes during every call (warm-up included) above those before them."""
    digest: str
    """A hash of the last call's results."""
    moves: dict[str, Any] = field(default_factory=dict)
    """The move module's report over all calls (empty without it)."""
    calls: int = 1
    """Calls made, warm-up included (to turn the move counts into per-call figures)."""

    def per_call(self, key: str) -> float:
        value = self.moves.get(key, 0)
        if isinstance(value, dict):
            value = value.get("total", 0)
        return float(value) / self.calls


def run_calls(
    vmfb: Path,
    devices: Sequence[str],
    flags: int | None,
    calls: int,
    warmup: int = 1,
    inputs: Sequence[str] = (),
) -> Calls:
    """Call `main` of `vmfb` `warmup + calls` times, with streamopt's move module (`flags`
    added to every move) unless `flags` is None. Run it in a fresh process
    (`in_fresh_process`) for its peak to be its own."""
    moves = QueueMoves(devices, MoveFlags(flags)) if flags is not None else None
    peak = PeakMemory()
    run = run_vmfb(vmfb, devices, None, inputs, [moves] if moves else [], warmup + calls,
                   before_calls=peak.mark)  # fmt: skip
    above = peak.above_mark()
    digest = hashlib.sha256(b"".join(o.key()[2] for o in run.outputs)).hexdigest()[:16]
    return Calls(run.call_seconds[warmup:], above, digest,
                 moves.report() if moves else {}, warmup + calls)  # fmt: skip


@dataclass
class Spread:
    """A median and the range of the values it is the median of."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        """The median and range of `values` (NaN for none: e.g. no ratio was defined)."""
        if not values:
            return cls(math.nan, math.nan, math.nan)
        return cls(statistics.median(values), min(values), max(values))

    def relative(self) -> float:
        """(high - low) / median: how far apart the repetitions were."""
        return (self.high - self.low) / self.median if self.median else 0.0


def ratio_spread(numerators: Sequence[float], denominators: Sequence[float]) -> Spread:
    """The ratio of paired repetitions (same round): median and range."""
    return Spread.of([n / d for n, d in zip(numerators, denominators) if d > 0])


def load() -> str:
    """The machine's load averages over 1, 5 and 15 minutes, as `uptime` prints them."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} ({os.cpu_count()} CPUs)"
