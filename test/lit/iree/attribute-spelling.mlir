// Attributes as a user may write them, printed as iree-opt prints them: an attribute
// dictionary sorted by name (MLIR keeps a DictionaryAttr sorted), and strings escaped as
// llvm::printEscapedString escapes them (`\n` as `\0A`, `\"` as `\22`, `\41` as `A`, UTF-8 as
// `\C3\A9`), wherever the dictionary or the string stands.
// RUN: iree-opt --split-input-file %s -o %t.expected
// RUN: streamopt --split-input-file %s -o %t.actual
// RUN: diff %t.expected %t.actual

util.func public @strings(%arg0: i32, %arg1: index) attributes {plain = "a b", escaped = "a\nb\t\"q\"\\ \41", utf8 = "été", list = ["x\ny", "z"], nested = {inner = "\22", b = 1 : i32, a}} {
  util.status.check_ok %arg0, "failed:\n\"why\""
  %0 = util.string.format "{}\té"(%arg1) {z = 1 : i32, y = "\n"} : (index) -> !util.buffer
  util.return
}

// -----

util.func public @unsorted(%arg0: i32 {z.b, z.a = 1 : i32}) -> (i32 {x.b, x.a}) {
  %c1_i32 = arith.constant {b, a} 1 : i32
  %0 = util.optimization_barrier {b = "\n", a = 2 : i32} %c1_i32 : i32
  util.return {b, a} %arg0 : i32
}

// -----

// Dense arrays of integers: values in decimal, signed unless the type is unsigned (an i8's
// 255 is -1), `true` and `false` for i1, `: ` and `, ` between them.
util.func public @dense_arrays() attributes {a = array<i8: 255, 0x80, -1>, b = array<ui8: -1, 0x10>, c = array<i1: true,false>, d = array< i64 : -0x8000000000000000 >, e = array<si16>, f = array<i32:00012>} {
  util.return
}

// -----

// Float literals: converted to their type (through a double, as MLIR reads them) and printed
// as MLIR prints them, wherever they stand.
util.func public @floats() -> (f32, f16, bf16, f64) attributes {a = 0.5 : f32, b = [-1.25 : f16, 2.0]} {
  %0 = arith.constant 1.5 : f32
  %1 = arith.constant 0.1 : f16
  %2 = arith.constant -3.0e5 : bf16
  %3 = arith.constant 1.0000000000000002 : f64
  util.return %0, %1, %2, %3 : f32, f16, bf16, f64
}

// -----

// Integers: in decimal, as the type's width holds them (signed unless the type is unsigned),
// i1 as `true` or `false`, and an untyped one in a dictionary with its type (not in an array).
util.func public @integers() -> (i32, i8, i1) attributes {a = 0x10 : i32, b = 255 : i8, c = 1 : i1, e = 007 : index, f = 0xFF : ui8, g = -0x1 : si8, h = 0x10, k = [0x1, 2 : i8], m = {x = 0x2, y = 1.5}} {
  %0 = arith.constant 0x10 : i32
  %1 = arith.constant 255 : i8
  %2 = arith.constant 1 : i1
  util.return %0, %1, %2 : i32, i8, i1
}

// -----

// Hexadecimal float literals spell the bits: printed as the value they are (a NaN and an
// infinity by their bits), and the constant named as a float's (`%cst`).
util.func public @float_bits() -> (f32, f32, f16, f64, f32, bf16) attributes {a = 0x3C00 : f16, b = [0x7F800000 : f32]} {
  %0 = arith.constant 0x3F800000 : f32
  %1 = arith.constant 0x80000000 : f32
  %2 = arith.constant 0x0001 : f16
  %3 = arith.constant 0x1 : f64
  %4 = arith.constant 0x7fc00001 : f32
  %5 = arith.constant 0x3F80 : bf16
  util.return %0, %1, %2, %3, %4, %5 : f32, f32, f16, f64, f32, bf16
}

// -----

// An untyped integer or float prints its type (i64, f64) where MLIR never elides it: an
// op's value, a global's initial value, a narrowing's bounds.
util.global private @untyped_int = 5
util.global private @untyped_float = 1.5
util.func public @untyped(%arg0: f32) -> (i64, f64, f32) {
  %0 = arith.constant 5
  %1 = arith.constant -1.5
  %2 = util.numeric.optional_narrow %arg0 : f32 as f16 <min_value = 1, max_value = 2>
  util.return %0, %1, %2 : i64, f64, f32
}

// -----

// Dense literals: each element as its type holds it, and one value where all are equal.
util.func public @dense_elements() attributes {a = dense<[255, 1]> : tensor<2xi8>, b = dense<[7, 7]> : tensor<2xi32>, c = dense<[[1.5, 0x40000000], [0.1, - 2.0]]> : tensor<2x2xf32>, d = dense<[1, 0]> : tensor<2xi1>, e = dense<[]> : tensor<0xindex>, f = dense<0x3C00> : vector<4xf16>} {
  %cst = arith.constant dense<[0.0, -0.0]> : tensor<2xf64>
  util.return
}
