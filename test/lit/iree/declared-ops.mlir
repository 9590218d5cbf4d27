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
