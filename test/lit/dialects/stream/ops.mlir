// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s

// Round trip of the stream async, tensor and timeline ops in IREE's printed syntax, with and
// without their optional pieces.

// CHECK-LABEL: util.func public @alloca_constant
util.func public @alloca_constant(%arg0: index, %arg1: !stream.timepoint) -> (!stream.resource<transient>, !stream.resource<constant>) {
  // CHECK: stream.async.alloca on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%arg0}
  %0 = stream.async.alloca on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%arg0}
  // CHECK: stream.async.alloca {some.attr = 1 : i32} : !stream.resource<*>{%arg0}
  %1 = stream.async.alloca {some.attr = 1 : i32} : !stream.resource<*>{%arg0}
  // CHECK: %cst = stream.async.constant on(#hal.device.affinity<@dev_a>) await(%arg1) : !stream.resource<constant>{%arg0} = dense<3> : tensor<4xi32>
  %cst = stream.async.constant on(#hal.device.affinity<@dev_a>) await(%arg1) : !stream.resource<constant>{%arg0} = dense<3> : tensor<4xi32>
  // CHECK: %cst_0 = stream.async.constant : !stream.resource<constant>{%arg0} = dense<[1, 2]> : tensor<2xi64> attributes {some.attr}
  %cst_0 = stream.async.constant : !stream.resource<constant>{%arg0} = dense<[1, 2]> : tensor<2xi64> attributes {some.attr}
  util.return %0, %cst : !stream.resource<transient>, !stream.resource<constant>
}

// -----

