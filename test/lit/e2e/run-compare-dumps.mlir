// The real dumps with constants and dynamic shapes run in every form --compare knows, down to
// hal with moves expanded, and all compute the same bytes: constants uploaded from host data
// (imported in place by a CPU, read into its own memory by a discrete device) and index
// dispatch operands packed into i32 words reach the kernels as the async program gave them.
//
// RUN: streamopt-run --compare %examples/iree/constants/before-elide-2.mlir | filecheck %s
// RUN: streamopt-run --compare --topology %S/Inputs/discrete-dev-b.json %examples/iree/constants/before-elide-2.mlir | filecheck %s
// RUN: streamopt-run --compare %examples/iree/dynamic-shapes/before-elide-2.mlir | filecheck %s

// CHECK: forms compared
// CHECK: as given {{.*}} yes
// CHECK-NEXT: elided {{.*}} yes
// CHECK-NEXT: lowered to cmd {{.*}} yes
// CHECK-NEXT: cmd, moves expanded {{.*}} yes
// CHECK-NEXT: lowered to hal {{.*}} yes
// CHECK-NEXT: hal, moves expanded {{.*}} yes
