// Three devices: dev_a fans its input out to dev_b and dev_c, each computes on its copy, and both
// results come back to dev_a, which combines them. One result also hops b -> c before returning.
func.func @main(%input: tensor<8xf32>) -> tensor<8xf32> {
  %scaled = arith.mulf %input, %input : tensor<8xf32>
  %to_b = flow.tensor.transfer %scaled : tensor<8xf32> to #hal.device.promise<@dev_b>
  %to_c = flow.tensor.transfer %scaled : tensor<8xf32> to #hal.device.promise<@dev_c>
  %on_b = arith.addf %to_b, %to_b : tensor<8xf32>
  %on_c = arith.subf %to_c, %to_c : tensor<8xf32>
  %b_to_c = flow.tensor.transfer %on_b : tensor<8xf32> to #hal.device.promise<@dev_c>
  %mixed_c = arith.mulf %b_to_c, %on_c : tensor<8xf32>
  %from_b = flow.tensor.transfer %on_b : tensor<8xf32> to #hal.device.promise<@dev_a>
  %from_c = flow.tensor.transfer %mixed_c : tensor<8xf32> to #hal.device.promise<@dev_a>
  %result = arith.addf %from_b, %from_c : tensor<8xf32>
  return %result : tensor<8xf32>
}
