"""Text to IR: `parse_module` reads a file of stream/hal IR into a `Module`.

The grammar (grammar/stream.lark) is compiled once into LALR tables that Lark caches on disk, so
each run of the tool only loads them. When the optional `lark_cython` package is installed its
faster lexer and parser are used. Errors come back as `DiagnosticError`s with the location of the
offending token.
"""

from __future__ import annotations

import bisect
import gc
import hashlib
import itertools
import os
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import cast

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from streamopt.diagnostics import Diagnostic, DiagnosticError, Location, Source, undecoded_bytes
from streamopt.ir.module import Module

_START_RULES = ["start", "attr_affinity", "attr_promise", "attr_optimal", "attr_topology"]


def grammar_text() -> str:
    """The text of grammar/stream.lark (from the wheel, or from a source checkout)."""
    packaged = resources.files("streamopt").joinpath("grammar/stream.lark")
    if packaged.is_file():
        return packaged.read_text()
    return (Path(__file__).resolve().parents[2] / "grammar" / "stream.lark").read_text()


@cache
def _builder() -> object:
    from streamopt.dialects import load_all
    from streamopt.parser.builder import Builder

    load_all()
    return Builder()


@cache
def get_lark() -> Lark:
    """The shared LALR parser, with the IR builder as its inline transformer."""
    options: dict[str, object] = {}
    if os.environ.get("STREAMOPT_PURE_PYTHON") != "1":
        try:
            import lark_cython  # type: ignore[import-untyped]

            options["_plugins"] = lark_cython.plugins
        except ImportError:
            pass
    text = grammar_text()
    return Lark(
        text,
        parser="lalr",
        lexer="contextual",
        start=_START_RULES,
        transformer=_builder(),
        maybe_placeholders=False,
        cache=_cache_path(text, "_plugins" in options),
        **options,
    )


def _cache_path(text: str, fast: bool) -> str | bool:
    """Where to keep the compiled parser tables.

    A per-user cache directory rather than the temporary directory: test runners such as lit
    give every test its own TMPDIR, which would rebuild the tables (about a second) on every
    run of the tool. The grammar's hash is in the name, so checkouts with different grammars
    never overwrite each other's tables.
    """
    directory = os.environ.get("STREAMOPT_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "streamopt",
    )
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError:
        return True  # Lark's default: the temporary directory.
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    flavour = "cython" if fast else "python"
    return os.path.join(directory, f"grammar-{digest}-{flavour}.lark")


_VERBATIM_HEADER = re.compile(
    r"^[ \t]*(?:stream\.executable|hal\.executable(?:\.source)?|flow\.executable)"
    r"[ \t][^\n]*\{[ \t]*$",
    re.MULTILINE,
)
_BRACES = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|[{}]')


def blank_verbatim_bodies(text: str) -> str:
    """Replace the bodies of executables with spaces (keeping newlines and offsets).

    Executables hold kernel code in dialects streamopt never reads; blanking them lets the
    grammar skip them in one token while the builder keeps their original text.
    """
    if "executable" not in text:
        return text
    pieces: list[str] = []
    cursor = 0
    for header in _VERBATIM_HEADER.finditer(text):
        if header.start() < cursor:
            continue
        body_start = header.end()
        depth = 1
        end = -1
        for match in _BRACES.finditer(text, body_start):
            token = match.group()
            if token == "{":
                depth += 1
            elif token == "}":
                depth -= 1
                if depth == 0:
                    end = match.start()
                    break
        if end < 0:
            break  # Unbalanced: let the grammar report it.
        pieces.append(text[cursor:body_start])
        body = text[body_start:end]
        pieces.append(re.sub(r"[^\n]", " ", body))
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


