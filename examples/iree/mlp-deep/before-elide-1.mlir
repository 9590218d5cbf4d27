#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a = #device_target_local_0_
  util.global private @dev_b = #device_target_local_1_
  stream.executable private @main_dispatch_0 {
    stream.executable.export public @main_dispatch_0_matmul_4x256x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_matmul_4x256x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding, %arg3: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>>
        %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x256xf32>>
        %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [4, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x256xf32>> -> tensor<4x256xf32>
        %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [256, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>> -> tensor<256x256xf32>
        %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [256], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>> -> tensor<256xf32>
        %7 = tensor.empty() : tensor<4x256xf32>
        %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<4x256xf32>) -> tensor<4x256xf32>
        %9 = linalg.matmul ins(%4, %5 : tensor<4x256xf32>, tensor<256x256xf32>) outs(%8 : tensor<4x256xf32>) -> tensor<4x256xf32>
        %10 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %6 : tensor<4x256xf32>, tensor<256xf32>) outs(%7 : tensor<4x256xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %11 = arith.addf %in, %in_0 : f32
          %12 = arith.maximumf %11, %cst : f32
          linalg.yield %12 : f32
        } -> tensor<4x256xf32>
        iree_tensor_ext.dispatch.tensor.store %10, %3, offsets = [0, 0], sizes = [4, 256], strides = [1, 1] : tensor<4x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x256xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view, %arg3: !hal.buffer_view, %arg4: !hal.buffer_view, %arg5: !hal.buffer_view, %arg6: !hal.buffer_view, %arg7: !hal.buffer_view, %arg8: !hal.buffer_view, %arg9: !hal.buffer_view, %arg10: !hal.buffer_view, %arg11: !hal.buffer_view, %arg12: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<4x256xf32>, %input1: tensor<256x256xf32>, %input2: tensor<256xf32>, %input3: tensor<256x256xf32>, %input4: tensor<256xf32>, %input5: tensor<256x256xf32>, %input6: tensor<256xf32>, %input7: tensor<256x256xf32>, %input8: tensor<256xf32>, %input9: tensor<256x256xf32>, %input10: tensor<256xf32>, %input11: tensor<256x256xf32>, %input12: tensor<256xf32>) -> (%output0: tensor<4x256xf32>)"}} {
    %c0 = arith.constant 0 : index
    %c1024 = arith.constant 1024 : index
    %c262144 = arith.constant 262144 : index
    %c4096 = arith.constant 4096 : index
    %c256 = arith.constant 256 : index
    %c4 = arith.constant 4 : index
    %element_type_f32 = hal.element_type<f32> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c4, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg0 : !hal.buffer_view -> tensor<4x256xf32> in !stream.resource<external>{%c4096}
    %1 = stream.async.cast on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<external>{%c4096} -> !stream.resource<*>{%c4096}
    hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %2 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg1 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %3 = stream.async.cast on(#hal.device.affinity<@dev_a>) %2 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg2 : !hal.buffer_view> message("input2") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %4 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg2 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %5 = stream.async.cast on(#hal.device.affinity<@dev_a>) %4 : !stream.resource<external>{%c1024} -> !stream.resource<*>{%c1024}
    hal.buffer_view.assert<%arg3 : !hal.buffer_view> message("input3") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %6 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg3 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %7 = stream.async.cast on(#hal.device.affinity<@dev_a>) %6 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg4 : !hal.buffer_view> message("input4") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %8 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg4 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %9 = stream.async.cast on(#hal.device.affinity<@dev_a>) %8 : !stream.resource<external>{%c1024} -> !stream.resource<*>{%c1024}
    hal.buffer_view.assert<%arg5 : !hal.buffer_view> message("input5") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %10 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg5 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %11 = stream.async.cast on(#hal.device.affinity<@dev_a>) %10 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg6 : !hal.buffer_view> message("input6") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %12 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg6 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %13 = stream.async.cast on(#hal.device.affinity<@dev_a>) %12 : !stream.resource<external>{%c1024} -> !stream.resource<*>{%c1024}
    hal.buffer_view.assert<%arg7 : !hal.buffer_view> message("input7") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %14 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg7 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %15 = stream.async.cast on(#hal.device.affinity<@dev_b>) %14 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg8 : !hal.buffer_view> message("input8") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %16 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg8 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %17 = stream.async.cast on(#hal.device.affinity<@dev_b>) %16 : !stream.resource<external>{%c1024} -> !stream.resource<*>{%c1024}
    hal.buffer_view.assert<%arg9 : !hal.buffer_view> message("input9") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %18 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg9 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %19 = stream.async.cast on(#hal.device.affinity<@dev_b>) %18 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg10 : !hal.buffer_view> message("input10") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %20 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg10 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %21 = stream.async.cast on(#hal.device.affinity<@dev_b>) %20 : !stream.resource<external>{%c1024} -> !stream.resource<*>{%c1024}
    hal.buffer_view.assert<%arg11 : !hal.buffer_view> message("input11") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %22 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg11 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %23 = stream.async.cast on(#hal.device.affinity<@dev_b>) %22 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg12 : !hal.buffer_view> message("input12") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %24 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg12 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %25 = stream.async.cast on(#hal.device.affinity<@dev_b>) %24 : !stream.resource<external>{%c1024} -> !stream.resource<*>{%c1024}
    %26 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%1[%c0 to %c4096 for %c4096], %3[%c0 to %c262144 for %c262144], %5[%c0 to %c1024 for %c1024]) : (!stream.resource<*>{%c4096}, !stream.resource<*>{%c262144}, !stream.resource<*>{%c1024}) -> !stream.resource<*>{%c4096}
    %27 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%26[%c0 to %c4096 for %c4096], %7[%c0 to %c262144 for %c262144], %9[%c0 to %c1024 for %c1024]) : (!stream.resource<*>{%c4096}, !stream.resource<*>{%c262144}, !stream.resource<*>{%c1024}) -> !stream.resource<*>{%c4096}
    %28 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%27[%c0 to %c4096 for %c4096], %11[%c0 to %c262144 for %c262144], %13[%c0 to %c1024 for %c1024]) : (!stream.resource<*>{%c4096}, !stream.resource<*>{%c262144}, !stream.resource<*>{%c1024}) -> !stream.resource<*>{%c4096}
    %29 = stream.async.transfer %28 : !stream.resource<*>{%c4096} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%c4096}
    %30 = stream.async.clone on(#hal.device.affinity<@dev_b>) %15 : !stream.resource<*>{%c262144} -> !stream.resource<*>{%c262144}
    %31 = stream.async.clone on(#hal.device.affinity<@dev_b>) %17 : !stream.resource<*>{%c1024} -> !stream.resource<*>{%c1024}
    %32 = stream.async.clone on(#hal.device.affinity<@dev_b>) %19 : !stream.resource<*>{%c262144} -> !stream.resource<*>{%c262144}
    %33 = stream.async.clone on(#hal.device.affinity<@dev_b>) %21 : !stream.resource<*>{%c1024} -> !stream.resource<*>{%c1024}
    %34 = stream.async.clone on(#hal.device.affinity<@dev_b>) %23 : !stream.resource<*>{%c262144} -> !stream.resource<*>{%c262144}
    %35 = stream.async.clone on(#hal.device.affinity<@dev_b>) %25 : !stream.resource<*>{%c1024} -> !stream.resource<*>{%c1024}
    %36 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%29[%c0 to %c4096 for %c4096], %30[%c0 to %c262144 for %c262144], %31[%c0 to %c1024 for %c1024]) : (!stream.resource<*>{%c4096}, !stream.resource<*>{%c262144}, !stream.resource<*>{%c1024}) -> !stream.resource<*>{%c4096}
    %37 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%36[%c0 to %c4096 for %c4096], %32[%c0 to %c262144 for %c262144], %33[%c0 to %c1024 for %c1024]) : (!stream.resource<*>{%c4096}, !stream.resource<*>{%c262144}, !stream.resource<*>{%c1024}) -> !stream.resource<*>{%c4096}
    %38 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%37[%c0 to %c4096 for %c4096], %34[%c0 to %c262144 for %c262144], %35[%c0 to %c1024 for %c1024]) : (!stream.resource<*>{%c4096}, !stream.resource<*>{%c262144}, !stream.resource<*>{%c1024}) -> !stream.resource<*>{%c4096}
    %39 = stream.async.transfer %38 : !stream.resource<*>{%c4096} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%c4096}
    %40 = stream.async.cast on(#hal.device.affinity<@dev_a>) %39 : !stream.resource<*>{%c4096} -> !stream.resource<external>{%c4096}
    %41 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %40 : tensor<4x256xf32> in !stream.resource<external>{%c4096} -> !hal.buffer_view
    util.return %41 : !hal.buffer_view
  }
}

