// RUN: %streamopt-run %S/../two-devices.mlir --compare | %filecheck %s

// The shipped two-device dump computes the same bytes in every form, and once its transfers
// are moves the two CPU devices (which share memory) alias instead of copying.
// CHECK: result[0]: 4xf32=
// CHECK: forms compared
// CHECK: as given{{ +}}yes
// CHECK: elided{{ +}}yes{{ +}}0 B{{ +}}0 B{{ +}}2/0
