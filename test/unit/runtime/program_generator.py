"""Random multi-device programs in IREE's async syntax, and the differential check they feed.

`write_program(chooser)` writes a module that uses every way storage changes hands or leaves
what `--elide-async-copies` can see: splats, transfers (across devices, to the same device,
across unified memory), clones, slices, updates, dispatches that make new storage or write in
place, `stream.tensor.export`, global stores and loads, an op streamopt does not model
(`scf.execute_region`), private and public functions called from several places and from
loops, `scf.if` merges, `scf.for` / `scf.while` loops whose body also reads what it was
started with, `cf` diamonds and loops, and `stream.async.execute` captures. The programs are
valid under value semantics, as IREE hands them to ElideAsyncCopies: an op that writes in
place only writes storage no other live value can see (a fresh value in its own scope, or
else a copy-on-write clone made just before), so a form that computes other bytes, or reads a
buffer a move consumed, shows a wrong rewrite.

`check_program(program)` runs the program as given and after each pipeline of
`streamopt-run --compare`, and says what went wrong (None if every form computes the same
bytes). Decisions go through a `Chooser`; `RandomChooser(seed)` makes program `seed`, the same
one on every run. From the command line, programs `SEED*1000003 + i` for i below COUNT (so
`--seed 0 --count 300` are the programs the test suite runs):

    python test/unit/runtime/program_generator.py --count 10000 --seed 1 [--forms elided]
    python test/unit/runtime/program_generator.py --first 1234 --count 1 --print
"""

# IR lines cannot wrap.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

Item = TypeVar("Item")

DEVICES = ("dev_a", "dev_b", "dev_c")
T = "!stream.resource<transient>"
T16 = f"{T}{{%c16}}"
T8 = f"{T}{{%c8}}"

KERNELS = {
    "mix1": ("readonly", "writeonly"),
    "mix2": ("readonly", "readonly", "writeonly"),
    "update": ("readwrite",),
}
"""The kernels programs dispatch and how each touches its bindings."""

UNKNOWN_OP = "scf.execute_region"
"""An op streamopt does not model (the interpreter runs it; the hal lowering refuses it)."""

UNKNOWN_OP_HOLDING_DISPATCH = f"{UNKNOWN_OP} holding a dispatch"
"""The construct of an unknown op with an async op inside: the cmd lowering refuses it too
(it cannot schedule an op whose region may run at any time)."""

UNIFIED_TOPOLOGIES = (
    "[(@dev_a -> @dev_b = {unified_memory = true}), (@dev_b -> @dev_a = {unified_memory = true})]",
    "[(@dev_a -> @dev_b = {unified_memory = true}), (@dev_b -> @dev_a = {unified_memory = true}), "
    "(@dev_a -> @dev_c = {unified_memory = true}), (@dev_c -> @dev_a = {unified_memory = true})]",
    "[(@dev_a -> @dev_c = {unified_memory = true}), (@dev_b -> @dev_c = {transparent_access = true})]",
)
"""`stream.topology` links for programs that do not run on the default topology."""


class Chooser(Protocol):
    """Where the random decisions come from."""

    def integer(self, low: int, high: int) -> int:
        """A whole number in [low, high]."""
        ...

    def choice(self, options: Sequence[Item]) -> Item:
        """One of `options` (not empty)."""
        ...


class RandomChooser:
    """Decisions from a seeded `random.Random`."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self.random.randint(low, high)

    def choice(self, options: Sequence[Item]) -> Item:
        return options[self.random.randrange(len(options))]


def affinity(device: str) -> str:
    return f"#hal.device.affinity<@{device}>"


def executable() -> str:
    """`@ex` with the code of every kernel: hal-level dispatches only know which bindings a
    kernel reads and writes from that code."""
    exports = []
    functions = []
    for name, accesses in KERNELS.items():
        exports.append(
            f"""  stream.executable.export public @{name} workgroups() -> (index, index, index) {{
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    stream.return %x, %y, %z : index, index, index
  }}"""
        )
        arguments = ", ".join(f"%arg{i}: !stream.binding" for i in range(len(accesses)))
        subspans = "\n".join(
            f"      %{i} = stream.binding.subspan %arg{i}[%c0] : !stream.binding -> "
            f"!iree_tensor_ext.dispatch.tensor<{access}:tensor<16xi8>>"
            for i, access in enumerate(accesses)
        )
        functions.append(
            f"""    func.func @{name}({arguments}) {{
      %c0 = arith.constant 0 : index
{subspans}
      return
    }}"""
        )
    body = "\n".join(exports) + "\n  builtin.module {\n" + "\n".join(functions) + "\n  }"
    return f"stream.executable private @ex {{\n{body}\n}}"


# -- values and scopes -----------------------------------------------------------------------


@dataclass(eq=False)
class Resource:
    """A 16-byte resource value the program may use.

    `exclusive`: no other live value can name its storage (a fresh result of its own scope
    that was never handed on, captured, exported or stored), so it may be written in place.
    """

    name: str
    device: str
    exclusive: bool = False


@dataclass(eq=False)
class Scope:
    """The values visible at a point: those defined in this block or region, then those of the
    enclosing scopes (which dominate it). Only a scope's own values may be written in place."""

    parent: Scope | None = None
    own: list[Resource] = field(default_factory=list)
    # Executes isolate resources: only their captures are visible inside.
    isolated: bool = False
    # The scope dominates the function's return (so a buffer view made here can be returned).
    spine: bool = False
    # Outer values not to use here (a loop's inits, when loops may not read them).
    hidden: frozenset[int] = frozenset()

    def visible(self) -> list[Resource]:
        """Newest first."""
        values = self.own[::-1]
        if self.parent is not None and not self.isolated:
            values.extend(v for v in self.parent.visible() if id(v) not in self.hidden)
        return values

    def add(self, value: Resource) -> Resource:
        self.own.append(value)
        return value


