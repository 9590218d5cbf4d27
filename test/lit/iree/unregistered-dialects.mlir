// iree-opt prints the ops, attributes and types of dialects it registers but streamopt does
// not model, and with --allow-unregistered-dialect those of dialects it does not register, as
// streamopt does: byte for byte (the cases are those of the parser tests named below).
// The diffs come last: lit's out-of-process `diff` overwrites PYTHONPATH for later RUN lines.
// RUN: iree-opt --split-input-file %S/../parser/unregistered-dialects.mlir -o %t.registered.expected
// RUN: streamopt --split-input-file %S/../parser/unregistered-dialects.mlir -o %t.registered.actual
// RUN: iree-opt --allow-unregistered-dialect --split-input-file %S/../parser/allow-unregistered-dialect.mlir -o %t.allowed.expected
// RUN: streamopt --allow-unregistered-dialect --split-input-file %S/../parser/allow-unregistered-dialect.mlir -o %t.allowed.actual
// RUN: diff %t.registered.expected %t.registered.actual
// RUN: diff %t.allowed.expected %t.allowed.actual
