// RUN: streamopt --split-input-file --verify-diagnostics %s

util.func public @use_after_move(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // expected-error @+1 {{'stream.async.move' op source is used after the move, by 'util.return'}}
  %1 = stream.async.move %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  // expected-note @+1 {{later use here}}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A tied result is another name for the moved storage.

util.func public @alias_used_after_move(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = stream.async.fill %c2_i32, %0[%c0 to %size for %size] : i32 -> %0 as !stream.resource<*>{%size}
  // expected-error @+1 {{source is used after the move, by 'stream.async.dispatch'}}
  %2 = stream.async.move %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  // expected-note @+1 {{later use here}}
  %3 = stream.async.dispatch @ex::@read(%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  util.return %2, %3 : !stream.resource<*>, !stream.resource<*>
}

// -----

// Moving a value from outside a loop: the next iteration moves it again.

util.func public @move_in_loop(%size: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // expected-note @+1 {{later use here}}
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{source may be used after the move: inside a loop that runs it again}}
    %1 = stream.async.move %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  }
  util.return
}

// -----

// A use in the other branch of an scf.if is fine; a use after the scf.if is not.

util.func public @move_in_branch(%cond: i1, %size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.if %cond -> (!stream.resource<*>) {
    // expected-error @+1 {{source is used after the move, by 'stream.async.clone'}}
    %2 = stream.async.move %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    scf.yield %2 : !stream.resource<*>
  } else {
    scf.yield %0 : !stream.resource<*>
  }
  // expected-note @+1 {{later use here}}
  %3 = stream.async.clone %0 : !stream.resource<*>{%size} -> !stream.resource<*>{%size}
  util.return %3 : !stream.resource<*>
}

// -----

// Moves that are last uses verify.

util.func public @fine(%cond: i1, %size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.if %cond -> (!stream.resource<*>) {
    %2 = stream.async.move %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    scf.yield %2 : !stream.resource<*>
  } else {
    scf.yield %0 : !stream.resource<*>
  }
  util.return %1 : !stream.resource<*>
}

// -----

// A loop of blocks (as scf-to-cf leaves a loop): the header's argument names new storage each
// time round, so moving it in the body and passing the move's result back is fine, and so is
// the exit block's use of the header's value (the last iteration did not move it).

util.func public @move_loop_carried_in_blocks(%arg0: !stream.resource<transient>, %size: index, %n: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^bb1(%c0, %arg0 : index, !stream.resource<transient>)
^bb1(%i: index, %x: !stream.resource<transient>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^bb2, ^bb3(%x : !stream.resource<transient>)
^bb2:
  %y = stream.async.move %x : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
  %next = arith.addi %i, %c1 : index
  cf.br ^bb1(%next, %y : index, !stream.resource<transient>)
^bb3(%out: !stream.resource<transient>):
  util.return %out : !stream.resource<transient>
}

// -----

// Exported before the move: the host still holds a view of the storage.

util.func public @moved_after_export(%size: index) -> (!hal.buffer_view, !stream.resource<external>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<external>{%size}
  // expected-note @+1 {{escapes here}}
  %1 = stream.tensor.export %0 : tensor<4xf32> in !stream.resource<external>{%size} -> !hal.buffer_view
  // expected-error @+1 {{'stream.async.move' op source storage escaped before the move, through 'stream.tensor.export'}}
  %2 = stream.async.move %0 : !stream.resource<external>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%size}
  util.return %1, %2 : !hal.buffer_view, !stream.resource<external>
}

// -----

// Stored in a global before the move: whoever loads it sees moved storage.

util.global private mutable @global : !stream.resource<*>

util.func public @moved_after_store(%size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // expected-note @+1 {{escapes here}}
  util.global.store %0, @global : !stream.resource<*>
  // expected-error @+1 {{source storage escaped before the move, through 'util.global.store'}}
  %1 = stream.async.move %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %1 : !stream.resource<*>
}

// -----

// Stored in the other branch only: never on the path of the move.

util.global private mutable @other_path : !stream.resource<*>

util.func public @store_on_other_path(%cond: i1, %size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = scf.if %cond -> (!stream.resource<*>) {
    %2 = stream.async.move %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    scf.yield %2 : !stream.resource<*>
  } else {
    util.global.store %0, @other_path : !stream.resource<*>
    scf.yield %0 : !stream.resource<*>
  }
  util.return %1 : !stream.resource<*>
}

// -----

// The caller exported what it passes: the callee's argument is still observed.

