// Ops added through the declarative layer (docs/adding-an-op.md), each one definition: they
// print as iree-opt prints them.
//
// RUN: streamopt %s > %t.streamopt
// RUN: filecheck %s --input-file %t.streamopt
// RUN: iree-opt %s > %t.iree
// RUN: diff %t.iree %t.streamopt

#encoding = #iree_encoding.testing<>

// CHECK-LABEL: util.func public @fences_and_views
util.func public @fences_and_views(%view: !hal.buffer_view, %fence: !hal.fence, %status: i32) -> (index, i32) {
  // CHECK: %[[RANK:.+]] = hal.buffer_view.rank<%arg0 : !hal.buffer_view> : index
  %0 = hal.buffer_view.rank<%view : !hal.buffer_view> : index
  // CHECK: %[[QUERY:.+]] = hal.fence.query<%arg1 : !hal.fence> : i32
  %1 = hal.fence.query<%fence : !hal.fence> : i32
  // CHECK: hal.fence.signal<%arg1 : !hal.fence>
  hal.fence.signal<%fence : !hal.fence>
  // CHECK: hal.fence.fail<%arg1 : !hal.fence> status(%arg2) attributes {note = "kept"}
  hal.fence.fail<%fence : !hal.fence> status(%status) attributes {note = "kept"}
  util.return %0, %1 : index, i32
}

// util.call (custom<OperandTypeList>, custom<TiedFunctionResultList>) and util.buffer.constant
// (custom<Properties>).
// CHECK: util.func private @callee(%arg0: !stream.resource<*>, %arg1: index) -> (%arg0, index, %arg0 as !stream.resource<transient>)
util.func private @callee(%arg0: !stream.resource<*>, %arg1: index) -> (%arg0, index, %arg0 as !stream.resource<transient>)
util.func private @none()
// CHECK-LABEL: util.func public @calls_and_buffers
util.func public @calls_and_buffers(%arg0: !stream.resource<*>, %arg1: index) -> !util.buffer {
  // CHECK: %0:3 = util.call @callee(%arg0, %arg1) {note = "kept"} : (!stream.resource<*>, index) -> (%arg0, index, %arg0 as !stream.resource<transient>)
  %0:3 = util.call @callee(%arg0, %arg1) {note = "kept"} : (!stream.resource<*>, index) -> (%arg0, index, %arg0 as !stream.resource<transient>)
  // CHECK: util.call @none() : () -> ()
  util.call @none() : () -> ()
  // CHECK: %buffer_cst = util.buffer.constant <alignment = 64, mime_type = "text/plain"> : !util.buffer = "hello"
  %buffer_cst = util.buffer.constant <alignment = 64, mime_type = "text/plain"> : !util.buffer = "hello"
  // CHECK: %data = util.buffer.constant "data" {note = "kept"} : !util.buffer = dense<[1, 2]> : tensor<2xi8>
  %data = util.buffer.constant "data" {note = "kept"} : !util.buffer = dense<[1, 2]> : tensor<2xi8>
  util.return %buffer_cst : !util.buffer
}

// stream.tensor.dispatch (custom<EncodedShapedFunctionType>): operands and results with and
// without encodings, results tied to an operand with its type or another, and none at all.
// CHECK-LABEL: util.func public @tensor_dispatches
util.func public @tensor_dispatches(%arg0: !stream.resource<*>, %arg1: index, %arg2: index, %arg3: !stream.resource<external>) -> (!stream.resource<transient>, !stream.resource<external>) {
  %c1 = arith.constant 1 : index
  // CHECK: %0:2 = stream.tensor.dispatch on(#hal.device.affinity<@dev>) @ex::@a[%c1, %arg2](%arg0, %arg2, %arg3) : (tensor<?x?xf32, #encoding>{%arg2, %c1} in !stream.resource<*>{%arg1}, index, !stream.resource<external>{%arg1}) -> (tensor<?x?xf32, #encoding>{%arg2, %c1} in %arg0 as !stream.resource<transient>{%arg1}, !stream.resource<external>{%arg1})
  %0:2 = stream.tensor.dispatch on(#hal.device.affinity<@dev>) @ex::@a[%c1, %arg2](%arg0, %arg2, %arg3) : (tensor<?x?xf32, #encoding>{%arg2, %c1} in !stream.resource<*>{%arg1}, index, !stream.resource<external>{%arg1}) -> (tensor<?x?xf32, #encoding>{%arg2, %c1} in %arg0 as !stream.resource<transient>{%arg1}, !stream.resource<external>{%arg1})
  // CHECK: stream.tensor.dispatch {@ex::@a, @ex::@b}() {note = "kept"} : () -> ()
  stream.tensor.dispatch {@ex::@a, @ex::@b}() {note = "kept"} : () -> ()
  // CHECK: %1 = stream.tensor.dispatch @ex::@a(%arg3) : (tensor<4xi8> in !stream.resource<external>{%arg1}) -> tensor<4xi8> in %arg3{%arg1}
  %1 = stream.tensor.dispatch @ex::@a(%arg3) : (tensor<4xi8> in !stream.resource<external>{%arg1}) -> tensor<4xi8> in %arg3{%arg1}
  util.return %0#0, %1 : !stream.resource<transient>, !stream.resource<external>
}

// util.global.address, util.global.load.indirect and util.global.store.indirect
// (`qualified(type($x))`), util.list.construct (custom<ValueTypeList>) and util.string.format
// (`functional-type($args, $result)`): their syntax and verifiers are declared, their effects
// are not modelled. The unnamed results get iree-opt's names (`%ptr_g`, `%blk_N_weight`).
util.global private mutable @g : i32
// CHECK-LABEL: util.func public @pointers_lists_and_strings
util.func public @pointers_lists_and_strings(%arg0: i32, %arg1: !util.buffer, %arg2: index) -> (i32, !util.list<?>, !util.buffer) {
  // CHECK: %ptr_g = util.global.address @g : !util.ptr<i32>
  %0 = util.global.address @g : !util.ptr<i32>
  // CHECK: %[[LOADED:.+]] = util.global.load.indirect immutable %ptr_g {note = "kept"} : !util.ptr<i32> -> i32
  %1 = util.global.load.indirect immutable %0 {note = "kept"} : !util.ptr<i32> -> i32
  // CHECK: util.global.store.indirect %arg0, %ptr_g : i32 -> !util.ptr<i32>
  util.global.store.indirect %arg0, %0 : i32 -> !util.ptr<i32>
  // CHECK: %[[LIST:.+]] = util.list.construct [%arg0 : i32, %arg1 : !util.buffer] : !util.list<?>
  %2 = util.list.construct [%arg0 : i32, %arg1 : !util.buffer] : !util.list<?>
  // CHECK: util.list.construct [] {note = "kept"} : !util.list<i32>
  %3 = util.list.construct [] {note = "kept"} : !util.list<i32>
  // CHECK: %blk_N_weight = util.string.format "blk.{}.weight"(%arg2) : (index) -> !util.buffer
  %4 = util.string.format "blk.{}.weight"(%arg2) : (index) -> !util.buffer
  // CHECK: %formatted = util.string.format "{{[{][{]}}}}"() : () -> !util.buffer
  %5 = util.string.format "{{}}"() : () -> !util.buffer
  // CHECK: %N_N = util.string.format "{1}-{0}"(%arg0, %arg1) : (i32, !util.buffer) -> !util.buffer
  %6 = util.string.format "{1}-{0}"(%arg0, %arg1) : (i32, !util.buffer) -> !util.buffer
  util.return %1, %2, %4 : i32, !util.list<?>, !util.buffer
}
