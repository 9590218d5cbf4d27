// util.global through the declarative layer (custom<SymbolVisibility>, custom<Properties>,
// custom<TypeOrAttr>): it prints as iree-opt prints it, an alias's type included.
//
// RUN: streamopt %s > %t.streamopt
// RUN: filecheck %s --input-file %t.streamopt
// RUN: iree-opt %s > %t.iree
// RUN: diff %t.iree %t.streamopt

#device_target_local = #hal.device.target<"local"> : !hal.device
module {
  // CHECK: util.global private @device = #device_target_local
  util.global private @device = #device_target_local
  // CHECK: util.global private mutable @counter {note = "kept"} = 0 : index
  util.global private mutable @counter {note = "kept"} = 0 : index
  // CHECK: util.global public @table = dense<[1, 2, 3, 4]> : tensor<4xi32>
  util.global @table : tensor<4xi32> = dense<[1, 2, 3, 4]> : tensor<4xi32>
  // CHECK: util.global nested @wide : tensor<?xi32> = dense<5> : tensor<2xi32>
  util.global nested @wide : tensor<?xi32> = dense<5> : tensor<2xi32>
  // CHECK: util.global private @hidden <inlining_policy = #util.inline.never> : !hal.buffer
  util.global private @hidden <{inlining_policy = #util.inline.never}> : !hal.buffer
}
