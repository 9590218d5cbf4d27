#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0) -> (d0)>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a = #device_target_local_0_
  util.global private @dev_b = #device_target_local_1_
  stream.executable private @main_dispatch_0 {
    stream.executable.export public @main_dispatch_0_matmul_8x256x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_matmul_8x256x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding, %arg3: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>>
        %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x256xf32>>
        %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [8, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x256xf32>> -> tensor<8x256xf32>
        %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [256, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>> -> tensor<256x256xf32>
        %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [256], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>> -> tensor<256xf32>
        %7 = tensor.empty() : tensor<8x256xf32>
        %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<8x256xf32>) -> tensor<8x256xf32>
        %9 = linalg.matmul ins(%4, %5 : tensor<8x256xf32>, tensor<256x256xf32>) outs(%8 : tensor<8x256xf32>) -> tensor<8x256xf32>
        %10 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %6 : tensor<8x256xf32>, tensor<256xf32>) outs(%7 : tensor<8x256xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %11 = arith.addf %in, %in_0 : f32
          %12 = arith.maximumf %11, %cst : f32
          linalg.yield %12 : f32
        } -> tensor<8x256xf32>
        iree_tensor_ext.dispatch.tensor.store %10, %3, offsets = [0, 0], sizes = [8, 256], strides = [1, 1] : tensor<8x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x256xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_1 {
    stream.executable.export public @main_dispatch_1_reduction_8x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_1_reduction_8x256_f32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %cst = arith.constant 2.560000e+02 : f32
        %cst_0 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x256xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [8, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x256xf32>> -> tensor<8x256xf32>
        %3 = tensor.empty() : tensor<8x256xf32>
        %4 = tensor.empty() : tensor<8xf32>
        %5 = linalg.fill ins(%cst_0 : f32) outs(%4 : tensor<8xf32>) -> tensor<8xf32>
        %6 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<8x256xf32>) outs(%5 : tensor<8xf32>) {
        ^bb0(%in: f32, %out: f32):
          %8 = arith.addf %out, %in : f32
          linalg.yield %8 : f32
        } -> tensor<8xf32>
        %7 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %6 : tensor<8x256xf32>, tensor<8xf32>) outs(%3 : tensor<8x256xf32>) {
        ^bb0(%in: f32, %in_1: f32, %out: f32):
          %8 = arith.divf %in_1, %cst : f32
          %9 = arith.subf %in, %8 : f32
          linalg.yield %9 : f32
        } -> tensor<8x256xf32>
        iree_tensor_ext.dispatch.tensor.store %7, %1, offsets = [0, 0], sizes = [8, 256], strides = [1, 1] : tensor<8x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x256xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_2 {
    stream.executable.export public @main_dispatch_2_reduction_8x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_2_reduction_8x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant 9.99999974E-6 : f32
        %cst_0 = arith.constant 2.560000e+02 : f32
        %cst_1 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x256xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [8, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x256xf32>> -> tensor<8x256xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [256], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>> -> tensor<256xf32>
        %5 = tensor.empty() : tensor<8x256xf32>
        %6 = tensor.empty() : tensor<8xf32>
        %7 = linalg.fill ins(%cst_1 : f32) outs(%6 : tensor<8xf32>) -> tensor<8xf32>
        %8 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%3 : tensor<8x256xf32>) outs(%7 : tensor<8xf32>) {
        ^bb0(%in: f32, %out: f32):
          %10 = arith.mulf %in, %in : f32
          %11 = arith.addf %out, %10 : f32
          linalg.yield %11 : f32
        } -> tensor<8xf32>
        %9 = linalg.generic {indexing_maps = [#map, #map2, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %8, %4 : tensor<8x256xf32>, tensor<8xf32>, tensor<256xf32>) outs(%5 : tensor<8x256xf32>) {
        ^bb0(%in: f32, %in_2: f32, %in_3: f32, %out: f32):
          %10 = arith.divf %in_2, %cst_0 : f32
          %11 = arith.addf %10, %cst : f32
          %12 = math.rsqrt %11 : f32
          %13 = arith.mulf %in, %12 : f32
          %14 = arith.mulf %13, %in_3 : f32
          %15 = arith.addf %14, %in_3 : f32
          linalg.yield %15 : f32
        } -> tensor<8x256xf32>
        iree_tensor_ext.dispatch.tensor.store %9, %2, offsets = [0, 0], sizes = [8, 256], strides = [1, 1] : tensor<8x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x256xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_3 {
    stream.executable.export public @main_dispatch_3_matmul_8x256x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_3_matmul_8x256x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding, %arg3: !stream.binding) {
        %cst = arith.constant 5.000000e-01 : f32
        %cst_0 = arith.constant 1.000000e+00 : f32
        %cst_1 = arith.constant 0.797884583 : f32
        %cst_2 = arith.constant 4.471500e-02 : f32
        %cst_3 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>>
        %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x256xf32>>
        %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [8, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x256xf32>> -> tensor<8x256xf32>
        %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [256, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>> -> tensor<256x256xf32>
        %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [256], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>> -> tensor<256xf32>
        %7 = tensor.empty() : tensor<8x256xf32>
        %8 = linalg.fill ins(%cst_3 : f32) outs(%7 : tensor<8x256xf32>) -> tensor<8x256xf32>
        %9 = linalg.matmul ins(%4, %5 : tensor<8x256xf32>, tensor<256x256xf32>) outs(%8 : tensor<8x256xf32>) -> tensor<8x256xf32>
        %10 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %6 : tensor<8x256xf32>, tensor<256xf32>) outs(%7 : tensor<8x256xf32>) {
        ^bb0(%in: f32, %in_4: f32, %out: f32):
          %11 = arith.addf %in, %in_4 : f32
          %12 = arith.mulf %11, %11 : f32
          %13 = arith.mulf %12, %11 : f32
          %14 = arith.mulf %13, %cst_2 : f32
          %15 = arith.addf %11, %14 : f32
          %16 = arith.mulf %15, %cst_1 : f32
          %17 = math.tanh %16 : f32
          %18 = arith.addf %17, %cst_0 : f32
          %19 = arith.mulf %18, %cst : f32
          %20 = arith.mulf %11, %19 : f32
          linalg.yield %20 : f32
        } -> tensor<8x256xf32>
        iree_tensor_ext.dispatch.tensor.store %10, %3, offsets = [0, 0], sizes = [8, 256], strides = [1, 1] : tensor<8x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x256xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_4 {
    stream.executable.export public @main_dispatch_4_elementwise_2048_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_4_elementwise_2048_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2048xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [2048], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048xf32>> -> tensor<2048xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [2048], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048xf32>> -> tensor<2048xf32>
        %5 = tensor.empty() : tensor<2048xf32>
        %6 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel"]} ins(%3, %4 : tensor<2048xf32>, tensor<2048xf32>) outs(%5 : tensor<2048xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %7 = arith.addf %in, %in_0 : f32
          linalg.yield %7 : f32
        } -> tensor<2048xf32>
        iree_tensor_ext.dispatch.tensor.store %6, %2, offsets = [0], sizes = [2048], strides = [1] : tensor<2048xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2048xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_5 {
    stream.executable.export public @main_dispatch_5_matmul_8x256x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_5_matmul_8x256x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x256xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [8, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x256xf32>> -> tensor<8x256xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [256, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>> -> tensor<256x256xf32>
        %5 = tensor.empty() : tensor<8x256xf32>
        %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<8x256xf32>) -> tensor<8x256xf32>
        %7 = linalg.matmul ins(%3, %4 : tensor<8x256xf32>, tensor<256x256xf32>) outs(%6 : tensor<8x256xf32>) -> tensor<8x256xf32>
        %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<8x256xf32>) outs(%5 : tensor<8x256xf32>) {
        ^bb0(%in: f32, %out: f32):
          %9 = math.tanh %in : f32
          linalg.yield %9 : f32
        } -> tensor<8x256xf32>
        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0], sizes = [8, 256], strides = [1, 1] : tensor<8x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x256xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view, %arg3: !hal.buffer_view, %arg4: !hal.buffer_view, %arg5: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<8x256xf32>, %input1: tensor<256x256xf32>, %input2: tensor<256xf32>, %input3: tensor<256x256xf32>, %input4: tensor<256xf32>, %input5: tensor<256x256xf32>) -> (%output0: tensor<8x256xf32>)"}} {
    %c0 = arith.constant 0 : index
    %c1024 = arith.constant 1024 : index
    %c262144 = arith.constant 262144 : index
    %c8192 = arith.constant 8192 : index
    %c256 = arith.constant 256 : index
    %c8 = arith.constant 8 : index
    %element_type_f32 = hal.element_type<f32> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c8, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg0 : !hal.buffer_view -> tensor<8x256xf32> in !stream.resource<external>{%c8192}
    hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %1 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg1 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    hal.buffer_view.assert<%arg2 : !hal.buffer_view> message("input2") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %2 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg2 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    hal.buffer_view.assert<%arg3 : !hal.buffer_view> message("input3") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %3 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg3 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    hal.buffer_view.assert<%arg4 : !hal.buffer_view> message("input4") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %4 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg4 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    hal.buffer_view.assert<%arg5 : !hal.buffer_view> message("input5") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %5 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg5 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %6 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_matmul_8x256x256_f32(%0[%c0 to %c8192 for %c8192], %1[%c0 to %c262144 for %c262144], %2[%c0 to %c1024 for %c1024]) : (!stream.resource<external>{%c8192}, !stream.resource<external>{%c262144}, !stream.resource<external>{%c1024}) -> !stream.resource<transient>{%c8192}
    %7 = stream.async.transfer %6 : !stream.resource<transient>{%c8192} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%c8192}
    %8 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_1::@main_dispatch_1_reduction_8x256_f32(%7[%c0 to %c8192 for %c8192]) : (!stream.resource<transient>{%c8192}) -> !stream.resource<transient>{%c8192}
    %9 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_2::@main_dispatch_2_reduction_8x256_f32(%8[%c0 to %c8192 for %c8192], %4[%c0 to %c1024 for %c1024]) : (!stream.resource<transient>{%c8192}, !stream.resource<external>{%c1024}) -> !stream.resource<transient>{%c8192}
    %10 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_3::@main_dispatch_3_matmul_8x256x256_f32(%9[%c0 to %c8192 for %c8192], %3[%c0 to %c262144 for %c262144], %4[%c0 to %c1024 for %c1024]) : (!stream.resource<transient>{%c8192}, !stream.resource<external>{%c262144}, !stream.resource<external>{%c1024}) -> !stream.resource<transient>{%c8192}
    %11 = stream.async.transfer %10 : !stream.resource<transient>{%c8192} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%c8192}
    %12 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_4::@main_dispatch_4_elementwise_2048_f32(%6[%c0 to %c8192 for %c8192], %11[%c0 to %c8192 for %c8192]) : (!stream.resource<transient>{%c8192}, !stream.resource<transient>{%c8192}) -> !stream.resource<transient>{%c8192}
    %13 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_5::@main_dispatch_5_matmul_8x256x256_f32(%12[%c0 to %c8192 for %c8192], %5[%c0 to %c262144 for %c262144]) : (!stream.resource<transient>{%c8192}, !stream.resource<external>{%c262144}) -> !stream.resource<external>{%c8192}
    %14 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %13 : tensor<8x256xf32> in !stream.resource<external>{%c8192} -> !hal.buffer_view
    util.return %14 : !hal.buffer_view
  }
}

