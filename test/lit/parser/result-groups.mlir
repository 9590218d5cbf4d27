// RUN: streamopt --allow-unregistered-dialect --split-input-file %s | filecheck %s
// RUN: streamopt --allow-unregistered-dialect --split-input-file %s | streamopt --allow-unregistered-dialect --split-input-file | filecheck %s

// A result group count is any integer literal, as in MLIR: hexadecimal prints back as decimal.
// CHECK-LABEL: util.func public @hex_count
util.func public @hex_count(%arg0: i32) -> i32 {
  // CHECK: %[[G:.+]]:2 = arith.mulsi_extended %arg0, %arg0 : i32
  %pair:0x2 = arith.mulsi_extended %arg0, %arg0 : i32
  // CHECK: util.return %[[G]]#1 : i32
  util.return %pair#1 : i32
}

// -----

// CHECK-LABEL: util.func public @decimal_count
util.func public @decimal_count() -> index {
  // CHECK: %[[G:.+]]:3 = "test.triple"() : () -> (index, index, index)
  %triple:3 = "test.triple"() : () -> (index, index, index)
  // CHECK: util.return %[[G]]#2 : index
  util.return %triple#2 : index
}
