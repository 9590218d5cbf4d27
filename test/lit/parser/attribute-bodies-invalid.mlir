// RUN: streamopt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// (test/lit/iree/attribute-bodies-invalid.mlir runs iree-opt on this file: same diagnostics.)

// Attribute and type bodies whose brackets do not nest, target configurations that are not
// dictionaries, affine maps whose lists are not lists, dense literals whose lists are not as
// MLIR reads them, dense arrays of elements their type does not take, integer types of
// widths MLIR cannot make: iree-opt refuses all of them, where and as streamopt does. Before,
// these were kept as written.

// A dialect attribute's `<...>` body is scanned for nesting before any dialect reads it: the
// error is at its `<`.
// expected-error @+1 {{unbalanced '(' character in pretty dialect name}}
util.func public @open_paren() attributes {m = #foo.bar<(a>} {
  util.return
}

// -----

// ... or at the last string literal the scan stepped over.
// expected-error @+1 {{unbalanced '(' character in pretty dialect name}}
util.func public @after_string() attributes {m = #foo.bar<"s" (a]>} {
  util.return
}

// -----

// A closing bracket with nothing of its kind open.
util.func public @stray_close() {
  // expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
  "foo.op"() {m = #foo.bar<a)>} : () -> ()
  util.return
}

// -----

// The same scan reads a dialect type, IREE's own included ...
// expected-error @+1 {{unbalanced '(' character in pretty dialect name}}
util.func public @resource_type(%arg0: !stream.resource<(*>) {
  util.return
}

// -----

// ... and one inside a builtin type.
// expected-error @+1 {{unbalanced '[' character in pretty dialect name}}
util.func public @nested_in_tensor(%arg0: tensor<4x!foo.bar<[a>>) {
  util.return
}

// -----

// An executable target's configuration: the brackets inside it ...
// expected-error @+1 {{unbalanced '[' character in pretty dialect name}}
util.func public @config_open_list() attributes {m = #hal.executable.target<"a", "b", {x = [1, }>} {
  util.return
}

// -----

// ... and its entries, each a name and at most one value.
// expected-error @+1 {{expected '}' in attribute dictionary}}
util.func public @config_missing_colon() attributes {m = #hal.executable.target<"a", "b", {x = 16  i64}>} {
  util.return
}

// -----

// expected-error @+1 {{expected '}' in attribute dictionary}}
util.func public @config_missing_equal() attributes {m = #hal.executable.target<"a", "b", {x  16 : i64}>} {
  util.return
}

// -----

// expected-error @+1 {{expected '}' in attribute dictionary}}
util.func public @config_missing_comma() attributes {m = #hal.executable.target<"a", "b", {x = 1 : i64 y = 2}>} {
  util.return
}

// -----

// expected-error @+1 {{expected '}' in attribute dictionary}}
util.func public @config_nested() attributes {m = #hal.executable.target<"a", "b", {x = 1 : i64, y = {z = 1 2}}>} {
  util.return
}

// -----

// expected-error @+1 {{expected attribute value}}
util.func public @config_no_value() attributes {m = #hal.executable.target<"a", "b", {x = }>} {
  util.return
}

// -----

// expected-error @+1 {{expected ',' or ']'}}
util.func public @config_list() attributes {m = #hal.executable.target<"a", "b", {x = [1 2]}>} {
  util.return
}

// -----

// A device target's configuration is read the same way.
// expected-error @+1 {{expected '}' in attribute dictionary}}
util.func public @device_config() attributes {m = #hal.device.target<"local", {ordinal = 0  index}>} {
  util.return
}

// -----

// An affine map whose range is still open at the map's `>`, as an alias definition.
// expected-error @+1 {{expected ')' in affine map range}}
#map = affine_map<(d0) -> (d0>
util.func public @affine_range() attributes {m = #map} {
  util.return
}

// -----

// Empty entries in an affine map's lists: an identifier list's ...
// expected-error @+1 {{expected bare identifier}}
util.func public @affine_empty_dimension() attributes {m = affine_map<(d0, , d1) -> (d0)>} {
  util.return
}

// -----

// expected-error @+1 {{expected bare identifier}}
util.func public @affine_empty_symbol() attributes {m = affine_map<(d0)[s0, ] -> (d0)>} {
  util.return
}

// -----

// ... and the range's.
// expected-error @+1 {{expected affine expression}}
util.func public @affine_empty_result() attributes {m = affine_map<(d0, d1) -> (d0, , d1)>} {
  util.return
}

// -----

// An empty entry in a dense literal's list, at any depth.
// expected-error @+1 {{expected element literal of primitive type}}
util.func public @dense_empty_entry() attributes {v = dense<[1, , 3, 4]> : tensor<4xi32>} {
  util.return
}

// -----

// expected-error @+1 {{expected element literal of primitive type}}
util.func public @dense_trailing_comma() attributes {v = dense<[[1, ], [2, 3]]> : tensor<2x2xi32>} {
  util.return
}

// -----

// An identifier list holds one identifier per entry.
// expected-error @+1 {{expected ')' in dimensional identifier list}}
util.func public @affine_two_identifiers() attributes {m = affine_map<(d0, d1 d2) -> (d0)>} {
  util.return
}

// -----

// A dense literal's lists nest as MLIR's tensor literal parser reads them ...
// expected-error @+1 {{expected ']'}}
util.func public @dense_wrong_bracket() attributes {v = dense<[1, 2, 3, 4}> : tensor<4xi32>} {
  util.return
}

// -----

// ... with entries of one rank ...
// expected-error @+1 {{tensor literal is invalid; ranks are not consistent between elements}}
util.func public @dense_ranks() attributes {v = dense<[[1], 2]> : tensor<2x1xi32>} {
  util.return
}

// -----

// ... and nothing after the outer list.
// expected-error @+1 {{expected '>'}}
util.func public @dense_after_list() attributes {v = dense<[1]]> : tensor<1xi32>} {
  util.return
}

// -----

// A dense array whose elements its type does not take. Before, kept as written.
// expected-error @+1 {{integer constant out of range}}
util.func public @array_past_signed() attributes {a = array<si8: 1, 128>} {
  util.return
}

// -----

// expected-error @+1 {{expected integer or float type, got: 'index'}}
util.func public @array_of_index() attributes {a = array<index: 1>} {
  util.return
}

// -----

// expected-error @+1 {{expected ':' after dense array type}}
util.func public @array_without_colon() attributes {a = array<i32 1>} {
  util.return
}

// -----

// An integer type MLIR cannot make: a width past 16,777,215 bits, or past what it reads into
// an unsigned. Before, taken. As an argument's type, an element type and an attribute's type.
// expected-error @+1 {{integer bitwidth is limited to 16777215 bits}}
util.func public @wide_argument(%a: i16777216) {
  util.return
}

// -----

// expected-error @+1 {{invalid integer width}}
util.func public @wide_element(%a: tensor<4xi99999999999>) {
  util.return
}

// -----

// expected-error @+1 {{integer bitwidth is limited to 16777215 bits}}
util.func public @wide_attribute() attributes {a = 1 : si16777216} {
  util.return
}

// -----

// An integer its type does not hold: a negative one past the type's sign bit or of an
// unsigned type, an index that sets its sign bit, an untyped one (an i64) past 64 bits.
// Before, negative ones were kept as written.
// expected-error @+1 {{integer constant out of range for attribute}}
util.func public @negative_past_width() attributes {a = -129 : i8} {
  util.return
}

// -----

// expected-error @+1 {{negative integer literal not valid for unsigned integer type}}
util.func public @negative_unsigned() attributes {a = -1 : ui8} {
  util.return
}

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
util.func public @index_sign_bit() attributes {a = 0x8000000000000000 : index} {
  util.return
}

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
util.func public @untyped_past_64_bits() attributes {a = 18446744073709551616} {
  util.return
}

// -----

// A hexadecimal float literal spells the type's bits: no sign, and no more bits than it has.

// expected-error @+1 {{hexadecimal float literal should not have a leading minus}}
util.func public @float_bits_negative() attributes {a = -0x3F800000 : f32} {
  util.return
}

// -----

// expected-error @+1 {{hexadecimal float constant out of range for type}}
util.func public @float_bits_too_many() attributes {a = 0x10000 : f16} {
  util.return
}

// -----

util.func public @float_bits_too_many_f8() {
  // expected-error @+1 {{hexadecimal float constant out of range for type}}
  %0 = arith.constant 0x100 : f8E4M3FN
  util.return
}

// -----

// A dense literal's elements are read by its element type.

// expected-error @+1 {{expected unsigned integer elements, but parsed negative value}}
util.func public @dense_negative_unsigned() attributes {a = dense<[1, -1]> : tensor<2xui8>} {
  util.return
}

// -----

// expected-error @+1 {{integer constant out of range for type}}
util.func public @dense_out_of_range() attributes {a = dense<256> : tensor<2xi8>} {
  util.return
}

// -----

// expected-error @+1 {{expected integer elements, but parsed floating-point}}
util.func public @dense_float_for_integer() attributes {a = dense<[1, 1.5]> : tensor<2xi32>} {
  util.return
}

// -----

// expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
// expected-note @+1 {{add a trailing dot to make the literal a float}}
util.func public @dense_integer_for_float() attributes {a = dense<1> : tensor<2xf32>} {
  util.return
}

// -----

// expected-error @+1 {{expected element literal of primitive type}}
util.func public @dense_word() attributes {a = dense<[1, x]> : tensor<2xi32>} {
  util.return
}
