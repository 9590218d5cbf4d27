// Exported from JAX 0.10.2 by make-programs.py; do not edit.
// model-sized: bench/iree_models.py runs it; the tests build it but do not run it.
// A vocabulary-parallel output layer: 2048 token states of width 64 go to dev_b and
// dev_c, each computes the logits of half of a 32768-word vocabulary (128 MiB), both
// halves are gathered on dev_a, which joins them and returns each token's log-sum-exp.
module {
  func.func @main(%h: tensor<2048x64xf32>, %w_lo: tensor<64x16384xf32>, %w_hi: tensor<64x16384xf32>) -> tensor<2048xf32> {
    %h_b = flow.tensor.transfer %h : tensor<2048x64xf32> to #hal.device.promise<@dev_b>
    %w_lo_b = flow.tensor.transfer %w_lo : tensor<64x16384xf32> to #hal.device.promise<@dev_b>
    %h_c = flow.tensor.transfer %h : tensor<2048x64xf32> to #hal.device.promise<@dev_c>
    %w_hi_c = flow.tensor.transfer %w_hi : tensor<64x16384xf32> to #hal.device.promise<@dev_c>
    %lo_b = call @logits(%h_b, %w_lo_b) : (tensor<2048x64xf32>, tensor<64x16384xf32>) -> tensor<2048x16384xf32>
    %hi_c = call @logits(%h_c, %w_hi_c) : (tensor<2048x64xf32>, tensor<64x16384xf32>) -> tensor<2048x16384xf32>
    %lo = flow.tensor.transfer %lo_b : tensor<2048x16384xf32> to #hal.device.promise<@dev_a>
    %hi = flow.tensor.transfer %hi_c : tensor<2048x16384xf32> to #hal.device.promise<@dev_a>
    %y = call @gather(%lo, %hi) : (tensor<2048x16384xf32>, tensor<2048x16384xf32>) -> tensor<2048xf32>
    return %y : tensor<2048xf32>
  }
  func.func private @logits(%arg0: tensor<2048x64xf32>, %arg1: tensor<64x16384xf32>) -> (tensor<2048x16384xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2048x64xf32>, tensor<64x16384xf32>) -> tensor<2048x16384xf32>
    return %0 : tensor<2048x16384xf32>
  }
  func.func private @gather(%arg0: tensor<2048x16384xf32>, %arg1: tensor<2048x16384xf32>) -> (tensor<2048xf32>) {
    %0 = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<2048x16384xf32>, tensor<2048x16384xf32>) -> tensor<2048x32768xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<2048x32768xf32>, tensor<f32>) -> tensor<2048xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2048xf32>
    %3 = stablehlo.maximum %2, %1 : tensor<2048xf32>
    %4 = stablehlo.is_finite %3 : (tensor<2048xf32>) -> tensor<2048xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2048xf32>
    %6 = stablehlo.select %4, %3, %5 : tensor<2048xi1>, tensor<2048xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<2048xf32>) -> tensor<2048x1xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<2048x1xf32>) -> tensor<2048x32768xf32>
    %9 = stablehlo.subtract %0, %8 : tensor<2048x32768xf32>
    %10 = stablehlo.exponential %9 : tensor<2048x32768xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<2048x32768xf32>, tensor<f32>) -> tensor<2048xf32>
    %12 = stablehlo.abs %11 : tensor<2048xf32>
    %13 = stablehlo.log %12 : tensor<2048xf32>
    %14 = stablehlo.add %13, %6 : tensor<2048xf32>
    return %14 : tensor<2048xf32>
  }
}
