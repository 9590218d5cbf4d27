"""Source locations and diagnostics.

A `Location` names a point in a source buffer; a `Diagnostic` is a located message with a
severity. `DiagnosticError` carries diagnostics out of the parser, verifier and passes, and
`render` turns one into the `file:line:col: error: message` form with the source line and a caret
that every tool in the package prints.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, BinaryIO

from streamopt.lazy_regex import lazy_compile

if TYPE_CHECKING:
    from streamopt.ir.core import Value
    from streamopt.ir.types import Type


def decode_source(data: bytes) -> str:
    """The text of a source file's bytes: UTF-8, each CR LF read as LF (see
    `universal_newlines`).

    A byte that is not UTF-8 becomes a lone surrogate (Python's `surrogateescape`), so no input
    fails to decode: the parser reports such a byte at its line and column unless it is inside
    a comment or a string, where MLIR accepts any byte, and `encode_output` writes it back as
    the byte it was.
    """
    return universal_newlines(data.decode("utf-8", errors="surrogateescape"))


def universal_newlines(text: str) -> str:
    """`text` with each CR LF as LF, as iree-opt prints it. A CR alone stays: it is not a
    line break in MLIR, which counts lines by LF (the parser reads it as
    `lone_carriage_returns_as_line_breaks` says)."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n")


def read_source(stream: BinaryIO) -> str:
    """`decode_source` of everything `stream` holds."""
    return decode_source(stream.read())


def encode_output(text: str) -> bytes:
    """The bytes of printed IR: UTF-8, with bytes kept from the input (see `decode_source`)."""
    return text.encode("utf-8", "surrogateescape")


_UNDECODED = lazy_compile("[\udc80-\udcff]")


def undecoded_bytes(text: str) -> Iterator[tuple[int, int]]:
    """(offset, byte) of each byte `decode_source` could not decode, in order."""
    if text.isascii():
        return
    for match in _UNDECODED.finditer(text):
        yield match.start(), ord(match.group()) - 0xDC00


def displayable(text: str) -> str:
    """`text` with each byte that was not UTF-8 shown as U+FFFD (one column, like the byte)."""
    return _UNDECODED.sub("\ufffd", text)


class Source:
    """A named text buffer that diagnostics can quote from."""

    __slots__ = ("_last_line", "_line_starts", "line_offset", "name", "text")

    def __init__(self, name: str, text: str, line_offset: int = 0) -> None:
        self.name = name
        self.text = text
        # Lines in `text` are numbered from `line_offset + 1`, so a split chunk of a larger file
        # still reports the line numbers of the file.
        self.line_offset = line_offset
        self._line_starts: array[int] | None = None
        # The index of the line `location_at` found last: the parser asks in text order.
        self._last_line = 0

    def line_text(self, line: int) -> str:
        """Return the text of `line` (numbered as reported, without its newline)."""
        local = line - self.line_offset
        starts = self._starts()
        if local < 1 or local > len(starts):
            return ""
        begin = starts[local - 1]
        end = self.text.find("\n", begin)
        return self.text[begin : end if end >= 0 else len(self.text)]

    def location_at(self, pos: int) -> Location:
        """Return the location of character offset `pos` in `text`."""
        starts = self._starts()
        index = self._last_line
        if pos < starts[index] or (index + 1 < len(starts) and pos >= starts[index + 1]):
            index = self._last_line = bisect_right(starts, pos) - 1
        return Location(self, index + 1 + self.line_offset, pos - starts[index] + 1)

    def offset_of(self, location: Location) -> int:
        """The character offset in `text` of `location` (one `location_at` gave)."""
        return self._starts()[location.line - self.line_offset - 1] + location.column - 1

    def _starts(self) -> array[int]:
        if self._line_starts is None:
            # An array of machine integers: a quarter of a list's memory on large files.
            starts = array("q", [0])
            find = self.text.find
            pos = find("\n")
            while pos >= 0:
                starts.append(pos + 1)
                pos = find("\n", pos + 1)
            self._line_starts = starts
        return self._line_starts


