// RUN: streamopt --split-input-file --verify-diagnostics %s

util.func public @missing_callee(%arg0: index) -> index {
  // expected-error @+1 {{'util.call' op undefined/incompatible callee: missing}}
  %0 = util.call @missing(%arg0) : (index) -> index
  util.return %0 : index
}

// -----

util.global private @not_a_function : index
util.func public @callee_is_a_global(%arg0: index) -> index {
  // expected-error @+1 {{'util.call' op undefined/incompatible callee: not_a_function}}
  %0 = util.call @not_a_function(%arg0) : (index) -> index
  util.return %0 : index
}

// -----

util.func private @callee(%arg0: index) -> index
util.func public @call_type_mismatch(%arg0: i1) -> index {
  // expected-error @+1 {{'util.call' op function type mismatch; expected '(i1) -> index' but callee is '(index) -> index'}}
  %0 = util.call @callee(%arg0) : (i1) -> index
  util.return %0 : index
}

// -----

util.func private @callee(%arg0: !stream.resource<*>) -> %arg0
util.func public @call_tie_mismatch(%arg0: !stream.resource<*>) -> !stream.resource<*> {
  // expected-error @+1 {{'util.call' op function tied operands mismatch}}
  %0 = util.call @callee(%arg0) : (!stream.resource<*>) -> !stream.resource<*>
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @call_unknown_tie(%arg0: index, %arg1: index) -> index {
  // expected-error @+1 {{tied operand not found for result reference}}
  %0 = util.call @f(%arg0) : (index) -> %arg1
  util.return %0 : index
}

// -----

util.func public @return_count(%arg0: index) -> index {
  // expected-error @+1 {{'util.return' op has 0 operands, but enclosing function-like op returns 1}}
  util.return
}

// -----

util.func public @return_type(%arg0: i32) -> index {
  // expected-error @+1 {{'util.return' op type of return operand 0 ('i32') doesn't match function result type ('index')}}
  util.return %arg0 : i32
}

// -----

util.initializer {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'util.return' op has 1 operands, but enclosing function-like op returns 0}}
  util.return %c0 : index
}

// -----

// An op streamopt keeps as written is no terminator unless IREE defines it as one.
util.func public @ends_with_kept_op(%arg0: index) {
  // expected-error @+1 {{block with no terminator, has 'stream.tensor.empty'}}
  %0 = stream.tensor.empty : tensor<4xf32> in !stream.resource<*>{%arg0}
}

// -----

// util.return ends a function or initializer; scf.execute_region returns by scf.yield.
util.func public @return_in_execute_region() {
  scf.execute_region {
    // expected-error @+1 {{'util.return' op expects parent op to be one of 'util.initializer, util.func, util.hoistable_conversion'}}
    util.return
  }
  util.return
}

// -----

util.func public @undefined_global() -> index {
  // expected-error @+1 {{'util.global.load' op undefined global: @nope}}
  %0 = util.global.load @nope : index
  util.return %0 : index
}

// -----

util.global private @g : i32
util.func public @load_type() -> index {
  // expected-error @+1 {{'util.global.load' op global type mismatch; global "g" is 'i32' but load is 'index'}}
  %0 = util.global.load @g : index
  util.return %0 : index
}

// -----

util.global private mutable @g : i32
util.func public @immutable_load_of_mutable() -> i32 {
  // expected-error @+1 {{'util.global.load' op is marked as immutable but the global is mutable}}
  %0 = util.global.load immutable @g : i32
  util.return %0 : i32
}

// -----

util.global private mutable @g : i32
util.func public @store_type(%arg0: index) {
  // expected-error @+1 {{'util.global.store' op global type mismatch; global "g" is 'i32' but store is 'index'}}
  util.global.store %arg0, @g : index
  util.return
}

// -----

util.func public @store_undefined(%arg0: index) {
  // expected-error @+1 {{'util.global.store' op undefined global: @nope}}
  util.global.store %arg0, @nope : index
  util.return
}

// -----

// expected-error @+1 {{'util.global' op initial value type mismatch; global "g" is 'i32' but initial value provided is 'index'}}
util.global private @g : i32 = 5 : index

// -----

// expected-error @+1 {{'util.global' op initial value type mismatch; global "g" is '(index) -> index' but initial value provided is '(index) -> i32'}}
util.global private @g : (index) -> index = #util.uninitialized : (index) -> i32

// -----

