#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#map7 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map8 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4, d3)>
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
    stream.executable.export public @main_dispatch_0_reduction_32768x128_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_reduction_32768x128_f32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %cst = arith.constant 1.280000e+02 : f32
        %cst_0 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32768x128xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [32768, 128], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>> -> tensor<32768x128xf32>
        %3 = tensor.empty() : tensor<32768xf32>
        %4 = linalg.fill ins(%cst_0 : f32) outs(%3 : tensor<32768xf32>) -> tensor<32768xf32>
        %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<32768x128xf32>) outs(%4 : tensor<32768xf32>) {
        ^bb0(%in: f32, %out: f32):
          %8 = arith.addf %out, %in : f32
          linalg.yield %8 : f32
        } -> tensor<32768xf32>
        %6 = tensor.empty() : tensor<32768x128xf32>
        %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %5 : tensor<32768x128xf32>, tensor<32768xf32>) outs(%6 : tensor<32768x128xf32>) {
        ^bb0(%in: f32, %in_1: f32, %out: f32):
          %8 = arith.divf %in_1, %cst : f32
          %9 = arith.subf %in, %8 : f32
          linalg.yield %9 : f32
        } -> tensor<32768x128xf32>
        iree_tensor_ext.dispatch.tensor.store %7, %1, offsets = [0, 0], sizes = [32768, 128], strides = [1, 1] : tensor<32768x128xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32768x128xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_1 {
    stream.executable.export public @main_dispatch_1_reduction_32768x128_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_1_reduction_32768x128_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant 9.99999974E-6 : f32
        %cst_0 = arith.constant 1.280000e+02 : f32
        %cst_1 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<128xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32768x128xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [32768, 128], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>> -> tensor<32768x128xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [128], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<128xf32>> -> tensor<128xf32>
        %5 = tensor.empty() : tensor<32768xf32>
        %6 = linalg.fill ins(%cst_1 : f32) outs(%5 : tensor<32768xf32>) -> tensor<32768xf32>
        %7 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%3 : tensor<32768x128xf32>) outs(%6 : tensor<32768xf32>) {
        ^bb0(%in: f32, %out: f32):
          %10 = arith.mulf %in, %in : f32
          %11 = arith.addf %out, %10 : f32
          linalg.yield %11 : f32
        } -> tensor<32768xf32>
        %8 = tensor.empty() : tensor<32768x128xf32>
        %9 = linalg.generic {indexing_maps = [#map, #map1, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %7, %4 : tensor<32768x128xf32>, tensor<32768xf32>, tensor<128xf32>) outs(%8 : tensor<32768x128xf32>) {
        ^bb0(%in: f32, %in_2: f32, %in_3: f32, %out: f32):
          %10 = arith.divf %in_2, %cst_0 : f32
          %11 = arith.addf %10, %cst : f32
          %12 = math.rsqrt %11 : f32
          %13 = arith.mulf %in, %12 : f32
          %14 = arith.mulf %13, %in_3 : f32
          %15 = arith.addf %14, %in_3 : f32
          linalg.yield %15 : f32
        } -> tensor<32768x128xf32>
        iree_tensor_ext.dispatch.tensor.store %9, %2, offsets = [0, 0], sizes = [32768, 128], strides = [1, 1] : tensor<32768x128xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32768x128xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_2 {
    stream.executable.export public @main_dispatch_2_matmul_32768x128x128_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_2_matmul_32768x128x128_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<128x128xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32768x128xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [32768, 128], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>> -> tensor<32768x128xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [128, 128], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<128x128xf32>> -> tensor<128x128xf32>
        %5 = tensor.empty() : tensor<32768x128xf32>
        %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<32768x128xf32>) -> tensor<32768x128xf32>
        %7 = linalg.matmul ins(%3, %4 : tensor<32768x128xf32>, tensor<128x128xf32>) outs(%6 : tensor<32768x128xf32>) -> tensor<32768x128xf32>
        iree_tensor_ext.dispatch.tensor.store %7, %2, offsets = [0, 0], sizes = [32768, 128], strides = [1, 1] : tensor<32768x128xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32768x128xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_5 {
    stream.executable.export public @main_dispatch_5_transpose_256x128x2x64_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_5_transpose_256x128x2x64_f32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x128x2x64xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<256x2x128x64xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0, 0], sizes = [256, 128, 2, 64], strides = [1, 1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x128x2x64xf32>> -> tensor<256x128x2x64xf32>
        %3 = tensor.empty() : tensor<256x2x128x64xf32>
        %4 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<256x128x2x64xf32>) outs(%3 : tensor<256x2x128x64xf32>) {
        ^bb0(%in: f32, %out: f32):
          linalg.yield %in : f32
        } -> tensor<256x2x128x64xf32>
        iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0, 0, 0, 0], sizes = [256, 2, 128, 64], strides = [1, 1, 1, 1] : tensor<256x2x128x64xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<256x2x128x64xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_6 {
    stream.executable.export public @main_dispatch_6_transpose_256x128x128_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_6_transpose_256x128x128_f32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x128x128xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<256x128x128xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [256, 128, 128], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x128x128xf32>> -> tensor<256x128x128xf32>
        %3 = tensor.empty() : tensor<256x128x128xf32>
        %4 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<256x128x128xf32>) outs(%3 : tensor<256x128x128xf32>) {
        ^bb0(%in: f32, %out: f32):
          linalg.yield %in : f32
        } -> tensor<256x128x128xf32>
        iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0, 0, 0], sizes = [256, 128, 128], strides = [1, 1, 1] : tensor<256x128x128xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<256x128x128xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_7 {
    stream.executable.export public @main_dispatch_7_batch_matmul_512x128x128x64_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_7_batch_matmul_512x128x128x64_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant -1.000000e+09 : f32
        %cst_0 = arith.constant 8.000000e+00 : f32
        %cst_1 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<512x128x64xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<512x64x128xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<512x128x128xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [512, 128, 64], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<512x128x64xf32>> -> tensor<512x128x64xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0, 0], sizes = [512, 64, 128], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<512x64x128xf32>> -> tensor<512x64x128xf32>
        %5 = tensor.empty() : tensor<512x128x128xf32>
        %6 = linalg.fill ins(%cst_1 : f32) outs(%5 : tensor<512x128x128xf32>) -> tensor<512x128x128xf32>
        %7 = linalg.batch_matmul ins(%3, %4 : tensor<512x128x64xf32>, tensor<512x64x128xf32>) outs(%6 : tensor<512x128x128xf32>) -> tensor<512x128x128xf32>
        %8 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7 : tensor<512x128x128xf32>) outs(%5 : tensor<512x128x128xf32>) {
        ^bb0(%in: f32, %out: f32):
          %9 = linalg.index 1 : index
          %10 = linalg.index 2 : index
          %11 = arith.divf %in, %cst_0 : f32
          %12 = arith.index_cast %10 : index to i32
          %13 = arith.index_cast %9 : index to i32
          %14 = arith.cmpi sge, %13, %12 : i32
          %15 = arith.select %14, %11, %cst : f32
          linalg.yield %15 : f32
        } -> tensor<512x128x128xf32>
        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0, 0], sizes = [512, 128, 128], strides = [1, 1, 1] : tensor<512x128x128xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<512x128x128xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_8 {
    stream.executable.export public @main_dispatch_8_softmax_16x16x2x128x128xf32_generic workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_8_softmax_16x16x2x128x128xf32_generic(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16x2x128x128xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16x2x128x128xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0, 0, 0], sizes = [16, 16, 2, 128, 128], strides = [1, 1, 1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16x2x128x128xf32>> -> tensor<16x16x2x128x128xf32>
        %3 = tensor.empty() : tensor<16x16x2x128x128xf32>
        %4 = linalg.softmax dimension(4) ins(%2 : tensor<16x16x2x128x128xf32>) outs(%3 : tensor<16x16x2x128x128xf32>) -> tensor<16x16x2x128x128xf32>
        %5 = linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<16x16x2x128x128xf32>) outs(%3 : tensor<16x16x2x128x128xf32>) {
        ^bb0(%in: f32, %out: f32):
          linalg.yield %in : f32
        } -> tensor<16x16x2x128x128xf32>
        iree_tensor_ext.dispatch.tensor.store %5, %1, offsets = [0, 0, 0, 0, 0], sizes = [16, 16, 2, 128, 128], strides = [1, 1, 1, 1, 1] : tensor<16x16x2x128x128xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16x2x128x128xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_10 {
    stream.executable.export public @main_dispatch_10_batch_matmul_512x64x128x128_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_10_batch_matmul_512x64x128x128_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<512x64x128xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<512x128x128xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<512x64x128xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [512, 64, 128], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<512x64x128xf32>> -> tensor<512x64x128xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0, 0], sizes = [512, 128, 128], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<512x128x128xf32>> -> tensor<512x128x128xf32>
        %5 = tensor.empty() : tensor<512x64x128xf32>
        %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<512x64x128xf32>) -> tensor<512x64x128xf32>
        %7 = linalg.batch_matmul ins(%3, %4 : tensor<512x64x128xf32>, tensor<512x128x128xf32>) outs(%6 : tensor<512x64x128xf32>) -> tensor<512x64x128xf32>
        iree_tensor_ext.dispatch.tensor.store %7, %2, offsets = [0, 0, 0], sizes = [512, 64, 128], strides = [1, 1, 1] : tensor<512x64x128xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<512x64x128xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_12 {
    stream.executable.export public @main_dispatch_12_matmul_32768x128x128_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_12_matmul_32768x128x128_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding, %arg3: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<128x128xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>>
        %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32768x128xf32>>
        %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [32768, 128], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>> -> tensor<32768x128xf32>
        %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [128, 128], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<128x128xf32>> -> tensor<128x128xf32>
        %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [32768, 128], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>> -> tensor<32768x128xf32>
        %7 = tensor.empty() : tensor<32768x128xf32>
        %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<32768x128xf32>) -> tensor<32768x128xf32>
        %9 = linalg.matmul ins(%4, %5 : tensor<32768x128xf32>, tensor<128x128xf32>) outs(%8 : tensor<32768x128xf32>) -> tensor<32768x128xf32>
        %10 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %9 : tensor<32768x128xf32>, tensor<32768x128xf32>) outs(%7 : tensor<32768x128xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %11 = arith.addf %in, %in_0 : f32
          linalg.yield %11 : f32
        } -> tensor<32768x128xf32>
        iree_tensor_ext.dispatch.tensor.store %10, %3, offsets = [0, 0], sizes = [32768, 128], strides = [1, 1] : tensor<32768x128xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32768x128xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_15 {
    stream.executable.export public @main_dispatch_15_matmul_32768x256x128_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_15_matmul_32768x256x128_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant 5.000000e-01 : f32
        %cst_0 = arith.constant 1.000000e+00 : f32
        %cst_1 = arith.constant 0.797884583 : f32
        %cst_2 = arith.constant 4.471500e-02 : f32
        %cst_3 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<128x256xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32768x256xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [32768, 128], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>> -> tensor<32768x128xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [128, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<128x256xf32>> -> tensor<128x256xf32>
        %5 = tensor.empty() : tensor<32768x256xf32>
        %6 = linalg.fill ins(%cst_3 : f32) outs(%5 : tensor<32768x256xf32>) -> tensor<32768x256xf32>
        %7 = linalg.matmul ins(%3, %4 : tensor<32768x128xf32>, tensor<128x256xf32>) outs(%6 : tensor<32768x256xf32>) -> tensor<32768x256xf32>
        %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<32768x256xf32>) outs(%5 : tensor<32768x256xf32>) {
        ^bb0(%in: f32, %out: f32):
          %9 = arith.mulf %in, %in : f32
          %10 = arith.mulf %9, %in : f32
          %11 = arith.mulf %10, %cst_2 : f32
          %12 = arith.addf %in, %11 : f32
          %13 = arith.mulf %12, %cst_1 : f32
          %14 = math.tanh %13 : f32
          %15 = arith.addf %14, %cst_0 : f32
          %16 = arith.mulf %15, %cst : f32
          %17 = arith.mulf %in, %16 : f32
          linalg.yield %17 : f32
        } -> tensor<32768x256xf32>
        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0], sizes = [32768, 256], strides = [1, 1] : tensor<32768x256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32768x256xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_16 {
    stream.executable.export public @main_dispatch_16_matmul_32768x128x256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_16_matmul_32768x128x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding, %arg3: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x128xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>>
        %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32768x128xf32>>
        %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [32768, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x256xf32>> -> tensor<32768x256xf32>
        %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [256, 128], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x128xf32>> -> tensor<256x128xf32>
        %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [32768, 128], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32768x128xf32>> -> tensor<32768x128xf32>
        %7 = tensor.empty() : tensor<32768x128xf32>
        %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<32768x128xf32>) -> tensor<32768x128xf32>
        %9 = linalg.matmul ins(%4, %5 : tensor<32768x256xf32>, tensor<256x128xf32>) outs(%8 : tensor<32768x128xf32>) -> tensor<32768x128xf32>
        %10 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %9 : tensor<32768x128xf32>, tensor<32768x128xf32>) outs(%7 : tensor<32768x128xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %11 = arith.addf %in, %in_0 : f32
          linalg.yield %11 : f32
        } -> tensor<32768x128xf32>
        iree_tensor_ext.dispatch.tensor.store %10, %3, offsets = [0, 0], sizes = [32768, 128], strides = [1, 1] : tensor<32768x128xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32768x128xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view, %arg3: !hal.buffer_view, %arg4: !hal.buffer_view, %arg5: !hal.buffer_view, %arg6: !hal.buffer_view, %arg7: !hal.buffer_view, %arg8: !hal.buffer_view, %arg9: !hal.buffer_view, %arg10: !hal.buffer_view, %arg11: !hal.buffer_view, %arg12: !hal.buffer_view, %arg13: !hal.buffer_view, %arg14: !hal.buffer_view, %arg15: !hal.buffer_view, %arg16: !hal.buffer_view, %arg17: !hal.buffer_view, %arg18: !hal.buffer_view, %arg19: !hal.buffer_view, %arg20: !hal.buffer_view, %arg21: !hal.buffer_view, %arg22: !hal.buffer_view, %arg23: !hal.buffer_view, %arg24: !hal.buffer_view, %arg25: !hal.buffer_view, %arg26: !hal.buffer_view, %arg27: !hal.buffer_view, %arg28: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<16x2048x128xf32>, %input1: tensor<128xf32>, %input2: tensor<128x128xf32>, %input3: tensor<128x128xf32>, %input4: tensor<128x128xf32>, %input5: tensor<128x128xf32>, %input6: tensor<128x256xf32>, %input7: tensor<256x128xf32>, %input8: tensor<128xf32>, %input9: tensor<128x128xf32>, %input10: tensor<128x128xf32>, %input11: tensor<128x128xf32>, %input12: tensor<128x128xf32>, %input13: tensor<128x256xf32>, %input14: tensor<256x128xf32>, %input15: tensor<128xf32>, %input16: tensor<128x128xf32>, %input17: tensor<128x128xf32>, %input18: tensor<128x128xf32>, %input19: tensor<128x128xf32>, %input20: tensor<128x256xf32>, %input21: tensor<256x128xf32>, %input22: tensor<128xf32>, %input23: tensor<128x128xf32>, %input24: tensor<128x128xf32>, %input25: tensor<128x128xf32>, %input26: tensor<128x128xf32>, %input27: tensor<128x256xf32>, %input28: tensor<256x128xf32>) -> (%output0: tensor<16x2048x128xf32>)"}} {
    %c33554432 = arith.constant 33554432 : index
    %c0 = arith.constant 0 : index
    %c131072 = arith.constant 131072 : index
    %c65536 = arith.constant 65536 : index
    %c512 = arith.constant 512 : index
    %c16777216 = arith.constant 16777216 : index
    %c256 = arith.constant 256 : index
    %c128 = arith.constant 128 : index
    %c2048 = arith.constant 2048 : index
    %c16 = arith.constant 16 : index
    %element_type_f32 = hal.element_type<f32> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c16, %c2048, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg0 : !hal.buffer_view -> tensor<16x2048x128xf32> in !stream.resource<external>{%c16777216}
    %1 = stream.async.cast on(#hal.device.affinity<@dev_a>) %0 : !stream.resource<external>{%c16777216} -> !stream.resource<*>{%c16777216}
    hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%c128]) type(%element_type_f32) encoding(%dense_row_major)
    %2 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg1 : !hal.buffer_view -> tensor<128xf32> in !stream.resource<external>{%c512}
    %3 = stream.async.cast on(#hal.device.affinity<@dev_a>) %2 : !stream.resource<external>{%c512} -> !stream.resource<*>{%c512}
    hal.buffer_view.assert<%arg2 : !hal.buffer_view> message("input2") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %4 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg2 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %5 = stream.async.cast on(#hal.device.affinity<@dev_a>) %4 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg3 : !hal.buffer_view> message("input3") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %6 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg3 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %7 = stream.async.cast on(#hal.device.affinity<@dev_a>) %6 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg4 : !hal.buffer_view> message("input4") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %8 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg4 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %9 = stream.async.cast on(#hal.device.affinity<@dev_a>) %8 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg5 : !hal.buffer_view> message("input5") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %10 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg5 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %11 = stream.async.cast on(#hal.device.affinity<@dev_a>) %10 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg6 : !hal.buffer_view> message("input6") shape([%c128, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %12 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg6 : !hal.buffer_view -> tensor<128x256xf32> in !stream.resource<external>{%c131072}
    %13 = stream.async.cast on(#hal.device.affinity<@dev_a>) %12 : !stream.resource<external>{%c131072} -> !stream.resource<*>{%c131072}
    hal.buffer_view.assert<%arg7 : !hal.buffer_view> message("input7") shape([%c256, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %14 = stream.tensor.import on(#hal.device.affinity<@dev_a>) %arg7 : !hal.buffer_view -> tensor<256x128xf32> in !stream.resource<external>{%c131072}
    %15 = stream.async.cast on(#hal.device.affinity<@dev_a>) %14 : !stream.resource<external>{%c131072} -> !stream.resource<*>{%c131072}
    hal.buffer_view.assert<%arg8 : !hal.buffer_view> message("input8") shape([%c128]) type(%element_type_f32) encoding(%dense_row_major)
    %16 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg8 : !hal.buffer_view -> tensor<128xf32> in !stream.resource<external>{%c512}
    %17 = stream.async.cast on(#hal.device.affinity<@dev_b>) %16 : !stream.resource<external>{%c512} -> !stream.resource<*>{%c512}
    hal.buffer_view.assert<%arg9 : !hal.buffer_view> message("input9") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %18 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg9 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %19 = stream.async.cast on(#hal.device.affinity<@dev_b>) %18 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg10 : !hal.buffer_view> message("input10") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %20 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg10 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %21 = stream.async.cast on(#hal.device.affinity<@dev_b>) %20 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg11 : !hal.buffer_view> message("input11") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %22 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg11 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %23 = stream.async.cast on(#hal.device.affinity<@dev_b>) %22 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg12 : !hal.buffer_view> message("input12") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %24 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg12 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %25 = stream.async.cast on(#hal.device.affinity<@dev_b>) %24 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg13 : !hal.buffer_view> message("input13") shape([%c128, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %26 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg13 : !hal.buffer_view -> tensor<128x256xf32> in !stream.resource<external>{%c131072}
    %27 = stream.async.cast on(#hal.device.affinity<@dev_b>) %26 : !stream.resource<external>{%c131072} -> !stream.resource<*>{%c131072}
    hal.buffer_view.assert<%arg14 : !hal.buffer_view> message("input14") shape([%c256, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %28 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg14 : !hal.buffer_view -> tensor<256x128xf32> in !stream.resource<external>{%c131072}
    %29 = stream.async.cast on(#hal.device.affinity<@dev_b>) %28 : !stream.resource<external>{%c131072} -> !stream.resource<*>{%c131072}
    hal.buffer_view.assert<%arg15 : !hal.buffer_view> message("input15") shape([%c128]) type(%element_type_f32) encoding(%dense_row_major)
    %30 = stream.tensor.import on(#hal.device.affinity<@dev_c>) %arg15 : !hal.buffer_view -> tensor<128xf32> in !stream.resource<external>{%c512}
    %31 = stream.async.cast on(#hal.device.affinity<@dev_c>) %30 : !stream.resource<external>{%c512} -> !stream.resource<*>{%c512}
    hal.buffer_view.assert<%arg16 : !hal.buffer_view> message("input16") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %32 = stream.tensor.import on(#hal.device.affinity<@dev_c>) %arg16 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %33 = stream.async.cast on(#hal.device.affinity<@dev_c>) %32 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg17 : !hal.buffer_view> message("input17") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %34 = stream.tensor.import on(#hal.device.affinity<@dev_c>) %arg17 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %35 = stream.async.cast on(#hal.device.affinity<@dev_c>) %34 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg18 : !hal.buffer_view> message("input18") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %36 = stream.tensor.import on(#hal.device.affinity<@dev_c>) %arg18 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %37 = stream.async.cast on(#hal.device.affinity<@dev_c>) %36 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg19 : !hal.buffer_view> message("input19") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %38 = stream.tensor.import on(#hal.device.affinity<@dev_c>) %arg19 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %39 = stream.async.cast on(#hal.device.affinity<@dev_c>) %38 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg20 : !hal.buffer_view> message("input20") shape([%c128, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %40 = stream.tensor.import on(#hal.device.affinity<@dev_c>) %arg20 : !hal.buffer_view -> tensor<128x256xf32> in !stream.resource<external>{%c131072}
    %41 = stream.async.cast on(#hal.device.affinity<@dev_c>) %40 : !stream.resource<external>{%c131072} -> !stream.resource<*>{%c131072}
    hal.buffer_view.assert<%arg21 : !hal.buffer_view> message("input21") shape([%c256, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %42 = stream.tensor.import on(#hal.device.affinity<@dev_c>) %arg21 : !hal.buffer_view -> tensor<256x128xf32> in !stream.resource<external>{%c131072}
    %43 = stream.async.cast on(#hal.device.affinity<@dev_c>) %42 : !stream.resource<external>{%c131072} -> !stream.resource<*>{%c131072}
    hal.buffer_view.assert<%arg22 : !hal.buffer_view> message("input22") shape([%c128]) type(%element_type_f32) encoding(%dense_row_major)
    %44 = stream.tensor.import on(#hal.device.affinity<@dev_d>) %arg22 : !hal.buffer_view -> tensor<128xf32> in !stream.resource<external>{%c512}
    %45 = stream.async.cast on(#hal.device.affinity<@dev_d>) %44 : !stream.resource<external>{%c512} -> !stream.resource<*>{%c512}
    hal.buffer_view.assert<%arg23 : !hal.buffer_view> message("input23") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %46 = stream.tensor.import on(#hal.device.affinity<@dev_d>) %arg23 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %47 = stream.async.cast on(#hal.device.affinity<@dev_d>) %46 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg24 : !hal.buffer_view> message("input24") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %48 = stream.tensor.import on(#hal.device.affinity<@dev_d>) %arg24 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %49 = stream.async.cast on(#hal.device.affinity<@dev_d>) %48 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg25 : !hal.buffer_view> message("input25") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %50 = stream.tensor.import on(#hal.device.affinity<@dev_d>) %arg25 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %51 = stream.async.cast on(#hal.device.affinity<@dev_d>) %50 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg26 : !hal.buffer_view> message("input26") shape([%c128, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %52 = stream.tensor.import on(#hal.device.affinity<@dev_d>) %arg26 : !hal.buffer_view -> tensor<128x128xf32> in !stream.resource<external>{%c65536}
    %53 = stream.async.cast on(#hal.device.affinity<@dev_d>) %52 : !stream.resource<external>{%c65536} -> !stream.resource<*>{%c65536}
    hal.buffer_view.assert<%arg27 : !hal.buffer_view> message("input27") shape([%c128, %c256]) type(%element_type_f32) encoding(%dense_row_major)
    %54 = stream.tensor.import on(#hal.device.affinity<@dev_d>) %arg27 : !hal.buffer_view -> tensor<128x256xf32> in !stream.resource<external>{%c131072}
    %55 = stream.async.cast on(#hal.device.affinity<@dev_d>) %54 : !stream.resource<external>{%c131072} -> !stream.resource<*>{%c131072}
    hal.buffer_view.assert<%arg28 : !hal.buffer_view> message("input28") shape([%c256, %c128]) type(%element_type_f32) encoding(%dense_row_major)
    %56 = stream.tensor.import on(#hal.device.affinity<@dev_d>) %arg28 : !hal.buffer_view -> tensor<256x128xf32> in !stream.resource<external>{%c131072}
    %57 = stream.async.cast on(#hal.device.affinity<@dev_d>) %56 : !stream.resource<external>{%c131072} -> !stream.resource<*>{%c131072}
    %58 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_reduction_32768x128_f32(%1[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %59 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_1::@main_dispatch_1_reduction_32768x128_f32(%58[%c0 to %c16777216 for %c16777216], %3[%c0 to %c512 for %c512]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c512}) -> !stream.resource<*>{%c16777216}
    %60 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_2::@main_dispatch_2_matmul_32768x128x128_f32(%59[%c0 to %c16777216 for %c16777216], %5[%c0 to %c65536 for %c65536]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}) -> !stream.resource<*>{%c16777216}
    %61 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_2::@main_dispatch_2_matmul_32768x128x128_f32(%59[%c0 to %c16777216 for %c16777216], %7[%c0 to %c65536 for %c65536]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}) -> !stream.resource<*>{%c16777216}
    %62 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_2::@main_dispatch_2_matmul_32768x128x128_f32(%59[%c0 to %c16777216 for %c16777216], %9[%c0 to %c65536 for %c65536]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}) -> !stream.resource<*>{%c16777216}
    %63 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_5::@main_dispatch_5_transpose_256x128x2x64_f32(%60[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %64 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_6::@main_dispatch_6_transpose_256x128x128_f32(%61[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %65 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_7::@main_dispatch_7_batch_matmul_512x128x128x64_f32(%63[%c0 to %c16777216 for %c16777216], %64[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c33554432}
    %66 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_8::@main_dispatch_8_softmax_16x16x2x128x128xf32_generic(%65[%c0 to %c33554432 for %c33554432]) : (!stream.resource<*>{%c33554432}) -> !stream.resource<*>{%c33554432}
    %67 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_6::@main_dispatch_6_transpose_256x128x128_f32(%62[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %68 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_10::@main_dispatch_10_batch_matmul_512x64x128x128_f32(%67[%c0 to %c16777216 for %c16777216], %66[%c0 to %c33554432 for %c33554432]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c33554432}) -> !stream.resource<*>{%c16777216}
    %69 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_6::@main_dispatch_6_transpose_256x128x128_f32(%68[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %70 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_12::@main_dispatch_12_matmul_32768x128x128_f32(%69[%c0 to %c16777216 for %c16777216], %11[%c0 to %c65536 for %c65536], %1[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}, !stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %71 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_0::@main_dispatch_0_reduction_32768x128_f32(%70[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %72 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_1::@main_dispatch_1_reduction_32768x128_f32(%71[%c0 to %c16777216 for %c16777216], %3[%c0 to %c512 for %c512]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c512}) -> !stream.resource<*>{%c16777216}
    %73 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_15::@main_dispatch_15_matmul_32768x256x128_f32(%72[%c0 to %c16777216 for %c16777216], %13[%c0 to %c131072 for %c131072]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c131072}) -> !stream.resource<*>{%c33554432}
    %74 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_16::@main_dispatch_16_matmul_32768x128x256_f32(%73[%c0 to %c33554432 for %c33554432], %15[%c0 to %c131072 for %c131072], %70[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c33554432}, !stream.resource<*>{%c131072}, !stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %75 = stream.async.transfer %74 : !stream.resource<*>{%c16777216} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<*>{%c16777216}
    %76 = stream.async.clone on(#hal.device.affinity<@dev_b>) %17 : !stream.resource<*>{%c512} -> !stream.resource<*>{%c512}
    %77 = stream.async.clone on(#hal.device.affinity<@dev_b>) %19 : !stream.resource<*>{%c65536} -> !stream.resource<*>{%c65536}
    %78 = stream.async.clone on(#hal.device.affinity<@dev_b>) %21 : !stream.resource<*>{%c65536} -> !stream.resource<*>{%c65536}
    %79 = stream.async.clone on(#hal.device.affinity<@dev_b>) %23 : !stream.resource<*>{%c65536} -> !stream.resource<*>{%c65536}
    %80 = stream.async.clone on(#hal.device.affinity<@dev_b>) %25 : !stream.resource<*>{%c65536} -> !stream.resource<*>{%c65536}
    %81 = stream.async.clone on(#hal.device.affinity<@dev_b>) %27 : !stream.resource<*>{%c131072} -> !stream.resource<*>{%c131072}
    %82 = stream.async.clone on(#hal.device.affinity<@dev_b>) %29 : !stream.resource<*>{%c131072} -> !stream.resource<*>{%c131072}
    %83 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_reduction_32768x128_f32(%75[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %84 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_1::@main_dispatch_1_reduction_32768x128_f32(%83[%c0 to %c16777216 for %c16777216], %76[%c0 to %c512 for %c512]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c512}) -> !stream.resource<*>{%c16777216}
    %85 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_2::@main_dispatch_2_matmul_32768x128x128_f32(%84[%c0 to %c16777216 for %c16777216], %77[%c0 to %c65536 for %c65536]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}) -> !stream.resource<*>{%c16777216}
    %86 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_2::@main_dispatch_2_matmul_32768x128x128_f32(%84[%c0 to %c16777216 for %c16777216], %78[%c0 to %c65536 for %c65536]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}) -> !stream.resource<*>{%c16777216}
    %87 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_2::@main_dispatch_2_matmul_32768x128x128_f32(%84[%c0 to %c16777216 for %c16777216], %79[%c0 to %c65536 for %c65536]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}) -> !stream.resource<*>{%c16777216}
    %88 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_5::@main_dispatch_5_transpose_256x128x2x64_f32(%85[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %89 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_6::@main_dispatch_6_transpose_256x128x128_f32(%86[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %90 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_7::@main_dispatch_7_batch_matmul_512x128x128x64_f32(%88[%c0 to %c16777216 for %c16777216], %89[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c33554432}
    %91 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_8::@main_dispatch_8_softmax_16x16x2x128x128xf32_generic(%90[%c0 to %c33554432 for %c33554432]) : (!stream.resource<*>{%c33554432}) -> !stream.resource<*>{%c33554432}
    %92 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_6::@main_dispatch_6_transpose_256x128x128_f32(%87[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %93 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_10::@main_dispatch_10_batch_matmul_512x64x128x128_f32(%92[%c0 to %c16777216 for %c16777216], %91[%c0 to %c33554432 for %c33554432]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c33554432}) -> !stream.resource<*>{%c16777216}
    %94 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_6::@main_dispatch_6_transpose_256x128x128_f32(%93[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %95 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_12::@main_dispatch_12_matmul_32768x128x128_f32(%94[%c0 to %c16777216 for %c16777216], %80[%c0 to %c65536 for %c65536], %75[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}, !stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %96 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_reduction_32768x128_f32(%95[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %97 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_1::@main_dispatch_1_reduction_32768x128_f32(%96[%c0 to %c16777216 for %c16777216], %76[%c0 to %c512 for %c512]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c512}) -> !stream.resource<*>{%c16777216}
    %98 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_15::@main_dispatch_15_matmul_32768x256x128_f32(%97[%c0 to %c16777216 for %c16777216], %81[%c0 to %c131072 for %c131072]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c131072}) -> !stream.resource<*>{%c33554432}
    %99 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_16::@main_dispatch_16_matmul_32768x128x256_f32(%98[%c0 to %c33554432 for %c33554432], %82[%c0 to %c131072 for %c131072], %95[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c33554432}, !stream.resource<*>{%c131072}, !stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %100 = stream.async.transfer %99 : !stream.resource<*>{%c16777216} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<*>{%c16777216}
    %101 = stream.async.clone on(#hal.device.affinity<@dev_c>) %31 : !stream.resource<*>{%c512} -> !stream.resource<*>{%c512}
    %102 = stream.async.clone on(#hal.device.affinity<@dev_c>) %33 : !stream.resource<*>{%c65536} -> !stream.resource<*>{%c65536}
    %103 = stream.async.clone on(#hal.device.affinity<@dev_c>) %35 : !stream.resource<*>{%c65536} -> !stream.resource<*>{%c65536}
    %104 = stream.async.clone on(#hal.device.affinity<@dev_c>) %37 : !stream.resource<*>{%c65536} -> !stream.resource<*>{%c65536}
    %105 = stream.async.clone on(#hal.device.affinity<@dev_c>) %39 : !stream.resource<*>{%c65536} -> !stream.resource<*>{%c65536}
    %106 = stream.async.clone on(#hal.device.affinity<@dev_c>) %41 : !stream.resource<*>{%c131072} -> !stream.resource<*>{%c131072}
    %107 = stream.async.clone on(#hal.device.affinity<@dev_c>) %43 : !stream.resource<*>{%c131072} -> !stream.resource<*>{%c131072}
    %108 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_0::@main_dispatch_0_reduction_32768x128_f32(%100[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %109 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_1::@main_dispatch_1_reduction_32768x128_f32(%108[%c0 to %c16777216 for %c16777216], %101[%c0 to %c512 for %c512]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c512}) -> !stream.resource<*>{%c16777216}
    %110 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_2::@main_dispatch_2_matmul_32768x128x128_f32(%109[%c0 to %c16777216 for %c16777216], %102[%c0 to %c65536 for %c65536]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}) -> !stream.resource<*>{%c16777216}
    %111 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_2::@main_dispatch_2_matmul_32768x128x128_f32(%109[%c0 to %c16777216 for %c16777216], %103[%c0 to %c65536 for %c65536]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}) -> !stream.resource<*>{%c16777216}
    %112 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_2::@main_dispatch_2_matmul_32768x128x128_f32(%109[%c0 to %c16777216 for %c16777216], %104[%c0 to %c65536 for %c65536]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}) -> !stream.resource<*>{%c16777216}
    %113 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_5::@main_dispatch_5_transpose_256x128x2x64_f32(%110[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %114 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_6::@main_dispatch_6_transpose_256x128x128_f32(%111[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %115 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_7::@main_dispatch_7_batch_matmul_512x128x128x64_f32(%113[%c0 to %c16777216 for %c16777216], %114[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c33554432}
    %116 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_8::@main_dispatch_8_softmax_16x16x2x128x128xf32_generic(%115[%c0 to %c33554432 for %c33554432]) : (!stream.resource<*>{%c33554432}) -> !stream.resource<*>{%c33554432}
    %117 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_6::@main_dispatch_6_transpose_256x128x128_f32(%112[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %118 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_10::@main_dispatch_10_batch_matmul_512x64x128x128_f32(%117[%c0 to %c16777216 for %c16777216], %116[%c0 to %c33554432 for %c33554432]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c33554432}) -> !stream.resource<*>{%c16777216}
    %119 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_6::@main_dispatch_6_transpose_256x128x128_f32(%118[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %120 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_12::@main_dispatch_12_matmul_32768x128x128_f32(%119[%c0 to %c16777216 for %c16777216], %105[%c0 to %c65536 for %c65536], %100[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}, !stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %121 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_0::@main_dispatch_0_reduction_32768x128_f32(%120[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %122 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_1::@main_dispatch_1_reduction_32768x128_f32(%121[%c0 to %c16777216 for %c16777216], %101[%c0 to %c512 for %c512]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c512}) -> !stream.resource<*>{%c16777216}
    %123 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_15::@main_dispatch_15_matmul_32768x256x128_f32(%122[%c0 to %c16777216 for %c16777216], %106[%c0 to %c131072 for %c131072]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c131072}) -> !stream.resource<*>{%c33554432}
    %124 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_16::@main_dispatch_16_matmul_32768x128x256_f32(%123[%c0 to %c33554432 for %c33554432], %107[%c0 to %c131072 for %c131072], %120[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c33554432}, !stream.resource<*>{%c131072}, !stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %125 = stream.async.transfer %124 : !stream.resource<*>{%c16777216} from(#hal.device.affinity<@dev_c>) -> to(#hal.device.affinity<@dev_d>) !stream.resource<*>{%c16777216}
    %126 = stream.async.clone on(#hal.device.affinity<@dev_d>) %45 : !stream.resource<*>{%c512} -> !stream.resource<*>{%c512}
    %127 = stream.async.clone on(#hal.device.affinity<@dev_d>) %47 : !stream.resource<*>{%c65536} -> !stream.resource<*>{%c65536}
    %128 = stream.async.clone on(#hal.device.affinity<@dev_d>) %49 : !stream.resource<*>{%c65536} -> !stream.resource<*>{%c65536}
    %129 = stream.async.clone on(#hal.device.affinity<@dev_d>) %51 : !stream.resource<*>{%c65536} -> !stream.resource<*>{%c65536}
    %130 = stream.async.clone on(#hal.device.affinity<@dev_d>) %53 : !stream.resource<*>{%c65536} -> !stream.resource<*>{%c65536}
    %131 = stream.async.clone on(#hal.device.affinity<@dev_d>) %55 : !stream.resource<*>{%c131072} -> !stream.resource<*>{%c131072}
    %132 = stream.async.clone on(#hal.device.affinity<@dev_d>) %57 : !stream.resource<*>{%c131072} -> !stream.resource<*>{%c131072}
    %133 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_0::@main_dispatch_0_reduction_32768x128_f32(%125[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %134 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_1::@main_dispatch_1_reduction_32768x128_f32(%133[%c0 to %c16777216 for %c16777216], %126[%c0 to %c512 for %c512]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c512}) -> !stream.resource<*>{%c16777216}
    %135 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_2::@main_dispatch_2_matmul_32768x128x128_f32(%134[%c0 to %c16777216 for %c16777216], %127[%c0 to %c65536 for %c65536]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}) -> !stream.resource<*>{%c16777216}
    %136 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_2::@main_dispatch_2_matmul_32768x128x128_f32(%134[%c0 to %c16777216 for %c16777216], %128[%c0 to %c65536 for %c65536]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}) -> !stream.resource<*>{%c16777216}
    %137 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_2::@main_dispatch_2_matmul_32768x128x128_f32(%134[%c0 to %c16777216 for %c16777216], %129[%c0 to %c65536 for %c65536]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}) -> !stream.resource<*>{%c16777216}
    %138 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_5::@main_dispatch_5_transpose_256x128x2x64_f32(%135[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %139 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_6::@main_dispatch_6_transpose_256x128x128_f32(%136[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %140 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_7::@main_dispatch_7_batch_matmul_512x128x128x64_f32(%138[%c0 to %c16777216 for %c16777216], %139[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c33554432}
    %141 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_8::@main_dispatch_8_softmax_16x16x2x128x128xf32_generic(%140[%c0 to %c33554432 for %c33554432]) : (!stream.resource<*>{%c33554432}) -> !stream.resource<*>{%c33554432}
    %142 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_6::@main_dispatch_6_transpose_256x128x128_f32(%137[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %143 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_10::@main_dispatch_10_batch_matmul_512x64x128x128_f32(%142[%c0 to %c16777216 for %c16777216], %141[%c0 to %c33554432 for %c33554432]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c33554432}) -> !stream.resource<*>{%c16777216}
    %144 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_6::@main_dispatch_6_transpose_256x128x128_f32(%143[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %145 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_12::@main_dispatch_12_matmul_32768x128x128_f32(%144[%c0 to %c16777216 for %c16777216], %130[%c0 to %c65536 for %c65536], %125[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c65536}, !stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %146 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_0::@main_dispatch_0_reduction_32768x128_f32(%145[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %147 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_1::@main_dispatch_1_reduction_32768x128_f32(%146[%c0 to %c16777216 for %c16777216], %126[%c0 to %c512 for %c512]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c512}) -> !stream.resource<*>{%c16777216}
    %148 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_15::@main_dispatch_15_matmul_32768x256x128_f32(%147[%c0 to %c16777216 for %c16777216], %131[%c0 to %c131072 for %c131072]) : (!stream.resource<*>{%c16777216}, !stream.resource<*>{%c131072}) -> !stream.resource<*>{%c33554432}
    %149 = stream.async.dispatch on(#hal.device.affinity<@dev_d>) @main_dispatch_16::@main_dispatch_16_matmul_32768x128x256_f32(%148[%c0 to %c33554432 for %c33554432], %132[%c0 to %c131072 for %c131072], %145[%c0 to %c16777216 for %c16777216]) : (!stream.resource<*>{%c33554432}, !stream.resource<*>{%c131072}, !stream.resource<*>{%c16777216}) -> !stream.resource<*>{%c16777216}
    %150 = stream.async.transfer %149 : !stream.resource<*>{%c16777216} from(#hal.device.affinity<@dev_d>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<*>{%c16777216}
    %151 = stream.async.cast on(#hal.device.affinity<@dev_a>) %150 : !stream.resource<*>{%c16777216} -> !stream.resource<external>{%c16777216}
    %152 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %151 : tensor<16x2048x128xf32> in !stream.resource<external>{%c16777216} -> !hal.buffer_view
    util.return %152 : !hal.buffer_view
  }
}

