// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s
// RUN: streamopt --split-input-file --elide-async-copies %s | filecheck %s

// Ops streamopt keeps as written (func.func, stablehlo): the names their syntax defines for
// their regions, and the keywords between their regions.

// A function's argument used by two ops of its body (the second one kept as written too).
// CHECK-LABEL: func.func @two_line_body(%a: f32) -> f32 {
// CHECK-NEXT:    %b = arith.addf %a, %a : f32
// CHECK-NEXT:    return %a : f32
// CHECK-NEXT:  }
func.func @two_line_body(%a: f32) -> f32 {
  %b = arith.addf %a, %a : f32
  return %a : f32
}

// -----

// A call in a function kept as written, of a function kept as written.
// CHECK-LABEL: func.func @caller(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %0 = arith.addf %arg0, %arg0 : tensor<4xf32>
// CHECK-NEXT:    %1 = call @callee(%0, %arg0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return %1 : tensor<4xf32>
// CHECK:       func.func private @callee(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %0 = arith.mulf %arg0, %arg1 : tensor<4xf32>
func.func @caller(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %arg0, %arg0 : tensor<4xf32>
  %1 = call @callee(%0, %arg0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @callee(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.mulf %arg0, %arg1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// stablehlo.while: `do` between its regions, and loop variables both regions use.
// CHECK-LABEL: func.func @while_loop(%arg0: tensor<i32>) -> tensor<i32> {
// CHECK-NEXT:    %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>
// CHECK-NEXT:    cond {
// CHECK-NEXT:      %2 = stablehlo.compare LT, %iterArg, %arg0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:      stablehlo.return %2 : tensor<i1>
// CHECK-NEXT:    } do {
// CHECK-NEXT:      stablehlo.return %iterArg : tensor<i32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %1 = stablehlo.add %0, %arg0 : tensor<i32>
func.func @while_loop(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>
  cond {
    %2 = stablehlo.compare LT, %iterArg, %arg0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    stablehlo.return %iterArg : tensor<i32>
  }
  %1 = stablehlo.add %0, %arg0 : tensor<i32>
  return %1 : tensor<i32>
}

// -----

// Other keywords and punctuation known ops put after a region (scf.if's `else`,
// scf.index_switch's `case` and `default`, `attributes`, `=>`, the `,` between regions).
// CHECK-LABEL: func.func @after_regions
// CHECK-NEXT:    stablehlo.custom {
// CHECK-NEXT:      stablehlo.return
// CHECK-NEXT:    } else {
// CHECK:         } case {
// CHECK:         } default {
// CHECK:         } attributes {
// CHECK:         } => {
// CHECK:         }, {
func.func @after_regions() {
  stablehlo.custom {
    stablehlo.return
  } else {
    stablehlo.return
  } case {
    stablehlo.return
  } default {
    stablehlo.return
  } attributes {
    stablehlo.return
  } => {
    stablehlo.return
  }, {
    stablehlo.return
  }
  return
}
