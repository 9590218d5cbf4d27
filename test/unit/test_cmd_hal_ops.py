"""The stream cmd-phase and hal op classes: constructors, printing and analysis interfaces."""

# IR lines cannot be wrapped.
# ruff: noqa: E501

from __future__ import annotations

import pytest

from streamopt.diagnostics import DiagnosticError
from streamopt.dialects.hal import (
    BUFFER_USAGE,
    DEALLOCA_FLAGS,
    MEMORY_TYPE,
    AllocatorResolveMemoryPropertiesOp,
    DeviceQueueAllocaOp,
    DeviceQueueCopyOp,
    DeviceQueueDeallocaOp,
    FenceCreateOp,
)
from streamopt.dialects.stream import (
    CmdCopyOp,
    CmdDispatchOp,
    CmdExecuteOp,
    CmdFillOp,
    CmdMoveOp,
    CmdSerialOp,
    ResourceAllocaOp,
    ResourceDeallocaOp,
    ResourceSizeOp,
    ResourceSubviewOp,
)
from streamopt.ir.core import Access, Operation
from streamopt.ir.module import Module
from streamopt.ir.types import AffinityAttr, ResourceType, SymbolRefAttr
from streamopt.ir.verify import verify_module
from streamopt.parser import parse_module
from streamopt.printer import print_module

STREAM_FUNC = """\
util.func public @f(%arg0: !stream.resource<transient>, %arg1: index, %arg2: i32) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %0 = stream.timepoint.immediate => !stream.timepoint
  util.return %0 : !stream.timepoint
}
"""

HAL_FUNC = """\
util.func public @f(%arg0: !hal.device, %arg1: i64, %arg2: !hal.fence, %arg3: !hal.buffer, %arg4: index, %arg5: i32) {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  util.return
}
"""


def _function(text: str) -> tuple[Module, Operation]:
    module = parse_module(text)
    func = next(op for op in module.op.walk() if op.name == "util.func")
    return module, func


def _before_return(func: Operation, op: Operation) -> Operation:
    block = func.regions[0].blocks[0]
    terminator = block.last_op
    assert terminator is not None
    block.insert_before(op, terminator)
    return op


def test_stream_constructors_print_as_iree_does() -> None:
    module, func = _function(STREAM_FUNC)
    resource, size, pattern = func.regions[0].blocks[0].arguments
    c0 = next(op for op in func.walk() if op.name == "arith.constant").results[0]
    affinity = AffinityAttr("dev_a")
    alloca = _before_return(
        func, ResourceAllocaOp.create(size, affinity=affinity, result=ResourceType("external"))
    )
    execute = _before_return(
        func,
        CmdExecuteOp.create(
            [resource, alloca.results[0]], [size, size], alloca.results[1], affinity=affinity
        ),
    )
    assert isinstance(execute, CmdExecuteOp)
    source, target = execute.body.arguments
    execute.body.append(CmdCopyOp.create(source, size, c0, target, size, c0, size))
    serial = CmdSerialOp.create()
    execute.body.append(serial)
    serial.regions[0].blocks[0].append(CmdFillOp.create(target, size, c0, size, pattern))
    _before_return(
        func,
        ResourceDeallocaOp.create(
            resource,
            size,
            affinity=affinity,
            await_timepoint=execute.results[0],
            prefer_origin=True,
        ),
    )
    verify_module(module)
    text = print_module(module)
    assert (
        "%result, %result_timepoint = stream.resource.alloca uninitialized "
        "on(#hal.device.affinity<@dev_a>) : !stream.resource<external>{%arg1} "
        "=> !stream.timepoint\n" in text
    )
    assert (
        "%1 = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%result_timepoint) "
        "=> with(%arg0 as %arg3: !stream.resource<transient>{%arg1}, "
        "%result as %arg4: !stream.resource<external>{%arg1}) {\n"
        "      stream.cmd.copy %arg3[%c0], %arg4[%c0], %arg1 : "
        "!stream.resource<transient>{%arg1} -> !stream.resource<external>{%arg1}\n"
        "      stream.cmd.serial {\n"
        "        stream.cmd.fill %arg2, %arg4[%c0 for %arg1] : i32 -> "
        "!stream.resource<external>{%arg1}\n"
        "      }\n"
        "    } => !stream.timepoint\n" in text
    )
    assert (
        "stream.resource.dealloca origin on(#hal.device.affinity<@dev_a>) await(%1) => "
        "%arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint\n" in text
    )
    # The printed form parses back to the same text.
    assert print_module(parse_module(text)) == text


