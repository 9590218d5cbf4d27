// RUN: streamopt --lower-to-cmd --split-input-file --verify-diagnostics %s

util.func public @load(%arg0: !stream.resource<staging>, %size: index) -> i32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.async.load' op cannot be lowered to cmd IR}}
  %0 = stream.async.load %arg0[%c0] : !stream.resource<staging>{%size} -> i32
  util.return %0 : i32
}

// -----

util.func public @wide_splat(%size: index) -> !stream.resource<*> {
  %c1_i64 = arith.constant 1 : i64
  // expected-error @+1 {{'stream.async.splat' op cannot be lowered to cmd IR: stream.cmd.fill takes 8, 16 or 32-bit patterns, got 'i64'}}
  %0 = stream.async.splat %c1_i64 : i64 -> !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @retyping_tied_dispatch(%arg0: !stream.resource<*>, %size: index) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.async.dispatch' op cannot be lowered to cmd IR: tied result #0 changes the resource type}}
  %0 = stream.async.dispatch @ex::@fn(%arg0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> %arg0 as !stream.resource<external>{%size}
  util.return %0 : !stream.resource<external>
}
