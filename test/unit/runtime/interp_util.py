"""Helpers for the interpreter tests: run IR text, read results, expect diagnostics."""

from __future__ import annotations

from typing import Any

import pytest

from streamopt.diagnostics import DiagnosticError
from streamopt.ir.verify import verify_module
from streamopt.parser import parse_module
from streamopt.passes import PassManager
from streamopt.runtime.interpreter import RunResult, run_module

DEVICES = """
util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device
util.global private @dev_c : !hal.device
"""
"""Three device globals: on the default topology dev_a and dev_b are the two CPUs sharing
host memory and dev_c the discrete device with its own memory."""

A = "#hal.device.affinity<@dev_a>"
B = "#hal.device.affinity<@dev_b>"
C = "#hal.device.affinity<@dev_c>"


def module_of(body: str, devices: bool = True, name: str = "test.mlir", verify: bool = True) -> Any:
    text = (DEVICES if devices else "") + body
    module = parse_module(text, name)
    if verify:
        verify_module(module)
    return module


def run_ir(
    body: str,
    inputs: list[str] | None = None,
    function: str | None = None,
    passes: list[str] | None = None,
    devices: bool = True,
    verify: bool = True,
    **kwargs: Any,
) -> RunResult:
    """Run IR text (device globals prepended) after `passes`. `verify=False` runs IR the
    verifier would reject (as a buggy pass could leave it)."""
    module = module_of(body, devices, verify=verify)
    if passes:
        PassManager.from_flags(passes).run(module)
    return run_module(module, function, inputs, **kwargs)


def run_error(body: str, **kwargs: Any) -> DiagnosticError:
    """Run IR that must fail; the error."""
    with pytest.raises(DiagnosticError) as caught:
        run_ir(body, **kwargs)
    return caught.value


def line_of(body: str, needle: str) -> int:
    """The line (in the text `run_ir` parses) of the first line of `body` containing
    `needle`."""
    text = DEVICES + body
    for number, line in enumerate(text.split("\n"), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in the IR")


def output_bytes(result: RunResult, index: int = 0) -> bytes:
    data = result.outputs[index].data
    assert data is not None
    return data
