// Forms found by running IREE's own dialect tests through streamopt (test/iree_conformance.py),
// in the form iree-opt prints them: streamopt must print each back byte for byte, and iree-opt
// must read streamopt's output back to the same text.
// The diffs come last: lit's out-of-process `diff` overwrites PYTHONPATH for later RUN lines.
// RUN: iree-opt --split-input-file %s -o %t.expected
// RUN: streamopt --split-input-file %s -o %t.actual
// RUN: streamopt --split-input-file %s | iree-opt --split-input-file -o %t.reparsed
// RUN: diff %t.expected %t.actual
// RUN: diff %t.expected %t.reparsed

// util.return prints its attribute dictionary before its operands.
module {
  util.func public @return_attributes(%arg0: i32) -> i32 {
    util.return {some.note = [1, 2]} %arg0 : i32
  }
}

// -----
// Inside func.func (which streamopt does not model) MLIR prints func.return and func.call
// without their dialect, and the regions nested in it number their arguments after its own.
module {
  func.func private @callee(i32) -> i32
  func.func @caller(%arg0: i32, %arg1: index) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = call @callee(%arg0) : (i32) -> i32
    %1 = scf.for %arg2 = %c0 to %arg1 step %c1 iter_args(%arg3 = %0) -> (i32) {
      %2 = func.call @callee(%arg3) : (i32) -> i32
      scf.yield %2 : i32
    }
    return %1 : i32
  }
  func.func @second(%arg0: i32) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = scf.for %arg1 = %c0 to %c1 step %c1 iter_args(%arg2 = %arg0) -> (i32) {
      scf.yield %arg2 : i32
    }
    return %0 : i32
  }
}

// -----
// Element types whose names hold an `x` are not dimensions.
module {
  util.func public @element_types(%arg0: vector<4xi32>) -> (index, vector<4xindex>) {
    %0 = stream.tensor.sizeof tensor<6xcomplex<f32>> : index
    %1 = arith.index_castui %arg0 : vector<4xi32> to vector<4xindex>
    util.return %0, %1 : index, vector<4xindex>
  }
}

// -----
// An await clause names a timepoint, whatever op made it.
module {
  util.func public @await_unmodelled() -> !stream.resource<constant> {
    %c1024 = arith.constant 1024 : index
    %results, %result_timepoint = stream.test.timeline_op with() : () -> !stream.resource<external>{%c1024} => !stream.timepoint
    %cst = stream.async.constant await(%result_timepoint) : !stream.resource<constant>{%c1024} = dense<7> : vector<1024xi8>
    util.return %cst : !stream.resource<constant>
  }
}

// -----
// A global's initial value needs a compatible shape, not the same element type; a constant may
// be a function.
module {
  util.global public @shape_compatible : tensor<4xf32> = dense<4> : tensor<4xi32>
  util.func private @callee(f32)
  util.func public @function_constant() {
    %0 = util.unfoldable_constant @callee : (f32) -> ()
    util.return
  }
}

// -----
// An executable with attributes before its body.
module {
  stream.executable private @ex attributes {some.config = {a = 1 : i64, b = [2, 3]}} {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
  }
}

// -----
// An unmodelled op keeps the blank IREE prints after an operand-less transform.yield.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.yield 
  }
}

// -----
// Dialect resources keep their line breaks.
module {
  util.func public @resource() -> tensor<1xi64> {
    %cst = arith.constant dense_resource<blob_i64> : tensor<1xi64>
    util.return %cst : tensor<1xi64>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob_i64: "0x080000000100000000000000"
    }
  }
#-}

// -----
// The arguments an unmodelled op declares (stream.cmd.func) are its own: the next function's
// arguments take the same names.
module {
  stream.cmd.func private @cmd_callee(%arg0[%arg1 for %arg2]: !stream.resource<*>, %arg3: i32)
  util.func public @after(%arg0: i32, %arg1: index) -> i32 {
    util.return %arg0 : i32
  }
}

// -----
// A region opening on a continuation line of an unmodelled op is indented from that line.
#executable_target_a = #hal.executable.target<"llvm-cpu", "a">
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
module {
  util.func public @extern(%arg0: tensor<4xi32>) -> tensor<4xi32> {
    %c1 = arith.constant 1 : index
    %0 = hal.dispatch.extern "main"[%c1](%arg0) : (tensor<4xi32>) -> %arg0 count(%arg1: !hal.device, %arg2: index) -> (index, index, index) {
      hal.return %arg2, %arg2, %arg2 : index, index, index
    } layout(#pipeline_layout) objects({
      #executable_target_a if(%arg1: !hal.device) -> i1 {
        %ok, %value = hal.device.query<%arg1 : !hal.device> key("some" :: "feature") : i1, i32
        hal.return %ok : i1
      } ordinal(1) = [#hal.executable.object<{path = "a.o"}>]
    })
    util.return %0 : tensor<4xi32>
  }
}

// -----
// A top-level builtin.module, or one in generic form, is the file's module.
builtin.module {
  util.func public @named_module() {
    util.return
  }
}

// -----
"builtin.module"() ({
  util.func public @generic_module() {
    util.return
  }
}) : () -> ()

// -----
// A global's inlining policy is a property, printed in its own dictionary.
module {
  util.global private @never_inlined <inlining_policy = #util.inline.never> = 1 : i32
  util.global private mutable @with_attributes <inlining_policy = #util.inline.never> {some.note} : i32
}
