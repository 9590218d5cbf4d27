#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a = #device_target_local_0_
  util.global private @dev_b = #device_target_local_1_
  stream.executable private @main_dispatch_0 {
    stream.executable.export public @main_dispatch_0_reduction_16x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_reduction_16x256_f32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %cst = arith.constant 2.560000e+02 : f32
        %cst_0 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x256xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>> -> tensor<16x256xf32>
        %3 = tensor.empty() : tensor<16x256xf32>
        %4 = tensor.empty() : tensor<16xf32>
        %5 = linalg.fill ins(%cst_0 : f32) outs(%4 : tensor<16xf32>) -> tensor<16xf32>
        %6 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<16x256xf32>) outs(%5 : tensor<16xf32>) {
        ^bb0(%in: f32, %out: f32):
          %8 = arith.addf %out, %in : f32
          linalg.yield %8 : f32
        } -> tensor<16xf32>
        %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %6 : tensor<16x256xf32>, tensor<16xf32>) outs(%3 : tensor<16x256xf32>) {
        ^bb0(%in: f32, %in_1: f32, %out: f32):
          %8 = arith.divf %in_1, %cst : f32
          %9 = arith.subf %in, %8 : f32
          linalg.yield %9 : f32
        } -> tensor<16x256xf32>
        iree_tensor_ext.dispatch.tensor.store %7, %1, offsets = [0, 0], sizes = [16, 256], strides = [1, 1] : tensor<16x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x256xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_1 {
    stream.executable.export public @main_dispatch_1_reduction_16x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_1_reduction_16x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding, %arg3: !stream.binding) {
        %cst = arith.constant 9.99999974E-6 : f32
        %cst_0 = arith.constant 2.560000e+02 : f32
        %cst_1 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>>
        %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x256xf32>>
        %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>> -> tensor<16x256xf32>
        %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [256], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>> -> tensor<256xf32>
        %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [256], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>> -> tensor<256xf32>
        %7 = tensor.empty() : tensor<16x256xf32>
        %8 = tensor.empty() : tensor<16xf32>
        %9 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<16xf32>) -> tensor<16xf32>
        %10 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%4 : tensor<16x256xf32>) outs(%9 : tensor<16xf32>) {
        ^bb0(%in: f32, %out: f32):
          %12 = arith.mulf %in, %in : f32
          %13 = arith.addf %out, %12 : f32
          linalg.yield %13 : f32
        } -> tensor<16xf32>
        %11 = linalg.generic {indexing_maps = [#map, #map1, #map2, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %10, %5, %6 : tensor<16x256xf32>, tensor<16xf32>, tensor<256xf32>, tensor<256xf32>) outs(%7 : tensor<16x256xf32>) {
        ^bb0(%in: f32, %in_2: f32, %in_3: f32, %in_4: f32, %out: f32):
          %12 = arith.divf %in_2, %cst_0 : f32
          %13 = arith.addf %12, %cst : f32
          %14 = math.rsqrt %13 : f32
          %15 = arith.mulf %in, %14 : f32
          %16 = arith.mulf %15, %in_3 : f32
          %17 = arith.addf %16, %in_4 : f32
          linalg.yield %17 : f32
        } -> tensor<16x256xf32>
        iree_tensor_ext.dispatch.tensor.store %11, %3, offsets = [0, 0], sizes = [16, 256], strides = [1, 1] : tensor<16x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x256xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_2 {
    stream.executable.export public @main_dispatch_2_matmul_16x256x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_2_matmul_16x256x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x256xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>> -> tensor<16x256xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [256, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>> -> tensor<256x256xf32>
        %5 = tensor.empty() : tensor<16x256xf32>
        %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<16x256xf32>) -> tensor<16x256xf32>
        %7 = linalg.matmul ins(%3, %4 : tensor<16x256xf32>, tensor<256x256xf32>) outs(%6 : tensor<16x256xf32>) -> tensor<16x256xf32>
        iree_tensor_ext.dispatch.tensor.store %7, %2, offsets = [0, 0], sizes = [16, 256], strides = [1, 1] : tensor<16x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x256xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_3 {
    stream.executable.export public @main_dispatch_3_transpose_16x4x64_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_3_transpose_16x4x64_f32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x4x64xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x16x64xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [16, 4, 64], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x4x64xf32>> -> tensor<16x4x64xf32>
        %3 = tensor.empty() : tensor<4x16x64xf32>
        %4 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<16x4x64xf32>) outs(%3 : tensor<4x16x64xf32>) {
        ^bb0(%in: f32, %out: f32):
          linalg.yield %in : f32
        } -> tensor<4x16x64xf32>
        iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0, 0, 0], sizes = [4, 16, 64], strides = [1, 1, 1] : tensor<4x16x64xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x16x64xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_8 {
    stream.executable.export public @main_dispatch_8_batch_matmul_4x16x16x64_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_8_batch_matmul_4x16x16x64_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant -1.000000e+09 : f32
        %cst_0 = arith.constant 8.000000e+00 : f32
        %cst_1 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x16x64xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x16x64xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x16x16xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [4, 16, 64], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x16x64xf32>> -> tensor<4x16x64xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0, 0], sizes = [4, 16, 64], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x16x64xf32>> -> tensor<4x16x64xf32>
        %5 = tensor.empty() : tensor<4x16x16xf32>
        %6 = linalg.fill ins(%cst_1 : f32) outs(%5 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
        %7 = linalg.batch_matmul indexing_maps = [#map5, #map6, #map7] ins(%3, %4 : tensor<4x16x64xf32>, tensor<4x16x64xf32>) outs(%6 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
        %8 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7 : tensor<4x16x16xf32>) outs(%5 : tensor<4x16x16xf32>) {
        ^bb0(%in: f32, %out: f32):
          %9 = arith.divf %in, %cst_0 : f32
          %10 = linalg.index 2 : index
          %11 = arith.index_cast %10 : index to i32
          %12 = linalg.index 1 : index
          %13 = arith.index_cast %12 : index to i32
          %14 = arith.cmpi sge, %13, %11 : i32
          %15 = arith.select %14, %9, %cst : f32
          linalg.yield %15 : f32
        } -> tensor<4x16x16xf32>
        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0, 0], sizes = [4, 16, 16], strides = [1, 1, 1] : tensor<4x16x16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x16x16xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_9 {
    stream.executable.export public @main_dispatch_9_softmax_4x16x16xf32_dispatch_tensor_store workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_9_softmax_4x16x16xf32_dispatch_tensor_store(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x16x16xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x16x16xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [4, 16, 16], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x16x16xf32>> -> tensor<4x16x16xf32>
        %3 = tensor.empty() : tensor<4x16x16xf32>
        %4 = linalg.softmax dimension(2) ins(%2 : tensor<4x16x16xf32>) outs(%3 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
        iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0, 0, 0], sizes = [4, 16, 16], strides = [1, 1, 1] : tensor<4x16x16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x16x16xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_10 {
    stream.executable.export public @main_dispatch_10_batch_matmul_4x16x64x16_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_10_batch_matmul_4x16x64x16_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x16x16xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x16x64xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x4x64xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [4, 16, 16], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x16x16xf32>> -> tensor<4x16x16xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0, 0], sizes = [4, 16, 64], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x16x64xf32>> -> tensor<4x16x64xf32>
        %5 = tensor.empty() : tensor<16x4x64xf32>
        %6 = tensor.empty() : tensor<4x16x64xf32>
        %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
        %8 = linalg.batch_matmul ins(%3, %4 : tensor<4x16x16xf32>, tensor<4x16x64xf32>) outs(%7 : tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
        %9 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8 : tensor<4x16x64xf32>) outs(%5 : tensor<16x4x64xf32>) {
        ^bb0(%in: f32, %out: f32):
          linalg.yield %in : f32
        } -> tensor<16x4x64xf32>
        iree_tensor_ext.dispatch.tensor.store %9, %2, offsets = [0, 0, 0], sizes = [16, 4, 64], strides = [1, 1, 1] : tensor<16x4x64xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x4x64xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_11 {
    stream.executable.export public @main_dispatch_11_matmul_16x256x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_11_matmul_16x256x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding, %arg3: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>>
        %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x256xf32>>
        %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>> -> tensor<16x256xf32>
        %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [256, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x256xf32>> -> tensor<256x256xf32>
        %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [16, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>> -> tensor<16x256xf32>
        %7 = tensor.empty() : tensor<16x256xf32>
        %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<16x256xf32>) -> tensor<16x256xf32>
        %9 = linalg.matmul ins(%4, %5 : tensor<16x256xf32>, tensor<256x256xf32>) outs(%8 : tensor<16x256xf32>) -> tensor<16x256xf32>
        %10 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %9 : tensor<16x256xf32>, tensor<16x256xf32>) outs(%7 : tensor<16x256xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %11 = arith.addf %in, %in_0 : f32
          linalg.yield %11 : f32
        } -> tensor<16x256xf32>
        iree_tensor_ext.dispatch.tensor.store %10, %3, offsets = [0, 0], sizes = [16, 256], strides = [1, 1] : tensor<16x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x256xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_14 {
    stream.executable.export public @main_dispatch_14_matmul_16x512x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_14_matmul_16x512x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding, %arg3: !stream.binding) {
        %cst = arith.constant 5.000000e-01 : f32
        %cst_0 = arith.constant 1.000000e+00 : f32
        %cst_1 = arith.constant 0.797884583 : f32
        %cst_2 = arith.constant 4.471500e-02 : f32
        %cst_3 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x512xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<512xf32>>
        %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x512xf32>>
        %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>> -> tensor<16x256xf32>
        %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [256, 512], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x512xf32>> -> tensor<256x512xf32>
        %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [512], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<512xf32>> -> tensor<512xf32>
        %7 = tensor.empty() : tensor<16x512xf32>
        %8 = linalg.fill ins(%cst_3 : f32) outs(%7 : tensor<16x512xf32>) -> tensor<16x512xf32>
        %9 = linalg.matmul ins(%4, %5 : tensor<16x256xf32>, tensor<256x512xf32>) outs(%8 : tensor<16x512xf32>) -> tensor<16x512xf32>
        %10 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %6 : tensor<16x512xf32>, tensor<512xf32>) outs(%7 : tensor<16x512xf32>) {
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
        } -> tensor<16x512xf32>
        iree_tensor_ext.dispatch.tensor.store %10, %3, offsets = [0, 0], sizes = [16, 512], strides = [1, 1] : tensor<16x512xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x512xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_15 {
    stream.executable.export public @main_dispatch_15_matmul_16x256x512_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_15_matmul_16x256x512_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding, %arg3: !stream.binding, %arg4: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x512xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<512x256xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>>
        %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>>
        %4 = stream.binding.subspan %arg4[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x256xf32>>
        %5 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 512], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x512xf32>> -> tensor<16x512xf32>
        %6 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [512, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<512x256xf32>> -> tensor<512x256xf32>
        %7 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [16, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x256xf32>> -> tensor<16x256xf32>
        %8 = iree_tensor_ext.dispatch.tensor.load %3, offsets = [0], sizes = [256], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>> -> tensor<256xf32>
        %9 = tensor.empty() : tensor<16x256xf32>
        %10 = linalg.fill ins(%cst : f32) outs(%9 : tensor<16x256xf32>) -> tensor<16x256xf32>
        %11 = linalg.matmul ins(%5, %6 : tensor<16x512xf32>, tensor<512x256xf32>) outs(%10 : tensor<16x256xf32>) -> tensor<16x256xf32>
        %12 = linalg.generic {indexing_maps = [#map, #map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %11, %8 : tensor<16x256xf32>, tensor<16x256xf32>, tensor<256xf32>) outs(%9 : tensor<16x256xf32>) {
        ^bb0(%in: f32, %in_0: f32, %in_1: f32, %out: f32):
          %13 = arith.addf %in_0, %in_1 : f32
          %14 = arith.addf %in, %13 : f32
          linalg.yield %14 : f32
        } -> tensor<16x256xf32>
        iree_tensor_ext.dispatch.tensor.store %12, %4, offsets = [0, 0], sizes = [16, 256], strides = [1, 1] : tensor<16x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x256xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view, %arg3: !hal.buffer_view, %arg4: !hal.buffer_view, %arg5: !hal.buffer_view, %arg6: !hal.buffer_view, %arg7: !hal.buffer_view, %arg8: !hal.buffer_view, %arg9: !hal.buffer_view, %arg10: !hal.buffer_view, %arg11: !hal.buffer_view, %arg12: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<16x256xf32>, %input1: tensor<256xf32>, %input2: tensor<256xf32>, %input3: tensor<256x256xf32>, %input4: tensor<256x256xf32>, %input5: tensor<256x256xf32>, %input6: tensor<256x256xf32>, %input7: tensor<256xf32>, %input8: tensor<256xf32>, %input9: tensor<256x512xf32>, %input10: tensor<512xf32>, %input11: tensor<512x256xf32>, %input12: tensor<256xf32>) -> (%output0: tensor<16x256xf32>)"}} {
    %c32768 = arith.constant 32768 : index
    %c4096 = arith.constant 4096 : index
    %c0 = arith.constant 0 : index
    %c2048 = arith.constant 2048 : index
    %c524288 = arith.constant 524288 : index
    %c262144 = arith.constant 262144 : index
    %c1024 = arith.constant 1024 : index
    %c16384 = arith.constant 16384 : index
    %c512 = arith.constant 512 : index
    %c256 = arith.constant 256 : index
    %c16 = arith.constant 16 : index
    %element_type_f32 = hal.element_type<f32> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c16, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg0 : !hal.buffer_view -> tensor<16x256xf32> in !stream.resource<external>{%c16384}
    %1 = stream.async.cast on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<external>{%c16384} -> !stream.resource<*>{%c16384}
    hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %2 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg1 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %3 = stream.async.cast on(#hal.device.affinity<@dev_a>) %2 : !stream.resource<external>{%c1024} -> !stream.resource<*>{%c1024}
    hal.buffer_view.assert<%arg2 : !hal.buffer_view> message("input2") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %4 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg2 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %5 = stream.async.cast on(#hal.device.affinity<@dev_a>) %4 : !stream.resource<external>{%c1024} -> !stream.resource<*>{%c1024}
    hal.buffer_view.assert<%arg3 : !hal.buffer_view> message("input3") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %6 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg3 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %7 = stream.async.cast on(#hal.device.affinity<@dev_a>) %6 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg4 : !hal.buffer_view> message("input4") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %8 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg4 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %9 = stream.async.cast on(#hal.device.affinity<@dev_a>) %8 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg5 : !hal.buffer_view> message("input5") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %10 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg5 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %11 = stream.async.cast on(#hal.device.affinity<@dev_a>) %10 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg6 : !hal.buffer_view> message("input6") shape([%c256, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %12 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg6 : !hal.buffer_view -> tensor<256x256xf32> in !stream.resource<external>{%c262144}
    %13 = stream.async.cast on(#hal.device.affinity<@dev_a>) %12 : !stream.resource<external>{%c262144} -> !stream.resource<*>{%c262144}
    hal.buffer_view.assert<%arg7 : !hal.buffer_view> message("input7") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %14 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg7 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %15 = stream.async.cast on(#hal.device.affinity<@dev_b>) %14 : !stream.resource<external>{%c1024} -> !stream.resource<*>{%c1024}
    hal.buffer_view.assert<%arg8 : !hal.buffer_view> message("input8") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %16 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg8 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %17 = stream.async.cast on(#hal.device.affinity<@dev_b>) %16 : !stream.resource<external>{%c1024} -> !stream.resource<*>{%c1024}
    hal.buffer_view.assert<%arg9 : !hal.buffer_view> message("input9") shape([%c256, %c512]) type(%element_type_f32) encoding(%dense_row_major)
    %18 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg9 : !hal.buffer_view -> tensor<256x512xf32> in !stream.resource<external>{%c524288}
    %19 = stream.async.cast on(#hal.device.affinity<@dev_b>) %18 : !stream.resource<external>{%c524288} -> !stream.resource<*>{%c524288}
    hal.buffer_view.assert<%arg10 : !hal.buffer_view> message("input10") shape([%c512]) type(%element_type_f32) encoding(%dense_row_major)
    %20 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg10 : !hal.buffer_view -> tensor<512xf32> in !stream.resource<external>{%c2048}
    %21 = stream.async.cast on(#hal.device.affinity<@dev_b>) %20 : !stream.resource<external>{%c2048} -> !stream.resource<*>{%c2048}
    hal.buffer_view.assert<%arg11 : !hal.buffer_view> message("input11") shape([%c512, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %22 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg11 : !hal.buffer_view -> tensor<512x256xf32> in !stream.resource<external>{%c524288}
    %23 = stream.async.cast on(#hal.device.affinity<@dev_b>) %22 : !stream.resource<external>{%c524288} -> !stream.resource<*>{%c524288}
    hal.buffer_view.assert<%arg12 : !hal.buffer_view> message("input12") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %24 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg12 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %25 = stream.async.cast on(#hal.device.affinity<@dev_b>) %24 : !stream.resource<external>{%c1024} -> !stream.resource<*>{%c1024}
    %26 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_reduction_16x256_f32(%1[%c0 to %c16384 for %c16384]) : (!stream.resource<*>{%c16384}) -> !stream.resource<*>{%c16384}
    %27 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_1::@main_dispatch_1_reduction_16x256_f32(%26[%c0 to %c16384 for %c16384], %3[%c0 to %c1024 for %c1024], %5[%c0 to %c1024 for %c1024]) : (!stream.resource<*>{%c16384}, !stream.resource<*>{%c1024}, !stream.resource<*>{%c1024}) -> !stream.resource<*>{%c16384}
    %28 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_2::@main_dispatch_2_matmul_16x256x256_f32(%27[%c0 to %c16384 for %c16384], %7[%c0 to %c262144 for %c262144]) : (!stream.resource<*>{%c16384}, !stream.resource<*>{%c262144}) -> !stream.resource<*>{%c16384}
    %29 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_3::@main_dispatch_3_transpose_16x4x64_f32(%28[%c0 to %c16384 for %c16384]) : (!stream.resource<*>{%c16384}) -> !stream.resource<*>{%c16384}
    %30 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_2::@main_dispatch_2_matmul_16x256x256_f32(%27[%c0 to %c16384 for %c16384], %9[%c0 to %c262144 for %c262144]) : (!stream.resource<*>{%c16384}, !stream.resource<*>{%c262144}) -> !stream.resource<*>{%c16384}
    %31 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_3::@main_dispatch_3_transpose_16x4x64_f32(%30[%c0 to %c16384 for %c16384]) : (!stream.resource<*>{%c16384}) -> !stream.resource<*>{%c16384}
    %32 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_2::@main_dispatch_2_matmul_16x256x256_f32(%27[%c0 to %c16384 for %c16384], %11[%c0 to %c262144 for %c262144]) : (!stream.resource<*>{%c16384}, !stream.resource<*>{%c262144}) -> !stream.resource<*>{%c16384}
    %33 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_3::@main_dispatch_3_transpose_16x4x64_f32(%32[%c0 to %c16384 for %c16384]) : (!stream.resource<*>{%c16384}) -> !stream.resource<*>{%c16384}
    %34 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_8::@main_dispatch_8_batch_matmul_4x16x16x64_f32(%29[%c0 to %c16384 for %c16384], %31[%c0 to %c16384 for %c16384]) : (!stream.resource<*>{%c16384}, !stream.resource<*>{%c16384}) -> !stream.resource<*>{%c4096}
    %35 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_9::@main_dispatch_9_softmax_4x16x16xf32_dispatch_tensor_store(%34[%c0 to %c4096 for %c4096]) : (!stream.resource<*>{%c4096}) -> !stream.resource<*>{%c4096}
    %36 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_10::@main_dispatch_10_batch_matmul_4x16x64x16_f32(%35[%c0 to %c4096 for %c4096], %33[%c0 to %c16384 for %c16384]) : (!stream.resource<*>{%c4096}, !stream.resource<*>{%c16384}) -> !stream.resource<*>{%c16384}
    %37 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_11::@main_dispatch_11_matmul_16x256x256_f32(%36[%c0 to %c16384 for %c16384], %13[%c0 to %c262144 for %c262144], %1[%c0 to %c16384 for %c16384]) : (!stream.resource<*>{%c16384}, !stream.resource<*>{%c262144}, !stream.resource<*>{%c16384}) -> !stream.resource<*>{%c16384}
    %38 = stream.async.transfer %37 : !stream.resource<*>{%c16384} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%c16384}
    %39 = stream.async.clone on(#hal.device.affinity<@dev_b>) %15 : !stream.resource<*>{%c1024} -> !stream.resource<*>{%c1024}
    %40 = stream.async.clone on(#hal.device.affinity<@dev_b>) %17 : !stream.resource<*>{%c1024} -> !stream.resource<*>{%c1024}
    %41 = stream.async.clone on(#hal.device.affinity<@dev_b>) %19 : !stream.resource<*>{%c524288} -> !stream.resource<*>{%c524288}
    %42 = stream.async.clone on(#hal.device.affinity<@dev_b>) %21 : !stream.resource<*>{%c2048} -> !stream.resource<*>{%c2048}
    %43 = stream.async.clone on(#hal.device.affinity<@dev_b>) %23 : !stream.resource<*>{%c524288} -> !stream.resource<*>{%c524288}
    %44 = stream.async.clone on(#hal.device.affinity<@dev_b>) %25 : !stream.resource<*>{%c1024} -> !stream.resource<*>{%c1024}
    %45 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_reduction_16x256_f32(%38[%c0 to %c16384 for %c16384]) : (!stream.resource<*>{%c16384}) -> !stream.resource<*>{%c16384}
    %46 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_1::@main_dispatch_1_reduction_16x256_f32(%45[%c0 to %c16384 for %c16384], %39[%c0 to %c1024 for %c1024], %40[%c0 to %c1024 for %c1024]) : (!stream.resource<*>{%c16384}, !stream.resource<*>{%c1024}, !stream.resource<*>{%c1024}) -> !stream.resource<*>{%c16384}
    %47 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_14::@main_dispatch_14_matmul_16x512x256_f32(%46[%c0 to %c16384 for %c16384], %41[%c0 to %c524288 for %c524288], %42[%c0 to %c2048 for %c2048]) : (!stream.resource<*>{%c16384}, !stream.resource<*>{%c524288}, !stream.resource<*>{%c2048}) -> !stream.resource<*>{%c32768}
    %48 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_15::@main_dispatch_15_matmul_16x256x512_f32(%47[%c0 to %c32768 for %c32768], %43[%c0 to %c524288 for %c524288], %38[%c0 to %c16384 for %c16384], %44[%c0 to %c1024 for %c1024]) : (!stream.resource<*>{%c32768}, !stream.resource<*>{%c524288}, !stream.resource<*>{%c16384}, !stream.resource<*>{%c1024}) -> !stream.resource<*>{%c16384}
    %49 = stream.async.transfer %48 : !stream.resource<*>{%c16384} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%c16384}
    %50 = stream.async.cast on(#hal.device.affinity<@dev_a>) %49 : !stream.resource<*>{%c16384} -> !stream.resource<external>{%c16384}
    %51 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %50 : tensor<16x256xf32> in !stream.resource<external>{%c16384} -> !hal.buffer_view
    util.return %51 : !hal.buffer_view
  }
}

