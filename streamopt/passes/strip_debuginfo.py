"""`--strip-debuginfo`: drop every `loc(...)` so output compares without location noise.

%0 = arith.constant 1 : index loc("a.py":3:4)   ->   %0 = arith.constant 1 : index
"""

from __future__ import annotations

from streamopt.dialects.builtin import OpaqueOp, VerbatimOp
from streamopt.ir.module import Module
from streamopt.passes import Pass, register_pass


@register_pass
class StripDebuginfoPass(Pass):
    """Removes trailing op locations, block argument locations and location aliases."""

    flag = "strip-debuginfo"
    summary = "Remove debug locations (loc(...)) from every op"

    def run(self, module: Module) -> None:
        for op in module.walk():
            if op.debug_loc is not None:
                op.debug_loc = None
                self.stat("num-locations-stripped", "Number of op locations removed")
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        arg.debug_loc = None
            if isinstance(op, OpaqueOp) and op.template:
                last = op.template[-1]
                if isinstance(last, str) and " loc(" in last:
                    op.template[-1] = last[: last.rindex(" loc(")]
            if isinstance(op, VerbatimOp) and " loc(" in op.text:
                # Executable bodies name location aliases too (`%arg0: T loc(#loc3)`); left in
                # place they would refer to the aliases removed below.
                op.text = strip_locations(op.text)
        for aliases in (module.aliases, module.trailing_aliases):
            aliases[:] = [line for line in aliases if not _is_location_alias(line)]


def _is_location_alias(line: str) -> bool:
    head, _, value = line.partition("=")
    return head.strip().startswith("#loc") and value.strip().startswith("loc(")


def strip_locations(text: str) -> str:
    """`text` without its ` loc(...)` suffixes (parentheses balanced, strings stepped over)."""
    pieces: list[str] = []
    cursor = 0
    while True:
        start = text.find(" loc(", cursor)
        if start < 0:
            break
        end = _closing_parenthesis(text, start + len(" loc("))
        if end < 0:
            break  # Unbalanced: leave the rest as it is.
        pieces.append(text[cursor:start])
        cursor = end + 1
    pieces.append(text[cursor:])
    return "".join(pieces)


def _closing_parenthesis(text: str, index: int) -> int:
    """The index of the `)` that closes the `(` just before `index`, or -1."""
    depth = 1
    while index < len(text):
        char = text[index]
        if char == '"':
            index += 1
            while index < len(text) and text[index] != '"':
                index += 2 if text[index] == "\\" else 1
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return -1
