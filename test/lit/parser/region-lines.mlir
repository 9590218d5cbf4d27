// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s

// MLIR does not care where lines break: an op may share a line with the `{` that opens its
// region or with the `}` that closes it. Such ops are read as ops of the region (the
// arguments are renamed, as for any region streamopt models) and printed one per line.

// CHECK-LABEL: util.func public @op_after_brace
// CHECK-SAME: (%arg0: index) -> index {
// CHECK-NEXT: %0 = arith.addi %arg0, %arg0 : index
// CHECK-NEXT: util.return %0 : index
// CHECK-NEXT: }
util.func public @op_after_brace(%a: index) -> index { %0 = arith.addi %a, %a : index
  util.return %0 : index }

// -----

// CHECK-LABEL: util.func public @nested
// CHECK-NEXT: %0 = scf.if %arg1 -> (index) {
// CHECK-NEXT: scf.yield %arg0 : index
// CHECK-NEXT: } else {
// CHECK-NEXT: %1 = arith.addi %arg0, %arg0 : index
// CHECK-NEXT: scf.yield %1 : index
// CHECK-NEXT: }
// CHECK-NEXT: util.return %0 : index
// CHECK-NEXT: }
util.func public @nested(%a: index, %c: i1) -> index {
  %0 = scf.if %c -> index { scf.yield %a : index
  } else { %1 = arith.addi %a, %a : index
    scf.yield %1 : index }
  util.return %0 : index
}

// -----

// A transfer in such a line is an op streamopt models, printed in its own form.

// CHECK-LABEL: util.func public @transfer
// CHECK-NEXT: %0 = stream.async.transfer %arg0 : !stream.resource<*>{%arg1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%arg1}
// CHECK-NEXT: util.return %0 : !stream.resource<*>
util.func public @transfer(%r: !stream.resource<*>, %size: index) -> !stream.resource<*> {   %0 = stream.async.transfer %r : !stream.resource<*>{%size}   from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*> }

// -----

// A block label may follow the brace too.

// CHECK-LABEL: util.func public @block
// CHECK: ^bb1(%[[ARG:.+]]: index):
// CHECK-NEXT: util.return %[[ARG]] : index
util.func public @block(%a: index) -> index {
  cf.br ^bb1(%a : index)
^bb1(%b: index): util.return %b : index }

// -----

// A `{` whose line goes on with an attribute entry opens an attribute dictionary, not a
// region, even when the dictionary spans lines.

// CHECK-LABEL: util.func public @dictionary
// CHECK-SAME: attributes {{{.*}}baz{{.*}}} {
// CHECK-NEXT: util.return
util.func public @dictionary() attributes { foo.bar = 1,
    baz } {
  util.return
}

// -----

// A region on one line is a region where the op's custom form reads one (util.func, scf.if,
// stream.cmd.execute, ...), also after another region of the op (`} else {`).

// CHECK-LABEL: util.func private @one_line_body() {
// CHECK-NEXT: util.return
// CHECK-NEXT: }
util.func private @one_line_body() { util.return }

// CHECK-LABEL: util.func public @one_line_branches
// CHECK-NEXT: %0 = scf.if %arg1 -> (index) {
// CHECK-NEXT: scf.yield %arg0 : index
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %arg0 : index
// CHECK-NEXT: }
util.func public @one_line_branches(%a: index, %c: i1) -> index {
  %0 = scf.if %c -> index { scf.yield %a : index } else { scf.yield %a : index }
  util.return %0 : index
}

// An attribute dictionary on one line stays one, with or without an op name's dots in it.

// CHECK-LABEL: util.func private @one_line_dictionary() attributes {foo.bar} {
// CHECK-NEXT: util.return
util.func private @one_line_dictionary() attributes { foo.bar } { util.return }

// -----

// An op streamopt keeps as written (here func.func) keeps a region on one line as written.

// CHECK-LABEL: func.func @one_line() { return }
func.func @one_line() { return }
