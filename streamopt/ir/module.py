"""A parsed file: the top-level module op plus the text around it that MLIR keeps.

Attribute and type aliases (`#map = ...`) and trailing dialect resources (`{-# ... #-}`) are
kept as written so that printing a file back gives the same text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from streamopt.diagnostics import Source
from streamopt.dialects.builtin import ModuleOp
from streamopt.ir.core import Operation
from streamopt.ir.types import Attribute, Type


@dataclass
class Module:
    """A module op and its file-level context."""

    op: ModuleOp
    source: Source | None = None
    # Alias definition lines as written, in order.
    aliases: list[str] = field(default_factory=list)
    # What each alias stands for, by alias name (`#map`, `!type`).
    alias_values: dict[str, Attribute | Type] = field(default_factory=dict)
    metadata: str | None = None
    # Alias definition lines written after the module op (MLIR defers aliases that only
    # locations use to there).
    trailing_aliases: list[str] = field(default_factory=list)

    def walk(self) -> Iterator[Operation]:
        """Every op in the module, pre-order."""
        return self.op.walk()

    def resolve(self, attr: Attribute) -> Attribute:
        """Follow an alias reference (`#name`) to the attribute it stands for."""
        seen = 0
        while attr.text in self.alias_values and seen < 16:
            target = self.alias_values[attr.text]
            if not isinstance(target, Attribute):
                break
            attr = target
            seen += 1
        return attr