util.global private @g : (index) -> index
util.func public @load_other_function_type() {
  // expected-error @+1 {{'util.global.load' op global type mismatch; global "g" is '(index) -> index' but load is '() -> ()'}}
  %0 = util.global.load immutable @g : () -> ()
  util.return
}

// -----

util.global private mutable @g : (index) -> index
util.func public @store_other_function_type() {
  %0 = util.unfoldable_constant @f : (index) -> i32
  // expected-error @+1 {{use of value '%0' expects different type than prior uses: '(index) -> index' vs '(index) -> i32'}}
  util.global.store %0, @g : (index) -> index
  util.return
}

// -----

// A function symbol is no initial value: ODS wants a typed attribute.
util.func private @f(%arg0: index) -> index
// expected-error @+1 {{'util.global' op attribute 'initial_value' failed to satisfy constraint: TypedAttr instance}}
util.global private @g : (index) -> index = @f

// -----

// A function type ends the global: an attribute dictionary comes before the colon.
// expected-error @+1 {{unexpected '{', expected '=' or end of line}}
util.global private @g : (index) -> index {a}

// -----

#untyped = #hal.device.affinity<@dev>
// expected-error @+1 {{expected a typed initial value or ': type'}}
util.global private @g = #untyped

// -----

// expected-error @+1 {{expected 'public', 'private' or 'nested', got 'hidden'}}
util.global hidden @g : i32

// -----

// Results written without parentheses take no attributes: the `{` opens a body.
// expected-error @+1 {{unexpected 'a.b', expected end of line}}
util.func private @bare_result_attrs(%a: index) -> index {a.b}, i64

// -----

// expected-error @+1 {{unexpected '(', expected SSA value or identifier or type}}
util.func private @bare_parenthesized(%a: index) -> index, (i64)

// -----

// expected-error @+1 {{unexpected ',', expected 'attributes' or '{' or end of line}}
util.func private @parenthesized_then_bare(%a: index) -> (index), i64

// -----

util.func public @assume_rows(%arg0: index, %arg1: index) {
  // expected-error @+1 {{'util.assume.int' op expected operand #1 to have 2 assumptions but it has 3}}
  %0:2 = util.assume.int %arg0[<umin = 0>, <umin = 1>], %arg1[<udiv = 2>, <udiv = 4>, <udiv = 8>] : index, index
  util.return
}

// -----

util.func public @assume_field(%arg0: index) {
  // expected-error @+1 {{custom op 'util.assume.int' duplicate or unknown struct parameter name: umid}}
  %0 = util.assume.int %arg0<umid = 0> : index
  util.return
}

// -----

// Past 64 bits (iree-opt also says `failed to parse Util_IntAssumptionAttr parameter 'umin'`).
util.func public @assume_value_too_large(%arg0: index) {
  // expected-error @+1 {{custom op 'util.assume.int' integer value too large}}
  %0 = util.assume.int %arg0<umin = 18446744073709551616> : index
  util.return
}

// -----

// A negative value is read as its 64-bit pattern down to -(2**63 - 1); iree-opt 3.13 refuses
// -2**63 and below.
util.func public @assume_negative_too_large(%arg0: index) {
  // expected-error @+1 {{custom op 'util.assume.int' integer value too large}}
  %0 = util.assume.int %arg0<umax = -9223372036854775808> : index
  util.return
}

// -----

// expected-error @+1 {{integer value too large}}
util.func public @assumption_attribute_too_large() attributes {a = #util.int.assumption<udiv = 0x10000000000000000>} {
  util.return
}

// -----

util.func public @buffer_constant_alignment() {
  // expected-error @+1 {{'util.buffer.constant' op invalid alignment; must be a power of two}}
  %0 = util.buffer.constant <alignment = 48> : !util.buffer = dense<1> : tensor<4xi8>
  util.return
}

// -----

util.func public @buffer_constant_type() {
  // expected-error @+1 {{'util.buffer.constant' result must be '!util.buffer', got 'i32'}}
  %0 = util.buffer.constant : i32 = dense<1> : tensor<4xi8>
  util.return
}

// -----

// expected-error @+1 {{unknown attribute `inline.sometimes` in dialect `util`}}
util.func private @callee() attributes {inlining_policy = #util.inline.sometimes} {
  util.return
}

// -----

