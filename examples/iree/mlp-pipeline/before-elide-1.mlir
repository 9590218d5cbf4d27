#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0, d1) -> (d0, d1)>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a = #device_target_local_0_
  util.global private @dev_b = #device_target_local_1_
  stream.executable private @main_dispatch_0 {
    stream.executable.export public @main_dispatch_0_matmul_4096x64x4096_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_matmul_4096x64x4096_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4096x4096xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4096x64xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4096x64xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [4096, 4096], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4096x4096xf32>> -> tensor<4096x4096xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [4096, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4096x64xf32>> -> tensor<4096x64xf32>
        %5 = tensor.empty() : tensor<4096x64xf32>
        %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<4096x64xf32>) -> tensor<4096x64xf32>
        %7 = linalg.matmul ins(%3, %4 : tensor<4096x4096xf32>, tensor<4096x64xf32>) outs(%6 : tensor<4096x64xf32>) -> tensor<4096x64xf32>
        %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<4096x64xf32>) outs(%5 : tensor<4096x64xf32>) {
        ^bb0(%in: f32, %out: f32):
          %9 = arith.maximumf %in, %cst : f32
          linalg.yield %9 : f32
        } -> tensor<4096x64xf32>
        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0], sizes = [4096, 64], strides = [1, 1] : tensor<4096x64xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4096x64xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_1 {
    stream.executable.export public @main_dispatch_1_matmul_4096x4096x64_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_1_matmul_4096x4096x64_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding, %arg3: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4096x64xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x4096xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4096x4096xf32>>
        %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4096x4096xf32>>
        %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [4096, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4096x64xf32>> -> tensor<4096x64xf32>
        %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [64, 4096], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x4096xf32>> -> tensor<64x4096xf32>
        %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [4096, 4096], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4096x4096xf32>> -> tensor<4096x4096xf32>
        %7 = tensor.empty() : tensor<4096x4096xf32>
        %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
        %9 = linalg.matmul ins(%4, %5 : tensor<4096x64xf32>, tensor<64x4096xf32>) outs(%8 : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
        %10 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %9 : tensor<4096x4096xf32>, tensor<4096x4096xf32>) outs(%7 : tensor<4096x4096xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %11 = arith.addf %in, %in_0 : f32
          linalg.yield %11 : f32
        } -> tensor<4096x4096xf32>
        iree_tensor_ext.dispatch.tensor.store %10, %3, offsets = [0, 0], sizes = [4096, 4096], strides = [1, 1] : tensor<4096x4096xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4096x4096xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view, %arg3: !hal.buffer_view, %arg4: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<4096x4096xf32>, %input1: tensor<4096x64xf32>, %input2: tensor<64x4096xf32>, %input3: tensor<4096x64xf32>, %input4: tensor<64x4096xf32>) -> (%output0: tensor<4096x4096xf32>)"}} {
    %c0 = arith.constant 0 : index
    %c1048576 = arith.constant 1048576 : index
    %c67108864 = arith.constant 67108864 : index
    %c64 = arith.constant 64 : index
    %c4096 = arith.constant 4096 : index
    %element_type_f32 = hal.element_type<f32> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c4096, %c4096]) type(%element_type_f32) encoding(%dense_row_major)
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg0 : !hal.buffer_view -> tensor<4096x4096xf32> in !stream.resource<external>{%c67108864}
    %1 = stream.async.cast on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<external>{%c67108864} -> !stream.resource<*>{%c67108864}
    hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%c4096, %c64]) type(%element_type_f32) encoding(%dense_row_major)
    %2 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg1 : !hal.buffer_view -> tensor<4096x64xf32> in !stream.resource<external>{%c1048576}
    %3 = stream.async.cast on(#hal.device.affinity<@dev_a>) %2 : !stream.resource<external>{%c1048576} -> !stream.resource<*>{%c1048576}
    hal.buffer_view.assert<%arg2 : !hal.buffer_view> message("input2") shape([%c64, %c4096]) type(%element_type_f32) encoding(%dense_row_major)
    %4 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg2 : !hal.buffer_view -> tensor<64x4096xf32> in !stream.resource<external>{%c1048576}
    %5 = stream.async.cast on(#hal.device.affinity<@dev_a>) %4 : !stream.resource<external>{%c1048576} -> !stream.resource<*>{%c1048576}
    hal.buffer_view.assert<%arg3 : !hal.buffer_view> message("input3") shape([%c4096, %c64]) type(%element_type_f32) encoding(%dense_row_major)
    %6 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg3 : !hal.buffer_view -> tensor<4096x64xf32> in !stream.resource<external>{%c1048576}
    %7 = stream.async.cast on(#hal.device.affinity<@dev_b>) %6 : !stream.resource<external>{%c1048576} -> !stream.resource<*>{%c1048576}
    hal.buffer_view.assert<%arg4 : !hal.buffer_view> message("input4") shape([%c64, %c4096]) type(%element_type_f32) encoding(%dense_row_major)
    %8 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg4 : !hal.buffer_view -> tensor<64x4096xf32> in !stream.resource<external>{%c1048576}
    %9 = stream.async.cast on(#hal.device.affinity<@dev_b>) %8 : !stream.resource<external>{%c1048576} -> !stream.resource<*>{%c1048576}
    %10 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_matmul_4096x64x4096_f32(%1[%c0 to %c67108864 for %c67108864], %3[%c0 to %c1048576 for %c1048576]) : (!stream.resource<*>{%c67108864}, !stream.resource<*>{%c1048576}) -> !stream.resource<*>{%c1048576}
    %11 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_1::@main_dispatch_1_matmul_4096x4096x64_f32(%10[%c0 to %c1048576 for %c1048576], %5[%c0 to %c1048576 for %c1048576], %1[%c0 to %c67108864 for %c67108864]) : (!stream.resource<*>{%c1048576}, !stream.resource<*>{%c1048576}, !stream.resource<*>{%c67108864}) -> !stream.resource<*>{%c67108864}
    %12 = stream.async.transfer %11 : !stream.resource<*>{%c67108864} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%c67108864}
    %13 = stream.async.clone on(#hal.device.affinity<@dev_b>) %7 : !stream.resource<*>{%c1048576} -> !stream.resource<*>{%c1048576}
    %14 = stream.async.clone on(#hal.device.affinity<@dev_b>) %9 : !stream.resource<*>{%c1048576} -> !stream.resource<*>{%c1048576}
    %15 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_matmul_4096x64x4096_f32(%12[%c0 to %c67108864 for %c67108864], %13[%c0 to %c1048576 for %c1048576]) : (!stream.resource<*>{%c67108864}, !stream.resource<*>{%c1048576}) -> !stream.resource<*>{%c1048576}
    %16 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_1::@main_dispatch_1_matmul_4096x4096x64_f32(%15[%c0 to %c1048576 for %c1048576], %14[%c0 to %c1048576 for %c1048576], %12[%c0 to %c67108864 for %c67108864]) : (!stream.resource<*>{%c1048576}, !stream.resource<*>{%c1048576}, !stream.resource<*>{%c67108864}) -> !stream.resource<*>{%c67108864}
    %17 = stream.async.transfer %16 : !stream.resource<*>{%c67108864} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%c67108864}
    %18 = stream.async.cast on(#hal.device.affinity<@dev_a>) %17 : !stream.resource<*>{%c67108864} -> !stream.resource<external>{%c67108864}
    %19 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %18 : tensor<4096x4096xf32> in !stream.resource<external>{%c67108864} -> !hal.buffer_view
    util.return %19 : !hal.buffer_view
  }
}

