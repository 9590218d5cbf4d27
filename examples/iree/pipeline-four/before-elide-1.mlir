#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0, d1) -> (d0, d1)>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_2_ = #hal.device.target<"local", {ordinal = 2 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_3_ = #hal.device.target<"local", {ordinal = 3 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a = #device_target_local_0_
  util.global private @dev_b = #device_target_local_1_
  util.global private @dev_c = #device_target_local_2_
  util.global private @dev_d = #device_target_local_3_
  stream.executable private @main_dispatch_0 {
    stream.executable.export public @main_dispatch_0_matmul_8x256x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_matmul_8x256x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant 5.000000e-01 : f32
        %cst_0 = arith.constant 1.000000e+00 : f32
        %cst_1 = arith.constant 0.797884583 : f32
        %cst_2 = arith.constant 4.471500e-02 : f32
        %cst_3 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x256xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [8, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x256xf32>> -> tensor<8x256xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [256, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>> -> tensor<256x256xf32>
        %5 = tensor.empty() : tensor<8x256xf32>
        %6 = linalg.fill ins(%cst_3 : f32) outs(%5 : tensor<8x256xf32>) -> tensor<8x256xf32>
        %7 = linalg.matmul ins(%3, %4 : tensor<8x256xf32>, tensor<256x256xf32>) outs(%6 : tensor<8x256xf32>) -> tensor<8x256xf32>
        %8 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %3 : tensor<8x256xf32>, tensor<8x256xf32>) outs(%5 : tensor<8x256xf32>) {
        ^bb0(%in: f32, %in_4: f32, %out: f32):
          %9 = arith.mulf %in, %in : f32
          %10 = arith.mulf %9, %in : f32
          %11 = arith.mulf %10, %cst_2 : f32
          %12 = arith.addf %in, %11 : f32
          %13 = arith.mulf %12, %cst_1 : f32
          %14 = math.tanh %13 : f32
          %15 = arith.addf %14, %cst_0 : f32
          %16 = arith.mulf %15, %cst : f32
          %17 = arith.mulf %in, %16 : f32
          %18 = arith.addf %17, %in_4 : f32
          linalg.yield %18 : f32
        } -> tensor<8x256xf32>
        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0], sizes = [8, 256], strides = [1, 1] : tensor<8x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x256xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view, %arg3: !hal.buffer_view, %arg4: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<8x256xf32>, %input1: tensor<256x256xf32>, %input2: tensor<256x256xf32>, %input3: tensor<256x256xf32>, %input4: tensor<256x256xf32>) -> (%output0: tensor<8x256xf32>)"}} {
    %c0 = arith.constant 0 : index
    %c262144 = arith.constant 262144 : index
    %c8192 = arith.constant 8192 : index
    %c256 = arith.constant 256 : index
    %c8 = arith.constant 8 : index
    %element_type_f32 = hal.element_type<f32> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c8, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg0 : !hal.buffer_view -> tensor<8x256xf32> in !stream.resource<external>{%c8192}
    %1 = stream.async.cast on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<external>{%c8192} -> !stream.resource<*>{%c8192}
    hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %2 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg1 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %3 = stream.async.cast on(#hal.device.affinity<@dev_a>) %2 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg2 : !hal.buffer_view> message("input2") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %4 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg2 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %5 = stream.async.cast on(#hal.device.affinity<@dev_b>) %4 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg3 : !hal.buffer_view> message("input3") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %6 = stream.tensor.import on(#hal.device.affinity<@dev_c>) %arg3 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %7 = stream.async.cast on(#hal.device.affinity<@dev_c>) %6 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg4 : !hal.buffer_view> message("input4") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %8 = stream.tensor.import on(#hal.device.affinity<@dev_d>) %arg4 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %9 = stream.async.cast on(#hal.device.affinity<@dev_d>) %8 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    %10 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_matmul_8x256x256_f32(%1[%c0 to %c8192 for %c8192], %3[%c0 to %c262144 for %c262144]) : (!stream.resource<*>{%c8192}, !stream.resource<*>{%c262144}) -> !stream.resource<*>{%c8192}
    %11 = stream.async.transfer %10 : !stream.resource<*>{%c8192} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%c8192}
    %12 = stream.async.clone on(#hal.device.affinity<@dev_b>) %5 : !stream.resource<*>{%c262144} -> !stream.resource<*>{%c262144}
    %13 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_matmul_8x256x256_f32(%11[%c0 to %c8192 for %c8192], %12[%c0 to %c262144 for %c262144]) : (!stream.resource<*>{%c8192}, !stream.resource<*>{%c262144}) -> !stream.resource<*>{%c8192}
    %14 = stream.async.transfer %13 : !stream.resource<*>{%c8192} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<*>{%c8192}
    %15 = stream.async.clone on(#hal.device.affinity<@dev_c>) %7 : !stream.resource<*>{%c262144} -> !stream.resource<*>{%c262144}
    %16 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_0::@main_dispatch_0_matmul_8x256x256_f32(%14[%c0 to %c8192 for %c8192], %15[%c0 to %c262144 for %c262144]) : (!stream.resource<*>{%c8192}, !stream.resource<*>{%c262144}) -> !stream.resource<*>{%c8192}
    %17 = stream.async.transfer %16 : !stream.resource<*>{%c8192} from(#hal.device.affinity<@dev_c>) -> to(#hal.device.affinity<@dev_d>) !stream.resource<*>{%c8192}
    %18 = stream.async.clone on(#hal.device.affinity<@dev_d>) %9 : !stream.resource<*>{%c262144} -> !stream.resource<*>{%c262144}
    %19 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_0::@main_dispatch_0_matmul_8x256x256_f32(%17[%c0 to %c8192 for %c8192], %18[%c0 to %c262144 for %c262144]) : (!stream.resource<*>{%c8192}, !stream.resource<*>{%c262144}) -> !stream.resource<*>{%c8192}
    %20 = stream.async.transfer %19 : !stream.resource<*>{%c8192} from(#hal.device.affinity<@dev_d>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%c8192}
    %21 = stream.async.cast on(#hal.device.affinity<@dev_a>) %20 : !stream.resource<*>{%c8192} -> !stream.resource<external>{%c8192}
    %22 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %21 : tensor<8x256xf32> in !stream.resource<external>{%c8192} -> !hal.buffer_view
    util.return %22 : !hal.buffer_view
  }
}

