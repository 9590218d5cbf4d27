// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s

// A result group count is any integer literal, as in MLIR: hexadecimal prints back as decimal.
// CHECK-LABEL: util.func public @hex_count
util.func public @hex_count() -> index {
  // CHECK: %[[G:.+]]:2 = test.pair
  %pair:0x2 = test.pair
  // CHECK: util.return %[[G]]#1 : index
  util.return %pair#1 : index
}

// -----

// CHECK-LABEL: util.func public @decimal_count
util.func public @decimal_count() -> index {
  // CHECK: %[[G:.+]]:3 = test.triple
  %triple:3 = test.triple
  // CHECK: util.return %[[G]]#2 : index
  util.return %triple#2 : index
}
