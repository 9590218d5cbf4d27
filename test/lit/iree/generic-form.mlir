// An op streamopt declares, written in MLIR's generic form, is read as that op (as MLIR reads
// it) and printed in its custom form; ops streamopt keeps as written stay generic. iree-opt
// prints streamopt's output as it prints the input.
//
// RUN: streamopt --allow-unregistered-dialect --split-input-file %s > %t.streamopt
// RUN: filecheck %s --input-file %t.streamopt
// RUN: iree-opt --allow-unregistered-dialect --split-input-file %t.streamopt > %t.normalized
// RUN: iree-opt --allow-unregistered-dialect --split-input-file %s > %t.iree
// RUN: diff %t.iree %t.normalized

// CHECK-LABEL: util.func public @transfer_and_dispatch
util.func public @transfer_and_dispatch(%r: !stream.resource<*>, %n: index) -> !stream.resource<*> {
  // Properties and inherent attributes of the attribute dictionary are the op's attributes.
  // CHECK: %[[T:.+]] = stream.async.transfer %arg0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@a>) -> to(#hal.device.affinity<@b>) !stream.resource<*>{%arg1}
  %0 = "stream.async.transfer"(%r, %n, %n) <{source_affinity = #hal.device.affinity<@a>}> {target_affinity = #hal.device.affinity<@b>} : (!stream.resource<*>, index, index) -> !stream.resource<*>
  // A property wins over the attribute of the same name.
  // CHECK: %[[T2:.+]] = stream.async.transfer %[[T]] : !stream.resource<*>{%arg1} -> to(#hal.device.affinity<@a>) !stream.resource<*>{%arg1}
  %t = "stream.async.transfer"(%0, %n, %n) <{target_affinity = #hal.device.affinity<@a>}> {target_affinity = #hal.device.affinity<@b>} : (!stream.resource<*>, index, index) -> !stream.resource<*>
  // An op with a property streamopt does not declare is kept as written (MLIR drops the
  // property if IREE's op has none such; streamopt cannot tell).
  // CHECK: "stream.async.transfer"(%[[T2]], %arg1, %arg1) <{bogus = 1 : i32}> : (!stream.resource<*>, index, index) -> !stream.resource<*>
  %1 = "stream.async.transfer"(%t, %n, %n) <{bogus = 1 : i32}> : (!stream.resource<*>, index, index) -> !stream.resource<*>
  // CHECK: stream.async.dispatch @ex::@fn(%{{.+}}[%c0 to %arg1 for %arg1]) {some.attr} : (!stream.resource<*>{%arg1}) -> %{{.+}}{%arg1}
  %c0 = arith.constant 0 : index
  %2 = "stream.async.dispatch"(%1, %n, %c0, %n, %n, %n) <{entry_points = [@ex::@fn], operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1>, tied_operands = [0 : index]}> {some.attr} : (!stream.resource<*>, index, index, index, index, index) -> !stream.resource<*>
  util.return %2 : !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @regions
util.func public @regions(%r: !stream.resource<*>, %n: index) -> !stream.resource<*> {
  // stream.yield's operands are as many resources as sizes (SameVariadicOperandSize).
  // CHECK: %[[R:.+]], %[[T:.+]] = stream.async.execute with(%arg0 as %[[ARG:.+]]: !stream.resource<*>{%arg1}) -> %arg0{%arg1} {
  // CHECK-NEXT: stream.yield %[[ARG]] : !stream.resource<*>{%arg1}
  // CHECK-NEXT: } => !stream.timepoint
  %0:2 = "stream.async.execute"(%r, %n, %n) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>, tied_operands = [0 : index]}> ({
  ^bb0(%arg: !stream.resource<*>):
    "stream.yield"(%arg, %n) : (!stream.resource<*>, index) -> ()
  }) : (!stream.resource<*>, index, index) -> (!stream.resource<*>, !stream.timepoint)
  // CHECK: stream.timepoint.await %[[T]] => %[[R]] : !stream.resource<*>{%arg1}
  %1 = "stream.timepoint.await"(%0#0, %n, %0#1) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (!stream.resource<*>, index, !stream.timepoint) -> !stream.resource<*>
  util.return %1 : !stream.resource<*>
}

// -----

// An op streamopt keeps as written (util.func is hand-written) stays in the generic form; a
// call of it is read as util.call. A unit property is read as one.
// CHECK: util.global private mutable @g : i32
"util.global"() <{is_mutable, sym_name = "g", sym_visibility = "private", type = i32}> : () -> ()
// CHECK: "util.func"() <{function_type = (i32) -> i32, sym_name = "callee"
"util.func"() <{function_type = (i32) -> i32, sym_name = "callee", sym_visibility = "private"}> ({
^bb0(%arg0: i32):
  "util.return"(%arg0) : (i32) -> ()
}) : () -> ()
// CHECK-LABEL: util.func public @calls
util.func public @calls(%x: i32) -> i32 {
  // CHECK: %[[G:.+]] = util.global.load @g : i32
  %0 = "util.global.load"() <{global = @g}> : () -> i32
  // CHECK: util.call @callee(%[[G]]) : (i32) -> i32
  %1 = "util.call"(%0) <{callee = @callee}> : (i32) -> i32
  util.return %1 : i32
}

// -----

// CHECK-LABEL: util.func public @hal_queue
util.func public @hal_queue(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %pool: i64, %type: i32, %usage: i32, %size: index, %cmd: !hal.command_buffer, %buffer: !hal.buffer) {
  // A bit enum's generic form is its integer.
  // CHECK: hal.device.queue.alloca<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg3) pool(%arg4) type(%arg5) usage(%arg6) flags(IndeterminateLifetime) : !hal.buffer{%arg7}
  %0 = "hal.device.queue.alloca"(%device, %affinity, %wait, %signal, %pool, %type, %usage, %size) <{flags = 1 : i64}> : (!hal.device, i64, !hal.fence, !hal.fence, i64, i32, i32, index) -> !hal.buffer
  // The binding table's lists are as long as each other (SameVariadicOperandSize).
  // CHECK: hal.device.queue.execute.indirect<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg3) commands(%arg8) bindings([
  // CHECK-NEXT: (%arg9 : !hal.buffer)[%arg7, %arg7]
  // CHECK-NEXT: ]) flags("None")
  "hal.device.queue.execute.indirect"(%device, %affinity, %wait, %signal, %cmd, %buffer, %size, %size) <{flags = 0 : i64}> : (!hal.device, i64, !hal.fence, !hal.fence, !hal.command_buffer, !hal.buffer, index, index) -> ()
  util.return
}

// -----

// MLIR's empty region (`({})`) has no block.
// CHECK-LABEL: util.func public @empty_region
util.func public @empty_region() {
  // CHECK: "test.op"() ({
  // CHECK-NEXT: }) : () -> ()
  "test.op"() ({
  }) : () -> ()
  util.return
}

// -----

// util.assume.int is hand-written, and reads its generic form itself: its rows from the
// `assumptions` property (or attribute), each `#util.int.assumption` as the custom form's row.
// CHECK-LABEL: util.func public @assume_int
util.func public @assume_int(%a: index, %b: i64) -> (index, i64, index) {
  // CHECK: util.assume.int
  // CHECK-NEXT: %arg0[<umin = 16, udiv = 4>, <umax = 18446744073709551615>],
  // CHECK-NEXT: %arg1<umin = 1>
  // CHECK-NEXT: : index, i64 {some.attr}
  %0:2 = "util.assume.int"(%a, %b) <{assumptions = [[#util.int.assumption<umin = 0x10, udiv = 4>, #util.int.assumption<umax = -1>], [#util.int.assumption<umin = 1>]]}> {some.attr} : (index, i64) -> (index, i64)
  // CHECK: util.assume.int %arg0<> : index
  %1 = "util.assume.int"(%a) {assumptions = [[#util.int.assumption<>]]} : (index) -> index
  // The property wins over the attribute of the same name.
  // CHECK: util.assume.int %arg0<umin = 1> : index
  %2 = "util.assume.int"(%a) <{assumptions = [[#util.int.assumption<umin = 1>]]}> {assumptions = [[#util.int.assumption<umin = 2>]]} : (index) -> index
  util.return %0#0, %0#1, %1 : index, i64, index
}
