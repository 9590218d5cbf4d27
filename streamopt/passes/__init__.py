"""Passes: the registry every pass module adds itself to, and the pass manager.

A pass is a small class with a command-line `flag`, a one-line `summary` (its `--help` text) and
`run(module)`. `PASS_INDEX` says, for each flag, which module defines the pass and its summary,
so the command line can offer and list every pass while importing only the ones a run uses (a
test checks the index against the classes). `PASSES` maps flags to the classes imported so far;
`PassManager` runs a list of passes in order, verifies the IR after each one, and collects their
statistics.
"""

from __future__ import annotations

import importlib
import re
import time
from collections.abc import Callable, Iterable
from typing import ClassVar, TypeVar

from streamopt.ir.module import Module
from streamopt.ir.verify import verify_module
from streamopt.records import Record

PassClass = TypeVar("PassClass", bound=type["Pass"])

PASSES: dict[str, type[Pass]] = {}


class PassEntry(Record):
    """Where pass `--flag` lives and its one-line summary, known without importing it."""

    module: str
    summary: str


# In --help order. Each entry's summary is its class's `summary`.
PASS_INDEX: dict[str, PassEntry] = {
    "canonicalize": PassEntry(
        "streamopt.passes.canonicalize", "Fold ops and remove unused side-effect-free ops"
    ),
    "cse": PassEntry(
        "streamopt.passes.cse",
        "Eliminate common subexpressions: merge equal pure ops (mlir-opt's --cse)",
    ),
    "elide-async-copies": PassEntry(
        "streamopt.passes.elide_async_copies",
        "Remove unneeded clones and turn last-use transfers into stream.async.move",
    ),
    "strip-debuginfo": PassEntry(
        "streamopt.passes.strip_debuginfo", "Remove debug locations (loc(...)) from every op"
    ),
    "lower-to-cmd": PassEntry(
        "streamopt.lowering.lower_to_cmd",
        "Lower async stream IR to cmd IR as IREE's stream phase ends: --lower-async-to-cmd,"
        " --pack-constants, --pack-dispatch-operands, --convert-scf-to-cf",
    ),
    "lower-async-to-cmd": PassEntry(
        "streamopt.lowering.lower_to_cmd",
        "Lower async stream ops to cmd IR: resource allocas, cmd.execute regions, cmd.move"
        " timeline ops and deallocas, ordered by timepoints",
    ),
    "pack-constants": PassEntry(
        "streamopt.lowering.pack_constants",
        "Pack stream.resource.constants into util.buffer.constant host data, mapped or read as"
        " IREE's PackConstants does",
    ),
    "convert-scf-to-cf": PassEntry(
        "streamopt.lowering.convert_scf_to_cf",
        "Convert scf.if/for/while on the host into cf branches (as IREE's stream phase ends)",
    ),
    "expand-cmd-moves": PassEntry(
        "streamopt.lowering.expand_cmd_moves",
        "Rewrite each stream.cmd.move into stream.resource.alloca, a one-copy"
        " stream.cmd.execute and a stream.resource.dealloca of the source",
    ),
    "lower-cmd-moves-to-calls": PassEntry(
        "streamopt.lowering.lower_cmd_moves_to_calls",
        "Rewrite each stream.cmd.move into a util.call of the imported "
        "streamopt.queue_move.<lifetimes>, decided at run time (see streamopt.move_api)",
    ),
    "pack-dispatch-operands": PassEntry(
        "streamopt.lowering.pack_dispatch_operands",
        "Pack stream.cmd.dispatch operands into i32 push constants (index: two words), and the"
        " executables' arguments to match",
    ),
    "lower-cmd-to-hal": PassEntry(
        "streamopt.lowering.lower_cmd_to_hal",
        "Lower cmd-phase stream IR (and stream.cmd.move) to hal queue ops and fences",
    ),
    "expand-moves": PassEntry(
        "streamopt.lowering.expand_moves",
        "Rewrite hal.device.queue.move into queue alloca + copy + dealloca (always copies)",
    ),
    "lower-to-hal": PassEntry(
        "streamopt.lowering.lower_to_hal",
        "Lower async stream IR to hal: --lower-async-to-cmd, then --lower-cmd-to-hal",
    ),
}