# A line break, any blank lines after it, and the next line's indentation.
_NEWLINES = re.compile(r"\n(?:[ \t\f\r]*\n)*[ \t\f]*")
# What may start a line that is not the continuation of the op before it.
_RESULT_LIST = re.compile(
    r"%[A-Za-z0-9_$.\-]+(?::\w+)?(?:[ \t]*,[ \t]*%[A-Za-z0-9_$.\-]+(?::\w+)?)*[ \t]*=(?!=)"
)
_OP_NAME = re.compile(
    r"(?:[A-Za-z_][\w$]*(?:\.[\w$]+)+|module|return|call_indirect|call|unrealized_conversion_cast)"
    r"(?=[ \t<(@%\"{:\[]|\n|$)"
)
_ATTRIBUTE_ENTRY = re.compile(r"[\w$.]+[ \t]*=")
_BLOCK_LABEL = re.compile(r"\^[\w$.\-]+(?:\((?:[^()\n]|\([^()\n]*\))*\))?[ \t]*:(?!:)")
_ALIAS = re.compile(r"[#!][\w$.\-]+[ \t]*=")
_GENERIC_OP = re.compile(r'"[\w$.]+"[ \t]*\(')


def _continues(text: str, start: int, char: str) -> bool:
    """True if the line starting at `start` (first character `char`) continues an op."""
    if char == "^":
        # A block label ends in `:`; `^bb2(%a : T)` continuing a branch does not.
        return not _BLOCK_LABEL.match(text, start)
    if char == "%":
        return not _RESULT_LIST.match(text, start)
    if char.isalpha() or char == "_":
        return not _OP_NAME.match(text, start) or bool(_ATTRIBUTE_ENTRY.match(text, start))
    if char == '"':
        return not _GENERIC_OP.match(text, start)
    if char in "#!":
        return not _ALIAS.match(text, start)
    return not (char == "{" and text.startswith("{-#", start))


def join_continuation_lines(text: str) -> str:
    """Replace each newline that continues an op (the next line does not start an op, a block,
    a region's end or an alias) with a space. Offsets are unchanged.

    MLIR does not care about line breaks, and long ops are printed (binding lists, switch
    cases) or hand-written across lines; the grammar ends ops at newlines, so it sees them
    joined.
    """
    joins: list[tuple[int, int]] = []
    # For each `{` that ends a line and is still open: is it inline (its next line was joined,
    # so its closing `}` line must be joined too) or a region?
    open_braces: list[bool] = []
    for match in _NEWLINES.finditer(text):
        start = match.end()
        if start >= len(text):
            break
        newline = match.start()
        before = newline - 1
        while before >= 0 and text[before] in " \t\r":
            before -= 1
        ends_with_brace = before >= 0 and text[before] == "{"
        char = text[start]
        if char == "}":
            if not ends_with_brace and open_braces and open_braces.pop():
                joins.append((newline, start))
            continue
        join = _continues(text, start, char)
        if ends_with_brace:
            open_braces.append(join)
        if join:
            joins.append((newline, start))
    if not joins:
        return text
    pieces: list[str] = []
    cursor = 0
    for begin, end in joins:
        pieces.append(text[cursor:begin])
        pieces.append(text[begin:end].replace("\n", " "))
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*')


def blank_comments(text: str) -> str:
    """Replace `// ...` comments (not `//` inside strings) with spaces, keeping offsets, so a
    comment line inside a wrapped op does not hide the rest of the op."""
    if "//" not in text:
        return text

    def blank(match: re.Match[str]) -> str:
        found = match.group()
        return found if found.startswith('"') else " " * len(found)

    return _STRING_OR_COMMENT.sub(blank, text)


def _check_undecoded_bytes(source: Source) -> None:
    """Reject a byte that is not UTF-8 (see `decode_source`) outside comments and strings.

    MLIR's lexer takes any byte in a comment or a string literal and no other byte that is
    not UTF-8; such bytes are kept as they are (and printed back as the same bytes).
    """
    text = source.text
    undecoded = undecoded_bytes(text)
    first = next(undecoded, None)
    if first is None:
        return
    spans = [(m.start(), m.end()) for m in _STRING_OR_COMMENT.finditer(text)]
    starts = [start for start, _ in spans]
    for position, byte in itertools.chain([first], undecoded):
        index = bisect.bisect_right(starts, position) - 1
        if index < 0 or spans[index][1] <= position:
            message = f"invalid UTF-8: byte 0x{byte:02X} outside a comment or string"
            raise DiagnosticError(Diagnostic("error", message, source.location_at(position)))


