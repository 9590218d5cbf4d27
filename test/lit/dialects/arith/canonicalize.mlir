// RUN: streamopt --canonicalize --split-input-file %s | filecheck %s

// Constant operands fold to a new constant; the old ones become dead and go away.

// CHECK-LABEL: util.func public @fold_constants
util.func public @fold_constants() -> (index, index, index, i32, i8, i1, i1) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c-7 = arith.constant -7 : index
  %c2 = arith.constant 2 : index
  // CHECK-DAG: %[[C7:.+]] = arith.constant 7 : index
  %0 = arith.addi %c3, %c4 : index
  // CHECK-DAG: %[[C12:.+]] = arith.constant 12 : index
  %1 = arith.muli %c3, %c4 : index
  // Signed division rounds toward zero, floordivsi toward minus infinity.
  // CHECK-DAG: %[[CM4:.+]] = arith.constant -4 : index
  %2 = arith.floordivsi %c-7, %c2 : index
  // Results wrap to the type's width (printed signed).
  %c255_i32 = arith.constant 255 : i32
  %c16777216_i32 = arith.constant 16777216 : i32
  // CHECK-DAG: %[[W:.+]] = arith.constant -16777216 : i32
  %3 = arith.muli %c255_i32, %c16777216_i32 : i32
  %c200_i8 = arith.constant -56 : i8
  %c100_i8 = arith.constant 100 : i8
  // CHECK-DAG: %[[U:.+]] = arith.constant 100 : i8
  %4 = arith.minui %c200_i8, %c100_i8 : i8
  // CHECK-DAG: %[[T:.+]] = arith.constant true
  %5 = arith.cmpi slt, %c-7, %c2 : index
  // CHECK-DAG: %[[F:.+]] = arith.constant false
  %6 = arith.cmpi ult, %c-7, %c2 : index
  // CHECK-NOT: arith.addi
  // CHECK-NOT: arith.muli
  // CHECK-NOT: arith.cmpi
  // CHECK: util.return %[[C7]], %[[C12]], %[[CM4]], %[[W]], %[[U]], %[[T]], %[[F]]
  util.return %0, %1, %2, %3, %4, %5, %6 : index, index, index, i32, i8, i1, i1
}

// -----

// CHECK-LABEL: util.func public @identities
util.func public @identities(%arg0: index, %arg1: i32) -> (index, index, index, i32, i32, i32, i32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c-1_i32 = arith.constant -1 : i32
  %0 = arith.addi %c0, %arg0 : index
  %1 = arith.muli %arg0, %c1 : index
  %2 = arith.divui %arg0, %c1 : index
  %3 = arith.andi %arg1, %c-1_i32 : i32
  %4 = arith.maxsi %arg1, %arg1 : i32
  // CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
  %5 = arith.xori %arg1, %arg1 : i32
  // An exact round trip through index_cast folds away; one through a narrower type does not.
  %6 = arith.index_cast %arg1 : i32 to index
  %7 = arith.index_cast %6 : index to i32
  // CHECK: %[[NARROW:.+]] = arith.index_cast %arg0 : index to i32
  %8 = arith.index_cast %arg0 : index to i32
  // CHECK: %[[LOSSY:.+]] = arith.index_cast %[[NARROW]] : i32 to index
  %9 = arith.index_cast %8 : i32 to index
  // CHECK-NOT: arith.addi
  // CHECK-NOT: arith.index_cast
  // CHECK: util.return %arg0, %arg0, %arg0, %arg1, %arg1, %[[ZERO]], %arg1, %[[LOSSY]]
  util.return %0, %1, %2, %3, %4, %5, %7, %9 : index, index, index, i32, i32, i32, i32, index
}

// -----

// Division by zero is left for the runtime.

// CHECK-LABEL: util.func public @no_fold_division_by_zero
util.func public @no_fold_division_by_zero() -> index {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // CHECK: arith.divui
  %0 = arith.divui %c4, %c0 : index
  util.return %0 : index
}

// -----

// CHECK-LABEL: util.func public @casts_and_select
util.func public @casts_and_select(%arg0: !stream.resource<*>, %arg1: !stream.resource<*>) -> (index, i64, i8, !stream.resource<*>, !stream.resource<*>) {
  %c-1_i32 = arith.constant -1 : i32
  %c300_i32 = arith.constant 300 : i32
  %true = arith.constant true
  // CHECK-DAG: %[[I:.+]] = arith.constant -1 : index
  %0 = arith.index_cast %c-1_i32 : i32 to index
  // CHECK-DAG: %[[Z:.+]] = arith.constant 4294967295 : i64
  %1 = arith.extui %c-1_i32 : i32 to i64
  // CHECK-DAG: %[[T:.+]] = arith.constant 44 : i8
  %2 = arith.trunci %c300_i32 : i32 to i8
  %3 = arith.select %true, %arg0, %arg1 : !stream.resource<*>
  %4 = arith.select %true, %arg1, %arg1 : !stream.resource<*>
  // CHECK-NOT: arith.select
  // CHECK: util.return %[[I]], %[[Z]], %[[T]], %arg0, %arg1
  util.return %0, %1, %2, %3, %4 : index, i64, i8, !stream.resource<*>, !stream.resource<*>
}

// -----

// Integer literals are decimal unless they start with 0x, leading zeros included (as MLIR
// reads them): 010 is ten.

// CHECK-LABEL: util.func public @leading_zeros
util.func public @leading_zeros() -> index {
  %c010 = arith.constant 010 : index
  %c0x10 = arith.constant 0x10 : index
  // CHECK: %[[C26:.+]] = arith.constant 26 : index
  %0 = arith.addi %c010, %c0x10 : index
  // CHECK: util.return %[[C26]]
  util.return %0 : index
}
