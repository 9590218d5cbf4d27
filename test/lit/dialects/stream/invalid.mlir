// RUN: streamopt --split-input-file --verify-diagnostics %s

// Diagnostics of the stream async, tensor and timeline ops; messages follow iree-opt's.

util.func public @alloca_two_sizes(%arg0: index) {
  // expected-error @+1 {{expected one size for '!stream.resource<transient>'}}
  %0 = stream.async.alloca : !stream.resource<transient>{%arg0, %arg0}
  util.return
}

// -----

util.func public @alloca_staging(%arg0: index) {
  // expected-error @+1 {{'stream.async.alloca' op result #0 must be resource or external resource or transient resource or variable resource or constant resource, but got '!stream.resource<staging>'}}
  %0 = stream.async.alloca : !stream.resource<staging>{%arg0}
  util.return
}

// -----

util.func public @slice_type_mismatch(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{'stream.async.slice' op failed to verify that all of {source, result} have same type}}
  %0 = stream.async.slice %arg0[%arg1 to %arg1] : !stream.resource<*>{%arg1} -> !stream.resource<external>{%arg1}
  util.return
}

// -----

util.func public @fill_tied_type_mismatch(%arg0: !stream.resource<*>, %arg1: index) {
  %c1_i32 = arith.constant 1 : i32
  // expected-error @+1 {{use of value '%arg0' expects different type than prior uses: '!stream.resource<external>' vs '!stream.resource<*>'}}
  %0 = stream.async.fill %c1_i32, %arg0[%arg1 to %arg1 for %arg1] : i32 -> %arg0 as !stream.resource<external>{%arg1}
  util.return
}

// -----

util.func public @fill_tied_without_as(%arg0: !stream.resource<*>, %arg1: index) {
  %c1_i32 = arith.constant 1 : i32
  // expected-error @+1 {{unexpected '{', expected 'as'}}
  %0 = stream.async.fill %c1_i32, %arg0[%arg1 to %arg1 for %arg1] : i32 -> %arg0{%arg1}
  util.return
}

// -----

util.func public @fill_pattern_type(%arg0: !stream.resource<*>, %arg1: index) {
  %true = arith.constant true
  // expected-error @+1 {{'stream.async.fill' op operand #5 must be 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer, but got 'i1'}}
  %0 = stream.async.fill %true, %arg0[%arg1 to %arg1 for %arg1] : i1 -> %arg0 as !stream.resource<*>{%arg1}
  util.return
}

// -----

// A splat repeats an integer pattern too: a float is bitcast to one first.
util.func public @splat_pattern_type(%arg0: index) {
  %cst = arith.constant 1.5 : f32
  // expected-error @+1 {{'stream.async.splat' op operand #0 must be 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer, but got 'f32'}}
  %0 = stream.async.splat %cst : f32 -> !stream.resource<*>{%arg0}
  util.return
}

// -----

util.func public @splat_index(%arg0: index) {
  // expected-error @+1 {{'stream.async.splat' op operand #0 must be 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer, but got 'index'}}
  %0 = stream.async.splat %arg0 : index -> !stream.resource<*>{%arg0}
  util.return
}

// -----

util.func public @fill_staging(%arg0: !stream.resource<staging>, %arg1: index) {
  %c1_i32 = arith.constant 1 : i32
  // expected-error @+1 {{'stream.async.fill' op operand #0 must be resource or external resource or transient resource or variable resource or constant resource, but got '!stream.resource<staging>'}}
  %0 = stream.async.fill %c1_i32, %arg0[%arg1 to %arg1 for %arg1] : i32 -> %arg0 as !stream.resource<staging>{%arg1}
  util.return
}

// -----

util.func public @update_size_count(%arg0: !stream.resource<*>, %arg1: !stream.resource<*>, %arg2: index) {
  // expected-error @+1 {{expected one size for '!stream.resource<*>'}}
  %0 = stream.async.update %arg1, %arg0[%arg2 to %arg2] : !stream.resource<*>{} -> %arg0 as !stream.resource<*>{%arg2}
  util.return
}

// -----

