// RUN: streamopt --elide-async-copies --split-input-file %s | filecheck %s

// A transfer that is the last use of a fresh resource becomes a move.

// CHECK-LABEL: util.func public @straight_line
util.func public @straight_line(%size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SPLAT:.+]] = stream.async.splat
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: %[[MOVED:.+]] = stream.async.move %[[SPLAT]] : !stream.resource<*>{%arg0} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%arg0}
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  // CHECK: util.return %[[MOVED]]
  util.return %1 : !stream.resource<*>
}

// -----

// A transfer followed by another use of its source must copy.

// CHECK-LABEL: util.func public @used_after
util.func public @used_after(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.transfer
  // CHECK-NOT: stream.async.move
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// With two transfers of one source only the later one may move.

// CHECK-LABEL: util.func public @two_transfers
util.func public @two_transfers(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SPLAT:.+]] = stream.async.splat
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.transfer %[[SPLAT]] {{.*}} to(#hal.device.affinity<@dev_b>)
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  // CHECK: stream.async.move %[[SPLAT]] {{.*}} to(#hal.device.affinity<@dev_c>)
  %2 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<*>{%size}
  util.return %1, %2 : !stream.resource<*>, !stream.resource<*>
}

// -----

// Arguments of public functions are borrowed from the caller.

// CHECK-LABEL: util.func public @public_argument
util.func public @public_argument(%arg0: !stream.resource<*>, %size: index) -> !stream.resource<*> {
  // CHECK: stream.async.transfer %arg0
  %0 = stream.async.transfer %arg0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}

// -----

// A private function whose every caller passes a last use takes its argument by value.

// CHECK-LABEL: util.func private @by_value
util.func private @by_value(%arg0: !stream.resource<*>, %size: index) -> !stream.resource<*> {
  // CHECK: stream.async.move %arg0
  %0 = stream.async.transfer %arg0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}
// CHECK-LABEL: util.func public @all_callers_last_use
util.func public @all_callers_last_use(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = util.call @by_value(%0, %size) : (!stream.resource<*>, index) -> !stream.resource<*>
  %2 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %3 = util.call @by_value(%2, %size) : (!stream.resource<*>, index) -> !stream.resource<*>
  util.return %1, %3 : !stream.resource<*>, !stream.resource<*>
}

// -----

// One caller keeps using what it passed: the argument is by reference.

// CHECK-LABEL: util.func private @by_reference
util.func private @by_reference(%arg0: !stream.resource<*>, %size: index) -> !stream.resource<*> {
  // CHECK: stream.async.transfer %arg0
  %0 = stream.async.transfer %arg0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}
// CHECK-LABEL: util.func public @mixed_callers
util.func public @mixed_callers(%size: index) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<*>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = util.call @by_reference(%0, %size) : (!stream.resource<*>, index) -> !stream.resource<*>
  %2 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %3 = util.call @by_reference(%2, %size) : (!stream.resource<*>, index) -> !stream.resource<*>
  util.return %1, %2, %3 : !stream.resource<*>, !stream.resource<*>, !stream.resource<*>
}

// -----

// A loaded global is shared storage: it never moves.

util.global private mutable @global : !stream.resource<*>

// CHECK-LABEL: util.func public @global_load
util.func public @global_load(%size: index) -> !stream.resource<*> {
  %0 = util.global.load @global : !stream.resource<*>
  // CHECK: stream.async.transfer
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %1 : !stream.resource<*>
}

// -----

// Storing the source in a global before the transfer leaks it: later loads see it.

util.global private mutable @stored : !stream.resource<*>

// CHECK-LABEL: util.func public @stored_before
util.func public @stored_before(%size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  util.global.store %0, @stored : !stream.resource<*>
  // CHECK: stream.async.transfer
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %1 : !stream.resource<*>
}

// -----

// Storing the source after the transfer is a later use.

util.global private mutable @stored_later : !stream.resource<*>

// CHECK-LABEL: util.func public @stored_after
util.func public @stored_after(%size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.transfer
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.global.store %0, @stored_later : !stream.resource<*>
  util.return %1 : !stream.resource<*>
}

// -----

// An import that consumes its buffer owns the storage; a plain import borrows it.

// CHECK-LABEL: util.func public @imports
util.func public @imports(%buffer0: !hal.buffer_view, %buffer1: !hal.buffer_view, %size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %0 = stream.tensor.import consume %buffer0 : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%size}
  %1 = stream.tensor.import %buffer1 : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%size}
  // CHECK: stream.async.move %{{.+}} : !stream.resource<external>{%arg2} from(#hal.device.affinity<@dev_a>)
  %2 = stream.async.transfer %0 : !stream.resource<external>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  // CHECK: stream.async.transfer %{{.+}} : !stream.resource<external>{%arg2} from(#hal.device.affinity<@dev_c>)
  %3 = stream.async.transfer %1 : !stream.resource<external>{%size} from(#hal.device.affinity<@dev_c>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %2, %3 : !stream.resource<*>, !stream.resource<*>
}

// -----

// In-place users before the transfer are fine; the transfer moves the written storage.

// CHECK-LABEL: util.func public @tied_before
util.func public @tied_before(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: %[[FILLED:.+]] = stream.async.fill
  %1 = stream.async.fill %c2_i32, %0[%c0 to %size for %size] : i32 -> %0 as !stream.resource<*>{%size}
  // CHECK: stream.async.move %[[FILLED]]
  %2 = stream.async.transfer %1 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %2 : !stream.resource<*>
}

// -----

// An in-place user after the transfer writes the transferred storage: no move.

// CHECK-LABEL: util.func public @tied_after
util.func public @tied_after(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.transfer
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %2 = stream.async.fill %c2_i32, %0[%c0 to %size for %size] : i32 -> %0 as !stream.resource<*>{%size}
  util.return %1, %2 : !stream.resource<*>, !stream.resource<*>
}

// -----

// The last use of a storage through an alias (a tied result) is the last use of it.

// CHECK-LABEL: util.func public @alias_used_after
util.func public @alias_used_after(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = stream.async.fill %c2_i32, %0[%c0 to %size for %size] : i32 -> %0 as !stream.resource<*>{%size}
  // CHECK: stream.async.transfer
  %2 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %1, %2 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A transfer that changes the lifetime may still move.

// CHECK-LABEL: util.func public @lifetime_change
util.func public @lifetime_change(%size: index) -> !stream.resource<external> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: stream.async.move %{{.+}} : !stream.resource<transient>{%arg0} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<external>{%arg0}
  %1 = stream.async.transfer %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<external>{%size}
  util.return %1 : !stream.resource<external>
}

// -----

// An op streamopt does not model may keep the storage: no move.

// CHECK-LABEL: util.func public @unknown_user
util.func public @unknown_user(%size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  "test.keep"(%0) : (!stream.resource<*>) -> ()
  // CHECK: stream.async.transfer
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %1 : !stream.resource<*>
}
