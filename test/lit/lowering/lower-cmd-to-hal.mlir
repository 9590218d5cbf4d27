// RUN: streamopt --split-input-file --lower-cmd-to-hal %s | filecheck %s

// An allocation, an execute holding one copy (memory control ops aside) and a dealloca: queue
// ops chained by fences, each on its affinity's device with any queue (-1).

util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device

// CHECK-LABEL: util.func public @single_copy
// CHECK-SAME: (%[[SRC:.+]]: !hal.buffer, %[[SIZE:.+]]: index, %[[WAIT:.+]]: !hal.fence) -> (!hal.buffer, !hal.fence)
util.func public @single_copy(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.timepoint) -> (!stream.resource<external>, !stream.timepoint) {
  %c0 = arith.constant 0 : index
  // CHECK: %[[TYPES:.+]], %[[USAGE:.+]] = hal.allocator.resolve_memory_properties for(#hal.device.affinity<@dev_b>) lifetime(external) : i32, i32
  // CHECK-NEXT: %[[DEV_B:.+]] = util.global.load immutable @dev_b : !hal.device
  // CHECK-NEXT: %[[ANY:.+]] = arith.constant -1 : i64
  // CHECK-NEXT: %[[ALLOCATED:.+]] = hal.fence.create device(%[[DEV_B]] : !hal.device) flags("None") : !hal.fence
  // CHECK-NEXT: %[[POOL:.+]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[DST:.+]] = hal.device.queue.alloca<%[[DEV_B]] : !hal.device> affinity(%[[ANY]]) wait(%[[WAIT]]) signal(%[[ALLOCATED]]) pool(%[[POOL]]) type(%[[TYPES]]) usage(%[[USAGE]]) flags("None") : !hal.buffer{%[[SIZE]]}
  %result, %result_timepoint = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>) await(%arg2) => !stream.resource<external>{%arg1} => !stream.timepoint
  // CHECK-NEXT: %[[DEV_B2:.+]] = util.global.load immutable @dev_b : !hal.device
  // CHECK-NEXT: %[[ANY2:.+]] = arith.constant -1 : i64
  // CHECK-NEXT: %[[COPIED:.+]] = hal.fence.create device(%[[DEV_B2]] : !hal.device)
  // CHECK-NEXT: hal.device.queue.copy<%[[DEV_B2]] : !hal.device> affinity(%[[ANY2]]) wait(%[[ALLOCATED]]) signal(%[[COPIED]]) source(%[[SRC]] : !hal.buffer)[%c0] target(%[[DST]] : !hal.buffer)[%c0] length(%[[SIZE]]) flags("None")
  // CHECK-NOT: hal.command_buffer
  %0 = stream.cmd.execute on(#hal.device.affinity<@dev_b>) await(%result_timepoint) => with(%arg0 as %arg3: !stream.resource<transient>{%arg1}, %result as %arg4: !stream.resource<external>{%arg1}) {
    stream.cmd.invalidate from(#hal.device.affinity<@dev_a>) %arg3[%c0 for %arg1] : !stream.resource<transient>{%arg1}
    stream.cmd.copy %arg3[%c0], %arg4[%c0], %arg1 : !stream.resource<transient>{%arg1} -> !stream.resource<external>{%arg1}
    stream.cmd.flush to(#hal.device.affinity<@dev_a>) %arg4[%c0 for %arg1] : !stream.resource<external>{%arg1}
  } => !stream.timepoint
  // CHECK-NEXT: hal.allocator.resolve_memory_properties for(#hal.device.affinity<@dev_a>) lifetime(transient)
  // CHECK-NEXT: %[[DEV_A:.+]] = util.global.load immutable @dev_a : !hal.device
  // CHECK-NEXT: %[[ANY3:.+]] = arith.constant -1 : i64
  // CHECK-NEXT: %[[FREED:.+]] = hal.fence.create device(%[[DEV_A]] : !hal.device)
  // CHECK-NEXT: hal.device.queue.dealloca<%[[DEV_A]] : !hal.device> affinity(%[[ANY3]]) wait(%[[COPIED]]) signal(%[[FREED]]) buffer(%[[SRC]] : !hal.buffer) flags(PreferOrigin)
  %1 = stream.resource.dealloca origin on(#hal.device.affinity<@dev_a>) await(%0) => %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint
  // CHECK-NEXT: util.return %[[DST]], %[[FREED]] : !hal.buffer, !hal.fence
  util.return %result, %1 : !stream.resource<external>, !stream.timepoint
}

// -----

// One fill is a queue fill. Nothing waits on the execute (no await: a null wait fence) and
// nothing uses its timepoint (a null signal fence). A dealloca without `origin` frees on the
// queue it names; the affinity's queue list becomes the queue mask.

util.global private @dev_a : !hal.device

// CHECK-LABEL: util.func public @single_fill
// CHECK-SAME: (%[[TARGET:.+]]: !hal.buffer, %[[SIZE:.+]]: index)
util.func public @single_fill(%arg0: !stream.resource<transient>, %arg1: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c255_i32 = arith.constant 255 : i32
  // CHECK: %[[DEV:.+]] = util.global.load immutable @dev_a
  // CHECK-NEXT: %[[QUEUES:.+]] = arith.constant 5 : i64
  // CHECK-NEXT: %[[NO_WAIT:.+]] = util.null : !hal.fence
  // CHECK-NEXT: %[[NO_SIGNAL:.+]] = util.null : !hal.fence
  // CHECK-NEXT: hal.device.queue.fill<%[[DEV]] : !hal.device> affinity(%[[QUEUES]]) wait(%[[NO_WAIT]]) signal(%[[NO_SIGNAL]]) target(%[[TARGET]] : !hal.buffer)[%c0] length(%c16) pattern(%c255_i32 : i32) flags("None")
  %0 = stream.cmd.execute on(#hal.device.affinity<@dev_a, [0, 2]>) with(%arg0 as %arg2: !stream.resource<transient>{%arg1}) {
    stream.cmd.fill %c255_i32, %arg2[%c0 for %c16] : i32 -> !stream.resource<transient>{%arg1}
    stream.cmd.flush %arg2[%c0 for %c16] : !stream.resource<transient>{%arg1}
  } => !stream.timepoint
  // CHECK: %[[FREED:.+]] = hal.fence.create
  // CHECK-NEXT: hal.device.queue.dealloca<{{.+}}> affinity({{.+}}) wait(%{{.+}}) signal(%[[FREED]]) buffer(%[[TARGET]] : !hal.buffer) flags("None")
  %1 = stream.resource.dealloca on(#hal.device.affinity<@dev_a>) %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint
  // CHECK-NEXT: util.return %[[FREED]]
  util.return %1 : !stream.timepoint
}

// -----

// More than one command records a one-shot command buffer: a barrier after each command of
// the region and of serial groups, none inside concurrent groups, and memory control ops
// record nothing. Without an await the buffer may run inline.

util.global private @dev_a : !hal.device

// CHECK-LABEL: util.func public @command_buffer
// CHECK-SAME: (%[[A:.+]]: !hal.buffer, %[[A_SIZE:.+]]: index, %[[B:.+]]: !hal.buffer, %[[B_SIZE:.+]]: index)
util.func public @command_buffer(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.resource<staging>, %arg3: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c7_i32 = arith.constant 7 : i32
  // CHECK: %[[DEV:.+]] = util.global.load immutable @dev_a
  // CHECK-NEXT: %[[ANY:.+]] = arith.constant -1 : i64
  // CHECK-NEXT: %[[CMD:.+]] = hal.command_buffer.create device(%[[DEV]] : !hal.device) mode("OneShot|AllowInlineExecution") categories(Transfer) affinity(%[[ANY]]) : !hal.command_buffer
  %0 = stream.cmd.execute on(#hal.device.affinity<@dev_a>) with(%arg0 as %arg4: !stream.resource<transient>{%arg1}, %arg2 as %arg5: !stream.resource<staging>{%arg3}) {
    stream.cmd.concurrent {
      // CHECK-NEXT: hal.command_buffer.fill_buffer<%[[CMD]] : !hal.command_buffer> target(%[[A]] : !hal.buffer)[%c0, %c128] pattern(%c7_i32 : i32) flags("None")
      stream.cmd.fill %c7_i32, %arg4[%c0 for %c128] : i32 -> !stream.resource<transient>{%arg1}
      // CHECK-NEXT: hal.command_buffer.copy_buffer<%[[CMD]] : !hal.command_buffer> source(%[[A]] : !hal.buffer)[%c0] target(%[[B]] : !hal.buffer)[%c0] length(%c128) flags("None")
      stream.cmd.copy %arg4[%c0], %arg5[%c0], %c128 : !stream.resource<transient>{%arg1} -> !stream.resource<staging>{%arg3}
      stream.cmd.serial {
        // CHECK-NEXT: hal.command_buffer.copy_buffer<%[[CMD]] : !hal.command_buffer> source(%[[B]] : !hal.buffer)[%c0] target(%[[A]] : !hal.buffer)[%c128]
        // CHECK-NEXT: hal.command_buffer.execution_barrier<%[[CMD]] : !hal.command_buffer> source("Dispatch|Transfer|CommandRetire") target("CommandIssue|Dispatch|Transfer") flags("None")
        stream.cmd.copy %arg5[%c0], %arg4[%c128], %c128 : !stream.resource<staging>{%arg3} -> !stream.resource<transient>{%arg1}
        // CHECK-NEXT: hal.command_buffer.fill_buffer<%[[CMD]] : !hal.command_buffer> target(%[[A]] : !hal.buffer)
        // CHECK-NEXT: hal.command_buffer.execution_barrier<%[[CMD]]
        stream.cmd.fill %c7_i32, %arg4[%c0 for %c128] : i32 -> !stream.resource<transient>{%arg1}
      }
    }
    // The barrier after the concurrent group, then the one after the (empty) flush.
    // CHECK-NEXT: hal.command_buffer.execution_barrier<%[[CMD]]
    // CHECK-NEXT: hal.command_buffer.execution_barrier<%[[CMD]]
    stream.cmd.flush %arg5[%c0 for %c128] : !stream.resource<staging>{%arg3}
  } => !stream.timepoint
  // CHECK-NEXT: hal.command_buffer.finalize<%[[CMD]] : !hal.command_buffer>
  // CHECK-NEXT: %[[NO_WAIT:.+]] = util.null : !hal.fence
  // CHECK-NEXT: %[[DONE:.+]] = hal.fence.create device(%[[DEV]] : !hal.device) flags("None") : !hal.fence
  // CHECK-NEXT: hal.device.queue.execute<%[[DEV]] : !hal.device> affinity(%[[ANY]]) wait(%[[NO_WAIT]]) signal(%[[DONE]]) commands(%[[CMD]]) flags("None")
  // CHECK-NEXT: util.return %[[DONE]] : !hal.fence
  util.return %0 : !stream.timepoint
}

// -----

// A dispatch looks its executable and function up on the command buffer's device and asks
// the export for its workgroup count; resources bind directly (one-shot buffers).

util.global private @dev_a : !hal.device

// CHECK-LABEL: util.func public @dispatch
// CHECK-SAME: (%[[R:.+]]: !hal.buffer, %[[SIZE:.+]]: index, %[[WAIT:.+]]: !hal.fence)
util.func public @dispatch(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !stream.timepoint) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c3_i32 = arith.constant 3 : i32
  // CHECK: %[[CMD:.+]] = hal.command_buffer.create device({{.+}}) mode(OneShot) categories("Transfer|Dispatch")
  %0 = stream.cmd.execute once on(#hal.device.affinity<@dev_a>) await(%arg2) => with(%arg0 as %arg3: !stream.resource<transient>{%arg1}) {
    // CHECK-NEXT: %[[CMD_DEV:.+]] = hal.command_buffer.device<%[[CMD]] : !hal.command_buffer> : !hal.device
    // CHECK-NEXT: %[[EXE:.+]] = hal.executable.lookup device(%[[CMD_DEV]] : !hal.device) executable(@ex) : !hal.executable
    // CHECK-NEXT: %[[FN:.+]] = hal.executable.lookup.function target(%[[EXE]] : !hal.executable) function(@ex::@variant::@fn) : i64
    // CHECK-NEXT: %[[X:.+]], %[[Y:.+]], %[[Z:.+]] = hal.executable.calculate_workgroups device(%[[CMD_DEV]] : !hal.device) target(@ex::@variant::@fn) workload([%c4, %c64]) : index, index, index
    // CHECK-NEXT: hal.command_buffer.dispatch<%[[CMD]] : !hal.command_buffer> target(%[[EXE]] : !hal.executable)[%[[FN]]] workgroups([%[[X]], %[[Y]], %[[Z]]]) constants([%c3_i32]) bindings([
    // CHECK-NEXT:   (%[[R]] : !hal.buffer)[%c0, %c64],
    // CHECK-NEXT:   (%[[R]] : !hal.buffer)[%c64, %c64]
    // CHECK-NEXT: ]) flags("None")
    // CHECK-NEXT: hal.command_buffer.execution_barrier<%[[CMD]]
    stream.cmd.dispatch @ex::@variant::@fn[%c4, %c64](%c3_i32 : i32) {
      ro %arg3[%c0 for %c64] : !stream.resource<transient>{%arg1},
      wo %arg3[%c64 for %c64] : !stream.resource<transient>{%arg1}
    }
  } => !stream.timepoint
  // CHECK-NEXT: hal.command_buffer.finalize<%[[CMD]]
  // CHECK-NEXT: %[[DONE:.+]] = hal.fence.create
  // CHECK-NEXT: hal.device.queue.execute<{{.+}}> affinity({{.+}}) wait(%[[WAIT]]) signal(%[[DONE]]) commands(%[[CMD]])
  util.return %0 : !stream.timepoint
}

// -----

// Timepoints: an immediate one is a null fence; a join of several is a fence join, a join of
// one is that timepoint, a join of immediates is immediate. A host await blocks on the fence
// and checks its status; an await of an immediate timepoint is nothing.

// CHECK-LABEL: util.func public @timepoints
// CHECK-SAME: (%[[R:.+]]: !hal.buffer, %[[SIZE:.+]]: index, %[[T0:.+]]: !hal.fence, %[[T1:.+]]: !hal.fence)
util.func public @timepoints(%arg0: !stream.resource<external>, %arg1: index, %arg2: !stream.timepoint, %arg3: !stream.timepoint) -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint, !stream.timepoint) {
  // CHECK-NEXT: %[[IMMEDIATE:.+]] = util.null : !hal.fence
  %0 = stream.timepoint.immediate => !stream.timepoint
  // CHECK-NEXT: %[[JOINED:.+]] = hal.fence.join at([%[[T0]], %[[T1]], %[[IMMEDIATE]]]) flags("None") -> !hal.fence
  %1 = stream.timepoint.join max(%arg2, %arg3, %0) => !stream.timepoint
  %2 = stream.timepoint.join max(%arg2) => !stream.timepoint
  // CHECK-NEXT: %[[STILL_IMMEDIATE:.+]] = util.null : !hal.fence
  %3 = stream.timepoint.join max(%0, %0) => !stream.timepoint
  // CHECK-NEXT: %[[FOREVER:.+]] = arith.constant -1 : i32
  // CHECK-NEXT: %[[STATUS:.+]] = hal.fence.await until([%[[JOINED]]]) timeout_millis(%[[FOREVER]]) flags("None") : i32
  // CHECK-NEXT: util.status.check_ok %[[STATUS]], "failed to wait on timepoint"
  %4 = stream.timepoint.await %1 => %arg0 : !stream.resource<external>{%arg1}
  // CHECK-NOT: hal.fence.await
  %5 = stream.timepoint.await %0 => %4 : !stream.resource<external>{%arg1}
  // CHECK: util.return %[[R]], %[[JOINED]], %[[T0]], %[[STILL_IMMEDIATE]] : !hal.buffer, !hal.fence, !hal.fence, !hal.fence
  util.return %5, %1, %2, %3 : !stream.resource<external>, !stream.timepoint, !stream.timepoint, !stream.timepoint
}

// -----

// Timepoints and resources carried through scf.if and scf.for become fences and buffers.

util.global private @dev_a : !hal.device

// CHECK-LABEL: util.func public @structured_control_flow
// CHECK-SAME: (%[[COND:.+]]: i1, %[[R:.+]]: !hal.buffer, %[[SIZE:.+]]: index, %[[N:.+]]: index, %[[T:.+]]: !hal.fence) -> !hal.fence
util.func public @structured_control_flow(%cond: i1, %arg0: !stream.resource<transient>, %arg1: index, %n: index, %arg2: !stream.timepoint) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9_i32 = arith.constant 9 : i32
  // CHECK: %[[PICKED:.+]]:2 = scf.if %[[COND]] -> (!hal.buffer, !hal.fence) {
  %0:2 = scf.if %cond -> (!stream.resource<transient>, !stream.timepoint) {
    // CHECK: %[[FILLED:.+]] = hal.fence.create
    // CHECK-NEXT: hal.device.queue.fill{{.+}} wait(%[[T]]) signal(%[[FILLED]]) target(%[[R]] : !hal.buffer)
    %2 = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%arg2) => with(%arg0 as %arg3: !stream.resource<transient>{%arg1}) {
      stream.cmd.fill %c9_i32, %arg3[%c0 for %arg1] : i32 -> !stream.resource<transient>{%arg1}
    } => !stream.timepoint
    // CHECK-NEXT: scf.yield %[[R]], %[[FILLED]] : !hal.buffer, !hal.fence
    scf.yield %arg0, %2 : !stream.resource<transient>, !stream.timepoint
  } else {
    // CHECK: scf.yield %[[R]], %[[T]] : !hal.buffer, !hal.fence
    scf.yield %arg0, %arg2 : !stream.resource<transient>, !stream.timepoint
  }
  // CHECK: %[[LAST:.+]] = scf.for %{{.+}} = %c0 to %[[N]] step %c1 iter_args(%[[PREVIOUS:.+]] = %[[PICKED]]#1) -> (!hal.fence) {
  %1 = scf.for %i = %c0 to %n step %c1 iter_args(%t = %0#1) -> (!stream.timepoint) {
    // CHECK: %[[NEXT:.+]] = hal.fence.create
    // CHECK-NEXT: hal.device.queue.fill{{.+}} wait(%[[PREVIOUS]]) signal(%[[NEXT]]) target(%[[PICKED]]#0 : !hal.buffer)
    %3 = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%t) => with(%0#0 as %arg3: !stream.resource<transient>{%arg1}) {
      stream.cmd.fill %c9_i32, %arg3[%c0 for %arg1] : i32 -> !stream.resource<transient>{%arg1}
    } => !stream.timepoint
    // CHECK-NEXT: scf.yield %[[NEXT]] : !hal.fence
    scf.yield %3 : !stream.timepoint
  }
  // CHECK: util.return %[[LAST]] : !hal.fence
  util.return %1 : !stream.timepoint
}

