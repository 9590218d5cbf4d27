// iree-opt accepts what --lower-cmd-to-hal makes of `stream.resource.constants` (the composite
// host data, the import, the allocate + file read fallback), and IREE packs the values of an
// upload exactly as streamopt does.
//
// RUN: streamopt --split-input-file --lower-cmd-to-hal %S/../lowering/lower-cmd-to-hal-constants.mlir | iree-opt --split-input-file > /dev/null
// RUN: streamopt --lower-cmd-to-hal %s | filecheck %s
// RUN: iree-opt --pass-pipeline='builtin.module(util.func(iree-stream-pack-constants))' %s | filecheck %s --check-prefix=IREE

util.global private @dev_a : !hal.device

// CHECK: util.buffer.constant <alignment = 64> : !util.buffer = #util.composite<256xi8, [dense<[1, 2, 3, 4]> : tensor<4xi32>, dense<0> : vector<48xi8>, dense<1> : tensor<100xi8>, dense<0> : vector<28xi8>, dense<7> : tensor<2xi32>, dense<0> : vector<56xi8>]>
// IREE: #util.composite<256xi8, [
// IREE-NEXT: dense<[1, 2, 3, 4]> : tensor<4xi32>,
// IREE-NEXT: dense<0> : vector<48xi8>,
// IREE-NEXT: dense<1> : tensor<100xi8>,
// IREE-NEXT: dense<0> : vector<28xi8>,
// IREE-NEXT: dense<7> : tensor<2xi32>,
// IREE-NEXT: dense<0> : vector<56xi8>,
// IREE-NEXT: ]>
util.func public @packed() -> (!stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.timepoint) {
  %c16 = arith.constant 16 : index
  %c100 = arith.constant 100 : index
  %c8 = arith.constant 8 : index
  %results:3, %result_timepoint = stream.resource.constants on(#hal.device.affinity<@dev_a>) :
    !stream.resource<constant>{%c16} = dense<[1, 2, 3, 4]> : tensor<4xi32>,
    !stream.resource<constant>{%c100} = dense<1> : tensor<100xi8>,
    !stream.resource<constant>{%c8} = dense<7> : tensor<2xi32>
    => !stream.timepoint
  util.return %results#0, %results#1, %results#2, %result_timepoint : !stream.resource<constant>, !stream.resource<constant>, !stream.resource<constant>, !stream.timepoint
}
