// The generic form of an op streamopt declares is checked as MLIR checks it: its properties
// when it is read, then IREE's verifier. Each case is one iree-opt rejects with these words.
//
// RUN: streamopt --split-input-file --verify-diagnostics %s
// RUN: iree-opt --split-input-file --verify-diagnostics %s

util.func public @operand_count(%a: i32, %b: i32) {
  // expected-error @+1 {{'util.cmp.eq' op expected 2 operands, but found 3}}
  %0 = "util.cmp.eq"(%a, %b, %a) : (i32, i32, i32) -> i1
  util.return
}

// -----

util.func public @result_count(%a: i32, %b: i32) {
  // expected-error @+1 {{'util.cmp.eq' op requires one result}}
  "util.cmp.eq"(%a, %b) : (i32, i32) -> ()
  util.return
}

// -----

util.func public @regions(%t: !stream.timepoint) {
  // expected-error @+1 {{'stream.timepoint.join' op requires zero regions}}
  %0 = "stream.timepoint.join"(%t) ({
  }) : (!stream.timepoint) -> !stream.timepoint
  util.return
}

// -----

util.func public @successors(%t: !stream.timepoint) {
  // expected-error @+1 {{'util.return' op requires 0 successors but found 1}}
  "util.return"() [^bb1] : () -> ()
^bb1:
  util.return
}

// -----

util.func public @single_operand(%n: index) {
  // expected-error @+1 {{'stream.async.alloca' op requires a single operand}}
  %0 = "stream.async.alloca"(%n, %n) : (index, index) -> !stream.resource<*>
  util.return
}

// -----

util.func public @no_properties(%a: index) {
  // expected-error @+1 {{invalid properties {x} for op util.cmp.eq: this operation has empty properties}}
  %0 = "util.cmp.eq"(%a, %a) <{x}> : (index, index) -> i1
  util.return
}

// -----

// Even empty properties, on an op that has none.
util.func public @empty_properties(%d: !hal.device, %q: i64, %m: i32, %u: i32) {
  // expected-error @+1 {{invalid properties {} for op hal.allocator.select: this operation has empty properties}}
  %0:2 = "hal.allocator.select"(%d, %q, %m, %u) <{}> : (!hal.device, i64, i32, i32) -> (!hal.device, i64)
  util.return
}

// -----

// SameVariadicOperandSize: the op has no operandSegmentSizes property.
util.func public @same_size_segments(%d: !hal.device, %q: i64, %m: i32, %u: i32) {
  // expected-error @+1 {{invalid properties {operandSegmentSizes = array<i32: 1, 1, 1, 1>} for op hal.allocator.select: this operation has empty properties}}
  %0:2 = "hal.allocator.select"(%d, %q, %m, %u) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> : (!hal.device, i64, i32, i32) -> (!hal.device, i64)
  util.return
}

// -----

util.func public @enum_bits(%d: !hal.device, %q: i64, %w: !hal.fence, %s: !hal.fence, %p: i64, %m: i32, %u: i32, %n: index) {
  // expected-error @+1 {{invalid properties {flags = 1024 : i64} for op hal.device.queue.alloca: Invalid attribute `flags` in property conversion: 1024 : i64}}
  %0 = "hal.device.queue.alloca"(%d, %q, %w, %s, %p, %m, %u, %n) <{flags = 1024 : i64}> : (!hal.device, i64, !hal.fence, !hal.fence, i64, i32, i32, index) -> !hal.buffer
  util.return
}

// -----

util.func public @enum_width() {
  // expected-error @+1 {{invalid properties {type = 48 : i64} for op hal.memory_type: Invalid attribute `type` in property conversion: 48 : i64}}
  %0 = "hal.memory_type"() <{type = 48 : i64}> : () -> i32
  util.return
}

// -----

util.func public @affinity_kind(%r: !stream.resource<*>, %n: index) {
  // expected-error @+1 {{invalid properties {target_affinity = 3 : i32} for op stream.async.transfer: Invalid attribute `target_affinity` in property conversion: 3 : i32}}
  %0 = "stream.async.transfer"(%r, %n, %n) <{target_affinity = 3 : i32}> : (!stream.resource<*>, index, index) -> !stream.resource<*>
  util.return
}

// -----

util.func public @required_attribute(%d: !hal.device, %q: i64, %w: !hal.fence, %s: !hal.fence, %p: i64, %m: i32, %u: i32, %n: index) {
  // expected-error @+1 {{'hal.device.queue.alloca' op requires attribute 'flags'}}
  %0 = "hal.device.queue.alloca"(%d, %q, %w, %s, %p, %m, %u, %n) : (!hal.device, i64, !hal.fence, !hal.fence, i64, i32, i32, index) -> !hal.buffer
  util.return
}

// -----

util.func public @segment_count(%r: !stream.resource<*>, %n: index) {
  // expected-error @+1 {{invalid properties {entry_points = [@a::@b], operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 2>} for op stream.async.dispatch: for `operandSegmentSizes`: size mismatch in attribute conversion: 6 vs 7}}
  %0 = "stream.async.dispatch"(%r, %n, %n, %n, %n, %n) <{entry_points = [@a::@b], operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 2>}> : (!stream.resource<*>, index, index, index, index, index) -> !stream.resource<*>
  util.return
}

// -----

util.func public @segment_total(%r: !stream.resource<*>, %n: index) {
  // expected-error @+1 {{'stream.async.dispatch' op operand count (6) does not match with the total size (7) specified in attribute 'operandSegmentSizes'}}
  %0 = "stream.async.dispatch"(%r, %n, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 2>}> : (!stream.resource<*>, index, index, index, index, index) -> !stream.resource<*>
  util.return
}

// -----

util.func public @result_type(%r: !stream.resource<*>, %n: index) {
  // expected-error @+1 {{'stream.async.transfer' op result #0 must be resource or external resource or transient resource or variable resource or constant resource or staging resource, but got 'index'}}
  %0 = "stream.async.transfer"(%r, %n, %n) : (!stream.resource<*>, index, index) -> index
  util.return
}

// -----

util.func public @operand_type(%a: i32, %b: i64) {
  // expected-error @+1 {{'util.cmp.eq' op failed to verify that all of {lhs, rhs} have same type}}
  %0 = "util.cmp.eq"(%a, %b) : (i32, i64) -> i1
  util.return
}

// -----

util.func public @same_types(%a: index, %b: i32) {
  // expected-error @+1 {{'util.align' op requires the same type for all operands and results}}
  %0 = "util.align"(%a, %b) : (index, i32) -> index
  util.return
}

// -----

util.func public @status(%f: f32) {
  // expected-error @+1 {{'util.status.check_ok' op operand #0 must be 32-bit signless integer, but got 'f32'}}
  "util.status.check_ok"(%f) : (f32) -> ()
  util.return
}

// -----

util.func public @assume_int_types(%a: index) {
  // expected-error @+1 {{'util.assume.int' op failed to verify that all of {operands, results} have same type}}
  %0 = "util.assume.int"(%a) <{assumptions = [[#util.int.assumption<umin = 1>]]}> : (index) -> i32
  util.return
}
