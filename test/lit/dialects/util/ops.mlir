// RUN: streamopt --split-input-file --mlir-print-debuginfo %s | filecheck %s
// RUN: streamopt --split-input-file --mlir-print-debuginfo %s | streamopt --split-input-file --mlir-print-debuginfo | filecheck %s
// RUN: streamopt --split-input-file %s | filecheck %s --check-prefix=NOLOC

// Globals: visibility (always spelled out), mutability, type, initial value, attributes.

// CHECK: util.global private @dev_a : !hal.device
util.global private @dev_a : !hal.device
// CHECK: util.global private mutable @state : !stream.resource<variable>
util.global private mutable @state : !stream.resource<variable>
// The type is left out when the initial value carries it.
// CHECK: util.global public @count = 5 : index
util.global public @count = 5 : index
// CHECK: util.global public @implicit_public : i32
util.global @implicit_public : i32
// CHECK: util.global private mutable @with_attrs {some.attr = 1 : i64} = 5 : i32
util.global private mutable @with_attrs {some.attr = 1 : i64} : i32 = 5 : i32
// CHECK: util.global private @"quoted name" = dense<0> : tensor<4xi32>
util.global private @"quoted name" = dense<0> : tensor<4xi32>

// CHECK-LABEL: util.func public @globals
util.func public @globals(%arg0: !stream.resource<variable>) -> index {
  // The result is named after the global.
  // CHECK: %state = util.global.load @state : !stream.resource<variable>
  %0 = util.global.load @state : !stream.resource<variable>
  // CHECK: %count = util.global.load immutable @count : index
  %1 = util.global.load immutable @count : index
  // CHECK: %quoted_name = util.global.load @"quoted name" : tensor<4xi32>
  %2 = util.global.load @"quoted name" : tensor<4xi32>
  // CHECK: util.global.store %arg0, @state : !stream.resource<variable>
  util.global.store %arg0, @state : !stream.resource<variable>
  // CHECK: util.global.store %state, @state {some.attr} : !stream.resource<variable>
  util.global.store %0, @state {some.attr} : !stream.resource<variable>
  util.return %1 : index
}

// -----

// A device global as real pipelines write it: an alias whose type is in its definition.

// CHECK: #device_target = #hal.device.target<"local", {ordinal = 0 : index}> : !hal.device
#device_target = #hal.device.target<"local", {ordinal = 0 : index}> : !hal.device
// CHECK: util.global private @dev = #device_target
util.global private @dev = #device_target
// An explicit type equal to the value's is left out.
// CHECK: util.global private @other = #device_target
util.global private @other : !hal.device = #device_target

// -----

// A global may hold a function type, printed in MLIR's spelling (one result without
// parentheses); its loads, stores and an unfoldable function symbol take it too.

// CHECK: util.global private mutable @fn_global : (index) -> index
util.global private mutable @fn_global : (index) -> index
// CHECK: util.global private @no_results : () -> ()
util.global private @no_results : () -> ()
// CHECK: util.global private @two_results : (index, i32) -> (index, i32)
util.global private @two_results : (index, i32) -> (index, i32)
// CHECK: util.global private @respelled : (index) -> index
util.global private @respelled : (index)->(index)
// The type is left out when the initial value carries it, a function type too.
// CHECK: util.global private @fn_initial = #util.uninitialized : (index) -> index
util.global private @fn_initial : (index) -> index = #util.uninitialized : (index) -> index
util.func private @callee(%arg0: index) -> index

// CHECK-LABEL: util.func public @function_typed_globals
util.func public @function_typed_globals() {
  // CHECK-NEXT: util.global.load @fn_global : (index) -> index
  %0 = util.global.load @fn_global : (index) -> index
  // CHECK-NEXT: %[[C:.+]] = util.unfoldable_constant @callee : (index) -> index
  %1 = util.unfoldable_constant @callee : (index)->(index)
  // CHECK-NEXT: util.global.store %[[C]], @fn_global : (index) -> index
  util.global.store %1, @fn_global : (index) -> index
  // CHECK-NEXT: util.global.load immutable @two_results : (index, i32) -> (index, i32)
  %2 = util.global.load immutable @two_results : (index, i32) -> (index, i32)
  util.return
}

// -----

// Calls: operand types, plain and tied results (`%x` or `%x as T`).

util.func private @tied(%arg0: !stream.resource<*>, %arg1: index) -> (%arg0, !stream.resource<*>)
util.func private @tied_cast(%arg0: !stream.resource<*>) -> %arg0 as !stream.resource<transient>
util.func private @none()
util.func private @one(%arg0: index) -> index

