"""The analysis interfaces of the stream async, tensor and timeline ops, and their builders.

Analyses (alias and ownership, last use, mutation) and the lowering read these answers instead
of the syntax, so each op's access, ties, sizes, timepoints and result names are pinned here.
"""

from __future__ import annotations

from streamopt.dialects import stream
from streamopt.ir.core import Access, Block, Operation, RegionKind
from streamopt.ir.module import Module
from streamopt.ir.types import TIMEPOINT, IntegerAttr, OpaqueAttr, ResourceType, ShapedType
from streamopt.ir.verify import verify_module
from streamopt.parser import parse_module
from streamopt.printer import print_module

NONE = Access.NONE
READ = Access.READ
READ_WRITE = Access.READ | Access.WRITE


def _parse(body: str, args: str = "") -> Module:
    text = (
        "stream.async.func private @extern(%arg0: !stream.resource<*>, %arg1: index) -> %arg0\n"
        "util.func public @f(%r: !stream.resource<*>, %s: index, %t: !stream.timepoint, "
        f"%g: !stream.resource<staging>, %b: !util.buffer, %i: i32{args}) {{\n"
        "  %c0 = arith.constant 0 : index\n"
        f"{body}\n"
        "  util.return\n"
        "}\n"
    )
    module = parse_module(text)
    verify_module(module)
    return module


def _op(module: Module, name: str, nth: int = 0) -> Operation:
    return [op for op in module.walk() if op.name == name][nth]


def _accesses(op: Operation) -> list[Access]:
    return [op.operand_access(i) for i in range(len(op.operands))]


def _func_block(module: Module) -> Block:
    func = _op(module, "util.func")
    return func.regions[0].blocks[0]


def test_alloca_constant() -> None:
    module = _parse(
        "  %0 = stream.async.alloca : !stream.resource<transient>{%s}\n"
        "  %1 = stream.async.constant await(%t) : !stream.resource<constant>{%s} = "
        "dense<1> : tensor<4xi32>\n"
        "  %2 = stream.async.constant : !stream.resource<constant>{%s} = dense<1> : tensor<4xi32>"
    )
    alloca = _op(module, "stream.async.alloca")
    assert _accesses(alloca) == [NONE]
    assert alloca.size_of_result(0) is alloca.operands[0]
    assert not alloca.is_pure  # an allocation: two are never the same value
    with_await = _op(module, "stream.async.constant")
    assert isinstance(with_await, stream.AsyncConstantOp)
    assert with_await.is_pure
    assert with_await.await_timepoints == [with_await.operands[0]]
    assert with_await.size_of_result(0) is with_await.operands[1]
    assert with_await.asm_result_name(0) == "cst"
    assert _accesses(with_await) == [NONE, NONE]
    without = _op(module, "stream.async.constant", 1)
    assert isinstance(without, stream.AsyncConstantOp)
    assert without.await_timepoint is None


def test_slice_fill_update_copy() -> None:
    module = _parse(
        "  %0 = stream.async.slice %r[%c0 to %s] : !stream.resource<*>{%s} -> "
        "!stream.resource<*>{%s}\n"
        "  %1 = stream.async.fill %i, %r[%c0 to %s for %s] : i32 -> %r as !stream.resource<*>{%s}\n"
        "  %2 = stream.async.update %0, %1[%c0 to %s] : !stream.resource<*>{%s} -> "
        "%1 as !stream.resource<*>{%s}\n"
        "  %3 = stream.async.copy %0[%c0 to %s], %2[%c0 to %s], %s : !stream.resource<*>{%s} -> "
        "%2 as !stream.resource<*>{%s}"
    )
    slice_op = _op(module, "stream.async.slice")
    assert slice_op.is_pure
    assert _accesses(slice_op) == [READ, NONE, NONE, NONE, NONE]
    assert slice_op.tied_operand_index(0) is None
    assert slice_op.size_of_operand(0) is slice_op.operands[1]
    assert slice_op.size_of_result(0) is slice_op.operands[4]

    fill = _op(module, "stream.async.fill")
    assert isinstance(fill, stream.AsyncFillOp)
    assert not fill.is_pure
    arguments = _func_block(module).arguments
    assert fill.target is arguments[0] and fill.value is arguments[5]
    assert fill.tied_operand_index(0) == 0
    assert _accesses(fill) == [READ_WRITE, NONE, NONE, NONE, NONE, NONE]
    assert fill.size_of_operand(0) is fill.size_of_result(0) is fill.target_size

    update = _op(module, "stream.async.update")
    assert isinstance(update, stream.AsyncUpdateOp)
    assert update.target is fill.result and update.update is slice_op.result
    assert update.tied_operand_index(0) == 0
    assert _accesses(update) == [READ_WRITE, NONE, NONE, NONE, READ, NONE]
    assert update.size_of_operand(4) is update.update_size

    copy = _op(module, "stream.async.copy")
    assert isinstance(copy, stream.AsyncCopyOp)
    assert copy.target is update.result and copy.source is slice_op.result
    assert copy.tied_operand_index(0) == 0
    assert _accesses(copy) == [READ_WRITE, NONE, NONE, NONE, READ, NONE, NONE, NONE, NONE]
    assert copy.size_of_operand(4) is copy.source_size
    assert copy.size_of_result(0) is copy.target_size


