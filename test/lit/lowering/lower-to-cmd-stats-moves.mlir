// RUN: streamopt --lower-async-to-cmd --stats %s 2>&1 >/dev/null | filecheck %s

// Storage consumed or handed over on some paths only must be freed on the others. --stats
// counts it as not freed where the lowering cannot do that, and says where and why.

// CHECK: LowerAsyncToCmdPass
// The splats of @moved_on_one_path and @handed_to_unfreed_merge are freed on the paths that
// keep them, and the two values moved to dev_b right after their moves.
// CHECK-NEXT: (S) 4 num-deallocas
// CHECK-NEXT: (S) 2 num-moves
// CHECK-NEXT: (S) 2 num-storages-not-freed

util.func public @moved_on_one_path(%size: index, %cond: i1) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  scf.if %cond {
    %1 = stream.async.move %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
    scf.yield
  }
  util.return
}

// The branch edge to ^bb2 drops the splat, but ^bb2 is also entered from ^bb1, which moved it:
// the free would need a block of its own on that edge.

// CHECK-NEXT: storage allocated at {{.+}}lower-to-cmd-stats-moves.mlir:[[# @LINE + 3]]:8 is not freed: handed over by 'cf.cond_br' on some paths only, not freed on the others: dies on a branch into a block other paths enter too (freeing it there would need a block of its own)
util.func public @dropped_into_join(%size: index, %cond: i1) {
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  cf.cond_br %cond, ^bb1(%0 : !stream.resource<transient>), ^bb2
^bb1(%1: !stream.resource<transient>):
  %2 = stream.async.move %1 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
  cf.br ^bb2
^bb2:
  util.return
}

// The else frees the splat after reading it; the then hands it to the scf.if result, which may
// be the argument and so is never freed.

// CHECK-NEXT: storage allocated at {{.+}}lower-to-cmd-stats-moves.mlir:[[# @LINE + 4]]:8 is not freed: handed over by 'scf.yield' on some paths, to storage nothing frees
util.func public @handed_to_unfreed_merge(%size: index, %cond: i1, %arg: !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
  %1 = scf.if %cond -> (!stream.resource<transient>) {
    scf.yield %0 : !stream.resource<transient>
  } else {
    %2 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%0[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> %0{%size}
    scf.yield %arg : !stream.resource<transient>
  }
  %3 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@fn(%1[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> %1{%size}
  util.return
}
