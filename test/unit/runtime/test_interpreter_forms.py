"""Random multi-device programs compute the same bytes in every form.

Hypothesis writes programs in IREE's async syntax over three devices (two CPUs sharing memory
and a discrete one): splats, transfers, clones, dispatches (fresh and in place), scf.if,
scf.for and calls of private functions. Each runs as given and after each registered
pipeline of `streamopt-run --compare` (elided, lowered to cmd and to hal, moves expanded);
the outputs must be byte-identical, and no form may read a buffer a move consumed (the
interpreter reports that as an error).
"""

# IR lines cannot wrap.
# ruff: noqa: E501

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from streamopt.diagnostics import DiagnosticError, render
from streamopt.passes import load_all

from .interp_util import output_bytes, run_ir

DEVICES = ("dev_a", "dev_b", "dev_c")
T = "!stream.resource<transient>"
T16 = f"{T}{{%c16}}"


def affinity(device: str) -> str:
    return f"#hal.device.affinity<@{device}>"


KERNELS = {
    "mix1": ("readonly", "writeonly"),
    "mix2": ("readonly", "readonly", "writeonly"),
    "update": ("readwrite",),
    "then": ("readonly", "writeonly"),
    "step": ("readonly", "writeonly"),
    "callee": ("readonly", "writeonly"),
}
"""The kernels programs dispatch and how each touches its bindings."""


def executable() -> str:
    """`@ex` with the code of every kernel: real dumps hold their executables, and hal-level
    dispatches only know which bindings a kernel reads and writes from that code."""
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


@dataclass
class Value:
    name: str
    device: str


@dataclass
class Program:
    """A program being written: the body of @main, private functions, live values."""

    draw: st.DrawFn
    lines: list[str] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    live: list[Value] = field(default_factory=list)
    counter: int = 0

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def device(self) -> str:
        return self.draw(st.sampled_from(DEVICES))

    def pick(self) -> Value:
        return self.draw(st.sampled_from(self.live))

    def emit(self, line: str, indent: int = 2) -> None:
        self.lines.append(" " * indent + line)

    # -- steps -------------------------------------------------------------------------

    def splat(self) -> None:
        device = self.device()
        name = self.fresh()
        pattern = self.draw(st.integers(1, 4))
        self.emit(
            f"{name} = stream.async.splat on({affinity(device)}) %c{pattern}_i8 : i8 -> {T16}"
        )
        self.live.append(Value(name, device))

    def transfer(self, value: Value, target: str, indent: int = 2) -> Value:
        name = self.fresh()
        self.emit(
            f"{name} = stream.async.transfer {value.name} : {T16} from({affinity(value.device)}) -> to({affinity(target)}) {T16}",
            indent,
        )
        return Value(name, target)

    def clone(self, value: Value, indent: int = 2) -> Value:
        name = self.fresh()
        self.emit(
            f"{name} = stream.async.clone on({affinity(value.device)}) {value.name} : {T16} -> {T16}",
            indent,
        )
        return Value(name, value.device)

    def dispatch(self, operands: list[Value], kernel: str, indent: int = 2) -> Value:
        name = self.fresh()
        device = operands[0].device
        ranges = ", ".join(f"{v.name}[%c0 to %c16 for %c16]" for v in operands)
        types = ", ".join(T16 for _ in operands)
        self.emit(
            f"{name} = stream.async.dispatch on({affinity(device)}) @ex::@{kernel}({ranges}) : ({types}) -> {T16}",
            indent,
        )
        return Value(name, device)

    def in_place(self, value: Value, indent: int = 2) -> Value:
        name = self.fresh()
        self.emit(
            f"{name} = stream.async.dispatch on({affinity(value.device)}) @ex::@update({value.name}[%c0 to %c16 for %c16]) : ({T16}) -> {value.name}{{%c16}}",
            indent,
        )
        return Value(name, value.device)

    def step(self) -> None:
        kind = self.draw(
            st.sampled_from(
                ["splat", "transfer", "clone", "dispatch", "in_place", "if", "for", "call"]
            )
        )
        if kind == "splat" or not self.live:
            self.splat()
        elif kind == "transfer":
            value = self.pick()
            self.live.append(self.transfer(value, self.device()))
        elif kind == "clone":
            self.live.append(self.clone(self.pick()))
        elif kind == "dispatch":
            first = self.pick()
            others = [v for v in self.live if v.device == first.device and v is not first]
            operands = [first]
            if others and self.draw(st.booleans()):
                operands.append(self.draw(st.sampled_from(others)))
            self.live.append(self.dispatch(operands, f"mix{len(operands)}"))
        elif kind == "in_place":
            value = self.pick()
            if self.draw(st.booleans()):
                # Copy-on-write, as IREE materializes it: the clone is what gets updated.
                self.live.append(self.in_place(self.clone(value)))
            else:
                # The update is the value's last use: it is not read again.
                self.live.remove(value)
                self.live.append(self.in_place(value))
        elif kind == "if":
            self.branch(self.pick())
        elif kind == "for":
            self.loop(self.pick())
        else:
            self.call(self.pick())

    def branch(self, value: Value) -> None:
        name = self.fresh()
        other = self.device()
        self.emit(f"{name} = scf.if %flag -> ({T}) {{")
        moved = self.transfer(value, other, indent=4)
        back = self.transfer(self.dispatch([moved], "then", indent=4), value.device, indent=4)
        self.emit(f"scf.yield {back.name} : {T}", 4)
        self.emit("} else {")
        updated = self.in_place(self.clone(value, indent=4), indent=4)
        self.emit(f"scf.yield {updated.name} : {T}", 4)
        self.emit("}")
        self.live.append(Value(name, value.device))

    def loop(self, value: Value) -> None:
        name = self.fresh()
        index, carried = self.fresh("i"), self.fresh("arg")
        other = self.device()
        self.emit(
            f"{name} = scf.for {index} = %c0 to %trip step %c1 iter_args({carried} = {value.name}) -> ({T}) {{"
        )
        there = self.transfer(Value(carried, value.device), other, indent=4)
        stepped = self.dispatch([there], "step", indent=4)
        back = self.transfer(stepped, value.device, indent=4)
        self.emit(f"scf.yield {back.name} : {T}", 4)
        self.emit("}")
        self.live.append(Value(name, value.device))

    def call(self, value: Value) -> None:
        callee = f"@f{len(self.functions)}"
        other = self.device()
        home = affinity(value.device)
        there = affinity(other)
        self.functions.append(
            f"""util.func private {callee}(%arg0: {T}, %arg1: index) -> {T} {{
  %c0 = arith.constant 0 : index
  %0 = stream.async.transfer %arg0 : {T}{{%arg1}} from({home}) -> to({there}) {T}{{%arg1}}
  %1 = stream.async.dispatch on({there}) @ex::@callee(%0[%c0 to %arg1 for %arg1]) : ({T}{{%arg1}}) -> {T}{{%arg1}}
  %2 = stream.async.transfer %1 : {T}{{%arg1}} from({there}) -> to({home}) {T}{{%arg1}}
  util.return %2 : {T}
}}"""
        )
        name = self.fresh()
        self.emit(f"{name} = util.call {callee}({value.name}, %c16) : ({T}, index) -> {T}")
        self.live.append(Value(name, value.device))

    def text(self) -> str:
        # Several results, so a wrong in-place update of a shared value shows in the bytes.
        results = self.live[-3:]
        names = ", ".join(v.name for v in results)
        types = ", ".join(T for _ in results)
        header = f"util.func public @main(%flag_i32: i32, %trip: index) -> ({types}) {{"
        prelude = [
            "  %c0 = arith.constant 0 : index",
            "  %c1 = arith.constant 1 : index",
            "  %c16 = arith.constant 16 : index",
            "  %c0_i32 = arith.constant 0 : i32",
            *(f"  %c{k}_i8 = arith.constant {k} : i8" for k in range(1, 5)),
            "  %flag = arith.cmpi sgt, %flag_i32, %c0_i32 : i32",
        ]
        body = [header, *prelude, *self.lines, f"  util.return {names} : {types}", "}"]
        return "\n".join([executable(), *self.functions, *body])


