"""Reading an op's operands off its printed form, for ops the interpreter handles by name.

Some ops the interpreter runs may be modelled by other parts of streamopt, or not at all (then
they are opaque ops kept as text): `stream.cmd.move`, `hal.device.queue.move`,
`hal.buffer_view.dim`, `hal.executable.lookup`. Either way the op prints in IREE's syntax, so
printing it with each operand spelled `%__<index>` and reading the keyword groups
(`affinity(%__1)`, `source(%__4 : !hal.buffer)[%__5]`) finds its operands whatever class holds
it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from streamopt.ir.core import Operation, Value
from streamopt.printer import Printer

_PLACEHOLDER = re.compile(r"%__(\d+)")


class _PlaceholderPrinter(Printer):
    """Prints operand i of one op as `%__i`."""

    def __init__(self, op: Operation) -> None:
        super().__init__(print_debug_locations=False)
        self.positions: dict[Value, int] = {}
        for index, value in enumerate(op.operands):
            self.positions.setdefault(value, index)

    def value_name(self, value: Value) -> str:
        index = self.positions.get(value)
        return f"%__{index}" if index is not None else "%__result"


@dataclass
class OpText:
    """An op printed with placeholder operands, and how to read it."""

    op: Operation
    text: str

    def group(self, keyword: str) -> str | None:
        """The text inside `keyword(...)` (balanced), or None."""
        match = re.search(r"(?<![\w.])" + re.escape(keyword) + r"\(", self.text)
        if match is None:
            return None
        depth = 0
        start = match.end()
        for position in range(start, len(self.text)):
            ch = self.text[position]
            if ch in "([{<":
                depth += 1
            elif ch in ")]}>":
                if depth == 0:
                    return self.text[start:position]
                depth -= 1
        return None

    def operand(self, text: str | None) -> Value | None:
        """The first operand mentioned in `text`."""
        if text is None:
            return None
        match = _PLACEHOLDER.search(text)
        return self.op.operands[int(match.group(1))] if match is not None else None

    def operands_in(self, text: str | None) -> list[Value]:
        if text is None:
            return []
        return [self.op.operands[int(m.group(1))] for m in _PLACEHOLDER.finditer(text)]

    def after(self, pattern: str) -> Value | None:
        """The operand right after the first match of regex `pattern`."""
        match = re.search(pattern + r"\s*%__(\d+)", self.text)
        return self.op.operands[int(match.group(1))] if match is not None else None

    def sized(self) -> list[Value]:
        """The operands in `{%__i}` size positions, in order."""
        return [self.op.operands[int(i)] for i in re.findall(r"\{%__(\d+)\}", self.text)]


def op_text(op: Operation) -> OpText:
    printer = _PlaceholderPrinter(op)
    op.print(printer)
    return OpText(op, printer.text())
