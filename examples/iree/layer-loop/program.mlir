// Exported from JAX 0.10.2 by make-programs.py; do not edit.
// A loop over layers: four residual tanh layers whose weights are stacked in one
// 4x256x256 argument, run by lax.fori_loop on dev_b (IREE keeps the loop on the host and
// reads its counter back each iteration); a softmax head on dev_a.
module {
  func.func @main(%x: tensor<4x256xf32>, %ws: tensor<4x256x256xf32>) -> tensor<4x256xf32> {
    %x_b = flow.tensor.transfer %x : tensor<4x256xf32> to #hal.device.promise<@dev_b>
    %ws_b = flow.tensor.transfer %ws : tensor<4x256x256xf32> to #hal.device.promise<@dev_b>
    %h_b = call @layers(%x_b, %ws_b) : (tensor<4x256xf32>, tensor<4x256x256xf32>) -> tensor<4x256xf32>
    %h = flow.tensor.transfer %h_b : tensor<4x256xf32> to #hal.device.promise<@dev_a>
    %y = call @head(%h) : (tensor<4x256xf32>) -> tensor<4x256xf32>
    return %y : tensor<4x256xf32>
  }
  func.func private @layers(%arg0: tensor<4x256xf32>, %arg1: tensor<4x256x256xf32>) -> (tensor<4x256xf32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:4 = stablehlo.while(%iterArg = %arg1, %iterArg_1 = %c_0, %iterArg_2 = %c, %iterArg_3 = %arg0) : tensor<4x256x256xf32>, tensor<i32>, tensor<i32>, tensor<4x256xf32>
    cond {
      %c_4 = stablehlo.constant dense<4> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg_1, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1:2 = func.call @layers.closed_call(%iterArg, %iterArg_2, %iterArg_3) : (tensor<4x256x256xf32>, tensor<i32>, tensor<4x256xf32>) -> (tensor<i32>, tensor<4x256xf32>)
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg_1, %c_4 : tensor<i32>
      stablehlo.return %iterArg, %2, %1#0, %1#1 : tensor<4x256x256xf32>, tensor<i32>, tensor<i32>, tensor<4x256xf32>
    }
    return %0#3 : tensor<4x256xf32>
  }
  func.func private @layers.closed_call(%arg0: tensor<4x256x256xf32>, %arg1: tensor<i32>, %arg2: tensor<4x256xf32>) -> (tensor<i32>, tensor<4x256xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg1, %c : tensor<i32>
    %1 = stablehlo.convert %arg1 : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.compare LT, %1, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_1 = stablehlo.constant dense<4> : tensor<i32>
    %3 = stablehlo.add %1, %c_1 : tensor<i32>
    %4 = stablehlo.select %2, %3, %1 : tensor<i1>, tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare LT, %c_2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %c_5 = stablehlo.constant dense<256> : tensor<i32>
    %6 = stablehlo.add %c_4, %c_5 : tensor<i32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.select %5, %6, %c_6 : tensor<i1>, tensor<i32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.compare LT, %c_7, %c_8, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %c_10 = stablehlo.constant dense<256> : tensor<i32>
    %9 = stablehlo.add %c_9, %c_10 : tensor<i32>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.select %8, %9, %c_11 : tensor<i1>, tensor<i32>
    %11 = stablehlo.dynamic_slice %arg0, %4, %7, %10, sizes = [1, 256, 256] : (tensor<4x256x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x256x256xf32>
    %12 = stablehlo.reshape %11 : (tensor<1x256x256xf32>) -> tensor<256x256xf32>
    %13 = stablehlo.dot_general %arg2, %12, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x256xf32>, tensor<256x256xf32>) -> tensor<4x256xf32>
    %14 = stablehlo.tanh %13 : tensor<4x256xf32>
    %15 = stablehlo.add %14, %arg2 : tensor<4x256xf32>
    return %0, %15 : tensor<i32>, tensor<4x256xf32>
  }
  func.func private @head(%arg0: tensor<4x256xf32>) -> (tensor<4x256xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<4x256xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<4xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x256xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x256xf32>
    %6 = stablehlo.exponential %5 : tensor<4x256xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<4x256xf32>, tensor<f32>) -> tensor<4xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x256xf32>
    %10 = stablehlo.divide %6, %9 : tensor<4x256xf32>
    return %10 : tensor<4x256xf32>
  }
}