def test_passthrough_ops_are_tied_readers() -> None:
    module = _parse(
        "  %0 = stream.async.cast %r : !stream.resource<*>{%s} -> !stream.resource<external>{%s}\n"
        "  %1 = stream.async.barrier %r : !stream.resource<*>{%s}\n"
        "  %2:2 = stream.timepoint.await %t => %r, %g : !stream.resource<*>{%s}, "
        "!stream.resource<staging>{%s}\n"
        "  %3, %4 = stream.timepoint.barrier %r : !stream.resource<*>{%s} => !stream.timepoint"
    )
    cast = _op(module, "stream.async.cast")
    assert cast.is_pure and cast.tied_operand_index(0) == 0
    assert _accesses(cast) == [READ, NONE, NONE]
    barrier = _op(module, "stream.async.barrier")
    assert not barrier.is_pure and barrier.tied_operand_index(0) == 0
    assert _accesses(barrier) == [READ, NONE]
    wait = _op(module, "stream.timepoint.await")
    assert isinstance(wait, stream.TimepointAwaitOp)
    assert [wait.tied_operand_index(i) for i in range(2)] == [0, 1]
    assert _accesses(wait) == [READ, READ, NONE, NONE, NONE]
    assert wait.await_timepoints == [wait.operands[-1]]
    assert wait.size_of_result(1) is wait.operands[3]
    timepoint_barrier = _op(module, "stream.timepoint.barrier")
    assert timepoint_barrier.tied_operand_index(0) == 0
    assert timepoint_barrier.tied_operand_index(1) is None
    assert [timepoint_barrier.asm_result_name(i) for i in range(2)] == [
        "result",
        "result_timepoint",
    ]
    assert timepoint_barrier.size_of_result(1) is None


def test_load_store() -> None:
    module = _parse(
        "  %0 = stream.async.load %g[%c0] : !stream.resource<staging>{%s} -> i32\n"
        "  %1 = stream.async.store %0, %g[%c0] : i32 -> %g as !stream.resource<staging>{%s}"
    )
    load = _op(module, "stream.async.load")
    assert load.is_pure and _accesses(load) == [READ, NONE, NONE]
    assert load.affinity is None
    store = _op(module, "stream.async.store")
    assert store.is_pure and store.tied_operand_index(0) == 0
    assert _accesses(store) == [READ_WRITE, NONE, NONE, NONE]


def test_call() -> None:
    module = _parse(
        "  %0 = stream.async.call on(#hal.device.affinity<@dev_a>) @extern(%r[%c0 to %s for %s], "
        "%s) : (!stream.resource<*>{%s}, index) -> %r{%s}"
    )
    call = _op(module, "stream.async.call")
    assert isinstance(call, stream.AsyncCallOp)
    assert not call.is_pure
    assert call.callee.root == "extern"
    assert call.affinity is not None and call.affinity.text == "#hal.device.affinity<@dev_a>"
    assert call.tied_operand_index(0) == 0
    # Operands: %r, %s (a scalar argument), its size, offset, end, length, result size.
    assert _accesses(call) == [READ_WRITE, NONE, NONE, NONE, NONE, NONE, NONE]
    assert call.size_of_operand(0) is call.operands[2]
    assert call.size_of_operand(1) is None
    assert call.size_of_result(0) is call.operands[6]
    func = _op(module, "stream.async.func")
    assert isinstance(func, stream.AsyncFuncOp)
    assert func.tied_result_argument(0) == 0 and not func.is_public


