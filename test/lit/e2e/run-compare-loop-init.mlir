// A loop whose initial value is also read in its body, as scf.for, scf.while and a cf loop:
// every form --compare runs computes the same bytes, so no lowering frees the initial storage
// while an iteration may still read it (it used to be freed at the end of the first one).
//
// RUN: streamopt-run --compare --function for_loop --input 3 %s | filecheck %s
// RUN: streamopt-run --compare --function while_loop --input 3 %s | filecheck %s
// RUN: streamopt-run --compare --function cf_loop --input 3 %s | filecheck %s

// CHECK: forms compared
// CHECK: as given {{.*}} yes
// CHECK-NEXT: elided {{.*}} yes
// CHECK-NEXT: lowered to cmd {{.*}} yes
// CHECK-NEXT: cmd, moves expanded {{.*}} yes
// CHECK-NEXT: lowered to hal {{.*}} yes
// CHECK-NEXT: hal, moves expanded {{.*}} yes

module {
  stream.executable private @ex {
    stream.executable.export public @add workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @add(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
        return
      }
    }
  }
  util.func public @for_loop(%n: index) -> !stream.resource<external> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c7_i32 = arith.constant 7 : i32
    %x = stream.async.splat %c7_i32 : i32 -> !stream.resource<transient>{%c16}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (!stream.resource<transient>) {
      %y = stream.async.dispatch @ex::@add(%acc[%c0 to %c16 for %c16], %x[%c0 to %c16 for %c16]) : (!stream.resource<transient>{%c16}, !stream.resource<transient>{%c16}) -> !stream.resource<transient>{%c16}
      scf.yield %y : !stream.resource<transient>
    }
    %e = stream.async.transfer %r : !stream.resource<transient>{%c16} -> !stream.resource<external>{%c16}
    util.return %e : !stream.resource<external>
  }
  util.func public @while_loop(%n: index) -> !stream.resource<external> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c7_i32 = arith.constant 7 : i32
    %x = stream.async.splat %c7_i32 : i32 -> !stream.resource<transient>{%c16}
    %r:2 = scf.while (%acc = %x, %i = %c0) : (!stream.resource<transient>, index) -> (!stream.resource<transient>, index) {
      %go = arith.cmpi slt, %i, %n : index
      scf.condition(%go) %acc, %i : !stream.resource<transient>, index
    } do {
    ^bb0(%a: !stream.resource<transient>, %j: index):
      %y = stream.async.dispatch @ex::@add(%a[%c0 to %c16 for %c16], %x[%c0 to %c16 for %c16]) : (!stream.resource<transient>{%c16}, !stream.resource<transient>{%c16}) -> !stream.resource<transient>{%c16}
      %k = arith.addi %j, %c1 : index
      scf.yield %y, %k : !stream.resource<transient>, index
    }
    %e = stream.async.transfer %r#0 : !stream.resource<transient>{%c16} -> !stream.resource<external>{%c16}
    util.return %e : !stream.resource<external>
  }
  util.func public @cf_loop(%n: index) -> !stream.resource<external> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c7_i32 = arith.constant 7 : i32
    %x = stream.async.splat %c7_i32 : i32 -> !stream.resource<transient>{%c16}
    cf.br ^bb1(%x, %c0 : !stream.resource<transient>, index)
  ^bb1(%acc: !stream.resource<transient>, %i: index):
    %y = stream.async.dispatch @ex::@add(%acc[%c0 to %c16 for %c16], %x[%c0 to %c16 for %c16]) : (!stream.resource<transient>{%c16}, !stream.resource<transient>{%c16}) -> !stream.resource<transient>{%c16}
    %k = arith.addi %i, %c1 : index
    %go = arith.cmpi slt, %k, %n : index
    cf.cond_br %go, ^bb1(%y, %k : !stream.resource<transient>, index), ^bb2(%y : !stream.resource<transient>)
  ^bb2(%out: !stream.resource<transient>):
    %e = stream.async.transfer %out : !stream.resource<transient>{%c16} -> !stream.resource<external>{%c16}
    util.return %e : !stream.resource<external>
  }
}
