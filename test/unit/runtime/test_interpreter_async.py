"""The interpreter at the async level: what each op family computes and costs."""

# IR lines cannot wrap.
# ruff: noqa: E501

from __future__ import annotations

import struct

import numpy as np
import pytest

from streamopt.runtime.interpreter.inputs import parse_input

from .interp_util import A, B, C, line_of, output_bytes, run_error, run_ir

RESOURCE_16 = "!stream.resource<external>{%c16}"


def test_splat_fills_every_element_with_the_pattern() -> None:
    result = run_ir(f"""
util.func public @main() -> !stream.resource<external> {{
  %c16 = arith.constant 16 : index
  %c258_i16 = arith.constant 258 : i16
  %0 = stream.async.splat on({A}) %c258_i16 : i16 -> {RESOURCE_16}
  util.return %0 : !stream.resource<external>
}}""")
    assert output_bytes(result) == b"\x02\x01" * 8
    report = result.report()
    assert report["queue_ops"]["dev_a"] == {"alloca": 1, "fill": 1}
    assert report["bytes_allocated"]["by_device"]["dev_a"] == 16


def test_eight_byte_splat_repeats_the_pattern() -> None:
    # No queue fills 8-byte patterns: the runtime writes the bytes from the host.
    result = run_ir("""
util.func public @main() -> !stream.resource<external> {
  %c16 = arith.constant 16 : index
  %c_i64 = arith.constant 72623859790382856 : i64
  %0 = stream.async.splat %c_i64 : i64 -> !stream.resource<external>{%c16}
  util.return %0 : !stream.resource<external>
}""")
    assert output_bytes(result) == struct.pack("<QQ", 0x0102030405060708, 0x0102030405060708)


def test_fill_writes_a_range_in_place() -> None:
    result = run_ir(f"""
util.func public @main() -> !stream.resource<external> {{
  %c16 = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %c8 = arith.constant 8 : index
  %c0_i8 = arith.constant 0 : i8
  %c7_i8 = arith.constant 7 : i8
  %0 = stream.async.splat %c0_i8 : i8 -> {RESOURCE_16}
  %1 = stream.async.fill %c7_i8, %0[%c4 to %c12 for %c8] : i8 -> %0 as {RESOURCE_16}
  util.return %1 : !stream.resource<external>
}}""")
    assert output_bytes(result) == bytes(4) + b"\x07" * 8 + bytes(4)
    # In place: one allocation only.
    assert result.report()["queue_ops"]["dev_a"]["alloca"] == 1


def test_clone_slice_update_and_copy_move_bytes_between_resources() -> None:
    result = run_ir(f"""
util.func public @main() -> (!stream.resource<external>, !stream.resource<external>) {{
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %c1_i8 = arith.constant 1 : i8
  %c2_i8 = arith.constant 2 : i8
  %0 = stream.async.splat %c1_i8 : i8 -> {RESOURCE_16}
  %1 = stream.async.splat %c2_i8 : i8 -> !stream.resource<external>{{%c4}}
  %2 = stream.async.clone %0 : {RESOURCE_16} -> {RESOURCE_16}
  %3 = stream.async.update %1, %2[%c4 to %c8] : !stream.resource<external>{{%c4}} -> %2 as {RESOURCE_16}
  %4 = stream.async.slice %3[%c0 to %c8] : {RESOURCE_16} -> !stream.resource<external>{{%c8}}
  %5 = stream.async.copy %4[%c0 to %c8], %0[%c8 to %c16], %c8 : !stream.resource<external>{{%c8}} -> %0 as {RESOURCE_16}
  util.return %3, %5 : !stream.resource<external>, !stream.resource<external>
}}""")
    updated = b"\x01" * 4 + b"\x02" * 4 + b"\x01" * 8
    assert output_bytes(result, 0) == updated
    assert output_bytes(result, 1) == b"\x01" * 8 + updated[:8]
    # clone 16 + update 4 + slice 8 + copy 8
    assert result.report()["bytes_copied"]["total"] == 36


