// RUN: streamopt --convert-scf-to-cf --split-input-file %s | filecheck %s
// RUN: streamopt --convert-scf-to-cf --split-input-file %s | streamopt --split-input-file | filecheck %s

// An scf.for carrying a resource and its timepoint becomes a header block testing the bound,
// the body (which adds the step and branches back) and a continuation taking the results.

// CHECK-LABEL: util.func public @loop
util.func public @loop(%arg0: !stream.resource<external>, %arg1: index, %n: index) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = stream.timepoint.immediate => !stream.timepoint
  // CHECK: cf.br ^bb1(%c0, %arg0, %{{.+}} : index, !stream.resource<external>, !stream.timepoint)
  // CHECK-NEXT: ^bb1([[I:%.+]]: index, [[R:%.+]]: !stream.resource<external>, [[T:%.+]]: !stream.timepoint):
  // CHECK-NEXT: [[LT:%.+]] = arith.cmpi slt, [[I]], %arg2 : index
  // CHECK-NEXT: cf.cond_br [[LT]], ^bb2, ^bb3([[R]], [[T]] : !stream.resource<external>, !stream.timepoint)
  // CHECK-NEXT: ^bb2:
  // CHECK: [[E:%.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await([[T]])
  // CHECK: [[NEXT:%.+]] = arith.addi [[I]], %c1 : index
  // CHECK-NEXT: cf.br ^bb1([[NEXT]], [[R]], [[E]] : index, !stream.resource<external>, !stream.timepoint)
  // CHECK-NEXT: ^bb3([[RR:%.+]]: !stream.resource<external>, [[RT:%.+]]: !stream.timepoint):
  // CHECK-NEXT: stream.timepoint.await [[RT]] => [[RR]]
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %arg0, %t = %t0) -> (!stream.resource<external>, !stream.timepoint) {
    %c1_i32 = arith.constant 1 : i32
    %e = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%t) => with(%x as %a: !stream.resource<external>{%arg1}) {
      stream.cmd.fill %c1_i32, %a[%c0 for %arg1] : i32 -> !stream.resource<external>{%arg1}
    } => !stream.timepoint
    scf.yield %x, %e : !stream.resource<external>, !stream.timepoint
  }
  %done = stream.timepoint.await %r#1 => %r#0 : !stream.resource<external>{%arg1}
  util.return %done : !stream.resource<external>
}

// -----

// scf.if: a conditional branch to each region's blocks, which branch to the continuation.

// CHECK-LABEL: util.func public @choose
util.func public @choose(%c: i1, %a: index, %b: index) -> index {
  // CHECK: cf.cond_br %arg0, ^bb1, ^bb2
  // CHECK-NEXT: ^bb1:
  // CHECK-NEXT: cf.br ^bb3(%arg1 : index)
  // CHECK-NEXT: ^bb2:
  // CHECK-NEXT: cf.br ^bb3(%arg2 : index)
  // CHECK-NEXT: ^bb3([[V:%.+]]: index):
  // CHECK-NEXT: util.return [[V]] : index
  %r = scf.if %c -> (index) {
    scf.yield %a : index
  } else {
    scf.yield %b : index
  }
  util.return %r : index
}

// -----

// scf.while: before and after regions become blocks; scf.condition a conditional branch to the
// after block or out of the loop.

// CHECK-LABEL: util.func public @countdown
util.func public @countdown(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: cf.br ^bb1(%arg0 : index)
  // CHECK-NEXT: ^bb1([[X:%.+]]: index):
  // CHECK-NEXT: [[GT:%.+]] = arith.cmpi sgt, [[X]], %c0 : index
  // CHECK-NEXT: cf.cond_br [[GT]], ^bb2([[X]] : index), ^bb3([[X]] : index)
  // CHECK-NEXT: ^bb2([[Y:%.+]]: index):
  // CHECK-NEXT: [[D:%.+]] = arith.subi [[Y]], %c1 : index
  // CHECK-NEXT: cf.br ^bb1([[D]] : index)
  // CHECK-NEXT: ^bb3([[Z:%.+]]: index):
  // CHECK-NEXT: util.return [[Z]] : index
  %r = scf.while (%x = %n) : (index) -> index {
    %gt = arith.cmpi sgt, %x, %c0 : index
    scf.condition(%gt) %x : index
  } do {
  ^bb0(%y: index):
    %d = arith.subi %y, %c1 : index
    scf.yield %d : index
  }
  util.return %r : index
}
