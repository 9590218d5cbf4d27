// RUN: streamopt --split-input-file --verify-diagnostics %s

util.func public @br_count(%arg0: index) -> index {
  // expected-error @+1 {{branch has 1 operands for successor #0, but target block has 2}}
  cf.br ^bb1(%arg0 : index)
^bb1(%a: index, %b: index):
  util.return %a : index
}

// -----

util.func public @br_type(%arg0: i1) -> index {
  // expected-error @+1 {{type mismatch for bb argument #0 of successor #0}}
  cf.br ^bb1(%arg0 : i1)
^bb1(%a: index):
  util.return %a : index
}

// -----

util.func public @cond_br_count(%arg0: i1, %arg1: index) {
  // expected-error @+1 {{branch has 0 operands for successor #1, but target block has 1}}
  cf.cond_br %arg0, ^bb1(%arg1 : index), ^bb1
^bb1(%a: index):
  util.return
}

// -----

util.func public @cond_br_condition(%arg0: index) {
  // expected-error @+1 {{use of value '%arg0' expects different type than prior uses: 'i1' vs 'index'}}
  cf.cond_br %arg0, ^bb1, ^bb1
^bb1:
  util.return
}

// -----

util.func public @switch_case_type(%arg0: i32, %arg1: i1) {
  // expected-error @+1 {{type mismatch for bb argument #0 of successor #1}}
  cf.switch %arg0 : i32, [
    default: ^bb1(%arg0 : i32),
    0: ^bb1(%arg1 : i1)
  ]
^bb1(%a: i32):
  util.return
}

// -----

util.func public @undefined_block() {
  // expected-error @+1 {{reference to an undefined block '^bb7'}}
  cf.br ^bb7
}

// -----

util.func public @cond_br_weights_in_attr_dict(%arg0: i1) {
  // expected-error @+1 {{custom op 'cf.cond_br' inherent attribute 'branch_weights' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  cf.cond_br %arg0, ^bb1, ^bb1 {branch_weights = array<i32: 1, 2>}
^bb1:
  util.return
}
