"""Running a .vmfb on IREE's runtime (the pip package iree-base-runtime).

`run_vmfb` makes one local-task device per device name (distinct devices: the program's device
globals bind to them in order), loads the module beside the HAL module and any
`RuntimeExtension` modules, calls the function with the given arguments and returns its results
as host arrays. Arguments are made by `make_arguments` from the function's ABI declaration
(`iree.abi.declaration` reflection) and the user's `--input` values, or seeded from the argument
index when not given, so two builds of a program always run on the same bytes.

The VM objects are released in dependency order before returning (results first, the instance
last): the runtime crashes at exit otherwise.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from streamopt.diagnostics import UNKNOWN_LOCATION, Diagnostic, DiagnosticError
from streamopt.lazy_regex import lazy_compile
from streamopt.parser.token_values import split_top_level

SEED = 20260
"""Seed of the made-up inputs (with the argument's position)."""

DEFAULT_DIM = 3
"""What a dynamic dimension of a made-up input is."""


class RuntimeExtension(Protocol):
    """A module supplied at run time: its VM modules go into the context after the HAL module
    and before the program (so the program can import their functions). It may also define
    `release()`, which `run_vmfb` calls once the calls are done and before it lets the devices
    go (streamopt's move module frees the buffers its pools kept)."""

    def modules(self, instance: Any, devices: Sequence[Any]) -> list[Any]:
        """The `iree.runtime.VmModule`s to add, made for `instance` and `devices`."""
        ...

    def report(self) -> dict[str, Any]:
        """What the extension observed during the run (JSON-ready), merged into the report."""
        ...


class RuntimeMissing(Exception):
    """iree-base-runtime is not installed."""


def import_runtime() -> Any:
    """`iree.runtime`, or RuntimeMissing."""
    try:
        import iree.runtime as runtime
    except ImportError:
        raise RuntimeMissing("iree-base-runtime is not installed") from None
    return runtime


@dataclass
class TensorSpec:
    """One argument or result of the ABI: a tensor (`dims` None where dynamic) or a scalar."""

    text: str
    dims: tuple[int | None, ...] | None
    element: str


@dataclass
class IreeOutput:
    """One result: its text as iree-run-module prints it and its bytes."""

    text: str
    data: bytes
    shape: tuple[int, ...]
    element: str

    def key(self) -> Any:
        return (self.shape, self.element, self.data)


@dataclass
class IreeRun:
    """What one run gave."""

    function: str
    outputs: list[IreeOutput]
    devices: list[str]
    seconds: float
    extension_reports: list[dict[str, Any]] = field(default_factory=list)
    call_seconds: list[float] = field(default_factory=list)
    """Wall seconds of each call of the function alone (`repeat` calls)."""
    allocator_statistics: dict[str, int] = field(default_factory=dict)
    """IREE's allocator statistics over the call: bytes allocated and freed during it
    (`device_bytes_allocated`, ...) and the peak so far (`device_bytes_peak`). The local-task
    devices of one process share these counters, so they cover every device, and the peak is
    the call's own only in a fresh process."""


_TENSOR = lazy_compile(r"^tensor<(.*)>$")
_DECLARATION_ARGS = lazy_compile(r"@[\w$.\-]+\((.*?)\)\s*->", re.S)


def abi_arguments(declaration: str) -> list[TensorSpec]:
    """The arguments of an `iree.abi.declaration` string
    (`sync func @main(%input0: tensor<?x4xf32>, %input1: i32) -> (...)`)."""
    match = _DECLARATION_ARGS.search(declaration)
    if match is None:
        return []
    specs: list[TensorSpec] = []
    for part in split_top_level(match.group(1)):
        if ":" not in part:
            continue
        type_text = part.split(":", 1)[1].strip()
        specs.append(parse_spec(type_text))
    return specs


def parse_spec(type_text: str) -> TensorSpec:
    tensor = _TENSOR.match(type_text)
    if tensor is None:
        return TensorSpec(type_text, None, type_text)
    *dims, element = tensor.group(1).split("x")
    return TensorSpec(type_text, tuple(None if d == "?" else int(d) for d in dims), element)


def _dtype(element: str) -> np.dtype[Any]:
    # Imported when first needed: start-up time.
    from streamopt.runtime.interpreter.values import element_type

    try:
        return np.dtype(element_type(element).dtype)
    except Exception:
        raise DiagnosticError(
            Diagnostic("error", f"cannot make inputs of element type '{element}'", UNKNOWN_LOCATION)
        ) from None


def seeded_argument(spec: TensorSpec, index: int) -> Any:
    """Argument `index` when the user gives none: seeded uniform values in [-1, 1) for
    floats, small non-negative integers for integers (loop counts stay small)."""
    rng = np.random.default_rng(SEED + index)
    if spec.dims is None:
        if spec.element.startswith("f"):
            return float(np.float32(rng.uniform(-1, 1)))
        return int(rng.integers(0, 4))
    shape = tuple(d if d is not None else DEFAULT_DIM for d in spec.dims)
    dtype = _dtype(spec.element)
    if spec.element == "i1":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(dtype, np.floating):
        return rng.uniform(-1, 1, size=shape).astype(dtype)
    return rng.integers(0, 4, size=shape).astype(dtype)


def given_argument(text: str, spec: TensorSpec | None) -> Any:
    """An argument from a `--input` value (the reference backend's syntax)."""
    # Imported when first needed: start-up time.
    from streamopt.runtime.interpreter import parse_input

    try:
        value = parse_input(text)
    except ValueError as exc:
        raise DiagnosticError(Diagnostic("error", f"--input: {exc}", UNKNOWN_LOCATION)) from None
    if value.array is not None and spec is not None and spec.dims is None:
        return value.array.item()  # A scalar argument given as `i32=3`.
    if value.array is None:
        if spec is not None and spec.dims is not None:
            return np.full(
                tuple(d if d is not None else DEFAULT_DIM for d in spec.dims),
                value.number,
                dtype=_dtype(spec.element),
            )
        return value.number
    return value.array


def make_arguments(declaration: str, inputs: Sequence[str]) -> list[Any]:
    """The arguments of a function with ABI `declaration`: `inputs` in order, seeded values
    for the rest."""
    specs = abi_arguments(declaration)
    if len(inputs) > len(specs) and specs:
        raise DiagnosticError(
            Diagnostic(
                "error",
                f"{len(inputs)} inputs given; the function takes {len(specs)}",
                UNKNOWN_LOCATION,
            )
        )
    arguments: list[Any] = []
    for index, spec in enumerate(specs):
        if index < len(inputs):
            arguments.append(given_argument(inputs[index], spec))
        else:
            arguments.append(seeded_argument(spec, index))
    return arguments


def format_output(array: np.ndarray) -> IreeOutput:
    """A result as the reference backend prints it (`4xf32=1 2 3 4`)."""
    # Imported when first needed: start-up time.
    from streamopt.runtime.interpreter import format_tensor
    from streamopt.runtime.interpreter.inputs import element_of_dtype

    array = np.ascontiguousarray(array)
    element = element_of_dtype(array.dtype)
    data = array.tobytes()
    return IreeOutput(
        format_tensor(tuple(array.shape), element, data), data, tuple(array.shape), element.name
    )


def run_vmfb(
    vmfb: Path,
    devices: Sequence[str],
    function: str | None,
    inputs: Sequence[str],
    extensions: Sequence[RuntimeExtension] = (),
    repeat: int = 1,
    before_calls: Callable[[], None] | None = None,
) -> IreeRun:
    """Run `function` (default `main`) of `vmfb` with one local-task device per name in
    `devices` and return its results (of the last of `repeat` calls, each timed).
    `before_calls` runs once the program is loaded and its arguments made, just before the
    first call (a benchmark marks its memory there)."""
    import time

    rt = import_runtime()
    name = function or "main"
    started = time.perf_counter()
    instance = rt.VmInstance()
    driver = rt.get_driver("local-task")
    hal_devices = [driver.create_default_device() for _ in devices]
    try:
        hal = rt.create_hal_module(instance, devices=hal_devices)
        extra = [m for e in extensions for m in e.modules(instance, hal_devices)]
        program = rt.VmModule.copy_buffer(instance, vmfb.read_bytes())
        try:
            context = rt.VmContext(instance, modules=[hal, *extra, program])
        except (RuntimeError, ValueError) as exc:  # A missing import or device, ...
            raise DiagnosticError(
                Diagnostic(
                    "error",
                    f"[iree runtime] cannot load the program: {runtime_error_message(str(exc))}",
                    UNKNOWN_LOCATION,
                )
            ) from None
        vm_function = program.lookup_function(name)
        if vm_function is None:
            raise DiagnosticError(
                Diagnostic(
                    "error",
                    f"[iree runtime] no function '{name}' in the module (has: "
                    f"{', '.join(n for n in program.function_names if not n.startswith('__'))})",
                    UNKNOWN_LOCATION,
                )
            )
        declaration = vm_function.reflection.get("iree.abi.declaration", "")
        arguments = make_arguments(declaration, inputs)
        invoker = rt.FunctionInvoker(context, hal_devices[0], vm_function)
        before = dict(hal_devices[0].allocator.statistics)
        call_seconds: list[float] = []
        if before_calls is not None:
            before_calls()
        try:
            for _ in range(repeat):
                results = None  # The last call's results only stay alive.
                called = time.perf_counter()
                results = invoker(*arguments)
                call_seconds.append(time.perf_counter() - called)
        except Exception as exc:  # The runtime raises plain RuntimeErrors with IREE's status.
            message = runtime_error_message(str(exc)) or type(exc).__name__
            raise DiagnosticError(
                Diagnostic("error", f"[iree runtime] @{name}: {message}", UNKNOWN_LOCATION)
            ) from None
        if not isinstance(results, tuple | list):
            results = (results,) if results is not None else ()
        outputs = [format_output(np.asarray(_to_host(r))) for r in results]
        after = dict(hal_devices[0].allocator.statistics)
        statistics = {
            key: value if key.endswith("_peak") else value - before.get(key, 0)
            for key, value in after.items()
        }
        del results, invoker, vm_function, context, program, extra, hal
    finally:
        for extension in extensions:
            # What an extension still holds on the devices goes while they are there.
            release = getattr(extension, "release", None)
            if release is not None:
                release()
        gc.collect()
        del hal_devices, driver, instance
        gc.collect()
    return IreeRun(
        name,
        outputs,
        list(devices),
        time.perf_counter() - started,
        [e.report() for e in extensions],
        call_seconds,
        statistics,
    )


_PYTHON_MODULE_ERROR = "Exception raised from Python module: Traceback"
_TRACEBACK_FRAME = lazy_compile(r"^\s+File |^\s")


def runtime_error_message(text: str) -> str:
    """The first line of an error IREE's runtime raised, or, when a module supplied in Python
    raised it, that exception (`MoveUnavailable: ...`) without the traceback IREE wraps it in."""
    lines = text.strip().splitlines()
    if not lines:
        return ""
    first = lines[0].removeprefix("Error invoking function: ")
    if _PYTHON_MODULE_ERROR in first:
        for line in lines[1:]:
            if not _TRACEBACK_FRAME.match(line):
                return line.split("; while calling import", 1)[0].strip()
    return first.rstrip("; ")


def _to_host(value: Any) -> Any:
    to_host = getattr(value, "to_host", None)
    return to_host() if to_host is not None else value