util.func public @copy_source_type(%arg0: !stream.resource<*>, %arg1: !stream.resource<*>, %arg2: index) {
  // expected-error @+1 {{use of value '%arg1' expects different type than prior uses: '!stream.resource<transient>' vs '!stream.resource<*>'}}
  %0 = stream.async.copy %arg1[%arg2 to %arg2], %arg0[%arg2 to %arg2], %arg2 : !stream.resource<transient>{%arg2} -> %arg0 as !stream.resource<*>{%arg2}
  util.return
}

// -----

util.func public @cast_sizes(%arg0: !stream.resource<*>, %arg1: index, %arg2: index) {
  // expected-error @+1 {{'stream.async.cast' op source and result sizes must be equal (tied storage)}}
  %0 = stream.async.cast %arg0 : !stream.resource<*>{%arg1} -> !stream.resource<external>{%arg2}
  util.return
}

// -----

util.func public @load_not_staging(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{'stream.async.load' op operand #0 must be staging resource, but got '!stream.resource<*>'}}
  %0 = stream.async.load %arg0[%arg1] : !stream.resource<*>{%arg1} -> i32
  util.return
}

// -----

util.func public @store_not_staging(%arg0: !stream.resource<transient>, %arg1: index, %arg2: i32) {
  // expected-error @+1 {{'stream.async.store' op operand #0 must be staging resource, but got '!stream.resource<transient>'}}
  %0 = stream.async.store %arg2, %arg0[%arg1] : i32 -> %arg0 as !stream.resource<transient>{%arg1}
  util.return
}

// -----

stream.async.func private @extern(%arg0: !stream.resource<*>) -> %arg0
util.func public @call_tied_to_non_operand(%arg0: !stream.resource<*>, %arg1: index, %arg2: !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{tied operand not found for result reference}}
  %0 = stream.async.call @extern(%arg0[%c0 to %arg1 for %arg1]) : (!stream.resource<*>{%arg1}) -> %arg2{%arg1}
  util.return
}

// -----

util.func public @call_undefined(%arg0: !stream.resource<*>, %arg1: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.async.call' op undefined external call: missing}}
  %0 = stream.async.call @missing(%arg0[%c0 to %arg1 for %arg1]) : (!stream.resource<*>{%arg1}) -> %arg0{%arg1}
  util.return
}

// -----

util.func public @call_not_async_func(%arg0: !stream.resource<*>, %arg1: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.async.call' op undefined external call: call_not_async_func}}
  %0 = stream.async.call @call_not_async_func(%arg0[%c0 to %arg1 for %arg1]) : (!stream.resource<*>{%arg1}) -> %arg0{%arg1}
  util.return
}

// -----

stream.async.func private @extern(%arg0: !stream.resource<*>) -> %arg0
util.func public @call_arity(%arg0: !stream.resource<*>, %arg1: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.async.call' op function type mismatch; expected '(!stream.resource<*>, index) -> !stream.resource<*>' but callee is '(!stream.resource<*>) -> !stream.resource<*>'}}
  %0 = stream.async.call @extern(%arg0[%c0 to %arg1 for %arg1], %c0) : (!stream.resource<*>{%arg1}, index) -> %arg0{%arg1}
  util.return
}

// -----

stream.async.func private @extern(%arg0: !stream.resource<transient>) -> !stream.resource<*>
util.func public @call_lifetime(%arg0: !stream.resource<*>, %arg1: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.async.call' op function argument type mismatch; expected '!stream.resource<*>' but callee provides '!stream.resource<transient>'}}
  %0 = stream.async.call @extern(%arg0[%c0 to %arg1 for %arg1]) : (!stream.resource<*>{%arg1}) -> !stream.resource<*>{%arg1}
  util.return
}

// -----

stream.async.func private @extern(%arg0: !stream.resource<*>) -> %arg0
util.func public @call_missing_range(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{'stream.async.call' op expects 1 resource range operand sets but 0 are present}}
  %0 = stream.async.call @extern(%arg0) : (!stream.resource<*>{%arg1}) -> %arg0{%arg1}
  util.return
}

// -----

// expected-error @+1 {{'stream.async.func' op symbol declaration cannot have public visibility}}
stream.async.func @public_declaration(%arg0: !stream.resource<*>) -> %arg0

// -----

