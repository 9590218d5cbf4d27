// RUN: streamopt --elide-async-copies --split-input-file %s | filecheck %s

// Storage that escapes and is then handed on by value (docs/storage-model.md): the receiver
// must not consume it, because the host, a global or an unmodelled op still sees it. Each
// case comes with its twin without the escape, where the rewrite is right.

// Exported, then passed to a private function whose every caller passes a last use.

// CHECK-LABEL: util.func private @takes_exported
util.func private @takes_exported(%arg0: !stream.resource<external>, %size: index) -> !stream.resource<external> {
  // CHECK: stream.async.transfer %arg0
  %0 = stream.async.transfer %arg0 : !stream.resource<external>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%size}
  util.return %0 : !stream.resource<external>
}
// CHECK-LABEL: util.func public @export_then_call
util.func public @export_then_call(%size: index) -> (!hal.buffer_view, !stream.resource<external>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<external>{%size}
  %1 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %0 : tensor<4xf32> in !stream.resource<external>{%size} -> !hal.buffer_view
  %2 = util.call @takes_exported(%0, %size) : (!stream.resource<external>, index) -> !stream.resource<external>
  util.return %1, %2 : !hal.buffer_view, !stream.resource<external>
}

// -----

// CHECK-LABEL: util.func private @takes_fresh
util.func private @takes_fresh(%arg0: !stream.resource<external>, %size: index) -> !stream.resource<external> {
  // CHECK: stream.async.move %arg0
  %0 = stream.async.transfer %arg0 : !stream.resource<external>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%size}
  util.return %0 : !stream.resource<external>
}
// CHECK-LABEL: util.func public @fresh_then_call
util.func public @fresh_then_call(%size: index) -> !stream.resource<external> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<external>{%size}
  %1 = util.call @takes_fresh(%0, %size) : (!stream.resource<external>, index) -> !stream.resource<external>
  util.return %1 : !stream.resource<external>
}

// -----

// Stored in a global, then the init of a loop whose body sends the carried value away.

util.global private mutable @stored : !stream.resource<*>

// CHECK-LABEL: util.func public @store_then_loop
util.func public @store_then_loop(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  util.global.store %0, @stored : !stream.resource<*>
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0) -> (!stream.resource<*>) {
    // CHECK: stream.async.transfer %{{.+}} : {{.+}} -> to(#hal.device.affinity<@dev_b>)
    %2 = stream.async.transfer %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    // CHECK: stream.async.move %{{.+}} : {{.+}} -> to(#hal.device.affinity<@dev_a>)
    %3 = stream.async.transfer %2 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
    scf.yield %3 : !stream.resource<*>
  }
  util.return %1 : !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @fresh_loop
util.func public @fresh_loop(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0) -> (!stream.resource<*>) {
    // CHECK: stream.async.move %{{.+}} : {{.+}} -> to(#hal.device.affinity<@dev_b>)
    %2 = stream.async.transfer %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    // CHECK: stream.async.move %{{.+}} : {{.+}} -> to(#hal.device.affinity<@dev_a>)
    %3 = stream.async.transfer %2 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
    scf.yield %3 : !stream.resource<*>
  }
  util.return %1 : !stream.resource<*>
}

// -----

// Given to an op streamopt does not model (it may keep it), then branched into a block.

// CHECK-LABEL: util.func public @unknown_then_branch
util.func public @unknown_then_branch(%size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.execute_region -> !stream.resource<*> {
    scf.yield %0 : !stream.resource<*>
  }
  cf.br ^bb1(%0 : !stream.resource<*>)
^bb1(%2: !stream.resource<*>):
  // CHECK: stream.async.transfer
  %3 = stream.async.transfer %2 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %3 : !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @branch_only
util.func public @branch_only(%size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^bb1(%0 : !stream.resource<*>)
^bb1(%1: !stream.resource<*>):
  // CHECK: stream.async.move
  %2 = stream.async.transfer %1 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %2 : !stream.resource<*>
}

// -----

// Exported, then merged by an scf.if and sent away after it.

// CHECK-LABEL: util.func public @export_then_if
util.func public @export_then_if(%cond: i1, %size: index) -> (!hal.buffer_view, !stream.resource<external>) {
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<external>{%size}
  %1 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %0 : tensor<4xf32> in !stream.resource<external>{%size} -> !hal.buffer_view
  %2 = scf.if %cond -> (!stream.resource<external>) {
    scf.yield %0 : !stream.resource<external>
  } else {
    %3 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c2_i32 : i32 -> !stream.resource<external>{%size}
    scf.yield %3 : !stream.resource<external>
  }
  // CHECK: stream.async.transfer
  %4 = stream.async.transfer %2 : !stream.resource<external>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%size}
  util.return %1, %4 : !hal.buffer_view, !stream.resource<external>
}

