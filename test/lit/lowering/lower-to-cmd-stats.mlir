// RUN: streamopt --lower-async-to-cmd --stats %s 2>&1 >/dev/null | filecheck %s

// A value that may be the argument (which the lowering never frees) cannot be freed after the
// scf.if, so the splat in the branch is not freed either: --stats says so and where.

// CHECK: LowerAsyncToCmdPass
// CHECK-NOT: num-deallocas
// CHECK-NEXT: (S) 1 num-moves
// CHECK-NEXT: (S) 1 num-storages-not-freed
// CHECK-NEXT: storage allocated at {{.+}}lower-to-cmd-stats.mlir:[[# @LINE + 5]]:10 is not freed: handed over by 'scf.yield'
util.func public @leak(%size: index, %cond: i1, %arg: !stream.resource<transient>) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = scf.if %cond -> (!stream.resource<transient>) {
    %1 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%size}
    scf.yield %1 : !stream.resource<transient>
  } else {
    scf.yield %arg : !stream.resource<transient>
  }
  %2 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%0[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
  %3 = stream.async.move %2 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
  util.return %3 : !stream.resource<transient>
}
