// stream.cmd.move lowers to hal.device.queue.move on the execution affinity's device, with
// memory type and usage resolved for the target affinity and the result's lifetime.
//
// This is the one lit input that spells stream.cmd.move; test/lit/iree/expand-moves-iree.mlir
// lowers it too.
//
// RUN: streamopt --split-input-file --lower-cmd-to-hal %s | filecheck %s

util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device

// A producer on A, a move to B that changes the lifetime (transient to external), a consumer
// on B: fences chain the three, the move waits on the producer and signals the consumer.

// CHECK-LABEL: util.func public @move_between_devices
// CHECK-SAME: (%[[SIZE:.+]]: index) -> (!hal.buffer, !hal.fence)
util.func public @move_between_devices(%arg0: index) -> (!stream.resource<external>, !stream.timepoint) {
  %c0 = arith.constant 0 : index
  %c5_i32 = arith.constant 5 : i32
  // CHECK: %[[SRC:.+]] = hal.device.queue.alloca
  %0, %1 = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%arg0} => !stream.timepoint
  // CHECK: %[[FILLED:.+]] = hal.fence.create
  // CHECK-NEXT: hal.device.queue.fill{{.+}} signal(%[[FILLED]]) target(%[[SRC]] : !hal.buffer)
  %2 = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%1) => with(%0 as %arg1: !stream.resource<transient>{%arg0}) {
    stream.cmd.fill %c5_i32, %arg1[%c0 for %arg0] : i32 -> !stream.resource<transient>{%arg0}
  } => !stream.timepoint
  // CHECK-NEXT: %[[TYPES:.+]], %[[USAGE:.+]] = hal.allocator.resolve_memory_properties for(#hal.device.affinity<@dev_b>) lifetime(external) : i32, i32
  // CHECK-NEXT: %[[DEV_B:.+]] = util.global.load immutable @dev_b : !hal.device
  // CHECK-NEXT: %[[ANY:.+]] = arith.constant -1 : i64
  // CHECK-NEXT: %[[MOVED:.+]] = hal.fence.create device(%[[DEV_B]] : !hal.device) flags("None") : !hal.fence
  // CHECK-NEXT: %[[OFFSET:.+]] = arith.constant 0 : index
  // CHECK-NEXT: %[[POOL:.+]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[DST:.+]] = hal.device.queue.move<%[[DEV_B]] : !hal.device> affinity(%[[ANY]]) wait(%[[FILLED]]) signal(%[[MOVED]]) source(%[[SRC]] : !hal.buffer)[%[[OFFSET]]] pool(%[[POOL]]) type(%[[TYPES]]) usage(%[[USAGE]]) flags(PreferOrigin) : !hal.buffer{%[[SIZE]]}
  %3, %4 = stream.cmd.move on(#hal.device.affinity<@dev_b>) await(%2) => %0 : !stream.resource<transient>{%arg0} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%arg0} => !stream.timepoint
  // CHECK: %[[USED:.+]] = hal.fence.create
  // CHECK-NEXT: hal.device.queue.fill{{.+}} wait(%[[MOVED]]) signal(%[[USED]]) target(%[[DST]] : !hal.buffer)
  %5 = stream.cmd.execute on(#hal.device.affinity<@dev_b>) await(%4) => with(%3 as %arg1: !stream.resource<external>{%arg0}) {
    stream.cmd.fill %c5_i32, %arg1[%c0 for %arg0] : i32 -> !stream.resource<external>{%arg0}
  } => !stream.timepoint
  // CHECK-NEXT: util.return %[[DST]], %[[USED]] : !hal.buffer, !hal.fence
  util.return %3, %5 : !stream.resource<external>, !stream.timepoint
}

// -----

// Without to() the target is the execution affinity; its queue list is the queue mask.
// Without await the move waits on nothing, and a timepoint nobody waits on signals nothing.

util.global private @dev_a : !hal.device

