// A dynamically shaped tensor crossing devices: sizes are computed from the shape at run time
// and travel with the resource (`{%size}` operands) through both transfers.
func.func @main(%input: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %input, %c0 : tensor<?x4xf32>
  %doubled = arith.addf %input, %input : tensor<?x4xf32>
  %on_b = flow.tensor.transfer %doubled : tensor<?x4xf32>{%rows} to #hal.device.promise<@dev_b>
  %squared_b = arith.mulf %on_b, %on_b : tensor<?x4xf32>
  %back = flow.tensor.transfer %squared_b : tensor<?x4xf32>{%rows} to #hal.device.promise<@dev_a>
  return %back : tensor<?x4xf32>
}
