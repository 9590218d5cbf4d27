// Round trip of the ops --lower-cmd-to-hal emits to upload constant data (IREE's
// `stream.resource.constants` lowering): host bytes, the import that tries to use them in place,
// and the allocate + file read fallback.
//
// RUN: streamopt --split-input-file %s | filecheck %s
// RUN: streamopt --split-input-file %s | streamopt --split-input-file | filecheck %s

// CHECK-LABEL: util.func public @host_bytes
util.func public @host_bytes() -> (!util.buffer, !util.buffer, !util.buffer) {
  // CHECK: %buffer_cst = util.buffer.constant <alignment = 64> : !util.buffer = #util.composite<64xi8, [dense<[1, 2, 3, 4]> : tensor<4xi32>, dense<0> : vector<48xi8>]>
  %0 = util.buffer.constant <alignment = 64> : !util.buffer = #util.composite<64xi8, [dense<[1, 2, 3, 4]> : tensor<4xi32>, dense<0> : vector<48xi8>]>
  // The generic form of the properties prints in the custom form.
  // CHECK: %buffer_cst_0 = util.buffer.constant <alignment = 16> : !util.buffer = dense<1> : tensor<4xi8>
  %1 = util.buffer.constant <{alignment = 16 : index}> : !util.buffer = dense<1> : tensor<4xi8>
  // A named buffer names its result.
  // CHECK: %my.data = util.buffer.constant "my.data" <alignment = 8, mime_type = "text/plain"> {some.attr} : !util.buffer = "hello"
  %2 = util.buffer.constant "my.data" <alignment = 8, mime_type = "text/plain"> {some.attr} : !util.buffer = "hello"
  // CHECK: util.return %buffer_cst, %buffer_cst_0, %my.data
  util.return %0, %1, %2 : !util.buffer, !util.buffer, !util.buffer
}

// -----

// CHECK-LABEL: util.func public @bits
util.func public @bits() -> (i32, i32, i32) {
  // DeviceLocal implies DeviceVisible, and MLIR spells out every case a value holds.
  // CHECK: %memory_type = hal.memory_type<"DeviceVisible|DeviceLocal"> : i32
  %0 = hal.memory_type<DeviceLocal> : i32
  // CHECK: %buffer_usage = hal.buffer_usage<"TransferSource|TransferTarget|Transfer|DispatchStorageRead|DispatchStorageWrite|DispatchStorage|SharingImmutable"> : i32
  %1 = hal.buffer_usage<"Transfer|DispatchStorage|SharingImmutable"> : i32
  // One case prints bare.
  // CHECK: %buffer_usage_0 = hal.buffer_usage<SharingImmutable> : i32
  %2 = hal.buffer_usage<SharingImmutable> : i32
  util.return %0, %1, %2 : i32, i32, i32
}

// -----

// CHECK-LABEL: util.func public @upload
util.func public @upload(%device: !hal.device, %bytes: !util.buffer, %wait: !hal.fence, %signal: !hal.fence, %type: i32, %usage: i32) -> (i1, !hal.buffer, !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c0_i64 = arith.constant 0 : i64
  %c64 = arith.constant 64 : index
  %c-1_i64 = arith.constant -1 : i64
  // CHECK: %[[ALLOCATOR:.+]] = hal.device.allocator<%arg0 : !hal.device> : !hal.allocator
  %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
  // CHECK: %did_import, %mapped = hal.allocator.import<%[[ALLOCATOR]] : !hal.allocator> source(%arg1 : !util.buffer)[%c0, %c64] affinity(%c-1_i64) type(%arg4) usage(%arg5) : i1, !hal.buffer
  %did_import, %mapped = hal.allocator.import<%allocator : !hal.allocator> source(%bytes : !util.buffer)[%c0, %c64] affinity(%c-1_i64) type(%type) usage(%usage) : i1, !hal.buffer
  // CHECK: %[[BUFFER:.+]] = hal.allocator.allocate<%[[ALLOCATOR]] : !hal.allocator> affinity(%c-1_i64) type(%arg4) usage(%arg5) : !hal.buffer{%c64}
  %buffer = hal.allocator.allocate<%allocator : !hal.allocator> affinity(%c-1_i64) type(%type) usage(%usage) : !hal.buffer{%c64}
  // CHECK: %[[FILE:.+]] = hal.ex.file.from_memory device(%arg0 : !hal.device) affinity(%c-1_i64) access(Read) buffer(%arg1 : !util.buffer)[%c0 for %c64] flags(%c0_i32) : !hal.file
  %file = hal.ex.file.from_memory device(%device : !hal.device) affinity(%c-1_i64) access(Read) buffer(%bytes : !util.buffer)[%c0 for %c64] flags(%c0_i32) : !hal.file
  // CHECK: hal.device.queue.read<%arg0 : !hal.device> affinity(%c-1_i64) wait(%arg2) signal(%arg3) source(%[[FILE]] : !hal.file)[%c0_i64] target(%[[BUFFER]] : !hal.buffer)[%c0] length(%c64) flags("None")
  hal.device.queue.read<%device : !hal.device> affinity(%c-1_i64) wait(%wait) signal(%signal) source(%file : !hal.file)[%c0_i64] target(%buffer : !hal.buffer)[%c0] length(%c64) flags("None")
  // CHECK: util.return %did_import, %mapped, %[[BUFFER]]
  util.return %did_import, %mapped, %buffer : i1, !hal.buffer, !hal.buffer
}
