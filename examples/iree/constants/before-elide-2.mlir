#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0) -> (d0)>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a = #device_target_local_0_
  util.global private @dev_b = #device_target_local_1_
  util.global private @__constant_tensor_4xi32 : !stream.resource<constant>
  util.initializer {
    %c16 = arith.constant 16 : index
    %cst = stream.async.constant on(#hal.device.affinity<@dev_b>) : !stream.resource<constant>{%c16} = dense<[1, 2, 3, 4]> : tensor<4xi32>
    util.global.store %cst, @__constant_tensor_4xi32 : !stream.resource<constant>
    util.return
  }
  stream.executable private @main_dispatch_0 {
    stream.executable.export public @main_dispatch_0_elementwise_4_i32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_elementwise_4_i32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding, %arg3: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi32>>
        %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xi32>>
        %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi32>> -> tensor<4xi32>
        %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi32>> -> tensor<4xi32>
        %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi32>> -> tensor<4xi32>
        %7 = tensor.empty() : tensor<4xi32>
        %8 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel"]} ins(%4, %5, %6 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) outs(%7 : tensor<4xi32>) {
        ^bb0(%in: i32, %in_0: i32, %in_1: i32, %out: i32):
          %9 = arith.muli %in, %in_0 : i32
          %10 = arith.addi %9, %in_1 : i32
          linalg.yield %10 : i32
        } -> tensor<4xi32>
        iree_tensor_ext.dispatch.tensor.store %8, %3, offsets = [0], sizes = [4], strides = [1] : tensor<4xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xi32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_1 {
    stream.executable.export public @main_dispatch_1_elementwise_4_i32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_1_elementwise_4_i32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c1_i32 = arith.constant 1 : i32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xi32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xi32>> -> tensor<4xi32>
        %3 = tensor.empty() : tensor<4xi32>
        %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%2 : tensor<4xi32>) outs(%3 : tensor<4xi32>) {
        ^bb0(%in: i32, %out: i32):
          %5 = arith.addi %in, %c1_i32 : i32
          linalg.yield %5 : i32
        } -> tensor<4xi32>
        iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0], sizes = [4], strides = [1] : tensor<4xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xi32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: i32) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<4xi32>, %input1: i32) -> (%output0: tensor<4xi32>)"}} {
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c0 = arith.constant 0 : index
    %__constant_tensor_4xi32 = util.global.load immutable @__constant_tensor_4xi32 : !stream.resource<constant>
    %element_type_i32 = hal.element_type<i32> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c4]) type(%element_type_i32) encoding(%dense_row_major)
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg0 : !hal.buffer_view -> tensor<4xi32> in !stream.resource<external>{%c16}
    %1 = stream.async.clone on(#hal.device.affinity<@dev_b>) %__constant_tensor_4xi32 : !stream.resource<constant>{%c16} -> !stream.resource<constant>{%c16}
    %2 = stream.async.splat on(#hal.device.affinity<@dev_b>) %arg1 : i32 -> !stream.resource<transient>{%c16}
    %3 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_elementwise_4_i32(%0[%c0 to %c16 for %c16], %1[%c0 to %c16 for %c16], %2[%c0 to %c16 for %c16]) : (!stream.resource<external>{%c16}, !stream.resource<constant>{%c16}, !stream.resource<transient>{%c16}) -> !stream.resource<transient>{%c16}
    %4 = stream.async.transfer %3 : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%c16}
    %5 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_1::@main_dispatch_1_elementwise_4_i32(%4[%c0 to %c16 for %c16]) : (!stream.resource<transient>{%c16}) -> !stream.resource<external>{%c16}
    %6 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %5 : tensor<4xi32> in !stream.resource<external>{%c16} -> !hal.buffer_view
    util.return %6 : !hal.buffer_view
  }
}

