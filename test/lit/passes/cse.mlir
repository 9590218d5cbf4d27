// RUN: streamopt --cse --split-input-file %s | filecheck %s

// Equal pure ops merge into the first.

// CHECK-LABEL: util.func public @constants
util.func public @constants() -> index {
  // CHECK: [[FOUR:%.+]] = arith.constant 4 : index
  %a = arith.constant 4 : index
  // CHECK-NOT: arith.constant
  %b = arith.constant 4 : index
  // CHECK: [[SUM:%.+]] = arith.addi [[FOUR]], [[FOUR]] : index
  %s = arith.addi %a, %b : index
  // CHECK-NOT: arith.addi
  %t = arith.addi %a, %a : index
  // CHECK: arith.muli [[SUM]], [[SUM]]
  %u = arith.muli %s, %t : index
  util.return %u : index
}

// -----

// An op in a nested region merges into an equal one of an enclosing block; the two branches
// of an scf.if do not dominate each other, so their equal ops stay.

// CHECK-LABEL: util.func public @regions
util.func public @regions(%cond: i1) -> (index, index) {
  // CHECK: [[FOUR:%.+]] = arith.constant 4 : index
  %a = arith.constant 4 : index
  // CHECK: scf.if
  %r = scf.if %cond -> index {
    // CHECK-NOT: arith.constant 4
    %b = arith.constant 4 : index
    // CHECK: arith.constant 5
    %c = arith.constant 5 : index
    %d = arith.addi %b, %c : index
    scf.yield %d : index
  // CHECK: } else {
  } else {
    // CHECK: arith.constant 5
    %e = arith.constant 5 : index
    scf.yield %e : index
  }
  // CHECK: util.return
  util.return %a, %r : index, index
}

// -----

// Functions are isolated from above: equal ops in two functions both stay.

// CHECK-LABEL: util.func public @first
util.func public @first() -> index {
  // CHECK: arith.constant 4
  %a = arith.constant 4 : index
  util.return %a : index
}
// CHECK-LABEL: util.func public @second
util.func public @second() -> index {
  // CHECK: arith.constant 4
  %a = arith.constant 4 : index
  util.return %a : index
}

// -----

// Of the blocks of a region only the entry block dominates the others: equal ops of two
// successors stay, one of the entry block absorbs theirs.

// CHECK-LABEL: util.func public @blocks
util.func public @blocks(%cond: i1) -> index {
  // CHECK: [[FOUR:%.+]] = arith.constant 4 : index
  %a = arith.constant 4 : index
  cf.cond_br %cond, ^left, ^right
^left:
  // CHECK-NOT: arith.constant 4
  %b = arith.constant 4 : index
  // CHECK: arith.constant 6
  %c = arith.constant 6 : index
  %d = arith.addi %b, %c : index
  cf.br ^exit(%d : index)
^right:
  // CHECK: arith.constant 6
  %e = arith.constant 6 : index
  cf.br ^exit(%e : index)
^exit(%r: index):
  util.return %r : index
}

// -----

// Two equal dispatches reading storage nothing ever writes: their results may be one storage.

stream.executable private @ex {
  stream.executable.export public @read
  stream.executable.export public @write
}

// CHECK-LABEL: util.func public @read_only_dispatches
util.func public @read_only_dispatches(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  // CHECK: [[SPLAT:%.+]] = stream.async.splat
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: [[READ:%.+]] = stream.async.dispatch @ex::@read([[SPLAT]]
  %1 = stream.async.dispatch @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  // CHECK-NOT: stream.async.dispatch
  %2 = stream.async.dispatch @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  // CHECK: util.return [[READ]], [[READ]]
  util.return %1, %2 : !stream.resource<*>, !stream.resource<*>
}

// -----

// One result is written in place afterwards: merged, the other would change with it.

stream.executable private @ex {
  stream.executable.export public @read
  stream.executable.export public @write
}

// CHECK-LABEL: util.func public @result_written
util.func public @result_written(%size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.dispatch @ex::@read
  %1 = stream.async.dispatch @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  // CHECK: [[SECOND:%.+]] = stream.async.dispatch @ex::@read
  %2 = stream.async.dispatch @ex::@read(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  // CHECK: stream.async.dispatch @ex::@write([[SECOND]]
  %3 = stream.async.dispatch @ex::@write(%2[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> %2{%size}
  util.return %1, %3 : !stream.resource<*>, !stream.resource<*>
}

// -----

// The storage both read is written in between (in place, through a tied name): the second
// read sees other bytes, so the two loads stay. (The staging resource is an argument: no
// stream op that makes a resource makes a staging one.)

// CHECK-LABEL: util.func public @read_across_a_write
util.func public @read_across_a_write(%0: !stream.resource<staging>, %size: index) -> (i32, i32, !stream.resource<staging>) {
  %c0 = arith.constant 0 : index
  %c2_i32 = arith.constant 2 : i32
  // CHECK: stream.async.load
  %1 = stream.async.load %0[%c0] : !stream.resource<staging>{%size} -> i32
  %2 = stream.async.store %c2_i32, %0[%c0] : i32 -> %0 as !stream.resource<staging>{%size}
  // CHECK: stream.async.load
  %3 = stream.async.load %0[%c0] : !stream.resource<staging>{%size} -> i32
  util.return %1, %3, %2 : i32, i32, !stream.resource<staging>
}

// -----

// Ops that write in place (a tied result) are never merged.

stream.executable private @ex {
  stream.executable.export public @write
}

// CHECK-LABEL: util.func public @in_place
util.func public @in_place(%size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<*>{%size}
  // CHECK: stream.async.dispatch @ex::@write
  %1 = stream.async.dispatch @ex::@write(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> %0{%size}
  // CHECK: stream.async.dispatch @ex::@write
  %2 = stream.async.dispatch @ex::@write(%0[%c0 to %size for %size]) : (!stream.resource<*>{%size}) -> %0{%size}
  util.return %2 : !stream.resource<*>
}

// -----

// An execution region's result that yields a capture names the captured storage: a write to
// the capture between two equal slices of the result keeps both slices.

// CHECK-LABEL: util.func public @read_across_a_write_to_a_yielded_capture
util.func public @read_across_a_write_to_a_yielded_capture(%size: index, %value: i32) -> (!stream.resource<external>, !stream.resource<external>, !stream.resource<external>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1_i32 = arith.constant 1 : i32
  %0 = stream.async.splat %c1_i32 : i32 -> !stream.resource<external>{%size}
  %1, %tp = stream.async.execute with(%0 as %captured: !stream.resource<external>{%size}) -> !stream.resource<external>{%size} {
    stream.yield %captured : !stream.resource<external>{%size}
  } => !stream.timepoint
  %2 = stream.timepoint.await %tp => %1 : !stream.resource<external>{%size}
  // CHECK: stream.async.slice
  %3 = stream.async.slice %2[%c0 to %c4] : !stream.resource<external>{%size} -> !stream.resource<external>{%c4}
  %4 = stream.async.fill %value, %0[%c0 to %size for %size] : i32 -> %0 as !stream.resource<external>{%size}
  // CHECK: stream.async.slice
  %5 = stream.async.slice %2[%c0 to %c4] : !stream.resource<external>{%size} -> !stream.resource<external>{%c4}
  util.return %3, %5, %4 : !stream.resource<external>, !stream.resource<external>, !stream.resource<external>
}