def test_constant_holds_its_dense_value() -> None:
    result = run_ir(f"""
util.func public @main() -> !stream.resource<constant> {{
  %c16 = arith.constant 16 : index
  %cst = stream.async.constant on({B}) : !stream.resource<constant>{{%c16}} = dense<[1, 2, -3, 4]> : tensor<4xi32>
  util.return %cst : !stream.resource<constant>
}}""")
    assert np.frombuffer(output_bytes(result), np.int32).tolist() == [1, 2, -3, 4]
    assert result.report()["queue_ops"]["dev_b"] == {"alloca": 1, "update": 1}


def test_store_and_load_go_through_the_host() -> None:
    result = run_ir("""
util.func public @main() -> i32 {
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %c0_i32 = arith.constant 0 : i32
  %c42_i32 = arith.constant 42 : i32
  %splat = stream.async.splat %c0_i32 : i32 -> !stream.resource<external>{%c8}
  %0 = stream.async.transfer %splat : !stream.resource<external>{%c8} -> !stream.resource<staging>{%c8}
  %1 = stream.async.store %c42_i32, %0[%c4] : i32 -> %0 as !stream.resource<staging>{%c8}
  %2 = stream.async.load %1[%c4] : !stream.resource<staging>{%c8} -> i32
  util.return %2 : i32
}""")
    assert result.outputs[0].value == 42


def test_transfer_copies_to_the_target_device() -> None:
    result = run_ir(f"""
util.func public @main() -> !stream.resource<external> {{
  %c16 = arith.constant 16 : index
  %c5_i8 = arith.constant 5 : i8
  %0 = stream.async.splat on({A}) %c5_i8 : i8 -> !stream.resource<transient>{{%c16}}
  %1 = stream.async.transfer %0 : !stream.resource<transient>{{%c16}} from({A}) -> to({B}) {RESOURCE_16}
  util.return %1 : !stream.resource<external>
}}""")
    assert output_bytes(result) == b"\x05" * 16
    report = result.report()
    # The copy runs on the source device; the result is allocated on the target.
    assert report["queue_ops"]["dev_a"]["copy"] == 1
    assert report["queue_ops"]["dev_b"] == {"alloca": 1}
    assert report["bytes_copied"]["total"] == 16
    assert report["bytes_copied_by_moves"]["total"] == 0
    assert report["moves_aliased"] == report["moves_copied"] == 0


MOVES = f"""
util.func public @main() -> (!stream.resource<external>, !stream.resource<external>) {{
  %c16 = arith.constant 16 : index
  %c5_i8 = arith.constant 5 : i8
  %c6_i8 = arith.constant 6 : i8
  %0 = stream.async.splat on({A}) %c5_i8 : i8 -> !stream.resource<transient>{{%c16}}
  %1 = stream.async.move %0 : !stream.resource<transient>{{%c16}} from({A}) -> to({B}) {RESOURCE_16}
  %2 = stream.async.splat on({A}) %c6_i8 : i8 -> !stream.resource<transient>{{%c16}}
  %3 = stream.async.move %2 : !stream.resource<transient>{{%c16}} from({A}) -> to({C}) {RESOURCE_16}
  util.return %1, %3 : !stream.resource<external>, !stream.resource<external>
}}"""


def test_moves_alias_between_cpus_and_copy_to_the_discrete_device() -> None:
    result = run_ir(MOVES)
    assert output_bytes(result, 0) == b"\x05" * 16
    assert output_bytes(result, 1) == b"\x06" * 16
    report = result.report()
    assert report["moves_aliased"] == 1
    assert report["moves_copied"] == 1
    assert report["move_reasons"] == {"NO_PEER": 1}
    assert report["bytes_copied_by_moves"]["total"] == 16
    assert report["devices"]["dev_c"]["kind"] == "gpu"
    # The copying move freed its source on dev_a; the aliasing one keeps dev_a's memory.
    assert report["queue_ops"]["dev_a"]["alloca"] == 2