// CHECK-LABEL: util.func public @calls
util.func public @calls(%arg0: !stream.resource<*>, %arg1: index) -> index {
  // CHECK: %[[T:.+]]:2 = util.call @tied(%arg0, %arg1) : (!stream.resource<*>, index) -> (%arg0, !stream.resource<*>)
  %0:2 = util.call @tied(%arg0, %arg1) : (!stream.resource<*>, index) -> (%arg0, !stream.resource<*>)
  // CHECK: util.call @tied_cast(%[[T]]#1) : (!stream.resource<*>) -> %[[T]]#1 as !stream.resource<transient>
  %1 = util.call @tied_cast(%0#1) : (!stream.resource<*>) -> %0#1 as !stream.resource<transient>
  // CHECK: util.call @none() : () -> ()
  util.call @none() : () -> ()
  // CHECK: util.call @one(%arg1) {some.attr} : (index) -> index
  %2 = util.call @one(%arg1) {some.attr} : (index) -> index
  util.return %2 : index
}

// -----

// Declarations name their arguments `%argN` whatever they were written as.

// CHECK: util.func private @decl(%arg0: index, %arg1: index) -> (%arg1, index)
util.func private @decl(%x: index, %y: index) -> (%y, index)
// CHECK: util.func private @anonymous(%arg0: index) -> index
util.func private @anonymous(index) -> index
// CHECK: util.func private @single_tied(%arg0: index) -> %arg0
util.func private @single_tied(%a: index) -> %a
// CHECK: util.func private @attrs(%arg0: index {a.b}) -> (index {a.c}, %arg0)
util.func private @attrs(%a: index {a.b}) -> (index {a.c}, %a)
// CHECK: util.func public @after_declarations
util.func public @after_declarations() {
  util.return
}

// -----

// Several results may be written without parentheses (and then without attributes: a `{`
// after them opens the body); they are printed in parentheses, as iree-opt prints them.

// CHECK-LABEL: util.func public @bare_results
// CHECK-SAME: (%arg0: index) -> (index, i64) {
util.func public @bare_results(%arg0: index) -> index, i64 {
  // CHECK-NEXT: %[[C:.+]] = arith.constant 1 : i64
  %c1_i64 = arith.constant 1 : i64
  // CHECK-NEXT: util.return %arg0, %[[C]] : index, i64
  util.return %arg0, %c1_i64 : index, i64
}
// CHECK: util.func private @bare_declaration(%arg0: index) -> (index, i64)
util.func private @bare_declaration(%a: index) -> index, i64
// CHECK: util.func private @bare_tied(%arg0: index, %arg1: i32) -> (%arg0, %arg1 as i64, i64)
util.func private @bare_tied(%a: index, %b: i32) -> %a, %b as i64, i64
// CHECK: util.func private @bare_with_attributes() -> (index, i64) attributes {a.b}
util.func private @bare_with_attributes() -> index, i64 attributes {a.b}

// -----

// CHECK-LABEL: util.func public @helpers
util.func public @helpers(%arg0: !stream.resource<*>, %arg1: index) -> !hal.fence {
  // CHECK: %[[B:.+]]:2 = util.optimization_barrier %arg0, %arg1 : !stream.resource<*>, index
  %0:2 = util.optimization_barrier %arg0, %arg1 : !stream.resource<*>, index
  // CHECK: util.optimization_barrier {some.attr} %[[B]]#1 : index
  %1 = util.optimization_barrier {some.attr} %0#1 : index
  // CHECK: %[[N:.+]] = util.null : !hal.fence
  %2 = util.null : !hal.fence
  // CHECK: util.unfoldable_constant 4 : index
  %3 = util.unfoldable_constant 4 : index
  // IREE prints two spaces before an attribute dictionary here.
  // CHECK: util.unfoldable_constant  {some.attr} 4 : i32
  %4 = util.unfoldable_constant {some.attr} 4 : i32
  // CHECK: util.unfoldable_constant @helpers : !util.buffer
  %5 = util.unfoldable_constant @helpers : !util.buffer
  // CHECK: util.return %[[N]] : !hal.fence
  util.return %2 : !hal.fence
}

// -----

// CHECK-LABEL: util.func public @assume
util.func public @assume(%arg0: index, %arg1: i32) -> index {
  // CHECK: util.assume.int %arg0<umin = 0, umax = 10> : index
  %0 = util.assume.int %arg0<umin = 0, umax = 10> : index
  // CHECK: util.assume.int %arg0[] : index
  %1 = util.assume.int %arg0[] : index
  // With several operands, one per line.
  //      CHECK: util.assume.int{{ $}}
  // CHECK-NEXT: {{^        }}%arg0[<umin = 0, umax = 10, udiv = 16>, <udiv = 4>], {{$}}
  // CHECK-NEXT: {{^        }}%arg1<umin = 1>{{$}}
  // CHECK-NEXT: {{^      }}: index, i32
  %2:2 = util.assume.int %arg0[<umax = 10, umin = 0, udiv = 16>, <udiv = 4>], %arg1<umin = 1> : index, i32
  util.return %0 : index
}

// -----

// CHECK: util.initializer {
util.initializer {
  // CHECK-NEXT: %[[C:.+]] = arith.constant 1 : index
  %c1 = arith.constant 1 : index
  // CHECK-NEXT: util.global.store %[[C]], @init : index
  util.global.store %c1, @init : index
  // CHECK-NEXT: util.return
  util.return
}
// CHECK: util.initializer attributes {some.attr} {
util.initializer attributes {some.attr} {
  util.return
}
util.global private mutable @init : index

// -----

// util.list.construct is kept as written; its values may be any type the element type can
// be cast from (variants take anything, objects take anything but numbers, tensors take
// tensors).
// CHECK-LABEL: util.func public @list_construct
util.func public @list_construct(%arg0: i32, %arg1: tensor<4xf32>, %arg2: !hal.buffer) {
  // CHECK-NEXT: %[[C:.+]] = arith.constant 0 : i64
  %c0_i64 = arith.constant 0 : i64
  // CHECK-NEXT: util.list.construct [%[[C]] : i64, %arg1 : tensor<4xf32>] : !util.list<?>
  %0 = util.list.construct [%c0_i64 : i64, %arg1 : tensor<4xf32>] : !util.list<?>
  // CHECK-NEXT: util.list.construct [%arg0 : i32, %arg0 : i32] {some.attr = 1 : i32} : !util.list<i32>
  %1 = util.list.construct [%arg0 : i32, %arg0 : i32] {some.attr = 1 : i32} : !util.list<i32>
  // CHECK-NEXT: util.list.construct [%arg1 : tensor<4xf32>] : !util.list<tensor<?xf32>>
  %2 = util.list.construct [%arg1 : tensor<4xf32>] : !util.list<tensor<?xf32>>
  // CHECK-NEXT: util.list.construct [%arg2 : !hal.buffer, %arg1 : tensor<4xf32>] : !util.list<!util.object>
  %3 = util.list.construct [%arg2 : !hal.buffer, %arg1 : tensor<4xf32>] : !util.list<!util.object>
  // CHECK-NEXT: util.list.construct [] : !util.list<i32>
  %4 = util.list.construct [] : !util.list<i32>
  util.return
}

// -----

// A util.func in the generic form with valid tied operands (-1 is untied) is kept as written;
// the util.return in it, an op streamopt declares, is read as one.
//      CHECK: "util.func"() <{function_type = (i32, tensor<4xi32>) -> (i32, tensor<4xi32>), sym_name = "tied_generic", sym_visibility = "public", tied_operands = [-1 : index, 1 : index]}> ({
// CHECK-NEXT: ^bb0(%arg0: i32, %arg1: tensor<4xi32>):
// CHECK-NEXT: util.return %arg0, %arg1 : i32, tensor<4xi32>
// CHECK-NEXT: }) : () -> ()
"util.func"() <{function_type = (i32, tensor<4xi32>) -> (i32, tensor<4xi32>), sym_name = "tied_generic", sym_visibility = "public", tied_operands = [-1 : index, 1 : index]}> ({
^bb0(%arg0: i32, %arg1: tensor<4xi32>):
  "util.return"(%arg0, %arg1) : (i32, tensor<4xi32>) -> ()
}) : () -> ()

// -----

// A util.optimization_barrier in the generic form whose results match its operands is read
// as one.
// CHECK-LABEL: util.func public @barrier_generic
util.func public @barrier_generic(%arg0: tensor<i32>, %arg1: i32) -> i32 {
  // CHECK-NEXT: %[[B:.+]]:2 = util.optimization_barrier %arg0, %arg1 : tensor<i32>, i32
  %0:2 = "util.optimization_barrier"(%arg0, %arg1) : (tensor<i32>, i32) -> (tensor<i32>, i32)
  // CHECK-NEXT: util.return %[[B]]#1 : i32
  util.return %0#1 : i32
}

// -----

// util.global.store.indirect and util.global.load.indirect are kept as written; a tensor
// may be accessed with any compatible shape.
util.global private mutable @indirect : tensor<4xf32>
// CHECK-LABEL: util.func public @global_indirect
util.func public @global_indirect(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  // CHECK-NEXT: %[[PTR:.+]] = util.global.address @indirect : !util.ptr<tensor<4xf32>>
  %ptr_indirect = util.global.address @indirect : !util.ptr<tensor<4xf32>>
  // CHECK-NEXT: util.global.store.indirect %arg0, %[[PTR]] {some.attr = 1 : i32} : tensor<?xf32> -> !util.ptr<tensor<4xf32>>
  util.global.store.indirect %arg0, %ptr_indirect {some.attr = 1 : i32} : tensor<?xf32> -> !util.ptr<tensor<4xf32>>
  // CHECK-NEXT: %[[V:.+]] = util.global.load.indirect immutable %[[PTR]] : !util.ptr<tensor<4xf32>> -> tensor<?xf32>
  %0 = util.global.load.indirect immutable %ptr_indirect : !util.ptr<tensor<4xf32>> -> tensor<?xf32>
  // CHECK-NEXT: util.return %[[V]] : tensor<?xf32>
  util.return %0 : tensor<?xf32>
}

// -----

// util.string.format is kept as written; escaped braces are not placeholders, and explicit
// ones may repeat an argument.
// CHECK-LABEL: util.func public @string_format
util.func public @string_format(%arg0: index, %arg1: i32) -> (!util.buffer, !util.buffer) {
  // CHECK-NEXT: %[[A:.+]] = util.string.format "{{.+}} is {}"(%arg0, %arg1) : (index, i32) -> !util.buffer
  %NisN = util.string.format "{{{}}} is {}"(%arg0, %arg1) : (index, i32) -> !util.buffer
  // CHECK-NEXT: %[[B:.+]] = util.string.format "{1}{1}{0}"(%arg0, %arg1) : (index, i32) -> !util.buffer
  %NNN = util.string.format "{1}{1}{0}"(%arg0, %arg1) : (index, i32) -> !util.buffer
  // CHECK-NEXT: util.return %[[A]], %[[B]] : !util.buffer, !util.buffer
  util.return %NisN, %NNN : !util.buffer, !util.buffer
}

// -----

// Attributes other than util.buffer.alloc's inherent `alignment` may be in its dictionary.
// CHECK-LABEL: util.func public @buffer_alloc
util.func public @buffer_alloc(%arg0: index) -> !util.buffer {
  // CHECK-NEXT: %[[B:.+]] = util.buffer.alloc uninitialized {some.attr = {alignment = 16 : index}} : !util.buffer{%arg0}
  %buffer = util.buffer.alloc uninitialized {some.attr = {alignment = 16 : index}} : !util.buffer{%arg0}
  // CHECK-NEXT: util.return %[[B]] : !util.buffer
  util.return %buffer : !util.buffer
}

// -----

// In a func.func (kept as written) the arguments are names the function's own text defines:
// they still count as util.string.format's arguments. A location after a kept op's type is
// not part of the type.
// CHECK-LABEL: func.func @kept_checks_in_kept_function
func.func @kept_checks_in_kept_function(%arg0: index, %arg1: !util.ptr<!hal.buffer>) {
  // CHECK-NEXT: util.string.format "{} {}"(%arg0, %arg0) : (index, index) -> !util.buffer
  %0 = util.string.format "{} {}"(%arg0, %arg0) : (index, index) -> !util.buffer
  // CHECK-NEXT: util.global.load.indirect %arg1 : !util.ptr<!hal.buffer> -> !hal.buffer loc("a.mlir":1:2)
  // NOLOC-LABEL: func.func @kept_checks_in_kept_function
  // NOLOC: util.global.load.indirect %arg1 : !util.ptr<!hal.buffer> -> !hal.buffer{{$}}
  %1 = util.global.load.indirect %arg1 : !util.ptr<!hal.buffer> -> !hal.buffer loc("a.mlir":1:2)
  return
}

// -----

// A symbol name that is not a bare identifier is quoted, and read back as the same name.
// CHECK-LABEL: util.func public @"quoted-name"()
// CHECK-NEXT: util.call @"quoted-name"() : () -> ()
util.func public @"quoted-name"() {
  util.call @"quoted-name"() : () -> ()
  util.return
}
