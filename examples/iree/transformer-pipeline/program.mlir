// Exported from JAX 0.10.2 by make-programs.py; do not edit.
// model-sized: bench/iree_models.py runs it; the tests build it but do not run it.
// A four-stage pipeline of pre-norm transformer blocks at sequence 2048 (batch 16,
// width 128, 2 heads attending within causal windows of 128 tokens, MLP 128-256-128
// with gelu), one block per device (a -> b -> c -> d): each 16 MiB residual stream and
// each stage's weights moved to the next device, the result back to dev_a.
module {
  func.func @main(%x: tensor<16x2048x128xf32>, %g0: tensor<128xf32>, %wq0: tensor<128x128xf32>, %wk0: tensor<128x128xf32>, %wv0: tensor<128x128xf32>, %wo0: tensor<128x128xf32>, %w10: tensor<128x256xf32>, %w20: tensor<256x128xf32>, %g1: tensor<128xf32>, %wq1: tensor<128x128xf32>, %wk1: tensor<128x128xf32>, %wv1: tensor<128x128xf32>, %wo1: tensor<128x128xf32>, %w11: tensor<128x256xf32>, %w21: tensor<256x128xf32>, %g2: tensor<128xf32>, %wq2: tensor<128x128xf32>, %wk2: tensor<128x128xf32>, %wv2: tensor<128x128xf32>, %wo2: tensor<128x128xf32>, %w12: tensor<128x256xf32>, %w22: tensor<256x128xf32>, %g3: tensor<128xf32>, %wq3: tensor<128x128xf32>, %wk3: tensor<128x128xf32>, %wv3: tensor<128x128xf32>, %wo3: tensor<128x128xf32>, %w13: tensor<128x256xf32>, %w23: tensor<256x128xf32>) -> tensor<16x2048x128xf32> {
    %h0 = call @block(%x, %g0, %wq0, %wk0, %wv0, %wo0, %w10, %w20) : (tensor<16x2048x128xf32>, tensor<128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x256xf32>, tensor<256x128xf32>) -> tensor<16x2048x128xf32>
    %x1 = flow.tensor.transfer %h0 : tensor<16x2048x128xf32> to #hal.device.promise<@dev_b>
    %g1_on = flow.tensor.transfer %g1 : tensor<128xf32> to #hal.device.promise<@dev_b>
    %wq1_on = flow.tensor.transfer %wq1 : tensor<128x128xf32> to #hal.device.promise<@dev_b>
    %wk1_on = flow.tensor.transfer %wk1 : tensor<128x128xf32> to #hal.device.promise<@dev_b>
    %wv1_on = flow.tensor.transfer %wv1 : tensor<128x128xf32> to #hal.device.promise<@dev_b>
    %wo1_on = flow.tensor.transfer %wo1 : tensor<128x128xf32> to #hal.device.promise<@dev_b>
    %w11_on = flow.tensor.transfer %w11 : tensor<128x256xf32> to #hal.device.promise<@dev_b>
    %w21_on = flow.tensor.transfer %w21 : tensor<256x128xf32> to #hal.device.promise<@dev_b>
    %h1 = call @block(%x1, %g1_on, %wq1_on, %wk1_on, %wv1_on, %wo1_on, %w11_on, %w21_on) : (tensor<16x2048x128xf32>, tensor<128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x256xf32>, tensor<256x128xf32>) -> tensor<16x2048x128xf32>
    %x2 = flow.tensor.transfer %h1 : tensor<16x2048x128xf32> to #hal.device.promise<@dev_c>
    %g2_on = flow.tensor.transfer %g2 : tensor<128xf32> to #hal.device.promise<@dev_c>
    %wq2_on = flow.tensor.transfer %wq2 : tensor<128x128xf32> to #hal.device.promise<@dev_c>
    %wk2_on = flow.tensor.transfer %wk2 : tensor<128x128xf32> to #hal.device.promise<@dev_c>
    %wv2_on = flow.tensor.transfer %wv2 : tensor<128x128xf32> to #hal.device.promise<@dev_c>
    %wo2_on = flow.tensor.transfer %wo2 : tensor<128x128xf32> to #hal.device.promise<@dev_c>
    %w12_on = flow.tensor.transfer %w12 : tensor<128x256xf32> to #hal.device.promise<@dev_c>
    %w22_on = flow.tensor.transfer %w22 : tensor<256x128xf32> to #hal.device.promise<@dev_c>
    %h2 = call @block(%x2, %g2_on, %wq2_on, %wk2_on, %wv2_on, %wo2_on, %w12_on, %w22_on) : (tensor<16x2048x128xf32>, tensor<128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x256xf32>, tensor<256x128xf32>) -> tensor<16x2048x128xf32>
    %x3 = flow.tensor.transfer %h2 : tensor<16x2048x128xf32> to #hal.device.promise<@dev_d>
    %g3_on = flow.tensor.transfer %g3 : tensor<128xf32> to #hal.device.promise<@dev_d>
    %wq3_on = flow.tensor.transfer %wq3 : tensor<128x128xf32> to #hal.device.promise<@dev_d>
    %wk3_on = flow.tensor.transfer %wk3 : tensor<128x128xf32> to #hal.device.promise<@dev_d>
    %wv3_on = flow.tensor.transfer %wv3 : tensor<128x128xf32> to #hal.device.promise<@dev_d>
    %wo3_on = flow.tensor.transfer %wo3 : tensor<128x128xf32> to #hal.device.promise<@dev_d>
    %w13_on = flow.tensor.transfer %w13 : tensor<128x256xf32> to #hal.device.promise<@dev_d>
    %w23_on = flow.tensor.transfer %w23 : tensor<256x128xf32> to #hal.device.promise<@dev_d>
    %h3 = call @block(%x3, %g3_on, %wq3_on, %wk3_on, %wv3_on, %wo3_on, %w13_on, %w23_on) : (tensor<16x2048x128xf32>, tensor<128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x256xf32>, tensor<256x128xf32>) -> tensor<16x2048x128xf32>
    %y = flow.tensor.transfer %h3 : tensor<16x2048x128xf32> to #hal.device.promise<@dev_a>
    return %y : tensor<16x2048x128xf32>
  }
  func.func private @block(%arg0: tensor<16x2048x128xf32>, %arg1: tensor<128xf32>, %arg2: tensor<128x128xf32>, %arg3: tensor<128x128xf32>, %arg4: tensor<128x128xf32>, %arg5: tensor<128x128xf32>, %arg6: tensor<128x256xf32>, %arg7: tensor<256x128xf32>) -> (tensor<16x2048x128xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<16x2048x128xf32>, tensor<f32>) -> tensor<16x2048xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<16x2048xf32>) -> tensor<16x2048x1xf32>
    %cst_0 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x2048x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<16x2048x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<16x2048x1xf32>) -> tensor<16x2048x128xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<16x2048x128xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<16x2048x128xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<16x2048x128xf32>, tensor<f32>) -> tensor<16x2048xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<16x2048xf32>) -> tensor<16x2048x1xf32>
    %cst_2 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x2048x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<16x2048x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<16x2048x1xf32>) -> tensor<16x2048x128xf32>
    %12 = stablehlo.subtract %arg0, %11 : tensor<16x2048x128xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x2048x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<16x2048x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<16x2048x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<16x2048x1xf32>) -> tensor<16x2048x128xf32>
    %17 = stablehlo.multiply %12, %16 : tensor<16x2048x128xf32>
    %18 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<16x2048x128xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<16x2048x128xf32>
    %21 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<16x2048x128xf32>
    %23 = stablehlo.add %20, %22 : tensor<16x2048x128xf32>
    %24 = stablehlo.dot_general %23, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x2048x128xf32>, tensor<128x128xf32>) -> tensor<16x2048x128xf32>
    %25 = stablehlo.reshape %24 : (tensor<16x2048x128xf32>) -> tensor<16x16x128x2x64xf32>
    %26 = stablehlo.dot_general %23, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x2048x128xf32>, tensor<128x128xf32>) -> tensor<16x2048x128xf32>
    %27 = stablehlo.reshape %26 : (tensor<16x2048x128xf32>) -> tensor<16x16x128x2x64xf32>
    %28 = stablehlo.dot_general %23, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x2048x128xf32>, tensor<128x128xf32>) -> tensor<16x2048x128xf32>
    %29 = stablehlo.reshape %28 : (tensor<16x2048x128xf32>) -> tensor<16x16x128x2x64xf32>
    %30 = stablehlo.dot_general %25, %27, batching_dims = [0, 1, 3] x [0, 1, 3], contracting_dims = [4] x [4], precision = [DEFAULT, DEFAULT] : (tensor<16x16x128x2x64xf32>, tensor<16x16x128x2x64xf32>) -> tensor<16x16x2x128x128xf32>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x16x2x128x128xf32>
    %32 = stablehlo.divide %30, %31 : tensor<16x16x2x128x128xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %33 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<128x128xi1>
    %34 = call @block.tril(%33) : (tensor<128x128xi1>) -> tensor<128x128xi1>
    %cst_5 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %35 = call @block._where(%34, %32, %cst_5) : (tensor<128x128xi1>, tensor<16x16x2x128x128xf32>, tensor<f32>) -> tensor<16x16x2x128x128xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %36 = stablehlo.reduce(%35 init: %cst_6) applies stablehlo.maximum across dimensions = [4] : (tensor<16x16x2x128x128xf32>, tensor<f32>) -> tensor<16x16x2x128xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<16x16x2x128xf32>
    %38 = stablehlo.maximum %37, %36 : tensor<16x16x2x128xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2, 3] : (tensor<16x16x2x128xf32>) -> tensor<16x16x2x128x1xf32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [0, 1, 2, 3, 4] : (tensor<16x16x2x128x1xf32>) -> tensor<16x16x2x128x128xf32>
    %41 = stablehlo.subtract %35, %40 : tensor<16x16x2x128x128xf32>
    %42 = stablehlo.exponential %41 : tensor<16x16x2x128x128xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.reduce(%42 init: %cst_8) applies stablehlo.add across dimensions = [4] : (tensor<16x16x2x128x128xf32>, tensor<f32>) -> tensor<16x16x2x128xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2, 3] : (tensor<16x16x2x128xf32>) -> tensor<16x16x2x128x1xf32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 2, 3, 4] : (tensor<16x16x2x128x1xf32>) -> tensor<16x16x2x128x128xf32>
    %46 = stablehlo.divide %42, %45 : tensor<16x16x2x128x128xf32>
    %47 = stablehlo.dot_general %29, %46, batching_dims = [0, 1, 3] x [0, 1, 2], contracting_dims = [2] x [4], precision = [DEFAULT, DEFAULT] : (tensor<16x16x128x2x64xf32>, tensor<16x16x2x128x128xf32>) -> tensor<16x16x2x64x128xf32>
    %48 = stablehlo.transpose %47, dims = [0, 1, 4, 2, 3] : (tensor<16x16x2x64x128xf32>) -> tensor<16x16x128x2x64xf32>
    %49 = stablehlo.reshape %48 : (tensor<16x16x128x2x64xf32>) -> tensor<16x2048x128xf32>
    %50 = stablehlo.dot_general %49, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x2048x128xf32>, tensor<128x128xf32>) -> tensor<16x2048x128xf32>
    %51 = stablehlo.add %arg0, %50 : tensor<16x2048x128xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%51 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<16x2048x128xf32>, tensor<f32>) -> tensor<16x2048xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1] : (tensor<16x2048xf32>) -> tensor<16x2048x1xf32>
    %cst_10 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<16x2048x1xf32>
    %55 = stablehlo.divide %53, %54 : tensor<16x2048x1xf32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] : (tensor<16x2048x1xf32>) -> tensor<16x2048x128xf32>
    %57 = stablehlo.subtract %51, %56 : tensor<16x2048x128xf32>
    %58 = stablehlo.multiply %57, %57 : tensor<16x2048x128xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %59 = stablehlo.reduce(%58 init: %cst_11) applies stablehlo.add across dimensions = [2] : (tensor<16x2048x128xf32>, tensor<f32>) -> tensor<16x2048xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<16x2048xf32>) -> tensor<16x2048x1xf32>
    %cst_12 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<16x2048x1xf32>
    %62 = stablehlo.divide %60, %61 : tensor<16x2048x1xf32>
    %63 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] : (tensor<16x2048x1xf32>) -> tensor<16x2048x128xf32>
    %64 = stablehlo.subtract %51, %63 : tensor<16x2048x128xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<16x2048x1xf32>
    %66 = stablehlo.add %62, %65 : tensor<16x2048x1xf32>
    %67 = stablehlo.rsqrt %66 : tensor<16x2048x1xf32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<16x2048x1xf32>) -> tensor<16x2048x128xf32>
    %69 = stablehlo.multiply %64, %68 : tensor<16x2048x128xf32>
    %70 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<16x2048x128xf32>
    %72 = stablehlo.multiply %69, %71 : tensor<16x2048x128xf32>
    %73 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<16x2048x128xf32>
    %75 = stablehlo.add %72, %74 : tensor<16x2048x128xf32>
    %76 = stablehlo.dot_general %75, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x2048x128xf32>, tensor<128x256xf32>) -> tensor<16x2048x256xf32>
    %77 = stablehlo.multiply %76, %76 : tensor<16x2048x256xf32>
    %78 = stablehlo.multiply %77, %76 : tensor<16x2048x256xf32>
    %cst_14 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<16x2048x256xf32>
    %80 = stablehlo.multiply %79, %78 : tensor<16x2048x256xf32>
    %81 = stablehlo.add %76, %80 : tensor<16x2048x256xf32>
    %cst_15 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<16x2048x256xf32>
    %83 = stablehlo.multiply %82, %81 : tensor<16x2048x256xf32>
    %84 = stablehlo.tanh %83 : tensor<16x2048x256xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<16x2048x256xf32>
    %86 = stablehlo.add %85, %84 : tensor<16x2048x256xf32>
    %cst_17 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<16x2048x256xf32>
    %88 = stablehlo.multiply %87, %86 : tensor<16x2048x256xf32>
    %89 = stablehlo.multiply %76, %88 : tensor<16x2048x256xf32>
    %90 = stablehlo.dot_general %89, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x2048x256xf32>, tensor<256x128xf32>) -> tensor<16x2048x128xf32>
    %91 = stablehlo.add %51, %90 : tensor<16x2048x128xf32>
    return %91 : tensor<16x2048x128xf32>
  }
  func.func private @block.tril(%arg0: tensor<128x128xi1>) -> tensor<128x128xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<128x128xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<128x128xi32>
    %2 = stablehlo.add %0, %1 : tensor<128x128xi32>
    %3 = stablehlo.iota dim = 1 : tensor<128x128xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<128x128xi32>, tensor<128x128xi32>) -> tensor<128x128xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<128x128xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<128x128xi1>, tensor<128x128xi1>
    return %6 : tensor<128x128xi1>
  }
  func.func private @block._where(%arg0: tensor<128x128xi1>, %arg1: tensor<16x16x2x128x128xf32>, %arg2: tensor<f32>) -> tensor<16x16x2x128x128xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [3, 4] : (tensor<128x128xi1>) -> tensor<16x16x2x128x128xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<16x16x2x128x128xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<16x16x2x128x128xi1>, tensor<16x16x2x128x128xf32>
    return %3 : tensor<16x16x2x128x128xf32>
  }
}
