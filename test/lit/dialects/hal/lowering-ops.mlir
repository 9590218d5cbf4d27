// Round trip of the executable, buffer and status ops cmd-to-hal lowering emits.
//
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s

// CHECK-LABEL: util.func public @executables
util.func public @executables(%device: !hal.device, %n: index) -> (i64, index) {
  %c1 = arith.constant 1 : index
  // CHECK: %[[EXE:.+]] = hal.executable.lookup device(%arg0 : !hal.device) executable(@ex) : !hal.executable
  %0 = hal.executable.lookup device(%device : !hal.device) executable(@ex) : !hal.executable
  // CHECK: %[[ID:.+]] = hal.executable.lookup.function target(%[[EXE]] : !hal.executable) function(@ex::@variant::@fn) : i64
  %1 = hal.executable.lookup.function target(%0 : !hal.executable) function(@ex::@variant::@fn) : i64
  // CHECK: %[[X:.+]], %{{.+}}, %{{.+}} = hal.executable.calculate_workgroups device(%arg0 : !hal.device) target(@ex::@variant::@fn) workload([%c1, %arg1]) : index, index, index
  %2:3 = hal.executable.calculate_workgroups device(%device : !hal.device) target(@ex::@variant::@fn) workload([%c1, %n]) : index, index, index
  // CHECK: util.return %[[ID]], %[[X]] : i64, index
  util.return %1, %2#0 : i64, index
}

// -----

// CHECK-LABEL: util.func public @buffers
util.func public @buffers(%buffer: !hal.buffer, %n: index) -> index {
  %c0 = arith.constant 0 : index
  // CHECK: %[[SUB:.+]] = hal.buffer.subspan<%arg0 : !hal.buffer>[%c0, %arg1] : !hal.buffer
  %0 = hal.buffer.subspan<%buffer : !hal.buffer>[%c0, %n] : !hal.buffer
  // CHECK: %[[LEN:.+]] = hal.buffer.length<%[[SUB]] : !hal.buffer> : index
  %1 = hal.buffer.length<%0 : !hal.buffer> : index
  // CHECK: util.return %[[LEN]]
  util.return %1 : index
}

// -----

// CHECK-LABEL: util.func public @status
util.func public @status(%status: i32) {
  // CHECK: util.status.check_ok %arg0, "failed to wait on timepoint"
  util.status.check_ok %status, "failed to wait on timepoint"
  // CHECK: util.status.check_ok %arg0{{$}}
  util.status.check_ok %status
  util.return
}
