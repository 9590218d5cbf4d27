// The first ElideAsyncCopies input of a real program still has `*` lifetimes (IREE's
// RefineUsage has not run): lowering it stops at the first cast of an import, located, instead
// of copying every import and export once more.
//
// RUN: not streamopt --elide-async-copies --lower-to-cmd %examples/iree/two-devices/before-elide-1.mlir 2>&1 | filecheck %s
// RUN: not streamopt --elide-async-copies --lower-to-cmd %examples/iree/mlp-deep/before-elide-1.mlir 2>&1 | filecheck %s

// CHECK: before-elide-1.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'stream.async.cast' op cannot be lowered to cmd IR: resource lifetime '*' is not refined
// CHECK-NEXT: stream.async.cast
// CHECK-NEXT: ^
