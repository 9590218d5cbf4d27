"""`--pack-dispatch-operands`: turn the scalar operands of `stream.cmd.dispatch` into the i32
push constants a hal dispatch takes, as IREE's PackDispatchOperands does.

Each operand becomes one or two i32 words (facts from IREE's `convertAndDecomposeToI32s`):

* `index` is first cast (`arith.index_castui`) to an integer of the device's index width
  (`index_bits` of the resource config, 64 unless a `stream.resources` config says otherwise);
* a float is bit-cast to the integer of its width (`f32` -> `i32`, `bf16` -> `i16`);
* an integer narrower than 32 bits is zero-extended to i32, one between 33 and 63 bits to i64;
* an i64 is split into its low word (`arith.trunci`) and its high word (`arith.shrui` by 32,
  then `arith.trunci`), in that order.

The conversion is inserted before the `stream.cmd.execute` holding the dispatch; an operand
that is a constant becomes its words as constants. IREE also rewrites the executable's
function to rebuild each value from its words; streamopt keeps executables verbatim (their
signatures still say `index`), which iree-opt accepts, and its interpreter rebuilds the values
from the function's signature when it runs the kernel. `--lower-cmd-to-hal` runs this first.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from streamopt.diagnostics import error
from streamopt.dialects.arith import (
    BitcastOp,
    CastOp,
    ConstantOp,
    ExtUIOp,
    IndexCastUIOp,
    ShRUIOp,
    TruncIOp,
    constant_int,
)
from streamopt.dialects.stream import CmdDispatchOp
from streamopt.ir.core import Operation, Value
from streamopt.ir.module import Module
from streamopt.ir.types import I32, I64, FloatType, IndexType, IntegerType, Type
from streamopt.lowering.resource_config import lookup_resource_config
from streamopt.passes import Pass, register_pass

# The width a float type's name spells (`f32`, `bf16`, `f8E4M3FN`).
_FLOAT_WIDTH = re.compile(r"^b?f(\d+)")


@register_pass
class PackDispatchOperandsPass(Pass):
    """Packs the scalar operands of `stream.cmd.dispatch` into i32 words.

      stream.cmd.dispatch @ex::@fn[%n](%n : index) { ... }
    becomes
      %0 = arith.index_castui %n : index to i64
      %1 = arith.trunci %0 : i64 to i32
      %c32_i64 = arith.constant 32 : i64
      %2 = arith.shrui %0, %c32_i64 : i64
      %3 = arith.trunci %2 : i64 to i32
      stream.cmd.dispatch @ex::@fn[%n](%1, %3 : i32, i32) { ... }
    """

    flag = "pack-dispatch-operands"
    summary = "Pack stream.cmd.dispatch operands into i32 push constants (index: two words)"

    def run(self, module: Module) -> None:
        pack_dispatch_operands(module, self.stat)


def pack_dispatch_operands(
    module: Module, stat: Callable[[str, str, int], None] | None = None
) -> None:
    """Pack the scalar operands of every `stream.cmd.dispatch` of `module` into i32 words;
    `stat(name, description, amount)` counts the operands converted."""
    dispatches = [op for op in module.walk() if isinstance(op, CmdDispatchOp)]
    for dispatch in dispatches:
        operands = dispatch.uniform_operands
        if all(operand.type == I32 for operand in operands):
            continue
        packer = _Packer(module, dispatch)
        words: list[Value] = []
        for operand in operands:
            if operand.type == I32:
                words.append(operand)
                continue
            words.extend(packer.words(operand))
            if stat is not None:
                stat("num-packed-operands", "Number of dispatch operands packed into i32", 1)
        dispatch.set_segment(1, words)


class _Packer:
    """Builds the words of the operands of one dispatch, before its execute region."""

    def __init__(self, module: Module, dispatch: CmdDispatchOp) -> None:
        self.dispatch = dispatch
        self.index_bits = lookup_resource_config(dispatch, module.resolve).index_bits
        execute = next((a for a in dispatch.ancestors() if a.name == "stream.cmd.execute"), None)
        self.anchor: Operation = execute if execute is not None else dispatch

    def words(self, operand: Value) -> list[Value]:
        if not self._dominates_anchor(operand):
            raise error(
                "cannot pack a dispatch operand defined inside its stream.cmd.execute",
                self.dispatch.location,
            )
        value = operand
        type = value.type
        if isinstance(type, IndexType):
            value = self._cast(IndexCastUIOp, value, IntegerType(self.index_bits))
        elif isinstance(type, FloatType):
            match = _FLOAT_WIDTH.match(type.text)
            if match is None:
                raise error(
                    f"cannot pack a dispatch operand of type '{type}' into i32",
                    self.dispatch.location,
                )
            value = self._cast(BitcastOp, value, IntegerType(int(match.group(1))))
        elif not isinstance(type, IntegerType):
            raise error(
                f"cannot pack a dispatch operand of type '{type}' into i32",
                self.dispatch.location,
            )
        width = _width(value.type)
        if width < 32:
            value = self._cast(ExtUIOp, value, I32)
        elif 32 < width < 64:
            value = self._cast(ExtUIOp, value, I64)
        width = _width(value.type)
        if width == 64:
            known = constant_int(value)
            if known is not None:
                return [self._constant(known, I32), self._constant(known >> 32, I32)]
            low = self._emit(TruncIOp.create(value, I32)).results[0]
            shift = self._emit(ConstantOp.create(32, I64)).results[0]
            high_bits = self._emit(ShRUIOp.create(value, shift)).results[0]
            high = self._emit(TruncIOp.create(high_bits, I32)).results[0]
            return [low, high]
        if width != 32:
            raise error(
                f"cannot pack a dispatch operand of type '{operand.type}' into i32",
                self.dispatch.location,
            )
        return [value]

    def _cast(self, cls: type[CastOp], value: Value, result_type: Type) -> Value:
        """`value` cast to `result_type`; a constant when `value` is one (integer casts only
        change the width here: zero-extend or keep the low bits)."""
        known = constant_int(value)
        if known is not None and cls is not BitcastOp:
            return self._constant(known & ((1 << _width(value.type)) - 1), result_type)
        return self._emit(cls.create(value, result_type)).results[0]

    def _constant(self, bits: int, type: Type) -> Value:
        """An `arith.constant` of `type` holding the low bits of `bits` (printed signed)."""
        width = _width(type)
        bits &= (1 << width) - 1
        value = bits - (1 << width) if bits >> (width - 1) else bits
        return self._emit(ConstantOp.create(value, type)).results[0]

    def _emit(self, op: Operation) -> Operation:
        op.location = self.dispatch.location
        block = self.anchor.parent
        assert block is not None
        block.insert_before(op, self.anchor)
        return op

    def _dominates_anchor(self, value: Value) -> bool:
        producer = value.defining_op
        if producer is None:
            return True  # A block argument of an enclosing block.
        anchor = self.anchor
        return producer is not anchor and not any(a is anchor for a in producer.ancestors())


def _width(type: Type | None) -> int:
    if isinstance(type, IntegerType):
        return type.width
    return 64
