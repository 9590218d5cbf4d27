// Exported from JAX 0.10.2 by make-programs.py; do not edit.
// Data parallel on three devices: dev_a splits the batch, each half and a replica of
// the weights go to dev_b and dev_c, the two halves come back to dev_a and are joined.
module {
  func.func @main(%x: tensor<8x256xf32>, %w: tensor<256x256xf32>, %b: tensor<256xf32>) -> tensor<8x256xf32> {
    %lo, %hi = call @split(%x) : (tensor<8x256xf32>) -> (tensor<4x256xf32>, tensor<4x256xf32>)
    %lo_b = flow.tensor.transfer %lo : tensor<4x256xf32> to #hal.device.promise<@dev_b>
    %w_b = flow.tensor.transfer %w : tensor<256x256xf32> to #hal.device.promise<@dev_b>
    %b_b = flow.tensor.transfer %b : tensor<256xf32> to #hal.device.promise<@dev_b>
    %hi_c = flow.tensor.transfer %hi : tensor<4x256xf32> to #hal.device.promise<@dev_c>
    %w_c = flow.tensor.transfer %w : tensor<256x256xf32> to #hal.device.promise<@dev_c>
    %b_c = flow.tensor.transfer %b : tensor<256xf32> to #hal.device.promise<@dev_c>
    %y_b = call @model(%lo_b, %w_b, %b_b) : (tensor<4x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<4x256xf32>
    %y_c = call @model(%hi_c, %w_c, %b_c) : (tensor<4x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<4x256xf32>
    %y_lo = flow.tensor.transfer %y_b : tensor<4x256xf32> to #hal.device.promise<@dev_a>
    %y_hi = flow.tensor.transfer %y_c : tensor<4x256xf32> to #hal.device.promise<@dev_a>
    %y = call @gather(%y_lo, %y_hi) : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<8x256xf32>
    return %y : tensor<8x256xf32>
  }
  func.func private @split(%arg0: tensor<8x256xf32>) -> (tensor<4x256xf32>, tensor<4x256xf32>) {
    %0 = stablehlo.slice %arg0 [0:4, 0:256] : (tensor<8x256xf32>) -> tensor<4x256xf32>
    %1 = stablehlo.slice %arg0 [4:8, 0:256] : (tensor<8x256xf32>) -> tensor<4x256xf32>
    return %0, %1 : tensor<4x256xf32>, tensor<4x256xf32>
  }
  func.func private @model(%arg0: tensor<4x256xf32>, %arg1: tensor<256x256xf32>, %arg2: tensor<256xf32>) -> (tensor<4x256xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256xf32>, tensor<256x256xf32>) -> tensor<4x256xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<4x256xf32>
    %3 = stablehlo.add %0, %2 : tensor<4x256xf32>
    %4 = call @model.relu(%3) : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %5 = stablehlo.dot_general %4, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256xf32>, tensor<256x256xf32>) -> tensor<4x256xf32>
    %6 = stablehlo.tanh %5 : tensor<4x256xf32>
    return %6 : tensor<4x256xf32>
  }
  func.func private @model.relu(%arg0: tensor<4x256xf32>) -> tensor<4x256xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x256xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x256xf32>
    return %1 : tensor<4x256xf32>
  }
  func.func private @gather(%arg0: tensor<4x256xf32>, %arg1: tensor<4x256xf32>) -> (tensor<8x256xf32>) {
    %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<8x256xf32>
    return %0 : tensor<8x256xf32>
  }
}
