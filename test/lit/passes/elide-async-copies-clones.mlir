// RUN: streamopt --elide-async-copies --split-input-file %s | filecheck %s

// A clone that is the last use of an owned resource is not needed.

// CHECK-LABEL: util.func public @clone_last_use
util.func public @clone_last_use(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  // CHECK: %[[SPLAT:.+]] = stream.async.splat
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK-NOT: stream.async.clone
  %1 = stream.async.clone %0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  // CHECK: stream.async.fill %c2_i32, %[[SPLAT]]
  %2 = stream.async.fill %c2_i32, %1[%c0 to %size for %size] : i32 -> %1 as !stream.resource<*>{%size}
  util.return %2 : !stream.resource<*>
}

// -----

// The source is read after the clone and the clone is written: the copy protects the source.

// CHECK-LABEL: util.func public @clone_written_source_read
util.func public @clone_written_source_read(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.clone
  %1 = stream.async.clone %0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %2 = stream.async.fill %c2_i32, %1[%c0 to %size for %size] : i32 -> %1 as !stream.resource<*>{%size}
  util.return %0, %2 : !stream.resource<*>, !stream.resource<*>
}

// -----

// Neither side is ever written: sharing the storage is safe even though the source is used
// again.

// CHECK-LABEL: util.func public @clone_read_only
util.func public @clone_read_only(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK-NOT: stream.async.clone
  %1 = stream.async.clone %0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %2 = stream.async.dispatch @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %3 = stream.async.dispatch @ex::@read(%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  util.return %2, %3 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A clone of a loaded global that is then written in place must stay: removing it would write
// the global.

util.global private mutable @global : !stream.resource<*>

// CHECK-LABEL: util.func public @clone_global_mutated
util.func public @clone_global_mutated(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c2_i32 = arith.constant 2 : i32
  %0 = util.global.load @global : !stream.resource<*>
  // CHECK: stream.async.clone
  %1 = stream.async.clone %0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %2 = stream.async.fill %c2_i32, %1[%c0 to %size for %size] : i32 -> %1 as !stream.resource<*>{%size}
  util.return %2 : !stream.resource<*>
}

// -----

// A clone of a loaded global that is only read can share the global's storage.

util.global private mutable @read_only_global : !stream.resource<*>

// CHECK-LABEL: util.func public @clone_global_read
util.func public @clone_global_read(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %0 = util.global.load @read_only_global : !stream.resource<*>
  // CHECK-NOT: stream.async.clone
  %1 = stream.async.clone %0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %2 = stream.async.dispatch @ex::@read(%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  util.return %2 : !stream.resource<*>
}

// -----

// Another load of the same global written in place elsewhere: the global's storage is mutated,
// so a clone of it must stay even if its own result is only read.

util.global private mutable @shared_global : !stream.resource<*>

// CHECK-LABEL: util.func public @clone_global_written_elsewhere
util.func public @clone_global_written_elsewhere(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %0 = util.global.load @shared_global : !stream.resource<*>
  // CHECK: stream.async.clone
  %1 = stream.async.clone %0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %2 = stream.async.dispatch @ex::@read(%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  util.return %2 : !stream.resource<*>
}
util.func private @writer(%size: index) {
  %c0 = arith.constant 0 : index
  %c2_i32 = arith.constant 2 : i32
  %0 = util.global.load @shared_global : !stream.resource<*>
  %1 = stream.async.fill %c2_i32, %0[%c0 to %size for %size] : i32 -> %0 as !stream.resource<*>{%size}
  util.return
}

// -----

// Inside a loop, a clone of a value from outside runs every iteration: it is not the last use,
// and its result is written, so it stays.

// CHECK-LABEL: util.func public @clone_outer_in_loop
util.func public @clone_outer_in_loop(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0) -> (!stream.resource<*>) {
    // CHECK: stream.async.clone
    %2 = stream.async.clone %0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
    %3 = stream.async.fill %c2_i32, %2[%c0 to %size for %size] : i32 -> %2 as !stream.resource<*>{%size}
    scf.yield %3 : !stream.resource<*>
  }
  util.return %1 : !stream.resource<*>
}

// -----

// A clone that changes the lifetime is a real conversion.

// CHECK-LABEL: util.func public @clone_changes_lifetime
util.func public @clone_changes_lifetime(%size: index) -> !stream.resource<external> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.clone
  %1 = stream.async.clone %0 : !stream.resource<*>{%size} -> !stream.resource<external>{%size}
  util.return %1 : !stream.resource<external>
}

// -----

// Returned to the host only (a public function nothing here calls): the host gets the
// results once the call is done, when nothing here reads the source any more, and IREE's ABI
// does not promise results distinct storage, so a clone of a value still read here goes.

// CHECK-LABEL: util.func public @clone_returned
util.func public @clone_returned(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: [[SPLAT:%.+]] = stream.async.splat
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK-NOT: stream.async.clone
  %1 = stream.async.clone %0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  // CHECK: [[READ:%.+]] = stream.async.dispatch @ex::@read([[SPLAT]]
  %2 = stream.async.dispatch @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  // CHECK: util.return [[SPLAT]], [[READ]]
  util.return %1, %2 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A by-reference argument may be changed by the caller after the call: its clone stays.

// CHECK-LABEL: util.func private @clone_argument
util.func private @clone_argument(%arg0: !stream.resource<*>, %size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  // CHECK: stream.async.clone
  %0 = stream.async.clone %arg0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %1 = stream.async.dispatch @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  util.return %1 : !stream.resource<*>
}
util.func public @caller(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = util.call @clone_argument(%0, %size) : (!stream.resource<*>, index) -> !stream.resource<*>
  %2 = stream.async.fill %c2_i32, %0[%c0 to %size for %size] : i32 -> %0 as !stream.resource<*>{%size}
  util.return %1, %2 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A chain of clones collapses in one run: each removal makes the next one the last use.

// CHECK-LABEL: util.func public @clone_chain
util.func public @clone_chain(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  // CHECK: %[[SPLAT:.+]] = stream.async.splat
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK-NOT: stream.async.clone
  %1 = stream.async.clone %0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %2 = stream.async.clone %1 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %3 = stream.async.clone %2 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  // CHECK: stream.async.fill %c2_i32, %[[SPLAT]]
  %4 = stream.async.fill %c2_i32, %3[%c0 to %size for %size] : i32 -> %3 as !stream.resource<*>{%size}
  util.return %4 : !stream.resource<*>
}

// -----

// A clone of a same-lifetime transfer of borrowed storage (a non-consume import) stays even
// as the last use: a later elision may remove the transfer (IREE's, or this pass on a
// topology where the devices share memory), and the fill would then write the host's buffer.

// CHECK-LABEL: util.func public @clone_of_borrowed_transfer
util.func public @clone_of_borrowed_transfer(%buffer: !util.buffer) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c7_i32 = arith.constant 7 : i32
  %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %buffer : !util.buffer -> tensor<4xf32> in !stream.resource<external>{%c16}
  // CHECK: [[COPY:%.+]] = stream.async.transfer
  %1 = stream.async.transfer %0 : !stream.resource<external>{%c16} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%c16}
  // CHECK: [[CLONE:%.+]] = stream.async.clone [[COPY]]
  %2 = stream.async.clone %1 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  // CHECK: stream.async.fill %c7_i32, [[CLONE]]
  %3 = stream.async.fill %c7_i32, %2[%c0 to %c16 for %c16] : i32 -> %2 as !stream.resource<external>{%c16}
  util.return %3 : !stream.resource<external>
}

// -----

// Imported with consume, the storage is owned: the transfer becomes a move and the clone of
// its result, its last use, goes.

// CHECK-LABEL: util.func public @clone_of_owned_transfer
util.func public @clone_of_owned_transfer(%buffer: !util.buffer) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c7_i32 = arith.constant 7 : i32
  %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) consume %buffer : !util.buffer -> tensor<4xf32> in !stream.resource<external>{%c16}
  // CHECK: [[MOVED:%.+]] = stream.async.move
  %1 = stream.async.transfer %0 : !stream.resource<external>{%c16} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%c16}
  // CHECK-NOT: stream.async.clone
  %2 = stream.async.clone %1 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  // CHECK: stream.async.fill %c7_i32, [[MOVED]]
  %3 = stream.async.fill %c7_i32, %2[%c0 to %c16 for %c16] : i32 -> %2 as !stream.resource<external>{%c16}
  util.return %3 : !stream.resource<external>
}

