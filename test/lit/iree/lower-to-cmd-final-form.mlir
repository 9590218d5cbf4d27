// --lower-to-cmd leaves real programs in the form IREE's stream phase ends in, which is what
// `iree-compile --compile-from=stream` resumes from (test/unit/streamopt_iree builds and runs
// every program that way): host readbacks as stream.resource.load, constants packed as IREE's
// PackConstants packs them, executables taking only bindings and i32 words, cf on the host.
// iree-opt parses and verifies the output.
//
// RUN: streamopt %examples/iree/data-dependent-loop/before-elide-2.mlir --elide-async-copies --lower-to-cmd --expand-cmd-moves | iree-opt | filecheck %s --check-prefix=READBACK
// RUN: streamopt %examples/iree/constants/before-elide-2.mlir --elide-async-copies --lower-to-cmd --expand-cmd-moves | iree-opt | filecheck %s --check-prefix=CONSTANTS
// RUN: streamopt %examples/iree/dynamic-batch/before-elide-2.mlir --elide-async-copies --lower-to-cmd --expand-cmd-moves | iree-opt | filecheck %s --check-prefix=OPERANDS

// READBACK-NOT: scf.while
// READBACK-LABEL: util.func public @main
// READBACK: [[READY:%.+]] = stream.timepoint.await {{.+}} : !stream.resource<staging>
// READBACK-NEXT: {{%.+}} = stream.resource.load [[READY]][%c0{{.*}}] : !stream.resource<staging>{{.+}} -> i1
// READBACK: cf.cond_br
// READBACK-NOT: stream.async.
// READBACK-NOT: scf.

// CONSTANTS: #composite_of_64b = #util.composite<64xi8, [
// CONSTANTS-LABEL: util.initializer
// CONSTANTS: [[DATA:%.+]] = util.buffer.constant <alignment = 64> : !util.buffer = #composite_of_64b
// CONSTANTS: %did_map, [[MAPPED:%.+]] = stream.resource.try_map on(#hal.device.affinity<@dev_b>) [[DATA]][%c0] : !util.buffer -> i1, !stream.resource<constant>{%c64}
// CONSTANTS-NEXT: cf.cond_br %did_map
// CONSTANTS: stream.resource.alloc uninitialized on(#hal.device.affinity<@dev_b>) : !stream.resource<constant>{%c64}
// CONSTANTS: stream.file.constant on(#hal.device.affinity<@dev_b>) [[DATA]][%c0 for %c64] : !util.buffer{%c64} -> !stream.file
// CONSTANTS: stream.file.read on(#hal.device.affinity<@dev_b>) await({{.+}}) => {{.+}} : !stream.file -> !stream.resource<constant>{%c64} => !stream.timepoint
// CONSTANTS-NOT: stream.resource.constants

// OPERANDS: func.func @main_dispatch_0_matmul_Dx256x256_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding, %arg3: i32, %arg4: i32, %arg5: !stream.binding) {
// OPERANDS-LABEL: util.func public @main
// OPERANDS: stream.cmd.dispatch @{{.+}}({{.+}} : i32, i32
