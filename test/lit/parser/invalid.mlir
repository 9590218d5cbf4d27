// RUN: streamopt --split-input-file --verify-diagnostics %s

util.func public @undeclared(%arg0: index) -> index {
  // expected-error @+1 {{use of undeclared SSA value name '%nope'}}
  util.return %nope : index
}

// -----

util.func public @redefinition(%arg0: index) {
  %0 = arith.constant 1 : index
  // expected-error @+1 {{redefinition of SSA value '%0'}}
  %0 = arith.constant 2 : index
  util.return
}

// -----

util.func public @too_many_results(%arg0: index) {
  // expected-error @+1 {{operation defines 1 results but was provided 2 to bind}}
  %0:2 = arith.constant 1 : index
  util.return
}

// -----

util.func public @missing_result_name(%arg0: index) {
  // expected-error @+1 {{operation defines 1 results but was provided 0 to bind}}
  arith.constant 1 : index
  util.return
}

// -----

util.func public @type_mismatch(%arg0: index) -> i32 {
  // expected-error @+1 {{use of value '%arg0' expects different type than prior uses: 'i32' vs 'index'}}
  util.return %arg0 : i32
}

// -----

util.func public @undefined_block(%arg0: index) {
  // expected-error @+1 {{reference to an undefined block '^bb7'}}
  cf.br ^bb7
}

// -----

util.func public @syntax(%arg0: index) {
  // expected-error @+1 {{unexpected end of line}}
  %0 = stream.async.splat %arg0 : i32 ->
  util.return
}

// -----

util.func public @missing_size(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{expected one size for '!stream.resource<*>'}}
  %0 = stream.async.clone %arg0 : !stream.resource<*>{} -> !stream.resource<*>{%arg1}
  util.return
}

// -----

util.func public @tied_to_missing_operand(%arg0: !stream.resource<*>, %arg1: !stream.resource<*>, %arg2: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{tied operand not found for result reference}}
  %0 = stream.async.dispatch @ex::@fn(%arg0[%c0 to %arg2 for %arg2]) : (!stream.resource<*>{%arg2}) -> %arg1{%arg2}
  util.return
}

// -----

util.func public @result_out_of_range(%arg0: index) {
  %0:2 = util.optimization_barrier %arg0, %arg0 : index, index
  // expected-error @+1 {{result number 2 of '%0' is out of range}}
  util.return %0#2 : index
}

// -----

util.func public @shadowing(%arg0: index) -> index {
  %c1 = arith.constant 1 : index
  %0 = scf.for %i = %c1 to %arg0 step %c1 iter_args(%x = %c1) -> (index) {
    // expected-error @+1 {{redefinition of SSA value '%c1'}}
    %c1 = arith.constant 2 : index
    scf.yield %c1 : index
  }
  util.return %0 : index
}

// -----

// expected-error @+1 {{'builtin.module' op can only contain attributes with dialect-prefixed names, found: 'plain'}}
module @named attributes {plain} {
}

// -----

util.func public @return_attributes_after_operands(%arg0: i32) -> i32 {
  // expected-error @+1 {{unexpected '{', expected end of line}}
  util.return %arg0 : i32 {some.note}
}

// -----

#map = affine_map<(d0) -> (d0)>
// expected-error @+1 {{redefinition of attribute alias id 'map'}}
#map = affine_map<(d0) -> (d0 + 1)>

// -----

