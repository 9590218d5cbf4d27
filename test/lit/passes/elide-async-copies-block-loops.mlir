// RUN: streamopt --elide-async-copies --split-input-file %s | filecheck %s

// Loops of blocks, as --convert-scf-to-cf leaves scf loops or as IREE's own dumps have them
// (docs/storage-model.md, exclusive use, rule 2): a name a block of the loop defines (its
// argument, or the result of a modelled op in it) is bound anew each time control gets back
// there, so what happens to it on a path that passes through that block again concerns other
// storage. Each case comes with a twin where the same storage is still observed, and the copy
// stays.

// Nested loops (an scf.for in an scf.while): the inner header hands its argument to the exit
// block, whose transfer is then the storage's last use; the body's transfer of the same
// argument, on the other successor, comes after the argument was bound anew.

// CHECK-LABEL: util.func public @nested_loops_move_at_both_exits
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
// CHECK: ^bb3({{.+}}, [[ACC:%[a-z0-9_]+]]: !stream.resource<*>)
^inner(%j: index, %acc: !stream.resource<*>):
  %again = arith.cmpi slt, %j, %n : index
  cf.cond_br %again, ^body, ^after(%acc : !stream.resource<*>)
^body:
  // CHECK: stream.async.move [[ACC]]
  %moved = stream.async.transfer %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %j1 = arith.addi %j, %c1 : index
  cf.br ^inner(%j1, %moved : index, !stream.resource<*>)
// CHECK: ^bb5([[R:%[a-z0-9_]+]]: !stream.resource<*>)
^after(%r: !stream.resource<*>):
  // CHECK: stream.async.move [[R]]
  %t = stream.async.transfer %r : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
  %i1 = arith.addi %i, %c1 : index
  cf.br ^outer(%i1, %t : index, !stream.resource<*>)
^exit(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

// The inner loop starts from storage made before the outer loop: each outer iteration hands
// that one storage to the inner header again, so neither transfer is its last use.

// CHECK-LABEL: util.func public @nested_loops_inner_init_from_outside
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
// CHECK: ^bb3({{.+}}, [[ACC:%[a-z0-9_]+]]: !stream.resource<*>)
^inner(%j: index, %acc: !stream.resource<*>):
  %again = arith.cmpi slt, %j, %n : index
  cf.cond_br %again, ^body, ^after(%acc : !stream.resource<*>)
^body:
  // CHECK: stream.async.transfer [[ACC]]
  %moved = stream.async.transfer %acc : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  %j1 = arith.addi %j, %c1 : index
  cf.br ^inner(%j1, %moved : index, !stream.resource<*>)
// CHECK: ^bb5([[R:%[a-z0-9_]+]]: !stream.resource<*>)
^after(%r: !stream.resource<*>):
  // CHECK: stream.async.transfer [[R]]
  %t = stream.async.transfer %r : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%size}
  %i1 = arith.addi %i, %c1 : index
  cf.br ^outer(%i1, %t : index, !stream.resource<*>)