def test_execute_access_comes_from_the_commands_on_each_capture() -> None:
    module = parse_module(
        """\
util.func public @f(%a: !stream.resource<*>, %b: !stream.resource<*>, %c: !stream.resource<*>, %d: !stream.resource<*>, %n: index) {
  %c0 = arith.constant 0 : index
  %0 = stream.cmd.execute with(%a as %x: !stream.resource<*>{%n}, %b as %y: !stream.resource<*>{%n}, %c as %z: !stream.resource<*>{%n}, %d as %w: !stream.resource<*>{%n}) {
    stream.cmd.copy %x[%c0], %y[%c0], %n : !stream.resource<*>{%n} -> !stream.resource<*>{%n}
    stream.cmd.concurrent {
      stream.cmd.dispatch @ex::@fn {
        rw %z[%c0 for %n] : !stream.resource<*>{%n}
      }
    }
  } => !stream.timepoint
  util.return
}
"""
    )
    execute = next(op for op in module.op.walk() if isinstance(op, CmdExecuteOp))
    accesses = [execute.operand_access(i) for i in range(len(execute.operands))]
    assert accesses[:4] == [Access.READ, Access.WRITE, Access.READ | Access.WRITE, Access.NONE]
    assert accesses[4:] == [Access.NONE] * 4
    assert [execute.size_of_operand(i) for i in range(4)] == execute.resource_operand_sizes
    dispatch = next(op for op in module.op.walk() if isinstance(op, CmdDispatchOp))
    assert dispatch.entry_points == [SymbolRefAttr(["ex", "fn"])]


def test_resource_interfaces() -> None:
    module = parse_module(
        """\
util.func public @f(%r: !stream.resource<*>, %n: index, %t: !stream.timepoint) -> index {
  %c4 = arith.constant 4 : index
  %0:2 = stream.resource.alloca uninitialized await(%t) => !stream.resource<*>{%n} => !stream.timepoint
  %1 = stream.resource.subview %0#0[%c4] : !stream.resource<*>{%n} -> !stream.resource<*>{%c4}
  %2 = stream.resource.size %1 : !stream.resource<*>
  %3 = stream.resource.dealloca %r : !stream.resource<*>{%n} => !stream.timepoint
  util.return %2 : index
}
"""
    )
    ops = {op.name: op for op in module.op.walk()}
    alloca = ops["stream.resource.alloca"]
    assert isinstance(alloca, ResourceAllocaOp)
    assert alloca.await_timepoint is alloca.operands[1]
    alloca.set_await_timepoint(None)
    assert alloca.await_timepoint is None and len(alloca.operands) == 1
    subview = ops["stream.resource.subview"]
    assert isinstance(subview, ResourceSubviewOp)
    assert subview.tied_operand_index(0) == 0
    assert subview.size_of_result(0) is subview.operands[3]
    size = ops["stream.resource.size"]
    assert isinstance(size, ResourceSizeOp)
    # The size folds to the one the subview carries.
    assert size.fold() == [subview.operands[3]]
    dealloca = ops["stream.resource.dealloca"]
    assert dealloca.operand_access(0) == Access.CONSUME
    assert dealloca.size_of_operand(0) is dealloca.operands[1]


