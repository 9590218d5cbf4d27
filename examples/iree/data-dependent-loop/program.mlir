// Exported from JAX 0.10.2 by make-programs.py; do not edit.
// A data-dependent loop: on dev_b, grow a vector until its largest magnitude reaches 8
// (at most 16 steps); the exit test reads a value back to the host each iteration. The
// result is normalized on dev_a.
module {
  func.func @main(%x: tensor<256xf32>) -> tensor<256xf32> {
    %x_b = flow.tensor.transfer %x : tensor<256xf32> to #hal.device.promise<@dev_b>
    %h_b = call @refine(%x_b) : (tensor<256xf32>) -> tensor<256xf32>
    %h = flow.tensor.transfer %h_b : tensor<256xf32> to #hal.device.promise<@dev_a>
    %y = call @normalize(%h) : (tensor<256xf32>) -> tensor<256xf32>
    return %y : tensor<256xf32>
  }
  func.func private @refine(%arg0: tensor<256xf32>) -> (tensor<256xf32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<256xf32>
    cond {
      %c_1 = stablehlo.constant dense<16> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %2 = stablehlo.abs %iterArg_0 : tensor<256xf32>
      %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.maximum across dimensions = [0] : (tensor<256xf32>, tensor<f32>) -> tensor<f32>
      %cst_2 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
      %4 = stablehlo.compare LT, %3, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c_3 = stablehlo.constant dense<false> : tensor<i1>
      %5 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i1>) -> tensor<i1>
      %6 = stablehlo.compare NE, %1, %5, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %7 = stablehlo.convert %6 : tensor<i1>
      %8 = stablehlo.and %7, %4 : tensor<i1>
      stablehlo.return %8 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      %cst = stablehlo.constant dense<1.500000e+00> : tensor<f32>
      %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256xf32>
      %3 = stablehlo.multiply %iterArg_0, %2 : tensor<256xf32>
      %4 = stablehlo.sine %iterArg_0 : tensor<256xf32>
      %5 = stablehlo.add %3, %4 : tensor<256xf32>
      stablehlo.return %1, %5 : tensor<i32>, tensor<256xf32>
    }
    return %0#1 : tensor<256xf32>
  }
  func.func private @normalize(%arg0: tensor<256xf32>) -> (tensor<256xf32>) {
    %0 = call @normalize.norm(%arg0) : (tensor<256xf32>) -> tensor<f32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.add %0, %cst : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<256xf32>
    %3 = stablehlo.divide %arg0, %2 : tensor<256xf32>
    return %3 : tensor<256xf32>
  }
  func.func private @normalize.norm(%arg0: tensor<256xf32>) -> tensor<f32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<256xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<256xf32>, tensor<f32>) -> tensor<f32>
    %2 = stablehlo.sqrt %1 : tensor<f32>
    return %2 : tensor<f32>
  }
}