def parse_pipeline(text: str) -> list[str]:
    """The pass flags a pipeline's text names, in order: `a,b` or mlir-opt's
    `builtin.module(a,b)` (or `any(a,b)`). Raises ValueError naming the first unknown pass,
    and for what streamopt does not run: a pipeline nested on other ops (`util.func(cse)`;
    every pass of streamopt runs on the whole module) and pass options (`cse{...}`)."""
    known = PASS_INDEX
    text = text.strip()
    inner = re.fullmatch(r"(?:builtin\.module|any)?\((.*)\)", text, re.DOTALL)
    if inner:
        text = inner.group(1)
    names: list[str] = []
    for element in _pipeline_elements(text):
        if "(" in element:
            anchor, _, nested = element.partition("(")
            flat = ",".join(_nested_names(nested[:-1]))
            raise ValueError(
                f"nested pipeline '{element}' is not supported: every streamopt pass runs on "
                f"the whole module, not on each '{anchor.strip()}' "
                f"(to run them on the module: 'builtin.module({flat})')"
            )
        if "{" in element:
            raise ValueError(f"pass options are not supported: '{element}'")
        if element not in known:
            raise ValueError(f"unknown pass '{element}'")
        names.append(element)
    return names


def _pipeline_elements(text: str) -> list[str]:
    """`text` split at its commas outside brackets, each part stripped (empty parts left
    out). Raises ValueError when its brackets do not balance."""
    # Imported when first needed: start-up time.
    from streamopt.parser.token_values import split_top_level

    if text.count("(") != text.count(")") or text.count("{") != text.count("}"):
        raise ValueError(f"unbalanced brackets in pass pipeline '{text}'")
    return [element.strip() for element in split_top_level(text) if element.strip()]


def _nested_names(text: str) -> list[str]:
    """The pass names of a nested pipeline's text, at any depth."""
    names: list[str] = []
    for element in _pipeline_elements(text):
        if "(" in element and element.endswith(")"):
            names.extend(_nested_names(element.partition("(")[2][:-1]))
        else:
            names.append(element)
    return names


def register_pass(cls: PassClass) -> PassClass:
    """Class decorator: make `cls` available as `--<cls.flag>`."""
    assert cls.flag and cls.flag not in PASSES, f"pass flag {cls.flag!r} registered twice"
    PASSES[cls.flag] = cls
    return cls


def pass_class(flag: str) -> type[Pass]:
    """The class of pass `--flag` (a key of `PASS_INDEX`), importing only its module."""
    found = PASSES.get(flag)
    if found is None:
        importlib.import_module(PASS_INDEX[flag].module)
        found = PASSES[flag]
    return found


def load_all() -> dict[str, type[Pass]]:
    """Import every pass module so that all passes are registered; return the table."""
    # By the index: the registry lies below the passes and lowerings it lists.
    for entry in PASS_INDEX.values():
        importlib.import_module(entry.module)
    return PASSES


class Statistic:
    """A named counter a pass reports with `--stats`."""

    __slots__ = ("description", "name", "value")

    def __init__(self, name: str, description: str, value: int = 0) -> None:
        self.name = name
        self.description = description
        self.value = value


class Pass:
    """Base of all passes."""

    flag: ClassVar[str] = ""
    summary: ClassVar[str] = ""

    def __init__(self) -> None:
        self.statistics: dict[str, Statistic] = {}
        # Free-form lines a pass adds to its statistics report (for example, why a transfer
        # was kept).
        self.report_lines: list[str] = []

    @property
    def name(self) -> str:
        return type(self).__name__

    def stat(self, name: str, description: str, amount: int = 1) -> None:
        """Add `amount` to statistic `name`."""
        statistic = self.statistics.get(name)
        if statistic is None:
            statistic = self.statistics[name] = Statistic(name, description)
        statistic.value += amount

    def run(self, module: Module) -> None:
        raise NotImplementedError


