#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic", cpu_features = "", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> ()>
#map2 = affine_map<() -> ()>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
#device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a = #device_target_local_0_
  util.global private @dev_b = #device_target_local_1_
  stream.executable private @main_dispatch_0 {
    stream.executable.export public @main_dispatch_0_reduction_256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_0_reduction_256_f32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %cst = arith.constant 0xFF800000 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<f32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [256], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>> -> tensor<256xf32>
        %3 = tensor.empty() : tensor<f32>
        %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<f32>) -> tensor<f32>
        %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction"]} ins(%2 : tensor<256xf32>) outs(%4 : tensor<f32>) {
        ^bb0(%in: f32, %out: f32):
          %6 = math.absf %in : f32
          %7 = arith.maximumf %out, %6 : f32
          linalg.yield %7 : f32
        } -> tensor<f32>
        iree_tensor_ext.dispatch.tensor.store %5, %1, offsets = [], sizes = [], strides = [] : tensor<f32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<f32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_1 {
    stream.executable.export public @main_dispatch_1_elementwise workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_1_elementwise(%arg0: !stream.binding, %arg1: !stream.binding) {
        %cst = arith.constant 8.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<f32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<i8>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [], sizes = [], strides = [] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<f32>> -> tensor<f32>
        %3 = tensor.empty() : tensor<i1>
        %4 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%2 : tensor<f32>) outs(%3 : tensor<i1>) {
        ^bb0(%in: f32, %out: i1):
          %6 = arith.cmpf olt, %in, %cst : f32
          linalg.yield %6 : i1
        } -> tensor<i1>
        %5 = arith.extui %4 : tensor<i1> to tensor<i8>
        iree_tensor_ext.dispatch.tensor.store %5, %1, offsets = [], sizes = [], strides = [] : tensor<i8> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<i8>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_2 {
    stream.executable.export public @main_dispatch_2_elementwise workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_2_elementwise(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c1_i32 = arith.constant 1 : i32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<i32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<i32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [], sizes = [], strides = [] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<i32>> -> tensor<i32>
        %3 = tensor.empty() : tensor<i32>
        %4 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%2 : tensor<i32>) outs(%3 : tensor<i32>) {
        ^bb0(%in: i32, %out: i32):
          %5 = arith.addi %in, %c1_i32 : i32
          linalg.yield %5 : i32
        } -> tensor<i32>
        iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [], sizes = [], strides = [] : tensor<i32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<i32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_3 {
    stream.executable.export public @main_dispatch_3_elementwise_256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_3_elementwise_256_f32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %cst = arith.constant 1.500000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<256xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [256], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>> -> tensor<256xf32>
        %3 = tensor.empty() : tensor<256xf32>
        %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%2 : tensor<256xf32>) outs(%3 : tensor<256xf32>) {
        ^bb0(%in: f32, %out: f32):
          %5 = math.sin %in : f32
          %6 = arith.mulf %in, %cst : f32
          %7 = arith.addf %6, %5 : f32
          linalg.yield %7 : f32
        } -> tensor<256xf32>
        iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0], sizes = [256], strides = [1] : tensor<256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<256xf32>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_4 {
    stream.executable.export public @main_dispatch_4_reduction_256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_4_reduction_256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %c16_i32 = arith.constant 16 : i32
        %cst = arith.constant 8.000000e+00 : f32
        %cst_0 = arith.constant 0xFF800000 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<i32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<i8>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [256], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>> -> tensor<256xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [], sizes = [], strides = [] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<i32>> -> tensor<i32>
        %5 = tensor.empty() : tensor<i1>
        %6 = tensor.empty() : tensor<f32>
        %7 = linalg.fill ins(%cst_0 : f32) outs(%6 : tensor<f32>) -> tensor<f32>
        %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction"]} ins(%3 : tensor<256xf32>) outs(%7 : tensor<f32>) {
        ^bb0(%in: f32, %out: f32):
          %11 = math.absf %in : f32
          %12 = arith.maximumf %out, %11 : f32
          linalg.yield %12 : f32
        } -> tensor<f32>
        %9 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = []} ins(%4, %8 : tensor<i32>, tensor<f32>) outs(%5 : tensor<i1>) {
        ^bb0(%in: i32, %in_1: f32, %out: i1):
          %11 = arith.cmpf olt, %in_1, %cst : f32
          %12 = arith.cmpi slt, %in, %c16_i32 : i32
          %13 = arith.andi %12, %11 : i1
          linalg.yield %13 : i1
        } -> tensor<i1>
        %10 = arith.extui %9 : tensor<i1> to tensor<i8>
        iree_tensor_ext.dispatch.tensor.store %10, %2, offsets = [], sizes = [], strides = [] : tensor<i8> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<i8>>
        return
      }
    }
  }
  stream.executable private @main_dispatch_5 {
    stream.executable.export public @main_dispatch_5_reduction_256_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_5_reduction_256_f32(%arg0: !stream.binding, %arg1: !stream.binding) {
        %cst = arith.constant 1.000000e+00 : f32
        %cst_0 = arith.constant 0.000000e+00 : f32
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<256xf32>>
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [256], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256xf32>> -> tensor<256xf32>
        %3 = tensor.empty() : tensor<256xf32>
        %4 = tensor.empty() : tensor<f32>
        %5 = linalg.fill ins(%cst_0 : f32) outs(%4 : tensor<f32>) -> tensor<f32>
        %6 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction"]} ins(%2 : tensor<256xf32>) outs(%5 : tensor<f32>) {
        ^bb0(%in: f32, %out: f32):
          %8 = arith.mulf %in, %in : f32
          %9 = arith.addf %out, %8 : f32
          linalg.yield %9 : f32
        } -> tensor<f32>
        %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel"]} ins(%2, %6 : tensor<256xf32>, tensor<f32>) outs(%3 : tensor<256xf32>) {
        ^bb0(%in: f32, %in_1: f32, %out: f32):
          %8 = math.sqrt %in_1 : f32
          %9 = arith.addf %8, %cst : f32
          %10 = arith.divf %in, %9 : f32
          linalg.yield %10 : f32
        } -> tensor<256xf32>
        iree_tensor_ext.dispatch.tensor.store %7, %1, offsets = [0], sizes = [256], strides = [1] : tensor<256xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<256xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @main(%input0: tensor<256xf32>) -> (%output0: tensor<256xf32>)"}} {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c1024 = arith.constant 1024 : index
    %c0_i8 = arith.constant 0 : i8
    %c256 = arith.constant 256 : index
    %c4 = arith.constant 4 : index
    %element_type_f32 = hal.element_type<f32> : i32
    %dense_row_major = hal.encoding_type<dense_row_major> : i32
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%c256]) type(%element_type_f32) encoding(%dense_row_major)
    %0 = stream.tensor.import on(#hal.device.affinity<@dev_b>) %arg0 : !hal.buffer_view -> tensor<256xf32> in !stream.resource<external>{%c1024}
    %1 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_0::@main_dispatch_0_reduction_256_f32(%0[%c0 to %c1024 for %c1024]) : (!stream.resource<external>{%c1024}) -> !stream.resource<transient>{%c4}
    %2 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_1::@main_dispatch_1_elementwise(%1[%c0 to %c4 for %c4]) : (!stream.resource<transient>{%c4}) -> !stream.resource<transient>{%c1}
    %3 = stream.async.transfer %2 : !stream.resource<transient>{%c1} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<staging>{%c1}
    %4 = stream.async.load %3[%c0] : !stream.resource<staging>{%c1} -> i1
    %5 = scf.if %4 -> (!stream.resource<external>) {
      %9 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c0_i8 : i8 -> !stream.resource<transient>{%c4}
      %10:2 = scf.while (%arg1 = %9, %arg2 = %0) : (!stream.resource<transient>, !stream.resource<external>) -> (!stream.resource<transient>, !stream.resource<external>) {
        %11 = stream.async.transfer %arg1 : !stream.resource<transient>{%c4} -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%c4}
        %12 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_2::@main_dispatch_2_elementwise(%11[%c0 to %c4 for %c4]) : (!stream.resource<transient>{%c4}) -> !stream.resource<transient>{%c4}
        %13 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_3::@main_dispatch_3_elementwise_256_f32(%arg2[%c0 to %c1024 for %c1024]) : (!stream.resource<external>{%c1024}) -> !stream.resource<external>{%c1024}
        %14 = stream.async.transfer %12 : !stream.resource<transient>{%c4} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%c4}
        %15 = stream.async.dispatch on(#hal.device.affinity<@dev_b>) @main_dispatch_4::@main_dispatch_4_reduction_256_f32(%13[%c0 to %c1024 for %c1024], %14[%c0 to %c4 for %c4]) : (!stream.resource<external>{%c1024}, !stream.resource<transient>{%c4}) -> !stream.resource<transient>{%c1}
        %16 = stream.async.transfer %15 : !stream.resource<transient>{%c1} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<staging>{%c1}
        %17 = stream.async.load %16[%c0] : !stream.resource<staging>{%c1} -> i1
        scf.condition(%17) %12, %13 : !stream.resource<transient>, !stream.resource<external>
      } do {
      ^bb0(%arg1: !stream.resource<transient>, %arg2: !stream.resource<external>):
        scf.yield %arg1, %arg2 : !stream.resource<transient>, !stream.resource<external>
      }
      scf.yield %10#1 : !stream.resource<external>
    } else {
      scf.yield %0 : !stream.resource<external>
    }
    %6 = stream.async.transfer %5 : !stream.resource<external>{%c1024} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%c1024}
    %7 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @main_dispatch_5::@main_dispatch_5_reduction_256_f32(%6[%c0 to %c1024 for %c1024]) : (!stream.resource<transient>{%c1024}) -> !stream.resource<external>{%c1024}
    %8 = stream.tensor.export on(#hal.device.affinity<@dev_a>) %7 : tensor<256xf32> in !stream.resource<external>{%c1024} -> !hal.buffer_view
    util.return %8 : !hal.buffer_view
  }
}

