"""Text to IR: `parse_module` reads a file of stream/hal IR into a `Module`.

The grammar (grammar/stream.lark) is compiled once into LALR tables that Lark caches on disk, so
each run of the tool only loads them. When the optional `lark_cython` package is installed its
faster lexer and parser are used. Errors come back as `DiagnosticError`s with the location of the
offending token.
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
from functools import cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from streamopt.diagnostics import Diagnostic, DiagnosticError, Location, Source
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
            import lark_cython

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
    r"^[ \t]*(?:stream\.executable|hal\.executable(?:\.source)?|flow\.executable)[ \t][^\n]*\{[ \t]*$",
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


def parse_module(text: str, name: str = "<input>", line_offset: int = 0) -> Module:
    """Parse a file's text into a Module. Raises DiagnosticError on malformed input."""
    source = Source(name, text, line_offset)
    lark = get_lark()
    builder = _builder()
    builder.begin(source)  # type: ignore[attr-defined]
    to_parse = blank_verbatim_bodies(text)
    if not to_parse.endswith("\n"):
        to_parse += "\n"
    # Parsing allocates millions of small objects and frees none; the cyclic collector would
    # rescan them over and over (a third of the parse time on large files).
    collecting = gc.isenabled()
    gc.disable()
    try:
        module: Module = lark.parse(to_parse, start="start")
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
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        line = getattr(token, "line", None) or exc.line
        column = getattr(token, "column", None) or exc.column
        if token.type == "_NL":
            # Point at the end of the line, not the start of the next one.
            text = source.line_text(int(line) + source.line_offset)
            column = len(text) + 1
        message = f"unexpected {_describe(token)}"
        expected = _expected_words(exc.expected)
        if expected:
            message += f", expected {expected}"
        return Diagnostic(
            "error", message, Location(source, int(line) + source.line_offset, int(column))
        )
    if isinstance(exc, UnexpectedCharacters):
        char = source.text[exc.pos_in_stream] if exc.pos_in_stream < len(source.text) else ""
        return Diagnostic(
            "error",
            f"unexpected character '{char}'",
            Location(source, exc.line + source.line_offset, exc.column),
        )
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
    words = sorted({_EXPECTED_NAMES.get(name, "") for name in expected} - {""})
    if not words or len(words) > 6:
        return ""
    return " or ".join(words)
