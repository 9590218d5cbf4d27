// RUN: streamopt --elide-async-copies --split-input-file %s | filecheck %s
// RUN: streamopt --elide-async-copies --split-input-file --stats %s 2>&1 >/dev/null | filecheck --check-prefix=STATS %s

// Same-lifetime transfers of borrowed storage (a public function's argument, a non-consume
// import) are removed when nothing can tell the two storages apart: neither side is ever
// written, freed or leaked, and the result goes back to the host only (IREE's ABI does not
// promise results storage distinct from the arguments). Each case that fires comes with the
// reasons it must not.

// CHECK-LABEL: util.func public @borrowed_same_device
// CHECK-SAME: ([[ARG:%.+]]: !stream.resource<external>)
util.func public @borrowed_same_device(%arg0: !stream.resource<external>) -> !stream.resource<external> {
  %c16 = arith.constant 16 : index
  // CHECK-NOT: stream.async.transfer
  %0 = stream.async.transfer %arg0 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  // CHECK: util.return [[ARG]]
  util.return %0 : !stream.resource<external>
}

// -----

// The copy is written in place: the caller's argument would change with it.

stream.executable private @ex {
  stream.executable.export public @write
}

// CHECK-LABEL: util.func public @borrowed_copy_written
util.func public @borrowed_copy_written(%arg0: !stream.resource<external>) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  // CHECK: [[COPY:%.+]] = stream.async.transfer
  %0 = stream.async.transfer %arg0 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  // CHECK: stream.async.dispatch @ex::@write([[COPY]]
  %1 = stream.async.dispatch @ex::@write(%0[%c0 to %c16 for %c16]) : (!stream.resource<external>{%c16}) -> %0{%c16}
  util.return %1 : !stream.resource<external>
}
// STATS-DAG: kept transfer at {{.+}}borrowed.mlir:[[# @LINE - 5]]:{{.+}}: source storage is not owned (argument of public function '@borrowed_copy_written'); and the copy is changed by 'stream.async.dispatch'

// -----

// The source is written after the transfer (an in-place fill of the argument): the copy must
// keep the bytes from before.

// CHECK-LABEL: util.func public @borrowed_source_written_later
util.func public @borrowed_source_written_later(%arg0: !stream.resource<external>) -> (!stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c7_i32 = arith.constant 7 : i32
  // CHECK: [[COPY:%.+]] = stream.async.transfer
  %0 = stream.async.transfer %arg0 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %1 = stream.async.fill %c7_i32, %arg0[%c0 to %c16 for %c16] : i32 -> %arg0 as !stream.resource<external>{%c16}
  // CHECK: util.return [[COPY]]
  util.return %0, %1 : !stream.resource<external>, !stream.resource<external>
}
// STATS-DAG: kept transfer at {{.+}}borrowed.mlir:[[# @LINE - 5]]:{{.+}}: source storage is not owned (argument of public function '@borrowed_source_written_later'); and the source is changed by 'stream.async.fill'

// -----

// Returned to a caller in the module, which may write what it gets back in place, believing
// it owns it: the transfer stays.

// CHECK-LABEL: util.func public @borrowed_returned_to_caller
util.func public @borrowed_returned_to_caller(%arg0: !stream.resource<external>) -> !stream.resource<external> {
  %c16 = arith.constant 16 : index
  // CHECK: stream.async.transfer
  %0 = stream.async.transfer %arg0 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  util.return %0 : !stream.resource<external>
}
// STATS-DAG: kept transfer at {{.+}}borrowed.mlir:[[# @LINE - 3]]:{{.+}}: source storage is not owned (argument of public function '@borrowed_returned_to_caller'); and the copy is changed by 'util.return'
util.func public @caller(%arg0: !stream.resource<external>) -> !stream.resource<external> {
  %0 = util.call @borrowed_returned_to_caller(%arg0) : (!stream.resource<external>) -> !stream.resource<external>
  util.return %0 : !stream.resource<external>
}

// -----

// A non-consume import on @dev_a sent to @dev_b, which shares @dev_a's memory: the transfer
// names no source, which is where the import was made.

module attributes {stream.topology = #hal.device.topology<links = [(@dev_a -> @dev_b = {unified_memory = true})]>} {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device
  // CHECK-LABEL: util.func public @borrowed_import_unified
  util.func public @borrowed_import_unified(%buffer: !util.buffer) -> !stream.resource<external> {
    %c16 = arith.constant 16 : index
    // CHECK: [[IMPORTED:%.+]] = stream.tensor.import
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %buffer : !util.buffer -> tensor<4xf32> in !stream.resource<external>{%c16}
    // CHECK-NOT: stream.async.transfer
    %1 = stream.async.transfer %0 : !stream.resource<external>{%c16} -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%c16}
    // CHECK: util.return [[IMPORTED]]
    util.return %1 : !stream.resource<external>
  }
}

