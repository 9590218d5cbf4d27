// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s

// CHECK-LABEL: util.func public @alloca
util.func public @alloca(%arg0: index, %arg1: !stream.timepoint) -> (!stream.resource<transient>, !stream.resource<external>, !stream.resource<external>) {
  // IREE names the results `%result` and `%result_timepoint` when the input does not.
  // CHECK: %result, %result_timepoint = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) await(%arg1) => !stream.resource<transient>{%arg0} => !stream.timepoint
  %0:2 = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) await(%arg1) => !stream.resource<transient>{%arg0} => !stream.timepoint
  // CHECK: %result_0, %result_timepoint_1 = stream.resource.alloca uninitialized : !stream.resource<external>{%arg0} => !stream.timepoint
  %1:2 = stream.resource.alloca uninitialized : !stream.resource<external>{%arg0} => !stream.timepoint
  // The attribute dictionary sits between `:` (or `=>`) and the type.
  // CHECK: %result_2, %result_timepoint_3 = stream.resource.alloca uninitialized indeterminate on(#hal.device.optimal<[#hal.device.affinity<@dev_a>, #hal.device.affinity<@dev_b>]>) : {some.attr} !stream.resource<external>{%arg0} => !stream.timepoint
  %2:2 = stream.resource.alloca uninitialized indeterminate on(#hal.device.optimal<[#hal.device.affinity<@dev_a>, #hal.device.affinity<@dev_b>]>) : {some.attr} !stream.resource<external>{%arg0} => !stream.timepoint
  // CHECK: stream.resource.alloca uninitialized await(%result_timepoint) => {some.attr} !stream.resource<transient>{%arg0} => !stream.timepoint
  %3:2 = stream.resource.alloca uninitialized await(%0#1) => {some.attr} !stream.resource<transient>{%arg0} => !stream.timepoint
  util.return %0#0, %1#0, %2#0 : !stream.resource<transient>, !stream.resource<external>, !stream.resource<external>
}

// -----

// CHECK-LABEL: util.func public @dealloca
util.func public @dealloca(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.timepoint) -> !stream.timepoint {
  // CHECK: %[[T0:.+]] = stream.resource.dealloca origin on(#hal.device.affinity<@dev_a>) await(%arg2) => %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint
  %0 = stream.resource.dealloca origin on(#hal.device.affinity<@dev_a>) await(%arg2) => %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint
  // CHECK: stream.resource.dealloca await(%[[T0]]) => %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint {some.attr}
  %1 = stream.resource.dealloca await(%0) => %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint {some.attr}
  // CHECK: %[[T2:.+]] = stream.resource.dealloca %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint
  %2 = stream.resource.dealloca %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint
  // CHECK: util.return %[[T2]]
  util.return %2 : !stream.timepoint
}

// -----

// CHECK-LABEL: util.func public @size_subview
util.func public @size_subview(%arg0: !stream.resource<*>, %arg1: index) -> (index, !stream.resource<*>) {
  %c16 = arith.constant 16 : index
  // CHECK: %[[SIZE:.+]] = stream.resource.size %arg0 : !stream.resource<*>
  %0 = stream.resource.size %arg0 : !stream.resource<*>
  // CHECK: stream.resource.size %arg0 {some.attr} : !stream.resource<*>
  %1 = stream.resource.size %arg0 {some.attr} : !stream.resource<*>
  // CHECK: %[[VIEW:.+]] = stream.resource.subview %arg0[%c16] : !stream.resource<*>{%arg1} -> !stream.resource<*>{%[[SIZE]]}
  %2 = stream.resource.subview %arg0[%c16] : !stream.resource<*>{%arg1} -> !stream.resource<*>{%0}
  // CHECK: stream.resource.subview %[[VIEW]][%c16] : !stream.resource<*>{%[[SIZE]]} -> !stream.resource<*>{%c16} attributes {some.attr}
  %3 = stream.resource.subview %2[%c16] : !stream.resource<*>{%0} -> !stream.resource<*>{%c16} attributes {some.attr}
  util.return %0, %3 : index, !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @execute
util.func public @execute(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.resource<external>, %arg3: !stream.timepoint) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c255_i32 = arith.constant 255 : i32
  // Region arguments are renumbered after the function's: %arg4, %arg5.
  // CHECK: %[[T:.+]] = stream.cmd.execute once on(#hal.device.affinity<@dev_a>) await(%arg3) => with(%arg0 as %arg4: !stream.resource<transient>{%arg1}, %arg2 as %arg5: !stream.resource<external>{%arg1}) {
  %0 = stream.cmd.execute once on(#hal.device.affinity<@dev_a>) await(%arg3) => with(%arg0 as %a: !stream.resource<transient>{%arg1}, %arg2 as %b: !stream.resource<external>{%arg1}) {
    // CHECK-NEXT: stream.cmd.copy %arg4[%c0], %arg5[%c4], %c4 : !stream.resource<transient>{%arg1} -> !stream.resource<external>{%arg1}
    stream.cmd.copy %a[%c0], %b[%c4], %c4 : !stream.resource<transient>{%arg1} -> !stream.resource<external>{%arg1}
    // CHECK-NEXT: stream.cmd.fill %c255_i32, %arg5[%c0 for %c4] : i32 -> !stream.resource<external>{%arg1} attributes {some.attr}
    stream.cmd.fill %c255_i32, %b[%c0 for %c4] : i32 -> !stream.resource<external>{%arg1} attributes {some.attr}
  // CHECK-NEXT: } => !stream.timepoint attributes {some.attr}
  } => !stream.timepoint attributes {some.attr}
  // An empty capture list, an empty body, and an explicit `stream.yield` (the implicit
  // terminator IREE never prints).
  // CHECK: stream.cmd.execute await(%[[T]]) => with() {
  // CHECK-NEXT: } => !stream.timepoint
  %1 = stream.cmd.execute await(%0) => with() {
    stream.yield
  } => !stream.timepoint
  util.return %1 : !stream.timepoint
}

// -----

// CHECK-LABEL: util.func public @serial_concurrent
util.func public @serial_concurrent(%arg0: !stream.resource<transient>, %arg1: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // CHECK: stream.cmd.execute with(%arg0 as %arg2: !stream.resource<transient>{%arg1}) {
  %0 = stream.cmd.execute with(%arg0 as %a: !stream.resource<transient>{%arg1}) {
    // CHECK-NEXT: stream.cmd.serial {
    stream.cmd.serial {
      // CHECK-NEXT: stream.cmd.concurrent {
      stream.cmd.concurrent {
        // CHECK-NEXT: stream.cmd.discard %arg2[%c0 for %c4] : !stream.resource<transient>{%arg1}
        stream.cmd.discard %a[%c0 for %c4] : !stream.resource<transient>{%arg1}
      // CHECK-NEXT: } attributes {some.attr}
      } attributes {some.attr}
    // CHECK-NEXT: }
    }
    // CHECK-NEXT: stream.cmd.concurrent {
    // CHECK-NEXT: }
    stream.cmd.concurrent {
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

// CHECK-LABEL: util.func public @flush_invalidate_discard
util.func public @flush_invalidate_discard(%arg0: !stream.resource<transient>, %arg1: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %0 = stream.cmd.execute with(%arg0 as %a: !stream.resource<transient>{%arg1}) {
    // CHECK: stream.cmd.flush to(#hal.device.affinity<@dev_b>) %arg2[%c0 for %c4] : !stream.resource<transient>{%arg1}
    stream.cmd.flush to(#hal.device.affinity<@dev_b>) %a[%c0 for %c4] : !stream.resource<transient>{%arg1}
    // CHECK-NEXT: stream.cmd.flush %arg2[%c0 for %c4] : !stream.resource<transient>{%arg1} attributes {some.attr}
    stream.cmd.flush %a[%c0 for %c4] : !stream.resource<transient>{%arg1} attributes {some.attr}
    // CHECK-NEXT: stream.cmd.invalidate from(#hal.device.affinity<@dev_b>) %arg2[%c0 for %c4] : !stream.resource<transient>{%arg1}
    stream.cmd.invalidate from(#hal.device.affinity<@dev_b>) %a[%c0 for %c4] : !stream.resource<transient>{%arg1}
    // CHECK-NEXT: stream.cmd.invalidate %arg2[%c0 for %c4] : !stream.resource<transient>{%arg1}
    stream.cmd.invalidate %a[%c0 for %c4] : !stream.resource<transient>{%arg1}
    // CHECK-NEXT: stream.cmd.discard %arg2[%c0 for %c4] : !stream.resource<transient>{%arg1} attributes {some.attr}
    stream.cmd.discard %a[%c0 for %c4] : !stream.resource<transient>{%arg1} attributes {some.attr}
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

// CHECK-LABEL: util.func public @dispatch
util.func public @dispatch(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.resource<external>) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.cmd.execute with(%arg0 as %a: !stream.resource<transient>{%arg1}, %arg2 as %b: !stream.resource<external>{%arg1}) {
    // One resource per line, indented two more than the op; the closing brace lines up with it.
    // CHECK:      {{^}}      stream.cmd.dispatch @ex::@fn[%c4, %c4](%c4, %c1_i32 : index, i32) {
    // CHECK-NEXT: {{^}}        ro %arg3[%c0 for %c4] : !stream.resource<transient>{%arg1},
    // CHECK-NEXT: {{^}}        wo %arg4[%c0 for %c4] : !stream.resource<external>{%arg1},
    // CHECK-NEXT: {{^}}        rw %arg4[%c4 for %c4] : !stream.resource<external>{%arg1}
    // CHECK-NEXT: {{^}}      }{{$}}
    stream.cmd.dispatch @ex::@fn[%c4, %c4](%c4, %c1_i32 : index, i32) {
      ro %a[%c0 for %c4] : !stream.resource<transient>{%arg1},
      wo %b[%c0 for %c4] : !stream.resource<external>{%arg1},
      rw %b[%c4 for %c4] : !stream.resource<external>{%arg1}
    }
    // CHECK-NEXT: stream.cmd.dispatch {@ex::@a, @ex::@b} {
    // CHECK-NEXT:   ro %arg3[%c0 for %c4] : !stream.resource<transient>{%arg1}
    // CHECK-NEXT: } attributes {some.attr}
    stream.cmd.dispatch {@ex::@a, @ex::@b} {
      ro %a[%c0 for %c4] : !stream.resource<transient>{%arg1}
    } attributes {some.attr}
    // CHECK-NEXT: stream.cmd.dispatch @ex::@fn(%c4 : index) {
    stream.cmd.dispatch @ex::@fn(%c4 : index) {
      wo %b[%c0 for %c4] : !stream.resource<external>{%arg1}
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

// CHECK-LABEL: util.func public @pack
util.func public @pack(%arg0: index, %arg1: index) -> (index, index) {
  // One slice per line, indented two more than the op; the closing `})` lines up with it.
  // CHECK:      {{^}}    %[[PACK:.+]]:3 = stream.resource.pack on(#hal.device.affinity<@dev_a>) offset(%arg1) slices({
  // CHECK-NEXT: {{^}}      [0, 4] = %arg0,
  // CHECK-NEXT: {{^}}      [2, 8] = %arg1
  // CHECK-NEXT: {{^}}    }) : index attributes {some.attr}
  %0:3 = stream.resource.pack on(#hal.device.affinity<@dev_a>) offset(%arg1) slices({
    [0, 4] = %arg0,
    [2, 8] = %arg1
  }) : index attributes {some.attr}
  // CHECK: stream.resource.pack slices({}) : index
  %1 = stream.resource.pack slices({}) : index
  // CHECK: util.return %[[PACK]]#0, %[[PACK]]#2
  util.return %0#0, %0#2 : index, index
}

// -----

// CHECK-LABEL: util.func public @constants
util.func public @constants() -> (!stream.resource<constant>, !stream.resource<variable>, !stream.timepoint) {
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  // One value per line, indented two more than the op, and `=>` on a line of its own.
  // CHECK:      {{^}}    %results:2, %result_timepoint = stream.resource.constants on(#hal.device.affinity<@dev_b>) {some.attr} : {{$}}
  // CHECK-NEXT: {{^}}      !stream.resource<constant>{%c16} = dense<[1, 2, 3, 4]> : tensor<4xi32>,{{$}}
  // CHECK-NEXT: {{^}}      !stream.resource<constant>{%c8} = dense<1> : tensor<2xi32>{{$}}
  // CHECK-NEXT: {{^}}      => !stream.timepoint{{$}}
  %0:3 = stream.resource.constants on(#hal.device.affinity<@dev_b>) {some.attr} :
    !stream.resource<constant>{%c16} = dense<[1, 2, 3, 4]> : tensor<4xi32>,
    !stream.resource<constant>{%c8} = dense<1> : tensor<2xi32>
    => !stream.timepoint
  // One line parses too.
  // CHECK:      %results_0, %result_timepoint_1 = stream.resource.constants : {{$}}
  // CHECK-NEXT: !stream.resource<variable>{%c8} = dense<1> : tensor<2xi32>{{$}}
  // CHECK-NEXT: => !stream.timepoint
  %1:2 = stream.resource.constants : !stream.resource<variable>{%c8} = dense<1> : tensor<2xi32> => !stream.timepoint
  // CHECK: util.return %results#0, %results_0, %result_timepoint
  util.return %0#0, %1#0, %0#2 : !stream.resource<constant>, !stream.resource<variable>, !stream.timepoint
}
