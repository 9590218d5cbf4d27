"""Arguments of the function a run calls: parsed from `--input` or made up deterministically.

`--input` values follow iree-run-module: `4xf32=1.5` (a splat), `2x2xi32=1 2 3 4` (or commas),
`4xf32` (zeros), `i32=3` or `3` (a scalar), `@file.npy` or `file.npy`.

Without inputs every argument gets contents that depend only on the function's signature: the
tensor types of the ABI declaration (`iree.reflection = {iree.abi.declaration = "sync func
@main(%input0: tensor<4xf32>, ...)"}`), else what the function asserts about each buffer view
(`hal.buffer_view.assert` shape and element type), else the argument's own type. Dynamic
dimensions get `DEFAULT_DIM`, integer scalars `DEFAULT_INTEGER`, and tensor elements a fixed
sawtooth of small values, so every form of a program sees the same arguments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from streamopt.diagnostics import Location, error
from streamopt.ir.core import Operation, Value
from streamopt.ir.types import FloatType, IndexType, IntegerType, ResourceType, StringAttr, Type
from streamopt.parser.token_values import split_top_level

from .values import BufferView, ElementType, TensorType, element_type, parse_tensor_type

DEFAULT_DIM = 4
DEFAULT_INTEGER = 2
DEFAULT_FLOAT = 1.5
DEFAULT_RESOURCE_SIZE = 16


@dataclass
class HostValue:
    """An input as given: an array with its element type (rank 0 for scalars), or an untyped
    number."""

    array: np.ndarray | None
    element: ElementType | None
    number: float | int | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.array.shape) if self.array is not None else ()


_INPUT = re.compile(r"^((?:(?:\d+)x)*)([a-z]\w*)(?:=(.*))?$", re.S)


def parse_input(text: str) -> HostValue:
    """Parse one `--input` value (see the module docstring). Raises ValueError."""
    text = text.strip()
    path_text = text[1:] if text.startswith("@") else text
    if path_text.endswith(".npy"):
        array = np.load(Path(path_text), allow_pickle=False)
        return HostValue(array, element_of_dtype(array.dtype))
    try:
        return HostValue(None, None, int(text, 0))
    except ValueError:
        pass
    try:
        return HostValue(None, None, float(text))
    except ValueError:
        pass
    match = _INPUT.match(text)
    if match is None:
        raise ValueError(f"cannot read input '{text}' (expected e.g. 4xf32=1.5 or file.npy)")
    dims = tuple(int(d) for d in match.group(1).split("x")[:-1])
    element = element_type(match.group(2))
    count = int(np.prod(dims)) if dims else 1
    body = match.group(3)
    if body is None or not body.strip():
        values: list[float] = [0] * count
    else:
        words = [w for w in re.split(r"[\s,\[\]]+", body.strip()) if w]
        values = [_number(w, element) for w in words]
        if len(values) == 1:
            values = values * count
        if len(values) != count:
            raise ValueError(f"input '{text}' has {len(values)} values for {count} elements")
    return HostValue(_array(values, element, dims), element)


def _number(word: str, element: ElementType) -> float:
    if word in ("true", "false"):
        return 1 if word == "true" else 0
    return float(word) if element.is_float else int(word, 0)


def _array(values: list[Any], element: ElementType, dims: tuple[int, ...]) -> np.ndarray:
    if element.name == "bf16":
        bits = np.asarray(values, dtype=np.float32).view(np.uint32) >> 16
        return bits.astype(np.uint16).reshape(dims)
    return np.asarray(values).astype(element.dtype).reshape(dims)


def element_of_dtype(dtype: np.dtype) -> ElementType:
    """The element type of a numpy dtype (raises ValueError for others)."""
    names = {
        "float32": "f32", "float16": "f16", "float64": "f64", "int8": "i8", "int16": "i16",
        "int32": "i32", "int64": "i64", "uint8": "ui8", "uint16": "ui16", "uint32": "ui32",
        "uint64": "ui64", "bool": "i1",
    }  # fmt: skip
    name = names.get(dtype.name)
    if name is None:
        raise ValueError(f"unsupported .npy element type {dtype}")
    return element_type(name)


# -- argument specs ---------------------------------------------------------------------------


@dataclass
class ArgumentSpec:
    """What one argument should be: a tensor (as a buffer view), a scalar, a resource of a
    size, a fence, or a raw buffer."""

    type: Type
    tensor: TensorType | None = None
    size: int | None = None


def abi_declaration(function: Operation) -> list[str] | None:
    """The argument types of the function's `iree.abi.declaration`, if it has one."""
    reflection = function.attributes.get("iree.reflection")
    entries = getattr(reflection, "entries", None)
    declaration = entries.get("iree.abi.declaration") if entries else None
    if not isinstance(declaration, StringAttr):
        return None
    text = declaration.value
    start = text.find("(")
    if start < 0:
        return None
    depth = 0
    end = start
    for end in range(start, len(text)):
        if text[end] in "(<[{":
            depth += 1
        elif text[end] in ")>]}":
            depth -= 1
            if depth == 0:
                break
    return [
        part.split(":", 1)[1].strip() if ":" in part else part.strip()
        for part in split_top_level(text[start + 1 : end])
        if part.strip()
    ]


