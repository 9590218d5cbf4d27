// RUN: streamopt --split-input-file --verify-diagnostics %s

util.func public @non_command_in_execute(%arg0: !stream.resource<transient>, %arg1: index) {
  %0 = stream.cmd.execute with(%arg0 as %a: !stream.resource<transient>{%arg1}) {
    // expected-error @+1 {{'arith.constant' op explicit execution regions must only contain explicit ops}}
    %c1 = arith.constant 1 : index
  } => !stream.timepoint
  util.return
}

// -----

util.func public @serial_outside_execute() {
  // expected-error @+1 {{'stream.cmd.serial' op expects parent op to be one of 'stream.cmd.execute, stream.cmd.serial, stream.cmd.concurrent'}}
  stream.cmd.serial {
  }
  util.return
}

// -----

util.func public @uncaptured_resource(%arg0: !stream.resource<transient>, %arg1: index) {
  %c0 = arith.constant 0 : index
  %0 = stream.cmd.execute with() {
    // expected-error @+1 {{'stream.cmd.discard' op used resource not listed in explicit captures (or produced internally)}}
    stream.cmd.discard %arg0[%c0 for %c0] : !stream.resource<transient>{%arg1}
  } => !stream.timepoint
  util.return
}

// -----

util.func public @fill_pattern_too_wide(%arg0: !stream.resource<transient>, %arg1: index) {
  %c0 = arith.constant 0 : index
  %c1_i64 = arith.constant 1 : i64
  %0 = stream.cmd.execute with(%arg0 as %a: !stream.resource<transient>{%arg1}) {
    // expected-error @+1 {{'stream.cmd.fill' op operand #4 must be 8-bit signless integer or 16-bit signless integer or 32-bit signless integer, but got 'i64'}}
    stream.cmd.fill %c1_i64, %a[%c0 for %c0] : i64 -> !stream.resource<transient>{%arg1}
  } => !stream.timepoint
  util.return
}

// -----

util.func public @subview_changes_lifetime(%arg0: !stream.resource<transient>, %arg1: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.resource.subview' op failed to verify that all of {source, result} have same type}}
  %0 = stream.resource.subview %arg0[%c0] : !stream.resource<transient>{%arg1} -> !stream.resource<external>{%arg1}
  util.return
}

// -----

util.func public @alloca_of_non_resource(%arg0: index) {
  // expected-error @+1 {{'stream.resource.alloca' op result #0 must be any stream-compatible type, but got '!hal.buffer'}}
  %0:2 = stream.resource.alloca uninitialized : !hal.buffer{%arg0} => !stream.timepoint
  util.return
}

// -----

util.func public @dealloca_result_not_timepoint(%arg0: !stream.resource<transient>, %arg1: index) {
  // expected-error @+1 {{invalid kind of type specified: expected stream.timepoint, but found 'index'}}
  %0 = stream.resource.dealloca %arg0 : !stream.resource<transient>{%arg1} => index
  util.return
}

// -----

util.func public @dispatch_unknown_access(%arg0: !stream.resource<transient>, %arg1: index) {
  %c0 = arith.constant 0 : index
  %0 = stream.cmd.execute with(%arg0 as %a: !stream.resource<transient>{%arg1}) {
    stream.cmd.dispatch @ex::@fn {
      // IREE silently drops an unknown access keyword; streamopt rejects it.
      // expected-error @+1 {{unexpected 'xx'}}
      xx %a[%c0 for %c0] : !stream.resource<transient>{%arg1}
    }
  } => !stream.timepoint
  util.return
}

// -----

util.func public @constants_mixed_types() {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'stream.resource.constants' op all results must be of the same type}}
  %0:3 = stream.resource.constants : !stream.resource<constant>{%c8} = dense<1> : tensor<2xi32>, !stream.resource<variable>{%c8} = dense<1> : tensor<2xi32> => !stream.timepoint
  util.return
}

// -----

util.func public @constants_transient() {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'stream.resource.constants' op result #0 must be variadic of constant resource or variable resource, but got '!stream.resource<transient>'}}
  %0:2 = stream.resource.constants : !stream.resource<transient>{%c8} = dense<1> : tensor<2xi32> => !stream.timepoint
  util.return
}
