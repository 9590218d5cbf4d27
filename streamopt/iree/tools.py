"""Running IREE's command-line tools as named stages.

A stage is one run of `iree-compile` or `iree-opt`. When it fails, its first error becomes a
streamopt diagnostic: `[stage] message` at the location IREE reported, quoted from the file IREE
read (the user's input, or the intermediate IR streamopt wrote), so a failure prints as every
other streamopt error does and exits 1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from streamopt.diagnostics import UNKNOWN_LOCATION, Diagnostic, DiagnosticError, Location, Source
from streamopt.lazy_regex import lazy_compile

# `path:line:col: error: message` as MLIR prints it.
_MLIR_DIAGNOSTIC = lazy_compile(r"^(.+?):(\d+):(\d+): (error|warning|note): (.*)$")


class ToolMissing(Exception):
    """An IREE tool is not installed."""


def find_tool(name: str) -> str:
    """The path of IREE tool `name` (`iree-compile`, `iree-opt`): from `PATH` (the
    environment's own, e.g. a venv's bin), else from the iree-base-compiler package."""
    found = shutil.which(name)
    if found is not None:
        return found
    try:
        from iree.compiler.tools.binaries import find_tool as find_packaged
    except ImportError:
        raise ToolMissing(f"{name} is not installed (pip install iree-base-compiler)") from None
    try:
        return str(find_packaged(name))
    except Exception:
        raise ToolMissing(f"{name} is not installed (pip install iree-base-compiler)") from None


@dataclass
class StageTiming:
    """How long one stage took (wall seconds), and what it ran."""

    stage: str
    seconds: float
    command: list[str] = field(default_factory=list)


def run_stage(
    stage: str,
    command: list[str],
    timings: list[StageTiming] | None = None,
    sources: dict[str, str] | None = None,
) -> str:
    """Run `command` as stage `stage` and return its stdout.

    On failure, raise a `DiagnosticError` for IREE's first error (with its notes), located in
    the file it names; `sources` maps paths to the text to quote when the file is not on disk.
    """
    started = time.perf_counter()
    try:
        completed = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise DiagnosticError(
            Diagnostic("error", f"[{stage}] cannot run {command[0]}: {exc}", UNKNOWN_LOCATION)
        ) from None
    if timings is not None:
        timings.append(StageTiming(stage, time.perf_counter() - started, command))
    if completed.returncode != 0:
        raise DiagnosticError(_diagnostics(stage, command, completed, sources or {}))
    return completed.stdout


def _diagnostics(
    stage: str,
    command: list[str],
    completed: subprocess.CompletedProcess[str],
    sources: dict[str, str],
) -> list[Diagnostic]:
    tool = os.path.basename(command[0])
    found: list[Diagnostic] = []
    cache: dict[str, Source | None] = {}
    for line in completed.stderr.splitlines():
        match = _MLIR_DIAGNOSTIC.match(line)
        if match is None:
            continue
        path, line_no, column, severity, message = match.groups()
        location = Location(_source(path, sources, cache), int(line_no), int(column))
        if location.source is None:
            location = Location(Source(path, ""), int(line_no), int(column))
        if severity == "note" and found:
            found[-1].attach_note(message, location)
        elif severity == "error":
            if found:
                break
            found.append(Diagnostic("error", f"[{stage}] {tool}: {message}", location))
    if found:
        return found
    tail = [line for line in completed.stderr.strip().splitlines() if line.strip()][-5:]
    detail = "; ".join(tail) if tail else f"exit status {completed.returncode}"
    return [Diagnostic("error", f"[{stage}] {tool} failed: {detail}", UNKNOWN_LOCATION)]


def _source(path: str, sources: dict[str, str], cache: dict[str, Source | None]) -> Source | None:
    if path not in cache:
        text = sources.get(path)
        if text is None:
            try:
                text = Path(path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = None
        cache[path] = Source(path, text) if text is not None else None
    return cache[path]