def argument_specs(function: Operation, interp: Any) -> list[ArgumentSpec]:
    """One spec per argument of `function` (see the module docstring)."""
    arguments: list[Value] = list(function.regions[0].blocks[0].arguments)
    declared = abi_declaration(function)
    declared_tensors: list[TensorType | None] = []
    if declared is not None and len(declared) == len(arguments):
        for text in declared:
            try:
                declared_tensors.append(parse_tensor_type(text) if "tensor<" in text else None)
            except ValueError:
                declared_tensors.append(None)
    specs: list[ArgumentSpec] = []
    for index, argument in enumerate(arguments):
        type = argument.type
        assert type is not None
        spec = ArgumentSpec(type)
        if type.text == "!hal.buffer_view":
            tensor = declared_tensors[index] if declared_tensors else None
            spec.tensor = tensor or _asserted_tensor(argument, interp)
        elif isinstance(type, ResourceType) or type.text == "!hal.buffer":
            spec.size = _resource_size(argument, arguments, interp)
        specs.append(spec)
    return specs


def _asserted_tensor(argument: Value, interp: Any) -> TensorType | None:
    """The tensor a `hal.buffer_view.assert` of `argument` checks for."""
    for use in argument.uses:
        op = use.operation
        if op.name != "hal.buffer_view.assert" or use.index != 0:
            continue
        element_op = op.operands[1].defining_op
        element_text = getattr(getattr(element_op, "element_type", None), "text", None)
        if element_text is None:
            return None
        dims = [_constant_or_none(v) for v in op.operands[3:]]
        return TensorType(tuple(dims), element_type(element_text))
    return None


def _constant_or_none(value: Value) -> int | None:
    op = value.defining_op
    if op is not None and op.name == "arith.constant":
        return getattr(op, "int_value", None)
    return None


def _resource_size(argument: Value, arguments: list[Value], interp: Any) -> int:
    """The size a use of `argument` gives it (a constant, or DEFAULT_RESOURCE_SIZE)."""
    for use in argument.uses:
        size = use.operation.size_of_operand(use.index)
        if size is None:
            continue
        constant = _constant_or_none(size)
        if constant is not None:
            return constant
        if size in arguments:
            return DEFAULT_RESOURCE_SIZE
    return DEFAULT_RESOURCE_SIZE


# -- making argument values -------------------------------------------------------------------


def default_array(tensor: TensorType, index: int) -> np.ndarray:
    """Deterministic contents for argument `index`: small values in a sawtooth."""
    shape = tensor.with_dynamic([DEFAULT_DIM] * tensor.dynamic_count)
    count = int(np.prod(shape)) if shape else 1
    ramp = (np.arange(count, dtype=np.int64) * 7 + 3 * (index + 1)) % 17 - 8
    element = tensor.element
    if element.name == "bf16":
        return _array(list(ramp / 4.0), element, shape)
    if element.is_float:
        return (ramp / 4.0).astype(element.dtype).reshape(shape)
    if element.name == "i1":
        return (ramp > 0).reshape(shape)
    return ramp.astype(element.dtype).reshape(shape)


def default_bytes(size: int, index: int) -> bytes:
    return (
        ((np.arange(size, dtype=np.int64) * 7 + 3 * (index + 1)) % 251).astype(np.uint8).tobytes()
    )


