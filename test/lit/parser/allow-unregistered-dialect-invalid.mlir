// RUN: streamopt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s

// The custom form of an op of a dialect iree-opt does not register is an error even with
// --allow-unregistered-dialect, as in iree-opt: reading it needs the dialect. (streamopt could
// keep it as written, but then its output would be text iree-opt cannot read.)
util.func public @unregistered_custom_op(%arg0: index) {
  // expected-error @+2 {{Dialect `test' not found for custom op 'test.use'}}
  // expected-note @+1 {{Available dialects: affine, amdgpu, arith,}}
  test.use %arg0 : index
  util.return
}

// -----

// An op of a registered dialect that the dialect does not define is an error with the flag too.
util.func public @unknown_op_of_registered_dialect() {
  // expected-error @+1 {{unregistered operation 'util.bogus' found in dialect ('util') that does not allow unknown operations}}
  "util.bogus"() : () -> ()
  util.return
}