class PipelinePass(Pass):
    """A pass that runs other passes (`stages`, by flag) in order, verifying in between; their
    statistics are its own, named `stage.statistic`. The stages are looked up when it runs,
    so it works as soon as they are registered, whichever module provides them."""

    stages: ClassVar[tuple[str, ...]] = ()

    def run(self, module: Module) -> None:
        # Imported when first needed: start-up time.
        from streamopt.diagnostics import error

        registry = load_all()
        for flag in self.stages:
            if flag not in registry:
                raise error(
                    f"--{self.flag} needs the --{flag} pass, which this streamopt does not have",
                    module.op.location,
                )
        for index, flag in enumerate(self.stages):
            stage = registry[flag]()
            stage.run(module)
            if index + 1 < len(self.stages):
                # The next stage expects valid input, as a pass manager would check.
                verify_module(module)
            for statistic in stage.statistics.values():
                self.stat(f"{flag}.{statistic.name}", statistic.description, statistic.value)
            self.report_lines.extend(stage.report_lines)


class PassManager:
    """Runs passes in order, verifying after each."""

    def __init__(
        self,
        passes: list[Pass] | None = None,
        verify_each: bool = True,
        after_pass: Callable[[Pass, Module], None] | None = None,
        before_pass: Callable[[Pass, Module], None] | None = None,
    ) -> None:
        self.passes: list[Pass] = [] if passes is None else passes
        self.verify_each = verify_each
        # Called before and after each pass with (pass, module), e.g. for
        # --print-ir-before-all and --print-ir-after-all.
        self.before_pass = before_pass
        self.after_pass = after_pass
        # The wall seconds each pass of the last run took (not its verification), in order.
        self.seconds: list[float] = []

    @classmethod
    def from_flags(cls, flags: Iterable[str], **kwargs: object) -> PassManager:
        return cls([pass_class(flag)() for flag in flags], **kwargs)  # type: ignore[arg-type]

    def run(self, module: Module) -> None:
        """Run each pass on `module` in order. Raises DiagnosticError for what a pass reports,
        or what the verifier finds after it (with `verify_each`)."""
        self.seconds = []
        for pass_ in self.passes:
            if self.before_pass is not None:
                self.before_pass(pass_, module)
            started = time.perf_counter()
            pass_.run(module)
            self.seconds.append(time.perf_counter() - started)
            if self.verify_each:
                verify_module(module)
            if self.after_pass is not None:
                self.after_pass(pass_, module)

    @property
    def statistics(self) -> dict[str, dict[str, int]]:
        """Each pass's statistics, by pass flag then statistic name (summed when a pass ran
        more than once), as `--stats` reports them."""
        table: dict[str, dict[str, int]] = {}
        for pass_ in self.passes:
            counts = table.setdefault(pass_.flag, {})
            for name, statistic in pass_.statistics.items():
                counts[name] = counts.get(name, 0) + statistic.value
        return table

    def statistics_report(self) -> str:
        """MLIR-style `--stats` text for the passes that ran."""
        lines = [
            "===" + "-" * 73 + "===",
            " " * 25 + "... Pass statistics report ...",
            "===" + "-" * 73 + "===",
        ]
        for pass_ in self.passes:
            lines.append(pass_.name)
            width = max((len(str(s.value)) for s in pass_.statistics.values()), default=1)
            for statistic in sorted(pass_.statistics.values(), key=lambda s: s.name):
                lines.append(
                    f"  (S) {statistic.value:>{width}} {statistic.name} - {statistic.description}"
                )
            lines.extend("  " + line for line in pass_.report_lines)
        return "\n".join(lines) + "\n"