def test_topology_file_can_bind_devices_by_name() -> None:
    from streamopt.runtime.topology import topology_from_dict

    topology = topology_from_dict(
        {
            "devices": {
                "dev_c": {"kind": "cpu", "memory": ["host"]},
                "dev_b": {"kind": "gpu", "memory": ["b.vram"]},
                "dev_a": {"kind": "cpu", "memory": ["host"]},
            }
        }
    )
    result = run_ir(MOVES, topology=topology)
    report = result.report()
    # Now dev_b is the discrete device (it pulls the bytes: dev_a cannot reach its memory)
    # and dev_c shares host memory with dev_a.
    assert report["move_reasons"] == {"NO_PEER": 1}
    assert report["bytes_copied_by_moves"]["by_device"] == {"dev_c": 0, "dev_b": 16, "dev_a": 0}


DISPATCH = f"""
stream.executable private @ex {{
  stream.executable.export public @fn workgroups() -> (index, index, index) {{
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    stream.return %x, %y, %z : index, index, index
  }}
  builtin.module {{
    func.func @fn(%arg0: !stream.binding, %arg1: !stream.binding) {{
      %c0 = arith.constant 0 : index
      %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
      %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
      return
    }}
  }}
}}
util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view {{
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %element_type_f32 = hal.element_type<f32> : i32
  %dense_row_major = hal.encoding_type<dense_row_major> : i32
  hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c4]) type(%element_type_f32) encoding(%dense_row_major)
  %0 = stream.tensor.import on({A}) %arg0 : !hal.buffer_view -> tensor<4xf32> in {RESOURCE_16}
  %1 = stream.async.dispatch on({A}) @ex::@fn(%0[%c0 to %c16 for %c16]) : ({RESOURCE_16}) -> {RESOURCE_16}
  %2 = stream.tensor.export on({A}) %1 : tensor<4xf32> in {RESOURCE_16} -> !hal.buffer_view
  util.return %2 : !hal.buffer_view
}}"""


def test_dispatch_output_is_a_function_of_its_kernel_and_inputs() -> None:
    first = run_ir(DISPATCH, inputs=["4xf32=1 2 3 4"])
    again = run_ir(DISPATCH, inputs=["4xf32=1 2 3 4"])
    other = run_ir(DISPATCH, inputs=["4xf32=1 2 3 5"])
    renamed = run_ir(DISPATCH.replace("@fn", "@gn"), inputs=["4xf32=1 2 3 4"])
    assert output_bytes(first) == output_bytes(again)
    assert output_bytes(first) != output_bytes(other)
    assert output_bytes(first) != output_bytes(renamed)
    assert first.outputs[0].text.startswith("4xf32=")


def test_arguments_without_inputs_come_from_the_asserts() -> None:
    made_up = run_ir(DISPATCH)
    assert made_up.arguments[0].shape == (4,)
    from streamopt.runtime.interpreter.inputs import TensorType, default_array, element_type

    expected = default_array(TensorType((4,), element_type("f32")), 0)
    given = run_ir(DISPATCH, inputs=["4xf32=" + " ".join(str(v) for v in expected)])
    assert output_bytes(made_up) == output_bytes(given)


def test_tied_dispatch_writes_its_operand_in_place() -> None:
    body = f"""
util.func public @main() -> (!stream.resource<external>, !stream.resource<external>) {{
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1_i8 = arith.constant 1 : i8
  %0 = stream.async.splat %c1_i8 : i8 -> {RESOURCE_16}
  %1 = stream.async.clone %0 : {RESOURCE_16} -> {RESOURCE_16}
  %2 = stream.async.dispatch @ex::@fn(%1[%c0 to %c16 for %c16]) : ({RESOURCE_16}) -> %1{{%c16}}
  util.return %0, %2 : !stream.resource<external>, !stream.resource<external>
}}"""
    result = run_ir(body)
    assert output_bytes(result, 0) == b"\x01" * 16
    assert output_bytes(result, 1) != b"\x01" * 16
    # The clone and the splat are the only allocations.
    assert result.report()["queue_ops"]["dev_a"]["alloca"] == 2


