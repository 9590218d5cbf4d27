// RUN: streamopt --split-input-file --verify-diagnostics --lower-cmd-moves-to-calls %s

// The runtime call is typed by refined lifetimes: a move of unrefined storage cannot be one.
module {
  util.global private @dev_a : !hal.device
  util.func public @unrefined(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
    // expected-error @+1 {{'stream.cmd.move' op source has lifetime '*'; a runtime move needs a refined lifetime}}
    %r, %t = stream.cmd.move on(#hal.device.affinity<@dev_a>) %arg0 : !stream.resource<*>{%arg1} -> !stream.resource<*>{%arg1} => !stream.timepoint
    util.return %r : !stream.resource<*>
  }
}

// -----

// The target must be one device.
module {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device
  util.func public @optimal(%arg0: !stream.resource<transient>, %arg1: index) -> !stream.resource<transient> {
    // expected-error @+1 {{'stream.cmd.move' op target affinity must name one device for a runtime move, got #hal.device.optimal<[#hal.device.affinity<@dev_a>, #hal.device.affinity<@dev_b>]>}}
    %r, %t = stream.cmd.move on(#hal.device.affinity<@dev_a>) %arg0 : !stream.resource<transient>{%arg1} -> to(#hal.device.optimal<[#hal.device.affinity<@dev_a>, #hal.device.affinity<@dev_b>]>) !stream.resource<transient>{%arg1} => !stream.timepoint
    util.return %r : !stream.resource<transient>
  }
}

// -----

// Devices are named by ordinal, so they must be the module's device globals.
module {
  util.global private @dev_a : !hal.device
  util.func public @unknown_device(%arg0: !stream.resource<transient>, %arg1: index) -> !stream.resource<transient> {
    // expected-error @+1 {{'stream.cmd.move' op target device @dev_z is not a !hal.device global of the module}}
    %r, %t = stream.cmd.move on(#hal.device.affinity<@dev_a>) %arg0 : !stream.resource<transient>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_z>) !stream.resource<transient>{%arg1} => !stream.timepoint
    util.return %r : !stream.resource<transient>
  }
}

// -----

// The import's name is taken by something else.
module {
  util.global private @dev_a : !hal.device
  // expected-error @+1 {{'@streamopt.queue_move.transient.transient' is already defined, and not as the runtime move's declaration}}
  util.global private @streamopt.queue_move.transient.transient : i32
  util.func public @taken(%arg0: !stream.resource<transient>, %arg1: index) -> !stream.resource<transient> {
    %r, %t = stream.cmd.move on(#hal.device.affinity<@dev_a>) %arg0 : !stream.resource<transient>{%arg1} -> !stream.resource<transient>{%arg1} => !stream.timepoint
    util.return %r : !stream.resource<transient>
  }
}