class Location:
    """A point in a source buffer: 1-based line and column. Immutable; equal when the three
    parts are."""

    # A plain class, as the other classes a plain run imports: `dataclasses` imports
    # `inspect`, which is about a tenth of a short run's start-up.
    __slots__ = ("column", "line", "source")

    source: Source | None
    line: int
    column: int

    def __init__(self, source: Source | None, line: int, column: int) -> None:
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "column", column)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Location is immutable: cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Location):
            return NotImplemented
        return (self.source, self.line, self.column) == (other.source, other.line, other.column)

    def __hash__(self) -> int:
        return hash((self.source, self.line, self.column))

    def __repr__(self) -> str:
        return f"Location({self.source!r}, {self.line}, {self.column})"

    @property
    def filename(self) -> str:
        return self.source.name if self.source is not None else "<unknown>"

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.column}"


UNKNOWN_LOCATION = Location(None, 0, 0)


class Diagnostic:
    """A message attached to a location, with notes; equal when all of those are."""

    __slots__ = ("location", "message", "notes", "severity")

    def __init__(
        self,
        severity: str,
        message: str,
        location: Location,
        notes: list[Diagnostic] | None = None,
    ) -> None:
        self.severity = severity  # "error", "warning", "note" or "remark"
        self.message = message
        self.location = location
        self.notes: list[Diagnostic] = [] if notes is None else notes

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Diagnostic):
            return NotImplemented
        return (self.severity, self.message, self.location, self.notes) == (
            other.severity,
            other.message,
            other.location,
            other.notes,
        )

    __hash__ = None  # type: ignore[assignment]  # Mutable: notes can be attached.

    def __repr__(self) -> str:
        return f"Diagnostic({self.severity!r}, {self.message!r}, {self.location!r}, {self.notes!r})"

    def attach_note(self, message: str, location: Location) -> Diagnostic:
        """Add a note (for example the other end of a conflict) and return self."""
        self.notes.append(Diagnostic("note", message, location))
        return self

    def __str__(self) -> str:
        """As the command prints it (see `render`)."""
        return render(self)


class DiagnosticError(Exception):
    """Raised to stop work because of one or more error diagnostics. Its `str()` is what
    the command prints for them: `file:line:col: error: message`, the line and a caret."""

    def __init__(self, diagnostics: Diagnostic | Iterable[Diagnostic]) -> None:
        self.diagnostics = (
            [diagnostics] if isinstance(diagnostics, Diagnostic) else list(diagnostics)
        )
        super().__init__("; ".join(d.message for d in self.diagnostics))

    def __str__(self) -> str:
        return "\n".join(render(diagnostic) for diagnostic in self.diagnostics)


class OperandTypeMismatch(DiagnosticError):
    """A use of `value` that states `type`, which is not the value's: raised by
    `check_operand_type`; the parser names the value and points at the use (the `use`-th use
    of the value from the op's location on, when the raiser knows which)."""

    use: int | None = None

    def __init__(self, value: Value, type: Type, location: Location) -> None:
        super().__init__(
            Diagnostic(
                "error",
                f"use of value expects different type than prior uses: '{type}' vs '{value.type}'",
                location,
            )
        )
        self.value = value
        self.type = type


def error(message: str, location: Location) -> DiagnosticError:
    """Return (for raising) an error diagnostic at `location`."""
    return DiagnosticError(Diagnostic("error", message, location))


def render(diagnostic: Diagnostic, program: str | None = None) -> str:
    """Format a diagnostic and its notes as text: header line, source line, caret. One with
    no location at all is the `program`'s own (`streamopt-run: error: ...`) when given."""
    lines: list[str] = []
    for diag in (diagnostic, *diagnostic.notes):
        loc = diag.location
        if loc.source is None or loc.line == 0:
            # No point in the text (line 0: the file as a whole).
            where = program if loc.source is None and program is not None else loc.filename
            lines.append(f"{where}: {diag.severity}: {diag.message}")
            continue
        lines.append(f"{loc}: {diag.severity}: {diag.message}")
        text = loc.source.line_text(loc.line)
        if text:
            lines.append(text)
            # Keep tabs so the caret lines up under the reported column.
            pad = "".join(c if c == "\t" else " " for c in text[: max(loc.column - 1, 0)])
            lines.append(pad + "^")
    return displayable("\n".join(lines))