def test_execute_region_results_are_ready_after_its_timepoint() -> None:
    result = run_ir(f"""
util.func public @main() -> !stream.resource<external> {{
  %c16 = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c3_i8 = arith.constant 3 : i8
  %c9_i8 = arith.constant 9 : i8
  %0 = stream.async.splat %c3_i8 : i8 -> {RESOURCE_16}
  %1, %2 = stream.async.execute on({B}) with(%0 as %arg0: {RESOURCE_16}) -> %0{{%c16}} {{
    %3 = stream.async.concurrent with(%arg0 as %arg1: {RESOURCE_16}) -> %arg0{{%c16}} {{
      %4 = stream.async.fill %c9_i8, %arg1[%c4 to %c8 for %c4] : i8 -> %arg1 as {RESOURCE_16}
      stream.yield %4 : {RESOURCE_16}
    }}
    stream.yield %3 : {RESOURCE_16}
  }} => !stream.timepoint
  %5 = stream.timepoint.await %2 => %1 : {RESOURCE_16}
  util.return %5 : !stream.resource<external>
}}""")
    assert output_bytes(result) == b"\x03" * 4 + b"\x09" * 4 + b"\x03" * 8
    # The fill ran on the execute region's device.
    assert result.report()["queue_ops"]["dev_b"] == {"fill": 1}


def test_sizeof_and_export_give_a_tensor_view() -> None:
    result = run_ir("""
util.func public @main() -> !hal.buffer_view {
  %c3 = arith.constant 3 : index
  %c1_i16 = arith.constant 1 : i16
  %0 = stream.tensor.sizeof tensor<?x2xi16>{%c3} : index
  %1 = stream.async.splat %c1_i16 : i16 -> !stream.resource<external>{%0}
  %2 = stream.tensor.export %1 : tensor<?x2xi16>{%c3} in !stream.resource<external>{%0} -> !hal.buffer_view
  util.return %2 : !hal.buffer_view
}""")
    assert result.outputs[0].text == "3x2xi16=1 1 1 1 1 1"


def test_control_flow_calls_and_globals() -> None:
    body = f"""
util.global private mutable @state : !stream.resource<variable>
util.initializer {{
  %c16 = arith.constant 16 : index
  %c1_i8 = arith.constant 1 : i8
  %0 = stream.async.splat %c1_i8 : i8 -> !stream.resource<variable>{{%c16}}
  util.global.store %0, @state : !stream.resource<variable>
  util.return
}}
util.func private @bump(%arg0: !stream.resource<external>, %arg1: index) -> !stream.resource<external> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2_i8 = arith.constant 2 : i8
  %0 = stream.async.fill %c2_i8, %arg0[%c0 to %c1 for %c1] : i8 -> %arg0 as !stream.resource<external>{{%arg1}}
  util.return %0 : !stream.resource<external>
}}
util.func public @main(%arg0: i32) -> !stream.resource<external> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c0_i32 = arith.constant 0 : i32
  %c9_i8 = arith.constant 9 : i8
  %state = util.global.load @state : !stream.resource<variable>
  %0 = stream.async.clone %state : !stream.resource<variable>{{%c16}} -> {RESOURCE_16}
  %1 = arith.cmpi sgt, %arg0, %c0_i32 : i32
  %2 = scf.if %1 -> (!stream.resource<external>) {{
    %5 = stream.async.fill %c9_i8, %0[%c0 to %c1 for %c1] : i8 -> %0 as {RESOURCE_16}
    scf.yield %5 : !stream.resource<external>
  }} else {{
    scf.yield %0 : !stream.resource<external>
  }}
  %3 = arith.index_cast %arg0 : i32 to index
  %4 = scf.for %arg1 = %c0 to %3 step %c1 iter_args(%arg2 = %2) -> (!stream.resource<external>) {{
    %5 = util.call @bump(%arg2, %c16) : (!stream.resource<external>, index) -> !stream.resource<external>
    scf.yield %5 : !stream.resource<external>
  }}
  util.return %4 : !stream.resource<external>
}}"""
    # The if writes 9 into byte 0, then each call of @bump writes 2 there.
    taken = run_ir(body, inputs=["3"])
    assert output_bytes(taken) == b"\x02" + b"\x01" * 15
    skipped = run_ir(body, inputs=["0"])
    assert output_bytes(skipped) == b"\x01" * 16
    second_byte = run_ir(body.replace("%c2_i8, %arg0[%c0", "%c2_i8, %arg0[%c1"), inputs=["1"])
    assert output_bytes(second_byte) == b"\x09\x02" + b"\x01" * 14


