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
    hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %1 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg1 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    hal.buffer_view.assert<%arg2 : !hal.buffer_view> message("input2") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %2 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg2 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    hal.buffer_view.assert<%arg3 : !hal.buffer_view> message("input3") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %3 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg3 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    hal.buffer_view.assert<%arg4 : !hal.buffer_view> message("input4") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %4 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg4 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    hal.buffer_view.assert<%arg5 : !hal.buffer_view> message("input5") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %5 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg5 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    hal.buffer_view.assert<%arg6 : !hal.buffer_view> message("input6") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %6 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg6 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    hal.buffer_view.assert<%arg7 : !hal.buffer_view> message("input7") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %7 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg7 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    hal.buffer_view.assert<%arg8 : !hal.buffer_view> message("input8") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %8 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg8 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    hal.buffer_view.assert<%arg9 : !hal.buffer_view> message("input9") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %9 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg9 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    hal.buffer_view.assert<%arg10 : !hal.buffer_view> message("input10") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %10 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg10 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    hal.buffer_view.assert<%arg11 : !hal.buffer_view> message("input11") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %11 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg11 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    hal.buffer_view.assert<%arg12 : !hal.buffer_view> message("input12") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %12 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg12 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %13 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%0[%c0 to %c4096 for %c4096], %1[%c0 to %c262144 for %c262144], %2[%c0 to %c1024 for %c1024]) : (!stream.resource<external>{%c4096}, !stream.resource<external>{%c262144}, !stream.resource<external>{%c1024}) -> !stream.resource<transient>{%c4096}
    %14 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%13[%c0 to %c4096 for %c4096], %3[%c0 to %c262144 for %c262144], %4[%c0 to %c1024 for %c1024]) : (!stream.resource<transient>{%c4096}, !stream.resource<external>{%c262144}, !stream.resource<external>{%c1024}) -> !stream.resource<transient>{%c4096}
    %15 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%14[%c0 to %c4096 for %c4096], %5[%c0 to %c262144 for %c262144], %6[%c0 to %c1024 for %c1024]) : (!stream.resource<transient>{%c4096}, !stream.resource<external>{%c262144}, !stream.resource<external>{%c1024}) -> !stream.resource<transient>{%c4096}
    %16 = stream.async.transfer %15 : !stream.resource<transient>{%c4096} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%c4096}
    %17 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%16[%c0 to %c4096 for %c4096], %7[%c0 to %c262144 for %c262144], %8[%c0 to %c1024 for %c1024]) : (!stream.resource<transient>{%c4096}, !stream.resource<external>{%c262144}, !stream.resource<external>{%c1024}) -> !stream.resource<transient>{%c4096}
    %18 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%17[%c0 to %c4096 for %c4096], %9[%c0 to %c262144 for %c262144], %10[%c0 to %c1024 for %c1024]) : (!stream.resource<transient>{%c4096}, !stream.resource<external>{%c262144}, !stream.resource<external>{%c1024}) -> !stream.resource<transient>{%c4096}
    %19 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%18[%c0 to %c4096 for %c4096], %11[%c0 to %c262144 for %c262144], %12[%c0 to %c1024 for %c1024]) : (!stream.resource<transient>{%c4096}, !stream.resource<external>{%c262144}, !stream.resource<external>{%c1024}) -> !stream.resource<transient>{%c4096}
    %20 = stream.async.transfer %19 : !stream.resource<transient>{%c4096} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<external>{%c4096}
    %21 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %20 : tensor<4x256xf32> in !stream.resource<external>{%c4096} -> !hal.buffer_view
    util.return %21 : !hal.buffer_view
  }
}

