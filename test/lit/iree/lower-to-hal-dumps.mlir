// Every real IREE dump in examples/iree (the second ElideAsyncCopies input of each program, with
// and without debug locations; the first still has unrefined `*` lifetimes, which
// lowering/lower-to-cmd-unrefined.mlir shows are refused) goes through the whole pipeline, and iree-opt accepts the result:
// parses it, verifies it and prints it (exit 0). The executables are kept verbatim; constants
// are uploaded and dispatch operands packed as IREE does, moves expanded to queue ops.
//
// RUN: streamopt --elide-async-copies --lower-to-hal --expand-moves %examples/iree/calls/before-elide-2.mlir | iree-opt > /dev/null
// RUN: streamopt --elide-async-copies --lower-to-hal --expand-moves %examples/iree/constants/before-elide-2.mlir | iree-opt > /dev/null
// RUN: streamopt --elide-async-copies --lower-to-hal --expand-moves %examples/iree/control-flow/before-elide-2.debuginfo.mlir | iree-opt > /dev/null
// RUN: streamopt --elide-async-copies --lower-to-hal --expand-moves %examples/iree/control-flow/before-elide-2.mlir | iree-opt > /dev/null
// RUN: streamopt --elide-async-copies --lower-to-hal --expand-moves %examples/iree/dynamic-shapes/before-elide-2.mlir | iree-opt > /dev/null
// RUN: streamopt --elide-async-copies --lower-to-hal --expand-moves %examples/iree/one-device/before-elide-2.mlir | iree-opt > /dev/null
// RUN: streamopt --elide-async-copies --lower-to-hal --expand-moves %examples/iree/three-devices/before-elide-2.mlir | iree-opt > /dev/null
// RUN: streamopt --elide-async-copies --lower-to-hal --expand-moves %examples/iree/two-devices/before-elide-2.debuginfo.mlir | iree-opt > /dev/null
// RUN: streamopt --elide-async-copies --lower-to-hal --expand-moves %examples/iree/two-devices/before-elide-2.mlir | iree-opt > /dev/null
