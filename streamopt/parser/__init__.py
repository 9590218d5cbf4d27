"""Text to IR: `parse_module` reads a file of stream/hal IR into a `Module`.

The grammar (grammar/stream.lark) is compiled once into LALR tables (`streamopt.parser.tables`,
with Lark, cached on disk), and `streamopt.parser.lalr` parses with them, so a run of the tool
loads plain data and never imports Lark. Errors come back as `DiagnosticError`s with the
location of the offending token.
"""

from __future__ import annotations

import bisect
import gc
import itertools
import os
import re
from collections.abc import Sequence
from functools import cache
from typing import cast

from streamopt.diagnostics import (
    Diagnostic,
    DiagnosticError,
    Location,
    OperandTypeMismatch,
    Source,
    undecoded_bytes,
    universal_newlines,
)
from streamopt.ir.module import Module
from streamopt.lazy_regex import lazy_compile
from streamopt.parser.lalr import (
    ParseError,
    Parser,
    Token,
    UnexpectedCharacters,
    UnexpectedToken,
)

_START_RULES = [
    "start",
    "attr_affinity",
    "attr_promise",
    "attr_optimal",
    "attr_topology",
    "attr_dict",
]


def grammar_text() -> str:
    """The text of grammar/stream.lark (from the wheel, or from a source checkout)."""
    # Plain paths rather than importlib.resources, whose import alone costs more than the read.
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    packaged = os.path.join(package, "grammar", "stream.lark")
    if not os.path.isfile(packaged):
        packaged = os.path.join(os.path.dirname(package), "grammar", "stream.lark")
    with open(packaged, encoding="utf-8") as handle:
        return handle.read()


@cache
def _builder() -> object:
    # Imported when first needed: start-up time.
    from streamopt.parser.builder import Builder

    return Builder()


@cache
def get_parser() -> Parser:
    """The shared parser, with the IR builder as its transformer."""
    # Imported when first needed: start-up time.
    from streamopt.parser.tables import load_tables

    return Parser(load_tables(grammar_text(), _START_RULES), _builder())


_VERBATIM_HEADER = lazy_compile(
    r"^[ \t]*(?:stream\.executable|hal\.executable(?:\.source)?|flow\.executable)"
    r"[ \t][^\n]*\{[ \t]*$",
    re.MULTILINE,
)
_BRACES = lazy_compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|[{}]')


def verbatim_bodies(text: str) -> list[tuple[int, int]]:
    """The spans of the bodies of executables, in order: from the newline that ends each
    header (`stream.executable @ex {`) to the `}` that closes it.

    Executables hold kernel code in dialects streamopt never reads: the parser takes each body
    as blank lines (one token) while the builder keeps its original text.
    """
    if "executable" not in text:
        return []
    bodies: list[tuple[int, int]] = []
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
        bodies.append((body_start, end))
        cursor = end
    return bodies


def blank_verbatim_bodies(text: str) -> str:
    """`text` with the bodies of executables (`verbatim_bodies`) replaced by spaces, keeping
    newlines and offsets: what the parser sees."""
    pieces: list[str] = []
    cursor = 0
    for body_start, end in verbatim_bodies(text):
        pieces.append(text[cursor:body_start])
        pieces.append(re.sub(r"[^\n]", " ", text[body_start:end]))
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


