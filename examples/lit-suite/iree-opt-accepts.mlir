// REQUIRES: iree-opt
// RUN: %streamopt --elide-async-copies %S/../two-devices.mlir | %filecheck %s
// RUN: %streamopt --cse %S/../two-devices.mlir | %iree-opt - -o /dev/null

// Output with no new ops is still IREE's IR: iree-opt reads it.
// CHECK-COUNT-2: stream.async.move