// -----

// Exported, then captured by an execution region that sends it away.

// CHECK-LABEL: util.func public @export_then_execute
util.func public @export_then_execute(%size: index) -> (!hal.buffer_view, !stream.resource<external>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<external>{%size}
  %1 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %0 : tensor<4xf32> in !stream.resource<external>{%size} -> !hal.buffer_view
  %2, %tp = stream.async.execute on(#hal.device.affinity<@dev_a>) with(%0 as %captured: !stream.resource<external>{%size}) -> !stream.resource<external>{%size} {
    // CHECK: stream.async.transfer
    %3 = stream.async.transfer %captured : !stream.resource<external>{%size} -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%size}
    stream.yield %3 : !stream.resource<external>{%size}
  } => !stream.timepoint
  %4 = stream.timepoint.await %tp => %2 : !stream.resource<external>{%size}
  util.return %1, %4 : !hal.buffer_view, !stream.resource<external>
}

// -----

// CHECK-LABEL: util.func public @fresh_execute
util.func public @fresh_execute(%size: index) -> !stream.resource<external> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<external>{%size}
  %2, %tp = stream.async.execute on(#hal.device.affinity<@dev_a>) with(%0 as %captured: !stream.resource<external>{%size}) -> !stream.resource<external>{%size} {
    // CHECK: stream.async.move
    %3 = stream.async.transfer %captured : !stream.resource<external>{%size} -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%size}
    stream.yield %3 : !stream.resource<external>{%size}
  } => !stream.timepoint
  %4 = stream.timepoint.await %tp => %2 : !stream.resource<external>{%size}
  util.return %4 : !stream.resource<external>
}

// -----

// A region result tied to its capture and written in place inside is the capture's fresh
// storage, handed out by stream.yield: its transfer, the last use, becomes a move.

// CHECK-LABEL: util.func public @tied_execute_result
util.func public @tied_execute_result(%size: index, %value: i32) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<external>{%size}
  %1, %tp = stream.async.execute on(#hal.device.affinity<@dev_a>) with(%0 as %captured: !stream.resource<external>{%size}) -> %0{%size} {
    %2 = stream.async.fill %value, %captured[%c0 to %size for %size] : i32 -> %captured as !stream.resource<external>{%size}
    stream.yield %2 : !stream.resource<external>{%size}
  } => !stream.timepoint
  %3 = stream.timepoint.await %tp => %1 : !stream.resource<external>{%size}
  // CHECK: stream.async.move
  %4 = stream.async.transfer %3 : !stream.resource<external>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%size}
  util.return %4 : !stream.resource<external>
}

// -----

// Captured twice: the two region arguments are one storage.

