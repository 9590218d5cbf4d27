"""Storage moved on some paths only is freed on the others, and only there: every path of these
programs, run lowered to cmd and to hal (with and without moves expanded), computes the async
program's bytes and ends with the same bytes resident, those of the result it returns. A leak
leaves more resident; a free on a path that moved the storage is a second dealloca, which the
runtime rejects; a free before a use fails the use."""

# IR lines cannot wrap.
# ruff: noqa: E501

from __future__ import annotations

import pytest

from .interp_util import A, B, output_bytes, run_ir

EXECUTABLE = """
stream.executable private @ex {
  stream.executable.export public @fn workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    stream.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fn(%arg0: !stream.binding, %arg1: !stream.binding) {
      %c0 = arith.constant 0 : index
      %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xi8>>
      %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi8>>
      return
    }
  }
}
"""

T16 = "!stream.resource<transient>{%c16}"
E16 = "!stream.resource<external>{%c16}"
PROLOGUE = f"""
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1_i8 = arith.constant 1 : i8
  %c0_i32 = arith.constant 0 : i32
  %0 = stream.async.splat on({A}) %c1_i8 : i8 -> {T16}"""

MOVE_IN_IF = f"""
util.func public @main(%flag: i32) -> !stream.resource<external> {{{PROLOGUE}
  %cond = arith.cmpi sgt, %flag, %c0_i32 : i32
  %1 = scf.if %cond -> (!stream.resource<transient>) {{
    %2 = stream.async.move %0 : {T16} from({A}) -> to({B}) {T16}
    %3 = stream.async.dispatch on({B}) @ex::@fn(%2[%c0 to %c16 for %c16]) : ({T16}) -> {T16}
    scf.yield %3 : !stream.resource<transient>
  }} else {{
    %4 = stream.async.dispatch on({A}) @ex::@fn(%0[%c0 to %c16 for %c16]) : ({T16}) -> {T16}
    scf.yield %4 : !stream.resource<transient>
  }}
  %5 = stream.async.transfer %1 : {T16} -> to({A}) {E16}
  util.return %5 : !stream.resource<external>
}}"""

# Case 0 moves the splat, case 1 reads it, the default leaves it alone.
MOVE_IN_ONE_CASE = f"""
util.func public @main(%flag: i32) -> !stream.resource<external> {{{PROLOGUE}
  %i = arith.index_cast %flag : i32 to index
  %1 = scf.index_switch %i -> !stream.resource<transient>
  case 0 {{
    %2 = stream.async.move %0 : {T16} from({A}) -> to({B}) {T16}
    %3 = stream.async.dispatch on({B}) @ex::@fn(%2[%c0 to %c16 for %c16]) : ({T16}) -> {T16}
    scf.yield %3 : !stream.resource<transient>
  }}
  case 1 {{
    %4 = stream.async.dispatch on({A}) @ex::@fn(%0[%c0 to %c16 for %c16]) : ({T16}) -> {T16}
    scf.yield %4 : !stream.resource<transient>
  }}
  default {{
    %5 = stream.async.splat on({B}) %c1_i8 : i8 -> {T16}
    scf.yield %5 : !stream.resource<transient>
  }}
  %6 = stream.async.transfer %1 : {T16} -> to({A}) {E16}
  util.return %6 : !stream.resource<external>
}}"""

# ^bb1 receives the splat and moves it; ^bb2 reads it where it was defined.
MOVE_IN_ONE_BLOCK = f"""
util.func public @main(%flag: i32) -> !stream.resource<external> {{{PROLOGUE}
  %cond = arith.cmpi sgt, %flag, %c0_i32 : i32
  cf.cond_br %cond, ^bb1(%0 : !stream.resource<transient>), ^bb2
^bb1(%1: !stream.resource<transient>):
  %2 = stream.async.move %1 : {T16} from({A}) -> to({B}) {T16}
  %3 = stream.async.dispatch on({B}) @ex::@fn(%2[%c0 to %c16 for %c16]) : ({T16}) -> {T16}
  cf.br ^bb3(%3 : !stream.resource<transient>)
^bb2:
  %4 = stream.async.dispatch on({A}) @ex::@fn(%0[%c0 to %c16 for %c16]) : ({T16}) -> {T16}
  cf.br ^bb3(%4 : !stream.resource<transient>)
^bb3(%5: !stream.resource<transient>):
  %6 = stream.async.transfer %5 : {T16} -> to({A}) {E16}
  util.return %6 : !stream.resource<external>
}}"""

# Nothing moves the splat; both successors of the entry block read it (so the entry block
# must not free it).
READ_IN_TWO_BLOCKS = f"""
util.func public @main(%flag: i32) -> !stream.resource<external> {{{PROLOGUE}
  %cond = arith.cmpi sgt, %flag, %c0_i32 : i32
  cf.cond_br %cond, ^bb1, ^bb2
^bb1:
  %1 = stream.async.dispatch on({B}) @ex::@fn(%0[%c0 to %c16 for %c16]) : ({T16}) -> {T16}
  cf.br ^bb3(%1 : !stream.resource<transient>)
^bb2:
  %2 = stream.async.dispatch on({A}) @ex::@fn(%0[%c0 to %c16 for %c16]) : ({T16}) -> {T16}
  cf.br ^bb3(%2 : !stream.resource<transient>)
^bb3(%3: !stream.resource<transient>):
  %4 = stream.async.transfer %3 : {T16} -> to({A}) {E16}
  util.return %4 : !stream.resource<external>
}}"""

PROGRAMS = {
    "move_in_if": (MOVE_IN_IF, ["i32=1", "i32=0"]),
    "move_in_one_case": (MOVE_IN_ONE_CASE, ["i32=0", "i32=1", "i32=2"]),
    "move_in_one_block": (MOVE_IN_ONE_BLOCK, ["i32=1", "i32=0"]),
    "read_in_two_blocks": (READ_IN_TWO_BLOCKS, ["i32=1", "i32=0"]),
}

LEVELS = [
    ["lower-to-cmd"],
    ["lower-to-cmd", "expand-cmd-moves"],
    ["lower-to-hal"],
    ["lower-to-hal", "expand-moves"],
]

CASES = [
    pytest.param(program, flag, id=f"{name}-{flag}")
    for name, (program, flags) in PROGRAMS.items()
    for flag in flags
]


@pytest.mark.parametrize(("program", "flag"), CASES)
def test_every_path_frees_what_it_does_not_move(program: str, flag: str) -> None:
    body = EXECUTABLE + program
    reference = run_ir(body, [flag])
    expected = output_bytes(reference)
    resident = reference.interpreter.runtime.stats.resident_bytes
    # The async program frees everything but the result it returns.
    assert resident == len(expected)
    for passes in LEVELS:
        result = run_ir(body, [flag], passes=passes)
        assert output_bytes(result) == expected, passes
        stats = result.interpreter.runtime.stats
        assert stats.resident_bytes == resident, (passes, stats.to_dict()["devices"])
