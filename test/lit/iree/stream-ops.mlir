// iree-opt is the reference printer. Its print of this file must be a fixed point of streamopt,
// and iree-opt must read streamopt's print of the file back to the same IR.
// RUN: iree-opt %s > %t.iree
// RUN: streamopt %t.iree > %t.fixed
// RUN: diff %t.iree %t.fixed
// RUN: streamopt %s | iree-opt > %t.reread
// RUN: diff %t.iree %t.reread
// RUN: filecheck %s < %t.fixed

util.global private @dev_a : !hal.device

// CHECK-LABEL: stream.async.func private @extern(%arg0: !stream.resource<*>, %arg1: index) -> %arg0
stream.async.func private @extern(%x: !stream.resource<*>, %n: index) -> %x
stream.async.func private @extern2(%arg0: !stream.resource<*> {some.arg}, %arg1: index) -> (%arg0 as !stream.resource<external>, !stream.resource<transient> {some.result})
stream.async.func nested @nothing() attributes {some.attr}

// CHECK-LABEL: util.func public @async_ops
util.func public @async_ops(%arg0: !stream.resource<*>, %arg1: index, %arg2: !stream.timepoint, %arg3: !stream.resource<staging>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.alloca on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%c16}
  %1 = stream.async.alloca {some.attr = 1 : i32} : !stream.resource<transient>{%c16}
  // CHECK: %cst = stream.async.constant on(#hal.device.affinity<@dev_a>) await(%arg2)
  %2 = stream.async.constant on(#hal.device.affinity<@dev_a>) await(%arg2) : !stream.resource<constant>{%c16} = dense<3> : tensor<4xi32>
  // CHECK: %cst_0 = stream.async.constant :
  %3 = stream.async.constant : !stream.resource<constant>{%c16} = dense<3> : tensor<4xi32> attributes {some.attr}
  %4 = stream.async.slice on(#hal.device.affinity<@dev_a>) %arg0[%c0 to %c16] : !stream.resource<*>{%arg1} -> !stream.resource<*>{%c16}
  %5 = stream.async.fill on(#hal.device.affinity<@dev_a>) %c1_i32, %arg0[%c0 to %c16 for %c16] : i32 -> %arg0 as !stream.resource<*>{%arg1}
  %6 = stream.async.fill %c1_i32, %5[%c0 to %c16 for %c16] : i32 -> !stream.resource<*>{%arg1} attributes {some.attr}
  %7 = stream.async.update on(#hal.device.affinity<@dev_a>) %4, %6[%c0 to %c16] : !stream.resource<*>{%c16} -> %6 as !stream.resource<*>{%arg1}
  %8 = stream.async.copy %4[%c0 to %c16], %7[%c0 to %c16], %c16 : !stream.resource<*>{%c16} -> %7 as !stream.resource<*>{%arg1}
  %9 = stream.async.cast on(#hal.device.affinity<@dev_a>) %8 : !stream.resource<*>{%arg1} -> !stream.resource<external>{%arg1} {some.attr}
  %10 = stream.async.load %arg3[%c0] : !stream.resource<staging>{%c16} -> i32
  %11 = stream.async.store %10, %arg3[%c4] : i32 -> %arg3 as !stream.resource<staging>{%c16}
  %12 = stream.async.barrier on(#hal.device.affinity<@dev_a>) %8 : !stream.resource<*>{%arg1} attributes {some.attr}
  %13 = stream.async.call on(#hal.device.affinity<@dev_a>) @extern(%12[%c0 to %arg1 for %arg1], %c4) : (!stream.resource<*>{%arg1}, index) -> %12{%arg1}
  %14:2 = stream.async.call @extern2(%13[%c0 to %arg1 for %arg1], %c4) {some.attr} : (!stream.resource<*>{%arg1}, index) -> (%13 as !stream.resource<external>{%arg1}, !stream.resource<transient>{%c16})
  stream.async.call @nothing() : () -> ()
  // CHECK: %results:2, %result_timepoint = stream.async.execute
  %15:2, %16 = stream.async.execute on(#hal.device.affinity<@dev_a>) await(%arg2) => with(%13 as %a: !stream.resource<*>{%arg1}, %4 as %b: !stream.resource<*>{%c16}) -> (%13{%arg1}, !stream.resource<*>{%c16}) {
    %20 = stream.async.fill %c1_i32, %a[%c0 to %c16 for %c16] : i32 -> %a as !stream.resource<*>{%arg1}
    %21:2 = stream.async.concurrent with(%20 as %p: !stream.resource<*>{%arg1}, %b as %q: !stream.resource<*>{%c16}) -> (%20 as !stream.resource<*>{%arg1}, !stream.resource<*>{%c16}) {
      %22 = stream.async.clone %q : !stream.resource<*>{%c16} -> !stream.resource<*>{%c16}
      stream.yield %p, %22 : !stream.resource<*>{%arg1}, !stream.resource<*>{%c16}
    }
    stream.yield %21#0, %21#1 : !stream.resource<*>{%arg1}, !stream.resource<*>{%c16}
  } => !stream.timepoint
  %17 = stream.async.execute with() {
    stream.yield
  } => !stream.timepoint attributes {some.attr}
  %18, %19 = stream.async.execute await(%17) => with(%arg0 as %x: !stream.resource<*>{%arg1}) -> %arg0 as !stream.resource<external>{%arg1} {
    %23 = stream.async.cast %x : !stream.resource<*>{%arg1} -> !stream.resource<external>{%arg1}
    stream.yield {some.attr} %23 : !stream.resource<external>{%arg1}
  } => !stream.timepoint
  util.return %15#0 : !stream.resource<*>
}

// CHECK-LABEL: util.func public @tensor_and_timeline_ops
util.func public @tensor_and_timeline_ops(%arg0: !util.buffer, %arg1: !hal.buffer_view, %arg2: index, %arg3: index, %arg4: !stream.timepoint) -> (!util.buffer, !stream.resource<external>, !stream.timepoint) {
  %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) consume %arg0 : !util.buffer -> tensor<?x5xf32>{%arg2} in !stream.resource<external>{%arg3}
  %1 = stream.tensor.import %arg1 : !hal.buffer_view -> tensor<4xf32, #iree_encoding.testing<>> in !stream.resource<external>{%arg3} attributes {some.attr}
  %2 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %0 : tensor<?x5xf32>{%arg2} in !stream.resource<external>{%arg3} -> !util.buffer
  %3 = stream.tensor.export %0 : tensor<4xf32> in !stream.resource<external>{%arg3} -> !hal.buffer_view attributes {some.attr}
  %4 = stream.tensor.sizeof tensor<1024xf32> : index
  %5 = stream.tensor.sizeof on(#hal.device.affinity<@dev_a>) tensor<?x4xf32>{%arg2} {some.attr} : index
  %6 = stream.timepoint.immediate => !stream.timepoint
  %7 = stream.timepoint.immediate {some.attr} => !stream.timepoint
  %8 = stream.timepoint.join max(%6, %arg4) => !stream.timepoint attributes {some.attr}
  %9:2 = stream.timepoint.await %8 => %0, %1 : !stream.resource<external>{%arg3}, !stream.resource<external>{%arg3}
  %10 = stream.timepoint.await sync %arg4 => %0 : !stream.resource<external>{%arg3} attributes {some.attr}
  // CHECK: %result, %result_timepoint = stream.timepoint.barrier
  %11, %12 = stream.timepoint.barrier on(#hal.device.affinity<@dev_a>) %9#0 : !stream.resource<external>{%arg3} => !stream.timepoint
  util.return %2, %11, %12 : !util.buffer, !stream.resource<external>, !stream.timepoint
}
