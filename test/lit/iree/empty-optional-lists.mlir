// Forms iree-opt reads but never prints: an optional group whose list is empty (`await()`,
// `[]`, `{}`, `workload([])`) and an int assumption with no value (`umin = `) read as if they
// were not written, and print so.
// RUN: iree-opt %s -o %t.expected
// RUN: streamopt %s -o %t.actual
// RUN: diff %t.expected %t.actual

util.func public @empty_lists(%arg0: !hal.buffer_view, %arg1: index, %arg2: !hal.device, %arg3: !stream.resource<external>, %arg4: i32) -> (!stream.resource<external>, index, !hal.buffer_view, !stream.resource<*>, !stream.resource<transient>, index) {
  %0 = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<4xf32>{} in !stream.resource<external>{%arg1}
  %workgroup_x, %workgroup_y, %workgroup_z = hal.executable.calculate_workgroups device(%arg2 : !hal.device) target(@ex::@variant::@fn) workload([]) : index, index, index
  %1 = stream.tensor.export %arg3 : tensor<4xf32>{} in !stream.resource<external>{%arg1} -> !hal.buffer_view
  %2 = stream.async.dispatch @ex::@a[](%arg3[%arg1 to %arg1 for %arg1]) : (!stream.resource<external>{%arg1}) -> !stream.resource<*>{%arg1}
  %3 = stream.async.splat await() %arg4 : i32 -> !stream.resource<transient>{%arg1}
  %4 = util.assume.int %arg1<umin = , umax = 10> : index
  util.return %0, %workgroup_x, %1, %2, %3, %4 : !stream.resource<external>, index, !hal.buffer_view, !stream.resource<*>, !stream.resource<transient>, index
}

// An optional operand left out between the parentheses of a group a literal opens.
util.func public @left_out_operands(%arg0: index, %arg1: !stream.resource<transient>, %arg2: !hal.device, %arg3: i64) -> (!stream.timepoint, !stream.timepoint, !stream.timepoint, index, !hal.command_buffer, !stream.timepoint) {
  %result, %result_timepoint = stream.resource.alloca uninitialized await() => !stream.resource<transient>{%arg0} => !stream.timepoint
  %0 = stream.resource.dealloca await() => %arg1 : !stream.resource<transient>{%arg0} => !stream.timepoint
  %1 = stream.cmd.execute await() => with(%arg1 as %arg4: !stream.resource<transient>{%arg0}) {
  } => !stream.timepoint
  %2 = stream.resource.pack offset() slices({}) : index
  %3 = hal.command_buffer.create device(%arg2 : !hal.device) mode("None") categories(Dispatch) affinity(%arg3) bindings() : !hal.command_buffer
  %4 = stream.async.execute await() => with(%arg1 as %arg4: !stream.resource<transient>{%arg0}) {
    stream.yield
  } => !stream.timepoint
  util.return %result_timepoint, %0, %1, %2, %3, %4 : !stream.timepoint, !stream.timepoint, !stream.timepoint, index, !hal.command_buffer, !stream.timepoint
}
