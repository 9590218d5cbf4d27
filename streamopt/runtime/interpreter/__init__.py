"""An interpreter for async-, cmd- and hal-level IR on the reference runtime.

```python
from streamopt.parser import parse_module
from streamopt.runtime.interpreter import run_module

result = run_module(parse_module(text, "prog.mlir"))   # no inputs: made up from the ABI
print(result.outputs[0].text)                          # 4xf32=... as iree-run-module prints
report = result.report()                               # bytes copied, peak memory, moves, ...
```

Modules: `machine` (the core: frames, regions, devices, errors), `std_ops` (util, arith, scf),
`async_ops` (stream async, tensor and timepoint ops), `cmd_ops` (stream resource and cmd ops),
`hal_ops` (hal ops), `inputs` (arguments), `kernels` (what dispatches run), `report` (the
figures a run reports). Errors are `DiagnosticError`s at the op that failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from streamopt.diagnostics import UNKNOWN_LOCATION, DiagnosticError, error
from streamopt.ir.module import Module
from streamopt.runtime.buffers import Buffer
from streamopt.runtime.kernels import Kernel
from streamopt.runtime.semaphores import Fence
from streamopt.runtime.status import HalError
from streamopt.runtime.topology import Topology

from . import async_ops, cmd_ops, hal_ops, std_ops  # noqa: F401  (register the handlers)
from .inputs import HostValue, make_arguments, parse_input
from .machine import Interpreter, hal_diagnostic
from .report import run_report
from .values import BufferView, ElementType, Resource, element_type_from_code

__all__ = [
    "HostValue",
    "Interpreter",
    "Output",
    "RunResult",
    "parse_input",
    "run_module",
    "select_function",
]


@dataclass
class Output:
    """One result of the called function: its bytes (None for scalars) and a printable form."""

    type: str
    text: str
    data: bytes | None = None
    value: Any = None

    def key(self) -> Any:
        """What two runs must agree on for this output."""
        return self.data if self.data is not None else repr(self.value)


@dataclass
class RunResult:
    """What a run produced and the interpreter (with its runtime) that produced it."""

    function: str
    outputs: list[Output]
    interpreter: Interpreter
    arguments: list[Any] = field(default_factory=list)

    def report(self) -> dict[str, Any]:
        return run_report(self)


def select_function(module: Module, name: str | None) -> str:
    """The function to run: `name`, else `main`, else the only public function with a body,
    else the first public one."""
    # Imported when first needed: start-up time.
    from streamopt.dialects.util import FuncOp

    functions = [op for op in module.op.body.ops if isinstance(op, FuncOp)]
    if name is not None:
        name = name.lstrip("@")
        if not any(f.sym_name == name for f in functions):
            raise error(f"no function '@{name}' in the module", UNKNOWN_LOCATION)
        return name
    public = [f for f in functions if f.is_public and not f.is_declaration]
    for function in public:
        if function.sym_name == "main":
            return "main"
    if public:
        return public[0].sym_name
    raise error("the module has no public function to run", UNKNOWN_LOCATION)


def run_module(
    module: Module,
    function: str | None = None,
    inputs: Sequence[str | HostValue] | None = None,
    topology: Topology | None = None,
    kernels: dict[str, Kernel] | None = None,
) -> RunResult:
    """Run `function` of `module` on a fresh runtime and read its results.

    Raises DiagnosticError (at the failing op) for a use after move, a runtime failure, an
    unsupported op, or bad inputs.
    """
    interp = Interpreter(module, topology, kernels)
    name = select_function(module, function)
    target = interp.lookup_function(name, UNKNOWN_LOCATION)
    host_values: list[HostValue] | None = None
    if inputs is not None and len(inputs):
        host_values = []
        for item in inputs:
            if isinstance(item, HostValue):
                host_values.append(item)
                continue
            try:
                host_values.append(parse_input(item))
            except (ValueError, OSError) as exc:
                raise error(f"--input {item}: {exc}", UNKNOWN_LOCATION) from None
    try:
        interp.run_initializers()
        arguments = make_arguments(interp, target, host_values, target.location)
        results = interp.call(name, arguments, target.location)
        for value in arguments:
            if isinstance(value, Fence) and value.timepoints:
                value.wait()
        interp.finish()
        outputs = [_output(value, result_type) for value, result_type in zip(
            results, _result_types(target))]  # fmt: skip
    except DiagnosticError:
        raise
    except HalError as exc:
        raise hal_diagnostic(exc, target.location) from None
    return RunResult(name, outputs, interp, arguments)


def _result_types(function: Any) -> list[str]:
    header = getattr(function, "header", None)
    types = getattr(header, "result_types", None) or []
    return [t.text for t in types]


def _output(value: Any, type_text: str) -> Output:
    if isinstance(value, BufferView):
        data = value.buffer.read()
        return Output(type_text, format_view(value, data), data)
    if isinstance(value, Resource):
        data = value.buffer.read()
        return Output(type_text, f"{type_text}{{{len(data)}}} = {format_bytes(data)}", data)
    if isinstance(value, Buffer):
        data = value.read()
        return Output(type_text, f"!hal.buffer{{{len(data)}}} = {format_bytes(data)}", data)
    if isinstance(value, Fence):
        return Output(type_text, f"{type_text} (reached)", None, "fence")
    if isinstance(value, int | float):
        return Output(type_text, f"{type_text}={value}", None, value)
    return Output(type_text, f"{type_text}: {value!r}", None, repr(value))


MAX_PRINTED_ELEMENTS = 32


def format_view(view: BufferView, data: bytes) -> str:
    """`4xf32=1 2 3 4`, as iree-run-module prints a buffer view (long ones elided)."""
    element = element_type_from_code(view.element_type)
    if element is None:
        dims = "x".join(str(d) for d in view.shape)
        prefix = f"{dims}x" if dims else ""
        return f"{prefix}<{view.element_type:#x}>={format_bytes(data)}"
    return format_tensor(view.shape, element, data)


def format_tensor(shape: tuple[int, ...], element: ElementType, data: bytes) -> str:
    """`4xf32=1 2 3 4`: the contents `data` of a tensor of `shape` and `element` (long ones
    elided), as iree-run-module prints them; every backend prints results this way."""
    dims = "x".join(str(d) for d in shape)
    prefix = f"{dims}x" if dims else ""
    if element.name == "bf16":
        raw = np.frombuffer(data, dtype=np.uint16).astype(np.uint32) << 16
        values = raw.view(np.float32)
    else:
        values = np.frombuffer(data, dtype=element.dtype)
    shown = [_format_number(v) for v in values[:MAX_PRINTED_ELEMENTS]]
    if len(values) > MAX_PRINTED_ELEMENTS:
        shown.append(f"... ({len(values)} elements)")
    return f"{prefix}{element.name}={' '.join(shown)}"


def _format_number(value: Any) -> str:
    if isinstance(value, np.floating):
        return f"{float(value):g}"
    if isinstance(value, np.bool_):
        return str(int(value))
    return str(value)


def format_bytes(data: bytes, limit: int = 32) -> str:
    """Hex of the first `limit` bytes, and a digest of all of them when longer."""
    import hashlib

    if len(data) <= limit:
        return "0x" + data.hex()
    digest = hashlib.blake2b(data, digest_size=8).hexdigest()
    return f"0x{data[:limit].hex()}... (blake2b {digest})"