# A line break, any blank lines after it, and the next line's indentation.
_NEWLINES = lazy_compile(r"\n(?:[ \t\f\r]*\n)*[ \t\f]*")
# What may start a line that is not the continuation of the op before it.
_RESULT_LIST = lazy_compile(
    r"%[A-Za-z0-9_$.\-]+(?::\w+)?(?:[ \t]*,[ \t]*%[A-Za-z0-9_$.\-]+(?::\w+)?)*[ \t]*=(?!=)"
)
_OP_NAME = lazy_compile(
    r"(?:[A-Za-z_][\w$]*(?:\.[\w$]+)+|module|return|call_indirect|call|unrealized_conversion_cast)"
    r"(?=[ \t<(@%\"{:\[]|\n|$)"
)
_ATTRIBUTE_ENTRY = lazy_compile(r"[\w$.]+[ \t]*=")
# A result name, then an op's name with no `=` between: an op line that lost its `=` (MLIR
# reads it as the start of an op, "expected '=' after SSA name"), never an operand that wraps.
_RESULT_WITHOUT_EQUAL = lazy_compile(
    r"(%[A-Za-z0-9_$.\-]+(?::\w+)?)[ \t]+(?:[A-Za-z_][\w$]*(?:\.[\w$]+)+|\"[\w$.]+\"[ \t]*\()"
)
_BLOCK_LABEL = lazy_compile(r"\^[\w$.\-]+(?:\((?:[^()\n]|\([^()\n]*\))*\))?[ \t]*:(?!:)")
_ALIAS = lazy_compile(r"[#!][\w$.\-]+[ \t]*=")
_GENERIC_OP = lazy_compile(r'"[\w$.]+"[ \t]*\(')


def _continues(text: str, start: int, char: str) -> bool:
    """True if the line starting at `start` (first character `char`) continues an op."""
    if char == "^":
        # A block label ends in `:`; `^bb2(%a : T)` continuing a branch does not.
        return not _BLOCK_LABEL.match(text, start)
    if char == "%":
        return not _RESULT_LIST.match(text, start) and not _RESULT_WITHOUT_EQUAL.match(text, start)
    if char.isalpha() or char == "_":
        return not _OP_NAME.match(text, start) or bool(_ATTRIBUTE_ENTRY.match(text, start))
    if char == '"':
        return not _GENERIC_OP.match(text, start)
    if char in "#!":
        return not _ALIAS.match(text, start)
    return not (char == "{" and text.startswith("{-#", start))


def join_continuation_lines(text: str, blanks: Sequence[tuple[int, int]] = ()) -> str:
    """Replace each newline that continues an op (the next line does not start an op, a block,
    a region's end or an alias) with a space. Offsets are unchanged. `blanks` are spans (each
    from a newline, in order) to read as blank lines: executable bodies.

    MLIR does not care about line breaks, and long ops are printed (binding lists, switch
    cases) or hand-written across lines; the grammar ends ops at newlines, so it sees them
    joined.
    """
    joins: list[tuple[int, int]] = []
    # For each `{` that ends a line and is still open: is it inline (its next line was joined,
    # so its closing `}` line must be joined too) or a region?
    open_braces: list[bool] = []
    # The spans, and one past the end of the text.
    spans = [*blanks, (len(text) + 1, len(text) + 1)]
    blank = 0
    blank_start, blank_end = spans[0]
    for match in _NEWLINES.finditer(text):
        start = match.end()
        newline = match.start()
        while newline >= blank_end:
            blank += 1
            blank_start, blank_end = spans[blank]
        if newline >= blank_start:
            if newline > blank_start:
                continue  # Inside the span, which is one run of blank lines.
            start = blank_end
        if start >= len(text):
            break
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


_STRING_OR_COMMENT = lazy_compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*')


# A `{`, blanks and more of the line: where an op may share the line of the `{` that opens
# its region.
_BRACE_THEN_MORE = lazy_compile(r"\{[ \t]+[^ \t\n]")
_SPACE_BRACE = lazy_compile(" }")
_TAB_BRACE = lazy_compile("\t}")
# A block label that begins a line, and the blank after it when more of the line follows.
_LABEL_THEN_OP = lazy_compile(
    r"^[ \t]*\^[\w$.\-]+(?:\((?:[^()\n]|\([^()\n]*\))*\))?[ \t]*:(?!:)"
    r"(?P<blank>[ \t])[ \t]*(?=[^ \t\n])",
    re.MULTILINE,
)