// expected-error @+1 {{tied operand not found for result reference %arg1}}
stream.async.func private @tied_to_unknown(%arg0: !stream.resource<*>) -> %arg1

// -----

// expected-error @+1 {{expected SSA operand: async function arguments are named}}
stream.async.func private @anonymous(!stream.resource<*>) -> !stream.resource<*>

// -----

util.func public @execute_tied_to_region_argument(%arg0: !stream.resource<*>, %arg1: index) {
  // Tied results name the captured outer value, never the region argument.
  // expected-error @+1 {{tied operand not found for result reference}}
  %0, %1 = stream.async.execute with(%arg0 as %arg2: !stream.resource<*>{%arg1}) -> %arg2{%arg1} {
    stream.yield %arg2 : !stream.resource<*>{%arg1}
  } => !stream.timepoint
  util.return
}

// -----

util.func public @execute_capture_type(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{use of value '%arg0' expects different type than prior uses: '!stream.resource<transient>' vs '!stream.resource<*>'}}
  %0 = stream.async.execute with(%arg0 as %arg2: !stream.resource<transient>{%arg1}) {
    stream.yield
  } => !stream.timepoint
  util.return
}

// -----

util.func public @execute_result_count(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{operation defines 2 results but was provided 1 to bind}}
  %0 = stream.async.execute with(%arg0 as %arg2: !stream.resource<*>{%arg1}) -> %arg0{%arg1} {
    stream.yield %arg2 : !stream.resource<*>{%arg1}
  } => !stream.timepoint
  util.return
}

// -----

util.func public @execute_uncaptured(%arg0: !stream.resource<*>, %arg1: index) {
  %0 = stream.async.execute with() {
    // expected-error @+1 {{'stream.async.clone' op used resource not listed in explicit captures (or produced internally)}}
    %1 = stream.async.clone %arg0 : !stream.resource<*>{%arg1} -> !stream.resource<*>{%arg1}
    stream.yield
  } => !stream.timepoint
  util.return
}

// -----

util.func public @execute_empty_body() {
  // expected-error @+1 {{'stream.async.execute' op empty block: expect at least a terminator}}
  %0 = stream.async.execute with() {
  } => !stream.timepoint
  util.return
}

// -----

util.func public @concurrent_without_yield(%arg0: !stream.resource<*>, %arg1: index) {
  %0 = stream.async.execute with(%arg0 as %arg2: !stream.resource<*>{%arg1}) {
    stream.async.concurrent with(%arg2 as %arg3: !stream.resource<*>{%arg1}) {
      // expected-error @+1 {{block with no terminator}}
      %2 = stream.async.clone %arg3 : !stream.resource<*>{%arg1} -> !stream.resource<*>{%arg1}
    }
    stream.yield
  } => !stream.timepoint
  util.return
}

// -----

util.func public @execute_yield_count(%arg0: !stream.resource<*>, %arg1: index) {
  %0, %1 = stream.async.execute with(%arg0 as %arg2: !stream.resource<*>{%arg1}) -> %arg0{%arg1} {
    // expected-error @+1 {{'stream.yield' op yield result count mismatch with parent op}}
    stream.yield
  } => !stream.timepoint
  util.return
}

// -----

util.func public @execute_yield_type(%arg0: !stream.resource<*>, %arg1: index) {
  %0, %1 = stream.async.execute with(%arg0 as %arg2: !stream.resource<*>{%arg1}) -> !stream.resource<external>{%arg1} {
    // expected-error @+1 {{'stream.yield' op result type mismatch: expected '!stream.resource<external>' but got '!stream.resource<*>'}}
    stream.yield %arg2 : !stream.resource<*>{%arg1}
  } => !stream.timepoint
  util.return
}

// -----

util.func public @execute_yield_size(%arg0: !stream.resource<*>, %arg1: index, %arg2: index) {
  %0, %1 = stream.async.execute with(%arg0 as %arg3: !stream.resource<*>{%arg1}) -> %arg0{%arg2} {
    // expected-error @+1 {{'stream.yield' op result size mismatch}}
    stream.yield %arg3 : !stream.resource<*>{%arg1}
  } => !stream.timepoint
  util.return
}

// -----

