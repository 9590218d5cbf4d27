// The ops --lower-cmd-to-hal emits besides the queue ops (executable lookups for dispatches,
// buffer subspans and lengths, the status check after a host wait) print exactly as iree-opt
// prints them.
//
// RUN: streamopt --split-input-file %s > %t.streamopt
// RUN: filecheck %s --input-file %t.streamopt
// RUN: iree-opt --split-input-file %s > %t.iree
// RUN: diff %t.iree %t.streamopt

// CHECK-LABEL: util.func public @executables
util.func public @executables(%device: !hal.device, %n: index) {
  %c1 = arith.constant 1 : index
  // CHECK: %[[EXE:.+]] = hal.executable.lookup device(%arg0 : !hal.device) executable(@ex) : !hal.executable
  %0 = hal.executable.lookup device(%device : !hal.device) executable(@ex) : !hal.executable
  // CHECK: %function_id = hal.executable.lookup.function target(%[[EXE]] : !hal.executable) function(@ex::@variant::@fn) : i64
  %1 = hal.executable.lookup.function target(%0 : !hal.executable) function(@ex::@variant::@fn) : i64
  // CHECK: %workgroup_x, %workgroup_y, %workgroup_z = hal.executable.calculate_workgroups device(%arg0 : !hal.device) target(@ex::@variant::@fn) workload([%c1, %arg1]) : index, index, index
  %2:3 = hal.executable.calculate_workgroups device(%device : !hal.device) target(@ex::@variant::@fn) workload([%c1, %n]) : index, index, index
  // CHECK: %workgroup_x_0, %workgroup_y_1, %workgroup_z_2 = hal.executable.calculate_workgroups device(%arg0 : !hal.device) target(@ex::@fn) : index, index, index
  %3:3 = hal.executable.calculate_workgroups device(%device : !hal.device) target(@ex::@fn) : index, index, index
  util.return
}

// -----

// CHECK-LABEL: util.func public @buffers
util.func public @buffers(%buffer: !hal.buffer, %n: index) -> index {
  %c0 = arith.constant 0 : index
  // CHECK: %buffer = hal.buffer.subspan<%arg0 : !hal.buffer>[%c0, %arg1] : !hal.buffer
  %0 = hal.buffer.subspan<%buffer : !hal.buffer>[%c0, %n] : !hal.buffer
  // CHECK: %length = hal.buffer.length<%buffer : !hal.buffer> : index
  %1 = hal.buffer.length<%0 : !hal.buffer> : index
  util.return %1 : index
}

// -----

// CHECK-LABEL: util.func public @status
util.func public @status(%fence: !hal.fence) {
  %c-1_i32 = arith.constant -1 : i32
  %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) flags("None") : i32
  // CHECK: util.status.check_ok %status, "failed to wait on timepoint"
  util.status.check_ok %status, "failed to wait on timepoint"
  // CHECK: util.status.check_ok %status{{$}}
  util.status.check_ok %status
  // CHECK: util.status.check_ok %status, "m" {some.attr}
  util.status.check_ok %status, "m" {some.attr}
  util.return
}
