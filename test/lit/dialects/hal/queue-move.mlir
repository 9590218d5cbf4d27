// hal.device.queue.move (proposed, not in IREE): round trip of its custom form.
//
// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s

// CHECK-LABEL: util.func public @move
// CHECK-SAME: (%[[DEV:.+]]: !hal.device, %[[Q:.+]]: i64, %[[WAIT:.+]]: !hal.fence, %[[SIGNAL:.+]]: !hal.fence, %[[SRC:.+]]: !hal.buffer, %[[SIZE:.+]]: index)
util.func public @move(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %source: !hal.buffer, %size: index) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  // CHECK: %[[TYPES:.+]], %[[USAGE:.+]] = hal.allocator.resolve_memory_properties
  %memory_types, %buffer_usage = hal.allocator.resolve_memory_properties for(#hal.device.affinity<@dev_b>) lifetime(external) : i32, i32
  // CHECK: %[[MOVED:.+]] = hal.device.queue.move<%[[DEV]] : !hal.device> affinity(%[[Q]]) wait(%[[WAIT]]) signal(%[[SIGNAL]]) source(%[[SRC]] : !hal.buffer)[%c0] pool(%c0_i64) type(%[[TYPES]]) usage(%[[USAGE]]) flags(PreferOrigin) : !hal.buffer{%[[SIZE]]}
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%source : !hal.buffer)[%c0] pool(%c0_i64) type(%memory_types) usage(%buffer_usage) flags(PreferOrigin) : !hal.buffer{%size}
  // CHECK: util.return %[[MOVED]] : !hal.buffer
  util.return %0 : !hal.buffer
}

// -----

// Empty flags print quoted, several flags quoted and joined in declaration order, and the
// attribute dictionary goes after the type.

// CHECK-LABEL: util.func public @flags
util.func public @flags(%device: !hal.device, %affinity: i64, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  %0 = util.null : !hal.fence
  // CHECK: %[[A:.+]] = hal.device.queue.move<{{.+}}> affinity({{.+}}) wait(%0) signal(%0) source({{.+}} : !hal.buffer)[%c0] pool(%c0_i64) type(%arg4) usage(%arg5) flags("None") : !hal.buffer{%arg3}
  %1 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%0) signal(%0) source(%source : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags("None") : !hal.buffer{%size}
  // CHECK: %[[B:.+]] = hal.device.queue.move{{.+}} source(%[[A]] : !hal.buffer){{.+}} flags("PreferOrigin|ForceCopy|AllowLowPerformance") : !hal.buffer{%arg3} attributes {some.attr}
  %2 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%0) signal(%0) source(%1 : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags("AllowLowPerformance|PreferOrigin|ForceCopy") : !hal.buffer{%size} attributes {some.attr}
  // CHECK: hal.device.queue.move{{.+}} source(%[[B]] : !hal.buffer){{.+}} flags(RequireAlias)
  %3 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%0) signal(%0) source(%2 : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags(RequireAlias) : !hal.buffer{%size}
  util.return %3 : !hal.buffer
}

// -----

// With KeepSource the source stays the caller's: later uses are fine.

// CHECK-LABEL: util.func public @keep_source
util.func public @keep_source(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> (!hal.buffer, !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  // CHECK: %[[COPY:.+]] = hal.device.queue.move{{.+}} flags(KeepSource)
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%source : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags(KeepSource) : !hal.buffer{%size}
  // CHECK: util.return %arg4, %[[COPY]]
  util.return %source, %0 : !hal.buffer, !hal.buffer
}

// -----

// A loop may move its own iteration argument: each iteration moves a different buffer.

// CHECK-LABEL: util.func public @move_loop_carried
util.func public @move_loop_carried(%device: !hal.device, %affinity: i64, %source: !hal.buffer, %size: index, %n: index, %types: i32, %usage: i32) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i64 = arith.constant 0 : i64
  %null = util.null : !hal.fence
  // CHECK: scf.for
  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%buffer = %source) -> (!hal.buffer) {
    // CHECK: hal.device.queue.move
    %1 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%null) signal(%null) source(%buffer : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags(PreferOrigin) : !hal.buffer{%size}
    scf.yield %1 : !hal.buffer
  }
  util.return %0 : !hal.buffer
}
