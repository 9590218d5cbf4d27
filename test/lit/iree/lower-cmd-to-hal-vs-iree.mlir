// streamopt's --lower-cmd-to-hal prints exactly what IREE's own conversion
// (iree-opt --iree-hal-conversion, with command buffers recorded one-shot as streamopt records
// them) prints for the same cmd-phase input. The input goes through iree-opt first so that its
// value names are the ones IREE prints.
//
// RUN: iree-opt --split-input-file --iree-hal-conversion --iree-hal-indirect-command-buffers=false %s > %t.iree
// RUN: iree-opt --split-input-file %s | streamopt --split-input-file --lower-cmd-to-hal > %t.streamopt
// RUN: diff %t.iree %t.streamopt
//
// Not here: dispatches (lower-cmd-to-hal-dispatch.mlir), moves (IREE has none), and scf.for
// loops carrying timepoints, which IREE's conversion does not legalize.

// An allocation, an execute holding one copy (memory control ops aside) and a dealloca: queue
// ops chained by fences, each on its affinity's device with any queue (-1).

util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device

util.func public @single_copy(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.timepoint) -> (!stream.resource<external>, !stream.timepoint) {
  %c0 = arith.constant 0 : index
  %result, %result_timepoint = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>) await(%arg2) => !stream.resource<external>{%arg1} => !stream.timepoint
  %0 = stream.cmd.execute on(#hal.device.affinity<@dev_b>) await(%result_timepoint) => with(%arg0 as %arg3: !stream.resource<transient>{%arg1}, %result as %arg4: !stream.resource<external>{%arg1}) {
    stream.cmd.invalidate from(#hal.device.affinity<@dev_a>) %arg3[%c0 for %arg1] : !stream.resource<transient>{%arg1}
    stream.cmd.copy %arg3[%c0], %arg4[%c0], %arg1 : !stream.resource<transient>{%arg1} -> !stream.resource<external>{%arg1}
    stream.cmd.flush to(#hal.device.affinity<@dev_a>) %arg4[%c0 for %arg1] : !stream.resource<external>{%arg1}
  } => !stream.timepoint
  %1 = stream.resource.dealloca origin on(#hal.device.affinity<@dev_a>) await(%0) => %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint
  util.return %result, %1 : !stream.resource<external>, !stream.timepoint
}

// -----

// One fill is a queue fill. Nothing waits on the execute (no await: a null wait fence) and
// nothing uses its timepoint (a null signal fence). A dealloca without `origin` frees on the
// queue it names; the affinity's queue list becomes the queue mask.

util.global private @dev_a : !hal.device

util.func public @single_fill(%arg0: !stream.resource<transient>, %arg1: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c255_i32 = arith.constant 255 : i32
  %0 = stream.cmd.execute on(#hal.device.affinity<@dev_a, [0, 2]>) with(%arg0 as %arg2: !stream.resource<transient>{%arg1}) {
    stream.cmd.fill %c255_i32, %arg2[%c0 for %c16] : i32 -> !stream.resource<transient>{%arg1}
    stream.cmd.flush %arg2[%c0 for %c16] : !stream.resource<transient>{%arg1}
  } => !stream.timepoint
  %1 = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint
  util.return %1 : !stream.timepoint
}

// -----

// More than one command records a one-shot command buffer: a barrier after each command of
// the region and of serial groups, none inside concurrent groups, and memory control ops
// record nothing. Without an await the buffer may run inline.

util.global private @dev_a : !hal.device

util.func public @command_buffer(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.resource<staging>, %arg3: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c7_i32 = arith.constant 7 : i32
  %0 = stream.cmd.execute on(#hal.device.affinity<@dev_a>) with(%arg0 as %arg4: !stream.resource<transient>{%arg1}, %arg2 as %arg5: !stream.resource<staging>{%arg3}) {
    stream.cmd.concurrent {
      stream.cmd.fill %c7_i32, %arg4[%c0 for %c128] : i32 -> !stream.resource<transient>{%arg1}
      stream.cmd.copy %arg4[%c0], %arg5[%c0], %c128 : !stream.resource<transient>{%arg1} -> !stream.resource<staging>{%arg3}
      stream.cmd.serial {
        stream.cmd.copy %arg5[%c0], %arg4[%c128], %c128 : !stream.resource<staging>{%arg3} -> !stream.resource<transient>{%arg1}
        stream.cmd.fill %c7_i32, %arg4[%c0 for %c128] : i32 -> !stream.resource<transient>{%arg1}
      }
    }
    // The barrier after the concurrent group, then the one after the (empty) flush.
    stream.cmd.flush %arg5[%c0 for %c128] : !stream.resource<staging>{%arg3}
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

// Timepoints: an immediate one is a null fence; a join of several is a fence join, a join of
// one is that timepoint, a join of immediates is immediate. A host await blocks on the fence
// and checks its status; an await of an immediate timepoint is nothing.

util.func public @timepoints(%arg0: !stream.resource<external>, %arg1: index, %arg2: !stream.timepoint, %arg3: !stream.timepoint) -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint, !stream.timepoint) {
  %0 = stream.timepoint.immediate => !stream.timepoint
  %1 = stream.timepoint.join max(%arg2, %arg3, %0) => !stream.timepoint
  %2 = stream.timepoint.join max(%arg2) => !stream.timepoint
  %3 = stream.timepoint.join max(%0, %0) => !stream.timepoint
  %4 = stream.timepoint.await %1 => %arg0 : !stream.resource<external>{%arg1}
  %5 = stream.timepoint.await %0 => %4 : !stream.resource<external>{%arg1}
  util.return %5, %1, %2, %3 : !stream.resource<external>, !stream.timepoint, !stream.timepoint, !stream.timepoint
}

// -----

// Timepoints and resources carried through scf.if and scf.for become fences and buffers.

util.global private @dev_a : !hal.device

util.func public @structured_control_flow(%cond: i1, %arg0: !stream.resource<transient>, %arg1: index, %n: index, %arg2: !stream.timepoint) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9_i32 = arith.constant 9 : i32
  %0:2 = scf.if %cond -> (!stream.resource<transient>, !stream.timepoint) {
    %2 = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%arg2) => with(%arg0 as %arg3: !stream.resource<transient>{%arg1}) {
      stream.cmd.fill %c9_i32, %arg3[%c0 for %arg1] : i32 -> !stream.resource<transient>{%arg1}
    } => !stream.timepoint
    scf.yield %arg0, %2 : !stream.resource<transient>, !stream.timepoint
  } else {
    scf.yield %arg0, %arg2 : !stream.resource<transient>, !stream.timepoint
  }
  util.return %0#1 : !stream.timepoint
}
// -----

// Affinities: an op without one uses its function's (or module's) default; with none at all
// the device is device 0. An optimal affinity allocates where hal.allocator.select says.

util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device

util.func public @default_affinity(%arg0: index) -> !stream.resource<transient> attributes {stream.affinity.default = #hal.device.affinity<@dev_b>} {
  %0, %1 = stream.resource.alloca uninitialized : !stream.resource<transient>{%arg0} => !stream.timepoint
  util.return %0 : !stream.resource<transient>
}

util.func public @no_affinity(%arg0: index) -> !stream.resource<transient> {
  %0, %1 = stream.resource.alloca uninitialized : !stream.resource<transient>{%arg0} => !stream.timepoint
  util.return %0 : !stream.resource<transient>
}

util.func public @optimal_affinity(%arg0: index) -> !stream.resource<external> {
  %0, %1 = stream.resource.alloca uninitialized on(#hal.device.optimal<[#hal.device.affinity<@dev_a>, #hal.device.affinity<@dev_b>]>) : !stream.resource<external>{%arg0} => !stream.timepoint
  util.return %0 : !stream.resource<external>
}

// -----

// Buffer views: an import checks the buffer fits the resource on its device; an export wraps
// the buffer in a view of the tensor's shape and element type.

util.global private @dev_a : !hal.device

util.func public @buffer_views(%arg0: !hal.buffer_view, %arg1: index, %arg2: index) -> !hal.buffer_view {
  %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg0 : !hal.buffer_view -> tensor<?x4xf32>{%arg1} in !stream.resource<external>{%arg2}
  %1 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %0 : tensor<?x4xf32>{%arg1} in !stream.resource<external>{%arg2} -> !hal.buffer_view
  util.return %1 : !hal.buffer_view
}

// -----

// Globals, calls and declarations are retyped; a timepoint global drops its immediate
// initial value. A barrier passes its resource on, already available. Sizes fold to the
// size the IR carries, else ask the buffer; a whole-range subview is its source.

util.global private mutable @timepoint : !stream.timepoint = #stream.timepoint<immediate>
util.global private @resource : !stream.resource<constant>

util.func private @callee(%arg0: !stream.resource<transient>, %arg1: !stream.timepoint) -> !stream.timepoint

util.func public @retyped(%arg0: !stream.resource<transient>, %arg1: index) -> (index, index, index, !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %0 = util.global.load @timepoint : !stream.timepoint
  %1, %2 = stream.timepoint.barrier %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint
  %3 = stream.timepoint.join max(%0, %2) => !stream.timepoint
  %4 = util.call @callee(%1, %3) : (!stream.resource<transient>, !stream.timepoint) -> !stream.timepoint
  util.global.store %4, @timepoint : !stream.timepoint
  %5 = stream.resource.subview %1[%c0] : !stream.resource<transient>{%arg1} -> !stream.resource<transient>{%arg1}
  %6 = stream.resource.subview %5[%c0] : !stream.resource<transient>{%arg1} -> !stream.resource<transient>{%c8}
  // The subview carries the size.
  %7 = stream.resource.size %6 : !stream.resource<transient>
  %9 = util.global.load @resource : !stream.resource<constant>
  // Nothing in the IR says how large the global is: ask the buffer.
  %10 = stream.resource.size %9 : !stream.resource<constant>
  util.return %7, %arg1, %10, %6 : index, index, index, !stream.resource<transient>
}

// -----

util.func public @blocks(%cond: i1, %arg0: !stream.timepoint) -> !stream.timepoint {
  %0 = stream.timepoint.immediate => !stream.timepoint
  cf.cond_br %cond, ^bb1(%arg0 : !stream.timepoint), ^bb1(%0 : !stream.timepoint)
^bb1(%1: !stream.timepoint):
  util.return %1 : !stream.timepoint
}

// -----

util.global private @dev_a : !hal.device

util.func public @indeterminate(%arg0: index, %arg1: !stream.resource<external>, %arg2: !stream.timepoint) -> (!stream.resource<transient>, !stream.resource<external>, !stream.timepoint) {
  %result, %result_timepoint = stream.resource.alloca uninitialized indeterminate on(#hal.device.affinity<@dev_a>) await(%arg2) => !stream.resource<transient>{%arg0} => !stream.timepoint
  %0:2 = stream.timepoint.await %result_timepoint => %result, %arg1 : !stream.resource<transient>{%arg0}, !stream.resource<external>{%arg0}
  util.return %0#0, %0#1, %result_timepoint : !stream.resource<transient>, !stream.resource<external>, !stream.timepoint
}
