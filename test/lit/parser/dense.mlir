// RUN: streamopt --split-input-file %s | filecheck %s

// Hex strings of dense attributes that MLIR reads: one element's bytes (a splat) or every
// element's, each element in whole bytes (`i1` too, and a complex number's two parts), and
// any string for elements that are not numbers. Damaged ones are in invalid.mlir. Those of
// integer, index and float elements print as MLIR prints them (a list of up to 100 elements,
// one value for a splat); an op kept as written keeps them as written.

// CHECK-LABEL: util.func public @hex_constants
util.func public @hex_constants() {
  %c4 = arith.constant 4 : index
  // CHECK: stream.async.constant : !stream.resource<constant>{%c4} = dense<1.000000e+00> : tensor<4xf32>
  %0 = stream.async.constant : !stream.resource<constant>{%c4} = dense<"0x0000803F"> : tensor<4xf32>
  // CHECK: stream.async.constant : !stream.resource<constant>{%c4} = dense<1.000000e+00> : tensor<2xf32>
  %1 = stream.async.constant : !stream.resource<constant>{%c4} = dense<"0x0000803F0000803F"> : tensor<2xf32>
  // CHECK: flow.tensor.constant dense<"0x010001"> : tensor<3xi1>
  %2 = flow.tensor.constant dense<"0x010001"> : tensor<3xi1>
  util.return
}
// CHECK: util.global private @splat_i1 = dense<true> : tensor<16xi1>
util.global private @splat_i1 = dense<"0x01"> : tensor<16xi1>
// CHECK: util.global private @i4_in_bytes = dense<[1, 2]> : tensor<2xi4>
util.global private @i4_in_bytes = dense<"0x0102"> : tensor<2xi4>
// CHECK: util.global private @complex = dense<"0x0000000000000000"> : tensor<2xcomplex<f16>>
util.global private @complex = dense<"0x0000000000000000"> : tensor<2xcomplex<f16>>
// CHECK: util.global private @index = dense<0> : tensor<2xindex>
util.global private @index = dense<"0x00000000000000000000000000000000"> : tensor<2xindex>
// CHECK: util.global private @strings = dense<"any string"> : tensor<2x!util.buffer>
util.global private @strings = dense<"any string"> : tensor<2x!util.buffer>