// -----

// A clone of storage a transfer made, decided in the sweep that turns the transfer into a
// move: the clone's source is now the move's result (the transfer is gone), still owned, and
// the clone is its last use.

// CHECK-LABEL: util.func public @clone_of_a_transfer_moved_in_the_same_sweep
util.func public @clone_of_a_transfer_moved_in_the_same_sweep(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: [[MOVED:%.+]] = stream.async.move
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  // CHECK: [[WRITTEN:%.+]] = stream.async.dispatch {{.+}} -> [[MOVED]]{%arg0}
  %2 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@update(%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> %1{%size}
  // CHECK-NOT: stream.async.clone
  // CHECK: util.return [[WRITTEN]]
  %3 = stream.async.clone on(#hal.device.affinity<@dev_b>) %2 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  util.return %3 : !stream.resource<*>
}

// -----

// The same clone when the move's storage is returned too and the clone is written: it stays.

// CHECK-LABEL: util.func public @clone_of_a_transfer_moved_still_used
util.func public @clone_of_a_transfer_moved_still_used(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.move
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %2 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@update(%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> %1{%size}
  // CHECK: stream.async.clone
  %3 = stream.async.clone on(#hal.device.affinity<@dev_b>) %2 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %4 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@update(%3[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> %3{%size}
  util.return %2, %4 : !stream.resource<*>, !stream.resource<*>
}

// -----

// Two imports of one buffer name the same storage (IREE ties an import to its buffer): a
// clone of one must stay when the other is written in place before the clone is read.

// CHECK-LABEL: util.func public @clone_of_a_second_import
util.func public @clone_of_a_second_import(%buffer: !hal.buffer_view, %value: i32) -> (!stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  // CHECK: stream.tensor.import
  %0 = stream.tensor.import %buffer : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK-NEXT: [[SECOND:%.+]] = stream.tensor.import
  %1 = stream.tensor.import %buffer : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: stream.async.clone [[SECOND]]
  %2 = stream.async.clone %1 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %3 = stream.async.fill %value, %0[%c0 to %c16 for %c16] : i32 -> %0 as !stream.resource<external>{%c16}
  util.return %2, %3 : !stream.resource<external>, !stream.resource<external>
}

// -----

// The same for a buffer exported from a resource and imported again.

// CHECK-LABEL: util.func public @clone_of_a_reimport
util.func public @clone_of_a_reimport(%size: index, %value: i32) -> (!stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<external>{%size}
  %1 = stream.tensor.export %0 : tensor<4xi32> in !stream.resource<external>{%size} -> !hal.buffer_view
  // CHECK: [[IMPORTED:%.+]] = stream.tensor.import
  %2 = stream.tensor.import %1 : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%size}
  // CHECK: stream.async.clone [[IMPORTED]]
  %3 = stream.async.clone %2 : !stream.resource<external>{%size} -> !stream.resource<external>{%size}
  %4 = stream.async.fill %value, %0[%c0 to %size for %size] : i32 -> %0 as !stream.resource<external>{%size}
  util.return %3, %4 : !stream.resource<external>, !stream.resource<external>
}

// -----

// A view's buffer and a subspan of it are the view's storage (hal.buffer_view.buffer and
// hal.buffer.subspan tie their result to their operand): clones of their imports stay when
// the view's import is written in place before the clones are read.

// CHECK-LABEL: util.func public @clone_of_an_import_of_a_views_buffer
util.func public @clone_of_an_import_of_a_views_buffer(%view: !hal.buffer_view, %value: i32) -> (!stream.resource<external>, !stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %buffer = hal.buffer_view.buffer<%view : !hal.buffer_view> : !hal.buffer
  %span = hal.buffer.subspan<%buffer : !hal.buffer>[%c0, %c16] : !hal.buffer
  %0 = stream.tensor.import %view : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: [[BUFFER:%.+]] = stream.tensor.import %buffer
  %1 = stream.tensor.import %buffer : !hal.buffer -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: [[SPAN:%.+]] = stream.tensor.import %span
  %2 = stream.tensor.import %span : !hal.buffer -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: stream.async.clone [[BUFFER]]
  %3 = stream.async.clone %1 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  // CHECK: stream.async.clone [[SPAN]]
  %4 = stream.async.clone %2 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %5 = stream.async.fill %value, %0[%c0 to %c16 for %c16] : i32 -> %0 as !stream.resource<external>{%c16}
  util.return %3, %4, %5 : !stream.resource<external>, !stream.resource<external>, !stream.resource<external>
}

// -----

// So is a view made of a buffer (hal.buffer_view.create): the clone of its import stays when
// the buffer's import is written in place before the clone is read.

// CHECK-LABEL: util.func public @clone_of_an_import_of_a_view_of_the_buffer
util.func public @clone_of_an_import_of_a_view_of_the_buffer(%buffer: !hal.buffer, %value: i32) -> (!stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %element_type = hal.element_type<i32> : i32
  %encoding = hal.encoding_type<dense_row_major> : i32
  %view = hal.buffer_view.create buffer(%buffer : !hal.buffer)[%c0, %c16] shape([%c4]) type(%element_type) encoding(%encoding) : !hal.buffer_view
  %0 = stream.tensor.import %buffer : !hal.buffer -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: [[VIEW:%.+]] = stream.tensor.import %view
  %1 = stream.tensor.import %view : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: stream.async.clone [[VIEW]]
  %2 = stream.async.clone %1 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %3 = stream.async.fill %value, %0[%c0 to %c16 for %c16] : i32 -> %0 as !stream.resource<external>{%c16}
  util.return %2, %3 : !stream.resource<external>, !stream.resource<external>
}

// -----

// Nothing writes the view's storage here: the clone of the import of its buffer goes.

// CHECK-LABEL: util.func public @clone_of_an_unwritten_import_of_a_views_buffer
util.func public @clone_of_an_unwritten_import_of_a_views_buffer(%view: !hal.buffer_view) -> (!stream.resource<external>, !stream.resource<external>) {
  %c16 = arith.constant 16 : index
  %buffer = hal.buffer_view.buffer<%view : !hal.buffer_view> : !hal.buffer
  %0 = stream.tensor.import %view : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: [[BUFFER:%.+]] = stream.tensor.import %buffer
  %1 = stream.tensor.import %buffer : !hal.buffer -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK-NOT: stream.async.clone
  %2 = stream.async.clone %1 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  // CHECK: util.return %{{.+}}, [[BUFFER]]
  util.return %0, %2 : !stream.resource<external>, !stream.resource<external>
}

// -----

// The buffer of a view stream.tensor.export made is the exported resource's storage.

// CHECK-LABEL: util.func public @clone_of_a_reimport_of_a_views_buffer
util.func public @clone_of_a_reimport_of_a_views_buffer(%value: i32) -> (!stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<external>{%c16}
  %1 = stream.tensor.export %0 : tensor<4xi32> in !stream.resource<external>{%c16} -> !hal.buffer_view
  %2 = hal.buffer_view.buffer<%1 : !hal.buffer_view> : !hal.buffer
  // CHECK: [[IMPORTED:%.+]] = stream.tensor.import
  %3 = stream.tensor.import %2 : !hal.buffer -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: stream.async.clone [[IMPORTED]]
  %4 = stream.async.clone %3 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %5 = stream.async.fill %value, %0[%c0 to %c16 for %c16] : i32 -> %0 as !stream.resource<external>{%c16}
  util.return %4, %5 : !stream.resource<external>, !stream.resource<external>
}

// -----

// A buffer from outside (an argument, a select, a global) may be any buffer the host holds:
// two arguments may be one view, so the clone of one's import stays when the other's import
// is written in place before the clone is read.

// CHECK-LABEL: util.func public @clone_of_an_import_of_another_argument
util.func public @clone_of_an_import_of_another_argument(%a: !hal.buffer_view, %b: !hal.buffer_view, %value: i32) -> (!stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %0 = stream.tensor.import %a : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: [[B:%.+]] = stream.tensor.import %arg1
  %1 = stream.tensor.import %b : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: stream.async.clone [[B]]
  %2 = stream.async.clone %1 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %3 = stream.async.fill %value, %0[%c0 to %c16 for %c16] : i32 -> %0 as !stream.resource<external>{%c16}
  util.return %2, %3 : !stream.resource<external>, !stream.resource<external>
}

// -----

// The same for a view an arith.select picks (here the same view either way).

// CHECK-LABEL: util.func public @clone_of_an_import_of_a_selected_view
util.func public @clone_of_an_import_of_a_selected_view(%a: !hal.buffer_view, %c: i1, %value: i32) -> (!stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %view = arith.select %c, %a, %a : !hal.buffer_view
  %0 = stream.tensor.import %a : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: [[SELECTED:%.+]] = stream.tensor.import %view
  %1 = stream.tensor.import %view : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: stream.async.clone [[SELECTED]]
  %2 = stream.async.clone %1 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %3 = stream.async.fill %value, %0[%c0 to %c16 for %c16] : i32 -> %0 as !stream.resource<external>{%c16}
  util.return %2, %3 : !stream.resource<external>, !stream.resource<external>
}

// -----

// And across functions: the callee imports the view it is passed and fills it in place
// before the caller's clone of its own import of the view is read.

util.func private @fill_view(%view: !hal.buffer_view, %value: i32) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %0 = stream.tensor.import %view : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  %1 = stream.async.fill %value, %0[%c0 to %c16 for %c16] : i32 -> %0 as !stream.resource<external>{%c16}
  util.return %1 : !stream.resource<external>
}

// CHECK-LABEL: util.func public @clone_of_an_import_filled_by_a_callee
util.func public @clone_of_an_import_filled_by_a_callee(%view: !hal.buffer_view, %value: i32) -> (!stream.resource<external>, !stream.resource<external>) {
  %c16 = arith.constant 16 : index
  // CHECK: [[IMPORTED:%.+]] = stream.tensor.import %arg0
  %0 = stream.tensor.import %view : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: stream.async.clone [[IMPORTED]]
  %1 = stream.async.clone %0 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %2 = util.call @fill_view(%view, %value) : (!hal.buffer_view, i32) -> !stream.resource<external>
  util.return %1, %2 : !stream.resource<external>, !stream.resource<external>
}

// -----

// A view stream.tensor.export made that goes somewhere other than an import (here a global)
// may come back as a buffer from outside: the clone of the loaded view's import stays when
// the exported resource is filled in place before the clone is read.

util.global private mutable @view : !hal.buffer_view

// CHECK-LABEL: util.func public @clone_of_an_import_of_an_exported_view_from_a_global
util.func public @clone_of_an_import_of_an_exported_view_from_a_global(%value: i32) -> (!stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<external>{%c16}
  %1 = stream.tensor.export %0 : tensor<4xi32> in !stream.resource<external>{%c16} -> !hal.buffer_view
  util.global.store %1, @view : !hal.buffer_view
  %2 = util.global.load @view : !hal.buffer_view
  // CHECK: [[LOADED:%.+]] = stream.tensor.import
  %3 = stream.tensor.import %2 : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: stream.async.clone [[LOADED]]
  %4 = stream.async.clone %3 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %5 = stream.async.fill %value, %0[%c0 to %c16 for %c16] : i32 -> %0 as !stream.resource<external>{%c16}
  util.return %4, %5 : !stream.resource<external>, !stream.resource<external>
}

// -----

// A view a function exports and returns to a caller here may come back as a buffer from
// outside: the caller's clone of its import stays when the caller fills the resource the
// callee exported.

util.func private @make_exported(%value: i32) -> (!hal.buffer_view, !stream.resource<external>) {
  %c16 = arith.constant 16 : index
  %0 = stream.async.splat %value : i32 -> !stream.resource<external>{%c16}
  %1 = stream.tensor.export %0 : tensor<4xi32> in !stream.resource<external>{%c16} -> !hal.buffer_view
  util.return %1, %0 : !hal.buffer_view, !stream.resource<external>
}

// CHECK-LABEL: util.func public @clone_of_an_import_of_a_returned_export
util.func public @clone_of_an_import_of_a_returned_export(%value: i32) -> (!stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c9_i32 = arith.constant 9 : i32
  %view, %resource = util.call @make_exported(%value) : (i32) -> (!hal.buffer_view, !stream.resource<external>)
  // CHECK: [[IMPORTED:%.+]] = stream.tensor.import
  %0 = stream.tensor.import %view : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: stream.async.clone [[IMPORTED]]
  %1 = stream.async.clone %0 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %2 = stream.async.fill %c9_i32, %resource[%c0 to %c16 for %c16] : i32 -> %resource as !stream.resource<external>{%c16}
  util.return %1, %2 : !stream.resource<external>, !stream.resource<external>
}

// -----

// A view returned from a function nothing here calls goes to the host, which has it only
// once the program is done: filling the exported resource leaves an argument's import
// alone, and its clone goes.

// CHECK-LABEL: util.func public @clone_of_an_argument_beside_a_returned_export
util.func public @clone_of_an_argument_beside_a_returned_export(%a: !hal.buffer_view, %value: i32) -> (!stream.resource<external>, !stream.resource<external>, !hal.buffer_view) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: [[A:%.+]] = stream.tensor.import %arg0
  %0 = stream.tensor.import %a : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK-NOT: stream.async.clone
  %1 = stream.async.clone %0 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %2 = stream.async.splat %c1_i32 : i32 -> !stream.resource<external>{%c16}
  %3 = stream.tensor.export %2 : tensor<4xi32> in !stream.resource<external>{%c16} -> !hal.buffer_view
  %4 = stream.async.fill %value, %2[%c0 to %c16 for %c16] : i32 -> %2 as !stream.resource<external>{%c16}
  // CHECK: util.return [[A]],
  util.return %1, %4, %3 : !stream.resource<external>, !stream.resource<external>, !hal.buffer_view
}

// -----

// An exported view that only an import uses is the exported resource, no buffer from
// outside: filling the resource leaves an argument's import alone, and its clone goes.

// CHECK-LABEL: util.func public @clone_of_an_argument_beside_an_exported_view
util.func public @clone_of_an_argument_beside_an_exported_view(%a: !hal.buffer_view, %value: i32) -> (!stream.resource<external>, !stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: [[A:%.+]] = stream.tensor.import %arg0
  %0 = stream.tensor.import %a : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK-NOT: stream.async.clone
  %1 = stream.async.clone %0 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %2 = stream.async.splat %c1_i32 : i32 -> !stream.resource<external>{%c16}
  %3 = stream.tensor.export %2 : tensor<4xi32> in !stream.resource<external>{%c16} -> !hal.buffer_view
  %4 = stream.tensor.import %3 : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  %5 = stream.async.fill %value, %2[%c0 to %c16 for %c16] : i32 -> %2 as !stream.resource<external>{%c16}
  // CHECK: util.return [[A]],
  util.return %1, %4, %5 : !stream.resource<external>, !stream.resource<external>, !stream.resource<external>
}

// -----

// A consume import of a view an export made is still the exported resource (the program
// holds both names): the clone of the import stays when the resource is filled in place.

// CHECK-LABEL: util.func public @clone_of_a_resource_reimported_with_consume
util.func public @clone_of_a_resource_reimported_with_consume(%value: i32) -> (!stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<external>{%c16}
  %1 = stream.tensor.export %0 : tensor<4xi32> in !stream.resource<external>{%c16} -> !hal.buffer_view
  // CHECK: [[IMPORTED:%.+]] = stream.tensor.import consume
  %2 = stream.tensor.import consume %1 : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: stream.async.clone [[IMPORTED]]
  %3 = stream.async.clone %2 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %4 = stream.async.fill %value, %0[%c0 to %c16 for %c16] : i32 -> %0 as !stream.resource<external>{%c16}
  util.return %3, %4 : !stream.resource<external>, !stream.resource<external>
}

// -----

// A consume import that alone names its buffer was handed over by the caller: no other
// argument is that buffer, so filling it leaves another argument's import alone, and the
// clone of that goes. (IREE's pass keeps this clone; it does not use the handover.)

// CHECK-LABEL: util.func public @clone_of_an_argument_beside_a_consumed_one
util.func public @clone_of_an_argument_beside_a_consumed_one(%a: !hal.buffer_view, %b: !hal.buffer_view, %value: i32) -> (!stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %0 = stream.tensor.import consume %a : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK: [[B:%.+]] = stream.tensor.import %arg1
  %1 = stream.tensor.import %b : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
  // CHECK-NOT: stream.async.clone
  %2 = stream.async.clone %1 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  %3 = stream.async.fill %value, %0[%c0 to %c16 for %c16] : i32 -> %0 as !stream.resource<external>{%c16}
  // CHECK: util.return [[B]],
  util.return %2, %3 : !stream.resource<external>, !stream.resource<external>
}
// -----

// An execution region's untied result that yields a capture is the captured storage
// (stream.yield hands it over): its clone stays when the capture is written in place later.

// CHECK-LABEL: util.func public @clone_of_a_yielded_capture
util.func public @clone_of_a_yielded_capture(%size: index, %value: i32) -> (!stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<external>{%size}
  %1, %tp = stream.async.execute with(%0 as %captured: !stream.resource<external>{%size}) -> !stream.resource<external>{%size} {
    stream.yield %captured : !stream.resource<external>{%size}
  } => !stream.timepoint
  // CHECK: [[AWAITED:%.+]] = stream.timepoint.await
  %2 = stream.timepoint.await %tp => %1 : !stream.resource<external>{%size}
  // CHECK: stream.async.clone [[AWAITED]]
  %3 = stream.async.clone %2 : !stream.resource<external>{%size} -> !stream.resource<external>{%size}
  %4 = stream.async.fill %value, %0[%c0 to %size for %size] : i32 -> %0 as !stream.resource<external>{%size}
  util.return %3, %4 : !stream.resource<external>, !stream.resource<external>
}