def split_region_lines(text: str, blanks: Sequence[tuple[int, int]] = ()) -> str:
    """`text` with an op that shares a line with the `{` opening its region, with the `}`
    closing it, or with a block label, put on a line of its own (the blank beside the brace
    or after the label becomes the line break), offsets unchanged. Comments must be blanked
    already; `blanks` are spans read as blank lines (executable bodies), left alone.

    MLIR does not care where lines break (`func.func @f() { %0 = ...` then `return %0 : i32 }`
    is valid); the grammar ends ops, region openings and block labels at line breaks. A `{`
    whose line goes on with what is not an op (an attribute entry) opens no region; a brace
    pair on one line (`{ return }`) is a region only after an op whose custom form reads one
    there (see `_opens_modelled_region`), and is otherwise kept as written.
    """
    if _BRACE_THEN_MORE.search(text) or _more_then_brace(text):
        text = _with_line_breaks(text, _region_splits(text, blanks))
    if "^" in text and _LABEL_THEN_OP.search(text):
        text = _with_line_breaks(text, _label_splits(text, blanks))
    return text


def _more_then_brace(text: str) -> bool:
    """True if some line has more than blanks before a blank and a `}`: where an op may share
    the line of the `}` that closes its region."""
    # Literal patterns: one that starts with a class of characters ("a blank", "anything but
    # a blank") is tried at every position, ten to forty times slower on large files.
    # Printed IR has no tabs, and a tab alone is found faster than a tab and a brace.
    for pattern in (_SPACE_BRACE, _TAB_BRACE) if "\t" in text else (_SPACE_BRACE,):
        for match in pattern.finditer(text):
            before = match.start()
            while before > 0 and text[before - 1] in " \t":
                before -= 1
            if before > 0 and text[before - 1] != "\n":
                return True
    return False


def _with_line_breaks(text: str, splits: Sequence[int]) -> str:
    """`text` with the blank at each of `splits` (in order) made a line break."""
    if not splits:
        return text
    pieces: list[str] = []
    cursor = 0
    for at in splits:
        pieces.append(text[cursor:at])
        pieces.append("\n")
        cursor = at + 1
    pieces.append(text[cursor:])
    return "".join(pieces)


def _in_spans(position: int, spans: Sequence[tuple[int, int]], starts: Sequence[int]) -> bool:
    """True if `position` is inside one of `spans` (sorted and disjoint; `starts` are their
    starts)."""
    index = bisect.bisect_right(starts, position) - 1
    return index >= 0 and position < spans[index][1]


def _label_splits(text: str, blanks: Sequence[tuple[int, int]]) -> list[int]:
    """The blanks after block labels that begin a line and are followed by an op."""
    starts = [start for start, _ in blanks]
    splits = []
    for match in _LABEL_THEN_OP.finditer(text):
        at = match.end()
        if _in_spans(at, blanks, starts):
            continue  # In an executable's body.
        if not _continues(text, at, text[at]):
            splits.append(match.start("blank"))
    return splits


def _region_splits(text: str, blanks: Sequence[tuple[int, int]]) -> list[int]:
    """The blanks beside the braces of regions that share a line with an op, in order."""
    splits: list[int] = []
    opened: list[int] = []
    # Each `}` seen: its `{` and the `{` around the pair.
    closed: dict[int, tuple[int, int]] = {}
    cursor = 0
    for span_start, span_end in [*blanks, (len(text), len(text))]:
        for match in _BRACES.finditer(text, cursor, span_start):
            brace = match.group()
            if brace == "{":
                opened.append(match.start())
            elif brace == "}" and opened:
                open_at = opened.pop()
                enclosing = opened[-1] if opened else -1
                closed[match.start()] = (open_at, enclosing)
                _split_region(text, open_at, match.start(), enclosing, closed, splits)
        # A blank span is an executable's body: its header's `{` and the `}` after it (at
        # `span_end`) are kept as written.
        if opened and span_start < len(text):
            opened.pop()
        cursor = span_end + 1
    splits.sort()
    return splits


