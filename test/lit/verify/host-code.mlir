// RUN: streamopt --split-input-file --verify-diagnostics %s

// Host code is checked against the op definitions in IREE's StreamOps.td, HALOps.td and
// UtilOps.td: every case here is one iree-opt rejects too (with its own words).

util.func public @no_terminator() {
  // expected-error @+1 {{block with no terminator, has 'arith.constant'}}
  %c1 = arith.constant 1 : i32
}

// -----

util.func public @block_without_terminator(%arg0: i1) {
  cf.cond_br %arg0, ^bb1, ^bb2
^bb1:
  util.return
^bb2:
  // expected-error @+1 {{block with no terminator, has 'arith.constant'}}
  %c1 = arith.constant 1 : i32
}

// -----

// expected-error @+1 {{custom op 'util.func' expected non-empty function body}}
util.func public @empty_body() {
}

// -----

util.func public @terminator_not_last() {
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{'util.return' op must be the last operation in the parent block}}
  util.return
  util.return
}

// -----

util.global private @dev : !hal.device
// expected-error @+1 {{redefinition of symbol named 'dev'}}
util.global private @dev : !hal.device

// -----

util.func public @slice_offset(%arg0: !stream.resource<*>, %arg1: index, %arg2: i32) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{use of value '%arg2' expects different type than prior uses: 'index' vs 'i32'}}
  %0 = stream.async.slice %arg0[%c0 to %arg2] : !stream.resource<*>{%arg1} -> !stream.resource<*>{%arg1}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @dispatch_length(%arg0: !stream.resource<*>, %arg1: index, %arg2: !hal.buffer_view) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{use of value '%arg2' expects different type than prior uses: 'index' vs '!hal.buffer_view'}}
  %0 = stream.async.dispatch @ex::@fn(%arg0[%c0 to %arg1 for %arg2]) : (!stream.resource<*>{%arg1}) -> !stream.resource<*>{%arg1}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @dispatch_workload(%arg0: !stream.resource<*>, %arg1: index, %arg2: i32) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{use of value '%arg2' expects different type than prior uses: 'index' vs 'i32'}}
  %0 = stream.async.dispatch @ex::@fn[%arg2](%arg0[%c0 to %arg1 for %arg1]) : (!stream.resource<*>{%arg1}) -> !stream.resource<*>{%arg1}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @alloca_size(%arg0: i32) -> !stream.resource<transient> {
  // expected-error @+1 {{use of value '%arg0' expects different type than prior uses: 'index' vs 'i32'}}
  %0 = stream.async.alloca : !stream.resource<transient>{%arg0}
  util.return %0 : !stream.resource<transient>
}

// -----

util.func public @resource_size_as_size(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  // expected-error @+1 {{use of value '%arg0' expects different type than prior uses: 'index' vs '!stream.resource<*>'}}
  %0 = stream.async.clone %arg0 : !stream.resource<*>{%arg0} -> !stream.resource<*>{%arg1}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @queue_affinity(%arg0: !hal.device, %arg1: i32, %arg2: index) -> !hal.buffer {
  %c0_i64 = arith.constant 0 : i64
  %c0_i32 = arith.constant 0 : i32
  %0 = util.null : !hal.fence
  // expected-error @+1 {{use of value '%arg1' expects different type than prior uses: 'i64' vs 'i32'}}
  %1 = hal.device.queue.alloca<%arg0 : !hal.device> affinity(%arg1) wait(%0) signal(%0) pool(%c0_i64) type(%c0_i32) usage(%c0_i32) flags("None") : !hal.buffer{%arg2}
  util.return %1 : !hal.buffer
}

// -----

util.func public @queue_copy_source(%arg0: !hal.device, %arg1: !hal.buffer_view, %arg2: !hal.buffer, %arg3: index) {
  %c-1_i64 = arith.constant -1 : i64
  %0 = util.null : !hal.fence
  // expected-error @+1 {{'hal.device.queue.copy' op operand #4 must be buffer, but got '!hal.buffer_view'}}
  hal.device.queue.copy<%arg0 : !hal.device> affinity(%c-1_i64) wait(%0) signal(%0) source(%arg1 : !hal.buffer_view)[%arg3] target(%arg2 : !hal.buffer)[%arg3] length(%arg3) flags("None")
  util.return
}

// -----

// expected-error @+1 {{unknown HAL type: bufer}}
util.func public @unknown_hal_type(%arg0: !hal.bufer) {
  util.return
}

// -----

// expected-error @+1 {{invalid '#hal.device.affinity' attribute: expected <@device> or <@device, [queues]>}}
module attributes {stream.affinity.default = #hal.device.affinity<>} {
}

// -----

stream.executable private @ex {
  stream.executable.export public @fn workgroups(%arg0: index) -> (index, index, index) {
    stream.return %arg0, %arg0, %arg0 : index, index, index
  }
}
util.func public @workload_mismatch(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.async.dispatch' op workload mismatch; entry point expects 1 arguments but dispatch provides 2}}
  %0 = stream.async.dispatch @ex::@fn[%arg1, %arg1](%arg0[%c0 to %arg1 for %arg1]) : (!stream.resource<*>{%arg1}) -> !stream.resource<*>{%arg1}
  util.return %0 : !stream.resource<*>
}

// -----

// expected-error @+1 {{custom op 'util.global' inherent attribute 'inlining_policy' cannot be parsed from attr-dict}}
util.global private @g {inlining_policy = #util.inline.never} : i32