util.func public @concurrent_outside_execute(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{'stream.async.concurrent' op expects parent op to be one of 'stream.async.execute, stream.async.concurrent'}}
  %0 = stream.async.concurrent with(%arg0 as %arg2: !stream.resource<*>{%arg1}) -> !stream.resource<*>{%arg1} {
    stream.yield %arg2 : !stream.resource<*>{%arg1}
  }
  util.return
}

// -----

util.func public @yield_outside_region(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{'stream.yield' op expects parent op to be one of 'stream.async.execute, stream.async.concurrent, stream.cmd.execute, stream.cmd.serial, stream.cmd.concurrent'}}
  stream.yield %arg0 : !stream.resource<*>{%arg1}
}

// -----

util.func public @import_dims(%arg0: !util.buffer, %arg1: index) {
  // expected-error @+1 {{'stream.tensor.import' op type set has 1 dynamic dimensions but only 0 dimension values are attached}}
  %0 = stream.tensor.import %arg0 : !util.buffer -> tensor<?x4xf32> in !stream.resource<external>{%arg1}
  util.return
}

// -----

util.func public @sizeof_dims(%arg0: index) {
  // expected-error @+1 {{'stream.tensor.sizeof' op type set has 0 dynamic dimensions but only 1 dimension values are attached}}
  %0 = stream.tensor.sizeof tensor<4xf32>{%arg0} : index
  util.return
}

// -----

util.func public @join_not_timepoint(%arg0: index) {
  // expected-error @+1 {{use of value '%arg0' expects different type than prior uses: '!stream.timepoint' vs 'index'}}
  %0 = stream.timepoint.join max(%arg0) => !stream.timepoint
  util.return
}

// -----

util.func public @await_type_count(%arg0: !stream.resource<*>, %arg1: index, %arg2: !stream.timepoint) {
  // expected-error @+1 {{number of operands and types do not match: got 1 operands and 2 types}}
  %0 = stream.timepoint.await %arg2 => %arg0 : !stream.resource<*>{%arg1}, !stream.resource<*>{%arg1}
  util.return
}

// -----

util.func public @barrier_timepoint_type(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{custom op 'stream.timepoint.barrier' invalid kind of type specified: expected stream.timepoint, but found 'index'}}
  %0, %1 = stream.timepoint.barrier %arg0 : !stream.resource<*>{%arg1} => index
  util.return
}

// -----

util.func public @move_not_resource(%arg0: index, %arg1: index) -> index {
  // expected-error @+1 {{'stream.async.move' op operand #0 must be resource or external resource or transient resource or variable resource or constant resource or staging resource, but got 'index'}}
  %0 = stream.async.move %arg0 : index{%arg1} -> index{%arg1}
  util.return %0 : index
}

// -----

util.func public @dispatch_without_operand_size(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected one size for '!stream.resource<*>'}}
  %0 = stream.async.dispatch @ex::@fn(%arg0[%c0 to %arg1 for %arg1]) : (!stream.resource<*>{}) -> !stream.resource<*>{%arg1}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @dispatch_without_result_size(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected one size for '!stream.resource<*>'}}
  %0 = stream.async.dispatch @ex::@fn(%arg0[%c0 to %arg1 for %arg1]) : (!stream.resource<*>{%arg1}) -> !stream.resource<*>{}
  util.return %0 : !stream.resource<*>
}

// -----

