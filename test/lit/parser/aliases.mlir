// RUN: streamopt --mlir-print-debuginfo %s | filecheck %s
// RUN: streamopt --mlir-print-debuginfo %s | streamopt --mlir-print-debuginfo | filecheck %s
// RUN: streamopt %s | filecheck %s --check-prefix=NOLOC

// MLIR allows alias definitions between top-level ops. Printed back, an attribute alias must
// come before the module that uses it; only location aliases may follow the module (and
// they are printed only with the locations, as iree-opt prints them).
// NOLOC: #map = affine_map<(d0) -> (d0)>
// NOLOC-NEXT: module {
// NOLOC-NEXT: util.func public @f() {
// NOLOC-NEXT: util.return{{$}}
// NOLOC: util.func public @g() attributes {map = #map} {
// NOLOC: }
// NOLOC-NEXT: }
// NOLOC-EMPTY:
// NOLOC-NOT: {{.}}

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
