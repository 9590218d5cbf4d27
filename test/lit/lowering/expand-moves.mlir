// RUN: streamopt --split-input-file --expand-moves %s | filecheck %s

// A move becomes alloca (waits on the move's wait fence) -> copy -> dealloca of the source at
// its origin (signals the move's signal fence), chained by two new fences on the device.

// CHECK-LABEL: util.func public @expand
// CHECK-SAME: (%[[DEV:.+]]: !hal.device, %[[Q:.+]]: i64, %[[WAIT:.+]]: !hal.fence, %[[SIGNAL:.+]]: !hal.fence, %[[SRC:.+]]: !hal.buffer, %[[SIZE:.+]]: index, %[[TYPES:.+]]: i32, %[[USAGE:.+]]: i32, %[[OFFSET:.+]]: index)
util.func public @expand(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %source: !hal.buffer, %size: index, %types: i32, %usage: i32, %offset: index) -> !hal.buffer {
  %c0_i64 = arith.constant 0 : i64
  // CHECK: %[[ALLOCATED:.+]] = hal.fence.create device(%[[DEV]] : !hal.device) flags("None") : !hal.fence
  // CHECK-NEXT: %[[DST:.+]] = hal.device.queue.alloca<%[[DEV]] : !hal.device> affinity(%[[Q]]) wait(%[[WAIT]]) signal(%[[ALLOCATED]]) pool(%c0_i64) type(%[[TYPES]]) usage(%[[USAGE]]) flags("None") : !hal.buffer{%[[SIZE]]}
  // CHECK-NEXT: %[[COPIED:.+]] = hal.fence.create device(%[[DEV]] : !hal.device) flags("None") : !hal.fence
  // CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0 : index
  // CHECK-NEXT: hal.device.queue.copy<%[[DEV]] : !hal.device> affinity(%[[Q]]) wait(%[[ALLOCATED]]) signal(%[[COPIED]]) source(%[[SRC]] : !hal.buffer)[%[[OFFSET]]] target(%[[DST]] : !hal.buffer)[%[[ZERO]]] length(%[[SIZE]]) flags("None")
  // CHECK-NEXT: hal.device.queue.dealloca<%[[DEV]] : !hal.device> affinity(%[[Q]]) wait(%[[COPIED]]) signal(%[[SIGNAL]]) buffer(%[[SRC]] : !hal.buffer) flags(PreferOrigin)
  // CHECK-NOT: hal.device.queue.move
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%source : !hal.buffer)[%offset] pool(%c0_i64) type(%types) usage(%usage) flags(PreferOrigin) : !hal.buffer{%size}
  // CHECK-NEXT: util.return %[[DST]] : !hal.buffer
  util.return %0 : !hal.buffer
}

// -----

// Without PreferOrigin the dealloca runs where the move was issued. With KeepSource nothing
// is freed: the copy signals the move's fence. ForceCopy changes nothing (this always copies).

// CHECK-LABEL: util.func public @flags
// CHECK-SAME: (%[[DEV:.+]]: !hal.device, %[[Q:.+]]: i64, %[[WAIT:.+]]: !hal.fence, %[[SIGNAL:.+]]: !hal.fence, %[[SRC:.+]]: !hal.buffer
util.func public @flags(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> (!hal.buffer, !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  %null = util.null : !hal.fence
  // CHECK: %[[KEPT:.+]] = hal.device.queue.alloca<%[[DEV]] : !hal.device> affinity(%[[Q]]) wait(%[[WAIT]]) signal(%[[ALLOCATED:.+]]) pool
  // CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0 : index
  // CHECK-NEXT: hal.device.queue.copy{{.+}} wait(%[[ALLOCATED]]) signal(%[[SIGNAL]]) source(%[[SRC]] : !hal.buffer)[%c0] target(%[[KEPT]] : !hal.buffer)[%[[ZERO]]]
  // CHECK-NOT: hal.device.queue.dealloca
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%source : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags(KeepSource) : !hal.buffer{%size}
  // CHECK: %[[LOCAL:.+]] = hal.device.queue.alloca{{.+}} wait(%[[NULL:.+]]) signal(%[[ALLOCATED2:.+]]) pool
  // CHECK: hal.device.queue.copy{{.+}} wait(%[[ALLOCATED2]]) signal(%[[COPIED2:.+]]) source(%[[KEPT]] : !hal.buffer)
  // CHECK-NEXT: hal.device.queue.dealloca{{.+}} wait(%[[COPIED2]]) signal(%[[NULL]]) buffer(%[[KEPT]] : !hal.buffer) flags("None")
  %1 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%null) signal(%null) source(%0 : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags("None") : !hal.buffer{%size}
  // CHECK: %[[FORCED:.+]] = hal.device.queue.alloca
  // CHECK: hal.device.queue.copy{{.+}} source(%[[LOCAL]] : !hal.buffer){{.+}} target(%[[FORCED]] : !hal.buffer)
  // CHECK-NEXT: hal.device.queue.dealloca{{.+}} buffer(%[[LOCAL]] : !hal.buffer) flags(PreferOrigin)
  %2 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%null) signal(%null) source(%1 : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags("PreferOrigin|ForceCopy") : !hal.buffer{%size}
  // CHECK: util.return %[[SRC]], %[[FORCED]]
  util.return %source, %2 : !hal.buffer, !hal.buffer
}

// -----

// Moves nested in structured control flow expand in place.

// CHECK-LABEL: util.func public @nested
util.func public @nested(%cond: i1, %n: index, %device: !hal.device, %affinity: i64, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i64 = arith.constant 0 : i64
  %null = util.null : !hal.fence
  // CHECK: scf.for
  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%buffer = %source) -> (!hal.buffer) {
    // CHECK: scf.if
    %1 = scf.if %cond -> (!hal.buffer) {
      // CHECK: %[[DST:.+]] = hal.device.queue.alloca
      // CHECK: hal.device.queue.copy
      // CHECK: hal.device.queue.dealloca
      %2 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%null) signal(%null) source(%buffer : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags(PreferOrigin) : !hal.buffer{%size}
      // CHECK: scf.yield %[[DST]] : !hal.buffer
      scf.yield %2 : !hal.buffer
    } else {
      scf.yield %buffer : !hal.buffer
    }
    scf.yield %1 : !hal.buffer
  }
  // CHECK-NOT: hal.device.queue.move
  util.return %0 : !hal.buffer
}
