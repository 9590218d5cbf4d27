// RUN: streamopt --allow-unregistered-dialect --split-input-file %s | filecheck %s
// RUN: streamopt --allow-unregistered-dialect --split-input-file %s | streamopt --allow-unregistered-dialect --split-input-file | filecheck %s

// With --allow-unregistered-dialect, ops in the generic form, attributes and types of dialects
// iree-opt does not register are kept as written (as iree-opt does with that flag), also
// inside other attributes and types. Without it each is an error (parser/invalid.mlir).

// CHECK: #executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {resolver = #foo.resolver<>}>
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {resolver = #foo.resolver<>}>
// CHECK-LABEL: util.func public @generic_ops(%arg0: !foo.type, %arg1: index) -> index
util.func public @generic_ops(%arg0: !foo.type, %arg1: index) -> index {
  // CHECK-NEXT: %[[OP:.+]] = "foo.op"(%arg0) {note = #foo.attr<"x">} : (!foo.type) -> index
  %0 = "foo.op"(%arg0) {note = #foo.attr<"x">} : (!foo.type) -> index
  // CHECK-NEXT: "foo.use"(%[[OP]], %arg1) : (index, index) -> ()
  "foo.use"(%0, %arg1) : (index, index) -> ()
  // CHECK-NEXT: util.return %[[OP]] : index
  util.return %0 : index
}
// CHECK: util.global private @attribute {targets = [#executable_target_embedded_elf_x86_64], typed = #foo.e : i32} : tensor<4x!foo<"t">, #foo.enc>
util.global private @attribute {targets = [#executable_target_embedded_elf_x86_64], typed = #foo.e : i32} : tensor<4x!foo<"t">, #foo.enc>
