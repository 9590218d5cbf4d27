// Constants and splats on two devices: a dense constant (a global built by an initializer and
// cloned where it is read), a tensor filled with a run-time scalar (IREE makes it a
// stream.async.splat directly on dev_b rather than transferring it), and a splat constant that
// IREE folds into the last kernel.
func.func @main(%input: tensor<4xi32>, %scalar: i32) -> tensor<4xi32> {
  %weights = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %ones = arith.constant dense<1> : tensor<4xi32>
  %empty = tensor.empty() : tensor<4xi32>
  %filled = linalg.fill ins(%scalar : i32) outs(%empty : tensor<4xi32>) -> tensor<4xi32>
  %filled_b = flow.tensor.transfer %filled : tensor<4xi32> to #hal.device.promise<@dev_b>
  %on_b = flow.tensor.transfer %input : tensor<4xi32> to #hal.device.promise<@dev_b>
  %weights_b = flow.tensor.transfer %weights : tensor<4xi32> to #hal.device.promise<@dev_b>
  %scaled_b = arith.muli %on_b, %weights_b : tensor<4xi32>
  %shifted_b = arith.addi %scaled_b, %filled_b : tensor<4xi32>
  %shifted = flow.tensor.transfer %shifted_b : tensor<4xi32> to #hal.device.promise<@dev_a>
  %result = arith.addi %shifted, %ones : tensor<4xi32>
  return %result : tensor<4xi32>
}
