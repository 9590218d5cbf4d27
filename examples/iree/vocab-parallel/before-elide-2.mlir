#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0) -> (d0)>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_2_ = #hal.device.target<"local", {ordinal = 2 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a = #device_target_local_0_
  util.global private @dev_b = #device_target_local_1_
  util.global private @dev_c = #device_target_local_2_
  stream.executable private @main_dispatch_0 {
    stream.executable.export public @main_dispatch_0_matmul_2048x16384x64_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_matmul_2048x16384x64_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048x64xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x16384xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2048x16384xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [2048, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048x64xf32>> -> tensor<2048x64xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [64, 16384], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x16384xf32>> -> tensor<64x16384xf32>
        %5 = tensor.empty() : tensor<2048x16384xf32>
        %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<2048x16384xf32>) -> tensor<2048x16384xf32>
        %7 = linalg.matmul ins(%3, %4 : tensor<2048x64xf32>, tensor<64x16384xf32>) outs(%6 : tensor<2048x16384xf32>) -> tensor<2048x16384xf32>
        iree_tensor_ext.dispatch.tensor.store %7, %2, offsets = [0, 0], sizes = [2048, 16384], strides = [1, 1] : tensor<2048x16384xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2048x16384xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_2 {
    stream.executable.export public @main_dispatch_2_slow_memcpy workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_2_slow_memcpy(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048x16384xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2048x32768xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [2048, 16384], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048x16384xf32>> -> tensor<2048x16384xf32>
        iree_tensor_ext.dispatch.tensor.store %2, %1, offsets = [0, 0], sizes = [2048, 16384], strides = [1, 1] : tensor<2048x16384xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2048x32768xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_3 {
    stream.executable.export public @main_dispatch_3_slow_memcpy workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_3_slow_memcpy(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048x16384xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2048x32768xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [2048, 16384], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048x16384xf32>> -> tensor<2048x16384xf32>
        iree_tensor_ext.dispatch.tensor.store %2, %1, offsets = [0, 16384], sizes = [2048, 16384], strides = [1, 1] : tensor<2048x16384xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2048x32768xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_4 {
    stream.executable.export public @main_dispatch_4_reduction_2048x32768_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_4_reduction_2048x32768_f32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %cst_0 = arith.constant 0x7F800000 : f32
        %cst_1 = arith.constant 0xFF800000 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048x32768xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2048xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [2048, 32768], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048x32768xf32>> -> tensor<2048x32768xf32>
        %3 = tensor.empty() : tensor<2048xf32>
        %4 = linalg.fill ins(%cst_1 : f32) outs(%3 : tensor<2048xf32>) -> tensor<2048xf32>
        %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<2048x32768xf32>) outs(%4 : tensor<2048xf32>) {
        ^bb0(%in: f32, %out: f32):
          %7 = arith.maximumf %out, %in : f32
          linalg.yield %7 : f32
        } -> tensor<2048xf32>
        %6 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel"]} ins(%5 : tensor<2048xf32>) outs(%3 : tensor<2048xf32>) {
        ^bb0(%in: f32, %out: f32):
          %7 = math.absf %in : f32
          %8 = arith.cmpf one, %7, %cst_0 : f32
          %9 = arith.select %8, %in, %cst : f32
          linalg.yield %9 : f32
        } -> tensor<2048xf32>
        iree_tensor_ext.dispatch.tensor.store %6, %1, offsets = [0], sizes = [2048], strides = [1] : tensor<2048xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2048xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_5 {
    stream.executable.export public @main_dispatch_5_reduction_2048x32768_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_5_reduction_2048x32768_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %cst = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048x32768xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2048xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [2048, 32768], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048x32768xf32>> -> tensor<2048x32768xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [2048], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2048xf32>> -> tensor<2048xf32>
        %5 = tensor.empty() : tensor<2048xf32>
        %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<2048xf32>) -> tensor<2048xf32>
        %7 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%3, %4 : tensor<2048x32768xf32>, tensor<2048xf32>) outs(%6 : tensor<2048xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %9 = arith.subf %in, %in_0 : f32
          %10 = math.exp %9 : f32
          %11 = arith.addf %out, %10 : f32
          linalg.yield %11 : f32
        } -> tensor<2048xf32>
        %8 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel"]} ins(%7, %4 : tensor<2048xf32>, tensor<2048xf32>) outs(%5 : tensor<2048xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %9 = math.absf %in : f32
          %10 = math.log %9 : f32
          %11 = arith.addf %10, %in_0 : f32
          linalg.yield %11 : f32
        } -> tensor<2048xf32>
        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0], sizes = [2048], strides = [1] : tensor<2048xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2048xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<2048x64xf32>, %input1: tensor<64x16384xf32>, %input2: tensor<64x16384xf32>) -> (%output0: tensor<2048xf32>)"}} {
    %c8192 = arith.constant 8192 : index
    %c268435456 = arith.constant 268435456 : index
    %c0 = arith.constant 0 : index
    %c134217728 = arith.constant 134217728 : index
    %c4194304 = arith.constant 4194304 : index
    %c524288 = arith.constant 524288 : index
    %c16384 = arith.constant 16384 : index
    %c64 = arith.constant 64 : index
    %c2048 = arith.constant 2048 : index
    %element_type_f32 = hal.element_type<f32> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c2048, %c64]) type(%element_type_f32) encoding(%dense_row_major)
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg0 : !hal.buffer_view -> tensor<2048x64xf32> in !stream.resource<external>{%c524288}
    hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%c64, %c16384]) type(%element_type_f32) encoding(%dense_row_major)
    %1 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg1 : !hal.buffer_view -> tensor<64x16384xf32> in !stream.resource<external>{%c4194304}
    hal.buffer_view.assert<%arg2 : !hal.buffer_view> message("input2") shape([%c64, %c16384]) type(%element_type_f32) encoding(%dense_row_major)
    %2 = stream.tensor.import on(#hal.device.affinity<@dev_c>) %arg2 : !hal.buffer_view -> tensor<64x16384xf32> in !stream.resource<external>{%c4194304}
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c2048, %c64]) type(%element_type_f32) encoding(%dense_row_major)
    %3 = stream.tensor.import on(#hal.device.affinity<@dev_c>) %arg0 : !hal.buffer_view -> tensor<2048x64xf32> in !stream.resource<external>{%c524288}
    %4 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_matmul_2048x16384x64_f32(%0[%c0 to %c524288 for %c524288], %1[%c0 to %c4194304 for %c4194304]) : (!stream.resource<external>{%c524288}, !stream.resource<external>{%c4194304}) -> !stream.resource<transient>{%c134217728}
    %5 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @main_dispatch_0::@main_dispatch_0_matmul_2048x16384x64_f32(%3[%c0 to %c524288 for %c524288], %2[%c0 to %c4194304 for %c4194304]) : (!stream.resource<external>{%c524288}, !stream.resource<external>{%c4194304}) -> !stream.resource<transient>{%c134217728}
    %6 = stream.async.transfer %4 : !stream.resource<transient>{%c134217728} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%c134217728}
    %7 = stream.async.transfer %5 : !stream.resource<transient>{%c134217728} from(#hal.device.affinity<@dev_c>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%c134217728}
    %8 = stream.async.alloca on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%c268435456}
    %9 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_2::@main_dispatch_2_slow_memcpy(%6[%c0 to %c134217728 for %c134217728], %8[%c0 to %c268435456 for %c268435456]) : (!stream.resource<transient>{%c134217728}, !stream.resource<transient>{%c268435456}) -> %8{%c268435456}
    %10 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_3::@main_dispatch_3_slow_memcpy(%7[%c0 to %c134217728 for %c134217728], %9[%c0 to %c268435456 for %c268435456]) : (!stream.resource<transient>{%c134217728}, !stream.resource<transient>{%c268435456}) -> %9{%c268435456}
    %11 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_4::@main_dispatch_4_reduction_2048x32768_f32(%10[%c0 to %c268435456 for %c268435456]) : (!stream.resource<transient>{%c268435456}) -> !stream.resource<transient>{%c8192}
    %12 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_5::@main_dispatch_5_reduction_2048x32768_f32(%10[%c0 to %c268435456 for %c268435456], %11[%c0 to %c8192 for %c8192]) : (!stream.resource<transient>{%c268435456}, !stream.resource<transient>{%c8192}) -> !stream.resource<external>{%c8192}
    %13 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %12 : tensor<2048xf32> in !stream.resource<external>{%c8192} -> !hal.buffer_view
    util.return %13 : !hal.buffer_view
  }
}

