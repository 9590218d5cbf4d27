// Ops added through the declarative layer (docs/adding-an-op.md), each one definition: they
// print as iree-opt prints them.
//
// RUN: streamopt %s > %t.streamopt
// RUN: filecheck %s --input-file %t.streamopt
// RUN: iree-opt %s > %t.iree
// RUN: diff %t.iree %t.streamopt

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
