// RUN: streamopt --split-input-file --verify-diagnostics %s

util.func public @operand_type(%arg0: index, %arg1: i1) {
  // expected-error @+1 {{use of value '%arg1' expects different type than prior uses: 'index' vs 'i1'}}
  %0 = arith.addi %arg0, %arg1 : index
  util.return
}

// -----

util.func public @float_operands(%arg0: f32, %arg1: i32) {
  // expected-error @+1 {{'arith.addi' op operand #0 must be signless-non-zero-bitwidth-integer-like, but got 'f32'}}
  %0 = arith.addi %arg0, %arg0 : f32
  util.return
}

// -----

util.func public @integer_operands(%arg0: i32) {
  // expected-error @+1 {{'arith.mulf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.mulf %arg0, %arg0 : i32
  util.return
}

// -----

util.func public @predicate(%arg0: index) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %0 = arith.cmpi foo, %arg0, %arg0 : index
  util.return
}

// -----

util.func public @wrong_flag(%arg0: index) {
  // expected-error @+1 {{'arith.divui' does not take 'overflow'}}
  %0 = arith.divui %arg0, %arg0 overflow<nsw> : index
  util.return
}

// -----

util.func public @unknown_flag(%arg0: index) {
  // expected-error @+1 {{unknown overflow flag 'nsz'}}
  %0 = arith.addi %arg0, %arg0 overflow<nsz> : index
  util.return
}

// -----

util.func public @extui_index(%arg0: index) {
  // expected-error @+1 {{'arith.extui' op operand #0 must be signless-fixed-width-integer-like, but got 'index'}}
  %0 = arith.extui %arg0 : index to i32
  util.return
}

// -----

util.func public @trunci_wider(%arg0: i32) {
  // expected-error @+1 {{'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.trunci %arg0 : i32 to i64
  util.return
}

// -----

util.func public @extsi_narrower(%arg0: i32) {
  // expected-error @+1 {{'arith.extsi' op operand type 'i32' and result type 'i16' are cast incompatible}}
  %0 = arith.extsi %arg0 : i32 to i16
  util.return
}

// -----

util.func public @select_condition(%arg0: index, %arg1: i32) {
  // expected-error @+1 {{use of value '%arg1' expects different type than prior uses: 'i1' vs 'i32'}}
  %0 = arith.select %arg1, %arg0, %arg0 : index
  util.return
}

// -----

util.func public @unknown_op() {
  // expected-error @+1 {{custom op 'arith.constantx' is unknown}}
  %0 = arith.constantx 1 : i32
  util.return
}

// -----

// The constant's value is its syntax's; one in the attribute dictionary is not dropped but
// refused, as iree-opt does.
util.func public @constant_value_in_attr_dict() -> index {
  // expected-error @+1 {{custom op 'arith.constant' inherent attribute 'value' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  %0 = arith.constant {value = 1 : index} 2 : index
  util.return %0 : index
}

// -----

util.func public @addi_overflow_in_attr_dict(%arg0: i32) -> i32 {
  // expected-error @+1 {{custom op 'arith.addi' inherent attribute 'overflowFlags' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  %0 = arith.addi %arg0, %arg0 {overflowFlags = #arith.overflow<nsw>} : i32
  util.return %0 : i32
}

// -----

util.func public @cmpi_predicate_in_attr_dict(%arg0: i32) -> i1 {
  // expected-error @+1 {{custom op 'arith.cmpi' inherent attribute 'predicate' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  %0 = arith.cmpi eq, %arg0, %arg0 {predicate = 1 : i64} : i32
  util.return %0 : i1
}

// -----

// A list literal's nesting gives its shape, which must be its type's (a scalar splats).
util.func public @dense_list_shape_mismatch() -> tensor<3xi32> {
  // expected-error @+1 {{inferred shape of elements literal ([2]) does not match type ([3])}}
  %0 = arith.constant dense<[1, 2]> : tensor<3xi32>
  util.return %0 : tensor<3xi32>
}

// -----

util.func public @dense_nested_list_shape_mismatch() -> tensor<4xi32> {
  // expected-error @+1 {{inferred shape of elements literal ([2, 2]) does not match type ([4])}}
  %0 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<4xi32>
  util.return %0 : tensor<4xi32>
}

// -----

util.func public @dense_empty_list_shape_mismatch() -> tensor<2xi32> {
  // expected-error @+1 {{inferred shape of elements literal ([0]) does not match type ([2])}}
  %0 = arith.constant dense<[]> : tensor<2xi32>
  util.return %0 : tensor<2xi32>
}

// -----

// i0 elements take no bytes: the only hex data for them is "0x".
util.func public @dense_hex_i0() -> tensor<2xi0> {
  // expected-error @+1 {{elements hex data size is invalid for provided type: 'tensor<2xi0>'}}
  %0 = arith.constant dense<"0x0000"> : tensor<2xi0>
  util.return %0 : tensor<2xi0>
}