// -----

// The other way round the link is not unified: @dev_a cannot use @dev_b's memory.

module attributes {stream.topology = #hal.device.topology<links = [(@dev_a -> @dev_b = {unified_memory = true})]>} {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device
  // CHECK-LABEL: util.func public @borrowed_import_not_unified
  util.func public @borrowed_import_not_unified(%buffer: !util.buffer) -> !stream.resource<external> {
    %c16 = arith.constant 16 : index
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %buffer : !util.buffer -> tensor<4xf32> in !stream.resource<external>{%c16}
    // CHECK: stream.async.transfer
    %1 = stream.async.transfer %0 : !stream.resource<external>{%c16} -> to(#hal.device.affinity<@dev_a>) !stream.resource<external>{%c16}
    util.return %1 : !stream.resource<external>
  }
}

// -----

// A chain @dev_a -> @dev_b -> @dev_c over unified links, where @dev_c does not share
// @dev_a's memory: once the first transfer is removed, the storage is still @dev_a's, so the
// second stays (IREE 3.13 removes both, and @dev_c would use memory it cannot reach).

module attributes {stream.topology = #hal.device.topology<links = [(@dev_a -> @dev_b = {unified_memory = true}), (@dev_b -> @dev_c = {unified_memory = true}), (@dev_a -> @dev_c = {})]>} {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device
  util.global private @dev_c : !hal.device
  // CHECK-LABEL: util.func public @unified_chain_leaves_home
  // CHECK-SAME: ([[ARG:%.+]]: !stream.resource<*>)
  util.func public @unified_chain_leaves_home(%arg0: !stream.resource<*>) -> !stream.resource<*> {
    %c16 = arith.constant 16 : index
    %0 = stream.async.transfer %arg0 : !stream.resource<*>{%c16} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%c16}
    // CHECK: [[LAST:%.+]] = stream.async.transfer [[ARG]] : !stream.resource<*>{%c16} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_c>)
    %1 = stream.async.transfer %0 : !stream.resource<*>{%c16} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<*>{%c16}
    // CHECK: util.return [[LAST]]
    util.return %1 : !stream.resource<*>
  }
}
// STATS-DAG: kept transfer at {{.+}}borrowed.mlir:[[# @LINE - 5]]:{{.+}}: source storage is not owned (argument of public function '@unified_chain_leaves_home'); and the storage lives in the memory of '@dev_a', which '@dev_c' does not share (a transfer before this one was removed)

// -----

// A consume import takes over a buffer nothing else names. The buffer of a view is named by
// the view too (hal.buffer_view.buffer ties it to the view), and the view goes back to the
// host: the transfer stays, or the fill would write the view's bytes.

// CHECK-LABEL: util.func public @consume_import_of_a_views_buffer
util.func public @consume_import_of_a_views_buffer(%view: !hal.buffer_view) -> (!stream.resource<external>, !hal.buffer_view) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c7_i32 = arith.constant 7 : i32
  %buffer = hal.buffer_view.buffer<%view : !hal.buffer_view> : !hal.buffer
  %0 = stream.tensor.import consume %buffer : !hal.buffer -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: [[COPY:%.+]] = stream.async.transfer
  %1 = stream.async.transfer %0 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  // CHECK: stream.async.fill %c7_i32, [[COPY]]
  %2 = stream.async.fill %c7_i32, %1[%c0 to %c16 for %c16] : i32 -> %1 as !stream.resource<external>{%c16}
  util.return %2, %view : !stream.resource<external>, !hal.buffer_view
}
// STATS-DAG: kept transfer at {{.+}}borrowed.mlir:[[# @LINE - 5]]:{{.+}}: source storage is not owned (imported buffer has other uses or names); and the copy is changed by 'stream.async.fill'

// -----

// A view imported with consume and named by nothing else is owned: the transfer goes.

// CHECK-LABEL: util.func public @consume_import_of_a_view
util.func public @consume_import_of_a_view(%view: !hal.buffer_view) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c7_i32 = arith.constant 7 : i32
  // CHECK: [[IMPORTED:%.+]] = stream.tensor.import consume
  %0 = stream.tensor.import consume %view : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK-NOT: stream.async.transfer
  %1 = stream.async.transfer %0 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  // CHECK: stream.async.fill %c7_i32, [[IMPORTED]]
  %2 = stream.async.fill %c7_i32, %1[%c0 to %c16 for %c16] : i32 -> %1 as !stream.resource<external>{%c16}
  util.return %2 : !stream.resource<external>
}