def _split_region(
    text: str,
    open_at: int,
    close_at: int,
    enclosing: int,
    closed: dict[int, tuple[int, int]],
    splits: list[int],
) -> None:
    """Add to `splits` the blanks beside the braces at `open_at` and `close_at` that must be
    line breaks, if the pair opens and closes a region that shares a line with an op.
    `enclosing` is the `{` around the pair (-1 if none); `closed` maps each `}` before it to
    its `{` and theirs."""
    first_break = text.find("\n", open_at, close_at)
    after = open_at + 1
    while text[after] in " \t":
        after += 1
    if first_break < 0:
        # `{ util.return }`: a region if it holds an op (not `{ a = 1 }`, `{unit}`) and its op
        # reads regions here; an op kept as written keeps it as written.
        if (
            after > open_at + 1
            and text[close_at - 1] in " \t"
            and not _continues(text, after, text[after])
            and _opens_modelled_region(text, open_at, enclosing, closed)
        ):
            splits.extend((open_at + 1, close_at - 1))
        return
    if after < first_break:
        # `{ %0 = ...`: a region only if what follows the brace starts an op or a block, and
        # split only where a blank can become the line break (`{%0 = ...` is left to the
        # grammar, which refuses it).
        if after == open_at + 1 or _continues(text, after, text[after]):
            return
        splits.append(open_at + 1)
    else:
        # `{` ends its line: a region if the next line is not the rest of an op.
        following = _NEWLINES.match(text, first_break)
        start = following.end() if following else first_break + 1
        if start >= close_at:
            return
        if text[start] != "}" and _continues(text, start, text[start]):
            return
    line_start = text.rfind("\n", open_at, close_at) + 1
    if text[line_start:close_at].strip(" \t") and text[close_at - 1] in " \t":
        splits.append(close_at - 1)


def _opens_modelled_region(
    text: str, open_at: int, enclosing: int, closed: dict[int, tuple[int, int]]
) -> bool:
    """True if the `{` at `open_at` follows an op whose custom form streamopt reads, with a
    region (`util.func`, `scf.if`, `stream.cmd.execute`, ...), and not the `attributes`
    keyword. `enclosing` and `closed` are as for `_split_region`."""
    before = open_at
    while before > 0 and text[before - 1] in " \t":
        before -= 1
    if text.endswith("attributes", 0, before):
        return False
    owner = _owner_name(text, open_at, enclosing, closed)
    if owner is None:
        return False
    # Imported when first needed: start-up time.
    from streamopt.dialects import rule_name_for_op

    return rule_name_for_op(owner) in _rules_with_regions()


def _owner_name(
    text: str, open_at: int, enclosing: int, closed: dict[int, tuple[int, int]]
) -> str | None:
    """The name of the op the `{` at `open_at` belongs to, if it starts on that line."""
    line_start = text.rfind("\n", 0, open_at) + 1
    while True:
        start = max(line_start, enclosing + 1)
        earlier = closed.get(text.rfind("}", start, open_at))
        if earlier is None:
            break
        # `} else {`, `!stream.resource<*>{%size} {`: a brace pair before this `{` on its
        # line belongs to the same op.
        open_at, enclosing = earlier
        if open_at < line_start:
            line_start = text.rfind("\n", 0, open_at) + 1
    while text[start] in " \t":
        start += 1
    results = _RESULT_LIST.match(text, start)
    if results is not None:
        start = results.end()
        while text[start] in " \t":
            start += 1
    name = _OP_NAME.match(text, start)
    return None if name is None else name.group()


@cache
def _rules_with_regions() -> frozenset[str]:
    """The grammar's op rules that read a region."""
    rules = re.finditer(r"^[!?]*(op_\w+)[ \t]*:(.*(?:\n[ \t]+\|.*)*)", grammar_text(), re.M)
    return frozenset(rule[1] for rule in rules if re.search(r"\bregion\b", rule[2]))


_STRING_COMMENT_OR_CR = lazy_compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n\r]*|\r')