// CHECK-LABEL: util.func public @captured_twice
util.func public @captured_twice(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1:2, %tp = stream.async.execute on(#hal.device.affinity<@dev_a>) with(%0 as %a: !stream.resource<*>{%size}, %0 as %b: !stream.resource<*>{%size}) -> (!stream.resource<*>{%size}, !stream.resource<*>{%size}) {
    // CHECK: stream.async.transfer
    %2 = stream.async.transfer %a : !stream.resource<*>{%size} -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    %3 = stream.async.dispatch @ex::@read(%b[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
    stream.yield %2, %3 : !stream.resource<*>{%size}, !stream.resource<*>{%size}
  } => !stream.timepoint
  %4:2 = stream.timepoint.await %tp => %1#0, %1#1 : !stream.resource<*>{%size}, !stream.resource<*>{%size}
  util.return %4#0, %4#1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// The callee stores what it returns in a global: the caller does not own the result.

util.global private mutable @kept : !stream.resource<*>

util.func private @make_and_keep(%size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  util.global.store %0, @kept : !stream.resource<*>
  util.return %0 : !stream.resource<*>
}
// CHECK-LABEL: util.func public @result_escaped_in_callee
util.func public @result_escaped_in_callee(%size: index) -> !stream.resource<*> {
  %0 = util.call @make_and_keep(%size) : (index) -> !stream.resource<*>
  // CHECK: stream.async.transfer
  %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %1 : !stream.resource<*>
}

// -----

// The callee returns one storage as two results.

util.func private @twice(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  util.return %0, %0 : !stream.resource<*>, !stream.resource<*>
}
// CHECK-LABEL: util.func public @one_storage_two_results
util.func public @one_storage_two_results(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %0:2 = util.call @twice(%size) : (index) -> (!stream.resource<*>, !stream.resource<*>)
  // CHECK: stream.async.transfer
  %1 = stream.async.transfer %0#0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %2 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@read(%0#1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  util.return %1, %2 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A loop started with %0 whose body also reads %0 by its outer name: the carried value is
// %0 in the first iteration, so the body may not send it away, nor drop its copy-on-write
// clone before writing in place. Without the read both rewrites are right.

// CHECK-LABEL: util.func public @for_reads_init
util.func public @for_reads_init(%size: index, %n: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  %2:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0, %other = %1) -> (!stream.resource<*>, !stream.resource<*>) {
    %3 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
    // CHECK: stream.async.transfer %{{.+}} : {{.+}} -> to(#hal.device.affinity<@dev_b>)
    %4 = stream.async.transfer %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    // CHECK: stream.async.move %{{.+}} : {{.+}} -> to(#hal.device.affinity<@dev_a>)
    %5 = stream.async.transfer %4 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
    scf.yield %5, %3 : !stream.resource<*>, !stream.resource<*>
  }
  util.return %2#0, %2#1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @for_clone_reads_init
util.func public @for_clone_reads_init(%size: index, %n: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  %2:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0, %other = %1) -> (!stream.resource<*>, !stream.resource<*>) {
    %3 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
    // CHECK: stream.async.clone
    %4 = stream.async.clone on(#hal.device.affinity<@dev_a>) %acc : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
    %5 = stream.async.fill on(#hal.device.affinity<@dev_a>) %c2_i32, %4[%c0 to %size for %size] : i32 -> %4 as !stream.resource<*>{%size}
    scf.yield %5, %3 : !stream.resource<*>, !stream.resource<*>
  }
  util.return %2#0, %2#1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @for_clone_without_read
util.func public @for_clone_without_read(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0) -> (!stream.resource<*>) {
    // CHECK-NOT: stream.async.clone
    %2 = stream.async.clone on(#hal.device.affinity<@dev_a>) %acc : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
    %3 = stream.async.fill on(#hal.device.affinity<@dev_a>) %c2_i32, %2[%c0 to %size for %size] : i32 -> %2 as !stream.resource<*>{%size}
    scf.yield %3 : !stream.resource<*>
  }
  util.return %1 : !stream.resource<*>
}

// -----

// scf.while: the before region reads the init by its outer name.

// CHECK-LABEL: util.func public @while_reads_init
util.func public @while_reads_init(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1:2 = scf.while (%i = %c0, %b = %0) : (index, !stream.resource<*>) -> (index, !stream.resource<*>) {
    %cond = arith.cmpi slt, %i, %n : index
    %2 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
    scf.condition(%cond) %i, %b : index, !stream.resource<*>
  } do {
  ^bb0(%j: index, %d: !stream.resource<*>):
    // CHECK: stream.async.transfer %{{.+}} : {{.+}} -> to(#hal.device.affinity<@dev_b>)
    %3 = stream.async.transfer %d : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    // CHECK: stream.async.move %{{.+}} : {{.+}} -> to(#hal.device.affinity<@dev_a>)
    %4 = stream.async.transfer %3 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
    %k = arith.addi %j, %c1 : index
    scf.yield %k, %4 : index, !stream.resource<*>
  }
  util.return %1#1 : !stream.resource<*>
}

// -----

// A loop of blocks started with %0 whose body also reads %0.

// CHECK-LABEL: util.func public @cf_loop_reads_init
util.func public @cf_loop_reads_init(%size: index, %n: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^bb1(%c0, %0, %1 : index, !stream.resource<*>, !stream.resource<*>)
^bb1(%i: index, %acc: !stream.resource<*>, %seen: !stream.resource<*>):
  %cond = arith.cmpi slt, %i, %n : index
  cf.cond_br %cond, ^bb2, ^bb3(%acc, %seen : !stream.resource<*>, !stream.resource<*>)
^bb2:
  %2 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  // CHECK: stream.async.transfer %{{.+}} : {{.+}} -> to(#hal.device.affinity<@dev_b>)
  %3 = stream.async.transfer %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %4 = stream.async.transfer %3 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
  %j = arith.addi %i, %c1 : index
  cf.br ^bb1(%j, %4, %2 : index, !stream.resource<*>, !stream.resource<*>)
^bb3(%out: !stream.resource<*>, %last: !stream.resource<*>):
  util.return %out, %last : !stream.resource<*>, !stream.resource<*>
}

// -----

// Unified memory: the callee returns its by-value argument and the caller writes what it
// got back, while the removed transfer's result would still be read: the transfer stays.
// When nothing writes the storage, the transfer goes.

module attributes {stream.topology = #hal.device.topology<links = [(@dev_a -> @dev_b = {unified_memory = true}), (@dev_b -> @dev_a = {unified_memory = true})]>} {
  util.func private @identity(%arg0: !stream.resource<*>) -> !stream.resource<*> {
    util.return %arg0 : !stream.resource<*>
  }
  // CHECK-LABEL: util.func public @unified_source_written_after_call
  util.func public @unified_source_written_after_call(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
    %c0 = arith.constant 0 : index
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
    // CHECK: stream.async.transfer
    %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    %2 = util.call @identity(%0) : (!stream.resource<*>) -> !stream.resource<*>
    %3 = stream.async.fill on(#hal.device.affinity<@dev_a>) %c2_i32, %2[%c0 to %size for %size] : i32 -> %2 as !stream.resource<*>{%size}
    %4 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@read(%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
    util.return %3, %4 : !stream.resource<*>, !stream.resource<*>
  }
  // CHECK-LABEL: util.func public @unified_source_read_after_call
  util.func public @unified_source_read_after_call(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
    %c0 = arith.constant 0 : index
    %c1_i32 = arith.constant 1 : i32
    %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
    // CHECK-NOT: stream.async.transfer
    %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    %2 = util.call @identity(%0) : (!stream.resource<*>) -> !stream.resource<*>
    %3 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@read(%2[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
    %4 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@read(%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
    util.return %3, %4 : !stream.resource<*>, !stream.resource<*>
  }
}

// -----

// Unified memory, around a loop: the body writes its carried value in place, then copies it
// to the other device and carries both on. The copy must stay: the next iteration writes the
// source again (through the carried name, before the copy in program order) while the copy
// is read as the second carried value.

module attributes {stream.topology = #hal.device.topology<links = [(@dev_a -> @dev_b = {unified_memory = true}), (@dev_b -> @dev_a = {unified_memory = true})]>} {
  // CHECK-LABEL: util.func public @unified_written_next_iteration
  util.func public @unified_written_next_iteration(%size: index, %n: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1_i32 = arith.constant 1 : i32
    %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
    %1 = stream.async.splat on(#hal.device.affinity<@dev_b>) %c1_i32 : i32 -> !stream.resource<*>{%size}
    %2 = stream.async.splat on(#hal.device.affinity<@dev_b>) %c1_i32 : i32 -> !stream.resource<*>{%size}
    %3:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0, %copy = %1, %read = %2) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<*>) {
      %4 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@write(%acc[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> %acc{%size}
      %5 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@read(%copy[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
      // CHECK: stream.async.transfer
      %6 = stream.async.transfer %4 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
      scf.yield %4, %6, %5 : !stream.resource<*>, !stream.resource<*>, !stream.resource<*>
    }
    util.return %3#2 : !stream.resource<*>
  }
}

// -----

// Unified memory across a call: the callee's copy-on-write clone of its by-value argument
// goes (it writes the argument in place instead), so the caller's transfer into that argument
// must stay, even though both are decided in one sweep.

module attributes {stream.topology = #hal.device.topology<links = [(@dev_a -> @dev_c = {unified_memory = true}), (@dev_c -> @dev_a = {unified_memory = true})]>} {
  // CHECK-LABEL: util.func private @writes_its_copy
  util.func private @writes_its_copy(%arg0: !stream.resource<*>, %size: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    // CHECK-NOT: stream.async.clone
    %0 = stream.async.clone on(#hal.device.affinity<@dev_c>) %arg0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
    %1 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @ex::@write(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> %0{%size}
    %2 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @ex::@read(%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
    util.return %2 : !stream.resource<*>
  }
  // CHECK-LABEL: util.func public @caller_keeps_its_transfer
  util.func public @caller_keeps_its_transfer(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
    %c0 = arith.constant 0 : index
    %c1_i32 = arith.constant 1 : i32
    %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
    // CHECK: stream.async.transfer
    %1 = stream.async.transfer %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<*>{%size}
    %2 = util.call @writes_its_copy(%1, %size) : (!stream.resource<*>, index) -> !stream.resource<*>
    %3 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
    util.return %2, %3 : !stream.resource<*>, !stream.resource<*>
  }
}

// -----

// A cf loop hands its carried storage to the exit block, and the body's same-device transfer
// of it is its last use there: the transfer goes, so the storage's group now holds the
// global store the transfer's result had (decided again once the removal is known, not in the
// same sweep). That store reaches the exit only through the header, which binds the carried
// name anew: the storage that leaves the loop is the one the last body made (or the first),
// never stored, so the exit's transfer becomes a move.

util.global private mutable @seen : !stream.resource<*>

// CHECK-LABEL: util.func public @cf_loop_body_escape
util.func public @cf_loop_body_escape(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^bb1(%c0, %0 : index, !stream.resource<*>)
// CHECK: ^bb1({{.+}}, [[ACC:%.+]]: !stream.resource<*>)
^bb1(%i: index, %acc: !stream.resource<*>):
  %cond = arith.cmpi slt, %i, %n : index
  cf.cond_br %cond, ^bb2, ^bb3(%acc : !stream.resource<*>)
^bb2:
  // CHECK-NOT: stream.async.transfer
  // CHECK: util.global.store [[ACC]], @seen
  %1 = stream.async.transfer %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
  util.global.store %1, @seen : !stream.resource<*>
  %2 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@read(%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %next = arith.addi %i, %c1 : index
  cf.br ^bb1(%next, %2 : index, !stream.resource<*>)
// CHECK: ^bb3([[OUT:%.+]]: !stream.resource<*>)
^bb3(%out: !stream.resource<*>):
  // CHECK: stream.async.move [[OUT]]
  %3 = stream.async.transfer %out : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %3 : !stream.resource<*>
}

// -----

// The same loop storing the carried storage in the header, before the branch: the storage
// that leaves the loop is the one the global holds, and the exit's transfer stays a copy.

util.global private mutable @seen : !stream.resource<*>

// CHECK-LABEL: util.func public @cf_loop_header_escape
util.func public @cf_loop_header_escape(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^bb1(%c0, %0 : index, !stream.resource<*>)
^bb1(%i: index, %acc: !stream.resource<*>):
  %cond = arith.cmpi slt, %i, %n : index
  util.global.store %acc, @seen : !stream.resource<*>
  cf.cond_br %cond, ^bb2, ^bb3(%acc : !stream.resource<*>)
^bb2:
  %1 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@read(%acc[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %next = arith.addi %i, %c1 : index
  cf.br ^bb1(%next, %1 : index, !stream.resource<*>)
// CHECK: ^bb3([[OUT:%[a-z0-9_]+]]: !stream.resource<*>)
^bb3(%out: !stream.resource<*>):
  // CHECK: stream.async.transfer [[OUT]]
  %3 = stream.async.transfer %out : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %3 : !stream.resource<*>
}

// -----

// The same loop without the store: the body's transfer goes and the exit's becomes a move.

// CHECK-LABEL: util.func public @cf_loop_body_no_escape
util.func public @cf_loop_body_no_escape(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^bb1(%c0, %0 : index, !stream.resource<*>)
// CHECK: ^bb1({{.+}}, [[ACC:%.+]]: !stream.resource<*>)
^bb1(%i: index, %acc: !stream.resource<*>):
  %cond = arith.cmpi slt, %i, %n : index
  cf.cond_br %cond, ^bb2, ^bb3(%acc : !stream.resource<*>)
^bb2:
  // CHECK-NOT: stream.async.transfer
  // CHECK: stream.async.dispatch {{.+}}([[ACC]]
  %1 = stream.async.transfer %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
  %2 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@read(%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  %next = arith.addi %i, %c1 : index
  cf.br ^bb1(%next, %2 : index, !stream.resource<*>)
// CHECK: ^bb3([[OUT:%.+]]: !stream.resource<*>)
^bb3(%out: !stream.resource<*>):
  // CHECK: stream.async.move [[OUT]]
  %3 = stream.async.transfer %out : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %3 : !stream.resource<*>
}

// -----

// An op streamopt does not model may return storage it was given: util.list.get gives
// back the %0 util.list.construct put in the list, so the clone of what it gives stays when
// %0 is filled in place before the clone is read.

// CHECK-LABEL: util.func public @clone_of_what_an_unmodelled_op_returns
util.func public @clone_of_what_an_unmodelled_op_returns(%size: index, %value: i32) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %list = util.list.construct [%0 : !stream.resource<*>] : !util.list<!stream.resource<*>>
  // CHECK: [[RETURNED:%.+]] = util.list.get
  %1 = util.list.get %list[%c0] : !util.list<!stream.resource<*>>
  // CHECK: stream.async.clone [[RETURNED]]
  %2 = stream.async.clone %1 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %3 = stream.async.fill %value, %0[%c0 to %size for %size] : i32 -> %0 as !stream.resource<*>{%size}
  util.return %2, %3 : !stream.resource<*>, !stream.resource<*>
}

// -----

// Its twin: the op is given nothing, and what is filled never reached it; the clone goes.

// CHECK-LABEL: util.func public @clone_of_what_an_unmodelled_op_makes
util.func public @clone_of_what_an_unmodelled_op_makes(%size: index, %value: i32) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: [[MADE:%.+]] = scf.execute_region
  %1 = scf.execute_region -> !stream.resource<*> {
    %made = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
    scf.yield %made : !stream.resource<*>
  }
  // CHECK-NOT: stream.async.clone
  %2 = stream.async.clone %1 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %3 = stream.async.fill %value, %0[%c0 to %size for %size] : i32 -> %0 as !stream.resource<*>{%size}
  // CHECK: util.return [[MADE]],
  util.return %2, %3 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A global whose address an op streamopt does not model takes (util.global.address) may be
// read and written through the pointer: the clone of a load of it stays when what an
// indirect load gives is filled in place before the clone is read.

util.global private mutable @pointed : !stream.resource<*>

// CHECK-LABEL: util.func public @clone_of_a_global_written_through_its_address
util.func public @clone_of_a_global_written_through_its_address(%size: index, %value: i32) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  util.global.store %0, @pointed : !stream.resource<*>
  // CHECK: [[LOADED:%.+]] = util.global.load @pointed
  %1 = util.global.load @pointed : !stream.resource<*>
  // CHECK: stream.async.clone [[LOADED]]
  %2 = stream.async.clone %1 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %ptr = util.global.address @pointed : !util.ptr<!stream.resource<*>>
  %3 = util.global.load.indirect %ptr : !util.ptr<!stream.resource<*>> -> !stream.resource<*>
  %4 = stream.async.fill %value, %3[%c0 to %size for %size] : i32 -> %3 as !stream.resource<*>{%size}
  util.return %2, %4 : !stream.resource<*>, !stream.resource<*>
}

// -----

// Its twin: the pointer is another global's, so the clone of the load goes.

util.global private mutable @direct : !stream.resource<*>
util.global private mutable @other : !stream.resource<*>

// CHECK-LABEL: util.func public @clone_of_a_global_beside_another_written_through_its_address
util.func public @clone_of_a_global_beside_another_written_through_its_address(%size: index, %value: i32) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  util.global.store %0, @direct : !stream.resource<*>
  // CHECK: [[LOADED:%.+]] = util.global.load @direct
  %1 = util.global.load @direct : !stream.resource<*>
  // CHECK-NOT: stream.async.clone
  %2 = stream.async.clone %1 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  %ptr = util.global.address @other : !util.ptr<!stream.resource<*>>
  %3 = util.global.load.indirect %ptr : !util.ptr<!stream.resource<*>> -> !stream.resource<*>
  %4 = stream.async.fill %value, %3[%c0 to %size for %size] : i32 -> %3 as !stream.resource<*>{%size}
  // CHECK: util.return [[LOADED]],
  util.return %2, %4 : !stream.resource<*>, !stream.resource<*>
}