// util.list.construct's values are checked against the list's element type as
// ListConstructOp::verify checks them.
util.func public @list_construct_type_mismatch(%arg0: tensor<4xf32>) {
  %c0 = arith.constant 0 : i64
  // expected-error @+1 {{list[1] type 'i64' cannot be be cast to list type 'tensor<?xf32>'}}
  %0 = util.list.construct [%arg0 : tensor<4xf32>, %c0 : i64] : !util.list<tensor<?xf32>>
  util.return
}

// -----

// A util.func in the generic form is kept as written, but its tied operand indices are
// checked against the function type's inputs as FuncOp::verify checks them.
// expected-error @+1 {{'util.func' op result #1 tied to invalid operand index 2}}
"util.func"() <{function_type = (i32, tensor<4xi32>) -> (i32, tensor<4xi32>), sym_name = "tied_out_of_range", sym_visibility = "public", tied_operands = [-1 : index, 2 : index]}> ({
^bb0(%arg0: i32, %arg1: tensor<4xi32>):
  "util.return"(%arg0, %arg1) : (i32, tensor<4xi32>) -> ()
}) : () -> ()

// -----

// The same with the inherent attributes in the attribute dictionary, which MLIR reads too.
// expected-error @+1 {{'util.func' op result #0 tied to invalid operand index -2}}
"util.func"() ({
^bb0(%arg0: i32):
  "util.return"(%arg0) : (i32) -> ()
}) {function_type = (i32) -> i32, sym_name = "tied_negative", tied_operands = [-2 : index]} : () -> ()

// -----

