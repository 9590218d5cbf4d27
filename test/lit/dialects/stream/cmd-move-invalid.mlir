// RUN: streamopt --split-input-file --verify-diagnostics %s

util.func public @non_resource_result(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{expected a !stream.resource type, got 'i32'}}
  %r, %t = stream.cmd.move %arg0 : !stream.resource<*>{%arg1} -> i32{%arg1} => !stream.timepoint
  util.return
}

// -----

util.func public @non_index_size(%arg0: !stream.resource<*>, %arg1: i32) {
  // expected-error @+1 {{use of value '%arg1' expects different type than prior uses: 'index' vs 'i32'}}
  %r, %t = stream.cmd.move %arg0 : !stream.resource<*>{%arg1} -> !stream.resource<*>{%arg1} => !stream.timepoint
  util.return
}

// -----

util.func public @not_a_timepoint(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{invalid kind of type specified: expected stream.timepoint, but found 'index'}}
  %r, %t = stream.cmd.move %arg0 : !stream.resource<*>{%arg1} -> !stream.resource<*>{%arg1} => index
  util.return
}

// -----

util.func public @await_not_a_timepoint(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{use of value '%arg1' expects different type than prior uses: '!stream.timepoint' vs 'index'}}
  %r, %t = stream.cmd.move await(%arg1) => %arg0 : !stream.resource<*>{%arg1} -> !stream.resource<*>{%arg1} => !stream.timepoint
  util.return
}

// -----

// The move consumes its source: no use of the source may follow it.

util.func public @source_used_after_move(%arg0: !stream.resource<transient>, %arg1: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.cmd.move' op source is used after the move, by 'stream.resource.dealloca'}}
  %r, %t = stream.cmd.move %arg0 : !stream.resource<transient>{%arg1} -> !stream.resource<transient>{%arg1} => !stream.timepoint
  // expected-note @+1 {{later use here}}
  %0 = stream.resource.dealloca await(%t) => %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint
  util.return %r : !stream.resource<transient>
}

// -----

// Inside a loop, a source defined outside it is moved again by the next iteration.

util.func public @move_in_loop(%arg0: !stream.resource<transient>, %arg1: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{later use here}}
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{source may be used after the move: inside a loop that runs it again}}
    %r, %t = stream.cmd.move %arg0 : !stream.resource<transient>{%arg1} -> !stream.resource<transient>{%arg1} => !stream.timepoint
  }
  util.return
}
