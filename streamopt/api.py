"""streamopt from Python: what the `streamopt` command does, one call each.

    import streamopt

    module = streamopt.parse_file("examples/two-devices.mlir")
    manager = streamopt.run_passes(module, "elide-async-copies,lower-to-hal")
    manager.statistics["elide-async-copies"]["num-transfers-moved"]  # 2
    text = str(module)  # or streamopt.print(module, debug_info=True)

Errors in the input, and what a pass or the verifier reports, raise `DiagnosticError`, whose
`str()` is what the command prints (`file:line:col: error: message`, the line, a caret) and
whose `diagnostics` hold each one. docs/python-api.md documents the API with examples the tests
run; these names are re-exported by the `streamopt` package.
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike

from streamopt.diagnostics import read_source
from streamopt.ir.core import Operation
from streamopt.ir.module import Module
from streamopt.passes import PASS_INDEX, PassManager, parse_pipeline


def parse(
    text: str,
    filename: str = "<input>",
    *,
    verify: bool = True,
    allow_unregistered_dialect: bool = False,
) -> Module:
    """The module `text` holds, verified unless `verify` is false. `filename` names the text
    in diagnostics. Raises DiagnosticError for what streamopt would report."""
    # Imported when first needed: start-up time.
    from streamopt.ir.verify import verify_module
    from streamopt.parser import parse_module

    module = parse_module(text, filename, allow_unregistered_dialect=allow_unregistered_dialect)
    if verify:
        verify_module(module)
    return module


def parse_file(
    path: str | PathLike[str],
    *,
    verify: bool = True,
    allow_unregistered_dialect: bool = False,
) -> Module:
    """The module in file `path` (UTF-8, read as the command reads it), see `parse`."""
    with open(path, "rb") as handle:
        text = read_source(handle)
    return parse(
        text, str(path), verify=verify, allow_unregistered_dialect=allow_unregistered_dialect
    )


def verify(module: Module) -> None:
    """Raise DiagnosticError listing what the verifier finds wrong with `module`."""
    # Imported when first needed: start-up time.
    from streamopt.ir.verify import verify_module

    verify_module(module)


def run_passes(
    module: Module, pipeline: str | Sequence[str], *, verify_each: bool = True
) -> PassManager:
    """Run the passes `pipeline` names on `module`, in place and in order, and return the
    PassManager that ran them (its `statistics`, `statistics_report()` and `seconds`).

    `pipeline` is `--pass-pipeline` text (`"cse,elide-async-copies"`,
    `"builtin.module(cse)"`) or a list of pass flags (with or without their `--`). Raises
    ValueError for a pass streamopt does not have, DiagnosticError for what a pass, or the
    verifier after each one (`verify_each`), reports."""
    if isinstance(pipeline, str):
        flags = parse_pipeline(pipeline)
    else:
        flags = [flag.removeprefix("--") for flag in pipeline]
        for flag in flags:
            if flag not in PASS_INDEX:
                raise ValueError(f"unknown pass '{flag}'")
    manager = PassManager.from_flags(flags, verify_each=verify_each)
    manager.run(module)
    return manager


def print(item: Module | Operation, *, debug_info: bool = False) -> str:
    """The text of a module (as `streamopt` prints it) or of one op, with locations when
    `debug_info` (`--mlir-print-debuginfo`)."""
    # Imported when first needed: start-up time.
    from streamopt.printer import print_module, print_operation

    if isinstance(item, Module):
        return print_module(item, debug_info) + "\n"
    return print_operation(item, debug_info)


def pass_names() -> dict[str, str]:
    """Every pass flag (without `--`) with its one-line summary, in `--help` order."""
    return {flag: entry.summary for flag, entry in PASS_INDEX.items()}
