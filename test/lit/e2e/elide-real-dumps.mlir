// Which transfers of real IREE dumps (examples/iree, made with iree-compile) become moves.
// This file holds only checks; the inputs are the dumps.

// RUN: streamopt --elide-async-copies %examples/iree/two-devices/before-elide-2.mlir | filecheck %s --check-prefix=TWO
// RUN: streamopt --elide-async-copies %examples/iree/three-devices/before-elide-2.mlir | filecheck %s --check-prefix=THREE
// RUN: streamopt --elide-async-copies %examples/iree/control-flow/before-elide-2.mlir | filecheck %s --check-prefix=CF
// RUN: streamopt --elide-async-copies %examples/iree/calls/before-elide-2.mlir | filecheck %s --check-prefix=CALLS
// RUN: streamopt --elide-async-copies %examples/iree/constants/before-elide-2.mlir | filecheck %s --check-prefix=CONST
// RUN: streamopt --elide-async-copies %examples/iree/two-devices/before-elide-1.mlir | filecheck %s --check-prefix=TWO1
// RUN: streamopt --elide-async-copies --stats %examples/iree/three-devices/before-elide-2.mlir 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// A -> B -> A: each transfer is the last use of a dispatch result.
// TWO-LABEL: util.func public @main
// TWO: %[[D0:.+]] = stream.async.dispatch on(#hal.device.affinity<@dev_a>)
// TWO: %[[M0:.+]] = stream.async.move %[[D0]] : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>)
// TWO: %[[D1:.+]] = stream.async.dispatch on(#hal.device.affinity<@dev_b>) {{.+}}(%[[M0]]
// TWO: stream.async.move %[[D1]] : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>)
// TWO-NOT: stream.async.transfer

// One result sent to two devices: the first transfer copies, the second (its last use) moves.
// THREE-LABEL: util.func public @main
// THREE: %[[D0:.+]] = stream.async.dispatch on(#hal.device.affinity<@dev_a>)
// THREE: stream.async.transfer %[[D0]] {{.+}} to(#hal.device.affinity<@dev_b>)
// THREE: stream.async.move %[[D0]] {{.+}} to(#hal.device.affinity<@dev_c>)
// THREE: %[[D1:.+]] = stream.async.dispatch on(#hal.device.affinity<@dev_b>)
// THREE: stream.async.transfer %[[D1]] {{.+}} to(#hal.device.affinity<@dev_c>)
// THREE: stream.async.move %[[D1]] {{.+}} to(#hal.device.affinity<@dev_a>)
// THREE: stream.async.move %{{.+}} from(#hal.device.affinity<@dev_c>) -> to(#hal.device.affinity<@dev_a>)

// The imported input is borrowed: its transfer in the branch copies. The branch's result and
// the loop-carried value are owned: their transfers move.
// CF-LABEL: util.func public @main
// CF: %[[IN:.+]] = stream.tensor.import
// CF: scf.if
// CF: stream.async.transfer %[[IN]] : !stream.resource<external>{%c16} -> to(#hal.device.affinity<@dev_b>)
// CF: stream.async.move %{{.+}} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>)
// CF: scf.for %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}})
// CF: stream.async.move %[[ACC]] : !stream.resource<external>{%c16} -> to(#hal.device.affinity<@dev_b>)
// CF: stream.async.move %{{.+}} from(#hal.device.affinity<@dev_b>) -> !stream.resource<transient>

// A private callee's argument is passed by value by its only caller: it moves inside the callee,
// and so does the callee's result on its way back.
// CALLS-LABEL: util.func private @square_on_b
// CALLS: stream.async.move %arg0 : !stream.resource<transient>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>)
// CALLS: stream.async.move %{{.+}} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>)
// CALLS-NOT: stream.async.transfer

// A clone of a loaded constant that is only read shares the global's storage.
// CONST-LABEL: util.func public @main
// CONST-NOT: stream.async.clone
// CONST: stream.async.move

// The first dump still has the copy-on-write clone before the transfer: both go.
// TWO1-LABEL: util.func public @main
// TWO1-NOT: stream.async.clone
// TWO1-NOT: stream.async.transfer
// TWO1: stream.async.move
// TWO1: stream.async.move

// STATS: ElideAsyncCopiesPass
// STATS-DAG: (S) 2 num-transfers-kept
// STATS-DAG: (S) 3 num-transfers-moved
// STATS-DAG: kept transfer at {{.+}}three-devices/before-elide-2.mlir:112:10: not the last use of the source
