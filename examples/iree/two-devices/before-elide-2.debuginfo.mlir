#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#loc1 = loc("two-devices/program.mlir":5:14)
#loc2 = loc("two-devices/program.mlir":4:1)
#loc3 = loc("two-devices/program.mlir":8:16)
#loc4 = loc("two-devices/program.mlir":6:16)
#loc5 = loc("two-devices/program.mlir":7:14)
#loc6 = loc("two-devices/program.mlir":10:13)
#loc7 = loc("two-devices/program.mlir":9:14)
#map = affine_map<(d0) -> (d0)>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#loc9 = loc(callsite(#loc1 at #loc2))
#loc10 = loc(callsite(#loc3 at #loc2))
#loc11 = loc(callsite(#loc4 at #loc2))
#loc12 = loc(callsite(#loc5 at #loc2))
#loc13 = loc(callsite(#loc6 at #loc2))
#loc14 = loc(callsite(#loc7 at #loc2))
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a = #device_target_local_0_ loc(#loc)
  util.global private @dev_b = #device_target_local_1_ loc(#loc)
  stream.executable private @main_dispatch_0 {
    stream.executable.export public @main_dispatch_0_elementwise_4_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc9)
      stream.return %x, %y, %z : index, index, index loc(#loc9)
    } loc(#loc9)
    builtin.module {
      func.func @main_dispatch_0_elementwise_4_f32(%arg0: !stream.binding loc("two-devices/program.mlir":4:1), %arg1: !stream.binding loc(callsite(#loc1 at #loc2))) {
        %c0 = arith.constant 0 : index loc(#loc9)
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> loc(#loc2)
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>> loc(#loc9)
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32> loc(#loc9)
        %3 = tensor.empty() : tensor<4xf32> loc(#loc9)
        %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%2 : tensor<4xf32>) outs(%3 : tensor<4xf32>) {
        ^bb0(%in: f32 loc("two-devices/program.mlir":4:1), %out: f32 loc(callsite(#loc1 at #loc2))):
          %5 = arith.addf %in, %in : f32 loc(#loc9)
          linalg.yield %5 : f32 loc(#loc9)
        } -> tensor<4xf32> loc(#loc9)
        iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>> loc(#loc9)
        return loc(#loc9)
      } loc(#loc9)
    } loc(#loc9)
  } loc(#loc9)
  stream.executable private @main_dispatch_1 {
    stream.executable.export public @main_dispatch_1_elementwise_4_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc10)
      stream.return %x, %y, %z : index, index, index loc(#loc10)
    } loc(#loc10)
    builtin.module {
      func.func @main_dispatch_1_elementwise_4_f32(%arg0: !stream.binding loc(callsite(#loc4 at #loc2)), %arg1: !stream.binding loc(callsite(#loc5 at #loc2)), %arg2: !stream.binding loc(callsite(#loc3 at #loc2))) {
        %c0 = arith.constant 0 : index loc(#loc10)
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> loc(#loc11)
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> loc(#loc12)
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>> loc(#loc10)
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32> loc(#loc10)
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32> loc(#loc10)
        %5 = tensor.empty() : tensor<4xf32> loc(#loc9)
        %6 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%3, %4 : tensor<4xf32>, tensor<4xf32>) outs(%5 : tensor<4xf32>) {
        ^bb0(%in: f32 loc(callsite(#loc4 at #loc2)), %in_0: f32 loc(callsite(#loc5 at #loc2)), %out: f32 loc(callsite(#loc4 at #loc2))):
          %7 = arith.mulf %in, %in_0 : f32 loc(#loc10)
          linalg.yield %7 : f32 loc(#loc10)
        } -> tensor<4xf32> loc(#loc10)
        iree_tensor_ext.dispatch.tensor.store %6, %2, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>> loc(#loc10)
        return loc(#loc10)
      } loc(#loc10)
    } loc(#loc10)
  } loc(#loc10)
  stream.executable private @main_dispatch_2 {
    stream.executable.export public @main_dispatch_2_elementwise_4_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc13)
      stream.return %x, %y, %z : index, index, index loc(#loc13)
    } loc(#loc13)
    builtin.module {
      func.func @main_dispatch_2_elementwise_4_f32(%arg0: !stream.binding loc(callsite(#loc7 at #loc2)), %arg1: !stream.binding loc("two-devices/program.mlir":4:1), %arg2: !stream.binding loc(callsite(#loc6 at #loc2))) {
        %c0 = arith.constant 0 : index loc(#loc13)
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> loc(#loc14)
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> loc(#loc2)
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>> loc(#loc13)
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32> loc(#loc13)
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32> loc(#loc13)
        %5 = tensor.empty() : tensor<4xf32> loc(#loc9)
        %6 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%3, %4 : tensor<4xf32>, tensor<4xf32>) outs(%5 : tensor<4xf32>) {
        ^bb0(%in: f32 loc(callsite(#loc7 at #loc2)), %in_0: f32 loc("two-devices/program.mlir":4:1), %out: f32 loc(callsite(#loc7 at #loc2))):
          %7 = arith.subf %in, %in_0 : f32 loc(#loc13)
          linalg.yield %7 : f32 loc(#loc13)
        } -> tensor<4xf32> loc(#loc13)
        iree_tensor_ext.dispatch.tensor.store %6, %2, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>> loc(#loc13)
        return loc(#loc13)
      } loc(#loc13)
    } loc(#loc13)
  } loc(#loc13)
  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<4xf32>) -> (%output0: tensor<4xf32>)"}} {
    %c0 = arith.constant 0 : index loc(#loc8)
    %c16 = arith.constant 16 : index loc(#loc8)
    %c4 = arith.constant 4 : index loc(#loc8)
    %element_type_f32 = hal.element_type<f32> : i32 loc(#loc2)
    %dense_row_major = hal.encoding_type<dense_row_major> : i32 loc(#loc2)
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c4]) type(%element_type_f32) encoding(%dense_row_major) loc(#loc2)
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg0 : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%c16} loc(#loc2)
    %1 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_elementwise_4_f32(%0[%c0 to %c16 for %c16]) : (!stream.resource<external>{%c16}) -> !stream.resource<transient>{%c16} loc(#loc9)
    %2 = stream.async.transfer %1 : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%c16} loc(#loc11)
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c4]) type(%element_type_f32) encoding(%dense_row_major) loc(#loc2)
    %3 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg0 : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%c16} loc(#loc2)
    %4 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_1::@main_dispatch_1_elementwise_4_f32(%2[%c0 to %c16 for %c16], %3[%c0 to %c16 for %c16]) : (!stream.resource<transient>{%c16}, !stream.resource<external>{%c16}) -> !stream.resource<transient>{%c16} loc(#loc10)
    %5 = stream.async.transfer %4 : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%c16} loc(#loc14)
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c4]) type(%element_type_f32) encoding(%dense_row_major) loc(#loc2)
    %6 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_2::@main_dispatch_2_elementwise_4_f32(%5[%c0 to %c16 for %c16], %0[%c0 to %c16 for %c16]) : (!stream.resource<transient>{%c16}, !stream.resource<external>{%c16}) -> !stream.resource<external>{%c16} loc(#loc13)
    %7 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %6 : tensor<4xf32> in !stream.resource<external>{%c16} -> !hal.buffer_view loc(#loc2)
    util.return %7 : !hal.buffer_view loc(#loc2)
  } loc(#loc2)
} loc(#loc)
#loc = loc("two-devices/program.mlir":0:0)
#loc8 = loc(unknown)

