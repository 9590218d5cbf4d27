// The ops --lower-cmd-to-hal emits to upload constant data print exactly as iree-opt prints
// them, and a module holding a multi-line `#util.composite` alias (as IREE prints one) prints
// back unchanged.
//
// RUN: streamopt --split-input-file %s > %t.streamopt
// RUN: iree-opt --split-input-file %s > %t.iree
// RUN: streamopt --split-input-file %t.iree | cmp - %t.iree
// RUN: diff %t.iree %t.streamopt

#composite_of_64b = #util.composite<64xi8, [
    dense<[1, 2, 3, 4]> : tensor<4xi32>,
    dense<0> : vector<48xi8>,
]>
util.func public @host_bytes() -> (!util.buffer, !util.buffer, !util.buffer) {
  %0 = util.buffer.constant <alignment = 64> : !util.buffer = #composite_of_64b
  %1 = util.buffer.constant <{alignment = 16 : index}> : !util.buffer = dense<1> : tensor<4xi8>
  %2 = util.buffer.constant "my.data" <alignment = 8, mime_type = "text/plain"> {some.attr} : !util.buffer = "hello"
  util.return %0, %1, %2 : !util.buffer, !util.buffer, !util.buffer
}

// -----

util.func public @bits() -> (i32, i32, i32) {
  %0 = hal.memory_type<DeviceLocal> : i32
  %1 = hal.buffer_usage<"Transfer|DispatchStorage|SharingImmutable"> : i32
  %2 = hal.buffer_usage<SharingImmutable> : i32
  util.return %0, %1, %2 : i32, i32, i32
}

// -----

util.func public @upload(%device: !hal.device, %bytes: !util.buffer, %wait: !hal.fence, %signal: !hal.fence, %type: i32, %usage: i32) -> (i1, !hal.buffer, !hal.buffer) {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c0_i64 = arith.constant 0 : i64
  %c64 = arith.constant 64 : index
  %c-1_i64 = arith.constant -1 : i64
  %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
  %did_import, %mapped = hal.allocator.import<%allocator : !hal.allocator> source(%bytes : !util.buffer)[%c0, %c64] affinity(%c-1_i64) type(%type) usage(%usage) : i1, !hal.buffer
  %buffer = hal.allocator.allocate<%allocator : !hal.allocator> affinity(%c-1_i64) type(%type) usage(%usage) : !hal.buffer{%c64}
  %memory_file = hal.ex.file.from_memory device(%device : !hal.device) affinity(%c-1_i64) access(Read) buffer(%bytes : !util.buffer)[%c0 for %c64] flags(%c0_i32) : !hal.file
  hal.device.queue.read<%device : !hal.device> affinity(%c-1_i64) wait(%wait) signal(%signal) source(%memory_file : !hal.file)[%c0_i64] target(%buffer : !hal.buffer)[%c0] length(%c64) flags("None")
  util.return %did_import, %mapped, %buffer : i1, !hal.buffer, !hal.buffer
}
