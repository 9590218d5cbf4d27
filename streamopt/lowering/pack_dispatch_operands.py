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
that is a constant becomes its words as constants. As IREE does, the executables' functions are
rewritten to match (IREE's HAL conversion accepts only `!stream.binding` and `i32` arguments):
each scalar argument `%x: T` becomes its words `%x_packed0: i32` (and `%x_packed1: i32`), and
the function starts by rebuilding `%x` from them (`arith.extui`, `shli`, `ori`, then
`index_castui`, `bitcast` or `trunci`), so the kernel's code is otherwise the text IREE printed.
streamopt's interpreter reads the type each rebuilt value had from that prologue.
`--lower-to-cmd` and `--lower-cmd-to-hal` run this pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from streamopt.diagnostics import UNKNOWN_LOCATION, Location, error
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
from streamopt.lazy_regex import lazy_compile
from streamopt.lowering.resource_config import lookup_resource_config
from streamopt.parser.token_values import closing_paren, split_top_level
from streamopt.passes import Pass, register_pass

# The width a float type's name spells (`f32`, `bf16`, `f8E4M3FN`).
_FLOAT_WIDTH = lazy_compile(r"^b?f(\d+)")


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
    summary = (
        "Pack stream.cmd.dispatch operands into i32 push constants (index: two words), and "
        "the executables' arguments to match"
    )

    def run(self, module: Module) -> None:
        pack_dispatch_operands(module, self.stat)


def pack_dispatch_operands(
    module: Module, stat: Callable[[str, str, int], None] | None = None
) -> None:
    """Pack the scalar operands of every `stream.cmd.dispatch` of `module` into i32 words and
    the scalar arguments of every function of its `stream.executable`s to match;
    `stat(name, description, amount)` counts the operands converted."""
    _pack_call_sites(module, stat)
    for op in module.op.body.ops:
        if op.name == "stream.executable" and isinstance(getattr(op, "text", None), str):
            index_bits = lookup_resource_config(op, module.resolve).index_bits
            op.text = pack_executable_text(op.text, index_bits, op.location)  # type: ignore[attr-defined]


def _pack_call_sites(module: Module, stat: Callable[[str, str, int], None] | None) -> None:
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


# -- executables -----------------------------------------------------------------------------

_FUNC_HEADER = lazy_compile(r"func\.func\s+(?:private\s+|public\s+)?@[\w$.\-]+\s*\(")
_ARGUMENT = lazy_compile(r"^\s*(%[\w$.\-]+)\s*:\s*(\S+)(.*)$", re.S)
_INTEGER = lazy_compile(r"^i(\d+)$")


def pack_executable_text(
    text: str, index_bits: int = 64, location: Location = UNKNOWN_LOCATION
) -> str:
    """`text` (a `stream.executable` as printed) with every function's scalar arguments
    replaced by i32 words and rebuilt at the top of its body (see the module docstring)."""
    out: list[str] = []
    position = 0
    for match in _FUNC_HEADER.finditer(text):
        close = closing_paren(text, match.end())
        if close is None:
            continue
        rebuilt = _pack_arguments(text[match.end() : close], index_bits, location)
        if rebuilt is None:
            continue
        arguments, prologue = rebuilt
        line_end = text.find("\n", close)
        if line_end < 0 or not text[close:line_end].rstrip().endswith("{"):
            continue
        next_line = text[line_end + 1 : text.find("\n", line_end + 1)]
        indent = next_line[: len(next_line) - len(next_line.lstrip())]
        out.append(text[position : match.end()])
        out.append(arguments)
        out.append(text[close : line_end + 1])
        out.extend(f"{indent}{line}\n" for line in prologue)
        position = line_end + 1
    out.append(text[position:])
    return "".join(out)


def _pack_arguments(
    arguments: str, index_bits: int, location: Location
) -> tuple[str, list[str]] | None:
    """The packed argument list and the prologue that rebuilds the scalars, or None when
    every argument is already a binding or an i32."""
    new_parts: list[str] = []
    prologue: list[str] = []
    changed = False
    for part in split_top_level(arguments):
        match = _ARGUMENT.match(part)
        if match is None or match.group(2).startswith("!") or match.group(2) == "i32":
            new_parts.append(part)
            continue
        name, type_text, rest = match.groups()
        lines = _rebuild(name, type_text, index_bits)
        if lines is None:
            raise error(
                f"cannot pack an executable argument of type '{type_text}' into i32", location
            )
        words, code = lines
        leading = part[: len(part) - len(part.lstrip())]
        # Argument attributes (`{stream.values = ...}`) describe the old value: drop them;
        # keep a location.
        trailing = re.search(r"\bloc\(.*\)\s*$", rest)
        suffix = f" {trailing.group(0).strip()}" if trailing else ""
        new_parts.extend(
            f"{leading if i == 0 else ' '}{word}: i32{suffix}" for i, word in enumerate(words)
        )
        prologue.extend(code)
        changed = True
    if not changed:
        return None
    return ",".join(new_parts), prologue


def _rebuild(name: str, type_text: str, index_bits: int) -> tuple[list[str], list[str]] | None:
    """The word arguments for scalar `name` of `type_text` and the ops that rebuild it."""
    words = [f"{name}_packed0"]
    if type_text == "index":
        if index_bits <= 32:
            return words, [f"{name} = arith.index_castui {words[0]} : i32 to index"]
        words.append(f"{name}_packed1")
        return words, [
            *_join64(name, words, f"{name}_i64"),
            f"{name} = arith.index_castui {name}_i64 : i64 to index",
        ]
    integer = _INTEGER.match(type_text)
    float_width = _FLOAT_WIDTH.match(type_text)
    if integer is not None:
        width = int(integer.group(1))
        if width < 32:
            return words, [f"{name} = arith.trunci {words[0]} : i32 to {type_text}"]
        if width == 64:
            words.append(f"{name}_packed1")
            return words, _join64(name, words, name)
        if 32 < width < 64:
            words.append(f"{name}_packed1")
            return words, [
                *_join64(name, words, f"{name}_i64"),
                f"{name} = arith.trunci {name}_i64 : i64 to {type_text}",
            ]
        return None
    if float_width is not None:
        width = int(float_width.group(1))
        if width == 32:
            return words, [f"{name} = arith.bitcast {words[0]} : i32 to {type_text}"]
        if width < 32:
            return words, [
                f"{name}_bits = arith.trunci {words[0]} : i32 to i{width}",
                f"{name} = arith.bitcast {name}_bits : i{width} to {type_text}",
            ]
        if width == 64:
            words.append(f"{name}_packed1")
            return words, [
                *_join64(name, words, f"{name}_i64"),
                f"{name} = arith.bitcast {name}_i64 : i64 to {type_text}",
            ]
    return None


def _join64(name: str, words: list[str], result: str) -> list[str]:
    """Ops defining the i64 `result` from the low and high words of `name`."""
    return [
        f"{name}_low = arith.extui {words[0]} : i32 to i64",
        f"{name}_high = arith.extui {words[1]} : i32 to i64",
        f"{name}_c32 = arith.constant 32 : i64",
        f"{name}_shifted = arith.shli {name}_high, {name}_c32 : i64",
        f"{result} = arith.ori {name}_low, {name}_shifted : i64",
    ]
