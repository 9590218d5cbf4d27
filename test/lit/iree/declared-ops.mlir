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

// The util buffer ops (`type($x) `` `{` $size `}``, custom<Properties> for the alignment),
// util.string.itoa and the other util list ops (custom<ListTypeGet>, custom<ListTypeSet>):
// declared, their effects not modelled. The unnamed results get iree-opt's names
// (`%buffer`, `%buffer_span`, `%buffer_storage`, `%itoa`, ...).
// CHECK-LABEL: util.func public @buffers_and_lists
util.func public @buffers_and_lists(%arg0: index, %arg1: i32, %arg2: !util.list<?>) -> (i1, i64, i32) {
  // CHECK: %buffer = util.buffer.alloc uninitialized : !util.buffer{%arg0}
  %0 = util.buffer.alloc uninitialized : !util.buffer{%arg0}
  // CHECK: %buffer_0 = util.buffer.alloc uninitialized <alignment = 16> {note = "kept"} : !util.buffer{%arg0}
  %1 = util.buffer.alloc uninitialized <alignment = 16> {note = "kept"} : !util.buffer{%arg0}
  // CHECK: %buffer_1 = util.buffer.slice %buffer[%arg0] <alignment = 8> : !util.buffer{%arg0} -> !util.buffer{%arg0}
  %2 = util.buffer.slice %0[%arg0] <alignment = 8> : !util.buffer{%arg0} -> !util.buffer{%arg0}
  // CHECK: %buffer_span = util.buffer.subspan %buffer[%arg0] : !util.buffer{%arg0} -> !util.buffer{%arg0}
  %3 = util.buffer.subspan %0[%arg0] : !util.buffer{%arg0} -> !util.buffer{%arg0}
  // CHECK: %buffer_size = util.buffer.size %buffer_span : !util.buffer
  %4 = util.buffer.size %3 : !util.buffer
  // CHECK: %buffer_storage, %buffer_offset = util.buffer.storage %buffer : !util.buffer{%arg0} -> (memref<?xi8>, index)
  %5:2 = util.buffer.storage %0 : !util.buffer{%arg0} -> (memref<?xi8>, index)
  // CHECK: util.buffer.copy %buffer[%arg0], %buffer_1[%buffer_offset], %buffer_size : !util.buffer{%arg0} -> !util.buffer{%arg0}
  util.buffer.copy %0[%arg0], %2[%5#1], %4 : !util.buffer{%arg0} -> !util.buffer{%arg0}
  // CHECK: %0 = util.buffer.compare %buffer[%arg0], %buffer_1[%arg0], %arg0 : !util.buffer{%arg0}, !util.buffer{%arg0}
  %6 = util.buffer.compare %0[%arg0], %2[%arg0], %arg0 : !util.buffer{%arg0}, !util.buffer{%arg0}
  // CHECK: util.buffer.fill %arg1, %buffer[%arg0 for %arg0] : i32 -> !util.buffer{%arg0}
  util.buffer.fill %arg1, %0[%arg0 for %arg0] : i32 -> !util.buffer{%arg0}
  // CHECK: %1 = util.buffer.load %buffer[%arg0 for %arg0] : !util.buffer{%arg0} -> i32
  %7 = util.buffer.load %0[%arg0 for %arg0] : !util.buffer{%arg0} -> i32
  // CHECK: util.buffer.store %1, %buffer[%arg0 for %arg0] : i32 -> !util.buffer{%arg0} attributes {note = "kept"}
  util.buffer.store %7, %0[%arg0 for %arg0] : i32 -> !util.buffer{%arg0} attributes {note = "kept"}
  // CHECK: %2 = util.buffer.hash %buffer[%arg0 for %arg0] : !util.buffer{%arg0} -> i64
  %8 = util.buffer.hash %0[%arg0 for %arg0] : !util.buffer{%arg0} -> i64
  // CHECK: util.buffer.dealloc %buffer : !util.buffer{%arg0}
  util.buffer.dealloc %0 : !util.buffer{%arg0}
  // CHECK: %itoa = util.string.itoa %arg1 : i32 -> !util.buffer
  %9 = util.string.itoa %arg1 : i32 -> !util.buffer
  // CHECK: %3 = util.list.create %arg0 : !util.list<i32>
  %10 = util.list.create %arg0 : !util.list<i32>
  // CHECK: %4 = util.list.create : !util.list<?>
  %11 = util.list.create : !util.list<?>
  // CHECK: %5 = util.list.size %3 : !util.list<i32>
  %12 = util.list.size %10 : !util.list<i32>
  // CHECK: util.list.resize %3, %5 : !util.list<i32>
  util.list.resize %10, %12 : !util.list<i32>
  // CHECK: %6 = util.list.get %3[%arg0] : !util.list<i32>
  %13 = util.list.get %10[%arg0] : !util.list<i32>
  // CHECK: %7 = util.list.get %arg2[%arg0] : !util.list<?> -> i32
  %14 = util.list.get %arg2[%arg0] : !util.list<?> -> i32
  // CHECK: %8 = util.list.get %arg2[%arg0] : !util.list<?>
  %15 = util.list.get %arg2[%arg0] : !util.list<?> -> !util.variant
  // CHECK: util.list.set %3[%arg0], %arg1 : !util.list<i32>
  util.list.set %10[%arg0], %arg1 : !util.list<i32>
  // CHECK: util.list.set %arg2[%arg0], %itoa : !util.buffer -> !util.list<?>
  util.list.set %arg2[%arg0], %9 : !util.buffer -> !util.list<?>
  // CHECK: util.list.set %4[%arg0], %arg1 {note = "kept"} : i32 -> !util.list<?>
  util.list.set %11[%arg0], %arg1 {note = "kept"} : i32 -> !util.list<?>
  util.return %6, %8, %14 : i1, i64, i32
}

// hal ops declared with their effects not modelled: buffer allocations, buffer view queries,
// channels, device queries, the queue's update, write and flush, and command buffer debug
// groups and updates. The unnamed results get iree-opt's names (`%was_terminal`,
// `%channel`, `%ccl_rank`, `%ok`, ...).
// CHECK-LABEL: util.func public @hal_ops
util.func public @hal_ops(%arg0: !hal.device, %arg1: !hal.buffer, %arg2: !hal.buffer_view, %arg3: !hal.command_buffer, %arg4: !hal.fence, %arg5: !hal.fence, %arg6: !util.buffer, %arg7: !hal.file, %arg8: i32, %arg9: index, %arg10: i64, %arg11: !hal.channel) -> (i1, i1, i32, i32, !hal.channel, i32, i32, !hal.channel, i1, i32) {
  // CHECK: %was_terminal = hal.buffer.allocation.discard<%arg1 : !hal.buffer> : i1
  %0 = hal.buffer.allocation.discard<%arg1 : !hal.buffer> : i1
  // CHECK: %is_terminal = hal.buffer.allocation.is_terminal<%arg1 : !hal.buffer> : i1
  %1 = hal.buffer.allocation.is_terminal<%arg1 : !hal.buffer> : i1
  // CHECK: hal.buffer.allocation.preserve<%arg1 : !hal.buffer> attributes {note = "kept"}
  hal.buffer.allocation.preserve<%arg1 : !hal.buffer> attributes {note = "kept"}
  // CHECK: %0 = hal.buffer_view.element_type<%arg2 : !hal.buffer_view> : i32
  %2 = hal.buffer_view.element_type<%arg2 : !hal.buffer_view> : i32
  // CHECK: %1 = hal.buffer_view.encoding_type<%arg2 : !hal.buffer_view> : i32
  %3 = hal.buffer_view.encoding_type<%arg2 : !hal.buffer_view> : i32
  // CHECK: hal.buffer_view.trace "key" = %arg2, %arg2 : !hal.buffer_view, !hal.buffer_view
  hal.buffer_view.trace "key" = %arg2, %arg2 : !hal.buffer_view, !hal.buffer_view
  // CHECK: %channel = hal.channel.create device(%arg0 : !hal.device) affinity(%arg10) flags("None") id(%arg6) group(%arg6) rank(%arg8) count(%arg8) : !hal.channel
  %4 = hal.channel.create device(%arg0 : !hal.device) affinity(%arg10) flags("None") id(%arg6) group(%arg6) rank(%arg8) count(%arg8) : !hal.channel
  // CHECK: %ccl_rank, %ccl_count = hal.channel.rank_and_count<%arg11 : !hal.channel> : i32, i32
  %5:2 = hal.channel.rank_and_count<%arg11 : !hal.channel> : i32, i32
  // CHECK: %channel_0 = hal.channel.split<%arg11 : !hal.channel> color(%ccl_rank) key(%arg8) flags("None") : !hal.channel
  %6 = hal.channel.split<%arg11 : !hal.channel> color(%5#0) key(%arg8) flags("None") : !hal.channel
  // CHECK: hal.command_buffer.begin_debug_group<%arg3 : !hal.command_buffer> label("x")
  hal.command_buffer.begin_debug_group<%arg3 : !hal.command_buffer> label("x")
  // CHECK: hal.command_buffer.update_buffer<%arg3 : !hal.command_buffer> source(%arg6 : !util.buffer{%arg9})[%arg9] target(%arg1 : !hal.buffer)[%arg9] length(%arg9) flags("None")
  hal.command_buffer.update_buffer<%arg3 : !hal.command_buffer> source(%arg6 : !util.buffer{%arg9})[%arg9] target(%arg1 : !hal.buffer)[%arg9] length(%arg9) flags("None")
  // CHECK: hal.command_buffer.update_buffer<%arg3 : !hal.command_buffer> source(%arg6 : !util.buffer{%arg9})[%arg9] target(%arg9 : index)[%arg9] length(%arg9) flags("None")
  hal.command_buffer.update_buffer<%arg3 : !hal.command_buffer> source(%arg6 : !util.buffer{%arg9})[%arg9] target(%arg9 : index)[%arg9] length(%arg9) flags("None")
  // CHECK: hal.command_buffer.end_debug_group<%arg3 : !hal.command_buffer>
  hal.command_buffer.end_debug_group<%arg3 : !hal.command_buffer>
  // CHECK: hal.device.queue.flush<%arg0 : !hal.device> affinity(%arg10)
  hal.device.queue.flush<%arg0 : !hal.device> affinity(%arg10)
  // CHECK: hal.device.queue.update<%arg0 : !hal.device> affinity(%arg10) wait(%arg4) signal(%arg5) source(%arg6 : !util.buffer)[%arg9] target(%arg1 : !hal.buffer)[%arg9] length(%arg9) flags("None")
  hal.device.queue.update<%arg0 : !hal.device> affinity(%arg10) wait(%arg4) signal(%arg5) source(%arg6 : !util.buffer)[%arg9] target(%arg1 : !hal.buffer)[%arg9] length(%arg9) flags("None")
  // CHECK: hal.device.queue.write<%arg0 : !hal.device> affinity(%arg10) wait(%arg4) signal(%arg5) source(%arg1 : !hal.buffer)[%arg9] target(%arg7 : !hal.file)[%arg10] length(%arg9) flags("None")
  hal.device.queue.write<%arg0 : !hal.device> affinity(%arg10) wait(%arg4) signal(%arg5) source(%arg1 : !hal.buffer)[%arg9] target(%arg7 : !hal.file)[%arg10] length(%arg9) flags("None")
  // CHECK: %ok, %value = hal.device.query<%arg0 : !hal.device> key("hal.device.id" :: "local*") : i1, i1 = false
  %7:2 = hal.device.query<%arg0 : !hal.device> key("hal.device.id" :: "local*") : i1, i1 = false
  // CHECK: %ok_1, %value_2 = hal.device.query<%arg0 : !hal.device> key("a" :: "b") : i1, i32
  %8:2 = hal.device.query<%arg0 : !hal.device> key("a" :: "b") : i1, i32
  util.return %0, %1, %2, %3, %4, %5#0, %5#1, %6, %7#1, %8#1 : i1, i1, i32, i32, !hal.channel, i32, i32, !hal.channel, i1, i32
}

// stream ops declared with their effects not modelled: fence import and export, resource
// ownership, transients, files written, collective channels and the device context. The
// unnamed results get iree-opt's names (`%is_terminal`, `%channel`, `%ccl_rank`, `%result`).
util.global private @dev : !hal.device
// CHECK-LABEL: util.func public @stream_ops
util.func public @stream_ops(%arg0: !stream.resource<external>, %arg1: !stream.resource<transient>, %arg2: index, %arg3: !stream.timepoint, %arg4: !hal.fence, %arg5: !util.buffer, %arg6: !stream.file, %arg7: i64, %arg8: !stream.channel) -> (!hal.fence, !stream.timepoint, i1, i1, !hal.device, i64, !stream.channel, !stream.channel, index, index, !stream.timepoint, !stream.resource<transient>, !stream.timepoint) {
  // CHECK: %0 = stream.timepoint.export on(#hal.device.affinity<@dev>) %arg3 => (!hal.fence)
  %0 = stream.timepoint.export on(#hal.device.affinity<@dev>) %arg3 => (!hal.fence)
  // CHECK: %1 = stream.timepoint.import %arg4 : (!hal.fence) => !stream.timepoint
  %1 = stream.timepoint.import %arg4 : (!hal.fence) => !stream.timepoint
  // CHECK: %is_terminal = stream.resource.is_terminal %arg0 : !stream.resource<external>{%arg2}
  %2 = stream.resource.is_terminal %arg0 : !stream.resource<external>{%arg2}
  // CHECK: stream.resource.retain %arg0 {note = "kept"} : !stream.resource<external>{%arg2}
  stream.resource.retain %arg0 {note = "kept"} : !stream.resource<external>{%arg2}
  // CHECK: %is_terminal_0 = stream.resource.release %arg0 : !stream.resource<external>{%arg2}
  %3 = stream.resource.release %arg0 : !stream.resource<external>{%arg2}
  // CHECK: %2:2 = stream.context.resolve on(#hal.device.affinity<@dev>) : !hal.device, i64
  %4:2 = stream.context.resolve on(#hal.device.affinity<@dev>) : !hal.device, i64
  // CHECK: %channel = stream.channel.create on(#hal.device.affinity<@dev>) id(%arg5) group("g") rank(%arg2) count(%arg2) : !stream.channel
  %5 = stream.channel.create on(#hal.device.affinity<@dev>) id(%arg5) group("g") rank(%arg2) count(%arg2) : !stream.channel
  // CHECK: %channel_1 = stream.channel.create : !stream.channel
  %6 = stream.channel.create : !stream.channel
  // CHECK: %ccl_rank = stream.channel.rank %arg8 : index
  %7 = stream.channel.rank %arg8 : index
  // CHECK: %ccl_count = stream.channel.count %arg8 : index
  %8 = stream.channel.count %arg8 : index
  // CHECK: %channel_2 = stream.channel.split %arg8, %ccl_rank, %ccl_count : !stream.channel -> !stream.channel
  %9 = stream.channel.split %arg8, %7, %8 : !stream.channel -> !stream.channel
  // CHECK: %3 = stream.file.write on(#hal.device.affinity<@dev>) await(%1) => %arg0[%arg2], %arg6[%arg7], %arg2 : !stream.resource<external>{%arg2} -> !stream.file => !stream.timepoint
  %10 = stream.file.write on(#hal.device.affinity<@dev>) await(%1) => %arg0[%arg2], %arg6[%arg7], %arg2 : !stream.resource<external>{%arg2} -> !stream.file => !stream.timepoint
  // CHECK: %4 = stream.file.write : %arg0[%arg2], %arg6[%arg7], %arg2 : !stream.resource<external>{%arg2} -> !stream.file => !stream.timepoint
  %11 = stream.file.write : %arg0[%arg2], %arg6[%arg7], %arg2 : !stream.resource<external>{%arg2} -> !stream.file => !stream.timepoint
  // CHECK: %result, %result_timepoint = stream.resource.transients on(#hal.device.affinity<@dev>) await(%3) => %arg1 : !stream.resource<transient>{%arg2} from %arg0 : !stream.resource<external>{%arg2} => !stream.timepoint
  %12:2 = stream.resource.transients on(#hal.device.affinity<@dev>) await(%10) => %arg1 : !stream.resource<transient>{%arg2} from %arg0 : !stream.resource<external>{%arg2} => !stream.timepoint
  util.return %0, %1, %2, %3, %4#0, %4#1, %5, %9, %7, %8, %11, %12#0, %12#1 : !hal.fence, !stream.timepoint, i1, i1, !hal.device, i64, !stream.channel, !stream.channel, index, index, !stream.timepoint, !stream.resource<transient>, !stream.timepoint
}

// util type manipulation and arithmetic ops, declared with their effects not modelled. An
// operand the format gives no type of its own has the type of another (`util.align %a, %b :
// index`), as ODS infers it; the properties a format leaves out print as `<...>`.
// CHECK-LABEL: util.func public @casts_and_arithmetic
util.func public @casts_and_arithmetic(%arg0: i32, %arg1: i32, %arg2: index, %arg3: index, %arg4: !util.buffer, %arg5: f32) -> (i1, i1, index, i32, index, index, index, index, !util.object, f32, i32) {
  // CHECK: %0 = util.cmp.eq %arg0, %arg1 : i32
  %0 = util.cmp.eq %arg0, %arg1 : i32
  // CHECK: %1 = util.cmp.ne %arg4, %arg4 {note = "kept"} : !util.buffer
  %1 = util.cmp.ne %arg4, %arg4 {note = "kept"} : !util.buffer
  // CHECK: %2 = util.align %arg2, %arg3 : index
  %2 = util.align %arg2, %arg3 : index
  // CHECK: %3 = util.align %arg0, %arg1 : i32
  %3 = util.align %arg0, %arg1 : i32
  // CHECK: %4 = util.range.min %arg2, %arg3, %2 : index
  %4 = util.range.min %arg2, %arg3, %2 : index
  // CHECK: %5 = util.range.max %arg2 : index
  %5 = util.range.max %arg2 : index
  // CHECK: %6 = util.sizeof f32
  %6 = util.sizeof f32
  // CHECK: %7 = util.sizeof !util.buffer attributes {note = "kept"}
  %7 = util.sizeof !util.buffer attributes {note = "kept"}
  // CHECK: %8 = util.cast %arg4 : !util.buffer to !util.object
  %8 = util.cast %arg4 : !util.buffer to !util.object
  // CHECK: %9 = util.numeric.optional_narrow %arg5 : f32 as f16
  %9 = util.numeric.optional_narrow %arg5 : f32 as f16
  // CHECK: %10 = util.numeric.optional_narrow %arg0 : i32 as si8 <min_value = -1 : i8, max_value = 10 : i8>
  %10 = util.numeric.optional_narrow %arg0 : i32 as si8 <min_value = -1 : i8, max_value = 10 : i8>
  util.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i1, i1, index, i32, index, index, index, index, !util.object, f32, i32
}

// stream parameter loads, reads and writes (custom<ParameterReference>), declared with their
// effects not modelled; their results get iree-opt's names.
// CHECK-LABEL: util.func public @parameters
util.func public @parameters(%arg0: !util.buffer, %arg1: !util.buffer, %arg2: i64, %arg3: index, %arg4: !stream.resource<transient>, %arg5: !stream.timepoint) -> (!stream.resource<constant>, !stream.resource<constant>, !stream.resource<transient>, !stream.timepoint) {
  // CHECK: %result, %result_timepoint = stream.async.parameter.load %arg0::%arg1[%arg2] : !stream.resource<constant>{%arg3} => !stream.timepoint
  %0:2 = stream.async.parameter.load %arg0::%arg1[%arg2] : !stream.resource<constant>{%arg3} => !stream.timepoint
  // CHECK: %result_0, %result_timepoint_1 = stream.async.parameter.load on(#hal.device.affinity<@dev>) await(%arg5) %arg1[%arg2] : !stream.resource<constant>{%arg3} => !stream.timepoint
  %1:2 = stream.async.parameter.load on(#hal.device.affinity<@dev>) await(%arg5) %arg1[%arg2] : !stream.resource<constant>{%arg3} => !stream.timepoint
  // CHECK: %result_2, %result_timepoint_3 = stream.async.parameter.read %arg0::%arg1[%arg2] -> %arg4[%arg3 to %arg3 for %arg3] : !stream.resource<transient>{%arg3} => !stream.timepoint
  %2:2 = stream.async.parameter.read %arg0::%arg1[%arg2] -> %arg4[%arg3 to %arg3 for %arg3] : !stream.resource<transient>{%arg3} => !stream.timepoint
  // CHECK: %result_4, %result_timepoint_5 = stream.async.parameter.write await(%result_timepoint_3) %result_2[%arg3 to %arg3 for %arg3] -> %arg1[%arg2] : !stream.resource<transient>{%arg3} => !stream.timepoint
  %3:2 = stream.async.parameter.write await(%2#1) %2#0[%arg3 to %arg3 for %arg3] -> %arg1[%arg2] : !stream.resource<transient>{%arg3} => !stream.timepoint
  util.return %0#0, %1#0, %3#0, %3#1 : !stream.resource<constant>, !stream.resource<constant>, !stream.resource<transient>, !stream.timepoint
}

// The stream tensor ops IREE converts to async ops, declared with their effects not modelled;
// each encoding with its dynamic dimensions, as stream.tensor.dispatch's.
// CHECK-LABEL: util.func public @tensors
util.func public @tensors(%arg0: !stream.resource<*>, %arg1: !stream.resource<staging>, %arg2: index, %arg3: index, %arg4: f32) -> (!stream.resource<*>, !stream.resource<constant>, !stream.resource<*>, !stream.resource<*>, f32, !stream.resource<staging>) {
  // CHECK: %empty = stream.tensor.empty : tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2}
  %0 = stream.tensor.empty : tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2}
  // CHECK: %cst = stream.tensor.constant on(#hal.device.affinity<@dev>) : tensor<?xi32>{%arg3} in !stream.resource<constant> = dense<[1, 2]> : tensor<2xi32>
  %1 = stream.tensor.constant on(#hal.device.affinity<@dev>) : tensor<?xi32>{%arg3} in !stream.resource<constant> = dense<[1, 2]> : tensor<2xi32>
  // CHECK: %0 = stream.tensor.splat %arg4 : f32 -> tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2}
  %2 = stream.tensor.splat %arg4 : f32 -> tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2}
  // CHECK: %1 = stream.tensor.clone %0 : tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2} -> tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2}
  %3 = stream.tensor.clone %2 : tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2} -> tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2}
  // CHECK: %2 = stream.tensor.encode %arg0 : tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2} -> tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2}
  %4 = stream.tensor.encode %arg0 : tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2} -> tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2}
  // CHECK: %3 = stream.tensor.slice %arg0[%arg2, %arg2 for %arg2, %arg2] : tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2} -> tensor<2x2xf32> in !stream.resource<*>{%arg2}
  %5 = stream.tensor.slice %arg0[%arg2, %arg2 for %arg2, %arg2] : tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2} -> tensor<2x2xf32> in !stream.resource<*>{%arg2}
  // CHECK: %4 = stream.tensor.update %3, %arg0[%arg2, %arg2] : tensor<2x2xf32> in !stream.resource<*>{%arg2} -> tensor<?x4xf32>{%arg3} in %arg0 as !stream.resource<*>{%arg2}
  %6 = stream.tensor.update %5, %arg0[%arg2, %arg2] : tensor<2x2xf32> in !stream.resource<*>{%arg2} -> tensor<?x4xf32>{%arg3} in %arg0 as !stream.resource<*>{%arg2}
  // CHECK: %5 = stream.tensor.fill %arg4, %4[%arg2, %arg2 for %arg2, %arg2] : f32 -> tensor<?x4xf32>{%arg3} in %4 as !stream.resource<*>{%arg2}
  %7 = stream.tensor.fill %arg4, %6[%arg2, %arg2 for %arg2, %arg2] : f32 -> tensor<?x4xf32>{%arg3} in %6 as !stream.resource<*>{%arg2}
  // CHECK: %6 = stream.tensor.fill %arg4, %5 : f32 -> tensor<?x4xf32>{%arg3} in %5 as !stream.resource<*>{%arg2}
  %8 = stream.tensor.fill %arg4, %7 : f32 -> tensor<?x4xf32>{%arg3} in %7 as !stream.resource<*>{%arg2}
  // CHECK: %7 = stream.tensor.load %arg1[%arg2, %arg2] : tensor<?x4xf32>{%arg3} in !stream.resource<staging>{%arg2} -> f32
  %9 = stream.tensor.load %arg1[%arg2, %arg2] : tensor<?x4xf32>{%arg3} in !stream.resource<staging>{%arg2} -> f32
  // CHECK: %8 = stream.tensor.store %7, %arg1 : f32 -> tensor<f32> in %arg1 as !stream.resource<staging>{%arg2}
  %10 = stream.tensor.store %9, %arg1 : f32 -> tensor<f32> in %arg1 as !stream.resource<staging>{%arg2}
  util.return %0, %1, %4, %8, %9, %10 : !stream.resource<*>, !stream.resource<constant>, !stream.resource<*>, !stream.resource<*>, f32, !stream.resource<staging>
}