@dataclass(frozen=True)
class Options:
    """Which constructs programs may contain (all by default)."""

    unknown_ops: bool = True
    exports: bool = True
    cf: bool = True
    cf_loops: bool = True
    loops_read_inits: bool = True


@dataclass
class Function:
    """A function already written, as its callers see it."""

    name: str
    public: bool
    argument_devices: list[str]
    result_devices: list[str]
    text: str = ""


@dataclass
class Program:
    """A generated module, the inputs to run its `@main` with, and what it contains."""

    text: str
    inputs: list[str]
    constructs: Counter[str]

    @property
    def has_unknown_op(self) -> bool:
        return self.constructs[UNKNOWN_OP] > 0


# -- writing one function --------------------------------------------------------------------


class FunctionWriter:
    """Writes the body of one function: a list of blocks, each a list of lines."""

    def __init__(self, program: ProgramWriter, name: str, is_main: bool) -> None:
        self.program = program
        self.chooser = program.chooser
        self.name = name
        self.is_main = is_main
        self.blocks: list[list[str]] = [[]]
        self.block_count = 0
        self.indent = 2
        self.views: list[str] = []
        self.budget = 0
        # Values the program stops using (so that the op that used them last is a last use).
        self.retired: set[Resource] = set()
        # A value the next handover (call argument, loop init, yield, branch, capture) takes.
        self.focus: Resource | None = None

    # -- emitting --------------------------------------------------------------------------

    def emit(self, line: str) -> None:
        self.blocks[-1].append(" " * self.indent + line)

    def fresh(self, prefix: str = "v") -> str:
        return self.program.fresh(prefix)

    def note(self, construct: str) -> None:
        self.program.constructs[construct] += 1

    def device(self) -> str:
        return self.chooser.choice(DEVICES)

    def pick(self, scope: Scope, device: str | None = None) -> Resource | None:
        values = [v for v in scope.visible() if v not in self.retired]
        if device is not None:
            values = [v for v in values if v.device == device]
        if not values:
            return None
        # Favour recent values, so that chains form.
        if self.chooser.integer(0, 2):
            values = values[:4]
        return self.chooser.choice(values)

    def on(self, device: str, scope: Scope) -> str:
        # Ops inside an execute region take its affinity.
        return "" if scope.isolated else f"on({affinity(device)}) "

    @staticmethod
    def share(value: Resource) -> None:
        """`value`'s storage is now visible elsewhere: it may no longer be written in place."""
        value.exclusive = False

    def maybe_retire(self, value: Resource, odds: int = 2) -> None:
        """With probability 1/`odds`, use `value` no more: what just used it was its last use."""
        if self.chooser.integer(1, odds) == 1:
            self.retired.add(value)

    # -- straight-line ops -----------------------------------------------------------------

    def splat(self, scope: Scope, device: str | None = None) -> Resource:
        device = device or self.device()
        name = self.fresh()
        pattern = self.chooser.integer(1, 4)
        self.emit(
            f"{name} = stream.async.splat {self.on(device, scope)}%c{pattern}_i8 : i8 -> {T16}"
        )
        self.note("splat")
        return scope.add(Resource(name, device, exclusive=True))

    def transfer(self, scope: Scope, value: Resource, target: str) -> Resource:
        name = self.fresh()
        source = "" if scope.isolated else f"from({affinity(value.device)}) "
        self.emit(
            f"{name} = stream.async.transfer {value.name} : {T16} {source}-> to({affinity(target)}) {T16}"
        )
        self.note("same-device transfer" if target == value.device else "transfer")
        self.maybe_retire(value)
        return scope.add(Resource(name, target, exclusive=True))

    def clone(self, scope: Scope, value: Resource) -> Resource:
        name = self.fresh()
        self.emit(
            f"{name} = stream.async.clone {self.on(value.device, scope)}{value.name} : {T16} -> {T16}"
        )
        self.note("clone")
        self.maybe_retire(value, 3)
        return scope.add(Resource(name, value.device, exclusive=True))

    def dispatch(self, scope: Scope, operands: list[Resource]) -> Resource:
        name = self.fresh()
        device = operands[0].device
        ranges = ", ".join(f"{v.name}[%c0 to %c16 for %c16]" for v in operands)
        types = ", ".join(T16 for _ in operands)
        self.emit(
            f"{name} = stream.async.dispatch {self.on(device, scope)}@ex::@mix{len(operands)}({ranges}) : ({types}) -> {T16}"
        )
        self.note("dispatch")
        return scope.add(Resource(name, device, exclusive=True))

    def writable(self, scope: Scope, value: Resource) -> Resource:
        """`value` itself if it may be written in place (then it is used up), else a
        copy-on-write clone of it, as IREE materializes one."""
        if value.exclusive and value in scope.own and self.chooser.integer(0, 3):
            scope.own.remove(value)
            return value
        clone = self.clone(scope, value)
        scope.own.remove(clone)
        return clone

    def in_place(self, scope: Scope, value: Resource) -> Resource:
        target = self.writable(scope, value)
        name = self.fresh()
        self.emit(
            f"{name} = stream.async.dispatch {self.on(target.device, scope)}@ex::@update({target.name}[%c0 to %c16 for %c16]) : ({T16}) -> {target.name}{{%c16}}"
        )
        self.note("in-place dispatch")
        return scope.add(Resource(name, target.device, exclusive=True))

    def slice(self, scope: Scope, source: Resource) -> str:
        """An 8-byte slice of `source` at one of three offsets; its name."""
        piece = self.fresh("s")
        offset = self.chooser.choice(("%c0", "%c4", "%c8"))
        end = {"%c0": "%c8", "%c4": "%c12", "%c8": "%c16"}[offset]
        self.emit(
            f"{piece} = stream.async.slice {self.on(source.device, scope)}{source.name}[{offset} to {end}] : {T16} -> {T8}"
        )
        self.note("slice")
        return piece

    def update(self, scope: Scope, value: Resource, source: Resource) -> Resource:
        # A slice of `source` written over part of (a writable) `value`.
        piece = self.slice(scope, source)
        target = self.writable(scope, value)
        name = self.fresh()
        at = self.chooser.choice(("%c0", "%c4", "%c8"))
        at_end = {"%c0": "%c8", "%c4": "%c12", "%c8": "%c16"}[at]
        self.emit(
            f"{name} = stream.async.update {self.on(target.device, scope)}{piece}, {target.name}[{at} to {at_end}] : {T8} -> {target.name} as {T16}"
        )
        self.note("update")
        return scope.add(Resource(name, target.device, exclusive=True))

    def slice_read(self, scope: Scope, source: Resource) -> Resource:
        """A slice of `source` read by a dispatch, a copy or a transfer (the reads slice
        folding serves), sometimes after `source` is written in place (or cloned and the
        clone written) between the slice and its reader."""
        piece = self.slice(scope, source)
        if self.chooser.integer(0, 3) == 0:
            self.in_place(scope, source)
            self.note("slice source written before its reader")
        # Inside an execute region a transfer takes no from(...): read there by the others.
        reader = self.chooser.integer(0, 1 if scope.isolated else 2)
        name = self.fresh()
        device = source.device
        if reader == 0:
            at = self.chooser.choice(("%c0", "%c4"))
            self.emit(
                f"{name} = stream.async.dispatch {self.on(device, scope)}@ex::@mix1({piece}[{at} to %c8 for %c4]) : ({T8}) -> {T16}"
            )
            self.note("slice read by a dispatch")
        elif reader == 1:
            target = self.writable(scope, self.pick(scope, device) or source)
            device = target.device
            at = self.chooser.choice(("%c0", "%c4", "%c8"))
            at_end = {"%c0": "%c8", "%c4": "%c12", "%c8": "%c16"}[at]
            self.emit(
                f"{name} = stream.async.copy {self.on(device, scope)}{piece}[%c0 to %c8], {target.name}[{at} to {at_end}], %c8 : {T8} -> {target.name} as {T16}"
            )
            self.note("slice read by a copy")
        else:
            device = self.device()
            moved = self.fresh()
            self.emit(
                f"{moved} = stream.async.transfer {piece} : {T8} from({affinity(source.device)}) -> to({affinity(device)}) {T8}"
            )
            self.emit(
                f"{name} = stream.async.dispatch {self.on(device, scope)}@ex::@mix1({moved}[%c0 to %c8 for %c8]) : ({T8}) -> {T16}"
            )
            self.note("slice read by a transfer")
        return scope.add(Resource(name, device, exclusive=True))

    def export(self, value: Resource) -> None:
        name = self.fresh("view")
        self.emit(
            f"{name} = stream.tensor.export on({affinity(value.device)}) {value.name} : tensor<16xi8> in {T16} -> !hal.buffer_view"
        )
        self.share(value)
        self.views.append(name)
        self.note("export")

    def global_store(self, value: Resource) -> None:
        symbol = self.chooser.choice(self.program.globals)
        self.emit(f"util.global.store {value.name}, @{symbol} : {T}")
        self.share(value)
        self.note("global store")

    def global_load(self, scope: Scope) -> Resource:
        symbol = self.chooser.choice(self.program.globals)
        name = self.fresh("g")
        self.emit(f"{name} = util.global.load @{symbol} : {T}")
        self.note("global load")
        # Globals only ever hold storage on dev_a (see `global_store` callers).
        return scope.add(Resource(name, "dev_a"))

    def unknown(self, scope: Scope, value: Resource) -> Resource:
        """An op streamopt does not model: it yields `value` itself or a dispatch of it."""
        name = self.fresh("u")
        self.share(value)
        self.emit(f"{name} = {UNKNOWN_OP} -> {T} {{")
        self.indent += 2
        inner = Scope(scope)
        yielded = value
        if self.chooser.integer(0, 1):
            yielded = self.dispatch(inner, [value])
            self.note(UNKNOWN_OP_HOLDING_DISPATCH)
        self.emit(f"scf.yield {yielded.name} : {T}")
        self.indent -= 2
        self.emit("}")
        self.note(UNKNOWN_OP)
        return scope.add(Resource(name, value.device))

    def handed(self, scope: Scope, devices: list[str]) -> list[Resource]:
        """Values to hand on (call arguments, loop inits, yields, branch operands), one per
        device in `devices`: the focus first if it fits, then visible values (made on the
        device if there is none). Each may be used here for the last time."""
        values = []
        for device in devices:
            focus = self.focus
            if focus is not None and focus.device == device and focus in scope.visible():
                self.focus = None
                value: Resource | None = focus
            else:
                value = self.pick(scope, device)
            if value is None:
                source = self.pick(scope)
                value = (
                    self.splat(scope, device)
                    if source is None
                    else self.transfer(scope, source, device)
                )
            self.share(value)
            values.append(value)
        for value in values:
            self.maybe_retire(value)
        return values

    def call(self, scope: Scope, public: bool | None = None) -> list[Resource]:
        functions = [
            f for f in self.program.callable_from(self.name) if public is None or f.public == public
        ]
        if not functions:
            return []
        function = self.chooser.choice(functions)
        if self.focus is not None and self.chooser.integer(0, 2) == 0:
            # Sometimes the same storage twice.
            arguments = self.handed(scope, function.argument_devices[:1]) * len(
                function.argument_devices
            )
        else:
            arguments = self.handed(scope, function.argument_devices)
        names = ", ".join(v.name for v in arguments)
        types = ", ".join(T for _ in arguments)
        lhs, result_names = self.results(len(function.result_devices), "r")
        results = [Resource(n, d) for n, d in zip(result_names, function.result_devices)]
        result_types = ", ".join(T for _ in results)
        self.emit(
            f"{lhs} = util.call @{function.name}({names}, %flag, %trip) : ({types}, i1, index) -> ({result_types})"
        )
        self.note("call" if not function.public else "call of a public function")
        if scope.parent is not None:
            self.note("call in a region")
        return [scope.add(v) for v in results]

    # -- regions ---------------------------------------------------------------------------

    def results(self, count: int, prefix: str) -> tuple[str, list[str]]:
        """The left-hand side for `count` results and the name of each."""
        base = self.fresh(prefix)
        if count == 1:
            return base, [base]
        return f"{base}:{count}", [f"{base}#{i}" for i in range(count)]

    def yielded(self, scope: Scope, devices: list[str]) -> list[Resource]:
        """Values for a terminator to hand on, one per device in `devices`."""
        return self.handed(scope, devices)

    def body(self, scope: Scope, depth: int, steps: int) -> None:
        for _ in range(steps):
            self.step(scope, depth)

    def if_op(self, scope: Scope, depth: int) -> None:
        count = self.chooser.integer(1, 2)
        devices = [self.device() for _ in range(count)]
        focus = self.focus
        if focus is not None:
            devices[0] = focus.device
        lhs, names = self.results(count, "if")
        flag = self.chooser.choice(("%flag", "%nflag"))
        self.emit(f"{lhs} = scf.if {flag} -> ({', '.join(T for _ in devices)}) {{")
        for region in ("then", "else"):
            self.indent += 2
            inner = Scope(scope)
            if region == "else" and self.chooser.integer(0, 1):
                self.focus = focus  # Both branches may hand it on.
            self.body(inner, depth + 1, self.chooser.integer(0, 3))
            values = self.yielded(inner, devices)
            self.emit(
                f"scf.yield {', '.join(v.name for v in values)} : {', '.join(T for _ in values)}"
            )
            self.indent -= 2
            self.emit("} else {" if region == "then" else "}")
        self.note("scf.if")
        for name, device in zip(names, devices):
            scope.add(Resource(name, device))

    def loop_inits(self, scope: Scope) -> list[Resource]:
        devices = [self.device() for _ in range(self.chooser.integer(1, 2))]
        if self.focus is not None:
            devices[0] = self.focus.device
        return self.handed(scope, devices)

    def iteration(
        self,
        scope: Scope,
        carried: Resource,
        inits: list[Resource],
        depth: int,
        read_first: bool,
    ) -> list[Resource]:
        """The body of one loop iteration: sometimes the last use of the `carried` value,
        some steps, sometimes reads of what the loop started with; the values it hands to
        the next iteration."""
        if read_first:
            self.read_outer(scope, inits)
        self.consume(scope, carried)
        self.body(scope, depth + 1, self.chooser.integer(1, 3))
        self.read_outer(scope, inits)
        return self.yielded(scope, [v.device for v in inits])

    def loop_scope(self, parent: Scope, inits: list[Resource]) -> Scope:
        """The scope of a loop body: it sees what its parent does, but not the loop's inits
        by their outer names when programs may not read them there."""
        if self.program.options.loops_read_inits:
            return Scope(parent)
        return Scope(parent, hidden=frozenset(id(v) for v in inits))

    def read_outer(self, scope: Scope, inits: list[Resource]) -> None:
        """Sometimes a loop body also reads what the loop started with, by its outer name."""
        if self.program.options.loops_read_inits and self.chooser.integer(0, 1):
            self.dispatch(scope, [self.chooser.choice(inits)])
            self.note("loop body reads its init")

    def for_op(self, scope: Scope, depth: int) -> None:
        inits = self.loop_inits(scope)
        lhs, names = self.results(len(inits), "for")
        index = self.fresh("i")
        carried = [self.fresh("acc") for _ in inits]
        header = ", ".join(f"{c} = {v.name}" for c, v in zip(carried, inits))
        types = ", ".join(T for _ in inits)
        self.emit(
            f"{lhs} = scf.for {index} = %c0 to %trip step %c1 iter_args({header}) -> ({types}) {{"
        )
        self.indent += 2
        inner = self.loop_scope(scope, inits)
        for name, value in zip(carried, inits):
            inner.add(Resource(name, value.device))
        values = self.iteration(inner, inner.own[0], inits, depth, read_first=True)
        self.emit(f"scf.yield {', '.join(v.name for v in values)} : {types}")
        self.indent -= 2
        self.emit("}")
        self.note("scf.for")
        for name, value in zip(names, inits):
            scope.add(Resource(name, value.device))

    def while_op(self, scope: Scope, depth: int) -> None:
        inits = self.loop_inits(scope)
        count = len(inits)
        lhs, names = self.results(count + 1, "while")
        first = [self.fresh("wi")] + [self.fresh("b") for _ in inits]
        types = ", ".join(["index", *(T for _ in inits)])
        header = ", ".join(f"{n} = {v}" for n, v in zip(first, ["%c0", *(v.name for v in inits)]))
        self.emit(f"{lhs} = scf.while ({header}) : ({types}) -> ({types}) {{")
        self.indent += 2
        before = self.loop_scope(scope, inits)
        for name, value in zip(first[1:], inits):
            before.add(Resource(name, value.device))
        condition = self.fresh("cond")
        self.emit(f"{condition} = arith.cmpi slt, {first[0]}, %trip : index")
        self.read_outer(before, inits)
        self.body(before, depth + 1, self.chooser.integer(0, 2))
        passed = self.yielded(before, [v.device for v in inits])
        self.emit(
            f"scf.condition({condition}) {first[0]}, {', '.join(v.name for v in passed)} : {types}"
        )
        self.indent -= 2
        self.emit("} do {")
        second = [self.fresh("wi")] + [self.fresh("d") for _ in inits]
        arguments = ", ".join(f"{n}: {t}" for n, t in zip(second, types.split(", ")))
        self.emit(f"^bb0({arguments}):")
        self.indent += 2
        after = self.loop_scope(scope, inits)
        for name, value in zip(second[1:], passed):
            after.add(Resource(name, value.device))
        values = self.iteration(after, after.own[0], inits, depth, read_first=False)
        step = self.fresh("wn")
        self.emit(f"{step} = arith.addi {second[0]}, %c1 : index")
        self.emit(f"scf.yield {step}, {', '.join(v.name for v in values)} : {types}")
        self.indent -= 2
        self.emit("}")
        self.note("scf.while")
        for name, value in zip(names[1:], inits):
            scope.add(Resource(name, value.device))

    def execute(self, scope: Scope) -> None:
        device = self.focus.device if self.focus is not None else self.device()
        exclusive = {v for v in scope.own if v.exclusive}
        captures = self.handed(scope, [device] * self.chooser.integer(1, 2))
        # A result tied to a capture writes the capture's storage: only storage nobody else
        # sees (the first capture, if it was exclusive to this scope).
        first = captures[0]
        tied = (
            first in exclusive
            and first in scope.own
            and len(set(map(id, captures))) == len(captures)
            and self.chooser.integer(0, 1) == 1
        )
        inside = [self.fresh("cap") for _ in captures]
        inner = Scope(scope, isolated=True)
        for name in inside:
            inner.add(Resource(name, device))
        count = self.chooser.integer(1, 2)
        lhs_base = self.fresh("ex")
        timepoint = self.fresh("tp")
        results_text: list[str] = []
        yielded_names: list[str] = []
        body_lines_at = len(self.blocks[-1])
        self.indent += 2
        if tied:
            # Written in place directly (not through a clone): the result is that storage.
            target = inner.own.pop(0)
            updated = self.fresh()
            self.emit(
                f"{updated} = stream.async.dispatch @ex::@update({target.name}[%c0 to %c16 for %c16]) : ({T16}) -> {target.name}{{%c16}}"
            )
            self.note("in-place dispatch")
            yielded_names.append(updated)
            results_text.append(f"{first.name}{{%c16}}")
        for _ in range(self.chooser.integer(0, 3)):
            self.execute_step(inner)
        for _ in range(count - len(yielded_names)):
            value = self.pick(inner) or self.splat(inner, device)
            yielded_names.append(value.name)
            results_text.append(T16)
        self.emit(
            f"stream.yield {', '.join(yielded_names)} : {', '.join(T16 for _ in yielded_names)}"
        )
        self.indent -= 2
        body = self.blocks[-1][body_lines_at:]
        del self.blocks[-1][body_lines_at:]
        count = len(yielded_names)
        lhs = lhs_base if count == 1 else f"{lhs_base}:{count}"
        names = [lhs_base] if count == 1 else [f"{lhs_base}#{i}" for i in range(count)]
        with_text = ", ".join(f"{v.name} as {n}: {T16}" for v, n in zip(captures, inside))
        result_list = results_text[0] if count == 1 else f"({', '.join(results_text)})"
        self.emit(
            f"{lhs}, {timepoint} = stream.async.execute on({affinity(device)}) with({with_text}) -> {result_list} {{"
        )
        self.blocks[-1].extend(body)
        self.emit("} => !stream.timepoint")
        awaited_base = self.fresh("aw")
        awaited = awaited_base if count == 1 else f"{awaited_base}:{count}"
        self.emit(
            f"{awaited} = stream.timepoint.await {timepoint} => {', '.join(names)} : {', '.join(T16 for _ in names)}"
        )
        if tied:
            scope.own.remove(first)
        for index in range(count):
            name = awaited_base if count == 1 else f"{awaited_base}#{index}"
            scope.add(Resource(name, device, exclusive=tied and index == 0))
        self.note("stream.async.execute")

    def execute_step(self, scope: Scope) -> None:
        kind = self.chooser.choice(("dispatch", "clone", "in_place", "transfer", "splat"))
        value = self.pick(scope)
        if value is None or kind == "splat":
            self.splat(scope, scope.own[0].device if scope.own else "dev_a")
        elif kind == "dispatch":
            self.dispatch(scope, [value])
        elif kind == "clone":
            self.clone(scope, value)
        elif kind == "in_place":
            self.in_place(scope, value)
        else:
            # Inside the region values stay on its device.
            self.transfer(scope, value, value.device)

    # -- control flow graphs ---------------------------------------------------------------

    def new_block(self, arguments: list[tuple[str, str]] | None = None) -> str:
        self.block_count += 1
        label = f"^bb{self.block_count}"
        header = ", ".join(f"{n}: {t}" for n, t in arguments or [])
        self.blocks.append([f"{label}({header}):" if header else f"{label}:"])
        return label

    def diamond(self, scope: Scope, depth: int) -> Scope:
        """`cf.cond_br` to two blocks that join in a block taking one value; the scope after."""
        device = self.device()
        labels = (f"^bb{self.block_count + 1}", f"^bb{self.block_count + 2}")
        join = f"^bb{self.block_count + 3}"
        flag = self.chooser.choice(("%flag", "%nflag"))
        self.emit(f"cf.cond_br {flag}, {labels[0]}, {labels[1]}")
        for _ in labels:
            self.new_block()
            inner = Scope(scope)
            self.body(inner, depth + 1, self.chooser.integer(0, 3))
            (value,) = self.yielded(inner, [device])
            self.emit(f"cf.br {join}({value.name} : {T})")
        merged = self.fresh("j")
        self.new_block([(merged, T)])
        self.note("cf diamond")
        after = Scope(scope, spine=scope.spine)
        after.add(Resource(merged, device))
        return after

    def cf_loop(self, scope: Scope, depth: int) -> Scope:
        """A counted loop of blocks carrying one or two values; the scope after it."""
        inits = self.loop_inits(scope)
        header_label = f"^bb{self.block_count + 1}"
        body_label = f"^bb{self.block_count + 2}"
        exit_label = f"^bb{self.block_count + 3}"
        types = ", ".join(["index", *(T for _ in inits)])
        self.emit(f"cf.br {header_label}(%c0, {', '.join(v.name for v in inits)} : {types})")
        index = self.fresh("ci")
        carried = [self.fresh("cacc") for _ in inits]
        self.new_block([(index, "index"), *((c, T) for c in carried)])
        head = self.loop_scope(scope, inits)
        for name, value in zip(carried, inits):
            head.add(Resource(name, value.device))
        condition = self.fresh("ccond")
        self.emit(f"{condition} = arith.cmpi slt, {index}, %trip : index")
        exit_types = ", ".join(T for _ in carried)
        self.emit(
            f"cf.cond_br {condition}, {body_label}, {exit_label}({', '.join(carried)} : {exit_types})"
        )
        self.new_block()
        inner = Scope(head)
        values = self.iteration(inner, head.own[0], inits, depth, read_first=True)
        following = self.fresh("cn")
        self.emit(f"{following} = arith.addi {index}, %c1 : index")
        self.emit(
            f"cf.br {header_label}({following}, {', '.join(v.name for v in values)} : {types})"
        )
        outs = [self.fresh("cout") for _ in inits]
        self.new_block([(n, T) for n in outs])
        self.note("cf loop")
        after = Scope(scope, spine=scope.spine)
        for name, value in zip(outs, inits):
            after.add(Resource(name, value.device))
        return after

    # -- choosing steps --------------------------------------------------------------------

    STEPS = (
        "splat",
        "transfer",
        "transfer",
        "same-device transfer",
        "clone",
        "dispatch",
        "in_place",
        "update",
        "slice read",
        "export",
        "global store",
        "global load",
        "unknown",
        "call",
        "call",
        "if",
        "for",
        "while",
        "execute",
        "escape then handover",
        "escape then handover",
    )

    def escape(self, scope: Scope, value: Resource) -> bool:
        """Let `value`'s storage leave what the pass can see, one of the ways it can; False if
        none applies here."""
        ways = ["unknown"] if self.program.allow_unknown else []
        if self.is_main and scope.spine and self.program.options.exports:
            ways.append("export")
        if value.device == "dev_a":
            ways.append("global store")
        if any(f.public for f in self.program.callable_from(self.name)):
            ways.append("public call")
        if not ways:
            return False
        way = self.chooser.choice(ways)
        if way == "export":
            self.export(value)
        elif way == "global store":
            self.global_store(value)
        elif way == "unknown":
            self.unknown(scope, value)
        else:
            self.focus = value
            self.call(scope, public=True)
            self.focus = None
        self.note("escape then handover")
        return True

    def consume(self, scope: Scope, value: Resource) -> None:
        """Sometimes use `value` for the last time in a way the pass may rewrite: a transfer
        (a move candidate) or a copy-on-write clone written in place (a clone to elide)."""
        way = self.chooser.integer(0, 3)
        if way == 0:
            self.transfer(scope, value, self.device())
            self.retired.add(value)
        elif way == 1:
            self.in_place(scope, self.clone(scope, value))
            self.retired.add(value)

    def handover(self, scope: Scope, depth: int, value: Resource) -> None:
        """Hand `value` on by one of the ways storage changes name."""
        self.focus = value
        ways = ["if", "for", "while", "execute"]
        if any(not f.public for f in self.program.callable_from(self.name)):
            ways += ["call", "call"]
        way = self.chooser.choice(ways)
        if way == "call":
            self.call(scope, public=False)
        elif way == "if":
            self.if_op(scope, depth)
        elif way == "for":
            self.for_op(scope, depth)
        elif way == "while":
            self.while_op(scope, depth)
        else:
            self.execute(scope)
        self.focus = None
        receiver = self.pick(scope)
        if receiver is not None:
            self.consume(scope, receiver)

    def step(self, scope: Scope, depth: int) -> None:
        if self.budget <= 0:
            return
        self.budget -= 1
        kind = self.chooser.choice(self.STEPS)
        value = self.pick(scope)
        if value is None or kind == "splat":
            self.splat(scope)
            return
        nested = depth < 2
        if kind == "escape then handover" and nested:
            if self.escape(scope, value):
                self.handover(scope, depth, value)
            return
        if kind == "transfer":
            self.transfer(scope, value, self.device())
        elif kind == "same-device transfer":
            self.transfer(scope, value, value.device)
        elif kind == "clone":
            self.clone(scope, value)
        elif kind == "dispatch":
            others = [v for v in scope.visible() if v.device == value.device and v is not value]
            operands = [value]
            if others and self.chooser.integer(0, 1):
                operands.append(self.chooser.choice(others))
            self.dispatch(scope, operands)
        elif kind == "in_place":
            self.in_place(scope, value)
        elif kind == "update":
            self.update(scope, value, self.pick(scope) or value)
        elif kind == "slice read":
            self.slice_read(scope, value)
        elif kind == "export" and self.is_main and scope.spine and self.program.options.exports:
            self.export(value)
        elif kind == "global store":
            stored = self.pick(scope, "dev_a")
            if stored is not None:
                self.global_store(stored)
        elif kind == "global load":
            self.global_load(scope)
        elif kind == "unknown" and self.program.allow_unknown:
            self.unknown(scope, value)
        elif kind == "call" and self.program.callable_from(self.name):
            self.call(scope)
        elif kind == "if" and nested:
            self.if_op(scope, depth)
        elif kind == "for" and nested:
            self.for_op(scope, depth)
        elif kind == "while" and nested:
            self.while_op(scope, depth)
        elif kind == "execute" and nested:
            self.execute(scope)
        else:
            self.dispatch(scope, [value])

    def top_level(self, scope: Scope, steps: int) -> Scope:
        """Steps at the function's top level, where cf diamonds and loops may also appear."""
        for _ in range(steps):
            kind = self.chooser.integer(0, 9)
            if kind == 0 and self.program.allow_cf:
                scope = self.diamond(scope, 0)
            elif kind == 1 and self.program.allow_cf and self.program.options.cf_loops:
                scope = self.cf_loop(scope, 0)
            else:
                self.step(scope, 0)
        return scope

    def text(self, header: str) -> str:
        lines = [header]
        for block in self.blocks:
            lines.extend(block)
        lines.append("}")
        return "\n".join(lines)


