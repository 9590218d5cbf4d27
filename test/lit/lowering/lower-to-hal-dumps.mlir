// Real IREE dumps through --elide-async-copies --lower-to-hal: each transfer that became a move
// is a hal.device.queue.move on its target device, waiting for the last work on its source and
// signalling the fence the next user waits on. With --expand-moves each move is a queue alloca,
// a queue copy and a dealloca of the source at its origin, chained by two new fences, and the
// move's signal fence is still the one the users wait on; no queue move is left.
//
// RUN: streamopt --elide-async-copies --lower-to-hal %examples/iree/two-devices/before-elide-2.mlir | filecheck %s --check-prefix=TWO
// RUN: streamopt --elide-async-copies --lower-to-hal --expand-moves %examples/iree/two-devices/before-elide-2.mlir | filecheck %s --check-prefix=TWOX
// RUN: streamopt --elide-async-copies --lower-to-hal %examples/iree/three-devices/before-elide-2.mlir | filecheck %s --check-prefix=THREE
// RUN: streamopt --elide-async-copies --lower-to-hal --expand-moves %examples/iree/three-devices/before-elide-2.mlir | filecheck %s --check-prefix=THREEX

// Two devices: dispatch@A -> move A->B -> dispatch@B -> move B->A -> dispatch@A.

// TWO-LABEL: util.func public @main
// TWO: %[[A_OUT:.+]] = hal.device.queue.alloca<%{{.+}} : !hal.device> {{.+}} : !hal.buffer{%c16}
// TWO: hal.device.queue.execute<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%{{.+}}) signal(%[[ON_A:.+]]) commands(
// TWO: %[[DEV_B:.+]] = util.global.load immutable @dev_b : !hal.device
// TWO: %[[TO_B_F:.+]] = hal.fence.create device(%[[DEV_B]] : !hal.device)
// TWO: %[[TO_B:.+]] = hal.device.queue.move<%[[DEV_B]] : !hal.device> affinity(%{{.+}}) wait(%[[ON_A]]) signal(%[[TO_B_F]]) source(%[[A_OUT]] : !hal.buffer)[%{{.+}}] pool(%{{.+}}) type(%{{.+}}) usage(%{{.+}}) flags(PreferOrigin) : !hal.buffer{%c16}
// TWO: %[[B_OUT:.+]] = hal.device.queue.alloca<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%[[TO_B_F]]) signal(%[[B_OUT_F:.+]]) pool
// TWO: (%[[TO_B]] : !hal.buffer)[%c0, %c16],
// TWO: hal.device.queue.execute<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%[[B_OUT_F]]) signal(%[[ON_B:.+]]) commands(
// TWO: %[[DEV_A:.+]] = util.global.load immutable @dev_a : !hal.device
// TWO: %[[TO_A_F:.+]] = hal.fence.create device(%[[DEV_A]] : !hal.device)
// TWO: %[[TO_A:.+]] = hal.device.queue.move<%[[DEV_A]] : !hal.device> affinity(%{{.+}}) wait(%[[ON_B]]) signal(%[[TO_A_F]]) source(%[[B_OUT]] : !hal.buffer)[%{{.+}}] {{.+}} flags(PreferOrigin) : !hal.buffer{%c16}
// TWO: hal.device.queue.alloca<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%[[TO_A_F]])
// TWO: (%[[TO_A]] : !hal.buffer)[%c0, %c16],
// TWO-NOT: hal.device.queue.move

