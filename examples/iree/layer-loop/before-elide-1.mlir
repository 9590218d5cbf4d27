#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<() -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a = #device_target_local_0_
  util.global private @dev_b = #device_target_local_1_
  stream.executable private @main_dispatch_0 {
    stream.executable.export public @main_dispatch_0_elementwise workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_elementwise(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c1_i32 = arith.constant 1 : i32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<i32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<i32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [], sizes = [], strides = [] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<i32>> -> tensor<i32>
        %3 = tensor.empty() : tensor<i32>
        %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = []} ins(%2 : tensor<i32>) outs(%3 : tensor<i32>) {
        ^bb0(%in: i32, %out: i32):
          %5 = arith.addi %in, %c1_i32 : i32
          linalg.yield %5 : i32
        } -> tensor<i32>
        iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [], sizes = [], strides = [] : tensor<i32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<i32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_1 {
    stream.executable.export public @main_dispatch_1_elementwise workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_1_elementwise(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c0_i32 = arith.constant 0 : i32
        %c4_i32 = arith.constant 4 : i32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<i32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<i32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [], sizes = [], strides = [] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<i32>> -> tensor<i32>
        %3 = tensor.empty() : tensor<i32>
        %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = []} ins(%2 : tensor<i32>) outs(%3 : tensor<i32>) {
        ^bb0(%in: i32, %out: i32):
          %5 = arith.addi %in, %c4_i32 : i32
          %6 = arith.cmpi slt, %in, %c0_i32 : i32
          %7 = arith.select %6, %5, %in : i32
          linalg.yield %7 : i32
        } -> tensor<i32>
        iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [], sizes = [], strides = [] : tensor<i32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<i32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_2 {
    stream.executable.export public @main_dispatch_2_matmul_4x256x256_f32 workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_2_matmul_4x256x256_f32(%arg0: !stream.binding, %arg1: index, %arg2: !stream.binding, %arg3: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x256x256xf32>>
        %1 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x256xf32>>
        %2 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x256xf32>>
        %3 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [4, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x256xf32>> -> tensor<4x256xf32>
        %5 = tensor.empty() : tensor<4x256xf32>
        %6 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [%3, 0, 0], sizes = [1, 256, 256], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x256x256xf32>> -> tensor<256x256xf32>
        %7 = linalg.fill ins(%cst : f32) outs(%5 : tensor<4x256xf32>) -> tensor<4x256xf32>
        %8 = linalg.matmul ins(%4, %6 : tensor<4x256xf32>, tensor<256x256xf32>) outs(%7 : tensor<4x256xf32>) -> tensor<4x256xf32>
        %9 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%8, %4 : tensor<4x256xf32>, tensor<4x256xf32>) outs(%5 : tensor<4x256xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %10 = math.tanh %in : f32
          %11 = arith.addf %10, %in_0 : f32
          linalg.yield %11 : f32
        } -> tensor<4x256xf32>
        iree_tensor_ext.dispatch.tensor.store %9, %2, offsets = [0, 0], sizes = [4, 256], strides = [1, 1] : tensor<4x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x256xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_3 {
    stream.executable.export public @main_dispatch_3_softmax_4x256xf32_dispatch_tensor_store workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_3_softmax_4x256xf32_dispatch_tensor_store(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x256xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [4, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x256xf32>> -> tensor<4x256xf32>
        %3 = tensor.empty() : tensor<4x256xf32>
        %4 = linalg.softmax dimension(1) ins(%2 : tensor<4x256xf32>) outs(%3 : tensor<4x256xf32>) -> tensor<4x256xf32>
        iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0, 0], sizes = [4, 256], strides = [1, 1] : tensor<4x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x256xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<4x256xf32>, %input1: tensor<4x256x256xf32>) -> (%output0: tensor<4x256xf32>)"}} {
    %c1048576 = arith.constant 1048576 : index
    %c4096 = arith.constant 4096 : index
    %c0_i8 = arith.constant 0 : i8
    %c256 = arith.constant 256 : index
    %c4 = arith.constant 4 : index
    %c3 = arith.constant 3 : index
    %c0 = arith.constant 0 : index
    %c1_i32 = arith.constant 1 : i32
    %c4_i32 = arith.constant 4 : i32
    %c0_i32 = arith.constant 0 : i32
    %element_type_f32 = hal.element_type<f32> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c4, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg0 : !hal.buffer_view -> tensor<4x256xf32> in !stream.resource<external>{%c4096}
    %1 = stream.async.cast on(#hal.device.affinity<@dev_b>) %0 : !stream.resource<external>{%c4096} -> !stream.resource<*>{%c4096}
    hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%c4, %c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %2 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg1 : !hal.buffer_view -> tensor<4x256x256xf32> in !stream.resource<external>{%c1048576}
    %3 = stream.async.cast on(#hal.device.affinity<@dev_b>) %2 : !stream.resource<external>{%c1048576} -> !stream.resource<*>{%c1048576}
    %4 = stream.async.clone on(#hal.device.affinity<@dev_b>) %1 : !stream.resource<*>{%c4096} -> !stream.resource<*>{%c4096}
    %5 = stream.async.clone on(#hal.device.affinity<@dev_b>) %3 : !stream.resource<*>{%c1048576} -> !stream.resource<*>{%c1048576}
    %6 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c0_i8 : i8 -> !stream.resource<*>{%c4}
    %7:2 = scf.for %arg2 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg3 = %6, %arg4 = %4) -> (!stream.resource<*>, !stream.resource<*>)  : i32 {
      %12 = stream.async.transfer %arg3 : !stream.resource<*>{%c4} -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%c4}
      %13 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_elementwise(%12[%c0 to %c4 for %c4]) : (!stream.resource<*>{%c4}) -> !stream.resource<*>{%c4}
      %14 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_1::@main_dispatch_1_elementwise(%12[%c0 to %c4 for %c4]) : (!stream.resource<*>{%c4}) -> !stream.resource<*>{%c4}
      %15 = stream.async.transfer %14 : !stream.resource<*>{%c4} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<staging>{%c4}
      %16 = stream.async.load %15[%c0] : !stream.resource<staging>{%c4} -> i32
      %17 = arith.index_cast %16 : i32 to index
      %18 = arith.maxsi %17, %c0 : index
      %19 = arith.minui %18, %c3 : index
      %20 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_2::@main_dispatch_2_matmul_4x256x256_f32[%19](%5[%c0 to %c1048576 for %c1048576], %19, %arg4[%c0 to %c4096 for %c4096]) : (!stream.resource<*>{%c1048576}, index, !stream.resource<*>{%c4096}) -> !stream.resource<*>{%c4096}
      scf.yield %13, %20 : !stream.resource<*>, !stream.resource<*>
    }
    %8 = stream.async.transfer %7#1 : !stream.resource<*>{%c4096} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%c4096}
    %9 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_3::@main_dispatch_3_softmax_4x256xf32_dispatch_tensor_store(%8[%c0 to %c4096 for %c4096]) : (!stream.resource<*>{%c4096}) -> !stream.resource<*>{%c4096}
    %10 = stream.async.cast on(#hal.device.affinity<@dev_a>) %9 : !stream.resource<*>{%c4096} -> !stream.resource<external>{%c4096}
    %11 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %10 : tensor<4x256xf32> in !stream.resource<external>{%c4096} -> !hal.buffer_view
    util.return %11 : !hal.buffer_view
  }
}

