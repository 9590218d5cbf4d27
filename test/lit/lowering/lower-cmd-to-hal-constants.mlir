// RUN: streamopt --split-input-file --lower-cmd-to-hal %s | filecheck %s

// `stream.resource.constants` lowers as IREE's PackConstants + StreamToHAL do: the values are
// packed into host data (offsets and ranges aligned to 64 bytes, zero padding in between), the
// device tries to use the data in place (`hal.allocator.import` as device local, immutable
// memory), and if it cannot, the data is read into a new buffer on a queue. Each result is a
// subspan of the uploaded buffer; the result timepoint is the fence the `scf.if` yields.

util.global private @dev_b : !hal.device
util.global private @weights : !stream.resource<constant>

// CHECK-LABEL: util.initializer
util.initializer {
  %c16 = arith.constant 16 : index
  // CHECK: %[[IMMEDIATE:.+]] = util.null : !hal.fence
  // CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : index
  // CHECK-NEXT: %[[DATA:.+]] = util.buffer.constant <alignment = 64> : !util.buffer = #util.composite<64xi8, [dense<[1, 2, 3, 4]> : tensor<4xi32>, dense<0> : vector<48xi8>]>
  // CHECK-NEXT: %[[C64:.+]] = arith.constant 64 : index
  // CHECK-NEXT: %[[USAGE:.+]] = hal.buffer_usage<"TransferSource|TransferTarget|Transfer|DispatchStorageRead|DispatchStorageWrite|DispatchStorage|SharingImmutable"> : i32
  // CHECK-NEXT: %[[TYPE:.+]] = hal.memory_type<"DeviceVisible|DeviceLocal"> : i32
  // CHECK-NEXT: %[[DEV:.+]] = util.global.load immutable @dev_b : !hal.device
  // CHECK-NEXT: %[[ANY:.+]] = arith.constant -1 : i64
  // CHECK-NEXT: %[[ALLOCATOR:.+]] = hal.device.allocator<%[[DEV]] : !hal.device> : !hal.allocator
  // CHECK-NEXT: %[[DID_IMPORT:.+]], %[[MAPPED:.+]] = hal.allocator.import<%[[ALLOCATOR]] : !hal.allocator> source(%[[DATA]] : !util.buffer)[%[[C0]], %[[C64]]] affinity(%[[ANY]]) type(%[[TYPE]]) usage(%[[USAGE]]) : i1, !hal.buffer
  // CHECK-NEXT: %[[UPLOAD:.+]]:2 = scf.if %[[DID_IMPORT]] -> (!hal.fence, !hal.buffer) {
  // CHECK-NEXT:   scf.yield %[[IMMEDIATE]], %[[MAPPED]] : !hal.fence, !hal.buffer
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   %[[TYPES:.+]], %[[USAGES:.+]] = hal.allocator.resolve_memory_properties for(#hal.device.affinity<@dev_b>) lifetime(constant) : i32, i32
  // CHECK-NEXT:   %[[DEV2:.+]] = util.global.load immutable @dev_b : !hal.device
  // CHECK-NEXT:   %[[ANY2:.+]] = arith.constant -1 : i64
  // CHECK-NEXT:   %[[ALLOCATOR2:.+]] = hal.device.allocator<%[[DEV2]] : !hal.device> : !hal.allocator
  // CHECK-NEXT:   %[[BUFFER:.+]] = hal.allocator.allocate<%[[ALLOCATOR2]] : !hal.allocator> affinity(%[[ANY2]]) type(%[[TYPES]]) usage(%[[USAGES]]) : !hal.buffer{%[[C64]]}
  // CHECK-NEXT:   %[[DEV3:.+]] = util.global.load immutable @dev_b : !hal.device
  // CHECK-NEXT:   %[[ANY3:.+]] = arith.constant -1 : i64
  // CHECK-NEXT:   %[[FLAGS:.+]] = arith.constant 0 : i32
  // CHECK-NEXT:   %[[FILE:.+]] = hal.ex.file.from_memory device(%[[DEV3]] : !hal.device) affinity(%[[ANY3]]) access(Read) buffer(%[[DATA]] : !util.buffer)[%[[C0]] for %[[C64]]] flags(%[[FLAGS]]) : !hal.file
  // CHECK-NEXT:   %[[DEV4:.+]] = util.global.load immutable @dev_b : !hal.device
  // CHECK-NEXT:   %[[ANY4:.+]] = arith.constant -1 : i64
  // CHECK-NEXT:   %[[READ:.+]] = hal.fence.create device(%[[DEV4]] : !hal.device) flags("None") : !hal.fence
  // CHECK-NEXT:   %[[FILE_OFFSET:.+]] = arith.constant 0 : i64
  // CHECK-NEXT:   hal.device.queue.read<%[[DEV4]] : !hal.device> affinity(%[[ANY4]]) wait(%[[IMMEDIATE]]) signal(%[[READ]]) source(%[[FILE]] : !hal.file)[%[[FILE_OFFSET]]] target(%[[BUFFER]] : !hal.buffer)[%[[C0]]] length(%[[C64]]) flags("None")
  // CHECK-NEXT:   scf.yield %[[READ]], %[[BUFFER]] : !hal.fence, !hal.buffer
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[WEIGHTS:.+]] = hal.buffer.subspan<%[[UPLOAD]]#1 : !hal.buffer>[%[[C0]], %c16] : !hal.buffer
  %results, %result_timepoint = stream.resource.constants on(#hal.device.affinity<@dev_b>) :
    !stream.resource<constant>{%c16} = dense<[1, 2, 3, 4]> : tensor<4xi32>
    => !stream.timepoint
  // CHECK: %[[STATUS:.+]] = hal.fence.await until([%[[UPLOAD]]#0])
  // CHECK: util.global.store %[[WEIGHTS]], @weights : !hal.buffer
  %0 = stream.timepoint.await %result_timepoint => %results : !stream.resource<constant>{%c16}
  util.global.store %0, @weights : !stream.resource<constant>
  util.return
}

// -----

// Several values share one storage buffer, each at an offset aligned to 64 bytes and padded to
// a multiple of 64 bytes; each result is the subspan of its value.

util.global private @dev_a : !hal.device

// CHECK-LABEL: util.func public @packed
util.func public @packed() -> (!stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.timepoint) {
  %c16 = arith.constant 16 : index
  %c100 = arith.constant 100 : index
  %c8 = arith.constant 8 : index
  // CHECK: %[[C0:.+]] = arith.constant 0 : index
  // CHECK-NEXT: util.buffer.constant <alignment = 64> : !util.buffer = #util.composite<256xi8, [dense<[1, 2, 3, 4]> : tensor<4xi32>, dense<0> : vector<48xi8>, dense<1> : tensor<100xi8>, dense<0> : vector<28xi8>, dense<7> : tensor<2xi32>, dense<0> : vector<56xi8>]>
  // CHECK: %[[UPLOAD:.+]]:2 = scf.if
  // CHECK: %[[FIRST:.+]] = hal.buffer.subspan<%[[UPLOAD]]#1 : !hal.buffer>[%[[C0]], %c16] : !hal.buffer
  // CHECK-NEXT: %[[C64:.+]] = arith.constant 64 : index
  // CHECK-NEXT: %[[SECOND:.+]] = hal.buffer.subspan<%[[UPLOAD]]#1 : !hal.buffer>[%[[C64]], %c100] : !hal.buffer
  // CHECK-NEXT: %[[C192:.+]] = arith.constant 192 : index
  // CHECK-NEXT: %[[THIRD:.+]] = hal.buffer.subspan<%[[UPLOAD]]#1 : !hal.buffer>[%[[C192]], %c8] : !hal.buffer
  %results:3, %result_timepoint = stream.resource.constants on(#hal.device.affinity<@dev_a>) :
    !stream.resource<constant>{%c16} = dense<[1, 2, 3, 4]> : tensor<4xi32>,
    !stream.resource<constant>{%c100} = dense<1> : tensor<100xi8>,
    !stream.resource<constant>{%c8} = dense<7> : tensor<2xi32>
    => !stream.timepoint
  // CHECK-NEXT: util.return %[[FIRST]], %[[SECOND]], %[[THIRD]], %[[UPLOAD]]#0
  util.return %results#0, %results#1, %results#2, %result_timepoint : !stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.timepoint
}

// -----

// Mutable (`variable`) initial values are never used in place: they are read into a new buffer
// allocated for their lifetime.

util.global private @dev_a : !hal.device

// CHECK-LABEL: util.func public @variable
util.func public @variable() -> (!stream.resource<variable>, !stream.timepoint) {
  %c8 = arith.constant 8 : index
  // CHECK: %[[IMMEDIATE:.+]] = util.null : !hal.fence
  // CHECK-NOT: hal.allocator.import
  // CHECK-NOT: scf.if
  // CHECK: hal.allocator.resolve_memory_properties for(#hal.device.affinity<@dev_a>) lifetime(variable)
  // CHECK: %[[BUFFER:.+]] = hal.allocator.allocate
  // CHECK: %[[READ:.+]] = hal.fence.create
  // CHECK: hal.device.queue.read<{{.+}}> affinity({{.+}}) wait(%[[IMMEDIATE]]) signal(%[[READ]]) source({{.+}} : !hal.file)[{{.+}}] target(%[[BUFFER]] : !hal.buffer)
  // CHECK-NEXT: %[[VALUE:.+]] = hal.buffer.subspan<%[[BUFFER]] : !hal.buffer>[%{{.+}}, %c8] : !hal.buffer
  %results, %result_timepoint = stream.resource.constants on(#hal.device.affinity<@dev_a>) :
    !stream.resource<variable>{%c8} = dense<7> : tensor<2xi32>
    => !stream.timepoint
  // CHECK-NEXT: util.return %[[VALUE]], %[[READ]]
  util.return %results, %result_timepoint : !stream.resource<variable>, !stream.timepoint
}

// -----

// A `stream.resources` config sets the alignments and the largest allocation: with 16-byte
// alignment nothing is padded, and a value that would end past 24 bytes starts a new buffer.
// The uploads run one after the other: the second waits on the first's fence.

util.global private @dev_a : !hal.device

// CHECK-LABEL: util.func public @config
util.func public @config() -> (!stream.resource<constant>, !stream.resource<constant>, !stream.timepoint) attributes {stream.resources = #stream.resource_config<{max_allocation_size = 24, min_buffer_offset_alignment = 16, max_buffer_range = 24, min_buffer_range_alignment = 16, index_bits = 64}>} {
  %c16 = arith.constant 16 : index
  // CHECK: util.buffer.constant <alignment = 16> : !util.buffer = #util.composite<16xi8, [dense<[1, 2, 3, 4]> : tensor<4xi32>]>
  // CHECK: %[[FIRST:.+]]:2 = scf.if
  // CHECK: util.buffer.constant <alignment = 16> : !util.buffer = #util.composite<16xi8, [dense<[5, 6, 7, 8]> : tensor<4xi32>]>
  // CHECK: %[[SECOND:.+]]:2 = scf.if %{{.+}} -> (!hal.fence, !hal.buffer) {
  // CHECK-NEXT: scf.yield %[[FIRST]]#0, %{{.+}} : !hal.fence, !hal.buffer
  // CHECK: hal.device.queue.read<{{.+}}> affinity({{.+}}) wait(%[[FIRST]]#0)
  %results:2, %result_timepoint = stream.resource.constants on(#hal.device.affinity<@dev_a>) :
    !stream.resource<constant>{%c16} = dense<[1, 2, 3, 4]> : tensor<4xi32>,
    !stream.resource<constant>{%c16} = dense<[5, 6, 7, 8]> : tensor<4xi32>
    => !stream.timepoint
  // CHECK: %[[A:.+]] = hal.buffer.subspan<%[[SECOND]]#1
  // CHECK: util.return %{{.+}}, %[[A]], %[[SECOND]]#0
  util.return %results#0, %results#1, %result_timepoint : !stream.resource<constant>, !stream.resource<constant>, !stream.timepoint
}
