// A runtime move written by hand (cmd IR calling the import directly): the last 8 bytes of a
// 16-byte buffer made on A (words 1 1 2 2) move to B, with the move flags given as the
// argument. A part of a buffer cannot alias (SUBSPAN): it is copied, and the source is not
// freed (the caller keeps the rest), unless REQUIRE_ALIAS makes the move an error.
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">]> : !hal.device
module {
  util.global private @dev_a = #device_target_local_0_
  util.global private @dev_b = #device_target_local_1_
  util.func private @streamopt.queue_move.transient.external(%arg0: !stream.resource<transient>, %arg1: index, %arg2: index, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: !stream.timepoint) -> (!stream.resource<external>, !stream.timepoint)
  util.func public @main(%flags: i64) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: i64) -> (%output0: tensor<2xi32>)"}} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %any = arith.constant -1 : i64
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %a, %a_ready = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%c16} => !stream.timepoint
    %filled = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%a_ready) => with(%a as %arg0: !stream.resource<transient>{%c16}) {
      stream.cmd.fill %c1_i32, %arg0[%c0 for %c8] : i32 -> !stream.resource<transient>{%c16}
      stream.cmd.fill %c2_i32, %arg0[%c8 for %c8] : i32 -> !stream.resource<transient>{%c16}
    } => !stream.timepoint
    %b, %b_ready = util.call @streamopt.queue_move.transient.external(%a, %c8, %c8, %c0_i64, %c1_i64, %any, %flags, %filled) : (!stream.resource<transient>, index, index, i64, i64, i64, i64, !stream.timepoint) -> (!stream.resource<external>, !stream.timepoint)
    %result = stream.timepoint.await %b_ready => %b : !stream.resource<external>{%c8}
    %view = stream.tensor.export on(#hal.device.affinity<@dev_b>) %result : tensor<2xi32> in !stream.resource<external>{%c8} -> !hal.buffer_view
    util.return %view : !hal.buffer_view
  }
}
