// Exported from JAX 0.10.2 by make-programs.py; do not edit.
// A pre-norm transformer block at hidden size 256 (sequence 16, 4 causal heads, MLP
// 256-512-256 with gelu): layer norm and attention on dev_a, the residual stream moved to
// dev_b for layer norm and the MLP, the result back to dev_a.
module {
  func.func @main(%x: tensor<16x256xf32>, %g1: tensor<256xf32>, %be1: tensor<256xf32>, %wq: tensor<256x256xf32>, %wk: tensor<256x256xf32>, %wv: tensor<256x256xf32>, %wo: tensor<256x256xf32>, %g2: tensor<256xf32>, %be2: tensor<256xf32>, %w1: tensor<256x512xf32>, %b1: tensor<512xf32>, %w2: tensor<512x256xf32>, %b2: tensor<256xf32>) -> tensor<16x256xf32> {
    %a = call @attention(%x, %g1, %be1, %wq, %wk, %wv, %wo) : (tensor<16x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<16x256xf32>
    %a_b = flow.tensor.transfer %a : tensor<16x256xf32> to #hal.device.promise<@dev_b>
    %g2_b = flow.tensor.transfer %g2 : tensor<256xf32> to #hal.device.promise<@dev_b>
    %be2_b = flow.tensor.transfer %be2 : tensor<256xf32> to #hal.device.promise<@dev_b>
    %w1_b = flow.tensor.transfer %w1 : tensor<256x512xf32> to #hal.device.promise<@dev_b>
    %b1_b = flow.tensor.transfer %b1 : tensor<512xf32> to #hal.device.promise<@dev_b>
    %w2_b = flow.tensor.transfer %w2 : tensor<512x256xf32> to #hal.device.promise<@dev_b>
    %b2_b = flow.tensor.transfer %b2 : tensor<256xf32> to #hal.device.promise<@dev_b>
    %y_b = call @mlp(%a_b, %g2_b, %be2_b, %w1_b, %b1_b, %w2_b, %b2_b) : (tensor<16x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x512xf32>, tensor<512xf32>, tensor<512x256xf32>, tensor<256xf32>) -> tensor<16x256xf32>
    %y = flow.tensor.transfer %y_b : tensor<16x256xf32> to #hal.device.promise<@dev_a>
    return %y : tensor<16x256xf32>
  }
  func.func private @attention(%arg0: tensor<16x256xf32>, %arg1: tensor<256xf32>, %arg2: tensor<256xf32>, %arg3: tensor<256x256xf32>, %arg4: tensor<256x256xf32>, %arg5: tensor<256x256xf32>, %arg6: tensor<256x256xf32>) -> (tensor<16x256xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<16x256xf32>, tensor<f32>) -> tensor<16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x256xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<16x256xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<16x256xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<16x256xf32>, tensor<f32>) -> tensor<16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_2 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<16x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x256xf32>
    %12 = stablehlo.subtract %arg0, %11 : tensor<16x256xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<16x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<16x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x256xf32>
    %17 = stablehlo.multiply %12, %16 : tensor<16x256xf32>
    %18 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<16x256xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<16x256xf32>
    %21 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<16x256xf32>
    %23 = stablehlo.add %20, %22 : tensor<16x256xf32>
    %24 = stablehlo.dot_general %23, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<256x256xf32>) -> tensor<16x256xf32>
    %25 = stablehlo.reshape %24 : (tensor<16x256xf32>) -> tensor<16x4x64xf32>
    %26 = stablehlo.transpose %25, dims = [1, 0, 2] : (tensor<16x4x64xf32>) -> tensor<4x16x64xf32>
    %27 = stablehlo.dot_general %23, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<256x256xf32>) -> tensor<16x256xf32>
    %28 = stablehlo.reshape %27 : (tensor<16x256xf32>) -> tensor<16x4x64xf32>
    %29 = stablehlo.transpose %28, dims = [1, 0, 2] : (tensor<16x4x64xf32>) -> tensor<4x16x64xf32>
    %30 = stablehlo.dot_general %23, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<256x256xf32>) -> tensor<16x256xf32>
    %31 = stablehlo.reshape %30 : (tensor<16x256xf32>) -> tensor<16x4x64xf32>
    %32 = stablehlo.transpose %31, dims = [1, 0, 2] : (tensor<16x4x64xf32>) -> tensor<4x16x64xf32>
    %33 = stablehlo.dot_general %26, %29, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x16xf32>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x16x16xf32>
    %35 = stablehlo.divide %33, %34 : tensor<4x16x16xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %36 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
    %37 = call @attention.tril(%36) : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %cst_5 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %38 = call @attention._where(%37, %35, %cst_5) : (tensor<16x16xi1>, tensor<4x16x16xf32>, tensor<f32>) -> tensor<4x16x16xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %39 = stablehlo.reduce(%38 init: %cst_6) applies stablehlo.maximum across dimensions = [2] : (tensor<4x16x16xf32>, tensor<f32>) -> tensor<4x16xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %41 = stablehlo.maximum %40, %39 : tensor<4x16xf32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x16xf32>
    %44 = stablehlo.subtract %38, %43 : tensor<4x16x16xf32>
    %45 = stablehlo.exponential %44 : tensor<4x16x16xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %46 = stablehlo.reduce(%45 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<4x16x16xf32>, tensor<f32>) -> tensor<4x16xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x16xf32>
    %49 = stablehlo.divide %45, %48 : tensor<4x16x16xf32>
    %50 = stablehlo.dot_general %49, %32, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x16x16xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %51 = stablehlo.transpose %50, dims = [1, 0, 2] : (tensor<4x16x64xf32>) -> tensor<16x4x64xf32>
    %52 = stablehlo.reshape %51 : (tensor<16x4x64xf32>) -> tensor<16x256xf32>
    %53 = stablehlo.dot_general %52, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<256x256xf32>) -> tensor<16x256xf32>
    %54 = stablehlo.add %arg0, %53 : tensor<16x256xf32>
    return %54 : tensor<16x256xf32>
  }
  func.func private @attention.tril(%arg0: tensor<16x16xi1>) -> tensor<16x16xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<16x16xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<16x16xi32>
    %2 = stablehlo.add %0, %1 : tensor<16x16xi32>
    %3 = stablehlo.iota dim = 1 : tensor<16x16xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<16x16xi1>, tensor<16x16xi1>
    return %6 : tensor<16x16xi1>
  }
  func.func private @attention._where(%arg0: tensor<16x16xi1>, %arg1: tensor<4x16x16xf32>, %arg2: tensor<f32>) -> tensor<4x16x16xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<4x16x16xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x16x16xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x16x16xi1>, tensor<4x16x16xf32>
    return %3 : tensor<4x16x16xf32>
  }
  func.func private @mlp(%arg0: tensor<16x256xf32>, %arg1: tensor<256xf32>, %arg2: tensor<256xf32>, %arg3: tensor<256x512xf32>, %arg4: tensor<512xf32>, %arg5: tensor<512x256xf32>, %arg6: tensor<256xf32>) -> (tensor<16x256xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<16x256xf32>, tensor<f32>) -> tensor<16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x256xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<16x256xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<16x256xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<16x256xf32>, tensor<f32>) -> tensor<16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_2 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<16x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x256xf32>
    %12 = stablehlo.subtract %arg0, %11 : tensor<16x256xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<16x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<16x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x256xf32>
    %17 = stablehlo.multiply %12, %16 : tensor<16x256xf32>
    %18 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<16x256xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<16x256xf32>
    %21 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<16x256xf32>
    %23 = stablehlo.add %20, %22 : tensor<16x256xf32>
    %24 = stablehlo.dot_general %23, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<256x512xf32>) -> tensor<16x512xf32>
    %25 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<16x512xf32>
    %27 = stablehlo.add %24, %26 : tensor<16x512xf32>
    %28 = stablehlo.multiply %27, %27 : tensor<16x512xf32>
    %29 = stablehlo.multiply %28, %27 : tensor<16x512xf32>
    %cst_4 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x512xf32>
    %31 = stablehlo.multiply %30, %29 : tensor<16x512xf32>
    %32 = stablehlo.add %27, %31 : tensor<16x512xf32>
    %cst_5 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x512xf32>
    %34 = stablehlo.multiply %33, %32 : tensor<16x512xf32>
    %35 = stablehlo.tanh %34 : tensor<16x512xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<16x512xf32>
    %37 = stablehlo.add %36, %35 : tensor<16x512xf32>
    %cst_7 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<16x512xf32>
    %39 = stablehlo.multiply %38, %37 : tensor<16x512xf32>
    %40 = stablehlo.multiply %27, %39 : tensor<16x512xf32>
    %41 = stablehlo.dot_general %40, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x512xf32>, tensor<512x256xf32>) -> tensor<16x256xf32>
    %42 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<16x256xf32>
    %44 = stablehlo.add %41, %43 : tensor<16x256xf32>
    %45 = stablehlo.add %arg0, %44 : tensor<16x256xf32>
    return %45 : tensor<16x256xf32>
  }
}
