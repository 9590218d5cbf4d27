// RUN: streamopt --lower-async-to-cmd --split-input-file %s | filecheck %s

// A splat becomes an allocation and a fill; the move waits for the fill and the function waits
// for the move before returning its result.

// CHECK-LABEL: util.func public @single_move
util.func public @single_move(%size: index) -> !stream.resource<transient> {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[ALLOC:.+]], %[[ALLOC_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%arg0} => !stream.timepoint
  // CHECK-NEXT: %[[FILL:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[ALLOC_T]]) => with(%[[ALLOC]] as %[[ARG:.+]]: !stream.resource<transient>{%arg0}) {
  // CHECK-NEXT:   stream.cmd.fill %c1_i32, %[[ARG]][%c0 for %arg0] : i32 -> !stream.resource<transient>{%arg0}
  // CHECK-NEXT: } => !stream.timepoint
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK-NEXT: %[[MOVED:.+]], %[[MOVED_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[FILL]]) => %[[ALLOC]] : !stream.resource<transient>{%arg0} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%arg0} => !stream.timepoint
  %1 = stream.async.move %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
  // The moved-from storage is never freed: the move frees it.
  // CHECK-NOT: stream.resource.dealloca
  // CHECK-NEXT: %[[READY:.+]] = stream.timepoint.await %[[MOVED_T]] => %[[MOVED]] : !stream.resource<transient>{%arg0}
  // CHECK-NEXT: util.return %[[READY]]
  util.return %1 : !stream.resource<transient>
}

// -----

// A -> B -> A: each move waits for the work before it on the storage; the result of the round
// trip is a new allocation on A. The value computed on B is freed after its last use there.

// CHECK-LABEL: util.func public @round_trip
util.func public @round_trip(%size: index, %input: !stream.resource<external>) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  // CHECK: %[[A:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>)
  // CHECK: %[[ON_A:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>)
  // CHECK: stream.cmd.dispatch @ex::@fn
  // CHECK-NEXT: ro %{{.+}} : !stream.resource<external>{%arg0},
  // CHECK-NEXT: wo %{{.+}} : !stream.resource<transient>{%arg0}
  %0 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%input[%c0 to %size for %size]) : (!stream.resource<external>{%size}) -> !stream.resource<transient>{%size}
  // CHECK: %[[B:.+]], %[[B_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[ON_A]]) => %[[A]] : {{.+}} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>)
  %1 = stream.async.move %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
  // The move runs on its target, so B's program order puts the next allocation after it.
  // CHECK: %[[B2:.+]], %[[B2_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>) await(%[[B_T]]) => !stream.resource<transient>{%arg0}
  // CHECK-NEXT: %[[ON_B:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_b>) await(%[[B2_T]]) => with(%[[B]] as %{{.+}}, %[[B2]] as %{{.+}})
  %2 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@fn(%1[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
  // CHECK: %[[FREE:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_b>) await(%[[ON_B]]) => %[[B]] : !stream.resource<transient>{%arg0} => !stream.timepoint
  // CHECK-NEXT: %[[BACK:.+]], %[[BACK_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%[[ON_B]]) => %[[B2]] : {{.+}} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>)
  %3 = stream.async.move %2 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%size}
  // CHECK-NEXT: %[[DONE:.+]] = stream.timepoint.join max(%[[BACK_T]], %[[FREE]])
  // CHECK-NEXT: stream.timepoint.await %[[DONE]] => %[[BACK]]
  util.return %3 : !stream.resource<transient>
}

// -----

// A source read by a dispatch on another affinity and then moved: the move waits for the read.

// CHECK-LABEL: util.func public @read_then_move
util.func public @read_then_move(%size: index) -> (!stream.resource<transient>, !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SRC:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>)
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: %[[READ:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_b>) await(%{{.+}}) => with(%[[SRC]] as
  // CHECK-NEXT: stream.cmd.dispatch @ex::@read
  %1 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
  // CHECK: stream.cmd.move origin on(#hal.device.affinity<@dev_c>) await(%[[READ]]) => %[[SRC]]
  %2 = stream.async.move %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<transient>{%size}
  util.return %1, %2 : !stream.resource<transient>, !stream.resource<transient>
}

// -----

// A transfer that stays a copy (its source is used again) next to a move of the same source:
// the copy runs on the source's affinity, flushes to the target, and the move waits for it.
// A transfer executing on its target invalidates what it reads from the source's affinity.

// CHECK-LABEL: util.func public @transfer_then_move
util.func public @transfer_then_move(%size: index) -> (!stream.resource<transient>, !stream.resource<transient>, !stream.resource<transient>) {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SRC:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>)
  // CHECK: %[[FILL:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>)
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: %[[DST:.+]], %[[DST_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>) : !stream.resource<transient>{%arg0}
  // CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[FILL]], %[[DST_T]])
  // CHECK-NEXT: %[[COPY:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[J]]) => with(%[[SRC]] as %[[S:.+]]: !stream.resource<transient>{%arg0}, %[[DST]] as %[[D:.+]]: !stream.resource<transient>{%arg0}) {
  // CHECK-NEXT: stream.cmd.copy %[[S]][%c0], %[[D]][%c0], %arg0
  // CHECK-NEXT: stream.cmd.flush to(#hal.device.affinity<@dev_b>) %[[D]][%c0 for %arg0]
  // CHECK-NEXT: } => !stream.timepoint
  %1 = stream.async.transfer %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
  // CHECK: stream.cmd.execute on(#hal.device.affinity<@dev_c>) await(%{{.+}}) => with(%[[SRC]] as %[[S2:.+]]: !stream.resource<transient>{%arg0}, %{{.+}} as %[[D2:.+]]: !stream.resource<transient>{%arg0}) {
  // CHECK-NEXT: stream.cmd.invalidate from(#hal.device.affinity<@dev_a>) %[[S2]][%c0 for %arg0]
  // CHECK-NEXT: stream.cmd.copy %[[S2]][%c0], %[[D2]][%c0], %arg0
  // CHECK-NEXT: } => !stream.timepoint
  %2 = stream.async.transfer on(#hal.device.affinity<@dev_c>) %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<transient>{%size}
  // CHECK: %[[J2:.+]] = stream.timepoint.join max(%[[COPY]], %{{.+}})
  // CHECK-NEXT: stream.cmd.move origin on(#hal.device.affinity<@dev_d>) await(%[[J2]]) => %[[SRC]]
  %3 = stream.async.move %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_d>) !stream.resource<transient>{%size}
  util.return %1, %2, %3 : !stream.resource<transient>, !stream.resource<transient>, !stream.resource<transient>
}

// -----

// Moves that change the lifetime (transient to external) produce an allocation of the new
// type; an export waits for the moved value.

// CHECK-LABEL: util.func public @lifetime_changing_move
util.func public @lifetime_changing_move(%view: !hal.buffer_view) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  // CHECK: %[[IN:.+]] = stream.tensor.import on(#hal.device.affinity<@dev_a>)
  %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %view : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%c16}
  // CHECK: %[[T:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>) : !stream.resource<transient>{%c16}
  %1 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@fn(%0[%c0 to %c16 for %c16]) : (!stream.resource<external>{%c16}) -> !stream.resource<transient>{%c16}
  // CHECK: %[[OUT:.+]], %[[OUT_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%{{.+}}) => %[[T]] : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<external>{%c16} => !stream.timepoint
  %2 = stream.async.move %1 : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<external>{%c16}
  // Imported and exported storage is never freed here.
  // CHECK-NOT: stream.resource.dealloca
  // CHECK: %[[READY:.+]] = stream.timepoint.await %[[OUT_T]] => %[[OUT]] : !stream.resource<external>{%c16}
  // CHECK-NEXT: stream.tensor.export on(#hal.device.affinity<@dev_a>) %[[READY]] : tensor<4xf32> in !stream.resource<external>{%c16} -> !hal.buffer_view
  %3 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %2 : tensor<4xf32> in !stream.resource<external>{%c16} -> !hal.buffer_view
  util.return %3 : !hal.buffer_view
}

