// The real two-device dump runs with no flags; after --elide-async-copies its two transfers
// are moves that alias (the two CPU devices share memory) and it computes the same bytes.
//
// RUN: python -m streamopt.run_command %examples/two-devices.mlir --compare --report-json %t.json | filecheck %s
// RUN: filecheck %s --check-prefix=JSON --input-file %t.json

// CHECK: result[0]: 4xf32=
// CHECK: dev_a (cpu)
// CHECK: dev_b (cpu)
// CHECK: total
// CHECK: moves: 0 aliased, 0 copied
// CHECK: forms compared
// CHECK: as given {{.*}} yes {{.*}} 32 B
// CHECK: elided {{.*}} yes {{.*}} 0 B {{.*}} 2/0

// JSON: "moves_aliased": 0
// JSON: "bytes_copied": {
// JSON-NEXT: "total": 32
// JSON: "compare": [
// JSON: "form": "elided"
// JSON: "same_bytes": true
