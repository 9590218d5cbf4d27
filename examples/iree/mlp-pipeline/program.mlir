// Exported from JAX 0.10.2 by make-programs.py; do not edit.
// model-sized: bench/iree_models.py runs it; the tests build it but do not run it.
// A pipeline-parallel MLP at model size: batch 4096, hidden 4096 (64 MiB activations),
// one residual low-rank block (4096 -> 64 -> 4096, relu) per device: dev_a, then the
// activations moved to dev_b for the second block, the result back to dev_a.
module {
  func.func @main(%x: tensor<4096x4096xf32>, %down0: tensor<4096x64xf32>, %up0: tensor<64x4096xf32>, %down1: tensor<4096x64xf32>, %up1: tensor<64x4096xf32>) -> tensor<4096x4096xf32> {
    %h = call @block(%x, %down0, %up0) : (tensor<4096x4096xf32>, tensor<4096x64xf32>, tensor<64x4096xf32>) -> tensor<4096x4096xf32>
    %h_b = flow.tensor.transfer %h : tensor<4096x4096xf32> to #hal.device.promise<@dev_b>
    %down1_b = flow.tensor.transfer %down1 : tensor<4096x64xf32> to #hal.device.promise<@dev_b>
    %up1_b = flow.tensor.transfer %up1 : tensor<64x4096xf32> to #hal.device.promise<@dev_b>
    %y_b = call @block(%h_b, %down1_b, %up1_b) : (tensor<4096x4096xf32>, tensor<4096x64xf32>, tensor<64x4096xf32>) -> tensor<4096x4096xf32>
    %y = flow.tensor.transfer %y_b : tensor<4096x4096xf32> to #hal.device.promise<@dev_a>
    return %y : tensor<4096x4096xf32>
  }
  func.func private @block(%arg0: tensor<4096x4096xf32>, %arg1: tensor<4096x64xf32>, %arg2: tensor<64x4096xf32>) -> (tensor<4096x4096xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4096x4096xf32>, tensor<4096x64xf32>) -> tensor<4096x64xf32>
    %1 = call @block.relu(%0) : (tensor<4096x64xf32>) -> tensor<4096x64xf32>
    %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4096x64xf32>, tensor<64x4096xf32>) -> tensor<4096x4096xf32>
    %3 = stablehlo.add %arg0, %2 : tensor<4096x4096xf32>
    return %3 : tensor<4096x4096xf32>
  }
  func.func private @block.relu(%arg0: tensor<4096x64xf32>) -> tensor<4096x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4096x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4096x64xf32>
    return %1 : tensor<4096x64xf32>
  }
}
