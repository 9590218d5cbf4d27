// RUN: streamopt --mlir-print-debuginfo %s | filecheck %s
// RUN: streamopt --mlir-print-debuginfo %s | streamopt --mlir-print-debuginfo | filecheck %s
// RUN: streamopt --mlir-print-debuginfo --strip-debuginfo %s | filecheck %s --check-prefix=STRIP
// RUN: streamopt %s | filecheck %s --check-prefix=STRIP
// RUN: streamopt %s -o %t.default
// RUN: streamopt --mlir-print-debuginfo --strip-debuginfo %s -o %t.stripped
// RUN: diff %t.default %t.stripped

// With --mlir-print-debuginfo MLIR writes location aliases before the module when attributes
// need them and after it when only locations use them; both stay where they were. Without it
// (iree-opt's default) no location is printed, as if --strip-debuginfo had removed them.

// CHECK: #loc1 = loc("program.mlir":3:5)
// CHECK-NEXT: #loc2 = loc("program.mlir":1:1)
// CHECK-NEXT: #map = affine_map<(d0) -> (d0)>
// CHECK-NEXT: module {
#loc1 = loc("program.mlir":3:5)
#loc2 = loc("program.mlir":1:1)
#map = affine_map<(d0) -> (d0)>
module {
  // CHECK-NEXT: stream.executable private @ex {
  // CHECK-NEXT:   builtin.module {
  // CHECK-NEXT:     func.func @fn(%arg0: !stream.binding loc(callsite(#loc1 at #loc2))) {
  // CHECK-NEXT:       return loc(#loc3)
  // CHECK-NEXT:     } loc(#loc1)
  stream.executable private @ex {
    builtin.module {
      func.func @fn(%arg0: !stream.binding loc(callsite(#loc1 at #loc2))) {
        return loc(#loc3)
      } loc(#loc1)
    } loc(#loc1)
  } loc(#loc1)
  // CHECK: util.func public @f(%arg0: index) -> index {
  util.func public @f(%arg0: index) -> index {
    // CHECK-NEXT: %c1 = arith.constant 1 : index loc(#loc3)
    %c1 = arith.constant 1 : index loc(#loc3)
    // CHECK-NEXT: util.return %arg0 : index loc("name with \"(\" in it")
    util.return %arg0 : index loc("name with \"(\" in it")
  // CHECK-NEXT: } loc(#loc2)
  } loc(#loc2)
// CHECK-NEXT: } loc(#loc)
} loc(#loc)
// CHECK-NEXT: #loc = loc("program.mlir":0:0)
// CHECK-NEXT: #loc3 = loc(callsite(#loc1 at #loc2))
// CHECK-EMPTY:
// CHECK-NOT: {{.}}
#loc = loc("program.mlir":0:0)
#loc3 = loc(callsite(#loc1 at #loc2))

// Stripping removes every location, executable bodies included, and every location alias, so
// no reference to a removed alias is left behind.
// STRIP-NOT: loc
// STRIP: #map = affine_map<(d0) -> (d0)>
// STRIP-NOT: loc
// STRIP: func.func @fn(%arg0: !stream.binding) {
// STRIP-NEXT: return
// STRIP-NEXT: }
// STRIP-NOT: loc
// STRIP: util.return %arg0 : index
// STRIP-NEXT: }
// STRIP-NEXT: }
// STRIP-NOT: loc
