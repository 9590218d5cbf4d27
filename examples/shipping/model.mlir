// The model of examples/shipping: a two-stage MLP on two devices. dev_a runs the first
// layer, its activations go to dev_b (flow.tensor.transfer) for the second, and the result
// comes back to dev_a. Both activation transfers are last uses: streamopt makes them moves.
func.func @main(%x: tensor<64x256xf32>, %w0: tensor<256x256xf32>, %w1: tensor<256x256xf32>) -> tensor<64x256xf32> {
  %h = stablehlo.dot_general %x, %w0, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
  %a = stablehlo.tanh %h : tensor<64x256xf32>
  %a_b = flow.tensor.transfer %a : tensor<64x256xf32> to #hal.device.promise<@dev_b>
  %w1_b = flow.tensor.transfer %w1 : tensor<256x256xf32> to #hal.device.promise<@dev_b>
  %g_b = stablehlo.dot_general %a_b, %w1_b, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
  %y_b = stablehlo.tanh %g_b : tensor<64x256xf32>
  %y = flow.tensor.transfer %y_b : tensor<64x256xf32> to #hal.device.promise<@dev_a>
  return %y : tensor<64x256xf32>
}
