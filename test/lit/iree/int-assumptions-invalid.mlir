// An int assumption's body that IREE's parser refuses, in util.assume.int's rows and in
// `#util.int.assumption`: streamopt refuses it where and as iree-opt does. Before, these
// were read (a field given twice kept the last value) or kept as written.
// RUN: streamopt --split-input-file --verify-diagnostics %s
// RUN: iree-opt --split-input-file --verify-diagnostics %s

util.func public @twice(%arg0: index) -> index {
  // expected-error @+1 {{custom op 'util.assume.int' duplicate or unknown struct parameter name: umin}}
  %0 = util.assume.int %arg0<umin = 1, umin = 2> : index
  util.return %0 : index
}

// -----

util.func public @unknown(%arg0: index) -> index {
  // expected-error @+1 {{custom op 'util.assume.int' duplicate or unknown struct parameter name: umid}}
  %0 = util.assume.int %arg0<umid = 1> : index
  util.return %0 : index
}

// -----

util.func public @not_a_number(%arg0: index) -> index {
  // expected-error @+1 {{expected '>'}}
  %0 = util.assume.int %arg0<umin = foo> : index
  util.return %0 : index
}

// -----

// expected-error @+1 {{expected '='}}
util.func public @no_equals() attributes {a = #util.int.assumption<umin 1>} {
  util.return
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: umax}}
util.func public @attribute_twice() attributes {a = #util.int.assumption<umax = 1, umin = 2, umax = 3>} {
  util.return
}

// -----

// expected-error @+1 {{expected '>'}}
util.func public @attribute_float() attributes {a = #util.int.assumption<udiv = 1.5>} {
  util.return
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: umid}}
util.func public @nested() attributes {a = [[#util.int.assumption<umin = 0>], [#util.int.assumption<umid = 1>]]} {
  util.return
}
