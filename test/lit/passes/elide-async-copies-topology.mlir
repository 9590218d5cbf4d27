// RUN: streamopt --elide-async-copies --split-input-file %s | filecheck %s

// @dev_a's memory is usable by @dev_b as-is; the link is one-way.
module attributes {stream.topology = #hal.device.topology<links = [(@dev_a -> @dev_b = {unified_memory = true})]>} {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device

  // The last use of a resource crossing to a device that shares its memory: no op at all.

  // CHECK-LABEL: util.func public @unified_last_use
  util.func public @unified_last_use(%size: index) -> !stream.resource<*> {
    %c1_i32 = arith.constant 1 : i32
    // CHECK: %[[SPLAT:.+]] = stream.async.splat
    %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
    // CHECK-NOT: stream.async.transfer
    // CHECK-NOT: stream.async.move
    %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    // CHECK: util.return %[[SPLAT]]
    util.return %1 : !stream.resource<*>
  }

  // Both sides only read: the storage can be shared while the source is still used.

  // CHECK-LABEL: util.func public @unified_read_only
  util.func public @unified_read_only(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
    %c0 = arith.constant 0 : index
    %c1_i32 = arith.constant 1 : i32
    %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
    // CHECK-NOT: stream.async.transfer
    %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    %2 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@read(%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
    %3 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
    util.return %2, %3 : !stream.resource<*>, !stream.resource<*>
  }

  // The result is written in place while the source is still read: they need their own storage.

  // CHECK-LABEL: util.func public @unified_result_written
  util.func public @unified_result_written(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
    %c0 = arith.constant 0 : index
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
    // CHECK: stream.async.transfer
    %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    %2 = stream.async.fill on(#hal.device.affinity<@dev_b>) %c2_i32, %1[%c0 to %size for %size] : i32 -> %1 as !stream.resource<*>{%size}
    %3 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
    util.return %2, %3 : !stream.resource<*>, !stream.resource<*>
  }

  // The link is one-way: @dev_b's memory is not usable by @dev_a, so the transfer moves.

  // CHECK-LABEL: util.func public @not_unified
  util.func public @not_unified(%size: index) -> !stream.resource<*> {
    %c1_i32 = arith.constant 1 : i32
    %0 = stream.async.splat on(#hal.device.affinity<@dev_b>) %c1_i32 : i32 -> !stream.resource<*>{%size}
    // CHECK: stream.async.move
    %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
    util.return %1 : !stream.resource<*>
  }

  // Changing the lifetime is not a no-op even on shared memory: the transfer moves.

  // CHECK-LABEL: util.func public @unified_lifetime_change
  util.func public @unified_lifetime_change(%size: index) -> !stream.resource<external> {
    %c1_i32 = arith.constant 1 : i32
    %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
    // CHECK: stream.async.move
    %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%size}
    util.return %1 : !stream.resource<external>
  }
}

// -----

// Without a topology nothing is known to be shared: the transfer moves.

// CHECK-LABEL: util.func public @no_topology
util.func public @no_topology(%size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.move
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %1 : !stream.resource<*>
}
