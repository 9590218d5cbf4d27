// RUN: streamopt --lower-async-to-cmd --split-input-file --verify-diagnostics %s

// An unrefined lifetime: copying the cast would copy the import once more.
util.func public @unrefined(%arg0: !hal.buffer_view, %size: index) -> !stream.resource<*> {
  %0 = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%size}
  // expected-error @+1 {{'stream.async.cast' op cannot be lowered to cmd IR: resource lifetime '*' is not refined (lower the IR IREE prints before its second ElideAsyncCopies, after RefineUsage, or run `iree-opt --iree-stream-refine-usage` first)}}
  %1 = stream.async.cast %0 : !stream.resource<external>{%size} -> !stream.resource<*>{%size}
  util.return %1 : !stream.resource<*>
}

// -----

// IREE 3.10 and 3.11 print a clone where 3.13 prints that cast: the same error, at the clone.
util.func public @unrefined_clone(%arg0: !hal.buffer_view, %size: index) -> !stream.resource<*> {
  %0 = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%size}
  // expected-error @+1 {{'stream.async.clone' op cannot be lowered to cmd IR: resource lifetime '*' is not refined}}
  %1 = stream.async.clone %0 : !stream.resource<external>{%size} -> !stream.resource<*>{%size}
  util.return %1 : !stream.resource<*>
}

// -----

// Any op making a `*` resource: cmd IR has no allocation of one.
util.func public @unrefined_splat(%size: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  // expected-error @+1 {{'stream.async.splat' op cannot be lowered to cmd IR: resource lifetime '*' is not refined}}
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}

// -----

// An argument of an unrefined lifetime: located at its function.
// expected-error @+1 {{'util.func' op cannot be lowered to cmd IR: resource lifetime '*' is not refined}}
util.func public @unrefined_argument(%arg0: !stream.resource<*>, %size: index) -> !stream.resource<*> {
  util.return %arg0 : !stream.resource<*>
}

// -----

util.func public @wide_splat(%size: index) -> !stream.resource<transient> {
  %c1_i64 = arith.constant 1 : i64
  // expected-error @+1 {{'stream.async.splat' op cannot be lowered to cmd IR: stream.cmd.fill takes 8, 16 or 32-bit patterns, got 'i64'}}
  %0 = stream.async.splat %c1_i64 : i64 -> !stream.resource<transient>{%size}
  util.return %0 : !stream.resource<transient>
}

// -----

util.func public @retyping_tied_dispatch(%arg0: !stream.resource<transient>, %size: index) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.async.dispatch' op cannot be lowered to cmd IR: tied result #0 changes the resource type}}
  %0 = stream.async.dispatch @ex::@fn(%arg0[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> %arg0 as !stream.resource<external>{%size}
  util.return %0 : !stream.resource<external>
}

// -----

// An async op inside an op streamopt does not model: that op may run its region at any time,
// so the dispatch cannot be scheduled around it (reduced from a generated program).
util.func public @dispatch_in_unknown_op(%arg0: !stream.resource<transient>, %size: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{cannot lower 'scf.execute_region': it holds 'stream.async.dispatch', which lowering cannot schedule inside an op streamopt does not model (it may run its regions at any time)}}
  %0 = scf.execute_region -> !stream.resource<transient> {
    // expected-note @+1 {{'stream.async.dispatch' is here}}
    %1 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @ex::@mix1(%arg0[%c0 to %size for %size]) : (!stream.resource<transient>{%size}) -> !stream.resource<transient>{%size}
    scf.yield %1 : !stream.resource<transient>
  }
  util.return %0 : !stream.resource<transient>
}