@st.composite
def programs(draw: st.DrawFn) -> tuple[str, list[str]]:
    program = Program(draw)
    program.splat()
    for _ in range(draw(st.integers(2, 9))):
        program.step()
    flag = draw(st.sampled_from(["0", "1"]))
    trip = draw(st.sampled_from(["0", "1", "2"]))
    return program.text(), [flag, trip]


def available_pipelines() -> list[list[str]]:
    """The pipelines after which every program must compute the same bytes: those of
    `streamopt-run --compare` whose passes are registered."""
    from streamopt.run_cli import COMPARE_FORMS

    registered = load_all()
    return [
        flags for _, flags in COMPARE_FORMS if flags and all(flag in registered for flag in flags)
    ]


def run_form(text: str, inputs: list[str], passes: list[str]) -> list[bytes]:
    try:
        result = run_ir(text, inputs=inputs, passes=passes)
    except DiagnosticError as exc:
        details = "\n".join(render(d) for d in exc.diagnostics)
        pytest.fail(f"after {passes or 'nothing'}:\n{details}\n--- program ---\n{text}")
    return [output_bytes(result, i) for i in range(len(result.outputs))]


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(programs())
def test_every_form_computes_the_same_bytes(program: tuple[str, list[str]]) -> None:
    text, inputs = program
    reference = run_form(text, inputs, [])
    for passes in available_pipelines():
        assert run_form(text, inputs, passes) == reference, f"after {passes}:\n{text}"


def test_the_generator_makes_programs_the_pass_turns_into_moves() -> None:
    # Not every random program has a transfer at a last use; this one does, and the elided
    # form must move (and alias between the CPUs) rather than copy.
    text = (
        executable()
        + f"""
util.func public @main(%flag_i32: i32, %trip: index) -> ({T}) {{
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1_i8 = arith.constant 1 : i8
  %v1 = stream.async.splat on({affinity("dev_a")}) %c1_i8 : i8 -> {T16}
  %v2 = stream.async.transfer %v1 : {T16} from({affinity("dev_a")}) -> to({affinity("dev_b")}) {T16}
  %v3 = stream.async.dispatch on({affinity("dev_b")}) @ex::@mix1(%v2[%c0 to %c16 for %c16]) : ({T16}) -> {T16}
  util.return %v3 : {T}
}}"""
    )
    given_form = run_ir(text, inputs=["1", "1"])
    elided = run_ir(text, inputs=["1", "1"], passes=["elide-async-copies"])
    assert output_bytes(given_form) == output_bytes(elided)
    assert given_form.report()["bytes_copied"]["total"] == 16
    assert elided.report()["moves_aliased"] == 1
    assert elided.report()["bytes_copied"]["total"] == 0
