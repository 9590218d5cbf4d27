// IREE's own lowering of cmd-phase IR to hal (iree-hal-conversion) prints ops streamopt reads
// and prints back byte for byte; and streamopt's print of the cmd-phase input lowers to the
// same hal IR as the input itself.
//
// Every streamopt run comes before the first `diff` (lit's builtin diff resets PYTHONPATH for
// the commands after it).
//
// RUN: iree-opt --split-input-file --iree-hal-conversion %s > %t.hal
// RUN: streamopt --split-input-file %t.hal > %t.hal.streamopt
// RUN: streamopt --split-input-file %s > %t.cmd
// RUN: iree-opt --split-input-file --iree-hal-conversion %t.cmd > %t.cmd.hal
// RUN: filecheck %s --input-file %t.hal.streamopt
// RUN: diff %t.hal %t.hal.streamopt
// RUN: diff %t.hal %t.cmd.hal

util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device

// CHECK-LABEL: util.func public @alloca_copy_dealloca
util.func public @alloca_copy_dealloca(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.timepoint) -> (!stream.resource<external>, !stream.timepoint) {
  %c0 = arith.constant 0 : index
  // CHECK: hal.allocator.resolve_memory_properties for(#hal.device.affinity<@dev_b>) lifetime(external) : i32, i32
  // CHECK: [[DST:%[^ )]+]] = hal.device.queue.alloca<{{.+}}> affinity({{.+}}) wait(%arg2) signal([[F1:%[^ )]+]]) pool({{.+}}) flags("None") : !hal.buffer{%arg1}
  %result, %result_timepoint = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>) await(%arg2) => !stream.resource<external>{%arg1} => !stream.timepoint
  // An execute holding one copy becomes a queue copy.
  // CHECK: hal.device.queue.copy<{{.+}}> affinity({{[^)]+}}) wait([[F1]]) signal([[F2:%[^ )]+]]) source(%arg0 : !hal.buffer)[%c0] target([[DST]] : !hal.buffer)[%c0] length(%arg1) flags("None")
  %0 = stream.cmd.execute on(#hal.device.affinity<@dev_b>) await(%result_timepoint) => with(%arg0 as %arg3: !stream.resource<transient>{%arg1}, %result as %arg4: !stream.resource<external>{%arg1}) {
    stream.cmd.invalidate from(#hal.device.affinity<@dev_a>) %arg3[%c0 for %arg1] : !stream.resource<transient>{%arg1}
    stream.cmd.copy %arg3[%c0], %arg4[%c0], %arg1 : !stream.resource<transient>{%arg1} -> !stream.resource<external>{%arg1}
  } => !stream.timepoint
  // CHECK: hal.device.queue.dealloca<{{.+}}> affinity({{[^)]+}}) wait([[F2]]) signal([[F3:%[^ )]+]]) buffer(%arg0 : !hal.buffer) flags(PreferOrigin)
  %1 = stream.resource.dealloca origin on(#hal.device.affinity<@dev_a>) await(%0) => %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint
  // CHECK: util.return [[DST]], [[F3]]
  util.return %result, %1 : !stream.resource<external>, !stream.timepoint
}

// -----

util.global private @dev_a : !hal.device

// CHECK-LABEL: util.func public @command_buffer
util.func public @command_buffer(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.timepoint) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c255_i32 = arith.constant 255 : i32
  // More than one command needs a command buffer.
  // CHECK: [[CMD:%[^ )]+]] = hal.command_buffer.create device({{.+}}) mode(OneShot) categories(Transfer) affinity({{.+}}) : !hal.command_buffer
  // CHECK: hal.command_buffer.fill_buffer<[[CMD]] : !hal.command_buffer> target(%arg0 : !hal.buffer)[%c0, %c4] pattern(%c255_i32 : i32) flags("None")
  // CHECK: hal.command_buffer.copy_buffer<[[CMD]] : !hal.command_buffer> source(%arg0 : !hal.buffer)[%c0] target(%arg0 : !hal.buffer)[%c4] length(%c4) flags("None")
  // CHECK: hal.command_buffer.execution_barrier<[[CMD]] : !hal.command_buffer>
  // CHECK: hal.command_buffer.finalize<[[CMD]] : !hal.command_buffer>
  // CHECK: [[FENCE:%[^ )]+]] = hal.fence.create device({{.+}}) flags("None") : !hal.fence
  // CHECK: hal.device.queue.execute<{{.+}}> affinity({{[^)]+}}) wait(%arg2) signal([[FENCE]]) commands([[CMD]]) flags("None")
  %0 = stream.cmd.execute once on(#hal.device.affinity<@dev_a>) await(%arg2) => with(%arg0 as %arg3: !stream.resource<transient>{%arg1}) {
    stream.cmd.serial {
      stream.cmd.fill %c255_i32, %arg3[%c0 for %c4] : i32 -> !stream.resource<transient>{%arg1}
      stream.cmd.copy %arg3[%c0], %arg3[%c4], %c4 : !stream.resource<transient>{%arg1} -> !stream.resource<transient>{%arg1}
    }
  } => !stream.timepoint
  // CHECK: hal.fence.await until([[[FENCE]]])
  %1 = stream.timepoint.await %0 => %arg0 : !stream.resource<transient>{%arg1}
  util.return %0 : !stream.timepoint
}
