// RUN: streamopt --split-input-file --verify-diagnostics %s

util.func public @if_yield_type(%arg0: index, %arg1: i1) -> index {
  // expected-error @+1 {{'scf.if' op along control flow edge from Operation scf.yield to Operation scf.if: successor operand type #0 'i1' should match successor input type #0 'index'}}
  %0 = scf.if %arg1 -> (index) {
    scf.yield %arg1 : i1
  } else {
    scf.yield %arg0 : index
  }
  util.return %0 : index
}

// -----

util.func public @if_implied_yield_with_results(%arg0: index, %arg1: i1) -> index {
  // expected-error @+1 {{'scf.if' op along control flow edge from Operation scf.yield to Operation scf.if: region branch point has 0 operands, but region successor needs 1 inputs}}
  %0 = scf.if %arg1 -> (index) {
  } else {
    scf.yield %arg0 : index
  }
  util.return %0 : index
}

// -----

util.func public @if_results_without_else(%arg0: index, %arg1: i1) -> index {
  // expected-error @+1 {{'scf.if' op must have an else block if defining values}}
  %0 = scf.if %arg1 -> (index) {
    scf.yield %arg0 : index
  }
  util.return %0 : index
}

// -----

util.func public @for_yield_type(%arg0: index, %arg1: i1) -> index {
  // expected-error @+1 {{'scf.for' op along control flow edge from Operation scf.yield to Region #0: successor operand type #0 'i1' should match successor input type #0 'index'}}
  %0 = scf.for %i = %arg0 to %arg0 step %arg0 iter_args(%a = %arg0) -> (index) {
    scf.yield %arg1 : i1
  }
  util.return %0 : index
}

// -----

util.func public @for_bound_type(%arg0: index, %arg1: i32) {
  // expected-error @+1 {{use of value '%arg1' expects different type than prior uses: 'index' vs 'i32'}}
  scf.for %i = %arg0 to %arg1 step %arg0 {
  }
  util.return
}

// -----

util.func public @while_condition_type(%arg0: index, %arg1: i1) -> index {
  // expected-error @+1 {{'scf.while' op along control flow edge from Operation scf.condition to Operation scf.while: successor operand type #0 'i1' should match successor input type #0 'index'}}
  %0 = scf.while (%a = %arg0) : (index) -> index {
    scf.condition(%arg1) %arg1 : i1
  } do {
  ^bb0(%a: index):
    scf.yield %a : index
  }
  util.return %0 : index
}

// -----

util.func public @while_yield_type(%arg0: index, %arg1: i1) -> index {
  // expected-error @+1 {{'scf.while' op along control flow edge from Operation scf.yield to Region #0: successor operand type #0 'i1' should match successor input type #0 'index'}}
  %0 = scf.while (%a = %arg0) : (index) -> index {
    scf.condition(%arg1) %a : index
  } do {
  ^bb0(%a: index):
    scf.yield %arg1 : i1
  }
  util.return %0 : index
}

// -----

util.func public @while_input_count(%arg0: index, %arg1: i1) {
  // expected-error @+1 {{expected as many input types as operands (expected 1 got 2)}}
  scf.while (%a = %arg0) : (index, index) -> () {
    scf.condition(%arg1)
  } do {
    scf.yield
  }
  util.return
}

// -----

util.func public @switch_duplicate(%arg0: index) {
  // expected-error @+1 {{'scf.index_switch' op has duplicate case value: 1}}
  scf.index_switch %arg0
  case 1 {
    scf.yield
  }
  case 1 {
    scf.yield
  }
  default {
    scf.yield
  }
  util.return
}

// -----

util.func public @switch_result_count(%arg0: index) -> index {
  // expected-error @+1 {{'scf.index_switch' op expected each region to return 1 values, but case region #0 returns 0}}
  %0 = scf.index_switch %arg0 -> index
  case 1 {
    scf.yield
  }
  default {
    scf.yield %arg0 : index
  }
  util.return %0 : index
}

// -----

util.func public @yield_parent(%arg0: index) {
  // expected-error @+1 {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'}}
  scf.yield
}

// -----

util.func public @index_switch_cases_in_attr_dict(%arg0: index) {
  // expected-error @+1 {{custom op 'scf.index_switch' inherent attribute 'cases' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  scf.index_switch %arg0 {cases = array<i64: 1>}
  case 1 {
    scf.yield
  }
  default {
  }
  util.return
}

// -----

// util.unreachable is a terminator: no implicit scf.yield follows it, and it is not one.
util.func public @if_ends_unreachable(%arg0: i1) {
  // expected-error @+1 {{'scf.if' op expects regions to end with 'scf.yield', found 'util.unreachable'}}
  scf.if %arg0 {
    util.unreachable "x"
  }
  util.return
}

// -----

// scf.execute_region, kept as written, has no implicit terminator.
util.func public @execute_region_without_terminator() {
  scf.execute_region {
    // expected-error @+1 {{block with no terminator, has 'arith.constant'}}
    %c0 = arith.constant 0 : index
  }
  util.return
}

// -----

util.func public @execute_region_without_block() {
  // expected-error @+1 {{'scf.execute_region' op region needs to have at least one block}}
  scf.execute_region {
  }
  util.return
}

// -----

util.func public @condition_outside_while(%arg0: i1) {
  scf.execute_region {
    // expected-error @+1 {{'scf.condition' op expects parent op 'scf.while'}}
    scf.condition(%arg0)
  }
  util.return
}
