// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s

// Blocks print with the predecessor comment MLIR writes: one predecessor, or a count and a
// sorted list that repeats a block reached twice from one terminator.

// CHECK-LABEL: util.func public @branches
util.func public @branches(%arg0: index, %arg1: i1, %arg2: !stream.resource<*>) -> index {
  %c0 = arith.constant 0 : index
  //      CHECK: cf.br ^bb1(%arg0, %arg2 : index, !stream.resource<*>)
  // CHECK-NEXT: ^bb1(%[[A:.+]]: index, %[[R:.+]]: !stream.resource<*>):  // 2 preds: ^bb0, ^bb2
  cf.br ^bb1(%arg0, %arg2 : index, !stream.resource<*>)
^bb1(%a: index, %r: !stream.resource<*>):
  // CHECK-NEXT: cf.cond_br %arg1, ^bb2, ^bb3(%[[A]] : index)
  cf.cond_br %arg1, ^bb2, ^bb3(%a : index)
// CHECK-NEXT: ^bb2:  // pred: ^bb1
^bb2:
  // CHECK-NEXT: cf.cond_br %arg1, ^bb1(%[[A]], %[[R]] : index, !stream.resource<*>), ^bb3(%c0 : index) {some.attr}
  cf.cond_br %arg1, ^bb1(%a, %r : index, !stream.resource<*>), ^bb3(%c0 : index) {some.attr}
// CHECK-NEXT: ^bb3(%[[X:.+]]: index):  // 2 preds: ^bb1, ^bb2
^bb3(%x: index):
  // CHECK-NEXT: cf.cond_br %arg1 weights([1, 2]), ^bb4, ^bb4
  cf.cond_br %arg1 weights([1, 2]), ^bb4, ^bb4
// CHECK-NEXT: ^bb4:  // 2 preds: ^bb3, ^bb3
^bb4:
  // CHECK-NEXT: util.return %[[X]] : index
  util.return %x : index
}

// -----

// CHECK-LABEL: util.func public @switch
util.func public @switch(%arg0: i32, %arg1: index) -> index {
  %c0 = arith.constant 0 : index
  //      CHECK: cf.switch %arg0 : i32, [
  // CHECK-NEXT:   default: ^bb1(%arg1 : index),
  // CHECK-NEXT:   0: ^bb2,
  // CHECK-NEXT:   -1: ^bb1(%c0 : index)
  // CHECK-NEXT: ]
  // CHECK-NEXT: ^bb1(%{{.+}}: index):  // 2 preds: ^bb0, ^bb0
  cf.switch %arg0 : i32, [
    default: ^bb1(%arg1 : index),
    0: ^bb2,
    4294967295: ^bb1(%c0 : index)
  ]
^bb1(%y: index):
  // A switch with only a default closes its bracket on the same line.
  //      CHECK: cf.switch %arg0 : i32, [
  // CHECK-NEXT:   default: ^bb2]
  cf.switch %arg0 : i32, [
    default: ^bb2
  ]
// CHECK: ^bb2:  // 2 preds: ^bb0, ^bb1
^bb2:
  util.return %c0 : index
}

// -----

// An unreachable block says so.

// CHECK-LABEL: util.func public @unreachable
util.func public @unreachable() {
  util.return
// CHECK: ^bb1:  // no predecessors
^bb1:
  util.return
}

// -----

// A branch operand defined by an op streamopt does not model has the type the branch states.

// CHECK-LABEL: util.func public @unmodelled_branch_operands
util.func public @unmodelled_branch_operands(%arg0: i1, %arg1: index) -> index {
  // CHECK: %[[A:.+]] = math.absi %arg1 : index
  %0 = math.absi %arg1 : index
  // CHECK-NEXT: cf.cond_br %arg0, ^bb1(%[[A]] : index), ^bb2
  cf.cond_br %arg0, ^bb1(%0 : index), ^bb2
^bb1(%a: index):
  util.return %a : index
^bb2:
  // CHECK: %[[B:.+]] = "math.absi"(%arg1) : (index) -> index
  %1 = "math.absi"(%arg1) : (index) -> index
  // A result whose type the op's text does not spell.
  // CHECK-NEXT: %[[C:.+]] = gpu.thread_id x
  %2 = gpu.thread_id x
  // CHECK-NEXT: cf.br ^bb1(%[[C]] : index)
  cf.br ^bb1(%2 : index)
}