PRELUDE = [
    "%c0 = arith.constant 0 : index",
    "%c1 = arith.constant 1 : index",
    "%c4 = arith.constant 4 : index",
    "%c8 = arith.constant 8 : index",
    "%c12 = arith.constant 12 : index",
    "%c16 = arith.constant 16 : index",
    *(f"%c{k}_i8 = arith.constant {k} : i8" for k in range(1, 5)),
    "%true = arith.constant true",
]


class ProgramWriter:
    """Writes a whole module: globals, private and public functions, then `@main`."""

    def __init__(self, chooser: Chooser, options: Options) -> None:
        self.chooser = chooser
        self.options = options
        self.counter = 0
        self.constructs: Counter[str] = Counter()
        self.functions: list[Function] = []
        self.globals = [f"g{i}" for i in range(chooser.integer(1, 2))]
        self.allow_unknown = options.unknown_ops and chooser.integer(0, 3) == 0
        self.allow_cf = options.cf and chooser.integer(0, 2) != 0

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def callable_from(self, name: str) -> list[Function]:
        # Only functions written before: no recursion.
        return [f for f in self.functions if f.name != name and f.text]

    def function(self, index: int) -> Function:
        name = f"f{index}"
        public = self.chooser.integer(0, 4) == 0
        home = self.chooser.choice(DEVICES)
        argument_count = self.chooser.integer(1, 2)
        function = Function(name, public, [home] * argument_count, [])
        writer = FunctionWriter(self, name, is_main=False)
        writer.budget = self.chooser.integer(2, 7)
        for line in PRELUDE:
            writer.emit(line)
        writer.emit("%nflag = arith.xori %flag, %true : i1")
        scope = Scope()
        arguments = []
        for position in range(argument_count):
            argument = Resource(f"%arg{position}", home)
            arguments.append(argument)
            scope.add(argument)
        writer.consume(scope, arguments[0])
        scope = writer.top_level(scope, self.chooser.integer(1, 4))
        devices = [self.chooser.choice(DEVICES) for _ in range(self.chooser.integer(1, 2))]
        if self.chooser.integer(0, 2) == 0:
            # Hand an argument back to the caller.
            writer.focus = arguments[-1]
            devices[0] = home
        values = writer.yielded(scope, devices)
        writer.emit(
            f"util.return {', '.join(v.name for v in values)} : {', '.join(T for _ in values)}"
        )
        function.result_devices = devices
        signature = ", ".join(f"{a.name}: {T}" for a in arguments)
        visibility = "public" if public else "private"
        header = f"util.func {visibility} @{name}({signature}, %flag: i1, %trip: index) -> ({', '.join(T for _ in devices)}) {{"
        function.text = writer.text(header)
        self.note_function(function)
        return function

    def note_function(self, function: Function) -> None:
        self.constructs["public function" if function.public else "private function"] += 1

    def main(self) -> str:
        writer = FunctionWriter(self, "main", is_main=True)
        writer.budget = self.chooser.integer(4, 14)
        for line in PRELUDE:
            writer.emit(line)
        writer.emit("%c0_i32 = arith.constant 0 : i32")
        writer.emit("%flag = arith.cmpi sgt, %flag_i32, %c0_i32 : i32")
        writer.emit("%nflag = arith.xori %flag, %true : i1")
        scope = Scope(spine=True)
        # Every global holds storage before anything loads it.
        for symbol in self.globals:
            initial = writer.splat(scope, "dev_a")
            writer.emit(f"util.global.store {initial.name}, @{symbol} : {T}")
            writer.share(initial)
        writer.splat(scope)
        scope = writer.top_level(scope, self.chooser.integer(2, 6))
        values = scope.visible()
        chosen = values[: self.chooser.integer(1, 3)]
        for value in chosen:
            writer.share(value)
        loads = []
        for symbol in self.globals:
            name = writer.fresh("final")
            writer.emit(f"{name} = util.global.load @{symbol} : {T}")
            loads.append(name)
        results = [v.name for v in chosen] + writer.views + loads
        types = (
            [T for _ in chosen] + ["!hal.buffer_view" for _ in writer.views] + [T for _ in loads]
        )
        writer.emit(f"util.return {', '.join(results)} : {', '.join(types)}")
        header = f"util.func public @main(%flag_i32: i32, %trip: index) -> ({', '.join(types)}) {{"
        return writer.text(header)

    def module(self) -> str:
        for index in range(self.chooser.integer(0, 3)):
            self.functions.append(Function(f"f{index}", False, [], []))
            self.functions[index] = self.function(index)
        main = self.main()
        parts = [
            "util.global private @dev_a : !hal.device",
            "util.global private @dev_b : !hal.device",
            "util.global private @dev_c : !hal.device",
            *(f"util.global private mutable @{g} : {T}" for g in self.globals),
            executable(),
            *(f.text for f in self.functions),
            main,
        ]
        body = "\n".join(parts)
        topology = self.chooser.integer(0, len(UNIFIED_TOPOLOGIES) + 1)
        if topology < len(UNIFIED_TOPOLOGIES):
            self.constructs["unified topology"] += 1
            links = UNIFIED_TOPOLOGIES[topology]
            indented = "\n".join("  " + line for line in body.split("\n"))
            return f"module attributes {{stream.topology = #hal.device.topology<links = {links}>}} {{\n{indented}\n}}"
        return body