// -----

// In-place ops write their operand's storage: no allocation for tied results, `rw` for a tied
// dispatch operand, and each write waits for the write before it.

// CHECK-LABEL: util.func public @tied
util.func public @tied(%size: index, %arg: !stream.resource<transient>) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  // CHECK: %[[R:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[SPLAT:.+]] = stream.cmd.execute
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK-NOT: stream.resource.alloca
  // CHECK: %[[FILL:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[SPLAT]]) => with(%[[R]] as %[[F:.+]]: !stream.resource<transient>{%arg0}) {
  // CHECK-NEXT: stream.cmd.fill %c2_i32, %[[F]][%c0 for %c4] : i32 -> !stream.resource<transient>{%arg0}
  %1 = stream.async.fill on(#hal.device.affinity<@dev_a>) %c2_i32, %0[%c0 to %c4 for %c4] : i32 -> %0 as !stream.resource<transient>{%size}
  // CHECK: %[[DISPATCH:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[FILL]]) => with(%[[R]] as %[[X:.+]]: !stream.resource<transient>{%arg0}, %arg1 as %[[Y:.+]]: !stream.resource<transient>{%arg0}) {
  // CHECK-NEXT: stream.cmd.dispatch @ex::@inplace {
  // CHECK-NEXT: rw %[[X]][%c0 for %arg0] : !stream.resource<transient>{%arg0},
  // CHECK-NEXT: ro %[[Y]][%c0 for %arg0] : !stream.resource<transient>{%arg0}
  %2 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@inplace(%1[%c0 to %size for %size], %arg[%c0 to %size for %size]) : (!stream.resource<transient>{%size}, !stream.resource<transient>{%size}) -> %1{%size}
  // CHECK: %[[UPDATE:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[DISPATCH]]) => with(%arg1 as %[[U:.+]]: !stream.resource<transient>{%arg0}, %[[R]] as %[[V:.+]]: !stream.resource<transient>{%arg0}) {
  // CHECK-NEXT: stream.cmd.copy %[[U]][%c0], %[[V]][%c0], %arg0
  %3 = stream.async.update on(#hal.device.affinity<@dev_a>) %arg, %2[%c0 to %size] : !stream.resource<transient>{%size} -> %2 as !stream.resource<transient>{%size}
  // CHECK: %[[COPY:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[UPDATE]]) => with(%arg1 as %[[P:.+]]: !stream.resource<transient>{%arg0}, %[[R]] as %[[Q:.+]]: !stream.resource<transient>{%arg0}) {
  // CHECK-NEXT: stream.cmd.copy %[[P]][%c0], %[[Q]][%c4], %c4
  %4 = stream.async.copy on(#hal.device.affinity<@dev_a>) %arg[%c0 to %c4], %3[%c4 to %c4], %c4 : !stream.resource<transient>{%size} -> %3 as !stream.resource<transient>{%size}
  // CHECK: stream.timepoint.await %[[COPY]] => %[[R]]
  util.return %4 : !stream.resource<transient>
}

// -----

// Moves inside scf.if branches: each branch yields, next to the resource, the timepoint of its
// contents and one timepoint per affinity it issued work on. The splat is moved in one branch
// and only read in the other: that one frees it, the moving one does not.

// CHECK-LABEL: util.func public @move_in_if
util.func public @move_in_if(%size: index, %cond: i1) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[IMM:.+]] = stream.timepoint.immediate
  // CHECK: %[[SRC:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[FILL:.+]] = stream.cmd.execute
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: %[[IF:.+]]:4 = scf.if %arg1 -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint, !stream.timepoint) {
  %1 = scf.if %cond -> (!stream.resource<transient>) {
    // CHECK: %[[TO_B:.+]], %[[TO_B_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[FILL]]) => %[[SRC]]
    // The move hands the splat's storage to dev_b: nothing in this branch frees it.
    // CHECK-NOT: stream.resource.dealloca {{.+}} => %[[SRC]] :
    %2 = stream.async.move %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
    // CHECK: %[[FREE_B:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_b>) await(%{{.+}}) => %[[TO_B]] :
    %3 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@fn(%2[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
    // CHECK-NEXT: %[[TO_A:.+]], %[[TO_A_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_a>)
    %4 = stream.async.move %3 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%size}
    // The resource, its timepoint, then the last op on dev_b (the free after the dispatch) and
    // on dev_a (the move back, which runs on its target).
    // CHECK-NEXT: scf.yield %[[TO_A]], %[[TO_A_T]], %[[FREE_B]], %[[TO_A_T]] : !stream.resource<transient>, !stream.timepoint, !stream.timepoint, !stream.timepoint
    scf.yield %4 : !stream.resource<transient>
  } else {
    // CHECK-NEXT: } else {
    // CHECK-NEXT: %[[OTHER:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) await(%[[FILL]])
    // CHECK-NEXT: %[[ELSE:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%{{.+}}) => with(%[[SRC]] as
    %5 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%0[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
    // This branch still owns the splat: it frees it once the dispatch has read it, on dev_a
    // where it was allocated.
    // CHECK: %[[FREE_SRC:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[ELSE]]) => %[[SRC]] : !stream.resource<transient>{%arg0} => !stream.timepoint
    // Nothing ran on dev_b on this path: an immediate timepoint; dev_a's last op is the free.
    // CHECK-NEXT: scf.yield %[[OTHER]], %[[ELSE]], %[[IMM]], %[[FREE_SRC]]
    scf.yield %5 : !stream.resource<transient>
  }
  // The next op on dev_a waits for dev_a's work in the branch and for the branch's result.
  // CHECK: %{{.+}}, %[[NEXT_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) await(%[[IF]]#3)
  // CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[NEXT_T]], %[[IF]]#1)
  // CHECK-NEXT: %[[LAST:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[J]]) => with(%[[IF]]#0 as
  %6 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%1[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
  // The branch result owns what both branches allocated: freed after its last use.
  // CHECK: %[[SIZE:.+]] = stream.resource.size %[[IF]]#0
  // CHECK-NEXT: %[[FREE:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[LAST]]) => %[[IF]]#0 : !stream.resource<transient>{%[[SIZE]]}
  // The function waits for everything, dev_b's work included.
  // CHECK-NEXT: %[[ALL:.+]] = stream.timepoint.join max(%[[FREE]], %[[IF]]#2)
  // CHECK-NEXT: stream.timepoint.await %[[ALL]] =>
  util.return %6 : !stream.resource<transient>
}

// -----

// A loop carrying a value to dev_b and back each iteration: the iteration arguments carry the
// resource's timepoint and one timepoint per affinity, so each iteration's first move waits
// for the previous iteration.

// CHECK-LABEL: util.func public @move_in_loop
util.func public @move_in_loop(%size: index, %n: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[IMM:.+]] = stream.timepoint.immediate
  // CHECK: %[[SRC:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[FILL:.+]] = stream.cmd.execute
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: %[[LOOP:.+]]:4 = scf.for %{{.+}} = %c0 to %arg1 step %c1 iter_args(%[[ACC:.+]] = %[[SRC]], %[[ACC_T:.+]] = %[[FILL]], %[[A_T:.+]] = %[[FILL]], %[[B_T:.+]] = %[[IMM]]) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint, !stream.timepoint) {
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %0) -> (!stream.resource<transient>) {
    // The move runs on its target: it follows the previous iteration's last op on dev_b and
    // the value's contents.
    // CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[B_T]], %[[ACC_T]])
    // CHECK-NEXT: %[[ON_B:.+]], %[[ON_B_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[J]]) => %[[ACC]]
    %2 = stream.async.move %acc : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
    // CHECK-NEXT: %[[NEW:.+]], %[[NEW_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>) await(%[[ON_B_T]])
    // CHECK-NEXT: %[[DISPATCH:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_b>) await(%[[NEW_T]]) => with(%[[ON_B]] as %{{.+}}, %[[NEW]] as %{{.+}})
    %3 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@fn(%2[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
    // The value moved to dev_b is freed in the iteration that made it.
    // CHECK: %[[FREE:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_b>) await(%[[DISPATCH]]) => %[[ON_B]]
    // The move back runs on dev_a: it follows dev_a's last op and the dispatch writing its
    // source, not the free on dev_b.
    // CHECK-NEXT: %[[J2:.+]] = stream.timepoint.join max(%[[A_T]], %[[DISPATCH]])
    // CHECK-NEXT: %[[BACK:.+]], %[[BACK_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%[[J2]]) => %[[NEW]]
    %4 = stream.async.move %3 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%size}
    // The resource, its timepoint, then the last op on dev_a (the move back) and on dev_b (the
    // free).
    // CHECK-NEXT: scf.yield %[[BACK]], %[[BACK_T]], %[[BACK_T]], %[[FREE]]
    scf.yield %4 : !stream.resource<transient>
  }
  // CHECK: %[[DONE:.+]] = stream.timepoint.join max(%[[LOOP]]#2, %[[LOOP]]#3, %[[LOOP]]#1)
  // CHECK: stream.timepoint.await %[[DONE]] => %[[LOOP]]#0
  util.return %1 : !stream.resource<transient>
}

// -----

// Where deallocas go: after the loop reading the value (waiting for every iteration's read),
// right after an unused value, at each iteration for values made and consumed in the body;
// returned values are not freed.

// CHECK-LABEL: util.func public @dealloca_placement
util.func public @dealloca_placement(%size: index, %n: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[READ_IN_LOOP:.+]], %{{.+}} = stream.resource.alloca
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: %[[INIT:.+]], %{{.+}} = stream.resource.alloca
  %1 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: %[[LOOP:.+]]:4 = scf.for {{.+}} iter_args(%[[ACC:[^ ]+]] = %[[INIT]],
  %2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %1) -> (!stream.resource<transient>) {
    // CHECK: %[[READ:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_b>)
    %3 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@fn(%0[%c0 to %size for %size], %acc[%c0 to %size for %size]) : (!stream.resource<transient>{%size}, !stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
    // Each iteration frees the value it received (the initial one, then the previous
    // iteration's): its sources differ in affinity, so it is freed on its allocating queue.
    // CHECK: stream.resource.dealloca origin await(%{{.+}}) => %[[ACC]]
    scf.yield %3 : !stream.resource<transient>
  }
  // CHECK: %[[AFTER:.+]] = stream.timepoint.join max(%{{.+}}, %[[LOOP]]#2, %[[LOOP]]#3)
  // CHECK-NEXT: %[[FREE:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[AFTER]]) => %[[READ_IN_LOOP]]
  // CHECK-NEXT: %[[UNUSED:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) await(%[[FREE]])
  // CHECK-NEXT: %[[MADE:.+]] = stream.cmd.execute
  // CHECK: stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[MADE]]) => %[[UNUSED]]
  %unused = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK-NOT: stream.resource.dealloca
  // CHECK: util.return
  util.return %2 : !stream.resource<transient>
}

// -----

// Clones, slices and casts: copies into new allocations, except a cast that keeps the type
// (a cast from or to an unrefined `*` lifetime is an error: lower-to-cmd-invalid.mlir).

// CHECK-LABEL: util.func public @copies
util.func public @copies(%size: index, %arg: !stream.resource<transient>) -> (!stream.resource<transient>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // CHECK: %[[SLICE:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%c4}
  // CHECK: stream.cmd.copy %{{.+}}[%c4], %{{.+}}[%c0], %c4 : !stream.resource<transient>{%arg0} -> !stream.resource<transient>{%c4}
  %0 = stream.async.slice on(#hal.device.affinity<@dev_a>) %arg[%c4 to %size] : !stream.resource<transient>{%size} -> !stream.resource<transient>{%c4}
  // CHECK: %[[CLONE:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>)
  // CHECK: stream.cmd.copy %{{.+}}[%c0], %{{.+}}[%c0], %c4 : !stream.resource<transient>{%c4} -> !stream.resource<transient>{%c4}
  %1 = stream.async.clone on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<transient>{%c4} -> !stream.resource<transient>{%c4}
  %2 = stream.async.cast on(#hal.device.affinity<@dev_a>) %1 : !stream.resource<transient>{%c4} -> !stream.resource<transient>{%c4}
  // CHECK: %[[EXTERNAL:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) await(%{{.+}}) => !stream.resource<external>{%c4}
  // CHECK: stream.cmd.copy %{{.+}}[%c0], %{{.+}}[%c0], %c4 : !stream.resource<transient>{%c4} -> !stream.resource<external>{%c4}
  %t = stream.async.clone on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<transient>{%c4} -> !stream.resource<transient>{%c4}
  %3 = stream.async.cast on(#hal.device.affinity<@dev_a>) %t : !stream.resource<transient>{%c4} -> !stream.resource<external>{%c4}
  // CHECK: stream.timepoint.await %{{.+}} => %[[CLONE]], %[[EXTERNAL]]
  util.return %2, %3 : !stream.resource<transient>, !stream.resource<external>
}

// -----

// Constants are uploaded with stream.resource.constants; a global store waits for the value.

// CHECK-LABEL: util.initializer
util.global private @weights : !stream.resource<constant>
util.initializer {
  %c16 = arith.constant 16 : index
  // CHECK: %[[CST:.+]], %[[CST_T:.+]] = stream.resource.constants on(#hal.device.affinity<@dev_b>) :
  // CHECK-NEXT: !stream.resource<constant>{%c16} = dense<[1, 2, 3, 4]> : tensor<4xi32>
  // CHECK-NEXT: => !stream.timepoint
  %cst = stream.async.constant on(#hal.device.affinity<@dev_b>) : !stream.resource<constant>{%c16} = dense<[1, 2, 3, 4]> : tensor<4xi32>
  // CHECK-NEXT: %[[READY:.+]] = stream.timepoint.await %[[CST_T]] => %[[CST]] : !stream.resource<constant>{%c16}
  // CHECK-NEXT: util.global.store %[[READY]], @weights
  util.global.store %cst, @weights : !stream.resource<constant>
  util.return
}

// -----

// Callers wait for what they pass; callees return ready values.

// CHECK-LABEL: util.func private @callee
util.func private @callee(%arg0: !stream.resource<transient>, %size: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  // CHECK: %[[R:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[DISPATCH:.+]] = stream.cmd.execute
  %0 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%arg0[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
  // CHECK: %[[READY:.+]] = stream.timepoint.await %[[DISPATCH]] => %[[R]]
  // CHECK-NEXT: util.return %[[READY]]
  util.return %0 : !stream.resource<transient>
}
// CHECK-LABEL: util.func public @caller
util.func public @caller(%size: index) -> !stream.resource<transient> {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[V:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[FILL:.+]] = stream.cmd.execute
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: %[[ARG:.+]] = stream.timepoint.await %[[FILL]] => %[[V]] : !stream.resource<transient>{%arg0}
  // CHECK-NEXT: util.call @callee(%[[ARG]], %arg0)
  %1 = util.call @callee(%0, %size) : (!stream.resource<transient>, index) -> !stream.resource<transient>
  util.return %1 : !stream.resource<transient>
}

// -----

// cf branches pass, next to each resource, its timepoint, and one timepoint per affinity.

// CHECK-LABEL: util.func public @cf_branches
util.func public @cf_branches(%size: index, %cond: i1) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[IMM:.+]] = stream.timepoint.immediate
  // CHECK: %[[V:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[FILL:.+]] = stream.cmd.execute
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // Both successors still use the splat: the entry block does not free it.
  // CHECK-NOT: stream.resource.dealloca
  // CHECK: cf.cond_br %arg1, ^bb1(%[[V]], %[[FILL]], %[[FILL]], %[[IMM]] : !stream.resource<transient>, !stream.timepoint, !stream.timepoint, !stream.timepoint), ^bb2(%[[FILL]], %[[IMM]] : !stream.timepoint, !stream.timepoint)
  cf.cond_br %cond, ^bb1(%0 : !stream.resource<transient>), ^bb2
// CHECK: ^bb1(%[[X:.+]]: !stream.resource<transient>, %[[X_T:.+]]: !stream.timepoint, %[[A_T:.+]]: !stream.timepoint, %[[B_T:.+]]: !stream.timepoint):
^bb1(%1: !stream.resource<transient>):
  // The move runs on its target, dev_b: it follows dev_b's last op and the value.
  // CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[B_T]], %[[X_T]])
  // CHECK-NEXT: %[[M:.+]], %[[M_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[J]]) => %[[X]]
  %2 = stream.async.move %1 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
  // Nothing ran on dev_a in this block: its carried timepoint goes on.
  // CHECK-NEXT: cf.br ^bb3(%[[M]], %[[M_T]], %[[A_T]], %[[M_T]] :
  cf.br ^bb3(%2 : !stream.resource<transient>)
// CHECK: ^bb2(%[[A2_T:.+]]: !stream.timepoint, %[[B2_T:.+]]: !stream.timepoint):
^bb2:
  // A value from the entry block is ready by the timepoints carried in.
  // CHECK-NEXT: %[[R:.+]], %[[R_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>) await(%[[B2_T]])
  // CHECK-NEXT: %[[J2:.+]] = stream.timepoint.join max(%[[R_T]], %[[A2_T]])
  // CHECK-NEXT: %[[READ:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_b>) await(%[[J2]]) => with(%[[V]] as
  %3 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@fn(%0[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
  // ^bb1 moved the splat; this path only read it, so it frees it after the read, on dev_a
  // where it was allocated, and carries the free on as dev_a's last op.
  // CHECK: %[[FREE:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[READ]]) => %[[V]] : !stream.resource<transient>{%arg0} => !stream.timepoint
  // CHECK-NEXT: cf.br ^bb3(%[[R]], %[[READ]], %[[FREE]], %[[READ]] : !stream.resource<transient>, !stream.timepoint, !stream.timepoint, !stream.timepoint)
  cf.br ^bb3(%3 : !stream.resource<transient>)
// CHECK: ^bb3(%[[Y:.+]]: !stream.resource<transient>, %[[Y_T:.+]]: !stream.timepoint, %[[A3_T:.+]]: !stream.timepoint, %[[B3_T:.+]]: !stream.timepoint):
^bb3(%4: !stream.resource<transient>):
  // CHECK-NEXT: %[[ALL:.+]] = stream.timepoint.join max(%[[A3_T]], %[[B3_T]], %[[Y_T]])
  // CHECK: stream.timepoint.await %[[ALL]] => %[[Y]]
  util.return %4 : !stream.resource<transient>
}

// -----

// scf.while carries timepoints through both regions.

// CHECK-LABEL: util.func public @while_loop
util.func public @while_loop(%size: index, %n: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: %[[W:.+]]:4 = scf.while (%[[V:.+]] = %{{.+}}, %[[V_T:.+]] = %{{.+}}, %[[A_T:.+]] = %{{.+}}, %[[B_T:.+]] = %{{.+}}) : (!stream.resource<transient>, !stream.timepoint, !stream.timepoint, !stream.timepoint) -> (!stream.resource<transient>, !stream.timepoint, !stream.timepoint, !stream.timepoint) {
  %1 = scf.while (%arg = %0) : (!stream.resource<transient>) -> !stream.resource<transient> {
    %cond = arith.cmpi slt, %c0, %n : index
    // CHECK: scf.condition(%{{.+}}) %[[V]], %[[V_T]], %[[A_T]], %[[B_T]] : !stream.resource<transient>, !stream.timepoint, !stream.timepoint, !stream.timepoint
    scf.condition(%cond) %arg : !stream.resource<transient>
  } do {
  // CHECK: ^bb0(%[[X:.+]]: !stream.resource<transient>, %[[X_T:.+]]: !stream.timepoint, %[[XA_T:.+]]: !stream.timepoint, %[[XB_T:.+]]: !stream.timepoint):
  ^bb0(%x: !stream.resource<transient>):
    // Each move runs on its target and follows the last op there and its source's writer.
    // CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[XB_T]], %[[X_T]])
    // CHECK-NEXT: %[[TO_B:.+]], %[[TO_B_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[J]]) => %[[X]]
    %2 = stream.async.move %x : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
    // CHECK-NEXT: %[[J2:.+]] = stream.timepoint.join max(%[[XA_T]], %[[TO_B_T]])
    // CHECK-NEXT: %[[BACK:.+]], %[[BACK_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%[[J2]]) => %[[TO_B]]
    %3 = stream.async.move %2 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%size}
    // The resource, its timepoint, then the last op on dev_a (the move back) and on dev_b.
    // CHECK-NEXT: scf.yield %[[BACK]], %[[BACK_T]], %[[BACK_T]], %[[TO_B_T]]
    scf.yield %3 : !stream.resource<transient>
  }
  // CHECK: stream.timepoint.await %{{.+}} => %[[W]]#0
  util.return %1 : !stream.resource<transient>
}

// -----

// An async execution region is lowered op by op: its ops run on its affinity after its await
// timepoint, and its timepoint is its results'.

// CHECK-LABEL: util.func public @execute_region
util.func public @execute_region(%size: index, %arg: !stream.resource<external>, %t: !stream.timepoint) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SPLAT:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%arg0}
  // CHECK: %[[FILL:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>)
  // The in-place dispatch on the captured argument waits for the region's await timepoint.
  // CHECK: %[[J:.+]] = stream.timepoint.join max(%[[FILL]], %arg2)
  // CHECK-NEXT: %[[WRITE:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[J]]) => with(%[[SPLAT]] as %{{.+}}, %arg1 as %{{.+}}) {
  // CHECK-NEXT: stream.cmd.dispatch @ex::@fn
  // CHECK-NEXT: ro
  // CHECK-NEXT: rw
  %0:2, %tp = stream.async.execute on(#hal.device.affinity<@dev_a>) await(%t) => with(%arg as %a: !stream.resource<external>{%size}) -> (!stream.resource<transient>{%size}, %arg as !stream.resource<external>{%size}) {
    %1 = stream.async.splat %c1_i32 : i32 -> !stream.resource<transient>{%size}
    %2 = stream.async.dispatch @ex::@fn(%1[%c0 to %size for %size], %a[%c0 to %size for %size]) : (!stream.resource<transient>{%size}, !stream.resource<external>{%size}) -> %a{%size}
    stream.yield %1, %2 : !stream.resource<transient>{%size}, !stream.resource<external>{%size}
  } => !stream.timepoint
  %3:2 = stream.timepoint.await %tp => %0#0, %0#1 : !stream.resource<transient>{%size}, !stream.resource<external>{%size}
  // CHECK: %[[MOVED:.+]], %[[MOVED_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_c>) await(%{{.+}}) => %[[SPLAT]]
  %4 = stream.async.move %3#0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<transient>{%size}
  // CHECK-NEXT: stream.resource.dealloca on(#hal.device.affinity<@dev_c>) await(%[[MOVED_T]]) => %[[MOVED]]
  // CHECK-NOT: stream.async
  util.return %3#1 : !stream.resource<external>
}

// -----

// scf.index_switch: like scf.if, with one region per case. The case that does not move the
// splat frees it.

// CHECK-LABEL: util.func public @index_switch
util.func public @index_switch(%size: index, %i: index) -> !stream.resource<transient> {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[IMM:.+]] = stream.timepoint.immediate
  // CHECK: %[[SRC:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[FILL:.+]] = stream.cmd.execute
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // The resource, its timepoint, then the last op on dev_a and on dev_b.
  // CHECK: %[[SWITCH:.+]]:4 = scf.index_switch %arg1 -> !stream.resource<transient>, !stream.timepoint, !stream.timepoint, !stream.timepoint
  %1 = scf.index_switch %i -> !stream.resource<transient>
  // CHECK-NEXT: case 0 {
  case 0 {
    // The move runs on its target, dev_b; dev_a's last op is still the fill.
    // CHECK-NEXT: %[[MOVED:.+]], %[[MOVED_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[FILL]]) => %[[SRC]]
    %2 = stream.async.move %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
    // CHECK-NEXT: scf.yield %[[MOVED]], %[[MOVED_T]], %[[FILL]], %[[MOVED_T]]
    scf.yield %2 : !stream.resource<transient>
  }
  // CHECK: default {
  default {
    // CHECK-NEXT: %[[CLONE:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) await(%[[FILL]])
    // CHECK-NEXT: %[[COPY:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%{{.+}}) => with(%[[SRC]] as
    %3 = stream.async.clone on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<transient>{%size} -> !stream.resource<transient>{%size}
    // CHECK: %[[FREE:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[COPY]]) => %[[SRC]] : !stream.resource<transient>{%arg0} => !stream.timepoint
    // Nothing ran on dev_b on this path: an immediate timepoint; dev_a's last op is the free.
    // CHECK-NEXT: scf.yield %[[CLONE]], %[[COPY]], %[[FREE]], %[[IMM]]
    scf.yield %3 : !stream.resource<transient>
  }
  // CHECK: %[[DONE:.+]] = stream.timepoint.join max(%[[SWITCH]]#2, %[[SWITCH]]#3, %[[SWITCH]]#1)
  // CHECK: stream.timepoint.await %[[DONE]] => %[[SWITCH]]#0
  util.return %1 : !stream.resource<transient>
}

// -----

// A function returning no resource still finishes the work on its arguments before returning
// (the caller may write them next): the wait names the arguments.

// CHECK-LABEL: util.func public @no_resource_result
util.func public @no_resource_result(%arg0: !stream.resource<transient>, %size: index) {
  %c0 = arith.constant 0 : index
  // CHECK: %[[READ:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) {{.+}} with(%arg0 as
  %0 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%arg0[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
  // CHECK-NEXT: stream.cmd.dispatch
  // CHECK: %[[FREE:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[READ]])
  // CHECK-NEXT: %[[SIZE:.+]] = stream.resource.size %arg0 : !stream.resource<transient>
  // CHECK-NEXT: stream.timepoint.await %[[FREE]] => %arg0 : !stream.resource<transient>{%[[SIZE]]}
  // CHECK-NEXT: util.return
  util.return
}

// -----

// A resource chosen by arith.select is ready when both choices are.

// CHECK-LABEL: util.func public @select
util.func public @select(%size: index, %cond: i1) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[A:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>)
  // CHECK-NEXT: %[[A_DONE:.+]] = stream.cmd.execute
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: %[[B:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>)
  // CHECK-NEXT: %[[B_DONE:.+]] = stream.cmd.execute
  %1 = stream.async.splat on(#hal.device.affinity<@dev_b>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: %[[S:.+]] = arith.select %arg1, %[[A]], %[[B]]
  %2 = arith.select %cond, %0, %1 : !stream.resource<transient>
  // CHECK: stream.timepoint.join max(%{{.+}}, %[[A_DONE]], %[[B_DONE]])
  // CHECK: with(%[[S]] as
  %3 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @ex::@fn(%2[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
  util.return %3 : !stream.resource<transient>
}

// -----

// A block argument after a non-resource one: its timepoint comes right after it.

// CHECK-LABEL: util.func public @cf_mixed_arguments
util.func public @cf_mixed_arguments(%size: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[V:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[FILL:.+]] = stream.cmd.execute
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: cf.br ^bb1(%arg0, %[[V]], %[[FILL]], %[[FILL]] : index, !stream.resource<transient>, !stream.timepoint, !stream.timepoint)
  cf.br ^bb1(%size, %0 : index, !stream.resource<transient>)
// CHECK: ^bb1(%[[N:.+]]: index, %[[X:.+]]: !stream.resource<transient>, %[[X_T:.+]]: !stream.timepoint, %[[A_T:.+]]: !stream.timepoint):
^bb1(%n: index, %1: !stream.resource<transient>):
  // CHECK-NEXT: %{{.+}}, %[[R_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) await(%[[A_T]]) => !stream.resource<transient>{%[[N]]}
  // CHECK-NEXT: stream.timepoint.join max(%[[R_T]], %[[X_T]])
  %2 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%1[%c0 to %n for %n]) : (!stream.resource<transient>{%n}) -> !stream.resource<transient>{%n}
  // The block argument owns the splat's storage: freed after its last use.
  // CHECK: stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%{{.+}}) => %[[X]]
  util.return %2 : !stream.resource<transient>
}

// -----

// A move without to(...) sends its result to the default affinity: it runs there (the target
// is asked for the storage), not on its source, and the next op there follows it.

// CHECK-LABEL: util.func public @move_to_default
util.func public @move_to_default(%size: index) -> !stream.resource<transient> attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SRC:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>)
  // CHECK-NEXT: %[[FILL:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_b>)
  %0 = stream.async.splat on(#hal.device.affinity<@dev_b>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: %[[MOVED:.+]], %[[MOVED_T:.+]] = stream.cmd.move origin await(%[[FILL]]) => %[[SRC]] : !stream.resource<transient>{%arg0} from(#hal.device.affinity<@dev_b>) -> !stream.resource<transient>{%arg0} => !stream.timepoint
  %1 = stream.async.move %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_b>) -> !stream.resource<transient>{%size}
  // CHECK-NEXT: %[[OUT:.+]], %[[OUT_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) await(%[[MOVED_T]])
  // CHECK-NEXT: %[[LAST:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[OUT_T]]) => with(%[[MOVED]] as %{{.+}}, %[[OUT]] as %{{.+}})
  %2 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%1[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
  // The moved value is freed where it was allocated (its allocation affinity is the default).
  // CHECK: %[[FREE:.+]] = stream.resource.dealloca origin await(%[[LAST]]) => %[[MOVED]]
  // CHECK-NEXT: stream.timepoint.await %[[FREE]] => %[[OUT]]
  util.return %2 : !stream.resource<transient>
}

// -----

// A move in an scf.if without an else: the lowering adds an else that frees the splat, after
// its only use on that path (the fill).

// CHECK-LABEL: util.func public @move_without_else
util.func public @move_without_else(%size: index, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SRC:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[FILL:.+]] = stream.cmd.execute
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: scf.if %arg1 -> (!stream.timepoint, !stream.timepoint) {
  scf.if %cond {
    // CHECK-NEXT: %[[MOVED:.+]], %[[MOVED_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[FILL]]) => %[[SRC]]
    // CHECK-NOT: stream.resource.dealloca {{.+}} => %[[SRC]] :
    %1 = stream.async.move %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
    // CHECK: %[[FREE_B:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_b>) await(%{{.+}}) => %[[MOVED]] :
    // CHECK-NEXT: scf.yield %[[FREE_B]], %[[FILL]] : !stream.timepoint, !stream.timepoint
    %2 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@fn(%1[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> %1{%size}
    scf.yield
  }
  // CHECK-NEXT: } else {
  // CHECK-NEXT: %[[FREE:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[FILL]]) => %[[SRC]] : !stream.resource<transient>{%arg0} => !stream.timepoint
  // CHECK-NEXT: scf.yield %{{.+}}, %[[FREE]] : !stream.timepoint, !stream.timepoint
  // CHECK-NEXT: }
  // CHECK-NEXT: util.return
  util.return
}

// -----

// Nested regions: each path frees what it neither moves nor yields. %0 is moved in case 0 and
// in the then of case 1, read in the else of case 1 (freed there after the read) and unused in
// the default (freed first thing). %1 is yielded by the default only: the other cases free it
// first thing.

// CHECK-LABEL: util.func public @nested_partial_moves
util.func public @nested_partial_moves(%size: index, %i: index, %cond: i1) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SRC:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[FILL:.+]] = stream.cmd.execute
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: %[[OTHER:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[FILL2:.+]] = stream.cmd.execute
  %1 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: scf.index_switch
  %2 = scf.index_switch %i -> !stream.resource<transient>
  // CHECK-NEXT: case 0 {
  case 0 {
    // CHECK-NEXT: %[[FREE_OTHER:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[FILL2]]) => %[[OTHER]] :
    // CHECK-NEXT: %[[MOVED:.+]], %[[MOVED_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[FILL]]) => %[[SRC]] :
    // CHECK-NEXT: scf.yield %[[MOVED]], %[[MOVED_T]], %[[FREE_OTHER]], %[[MOVED_T]]
    %3 = stream.async.move %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
    scf.yield %3 : !stream.resource<transient>
  }
  // CHECK-NEXT: }
  // CHECK-NEXT: case 1 {
  case 1 {
    // CHECK-NEXT: %[[FREE_OTHER1:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[FILL2]]) => %[[OTHER]] :
    // CHECK-NEXT: scf.if %arg2
    %4 = scf.if %cond -> (!stream.resource<transient>) {
      // CHECK-NEXT: %[[MOVED1:.+]], %[[MOVED1_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[FILL]]) => %[[SRC]] :
      // CHECK-NEXT: scf.yield %[[MOVED1]], %[[MOVED1_T]], %[[MOVED1_T]], %[[FREE_OTHER1]]
      %5 = stream.async.move %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
      scf.yield %5 : !stream.resource<transient>
    } else {
      // CHECK-NEXT: } else {
      // CHECK-NEXT: %[[NEW:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) await(%[[FREE_OTHER1]])
      // CHECK-NEXT: %[[READ:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%{{.+}}) => with(%[[SRC]] as
      // CHECK: %[[FREE_SRC:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[READ]]) => %[[SRC]] :
      // CHECK-NEXT: scf.yield %[[NEW]], %[[READ]], %{{.+}}, %[[FREE_SRC]]
      %6 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%0[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
      scf.yield %6 : !stream.resource<transient>
    }
    scf.yield %4 : !stream.resource<transient>
  }
  // CHECK: default {
  default {
    // CHECK-NEXT: %[[FREE_SRC2:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[FILL2]]) => %[[SRC]] :
    // CHECK-NEXT: scf.yield %[[OTHER]], %[[FILL2]], %[[FREE_SRC2]], %{{.+}}
    scf.yield %1 : !stream.resource<transient>
  }
  // CHECK-NOT: stream.resource.dealloca
  // CHECK: util.return
  util.return %2 : !stream.resource<transient>
}

// -----

// The branch to ^bb1 hands the splat over (^bb1 moves it); the edge to ^bb2, which does not
// use it and is entered from the entry block only, frees it at the start of ^bb2.

// CHECK-LABEL: util.func public @cf_dropped_on_edge
util.func public @cf_dropped_on_edge(%size: index, %cond: i1) -> !stream.resource<transient> {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[V:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[FILL:.+]] = stream.cmd.execute
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK-NOT: stream.resource.dealloca
  // CHECK: cf.cond_br %arg1, ^bb1(%[[V]], %[[FILL]], %[[FILL]], %{{.+}} : !stream.resource<transient>, !stream.timepoint, !stream.timepoint, !stream.timepoint), ^bb2(%[[FILL]], %{{.+}} : !stream.timepoint, !stream.timepoint)
  cf.cond_br %cond, ^bb1(%0 : !stream.resource<transient>), ^bb2
// CHECK: ^bb1(%[[X:.+]]: !stream.resource<transient>,
^bb1(%1: !stream.resource<transient>):
  // CHECK-NEXT: stream.timepoint.join
  // CHECK-NEXT: stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%{{.+}}) => %[[X]] :
  // CHECK-NOT: stream.resource.dealloca
  %2 = stream.async.move %1 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
  util.return %2 : !stream.resource<transient>
// CHECK: ^bb2(%[[A_T:.+]]: !stream.timepoint, %[[B_T:.+]]: !stream.timepoint):
^bb2:
  // CHECK-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[A_T]], %[[B_T]])
  // CHECK-NEXT: %[[FREE:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[J]]) => %[[V]] : !stream.resource<transient>{%arg0} => !stream.timepoint
  // CHECK-NEXT: %[[NEW:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>) await(%[[B_T]])
  // CHECK-NEXT: %[[NEW_FILL:.+]] = stream.cmd.execute
  // The function waits for the free before returning.
  // CHECK: %[[ALL:.+]] = stream.timepoint.join max(%[[FREE]], %[[NEW_FILL]])
  // CHECK-NEXT: stream.timepoint.await %[[ALL]] => %[[NEW]]
  %3 = stream.async.splat on(#hal.device.affinity<@dev_b>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  util.return %3 : !stream.resource<transient>
}

// -----

// Nothing moves the splat, but both successors of the entry block read it: the entry block
// must not free it; each successor frees it after its read.

// CHECK-LABEL: util.func public @cf_read_in_successors
util.func public @cf_read_in_successors(%size: index, %cond: i1) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[V:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[FILL:.+]] = stream.cmd.execute
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK-NOT: stream.resource.dealloca
  // CHECK: cf.cond_br %arg1, ^bb1
  cf.cond_br %cond, ^bb1, ^bb2
// CHECK: ^bb1(
^bb1:
  // CHECK: %[[READ1:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%{{.+}}) => with(%[[V]] as
  // CHECK: %[[FREE1:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[READ1]]) => %[[V]] : !stream.resource<transient>{%arg0} => !stream.timepoint
  // CHECK-NEXT: cf.br ^bb3(%{{.+}}, %[[READ1]], %[[FREE1]], %{{.+}} :
  %1 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%0[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
  cf.br ^bb3(%1 : !stream.resource<transient>)
// CHECK: ^bb2(
^bb2:
  // CHECK: %[[READ2:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_b>) await(%{{.+}}) => with(%[[V]] as
  // CHECK: %[[FREE2:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[READ2]]) => %[[V]] : !stream.resource<transient>{%arg0} => !stream.timepoint
  // CHECK-NEXT: cf.br ^bb3(%{{.+}}, %[[READ2]], %[[FREE2]], %[[READ2]] :
  %2 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@fn(%0[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
  cf.br ^bb3(%2 : !stream.resource<transient>)
// CHECK: ^bb3(
^bb3(%3: !stream.resource<transient>):
  // CHECK-NOT: stream.resource.dealloca
  // CHECK: util.return
  util.return %3 : !stream.resource<transient>
}

// -----

// The loop's initial value is also read in the body: every iteration reads it, so no iteration
// may free the loop-carried value (which is that storage in the first one). The storage stays
// allocated (reported as not freed by --stats) rather than freed before the body reads it.

// CHECK-LABEL: util.func public @for_init_read_in_body
util.func public @for_init_read_in_body(%size: index, %n: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[X:.+]], %{{.+}} = stream.resource.alloca
  %x = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: scf.for {{.+}} iter_args(%[[ACC:[^ ]+]] = %[[X]],
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (!stream.resource<transient>) {
    // CHECK: stream.cmd.execute {{.+}} with(%[[ACC]] as %{{.+}}, %[[X]] as
    %y = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%acc[%c0 to %size for %size], %x[%c0 to %size for %size]) : (!stream.resource<transient>{%size}, !stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
    // CHECK-NOT: stream.resource.dealloca
    // CHECK: scf.yield
    scf.yield %y : !stream.resource<transient>
  }
  // CHECK-NOT: stream.resource.dealloca {{.+}} => %[[X]]
  // CHECK: util.return
  util.return %r : !stream.resource<transient>
}

// -----

// The same with scf.while: the initial value is read in the `after` region.

// CHECK-LABEL: util.func public @while_init_read_in_body
util.func public @while_init_read_in_body(%size: index, %n: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[X:.+]], %{{.+}} = stream.resource.alloca
  %x = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: scf.while (%[[ACC:[^ ]+]] = %[[X]],
  %r:2 = scf.while (%acc = %x, %i = %c0) : (!stream.resource<transient>, index) -> (!stream.resource<transient>, index) {
    %go = arith.cmpi slt, %i, %n : index
    // CHECK-NOT: stream.resource.dealloca
    // CHECK: scf.condition
    scf.condition(%go) %acc, %i : !stream.resource<transient>, index
  } do {
  ^bb0(%a: !stream.resource<transient>, %j: index):
    // CHECK: stream.cmd.execute {{.+}} with(%{{.+}} as %{{.+}}, %[[X]] as
    %y = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%a[%c0 to %size for %size], %x[%c0 to %size for %size]) : (!stream.resource<transient>{%size}, !stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
    %k = arith.addi %j, %c1 : index
    // CHECK-NOT: stream.resource.dealloca
    // CHECK: scf.yield
    scf.yield %y, %k : !stream.resource<transient>, index
  }
  // CHECK-NOT: stream.resource.dealloca {{.+}} => %[[X]]
  // CHECK: util.return
  util.return %r#0 : !stream.resource<transient>
}

// -----

// The same as a cf loop: the loop header block receives the initial value and reads it again
// by its own name.

// CHECK-LABEL: util.func public @cf_init_read_in_loop
util.func public @cf_init_read_in_loop(%size: index, %n: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[X:.+]], %{{.+}} = stream.resource.alloca
  %x = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: cf.br ^bb1(%[[X]],
  cf.br ^bb1(%x, %c0 : !stream.resource<transient>, index)
// CHECK: ^bb1(%[[ACC:[^:]+]]: !stream.resource<transient>,
^bb1(%acc: !stream.resource<transient>, %i: index):
  // CHECK: stream.cmd.execute {{.+}} with(%[[ACC]] as %{{.+}}, %[[X]] as
  %y = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%acc[%c0 to %size for %size], %x[%c0 to %size for %size]) : (!stream.resource<transient>{%size}, !stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
  %k = arith.addi %i, %c1 : index
  %go = arith.cmpi slt, %k, %n : index
  // CHECK-NOT: stream.resource.dealloca
  // CHECK: cf.cond_br
  cf.cond_br %go, ^bb1(%y, %k : !stream.resource<transient>, index), ^bb2
^bb2:
  // CHECK-NOT: stream.resource.dealloca {{.+}} => %[[X]]
  // CHECK: util.return
  util.return %y : !stream.resource<transient>
}

// -----

// Host readbacks (as IREE's ScheduleAllocation lowers them): the host waits for the staging
// resource's writer, then reads with stream.resource.load; a store waits for every use first.

// CHECK-LABEL: util.func public @readback
util.func public @readback(%arg0: !stream.resource<external>, %size: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c7_i32 = arith.constant 7 : i32
  // CHECK: %[[STAGING:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<staging>{%arg1}
  // CHECK: %[[COPIED:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>)
  // CHECK: stream.cmd.copy
  %0 = stream.async.transfer on(#hal.device.affinity<@dev_a>) %arg0 : !stream.resource<external>{%size} -> !stream.resource<staging>{%size}
  // CHECK: %[[READY:.+]] = stream.timepoint.await %[[COPIED]] => %[[STAGING]] : !stream.resource<staging>{%arg1}
  // CHECK-NEXT: stream.resource.store %c7_i32, %[[READY]][%c0] : i32 -> !stream.resource<staging>{%arg1}
  %1 = stream.async.store %c7_i32, %0[%c0] : i32 -> %0 as !stream.resource<staging>{%size}
  // CHECK: %[[VALUE:.+]] = stream.resource.load %{{.+}}[%c0] : !stream.resource<staging>{%arg1} -> i32
  %2 = stream.async.load %1[%c0] : !stream.resource<staging>{%size} -> i32
  // CHECK: util.return %[[VALUE]] : i32
  util.return %2 : i32
}

// -----

// An op streamopt does not model may read what its region names from outside at any time:
// that storage is awaited on the host before it, as its operands are (reduced from a
// generated program).

// CHECK-LABEL: util.func public @unknown_op_captures
util.func public @unknown_op_captures(%size: index) -> !stream.resource<transient> {
  %c1_i32 = arith.constant 1 : i32
  // CHECK: %[[SPLAT:.+]], %{{.+}} = stream.resource.alloca
  // CHECK: %[[FILL:.+]] = stream.cmd.execute
  // CHECK: %[[READY:.+]] = stream.timepoint.await %[[FILL]] => %[[SPLAT]]
  // CHECK-NEXT: scf.execute_region
  // CHECK-NEXT: scf.yield %[[READY]]
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  %1 = scf.execute_region -> !stream.resource<transient> {
    scf.yield %0 : !stream.resource<transient>
  }
  util.return %1 : !stream.resource<transient>
}

// -----

// Storage exported before it starts a loop: the host still holds it, so the loop never frees
// its carried value, which is that storage in the first iteration (reduced from a generated
// program whose export was read after the loop freed it).

// CHECK-LABEL: util.func public @export_then_loop
util.func public @export_then_loop(%size: index, %trip: index) -> (!stream.resource<transient>, !hal.buffer_view) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_b>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  // CHECK: stream.tensor.export
  %view = stream.tensor.export on(#hal.device.affinity<@dev_b>) %0 : tensor<16xi8> in !stream.resource<transient>{%size} -> !hal.buffer_view
  // CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:[^ ]+]] =
  // CHECK-NOT: stream.resource.dealloca
  // CHECK: scf.yield
  %1 = scf.for %i = %c0 to %trip step %c1 iter_args(%acc = %0) -> (!stream.resource<transient>) {
    %2 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@mix1(%acc[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
    scf.yield %2 : !stream.resource<transient>
  }
  util.return %1, %view : !stream.resource<transient>, !hal.buffer_view
}

// -----

util.global private mutable @g : !stream.resource<transient>

// A function returns nothing once it is done, after waiting for what it issued; the wait
// names a resource argument. The one argument here is moved away (the call was its last
// use): nothing may name it after the move, so there is nothing to wait on by name.

// CHECK-LABEL: util.func private @moves_its_argument
util.func private @moves_its_argument(%arg0: !stream.resource<transient>, %size: index) {
  // CHECK: %[[MOVED:.+]], %[[MOVED_T:.+]] = stream.cmd.move
  %0 = stream.async.move %arg0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
  // CHECK-NEXT: %[[READY:.+]] = stream.timepoint.await %[[MOVED_T]] => %[[MOVED]]
  // CHECK-NEXT: util.global.store %[[READY]], @g
  util.global.store %0, @g : !stream.resource<transient>
  // CHECK-NEXT: util.return
  util.return
}

// Its twin writes its argument in place instead: the return waits for that, naming it.

// CHECK-LABEL: util.func private @writes_its_argument
util.func private @writes_its_argument(%arg0: !stream.resource<transient>, %size: index) {
  %c0 = arith.constant 0 : index
  %c2_i8 = arith.constant 2 : i8
  // CHECK: %[[FILL:.+]] = stream.cmd.execute
  %0 = stream.async.fill on(#hal.device.affinity<@dev_a>) %c2_i8, %arg0[%c0 to %size for %size] : i8 -> %arg0 as !stream.resource<transient>{%size}
  // CHECK: stream.timepoint.await %[[FILL]] => %arg0
  // CHECK-NEXT: util.return
  util.return
}

util.func public @calls_both(%size: index) {
  %c1_i8 = arith.constant 1 : i8
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i8 : i8 -> !stream.resource<transient>{%size}
  %1 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i8 : i8 -> !stream.resource<transient>{%size}
  util.call @writes_its_argument(%1, %size) : (!stream.resource<transient>, index) -> ()
  util.call @moves_its_argument(%0, %size) : (!stream.resource<transient>, index) -> ()
  util.return
}
