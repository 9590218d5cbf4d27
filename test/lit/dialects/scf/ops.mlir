// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s

// CHECK-LABEL: util.func public @if
util.func public @if(%arg0: i1, %arg1: !stream.resource<*>, %arg2: index) -> (!stream.resource<*>, index) {
  // Results: the yields print.
  //      CHECK: %[[R:.+]]:2 = scf.if %arg0 -> (!stream.resource<*>, index) {
  // CHECK-NEXT:   scf.yield %arg1, %arg2 : !stream.resource<*>, index
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   %[[C:.+]] = arith.constant 0 : index
  // CHECK-NEXT:   scf.yield %arg1, %[[C]] : !stream.resource<*>, index
  // CHECK-NEXT: }
  %0:2 = scf.if %arg0 -> (!stream.resource<*>, index) {
    scf.yield %arg1, %arg2 : !stream.resource<*>, index
  } else {
    %c0 = arith.constant 0 : index
    scf.yield %arg1, %c0 : !stream.resource<*>, index
  }
  // No results: an empty yield is implied, written or not, and the else may be left out.
  //      CHECK: scf.if %arg0 {
  // CHECK-NEXT:   arith.addi
  // CHECK-NEXT: }{{$}}
  scf.if %arg0 {
    %1 = arith.addi %arg2, %arg2 : index
    scf.yield
  }
  //      CHECK: scf.if %arg0 {
  // CHECK-NEXT:   arith.addi
  // CHECK-NEXT: } else {
  // CHECK-NEXT: } {some.attr}
  scf.if %arg0 {
    %1 = arith.addi %arg2, %arg2 : index
  } else {
  } {some.attr}
  // CHECK: util.return %[[R]]#0, %[[R]]#1
  util.return %0#0, %0#1 : !stream.resource<*>, index
}

// -----

// CHECK-LABEL: util.func public @for
util.func public @for(%arg0: index, %arg1: !stream.resource<*>) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // The induction variable and iteration arguments are the body's block arguments.
  //      CHECK: %[[R:.+]]:2 = scf.for %[[IV:.+]] = %c0 to %arg0 step %c1 iter_args(%[[A:.+]] = %c0, %[[B:.+]] = %arg1) -> (index, !stream.resource<*>) {
  // CHECK-NEXT:   %[[S:.+]] = arith.addi %[[IV]], %[[A]] : index
  // CHECK-NEXT:   scf.yield %[[S]], %[[B]] : index, !stream.resource<*>
  // CHECK-NEXT: }
  %0:2 = scf.for %i = %c0 to %arg0 step %c1 iter_args(%a = %c0, %b = %arg1) -> (index, !stream.resource<*>) {
    %s = arith.addi %i, %a : index
    scf.yield %s, %b : index, !stream.resource<*>
  }
  // Without iteration arguments the yield is implied.
  //      CHECK: scf.for %[[IV2:.+]] = %c0 to %arg0 step %c1 {
  // CHECK-NEXT:   arith.addi %[[IV2]], %[[IV2]] : index
  // CHECK-NEXT: }
  scf.for %i = %c0 to %arg0 step %c1 {
    %s = arith.addi %i, %i : index
  }
  // A non-index induction variable prints its type after two spaces, as MLIR does.
  %c3_i32 = arith.constant 3 : i32
  // CHECK: scf.for unsigned %{{.+}} = %c3_i32 to %c3_i32 step %c3_i32  : i32 {
  scf.for unsigned %i = %c3_i32 to %c3_i32 step %c3_i32 : i32 {
    scf.yield
  } {some.attr}
  // CHECK: util.return %[[R]]#1
  util.return %0#1 : !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @while
util.func public @while(%arg0: index, %arg1: !stream.resource<*>, %arg2: i1) -> index {
  %c0 = arith.constant 0 : index
  // The `before` region's arguments are declared in the header, the `do` region's in its label.
  //      CHECK: %[[W:.+]]:2 = scf.while (%[[A:.+]] = %c0, %[[B:.+]] = %arg1) : (index, !stream.resource<*>) -> (index, !stream.resource<*>) {
  // CHECK-NEXT:   %[[C:.+]] = arith.cmpi ult, %[[A]], %arg0 : index
  // CHECK-NEXT:   scf.condition(%[[C]]) %[[A]], %[[B]] : index, !stream.resource<*>
  // CHECK-NEXT: } do {
  // CHECK-NEXT: ^bb0(%[[X:.+]]: index, %[[Y:.+]]: !stream.resource<*>):
  // CHECK-NEXT:   scf.yield %[[X]], %[[Y]] : index, !stream.resource<*>
  // CHECK-NEXT: }
  %0:2 = scf.while (%a = %c0, %b = %arg1) : (index, !stream.resource<*>) -> (index, !stream.resource<*>) {
    %c = arith.cmpi ult, %a, %arg0 : index
    scf.condition(%c) %a, %b : index, !stream.resource<*>
  } do {
  ^bb0(%x: index, %y: !stream.resource<*>):
    scf.yield %x, %y : index, !stream.resource<*>
  }
  // A single result prints without parentheses; no arguments print no list.
  // CHECK: scf.while (%{{.+}} = %c0) : (index) -> index {
  %1 = scf.while (%a = %c0) : (index) -> index {
    scf.condition(%arg2) %a : index
  } do {
  ^bb0(%x: index):
    scf.yield %x : index
  }
  //      CHECK: scf.while : () -> () {
  // CHECK-NEXT:   scf.condition(%arg2)
  // CHECK-NEXT: } do {
  // CHECK-NEXT:   scf.yield
  // CHECK-NEXT: } attributes {some.attr}
  scf.while : () -> () {
    scf.condition(%arg2)
  } do {
    scf.yield
  } attributes {some.attr}
  util.return %1 : index
}

// -----

// CHECK-LABEL: util.func public @index_switch
util.func public @index_switch(%arg0: index, %arg1: !stream.resource<*>) -> !stream.resource<*> {
  // Each case starts a line of its own; MLIR leaves a space at the end of the header.
  //      CHECK: %[[S:.+]] = scf.index_switch %arg0 -> !stream.resource<*> {{$}}
  // CHECK-NEXT: case 2 {
  // CHECK-NEXT:   scf.yield %arg1 : !stream.resource<*>
  // CHECK-NEXT: }
  // CHECK-NEXT: case -5 {
  // CHECK-NEXT:   scf.yield %arg1 : !stream.resource<*>
  // CHECK-NEXT: }
  // CHECK-NEXT: default {
  // CHECK-NEXT:   scf.yield %arg1 : !stream.resource<*>
  // CHECK-NEXT: }
  %0 = scf.index_switch %arg0 -> !stream.resource<*>
  case 2 {
    scf.yield %arg1 : !stream.resource<*>
  }
  case -5 {
    scf.yield %arg1 : !stream.resource<*>
  }
  default {
    scf.yield %arg1 : !stream.resource<*>
  }
  //      CHECK: scf.index_switch %arg0 {some.attr} {{$}}
  // CHECK-NEXT: default {
  // CHECK-NEXT: }
  scf.index_switch %arg0 {some.attr}
  default {
  }
  // CHECK: util.return %[[S]]
  util.return %0 : !stream.resource<*>
}
