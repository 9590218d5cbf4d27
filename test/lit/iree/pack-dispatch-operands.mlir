// streamopt packs dispatch operands into the same i32 words, in the same order, as IREE's
// --iree-stream-pack-dispatch-operands (one set of CHECK lines for both), and iree-opt accepts
// the hal dispatch --lower-cmd-to-hal makes of them (with the executable left as it was).
//
// RUN: streamopt --pack-dispatch-operands %s | filecheck %s
// RUN: iree-opt --iree-stream-pack-dispatch-operands %s | filecheck %s
// RUN: streamopt --lower-cmd-to-hal %s | iree-opt > /dev/null

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
util.func public @operand_kinds(%arg0: !stream.resource<transient>, %arg1: index, %arg2: index, %arg3: f32, %arg4: i8, %arg5: f64, %arg6: i32) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %0 = arith.constant -7 : i64
  // CHECK: %[[N64:.+]] = arith.index_castui %arg2 : index to i64
  // CHECK-NEXT: %[[N_LO:.+]] = arith.trunci %[[N64]] : i64 to i32
  // CHECK-NEXT: %[[SHIFT:.+]] = arith.constant 32 : i64
  // CHECK-NEXT: %[[N_HI64:.+]] = arith.shrui %[[N64]], %[[SHIFT]] : i64
  // CHECK-NEXT: %[[N_HI:.+]] = arith.trunci %[[N_HI64]] : i64 to i32
  // CHECK: %[[K_LO:.+]] = arith.constant -7 : i32
  // CHECK: %[[K_HI:.+]] = arith.constant -1 : i32
  // CHECK-NEXT: %[[F32:.+]] = arith.bitcast %arg3 : f32 to i32
  // CHECK-NEXT: %[[B32:.+]] = arith.extui %arg4 : i8 to i32
  // CHECK-NEXT: %[[D64:.+]] = arith.bitcast %arg5 : f64 to i64
  // CHECK-NEXT: %[[D_LO:.+]] = arith.trunci %[[D64]] : i64 to i32
  // CHECK-NEXT: %[[SHIFT2:.+]] = arith.constant 32 : i64
  // CHECK-NEXT: %[[D_HI64:.+]] = arith.shrui %[[D64]], %[[SHIFT2]] : i64
  // CHECK-NEXT: %[[D_HI:.+]] = arith.trunci %[[D_HI64]] : i64 to i32
  // CHECK-NEXT: stream.cmd.execute
  // CHECK-NEXT: stream.cmd.dispatch @ex::@fn(%[[N_LO]], %[[N_HI]], %[[K_LO]], %[[K_HI]], %[[F32]], %[[B32]], %[[D_LO]], %[[D_HI]], %arg6 : i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %1 = stream.cmd.execute with(%arg0 as %arg7: !stream.resource<transient>{%arg1}) {
    stream.cmd.dispatch @ex::@fn(%arg2, %0, %arg3, %arg4, %arg5, %arg6 : index, i64, f32, i8, f64, i32) {
      rw %arg7[%c0 for %arg1] : !stream.resource<transient>{%arg1}
    }
  } => !stream.timepoint
  util.return %1 : !stream.timepoint
}
