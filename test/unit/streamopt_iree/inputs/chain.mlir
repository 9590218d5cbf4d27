// A chained move A -> B -> A at the cmd level: 16 bytes made on A (words 1 1 1 1), the last two
// words written on B after the first move (2 2), the first word on A after the second (3), so
// the result (3 1 2 2) shows each write saw the bytes the move before it handed over. The host
// waits for the first fill, so the first move awaits nothing (IREE passes it a null fence).
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">]> : !hal.device
module {
  util.global private @dev_a = #device_target_local_0_
  util.global private @dev_b = #device_target_local_1_
  util.func public @main() -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main() -> (%output0: tensor<4xi32>)"}} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %a, %a_ready = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%c16} => !stream.timepoint
    %filled = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%a_ready) => with(%a as %arg0: !stream.resource<transient>{%c16}) {
      stream.cmd.fill %c1_i32, %arg0[%c0 for %c16] : i32 -> !stream.resource<transient>{%c16}
    } => !stream.timepoint
    %done = stream.timepoint.await %filled => %a : !stream.resource<transient>{%c16}
    %b, %b_ready = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) %done : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%c16} => !stream.timepoint
    %on_b = stream.cmd.execute on(#hal.device.affinity<@dev_b>) await(%b_ready) => with(%b as %arg0: !stream.resource<transient>{%c16}) {
      stream.cmd.fill %c2_i32, %arg0[%c8 for %c8] : i32 -> !stream.resource<transient>{%c16}
    } => !stream.timepoint
    %back, %back_ready = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%on_b) => %b : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<external>{%c16} => !stream.timepoint
    %on_a = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%back_ready) => with(%back as %arg0: !stream.resource<external>{%c16}) {
      stream.cmd.fill %c3_i32, %arg0[%c0 for %c4] : i32 -> !stream.resource<external>{%c16}
    } => !stream.timepoint
    %result = stream.timepoint.await %on_a => %back : !stream.resource<external>{%c16}
    %view = stream.tensor.export on(#hal.device.affinity<@dev_a>) %result : tensor<4xi32> in !stream.resource<external>{%c16} -> !hal.buffer_view
    util.return %view : !hal.buffer_view
  }
}
