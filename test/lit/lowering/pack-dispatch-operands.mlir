// RUN: streamopt --split-input-file --pack-dispatch-operands %s | filecheck %s
// RUN: streamopt --split-input-file --lower-cmd-to-hal %s | filecheck %s --check-prefix=HAL

// Dispatch operands become i32 words, as IREE's PackDispatchOperands makes them: an index is
// cast to i64 and split into its low and high words, a float is bit-cast to an integer of its
// width, a narrow integer is zero-extended, an i64 is split; constants fold to their words.
// The conversion goes before the execute region; --lower-cmd-to-hal packs first and passes the
// words as the push constants of the hal dispatch.

stream.executable private @ex {
  stream.executable.export public @fn workgroups() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    stream.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fn(%arg0: index, %arg1: i64, %arg2: f32, %arg3: i8, %arg4: f64, %arg5: i32, %arg6: !stream.binding) {
      return
    }
  }
}

// CHECK-LABEL: util.func public @operand_kinds
// CHECK-SAME: (%{{.+}}: !stream.resource<transient>, %{{.+}}: index, %[[N:.+]]: index, %[[F:.+]]: f32, %[[B:.+]]: i8, %[[D:.+]]: f64, %[[W:.+]]: i32)
// HAL-LABEL: util.func public @operand_kinds
util.func public @operand_kinds(%arg0: !stream.resource<transient>, %arg1: index, %arg2: index, %arg3: f32, %arg4: i8, %arg5: f64, %arg6: i32) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c-7_i64 = arith.constant -7 : i64
  // CHECK: %[[N64:.+]] = arith.index_castui %[[N]] : index to i64
  // CHECK-NEXT: %[[N_LO:.+]] = arith.trunci %[[N64]] : i64 to i32
  // CHECK-NEXT: %[[SHIFT:.+]] = arith.constant 32 : i64
  // CHECK-NEXT: %[[N_HI64:.+]] = arith.shrui %[[N64]], %[[SHIFT]] : i64
  // CHECK-NEXT: %[[N_HI:.+]] = arith.trunci %[[N_HI64]] : i64 to i32
  // CHECK-NEXT: %[[K_LO:.+]] = arith.constant -7 : i32
  // CHECK-NEXT: %[[K_HI:.+]] = arith.constant -1 : i32
  // CHECK-NEXT: %[[F32:.+]] = arith.bitcast %[[F]] : f32 to i32
  // CHECK-NEXT: %[[B32:.+]] = arith.extui %[[B]] : i8 to i32
  // CHECK-NEXT: %[[D64:.+]] = arith.bitcast %[[D]] : f64 to i64
  // CHECK-NEXT: %[[D_LO:.+]] = arith.trunci %[[D64]] : i64 to i32
  // CHECK-NEXT: %[[SHIFT2:.+]] = arith.constant 32 : i64
  // CHECK-NEXT: %[[D_HI64:.+]] = arith.shrui %[[D64]], %[[SHIFT2]] : i64
  // CHECK-NEXT: %[[D_HI:.+]] = arith.trunci %[[D_HI64]] : i64 to i32
  // CHECK-NEXT: stream.cmd.execute
  // CHECK-NEXT: stream.cmd.dispatch @ex::@fn(%[[N_LO]], %[[N_HI]], %[[K_LO]], %[[K_HI]], %[[F32]], %[[B32]], %[[D_LO]], %[[D_HI]], %[[W]] : i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  // HAL: %[[N64:.+]] = arith.index_castui %{{.+}} : index to i64
  // HAL-NEXT: %[[N_LO:.+]] = arith.trunci %[[N64]] : i64 to i32
  // HAL: %[[N_HI:.+]] = arith.trunci %{{.+}} : i64 to i32
  // HAL: hal.command_buffer.dispatch<{{.+}} constants([%[[N_LO]], %[[N_HI]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}]) bindings([
  %0 = stream.cmd.execute with(%arg0 as %arg7: !stream.resource<transient>{%arg1}) {
    stream.cmd.dispatch @ex::@fn(%arg2, %c-7_i64, %arg3, %arg4, %arg5, %arg6 : index, i64, f32, i8, f64, i32) {
      rw %arg7[%c0 for %arg1] : !stream.resource<transient>{%arg1}
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

// A constant index folds to its two words; i32 operands stay as they are.

// CHECK-LABEL: util.func public @constant_index
util.func public @constant_index(%arg0: !stream.resource<transient>, %arg1: index, %arg2: i32) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c5000000000 = arith.constant 5000000000 : index
  // CHECK: %[[LO:.+]] = arith.constant 705032704 : i32
  // CHECK-NEXT: %[[HI:.+]] = arith.constant 1 : i32
  // CHECK-NEXT: stream.cmd.execute
  // CHECK-NEXT: stream.cmd.dispatch @ex::@fn(%[[LO]], %[[HI]], %arg2 : i32, i32, i32) {
  %0 = stream.cmd.execute with(%arg0 as %arg3: !stream.resource<transient>{%arg1}) {
    stream.cmd.dispatch @ex::@fn(%c5000000000, %arg2 : index, i32) {
      rw %arg3[%c0 for %arg1] : !stream.resource<transient>{%arg1}
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

// With 32-bit indices (a `stream.resources` config) an index is one word.

// CHECK-LABEL: util.func public @index_bits
util.func public @index_bits(%arg0: !stream.resource<transient>, %arg1: index, %arg2: index) -> !stream.timepoint attributes {stream.resources = #stream.resource_config<{max_allocation_size = 1073741824, min_buffer_offset_alignment = 16, max_buffer_range = 1073741824, min_buffer_range_alignment = 16, index_bits = 32}>} {
  %c0 = arith.constant 0 : index
  // CHECK: %[[N:.+]] = arith.index_castui %arg2 : index to i32
  // CHECK-NEXT: stream.cmd.execute
  // CHECK-NEXT: stream.cmd.dispatch @ex::@fn(%[[N]] : i32) {
  %0 = stream.cmd.execute with(%arg0 as %arg3: !stream.resource<transient>{%arg1}) {
    stream.cmd.dispatch @ex::@fn(%arg2 : index) {
      rw %arg3[%c0 for %arg1] : !stream.resource<transient>{%arg1}
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

// The executable's function is rewritten to match its call sites (IREE's HAL conversion takes
// only bindings and i32 arguments): each scalar argument becomes its words, rebuilt at the top
// of the body under its old name, so the kernel code is unchanged below.

// CHECK-LABEL: stream.executable private @ex
// CHECK: func.func @fn(%arg0_packed0: i32, %arg0_packed1: i32, %arg1: !stream.binding, %arg2: i32, %arg3_packed0: i32) {
// CHECK-NEXT: %arg0_low = arith.extui %arg0_packed0 : i32 to i64
// CHECK-NEXT: %arg0_high = arith.extui %arg0_packed1 : i32 to i64
// CHECK-NEXT: %arg0_c32 = arith.constant 32 : i64
// CHECK-NEXT: %arg0_shifted = arith.shli %arg0_high, %arg0_c32 : i64
// CHECK-NEXT: %arg0_i64 = arith.ori %arg0_low, %arg0_shifted : i64
// CHECK-NEXT: %arg0 = arith.index_castui %arg0_i64 : i64 to index
// CHECK-NEXT: %arg3 = arith.bitcast %arg3_packed0 : i32 to f32
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-LABEL: util.func public @executable_packed
// CHECK: stream.cmd.dispatch @ex::@fn(%{{.+}}, %{{.+}}, %arg2, %{{.+}} : i32, i32, i32, i32) {
stream.executable private @ex {
  stream.executable.export public @fn workgroups() -> (index, index, index) {
    %c1 = arith.constant 1 : index
    stream.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @fn(%arg0: index, %arg1: !stream.binding, %arg2: i32, %arg3: f32) {
      %c0 = arith.constant 0 : index
      return
    }
  }
}
util.func public @executable_packed(%arg0: !stream.resource<transient>, %arg1: index, %arg2: i32, %arg3: f32) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %0 = stream.cmd.execute with(%arg0 as %arg4: !stream.resource<transient>{%arg1}) {
    stream.cmd.dispatch @ex::@fn(%arg1, %arg2, %arg3 : index, i32, f32) {
      rw %arg4[%c0 for %arg1] : !stream.resource<transient>{%arg1}
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}
