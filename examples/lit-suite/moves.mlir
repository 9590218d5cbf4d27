// RUN: %streamopt --elide-async-copies --split-input-file %s | %filecheck %s

// The last use of fresh storage moves to the other device instead of being copied.
// CHECK-LABEL: util.func public @last_use
util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device
util.func public @last_use(%size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SPLAT:.+]] = stream.async.splat
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: %[[MOVED:.+]] = stream.async.move %[[SPLAT]]
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  // CHECK: util.return %[[MOVED]]
  util.return %1 : !stream.resource<*>
}

// -----

// Storage used after the transfer must be copied.
// CHECK-LABEL: util.func public @used_after
util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device
util.func public @used_after(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.transfer
  // CHECK-NOT: stream.async.move
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}