// expected-error @+1 {{unknown attribute `lifetime` in dialect `stream`}}
util.global private @global {attribute = #stream.lifetime<external>} : i32

// -----

// expected-error @+1 {{custom op 'stream.executable' expected valid '@'-identifier for symbol name}}
stream.executable private {
  stream.executable.export public @dispatch workgroups() -> (index, index, index) {
    %c1 = arith.constant 1 : index
    stream.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @dispatch() {
      return
    }
  }
}

// -----

// An export whose executable's header line was lost.
// expected-error @+1 {{'stream.executable.export' op expects parent op 'stream.executable'}}
stream.executable.export public @dispatch workgroups() -> (index, index, index) {
  %c1 = arith.constant 1 : index
  stream.return %c1, %c1, %c1 : index, index, index
}

// -----

util.func public @shape_without_dimension(%view: !hal.buffer_view, %size: index) {
  // expected-error @+1 {{expected non-function type}}
  %0 = stream.tensor.import %view : !hal.buffer_view -> tensor<xf32> in !stream.resource<external>{%size}
  util.return
}

// -----

util.func public @shape_without_element_type(%view: !hal.buffer_view, %size: index) {
  // expected-error @+1 {{expected 'x' in dimension list}}
  %0 = stream.tensor.import %view : !hal.buffer_view -> tensor<4> in !stream.resource<external>{%size}
  util.return
}

// -----

// A result of stream.tensor.dispatch tied to an operand has the encoding the function type
// gives that operand (verifyTiedOperandEncodings).
util.func private @tensor_dispatch_tied_encoding(%arg0: !stream.resource<*>, %arg1: !stream.resource<*>, %arg2: index) -> !stream.resource<*> {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{the 2-th operandEncoding (tensor<8xf32>) does not match the resultEncoding (tensor<9xf32>)}}
  %0:2 = stream.tensor.dispatch @executable::@dispatch(%c4, %arg0, %arg1) : (index, tensor<4x?xf32>{%c4} in !stream.resource<*>{%arg2}, tensor<8xf32> in !stream.resource<*>{%arg2}) -> (tensor<4x?xf32>{%c4} in %arg0{%arg2}, tensor<9xf32> in %arg1{%arg2})
  util.return %0#1 : !stream.resource<*>
}

// -----

// An operand written without an encoding has !util.unused: a result tied to it with one differs.
util.func private @tensor_dispatch_tied_to_unencoded(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  // expected-error @+1 {{the 0-th operandEncoding (!util.unused) does not match the resultEncoding (tensor<8xf32>)}}
  %0 = stream.tensor.dispatch @ex::@a(%arg0) : (!stream.resource<*>{%arg1}) -> tensor<8xf32> in %arg0{%arg1}
  util.return %0 : !stream.resource<*>
}

// -----

// The encodings' dims: one per `?` of a shaped encoding, none for another type (verifyOpDynamicDimsRange).
util.func private @tensor_dispatch_encoding_dims(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.tensor.dispatch' op type set has 0 dynamic dimensions but only 1 dimension values are attached}}
  %0 = stream.tensor.dispatch @ex::@a(%arg0) : (!stream.resource<*>{%arg1} in !stream.resource<*>{%arg1}) -> !stream.resource<*>{%arg1} in %arg0{%arg1}
  util.return %0 : !stream.resource<*>
}

// -----

util.func private @tensor_dispatch_staging_operand(%arg0: !stream.resource<staging>, %arg1: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.tensor.dispatch' op operand #0 must be variadic of resource or external resource or transient resource or variable resource or constant resource or index or integer or floating-point or complex-type, but got '!stream.resource<staging>'}}
  %0 = stream.tensor.dispatch @ex::@a(%arg0) : (tensor<4xf32> in !stream.resource<staging>{%arg1}) -> tensor<4xf32> in !stream.resource<*>{%arg1}
  util.return %0 : !stream.resource<*>
}

// -----

