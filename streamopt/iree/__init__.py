"""streamopt as a stage of IREE's compiler, and IREE's runtime as a backend of `streamopt-run`.

Everything that drives IREE's tools (`iree-compile`, `iree-opt` from the pip package
iree-base-compiler) or imports IREE's runtime (`iree.runtime` from iree-base-runtime) lives in
this package, so the rest of streamopt never needs IREE. Nothing here is imported unless
`streamopt-run --backend iree` (or a test or bench script) asks for it.

* `tools`: runs one IREE tool as a named stage; its errors become streamopt diagnostics that
  name the stage.
* `build`: the two builds of a program. *Plain*: `iree-compile` as IREE does it (a dump is
  resumed with `--compile-from=flow`). *streamopt*: `iree-compile` up to the point before
  IREE's second ElideAsyncCopies (skipped when FILE is already such a dump), streamopt's
  passes (`STREAMOPT_PASSES`: moves become calls of the runtime's `queue_move`), then
  `iree-compile --compile-from=stream`.
* `run`: runs a .vmfb on IREE's runtime with one local-task device per device the program
  names, with seeded inputs made from the function's ABI (or the user's `--input`s). Modules
  supplied at run time (`RuntimeExtension`, e.g. an implementation of an imported function)
  are put in the VM context beside the HAL module.
* `moves`: `queue_move` on IREE's HAL, the module that implements those calls: it aliases or
  copies each move at run time and counts what it did.
* `command`: what `streamopt-run FILE --backend iree` does.
"""