// -----

// Affinities: an op without one uses its function's (or module's) default; with none at all
// the device is device 0. An optimal affinity allocates where hal.allocator.select says.

util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device

// CHECK-LABEL: util.func public @default_affinity
util.func public @default_affinity(%arg0: index) -> !stream.resource<transient> attributes {stream.affinity.default = #hal.device.affinity<@dev_b>} {
  // CHECK: hal.allocator.resolve_memory_properties lifetime(transient)
  // CHECK-NEXT: %[[DEV:.+]] = util.global.load immutable @dev_b
  // CHECK: hal.device.queue.alloca<%[[DEV]] : !hal.device>
  %0, %1 = stream.resource.alloca uninitialized : !stream.resource<transient>{%arg0} => !stream.timepoint
  util.return %0 : !stream.resource<transient>
}

// CHECK-LABEL: util.func public @no_affinity
util.func public @no_affinity(%arg0: index) -> !stream.resource<transient> {
  // CHECK: %[[ORDINAL:.+]] = arith.constant 0 : index
  // CHECK-NEXT: %[[DEV:.+]] = hal.devices.get %[[ORDINAL]] : !hal.device
  // CHECK-NEXT: %[[ANY:.+]] = arith.constant -1 : i64
  // CHECK: hal.device.queue.alloca<%[[DEV]] : !hal.device> affinity(%[[ANY]])
  %0, %1 = stream.resource.alloca uninitialized : !stream.resource<transient>{%arg0} => !stream.timepoint
  util.return %0 : !stream.resource<transient>
}