util.func private @tensor_dispatch_staging_result(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{'stream.tensor.dispatch' op result #0 must be variadic of resource or external resource or transient resource or variable resource or constant resource, but got '!stream.resource<staging>'}}
  %0 = stream.tensor.dispatch @ex::@a(%arg0) : (tensor<4xf32> in !stream.resource<*>{%arg1}) -> tensor<4xf32> in !stream.resource<staging>{%arg1}
  util.return
}

// -----

// The function type gives each operand its type: a value of another type is refused at its use.
util.func private @tensor_dispatch_operand_type(%arg0: !stream.resource<*>, %arg1: index, %arg2: i32) -> !stream.resource<*> {
  // expected-error @+1 {{use of value '%arg2' expects different type than prior uses: 'index' vs 'i32'}}
  %0 = stream.tensor.dispatch @ex::@a(%arg0, %arg2) : (tensor<4xf32> in !stream.resource<*>{%arg1}, index) -> tensor<4xf32> in !stream.resource<*>{%arg1}
  util.return %0 : !stream.resource<*>
}

// -----

// A storage size is an index (StreamOps.td: Index), whatever type is written.
util.func private @tensor_sizeof_not_index() {
  // expected-error @+1 {{custom op 'stream.tensor.sizeof' invalid kind of type specified: expected builtin.index, but found 'i32'}}
  %0 = stream.tensor.sizeof tensor<4xf32> : i32
  util.return
}

// -----

// After `attributes` as in a plain attribute dictionary, iree-opt refuses inherent attributes.
util.func public @clone_affinity_in_attr_dict(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  // expected-error @+1 {{custom op 'stream.async.clone' inherent attribute 'affinity' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  %0 = stream.async.clone %arg0 : !stream.resource<*>{%arg1} -> !stream.resource<*>{%arg1} attributes {affinity = #hal.device.promise<@dev>}
  util.return %0 : !stream.resource<*>
}

// -----

util.func private @resource_pack_not_index(%arg0: index) {
  // expected-error @+1 {{custom op 'stream.resource.pack' invalid kind of type specified: expected builtin.index, but found 'i64'}}
  %0:2 = stream.resource.pack slices({[0, 1] = %arg0}) : i64
  util.return
}

// -----

util.func public @alloca_affinity_in_attr_dict(%arg0: index) -> !stream.resource<transient> {
  // expected-error @+1 {{custom op 'stream.async.alloca' inherent attribute 'affinity' cannot be parsed from attr-dict when strict properties in assembly format is enabled}}
  %0 = stream.async.alloca {affinity = #hal.device.promise<@dev>} : !stream.resource<transient>{%arg0}
  util.return %0 : !stream.resource<transient>
}

// -----

// Results written without parentheses take no attributes.
// expected-error @+1 {{unexpected '{', expected ',' or 'attributes' or end of line}}
stream.async.func private @bare_result_attrs(%arg0: index) -> index {a.b}, i64

// -----

util.func public @retain_of_index(%arg0: index) {
  // expected-error @+1 {{'stream.resource.retain' op operand #0 must be any stream-compatible type, but got 'index'}}
  stream.resource.retain %arg0 : index{%arg0}
  util.return
}

// -----

util.func public @transients_of_staging(%arg0: !stream.resource<staging>, %arg1: !stream.resource<transient>, %arg2: index) -> !stream.timepoint {
  // expected-error @+1 {{'stream.resource.transients' op operand #0 must be resource or external resource or transient resource or variable resource or constant resource, but got '!stream.resource<staging>'}}
  %result, %result_timepoint = stream.resource.transients %arg0 : !stream.resource<staging>{%arg2} from %arg1 : !stream.resource<transient>{%arg2} => !stream.timepoint
  util.return %result_timepoint : !stream.timepoint
}

// -----

util.func public @file_write_of_index(%arg0: index, %arg1: !stream.file, %arg2: i64) -> !stream.timepoint {
  // expected-error @+1 {{'stream.file.write' op operand #0 must be resource or external resource or transient resource or variable resource or constant resource, but got 'index'}}
  %0 = stream.file.write : %arg0[%arg0], %arg1[%arg2], %arg0 : index{%arg0} -> !stream.file => !stream.timepoint
  util.return %0 : !stream.timepoint
}

// -----

util.func public @channel_create_of_integer() -> i32 {
  // expected-error @+1 {{custom op 'stream.channel.create' invalid kind of type specified: expected stream.channel, but found 'i32'}}
  %0 = stream.channel.create : i32
  util.return %0 : i32
}

// -----

util.func public @timepoint_import_of_integer(%arg0: !hal.fence) -> i32 {
  // expected-error @+1 {{custom op 'stream.timepoint.import' invalid kind of type specified: expected stream.timepoint, but found 'i32'}}
  %0 = stream.timepoint.import %arg0 : (!hal.fence) => i32
  util.return %0 : i32
}

// -----

util.func public @parameter_load_of_index_key(%arg0: index, %arg1: i64) -> !stream.timepoint {
  // expected-error @+1 {{use of value '%arg0' expects different type than prior uses: '!util.buffer' vs 'index'}}
  %result, %result_timepoint = stream.async.parameter.load %arg0[%arg1] : !stream.resource<constant>{%arg0} => !stream.timepoint
  util.return %result_timepoint : !stream.timepoint
}

// -----

util.func public @parameter_load_to_staging(%arg0: !util.buffer, %arg1: i64, %arg2: index) -> !stream.timepoint {
  // expected-error @+1 {{'stream.async.parameter.load' op result #0 must be resource or external resource or transient resource or variable resource or constant resource, but got '!stream.resource<staging>'}}
  %result, %result_timepoint = stream.async.parameter.load %arg0[%arg1] : !stream.resource<staging>{%arg2} => !stream.timepoint
  util.return %result_timepoint : !stream.timepoint
}

// -----

util.func public @tensor_empty_missing_dim(%arg0: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.tensor.empty' op type set has 1 dynamic dimensions but only 0 dimension values are attached}}
  %0 = stream.tensor.empty : tensor<?xf32> in !stream.resource<*>{%arg0}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @tensor_load_rank(%arg0: !stream.resource<staging>, %arg1: index) -> f32 {
  // expected-error @+1 {{'stream.tensor.load' op indices rank mismatch}}
  %0 = stream.tensor.load %arg0[%arg1] : tensor<f32> in !stream.resource<staging>{%arg1} -> f32
  util.return %0 : f32
}

// -----

util.func public @tensor_slice_rank(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.tensor.slice' op start_indices/lengths rank mismatch}}
  %0 = stream.tensor.slice %arg0[%arg1 for %arg1] : tensor<2x2xf32> in !stream.resource<*>{%arg1} -> tensor<2x2xf32> in !stream.resource<*>{%arg1}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @tensor_load_of_transient(%arg0: !stream.resource<*>, %arg1: index) -> f32 {
  // expected-error @+1 {{'stream.tensor.load' op operand #0 must be staging resource, but got '!stream.resource<*>'}}
  %0 = stream.tensor.load %arg0 : tensor<f32> in !stream.resource<*>{%arg1} -> f32
  util.return %0 : f32
}

// -----

util.func public @tensor_splat_of_buffer(%arg0: !util.buffer, %arg1: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.tensor.splat' op operand #0 must be index or integer or floating-point or complex-type, but got '!util.buffer'}}
  %0 = stream.tensor.splat %arg0 : !util.buffer -> tensor<4xf32> in !stream.resource<*>{%arg1}
  util.return %0 : !stream.resource<*>
}

// -----

// The generic form of an execution region op with an empty region (no block): iree-opt 3.13
// crashes on it (in verifyAllResourcesCaptured).
util.func public @generic_execute_without_block(%r: !stream.resource<*>, %n: index) {
  // expected-error @+1 {{'stream.cmd.execute' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %0 = "stream.cmd.execute"(%r, %n) <{operandSegmentSizes = array<i32: 1, 1, 0>}> ({
  }) : (!stream.resource<*>, index) -> !stream.timepoint
  util.return
}

// -----

// A generic form whose result is tied past the captured resources: iree-opt 3.13 accepts it and
// prints the result tied to the size that follows them.
util.func public @generic_tie_out_of_range(%r: !stream.resource<*>, %n: index) {
  // expected-error @+1 {{'stream.async.execute' op result #0 tied to invalid operand index 1}}
  %0:2 = "stream.async.execute"(%r, %n, %n) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>, tied_operands = [1 : index]}> ({
  ^bb0(%a: !stream.resource<*>):
    "stream.yield"(%a, %n) : (!stream.resource<*>, index) -> ()
  }) : (!stream.resource<*>, index, index) -> (!stream.resource<*>, !stream.timepoint)
  util.return
}

// -----

// A generic form with more ties than tied results: iree-opt 3.13 accepts it (IREE's
// verifyTiedOp words this check) and prints the ties it has room for.
util.func public @tied_count(%r: !stream.resource<*>, %n: index) {
  // expected-error @+1 {{'stream.async.execute' op results/tied operand indices mismatch}}
  %0:2 = "stream.async.execute"(%r, %n, %n) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>, tied_operands = [0 : index, -1 : index]}> ({
  ^bb0(%a: !stream.resource<*>):
    "stream.yield"(%a, %n) : (!stream.resource<*>, index) -> ()
  }) : (!stream.resource<*>, index, index) -> (!stream.resource<*>, !stream.timepoint)
  util.return
}