def test_hal_constructors_print_as_iree_does() -> None:
    module, func = _function(HAL_FUNC)
    device, affinity, wait, source, size, _pattern = func.regions[0].blocks[0].arguments
    constants = [op.results[0] for op in func.walk() if op.name == "arith.constant"]
    c0, pool = constants
    properties = _before_return(
        func, AllocatorResolveMemoryPropertiesOp.create("transient", AffinityAttr("dev_b"))
    )
    fence = _before_return(func, FenceCreateOp.create(device))
    alloca = _before_return(
        func,
        DeviceQueueAllocaOp.create(
            device, affinity, wait, fence.result, pool, *properties.results, size
        ),
    )
    copied = _before_return(func, FenceCreateOp.create(device))
    copy = _before_return(
        func,
        DeviceQueueCopyOp.create(
            device, affinity, fence.result, copied.result, source, c0, alloca.result, c0, size
        ),
    )
    dealloca = _before_return(
        func,
        DeviceQueueDeallocaOp.create(
            device, affinity, copied.result, wait, source, flags="PreferOrigin"
        ),
    )
    verify_module(module)
    text = print_module(module)
    expected = [
        "%memory_types, %buffer_usage = hal.allocator.resolve_memory_properties "
        "for(#hal.device.affinity<@dev_b>) lifetime(transient) : i32, i32",
        '%fence = hal.fence.create device(%arg0 : !hal.device) flags("None") : !hal.fence',
        "%transient_buffer = hal.device.queue.alloca<%arg0 : !hal.device> affinity(%arg1) "
        "wait(%arg2) signal(%fence) pool(%c0_i64) type(%memory_types) usage(%buffer_usage) "
        'flags("None") : !hal.buffer{%arg4}',
        "hal.device.queue.copy<%arg0 : !hal.device> affinity(%arg1) wait(%fence) "
        "signal(%fence_0) source(%arg3 : !hal.buffer)[%c0] target(%transient_buffer : "
        '!hal.buffer)[%c0] length(%arg4) flags("None")',
        "hal.device.queue.dealloca<%arg0 : !hal.device> affinity(%arg1) wait(%fence_0) "
        "signal(%arg2) buffer(%arg3 : !hal.buffer) flags(PreferOrigin)",
    ]
    for line in expected:
        assert line in text
    assert [copy.operand_access(i) for i in (4, 6)] == [Access.READ, Access.WRITE]
    assert dealloca.operand_access(4) == Access.CONSUME
    assert isinstance(dealloca, DeviceQueueDeallocaOp) and dealloca.prefer_origin
    assert alloca.size_of_result(0) is size
    assert print_module(parse_module(text)) == text


def test_bit_enums_print_as_mlir_does() -> None:
    assert DEALLOCA_FLAGS.attr(0).text == '"None"'
    assert DEALLOCA_FLAGS.attr("PreferOrigin").text == "PreferOrigin"
    # Every case whose bits are all set, in declaration order, composite cases included.
    assert (
        BUFFER_USAGE.attr("DispatchStorage|Transfer").text
        == '"TransferSource|TransferTarget|Transfer|DispatchStorageRead|DispatchStorageWrite|'
        'DispatchStorage"'
    )
    assert MEMORY_TYPE.attr("HostLocal").text == '"HostVisible|HostCoherent|HostLocal"'
    assert MEMORY_TYPE.parse("HostVisible | Bogus") is None
    with pytest.raises(ValueError):
        DEALLOCA_FLAGS.attr("Bogus")


def test_queue_op_waiting_on_its_own_signal_is_rejected() -> None:
    module, func = _function(HAL_FUNC)
    device, affinity, wait, source, *_ = func.regions[0].blocks[0].arguments
    _before_return(func, DeviceQueueDeallocaOp.create(device, affinity, wait, wait, source))
    with pytest.raises(DiagnosticError, match="cannot wait and signal on the same fence"):
        verify_module(module)


def test_cmd_move_constructor_and_interfaces() -> None:
    module, func = _function(STREAM_FUNC)
    resource, size, _ = func.regions[0].blocks[0].arguments
    immediate = next(op for op in func.walk() if op.name == "stream.timepoint.immediate")
    move = _before_return(
        func,
        CmdMoveOp.create(
            resource,
            size,
            size,
            result=ResourceType("external"),
            affinity=AffinityAttr("dev_a"),
            source_affinity=AffinityAttr("dev_a"),
            target_affinity=AffinityAttr("dev_b"),
            await_timepoint=immediate.results[0],
            prefer_origin=True,
        ),
    )
    assert isinstance(move, CmdMoveOp)
    verify_module(module)
    text = print_module(module)
    assert (
        "%result, %result_timepoint = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) "
        "await(%0) => %arg0 : !stream.resource<transient>{%arg1} "
        "from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) "
        "!stream.resource<external>{%arg1} => !stream.timepoint\n" in text
    )
    assert print_module(parse_module(text)) == text
    # The source is read and consumed; the result is new storage (not tied), sized by operand 2.
    assert move.operand_access(0) == Access.READ | Access.CONSUME
    assert [move.operand_access(i) for i in (1, 2, 3)] == [Access.NONE] * 3
    assert move.tied_operand_index(0) is None
    assert move.size_of_operand(0) is size and move.size_of_result(0) is size
    assert move.await_timepoints == [immediate.results[0]]
    assert move.result_timepoint is move.results[1]
    move.set_await_timepoint(None)
    assert move.await_timepoint is None and len(move.operands) == 3