def parse_module(text: str, name: str = "<input>", line_offset: int = 0) -> Module:
    """Parse a file's text into a Module. Raises DiagnosticError on malformed input."""
    source = Source(name, text, line_offset)
    _check_undecoded_bytes(source)
    lark = get_lark()
    builder = _builder()
    to_parse = join_continuation_lines(blank_comments(blank_verbatim_bodies(text)))
    if not to_parse.endswith("\n"):
        to_parse += "\n"
    builder.begin(source, to_parse)  # type: ignore[attr-defined]
    # Parsing allocates millions of small objects and frees none; the cyclic collector would
    # rescan them over and over (a third of the parse time on large files).
    collecting = gc.isenabled()
    gc.disable()
    try:
        module = cast(Module, lark.parse(to_parse, start="start"))
    except UnexpectedInput as exc:
        raise DiagnosticError(_syntax_diagnostic(exc, source)) from None
    finally:
        if collecting:
            gc.enable()
    return module


def _describe(token: Token) -> str:
    if token.type == "_NL":
        return "end of line"
    if token.type == "$END":
        return "end of input"
    return f"'{token}'"


def _syntax_diagnostic(exc: UnexpectedInput, source: Source) -> Diagnostic:
    """Turn a Lark error into a located diagnostic in MLIR's words."""
    # Positions, not Lark's line numbers: continuation lines were joined before parsing.
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        position = getattr(token, "start_pos", None)
        if position is None or token.type == "$END":
            position = len(source.text.rstrip("\n"))
        location = source.location_at(min(int(position), len(source.text)))
        if token.type == "_NL":
            # Point at the end of the line, not the start of the next one.
            location = Location(source, location.line, len(source.line_text(location.line)) + 1)
        message = f"unexpected {_describe(token)}"
        expected = _expected_words(exc.expected)
        if expected:
            message += f", expected {expected}"
        return Diagnostic("error", message, location)
    if isinstance(exc, UnexpectedCharacters):
        position = min(exc.pos_in_stream or 0, len(source.text))
        char = source.text[position] if position < len(source.text) else ""
        return Diagnostic("error", f"unexpected character '{char}'", source.location_at(position))
    if isinstance(exc, UnexpectedEOF):
        lines = source.text.rstrip("\n").count("\n") + 1
        return Diagnostic(
            "error",
            "unexpected end of input",
            Location(source, lines + source.line_offset, 1),
        )
    return Diagnostic("error", str(exc), Location(source, 1 + source.line_offset, 1))


_EXPECTED_NAMES = {
    "_NL": "end of line",
    "VALUE_ID": "SSA value",
    "SYMBOL_REF": "symbol reference",
    "BARE_ID": "identifier",
    "INTEGER": "integer",
    "FLOAT": "float",
    "STRING": "string",
    "ATTR_REF": "attribute",
    "TYPE_REF": "type",
    "SHAPED": "type",
    "BLOCK_ID": "block name",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "COLON": "':'",
    "COMMA": "','",
    "EQUAL": "'='",
    "LESSTHAN": "'<'",
    "MORETHAN": "'>'",
}


def _expected_words(expected: set[str]) -> str:
    words: set[str] = set()
    for name in expected:
        word = _EXPECTED_NAMES.get(name)
        if word is None:
            try:
                pattern = get_lark().get_terminal(name).pattern
            except KeyError:
                continue
            # Literal keywords and punctuation read best as themselves.
            if pattern.type == "str":
                word = f"'{pattern.value}'"
        if word:
            words.add(word)
    if not words or len(words) > 6:
        return ""
    return " or ".join(sorted(words))
