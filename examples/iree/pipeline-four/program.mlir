// Exported from JAX 0.10.2 by make-programs.py; do not edit.
// A four-stage pipeline on four devices: one gelu block with a residual per device
// (a -> b -> c -> d), each stage's weight moved to its device, the result back to dev_a.
module {
  func.func @main(%x: tensor<8x256xf32>, %w0: tensor<256x256xf32>, %w1: tensor<256x256xf32>, %w2: tensor<256x256xf32>, %w3: tensor<256x256xf32>) -> tensor<8x256xf32> {
    %h0 = call @block(%x, %w0) : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
    %x1 = flow.tensor.transfer %h0 : tensor<8x256xf32> to #hal.device.promise<@dev_b>
    %w1_on = flow.tensor.transfer %w1 : tensor<256x256xf32> to #hal.device.promise<@dev_b>
    %h1 = call @block(%x1, %w1_on) : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
    %x2 = flow.tensor.transfer %h1 : tensor<8x256xf32> to #hal.device.promise<@dev_c>
    %w2_on = flow.tensor.transfer %w2 : tensor<256x256xf32> to #hal.device.promise<@dev_c>
    %h2 = call @block(%x2, %w2_on) : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
    %x3 = flow.tensor.transfer %h2 : tensor<8x256xf32> to #hal.device.promise<@dev_d>
    %w3_on = flow.tensor.transfer %w3 : tensor<256x256xf32> to #hal.device.promise<@dev_d>
    %h3 = call @block(%x3, %w3_on) : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
    %y = flow.tensor.transfer %h3 : tensor<8x256xf32> to #hal.device.promise<@dev_a>
    return %y : tensor<8x256xf32>
  }
  func.func private @block(%arg0: tensor<8x256xf32>, %arg1: tensor<256x256xf32>) -> (tensor<8x256xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
    %1 = stablehlo.multiply %0, %0 : tensor<8x256xf32>
    %2 = stablehlo.multiply %1, %0 : tensor<8x256xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %4 = stablehlo.multiply %3, %2 : tensor<8x256xf32>
    %5 = stablehlo.add %0, %4 : tensor<8x256xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %7 = stablehlo.multiply %6, %5 : tensor<8x256xf32>
    %8 = stablehlo.tanh %7 : tensor<8x256xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %10 = stablehlo.add %9, %8 : tensor<8x256xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %12 = stablehlo.multiply %11, %10 : tensor<8x256xf32>
    %13 = stablehlo.multiply %0, %12 : tensor<8x256xf32>
    %14 = stablehlo.add %13, %arg0 : tensor<8x256xf32>
    return %14 : tensor<8x256xf32>
  }
}
