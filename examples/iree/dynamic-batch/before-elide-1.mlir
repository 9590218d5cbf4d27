#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a = #device_target_local_0_
  util.global private @dev_b = #device_target_local_1_
  stream.executable private @main_dispatch_0 {
    stream.executable.export public @main_dispatch_0_matmul_Dx256x256_f32 workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_matmul_Dx256x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding, %arg3: index, %arg4: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>>
        %1 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>>
        %2 = iree_tensor_ext.dispatch.workload.ordinal %arg3, 0 : index
        %3 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x256xf32>>{%2}
        %4 = stream.binding.subspan %arg4[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x256xf32>>{%2}
        %5 = iree_tensor_ext.dispatch.tensor.load %3, offsets = [0, 0], sizes = [%2, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x256xf32>>{%2} -> tensor<?x256xf32>
        %6 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [256, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>> -> tensor<256x256xf32>
        %7 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [256], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>> -> tensor<256xf32>
        %8 = tensor.empty(%2) : tensor<?x256xf32>
        %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<?x256xf32>) -> tensor<?x256xf32>
        %10 = linalg.matmul ins(%5, %6 : tensor<?x256xf32>, tensor<256x256xf32>) outs(%9 : tensor<?x256xf32>) -> tensor<?x256xf32>
        %11 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%10, %7 : tensor<?x256xf32>, tensor<256xf32>) outs(%8 : tensor<?x256xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %12 = arith.addf %in, %in_0 : f32
          %13 = arith.maximumf %12, %cst : f32
          linalg.yield %13 : f32
        } -> tensor<?x256xf32>
        iree_tensor_ext.dispatch.tensor.store %11, %4, offsets = [0, 0], sizes = [%2, 256], strides = [1, 1] : tensor<?x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x256xf32>>{%2}
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view, %arg3: !hal.buffer_view, %arg4: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<?x256xf32>, %input1: tensor<256x256xf32>, %input2: tensor<256xf32>, %input3: tensor<256x256xf32>, %input4: tensor<256xf32>) -> (%output0: tensor<?x256xf32>)"}} {
    %c0 = arith.constant 0 : index
    %c262144 = arith.constant 262144 : index
    %c1024 = arith.constant 1024 : index
    %c256 = arith.constant 256 : index
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %element_type_f32 = hal.element_type<f32> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%0, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %1 = arith.muli %0, %c1024 : index
    %2 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg0 : !hal.buffer_view -> tensor<?x256xf32>{%0} in !stream.resource<external>{%1}
    %3 = stream.async.cast on(#hal.device.affinity<@dev_a>) %2 : !stream.resource<external>{%1} -> !stream.resource<*>{%1}
    hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %4 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg1 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %5 = stream.async.cast on(#hal.device.affinity<@dev_a>) %4 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg2 : !hal.buffer_view> message("input2") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %6 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg2 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %7 = stream.async.cast on(#hal.device.affinity<@dev_a>) %6 : !stream.resource<external>{%c1024} -> !stream.resource<*>{%c1024}
    hal.buffer_view.assert<%arg3 : !hal.buffer_view> message("input3") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %8 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg3 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %9 = stream.async.cast on(#hal.device.affinity<@dev_b>) %8 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg4 : !hal.buffer_view> message("input4") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %10 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg4 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %11 = stream.async.cast on(#hal.device.affinity<@dev_b>) %10 : !stream.resource<external>{%c1024} -> !stream.resource<*>{%c1024}
    %12 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_matmul_Dx256x256_f32[%0](%3[%c0 to %1 for %1], %5[%c0 to %c262144 for %c262144], %7[%c0 to %c1024 for %c1024], %0) : (!stream.resource<*>{%1}, !stream.resource<*>{%c262144}, !stream.resource<*>{%c1024}, index) -> !stream.resource<*>{%1}
    %13 = stream.async.transfer %12 : !stream.resource<*>{%1} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%1}
    %14 = stream.async.clone on(#hal.device.affinity<@dev_b>) %9 : !stream.resource<*>{%c262144} -> !stream.resource<*>{%c262144}
    %15 = stream.async.clone on(#hal.device.affinity<@dev_b>) %11 : !stream.resource<*>{%c1024} -> !stream.resource<*>{%c1024}
    %16 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_matmul_Dx256x256_f32[%0](%13[%c0 to %1 for %1], %14[%c0 to %c262144 for %c262144], %15[%c0 to %c1024 for %c1024], %0) : (!stream.resource<*>{%1}, !stream.resource<*>{%c262144}, !stream.resource<*>{%c1024}, index) -> !stream.resource<*>{%1}
    %17 = stream.async.transfer %16 : !stream.resource<*>{%1} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%1}
    %18 = stream.async.cast on(#hal.device.affinity<@dev_a>) %17 : !stream.resource<*>{%1} -> !stream.resource<external>{%1}
    %19 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %18 : tensor<?x256xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    util.return %19 : !hal.buffer_view
  }
}

