// Exported from JAX 0.10.2 by make-programs.py; do not edit.
// A dynamic batch dimension (exported from JAX with a symbolic batch): one relu layer on
// dev_a, the activations (their size known only at run time) moved to dev_b for the
// second layer, the result back to dev_a.
module {
  func.func @main(%x: tensor<?x256xf32>, %w0: tensor<256x256xf32>, %b0: tensor<256xf32>, %w1: tensor<256x256xf32>, %b1: tensor<256xf32>) -> tensor<?x256xf32> {
    %c0 = arith.constant 0 : index
    %n = tensor.dim %x, %c0 : tensor<?x256xf32>
    %n_i32 = arith.index_cast %n : index to i32
    %batch = tensor.from_elements %n_i32 : tensor<i32>
    %h = call @layer(%batch, %x, %w0, %b0) : (tensor<i32>, tensor<?x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
    %h_b = flow.tensor.transfer %h : tensor<?x256xf32>{%n} to #hal.device.promise<@dev_b>
    %w1_b = flow.tensor.transfer %w1 : tensor<256x256xf32> to #hal.device.promise<@dev_b>
    %b1_b = flow.tensor.transfer %b1 : tensor<256xf32> to #hal.device.promise<@dev_b>
    %batch_b = flow.tensor.transfer %batch : tensor<i32> to #hal.device.promise<@dev_b>
    %y_b = call @layer(%batch_b, %h_b, %w1_b, %b1_b) : (tensor<i32>, tensor<?x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
    %y = flow.tensor.transfer %y_b : tensor<?x256xf32>{%n} to #hal.device.promise<@dev_a>
    return %y : tensor<?x256xf32>
  }
  func.func private @layer(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x256xf32>, %arg2: tensor<256x256xf32>, %arg3: tensor<256xf32>) -> (tensor<?x256xf32>) {
    %0 = stablehlo.dot_general %arg1, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256xf32>, tensor<256x256xf32>) -> tensor<?x256xf32>
    %1 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %c = stablehlo.constant dense<256> : tensor<i32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %c_0 = stablehlo.constant dense<256> : tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %1, %3, dims = [0, 1] : (tensor<1x256xf32>, tensor<2xi32>) -> tensor<?x256xf32>
    %5 = stablehlo.add %0, %4 : tensor<?x256xf32>
    %6 = call @layer.relu(%arg0, %5) : (tensor<i32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    return %6 : tensor<?x256xf32>
  }
  func.func private @layer.relu(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x256xf32>) -> tensor<?x256xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<256> : tensor<i32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %c_0 = stablehlo.constant dense<256> : tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %cst, %1, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %3 = stablehlo.maximum %arg1, %2 : tensor<?x256xf32>
    return %3 : tensor<?x256xf32>
  }
}