def test_execute_and_concurrent() -> None:
    module = _parse(
        "  %0:2, %1 = stream.async.execute await(%t) => with(%r as %a: !stream.resource<*>{%s}, "
        "%g as %x: !stream.resource<staging>{%s}) -> (%r{%s}, !stream.resource<*>{%s}) {\n"
        "    %2:2 = stream.async.concurrent with(%a as %p: !stream.resource<*>{%s}) -> "
        "(%a{%s}, !stream.resource<*>{%s}) {\n"
        "      %3 = stream.async.fill %i, %p[%c0 to %s for %s] : i32 -> %p as "
        "!stream.resource<*>{%s}\n"
        "      %4 = stream.async.clone %p : !stream.resource<*>{%s} -> !stream.resource<*>{%s}\n"
        "      stream.yield %3, %4 : !stream.resource<*>{%s}, !stream.resource<*>{%s}\n"
        "    }\n"
        "    stream.yield %2#0, %2#1 : !stream.resource<*>{%s}, !stream.resource<*>{%s}\n"
        "  } => !stream.timepoint"
    )
    execute = _op(module, "stream.async.execute")
    assert isinstance(execute, stream.AsyncExecuteOp)
    assert execute.region_kind is RegionKind.ONCE
    assert not execute.is_pure
    # Operands: %r, %g, their sizes, two result sizes, the await timepoint.
    assert _accesses(execute) == [READ_WRITE, READ, NONE, NONE, NONE, NONE, NONE]
    assert [execute.tied_operand_index(i) for i in range(3)] == [0, None, None]
    assert execute.size_of_operand(1) is execute.operands[3]
    assert execute.size_of_result(1) is execute.operands[5]
    assert execute.size_of_result(2) is None
    assert execute.await_timepoint is execute.operands[6]
    assert execute.result_timepoint is execute.results[2]
    assert execute.result_timepoint.type == TIMEPOINT
    assert [execute.asm_result_name(i) for i in range(3)] == ["results", None, "result_timepoint"]
    # The region's arguments are the captures, typed like them.
    body = execute.body
    assert [a.type for a in body.arguments] == [ResourceType("*"), ResourceType("staging")]
    concurrent = _op(module, "stream.async.concurrent")
    assert isinstance(concurrent, stream.AsyncConcurrentOp)
    assert concurrent.region_kind is RegionKind.ONCE
    assert concurrent.resource_operands == [body.arguments[0]]
    assert concurrent.tied_operand_index(0) == 0
    assert concurrent.tied_operand_index(1) is None
    assert concurrent.asm_result_name(0) is None
    yield_op = concurrent.yield_op
    assert yield_op is not None and yield_op.is_terminator and not yield_op.is_pure
    assert _accesses(yield_op) == [Access.ESCAPE, Access.ESCAPE, NONE, NONE]
    assert yield_op.size_of_operand(1) is yield_op.operands[3]


def test_tensor_ops() -> None:
    module = _parse(
        "  %0 = stream.tensor.import consume %b : !util.buffer -> tensor<?x4xf32>{%s} in "
        "!stream.resource<external>{%s}\n"
        "  %1 = stream.tensor.import %b : !util.buffer -> tensor<4xf32> in "
        "!stream.resource<external>{%s}\n"
        "  %2 = stream.tensor.export %0 : tensor<?x4xf32>{%s} in !stream.resource<external>{%s} "
        "-> !util.buffer\n"
        "  %3 = stream.tensor.sizeof tensor<?x4xf32>{%s} : index"
    )
    consumed = _op(module, "stream.tensor.import")
    assert isinstance(consumed, stream.TensorImportOp)
    assert consumed.consume and consumed.is_pure
    assert _accesses(consumed) == [Access.CONSUME, NONE, NONE]
    assert consumed.result_encoding == ShapedType("tensor<?x4xf32>")
    assert consumed.size_of_result(0) is consumed.operands[2]
    # The import starts the resource's storage: no tie back to the !util.buffer.
    assert consumed.tied_operand_index(0) is None
    borrowed = _op(module, "stream.tensor.import", 1)
    assert isinstance(borrowed, stream.TensorImportOp)
    assert not borrowed.consume
    assert _accesses(borrowed) == [Access.ESCAPE, NONE]
    export = _op(module, "stream.tensor.export")
    assert _accesses(export) == [Access.ESCAPE, NONE, NONE]
    assert export.size_of_operand(0) is export.operands[2]
    sizeof = _op(module, "stream.tensor.sizeof")
    assert sizeof.is_pure and _accesses(sizeof) == [NONE]


