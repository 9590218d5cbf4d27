// A hal-level program that fills a buffer after a queue move consumed it, through a global
// that still holds the buffer: no static check follows the buffer through the global, the
// interpreter reports the fill, with a note at the move.
//
// RUN: not python -m streamopt.run_command %s 2>&1 | filecheck %s
//
// The python filecheck has no [[@LINE]]: these are the lines of the fill (36) and the move
// (33) below.
// CHECK: use-after-move-hal.mlir:36:3: error: use after move: buffer '{{.+}}' written by fill after move #1 to 'dev_b' (alias) at
// CHECK-SAME: use-after-move-hal.mlir:33:9
// CHECK-NEXT: hal.device.queue.fill
// CHECK: use-after-move-hal.mlir:33:9: note: moved here
// CHECK-NEXT: hal.device.queue.move

util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device
util.global private mutable @saved : !hal.buffer

util.func public @main() -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c0_i64 = arith.constant 0 : i64
  %c-1_i64 = arith.constant -1 : i64
  %c1_i8 = arith.constant 1 : i8
  %dev_a = util.global.load immutable @dev_a : !hal.device
  %dev_b = util.global.load immutable @dev_b : !hal.device
  %types, %usage = hal.allocator.resolve_memory_properties for(#hal.device.affinity<@dev_a>) lifetime(transient) : i32, i32
  %null = util.null : !hal.fence
  %f0 = hal.fence.create device(%dev_a : !hal.device) flags("None") : !hal.fence
  %b0 = hal.device.queue.alloca<%dev_a : !hal.device> affinity(%c-1_i64) wait(%null) signal(%f0) pool(%c0_i64) type(%types) usage(%usage) flags("None") : !hal.buffer{%c16}
  util.global.store %b0, @saved : !hal.buffer
  %f1 = hal.fence.create device(%dev_b : !hal.device) flags("None") : !hal.fence
  %b1 = hal.device.queue.move<%dev_b : !hal.device> affinity(%c-1_i64) wait(%f0) signal(%f1) source(%b0 : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags("None") : !hal.buffer{%c16}
  %f2 = hal.fence.create device(%dev_a : !hal.device) flags("None") : !hal.fence
  %saved = util.global.load @saved : !hal.buffer
  hal.device.queue.fill<%dev_a : !hal.device> affinity(%c-1_i64) wait(%f1) signal(%f2) target(%saved : !hal.buffer)[%c0] length(%c16) pattern(%c1_i8 : i8) flags("None")
  util.return %b1 : !hal.buffer
}
