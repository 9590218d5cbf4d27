// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --allow-unregistered-dialect --split-input-file %s | filecheck %s --check-prefix=ALLOWED

// Ops, attributes and types of dialects iree-opt registers but streamopt does not model are
// kept as written (the flag changes nothing for them).

// CHECK: #encoding = #iree_encoding.testing<>
// ALLOWED: #encoding = #iree_encoding.testing<>
#encoding = #iree_encoding.testing<>
// CHECK-LABEL: util.func public @registered_dialects
// ALLOWED-LABEL: util.func public @registered_dialects
util.func public @registered_dialects(%arg0: tensor<4xf32>, %arg1: f32) -> tensor<4xf32> {
  // CHECK-NEXT: %[[EMPTY:.+]] = tensor.empty() : tensor<4xf32>
  %0 = tensor.empty() : tensor<4xf32>
  // CHECK-NEXT: %[[FILL:.+]] = linalg.fill ins(%arg1 : f32) outs(%[[EMPTY]] : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.fill ins(%arg1 : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT: %[[SUM:.+]] = stablehlo.add %arg0, %[[FILL]] : tensor<4xf32>
  %2 = stablehlo.add %arg0, %1 : tensor<4xf32>
  // CHECK-NEXT: %[[EXP:.+]] = math.exp %[[SUM]] : tensor<4xf32>
  %3 = math.exp %2 : tensor<4xf32>
  // CHECK-NEXT: util.return %[[EXP]] : tensor<4xf32>
  util.return %3 : tensor<4xf32>
}
// CHECK: util.global private @attribute {resolver = #iree_cpu.cpu_encoding_resolver<>} : tensor<4xf32, #encoding>
util.global private @attribute {resolver = #iree_cpu.cpu_encoding_resolver<>} : tensor<4xf32, #encoding>
