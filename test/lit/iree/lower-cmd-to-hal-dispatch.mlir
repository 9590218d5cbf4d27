// Dispatches: streamopt keeps executables verbatim, so it asks for workgroup counts with
// hal.executable.calculate_workgroups where IREE inlines the export's count region. IREE's own
// conversion turns that op into the inlined region: the two results must then be identical.
//
// RUN: iree-opt --split-input-file --iree-hal-conversion --iree-hal-indirect-command-buffers=false %s > %t.iree
// RUN: iree-opt --split-input-file %s | streamopt --split-input-file --lower-cmd-to-hal > %t.streamopt
// RUN: filecheck %s --input-file %t.streamopt
// RUN: iree-opt --split-input-file --iree-hal-conversion %t.streamopt > %t.streamopt.iree
// RUN: diff %t.iree %t.streamopt.iree

#executable_target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">
#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
hal.executable private @ex {
  hal.executable.variant public @x86_64 target(#executable_target) {
    hal.executable.export public @scale ordinal(0) layout(#pipeline_layout) count(%device: !hal.device, %arg0: index, %arg1: index) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      %0 = arith.muli %arg0, %arg1 : index
      hal.return %0, %arg1, %c1 : index, index, index
    }
    hal.executable.export public @copy ordinal(1) layout(#pipeline_layout) count(%device: !hal.device) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      hal.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
    }
  }
}
util.global private @dev_a : !hal.device

// CHECK-LABEL: util.func public @two_dispatches
util.func public @two_dispatches(%arg0: !stream.resource<transient>, %arg1: !stream.resource<external>, %arg2: index, %arg3: !stream.timepoint) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  // CHECK: hal.command_buffer.create
  // CHECK: hal.executable.calculate_workgroups device({{.+}}) target(@ex::@x86_64::@scale) workload([%c4, %c16])
  // CHECK: hal.command_buffer.dispatch
  // CHECK: hal.executable.calculate_workgroups device({{.+}}) target(@ex::@x86_64::@copy) :
  // CHECK: hal.command_buffer.dispatch
  %0 = stream.cmd.execute once on(#hal.device.affinity<@dev_a>) await(%arg3) => with(%arg0 as %arg4: !stream.resource<transient>{%arg2}, %arg1 as %arg5: !stream.resource<external>{%arg2}) {
    stream.cmd.serial {
      stream.cmd.dispatch @ex::@x86_64::@scale[%c4, %c16](%c1_i32, %c2_i32 : i32, i32) {
        ro %arg4[%c0 for %c16] : !stream.resource<transient>{%arg2},
        wo %arg5[%c0 for %c16] : !stream.resource<external>{%arg2}
      }
      stream.cmd.dispatch @ex::@x86_64::@copy {
        ro %arg5[%c0 for %c16] : !stream.resource<external>{%arg2},
        wo %arg4[%c16 for %c16] : !stream.resource<transient>{%arg2}
      }
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}
