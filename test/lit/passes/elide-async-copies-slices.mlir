// RUN: streamopt --elide-async-copies --split-input-file %s | filecheck %s
// RUN: streamopt --elide-async-copies --split-input-file --stats %s 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// A slice is folded into its consumers (each reads its range of the source in place) when
// they only read it, on the slice's device, and nothing writes, frees or leaks the sliced
// bytes of the source's storage, through any name, after the slice (docs/storage-model.md).

// CHECK-LABEL: util.func private @fold_into_copy_and_dispatch
// CHECK-SAME: ([[SRC:%.+]]: !stream.resource<*>
util.func private @fold_into_copy_and_dispatch(%src: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  // CHECK-NOT: stream.async.slice
  %slice = stream.async.slice %src[%c8 to %c16] : !stream.resource<*>{%c32} -> !stream.resource<*>{%c8}
  %dst = stream.async.alloca : !stream.resource<*>{%c8}
  // CHECK: stream.async.copy [[SRC]]{{\[}}%c8 to {{%.+}}{{\]}}, {{.+}} : !stream.resource<*>{%c32}
  %0 = stream.async.copy %slice[%c0 to %c8], %dst[%c0 to %c8], %c8 : !stream.resource<*>{%c8} -> %dst as !stream.resource<*>{%c8}
  // CHECK: [[START:%.+]] = arith.constant 12 : index
  // CHECK: stream.async.dispatch @ex::@read([[SRC]]{{\[}}[[START]] to {{%.+}} for %c4{{\]}}) : (!stream.resource<*>{%c32})
  %1 = stream.async.dispatch @ex::@read(%slice[%c4 to %c8 for %c4]) : (!stream.resource<*>{%c8}) -> !stream.resource<*>{%c8}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// Writes before the slice, and after it to other bytes, leave the sliced bytes as they were.

// CHECK-LABEL: util.func private @fold_writes_elsewhere
util.func private @fold_writes_elsewhere(%src: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.fill %c1_i32, %src[%c0 to %c32 for %c32] : i32 -> %src as !stream.resource<*>{%c32}
  // CHECK-NOT: stream.async.slice
  %slice = stream.async.slice %0[%c8 to %c16] : !stream.resource<*>{%c32} -> !stream.resource<*>{%c8}
  %1 = stream.async.dispatch @ex::@read(%slice[%c0 to %c8 for %c8]) : (!stream.resource<*>{%c8}) -> !stream.resource<*>{%c8}
  %2 = stream.async.fill %c1_i32, %0[%c16 to %c32 for %c16] : i32 -> %0 as !stream.resource<*>{%c32}
  util.return %1, %2 : !stream.resource<*>, !stream.resource<*>
}

// -----

// The write goes through a tied name of the source (the first fill's result): folding would
// let the consumer read the new bytes.

// CHECK-LABEL: util.func private @keep_write_through_tied_name
util.func private @keep_write_through_tied_name(%src: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: stream.async.slice
  %slice = stream.async.slice %src[%c0 to %c8] : !stream.resource<*>{%c32} -> !stream.resource<*>{%c8}
  %0 = stream.async.fill %c1_i32, %src[%c16 to %c24 for %c8] : i32 -> %src as !stream.resource<*>{%c32}
  %1 = stream.async.fill %c1_i32, %0[%c0 to %c8 for %c8] : i32 -> %0 as !stream.resource<*>{%c32}
  %2 = stream.async.dispatch @ex::@read(%slice[%c0 to %c8 for %c8]) : (!stream.resource<*>{%c8}) -> !stream.resource<*>{%c8}
  util.return %1, %2 : !stream.resource<*>, !stream.resource<*>
}
// STATS: kept slice at {{.+}}:60:12: the sliced bytes may change after the slice: 'stream.async.fill' at {{.+}}:62:8

// -----

// Written after the consumer, over the sliced bytes: kept (as IREE keeps it), whatever the
// order of the two.

// CHECK-LABEL: util.func private @keep_overlapping_write_after
util.func private @keep_overlapping_write_after(%src: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: stream.async.slice
  %slice = stream.async.slice %src[%c0 to %c8] : !stream.resource<*>{%c32} -> !stream.resource<*>{%c8}
  %0 = stream.async.dispatch @ex::@read(%slice[%c0 to %c8 for %c8]) : (!stream.resource<*>{%c8}) -> !stream.resource<*>{%c8}
  %1 = stream.async.fill %c1_i32, %src[%c0 to %c32 for %c32] : i32 -> %src as !stream.resource<*>{%c32}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// Handed to a callee that writes its argument: a write after the slice through another name.

// CHECK-LABEL: util.func private @writes_arg
util.func private @writes_arg(%arg: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.fill %c1_i32, %arg[%c0 to %c32 for %c32] : i32 -> %arg as !stream.resource<*>{%c32}
  util.return %0 : !stream.resource<*>
}
// CHECK-LABEL: util.func private @keep_callee_writes
util.func private @keep_callee_writes(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c1_i32 = arith.constant 1 : i32
  %src = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%c32}
  // CHECK: stream.async.slice
  %slice = stream.async.slice %src[%c0 to %c8] : !stream.resource<*>{%c32} -> !stream.resource<*>{%c8}
  %0 = util.call @writes_arg(%src) : (!stream.resource<*>) -> !stream.resource<*>
  %1 = stream.async.dispatch @ex::@read(%slice[%c0 to %c8 for %c8]) : (!stream.resource<*>{%c8}) -> !stream.resource<*>{%c8}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// Consumers that write the slice, or read it as a whole, need their own copy.

// CHECK-LABEL: util.func private @keep_consumer_writes
util.func private @keep_consumer_writes(%src: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: stream.async.slice
  %s0 = stream.async.slice %src[%c0 to %c8] : !stream.resource<*>{%c32} -> !stream.resource<*>{%c8}
  %0 = stream.async.fill %c1_i32, %s0[%c0 to %c8 for %c8] : i32 -> %s0 as !stream.resource<*>{%c8}
  // CHECK: stream.async.slice
  %s1 = stream.async.slice %src[%c0 to %c8] : !stream.resource<*>{%c32} -> !stream.resource<*>{%c8}
  %1 = stream.async.dispatch @ex::@write(%s1[%c0 to %c8 for %c8]) : (!stream.resource<*>{%c8}) -> %s1{%c8}
  // CHECK: stream.async.slice
  %s2 = stream.async.slice %src[%c0 to %c8] : !stream.resource<*>{%c32} -> !stream.resource<*>{%c8}
  %2 = stream.async.transfer %s2 : !stream.resource<*>{%c8} -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%c8}
  util.return %0, %1, %2 : !stream.resource<*>, !stream.resource<*>, !stream.resource<*>
}
// STATS-DAG: kept slice at {{.+}}: 'stream.async.fill' at {{.+}} reads the slice as a whole
// STATS-DAG: kept slice at {{.+}}: 'stream.async.dispatch' at {{.+}} writes the slice in place
// STATS-DAG: kept slice at {{.+}}: 'stream.async.transfer' at {{.+}} reads the slice as a whole

// -----

// A copy whose target is the source's own storage, and a consumer on another device.

// CHECK-LABEL: util.func private @keep_same_storage_or_device
util.func private @keep_same_storage_or_device(%src: !stream.resource<*>) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  // CHECK: stream.async.slice
  %s0 = stream.async.slice %src[%c0 to %c8] : !stream.resource<*>{%c32} -> !stream.resource<*>{%c8}
  %0 = stream.async.copy %s0[%c0 to %c8], %src[%c16 to %c24], %c8 : !stream.resource<*>{%c8} -> %src as !stream.resource<*>{%c32}
  // CHECK: stream.async.slice
  %s1 = stream.async.slice on(#hal.device.affinity<@dev_a>) %0[%c0 to %c8] : !stream.resource<*>{%c32} -> !stream.resource<*>{%c8}
  %1 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@read(%s1[%c0 to %c8 for %c8]) : (!stream.resource<*>{%c8}) -> !stream.resource<*>{%c8}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}
// STATS-DAG: kept slice at {{.+}}: 'stream.async.copy' at {{.+}} also uses the source's storage
// STATS-DAG: kept slice at {{.+}}: 'stream.async.dispatch' at {{.+}} runs on another device than the slice
