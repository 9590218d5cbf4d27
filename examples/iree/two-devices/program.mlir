// Two devices: compute on dev_a, send the result to dev_b, compute there, bring it back.
// %input is also wanted on dev_b: IREE imports the caller's buffer a second time there
// instead of transferring it.
func.func @main(%input: tensor<4xf32>) -> tensor<4xf32> {
  %doubled = arith.addf %input, %input : tensor<4xf32>
  %doubled_b = flow.tensor.transfer %doubled : tensor<4xf32> to #hal.device.promise<@dev_b>
  %input_b = flow.tensor.transfer %input : tensor<4xf32> to #hal.device.promise<@dev_b>
  %product_b = arith.mulf %doubled_b, %input_b : tensor<4xf32>
  %product = flow.tensor.transfer %product_b : tensor<4xf32> to #hal.device.promise<@dev_a>
  %result = arith.subf %product, %input : tensor<4xf32>
  return %result : tensor<4xf32>
}
