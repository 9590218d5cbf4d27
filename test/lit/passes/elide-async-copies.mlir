// RUN: streamopt --allow-unregistered-dialect --elide-async-copies --split-input-file %s | filecheck %s

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

// -----

// A use in the other branch of an scf.if never runs after the transfer: the transfer moves,
// and the clone in the other branch is that branch's last use, so it goes too.

// CHECK-LABEL: util.func public @if_other_branch
util.func public @if_other_branch(%cond: i1, %size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SPLAT:.+]] = stream.async.splat
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.if %cond -> (!stream.resource<*>) {
    // CHECK: stream.async.move %[[SPLAT]]
    %2 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    scf.yield %2 : !stream.resource<*>
  } else {
    // CHECK: } else {
    // CHECK-NEXT: scf.yield %[[SPLAT]]
    %3 = stream.async.clone %0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
    scf.yield %3 : !stream.resource<*>
  }
  util.return %1 : !stream.resource<*>
}

// -----

// A use after the scf.if runs after either branch.

// CHECK-LABEL: util.func public @if_use_after
util.func public @if_use_after(%cond: i1, %size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.if %cond -> (!stream.resource<*>) {
    // CHECK: stream.async.transfer
    %2 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    scf.yield %2 : !stream.resource<*>
  } else {
    scf.yield %0 : !stream.resource<*>
  }
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A value yielded out of an scf.if is another name for it: using that name later counts.

// CHECK-LABEL: util.func public @if_result_aliases
util.func public @if_result_aliases(%cond: i1, %size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.if %cond -> (!stream.resource<*>) {
    scf.yield %0 : !stream.resource<*>
  } else {
    %4 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
    scf.yield %4 : !stream.resource<*>
  }
  // CHECK: stream.async.transfer
  %2 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %1, %2 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A value defined outside a loop and transferred inside it is used again by the next iteration.

// CHECK-LABEL: util.func public @for_outer_value
util.func public @for_outer_value(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %init = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    // CHECK: stream.async.transfer %{{.+}} : !stream.resource<*>{%arg0} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_c>)
    %2 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<*>{%size}
    scf.yield %2 : !stream.resource<*>
  }
  util.return %1 : !stream.resource<*>
}

// -----

// A loop-carried value handed over as the init and yielded back fresh each iteration is owned
// by the body: its transfer moves.

// CHECK-LABEL: util.func public @for_iter_arg
util.func public @for_iter_arg(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %init = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    // CHECK: stream.async.move %arg{{[0-9]+}}
    %2 = stream.async.transfer %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    scf.yield %2 : !stream.resource<*>
  }
  util.return %1 : !stream.resource<*>
}

// -----

// The init of the loop is still used after the loop: the body does not own it.

// CHECK-LABEL: util.func public @for_init_used_after
util.func public @for_init_used_after(%size: index, %n: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %init = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    // CHECK: stream.async.transfer %arg{{[0-9]+}}
    %2 = stream.async.transfer %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    scf.yield %2 : !stream.resource<*>
  }
  util.return %init, %1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// The body yields its argument back: the transfer is not the last use of it.

// CHECK-LABEL: util.func public @for_yields_argument
util.func public @for_yields_argument(%size: index, %n: index) -> (!stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %init = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!stream.resource<*>) {
    // CHECK: stream.async.transfer %arg{{[0-9]+}}
    %2 = stream.async.transfer %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    %3 = util.optimization_barrier %2 : !stream.resource<*>
    scf.yield %acc : !stream.resource<*>
  }
  util.return %1 : !stream.resource<*>
}

// -----

// scf.while: an outer value transferred in the body is used by every iteration.

// CHECK-LABEL: util.func public @while_outer_value
util.func public @while_outer_value(%size: index, %cond: i1) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %init = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.while (%arg = %init) : (!stream.resource<*>) -> !stream.resource<*> {
    scf.condition(%cond) %arg : !stream.resource<*>
  } do {
  ^bb0(%body: !stream.resource<*>):
    // CHECK: stream.async.transfer
    %2 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    scf.yield %2 : !stream.resource<*>
  }
  util.return %1 : !stream.resource<*>
}

// -----

// scf.while: the value carried through the loop moves when nothing else names it.

// CHECK-LABEL: util.func public @while_carried
util.func public @while_carried(%size: index, %cond: i1) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %init = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.while (%arg = %init) : (!stream.resource<*>) -> !stream.resource<*> {
    scf.condition(%cond) %arg : !stream.resource<*>
  } do {
  ^bb0(%body: !stream.resource<*>):
    // CHECK: stream.async.move
    %2 = stream.async.transfer %body : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    scf.yield %2 : !stream.resource<*>
  }
  util.return %1 : !stream.resource<*>
}

// -----

// cf: a use in a block that runs after the transfer's block keeps the copy.

// CHECK-LABEL: util.func public @cf_later_block
util.func public @cf_later_block(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.transfer
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  cf.br ^bb1(%1 : !stream.resource<*>)
^bb1(%2: !stream.resource<*>):
  util.return %0, %2 : !stream.resource<*>, !stream.resource<*>
}

