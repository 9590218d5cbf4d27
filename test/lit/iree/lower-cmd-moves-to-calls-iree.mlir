// Moves as runtime calls are IR IREE reads: iree-opt parses and verifies the output of
// --lower-cmd-moves-to-calls on a real program (the A -> B -> A of two-devices), and the two
// moves call one declared import (test/unit/streamopt_iree compiles and runs it).
//
// RUN: streamopt %examples/iree/two-devices/before-elide-2.mlir --elide-async-copies --lower-to-cmd --lower-cmd-moves-to-calls | iree-opt | filecheck %s

// CHECK: util.func private @streamopt.queue_move.transient.transient(%{{.+}}: !stream.resource<transient>, %{{.+}}: index, %{{.+}}: index, %{{.+}}: i64, %{{.+}}: i64, %{{.+}}: i64, %{{.+}}: i64, %{{.+}}: !stream.timepoint) -> (!stream.resource<transient>, !stream.timepoint)
// CHECK-LABEL: util.func public @main
// CHECK: util.call @streamopt.queue_move.transient.transient(
// CHECK: util.call @streamopt.queue_move.transient.transient(
// CHECK-NOT: stream.cmd.move
// CHECK: util.return
