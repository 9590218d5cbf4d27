// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s

// CHECK-LABEL: util.func public @move_forms
util.func public @move_forms(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.timepoint) -> (!stream.resource<external>, !stream.timepoint) {
  // Results are named like stream.resource.alloca's when the input does not name them.
  // CHECK: %result, %result_timepoint = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%arg2) => %arg0 : !stream.resource<transient>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%arg1} => !stream.timepoint
  %0:2 = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%arg2) => %arg0 : !stream.resource<transient>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%arg1} => !stream.timepoint
  // CHECK: util.return %result, %result_timepoint
  util.return %0#0, %0#1 : !stream.resource<external>, !stream.timepoint
}

// -----

// Without await, affinities or origin; the attribute dictionary comes last, as on dealloca.

// CHECK-LABEL: util.func public @bare_move
util.func public @bare_move(%arg0: !stream.resource<transient>, %arg1: index, %arg2: index) -> !stream.resource<transient> {
  // CHECK: %[[R:.+]], %[[T:.+]] = stream.cmd.move %arg0 : !stream.resource<transient>{%arg1} -> !stream.resource<transient>{%arg2} => !stream.timepoint {some.attr}
  %r, %t = stream.cmd.move %arg0 : !stream.resource<transient>{%arg1} -> !stream.resource<transient>{%arg2} => !stream.timepoint {some.attr}
  // CHECK: stream.timepoint.await %[[T]] => %[[R]] : !stream.resource<transient>{%arg2}
  %0 = stream.timepoint.await %t => %r : !stream.resource<transient>{%arg2}
  util.return %0 : !stream.resource<transient>
}

// -----

// Only the target affinity: `-> to(B)`, as on transfers inside execution regions.

// CHECK-LABEL: util.func public @to_only
util.func public @to_only(%arg0: !stream.resource<*>, %arg1: index, %arg2: !stream.timepoint) -> !stream.timepoint {
  // CHECK: stream.cmd.move on(#hal.device.affinity<@dev_b>) await(%arg2) => %arg0 : !stream.resource<*>{%arg1} -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%arg1} => !stream.timepoint
  %r, %t = stream.cmd.move on(#hal.device.affinity<@dev_b>) await(%arg2) => %arg0 : !stream.resource<*>{%arg1} -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%arg1} => !stream.timepoint
  util.return %t : !stream.timepoint
}
