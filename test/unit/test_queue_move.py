"""`hal.device.queue.move`: constructor, printed form, flags and the interfaces analyses read."""

# IR lines cannot be wrapped.
# ruff: noqa: E501

from __future__ import annotations

import pytest

from streamopt.diagnostics import DiagnosticError
from streamopt.dialects.arith import ConstantOp
from streamopt.dialects.hal import MOVE_FLAGS, DeviceQueueMoveOp
from streamopt.ir.core import Access, Operation
from streamopt.ir.module import Module
from streamopt.ir.types import I32, I64, INDEX
from streamopt.ir.verify import verify_module
from streamopt.parser import parse_module
from streamopt.printer import print_module

HAL_FUNC = """\
util.func public @f(%arg0: !hal.device, %arg1: i64, %arg2: !hal.fence, %arg3: !hal.fence, %arg4: !hal.buffer, %arg5: index) -> !hal.buffer {
  util.return %arg4 : !hal.buffer
}
"""


def _build(flags: int | str) -> tuple[Module, DeviceQueueMoveOp, Operation]:
    module = parse_module(HAL_FUNC)
    func = next(op for op in module.op.walk() if op.name == "util.func")
    block = func.regions[0].blocks[0]
    device, affinity, wait, signal, source, size = block.arguments
    terminator = block.last_op
    assert terminator is not None
    constants = [
        ConstantOp.create(0, INDEX),
        ConstantOp.create(0, I64),
        ConstantOp.create(48, I32),
        ConstantOp.create(3, I32),
    ]
    for constant in constants:
        block.insert_before(constant, terminator)
    offset, pool, types, usage = (c.results[0] for c in constants)
    move = DeviceQueueMoveOp.create(
        device, affinity, wait, signal, source, offset, pool, types, usage, size, flags
    )
    block.insert_before(move, terminator)
    terminator.set_operand(0, move.results[0])
    return module, move, terminator


def test_create_prints_the_custom_form() -> None:
    module, _, _ = _build("PreferOrigin")
    verify_module(module)
    text = print_module(module)
    assert (
        "%moved_buffer = hal.device.queue.move<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) "
        "signal(%arg3) source(%arg4 : !hal.buffer)[%c0] pool(%c0_i64) type(%c48_i32) "
        "usage(%c3_i32) flags(PreferOrigin) : !hal.buffer{%arg5}" in text
    )
    assert "util.return %moved_buffer : !hal.buffer" in text
    # The printed form parses back to the same text.
    assert print_module(parse_module(text)) == text


def test_flags_print_like_dealloca_flags() -> None:
    assert MOVE_FLAGS.attr(0).text == '"None"'
    assert MOVE_FLAGS.attr("PreferOrigin").text == "PreferOrigin"
    assert MOVE_FLAGS.attr("KeepSource|PreferOrigin").text == '"PreferOrigin|KeepSource"'


def test_source_is_read_and_consumed_unless_kept() -> None:
    _, move, _ = _build("PreferOrigin")
    assert move.operand_access(4) == Access.READ | Access.CONSUME
    assert all(move.operand_access(i) == Access.NONE for i in range(10) if i != 4)
    assert move.size_of_result(0) is move.result_size
    assert move.tied_operand_index(0) is None
    _, kept, _ = _build("KeepSource")
    assert kept.operand_access(4) == Access.NONE


def test_verifier_rejects_use_of_the_source_after_the_move() -> None:
    module, move, terminator = _build("PreferOrigin")
    terminator.set_operand(0, move.source_buffer)
    with pytest.raises(DiagnosticError, match=r"source is used after the move, by 'util\.return'"):
        verify_module(module)
