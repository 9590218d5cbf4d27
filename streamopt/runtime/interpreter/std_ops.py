"""util, arith and scf ops (cf branches are terminators, handled by the core).

Integers are Python ints kept in two's complement range of their type (i1 as 0 or 1, index as
64 bits); floats are Python floats rounded to their type's precision.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from streamopt.diagnostics import error
from streamopt.dialects.arith import (
    CMPF_PREDICATES,
    BinaryOp,
    CmpFOp,
    CmpIOp,
    integer_width,
)
from streamopt.dialects.scf import ForOp, IfOp, IndexSwitchOp, WhileOp
from streamopt.dialects.util import CallOp, GlobalLoadOp, GlobalOp, GlobalStoreOp
from streamopt.dialects.util.buffers import BufferConstantOp
from streamopt.ir.core import Operation
from streamopt.ir.types import (
    BoolAttr,
    FloatAttr,
    FloatType,
    IndexType,
    IntegerAttr,
    IntegerType,
    Type,
)

from .constants import serialized_bytes
from .machine import Frame, Interpreter, handles
from .values import HostBuffer, Resource


def wrap(value: int, type: Type | None) -> int:
    """`value` in the range of integer `type` (signed two's complement; i1 as 0/1)."""
    width = integer_width(type)
    if width is None:
        if isinstance(type, IntegerType):
            width = type.width
        else:
            return value
    if width == 1:
        return value & 1
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def unsigned(value: int, type: Type | None) -> int:
    width = integer_width(type) or (type.width if isinstance(type, IntegerType) else 64)
    return value & ((1 << width) - 1)


def round_float(value: float, type: Type | None) -> float:
    """`value` rounded to the precision of float `type`."""
    text = type.text if type is not None else "f64"
    if text == "f32":
        return float(np.float32(value))
    if text == "f16":
        return float(np.float16(value))
    if text == "bf16":
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return float(struct.unpack("<f", struct.pack("<I", bits))[0])
    return float(value)


def float_bits(value: float, type: Type | None) -> int:
    """The bit pattern of `value` as float `type` (an unsigned int)."""
    text = type.text if type is not None else "f64"
    if text == "f32":
        return int(np.float32(value).view(np.uint32))
    if text == "f16":
        return int(np.float16(value).view(np.uint16))
    if text == "bf16":
        return int(np.float32(round_float(value, type)).view(np.uint32)) >> 16
    return int(np.float64(value).view(np.uint64))


def float_from_bits(bits: int, type: Type | None) -> float:
    text = type.text if type is not None else "f64"
    if text == "f32":
        return float(np.uint32(bits & 0xFFFFFFFF).view(np.float32))
    if text == "f16":
        return float(np.uint16(bits & 0xFFFF).view(np.float16))
    if text == "bf16":
        return float(np.uint32((bits & 0xFFFF) << 16).view(np.float32))
    return float(np.uint64(bits & (2**64 - 1)).view(np.float64))


def scalar_bits(value: Any, type: Type | None) -> int:
    """A scalar's bit pattern (floats bit-cast, integers unsigned)."""
    if isinstance(type, FloatType) or isinstance(value, float):
        return float_bits(float(value), type)
    return unsigned(int(value), type)


def bit_width(type: Type | None) -> int:
    if isinstance(type, IntegerType):
        return type.width
    if isinstance(type, IndexType):
        return 64
    if isinstance(type, FloatType):
        return type.width or 32
    return 64


# -- arith ----------------------------------------------------------------------------------


@handles("arith.constant")
def _constant(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    value = op.attributes["value"]
    type = op.results[0].type
    if isinstance(value, BoolAttr):
        return [int(value.value)]
    if isinstance(value, IntegerAttr):
        return [wrap(value.value, type)]
    if isinstance(value, FloatAttr):
        return [round_float(value.value, type)]
    raise error(f"the interpreter supports scalar constants only, not '{value.text}'", op.location)


_FLOAT_BINARY: dict[str, Callable[[float, float], float]] = {
    "arith.addf": lambda a, b: a + b,
    "arith.subf": lambda a, b: a - b,
    "arith.mulf": lambda a, b: a * b,
    "arith.divf": lambda a, b: a / b if b else (float("nan") if a == 0 else np.inf * np.sign(a)),
    "arith.remf": lambda a, b: float(np.fmod(a, b)),
    "arith.maximumf": lambda a, b: float(np.maximum(a, b)),
    "arith.minimumf": lambda a, b: float(np.minimum(a, b)),
    "arith.maxnumf": lambda a, b: float(np.fmax(a, b)),
    "arith.minnumf": lambda a, b: float(np.fmin(a, b)),
}


def _binary(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, BinaryOp)
    result_type = op.result.type
    lhs, rhs = interp.get(frame, op.lhs, op), interp.get(frame, op.rhs, op)
    if op.name in _FLOAT_BINARY:
        return [round_float(_FLOAT_BINARY[op.name](float(lhs), float(rhs)), result_type)]
    fold = type(op).constant_fold
    width = integer_width(result_type) or 64
    assert fold is not None
    folded = fold(unsigned(int(lhs), result_type), unsigned(int(rhs), result_type), width)
    if folded is None:
        raise error(
            f"'{op.name}' is undefined for {lhs} and {rhs} (division by zero?)", op.location
        )
    return [wrap(folded, result_type)]


def _register_binaries() -> None:
    # Imported when first needed: start-up time.
    from streamopt.dialects import load_all

    for name, cls in load_all().items():
        if isinstance(cls, type) and issubclass(cls, BinaryOp):
            handles(name)(_binary)


_register_binaries()


@handles("arith.cmpi")
def _cmpi(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, CmpIOp)
    type = op.lhs.type
    lhs, rhs = interp.integer(frame, op.lhs, op), interp.integer(frame, op.rhs, op)
    predicate = op.predicate
    if predicate.startswith("u"):
        lhs, rhs = unsigned(lhs, type), unsigned(rhs, type)
        predicate = predicate[1:]
    elif predicate.startswith("s"):
        lhs, rhs = wrap(lhs, type), wrap(rhs, type)
        predicate = predicate[1:]
    result = {
        "eq": lhs == rhs,
        "ne": lhs != rhs,
        "lt": lhs < rhs,
        "le": lhs <= rhs,
        "gt": lhs > rhs,
        "ge": lhs >= rhs,
    }[predicate]
    return [int(result)]


@handles("arith.cmpf")
def _cmpf(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, CmpFOp)
    lhs = float(interp.get(frame, op.lhs, op))
    rhs = float(interp.get(frame, op.rhs, op))
    predicate = op.predicate
    assert predicate in CMPF_PREDICATES
    unordered = np.isnan(lhs) or np.isnan(rhs)
    if predicate in ("false", "true"):
        return [int(predicate == "true")]
    if predicate == "ord":
        return [int(not unordered)]
    if predicate == "uno":
        return [int(unordered)]
    relation = {
        "eq": lhs == rhs,
        "gt": lhs > rhs,
        "ge": lhs >= rhs,
        "lt": lhs < rhs,
        "le": lhs <= rhs,
        "ne": lhs != rhs,
    }[predicate[1:]]
    if predicate[0] == "o":
        return [int(relation and not unordered)]
    return [int(relation or unordered)]


@handles("arith.select")
def _select(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    condition = interp.integer(frame, op.operands[0], op)
    return [interp.get(frame, op.operands[1] if condition else op.operands[2], op)]


@handles(
    "arith.index_cast",
    "arith.index_castui",
    "arith.extui",
    "arith.extsi",
    "arith.trunci",
    "arith.sitofp",
    "arith.uitofp",
    "arith.fptosi",
    "arith.fptoui",
    "arith.extf",
    "arith.truncf",
    "arith.bitcast",
)
def _cast(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    source = op.operands[0]
    value = interp.get(frame, source, op)
    source_type, result_type = source.type, op.results[0].type
    name = op.name
    if name in ("arith.index_castui", "arith.extui"):
        return [wrap(unsigned(int(value), source_type), result_type)]
    if name in ("arith.index_cast", "arith.extsi", "arith.trunci"):
        return [wrap(int(value), result_type)]
    if name == "arith.sitofp":
        return [round_float(float(wrap(int(value), source_type)), result_type)]
    if name == "arith.uitofp":
        return [round_float(float(unsigned(int(value), source_type)), result_type)]
    if name in ("arith.fptosi", "arith.fptoui"):
        return [wrap(int(float(value)), result_type)]
    if name in ("arith.extf", "arith.truncf"):
        return [round_float(float(value), result_type)]
    # bitcast: same width, reinterpret the bits.
    bits = scalar_bits(value, source_type)
    if isinstance(result_type, FloatType):
        return [float_from_bits(bits, result_type)]
    return [wrap(bits, result_type)]


# -- util -----------------------------------------------------------------------------------


def initialize_globals(interp: Interpreter) -> None:
    """Give every global its initial value: device globals their runtime device, scalars
    their attribute, others None until an initializer stores to them."""
    for op in interp.module_op.body.ops:
        if not isinstance(op, GlobalOp):
            continue
        name = op.sym_name
        if op.global_type.text == "!hal.device":
            interp.globals[name] = interp.runtime.devices.get(name, interp.default_device)
            continue
        value = op.initial_value
        if isinstance(value, BoolAttr):
            interp.globals[name] = int(value.value)
        elif isinstance(value, IntegerAttr):
            interp.globals[name] = wrap(value.value, op.global_type)
        elif isinstance(value, FloatAttr):
            interp.globals[name] = round_float(value.value, op.global_type)
        else:
            interp.globals[name] = None


@handles("util.global.load")
def _global_load(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, GlobalLoadOp)
    name = op.global_
    if name not in interp.globals:
        raise error(f"no global '@{name}'", op.location)
    value = interp.globals[name]
    if value is None:
        raise error(f"global '@{name}' is read before anything stored to it", op.location)
    return [value]


@handles("util.global.store")
def _global_store(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, GlobalStoreOp)
    value = interp.get(frame, op.value, op)
    # A global holds its resource for the rest of the run (there is no module unload).
    interp.hold_forever(value)
    interp.globals[op.global_] = value
    return []


@handles("util.call")
def _call(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, CallOp)
    arguments = interp.operands(frame, op)
    results = interp.call(op.callee, arguments, op.location)
    return _hand_over(interp, results)


def _hand_over(interp: Interpreter, values: Sequence[Any]) -> list[Any]:
    """Values held once for the receiver, as results the core binds: the core's binding
    takes a reference of its own, so the hold is dropped once bound (after the handler
    returns), which `release_holds` does."""
    interp.pending_drops.extend(values)
    return list(values)


@handles("util.optimization_barrier", "util.assume.int")
def _identity(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    values = interp.operands(frame, op)
    return [v.view() if isinstance(v, Resource) else v for v in values]


@handles("util.buffer.constant")
def _buffer_constant(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, BufferConstantOp)
    return [HostBuffer(bytearray(serialized_bytes(interp.module, op.value, op.location)))]


@handles("util.null")
def _null(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return [None]


@handles("util.unfoldable_constant")
def _unfoldable_constant(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return list(_constant(interp, frame, op) or [])


@handles("util.global", "util.func", "util.initializer", "stream.executable", "hal.executable")
def _module_level(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return []


# -- scf ------------------------------------------------------------------------------------


@handles("scf.if")
def _if(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, IfOp)
    condition = interp.integer(frame, op.condition, op)
    region = op.regions[0] if condition else op.regions[1]
    if not region.blocks:
        return []
    return _hand_over(interp, interp.run_nested(frame, region, []))


@handles("scf.index_switch")
def _index_switch(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, IndexSwitchOp)
    selector = interp.integer(frame, op.argument, op)
    region = op.default_region
    for value, case in zip(op.case_values, op.case_regions):
        if value == selector:
            region = case
            break
    return _hand_over(interp, interp.run_nested(frame, region, []))


@handles("scf.for")
def _for(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, ForOp)
    lower = interp.integer(frame, op.lower_bound, op)
    upper = interp.integer(frame, op.upper_bound, op)
    step = interp.integer(frame, op.step, op)
    if step <= 0:
        raise error(f"scf.for step must be positive, got {step}", op.location)
    type = op.lower_bound.type
    if op.is_unsigned:
        lower, upper = unsigned(lower, type), unsigned(upper, type)
    carried = interp.operands(frame, op)[3:]
    for value in carried:
        interp.retain(value)
    region = op.regions[0]
    index = lower
    while index < upper:
        # The iteration's block arguments take over the holds on the carried values.
        transfer = interp.run_region(frame, region, [wrap(index, type), *carried])
        carried = transfer.values
        index += step
    return _hand_over(interp, carried)


@handles("scf.while")
def _while(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    assert isinstance(op, WhileOp)
    values = interp.operands(frame, op)
    for value in values:
        interp.retain(value)
    while True:
        transfer = interp.run_region(frame, op.regions[0], values)
        condition, *passed = transfer.values
        if not condition:
            return _hand_over(interp, passed)
        values = interp.run_region(frame, op.regions[1], passed).values


@handles("scf.execute_region")
def _execute_region(interp: Interpreter, frame: Frame, op: Operation) -> list[Any]:
    return _hand_over(interp, interp.run_nested(frame, op.regions[0], []))