// CHECK-LABEL: util.func public @optimal_affinity
util.func public @optimal_affinity(%arg0: index) -> !stream.resource<external> {
  // CHECK: %[[TYPES:.+]], %[[USAGE:.+]] = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@dev_a>, #hal.device.affinity<@dev_b>]>) lifetime(external)
  // CHECK-NEXT: %[[DEV_A:.+]] = util.global.load immutable @dev_a
  // CHECK-NEXT: %[[Q_A:.+]] = arith.constant -1 : i64
  // CHECK-NEXT: %[[DEV_B:.+]] = util.global.load immutable @dev_b
  // CHECK-NEXT: %[[Q_B:.+]] = arith.constant -1 : i64
  // CHECK-NEXT: %[[DEV:.+]], %[[Q:.+]] = hal.allocator.select from([
  // CHECK-NEXT:   (%[[DEV_A]], %[[Q_A]] : !hal.device, i64),
  // CHECK-NEXT:   (%[[DEV_B]], %[[Q_B]] : !hal.device, i64)
  // CHECK-NEXT: ]) type(%[[TYPES]]) usage(%[[USAGE]]) : !hal.device, i64
  // CHECK: hal.device.queue.alloca<%[[DEV]] : !hal.device> affinity(%[[Q]])
  %0, %1 = stream.resource.alloca uninitialized on(#hal.device.optimal<[#hal.device.affinity<@dev_a>, #hal.device.affinity<@dev_b>]>) : !stream.resource<external>{%arg0} => !stream.timepoint
  util.return %0 : !stream.resource<external>
}

// -----

// Buffer views: an import checks the buffer fits the resource on its device; an export wraps
// the buffer in a view of the tensor's shape and element type. Exporting an unchanged import
// folds to the imported view.

util.global private @dev_a : !hal.device

// CHECK-LABEL: util.func public @buffer_views
// CHECK-SAME: (%[[VIEW:.+]]: !hal.buffer_view, %[[D:.+]]: index, %[[SIZE:.+]]: index, %[[R:.+]]: !hal.buffer) -> (!hal.buffer_view, !hal.buffer_view, !hal.buffer)
util.func public @buffer_views(%arg0: !hal.buffer_view, %arg1: index, %arg2: index, %arg3: !stream.resource<external>) -> (!hal.buffer_view, !hal.buffer_view, !stream.resource<external>) {
  // CHECK-NEXT: %[[BUFFER:.+]] = hal.buffer_view.buffer<%[[VIEW]] : !hal.buffer_view> : !hal.buffer
  // CHECK-NEXT: %[[DEV:.+]] = util.global.load immutable @dev_a
  // CHECK-NEXT: %[[ALLOCATOR:.+]] = hal.device.allocator<%[[DEV]] : !hal.device> : !hal.allocator
  // CHECK-NEXT: hal.buffer.assert<%[[BUFFER]] : !hal.buffer> message("tensor") allocator(%[[ALLOCATOR]] : !hal.allocator) minimum_length(%[[SIZE]]) type(DeviceVisible) usage("TransferSource|TransferTarget|Transfer|DispatchStorageRead|DispatchStorageWrite|DispatchStorage")
  %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg0 : !hal.buffer_view -> tensor<?x4xf32>{%arg1} in !stream.resource<external>{%arg2}
  %1 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %0 : tensor<?x4xf32>{%arg1} in !stream.resource<external>{%arg2} -> !hal.buffer_view
  // CHECK-NEXT: %[[ENCODING:.+]] = hal.encoding_type<dense_row_major> : i32
  // CHECK-NEXT: %[[ELEMENT:.+]] = hal.element_type<f32> : i32
  // CHECK-NEXT: %[[C4:.+]] = arith.constant 4 : index
  // CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : index
  // CHECK-NEXT: %[[OUT:.+]] = hal.buffer_view.create buffer(%[[R]] : !hal.buffer)[%[[C0]], %[[SIZE]]] shape([%[[D]], %[[C4]]]) type(%[[ELEMENT]]) encoding(%[[ENCODING]]) : !hal.buffer_view
  %2 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %arg3 : tensor<?x4xf32>{%arg1} in !stream.resource<external>{%arg2} -> !hal.buffer_view
  // CHECK-NEXT: util.return %[[VIEW]], %[[OUT]], %[[BUFFER]] : !hal.buffer_view, !hal.buffer_view, !hal.buffer
  util.return %1, %2, %0 : !hal.buffer_view, !hal.buffer_view, !stream.resource<external>
}

// -----

// Globals, calls and declarations are retyped; a timepoint global drops its immediate
// initial value. A barrier passes its resource on, already available. Sizes fold to the
// size the IR carries, else ask the buffer; a whole-range subview is its source.

util.global private mutable @timepoint : !stream.timepoint = #stream.timepoint<immediate>
util.global private @resource : !stream.resource<constant>

// CHECK: util.global private mutable @timepoint : !hal.fence{{$}}
// CHECK: util.global private @resource : !hal.buffer
// CHECK: util.func private @callee(%arg0: !hal.buffer, %arg1: !hal.fence) -> !hal.fence
util.func private @callee(%arg0: !stream.resource<transient>, %arg1: !stream.timepoint) -> !stream.timepoint

// CHECK-LABEL: util.func public @retyped
// CHECK-SAME: (%[[R:.+]]: !hal.buffer, %[[SIZE:.+]]: index) -> (index, index, index, !hal.buffer)
util.func public @retyped(%arg0: !stream.resource<transient>, %arg1: index) -> (index, index, index, !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  // CHECK: %[[LOADED:.+]] = util.global.load @timepoint : !hal.fence
  %0 = util.global.load @timepoint : !stream.timepoint
  // CHECK-NEXT: %[[NULL:.+]] = util.null : !hal.fence
  %1, %2 = stream.timepoint.barrier %arg0 : !stream.resource<transient>{%arg1} => !stream.timepoint
  // CHECK-NEXT: %[[JOINED:.+]] = hal.fence.join at([%[[LOADED]], %[[NULL]]])
  %3 = stream.timepoint.join max(%0, %2) => !stream.timepoint
  // CHECK-NEXT: %[[CALLED:.+]] = util.call @callee(%[[R]], %[[JOINED]]) : (!hal.buffer, !hal.fence) -> !hal.fence
  %4 = util.call @callee(%1, %3) : (!stream.resource<transient>, !stream.timepoint) -> !stream.timepoint
  // CHECK-NEXT: util.global.store %[[CALLED]], @timepoint : !hal.fence
  util.global.store %4, @timepoint : !stream.timepoint
  %5 = stream.resource.subview %1[%c0] : !stream.resource<transient>{%arg1} -> !stream.resource<transient>{%arg1}
  // CHECK-NEXT: %[[PART:.+]] = hal.buffer.subspan<%[[R]] : !hal.buffer>[%c0, %c8] : !hal.buffer
  %6 = stream.resource.subview %5[%c0] : !stream.resource<transient>{%arg1} -> !stream.resource<transient>{%c8}
  // The subview carries the size.
  %7 = stream.resource.size %6 : !stream.resource<transient>
  // A user (the barrier) carries the argument's size.
  %8 = stream.resource.size %arg0 : !stream.resource<transient>
  // CHECK-NEXT: %[[CONSTANT:.+]] = util.global.load @resource : !hal.buffer
  %9 = util.global.load @resource : !stream.resource<constant>
  // Nothing in the IR says how large the global is: ask the buffer.
  // CHECK-NEXT: %[[LENGTH:.+]] = hal.buffer.length<%[[CONSTANT]] : !hal.buffer> : index
  %10 = stream.resource.size %9 : !stream.resource<constant>
  // CHECK-NEXT: util.return %c8, %[[SIZE]], %[[LENGTH]], %[[PART]] : index, index, index, !hal.buffer
  util.return %7, %8, %10, %6 : index, index, index, !stream.resource<transient>
}

// -----

// Block arguments of unstructured control flow are retyped too.

// CHECK-LABEL: util.func public @blocks
// CHECK-SAME: (%[[COND:.+]]: i1, %[[T:.+]]: !hal.fence) -> !hal.fence
util.func public @blocks(%cond: i1, %arg0: !stream.timepoint) -> !stream.timepoint {
  // CHECK-NEXT: %[[NOW:.+]] = util.null : !hal.fence
  %0 = stream.timepoint.immediate => !stream.timepoint
  // CHECK-NEXT: cf.cond_br %[[COND]], ^bb1(%[[T]] : !hal.fence), ^bb1(%[[NOW]] : !hal.fence)
  cf.cond_br %cond, ^bb1(%arg0 : !stream.timepoint), ^bb1(%0 : !stream.timepoint)
// CHECK-NEXT: ^bb1(%[[PICKED:.+]]: !hal.fence):
^bb1(%1: !stream.timepoint):
  // CHECK-NEXT: util.return %[[PICKED]] : !hal.fence
  util.return %1 : !stream.timepoint
}

// -----

// The form --lower-to-cmd leaves constants and host readbacks in (IREE's PackConstants and
// ScheduleAllocation): try_map is an import of the host data, alloc an allocation, the file a
// file over host memory read on the queue, and stream.resource.load a hal.buffer.load.

// CHECK-LABEL: util.func public @packed_constant_and_readback
util.global private @dev_a : !hal.device
util.func public @packed_constant_and_readback(%arg0: !stream.resource<staging>, %arg1: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c0_i64 = arith.constant 0 : i64
  %t = stream.timepoint.immediate => !stream.timepoint
  %buffer_cst = util.buffer.constant <alignment = 64> : !util.buffer = #util.composite<64xi8, [dense<[1, 2, 3, 4]> : tensor<4xi32>, dense<0> : vector<48xi8>]>
  // CHECK: %{{.+}}, %{{.+}} = hal.allocator.import<%{{.+}} : !hal.allocator> source(%buffer_cst : !util.buffer)[%c0, %c64] affinity(%{{.+}}) type(%{{.+}}) usage(%{{.+}}) : i1, !hal.buffer
  %did_map, %result = stream.resource.try_map on(#hal.device.affinity<@dev_a>) %buffer_cst[%c0] : !util.buffer -> i1, !stream.resource<constant>{%c64}
  // CHECK: %[[BUFFER:.+]] = hal.allocator.allocate<%{{.+}} : !hal.allocator> affinity(%{{.+}}) type(%{{.+}}) usage(%{{.+}}) : !hal.buffer{%c64}
  %1 = stream.resource.alloc uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<constant>{%c64}
  // CHECK: %[[FILE:.+]] = hal.ex.file.from_memory device(%{{.+}} : !hal.device) affinity(%{{.+}}) access(Read) buffer(%buffer_cst : !util.buffer)[%c0 for %c64] flags(%{{.+}}) : !hal.file
  %file = stream.file.constant on(#hal.device.affinity<@dev_a>) %buffer_cst[%c0 for %c64] : !util.buffer{%c64} -> !stream.file
  // CHECK: hal.device.queue.read<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%{{.+}}) signal(%{{.+}}) source(%[[FILE]] : !hal.file)[%c0_i64] target(%[[BUFFER]] : !hal.buffer)[%c0] length(%c64) flags("None")
  %2 = stream.file.read on(#hal.device.affinity<@dev_a>) await(%t) => %file[%c0_i64], %1[%c0], %c64 : !stream.file -> !stream.resource<constant>{%c64} => !stream.timepoint
  %3 = stream.timepoint.await %2 => %1 : !stream.resource<constant>{%c64}
  // CHECK: %[[V:.+]] = hal.buffer.load<%arg0 : !hal.buffer>[%c0] : i32
  %v = stream.resource.load %arg0[%c0] : !stream.resource<staging>{%arg1} -> i32
  // CHECK: util.return %[[V]] : i32
  util.return %v : i32
}