def test_tensor_dispatch_answers_as_async_dispatch() -> None:
    module = _parse(
        "  %0:2 = stream.tensor.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn[%c0](%r, %s, "
        "%g2) : (tensor<?x4xf32>{%s} in !stream.resource<*>{%s}, index, tensor<8xi8> in "
        "!stream.resource<external>{%s}) -> (tensor<?x4xf32>{%s} in %r{%s}, tensor<8xi8> in "
        "!stream.resource<transient>{%s})",
        ", %g2: !stream.resource<external>",
    )
    dispatch = _op(module, "stream.tensor.dispatch")
    assert isinstance(dispatch, stream.TensorDispatchOp)
    assert dispatch.is_pure and dispatch.affinity is not None
    assert [e.text for e in dispatch.entry_points] == ["@ex::@fn"]
    assert dispatch.operand_encodings == [
        ShapedType("tensor<?x4xf32>"),
        stream.UNUSED,
        ShapedType("tensor<8xi8>"),
    ]
    assert dispatch.result_encodings == [ShapedType("tensor<?x4xf32>"), ShapedType("tensor<8xi8>")]
    # The first result is %r, updated in place; the second is new storage.
    assert [dispatch.tied_operand_index(i) for i in range(2)] == [1, None]
    # Operands: the workload, %r, %s, %g2, two sizes, an encoding dim, two result sizes and a
    # result encoding dim.
    assert _accesses(dispatch) == [NONE, READ_WRITE, NONE, READ, *[NONE] * 6]
    assert dispatch.size_of_operand(1) is dispatch.operand_sizes[0]
    assert dispatch.size_of_operand(2) is None
    assert dispatch.size_of_operand(3) is dispatch.operand_sizes[1]
    assert dispatch.size_of_result(1) is dispatch.result_sizes[1]
    assert print_module(module).count("stream.tensor.dispatch on(") == 1


def test_timepoints() -> None:
    module = _parse(
        "  %0 = stream.timepoint.immediate => !stream.timepoint\n"
        "  %1 = stream.timepoint.join max(%0, %t) => !stream.timepoint"
    )
    immediate = _op(module, "stream.timepoint.immediate")
    join = _op(module, "stream.timepoint.join")
    assert isinstance(join, stream.TimepointJoinOp)
    assert immediate.is_pure and join.is_pure
    assert join.await_timepoints == [immediate.result, join.operands[1]]
    assert join.result_timepoint is join.result


def _print_new_ops(module: Module, ops: list[Operation]) -> str:
    block = _func_block(module)
    terminator = block.last_op
    assert terminator is not None
    for op in ops:
        block.insert_before(op, terminator)
    verify_module(module)
    return print_module(module)


def test_builders_print_iree_syntax() -> None:
    module = _parse("")
    block = _func_block(module)
    r, s, t, _, b, i = block.arguments
    affinity = OpaqueAttr("#hal.device.affinity<@dev_a>")
    c0 = block.first_op.result  # type: ignore[union-attr]
    alloca = stream.AsyncAllocaOp.create(s, affinity, ResourceType("transient"))
    constant = stream.AsyncConstantOp.create(
        t, s, OpaqueAttr("dense<1> : tensor<4xi32>"), result=ResourceType("constant")
    )
    fill = stream.AsyncFillOp.create(r, s, c0, s, s, i)
    cast = stream.AsyncCastOp.create(fill.result, s, s, result=ResourceType("external"))
    execute = stream.AsyncExecuteOp.create(
        [fill.result], [s], [s], t, tied_operands=[0], results=[ResourceType("*")]
    )
    argument = execute.body.arguments[0]
    inner = stream.AsyncBarrierOp.create(argument, s)
    execute.body.append(inner)
    execute.body.append(stream.YieldOp.create([inner.result], [s]))
    imported = stream.TensorImportOp.create(
        b, [], s, ShapedType("tensor<4xi32>"), True, result=ResourceType("external")
    )
    size = stream.TensorSizeOfOp.create([s], ShapedType("tensor<?xi32>"))
    join = stream.TimepointJoinOp.create([t, execute.result_timepoint])
    wait = stream.TimepointAwaitOp.create([execute.results[0]], [s], join.result)
    text = _print_new_ops(
        module, [alloca, constant, fill, cast, execute, imported, size, join, wait]
    )
    expected = [
        "%0 = stream.async.alloca on(#hal.device.affinity<@dev_a>) : "
        "!stream.resource<transient>{%arg1}",
        "%cst = stream.async.constant await(%arg2) : !stream.resource<constant>{%arg1} = "
        "dense<1> : tensor<4xi32>",
        "%1 = stream.async.fill %arg5, %arg0[%c0 to %arg1 for %arg1] : i32 -> "
        "%arg0 as !stream.resource<*>{%arg1}",
        "%2 = stream.async.cast %1 : !stream.resource<*>{%arg1} -> "
        "!stream.resource<external>{%arg1}",
        "%results, %result_timepoint = stream.async.execute await(%arg2) => "
        "with(%1 as %arg6: !stream.resource<*>{%arg1}) -> %1{%arg1} {",
        "  %7 = stream.async.barrier %arg6 : !stream.resource<*>{%arg1}",
        "  stream.yield %7 : !stream.resource<*>{%arg1}",
        "} => !stream.timepoint",
        "%3 = stream.tensor.import consume %arg4 : !util.buffer -> tensor<4xi32> in "
        "!stream.resource<external>{%arg1}",
        "%4 = stream.tensor.sizeof tensor<?xi32>{%arg1} : index",
        "%5 = stream.timepoint.join max(%arg2, %result_timepoint) => !stream.timepoint",
        "%6 = stream.timepoint.await %5 => %results : !stream.resource<*>{%arg1}",
    ]
    lines = [line.strip() for line in text.splitlines()]
    for line in expected:
        assert line.strip() in lines, line
    # The printed IR parses back to the same text.
    assert print_module(parse_module(text)) == text