def lone_carriage_returns_as_line_breaks(text: str) -> str:
    """`text` with each CR outside strings as LF, offsets unchanged: what the parser reads.

    MLIR reads a CR alone as blank space that also ends a comment, and counts lines by LF
    only (so diagnostics keep the text with its CRs); streamopt's grammar ends ops at line
    breaks, and a CR is one there, except inside a string, where it is a character."""
    if "\r" not in text:
        return text
    pieces: list[str] = []
    cursor = 0
    for match in _STRING_COMMENT_OR_CR.finditer(text):
        if text[match.start()] == "\r":
            pieces.append(text[cursor : match.start()])
            pieces.append("\n")
            cursor = match.end()
    pieces.append(text[cursor:])
    return "".join(pieces)


def blank_comments(text: str, blanks: Sequence[tuple[int, int]] = ()) -> str:
    """Replace `// ...` comments (not `//` inside strings) with spaces, keeping offsets, so a
    comment line inside a wrapped op does not hide the rest of the op. Comments inside
    `blanks` (spans the parser reads as blank: executable bodies) are left alone, so that
    text whose only comments are there is not copied."""
    if "//" not in text:
        return text
    pieces: list[str] = []
    cursor = 0
    spans = [*blanks, (len(text) + 1, len(text) + 1)]
    blank = 0
    blank_start, blank_end = spans[0]
    for match in _STRING_OR_COMMENT.finditer(text):
        start = match.start()
        if text[start] == '"':
            continue
        while start >= blank_end:
            blank += 1
            blank_start, blank_end = spans[blank]
        if start >= blank_start:
            continue
        end = match.end()
        pieces.append(text[cursor:start])
        pieces.append(" " * (end - start))
        cursor = end
    if not pieces:
        return text
    pieces.append(text[cursor:])
    return "".join(pieces)


def text_for_grammar(text: str, bodies: Sequence[tuple[int, int]] = ()) -> str:
    """What the grammar reads of `text`, offsets unchanged: comments blanked, ops that share a
    line with a region's brace on lines of their own, and the lines of each op joined.
    `bodies` are the executable bodies (`verbatim_bodies`), left as written for the parser to
    read as blank lines."""
    blanked = blank_comments(text, bodies)
    return join_continuation_lines(split_region_lines(blanked, bodies), bodies)


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
        if not _in_spans(position, spans, starts):
            message = f"invalid UTF-8: byte 0x{byte:02X} outside a comment or string"
            raise DiagnosticError(Diagnostic("error", message, source.location_at(position)))


# What MLIR's lexer refuses in a string literal: an escape other than \" \\ \n \t or two hex
# digits, and a vertical tab or form feed (which ends the string there).
# Every escape: a known one whole (`\\q` is `\\` then `q`), an unknown one as its backslash.
_ESCAPE = lazy_compile(r'\\(?:["\\nt]|[0-9A-Fa-f]{2}|(?P<bad>))')
_VERTICAL_BLANK = lazy_compile(r"[\v\f]")
_STRING_LITERAL = lazy_compile(r'"(?:[^"\\\n]|\\.)*"')