// TWOX-LABEL: util.func public @main
// TWOX-NOT: hal.device.queue.move
// TWOX: %[[A_OUT:.+]] = hal.device.queue.alloca<%{{.+}} : !hal.device> {{.+}} : !hal.buffer{%c16}
// TWOX: hal.device.queue.execute<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%{{.+}}) signal(%[[ON_A:.+]]) commands(
// TWOX: %[[DEV_B:.+]] = util.global.load immutable @dev_b : !hal.device
// TWOX: %[[TO_B_F:.+]] = hal.fence.create device(%[[DEV_B]] : !hal.device)
// TWOX: %[[ALLOCATED:.+]] = hal.fence.create device(%[[DEV_B]] : !hal.device)
// TWOX-NEXT: %[[TO_B:.+]] = hal.device.queue.alloca<%[[DEV_B]] : !hal.device> affinity(%[[Q:.+]]) wait(%[[ON_A]]) signal(%[[ALLOCATED]]) {{.+}} : !hal.buffer{%c16}
// TWOX-NEXT: %[[COPIED:.+]] = hal.fence.create device(%[[DEV_B]] : !hal.device)
// TWOX: hal.device.queue.copy<%[[DEV_B]] : !hal.device> affinity(%[[Q]]) wait(%[[ALLOCATED]]) signal(%[[COPIED]]) source(%[[A_OUT]] : !hal.buffer)[%{{.+}}] target(%[[TO_B]] : !hal.buffer)[%{{.+}}] length(%c16)
// TWOX-NEXT: hal.device.queue.dealloca<%[[DEV_B]] : !hal.device> affinity(%[[Q]]) wait(%[[COPIED]]) signal(%[[TO_B_F]]) buffer(%[[A_OUT]] : !hal.buffer) flags(PreferOrigin)
// TWOX: %[[B_OUT:.+]] = hal.device.queue.alloca<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%[[TO_B_F]])
// TWOX: (%[[TO_B]] : !hal.buffer)[%c0, %c16],
// TWOX: hal.device.queue.execute<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%{{.+}}) signal(%[[ON_B:.+]]) commands(
// TWOX: %[[DEV_A:.+]] = util.global.load immutable @dev_a : !hal.device
// TWOX: %[[TO_A_F:.+]] = hal.fence.create device(%[[DEV_A]] : !hal.device)
// TWOX: %[[ALLOCATED2:.+]] = hal.fence.create device(%[[DEV_A]] : !hal.device)
// TWOX-NEXT: %[[TO_A:.+]] = hal.device.queue.alloca<%[[DEV_A]] : !hal.device> affinity(%[[Q2:.+]]) wait(%[[ON_B]]) signal(%[[ALLOCATED2]])
// TWOX-NEXT: %[[COPIED2:.+]] = hal.fence.create device(%[[DEV_A]] : !hal.device)
// TWOX: hal.device.queue.copy<%[[DEV_A]] : !hal.device> affinity(%[[Q2]]) wait(%[[ALLOCATED2]]) signal(%[[COPIED2]]) source(%[[B_OUT]] : !hal.buffer)[%{{.+}}] target(%[[TO_A]] : !hal.buffer)
// TWOX-NEXT: hal.device.queue.dealloca<%[[DEV_A]] : !hal.device> affinity(%[[Q2]]) wait(%[[COPIED2]]) signal(%[[TO_A_F]]) buffer(%[[B_OUT]] : !hal.buffer) flags(PreferOrigin)
// TWOX: hal.device.queue.alloca<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%[[TO_A_F]])
// TWOX: (%[[TO_A]] : !hal.buffer)[%c0, %c16],
// TWOX-NOT: hal.device.queue.move

// Three devices: dev_a's result is copied to dev_b and then moved to dev_c (its last use), dev_b's
// result is copied to dev_c and then moved back to dev_a, and dev_c's result is moved to dev_a.

// THREE-LABEL: util.func public @main
// THREE: %[[SCALED:.+]] = hal.device.queue.alloca<%{{.+}} : !hal.device> {{.+}} : !hal.buffer{%c32}
// THREE: hal.device.queue.copy<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%{{.+}}) signal(%[[TO_B_COPIED:.+]]) source(%[[SCALED]] : !hal.buffer)
// THREE: %[[DEV_C:.+]] = util.global.load immutable @dev_c : !hal.device
// THREE: %[[TO_C_F:.+]] = hal.fence.create device(%[[DEV_C]] : !hal.device)
// THREE: %[[TO_C:.+]] = hal.device.queue.move<%[[DEV_C]] : !hal.device> affinity(%{{.+}}) wait(%[[TO_B_COPIED]]) signal(%[[TO_C_F]]) source(%[[SCALED]] : !hal.buffer)[%{{.+}}] {{.+}} flags(PreferOrigin) : !hal.buffer{%c32}
// THREE: %[[ON_B:.+]] = hal.device.queue.alloca<%{{.+}} : !hal.device>
// THREE: hal.device.queue.copy<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%{{.+}}) signal(%[[B_TO_C_COPIED:.+]]) source(%[[ON_B]] : !hal.buffer)
// THREE: %[[ON_C:.+]] = hal.device.queue.alloca<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%{{.+}}) signal(%{{.+}}) {{.+}} : !hal.buffer{%c32}
// THREE: (%[[TO_C]] : !hal.buffer)[%c0, %c32],
// THREE: hal.device.queue.execute<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%{{.+}}) signal(%[[ON_C_DONE:.+]]) commands(
// THREE: %[[DEV_A:.+]] = util.global.load immutable @dev_a : !hal.device
// THREE: %[[B_BACK_F:.+]] = hal.fence.create device(%[[DEV_A]] : !hal.device)
// THREE: %[[B_BACK:.+]] = hal.device.queue.move<%[[DEV_A]] : !hal.device> affinity(%{{.+}}) wait(%[[B_TO_C_COPIED]]) signal(%[[B_BACK_F]]) source(%[[ON_B]] : !hal.buffer)
// THREE: %[[JOINED:.+]] = hal.fence.join at([%[[B_BACK_F]], %[[ON_C_DONE]]])
// THREE: %[[DEV_A2:.+]] = util.global.load immutable @dev_a : !hal.device
// THREE: %[[C_BACK_F:.+]] = hal.fence.create device(%[[DEV_A2]] : !hal.device)
// THREE: %[[C_BACK:.+]] = hal.device.queue.move<%[[DEV_A2]] : !hal.device> affinity(%{{.+}}) wait(%[[JOINED]]) signal(%[[C_BACK_F]]) source(%[[ON_C]] : !hal.buffer)
// THREE: hal.device.queue.alloca<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%[[C_BACK_F]])
// THREE: (%[[B_BACK]] : !hal.buffer)[%c0, %c32],
// THREE-NEXT: (%[[C_BACK]] : !hal.buffer)[%c0, %c32],
// THREE-NOT: hal.device.queue.move

