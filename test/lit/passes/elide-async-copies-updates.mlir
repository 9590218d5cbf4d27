// RUN: streamopt --elide-async-copies --split-input-file %s | filecheck %s

// An update is dropped when nothing can read the bytes it writes: its target storage is
// owned, no other name of it is used later or escaped, and its result is only written again
// on the same bytes or read elsewhere. Each case that fires comes with the reasons it must
// not.

// CHECK-LABEL: util.func public @overwritten_by_fill
util.func public @overwritten_by_fill(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  // CHECK: [[TARGET:%.+]] = stream.async.splat %c1_i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = stream.async.splat %c2_i32 : i32 -> !stream.resource<*>{%c4}
  // CHECK-NOT: stream.async.update
  %2 = stream.async.update %1, %0[%c0 to %c4] : !stream.resource<*>{%c4} -> %0 as !stream.resource<*>{%size}
  // CHECK: stream.async.fill %c3_i32, [[TARGET]][%c0 to %c4 for %c4]
  %3 = stream.async.fill %c3_i32, %2[%c0 to %c4 for %c4] : i32 -> %2 as !stream.resource<*>{%size}
  util.return %3 : !stream.resource<*>
}

// -----

// A read of other bytes (constant offsets) does not see the update; then a copy writes the
// same bytes again.

stream.executable private @ex {
  stream.executable.export public @read
}

// CHECK-LABEL: util.func public @read_elsewhere_then_copied_over
util.func public @read_elsewhere_then_copied_over(%other: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: [[TARGET:%.+]] = stream.async.splat
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%c16}
  %1 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%c4}
  // CHECK-NOT: stream.async.update
  %2 = stream.async.update %1, %0[%c0 to %c4] : !stream.resource<*>{%c4} -> %0 as !stream.resource<*>{%c16}
  // CHECK: stream.async.dispatch @ex::@read([[TARGET]][%c8 to %c16 for %c8])
  %3 = stream.async.dispatch @ex::@read(%2[%c8 to %c16 for %c8]) : (!stream.resource<*>{%c16}) -> !stream.resource<*>{%c16}
  // CHECK: stream.async.copy %{{.+}}[%c0 to %c4], [[TARGET]][%c0 to %c4]
  %4 = stream.async.copy %other[%c0 to %c4], %2[%c0 to %c4], %c4 : !stream.resource<*>{%c16} -> %2 as !stream.resource<*>{%c16}
  util.return %3, %4 : !stream.resource<*>, !stream.resource<*>
}

// -----

// The updated bytes are read.

stream.executable private @ex {
  stream.executable.export public @read
}

// CHECK-LABEL: util.func public @read_back
util.func public @read_back(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%c4}
  // CHECK: stream.async.update
  %2 = stream.async.update %1, %0[%c0 to %c4] : !stream.resource<*>{%c4} -> %0 as !stream.resource<*>{%size}
  %3 = stream.async.dispatch @ex::@read(%2[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  util.return %3 : !stream.resource<*>
}

// -----

// A copy into other bytes keeps the storage, and with it the updated bytes, under its result.

// CHECK-LABEL: util.func public @copied_elsewhere
util.func public @copied_elsewhere(%other: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%c16}
  %1 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%c4}
  // CHECK: stream.async.update
  %2 = stream.async.update %1, %0[%c0 to %c4] : !stream.resource<*>{%c4} -> %0 as !stream.resource<*>{%c16}
  %3 = stream.async.copy %other[%c0 to %c4], %2[%c4 to %c8], %c4 : !stream.resource<*>{%c16} -> %2 as !stream.resource<*>{%c16}
  util.return %3 : !stream.resource<*>
}

// -----

// An in-place dispatch over the same bytes reads them first.

stream.executable private @ex {
  stream.executable.export public @write
}

// CHECK-LABEL: util.func public @dispatched_over
util.func public @dispatched_over(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%c4}
  // CHECK: stream.async.update
  %2 = stream.async.update %1, %0[%c0 to %c4] : !stream.resource<*>{%c4} -> %0 as !stream.resource<*>{%size}
  %3 = stream.async.dispatch @ex::@write(%2[%c0 to %c4 for %c4]) : (!stream.resource<*>{%size}) -> %2{%size}
  util.return %3 : !stream.resource<*>
}

// -----

// The target is a public function's argument: the caller sees the bytes.

// CHECK-LABEL: util.func public @borrowed_target
util.func public @borrowed_target(%arg0: !stream.resource<*>, %size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %c3_i32 = arith.constant 3 : i32
  %1 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%c4}
  // CHECK: stream.async.update
  %2 = stream.async.update %1, %arg0[%c0 to %c4] : !stream.resource<*>{%c4} -> %arg0 as !stream.resource<*>{%size}
  %3 = stream.async.fill %c3_i32, %2[%c0 to %c4 for %c4] : i32 -> %2 as !stream.resource<*>{%size}
  util.return %3 : !stream.resource<*>
}

// -----

// The target's own name is read after the update (it is the same storage): that read sees
// the updated bytes.

stream.executable private @ex {
  stream.executable.export public @read
}

// CHECK-LABEL: util.func public @target_read_later
util.func public @target_read_later(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %c3_i32 = arith.constant 3 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%c4}
  // CHECK: stream.async.update
  %2 = stream.async.update %1, %0[%c0 to %c4] : !stream.resource<*>{%c4} -> %0 as !stream.resource<*>{%size}
  %3 = stream.async.dispatch @ex::@read(%0[%c0 to %c4 for %c4]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %4 = stream.async.fill %c3_i32, %2[%c0 to %c4 for %c4] : i32 -> %2 as !stream.resource<*>{%size}
  util.return %3, %4 : !stream.resource<*>, !stream.resource<*>
}

// -----

// The target was stored in a global before: whoever loads it may read the bytes.

util.global private mutable @g : !stream.resource<*>

// CHECK-LABEL: util.func public @target_escaped
util.func public @target_escaped(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %c3_i32 = arith.constant 3 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  util.global.store %0, @g : !stream.resource<*>
  %1 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%c4}
  // CHECK: stream.async.update
  %2 = stream.async.update %1, %0[%c0 to %c4] : !stream.resource<*>{%c4} -> %0 as !stream.resource<*>{%size}
  %3 = stream.async.fill %c3_i32, %2[%c0 to %c4 for %c4] : i32 -> %2 as !stream.resource<*>{%size}
  util.return %3 : !stream.resource<*>
}

// -----

// The result is handed on (returned): whoever gets it may read the bytes.

// CHECK-LABEL: util.func public @result_returned
util.func public @result_returned(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%c4}
  // CHECK: stream.async.update
  %2 = stream.async.update %1, %0[%c0 to %c4] : !stream.resource<*>{%c4} -> %0 as !stream.resource<*>{%size}
  util.return %2 : !stream.resource<*>
}
