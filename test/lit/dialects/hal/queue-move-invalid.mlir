// RUN: streamopt --split-input-file --verify-diagnostics %s

util.func public @use_after_move(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> (!hal.buffer, !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  // expected-error @+1 {{'hal.device.queue.move' op source is used after the move, by 'util.return'}}
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%source : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags(PreferOrigin) : !hal.buffer{%size}
  // expected-note @+1 {{later use here}}
  util.return %source, %0 : !hal.buffer, !hal.buffer
}

// -----

// A use nested in a later op counts too.

util.func public @nested_use_after_move(%cond: i1, %device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  // expected-error @+1 {{source is used after the move, by 'hal.device.queue.dealloca'}}
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%source : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags(PreferOrigin) : !hal.buffer{%size}
  scf.if %cond {
    %null = util.null : !hal.fence
    // expected-note @+1 {{later use here}}
    hal.device.queue.dealloca<%device : !hal.device> affinity(%affinity) wait(%null) signal(%null) buffer(%source : !hal.buffer) flags(PreferOrigin)
  }
  util.return %0 : !hal.buffer
}

// -----

util.func public @move_in_loop(%device: !hal.device, %affinity: i64, %source: !hal.buffer, %size: index, %n: index, %types: i32, %usage: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i64 = arith.constant 0 : i64
  %null = util.null : !hal.fence
  // expected-note @+1 {{loop here}}
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{source may be used after the move: inside a loop that runs it again}}
    %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%null) signal(%null) source(%source : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags(PreferOrigin) : !hal.buffer{%size}
  }
  util.return
}

// -----

util.func public @alias_and_copy(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  // expected-error @+1 {{'hal.device.queue.move' op cannot both require aliasing (RequireAlias) and force a copy}}
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%source : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags("RequireAlias|ForceCopy") : !hal.buffer{%size}
  util.return %0 : !hal.buffer
}

// -----

util.func public @same_fence(%device: !hal.device, %affinity: i64, %fence: !hal.fence, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  // expected-error @+1 {{'hal.device.queue.move' op device queue operations cannot wait and signal on the same fence.}}
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%fence) signal(%fence) source(%source : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags(PreferOrigin) : !hal.buffer{%size}
  util.return %0 : !hal.buffer
}

// -----

util.func public @index_pool(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{use of value '%c0' expects different type than prior uses: 'i64' vs 'index'}}
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%source : !hal.buffer)[%c0] pool(%c0) type(%types) usage(%usage) flags(PreferOrigin) : !hal.buffer{%size}
  util.return %0 : !hal.buffer
}

// -----

util.func public @i32_offset(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> !hal.buffer {
  %c0_i64 = arith.constant 0 : i64
  // expected-error @+1 {{use of value '%types' expects different type than prior uses: 'index' vs 'i32'}}
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%source : !hal.buffer)[%types] pool(%c0_i64) type(%types) usage(%usage) flags(PreferOrigin) : !hal.buffer{%size}
  util.return %0 : !hal.buffer
}

// -----

util.func public @not_a_buffer(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> !hal.fence {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  // expected-error @+1 {{'hal.device.queue.move' op result #0 must be buffer, but got '!hal.fence'}}
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%source : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags(PreferOrigin) : !hal.fence{%size}
  util.return %0 : !hal.fence
}

// -----

util.func public @source_type_mismatch(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  // expected-error @+1 {{use of value '%source' expects different type than prior uses: '!hal.buffer_view' vs '!hal.buffer'}}
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%source : !hal.buffer_view)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags(PreferOrigin) : !hal.buffer{%size}
  util.return %0 : !hal.buffer
}

// -----

util.func public @unknown_flag(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  // expected-error @+1 {{custom op 'hal.device.queue.move' expected string or keyword containing one of the following enum values for attribute 'flags' [None, PreferOrigin, RequireAlias, ForceCopy, AllowGrant, KeepSource, AllowLowPerformance]}}
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%source : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags(Teleport) : !hal.buffer{%size}
  util.return %0 : !hal.buffer
}