// THREEX-LABEL: util.func public @main
// THREEX-NOT: hal.device.queue.move
// THREEX: %[[SCALED:.+]] = hal.device.queue.alloca<%{{.+}} : !hal.device> {{.+}} : !hal.buffer{%c32}
// THREEX: hal.device.queue.copy<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%{{.+}}) signal(%[[TO_B_COPIED:.+]]) source(%[[SCALED]] : !hal.buffer)
// THREEX: %[[DEV_C:.+]] = util.global.load immutable @dev_c : !hal.device
// THREEX: %[[TO_C_F:.+]] = hal.fence.create device(%[[DEV_C]] : !hal.device)
// THREEX: %[[ALLOCATED:.+]] = hal.fence.create device(%[[DEV_C]] : !hal.device)
// THREEX-NEXT: %[[TO_C:.+]] = hal.device.queue.alloca<%[[DEV_C]] : !hal.device> affinity(%[[Q:.+]]) wait(%[[TO_B_COPIED]]) signal(%[[ALLOCATED]])
// THREEX-NEXT: %[[COPIED:.+]] = hal.fence.create device(%[[DEV_C]] : !hal.device)
// THREEX: hal.device.queue.copy<%[[DEV_C]] : !hal.device> affinity(%[[Q]]) wait(%[[ALLOCATED]]) signal(%[[COPIED]]) source(%[[SCALED]] : !hal.buffer)[%{{.+}}] target(%[[TO_C]] : !hal.buffer)
// THREEX-NEXT: hal.device.queue.dealloca<%[[DEV_C]] : !hal.device> affinity(%[[Q]]) wait(%[[COPIED]]) signal(%[[TO_C_F]]) buffer(%[[SCALED]] : !hal.buffer) flags(PreferOrigin)
// THREEX: (%[[TO_C]] : !hal.buffer)[%c0, %c32],
// THREEX: %[[DEV_A:.+]] = util.global.load immutable @dev_a : !hal.device
// THREEX: %[[B_BACK_F:.+]] = hal.fence.create device(%[[DEV_A]] : !hal.device)
// THREEX: %[[ALLOCATED2:.+]] = hal.fence.create device(%[[DEV_A]] : !hal.device)
// THREEX-NEXT: %[[B_BACK:.+]] = hal.device.queue.alloca<%[[DEV_A]] : !hal.device> affinity(%[[Q2:.+]]) wait(%{{.+}}) signal(%[[ALLOCATED2]])
// THREEX-NEXT: %[[COPIED2:.+]] = hal.fence.create device(%[[DEV_A]] : !hal.device)
// THREEX: hal.device.queue.copy<%[[DEV_A]] : !hal.device> affinity(%[[Q2]]) wait(%[[ALLOCATED2]]) signal(%[[COPIED2]]) source(%[[ON_B:.+]] : !hal.buffer)[%{{.+}}] target(%[[B_BACK]] : !hal.buffer)
// THREEX-NEXT: hal.device.queue.dealloca<%[[DEV_A]] : !hal.device> affinity(%[[Q2]]) wait(%[[COPIED2]]) signal(%[[B_BACK_F]]) buffer(%[[ON_B]] : !hal.buffer) flags(PreferOrigin)
// THREEX: %[[DEV_A2:.+]] = util.global.load immutable @dev_a : !hal.device
// THREEX: %[[C_BACK_F:.+]] = hal.fence.create device(%[[DEV_A2]] : !hal.device)
// THREEX: %[[ALLOCATED3:.+]] = hal.fence.create device(%[[DEV_A2]] : !hal.device)
// THREEX-NEXT: %[[C_BACK:.+]] = hal.device.queue.alloca<%[[DEV_A2]] : !hal.device> affinity(%[[Q3:.+]]) wait(%{{.+}}) signal(%[[ALLOCATED3]])
// THREEX-NEXT: %[[COPIED3:.+]] = hal.fence.create device(%[[DEV_A2]] : !hal.device)
// THREEX: hal.device.queue.copy<%[[DEV_A2]] : !hal.device> affinity(%[[Q3]]) wait(%[[ALLOCATED3]]) signal(%[[COPIED3]]) source(%[[ON_C:.+]] : !hal.buffer)[%{{.+}}] target(%[[C_BACK]] : !hal.buffer)
// THREEX-NEXT: hal.device.queue.dealloca<%[[DEV_A2]] : !hal.device> affinity(%[[Q3]]) wait(%[[COPIED3]]) signal(%[[C_BACK_F]]) buffer(%[[ON_C]] : !hal.buffer) flags(PreferOrigin)
// THREEX: hal.device.queue.alloca<%{{.+}} : !hal.device> affinity(%{{.+}}) wait(%[[C_BACK_F]])
// THREEX: (%[[B_BACK]] : !hal.buffer)[%c0, %c32],
// THREEX-NEXT: (%[[C_BACK]] : !hal.buffer)[%c0, %c32],
// THREEX-NOT: hal.device.queue.move