ALL_CONSTRUCTS = Options()


SEED_STRIDE = 1_000_003
"""`--seed S` runs the programs whose seeds start at S * SEED_STRIDE."""


def write_program(chooser: Chooser, options: Options = ALL_CONSTRUCTS) -> Program:
    """A random program and the inputs (`--input` values: flag, trip count) to run it with."""
    writer = ProgramWriter(chooser, options)
    text = writer.module()
    inputs = [chooser.choice(["0", "1"]), chooser.choice(["0", "1", "2"])]
    return Program(text, inputs, writer.constructs)


# -- the differential check ------------------------------------------------------------------


@dataclass
class Failure:
    """Why a program failed the check: the form, a short kind for counting, the details."""

    form: str
    kind: str
    details: str

    def __str__(self) -> str:
        return f"[{self.form}] {self.kind}: {self.details}"


HAL_REFUSAL = f"cannot lower '{UNKNOWN_OP}'"
CMD_REFUSAL = f"cannot lower '{UNKNOWN_OP}': it holds"


def forms() -> list[tuple[str, list[str]]]:
    """The forms `streamopt-run --compare` runs whose passes are registered."""
    from streamopt.passes import load_all
    from streamopt.run_command import COMPARE_FORMS

    registered = load_all()
    return [(name, flags) for name, flags in COMPARE_FORMS if all(f in registered for f in flags)]


