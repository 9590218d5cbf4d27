// Exported from JAX 0.10.2 by make-programs.py; do not edit.
// A deep MLP (six 256-wide relu layers, weights as arguments), pipelined over two
// devices: layers 0-2 on dev_a, the activations and the weights of layers 3-5 moved to
// dev_b, the result back to dev_a.
module {
  func.func @main(%x: tensor<4x256xf32>, %w0: tensor<256x256xf32>, %b0: tensor<256xf32>, %w1: tensor<256x256xf32>, %b1: tensor<256xf32>, %w2: tensor<256x256xf32>, %b2: tensor<256xf32>, %w3: tensor<256x256xf32>, %b3: tensor<256xf32>, %w4: tensor<256x256xf32>, %b4: tensor<256xf32>, %w5: tensor<256x256xf32>, %b5: tensor<256xf32>) -> tensor<4x256xf32> {
    %h = call @layers_a(%x, %w0, %b0, %w1, %b1, %w2, %b2) : (tensor<4x256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<4x256xf32>
    %h_b = flow.tensor.transfer %h : tensor<4x256xf32> to #hal.device.promise<@dev_b>
    %w3_b = flow.tensor.transfer %w3 : tensor<256x256xf32> to #hal.device.promise<@dev_b>
    %b3_b = flow.tensor.transfer %b3 : tensor<256xf32> to #hal.device.promise<@dev_b>
    %w4_b = flow.tensor.transfer %w4 : tensor<256x256xf32> to #hal.device.promise<@dev_b>
    %b4_b = flow.tensor.transfer %b4 : tensor<256xf32> to #hal.device.promise<@dev_b>
    %w5_b = flow.tensor.transfer %w5 : tensor<256x256xf32> to #hal.device.promise<@dev_b>
    %b5_b = flow.tensor.transfer %b5 : tensor<256xf32> to #hal.device.promise<@dev_b>
    %y_b = call @layers_b(%h_b, %w3_b, %b3_b, %w4_b, %b4_b, %w5_b, %b5_b) : (tensor<4x256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<4x256xf32>
    %y = flow.tensor.transfer %y_b : tensor<4x256xf32> to #hal.device.promise<@dev_a>
    return %y : tensor<4x256xf32>
  }
  func.func private @layers_a(%arg0: tensor<4x256xf32>, %arg1: tensor<256x256xf32>, %arg2: tensor<256xf32>, %arg3: tensor<256x256xf32>, %arg4: tensor<256xf32>, %arg5: tensor<256x256xf32>, %arg6: tensor<256xf32>) -> (tensor<4x256xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256xf32>, tensor<256x256xf32>) -> tensor<4x256xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<4x256xf32>
    %3 = stablehlo.add %0, %2 : tensor<4x256xf32>
    %4 = call @layers_a.relu(%3) : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %5 = stablehlo.dot_general %4, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256xf32>, tensor<256x256xf32>) -> tensor<4x256xf32>
    %6 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<4x256xf32>
    %8 = stablehlo.add %5, %7 : tensor<4x256xf32>
    %9 = call @layers_a.relu(%8) : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %10 = stablehlo.dot_general %9, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256xf32>, tensor<256x256xf32>) -> tensor<4x256xf32>
    %11 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<4x256xf32>
    %13 = stablehlo.add %10, %12 : tensor<4x256xf32>
    %14 = call @layers_a.relu(%13) : (tensor<4x256xf32>) -> tensor<4x256xf32>
    return %14 : tensor<4x256xf32>
  }
  func.func private @layers_a.relu(%arg0: tensor<4x256xf32>) -> tensor<4x256xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x256xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x256xf32>
    return %1 : tensor<4x256xf32>
  }
  func.func private @layers_b(%arg0: tensor<4x256xf32>, %arg1: tensor<256x256xf32>, %arg2: tensor<256xf32>, %arg3: tensor<256x256xf32>, %arg4: tensor<256xf32>, %arg5: tensor<256x256xf32>, %arg6: tensor<256xf32>) -> (tensor<4x256xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256xf32>, tensor<256x256xf32>) -> tensor<4x256xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<4x256xf32>
    %3 = stablehlo.add %0, %2 : tensor<4x256xf32>
    %4 = call @layers_b.relu(%3) : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %5 = stablehlo.dot_general %4, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256xf32>, tensor<256x256xf32>) -> tensor<4x256xf32>
    %6 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<4x256xf32>
    %8 = stablehlo.add %5, %7 : tensor<4x256xf32>
    %9 = call @layers_b.relu(%8) : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %10 = stablehlo.dot_general %9, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256xf32>, tensor<256x256xf32>) -> tensor<4x256xf32>
    %11 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<4x256xf32>
    %13 = stablehlo.add %10, %12 : tensor<4x256xf32>
    %14 = call @layers_b.relu(%13) : (tensor<4x256xf32>) -> tensor<4x256xf32>
    return %14 : tensor<4x256xf32>
  }
  func.func private @layers_b.relu(%arg0: tensor<4x256xf32>) -> tensor<4x256xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x256xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x256xf32>
    return %1 : tensor<4x256xf32>
  }
}
