"""A parsed file: the top-level module op plus the text around it that MLIR keeps.

Attribute and type aliases (`#map = ...`) and trailing dialect resources (`{-# ... #-}`) are
kept as written so that printing a file back gives the same text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from streamopt.diagnostics import Source
from streamopt.ir.core import Operation
from streamopt.ir.types import Attribute, Type

if TYPE_CHECKING:
    from streamopt.dialects.builtin import ModuleOp


class Module:
    """A module op and its file-level context."""

    def __init__(
        self,
        op: ModuleOp,
        source: Source | None = None,
        aliases: list[str] | None = None,
        alias_values: dict[str, Attribute | Type] | None = None,
        metadata: str | None = None,
        trailing_aliases: list[str] | None = None,
    ) -> None:
        self.op = op
        self.source = source
        # Alias definition lines as written, in order.
        self.aliases: list[str] = [] if aliases is None else aliases
        # What each alias stands for, by alias name (`#map`, `!type`).
        self.alias_values: dict[str, Attribute | Type] = (
            {} if alias_values is None else alias_values
        )
        self.metadata = metadata
        # Alias definition lines written after the module op (MLIR defers aliases that only
        # locations use to there).
        self.trailing_aliases: list[str] = [] if trailing_aliases is None else trailing_aliases

    def __str__(self) -> str:
        """The module's text, as `streamopt` prints it (without locations)."""
        # Imported when first needed: start-up time.
        from streamopt.printer import print_module

        return print_module(self) + "\n"

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
