// RUN: streamopt --split-input-file --verify-diagnostics %s

util.func public @wait_and_signal_same_fence(%device: !hal.device, %affinity: i64, %fence: !hal.fence) {
  // expected-error @+1 {{'hal.device.queue.barrier' op device queue operations cannot wait and signal on the same fence.}}
  hal.device.queue.barrier<%device : !hal.device> affinity(%affinity) wait(%fence) signal(%fence) flags("None")
  util.return
}

// -----

// A null fence may be both: there is nothing to wait for or to signal.
util.func public @null_wait_and_signal(%device: !hal.device, %affinity: i64, %buffer: !hal.buffer) {
  %0 = util.null : !hal.fence
  hal.device.queue.dealloca<%device : !hal.device> affinity(%affinity) wait(%0) signal(%0) buffer(%buffer : !hal.buffer) flags(PreferOrigin)
  util.return
}

// -----

util.func public @unknown_flag(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %buffer: !hal.buffer) {
  // expected-error @+1 {{custom op 'hal.device.queue.dealloca' invalid flags attribute specification: "PreferOrigin|Bogus"}}
  hal.device.queue.dealloca<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) buffer(%buffer : !hal.buffer) flags("PreferOrigin|Bogus")
  util.return
}

// -----

util.func public @unknown_mode(%device: !hal.device, %affinity: i64) {
  // expected-error @+1 {{custom op 'hal.command_buffer.create' expected string or keyword containing one of the following enum values for attribute 'modes' [None, OneShot, AllowInlineExecution]}}
  %0 = hal.command_buffer.create device(%device : !hal.device) mode(Forever) categories(Transfer) affinity(%affinity) : !hal.command_buffer
  util.return
}

// -----

util.func public @unknown_lifetime() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'lifetime' [*, external, staging, transient, variable, constant]}}
  %0:2 = hal.allocator.resolve_memory_properties lifetime(forever) : i32, i32
  util.return
}

// -----

// The unknown lifetime is not a keyword: it is written as a string, `lifetime("*")`.
util.func public @bare_unknown_lifetime() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'lifetime' [*, external, staging, transient, variable, constant]}}
  %0:2 = hal.allocator.resolve_memory_properties lifetime(*) : i32, i32
  util.return
}

// -----

util.func public @unknown_lifetime_string() {
  // expected-error @+1 {{custom op 'hal.allocator.resolve_memory_properties' invalid lifetime attribute specification: "forever"}}
  %0:2 = hal.allocator.resolve_memory_properties lifetime("forever") : i32, i32
  util.return
}

// -----

util.func public @fill_pattern_too_wide(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %buffer: !hal.buffer, %n: index, %pattern: i64) {
  // expected-error @+1 {{'hal.device.queue.fill' op operand #7 must be 8-bit signless integer or 16-bit signless integer or 32-bit signless integer, but got 'i64'}}
  hal.device.queue.fill<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) target(%buffer : !hal.buffer)[%n] length(%n) pattern(%pattern : i64) flags("None")
  util.return
}

// -----

util.func public @fill_pattern_signed(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %buffer: !hal.buffer, %n: index, %pattern: si32) {
  // expected-error @+1 {{'hal.device.queue.fill' op operand #7 must be 8-bit signless integer or 16-bit signless integer or 32-bit signless integer, but got 'si32'}}
  hal.device.queue.fill<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) target(%buffer : !hal.buffer)[%n] length(%n) pattern(%pattern : si32) flags("None")
  util.return
}

// -----

util.func public @fill_buffer_pattern_too_wide(%cmd: !hal.command_buffer, %buffer: !hal.buffer, %n: index, %pattern: i64) {
  // expected-error @+1 {{'hal.command_buffer.fill_buffer' op operand #4 must be 8-bit signless integer or 16-bit signless integer or 32-bit signless integer, but got 'i64'}}
  hal.command_buffer.fill_buffer<%cmd : !hal.command_buffer> target(%buffer : !hal.buffer)[%n, %n] pattern(%pattern : i64) flags("None")
  util.return
}

// -----

util.func public @unsupported_element_type() {
  // expected-error @+1 {{'hal.element_type' op unsupported element type}}
  %0 = hal.element_type<!hal.buffer> : i32
  util.return
}

// -----

util.func public @buffer_type_mismatch(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %buffer: !hal.buffer_view) {
  // expected-error @+1 {{use of value '%buffer' expects different type than prior uses: '!hal.buffer' vs '!hal.buffer_view'}}
  hal.device.queue.dealloca<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) buffer(%buffer : !hal.buffer) flags("None")
  util.return
}