^exit(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

// An if-else in a loop of blocks (an scf.if in an scf.for): one branch hands the value the
// body made to the latch, the other transfers it. The handover reaches the transfer only
// through the block that makes the value anew.

// CHECK-LABEL: util.func public @loop_branch_hands_on_other_moves
util.func public @loop_branch_hands_on_other_moves(%size: index, %n: index, %cond: i1) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^header(%c0, %0 : index, !stream.resource<*>)
^header(%i: index, %acc: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^exit(%acc : !stream.resource<*>)
// CHECK: ^bb2:
// CHECK-NEXT: [[Y:%[a-z0-9_]+]] = stream.async.splat
^body:
  %y = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.cond_br %cond, ^then, ^else
^then:
  cf.br ^latch(%y : !stream.resource<*>)
^else:
  // CHECK: stream.async.move [[Y]]
  %m = stream.async.transfer %y : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  cf.br ^latch(%m : !stream.resource<*>)
^latch(%z: !stream.resource<*>):
  %i1 = arith.addi %i, %c1 : index
  cf.br ^header(%i1, %z : index, !stream.resource<*>)
^exit(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

// The value is handed on before the branch: in the iteration that transfers it, the block
// argument it was handed to still names the same storage, and a later block passes it on.

// CHECK-LABEL: util.func public @loop_hands_on_then_transfers
util.func public @loop_hands_on_then_transfers(%size: index, %n: index, %cond: i1) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^header(%c0, %0 : index, !stream.resource<*>)
^header(%i: index, %acc: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^exit(%acc : !stream.resource<*>)
// CHECK: ^bb2:
// CHECK-NEXT: [[Y:%[a-z0-9_]+]] = stream.async.splat
^body:
  %y = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^middle(%y : !stream.resource<*>)
^middle(%w: !stream.resource<*>):
  cf.cond_br %cond, ^then, ^else
^then:
  cf.br ^latch(%w : !stream.resource<*>)
^else:
  // CHECK: stream.async.transfer [[Y]]
  %m = stream.async.transfer %y : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  cf.br ^tail
^tail:
  cf.br ^latch(%w : !stream.resource<*>)
^latch(%z: !stream.resource<*>):
  %i1 = arith.addi %i, %c1 : index
  cf.br ^header(%i1, %z : index, !stream.resource<*>)
^exit(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

// A loop of blocks exports the value it made in one iteration and transfers it in another:
// the export reaches the transfer only through the block that makes the value anew.

// CHECK-LABEL: util.func public @loop_exports_earlier_storage
util.func public @loop_exports_earlier_storage(%size: index, %n: index, %cond: i1) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^header(%c0, %0 : index, !stream.resource<*>)
^header(%i: index, %acc: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^exit(%acc : !stream.resource<*>)
// CHECK: ^bb2:
// CHECK-NEXT: [[Y:%[a-z0-9_]+]] = stream.async.splat
^body:
  %y = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.cond_br %cond, ^then, ^else
^then:
  %view = stream.tensor.export %y : tensor<4xf32> in !stream.resource<*>{%size} -> !hal.buffer_view
  cf.br ^latch(%acc : !stream.resource<*>)
^else:
  // CHECK: stream.async.move [[Y]]
  %m = stream.async.transfer %y : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  cf.br ^latch(%m : !stream.resource<*>)
^latch(%z: !stream.resource<*>):
  %i1 = arith.addi %i, %c1 : index
  cf.br ^header(%i1, %z : index, !stream.resource<*>)
^exit(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

// The export runs before the branch: the host holds the storage the transfer would consume.

// CHECK-LABEL: util.func public @loop_exports_then_transfers
util.func public @loop_exports_then_transfers(%size: index, %n: index, %cond: i1) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^header(%c0, %0 : index, !stream.resource<*>)
^header(%i: index, %acc: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^exit(%acc : !stream.resource<*>)
// CHECK: ^bb2:
// CHECK-NEXT: [[Y:%[a-z0-9_]+]] = stream.async.splat
^body:
  %y = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %view = stream.tensor.export %y : tensor<4xf32> in !stream.resource<*>{%size} -> !hal.buffer_view
  cf.cond_br %cond, ^then, ^else
^then:
  cf.br ^latch(%acc : !stream.resource<*>)
^else:
  // CHECK: stream.async.transfer [[Y]]
  %m = stream.async.transfer %y : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  cf.br ^latch(%m : !stream.resource<*>)
^latch(%z: !stream.resource<*>):
  %i1 = arith.addi %i, %c1 : index
  cf.br ^header(%i1, %z : index, !stream.resource<*>)
^exit(%out: !stream.resource<*>):
  util.return %out : !stream.resource<*>
}

// -----

// The back edge rotates the carried values (the second takes the first, the first a new
// value): what the exit gets as its first value is the storage the header's first argument
// names now; the second argument holds the storage that one named the time before.

// CHECK-LABEL: util.func public @loop_rotates_carried_values
util.func public @loop_rotates_carried_values(%size: index, %n: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %a = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %b = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^header(%c0, %a, %b : index, !stream.resource<*>, !stream.resource<*>)
^header(%i: index, %x: !stream.resource<*>, %y: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^exit(%x, %y : !stream.resource<*>, !stream.resource<*>)
^body:
  %fresh = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %i1 = arith.addi %i, %c1 : index
  cf.br ^header(%i1, %fresh, %x : index, !stream.resource<*>, !stream.resource<*>)
// CHECK: ^bb3([[P:%[a-z0-9_]+]]: !stream.resource<*>, [[Q:%[a-z0-9_]+]]: !stream.resource<*>)
^exit(%p: !stream.resource<*>, %q: !stream.resource<*>):
  // CHECK: stream.async.move [[P]]
  %m = stream.async.transfer %p : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %m, %q : !stream.resource<*>, !stream.resource<*>
}

// -----

// The back edge passes the first value as both: the exit's two values are one storage.

// CHECK-LABEL: util.func public @loop_duplicates_carried_value
util.func public @loop_duplicates_carried_value(%size: index, %n: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %a = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  %b = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  cf.br ^header(%c0, %a, %b : index, !stream.resource<*>, !stream.resource<*>)
^header(%i: index, %x: !stream.resource<*>, %y: !stream.resource<*>):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^exit(%x, %y : !stream.resource<*>, !stream.resource<*>)
^body:
  %i1 = arith.addi %i, %c1 : index
  cf.br ^header(%i1, %x, %x : index, !stream.resource<*>, !stream.resource<*>)
// CHECK: ^bb3([[P:%[a-z0-9_]+]]: !stream.resource<*>, [[Q:%[a-z0-9_]+]]: !stream.resource<*>)
^exit(%p: !stream.resource<*>, %q: !stream.resource<*>):
  // CHECK: stream.async.transfer [[P]]
  %m = stream.async.transfer %p : !stream.resource<*>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %m, %q : !stream.resource<*>, !stream.resource<*>
}
