// RUN: streamopt --lower-async-to-cmd --split-input-file --verify-diagnostics %s

// An unrefined lifetime: copying the cast would copy the import once more.
util.func public @unrefined(%arg0: !hal.buffer_view, %size: index) -> !stream.resource<*> {
  %0 = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%size}
  // expected-error @+1 {{'stream.async.cast' op cannot be lowered to cmd IR: resource lifetime '*' is not refined (lower the IR IREE prints before its second ElideAsyncCopies, after RefineUsage, or run `iree-opt --iree-stream-refine-usage` first)}}
  %1 = stream.async.cast %0 : !stream.resource<external>{%size} -> !stream.resource<*>{%size}
  util.return %1 : !stream.resource<*>
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
