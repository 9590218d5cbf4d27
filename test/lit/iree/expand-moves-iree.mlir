// iree-opt accepts (parses and verifies) what `--lower-cmd-to-hal --expand-moves` makes of the
// cmd-level lowering tests, and what `--expand-moves` makes of the hal-level move tests: after
// expansion only ops IREE knows are left.
//
// RUN: streamopt --split-input-file --lower-cmd-to-hal --expand-moves %S/../lowering/lower-cmd-to-hal-moves.mlir > %t.moves
// RUN: iree-opt --split-input-file %t.moves > %t.moves.iree
// RUN: filecheck %s --check-prefix=MOVES --input-file %t.moves.iree
// RUN: streamopt --split-input-file --lower-cmd-to-hal --expand-moves %S/../lowering/lower-cmd-to-hal.mlir > %t.cmd
// RUN: iree-opt --split-input-file %t.cmd > %t.cmd.iree
// RUN: filecheck %s --check-prefix=CMD --input-file %t.cmd.iree
// RUN: streamopt --split-input-file --expand-moves %S/../lowering/expand-moves.mlir > %t.hal
// RUN: iree-opt --split-input-file %t.hal > %t.hal.iree
// RUN: filecheck %s --check-prefix=HAL --input-file %t.hal.iree

// Each move became a copy through a new allocation, freeing the source at its origin.
// MOVES-LABEL: util.func public @move_between_devices
// MOVES: %[[SRC:.+]] = hal.device.queue.alloca
// MOVES: %[[DST:.+]] = hal.device.queue.alloca
// MOVES: hal.device.queue.copy{{.+}} source(%[[SRC]] : !hal.buffer){{.+}} target(%[[DST]] : !hal.buffer)
// MOVES-NEXT: hal.device.queue.dealloca{{.+}} buffer(%[[SRC]] : !hal.buffer) flags(PreferOrigin)
// MOVES-NOT: stream.{{(cmd|resource|timepoint|tensor)}}
// MOVES-NOT: !stream.
// MOVES-NOT: hal.device.queue.move

// CMD-LABEL: util.func public @single_copy
// CMD-NOT: stream.{{(cmd|resource|timepoint|tensor)}}
// CMD-NOT: !stream.

// HAL-LABEL: util.func public @expand
// HAL-NOT: hal.device.queue.move