def test_call_and_func_builders() -> None:
    module = _parse("")
    block = _func_block(module)
    r, s = block.arguments[0], block.arguments[1]
    c0 = block.first_op.result  # type: ignore[union-attr]
    call = stream.AsyncCallOp.create(
        [r, s], [s], [c0], [s], [s], [s], "extern", [0], results=[ResourceType("*")]
    )
    text = _print_new_ops(module, [call])
    assert (
        "%0 = stream.async.call @extern(%arg0[%c0 to %arg1 for %arg1], %arg1) : "
        "(!stream.resource<*>{%arg1}, index) -> %arg0{%arg1}" in text
    )
    assert call.operand_access(0) == READ_WRITE


def test_clone_keeps_op_state() -> None:
    module = _parse(
        "  %0, %1 = stream.async.execute with(%r as %a: !stream.resource<*>{%s}) -> "
        "%r{%s} {\n"
        "    stream.yield %a : !stream.resource<*>{%s}\n"
        "  } => !stream.timepoint\n"
        "  %2 = stream.async.constant await(%t) : !stream.resource<constant>{%s} = "
        "dense<1> : tensor<4xi32>"
    )
    for name in ("stream.async.execute", "stream.async.constant", "stream.async.func"):
        original = _op(module, name)
        copy = original.clone({})
        assert type(copy) is type(original)
        for attr in ("tied_operands", "segments", "has_await", "function_type"):
            if hasattr(original, attr):
                assert getattr(copy, attr) == getattr(original, attr)


def test_constant_value_attribute() -> None:
    module = _parse(
        "  %0 = stream.async.constant : !stream.resource<constant>{%s} = 5 : i32 attributes {x}"
    )
    constant = _op(module, "stream.async.constant")
    assert isinstance(constant, stream.AsyncConstantOp)
    assert isinstance(constant.value, IntegerAttr) and constant.value.value == 5
    assert "x" in constant.attributes


def test_call_in_execution_region_hands_nothing_over() -> None:
    # A call passes its resources to its callee, not to the region op's results (as a yield
    # would): an in-place call mutates its operand, a reading call reads it.
    from streamopt.analysis.effects import UseKind, classify_use

    module = _parse(
        "  %0:2, %1 = stream.async.execute with(%r as %a: !stream.resource<*>{%s}) -> "
        "(!stream.resource<*>{%s}, !stream.resource<*>{%s}) {\n"
        "    %2 = stream.async.call @extern(%a[%c0 to %s for %s], %s) : "
        "(!stream.resource<*>{%s}, index) -> %a{%s}\n"
        "    %3 = stream.async.clone %2 : !stream.resource<*>{%s} -> !stream.resource<*>{%s}\n"
        "    stream.yield %2, %3 : !stream.resource<*>{%s}, !stream.resource<*>{%s}\n"
        "  } => !stream.timepoint"
    )
    call = _op(module, "stream.async.call")
    assert list(call.forwarded_operands()) == []
    assert classify_use(call, 0) is UseKind.MUTATE