// CHECK-LABEL: util.func public @move_to_queues
// CHECK-SAME: (%[[SRC:.+]]: !hal.buffer, %[[SIZE:.+]]: index) -> !hal.buffer
util.func public @move_to_queues(%arg0: !stream.resource<transient>, %arg1: index) -> !stream.resource<transient> {
  // CHECK-NEXT: %[[TYPES:.+]], %[[USAGE:.+]] = hal.allocator.resolve_memory_properties for(#hal.device.affinity<@dev_a, [1]>) lifetime(transient) : i32, i32
  // CHECK-NEXT: %[[DEV:.+]] = util.global.load immutable @dev_a : !hal.device
  // CHECK-NEXT: %[[QUEUE_1:.+]] = arith.constant 2 : i64
  // CHECK-NEXT: %[[NO_WAIT:.+]] = util.null : !hal.fence
  // CHECK-NEXT: %[[NO_SIGNAL:.+]] = util.null : !hal.fence
  // CHECK: hal.device.queue.move<%[[DEV]] : !hal.device> affinity(%[[QUEUE_1]]) wait(%[[NO_WAIT]]) signal(%[[NO_SIGNAL]]) source(%[[SRC]] : !hal.buffer)
  %0, %1 = stream.cmd.move on(#hal.device.affinity<@dev_a, [1]>) %arg0 : !stream.resource<transient>{%arg1} from(#hal.device.affinity<@dev_a, [0]>) -> !stream.resource<transient>{%arg1} => !stream.timepoint
  util.return %0 : !stream.resource<transient>
}

// -----

// With no on() the function's default affinity runs the move.

util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device

// CHECK-LABEL: util.func public @default_execution_affinity
util.func public @default_execution_affinity(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.timepoint) -> (!stream.resource<staging>, !stream.timepoint) attributes {stream.affinity.default = #hal.device.affinity<@dev_b>} {
  // CHECK: hal.allocator.resolve_memory_properties for(#hal.device.affinity<@dev_a>) lifetime(staging)
  // CHECK-NEXT: %[[DEV:.+]] = util.global.load immutable @dev_b : !hal.device
  // CHECK: hal.device.queue.move<%[[DEV]] : !hal.device>{{.+}} wait(%arg2)
  %0, %1 = stream.cmd.move await(%arg2) => %arg0 : !stream.resource<transient>{%arg1} -> to(#hal.device.affinity<@dev_a>) !stream.resource<staging>{%arg1} => !stream.timepoint
  util.return %0, %1 : !stream.resource<staging>, !stream.timepoint
}

// -----

// A move in one branch of an scf.if; the buffer and fence leave through the yield.

util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device

// CHECK-LABEL: util.func public @move_in_branch
// CHECK-SAME: (%[[COND:.+]]: i1, %[[SRC:.+]]: !hal.buffer, %[[SIZE:.+]]: index, %[[T:.+]]: !hal.fence)
util.func public @move_in_branch(%cond: i1, %arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.timepoint) -> (!stream.resource<transient>, !stream.timepoint) {
  // CHECK: scf.if %[[COND]] -> (!hal.buffer, !hal.fence) {
  %0:2 = scf.if %cond -> (!stream.resource<transient>, !stream.timepoint) {
    // CHECK: %[[MOVED:.+]] = hal.fence.create
    // CHECK: %[[DST:.+]] = hal.device.queue.move{{.+}} wait(%[[T]]) signal(%[[MOVED]]) source(%[[SRC]] : !hal.buffer)
    %1, %2 = stream.cmd.move on(#hal.device.affinity<@dev_b>) await(%arg2) => %arg0 : !stream.resource<transient>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%arg1} => !stream.timepoint
    // CHECK-NEXT: scf.yield %[[DST]], %[[MOVED]] : !hal.buffer, !hal.fence
    scf.yield %1, %2 : !stream.resource<transient>, !stream.timepoint
  } else {
    // CHECK: scf.yield %[[SRC]], %[[T]] : !hal.buffer, !hal.fence
    scf.yield %arg0, %arg2 : !stream.resource<transient>, !stream.timepoint
  }
  util.return %0#0, %0#1 : !stream.resource<transient>, !stream.timepoint
}
