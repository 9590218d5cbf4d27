"""An application that ships streamopt's moves: it loads a .vmfb built once by

    python -m streamopt.iree.build examples/shipping/model.mlir -o model.vmfb

and runs it with plain `iree.runtime` code, adding streamopt's move module (which implements
the `streamopt.queue_move.*` functions the .vmfb imports) beside the HAL module. Run it as
`python examples/shipping/app.py model.vmfb`; see docs/shipping.md.
"""

from __future__ import annotations

import sys

import iree.runtime as rt
import numpy as np

from streamopt.iree.moves import QueueMoves

DEVICES = ["dev_a", "dev_b"]
"""The program's devices, in the order the build printed them."""


def run(vmfb: str, *inputs: np.ndarray) -> tuple[np.ndarray, dict[str, object]]:
    """Call `main` of `vmfb` on `inputs`; return its result and what the moves did."""
    instance = rt.VmInstance()
    driver = rt.get_driver("local-task")
    devices = [driver.create_default_device() for _ in DEVICES]
    moves = QueueMoves(DEVICES)
    hal = rt.create_hal_module(instance, devices=devices)
    program = rt.VmModule.mmap(instance, vmfb)
    context = rt.VmContext(instance, modules=[hal, *moves.modules(instance, devices), program])
    main = rt.FunctionInvoker(context, devices[0], program.lookup_function("main"))
    output = main(*inputs)
    # A host copy: `to_host()` maps the device buffer, which goes with the devices.
    result = np.array(output.to_host())
    # Let go of the VM before the devices (result, function, context, modules), and of the
    # buffers the move module kept for reuse while the devices are there.
    del output, main, context, program, hal
    moves.release()
    return result, moves.report()


def inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    x = rng.uniform(-1, 1, (64, 256)).astype(np.float32)
    w0, w1 = (rng.uniform(-0.1, 0.1, (256, 256)).astype(np.float32) for _ in range(2))
    return [x, w0, w1]


if __name__ == "__main__":
    result, report = run(sys.argv[1], *inputs())
    print(f"result: {result.shape} {result.dtype}, sum {float(result.sum()):.6f}")
    print(f"moves aliased {report['moves_aliased']}, copied {report['moves_copied']}")
