// RUN: streamopt --expand-cmd-moves --split-input-file %s | filecheck %s

// CHECK-LABEL: util.func public @expand
util.func public @expand(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.timepoint) -> (!stream.resource<external>, !stream.timepoint) {
  // The target is allocated where the move sends it, after what the move awaited.
  // CHECK: %[[DST:.+]], %[[DST_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>) await(%arg2) => !stream.resource<external>{%arg1} => !stream.timepoint
  // The copy runs on the move's execution affinity once the target exists.
  // CHECK-NEXT: %[[COPY:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[DST_T]]) => with(%arg0 as %[[S:.+]]: !stream.resource<transient>{%arg1}, %[[DST]] as %[[D:.+]]: !stream.resource<external>{%arg1}) {
  // CHECK-NEXT: stream.cmd.copy %[[S]][%c0], %[[D]][%c0], %arg1 : !stream.resource<transient>{%arg1} -> !stream.resource<external>{%arg1}
  // CHECK-NEXT: } => !stream.timepoint
  // The source is freed where it came from, on its allocating queue, after the copy.
  // CHECK-NEXT: %[[FREE:.+]] = stream.resource.dealloca origin on(#hal.device.affinity<@dev_a>) await(%[[COPY]]) => %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint
  %result, %result_timepoint = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%arg2) => %arg0 : !stream.resource<transient>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%arg1} => !stream.timepoint
  // The move's timepoint becomes the dealloca's, which follows the copy.
  // CHECK-NOT: stream.cmd.move
  // CHECK: util.return %[[DST]], %[[FREE]]
  util.return %result, %result_timepoint : !stream.resource<external>, !stream.timepoint
}

// -----

// Without await, origin or affinities: everything runs on the move's (default) affinity and
// the dealloca frees on the current queue. An index 0 is added at the top of the function.

// CHECK-LABEL: util.func public @bare
util.func public @bare(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  // CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : index
  // CHECK-NEXT: %[[DST:.+]], %[[DST_T:.+]] = stream.resource.alloca uninitialized : !stream.resource<*>{%arg1} => !stream.timepoint
  // CHECK-NEXT: %[[COPY:.+]] = stream.cmd.execute await(%[[DST_T]]) => with(%arg0 as %[[S:.+]]: !stream.resource<*>{%arg1}, %[[DST]] as %[[D:.+]]: !stream.resource<*>{%arg1}) {
  // CHECK-NEXT: stream.cmd.copy %[[S]][%[[C0]]], %[[D]][%[[C0]]], %arg1
  // CHECK: %[[FREE:.+]] = stream.resource.dealloca await(%[[COPY]]) => %arg0 : !stream.resource<*>{%arg1} => !stream.timepoint
  %r, %t = stream.cmd.move %arg0 : !stream.resource<*>{%arg1} -> !stream.resource<*>{%arg1} => !stream.timepoint
  // CHECK-NEXT: stream.timepoint.await %[[FREE]] => %[[DST]]
  %0 = stream.timepoint.await %t => %r : !stream.resource<*>{%arg1}
  util.return %0 : !stream.resource<*>
}

// -----

// A move nested in a loop uses the function's index 0; chained moves expand one after the
// other, each waiting for the previous one's dealloca.

// CHECK-LABEL: util.func public @in_loop
util.func public @in_loop(%arg0: !stream.resource<transient>, %arg1: index, %n: index) -> !stream.resource<transient> {
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  // CHECK-NEXT: %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = stream.timepoint.immediate => !stream.timepoint
  // CHECK: scf.for
  %0:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %arg0, %t = %t0) -> (!stream.resource<transient>, !stream.timepoint) {
    // CHECK: %[[B:.+]], %[[B_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>)
    // CHECK: stream.cmd.copy %{{.+}}[%c0], %{{.+}}[%c0], %arg1
    // CHECK: %[[FREE_A:.+]] = stream.resource.dealloca origin on(#hal.device.affinity<@dev_a>)
    %b, %tb = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%t) => %x : !stream.resource<transient>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%arg1} => !stream.timepoint
    // CHECK: %[[A:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) await(%[[FREE_A]])
    // CHECK: %[[FREE_B:.+]] = stream.resource.dealloca origin on(#hal.device.affinity<@dev_b>) await(%{{.+}}) => %[[B]]
    %a, %ta = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%tb) => %b : !stream.resource<transient>{%arg1} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%arg1} => !stream.timepoint
    // CHECK: scf.yield %[[A]], %[[FREE_B]]
    scf.yield %a, %ta : !stream.resource<transient>, !stream.timepoint
  }
  %1 = stream.timepoint.await %0#1 => %0#0 : !stream.resource<transient>{%arg1}
  util.return %1 : !stream.resource<transient>
}
