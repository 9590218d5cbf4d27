// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s

// CHECK-LABEL: util.func public @transfer
util.func public @transfer(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  // CHECK: %[[R:.+]] = stream.async.transfer %arg0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%arg1}
  %0 = stream.async.transfer %arg0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%arg1}
  // CHECK: stream.async.transfer on(#hal.device.affinity<@dev_b>) %[[R]] : !stream.resource<*>{%arg1} -> !stream.resource<transient>{%arg1}
  %1 = stream.async.transfer on(#hal.device.affinity<@dev_b>) %0 : !stream.resource<*>{%arg1} -> !stream.resource<transient>{%arg1}
  %2 = stream.async.transfer %1 : !stream.resource<transient>{%arg1} -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%arg1}
  util.return %2 : !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @splat_clone
util.func public @splat_clone(%arg0: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[S:.+]] = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%arg0}
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%arg0}
  // CHECK: stream.async.clone %[[S]] : !stream.resource<*>{%arg0} -> !stream.resource<*>{%arg0}
  %1 = stream.async.clone %0 : !stream.resource<*>{%arg0} -> !stream.resource<*>{%arg0}
  util.return %1 : !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @dispatch
util.func public @dispatch(%arg0: !stream.resource<*>, %arg1: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // CHECK: %[[D:.+]]:2 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn[%c4, %c4](%arg0[%c0 to %arg1 for %arg1], %c4) : (!stream.resource<*>{%arg1}, index) -> (%arg0{%arg1}, !stream.resource<*>{%arg1})
  %0:2 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn[%c4, %c4](%arg0[%c0 to %arg1 for %arg1], %c4) : (!stream.resource<*>{%arg1}, index) -> (%arg0{%arg1}, !stream.resource<*>{%arg1})
  // CHECK: stream.async.dispatch {@ex::@a, @ex::@b}(%[[D]]#0[%c0 to %arg1 for %arg1]) {some.attr} : (!stream.resource<*>{%arg1}) -> !stream.resource<*>{%arg1}
  %1 = stream.async.dispatch {@ex::@a, @ex::@b}(%0#0[%c0 to %arg1 for %arg1]) {some.attr} : (!stream.resource<*>{%arg1}) -> !stream.resource<*>{%arg1}
  util.return %0#1, %1 : !stream.resource<*>, !stream.resource<*>
}
