// RUN: streamopt --lower-cmd-moves-to-calls --split-input-file %s | filecheck %s

// A move between two devices: one private declaration per pair of lifetimes (before the first
// function), and a call that waits for what the move awaited and whose timepoint every user
// of the result still awaits. Devices are ordinals: the `ordinal` of their target.

#target_a = #hal.device.target<"local", {ordinal = 0 : index}> : !hal.device
#target_b = #hal.device.target<"local", {ordinal = 1 : index}> : !hal.device
module {
  util.global private @dev_a = #target_a
  util.global private @dev_b = #target_b
  // CHECK: util.global private @dev_b
  // CHECK-NEXT: util.func private @streamopt.queue_move.transient.external(%arg0: !stream.resource<transient>, %arg1: index, %arg2: index, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: !stream.timepoint) -> (!stream.resource<external>, !stream.timepoint)
  // CHECK-LABEL: util.func public @move
  util.func public @move(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.timepoint) -> !stream.resource<external> {
    // CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : index
    // CHECK-NEXT: %[[FROM:.+]] = arith.constant 0 : i64
    // CHECK-NEXT: %[[TO:.+]] = arith.constant 1 : i64
    // CHECK-NEXT: %[[ANY:.+]] = arith.constant -1 : i64
    // CHECK-NEXT: %[[FLAGS:.+]] = arith.constant 0 : i64
    // CHECK-NEXT: %[[R:.+]]:2 = util.call @streamopt.queue_move.transient.external(%arg0, %[[C0]], %arg1, %[[FROM]], %[[TO]], %[[ANY]], %[[FLAGS]], %arg2) : (!stream.resource<transient>, index, index, i64, i64, i64, i64, !stream.timepoint) -> (!stream.resource<external>, !stream.timepoint)
    %result, %result_timepoint = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%arg2) => %arg0 : !stream.resource<transient>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%arg1} => !stream.timepoint
    // CHECK-NOT: stream.cmd.move
    // CHECK-NEXT: %[[READY:.+]] = stream.timepoint.await %[[R]]#1 => %[[R]]#0 : !stream.resource<external>{%arg1}
    %0 = stream.timepoint.await %result_timepoint => %result : !stream.resource<external>{%arg1}
    // CHECK-NEXT: util.return %[[READY]]
    util.return %0 : !stream.resource<external>
  }
}

// -----

// A chain A -> B -> A in a loop: both moves share one declaration, the second waits for the
// first's result timepoint; the queue list of the target becomes a mask. Devices without a
// target are numbered in module order.

module {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device
  // CHECK: util.func private @streamopt.queue_move.transient.transient(
  // CHECK-NOT: util.func private @streamopt.queue_move
  // CHECK-LABEL: util.func public @chain
  util.func public @chain(%arg0: !stream.resource<transient>, %arg1: index, %n: index) -> !stream.resource<transient> {
    // CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = stream.timepoint.immediate => !stream.timepoint
    // CHECK: scf.for
    %0:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %arg0, %t = %t0) -> (!stream.resource<transient>, !stream.timepoint) {
      // CHECK: %[[FROM:.+]] = arith.constant 0 : i64
      // CHECK-NEXT: %[[TO:.+]] = arith.constant 1 : i64
      // CHECK-NEXT: %[[QUEUES:.+]] = arith.constant 6 : i64
      // CHECK-NEXT: %[[FLAGS:.+]] = arith.constant 0 : i64
      // CHECK-NEXT: %[[B:.+]]:2 = util.call @streamopt.queue_move.transient.transient(%{{.+}}, %[[C0]], %arg1, %[[FROM]], %[[TO]], %[[QUEUES]], %[[FLAGS]], %{{.+}})
      %b, %tb = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%t) => %x : !stream.resource<transient>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b, [1, 2]>) !stream.resource<transient>{%arg1} => !stream.timepoint
      // CHECK: %[[A:.+]]:2 = util.call @streamopt.queue_move.transient.transient(%[[B]]#0, %[[C0]], %arg1, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[B]]#1)
      %a, %ta = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%tb) => %b : !stream.resource<transient>{%arg1} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%arg1} => !stream.timepoint
      // CHECK: scf.yield %[[A]]#0, %[[A]]#1
      scf.yield %a, %ta : !stream.resource<transient>, !stream.timepoint
    }
    %1 = stream.timepoint.await %0#1 => %0#0 : !stream.resource<transient>{%arg1}
    util.return %1 : !stream.resource<transient>
  }
}

// -----

// A move that awaits nothing waits for an immediate timepoint; without `from` its source's
// device is unknown (-1); without `on` or `to` it runs on the module's default affinity.

module attributes {stream.affinity.default = #hal.device.affinity<@dev_b>} {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device
  // CHECK-LABEL: util.func public @defaults
  util.func public @defaults(%arg0: !stream.resource<staging>, %arg1: index) -> (!stream.resource<transient>, !stream.timepoint) {
    // CHECK: %[[NOW:.+]] = stream.timepoint.immediate => !stream.timepoint
    // CHECK-NEXT: %[[UNKNOWN:.+]] = arith.constant -1 : i64
    // CHECK-NEXT: %[[B:.+]] = arith.constant 1 : i64
    // CHECK: util.call @streamopt.queue_move.staging.transient(%arg0, %{{.+}}, %arg1, %[[UNKNOWN]], %[[B]], %{{.+}}, %{{.+}}, %[[NOW]])
    %r, %t = stream.cmd.move %arg0 : !stream.resource<staging>{%arg1} -> !stream.resource<transient>{%arg1} => !stream.timepoint
    util.return %r, %t : !stream.resource<transient>, !stream.timepoint
  }
}

// -----

// A module that already declares the import (lowered before, or written by hand) keeps it.

module {
  util.global private @dev_a : !hal.device
  // CHECK: util.func private @streamopt.queue_move.transient.transient(
  // CHECK-NOT: util.func private @streamopt.queue_move
  util.func private @streamopt.queue_move.transient.transient(%arg0: !stream.resource<transient>, %arg1: index, %arg2: index, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: !stream.timepoint) -> (!stream.resource<transient>, !stream.timepoint)
  // CHECK-LABEL: util.func public @declared
  util.func public @declared(%arg0: !stream.resource<transient>, %arg1: index) -> (!stream.resource<transient>, !stream.timepoint) {
    // CHECK: util.call @streamopt.queue_move.transient.transient(
    %r, %t = stream.cmd.move on(#hal.device.affinity<@dev_a>) %arg0 : !stream.resource<transient>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%arg1} => !stream.timepoint
    util.return %r, %t : !stream.resource<transient>, !stream.timepoint
  }
}