// A util.optimization_barrier in the generic form is read as one: its results must match its
// operands, in number and type.
util.func public @barrier_count_mismatch(%arg0: tensor<i32>, %arg1: tensor<i32>) {
  // expected-error @+1 {{'util.optimization_barrier' op failed to verify that all of {operands, results} have same type}}
  %0 = "util.optimization_barrier"(%arg0, %arg1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  util.return
}

// -----

util.func public @barrier_type_mismatch(%arg0: tensor<i32>, %arg1: i32) {
  // expected-error @+1 {{'util.optimization_barrier' op failed to verify that all of {operands, results} have same type}}
  %0:2 = "util.optimization_barrier"(%arg0, %arg1) : (tensor<i32>, i32) -> (tensor<i32>, i64)
  util.return
}

// -----

// The value util.global.store.indirect and util.global.load.indirect store or load must be
// one the pointer's target type takes.
util.global private mutable @var : !hal.buffer
util.func public @store_indirect_mismatch(%arg0: !hal.buffer_view) {
  %0 = util.global.address @var : !util.ptr<!hal.buffer>
  // expected-error @+1 {{'util.global.store.indirect' op global type mismatch; global pointer is '!hal.buffer' but store is '!hal.buffer_view'}}
  util.global.store.indirect %arg0, %0 : !hal.buffer_view -> !util.ptr<!hal.buffer>
  util.return
}

// -----

util.global private mutable @var : tensor<4xf32>
util.func public @load_indirect_mismatch() -> tensor<3xf32> {
  %0 = util.global.address @var : !util.ptr<tensor<4xf32>>
  // expected-error @+1 {{'util.global.load.indirect' op global type mismatch; global pointer is 'tensor<4xf32>' but load is 'tensor<3xf32>'}}
  %1 = util.global.load.indirect %0 : !util.ptr<tensor<4xf32>> -> tensor<3xf32>
  util.return %1 : tensor<3xf32>
}

// -----

util.global private mutable @var : i32
util.func public @address_immutable_of_mutable() {
  // expected-error @+1 {{'util.global.address' op is marked as immutable but the global is mutable}}
  %0 = util.global.address immutable @var : !util.ptr<i32>
  util.return
}

// -----

util.func public @address_of_no_global() {
  // expected-error @+1 {{'util.global.address' op attribute 'global' failed to satisfy constraint: flat symbol reference attribute referencing to a 'IREE::Util::GlobalOpInterface' symbol}}
  %0 = util.global.address @address_of_no_global : !util.ptr<i32>
  util.return
}

// -----

util.func public @load_indirect_not_a_pointer(%arg0: i32) {
  // expected-error @+1 {{'util.global.load.indirect' op operand #0 must be A pointer-like reference., but got 'i32'}}
  %0 = util.global.load.indirect %arg0 : i32 -> i32
  util.return
}

// -----

util.func public @list_construct_not_a_list(%arg0: i32) {
  // expected-error @+1 {{'util.list.construct' op result #0 must be Dense list container type., but got 'i32'}}
  %0 = util.list.construct [%arg0 : i32] : i32
  util.return
}

// -----

util.func public @string_format_float(%arg0: f32) {
  // expected-error @+1 {{'util.string.format' op operand #0 must be variadic of index or signless integer or A reference counted byte buffer., but got 'f32'}}
  %0 = util.string.format "{}"(%arg0) : (f32) -> !util.buffer
  util.return
}

// -----

util.func public @string_format_type_count(%arg0: i32) {
  // expected-error @+1 {{custom op 'util.string.format' number of operands and types do not match: got 1 operands and 2 types}}
  %0 = util.string.format "{}"(%arg0) : (i32, i32) -> !util.buffer
  util.return
}

// -----

// A declaration (no body) is not public: MLIR's symbol verifier, as iree-opt applies it.
// expected-error @+1 {{'util.func' op symbol declaration cannot have public visibility}}
util.func @public_declaration(%arg0: index) -> index

// -----

// An argument's or a result's attributes name their dialect (MLIR's function op interface).
// expected-error @+1 {{'util.func' op arguments may only have dialect attributes}}
util.func public @undialected_argument_attribute(%arg0: i32 {a}) {
  util.return
}

// -----

// expected-error @+1 {{'util.func' op results may only have dialect attributes}}
util.func private @undialected_result_attribute(%arg0: i32) -> (i32 {a.b}, i32 {c})

// -----

// util.string.format's placeholders are checked against its arguments as
// StringFormatOp::verify checks them (in 64 bits: `{4294967295}` wants 2^32 arguments, not 0).
util.func public @string_format_index_overflow() -> !util.buffer {
  // expected-error @+1 {{'util.string.format' op format string placeholder count does not match the 0 provided argument(s)}}
  %0 = util.string.format "{4294967295}"() : () -> !util.buffer
  util.return %0 : !util.buffer
}

// -----

util.func public @string_format_mixed(%arg0: index, %arg1: i32) -> !util.buffer {
  // expected-error @+1 {{'util.string.format' op cannot mix sequential '{}' and explicit '{N}' placeholders}}
  %0 = util.string.format "{} and {0}"(%arg0, %arg1) : (index, i32) -> !util.buffer
  util.return %0 : !util.buffer
}

// -----

util.func public @string_format_bad_placeholder(%arg0: index) -> !util.buffer {
  // expected-error @+1 {{'util.string.format' op invalid placeholder '{x}' in format string; expected '{}' or '{N}'}}
  %0 = util.string.format "\22{x}\22"(%arg0) : (index) -> !util.buffer
  util.return %0 : !util.buffer
}

// -----

// As in iree-opt, util.buffer.alloc's inherent `alignment` may not be given in its attribute
// dictionary (its format spells it as a property).
util.func public @buffer_alloc_inherent_in_attr_dict(%arg0: index) -> !util.buffer {
  // expected-error @+1 {{custom op 'util.buffer.alloc' inherent attribute 'alignment' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  %0 = util.buffer.alloc uninitialized {some.attr, "alignment" = 16 : index} : !util.buffer{%arg0}
  util.return %0 : !util.buffer
}

// -----

func.func @string_format_in_kept_function(%arg0: index) -> !util.buffer {
  // expected-error @+1 {{'util.string.format' op format string placeholder count does not match the 1 provided argument(s)}}
  %0 = util.string.format "{}{}"(%arg0) : (index) -> !util.buffer
  return %0 : !util.buffer
}

// -----

// A value the enclosing kept func.func defines is checked by the type written beside it.
func.func @list_construct_in_kept_function(%arg0: i32) {
  %c0 = arith.constant 0 : i64
  // expected-error @+1 {{list[1] type 'i32' cannot be be cast to list type 'i64'}}
  %0 = util.list.construct [%c0 : i64, %arg0 : i32] : !util.list<i64>
  return
}

// -----

// The op's syntax spells its inherent `global` (the symbol): iree-opt refuses it in the
// attribute dictionary as well (the generic form may carry it there).
util.global private @g : index
util.func public @global_load_inherent_in_attr_dict() -> index {
  // expected-error @+1 {{custom op 'util.global.load' inherent attribute 'global' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  %0 = util.global.load @g {global = @g} : index
  util.return %0 : index
}

// -----

util.global private @g : index
util.func public @global_store_inherent_in_attr_dict(%arg0: index) {
  // expected-error @+1 {{custom op 'util.global.store' inherent attribute 'global' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  util.global.store %arg0, @g {global = @g} : index
  util.return
}

// -----

// An inherent attribute the custom form has no syntax for is refused all the same.
util.global private @g : index
util.func public @global_load_is_immutable_in_attr_dict() -> index {
  // expected-error @+1 {{custom op 'util.global.load' inherent attribute 'is_immutable' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  %0 = util.global.load @g {is_immutable} : index
  util.return %0 : index
}

// -----

// The module's inherent attributes are refused after `attributes` too.
// expected-error @+1 {{custom op 'builtin.module' inherent attribute 'sym_visibility' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
module @m attributes {sym_visibility = "private"} {
}

// -----

// util.list.construct's assembly format starts with the `[...]` of its values, empty or not.
util.func public @list_construct_without_values() -> !util.list<i32> {
  // expected-error @+1 {{expected '['}}
  %0 = util.list.construct : !util.list<i32>
  util.return %0 : !util.list<i32>
}

// -----

// util.func's parser is hand-written: what its syntax spells is refused after `attributes`
// as inferred, not as an inherent attribute.
// expected-error @+1 {{custom op 'util.func' 'sym_visibility' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
util.func public @func_visibility_in_attr_dict() attributes {sym_visibility = "private"} {
  util.return
}

// -----

// It always sets `tied_operands`, so one after `attributes` is given twice.
// expected-error @+1 {{custom op 'util.func' attribute 'tied_operands' occurs more than once in the attribute list}}
util.func public @func_tied_operands_in_attr_dict(%arg0: index) -> index attributes {tied_operands = [-1 : index]} {
  util.return %arg0 : index
}

// -----

// expected-error @+1 {{custom op 'util.initializer' attribute 'function_type' occurs more than once in the attribute list}}
util.initializer attributes {function_type = () -> ()} {
  util.return
}

// -----

util.func public @unfoldable_constant_value_in_attr_dict() -> index {
  // expected-error @+1 {{custom op 'util.unfoldable_constant' attribute 'value' occurs more than once in the attribute list}}
  %0 = util.unfoldable_constant {value = 2 : index} 1 : index
  util.return %0 : index
}

// -----

util.func public @assume_int_assumptions_in_attr_dict(%arg0: index) -> index {
  // expected-error @+1 {{custom op 'util.assume.int' attribute 'assumptions' occurs more than once in the attribute list}}
  %0 = util.assume.int %arg0<umin = 0> : index {assumptions = []}
  util.return %0 : index
}

// -----

// The generic form of util.assume.int is held to AssumeIntOp's constraints too.
util.func public @generic_assume_int_rows(%arg0: index, %arg1: i64) -> (index, i64) {
  // expected-error @+1 {{'util.assume.int' op expected 2 assumption rows to match number of operands}}
  %0:2 = "util.assume.int"(%arg0, %arg1) {assumptions = [[#util.int.assumption<umin = 0>]]} : (index, i64) -> (index, i64)
  util.return %0#0, %0#1 : index, i64
}

// -----

util.func public @generic_assume_int_not_assumptions(%arg0: index, %arg1: i64) -> (index, i64) {
  // expected-error @+1 {{'util.assume.int' op attribute 'assumptions' failed to satisfy constraint: list of int attribute assumptions for multiple values}}
  %0:2 = "util.assume.int"(%arg0, %arg1) {assumptions = [32, [32]]} : (index, i64) -> (index, i64)
  util.return %0#0, %0#1 : index, i64
}

// -----

// A bare symbol name holds no `-` (MLIR's lexer ends `@f` there).
// expected-error @+1 {{expected '('}}
util.func public @f-g() {
  util.return
}

// -----

util.func public @buffer_alloc_alignment(%arg0: index) -> !util.buffer {
  // expected-error @+1 {{'util.buffer.alloc' op invalid alignment; must be a power of two}}
  %0 = util.buffer.alloc uninitialized <alignment = 3> : !util.buffer{%arg0}
  util.return %0 : !util.buffer
}

// -----

util.func public @buffer_alloc_unknown_property(%arg0: index) -> !util.buffer {
  // expected-error @+1 {{custom op 'util.buffer.alloc' duplicate or unknown property in properties dictionary: foo}}
  %0 = util.buffer.alloc uninitialized <foo = 1> : !util.buffer{%arg0}
  util.return %0 : !util.buffer
}

// -----

// A spelled type of a `!util.buffer` operand or result is read as one (ODS's parser of
// Util_BufferType), as the memref of util.buffer.storage is.
util.func public @buffer_size_of_integer(%arg0: i32) -> index {
  // expected-error @+1 {{custom op 'util.buffer.size' invalid kind of type specified: expected util.buffer, but found 'i32'}}
  %0 = util.buffer.size %arg0 : i32
  util.return %0 : index
}

// -----

util.func public @buffer_storage_not_memref(%arg0: !util.buffer, %arg1: index) -> index {
  // expected-error @+1 {{custom op 'util.buffer.storage' invalid kind of type specified: expected builtin.memref, but found 'i32'}}
  %0, %1 = util.buffer.storage %arg0 : !util.buffer{%arg1} -> (i32, index)
  util.return %1 : index
}

// -----

util.func public @buffer_load_of_buffer(%arg0: !util.buffer, %arg1: index) -> !util.buffer {
  // expected-error @+1 {{'util.buffer.load' op result #0 must be index or integer or floating-point, but got '!util.buffer'}}
  %0 = util.buffer.load %arg0[%arg1 for %arg1] : !util.buffer{%arg1} -> !util.buffer
  util.return %0 : !util.buffer
}

// -----

util.func public @itoa_of_buffer(%arg0: !util.buffer) -> !util.buffer {
  // expected-error @+1 {{'util.string.itoa' op operand #0 must be index or signless integer, but got '!util.buffer'}}
  %0 = util.string.itoa %arg0 : !util.buffer -> !util.buffer
  util.return %0 : !util.buffer
}

// -----

util.func public @list_size_of_integer(%arg0: i32) -> index {
  // expected-error @+1 {{'util.list.size' op operand #0 must be Dense list container type., but got 'i32'}}
  %0 = util.list.size %arg0 : i32
  util.return %0 : index
}

// -----

// iree-opt reports this one at the token after the types (the first of the next line).
util.func public @list_get_as_other_type(%arg0: !util.list<i32>, %arg1: index) -> f32 {
  // expected-error @+1 {{custom op 'util.list.get' list access types must match the same base type as the list element type (when not variant)}}
  %0 = util.list.get %arg0[%arg1] : !util.list<i32> -> f32
  util.return %0 : f32
}

// -----

util.func public @list_set_as_other_type(%arg0: !util.list<i32>, %arg1: index) {
  // expected-error @+1 {{list contains 'i32' and cannot be mutated as 'index'}}
  util.list.set %arg0[%arg1], %arg1 : index -> !util.list<i32>
  util.return
}

// -----

util.func public @cast_of_integer(%arg0: i32) -> !util.object {
  // expected-error @+1 {{'util.cast' op operand type 'i32' is not object cast compatible}}
  %0 = util.cast %arg0 : i32 to !util.object
  util.return %0 : !util.object
}

// -----

util.func public @cast_between_objects(%arg0: !util.buffer) -> !util.list<i32> {
  // expected-error @+1 {{'util.cast' op operand type '!util.buffer' and result type '!util.list<i32>' are cast incompatible}}
  %0 = util.cast %arg0 : !util.buffer to !util.list<i32>
  util.return %0 : !util.list<i32>
}

// -----

// The operands of util.align have the result's type (SameOperandsAndResultType).
util.func public @align_of_other_type(%arg0: i32) -> index {
  // expected-error @+1 {{use of value '%arg0' expects different type than prior uses: 'index' vs 'i32'}}
  %0 = util.align %arg0, %arg0 : index
  util.return %0 : index
}

// -----

util.func public @range_min_of_float(%arg0: f32) -> f32 {
  // expected-error @+1 {{'util.range.min' op operand #0 must be variadic of index or integer, but got 'f32'}}
  %0 = util.range.min %arg0 : f32
  util.return %0 : f32
}

// -----

util.func public @range_max_of_nothing() -> index {
  // expected-error @+1 {{'util.range.max' op expected 1 or more operands, but found 0}}
  %0 = util.range.max : index
  util.return %0 : index
}

// -----

util.func public @narrow_of_buffer(%arg0: !util.buffer) -> !util.buffer {
  // expected-error @+1 {{'util.numeric.optional_narrow' op operand #0 must be signless integer or floating-point or tensor of signless integer or floating-point values, but got '!util.buffer'}}
  %0 = util.numeric.optional_narrow %arg0 : !util.buffer as i8
  util.return %0 : !util.buffer
}
