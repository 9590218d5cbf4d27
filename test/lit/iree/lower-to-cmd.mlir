// The cmd IR --lower-async-to-cmd produces, once --expand-cmd-moves has replaced stream.cmd.move, is
// IREE's own: iree-opt reads it and prints it back byte for byte, and IREE's stream-to-hal
// conversion lowers it to queue operations. The other lowering tests and the real dumps are
// accepted by iree-opt as well.
//
// Every streamopt run comes before the `diff` (lit's builtin diff resets PYTHONPATH).
//
// RUN: streamopt --lower-async-to-cmd --expand-cmd-moves --split-input-file %s > %t.cmd
// RUN: streamopt --lower-async-to-cmd --expand-cmd-moves --split-input-file %S/../lowering/lower-to-cmd.mlir > %t.tests
// RUN: streamopt --elide-async-copies --lower-async-to-cmd --expand-cmd-moves %examples/two-devices.mlir > %t.two
// RUN: streamopt --elide-async-copies --lower-async-to-cmd --expand-cmd-moves %examples/iree/control-flow/before-elide-2.mlir > %t.cf
// RUN: iree-opt --split-input-file %t.tests -o /dev/null
// RUN: iree-opt %t.two -o /dev/null
// RUN: iree-opt %t.cf -o /dev/null
// RUN: iree-opt --split-input-file --iree-hal-conversion %t.cmd | filecheck %s
// RUN: iree-opt --split-input-file %t.cmd > %t.iree
// RUN: diff %t.iree %t.cmd

util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device

// splat, clone, a transfer kept as a copy, and a round trip of moves, expanded.

// CHECK-LABEL: util.func public @copies_and_moves
util.func public @copies_and_moves(%arg0: index) -> !stream.resource<external> {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SPLAT:.+]] = hal.device.queue.alloca<%{{.+}} : !hal.device> {{.+}} : !hal.buffer{%arg0}
  // CHECK: hal.device.queue.fill<{{.+}} target(%[[SPLAT]] : !hal.buffer)
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%arg0}
  // CHECK: %[[CLONE:.+]] = hal.device.queue.alloca
  // CHECK: hal.device.queue.copy<{{.+}} source(%[[SPLAT]] : !hal.buffer)[%c0] target(%[[CLONE]] : !hal.buffer)
  %1 = stream.async.clone on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<transient>{%arg0} -> !stream.resource<transient>{%arg0}
  // CHECK: %[[COPY:.+]] = hal.device.queue.alloca<%{{.+}}>
  // CHECK: hal.device.queue.copy<{{.+}} source(%[[SPLAT]] : !hal.buffer)[%c0] target(%[[COPY]] : !hal.buffer)
  // CHECK: hal.device.queue.dealloca<{{.+}} buffer(%[[SPLAT]] : !hal.buffer) flags("None")
  // CHECK: hal.device.queue.dealloca<{{.+}} buffer(%[[COPY]] : !hal.buffer) flags("None")
  %2 = stream.async.transfer %0 : !stream.resource<transient>{%arg0} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%arg0}
  // The expanded moves: allocate the target, copy, free the source where it was allocated.
  // CHECK: %[[ON_B:.+]] = hal.device.queue.alloca
  // CHECK: hal.device.queue.copy<{{.+}} source(%[[CLONE]] : !hal.buffer)[%c0] target(%[[ON_B]] : !hal.buffer)
  // CHECK: hal.device.queue.dealloca<{{.+}} buffer(%[[CLONE]] : !hal.buffer) flags(PreferOrigin)
  %3 = stream.async.move %1 : !stream.resource<transient>{%arg0} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%arg0}
  // CHECK: %[[BACK:.+]] = hal.device.queue.alloca
  // CHECK: hal.device.queue.copy<{{.+}} source(%[[ON_B]] : !hal.buffer)[%c0] target(%[[BACK]] : !hal.buffer)
  // CHECK: hal.device.queue.dealloca<{{.+}} wait(%{{.+}}) signal(%[[LAST:.+]]) buffer(%[[ON_B]] : !hal.buffer) flags(PreferOrigin)
  %4 = stream.async.move %3 : !stream.resource<transient>{%arg0} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<external>{%arg0}
  // CHECK: hal.fence.await until([%[[LAST]]])
  util.return %4 : !stream.resource<external>
}

// -----

util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device

// A move in one branch of an scf.if: the branch results carry fences.

// CHECK-LABEL: util.func public @move_in_branch
util.func public @move_in_branch(%arg0: index, %arg1: i1) -> !stream.resource<transient> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%arg0}
  // Next to the buffer, its fence and the fences of the last op on dev_b (the move runs on its
  // target) and on dev_a. The expanded move frees its source last: its fence is the buffer's
  // and dev_b's.
  // CHECK: scf.if %arg1 -> (!hal.buffer, !hal.fence, !hal.fence, !hal.fence)
  // CHECK: hal.device.queue.dealloca<{{.+}} signal(%[[FREED:.+]]) buffer(%{{.+}} : !hal.buffer) flags(PreferOrigin)
  // CHECK-NEXT: scf.yield %{{.+}}, %[[FREED]], %[[FREED]], %{{.+}} : !hal.buffer, !hal.fence, !hal.fence, !hal.fence
  %1 = scf.if %arg1 -> (!stream.resource<transient>) {
    %2 = stream.async.move %0 : !stream.resource<transient>{%arg0} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%arg0}
    scf.yield %2 : !stream.resource<transient>
  } else {
    %3 = stream.async.clone on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<transient>{%arg0} -> !stream.resource<transient>{%arg0}
    scf.yield %3 : !stream.resource<transient>
  }
  util.return %1 : !stream.resource<transient>
}
