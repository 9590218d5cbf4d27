// Private functions that take and return tensors across a device round trip. `noinline` becomes
// `inlining_policy = #util.inline.never` on the util.func, so the calls survive to the stream
// phase and their arguments stay function arguments (by-value or by-reference is for the
// analysis to decide).
func.func private @square_on_b(%value: tensor<4xf32>) -> tensor<4xf32> attributes {noinline} {
  %on_b = flow.tensor.transfer %value : tensor<4xf32> to #hal.device.promise<@dev_b>
  %squared_b = arith.mulf %on_b, %on_b : tensor<4xf32>
  %back = flow.tensor.transfer %squared_b : tensor<4xf32> to #hal.device.promise<@dev_a>
  return %back : tensor<4xf32>
}

func.func private @offset(%value: tensor<4xf32>, %by: tensor<4xf32>) -> tensor<4xf32> attributes {noinline} {
  %sum = arith.addf %value, %by : tensor<4xf32>
  return %sum : tensor<4xf32>
}

func.func @main(%input: tensor<4xf32>) -> tensor<4xf32> {
  %doubled = arith.addf %input, %input : tensor<4xf32>
  %once = call @square_on_b(%doubled) : (tensor<4xf32>) -> tensor<4xf32>
  %twice = call @square_on_b(%once) : (tensor<4xf32>) -> tensor<4xf32>
  %result = call @offset(%twice, %input) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %result : tensor<4xf32>
}
