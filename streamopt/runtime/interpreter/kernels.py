"""What dispatches run: kernel names and how each kernel touches its bindings.

A dispatch names its kernel `executable::export` at every level (`@ex::@fn` at the async and
cmd levels; at the hal level through `hal.executable.lookup` and
`hal.executable.export.ordinal`, ignoring the variant). Whether a binding is read, written or
both decides which bytes the stand-in kernel hashes and which it overwrites, so it must be the
same at every level: it is read from the executable's own code when the module holds it (the
`readonly:` / `writeonly:` / `readwrite:` of each binding's subspan, or `ReadOnly` in a hal
pipeline layout), and taken from the dispatch op only when the executable is not there. A hal
command buffer dispatch says nothing about its bindings, so without the executable's code it
reads and writes every binding: such a program computes other bytes at the hal level than at
the async and cmd levels (real dumps always hold their executables).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from streamopt.ir.module import Module
from streamopt.parser.token_values import closing_paren, split_top_level
from streamopt.runtime.params import MemoryAccess

READ = MemoryAccess.READ
WRITE = MemoryAccess.WRITE
READ_WRITE = MemoryAccess.READ | MemoryAccess.WRITE

_FUNC = re.compile(r"func\.func\s+(?:private\s+|public\s+)?@([\w$.\-]+)\s*\(")
_STREAM_SUBSPAN = re.compile(
    r"stream\.binding\.subspan\s+(%[\w$.\-]+)\[[^\]]*\]\s*:\s*!stream\.binding\s*->\s*"
    r"(!\S+?<(readonly|writeonly|readwrite):)"
)
_HAL_SUBSPAN = re.compile(
    r"hal\.interface\.binding\.subspan\b[^\n]*?binding\((\d+)\)[^\n]*?"
    r"<(readonly|writeonly|readwrite):"
)
_HAL_EXPORT = re.compile(
    r"hal\.executable\.export\s+(?:public\s+|private\s+)?@([\w$.\-]+)\s+ordinal\((\d+)\)"
    r"\s+layout\((#hal\.pipeline\.layout<.*?>)\)",
    re.S,
)
_PIPELINE_BINDING = re.compile(r"#hal\.pipeline\.binding<[^>]*>")
_STREAM_EXPORT = re.compile(r"stream\.executable\.export\s+(?:public\s+|private\s+)?@([\w$.\-]+)")
_ACCESS = {"readonly": READ, "writeonly": WRITE, "readwrite": READ_WRITE}


@dataclass
class ExecutableInfo:
    """One executable: binding accesses per export and export names per ordinal."""

    name: str
    accesses: dict[str, list[MemoryAccess | None]] = field(default_factory=dict)
    exports: list[str] = field(default_factory=list)
    ordinals: dict[int, str] = field(default_factory=dict)
    scalar_types: dict[str, list[str]] = field(default_factory=dict)
    """Per function: the types of its scalar (non-binding) arguments, in order."""


class ExecutableIndex:
    """Every executable of a module, read from the text streamopt keeps verbatim."""

    def __init__(self, module: Module) -> None:
        self.executables: dict[str, ExecutableInfo] = {}
        for op in module.op.body.ops:
            text = getattr(op, "text", None)
            symbol = getattr(op, "symbol", None)
            if not isinstance(text, str) or not isinstance(symbol, str):
                continue
            if op.name in ("stream.executable", "hal.executable"):
                self.executables[symbol] = _read_executable(symbol, text)

    def accesses(self, executable: str, export: str) -> list[MemoryAccess | None] | None:
        """How `executable::export` touches each binding (None where the code does not say),
        or None when the module does not hold that code."""
        info = self.executables.get(executable)
        if info is None:
            return None
        return info.accesses.get(export)

    def kernel_constants(self, executable: str, export: str, words: list[int]) -> list[int]:
        """The values a kernel's scalar arguments get from a dispatch's push constants.

        A dispatch lowered to hal passes i32 words: a 64-bit argument (`index`, `i64`, `f64`)
        as its low then high word (IREE's PackDispatchOperands). streamopt keeps the kernel's
        code as it was, whose function still takes the 64-bit value, so the words are put back
        together as that function would after packing; every level then gives the kernel the
        same values. Words that do not match the function's arguments pass unchanged.
        """
        info = self.executables.get(executable)
        types = info.scalar_types.get(export) if info is not None else None
        if types is None or len(types) == len(words):
            return words
        counts = [2 if _bit_width(t) > 32 else 1 for t in types]
        if sum(counts) != len(words):
            return words
        values: list[int] = []
        position = 0
        for count in counts:
            if count == 2:
                low, high = words[position], words[position + 1]
                values.append((low & 0xFFFFFFFF) | (high & 0xFFFFFFFF) << 32)
            else:
                values.append(words[position])
            position += count
        return values

    def export_at(self, executable: str, ordinal: int) -> str | None:
        """The export with `ordinal` (its position when the code gives no ordinal)."""
        info = self.executables.get(executable)
        if info is None:
            return None
        if ordinal in info.ordinals:
            return info.ordinals[ordinal]
        if 0 <= ordinal < len(info.exports):
            return info.exports[ordinal]
        return None


def _read_executable(name: str, text: str) -> ExecutableInfo:
    info = ExecutableInfo(name)
    for match in _STREAM_EXPORT.finditer(text):
        info.exports.append(match.group(1))
    for match in _HAL_EXPORT.finditer(text):
        export, ordinal, layout = match.group(1), int(match.group(2)), match.group(3)
        info.ordinals[ordinal] = export
        if export not in info.exports:
            info.exports.append(export)
        bindings = _PIPELINE_BINDING.findall(layout)
        info.accesses.setdefault(
            export, [READ if "ReadOnly" in b else READ_WRITE for b in bindings]
        )
    functions = list(_FUNC.finditer(text))
    for index, match in enumerate(functions):
        end = functions[index + 1].start() if index + 1 < len(functions) else len(text)
        arguments, body_start = _balanced(text, match.end())
        info.scalar_types[match.group(1)] = _scalar_types(arguments, text[body_start:end])
        accesses = _function_accesses(arguments, text[body_start:end])
        if accesses is not None:
            # The code's own subspans are more precise than a pipeline layout.
            info.accesses[match.group(1)] = accesses
    return info


def _balanced(text: str, start: int) -> tuple[str, int]:
    """The text from `start` up to the `)` that closes the `(` before it (arguments may carry
    `loc(...)`), and the position after that `)`."""
    close = closing_paren(text, start)
    if close is None:
        return text[start:], len(text)
    return text[start:close], close + 1


_PACKED_WORD = re.compile(r"^(%[\w$.\-]+)_packed(\d+)$")


def _scalar_types(arguments: str, body: str = "") -> list[str]:
    """The types of the arguments that are not bindings (`%arg0: index {attrs}`).

    Words that streamopt's `--pack-dispatch-operands` made of one argument (`%x_packed0`,
    `%x_packed1`) count as that argument, whose type is where the body rebuilds `%x`: the
    kernel then gets the value it got before packing.
    """
    types: list[str] = []
    previous: str | None = None
    for part in split_top_level(arguments):
        if ":" not in part:
            continue
        name, _, rest = part.partition(":")
        type_text = rest.strip().split(" ")[0]
        if not type_text or type_text.startswith("!"):
            continue
        packed = _PACKED_WORD.match(name.strip())
        if packed is not None:
            original = packed.group(1)
            if original == previous:
                continue
            rebuilt = re.search(
                rf"^\s*{re.escape(original)} = arith\.\w+ [^\n]*?:\s*(?:\S+ to )?(\S+)\s*$",
                body,
                re.M,
            )
            if rebuilt is not None:
                types.append(rebuilt.group(1))
                previous = original
                continue
        previous = None
        types.append(type_text)
    return types


def _bit_width(type_text: str) -> int:
    """The width of a scalar type: index as 64 bits, `iN`/`fN` as N, others as 32."""
    if type_text == "index":
        return 64
    match = re.match(r"^(?:i|f|bf|ui|si)(\d+)", type_text)
    return int(match.group(1)) if match is not None else 32


def _function_accesses(arguments: str, body: str) -> list[MemoryAccess | None] | None:
    bindings = [
        part.split(":")[0].strip()
        for part in split_top_level(arguments)
        if "!stream.binding" in part
    ]
    if bindings:
        position = {name: i for i, name in enumerate(bindings)}
        out: list[MemoryAccess | None] = [None] * len(bindings)
        for match in _STREAM_SUBSPAN.finditer(body):
            index = position.get(match.group(1))
            if index is not None:
                out[index] = (out[index] or MemoryAccess.NONE) | _ACCESS[match.group(3)]
        return out
    found = [(int(m.group(1)), _ACCESS[m.group(2)]) for m in _HAL_SUBSPAN.finditer(body)]
    if not found:
        return None
    out = [None] * (max(i for i, _ in found) + 1)
    for index, access in found:
        out[index] = (out[index] or MemoryAccess.NONE) | access
    return out


def binding_accesses(
    code: list[MemoryAccess | None] | None, fallback: list[MemoryAccess]
) -> list[MemoryAccess]:
    """Per binding: what the code says, else what the dispatch op says."""
    if code is None:
        return list(fallback)
    out: list[MemoryAccess] = []
    for index, access in enumerate(fallback):
        from_code = code[index] if index < len(code) else None
        out.append(from_code if from_code is not None else access)
    return out
