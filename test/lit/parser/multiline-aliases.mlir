// RUN: streamopt %s | filecheck %s
// RUN: streamopt %s | streamopt | filecheck %s

// IREE prints a `#util.composite` alias over several lines, one value per line; the alias is
// kept whole, line breaks included, and the op that uses it still refers to it.

// CHECK: #composite_of_64b = #util.composite<64xi8, [
// CHECK-NEXT: {{^}}    dense<[1, 2, 3, 4]> : tensor<4xi32>,
// CHECK-NEXT: {{^}}    dense<0> : vector<48xi8>,
// CHECK-NEXT: {{^}}]>
// CHECK-NEXT: module {
#composite_of_64b = #util.composite<64xi8, [
    dense<[1, 2, 3, 4]> : tensor<4xi32>,
    dense<0> : vector<48xi8>,
]>
module {
  // CHECK: util.func public @f() -> !util.buffer {
  util.func public @f() -> !util.buffer {
    // CHECK-NEXT: %buffer_cst = util.buffer.constant <alignment = 64> : !util.buffer = #composite_of_64b
    %buffer_cst = util.buffer.constant <alignment = 64> : !util.buffer = #composite_of_64b
    util.return %buffer_cst : !util.buffer
  }
}
