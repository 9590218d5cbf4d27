// RUN: streamopt --canonicalize --split-input-file %s | filecheck %s

// An unused pure op goes.

// CHECK-LABEL: util.func public @unused_slice
util.func public @unused_slice(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK-NOT: stream.async.slice
  %1 = stream.async.slice %0[%c0 to %c4] : !stream.resource<*>{%size} -> !stream.resource<*>{%c4}
  util.return %0 : !stream.resource<*>
}

// -----

// A store writes its target in place; the target's other name reads the stored value after
// it, so the store stays although its own result is unused (IREE marks it Pure).

// CHECK-LABEL: util.func public @unused_store_result
util.func public @unused_store_result(%size: index, %value: i32) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<external>{%size}
  %1 = stream.async.transfer %0 : !stream.resource<external>{%size} -> !stream.resource<staging>{%size}
  // CHECK: stream.async.store
  %2 = stream.async.store %value, %1[%c0] : i32 -> %1 as !stream.resource<staging>{%size}
  %3 = stream.async.transfer %1 : !stream.resource<staging>{%size} -> !stream.resource<external>{%size}
  util.return %3 : !stream.resource<external>
}

// -----

// So does a dispatch that writes its operand in place.

stream.executable private @ex {
  stream.executable.export public @write
}

// CHECK-LABEL: util.func public @unused_in_place_dispatch
util.func public @unused_in_place_dispatch(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.dispatch @ex::@write
  %1 = stream.async.dispatch @ex::@write(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> %0{%size}
  util.return %0 : !stream.resource<*>
}