// -----

util.func public @status_not_i32(%status: i64) {
  // expected-error @+1 {{use of value '%status' expects different type than prior uses: 'i32' vs 'i64'}}
  util.status.check_ok %status, "failed"
  util.return
}

// -----

// The hal dialect defines no such op (a token lost from `hal.element_type<f32>`).
util.func public @unknown_custom_op() {
  // expected-error @+1 {{custom op 'hal.element_typef32' is unknown}}
  %0 = hal.element_typef32> : i32
  util.return
}

// -----

util.func public @unknown_generic_op() {
  // expected-error @+1 {{unregistered operation 'hal.element_typef32' found in dialect ('hal') that does not allow unknown operations}}
  %0 = "hal.element_typef32"() : () -> i32
  util.return
}

// -----

util.func public @unknown_attribute(%arg0: !stream.resource<external>, %size: index) {
  // expected-error @+1 {{unknown HAL attribute: device.affinZity}}
  %0 = stream.async.cast on(#hal.device.affinZity<@dev_a>) %arg0 : !stream.resource<external>{%size} -> !stream.resource<*>{%size}
  util.return
}

// -----

// An unknown HAL attribute inside an op streamopt keeps as written.
util.func public @unknown_attribute_in_unmodelled_op() {
  // expected-error @+1 {{unknown HAL attribute: memory_type}}
  %0 = hal.device.resolve on(#hal.memory_type<Host>) : !hal.device
  util.return
}

// -----

// The comma after the device id is missing.
// expected-error @+1 {{expected '>'}}
util.global private @device = #hal.device.target<"local" {ordinal = 0 : index}> : !hal.device

// -----

// Targets come after the configuration, not before.
// expected-error @+1 {{expected '>'}}
util.global private @device = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">], {ordinal = 0 : index}> : !hal.device

// -----

// An empty list of targets is written by leaving it out.
// expected-error @+1 {{expected attribute value}}
util.global private @device = #hal.device.target<"local", {ordinal = 0 : index}, []> : !hal.device

// -----

// expected-error @+1 {{'hal.executable.variant' op expects parent op 'hal.executable'}}
hal.executable.variant public @embedded_elf_x86_64 target(#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">) {
  hal.executable.export public @dispatch ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>)
  builtin.module {
  }
}

// -----

util.func public @buffer_view_dim_without_index(%view: !hal.buffer_view) -> index {
  // expected-error @+1 {{unexpected ']', expected '-' or integer}}
  %0 = hal.buffer_view.dim<%view : !hal.buffer_view>[] : index
  util.return %0 : index
}

// -----

util.func public @buffer_view_dim_without_brackets(%view: !hal.buffer_view) -> index {
  // expected-error @+1 {{unexpected '0'}}
  %0 = hal.buffer_view.dim<%view : !hal.buffer_view>0] : index
  util.return %0 : index
}

// -----

util.func public @buffer_view_dim_out_of_range(%view: !hal.buffer_view) -> index {
  // expected-error @+1 {{integer constant out of range for attribute}}
  %0 = hal.buffer_view.dim<%view : !hal.buffer_view>[9223372036854775808] : index
  util.return %0 : index
}

// -----

util.func public @buffer_view_dim_of_buffer(%buffer: !hal.buffer) -> index {
  // expected-error @+1 {{'hal.buffer_view.dim' op operand #0 must be buffer_view, but got '!hal.buffer'}}
  %0 = hal.buffer_view.dim<%buffer : !hal.buffer>[0] : index
  util.return %0 : index
}

// -----

util.func public @buffer_view_dim_i32(%view: !hal.buffer_view) -> i32 {
  // expected-error @+1 {{custom op 'hal.buffer_view.dim' invalid kind of type specified: expected builtin.index, but found 'i32'}}
  %0 = hal.buffer_view.dim<%view : !hal.buffer_view>[0] : i32
  util.return %0 : i32
}

// -----

