#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_2_ = #hal.device.target<"local", {ordinal = 2 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a = #device_target_local_0_
  util.global private @dev_b = #device_target_local_1_
  util.global private @dev_c = #device_target_local_2_
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
  stream.executable private @main_dispatch_1 {
    stream.executable.export public @main_dispatch_1_matmul_4x256x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_1_matmul_4x256x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x256xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [4, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x256xf32>> -> tensor<4x256xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [256, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>> -> tensor<256x256xf32>
        %5 = tensor.empty() : tensor<4x256xf32>
        %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<4x256xf32>) -> tensor<4x256xf32>
        %7 = linalg.matmul ins(%3, %4 : tensor<4x256xf32>, tensor<256x256xf32>) outs(%6 : tensor<4x256xf32>) -> tensor<4x256xf32>
        %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<4x256xf32>) outs(%5 : tensor<4x256xf32>) {
        ^bb0(%in: f32, %out: f32):
          %9 = math.tanh %in : f32
          linalg.yield %9 : f32
        } -> tensor<4x256xf32>
        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0], sizes = [4, 256], strides = [1, 1] : tensor<4x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x256xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<8x256xf32>, %input1: tensor<256x256xf32>, %input2: tensor<256xf32>) -> (%output0: tensor<8x256xf32>)"}} {
    %c0 = arith.constant 0 : index
    %c4096 = arith.constant 4096 : index
    %c1024 = arith.constant 1024 : index
    %c262144 = arith.constant 262144 : index
    %c8192 = arith.constant 8192 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %element_type_f32 = hal.element_type<f32> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c8, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg0 : !hal.buffer_view -> tensor<8x256xf32> in !stream.resource<external>{%c8192}
    hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %1 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg1 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    hal.buffer_view.assert<%arg2 : !hal.buffer_view> message("input2") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %2 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg2 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %3 = stream.async.slice on(#hal.device.affinity<@dev_a>) %0[%c0 to %c4096] : !stream.resource<external>{%c8192} -> !stream.resource<external>{%c4096}
    %4 = stream.async.slice on(#hal.device.affinity<@dev_a>) %0[%c4096 to %c8192] : !stream.resource<external>{%c8192} -> !stream.resource<external>{%c4096}
    %5 = stream.async.transfer %3 : !stream.resource<external>{%c4096} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%c4096}
    %6 = stream.async.transfer %4 : !stream.resource<external>{%c4096} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<transient>{%c4096}
    hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %7 = stream.tensor.import on(#hal.device.affinity<@dev_c>) %arg1 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    hal.buffer_view.assert<%arg2 : !hal.buffer_view> message("input2") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %8 = stream.tensor.import on(#hal.device.affinity<@dev_c>) %arg2 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %9 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%5[%c0 to %c4096 for %c4096], %1[%c0 to %c262144 for %c262144], %2[%c0 to %c1024 for %c1024]) : (!stream.resource<transient>{%c4096}, !stream.resource<external>{%c262144}, !stream.resource<external>{%c1024}) -> !stream.resource<transient>{%c4096}
    %10 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_1::@main_dispatch_1_matmul_4x256x256_f32(%9[%c0 to %c4096 for %c4096], %1[%c0 to %c262144 for %c262144]) : (!stream.resource<transient>{%c4096}, !stream.resource<external>{%c262144}) -> !stream.resource<transient>{%c4096}
    %11 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_0::@main_dispatch_0_matmul_4x256x256_f32(%6[%c0 to %c4096 for %c4096], %7[%c0 to %c262144 for %c262144], %8[%c0 to %c1024 for %c1024]) : (!stream.resource<transient>{%c4096}, !stream.resource<external>{%c262144}, !stream.resource<external>{%c1024}) -> !stream.resource<transient>{%c4096}
    %12 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_1::@main_dispatch_1_matmul_4x256x256_f32(%11[%c0 to %c4096 for %c4096], %7[%c0 to %c262144 for %c262144]) : (!stream.resource<transient>{%c4096}, !stream.resource<external>{%c262144}) -> !stream.resource<transient>{%c4096}
    %13 = stream.async.transfer %10 : !stream.resource<transient>{%c4096} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%c4096}
    %14 = stream.async.transfer %12 : !stream.resource<transient>{%c4096} from(#hal.device.affinity<@dev_c>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%c4096}
    %15 = stream.async.alloca on(#hal.device.affinity<@dev_a>) : !stream.resource<external>{%c8192}
    %16 = stream.async.update on(#hal.device.affinity<@dev_a>) %13, %15[%c0 to %c4096] : !stream.resource<transient>{%c4096} -> %15 as !stream.resource<external>{%c8192}
    %17 = stream.async.update on(#hal.device.affinity<@dev_a>) %14, %16[%c4096 to %c8192] : !stream.resource<transient>{%c4096} -> %16 as !stream.resource<external>{%c8192}
    %18 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %17 : tensor<8x256xf32> in !stream.resource<external>{%c8192} -> !hal.buffer_view
    util.return %18 : !hal.buffer_view
  }
}