def test_storage_is_freed_after_its_last_use() -> None:
    # A chain of transfers: each step's source dies at the transfer, so at most two
    # buffers are resident at once however long the chain is.
    steps = []
    previous = "%start"
    for step in range(10):
        source, target = (A, B) if step % 2 == 0 else (B, A)
        steps.append(
            f"  %t{step} = stream.async.transfer {previous} : !stream.resource<transient>{{%c64}} "
            f"from({source}) -> to({target}) !stream.resource<transient>{{%c64}}"
        )
        previous = f"%t{step}"
    body = f"""
util.func public @main() -> !stream.resource<transient> {{
  %c64 = arith.constant 64 : index
  %c1_i8 = arith.constant 1 : i8
  %start = stream.async.splat on({A}) %c1_i8 : i8 -> !stream.resource<transient>{{%c64}}
{chr(10).join(steps)}
  util.return {previous} : !stream.resource<transient>
}}"""
    result = run_ir(body)
    report = result.report()
    assert report["bytes_allocated"]["total"] == 64 * 11
    assert report["peak_bytes"]["total"] == 128
    assert sum(ops.get("dealloca", 0) for ops in report["queue_ops"].values()) == 10


def test_a_read_after_a_move_is_reported_at_the_read_with_the_move() -> None:
    body = f"""
util.func public @main() -> !stream.resource<external> {{
  %c16 = arith.constant 16 : index
  %c5_i8 = arith.constant 5 : i8
  %0 = stream.async.splat on({A}) %c5_i8 : i8 -> {RESOURCE_16}
  %1 = stream.async.move %0 : {RESOURCE_16} from({A}) -> to({B}) {RESOURCE_16}
  %2 = stream.async.clone on({A}) %0 : {RESOURCE_16} -> {RESOURCE_16}
  util.return %2 : !stream.resource<external>
}}"""
    # The verifier rejects this program; run it as a buggy pass could leave it.
    error = run_error(body, verify=False)
    diagnostic = error.diagnostics[0]
    assert "use after move" in diagnostic.message
    assert diagnostic.location.line == line_of(body, "stream.async.clone")
    assert f"test.mlir:{line_of(body, 'stream.async.move')}:" in diagnostic.message
    assert diagnostic.notes[0].location.line == line_of(body, "stream.async.move")


def test_unsupported_ops_are_errors_at_their_location() -> None:
    body = """
util.func public @main() -> i32 {
  %0 = ub.poison : i32
  util.return %0 : i32
}"""
    error = run_error(body)
    diagnostic = error.diagnostics[0]
    assert "does not support 'ub.poison'" in diagnostic.message
    assert diagnostic.location.line == line_of(body, "ub.poison")


def test_parse_input_forms() -> None:
    splat = parse_input("4xf32=1.5")
    assert splat.array is not None and splat.array.tolist() == [1.5] * 4
    listed = parse_input("2x2xi32=1,2,3,4")
    assert listed.array is not None and listed.array.tolist() == [[1, 2], [3, 4]]
    zeros = parse_input("3xi8")
    assert zeros.array is not None and zeros.array.tolist() == [0, 0, 0]
    assert parse_input("7").number == 7
    with pytest.raises(ValueError):
        parse_input("4xf32=1 2")


