// RUN: streamopt %s | filecheck %s
// RUN: streamopt %s | streamopt | filecheck %s

// MLIR allows alias definitions between top-level ops. Printed back, an attribute alias must
// come before the module that uses it; only location aliases may follow the module.

// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-NEXT: module {
// CHECK-NEXT: util.func public @f() {
// CHECK-NEXT: util.return loc(#loc1)
util.func public @f() {
  util.return loc(#loc1)
}
#map = affine_map<(d0) -> (d0)>
#loc1 = loc("aliases.mlir":12:3)
// CHECK: util.func public @g() attributes {map = #map} {
util.func public @g() attributes {map = #map} {
  util.return
}
// CHECK: }
// CHECK-NEXT: }
// CHECK-NEXT: #loc1 = loc("aliases.mlir":12:3)
// CHECK-EMPTY:
// CHECK-NOT: {{.}}
