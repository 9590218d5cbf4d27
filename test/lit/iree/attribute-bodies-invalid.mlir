// iree-opt reports the diagnostics streamopt's test expects, at the same places.
// RUN: iree-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %S/../parser/attribute-bodies-invalid.mlir
