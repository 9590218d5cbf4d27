// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s

// CHECK-LABEL: util.func public @queue
util.func public @queue(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %buffer: !hal.buffer, %size: index, %types: i32, %usage: i32, %cmd: !hal.command_buffer) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  %c255_i32 = arith.constant 255 : i32
  // IREE names queue allocations `%transient_buffer`. Empty flags print quoted, one flag bare.
  // CHECK: %transient_buffer = hal.device.queue.alloca<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg3) pool(%c0_i64) type(%arg6) usage(%arg7) flags("None") : !hal.buffer{%arg5}
  %0 = hal.device.queue.alloca<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) pool(%c0_i64) type(%types) usage(%usage) flags("None") : !hal.buffer{%size}
  // CHECK: %transient_buffer_0 = hal.device.queue.alloca<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg3) pool(%c0_i64) type(%arg6) usage(%arg7) flags(IndeterminateLifetime) : !hal.buffer{%arg5} attributes {some.attr}
  %1 = hal.device.queue.alloca<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) pool(%c0_i64) type(%types) usage(%usage) flags("IndeterminateLifetime") : !hal.buffer{%size} attributes {some.attr}
  // CHECK: hal.device.queue.copy<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg3) source(%arg4 : !hal.buffer)[%c0] target(%transient_buffer : !hal.buffer)[%c0] length(%arg5) flags("None")
  hal.device.queue.copy<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%buffer : !hal.buffer)[%c0] target(%0 : !hal.buffer)[%c0] length(%size) flags("None")
  // CHECK: hal.device.queue.fill<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg3) target(%transient_buffer : !hal.buffer)[%c0] length(%arg5) pattern(%c255_i32 : i32) flags("None")
  hal.device.queue.fill<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) target(%0 : !hal.buffer)[%c0] length(%size) pattern(%c255_i32 : i32) flags("None")
  // CHECK: hal.device.queue.execute<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg3) commands(%arg8) flags("None")
  hal.device.queue.execute<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) commands(%cmd) flags("None")
  // One binding per line: `, ` (with its trailing space) ends every line but the last.
  // CHECK:      {{^}}    hal.device.queue.execute.indirect<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg3) commands(%arg8) bindings([{{$}}
  // CHECK-NEXT: {{^}}      (%arg4 : !hal.buffer)[%c0, %arg5], {{$}}
  // CHECK-NEXT: {{^}}      (%transient_buffer : !hal.buffer)[%c0, %arg5]{{$}}
  // CHECK-NEXT: {{^}}    ]) flags("None"){{$}}
  hal.device.queue.execute.indirect<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) commands(%cmd) bindings([
    (%buffer : !hal.buffer)[%c0, %size],
    (%0 : !hal.buffer)[%c0, %size]
  ]) flags("None")
  // CHECK: hal.device.queue.barrier<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg3) flags("None") attributes {some.attr}
  hal.device.queue.barrier<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) flags("None") attributes {some.attr}
  // CHECK: hal.device.queue.dealloca<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg3) buffer(%transient_buffer_0 : !hal.buffer) flags(PreferOrigin)
  hal.device.queue.dealloca<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) buffer(%1 : !hal.buffer) flags("PreferOrigin")
  // CHECK: hal.device.queue.dealloca<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg3) buffer(%arg4 : !hal.buffer) flags("None")
  hal.device.queue.dealloca<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) buffer(%buffer : !hal.buffer) flags(None)
  util.return %0 : !hal.buffer
}

// -----