// CHECK-LABEL: util.func public @slice_fill_update_copy
util.func public @slice_fill_update_copy(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SLICE:.+]] = stream.async.slice on(#hal.device.affinity<@dev_a>) %arg0[%c0 to %c16] : !stream.resource<*>{%arg1} -> !stream.resource<*>{%c16}
  %0 = stream.async.slice on(#hal.device.affinity<@dev_a>) %arg0[%c0 to %c16] : !stream.resource<*>{%arg1} -> !stream.resource<*>{%c16}
  // CHECK: %[[FILL:.+]] = stream.async.fill on(#hal.device.affinity<@dev_a>) %c1_i32, %arg0[%c0 to %c16 for %c16] : i32 -> %arg0 as !stream.resource<*>{%arg1}
  %1 = stream.async.fill on(#hal.device.affinity<@dev_a>) %c1_i32, %arg0[%c0 to %c16 for %c16] : i32 -> %arg0 as !stream.resource<*>{%arg1}
  // The tied result may be written without its operand; it is printed with it.
  // CHECK: %[[FILL2:.+]] = stream.async.fill %c1_i32, %[[FILL]][%c0 to %c16 for %c16] : i32 -> %[[FILL]] as !stream.resource<*>{%arg1} attributes {some.attr}
  %2 = stream.async.fill %c1_i32, %1[%c0 to %c16 for %c16] : i32 -> !stream.resource<*>{%arg1} attributes {some.attr}
  // CHECK: %[[UPDATE:.+]] = stream.async.update on(#hal.device.affinity<@dev_a>) %[[SLICE]], %[[FILL2]][%c0 to %c16] : !stream.resource<*>{%c16} -> %[[FILL2]] as !stream.resource<*>{%arg1}
  %3 = stream.async.update on(#hal.device.affinity<@dev_a>) %0, %2[%c0 to %c16] : !stream.resource<*>{%c16} -> %2 as !stream.resource<*>{%arg1}
  // CHECK: %[[COPY:.+]] = stream.async.copy %[[SLICE]][%c0 to %c16], %[[UPDATE]][%c0 to %c16], %c16 : !stream.resource<*>{%c16} -> %[[UPDATE]] as !stream.resource<*>{%arg1}
  %4 = stream.async.copy %0[%c0 to %c16], %3[%c0 to %c16], %c16 : !stream.resource<*>{%c16} -> !stream.resource<*>{%arg1}
  // CHECK: util.return %[[COPY]]
  util.return %4 : !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @cast_barrier
util.func public @cast_barrier(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<external> {
  // CHECK: %[[BARRIER:.+]] = stream.async.barrier on(#hal.device.affinity<@dev_a>) %arg0 : !stream.resource<*>{%arg1}
  %0 = stream.async.barrier on(#hal.device.affinity<@dev_a>) %arg0 : !stream.resource<*>{%arg1}
  // CHECK: stream.async.barrier %[[BARRIER]] : !stream.resource<*>{%arg1} attributes {some.attr}
  %1 = stream.async.barrier %0 : !stream.resource<*>{%arg1} attributes {some.attr}
  // Cast prints its attributes without the `attributes` keyword.
  // CHECK: %[[CAST:.+]] = stream.async.cast on(#hal.device.affinity<@dev_a>) %[[BARRIER]] : !stream.resource<*>{%arg1} -> !stream.resource<external>{%arg1} {some.attr}
  %2 = stream.async.cast on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<*>{%arg1} -> !stream.resource<external>{%arg1} {some.attr}
  // CHECK: util.return %[[CAST]]
  util.return %2 : !stream.resource<external>
}

// -----

// CHECK-LABEL: util.func public @load_store
util.func public @load_store(%arg0: !stream.resource<staging>, %arg1: index) -> (i32, !stream.resource<staging>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // CHECK: %[[LOAD:.+]] = stream.async.load %arg0[%c0] : !stream.resource<staging>{%arg1} -> i32
  %0 = stream.async.load %arg0[%c0] : !stream.resource<staging>{%arg1} -> i32
  // CHECK: stream.async.load %arg0[%c4] : !stream.resource<staging>{%arg1} -> vector<2xf16> attributes {some.attr}
  %1 = stream.async.load %arg0[%c4] : !stream.resource<staging>{%arg1} -> vector<2xf16> attributes {some.attr}
  // CHECK: %[[STORE:.+]] = stream.async.store %[[LOAD]], %arg0[%c4] : i32 -> %arg0 as !stream.resource<staging>{%arg1}
  %2 = stream.async.store %0, %arg0[%c4] : i32 -> %arg0 as !stream.resource<staging>{%arg1}
  // CHECK: util.return %[[LOAD]], %[[STORE]]
  util.return %0, %2 : i32, !stream.resource<staging>
}

// -----

// CHECK-LABEL: stream.async.func private @extern(%arg0: !stream.resource<*>, %arg1: index) -> %arg0
stream.async.func private @extern(%x: !stream.resource<*>, %n: index) -> %x
// CHECK: stream.async.func private @extern2(%arg0: !stream.resource<*> {some.arg}, %arg1: index) -> (%arg0 as !stream.resource<external>, !stream.resource<transient> {some.result})
stream.async.func private @extern2(%arg0: !stream.resource<*> {some.arg}, %arg1: index) -> (%arg0 as !stream.resource<external>, !stream.resource<transient> {some.result})
// CHECK: stream.async.func nested @nothing() attributes {some.attr}
stream.async.func nested @nothing() attributes {some.attr}
// Several results without parentheses (and then without attributes), as util.func takes them.
// CHECK: stream.async.func private @bare(%arg0: !stream.resource<*>, %arg1: index) -> (%arg0, index)
stream.async.func private @bare(%x: !stream.resource<*>, %n: index) -> %x, index
// CHECK-LABEL: util.func public @call
util.func public @call(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // CHECK: %[[CALL:.+]] = stream.async.call on(#hal.device.affinity<@dev_a>) @extern(%arg0[%c0 to %arg1 for %arg1], %c4) : (!stream.resource<*>{%arg1}, index) -> %arg0{%arg1}
  %0 = stream.async.call on(#hal.device.affinity<@dev_a>) @extern(%arg0[%c0 to %arg1 for %arg1], %c4) : (!stream.resource<*>{%arg1}, index) -> %arg0{%arg1}
  // CHECK: %[[CALL2:.+]]:2 = stream.async.call @extern2(%[[CALL]][%c0 to %arg1 for %arg1], %c4) {some.attr} : (!stream.resource<*>{%arg1}, index) -> (%[[CALL]] as !stream.resource<external>{%arg1}, !stream.resource<transient>{%c4})
  %1:2 = stream.async.call @extern2(%0[%c0 to %arg1 for %arg1], %c4) {some.attr} : (!stream.resource<*>{%arg1}, index) -> (%0 as !stream.resource<external>{%arg1}, !stream.resource<transient>{%c4})
  // CHECK: stream.async.call @nothing() : () -> ()
  stream.async.call @nothing() : () -> ()
  util.return %0 : !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @execute
util.func public @execute(%arg0: !stream.resource<*>, %arg1: index, %arg2: !stream.resource<transient>, %arg3: !stream.timepoint) -> (!stream.resource<*>, !stream.timepoint) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1_i32 = arith.constant 1 : i32
  // Captures declare the region's arguments; tied results name the outer operand.
  // CHECK: %results:2, %result_timepoint = stream.async.execute on(#hal.device.affinity<@dev_a>) await(%arg3) => with(%arg0 as %arg4: !stream.resource<*>{%arg1}, %arg2 as %arg5: !stream.resource<transient>{%c16}) -> (%arg0{%arg1}, !stream.resource<*>{%c16}) {
  // CHECK-NEXT:   %[[FILL:.+]] = stream.async.fill %c1_i32, %arg4[%c0 to %c16 for %c16] : i32 -> %arg4 as !stream.resource<*>{%arg1}
  // CHECK-NEXT:   %[[WAVE:.+]]:2 = stream.async.concurrent with(%[[FILL]] as %arg6: !stream.resource<*>{%arg1}, %arg5 as %arg7: !stream.resource<transient>{%c16}) -> (%[[FILL]]{%arg1}, !stream.resource<*>{%c16}) {
  // CHECK-NEXT:     %[[CLONE:.+]] = stream.async.clone %arg7 : !stream.resource<transient>{%c16} -> !stream.resource<*>{%c16}
  // CHECK-NEXT:     stream.yield %arg6, %[[CLONE]] : !stream.resource<*>{%arg1}, !stream.resource<*>{%c16}
  // CHECK-NEXT:   }
  // CHECK-NEXT:   stream.yield %[[WAVE]]#0, %[[WAVE]]#1 : !stream.resource<*>{%arg1}, !stream.resource<*>{%c16}
  // CHECK-NEXT: } => !stream.timepoint
  %0:2, %1 = stream.async.execute on(#hal.device.affinity<@dev_a>) await(%arg3) => with(%arg0 as %a: !stream.resource<*>{%arg1}, %arg2 as %b: !stream.resource<transient>{%c16}) -> (%arg0{%arg1}, !stream.resource<*>{%c16}) {
    %2 = stream.async.fill %c1_i32, %a[%c0 to %c16 for %c16] : i32 -> %a as !stream.resource<*>{%arg1}
    %3:2 = stream.async.concurrent with(%2 as %p: !stream.resource<*>{%arg1}, %b as %q: !stream.resource<transient>{%c16}) -> (%2 as !stream.resource<*>{%arg1}, !stream.resource<*>{%c16}) {
      %4 = stream.async.clone %q : !stream.resource<transient>{%c16} -> !stream.resource<*>{%c16}
      stream.yield %p, %4 : !stream.resource<*>{%arg1}, !stream.resource<*>{%c16}
    }
    stream.yield %3#0, %3#1 : !stream.resource<*>{%arg1}, !stream.resource<*>{%c16}
  } => !stream.timepoint
  // CHECK: util.return %results#0, %result_timepoint
  util.return %0#0, %1 : !stream.resource<*>, !stream.timepoint
}

// -----

// CHECK-LABEL: util.func public @execute_forms
util.func public @execute_forms(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<external> {
  // No captures, no results: the timepoint is the only result.
  // CHECK: %[[T:.+]] = stream.async.execute with() {
  // CHECK-NEXT:   stream.yield
  // CHECK-NEXT: } => !stream.timepoint attributes {some.attr}
  %t = stream.async.execute with() {
    stream.yield
  } => !stream.timepoint attributes {some.attr}
  // A tied result whose type differs from its operand's keeps `as T`.
  // CHECK: %results, %result_timepoint = stream.async.execute await(%[[T]]) => with(%arg0 as %arg2: !stream.resource<*>{%arg1}) -> %arg0 as !stream.resource<external>{%arg1} {
  // CHECK-NEXT:   %[[CAST:.+]] = stream.async.cast %arg2 : !stream.resource<*>{%arg1} -> !stream.resource<external>{%arg1}
  // CHECK-NEXT:   stream.yield {some.attr} %[[CAST]] : !stream.resource<external>{%arg1}
  // CHECK-NEXT: } => !stream.timepoint
  %0, %1 = stream.async.execute await(%t) => with(%arg0 as %x: !stream.resource<*>{%arg1}) -> %arg0 as !stream.resource<external>{%arg1} {
    %2 = stream.async.cast %x : !stream.resource<*>{%arg1} -> !stream.resource<external>{%arg1}
    stream.yield {some.attr} %2 : !stream.resource<external>{%arg1}
  } => !stream.timepoint
  // CHECK: util.return %results
  util.return %0 : !stream.resource<external>
}

// -----

// CHECK-LABEL: util.func public @tensor_ops
util.func public @tensor_ops(%arg0: !util.buffer, %arg1: !hal.buffer_view, %arg2: index, %arg3: index) -> (!util.buffer, index) {
  // CHECK: %[[IMPORT:.+]] = stream.tensor.import on(#hal.device.affinity<@dev_a>) consume %arg0 : !util.buffer -> tensor<?x5xf32>{%arg2} in !stream.resource<external>{%arg3}
  %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) consume %arg0 : !util.buffer -> tensor<?x5xf32>{%arg2} in !stream.resource<external>{%arg3}
  // CHECK: stream.tensor.import %arg1 : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%arg3} attributes {some.attr}
  %1 = stream.tensor.import %arg1 : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%arg3} attributes {some.attr}
  // CHECK: %[[EXPORT:.+]] = stream.tensor.export on(#hal.device.affinity<@dev_a>) %[[IMPORT]] : tensor<?x5xf32>{%arg2} in !stream.resource<external>{%arg3} -> !util.buffer
  %2 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %0 : tensor<?x5xf32>{%arg2} in !stream.resource<external>{%arg3} -> !util.buffer
  // CHECK: stream.tensor.export %[[IMPORT]] : tensor<4xf32> in !stream.resource<external>{%arg3} -> !hal.buffer_view attributes {some.attr}
  %3 = stream.tensor.export %0 : tensor<4xf32> in !stream.resource<external>{%arg3} -> !hal.buffer_view attributes {some.attr}
  // CHECK: %[[SIZE:.+]] = stream.tensor.sizeof tensor<1024xf32> : index
  %4 = stream.tensor.sizeof tensor<1024xf32> : index
  // CHECK: stream.tensor.sizeof on(#hal.device.affinity<@dev_a>) tensor<?x4xf32>{%arg2} {some.attr} : index
  %5 = stream.tensor.sizeof on(#hal.device.affinity<@dev_a>) tensor<?x4xf32>{%arg2} {some.attr} : index
  // CHECK: util.return %[[EXPORT]], %[[SIZE]]
  util.return %2, %4 : !util.buffer, index
}

// -----

// CHECK-LABEL: util.func public @timepoints
util.func public @timepoints(%arg0: !stream.resource<*>, %arg1: index, %arg2: !stream.resource<staging>, %arg3: !stream.timepoint) -> (!stream.resource<*>, !stream.timepoint) {
  // CHECK: %[[NOW:.+]] = stream.timepoint.immediate => !stream.timepoint
  %0 = stream.timepoint.immediate => !stream.timepoint
  // CHECK: stream.timepoint.immediate {some.attr} => !stream.timepoint
  %1 = stream.timepoint.immediate {some.attr} => !stream.timepoint
  // CHECK: %[[JOIN:.+]] = stream.timepoint.join max(%[[NOW]], %arg3) => !stream.timepoint
  %2 = stream.timepoint.join max(%0, %arg3) => !stream.timepoint
  // CHECK: %[[READY:.+]]:2 = stream.timepoint.await %[[JOIN]] => %arg0, %arg2 : !stream.resource<*>{%arg1}, !stream.resource<staging>{%arg1}
  %3:2 = stream.timepoint.await %2 => %arg0, %arg2 : !stream.resource<*>{%arg1}, !stream.resource<staging>{%arg1}
  // CHECK: stream.timepoint.await sync %arg3 => %arg0 : !stream.resource<*>{%arg1} attributes {some.attr}
  %4 = stream.timepoint.await sync %arg3 => %arg0 : !stream.resource<*>{%arg1} attributes {some.attr}
  // CHECK: %result, %result_timepoint = stream.timepoint.barrier on(#hal.device.affinity<@dev_a>) %[[READY]]#0 : !stream.resource<*>{%arg1} => !stream.timepoint
  %5, %6 = stream.timepoint.barrier on(#hal.device.affinity<@dev_a>) %3#0 : !stream.resource<*>{%arg1} => !stream.timepoint
  // CHECK: util.return %result, %result_timepoint
  util.return %5, %6 : !stream.resource<*>, !stream.timepoint
}

// -----

// stream.tensor.dispatch: results tied to operands of the same encoding and untied results of
// any encoding are valid.
// CHECK-LABEL: util.func private @tensor_dispatch_tied
util.func private @tensor_dispatch_tied(%arg0: !stream.resource<*>, %arg1: index, %arg2: index, %arg3: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // CHECK: stream.tensor.dispatch on(#hal.device.affinity<@dev>) {@ex::@a, @ex::@b}[%c1](%c4, %arg0, %arg3) {some.attr} : (index, tensor<4x?xf32>{%arg2} in !stream.resource<*>{%arg1}, tensor<8xf32> in !stream.resource<*>{%arg1}) -> (tensor<?x4xf32>{%arg2} in !stream.resource<*>{%arg1}, tensor<8xf32> in %arg3{%arg1})
  %0:2 = stream.tensor.dispatch on(#hal.device.affinity<@dev>) {@ex::@a, @ex::@b}[%c1](%c4, %arg0, %arg3) {some.attr} : (index, tensor<4x?xf32>{%arg2} in !stream.resource<*>{%arg1}, tensor<8xf32> in !stream.resource<*>{%arg1}) -> (tensor<?x4xf32>{%arg2} in !stream.resource<*>{%arg1}, tensor<8xf32> in %arg3{%arg1})
  // CHECK: stream.tensor.dispatch @ex::@a(%arg0, %c4) : (tensor<4x?xf32>{%arg2} in !stream.resource<*>{%arg1}, index) -> tensor<4x?xf32>{%arg2} in %arg0{%arg1}
  %1 = stream.tensor.dispatch @ex::@a(%arg0, %c4) : (tensor<4x?xf32>{%arg2} in !stream.resource<*>{%arg1}, index) -> tensor<4x?xf32>{%arg2} in %arg0{%arg1}
  util.return %0#0, %1 : !stream.resource<*>, !stream.resource<*>
}
