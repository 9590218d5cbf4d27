// `#util.int.assumption` and util.assume.int's rows are read as IREE reads the attribute's
// body: fields in any order, a value in hexadecimal, negative (its 64-bit pattern), `true`
// or `false`; and printed as iree-opt prints them.
// RUN: iree-opt %s -o %t.expected
// RUN: streamopt %s -o %t.actual
// RUN: diff %t.expected %t.actual
// RUN: filecheck %s --input-file %t.actual

// CHECK-LABEL: util.func public @custom_form
util.func public @custom_form(%arg0: index, %arg1: i64) -> (index, i64, index) {
  // CHECK: util.assume.int %arg0<umin = 16, umax = 100, udiv = 4> : index
  %0 = util.assume.int %arg0<udiv = 4, umin = 0x10, umax = 100> : index
  // CHECK: util.assume.int
  // CHECK-NEXT: %arg0[<umin = 18446744073709551615>, <umin = 0, udiv = 18446744073709551608>]
  // CHECK-NEXT: %arg1<umax = 18446744073709551615>
  %1:2 = util.assume.int %arg0[<umin = -1>, <umin = false, udiv = -8>], %arg1<umax = true> : index, i64
  util.return %0, %1#1, %1#0 : index, i64, index
}

// CHECK-LABEL: util.func public @attribute_form
// CHECK-SAME: a = #util.int.assumption<umin = 16, umax = 2>
// CHECK-SAME: b = #util.int.assumption<umin = 18446744073709551615>
// CHECK-SAME: c = #util.int.assumption<>
// CHECK-SAME: d = [#util.int.assumption<udiv = 4>]
util.func public @attribute_form() attributes {a = #util.int.assumption<umax=2,umin=0x10>, b = #util.int.assumption<umin = -1>, c = #util.int.assumption<umin = >, d = [#util.int.assumption< udiv = 4 >]} {
  util.return
}