// The affinity of `for(...)` is checked as any other attribute.
util.func public @resolve_for_unknown_hal_attribute() -> (i32, i32) {
  // expected-error @+1 {{unknown HAL attribute: device.affinZ}}
  %memory_types, %buffer_usage = hal.allocator.resolve_memory_properties for(#hal.device.affinZ<@dev_a>) lifetime(transient) : i32, i32
  util.return %memory_types, %buffer_usage : i32, i32
}

// -----

// IREE fixes the syntax of an affinity, in `for(...)` as in `on(...)`.
util.func public @resolve_for_malformed_affinity() -> (i32, i32) {
  // expected-error @+1 {{invalid '#hal.device.affinity' attribute: expected <@device> or <@device, [queues]>}}
  %memory_types, %buffer_usage = hal.allocator.resolve_memory_properties for(#hal.device.affinity<bad>) lifetime(transient) : i32, i32
  util.return %memory_types, %buffer_usage : i32, i32
}

// -----

util.func public @resolve_for_empty_optimal() -> (i32, i32) {
  // expected-error @+1 {{invalid '#hal.device.optimal' attribute: expected <[affinity, ...]>}}
  %memory_types, %buffer_usage = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[]>) lifetime(transient) : i32, i32
  util.return %memory_types, %buffer_usage : i32, i32
}

// -----

util.func public @resolve_for_malformed_optimal_member() -> (i32, i32) {
  // expected-error @+1 {{invalid '#hal.device.optimal' attribute: expected <[affinity, ...]>}}
  %memory_types, %buffer_usage = hal.allocator.resolve_memory_properties for(#hal.device.optimal<[#hal.device.affinity<bad>]>) lifetime(transient) : i32, i32
  util.return %memory_types, %buffer_usage : i32, i32
}

// -----

util.func public @resolve_for_unregistered_dialect() -> (i32, i32) {
  // expected-error @+1 {{#"foo"<"affinity"> : 'none' attribute created with unregistered dialect}}
  %memory_types, %buffer_usage = hal.allocator.resolve_memory_properties for(#foo.affinity) lifetime(transient) : i32, i32
  util.return %memory_types, %buffer_usage : i32, i32
}

// -----

// hal.interface.binding.subspan in host code is kept as written, but its result type's
// dynamic dimensions must each have a value, as InterfaceBindingSubspanOp::verify checks.
#pipeline_layout = #hal.pipeline.layout<bindings = [
  #hal.pipeline.binding<storage_buffer, ReadOnly>
]>
func.func @subspan_missing_dim(%dim: index) {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'hal.interface.binding.subspan' op result type 'memref<?x4x?x16xi8>' has 2 dynamic dimensions but 1 associated dimension SSA values}}
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) offset(%c8) : memref<?x4x?x16xi8>{%dim}
  return
}

// -----

#pipeline_layout = #hal.pipeline.layout<bindings = [
  #hal.pipeline.binding<storage_buffer>
]>
func.func @subspan_extra_dim(%dim: index) {
  // expected-error @+1 {{'hal.interface.binding.subspan' op result type 'tensor<4xi8>' has 0 dynamic dimensions but 1 associated dimension SSA values}}
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) : tensor<4xi8>{%dim}
  return
}

// -----

util.func public @buffer_view_dim_index_in_attr_dict(%arg0: !hal.buffer_view) -> index {
  // expected-error @+1 {{custom op 'hal.buffer_view.dim' inherent attribute 'index' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index attributes {index = 0 : index}
  util.return %0 : index
}

// -----

util.func public @memory_type_in_attr_dict() -> i32 {
  // expected-error @+1 {{custom op 'hal.memory_type' inherent attribute 'type' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  %0 = hal.memory_type<HostLocal> {type = 1 : i32} : i32
  util.return %0 : i32
}

// -----

// ExecutableTargetAttr reads `<"backend", "format"(, {config})?>`: a missing comma is an error
// where the first string ends, as iree-opt reports it.
// expected-error @+1 {{expected ','}}
#target = #hal.executable.target<"llvm-cpu" "embedded-elf-x86_64", {cpu = "generic"}>
util.global private @dev = #hal.device.target<"local", [#target]> : !hal.device

// -----

// hal.fence.fail's status is an i32 (Util_Status), which its format does not spell.
util.func public @fence_fail_status_type(%fence: !hal.fence, %status: index) {
  // expected-error @+1 {{use of value '%status' expects different type than prior uses: 'i32' vs 'index'}}
  hal.fence.fail<%fence : !hal.fence> status(%status)
  util.return
}

// -----

// A binding list holds one binding or more (IREE's parser reads no empty one).
util.func public @empty_bindings(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %cmd: !hal.command_buffer) {
  // expected-error @+1 {{expected '('}}
  hal.device.queue.execute.indirect<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) commands(%cmd) bindings([]) flags("None")
  util.return
}