util.func private @moves_argument(%arg0: !stream.resource<external>, %size: index) -> !stream.resource<external> {
  // expected-error @+1 {{'stream.async.move' op source storage is still observed elsewhere: it escaped through 'stream.tensor.export'}}
  %0 = stream.async.move %arg0 : !stream.resource<external>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%size}
  util.return %0 : !stream.resource<external>
}
util.func public @passes_exported(%size: index) -> (!hal.buffer_view, !stream.resource<external>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<external>{%size}
  %1 = stream.tensor.export %0 : tensor<4xf32> in !stream.resource<external>{%size} -> !hal.buffer_view
  %2 = util.call @moves_argument(%0, %size) : (!stream.resource<external>, index) -> !stream.resource<external>
  util.return %1, %2 : !hal.buffer_view, !stream.resource<external>
}

// -----

// A call result that aliases the source (the callee returns its argument) is read after the
// move.

util.func private @identity(%arg0: !stream.resource<*>) -> !stream.resource<*> {
  util.return %arg0 : !stream.resource<*>
}
util.func public @read_through_call_result(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = util.call @identity(%0) : (!stream.resource<*>) -> !stream.resource<*>
  // expected-error @+1 {{source is used after the move, by 'stream.async.dispatch'}}
  %2 = stream.async.move %0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  // expected-note @+1 {{later use here}}
  %3 = stream.async.dispatch @ex::@read(%1[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  util.return %2, %3 : !stream.resource<*>, !stream.resource<*>
}

// -----

// The loop's init is moved in the first iteration, but the body reads it by its outer name
// in every iteration.

util.func public @move_loop_init_read_in_body(%size: index, %n: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %2:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0, %other = %1) -> (!stream.resource<*>, !stream.resource<*>) {
    %3 = stream.async.dispatch @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
    // expected-error @+1 {{hands it on while it is used inside the region it is handed to: 'stream.async.dispatch'}}
    %4 = stream.async.move %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
    scf.yield %4, %3 : !stream.resource<*>, !stream.resource<*>
  }
  util.return %2#0, %2#1 : !stream.resource<*>, !stream.resource<*>
}

// -----

// The same loop using the moved value after the move, on the way back to the header.

util.func public @move_loop_used_after(%arg0: !stream.resource<transient>, %size: index, %n: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^bb1(%c0, %arg0 : index, !stream.resource<transient>)
^bb1(%i: index, %x: !stream.resource<transient>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^bb2, ^bb4(%x : !stream.resource<transient>)
^bb2:
  // expected-error @+1 {{'stream.async.move' op source may be used after the move: used in a later block}}
  %y = stream.async.move %x : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
  cf.br ^bb3
^bb3:
  %next = arith.addi %i, %c1 : index
  // expected-note @+1 {{later use here}}
  cf.br ^bb1(%next, %x : index, !stream.resource<transient>)
^bb4(%out: !stream.resource<transient>):
  util.return %out : !stream.resource<transient>
}

// -----

// By value through every caller, and never read again: the callee may move its argument.

util.func private @takes_by_value(%arg0: !stream.resource<*>, %size: index) -> !stream.resource<*> {
  %0 = stream.async.move %arg0 : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}
util.func public @passes_last_uses(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %1 = util.call @takes_by_value(%0, %size) : (!stream.resource<*>, index) -> !stream.resource<*>
  %2 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %3 = util.call @takes_by_value(%2, %size) : (!stream.resource<*>, index) -> !stream.resource<*>
  util.return %1, %3 : !stream.resource<*>, !stream.resource<*>
}

// -----

// A value made in one block of a loop of blocks and moved in a later one: each time round it
// is made anew before the move, so the move is its last use. (Made before the loop, it would
// be moved twice.)

util.func public @move_made_in_the_loop(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^bb1(%c0, %0 : index, !stream.resource<*>)
^bb1(%i: index, %x: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^bb2, ^bb4(%x : !stream.resource<*>)
^bb2:
  %y = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^bb3
^bb3:
  %m = stream.async.move %y : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %next = arith.addi %i, %c1 : index
  cf.br ^bb1(%next, %m : index, !stream.resource<*>)
^bb4(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

util.func public @move_made_before_the_loop(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %y = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^bb1(%c0, %0 : index, !stream.resource<*>)
^bb1(%i: index, %x: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^bb2, ^bb3(%x : !stream.resource<*>)
^bb2:
  // expected-error @+1 {{source may be used after the move: inside a loop of blocks that runs it again}}
  %m = stream.async.move %y : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %next = arith.addi %i, %c1 : index
  // expected-note @+1 {{later use here}}
  cf.br ^bb1(%next, %m : index, !stream.resource<*>)
^bb3(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

// Nested loops of blocks, as scf-to-cf leaves an scf.for inside an scf.while: the inner
// header's argument is bound anew each time the outer loop gets back to it, so the body's move
// of it (the other successor of the exit branch) comes after a new binding, not after the
// handover to the exit block, and the exit block may move what it is handed.

util.func public @nested_loops_move_at_both_exits(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^outer(%c0, %0 : index, !stream.resource<*>)
^outer(%i: index, %x: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^preheader, ^exit(%x : !stream.resource<*>)
^preheader:
  %fresh = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^inner(%c0, %fresh : index, !stream.resource<*>)
^inner(%j: index, %acc: !stream.resource<*>):
  %again = arith.cmpi slt, %j, %n : index
  cf.cond_br %again, ^body, ^after(%acc : !stream.resource<*>)
^body:
  %moved = stream.async.move %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %j1 = arith.addi %j, %c1 : index
  cf.br ^inner(%j1, %moved : index, !stream.resource<*>)
^after(%r: !stream.resource<*>):
  %t = stream.async.move %r : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
  %i1 = arith.addi %i, %c1 : index
  cf.br ^outer(%i1, %t : index, !stream.resource<*>)
^exit(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

// The same nest when the inner loop starts from storage made before the outer loop: every
// outer iteration hands that one storage to the inner header again, so the exit block's move
// would consume it while the next iteration still reads it.

util.func public @nested_loops_inner_init_from_outside(%size: index, %n: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %once = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^outer(%c0, %0 : index, !stream.resource<*>)
^outer(%i: index, %x: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^preheader, ^exit(%x : !stream.resource<*>)
^preheader:
  cf.br ^inner(%c0, %once : index, !stream.resource<*>)
^inner(%j: index, %acc: !stream.resource<*>):
  %again = arith.cmpi slt, %j, %n : index
  cf.cond_br %again, ^body, ^after(%acc : !stream.resource<*>)
^body:
  %moved = stream.async.transfer %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %j1 = arith.addi %j, %c1 : index
  cf.br ^inner(%j1, %moved : index, !stream.resource<*>)
^after(%r: !stream.resource<*>):
  // expected-error @+1 {{'stream.async.move' op source storage is still observed elsewhere: 'cf.br' at}}
  %t = stream.async.move %r : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
  %i1 = arith.addi %i, %c1 : index
  cf.br ^outer(%i1, %t : index, !stream.resource<*>)
^exit(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

// An if-else inside a loop of blocks, as scf-to-cf leaves it: one branch hands the value the
// loop body made to the latch, the other moves it. The handover reaches the move only through
// the block that makes the value anew, so it handed earlier storage.

util.func public @loop_branch_hands_on_other_moves(%size: index, %n: index, %cond: i1) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^header(%c0, %0 : index, !stream.resource<*>)
^header(%i: index, %acc: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^exit(%acc : !stream.resource<*>)
^body:
  %y = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.cond_br %cond, ^then, ^else
^then:
  cf.br ^latch(%y : !stream.resource<*>)
^else:
  %m = stream.async.move %y : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  cf.br ^latch(%m : !stream.resource<*>)
^latch(%z: !stream.resource<*>):
  %i1 = arith.addi %i, %c1 : index
  cf.br ^header(%i1, %z : index, !stream.resource<*>)
^exit(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

// The same loop when the value is handed on before the branch: in the iteration that moves
// it, the block argument it was handed to still names the moved storage, and a later block
// passes that on.

util.func public @loop_hands_on_then_moves(%size: index, %n: index, %cond: i1) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^header(%c0, %0 : index, !stream.resource<*>)
^header(%i: index, %acc: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^exit(%acc : !stream.resource<*>)
^body:
  %y = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^middle(%y : !stream.resource<*>)
^middle(%w: !stream.resource<*>):
  cf.cond_br %cond, ^then, ^else
^then:
  cf.br ^latch(%w : !stream.resource<*>)
^else:
  // expected-error @+1 {{'stream.async.move' op source may be used after the move: used in a later block}}
  %m = stream.async.move %y : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  cf.br ^tail
^tail:
  // expected-note @+1 {{later use here}}
  cf.br ^latch(%w : !stream.resource<*>)
^latch(%z: !stream.resource<*>):
  %i1 = arith.addi %i, %c1 : index
  cf.br ^header(%i1, %z : index, !stream.resource<*>)
^exit(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

// A loop of blocks that exports the storage it made in one iteration and moves it in another:
// the export reaches the move only through the block that makes the value anew.

util.func public @loop_exports_earlier_storage(%size: index, %n: index, %cond: i1) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^header(%c0, %0 : index, !stream.resource<*>)
^header(%i: index, %acc: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^exit(%acc : !stream.resource<*>)
^body:
  %y = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.cond_br %cond, ^then, ^else
^then:
  %view = stream.tensor.export %y : tensor<4xf32> in !stream.resource<*>{%size} -> !hal.buffer_view
  cf.br ^latch(%acc : !stream.resource<*>)
^else:
  %m = stream.async.move %y : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  cf.br ^latch(%m : !stream.resource<*>)
^latch(%z: !stream.resource<*>):
  %i1 = arith.addi %i, %c1 : index
  cf.br ^header(%i1, %z : index, !stream.resource<*>)
^exit(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

// The same export before the branch: the storage the move consumes is the one the host holds.

util.func public @loop_exports_then_moves(%size: index, %n: index, %cond: i1) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^header(%c0, %0 : index, !stream.resource<*>)
^header(%i: index, %acc: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^exit(%acc : !stream.resource<*>)
^body:
  %y = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %view = stream.tensor.export %y : tensor<4xf32> in !stream.resource<*>{%size} -> !hal.buffer_view
  cf.cond_br %cond, ^then, ^else
^then:
  cf.br ^latch(%acc : !stream.resource<*>)
^else:
  // expected-error @+1 {{'stream.async.move' op source storage escaped before the move, through 'stream.tensor.export'}}
  %m = stream.async.move %y : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  cf.br ^latch(%m : !stream.resource<*>)
^latch(%z: !stream.resource<*>):
  %i1 = arith.addi %i, %c1 : index
  cf.br ^header(%i1, %z : index, !stream.resource<*>)
^exit(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

// stream.cmd.move in a loop of blocks whose back edge rotates the carried values (the second
// takes the first, the first a new allocation), as the lowering leaves such an scf.for: the
// exit's first value is the storage the header's first argument names now, which the back
// edge never handed to the second.

util.func public @cmd_loop_rotates_carried_values(%size: index, %n: index) -> (!stream.resource<transient>, !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a, %ta = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%size} => !stream.timepoint
  %b, %tb = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%size} => !stream.timepoint
  cf.br ^bb1(%c0, %a, %b : index, !stream.resource<transient>, !stream.resource<transient>)
^bb1(%i: index, %x: !stream.resource<transient>, %y: !stream.resource<transient>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^bb2, ^bb3(%x, %y : !stream.resource<transient>, !stream.resource<transient>)
^bb2:
  %f, %tf = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%size} => !stream.timepoint
  %i1 = arith.addi %i, %c1 : index
  cf.br ^bb1(%i1, %f, %x : index, !stream.resource<transient>, !stream.resource<transient>)
^bb3(%p: !stream.resource<transient>, %q: !stream.resource<transient>):
  %m, %tm = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) %p : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size} => !stream.timepoint
  util.return %m, %q : !stream.resource<transient>, !stream.resource<transient>
}

// -----

// The same loop passing the first value as both: the exit's two values are one storage.

util.func public @cmd_loop_duplicates_carried_value(%size: index, %n: index) -> (!stream.resource<transient>, !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a, %ta = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%size} => !stream.timepoint
  %b, %tb = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%size} => !stream.timepoint
  cf.br ^bb1(%c0, %a, %b : index, !stream.resource<transient>, !stream.resource<transient>)
^bb1(%i: index, %x: !stream.resource<transient>, %y: !stream.resource<transient>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^bb2, ^bb3(%x, %y : !stream.resource<transient>, !stream.resource<transient>)
^bb2:
  %i1 = arith.addi %i, %c1 : index
  cf.br ^bb1(%i1, %x, %x : index, !stream.resource<transient>, !stream.resource<transient>)
^bb3(%p: !stream.resource<transient>, %q: !stream.resource<transient>):
  // expected-error @+1 {{'stream.cmd.move' op source storage is still observed elsewhere: 'cf.br' at}}
  %m, %tm = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) %p : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size} => !stream.timepoint
  util.return %m, %q : !stream.resource<transient>, !stream.resource<transient>
}
