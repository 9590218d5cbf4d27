// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s

// CHECK-LABEL: util.func public @integer
util.func public @integer(%arg0: index, %arg1: i32) -> index {
  // CHECK: %[[A:.+]] = arith.addi %arg0, %arg0 : index
  %0 = arith.addi %arg0, %arg0 : index
  // CHECK: arith.addi %arg0, %[[A]] overflow<nsw> : index
  %1 = arith.addi %arg0, %0 overflow<nsw> : index
  // Flags print in MLIR's order; `none` is the same as no flag.
  // CHECK: arith.subi %arg0, %arg0 overflow<nsw, nuw> : index
  %2 = arith.subi %arg0, %arg0 overflow<nuw, nsw> : index
  // CHECK: arith.muli %arg0, %arg0 : index
  %3 = arith.muli %arg0, %arg0 overflow<none> : index
  // CHECK: arith.muli %arg0, %arg0 overflow<nuw> {some.attr} : index
  %4 = arith.muli %arg0, %arg0 overflow<nuw> {some.attr} : index
  // CHECK: arith.divui %arg0, %arg0 : index
  %5 = arith.divui %arg0, %arg0 : index
  // CHECK: arith.divui %arg0, %arg0 exact : index
  %6 = arith.divui %arg0, %arg0 exact : index
  // CHECK: arith.divsi %arg0, %arg0 exact {some.attr} : index
  %7 = arith.divsi %arg0, %arg0 exact {some.attr} : index
  // CHECK: arith.ceildivui %arg0, %arg0 : index
  %8 = arith.ceildivui %arg0, %arg0 : index
  // CHECK: arith.ceildivsi %arg0, %arg0 : index
  %9 = arith.ceildivsi %arg0, %arg0 : index
  // CHECK: arith.floordivsi %arg0, %arg0 : index
  %10 = arith.floordivsi %arg0, %arg0 : index
  // CHECK: arith.remui %arg0, %arg0 : index
  %11 = arith.remui %arg0, %arg0 : index
  // CHECK: arith.remsi %arg0, %arg0 : index
  %12 = arith.remsi %arg0, %arg0 : index
  // CHECK: arith.andi %arg1, %arg1 : i32
  %13 = arith.andi %arg1, %arg1 : i32
  // CHECK: arith.ori %arg1, %arg1 : i32
  %14 = arith.ori %arg1, %arg1 : i32
  // CHECK: arith.xori %arg1, %arg1 : i32
  %15 = arith.xori %arg1, %arg1 : i32
  // CHECK: arith.maxui %arg1, %arg1 : i32
  %16 = arith.maxui %arg1, %arg1 : i32
  // CHECK: arith.minui %arg1, %arg1 : i32
  %17 = arith.minui %arg1, %arg1 : i32
  // CHECK: arith.maxsi %arg1, %arg1 : i32
  %18 = arith.maxsi %arg1, %arg1 : i32
  // CHECK: arith.minsi %arg1, %arg1 : i32
  %19 = arith.minsi %arg1, %arg1 : i32
  // CHECK: arith.shli %arg1, %arg1 overflow<nuw> : i32
  %20 = arith.shli %arg1, %arg1 overflow<nuw> : i32
  // CHECK: arith.shrui %arg1, %arg1 exact : i32
  %21 = arith.shrui %arg1, %arg1 exact : i32
  // CHECK: arith.shrsi %arg1, %arg1 : i32
  %22 = arith.shrsi %arg1, %arg1 : i32
  util.return %0 : index
}

// -----

// CHECK-LABEL: util.func public @float
util.func public @float(%arg0: f32) -> f32 {
  // CHECK: arith.addf %arg0, %arg0 : f32
  %0 = arith.addf %arg0, %arg0 : f32
  // Fastmath flags print in MLIR's order, without spaces; all of them print as `fast`.
  // CHECK: arith.subf %arg0, %arg0 fastmath<nnan,ninf> : f32
  %1 = arith.subf %arg0, %arg0 fastmath<ninf, nnan> : f32
  // CHECK: arith.mulf %arg0, %arg0 fastmath<fast> : f32
  %2 = arith.mulf %arg0, %arg0 fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> : f32
  // CHECK: arith.divf %arg0, %arg0 fastmath<fast> {some.attr} : f32
  %3 = arith.divf %arg0, %arg0 fastmath<fast> {some.attr} : f32
  // CHECK: arith.remf %arg0, %arg0 : f32
  %4 = arith.remf %arg0, %arg0 fastmath<none> : f32
  // CHECK: arith.maximumf %arg0, %arg0 : f32
  %5 = arith.maximumf %arg0, %arg0 : f32
  // CHECK: arith.minimumf %arg0, %arg0 : f32
  %6 = arith.minimumf %arg0, %arg0 : f32
  // CHECK: arith.maxnumf %arg0, %arg0 : f32
  %7 = arith.maxnumf %arg0, %arg0 : f32
  // CHECK: arith.minnumf %arg0, %arg0 : f32
  %8 = arith.minnumf %arg0, %arg0 : f32
  // CHECK: arith.cmpf olt, %arg0, %arg0 fastmath<nnan> : f32
  %9 = arith.cmpf olt, %arg0, %arg0 fastmath<nnan> : f32
  util.return %0 : f32
}