def _check_string_literals(
    source: Source, host_text: str, bodies: Sequence[tuple[int, int]] = ()
) -> None:
    """Reject, as MLIR's lexer does, an escape it does not know in a string literal, and a
    vertical tab or form feed anywhere (in a string: "expected '"' in string literal"; MLIR
    never takes them as blanks). `host_text` is the text the grammar sees, with comments
    blanked; `bodies` are the executable bodies in it (`verbatim_bodies`), whose kernel code
    is not checked. A stray backslash outside a string is left to the grammar."""
    starts = [start for start, _ in bodies]

    def in_host_code(match: re.Match[str]) -> bool:
        return not _in_spans(match.start(), bodies, starts)

    troubles = []
    if "\\" in host_text:
        bad = (
            escape
            for escape in _ESCAPE.finditer(host_text)
            if escape["bad"] is not None and in_host_code(escape)
        )
        troubles.append(next(bad, None))
    if "\v" in host_text or "\f" in host_text:
        vertical = (blank for blank in _VERTICAL_BLANK.finditer(host_text) if in_host_code(blank))
        troubles.append(next(vertical, None))
    for trouble in sorted((t for t in troubles if t is not None), key=lambda t: t.start()):
        position = trouble.start()
        line_start = host_text.rfind("\n", 0, position) + 1
        line_end = host_text.find("\n", position)
        literals = _STRING_LITERAL.finditer(
            host_text, line_start, line_end if line_end >= 0 else len(host_text)
        )
        in_string = any(literal.start() < position < literal.end() - 1 for literal in literals)
        location = source.location_at(position)
        if trouble.group() == "\\":
            if in_string:
                raise DiagnosticError(
                    Diagnostic("error", "unknown escape in string literal", location)
                )
            continue  # Outside a string: the grammar reports it.
        message = "expected '\"' in string literal" if in_string else "unexpected character"
        raise DiagnosticError(Diagnostic("error", message, location))


def parse_module(
    text: str,
    name: str = "<input>",
    line_offset: int = 0,
    allow_unregistered_dialect: bool = False,
) -> Module:
    """Parse a file's text into a Module. Raises DiagnosticError on malformed input, which
    includes ops, attributes and types of dialects iree-opt does not register unless
    `allow_unregistered_dialect` (mlir-opt's `--allow-unregistered-dialect`: ops in the
    generic form, attributes and types are then kept as written). Line breaks may be
    CR LF (see `universal_newlines`): they are read, and printed back, as LF, as iree-opt
    does."""
    text = universal_newlines(text)
    source = Source(name, text, line_offset)
    _check_undecoded_bytes(source)
    text = lone_carriage_returns_as_line_breaks(text)
    parser = get_parser()
    builder = _builder()
    # The parser reads executable bodies as blank lines (the builder keeps their text), and
    # that and the rest is done without a copy of the text where there is nothing else to do.
    bodies = verbatim_bodies(text)
    to_parse = text_for_grammar(text, bodies)
    _check_string_literals(source, to_parse, bodies)
    if not to_parse.endswith("\n"):
        to_parse += "\n"
    builder.begin(source, to_parse, allow_unregistered_dialect)  # type: ignore[attr-defined]
    # Parsing allocates millions of small objects and frees none; the cyclic collector would
    # rescan them over and over (a third of the parse time on large files).
    collecting = gc.isenabled()
    gc.disable()
    try:
        module = cast(Module, parser.parse(to_parse, "start", bodies))
    except ParseError as exc:
        raise DiagnosticError(_syntax_diagnostic(exc, source)) from None
    except OperandTypeMismatch as exc:
        # The builder still holds the scopes of the op being built: it can name the value.
        raise builder.mismatch_at_use(exc) from None  # type: ignore[attr-defined]
    finally:
        # The builder outlives the parse: let go of the text it was given (the module keeps
        # the source for diagnostics) so that no second copy of a large file stays alive.
        builder.begin(Source(name, ""))  # type: ignore[attr-defined]
        del to_parse
        if collecting:
            gc.enable()
    return module


def unexpected_token_message(exc: UnexpectedToken) -> str:
    """`unexpected 'x', expected ...`: the grammar's words for a token it did not expect."""
    message = f"unexpected {_describe(exc.token)}"
    expected = _expected_words(exc.expected)
    return f"{message}, expected {expected}" if expected else message


def _describe(token: Token) -> str:
    if token.type == "_NL":
        return "end of line"
    if token.type == "$END":
        return "end of input"
    return f"'{token}'"


def _pretty_body_diagnostic(source: Source, position: int) -> Diagnostic | None:
    """MLIR's error when a dialect attribute's or type's `<...>` body that opens on the line
    of a syntax error, at or before it, does not nest its brackets (`#foo<<>`, which the
    lexer could not take whole): MLIR scans such a body before anything else reads it."""
    text = source.text
    line_start = text.rfind("\n", 0, position) + 1
    if "<" not in text[line_start : position + 1]:
        return None
    # Imported on this error path only.
    from streamopt.parser.token_values import first_pretty_body_problem

    problem = first_pretty_body_problem(text, line_start, position + 1)
    if problem is None:
        return None
    return Diagnostic("error", problem[1], source.location_at(problem[0]))


