// RUN: streamopt --allow-unregistered-dialect --split-input-file --verify-diagnostics --lower-cmd-to-hal %s

util.func public @async_op(%arg0: index) -> !stream.resource<*> {
  %c1_i32 = arith.constant 1 : i32
  // expected-error @+1 {{'stream.async.splat' must be lowered to the cmd phase first (--lower-to-cmd)}}
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%arg0}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @no_device_global(%arg0: index) -> !stream.resource<transient> {
  // expected-error @+1 {{no 'util.global @dev_x : !hal.device' for affinity '#hal.device.affinity<@dev_x>'}}
  %0, %1 = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_x>) : !stream.resource<transient>{%arg0} => !stream.timepoint
  util.return %0 : !stream.resource<transient>
}

// -----

util.global private @dev_a : !hal.device

util.func public @variants(%arg0: !stream.resource<transient>, %arg1: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %0 = stream.cmd.execute on(#hal.device.affinity<@dev_a>) with(%arg0 as %arg2: !stream.resource<transient>{%arg1}) {
    // expected-error @+1 {{cannot lower a dispatch with several entry points}}
    stream.cmd.dispatch {@ex::@a::@fn, @ex::@b::@fn} {
      rw %arg2[%c0 for %arg1] : !stream.resource<transient>{%arg1}
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

util.global private @dev_a : !hal.device

util.func public @unpackable_operand(%arg0: !stream.resource<transient>, %arg1: index, %arg3: complex<f32>) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %0 = stream.cmd.execute on(#hal.device.affinity<@dev_a>) with(%arg0 as %arg2: !stream.resource<transient>{%arg1}) {
    // expected-error @+1 {{cannot pack a dispatch operand of type 'complex<f32>' into i32}}
    stream.cmd.dispatch @ex::@variant::@fn(%arg1, %arg3 : index, complex<f32>) {
      rw %arg2[%c0 for %arg1] : !stream.resource<transient>{%arg1}
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

util.global private @dev_a : !hal.device

util.func public @host_buffer(%arg0: !util.buffer, %arg1: index) -> !stream.resource<external> {
  // expected-error @+1 {{cannot lower an import of '!util.buffer' to hal (IREE imports !hal.buffer and !hal.buffer_view)}}
  %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg0 : !util.buffer -> tensor<4xf32> in !stream.resource<external>{%arg1}
  util.return %0 : !stream.resource<external>
}

// -----

util.func public @unknown_op(%arg0: !stream.resource<transient>) {
  // expected-error @+1 {{cannot lower 'foo.use': it uses stream resources or timepoints}}
  "foo.use"(%arg0) : (!stream.resource<transient>) -> ()
  util.return
}

// -----

// Every problem is reported, not only the first.

util.func public @several(%arg0: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c1_i32 = arith.constant 1 : i32
  // expected-error @+1 {{'stream.async.splat' must be lowered}}
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%arg0}
  // expected-error @+1 {{'stream.async.clone' must be lowered}}
  %1 = stream.async.clone %0 : !stream.resource<*>{%arg0} -> !stream.resource<*>{%arg0}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}

// -----

util.global private @dev_a : !hal.device

util.func public @parameter_constant() -> !stream.timepoint {
  %c16 = arith.constant 16 : index
  // expected-error @+1 {{cannot upload constant '#stream.parameter.named<"model"::"weights"> : tensor<4xf32>': streamopt uploads only values with a static tensor or vector type (not parameters)}}
  %results, %result_timepoint = stream.resource.constants on(#hal.device.affinity<@dev_a>) :
    !stream.resource<constant>{%c16} = #stream.parameter.named<"model"::"weights"> : tensor<4xf32>
    => !stream.timepoint
  util.return %result_timepoint : !stream.timepoint
}

// -----

// An op streamopt does not model whose region names a resource from outside: lowering would
// retype the value under it (reduced from a generated program, where the op's result is not
// even used).
util.func public @unknown_op_capturing_a_resource(%arg0: !stream.resource<transient>) -> !stream.resource<transient> {
  // expected-error @+1 {{cannot lower 'scf.execute_region': it uses stream resources or timepoints and streamopt cannot retype an op it does not model}}
  %0 = scf.execute_region -> !stream.resource<transient> {
    scf.yield %arg0 : !stream.resource<transient>
  }
  util.return %arg0 : !stream.resource<transient>
}