// -----

// A result declared with a type holds it: the verifier words other handles and widths...
util.func public @devices_get_result(%arg0: index) {
  // expected-error @+1 {{'hal.devices.get' op result #0 must be device, but got '!hal.fence'}}
  %0 = hal.devices.get %arg0 : !hal.fence
  util.return
}

// -----

util.func public @fence_await_width(%fence: !hal.fence, %timeout: i32) {
  // expected-error @+1 {{'hal.fence.await' op result #0 must be 32-bit signless integer, but got 'i64'}}
  %status = hal.fence.await until([%fence]) timeout_millis(%timeout) flags("None") : i64
  util.return
}

// -----

util.func public @device_resolve_results() {
  // expected-error @+1 {{'hal.device.resolve' op result #1 must be variadic of device or allocator or 64-bit signless integer, but got 'index'}}
  %device, %affinity = hal.device.resolve on(#hal.device.affinity<@dev>) : !hal.device, index
  util.return
}

// -----

// ...and the parser refuses a type of another kind than an integer or index one declared.
util.func public @devices_count_kind() {
  // expected-error @+1 {{custom op 'hal.devices.count' invalid kind of type specified: expected builtin.index, but found 'i32'}}
  %0 = hal.devices.count : i32
  util.return
}

// -----

util.func public @allocation_discard_of_integer(%arg0: i32) -> i1 {
  // expected-error @+1 {{'hal.buffer.allocation.discard' op operand #0 must be buffer, but got 'i32'}}
  %0 = hal.buffer.allocation.discard<%arg0 : i32> : i1
  util.return %0 : i1
}

// -----

util.func public @queue_write_to_integer(%arg0: !hal.device, %arg1: i64, %arg2: !hal.fence, %arg3: !hal.fence, %arg4: !hal.buffer, %arg5: index) {
  // expected-error @+1 {{'hal.device.queue.write' op operand #6 must be buffer, but got 'i64'}}
  hal.device.queue.write<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg3) source(%arg4 : !hal.buffer)[%arg5] target(%arg1 : i64)[%arg1] length(%arg5) flags("None")
  util.return
}

// -----

util.func public @queue_update_same_fence(%arg0: !hal.device, %arg1: i64, %arg2: !hal.fence, %arg3: !util.buffer, %arg4: !hal.buffer, %arg5: index) {
  // expected-error @+1 {{'hal.device.queue.update' op device queue operations cannot wait and signal on the same fence.}}
  hal.device.queue.update<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg2) source(%arg3 : !util.buffer)[%arg5] target(%arg4 : !hal.buffer)[%arg5] length(%arg5) flags("None")
  util.return
}

// -----

util.func public @device_query_default_of_other_type(%arg0: !hal.device) -> i64 {
  // expected-error @+1 {{'hal.device.query' op type mismatch between result and default value}}
  %ok, %value = hal.device.query<%arg0 : !hal.device> key("a" :: "b") : i1, i64 = 0 : i32
  util.return %value : i64
}

// -----

util.func public @channel_create_of_integer(%arg0: !hal.device, %arg1: i64, %arg2: !util.buffer, %arg3: i32) -> i32 {
  // expected-error @+1 {{'hal.channel.create' op result #0 must be collective.channel, but got 'i32'}}
  %0 = hal.channel.create device(%arg0 : !hal.device) affinity(%arg1) flags("None") id(%arg2) group(%arg2) rank(%arg3) count(%arg3) : i32
  util.return %0 : i32
}

// -----

util.func public @trace_of_buffer(%arg0: !hal.buffer) {
  // expected-error @+1 {{'hal.buffer_view.trace' op operand #0 must be variadic of buffer_view, but got '!hal.buffer'}}
  hal.buffer_view.trace "key" = %arg0 : !hal.buffer
  util.return
}

// -----

// SameVariadicOperandSize with values that cannot be shared evenly: iree-opt 3.13 reads the
// first four and prints the op without the fifth.
util.func public @uneven_same_size_operands(%d: !hal.device, %q: i64, %m: i32, %u: i32) {
  // expected-error @+1 {{'hal.allocator.select' op operand count (5) cannot be shared evenly by its 2 variadic operand groups (SameVariadicOperandSize)}}
  %0:2 = "hal.allocator.select"(%d, %q, %m, %u, %u) : (!hal.device, i64, i32, i32, i32) -> (!hal.device, i64)
  util.return
}