// -----

// CHECK-LABEL: util.func public @casts
util.func public @casts(%arg0: index, %arg1: i32, %arg2: i64, %arg3: f32) {
  // CHECK: arith.index_cast %arg1 : i32 to index
  %0 = arith.index_cast %arg1 : i32 to index
  // CHECK: arith.index_castui %arg0 nneg : index to i32
  %1 = arith.index_castui %arg0 nneg : index to i32
  // CHECK: arith.extui %arg1 nneg : i32 to i64
  %2 = arith.extui %arg1 nneg : i32 to i64
  // CHECK: arith.extsi %arg1 {some.attr} : i32 to i64
  %3 = arith.extsi %arg1 {some.attr} : i32 to i64
  // CHECK: arith.trunci %arg2 overflow<nsw, nuw> : i64 to i32
  %4 = arith.trunci %arg2 overflow<nsw, nuw> : i64 to i32
  // CHECK: arith.sitofp %arg1 : i32 to f32
  %5 = arith.sitofp %arg1 : i32 to f32
  // CHECK: arith.uitofp %arg1 nneg : i32 to f32
  %6 = arith.uitofp %arg1 nneg : i32 to f32
  // CHECK: arith.fptosi %arg3 : f32 to i32
  %7 = arith.fptosi %arg3 : f32 to i32
  // CHECK: arith.fptoui %arg3 : f32 to i32
  %8 = arith.fptoui %arg3 : f32 to i32
  // CHECK: arith.extf %arg3 fastmath<nnan> : f32 to f64
  %9 = arith.extf %arg3 fastmath<nnan> : f32 to f64
  // CHECK: arith.bitcast %arg1 : i32 to f32
  %10 = arith.bitcast %arg1 : i32 to f32
  util.return
}

// -----

// CHECK-LABEL: util.func public @compare_select
util.func public @compare_select(%arg0: index, %arg1: !stream.resource<*>, %arg2: vector<4xi1>, %arg3: vector<4xi32>) -> !stream.resource<*> {
  // CHECK: %[[P:.+]] = arith.cmpi ult, %arg0, %arg0 : index
  %0 = arith.cmpi ult, %arg0, %arg0 : index
  // CHECK: arith.cmpi sge, %arg0, %arg0 {some.attr} : index
  %1 = arith.cmpi sge, %arg0, %arg0 {some.attr} : index
  // CHECK: arith.cmpi eq, %arg3, %arg3 : vector<4xi32>
  %2 = arith.cmpi eq, %arg3, %arg3 : vector<4xi32>
  // A plain i1 condition's type is left out.
  // CHECK: %[[S:.+]] = arith.select %[[P]], %arg1, %arg1 : !stream.resource<*>
  %3 = arith.select %0, %arg1, %arg1 : i1, !stream.resource<*>
  // CHECK: arith.select %arg2, %arg3, %arg3 : vector<4xi1>, vector<4xi32>
  %4 = arith.select %arg2, %arg3, %arg3 : vector<4xi1>, vector<4xi32>
  // CHECK: util.return %[[S]]
  util.return %3 : !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @constants
util.func public @constants() {
  // CHECK: %c-1_i32 = arith.constant -1 : i32
  %c-1_i32 = arith.constant -1 : i32
  // CHECK: %true = arith.constant true
  %true = arith.constant true
  // CHECK: %cst = arith.constant dense<0> : tensor<4xi32>
  %cst = arith.constant dense<0> : tensor<4xi32>
  // CHECK: %cst_0 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %cst_0 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  // CHECK: %cst_1 = arith.constant dense<[(1.000000e+00,2.000000e+00), (3.000000e+00,4.000000e+00)]> : tensor<2xcomplex<f32>>
  %cst_1 = arith.constant dense<[(1.000000e+00,2.000000e+00), (3.000000e+00,4.000000e+00)]> : tensor<2xcomplex<f32>>
  util.return
}