util.func public @undefined_location_alias() {
  // expected-error @+1 {{operation location alias was never defined}}
  util.return loc(#loc7)
}

// -----

#loc1 = loc("a.py":1:2)
// expected-error @+1 {{undefined symbol alias id 'loc2'}}
#loc3 = loc(callsite(#loc1 at #loc2))
util.func public @f() {
  util.return loc(#loc3)
}

// -----

// A function whose '{' is missing: its branch lands at module level, outside any region.

util.func public @no_body(%arg0: index) -> index
// expected-error @+1 {{successor '^bb1' outside of a region}}
cf.br ^bb1(%arg0 : index)

// -----

util.func public @empty_location() {
  // expected-error @+1 {{expected location instance}}
  %0 = arith.constant 1 : index loc()
  util.return
}

// -----

#loc1 = loc("program.mlir":4:1)
util.func public @callsite_without_caller() {
  // expected-error @+1 {{expected location instance}}
  %0 = arith.constant 1 : index loc(callsite(#loc1 at ))
  util.return
}

// -----

util.func public @callsite_without_at() {
  // expected-error @+1 {{expected 'at' in callsite location}}
  %0 = arith.constant 1 : index loc(callsite("f" "g"))
  util.return
}

// -----

// expected-error @+1 {{expected integer line number in FileLineColRange}}
#loc1 = loc("program.mlir":x)

// -----

// expected-error @+1 {{unknown escape in string literal}}
util.global private @unknown_escape {note = "a\q"} : i32

// -----

// A vertical tab ends a string literal in MLIR.
// expected-error @+1 {{expected '"' in string literal}}
util.global private @vertical_tab {note = "ab"} : i32

// -----

// Kernel code is kept verbatim, but the aliases it names are the file's.
stream.executable private @dispatch {
  stream.executable.export public @dispatch workgroups() -> (index, index, index) {
    %c1 = arith.constant 1 : index
    stream.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    // expected-error @+1 {{undefined symbol alias id 'map'}}
    func.func @dispatch() attributes {maps = [#map]} {
      return
    }
  }
}

// -----

// An alias inside another attribute's `<...>`, which streamopt keeps as written.
// expected-error @+1 {{undefined symbol alias id 'executable_target'}}
util.global private @device = #hal.device.target<"local", [#executable_target]> : !hal.device

// -----

// An op of a dialect iree-opt does not register: the custom form is never read (MLIR needs
// the dialect to read it), not even with --allow-unregistered-dialect.
util.func public @unregistered_custom_op() {
  // expected-error @+2 {{Dialect `foo' not found for custom op 'foo.bar'}}
  // expected-note @+1 {{Available dialects: affine, amdgpu, arith,}}
  foo.bar
  util.return
}

// -----

// The generic form is read only with --allow-unregistered-dialect.
util.func public @unregistered_generic_op() {
  // expected-error @+1 {{operation being parsed with an unregistered dialect. If this is intended, please use --allow-unregistered-dialect}}
  %0 = "foo.bar"() : () -> i32
  util.return
}

// -----

// expected-error @+1 {{#"foo"<"bar<1>"> : 'none' attribute created with unregistered dialect}}
util.global private @unregistered_attribute {note = #foo.bar<1>} : i32

// -----

// expected-error @+1 {{#"foo"<"e"> : 'i32' attribute created with unregistered dialect}}
util.global private @unregistered_typed_attribute {note = [1, #foo.e : i32]} : i32

// -----

// An unregistered dialect's attribute inside an alias's attribute (a damaged dialect name).
// expected-error @+1 {{#"iree_c$pu"<"cpu_encoding_resolver<>"> : 'none' attribute created with unregistered dialect}}
#target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {iree.encoding.resolver = #iree_c$pu.cpu_encoding_resolver<>}>

// -----

// expected-error @+1 {{`!"foo"<"bar">` type created with unregistered dialect}}
util.func public @unregistered_type(%arg0: !foo.bar) {
  util.return
}

// -----

// expected-error @+1 {{`!"foo"<""t"">` type created with unregistered dialect}}
util.global private @unregistered_element_type : tensor<4x!foo<"t">>

// -----

// expected-error @+1 {{#"foo"<"enc"> : 'none' attribute created with unregistered dialect}}
util.global private @unregistered_encoding : tensor<4xf32, #foo.enc>

// -----

// A hex string of dense integer, float, index or complex elements holds `0x` and hex digits.
util.func public @damaged_hex_constant() {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{expected string containing hex digits starting with `0x`}}
  %0 = stream.async.constant : !stream.resource<constant>{%c4} = dense<"3H0x0000803F"> : tensor<f32>
  util.return
}

// -----

// expected-error @+1 {{expected string containing hex digits starting with `0x`}}
util.global private @odd_hex_digits = dense<"0x0000803"> : tensor<f32>

// -----

// One element's bytes (a splat) or every element's.
// expected-error @+1 {{elements hex data size is invalid for provided type: 'tensor<3xf32>'}}
util.global private @hex_size = dense<"0x0000803F0000803F"> : tensor<3xf32>

// -----

// In an op streamopt keeps as written too.
util.func public @unmodelled_hex_constant() {
  // expected-error @+1 {{elements hex data size is invalid for provided type: 'tensor<2xi16>'}}
  %0 = flow.tensor.constant dense<"0x000100"> : tensor<2xi16>
  util.return
}

// -----

// expected-error @+1 {{elements literal type must have static shape}}
util.global private @dynamic_dense = dense<"0x00"> : tensor<?xi8>

// -----

// An op on the line of its region's `{` is located on that line.
// expected-error @+1 {{use of undeclared SSA value name '%nope'}}
util.func public @op_after_brace(%arg0: index) -> index { %0 = arith.addi %arg0, %nope : index
  util.return %0 : index }

// -----

// An attribute alias no definition names.
// expected-error @+1 {{undefined symbol alias id 'nope'}}
util.func public @undefined_alias() attributes {x = #nope} {
  util.return
}

// -----

// An alias is defined before its uses (only a location's alias may come later).
// expected-error @+1 {{undefined symbol alias id 't'}}
util.func public @alias_defined_later(%arg0: !t) {
  util.return
}
!t = i32

// -----

!t = i32
// expected-error @+1 {{redefinition of type alias id 't'}}
!t = i64

// -----

// An integer literal's type must hold it: a float takes only hexadecimal bits.
util.func public @decimal_float(%arg0: index) {
  // expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
  // expected-note @+1 {{add a trailing dot to make the literal a float}}
  %0 = stream.async.alloca {some.attr = 1 : f32} : !stream.resource<*>{%arg0}
  util.return
}

// -----

util.func public @integer_of_a_handle(%arg0: index) {
  // expected-error @+1 {{integer literal not valid for specified type}}
  %0 = stream.async.alloca {some.attr = 1 : !hal.buffer} : !stream.resource<*>{%arg0}
  util.return
}

// -----

!i8_alias = i8
util.func public @integer_out_of_range() {
  %c255 = arith.constant 255 : !i8_alias
  %cst = arith.constant 0x3F800000 : f32
  // expected-error @+1 {{integer constant out of range for attribute}}
  %c256 = arith.constant 256 : i8
  util.return
}

// -----

// A result name then an op's name with no `=` starts an op that lost its `=`: it does not
// continue the op before it, even one streamopt keeps as written (whose text took the line
// in, and printed it).
func.func @result_without_equal(%arg0: index) {
  %c8 = arith.constant 8 : index
  %0 = hal.interface.binding.subspan layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>) binding(0) offset(%c8) : memref<4xi8>
  // expected-error @+1 {{expected '=' after SSA name}}
  %1  hal.interface.binding.subspan layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>) binding(0) offset(%c8) : memref<4xi8>
  return
}

// -----

util.func public @modelled_result_without_equal() {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{expected '=' after SSA name}}
  %c9  arith.constant 9 : index
  util.return
}

// -----

// A dense array of an integer type MLIR cannot make (iree-opt adds "expected an integer or
// floating point type").
// expected-error @+1 {{integer bitwidth is limited to 16777215 bits}}
util.func public @wide_array() attributes {a = array<ui16777216>} {
  util.return
}