def run_form(text: str, inputs: list[str], passes: list[str]) -> Any:
    """Parse, verify, run `passes` (verifying after each) and interpret `@main`."""
    from streamopt.ir.verify import verify_module
    from streamopt.parser import parse_module
    from streamopt.passes import PassManager
    from streamopt.runtime.interpreter import run_module

    module = parse_module(text, "program.mlir")
    verify_module(module)
    if passes:
        manager = PassManager.from_flags(passes)
        manager.run(module)
        verify_module(module)
    return run_module(module, "main", inputs)


def check_program(program: Program, only: Sequence[str] | None = None) -> Failure | None:
    """None if every form (or the forms named in `only`) computes the bytes of the program
    as given and reads no buffer a move consumed; else the first failure."""
    from streamopt.diagnostics import DiagnosticError, render
    from streamopt.runtime.interpreter.report import first_difference

    try:
        reference = run_form(program.text, program.inputs, [])
    except DiagnosticError as exc:
        details = "\n".join(render(d) for d in exc.diagnostics)
        return Failure("as given", "the program does not run", details)
    for name, flags in forms():
        if not flags or (only is not None and name not in only):
            continue
        lowers_to_hal = any("hal" in flag for flag in flags)
        # The cmd lowering refuses an unknown op holding an async op (and so every lowering
        # does); the hal lowering refuses every unknown op using stream values.
        refusal = None
        if program.constructs[UNKNOWN_OP_HOLDING_DISPATCH] and any(
            flag.startswith("lower-") for flag in flags
        ):
            refusal = CMD_REFUSAL
        elif program.has_unknown_op and lowers_to_hal:
            refusal = HAL_REFUSAL
        try:
            result = run_form(program.text, program.inputs, flags)
        except DiagnosticError as exc:
            details = "\n".join(render(d) for d in exc.diagnostics)
            if refusal is not None and refusal in details:
                continue  # The lowering refuses what it cannot lower, with a diagnostic.
            kind = "use after move" if "use after move" in details else "error"
            return Failure(name, kind, details)
        if refusal is not None:
            return Failure(name, "lowered an op it does not model", "")
        difference = first_difference(reference, result)
        if difference is not None:
            return Failure(name, "different bytes", difference)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description="Run random programs through every form.")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, help="the first program's seed (default SEED*1000003)")
    parser.add_argument("--print", action="store_true", help="print each program and its inputs")
    parser.add_argument("--forms", default="", help="comma-separated form names (default: all)")
    parser.add_argument("--save", type=Path, help="write failing programs into this folder")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument(
        "--without",
        default="",
        help="comma-separated Options fields to turn off (unknown_ops, exports, cf, cf_loops, loops_read_inits)",
    )
    args = parser.parse_args()
    options = Options(**{name: False for name in args.without.split(",") if name})
    only = [f for f in args.forms.split(",") if f] or None
    failures: Counter[str] = Counter()
    constructs: Counter[str] = Counter()
    start = time.perf_counter()
    first = args.first if args.first is not None else args.seed * SEED_STRIDE
    for seed in range(first, first + args.count):
        program = write_program(RandomChooser(seed), options)
        if args.print:
            print(f"// seed {seed}, inputs: {' '.join(program.inputs)}\n{program.text}")
        constructs.update({k for k, v in program.constructs.items() if v})
        failure = check_program(program, only)
        if failure is None:
            continue
        failures[f"{failure.form}: {failure.kind}"] += 1
        if args.save is not None:
            args.save.mkdir(parents=True, exist_ok=True)
            path = args.save / f"program-{seed}.mlir"
            path.write_text(
                f"// inputs: {' '.join(program.inputs)}\n// {failure}\n".replace("\n", "\n// ")
                + "\n"
                + program.text
                + "\n"
            )
        if not args.quiet:
            print(f"seed {seed}: {failure}".split("\n")[0], flush=True)
    elapsed = time.perf_counter() - start
    print(f"{args.count} programs in {elapsed:.1f} s, {sum(failures.values())} failed")
    for kind, count in failures.most_common():
        print(f"  {count:6d}  {kind}")
    print("programs containing each construct:")
    for construct, count in sorted(constructs.items()):
        print(f"  {count:6d}  {construct}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
