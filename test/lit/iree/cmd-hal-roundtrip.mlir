// The round-trip tests of the stream cmd-phase and hal ops print exactly what iree-opt prints
// for the same input, and iree-opt reads streamopt's output back unchanged.
//
// Every streamopt run comes before the first `diff`: lit runs its builtin diff with PYTHONPATH
// set to lit's own directory and keeps that setting for the commands after it.
//
// RUN: streamopt --split-input-file %S/../dialects/stream/cmd-ops.mlir > %t.stream
// RUN: streamopt --split-input-file %S/../dialects/hal/ops.mlir > %t.hal
// RUN: filecheck %S/../dialects/stream/cmd-ops.mlir --input-file %t.stream
// RUN: filecheck %S/../dialects/hal/ops.mlir --input-file %t.hal
// RUN: iree-opt --split-input-file %S/../dialects/stream/cmd-ops.mlir > %t.stream.iree
// RUN: iree-opt --split-input-file %t.stream > %t.stream.reparsed
// RUN: iree-opt --split-input-file %S/../dialects/hal/ops.mlir > %t.hal.iree
// RUN: iree-opt --split-input-file %t.hal > %t.hal.reparsed
// RUN: diff %t.stream.iree %t.stream
// RUN: diff %t.stream.reparsed %t.stream
// RUN: diff %t.hal.iree %t.hal
// RUN: diff %t.hal.reparsed %t.hal
