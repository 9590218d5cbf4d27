"""The tables `streamopt-run` prints, in the form the output wants.

A `TextTable` holds a title, columns and rows of plain strings, and `show` prints it:

* to a terminal, as a rich table as wide as the terminal, wrapping text cells at spaces and
  headers at their words, never cutting a value; when even that does not fit (an 80-column
  terminal and long device names), stacked: one block per row, one line per column;
* anywhere else (a pipe, a file), as plain text: the title on a line of its own, then aligned
  columns separated by two spaces, with no box drawing and no padding after the last column.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.table import Table


class TextColumn:
    """A column: its header, whether figures in it align right, and whether its cells may
    wrap at spaces (names, lists) or must stay whole (figures)."""

    __slots__ = ("header", "right", "wrap")

    def __init__(self, header: str, right: bool = False, wrap: bool = False) -> None:
        self.header = header
        self.right = right
        self.wrap = wrap


class TextTable:
    """A titled table of strings, with rows grouped in sections (a total, say)."""

    def __init__(self, title: str, columns: Sequence[TextColumn]) -> None:
        self.title = title
        self.columns = list(columns)
        # Each section is a list of rows; a new section is drawn apart from the one before.
        self.sections: list[list[list[str]]] = [[]]

    def add_row(self, *cells: str) -> None:
        assert len(cells) == len(self.columns), cells
        self.sections[-1].append(list(cells))

    def add_section(self) -> None:
        if self.sections[-1]:
            self.sections.append([])

    @property
    def rows(self) -> list[list[str]]:
        return [row for section in self.sections for row in section]

    # -- plain text --------------------------------------------------------------------------

    def plain(self) -> str:
        """The table as plain text (see the module docstring)."""
        rows = [[column.header for column in self.columns], *self.rows]
        widths = [max(len(row[i]) for row in rows) for i in range(len(self.columns))]
        lines = [self.title] if self.title else []
        for row in rows:
            cells = [
                cell.rjust(width) if column.right else cell.ljust(width)
                for cell, width, column in zip(row, widths, self.columns)
            ]
            lines.append("  ".join(cells).rstrip())
        return "\n".join(lines) + "\n"

    def stacked(self) -> str:
        """One block per row: its first cell, then each other column as `header: value`."""
        lines = [self.title] if self.title else []
        width = max(len(column.header) for column in self.columns[1:]) + 1
        for row in self.rows:
            lines.append(row[0])
            for column, cell in zip(self.columns[1:], row[1:]):
                if cell:
                    lines.append(f"  {column.header + ':':<{width}} {cell}")
        return "\n".join(lines) + "\n"

    # -- a terminal ----------------------------------------------------------------------------

    def rich(self) -> Table:
        """The table as a rich `Table`: text cells wrap at spaces, figures never wrap and
        their headers stack their words."""
        from rich.table import Table
        from rich.text import Text

        table = Table(title=self.title or None, title_justify="left")
        for column in self.columns:
            header = column.header if column.wrap else column.header.replace(" ", "\n")
            table.add_column(
                Text(header, justify="right" if column.right else "left"),
                justify="right" if column.right else "left",
                no_wrap=not column.wrap,
                overflow="fold",
            )
        for index, section in enumerate(self.sections):
            if index:
                table.add_section()
            for row in section:
                table.add_row(*row)
        return table


def show(tables: Sequence[TextTable | str], stream: TextIO | None = None) -> None:
    """Print `tables` (and lines of text between them) to `stream` (stdout), each in the
    form that stream wants (see the module docstring)."""
    stream = stream if stream is not None else sys.stdout
    if not _is_terminal(stream):
        for table in tables:
            stream.write(table if isinstance(table, str) else table.plain())
            if isinstance(table, str):
                stream.write("\n")
        stream.flush()
        return
    from rich.console import Console

    console = Console(file=stream, highlight=False)
    for table in tables:
        if isinstance(table, str):
            console.print(table, markup=False)
            continue
        rendered = table.rich()
        # Measured without the console's width, which would clamp what it reports.
        unbounded = console.options.update(max_width=1 << 20)
        if console.measure(rendered, options=unbounded).minimum > console.width:
            # As it is: a name wider than the terminal wraps there, and is never cut.
            stream.write(table.stacked())
            stream.flush()
        else:
            console.print(rendered)


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())
