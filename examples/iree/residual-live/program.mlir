// Exported from JAX 0.10.2 by make-programs.py; do not edit.
// A residual branch on another device: dev_a's activations go to dev_b for a norm +
// dense + gelu branch and are added back on dev_a, so the source of the first transfer
// stays live across it (a copy), while the branch's result can move back.
module {
  func.func @main(%x: tensor<8x256xf32>, %w0: tensor<256x256xf32>, %b0: tensor<256xf32>, %w1: tensor<256x256xf32>, %b1: tensor<256xf32>, %w2: tensor<256x256xf32>) -> tensor<8x256xf32> {
    %h = call @embed(%x, %w0, %b0) : (tensor<8x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<8x256xf32>
    %h_b = flow.tensor.transfer %h : tensor<8x256xf32> to #hal.device.promise<@dev_b>
    %w1_b = flow.tensor.transfer %w1 : tensor<256x256xf32> to #hal.device.promise<@dev_b>
    %b1_b = flow.tensor.transfer %b1 : tensor<256xf32> to #hal.device.promise<@dev_b>
    %f_b = call @branch(%h_b, %w1_b, %b1_b) : (tensor<8x256xf32>, tensor<256x256xf32>, tensor<256xf32>) -> tensor<8x256xf32>
    %f = flow.tensor.transfer %f_b : tensor<8x256xf32> to #hal.device.promise<@dev_a>
    %y = call @combine(%h, %f, %w2) : (tensor<8x256xf32>, tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
    return %y : tensor<8x256xf32>
  }
  func.func private @embed(%arg0: tensor<8x256xf32>, %arg1: tensor<256x256xf32>, %arg2: tensor<256xf32>) -> (tensor<8x256xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<8x256xf32>
    %3 = stablehlo.add %0, %2 : tensor<8x256xf32>
    %4 = call @embed.relu(%3) : (tensor<8x256xf32>) -> tensor<8x256xf32>
    return %4 : tensor<8x256xf32>
  }
  func.func private @embed.relu(%arg0: tensor<8x256xf32>) -> tensor<8x256xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x256xf32>
    return %1 : tensor<8x256xf32>
  }
  func.func private @branch(%arg0: tensor<8x256xf32>, %arg1: tensor<256x256xf32>, %arg2: tensor<256xf32>) -> (tensor<8x256xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x256xf32>, tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x256xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x256xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<8x256xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x256xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_2 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<8x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x256xf32>
    %12 = stablehlo.subtract %arg0, %11 : tensor<8x256xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<8x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<8x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x256xf32>
    %17 = stablehlo.multiply %12, %16 : tensor<8x256xf32>
    %18 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<8x256xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<8x256xf32>
    %21 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<8x256xf32>
    %23 = stablehlo.add %20, %22 : tensor<8x256xf32>
    %24 = stablehlo.dot_general %23, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
    %25 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<8x256xf32>
    %27 = stablehlo.add %24, %26 : tensor<8x256xf32>
    %28 = stablehlo.multiply %27, %27 : tensor<8x256xf32>
    %29 = stablehlo.multiply %28, %27 : tensor<8x256xf32>
    %cst_4 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %31 = stablehlo.multiply %30, %29 : tensor<8x256xf32>
    %32 = stablehlo.add %27, %31 : tensor<8x256xf32>
    %cst_5 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %34 = stablehlo.multiply %33, %32 : tensor<8x256xf32>
    %35 = stablehlo.tanh %34 : tensor<8x256xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %37 = stablehlo.add %36, %35 : tensor<8x256xf32>
    %cst_7 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %39 = stablehlo.multiply %38, %37 : tensor<8x256xf32>
    %40 = stablehlo.multiply %27, %39 : tensor<8x256xf32>
    return %40 : tensor<8x256xf32>
  }
  func.func private @combine(%arg0: tensor<8x256xf32>, %arg1: tensor<8x256xf32>, %arg2: tensor<256x256xf32>) -> (tensor<8x256xf32>) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8x256xf32>
    %1 = stablehlo.dot_general %0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
    %2 = stablehlo.tanh %1 : tensor<8x256xf32>
    return %2 : tensor<8x256xf32>
  }
}