def test_while_loops_and_branches_between_blocks() -> None:
    body = f"""
util.func public @main(%arg0: i32) -> (!stream.resource<external>, index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i8 = arith.constant 1 : i8
  %c8_i8 = arith.constant 8 : i8
  %0 = stream.async.splat %c1_i8 : i8 -> {RESOURCE_16}
  %count = scf.while (%i = %c0) : (index) -> index {{
    %more = arith.cmpi ult, %i, %c3 : index
    scf.condition(%more) %i : index
  }} do {{
  ^bb0(%i: index):
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }}
  %cond = arith.cmpi sgt, %arg0, %c0_i32 : i32
  cf.cond_br %cond, ^bb1(%0 : !stream.resource<external>), ^bb2
^bb1(%x: !stream.resource<external>):
  %1 = stream.async.fill %c8_i8, %x[%c0 to %c1 for %c1] : i8 -> %x as {RESOURCE_16}
  cf.br ^bb3(%1 : !stream.resource<external>)
^bb2:
  cf.br ^bb3(%0 : !stream.resource<external>)
^bb3(%r: !stream.resource<external>):
  util.return %r, %count : !stream.resource<external>, index
}}"""
    taken = run_ir(body, inputs=["1"])
    assert output_bytes(taken) == b"\x08" + b"\x01" * 15
    assert taken.outputs[1].value == 3
    not_taken = run_ir(body, inputs=["-1"])
    assert output_bytes(not_taken) == b"\x01" * 16


def test_timepoint_and_fence_arguments() -> None:
    # Coarse-fences ABI: the function waits on one fence and signals the last; timepoint
    # arguments are already reached.
    result = run_ir("""
util.func public @main(%arg0: !stream.timepoint, %wait: !hal.fence, %signal: !hal.fence) -> index {
  %c16 = arith.constant 16 : index
  %c1_i8 = arith.constant 1 : i8
  %0 = stream.async.splat await(%arg0) %c1_i8 : i8 -> !stream.resource<external>{%c16}
  %dev_a = util.global.load immutable @dev_a : !hal.device
  %c-1_i64 = arith.constant -1 : i64
  hal.device.queue.barrier<%dev_a : !hal.device> affinity(%c-1_i64) wait(%wait) signal(%signal) flags("None")
  %1 = stream.resource.size %0 : !stream.resource<external>
  util.return %1 : index
}""")
    assert result.outputs[0].value == 16
    signal = result.arguments[2]
    assert signal.is_reached


def test_a_loop_of_blocks_frees_each_iteration() -> None:
    # A cf loop that makes a fresh resource each time round and uses it after the loop: each
    # iteration's value replaces the last, so memory does not grow with the trip count.
    body = f"""
util.func public @main(%n: index) -> !stream.resource<external> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c1_i8 = arith.constant 1 : i8
  cf.br ^bb1(%c0 : index)
^bb1(%i: index):
  %0 = stream.async.splat %c1_i8 : i8 -> {RESOURCE_16}
  %next = arith.addi %i, %c1 : index
  %more = arith.cmpi ult, %next, %n : index
  cf.cond_br %more, ^bb1(%next : index), ^bb2
^bb2:
  util.return %0 : !stream.resource<external>
}}"""
    report = run_ir(body, inputs=["8"]).report()
    assert report["bytes_allocated"]["total"] == 8 * 16
    assert report["peak_bytes"]["total"] == 32


def test_a_hexadecimal_float_constant_is_the_float_of_its_bits() -> None:
    result = run_ir(
        """
util.func public @main() -> (f32, f16) {
  %0 = arith.constant 0x3F800000 : f32
  %1 = arith.constant 2.0 : f32
  %2 = arith.addf %0, %1 : f32
  %3 = arith.constant 0xC000 : f16
  util.return %2, %3 : f32, f16
}
"""
    )
    assert [output.text for output in result.outputs] == ["f32=3.0", "f16=-2.0"]