def _syntax_diagnostic(exc: ParseError, source: Source) -> Diagnostic:
    """Turn a Lark error into a located diagnostic in MLIR's words."""
    # Positions, not Lark's line numbers: continuation lines were joined before parsing.
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        position = getattr(token, "start_pos", None)
        if position is not None:
            pretty = _pretty_body_diagnostic(source, position)
            if pretty is not None:
                return pretty
        if position is None or token.type == "$END":
            position = len(source.text.rstrip("\n"))
        lost = _result_without_equal(source.text, int(position))
        if lost is not None:
            return Diagnostic("error", "expected '=' after SSA name", source.location_at(lost))
        if "_NL" in exc.expected and _starts_no_op(source.text, int(position), str(token)):
            # An op could have ended at the line break, and MLIR reads this token as the start
            # of the next one (emitWrongTokenError: at the end of the token before it).
            where = source.location_at(_end_of_previous_token(source.text, int(position)))
            return Diagnostic("error", "expected operation name in quotes", where)
        location = source.location_at(min(int(position), len(source.text)))
        if token.type == "_NL":
            # Point at the end of the line, not the start of the next one.
            location = Location(source, location.line, len(source.line_text(location.line)) + 1)
        return Diagnostic("error", unexpected_token_message(exc), location)
    if isinstance(exc, UnexpectedCharacters):
        position = min(exc.pos_in_stream or 0, len(source.text))
        pretty = _pretty_body_diagnostic(source, position)
        if pretty is not None:
            return pretty
        char = source.text[position] if position < len(source.text) else ""
        return Diagnostic("error", f"unexpected character '{char}'", source.location_at(position))
    return Diagnostic("error", str(exc), Location(source, 1 + source.line_offset, 1))


def _result_without_equal(text: str, position: int) -> int | None:
    """Where MLIR reports the line of `position` when it is a result name then an op's name
    with no `=` between, and `position` is past the name: just after the name."""
    line_start = text.rfind("\n", 0, position) + 1
    indented = text[line_start:position]
    found = _RESULT_WITHOUT_EQUAL.match(text, line_start + len(indented) - len(indented.lstrip()))
    return found.end(1) if found is not None and found.end(1) <= position else None


def _starts_no_op(text: str, position: int, token: str) -> bool:
    """Whether `token`, at `position`, is the first on its line and cannot start an op (an op
    starts with a result, a name, a quoted generic name, a block label, or is a `}`)."""
    line_start = text.rfind("\n", 0, position) + 1
    if text[line_start:position].strip(" \t"):
        return False
    first = token[:1]
    return not (first.isalpha() or first in '_%"^}')


def _end_of_previous_token(text: str, position: int) -> int:
    """Where MLIR reports a wrong token at `position` (Parser::emitWrongTokenError): after the
    last token before it, over blank lines and the `//` comments of the lines it backs over."""
    end = position
    # Each line is read once, back to front (no copies: this is linear in the lines it backs
    # over, however many blank ones there are).
    while True:
        while end > 0 and text[end - 1] in " \t":
            end -= 1
        if end == 0:
            return position
        if text[end - 1] not in "\n\r":
            return end
        end -= 1
        line_start = text.rfind("\n", 0, end) + 1
        line_start = max(line_start, text.rfind("\r", line_start, end) + 1)
        comment = text.find("//", line_start, end)
        if comment >= 0:
            end = comment


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
            # Literal keywords and punctuation read best as themselves.
            literal = get_parser().literal(name)
            if literal is not None:
                word = f"'{literal}'"
        if word:
            words.add(word)
    if not words or len(words) > 6:
        return ""
    return " or ".join(sorted(words))
