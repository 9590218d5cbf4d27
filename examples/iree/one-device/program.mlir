// One device: a matmul followed by an elementwise op. No transfers; the dump shows the
// import -> dispatch -> export chain every program starts from.
func.func @main(%lhs: tensor<2x3xf32>, %rhs: tensor<3x4xf32>, %bias: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x4xf32>) -> tensor<2x4xf32>
  %product = linalg.matmul ins(%lhs, %rhs : tensor<2x3xf32>, tensor<3x4xf32>) outs(%init : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = arith.addf %product, %bias : tensor<2x4xf32>
  return %sum : tensor<2x4xf32>
}