// CHECK-LABEL: util.func public @fences
util.func public @fences(%device: !hal.device, %a: !hal.fence, %b: !hal.fence) -> i32 {
  %c-1_i32 = arith.constant -1 : i32
  // CHECK: %fence = hal.fence.create device(%arg0 : !hal.device) flags("None") : !hal.fence
  %0 = hal.fence.create device(%device : !hal.device) flags("None") : !hal.fence
  // CHECK: %fence_0 = hal.fence.join at([%arg1, %fence]) flags("None") -> !hal.fence
  %1 = hal.fence.join at([%a, %0]) flags("None") -> !hal.fence
  // CHECK: %status = hal.fence.await until([%fence_0, %arg2]) timeout_millis(%c-1_i32) flags("None") : i32
  %2 = hal.fence.await until([%1, %b]) timeout_millis(%c-1_i32) flags("None") : i32
  // CHECK: %status_1 = hal.fence.await until([%fence_0]) timeout_millis(%c-1_i32) flags("None") : i32 attributes {some.attr}
  %3 = hal.fence.await until([%1]) timeout_millis(%c-1_i32) flags("None") : i32 attributes {some.attr}
  util.return %2 : i32
}

// -----

util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device

// CHECK-LABEL: util.func public @devices
util.func public @devices(%a: !hal.device, %b: !hal.device, %n: index) -> (!hal.device, i64) {
  %c0 = arith.constant 0 : index
  %c-1_i64 = arith.constant -1 : i64
  // CHECK: %memory_types, %buffer_usage = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@dev_a>, #hal.device.affinity<@dev_b>]>) lifetime(transient) : i32, i32
  %0:2 = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<@dev_a>, #hal.device.affinity<@dev_b>]>) lifetime(transient) : i32, i32
  // CHECK: %memory_types_0, %buffer_usage_1 = hal.allocator.resolve_memory_properties lifetime(external) : i32, i32
  %1:2 = hal.allocator.resolve_memory_properties lifetime(external) : i32, i32
  // One candidate per line, indented two more than the op.
  // CHECK:      {{^}}    %device, %queue_affinity = hal.allocator.select from([{{$}}
  // CHECK-NEXT: {{^}}      (%arg0, %c-1_i64 : !hal.device, i64),{{$}}
  // CHECK-NEXT: {{^}}      (%arg1, %c-1_i64 : !hal.device, i64){{$}}
  // CHECK-NEXT: {{^}}    ]) type(%memory_types) usage(%buffer_usage) : !hal.device, i64{{$}}
  %2:2 = hal.allocator.select from([
    (%a, %c-1_i64 : !hal.device, i64),
    (%b, %c-1_i64 : !hal.device, i64)
  ]) type(%0#0) usage(%0#1) : !hal.device, i64
  // CHECK: %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
  %3 = hal.device.allocator<%2#0 : !hal.device> : !hal.allocator
  // CHECK: %device_2, %queue_affinity_3 = hal.device.resolve on(#hal.device.affinity<@dev_a>) : !hal.device, i64
  %4:2 = hal.device.resolve on(#hal.device.affinity<@dev_a>) : !hal.device, i64
  // CHECK: %device_4, %allocator_5, %queue_affinity_6 = hal.device.resolve : !hal.device, !hal.allocator, i64
  %5:3 = hal.device.resolve : !hal.device, !hal.allocator, i64
  // CHECK: %device_count = hal.devices.count : index
  %6 = hal.devices.count : index
  // A constant ordinal names the device after it.
  // CHECK: %device_0 = hal.devices.get %c0 : !hal.device
  %7 = hal.devices.get %c0 : !hal.device
  // CHECK: %device_n = hal.devices.get %arg2 : !hal.device
  %8 = hal.devices.get %n : !hal.device
  util.return %2#0, %2#1 : !hal.device, i64
}

// -----

// CHECK-LABEL: util.func public @buffer_views
util.func public @buffer_views(%view: !hal.buffer_view, %buffer: !hal.buffer, %allocator: !hal.allocator, %n: index) -> !hal.buffer_view {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // CHECK: %element_type_f32 = hal.element_type<f32> : i32
  %0 = hal.element_type<f32> : i32
  // CHECK: %element_type_i8 = hal.element_type<i8> : i32
  %1 = hal.element_type<i8> : i32
  // CHECK: %dense_row_major = hal.encoding_type<dense_row_major> : i32
  %2 = hal.encoding_type<dense_row_major> : i32
  // CHECK: hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c4, %arg3]) type(%element_type_f32) encoding(%dense_row_major)
  hal.buffer_view.assert<%view : !hal.buffer_view> message("input0") shape([%c4, %n]) type(%0) encoding(%2)
  // CHECK: hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("scalar") shape([]) type(%element_type_i8) encoding(%dense_row_major)
  hal.buffer_view.assert<%view : !hal.buffer_view> message("scalar") shape([]) type(%1) encoding(%2)
  // CHECK: %buffer = hal.buffer_view.buffer<%arg0 : !hal.buffer_view> : !hal.buffer
  %3 = hal.buffer_view.buffer<%view : !hal.buffer_view> : !hal.buffer
  // Memory types and usages print as MLIR spells bit enums: every case whose bits are set.
  // CHECK: hal.buffer.assert<%buffer : !hal.buffer> message("tensor") allocator(%arg2 : !hal.allocator) minimum_length(%arg3) type(DeviceVisible) usage("TransferSource|TransferTarget|Transfer|DispatchStorageRead|DispatchStorageWrite|DispatchStorage")
  hal.buffer.assert<%3 : !hal.buffer> message("tensor") allocator(%allocator : !hal.allocator) minimum_length(%n) type(DeviceVisible) usage("Transfer|DispatchStorage")
  // CHECK: %view = hal.buffer_view.create buffer(%buffer : !hal.buffer)[%c0, %arg3] shape([%c4]) type(%element_type_f32) encoding(%dense_row_major) : !hal.buffer_view
  %4 = hal.buffer_view.create buffer(%3 : !hal.buffer)[%c0, %n] shape([%c4]) type(%0) encoding(%2) : !hal.buffer_view
  util.return %4 : !hal.buffer_view
}

// -----

// CHECK-LABEL: util.func public @buffer_view_dims
util.func public @buffer_view_dims(%view: !hal.buffer_view) -> (index, index, index) {
  // CHECK: [[D0:%.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %0 = hal.buffer_view.dim<%view : !hal.buffer_view>[0] : index
  // iree-opt prints the index in decimal, and takes a negative one (the verifier does not
  // look at it).
  // CHECK: [[D1:%.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[2] : index
  %1 = hal.buffer_view.dim<%view : !hal.buffer_view>[0x2] : index
  // CHECK: [[D2:%.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[-1] : index attributes {note = "x"}
  %2 = hal.buffer_view.dim<%view : !hal.buffer_view>[-1] : index attributes {note = "x"}
  // CHECK: util.return [[D0]], [[D1]], [[D2]] : index, index, index
  util.return %0, %1, %2 : index, index, index
}

// -----

// CHECK-LABEL: util.func public @command_buffers
util.func public @command_buffers(%device: !hal.device, %affinity: i64, %buffer: !hal.buffer, %exe: !hal.executable, %ordinal: i64, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7_i32 = arith.constant 7 : i32
  // Bit-enum cases print in IREE's declaration order, whatever the input order.
  // CHECK: %cmd = hal.command_buffer.create device(%arg0 : !hal.device) mode("OneShot|AllowInlineExecution") categories("Transfer|Dispatch") affinity(%arg1) : !hal.command_buffer
  %0 = hal.command_buffer.create device(%device : !hal.device) mode("AllowInlineExecution|OneShot") categories("Dispatch|Transfer") affinity(%affinity) : !hal.command_buffer
  // CHECK: %cmd_0 = hal.command_buffer.create device(%arg0 : !hal.device) mode("None") categories(Dispatch) affinity(%arg1) bindings(%c2) : !hal.command_buffer
  %1 = hal.command_buffer.create device(%device : !hal.device) mode("None") categories(Dispatch) affinity(%affinity) bindings(%c2) : !hal.command_buffer
  // CHECK: hal.command_buffer.device<%cmd_0 : !hal.command_buffer> : !hal.device
  %2 = hal.command_buffer.device<%1 : !hal.command_buffer> : !hal.device
  // CHECK: hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%arg2 : !hal.buffer)[%c0, %arg5] pattern(%c7_i32 : i32) flags("None")
  hal.command_buffer.fill_buffer<%0 : !hal.command_buffer> target(%buffer : !hal.buffer)[%c0, %n] pattern(%c7_i32 : i32) flags("None")
  // CHECK: hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("Dispatch|Transfer|CommandRetire") target("CommandIssue|Dispatch|Transfer") flags("None")
  hal.command_buffer.execution_barrier<%0 : !hal.command_buffer> source("Dispatch|Transfer|CommandRetire") target("CommandIssue|Dispatch|Transfer") flags("None")
  // CHECK: hal.command_buffer.copy_buffer<%cmd : !hal.command_buffer> source(%arg2 : !hal.buffer)[%c0] target(%arg2 : !hal.buffer)[%arg5] length(%arg5) flags("None")
  hal.command_buffer.copy_buffer<%0 : !hal.command_buffer> source(%buffer : !hal.buffer)[%c0] target(%buffer : !hal.buffer)[%n] length(%n) flags("None")
  // Binding-table slots (`index`) stand in for buffers in reusable command buffers.
  // CHECK: hal.command_buffer.copy_buffer<%cmd_0 : !hal.command_buffer> source(%c0 : index)[%c0] target(%c1 : index)[%c0] length(%arg5) flags("None")
  hal.command_buffer.copy_buffer<%1 : !hal.command_buffer> source(%c0 : index)[%c0] target(%c1 : index)[%c0] length(%n) flags("None")
  // CHECK:      hal.command_buffer.dispatch<%cmd : !hal.command_buffer> target(%arg3 : !hal.executable)[%arg4] workgroups([%c1, %c1, %c1]) constants([%c7_i32, %c7_i32]) bindings([{{$}}
  // CHECK-NEXT:   (%arg2 : !hal.buffer)[%c0, %arg5]{{$}}
  // CHECK-NEXT: ]) flags("None")
  hal.command_buffer.dispatch<%0 : !hal.command_buffer> target(%exe : !hal.executable)[%ordinal] workgroups([%c1, %c1, %c1]) constants([%c7_i32, %c7_i32]) bindings([
    (%buffer : !hal.buffer)[%c0, %n]
  ]) flags("None")
  // CHECK:      hal.command_buffer.dispatch<%cmd_0 : !hal.command_buffer> target(%arg3 : !hal.executable)[%arg4] workgroups([%c1, %c2, %c1]) bindings([{{$}}
  // CHECK-NEXT:   (%c0 : index)[%c0, %arg5], {{$}}
  // CHECK-NEXT:   (%c1 : index)[%c0, %arg5]{{$}}
  // CHECK-NEXT: ]) flags("None")
  hal.command_buffer.dispatch<%1 : !hal.command_buffer> target(%exe : !hal.executable)[%ordinal] workgroups([%c1, %c2, %c1]) bindings([
    (%c0 : index)[%c0, %n],
    (%c1 : index)[%c0, %n]
  ]) flags("None")
  // CHECK: hal.command_buffer.finalize<%cmd : !hal.command_buffer>
  hal.command_buffer.finalize<%0 : !hal.command_buffer>
  util.return
}

// -----

// hal.interface.binding.subspan in host code is kept as written; a static shape needs no
// dimension values, and a type that is not shaped is not checked.
// The alias on one line, as iree-opt prints it (cmd-hal-roundtrip.mlir compares the prints).
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>]>
// CHECK-LABEL: func.func @subspans
func.func @subspans(%arg0: index) {
  %c8 = arith.constant 8 : index
  // CHECK: hal.interface.binding.subspan layout(#pipeline_layout) binding(0) offset(%c8) : memref<?x4x?x16xi8>{%arg0, %arg0}
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) offset(%c8) : memref<?x4x?x16xi8>{%arg0, %arg0}
  // CHECK-NEXT: hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(16) offset(%c8) flags(ReadOnly) : memref<4x16xi8>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(16) offset(%c8) flags(ReadOnly) : memref<4x16xi8>
  // CHECK-NEXT: hal.interface.binding.subspan layout(#pipeline_layout) binding(0) {some.attr} : !hal.buffer
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) {some.attr} : !hal.buffer
  return
}
