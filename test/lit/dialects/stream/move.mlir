// RUN: streamopt --split-input-file %s | filecheck %s --check-prefix=ROUNDTRIP
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s --check-prefix=ROUNDTRIP
// RUN: streamopt --split-input-file --canonicalize %s | filecheck %s --check-prefix=CANON

// ROUNDTRIP-LABEL: util.func public @move_forms
// CANON-LABEL: util.func public @move_forms
util.func public @move_forms(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<external> {
  // ROUNDTRIP: %[[A:.+]] = stream.async.move %arg0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%arg1}
  %0 = stream.async.move %arg0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%arg1}
  // ROUNDTRIP: stream.async.move on(#hal.device.affinity<@dev_b>) %[[A]] : !stream.resource<*>{%arg1} -> to(#hal.device.affinity<@dev_c>) !stream.resource<external>{%arg1} attributes {some.attr}
  // A move with its own execution affinity is not merged with the one before it.
  // CANON: stream.async.move %arg0
  // CANON: stream.async.move on(#hal.device.affinity<@dev_b>)
  %1 = stream.async.move on(#hal.device.affinity<@dev_b>) %0 : !stream.resource<*>{%arg1} -> to(#hal.device.affinity<@dev_c>) !stream.resource<external>{%arg1} attributes {some.attr}
  util.return %1 : !stream.resource<external>
}

// -----

// A move from A to B of a move from B to A is a move from A to A: the storage itself.

// CANON-LABEL: util.func public @round_trip_folds
util.func public @round_trip_folds(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  // CANON-NOT: stream.async.move
  // CANON: util.return %arg0
  %0 = stream.async.move %arg0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%arg1}
  %1 = stream.async.move %0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%arg1}
  util.return %1 : !stream.resource<*>
}

// -----

// A->B then B->C with nothing else using the middle value: one move A->C.

// CANON-LABEL: util.func public @chain_merges
util.func public @chain_merges(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  // CANON: %[[M:.+]] = stream.async.move %arg0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<*>{%arg1}
  // CANON-NEXT: util.return %[[M]]
  %0 = stream.async.move %arg0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%arg1}
  %1 = stream.async.move %0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<*>{%arg1}
  util.return %1 : !stream.resource<*>
}

// -----

// The middle value has another use: both moves stay (the verifier would reject a use after the
// first move, so the other use is the second move's sibling in an exclusive branch).

// CANON-LABEL: util.func public @chain_kept
util.func public @chain_kept(%cond: i1, %arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  // CANON: stream.async.move %arg1
  %0 = stream.async.move %arg0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%arg1}
  %1 = scf.if %cond -> (!stream.resource<*>) {
    // CANON: stream.async.move %{{.+}} : !stream.resource<*>{%arg2} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_c>)
    %2 = stream.async.move %0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<*>{%arg1}
    scf.yield %2 : !stream.resource<*>
  } else {
    scf.yield %0 : !stream.resource<*>
  }
  util.return %1 : !stream.resource<*>
}

// -----

// An unused move is removed by its own pattern (moves are not pure).

// CANON-LABEL: util.func public @unused_move
util.func public @unused_move(%arg0: !stream.resource<*>, %arg1: index) {
  // CANON-NOT: stream.async.move
  %0 = stream.async.move %arg0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%arg1}
  util.return
}