def make_arguments(
    interp: Any,
    function: Operation,
    inputs: list[HostValue] | None,
    location: Location,
) -> list[Any]:
    """The runtime values to call `function` with."""
    specs = argument_specs(function, interp)
    arguments: list[Value] = list(function.regions[0].blocks[0].arguments)
    if inputs is not None and len(inputs) != len(specs):
        raise error(
            f"@{getattr(function, 'sym_name', '?')} takes {len(specs)} arguments, "
            f"{len(inputs)} --input values were given",
            location,
        )
    fence_positions = [i for i, s in enumerate(specs) if s.type.text == "!hal.fence"]
    values: list[Any] = []
    for index, (spec, argument) in enumerate(zip(specs, arguments)):
        given = inputs[index] if inputs is not None else None
        values.append(_argument(interp, spec, argument, given, index, fence_positions, location))
    return values


def _argument(
    interp: Any,
    spec: ArgumentSpec,
    argument: Value,
    given: HostValue | None,
    index: int,
    fence_positions: list[int],
    location: Location,
) -> Any:
    type = spec.type
    text = type.text
    if text == "!stream.timepoint":
        # Imported when first needed: start-up time.
        from streamopt.runtime.semaphores import Fence

        return Fence(())
    if text == "!hal.fence":
        # Coarse-fences ABI: the last fence is signalled by the callee, the others waited on.
        if index == fence_positions[-1] and len(fence_positions) > 1:
            return interp.runtime.create_fence("signal")
        # Imported when first needed: start-up time.
        from streamopt.runtime.semaphores import Fence

        return Fence(())
    if isinstance(type, IntegerType | IndexType):
        value = _scalar(given, DEFAULT_INTEGER, location, index)
        from .std_ops import wrap

        return wrap(int(value), type)
    if isinstance(type, FloatType):
        return float(_scalar(given, DEFAULT_FLOAT, location, index))
    device = _device_for(interp, argument)
    if text == "!hal.buffer_view":
        array, element = _tensor_value(spec, given, index, location)
        buffer = _host_buffer(interp, device, array.tobytes())
        return BufferView(buffer, tuple(array.shape), element.code)
    if isinstance(type, ResourceType) or text == "!hal.buffer":
        if given is not None and given.array is not None:
            data = given.array.tobytes()
        else:
            data = default_bytes(spec.size or DEFAULT_RESOURCE_SIZE, index)
        buffer = _host_buffer(interp, device, data)
        if text == "!hal.buffer":
            return buffer
        # A public function borrows its resource arguments from the caller.
        resource = interp.import_resource(buffer, consume=False)
        lifetime = type.lifetime if isinstance(type, ResourceType) else "*"
        return resource.view(lifetime=lifetime)
    raise error(f"cannot make an argument of type '{text}' (argument {index})", location)


def _scalar(given: HostValue | None, default: float, location: Location, index: int) -> Any:
    if given is None:
        return default
    if given.number is not None:
        return given.number
    if given.array is not None and given.array.size == 1:
        return given.array.reshape(()).item()
    raise error(f"argument {index} is a scalar, the input is a tensor", location)


def _tensor_value(
    spec: ArgumentSpec, given: HostValue | None, index: int, location: Location
) -> tuple[np.ndarray, ElementType]:
    if given is not None:
        if given.array is None or given.element is None:
            if spec.tensor is None:
                raise error(f"argument {index}: give a typed input such as 4xf32=1", location)
            array = np.full(
                spec.tensor.with_dynamic([DEFAULT_DIM] * spec.tensor.dynamic_count),
                given.number,
            ).astype(spec.tensor.element.dtype)
            return array, spec.tensor.element
        return given.array, given.element
    if spec.tensor is None:
        raise error(
            f"argument {index} is a buffer view of unknown shape: give it with --input "
            "(no iree.abi.declaration or hal.buffer_view.assert says its type)",
            location,
        )
    return default_array(spec.tensor, index), spec.tensor.element


def _device_for(interp: Any, argument: Value) -> Any:
    """The device that first imports `argument` (where its memory is allocated)."""
    for use in argument.uses:
        op = use.operation
        if op.name == "stream.tensor.import":
            device, _ = interp.op_affinity(op)
            return device
    return interp.default_device


def _host_buffer(interp: Any, device: Any, data: bytes) -> Any:
    """A buffer the caller owns, allocated and filled before the call."""
    from .machine import lifetime_params

    return device.allocator.allocate(lifetime_params("external"), len(data), data)
