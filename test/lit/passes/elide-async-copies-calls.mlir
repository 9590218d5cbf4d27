// RUN: streamopt --elide-async-copies --split-input-file %s | filecheck %s

// Storage that crosses a call boundary keeps its names on both sides: a call result is only
// as fresh as the callee left it (a load of a global, or storage it stored into one, is the
// global's storage), and a value a callee returns is still seen by its callers afterwards.
// Each case that must not fire has a twin that must.

util.global private @dev_a : !hal.device
util.global private mutable @g : !stream.resource<transient>

util.func private @returns_global() -> !stream.resource<transient> {
  %0 = util.global.load @g : !stream.resource<transient>
  util.return %0 : !stream.resource<transient>
}

// The callee returns the global's storage, and the caller then writes the global in place
// through a load of its own: the clone of the call result must stay.

// CHECK-LABEL: util.func public @clone_of_returned_global_written
util.func public @clone_of_returned_global_written(%size: index) -> (!stream.resource<transient>, !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c2_i8 = arith.constant 2 : i8
  %0 = util.call @returns_global() : () -> !stream.resource<transient>
  // CHECK: stream.async.clone
  %1 = stream.async.clone on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<transient>{%size} -> !stream.resource<transient>{%size}
  %2 = util.global.load @g : !stream.resource<transient>
  %3 = stream.async.fill on(#hal.device.affinity<@dev_a>) %c2_i8, %2[%c0 to %size for %size] : i8 -> %2 as !stream.resource<transient>{%size}
  util.return %1, %3 : !stream.resource<transient>, !stream.resource<transient>
}

// -----

util.global private @dev_a : !hal.device
util.global private mutable @g : !stream.resource<transient>

util.func private @returns_global() -> !stream.resource<transient> {
  %0 = util.global.load @g : !stream.resource<transient>
  util.return %0 : !stream.resource<transient>
}

// Nothing writes the global: the clone of what the callee returned can go.

// CHECK-LABEL: util.func public @clone_of_returned_global_read
util.func public @clone_of_returned_global_read(%size: index) -> (!stream.resource<transient>, !stream.resource<transient>) {
  %0 = util.call @returns_global() : () -> !stream.resource<transient>
  // CHECK-NOT: stream.async.clone
  %1 = stream.async.clone on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<transient>{%size} -> !stream.resource<transient>{%size}
  %2 = util.global.load @g : !stream.resource<transient>
  util.return %1, %2 : !stream.resource<transient>, !stream.resource<transient>
}

// -----

util.global private @dev_a : !hal.device
util.global private mutable @g : !stream.resource<transient>

util.func private @stores_and_returns(%size: index) -> !stream.resource<transient> {
  %c1_i8 = arith.constant 1 : i8
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i8 : i8 -> !stream.resource<transient>{%size}
  util.global.store %0, @g : !stream.resource<transient>
  util.return %0 : !stream.resource<transient>
}

// The callee stores what it returns into the global: the result is the global's storage, so a
// same-device transfer of it is a copy the later write through the global must not reach.

// CHECK-LABEL: util.func public @transfer_of_returned_store_written
util.func public @transfer_of_returned_store_written(%size: index) -> (!stream.resource<transient>, !stream.resource<transient>) {
  %c0 = arith.constant 0 : index
  %c2_i8 = arith.constant 2 : i8
  %0 = util.call @stores_and_returns(%size) : (index) -> !stream.resource<transient>
  // CHECK: stream.async.transfer
  %1 = stream.async.transfer %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%size}
  %2 = util.global.load @g : !stream.resource<transient>
  %3 = stream.async.fill on(#hal.device.affinity<@dev_a>) %c2_i8, %2[%c0 to %size for %size] : i8 -> %2 as !stream.resource<transient>{%size}
  util.return %1, %3 : !stream.resource<transient>, !stream.resource<transient>
}

// -----

util.global private @dev_a : !hal.device

util.func private @returns_fresh(%size: index) -> !stream.resource<transient> {
  %c1_i8 = arith.constant 1 : i8
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i8 : i8 -> !stream.resource<transient>{%size}
  util.return %0 : !stream.resource<transient>
}

// A callee that returns storage nobody else holds: the caller owns it, and the transfer is
// its last use.

// CHECK-LABEL: util.func public @transfer_of_returned_fresh
util.func public @transfer_of_returned_fresh(%size: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c2_i8 = arith.constant 2 : i8
  %0 = util.call @returns_fresh(%size) : (index) -> !stream.resource<transient>
  // CHECK-NOT: stream.async.transfer
  %1 = stream.async.transfer %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%size}
  %2 = stream.async.fill on(#hal.device.affinity<@dev_a>) %c2_i8, %1[%c0 to %size for %size] : i8 -> %1 as !stream.resource<transient>{%size}
  util.return %2 : !stream.resource<transient>
}

// -----

module attributes {stream.topology = #hal.device.topology<links = [(@dev_a -> @dev_b = {unified_memory = true}), (@dev_b -> @dev_a = {unified_memory = true})]>} {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device
  util.global private mutable @g : !stream.resource<transient>

  // The callee shares its argument with a global over unified memory, then returns the
  // argument, which its caller writes in place: the global would see the write, so the
  // transfer stays.

  // CHECK-LABEL: util.func private @shares_then_returns
  util.func private @shares_then_returns(%arg0: !stream.resource<transient>, %size: index) -> !stream.resource<transient> {
    // CHECK: stream.async.transfer
    %0 = stream.async.transfer %arg0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
    util.global.store %0, @g : !stream.resource<transient>
    util.return %arg0 : !stream.resource<transient>
  }

  util.func public @caller_writes_returned(%size: index) -> (!stream.resource<transient>, !stream.resource<transient>) {
    %c0 = arith.constant 0 : index
    %c1_i8 = arith.constant 1 : i8
    %c2_i8 = arith.constant 2 : i8
    %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i8 : i8 -> !stream.resource<transient>{%size}
    %1 = util.call @shares_then_returns(%0, %size) : (!stream.resource<transient>, index) -> !stream.resource<transient>
    %2 = stream.async.fill on(#hal.device.affinity<@dev_a>) %c2_i8, %1[%c0 to %size for %size] : i8 -> %1 as !stream.resource<transient>{%size}
    %3 = util.global.load @g : !stream.resource<transient>
    util.return %2, %3 : !stream.resource<transient>, !stream.resource<transient>
  }
}

// -----

module attributes {stream.topology = #hal.device.topology<links = [(@dev_a -> @dev_b = {unified_memory = true}), (@dev_b -> @dev_a = {unified_memory = true})]>} {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device
  util.global private mutable @g : !stream.resource<transient>

  // The caller only reads what comes back: the global and the argument can share storage.

  // CHECK-LABEL: util.func private @shares_then_returns
  util.func private @shares_then_returns(%arg0: !stream.resource<transient>, %size: index) -> !stream.resource<transient> {
    // CHECK-NOT: stream.async.transfer
    %0 = stream.async.transfer %arg0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
    util.global.store %0, @g : !stream.resource<transient>
    util.return %arg0 : !stream.resource<transient>
  }

  util.func public @caller_reads_returned(%size: index) -> (!stream.resource<transient>, !stream.resource<transient>) {
    %c1_i8 = arith.constant 1 : i8
    %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i8 : i8 -> !stream.resource<transient>{%size}
    %1 = util.call @shares_then_returns(%0, %size) : (!stream.resource<transient>, index) -> !stream.resource<transient>
    %2 = util.global.load @g : !stream.resource<transient>
    util.return %1, %2 : !stream.resource<transient>, !stream.resource<transient>
  }
}

// -----

module attributes {stream.topology = #hal.device.topology<links = [(@dev_a -> @dev_b = {unified_memory = true}), (@dev_b -> @dev_a = {unified_memory = true})]>} {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device
  util.global private mutable @g : !stream.resource<transient>

  // After a branch, the source is stored into a global and written in place through a load
  // of it: the unified-memory transfer's result would see the write, so it stays.

  // CHECK-LABEL: util.func public @store_after_branch_written
  util.func public @store_after_branch_written(%size: index) -> (!stream.resource<transient>, !stream.resource<transient>) {
    %c0 = arith.constant 0 : index
    %c1_i8 = arith.constant 1 : i8
    %c2_i8 = arith.constant 2 : i8
    %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i8 : i8 -> !stream.resource<transient>{%size}
    // CHECK: stream.async.transfer
    %1 = stream.async.transfer %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
    cf.br ^bb1
  ^bb1:
    util.global.store %0, @g : !stream.resource<transient>
    %2 = util.global.load @g : !stream.resource<transient>
    %3 = stream.async.fill on(#hal.device.affinity<@dev_a>) %c2_i8, %2[%c0 to %size for %size] : i8 -> %2 as !stream.resource<transient>{%size}
    util.return %1, %3 : !stream.resource<transient>, !stream.resource<transient>
  }
}

// -----

module attributes {stream.topology = #hal.device.topology<links = [(@dev_a -> @dev_b = {unified_memory = true}), (@dev_b -> @dev_a = {unified_memory = true})]>} {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device
  util.global private mutable @g : !stream.resource<transient>

  // Stored after the branch but only read: the transfer goes.

  // CHECK-LABEL: util.func public @store_after_branch_read
  util.func public @store_after_branch_read(%size: index) -> (!stream.resource<transient>, !stream.resource<transient>) {
    %c1_i8 = arith.constant 1 : i8
    %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i8 : i8 -> !stream.resource<transient>{%size}
    // CHECK-NOT: stream.async.transfer
    %1 = stream.async.transfer %0 : !stream.resource<transient>{%size} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%size}
    cf.br ^bb1
  ^bb1:
    util.global.store %0, @g : !stream.resource<transient>
    %2 = util.global.load @g : !stream.resource<transient>
    util.return %1, %2 : !stream.resource<transient>, !stream.resource<transient>
  }
}

// -----

util.global private @dev_a : !hal.device
util.global private mutable @g : !stream.resource<transient>

util.func private @writes_global(%size: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  %c3_i8 = arith.constant 3 : i8
  %0 = util.global.load @g : !stream.resource<transient>
  %1 = stream.async.fill on(#hal.device.affinity<@dev_a>) %c3_i8, %0[%c0 to %size for %size] : i8 -> %0 as !stream.resource<transient>{%size}
  util.return %1 : !stream.resource<transient>
}

// The source is stored into the global before the clone, and a callee called after it writes
// the global in place through a load of its own, which the caller loads and returns: the
// clone must stay (no use of the source in this function changes it; the call does).

// CHECK-LABEL: util.func public @clone_then_callee_writes_global
util.func public @clone_then_callee_writes_global(%size: index) -> (!stream.resource<transient>, !stream.resource<transient>, !stream.resource<transient>) {
  %c1_i8 = arith.constant 1 : i8
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i8 : i8 -> !stream.resource<transient>{%size}
  util.global.store %0, @g : !stream.resource<transient>
  // CHECK: stream.async.clone
  %1 = stream.async.clone on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<transient>{%size} -> !stream.resource<transient>{%size}
  %2 = util.call @writes_global(%size) : (index) -> !stream.resource<transient>
  %3 = util.global.load @g : !stream.resource<transient>
  util.return %1, %2, %3 : !stream.resource<transient>, !stream.resource<transient>, !stream.resource<transient>
}

// -----

util.global private @dev_a : !hal.device
util.global private mutable @g : !stream.resource<transient>

util.func private @reads_global() -> !stream.resource<transient> {
  %0 = util.global.load @g : !stream.resource<transient>
  util.return %0 : !stream.resource<transient>
}

// The callee only reads the global: nothing changes the stored source, so the clone can go.

// CHECK-LABEL: util.func public @clone_then_callee_reads_global
util.func public @clone_then_callee_reads_global(%size: index) -> (!stream.resource<transient>, !stream.resource<transient>, !stream.resource<transient>) {
  %c1_i8 = arith.constant 1 : i8
  %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i8 : i8 -> !stream.resource<transient>{%size}
  util.global.store %0, @g : !stream.resource<transient>
  // CHECK-NOT: stream.async.clone
  %1 = stream.async.clone on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<transient>{%size} -> !stream.resource<transient>{%size}
  %2 = util.call @reads_global() : () -> !stream.resource<transient>
  %3 = util.global.load @g : !stream.resource<transient>
  util.return %1, %2, %3 : !stream.resource<transient>, !stream.resource<transient>, !stream.resource<transient>
}