// -----

// cf: uses in the other successor of a cond_br do not run after the transfer.

// CHECK-LABEL: util.func public @cf_exclusive_blocks
util.func public @cf_exclusive_blocks(%cond: i1, %size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SPLAT:.+]] = stream.async.splat
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.cond_br %cond, ^bb1, ^bb2
^bb1:
  // CHECK: stream.async.move %[[SPLAT]]
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  cf.br ^bb3(%1 : !stream.resource<*>)
^bb2:
  // CHECK: ^bb2:
  // CHECK-NEXT: cf.br ^bb3(%[[SPLAT]] : !stream.resource<*>)
  %2 = stream.async.clone %0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  cf.br ^bb3(%2 : !stream.resource<*>)
^bb3(%3: !stream.resource<*>):
  util.return %3 : !stream.resource<*>
}

// -----

// cf: a loop made of blocks runs the transfer again on the same storage.

// CHECK-LABEL: util.func public @cf_loop
util.func public @cf_loop(%cond: i1, %size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^bb1
^bb1:
  // CHECK: stream.async.transfer
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  cf.cond_br %cond, ^bb1, ^bb2
^bb2:
  util.return %1 : !stream.resource<*>
}

// -----

// cf: a block argument every predecessor hands over as a last use is owned.

// CHECK-LABEL: util.func public @cf_block_argument
util.func public @cf_block_argument(%cond: i1, %size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.cond_br %cond, ^bb1(%0 : !stream.resource<*>), ^bb1(%1 : !stream.resource<*>)
^bb1(%2: !stream.resource<*>):
  // CHECK: stream.async.move
  %3 = stream.async.transfer %2 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %3 : !stream.resource<*>
}

// -----

// A transfer that keeps its lifetime on one device is a plain copy: removed when it is the last
// use, like a clone; kept when the copy is written while the source is still read.

// CHECK-LABEL: util.func public @same_device
util.func public @same_device(%size: index) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  // CHECK: %[[A:.+]] = stream.async.splat
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK-NOT: stream.async.transfer %[[A]]
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
  // CHECK: %[[B:.+]] = stream.async.splat
  %2 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: %[[COPY:.+]] = stream.async.transfer %[[B]] : !stream.resource<*>{%arg0} -> !stream.resource<*>{%arg0}
  %3 = stream.async.transfer %2 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  // CHECK: stream.async.fill %c2_i32, %[[COPY]]
  %4 = stream.async.fill %c2_i32, %3[%c0 to %size for %size] : i32 -> %3 as !stream.resource<*>{%size}
  // CHECK: util.return %[[A]], %[[B]]
  util.return %1, %2, %4 : !stream.resource<*>, !stream.resource<*>, !stream.resource<*>
}

// -----

// Two transfers decided in one sweep: the first becomes a move; the second's source is the
// moved result filled in place, whose name before the fill is returned too. The second is
// not that storage's last use, whichever sweep decides it.

// CHECK-LABEL: util.func public @tied_name_of_a_move_returned
util.func public @tied_name_of_a_move_returned(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: %[[MOVED:.+]] = stream.async.move
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  // CHECK: %[[FILLED:.+]] = stream.async.fill on({{.+}}) %c2_i32, %[[MOVED]]
  %2 = stream.async.fill on(#hal.device.affinity<@dev_b>) %c2_i32, %1[%c0 to %size for %size] : i32 -> %1 as !stream.resource<*>{%size}
  // CHECK: %[[BACK:.+]] = stream.async.transfer %[[FILLED]]
  %3 = stream.async.transfer %2 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
  // CHECK: util.return %[[BACK]], %[[MOVED]]
  util.return %3, %1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// Its twin: with only the last name returned, both transfers move.

// CHECK-LABEL: util.func public @tied_name_of_a_move_not_returned
util.func public @tied_name_of_a_move_not_returned(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.move
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %2 = stream.async.fill on(#hal.device.affinity<@dev_b>) %c2_i32, %1[%c0 to %size for %size] : i32 -> %1 as !stream.resource<*>{%size}
  // CHECK: stream.async.move
  %3 = stream.async.transfer %2 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
  util.return %3 : !stream.resource<*>
}

// -----

// A transfer written in MLIR's generic form is read as one, and becomes a move as well.

// CHECK-LABEL: util.func public @generic_form
util.func public @generic_form(%size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SPLAT:.+]] = stream.async.splat
  %0 = "stream.async.splat"(%c1_i32, %size) : (i32, index) -> !stream.resource<*>
  // CHECK: %[[MOVED:.+]] = stream.async.move %[[SPLAT]] : !stream.resource<*>{%arg0} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%arg0}
  %1 = "stream.async.transfer"(%0, %size, %size) <{source_affinity = #hal.device.affinity<@dev_a>, target_affinity = #hal.device.affinity<@dev_b>}> : (!stream.resource<*>, index, index) -> !stream.resource<*>
  // CHECK: util.return %[[MOVED]]
  util.return %1 : !stream.resource<*>
}
