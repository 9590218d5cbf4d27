"""Read the insides of coarse tokens: types and dialect attributes.

The grammar lexes `!stream.resource<*>` or `#hal.device.affinity<@dev_a>` as one token. These
functions turn a token's text into a structured type or attribute, once per distinct spelling
(the results are cached), using the grammar's `attr_*` start rules for dialect attributes.
"""

from __future__ import annotations

from functools import cache
from re import Match
from typing import Any, cast

from streamopt.dialects.registered import REGISTERED_DIALECTS
from streamopt.ir.types import (
    I64,
    INDEX,
    AffinityAttr,
    AliasAttr,
    Attribute,
    BoolAttr,
    DialectType,
    FloatAttr,
    FloatType,
    IndexType,
    IntegerAttr,
    IntegerType,
    OpaqueAttr,
    OpaqueType,
    OptimalAffinityAttr,
    ResourceType,
    ShapedType,
    StringAttr,
    TopologyAttr,
    TopologyLink,
    Type,
    TypeAttr,
    UnitAttr,
    symbol_ref_from_text,
    unescape_string,
)
from streamopt.lazy_regex import lazy_compile
from streamopt.parser.lalr import ParseError, Parser, UnexpectedCharacters, UnexpectedToken
from streamopt.parser.parts import TOKEN_CLASSES

_type_cache: dict[str, Type] = {}
_attr_cache: dict[tuple[str, str, Type | None], Attribute] = {}

_INTEGER_TYPE = lazy_compile(r"(si|ui|i)([0-9]+)")
_FLOAT_TYPES = frozenset(
    {
        "f16",
        "bf16",
        "f32",
        "f64",
        "f80",
        "f128",
        "tf32",
        "f8E5M2",
        "f8E4M3FN",
        "f8E5M2FNUZ",
        "f8E4M3FNUZ",
        "f8E4M3B11FNUZ",
        "f8E4M3",
        "f8E3M4",
        "f6E2M3FN",
        "f6E3M2FN",
        "f4E2M1FN",
        "f8E8M0FNU",
    }
)
_PARAMETERLESS = frozenset(
    {
        "!stream.timepoint",
        "!stream.binding",
        "!stream.channel",
        "!stream.file",
        "!hal.device",
        "!hal.buffer",
        "!hal.fence",
        "!hal.buffer_view",
        "!hal.command_buffer",
        "!hal.allocator",
        "!hal.executable",
        "!hal.channel",
        "!hal.file",
        "!hal.semaphore",
        "!util.buffer",
        "!util.list<?>",
        "!util.variant",
        "!util.object",
    }
)


# The types IREE's dialects define (their mnemonics): any other `!hal.x` is an error in IREE.
_DIALECT_TYPES = {
    "hal": (
        "unknown HAL type",
        frozenset(
            [
                "allocator",
                "buffer",
                "buffer_view",
                "channel",
                "command_buffer",
                "device",
                "event",
                "executable",
                "fence",
                "file",
                "semaphore",
            ]
        ),
    ),
    "stream": (
        "unknown stream type",
        frozenset(["binding", "channel", "file", "resource", "test.fence", "timepoint"]),
    ),
    "util": (
        "unknown util type",
        frozenset(["buffer", "list", "object", "ptr", "unused", "variant"]),
    ),
}
_DIALECT_TYPE = lazy_compile(r"!(hal|stream|util)\.([A-Za-z0-9_$.\-]*)")


def dialect_type_problem(text: str) -> str | None:
    """Why type `text` is not a type of the hal, stream or util dialect it names, or None."""
    match = _DIALECT_TYPE.match(text)
    if match is None:
        return None
    message, known = _DIALECT_TYPES[match.group(1)]
    mnemonic = match.group(2)
    if mnemonic in known:
        return None
    return f"{message}: {mnemonic}"


# The attributes IREE's dialects define (the mnemonics of HALAttrs.td, StreamAttrs.td,
# StreamTypes.td and UtilAttrs.td), with MLIR's words for any other.
_DIALECT_ATTRIBUTES = {
    "hal": (
        "unknown HAL attribute: {}",
        frozenset(
            [
                "abi.convention",
                "collective",
                "descriptor_type",
                "device.affinity",
                "device.alias",
                "device.fallback",
                "device.link",
                "device.optimal",
                "device.ordinal",
                "device.promise",
                "device.select",
                "device.target",
                "device.topology",
                "executable.object",
                "executable.objects",
                "executable.target",
                "pipeline.binding",
                "pipeline.layout",
            ]
        ),
    ),
    "stream": (
        "unknown attribute `{}` in dialect `stream`",
        frozenset(
            ["collective", "parameter.named", "partitioning_config", "resource_config", "timepoint"]
        ),
    ),
    "util": (
        "unknown attribute `{}` in dialect `util`",
        frozenset(
            [
                "byte_pattern",
                "byte_range",
                "composite",
                "inline.always",
                "inline.never",
                "int.assumption",
                "null",
                "preprocessing_pipeline",
                "uninitialized",
            ]
        ),
    ),
}
# A hal, stream or util attribute's mnemonic, past string literals (which may spell anything).
_DIALECT_ATTRIBUTE = lazy_compile(r'"(?:[^"\\\n]|\\.)*"|#(hal|stream|util)\.([A-Za-z_][\w$.]*)')
_attribute_problems: dict[str, tuple[int, str] | None] = {}


def dialect_attribute_problem(text: str) -> tuple[int, str] | None:
    """Why a token's text (an attribute, or a clause or type holding attributes) names a hal,
    stream or util attribute IREE does not define or spells `#hal.device.target<...>` wrongly:
    the offset in `text` to report at and MLIR's message; None if it does not."""
    if "#" not in text:
        return None
    if text in _attribute_problems:
        return _attribute_problems[text]
    problem: tuple[int, str] | None = None
    for match in _DIALECT_ATTRIBUTE.finditer(text):
        dialect = match.group(1)
        if dialect is None:
            continue
        message, known = _DIALECT_ATTRIBUTES[dialect]
        mnemonic = match.group(2)
        if mnemonic not in known:
            problem = (match.start(2), message.format(mnemonic))
            break
        if mnemonic == "device.target" and text.startswith("<", match.end()):
            problem = _device_target_problem(text, match.end())
            if problem is not None:
                break
        if mnemonic == "executable.target" and text.startswith("<", match.end()):
            problem = _executable_target_problem(text, match.end())
            if problem is not None:
                break
        if mnemonic == "int.assumption" and text.startswith("<", match.end()):
            problem = int_assumption_fields(text, match.end())[1]
            if problem is not None:
                break
    _attribute_problems[text] = problem
    return problem


_OPENER_OF = {">": "<", ")": "(", "]": "[", "}": "{"}
_pretty_problems: dict[str, tuple[int, str] | None] = {}


def pretty_body_problem(text: str) -> tuple[int, str] | None:
    """Where a dialect attribute's or type's `<...>` body in `text` (a token) nests its
    brackets wrongly (`#foo.bar<(a>`), and MLIR's message; None if every such body nests
    them. MLIR checks every such body so (`scan_pretty_body`) before any dialect reads it: it
    holds for the attributes and types of every dialect."""
    if "<" not in text:
        return None
    if text in _pretty_problems:
        return _pretty_problems[text]
    problem = None
    # The lexer balanced the `<...>`: only another bracket, or a `->`, can nest wrongly.
    if any(char in text for char in "()[]{}-"):
        problem = first_pretty_body_problem(text, 0, len(text))
    _pretty_problems[text] = problem
    return problem


def first_pretty_body_problem(text: str, start: int, end: int) -> tuple[int, str] | None:
    """The first problem MLIR's scan finds (`scan_pretty_body`, to the end of `text`) in the
    body of a dialect attribute or type whose `<` is in `text[start:end]`; None if none."""
    position = start
    while True:
        # A dialect attribute's or type's name (or a string, stepped over); the regex is the
        # one `unregistered_dialect_problem` compiles anyway (a compile costs start-up time).
        match = _DIALECT_SYMBOL.search(text, position, end)
        if match is None:
            return None
        position = match.end()
        if match.group(1) is not None and text.startswith("<", position):
            position, problem = scan_pretty_body(text, position)
            if problem is not None:
                return problem


def scan_pretty_body(text: str, start: int) -> tuple[int, tuple[int, str] | None]:
    """Scan the `<...>` body whose `<` is at `start` as MLIR's parseDialectSymbolBody does:
    where it ends, and the problem if it closes a bracket it did not open last or `text`
    ends first (as the body's token ends when MLIR would read `->` where the lexer read `-`
    and `>`). MLIR reports at the body's `<`, or at the last string literal it stepped over,
    and names the bracket open last."""
    open_brackets: list[str] = []
    report = start
    position = start
    while position < len(text):
        char = text[position]
        if char in "<([{":
            open_brackets.append(char)
        elif char in ">)]}":
            if open_brackets[-1] != _OPENER_OF[char]:
                break
            open_brackets.pop()
            if not open_brackets:
                return position + 1, None
        elif char == "-" and text.startswith("->", position):
            position += 1  # `->` is one token: its `>` closes nothing.
        elif char == '"':
            string = _STRING.match(text, position)
            if string is None:
                return len(text), None  # An unterminated string: the lexer reports it.
            report = position
            position = string.end()
            continue
        position += 1
    message = f"unbalanced '{open_brackets[-1]}' character in pretty dialect name"
    return position, (report, message)


def _outline_parts(text: str, start: int) -> list[tuple[int, int, str]] | None:
    """Each comma-separated part of the `<...>` at `start` (`_top_level_parts`) as its start,
    where its text starts past blanks, and that text stripped; None if it is not closed."""
    parts = _top_level_parts(text, start)
    if parts is None:
        return None
    outline = []
    for part_start, part_end in parts:
        part = text[part_start:part_end]
        outline.append((part_start, part_start + len(part) - len(part.lstrip()), part.strip()))
    return outline


def _device_target_problem(text: str, start: int) -> tuple[int, str] | None:
    """The shape HAL's DeviceTargetAttr::parse reads after `#hal.device.target`:
    `<"id">`, `<"id", {config}>`, `<"id", [targets]>` or `<"id", {config}, [targets]>`; the
    error (at the end of the part before the one that is wrong, as MLIR reports a wrong
    token) if the `<...>` at `start` is not one of them. The config is read as a dictionary;
    what its values and the targets hold is left to their own reading."""
    parts = _outline_parts(text, start)
    if parts is None:
        return None  # Unbalanced: the token would not have lexed.
    for index, (part_start, lead, stripped) in enumerate(parts):
        if index == 0:
            string = _STRING.match(stripped)
            if string is None:
                return (lead, "expected attribute value")
            if string.end() != len(stripped):
                return (lead + string.end(), "expected '>'")
            continue
        after_list = index == 2 and parts[1][2].startswith("[")
        if index > 2 or after_list:
            return (part_start - 1, "expected '>'")
        opening = stripped[:1]
        if opening not in ("[" if index == 2 else "{["):
            return (lead, "expected '['" if index == 2 else "expected attribute value")
        if not stripped.endswith("}" if opening == "{" else "]"):
            return (lead + 1, "expected '>'")
        if opening == "{":
            problem = _dictionary_problem(text, lead, lead + len(stripped) - 1)
            if problem is not None:
                return problem
        if opening == "[" and not stripped[1:-1].strip():
            # At least one target: the list is parsed with a do-while.
            return (lead + len(stripped) - 1, "expected attribute value")
    return None


_STRING = lazy_compile(r'"(?:[^"\\\n]|\\.)*"')


def _executable_target_problem(text: str, start: int) -> tuple[int, str] | None:
    """The shape HAL's ExecutableTargetAttr::parse reads after `#hal.executable.target`:
    `<"backend", "format">` or `<"backend", "format", {config}>`; the error, where MLIR
    reports it, if the `<...>` at `start` is not one of them. The config is read as a
    dictionary; what its values hold is left to their own reading."""
    parts = _outline_parts(text, start)
    if parts is None:
        return None  # Unbalanced: the token would not have lexed.
    for index, (part_start, lead, stripped) in enumerate(parts):
        if index > 2:
            return (part_start - 1, "expected '>'")
        if not stripped:
            return (lead, "expected attribute value")
        if index < 2:
            string = _STRING.match(stripped)
            if string is None:
                return (lead, "invalid kind of attribute specified")
            if string.end() != len(stripped):
                return (lead + string.end(), "expected ','" if index == 0 else "expected '>'")
            if len(parts) == 1:
                return (lead + string.end(), "expected ','")
            continue
        if not stripped.startswith("{"):
            return (lead, "invalid kind of attribute specified")
        # With what follows its `}`, which the dictionary's reading refuses where MLIR does.
        problem = _dictionary_problem(text, lead, lead + len(stripped) - 1)
        if problem is not None:
            return problem
    return None


# The fields of `#util.int.assumption` (IREE's IntAssumptionAttr), in the order IREE prints them.
INT_ASSUMPTION_FIELDS = ("umin", "umax", "udiv")

# MLIR's tokens, as far as an int assumption's or a dense array's body tells them apart: a
# bare identifier (a keyword: `true` too), a float, an integer, a string or an arrow (`->`:
# no sign), or one other character.
_BODY_TOKEN = lazy_compile(
    r"[ \t\n]*(?:([A-Za-z_][\w$.]*)|(\d+\.\d*(?:[eE][-+]?\d+)?)|(0x[0-9A-Fa-f]+|\d+)"
    r'|("(?:[^"\\\n]|\\.)*"|->)|(.))'
)


def int_assumption_fields(
    text: str, start: int, op_name: str | None = None
) -> tuple[dict[str, int], tuple[int, str] | None]:
    """The fields of the int assumption body whose `<` is at `start` in `text` (`<umin = 0,
    udiv = 4>`), read as IREE's generated parser reads `struct($umin, $umax, $udiv)`: in any
    order, each at most once, a field with no value (`umin = `) left out, a value as
    `int_assumption_value` reads it. With the first error, as (offset in `text`, MLIR's
    words), or None; in the custom form of op `op_name`, MLIR words the errors the attribute's
    parser raises (not a wrong token) `custom op 'NAME' ...`."""
    tokens = _body_tokens(text, start + 1)
    fields: dict[str, int] = {}
    seen: set[str] = set()
    index = 0
    prefix = f"custom op '{op_name}' " if op_name else ""

    def wrong_token(message: str) -> tuple[dict[str, int], tuple[int, str]]:
        return fields, (_wrong_token(text, tokens[index][2]), message)

    while tokens[index][0] == 1:  # A keyword: `name = value?`, then `,` and another.
        name = tokens[index][1]
        index += 1
        if tokens[index][1] != "=":
            return wrong_token("expected '='")
        index += 1
        value_offset = tokens[index][2]
        if name not in INT_ASSUMPTION_FIELDS or name in seen:
            message = f"{prefix}duplicate or unknown struct parameter name: {name}"
            return fields, (value_offset, message)
        seen.add(name)
        negative = tokens[index][1] == "-"
        index += negative
        spelling = tokens[index][1]
        if tokens[index][0] == 3 or (spelling in ("true", "false") and not negative):
            value = int_assumption_value(spelling, negative)
            if value is None:
                return fields, (value_offset, f"{prefix}integer value too large")
            fields[name] = value
            index += 1
        elif negative:
            return wrong_token("expected integer value")
        if tokens[index][1] != ",":
            break
        index += 1
        if tokens[index][0] != 1:
            return fields, (tokens[index][2], f"{prefix}expected valid keyword")
    if tokens[index][1] != ">":
        return wrong_token("expected '>'")
    return fields, None


def _body_tokens(text: str, position: int) -> list[tuple[int, str, int]]:
    """The tokens of `text` from `position` to the first `>` token, then an empty one at the
    end: (group of _BODY_TOKEN, spelling, offset)."""
    tokens: list[tuple[int, str, int]] = []
    while position < len(text) and (not tokens or tokens[-1][1] != ">"):
        match = _BODY_TOKEN.match(text, position)
        if match is None:
            break  # Blanks to the end.
        kind = match.lastindex or 0
        tokens.append((kind, match.group(kind), match.start(kind)))
        position = match.end()
    tokens.append((0, "", len(text)))
    return tokens


@cache  # The builder checks a token, then makes its attribute: one reading serves both.
def dense_array(text: str) -> tuple[str, tuple[int, str] | None]:
    """A dense array attribute (`array<i32: 1, 2>`, the token's `text`) as MLIR prints it,
    with the first error MLIR's parseDenseArrayAttr reports, as (offset, message), or None:
    an element type that is not an integer or float type of whole bytes (or i1), a missing
    `:`, an element that is not a literal of that type, or a value out of its range. Integer
    elements print as MLIR prints them (decimal, signed unless the type is unsigned, `true`
    and `false` for i1); float elements as written."""
    tokens = _body_tokens(text, len("array<"))
    values: list[str] = []
    problem, reached = _dense_array_problem(text, tokens, values)
    # MLIR's lexer reads a token ahead of its parser: a `.` that starts no `...` up to there
    # is its error, first (reported past the `.`).
    for _, spelling, offset in tokens[: reached + 1]:
        if spelling == "." and not text.startswith("...", offset):
            return text, (offset + 1, "expected three consecutive dots for an ellipsis")
    if problem is not None:
        return text, problem
    element = tokens[0][1]
    if element in _FLOAT_TYPES:
        return text, None
    return f"array<{element}: {', '.join(values)}>" if values else f"array<{element}>", None


def _dense_array_problem(
    text: str, tokens: list[tuple[int, str, int]], values: list[str]
) -> tuple[tuple[int, str] | None, int]:
    """What `dense_array` finds wrong in its `tokens` (of `text`), or None, with the index
    of the token MLIR's parser has then reached; the integer elements, as MLIR prints them,
    are added to `values`."""
    type_kind, element, type_offset = tokens[0]
    width: int | None = None
    if type_kind == 1 and (_INTEGER_TYPE.fullmatch(element) or element in _FLOAT_TYPES):
        width = _element_bit_width(element)
    elif element in ("index", "none", "tensor", "vector", "memref", "complex", "tuple", "(", "!"):
        # Another type: MLIR names it as it prints it, which is mostly as written.
        written = text[type_offset:].split(":", 1)[0].rsplit(">", 1)[0].strip()
        if written.count("<") > written.count(">"):
            written += ">"
        return (type_offset, f"expected integer or float type, got: '{written}'"), 0
    if width is None:
        return (type_offset, "expected non-function type"), 0
    wrong_width = integer_width_problem(element)
    if wrong_width is not None:
        return (type_offset, wrong_width), 0
    if element != "i1" and width % 8:
        return (type_offset, "element type bitwidth must be a multiple of 8"), 1
    index = 1
    if tokens[index][1] == ">":
        return None, index
    if tokens[index][1] != ":":
        return (_wrong_token(text, tokens[index][2]), "expected ':' after dense array type"), 1
    integer = element not in _FLOAT_TYPES
    while True:
        index += 1
        negative = tokens[index][1] == "-"
        index += negative
        kind, spelling, offset = tokens[index]
        if integer:
            problem, value = _dense_array_integer(element, width, negative, kind, spelling)
        else:
            problem, value = _dense_array_float(width, negative, kind, spelling)
        if problem is not None:
            if integer and kind == 3:
                # MLIR reports a bad integer literal once it has read it: at the next token.
                return (tokens[index + 1][2], problem), index + 1
            return (offset, problem), index
        values.append(value)
        index += 1
        if tokens[index][1] != ",":
            break
    if tokens[index][1] != ">":
        message = "expected '>' to close an array attribute"
        return (_wrong_token(text, tokens[index][2]), message), index
    return None, index


def _wrong_token(text: str, offset: int) -> int:
    """Where MLIR reports a wrong token at `offset`: just after the token before it."""
    return len(text[:offset].rstrip(" \t\n"))


def _dense_array_integer(
    element: str, width: int, negative: bool, kind: int, spelling: str
) -> tuple[str | None, str]:
    """MLIR's problem with a dense array element of integer type `element` (`width` bits),
    written `spelling` (a token of group `kind`) after a `-` if `negative`, or None; and the
    element as MLIR prints it."""
    if spelling in ("true", "false"):
        if element == "i1":
            return None, spelling
        return "expected i1 type for 'true' or 'false' values", ""
    if kind != 3:
        return "expected integer literal", ""
    if element == "i1":
        return "expected 'true' or 'false' values for i1 type", ""
    value = integer_literal(spelling)
    if not _builds_apint(value, width, negative, element.startswith("si")):
        return "integer constant out of range", ""
    return None, str(_as_held(-value if negative else value, width, element.startswith("ui")))


def _builds_apint(value: int, width: int, negative: bool, signed: bool) -> bool:
    """Whether MLIR's buildAttributeAPInt takes the literal `value` (after a `-` if
    `negative`) in `width` bits: negated, a negative one must set the sign bit; a positive one
    must fit, and not set the sign bit where the type is `signed` (a signed integer, an index)."""
    if negative:
        return width > 0 and 0 < value <= 1 << (width - 1)
    return value.bit_length() <= width - signed


def _as_held(value: int, width: int, unsigned: bool) -> int:
    """`value` as `width` bits hold it, read back signed unless `unsigned`: as MLIR prints an
    integer of that type (a signless one signed)."""
    bits = value % (1 << width) if width else 0
    return bits - (1 << width) if not unsigned and width and bits >> (width - 1) else bits


def _dense_array_float(
    width: int, negative: bool, kind: int, spelling: str
) -> tuple[str | None, str]:
    """MLIR's problem (parseFloatFromLiteral) with a dense array element of a float type of
    `width` bits, written `spelling` (a token of group `kind`) after a `-` if `negative`, or
    None; and the element as written."""
    if kind == 2:
        return None, ("-" if negative else "") + spelling
    if kind != 3:
        return "expected floating point literal", ""
    problem = hex_float_problem(spelling, negative, width)
    return (problem, "") if problem is not None else (None, spelling)


DECIMAL_FOR_FLOAT = "unexpected decimal integer literal for a floating point value"


def hex_float_problem(spelling: str, negative: bool, width: int) -> str | None:
    """MLIR's problem (parseFloatFromIntegerLiteral) with the integer literal `spelling`, after
    a `-` if `negative`, as a float of `width` bits, or None: only hexadecimal spells a
    float's bits, and only as many as it has."""
    if spelling[:2] not in ("0x", "0X"):
        return DECIMAL_FOR_FLOAT
    if negative:
        return "hexadecimal float literal should not have a leading minus"
    if integer_literal(spelling) >> width:
        return "hexadecimal float constant out of range for type"
    return None


def int_assumption_value(spelling: str, negative: bool) -> int | None:
    """The value IREE reads from an int assumption's `spelling` (an integer, `true` or
    `false`) after a `-` if `negative`: MLIR's parseOptionalInteger into a uint64_t, a negative
    value as its 64-bit pattern. None where MLIR says `integer value too large`: from 2**64
    up, and a negative one from -2**63 down (iree-opt 3.13 on 530 values at and around each
    power of two, decimal and hexadecimal, with and without leading zeros)."""
    if spelling in ("true", "false"):
        return (1 << 64) - 1 if spelling == "true" else 0  # An i1: true sign-extends.
    value = integer_literal(spelling)
    if negative:
        return -value % (1 << 64) if value < 1 << 63 else None
    return value if value < 1 << 64 else None


def int_assumption_text(fields: dict[str, int]) -> str:
    """An int assumption's body as IREE prints it, without its `<` and `>`: `umin = 0,
    udiv = 4`."""
    return ", ".join(f"{name} = {fields[name]}" for name in INT_ASSUMPTION_FIELDS if name in fields)


def _skip_blanks(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t":
        position += 1
    return position


def affine_map_problem(text: str) -> tuple[int, str] | None:
    """Where the outline of `affine_map<(dims)[symbols] -> (results)>` (`text`) is wrong, as
    MLIR reports it (just after the token before the wrong one, or at a `>` that comes before
    the range's `)`), or where one of its lists has an empty entry (`(d0, , d1)`); None if it
    is right. What the entries hold is not read."""
    start = len("affine_map<")
    position = _skip_blanks(text, start)
    if not text.startswith("(", position):
        return (start, "expected '(' in dimensional identifier list")
    close = text.find(")", position)
    if close < 0:
        return None
    identifier_lists = [(position, close)]
    after = close + 1
    position = _skip_blanks(text, after)
    if text.startswith("[", position):
        close = text.find("]", position)
        if close < 0:
            return None
        identifier_lists.append((position, close))
        after = close + 1
        position = _skip_blanks(text, after)
    closers = ("expected ')' in dimensional identifier list", "expected ']' in symbol list")
    for (opening, closing), closer in zip(identifier_lists, closers):
        problem = _identifier_list_problem(text, opening, closing, closer)
        if problem is not None:
            return problem
    if text.startswith(":", position):
        return None
    if not text.startswith("->", position):
        return (after, "expected '->' or ':'")
    arrow_end = position + 2
    position = _skip_blanks(text, arrow_end)
    if not text.startswith("(", position):
        return (arrow_end, "expected '(' in affine map range")
    range_close = closing_paren(text, position + 1)
    if range_close is None:
        # The range is still open at the map's closing `>`, the token MLIR stops at.
        return (len(text) - 1, "expected ')' in affine map range")
    empty = _empty_entry(text, position, range_close)
    if empty is not None:
        return (empty[1], "expected affine expression")
    return None


_IDENTIFIER = lazy_compile(r"[ \t]*([A-Za-z_][\w$]*)[ \t]*")


def _identifier_list_problem(
    text: str, opening: int, closing: int, closer: str
) -> tuple[int, str] | None:
    """Where the identifier list from the bracket at `opening` to its match at `closing` is
    not a list of bare identifiers, as MLIR reports it: an entry that is no identifier just
    after the token before it, more after an identifier (`d2 d3`) just after it, with
    `closer` (MLIR's words for the missing `)` or `]`)."""
    empty = _empty_entry(text, opening, closing)
    if empty is not None:
        return (empty[0], "expected bare identifier")
    entry_start = opening + 1
    while entry_start < closing:
        comma = text.find(",", entry_start, closing)
        entry_end = closing if comma < 0 else comma
        identifier = _IDENTIFIER.match(text, entry_start, entry_end)
        if identifier is None:
            return (len(text[:entry_start].rstrip(" \t")), "expected bare identifier")
        if identifier.end() != entry_end:
            return (identifier.end(1), closer)
        entry_start = entry_end + 1
    return None


def _empty_entry(text: str, opening: int, closing: int) -> tuple[int, int] | None:
    """The first empty entry of the comma-separated list from the bracket at `opening` to
    its match at `closing` (`(a, , b)`, `[a, ]`; `()` is an empty list, not an empty entry),
    as where the token before it ends and where the token after it starts; None if none."""
    if not text[opening + 1 : closing].strip():
        return None
    depth = 0
    entry_start = opening + 1
    for position in range(opening + 1, closing + 1):
        char = text[position]
        if char in "([" and position < closing:
            depth += 1
        elif char in ")]" and position < closing:
            depth -= 1
        elif (char == "," and depth == 0) or position == closing:
            if not text[entry_start:position].strip():
                return (entry_start, position)
            entry_start = position + 1
    return None


def _dictionary_problem(text: str, start: int, end: int) -> tuple[int, str] | None:
    """Where the dictionary `text[start:end + 1]` (`{...}`, one line) is not one MLIR reads,
    and MLIR's message, where MLIR reports it: its syntax as the grammar reads a dictionary,
    a bare word that is not an attribute as a value, and a key given twice. The values are
    not built."""
    body = text[start : end + 1]
    try:
        _dictionary_reader().parse(body, "attr_dict")
    except _Misread as exc:
        position = exc.position
        if exc.after_previous:
            position = len(body[:position].rstrip(" \t"))
        return (start + position, exc.message)
    except UnexpectedToken as exc:
        return _unexpected_in_dictionary(body, exc, start)
    except UnexpectedCharacters as exc:
        position = exc.pos_in_stream
        return (start + position, f"unexpected character '{body[position]}'")
    return None


def _unexpected_in_dictionary(body: str, exc: UnexpectedToken, start: int) -> tuple[int, str]:
    """MLIR's words for the token the grammar did not expect in a dictionary `body` (which
    starts at offset `start`), where the two agree: most just after the token before it."""
    # Imported on this error path only (the parser package imports this module lazily).
    from streamopt.parser import unexpected_token_message

    position = exc.token.start_pos
    earlier = _entry_problem_before(body, position)
    if earlier is not None:
        return (start + earlier[0], earlier[1])
    after_previous = start + len(body[:position].rstrip(" \t"))
    expected = exc.expected
    if "INTEGER" in expected and "STRING" in expected:
        return (after_previous, "expected attribute value")
    if "BARE_ID" in expected and "STRING" in expected:
        return (after_previous, "expected attribute name")
    # The parser's states are shared by lists and dictionaries: what is open says which.
    innermost = _innermost_bracket(body, position)
    if innermost is None:
        # Past the dictionary's `}`: the attribute holding it ends there.
        return (after_previous, "expected '>'")
    if innermost == "{" and "RBRACE" in expected:
        return (after_previous, "expected '}' in attribute dictionary")
    if innermost == "[" and "RSQB" in expected:
        return (start + position, "expected ',' or ']'")
    return (start + position, unexpected_token_message(exc))


# The start of a dictionary entry: its key, and its value if that is a bare word.
_ENTRY_START = lazy_compile(
    r'[ \t]*("(?:[^"\\\n]|\\.)*"|[A-Za-z_][\w$.\-]*)[ \t]*'
    r"(?:=[ \t]*([A-Za-z_][\w$.\-]*(?![\w$.\-<]))?)?"
)


def _entry_problem_before(body: str, end: int) -> tuple[int, str] | None:
    """A key given twice or a bare word that is no attribute as a value, among the entries of
    the dictionary `body` that start before `end`: MLIR reads left to right and reports it
    before the token the grammar stopped at, `end`."""
    keys: set[str] = set()
    for part_start, _ in _top_level_parts(body, 0) or ():
        entry = _ENTRY_START.match(body, part_start)
        if part_start >= end or entry is None:
            break
        key = entry.group(1)
        key = unescape_string(key) if key.startswith('"') else key
        if key in keys:
            return (entry.start(1), f"duplicate key '{key}' in dictionary attribute")
        keys.add(key)
        word = entry.group(2)
        if word is not None and entry.start(2) < end and not is_attribute_word(word):
            return (len(body[: entry.start(2)].rstrip(" \t")), "expected attribute value")
    return None


class _Misread(Exception):
    """A dictionary the grammar reads but MLIR does not: where (in the dictionary) and why."""

    def __init__(self, position: int, message: str, after_previous: bool = False) -> None:
        super().__init__(message)
        self.position = position
        self.message = message
        # Reported just after the token before `position`, as MLIR reports a missing value.
        self.after_previous = after_previous


class _DictionaryChecks:
    """The reductions of the dictionary reader: what the builder refuses in a dictionary,
    checked without building anything (any other rule makes a plain tree)."""

    def attribute_value(self, children: list[Any]) -> list[Any]:
        core = children[0]
        if (
            isinstance(core, TOKEN_CLASSES)
            and core.type == "BARE_ID"
            and not is_attribute_word(str(core))
        ):
            raise _Misread(core.start_pos, "expected attribute value", after_previous=True)
        return children

    def attr_dict(self, children: list[Any]) -> list[Any]:
        keys: set[str] = set()
        for entry in children[1:-1]:
            name = entry.children[0]
            key = unescape_string(str(name)) if name.type == "STRING" else str(name)
            if key in keys:
                raise _Misread(name.start_pos, f"duplicate key '{key}' in dictionary attribute")
            keys.add(key)
        return children


@cache
def _dictionary_reader() -> Parser:
    # Imported when first needed: start-up time.
    from streamopt.parser import get_parser

    return get_parser().with_transformer(_DictionaryChecks())


_BRACKET_OR_STRING = lazy_compile(r'"(?:[^"\\\n]|\\.)*"|->|[\[\]{}()<>]')


def _innermost_bracket(text: str, end: int) -> str | None:
    """The bracket still open at `end` in `text` that was opened last (strings and `->`
    skipped)."""
    open_brackets: list[str] = []
    for match in _BRACKET_OR_STRING.finditer(text, 0, end):
        char = match.group()
        if char in "[{(<":
            open_brackets.append(char)
        elif char in "]})>" and open_brackets:
            open_brackets.pop()
    return open_brackets[-1] if open_brackets else None


def _top_level_parts(text: str, start: int) -> list[tuple[int, int]] | None:
    """The (start, end) of each comma-separated part of the `<...>` opening at `start`
    (strings and `->` skipped, nested brackets kept whole), or None if it is not closed."""
    parts: list[tuple[int, int]] = []
    depth = 0
    part_start = start + 1
    position = start
    while position < len(text):
        char = text[position]
        if char == '"':
            string = _STRING.match(text, position)
            position = string.end() if string else position + 1
            continue
        if char == "-" and text.startswith("->", position):
            position += 2
            continue
        if char in "<[{(":
            depth += 1
        elif char in ">]})":
            depth -= 1
            if depth == 0:
                parts.append((part_start, position))
                return parts
        elif char == "," and depth == 1:
            parts.append((part_start, position))
            part_start = position + 1
        position += 1
    return None


# The start of a dialect attribute or type (`#name`, `!name`), past string literals.
_DIALECT_SYMBOL = lazy_compile(r'"(?:[^"\\\n]|\\.)*"|([#!])([A-Za-z_][\w$.\-]*)')
# A type spelled after an attribute (`#foo.a : i32`): a word, then a `<...>` if it has one.
_TYPE_AFTER = lazy_compile(r"[ \t]*:[ \t]*(!?[A-Za-z_][\w$.\-]*)")
_UNREGISTERED_TAIL = (
    "created with unregistered dialect. If this is intended, please use "
    "--allow-unregistered-dialect"
)
_unregistered_problems: dict[tuple[str, str | None], tuple[int, str] | None] = {}


def unregistered_dialect_problem(
    text: str, type_after: str | None = None
) -> tuple[int, str] | None:
    """Where `text` (a token: an attribute, a type, or a clause or type holding them) first
    names an attribute or type of a dialect iree-opt does not register, and MLIR's message
    (with streamopt's flag); None if it names none. `type_after` is the type written after
    the token (`#foo.a : i32`), which MLIR's message names.

    As MLIR's parser reads them: `#a.b` and `!a.b` (with or without a `<...>`) and `#a<...>`
    and `!a<...>` belong to dialect `a`, reported after the dot (the first form) or at the
    `#` or `!` (the second); a `#a` or `!a` alone is an alias. Strings may spell anything."""
    if "#" not in text and "!" not in text:
        return None
    key = (text, type_after)
    if key in _unregistered_problems:
        return _unregistered_problems[key]
    problem: tuple[int, str] | None = None
    for match in _DIALECT_SYMBOL.finditer(text):
        sigil = match.group(1)
        if sigil is None:
            continue
        identifier = match.group(2)
        dialect, dot, _ = identifier.partition(".")
        after = match.end()
        has_body = text.startswith("<", after)
        if (not dot and not has_body) or dialect in REGISTERED_DIALECTS:
            continue
        end = after
        if has_body:
            parts = _top_level_parts(text, after)
            end = parts[-1][1] + 1 if parts else len(text)
        if dot:
            offset = match.start(2) + len(dialect) + 1
            data = text[offset:end]
        else:
            offset = match.start()
            data = text[after + 1 : end - 1]
        if sigil == "#":
            type = _attribute_type_after(text, end) if end < len(text) else type_after
            type = type or "none"
            message = f'#"{dialect}"<"{data}"> : \'{type}\' attribute {_UNREGISTERED_TAIL}'
        else:
            message = f'`!"{dialect}"<"{data}">` type {_UNREGISTERED_TAIL}'
        problem = (offset, message)
        break
    _unregistered_problems[key] = problem
    return problem


def _attribute_type_after(text: str, end: int) -> str | None:
    """The type written after the attribute that ends at `end` in `text`, if one is."""
    match = _TYPE_AFTER.match(text, end)
    if match is None:
        return None
    type_end = match.end()
    if text.startswith("<", type_end):
        parts = _top_level_parts(text, type_end)
        type_end = parts[-1][1] + 1 if parts else len(text)
    return text[match.start(1) : type_end]


def type_from_text(text: str) -> Type:
    """The type spelled `text` (a TYPE_REF, SHAPED or builtin BARE_ID token)."""
    cached = _type_cache.get(text)
    if cached is not None:
        return cached
    result: Type
    if text.startswith("!"):
        if text.startswith("!stream.resource<") and text.endswith(">"):
            lifetime = text[len("!stream.resource<") : -1].strip()
            result = (
                ResourceType(lifetime, text)
                if lifetime in ResourceType.LIFETIMES
                else OpaqueType(text)
            )
        elif text in _PARAMETERLESS:
            result = DialectType(text)
        else:
            result = OpaqueType(text)
    elif text == "index":
        result = INDEX
    elif text.startswith(("tensor<", "vector<", "memref<")):
        result = ShapedType(text)
    else:
        match = _INTEGER_TYPE.fullmatch(text)
        if match:
            signedness = "" if match.group(1) == "i" else match.group(1)
            result = IntegerType(int(match.group(2)), signedness, text)
        elif text in _FLOAT_TYPES:
            result = FloatType(text)
        else:
            result = OpaqueType(text)
    _type_cache[text] = result
    return result


_BUILTIN_TYPE_WORDS = lazy_compile(r"index|(si|ui|i)[0-9]+|none|" + "|".join(sorted(_FLOAT_TYPES)))


def is_builtin_type_word(text: str) -> bool:
    """True if the bare word `text` is a builtin type (`index`, `i32`, `f8E4M3FN`...)."""
    return _BUILTIN_TYPE_WORDS.fullmatch(text) is not None


def is_attribute_word(text: str) -> bool:
    """True if the bare word `text` is an attribute in MLIR's generic attribute syntax:
    `true`, `false`, `unit`, or a builtin type (read as a type attribute)."""
    return text in ("true", "false", "unit") or is_builtin_type_word(text)


def attribute_from_token(kind: str, text: str, type: Type | None) -> Attribute:
    """The attribute spelled by a single token of terminal `kind`, with an optional `: type`."""
    key = (kind, text, type)
    cached = _attr_cache.get(key)
    if cached is not None:
        return cached
    result = _attribute_from_token(kind, text, type)
    _attr_cache[key] = result
    return result


def integer_literal(text: str) -> int:
    """The value of an INTEGER token: hexadecimal after `0x`, else decimal (MLIR allows
    leading zeros, which Python's `int(text, 0)` rejects)."""
    if text[:2] in ("0x", "0X"):
        return int(text, 16)
    return int(text, 10)


def typed_integer_problem(text: str, type: Type | None, negative: bool = False) -> str | None:
    """MLIR's error for the literal `text` (an INTEGER token, after a `-` if `negative`)
    typed `type` (`1 : f32`, `256 : i8`, `-129 : i8`, `1 : !hal.buffer`; None: i64), or None
    when the type holds it."""
    if type is None:
        type = I64
    if negative and isinstance(type, (IntegerType, IndexType)):
        width = type.width if isinstance(type, IntegerType) else 64
        if isinstance(type, IntegerType) and type.signedness == "ui":
            return "negative integer literal not valid for unsigned integer type"
        if not _builds_apint(integer_literal(text), width, True, True):
            return "integer constant out of range for attribute"
        return None
    if isinstance(type, FloatType):
        return hex_float_problem(text, negative, type.width)
    if isinstance(type, IndexType):
        width, signed = 64, True
    elif isinstance(type, IntegerType):
        width, signed = type.width, type.signedness == "si"
    else:
        return "integer literal not valid for specified type"
    if not _builds_apint(integer_literal(text), width, False, signed):
        return "integer constant out of range for attribute"
    return None


def _attribute_from_token(kind: str, text: str, type: Type | None) -> Attribute:
    suffix = f" : {type.text}" if type is not None else ""
    if kind == "INTEGER":
        return integer_attribute(integer_literal(text), text, type)
    if kind == "FLOAT":
        return float_attribute(float(text), text, type)
    if type is not None:
        if isinstance(type, ShapedType) and text.startswith("dense<"):
            # As MLIR prints it; checked as read (Builder.check_dense).
            return OpaqueAttr(dense_elements(text, type)[0] + suffix)
        # Other shaped literals and strings with a type: kept as written.
        return OpaqueAttr(text + suffix)
    if kind == "STRING":
        # MLIR prints a string its own way (`\0A`, `\22`, `\C3\A9`): the text as written is
        # kept when it is already that spelling, as it is in what MLIR printed.
        plain = text.isascii() and text.isprintable() and "\\" not in text
        return StringAttr(unescape_string(text), text if plain else None)
    if kind == "SYMBOL_REF":
        return symbol_ref_from_text(text)
    if kind == "BARE_ID":
        if text == "true":
            return BoolAttr(True)
        if text == "false":
            return BoolAttr(False)
        if text == "unit":
            return UnitAttr()
        if _BUILTIN_TYPE_WORDS.fullmatch(text):
            return TypeAttr(type_from_text(text))
        return OpaqueAttr(text)
    if kind == "TYPE_REF":
        return TypeAttr(type_from_text(text))
    if kind == "SHAPED":
        if text.startswith(("tensor<", "vector<", "memref<")):
            return TypeAttr(type_from_text(text))
        if text.startswith("array<"):
            return OpaqueAttr(dense_array(text)[0])  # As MLIR prints it; checked as read.
        return OpaqueAttr(text)
    if kind == "ATTR_REF":
        return _dialect_attribute(text)
    return OpaqueAttr(text)


_STRUCTURED_ATTRS = {
    "#hal.device.affinity<": "attr_affinity",
    "#hal.device.promise<": "attr_promise",
    "#hal.device.optimal<": "attr_optimal",
    "#hal.device.topology<": "attr_topology",
}


def integer_attribute(value: int, spelling: str, type: Type | None) -> IntegerAttr | FloatAttr:
    """The attribute of integer literal `spelling` (of `value`, its sign applied) and its
    type, holding and spelling the value as MLIR prints it: in decimal, as the type's width
    holds it (signed unless the type is unsigned; i64 where no type is written), `true` or
    `false` for i1. A hexadecimal literal of a float type `streamopt.ir.floats` spells is the
    float of those bits; one of another type keeps its spelling."""
    if type is None or isinstance(type, IntegerType):
        width = type.width if type is not None else 64
        unsigned = type is not None and type.signedness == "ui"
        value = _as_held(value, width, unsigned)
        if type is None:
            return IntegerAttr(value, None, str(value))
        if width == 1 and not type.signedness:
            return IntegerAttr(value % 2, type, "true" if value else "false")
        return IntegerAttr(value, type, f"{value} : {type.text}")
    if isinstance(type, IndexType):
        return IntegerAttr(value, type, f"{value} : {type.text}")
    if isinstance(type, FloatType):
        # Imported on first use: start-up time.
        from streamopt.ir.floats import float_from_bits

        read = float_from_bits(value, type.text)
        if read is not None:
            return FloatAttr(read[0], type, f"{read[1]} : {type.text}")
    return IntegerAttr(value, type, f"{spelling} : {type.text}")


def float_attribute(value: float, spelling: str, type: Type | None) -> FloatAttr:
    """The attribute of float literal `spelling` (of `value`) and its type, spelled as MLIR
    prints it where the type is one `streamopt.ir.floats` spells (f64 where none is
    written), else as written."""
    # Imported on first use: start-up time.
    from streamopt.ir.floats import float_text

    text = float_text(value, type.text if type is not None else "f64") or spelling
    return FloatAttr(value, type, text + (f" : {type.text}" if type is not None else ""))


def _dialect_attribute(text: str) -> Attribute:
    if "<" not in text:
        return AliasAttr(text)
    prefix = text[: text.index("<") + 1]
    if prefix == "#util.int.assumption<":
        # As IREE prints it (`umin = 16` for `umin = 0x10`); the token was checked as read.
        fields = int_assumption_fields(text, len(prefix) - 1)[0]
        return OpaqueAttr(f"{prefix}{int_assumption_text(fields)}>")
    start_rule = _STRUCTURED_ATTRS.get(prefix)
    if start_rule is None:
        return OpaqueAttr(text)
    # Imported when first needed: start-up time.
    from streamopt.parser import get_parser

    try:
        parsed = cast(Attribute, get_parser().parse(text, start_rule))
    except ParseError:
        # Well-formed as a token but not as this attribute: keep it as written rather than
        # reject input IREE may accept.
        return OpaqueAttr(text)
    parsed.text = text
    return parsed


def affinity_from_parts(kind: str, children: list[Any]) -> AffinityAttr:
    tokens = [c for c in children if isinstance(c, TOKEN_CLASSES)]
    device = symbol_ref_from_text(str(tokens[0])).root
    queues = [integer_literal(str(t)) for t in tokens[1:] if t.type == "INTEGER"]
    has_queue_list = any(str(t) == "[" for t in tokens) or len(tokens) > 1
    return AffinityAttr(device, queues if has_queue_list else None, kind)


def optimal_from_parts(children: list[Any]) -> OptimalAffinityAttr:
    affinities = [
        _dialect_attribute(str(c))
        for c in children
        if isinstance(c, TOKEN_CLASSES) and c.type == "ATTR_REF"
    ]
    return OptimalAffinityAttr(affinities)


def topology_from_parts(children: list[Any]) -> TopologyAttr:
    return TopologyAttr([c for c in children if isinstance(c, TopologyLink)])


def link_from_parts(children: list[Any]) -> TopologyLink:
    symbols = [c for c in children if isinstance(c, TOKEN_CLASSES) and c.type == "SYMBOL_REF"]
    properties = next((c for c in children if isinstance(c, dict)), {})
    return TopologyLink(
        symbol_ref_from_text(str(symbols[0])).root,
        symbol_ref_from_text(str(symbols[1])).root,
        properties,
    )


def split_top_level(text: str) -> list[str]:
    """`text` split at the commas outside `()`, `[]`, `{}` and `<>` (an argument list, a
    type list); the parts keep their spacing."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return parts


def closing_paren(text: str, start: int) -> int | None:
    """The position of the `)` that closes the `(` just before `start` (nested parentheses,
    such as an argument's `loc(...)`, are skipped), or None if it is not closed."""
    depth = 0
    for position in range(start, len(text)):
        ch = text[position]
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return position
            depth -= 1
    return None


_LOCATION_TOKEN = lazy_compile(
    r'[ \t\r\n]*(?:(?P<string>"(?:[^"\\\n]|\\.)*")|(?P<hash>#[A-Za-z_][\w$.\-]*)'
    r"|(?P<word>[A-Za-z_][\w$.]*)|(?P<integer>[0-9]+)|(?P<punctuation>[()\[\]<>:,])|(?P<end>$))"
)


class _LocationError(Exception):
    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


class _LocationReader:
    """Reads the inside of `loc(...)` as MLIR's location parser does: an alias or dialect
    location (`#loc3`), `unknown`, a name or `"file":line[:column]` (with MLIR's optional
    `to` range, or a child location in parentheses), `callsite(L at L)`, `fused[L, ...]`
    (optionally `fused<attr>[...]`)."""

    def __init__(self, text: str, position: int) -> None:
        self.text = text
        self.position = position
        # Where the last token taken ends: MLIR reports a wrong token there.
        self.previous_end = position

    def peek(self) -> tuple[str, str, int]:
        """The next token's kind, text and offset, without taking it."""
        match = _LOCATION_TOKEN.match(self.text, self.position)
        if match is None:
            # A character no location may hold.
            start = len(self.text) - len(self.text[self.position :].lstrip(" \t\r\n"))
            return ("other", self.text[start : start + 1], start)
        kind = match.lastgroup or "end"
        return (kind, match.group(kind) or "", match.start(kind))

    def take(self) -> tuple[str, str, int]:
        kind, text, start = self.peek()
        self.position = start + max(len(text), 1) if kind != "end" else start
        self.previous_end = self.position
        return kind, text, start

    def wrong_token(self, message: str) -> _LocationError:
        return _LocationError(self.previous_end, message)

    def expect(self, punctuation: str, message: str) -> None:
        kind, text, _ = self.peek()
        if kind != "punctuation" or text != punctuation:
            raise self.wrong_token(message)
        self.take()

    def skip_angles(self) -> None:
        """Step over a balanced `<...>` (an attribute body), strings included."""
        depth = 0
        while True:
            kind, text, start = self.take()
            if kind == "end":
                raise _LocationError(start, "expected '>'")
            if text == "<":
                depth += 1
            elif text == ">":
                depth -= 1
                if depth == 0:
                    return

    def location(self) -> None:
        kind, text, start = self.peek()
        if kind == "hash":
            self.take()
            if self.peek()[1] == "<":
                self.skip_angles()
            return
        if kind == "string":
            self.take()
            self.name_or_file()
            return
        if kind == "word" and text == "unknown":
            self.take()
            return
        if kind == "word" and text == "callsite":
            self.take()
            self.expect("(", "expected '(' in callsite location")
            self.location()
            kind, text, start = self.peek()
            if kind != "word" or text != "at":
                raise self.wrong_token("expected 'at' in callsite location")
            self.take()
            self.location()
            self.expect(")", "expected ')' in callsite location")
            return
        if kind == "word" and text == "fused":
            self.take()
            if self.peek()[1] == "<":
                self.skip_angles()
            self.expect("[", "expected '[' in fused location")
            self.location()
            while self.peek()[1] == ",":
                self.take()
                self.location()
            self.expect("]", "expected ']' in fused location")
            return
        raise _LocationError(start, "expected location instance")

    def name_or_file(self) -> None:
        kind, text, _ = self.peek()
        if text == "(":
            # A name with a child location.
            self.take()
            self.location()
            self.expect(")", "expected ')' after child location of NameLoc")
            return
        if text != ":":
            return  # A name.
        self.take()
        kind, _, start = self.peek()
        if kind != "integer":
            raise _LocationError(start, "expected integer line number in FileLineColRange")
        self.take()
        if self.peek()[1] == ":":
            self.take()
            kind, _, start = self.peek()
            if kind != "integer":
                raise _LocationError(start, "expected integer column number in FileLineColRange")
            self.take()
        kind, text, start = self.peek()
        if kind == "word" and text == "to":
            # `to line:column`, `to :column` or `to line`.
            self.take()
            kind, text, start = self.peek()
            if kind == "integer":
                self.take()
                kind, text, start = self.peek()
            elif text != ":":
                raise self.wrong_token(
                    "expected either integer or `:` post `to` in FileLineColRange"
                )
            if text == ":":
                self.take()
                kind, _, start = self.peek()
                if kind != "integer":
                    raise _LocationError(
                        start, "expected integer column number in FileLineColRange"
                    )
                self.take()


_location_problems: dict[str, tuple[int, str] | None] = {}
_ALIAS_LOCATION = lazy_compile(r"loc\(#[A-Za-z_][\w$.\-]*\)")


def location_problem(text: str) -> tuple[int, str] | None:
    """Why `text` (a `loc(...)` token) is not a location MLIR reads: the offset in `text` to
    report at and MLIR's message, or None."""
    if _ALIAS_LOCATION.fullmatch(text):
        return None  # The common case: `loc(#loc3)`.
    if text in _location_problems:
        return _location_problems[text]
    reader = _LocationReader(text, len("loc("))
    problem: tuple[int, str] | None = None
    try:
        reader.location()
        _, token, start = reader.peek()
        if token != ")" or start != len(text) - 1:
            raise reader.wrong_token("expected ')' in location")
    except _LocationError as error:
        problem = (error.offset, error.message)
    _location_problems[text] = problem
    return problem


# `tensor<`, `vector<` or `memref<`, then the dimensions (`4x`, `?x`, a scalable `[4]x`, or
# `*x` for an unranked tensor or memref), then where the element type starts.
_SHAPE = lazy_compile(
    r"(?:tensor|vector|memref)<[ \t]*(?:\*[ \t]*x[ \t]*)?(?:(?:\?|[0-9]+|\[[0-9]+\])[ \t]*x[ \t]*)*"
)
_ELEMENT_TYPE = lazy_compile(
    r"(?:!|(?:complex|tuple|tensor|vector|memref)<|(?:[su]?i[0-9]+|index|none|"
    + "|".join(sorted(_FLOAT_TYPES, key=len, reverse=True))
    + r")(?![\w$.]))"
)
_DIMENSION = lazy_compile(r"\?|[0-9]+")
_shape_problems: dict[str, tuple[int, str] | None] = {}


def integer_width_problem(word: str) -> str | None:
    """MLIR's error for an integer type (`word`: `i8`, `si32`, `ui1`) of a width it cannot
    have: past an unsigned's range, or past 16,777,215 bits; None for any other word."""
    match = _INTEGER_TYPE.fullmatch(word)
    if match is None:
        return None
    width = int(match.group(2))
    if width >= 1 << 32:  # MLIR reads the width into an unsigned.
        return "invalid integer width"
    if width >= 1 << 24:
        return "integer bitwidth is limited to 16777215 bits"
    return None


def shaped_type_problem(text: str) -> tuple[int, str] | None:
    """Why `text`, a `tensor<...>`, `vector<...>` or `memref<...>` type, is not one MLIR reads
    (the element type after the dimensions is missing or not a type, as in `tensor<xf32>`):
    the offset in `text` to report at and MLIR's message; None if it reads."""
    if text in _shape_problems:
        return _shape_problems[text]
    problem: tuple[int, str] | None = None
    shape = _SHAPE.match(text)
    element = _ELEMENT_TYPE.match(text, shape.end()) if shape is not None else None
    if shape is not None and element is None:
        dimension = _DIMENSION.match(text, shape.end())
        if dimension is not None:
            # A dimension with no `x` after it (`tensor<4>`): reported just after it.
            problem = (dimension.end(), "expected 'x' in dimension list")
        else:
            problem = (shape.end(), "expected non-function type")
    elif shape is not None and element is not None:
        wrong_width = integer_width_problem(element.group(0))
        if wrong_width is not None:
            problem = (element.start(), wrong_width)
        else:
            problem = _after_element_type_problem(text, element)
    _shape_problems[text] = problem
    return problem


# A whole element type whose end is plain to see: a builtin one (`i8`, `f32`) or a dialect
# type without parameters (`!util.buffer`).
_PLAIN_ELEMENT_TYPE = lazy_compile(r"![\w.$]+(?![\w.$<])|[\w.$]+(?![\w.$<])")
# What may follow the element type, and MLIR's words when something else does.
_AFTER_ELEMENT_TYPE = {
    "tensor": (">,", "expected '>' in tensor type"),
    "vector": (">", "expected '>' in vector type"),
    "memref": (">,", "expected ',' or '>' in memref type"),
}


def _after_element_type_problem(text: str, element: Match[str]) -> tuple[int, str] | None:
    """Something other than `>` (or, in a tensor or memref, `,` and what follows it) after a
    plain element type (`tensor<2xi8 2xi8>`): reported just after the element type."""
    plain = _PLAIN_ELEMENT_TYPE.match(text, element.start())
    if plain is None:
        return None
    rest = text[plain.end() :].lstrip(" \t")
    allowed, message = _AFTER_ELEMENT_TYPE[text[: text.index("<")]]
    return None if rest[:1] in tuple(allowed) else (plain.end(), message)


# `dense<"...">`: one string literal inside (a hex string, or the value of string elements).
_DENSE_STRING = lazy_compile(r'dense<[ \t]*("(?:[^"\\\n]|\\.)*")[ \t]*>')
_HEX_DIGITS = lazy_compile(r"[0-9A-Fa-f]*")


def _element_bit_width(element: str) -> int | None:
    """The bits MLIR's dense storage gives one element of type `element` (its
    getDenseElementBitWidth): an integer's or float's width, 64 for index, and a complex
    number twice its part's width rounded up to whole bytes (0 for i0); None for any other
    element type (strings, vectors, dialect types), whose dense values are not hex data."""
    if element == "index":
        return 64
    match = _INTEGER_TYPE.fullmatch(element)
    if match is not None:
        # i0 too: its elements take no bytes, so its only hex data is "0x".
        return int(match.group(2))
    if element in _FLOAT_TYPES:
        return FloatType(element).width
    if element.startswith("complex<") and element.endswith(">"):
        part = _element_bit_width(element[len("complex<") : -1].strip())
        return None if part is None else -(-part // 8) * 8 * 2
    return None


# What gives a nested list literal its shape: strings (which may hold brackets and commas),
# brackets, and the parentheses and commas of complex numbers and of the lists.
_LIST_STRUCTURE = lazy_compile(r'"(?:[^"\\\n]|\\.)*"|[\[\](),]')


def _list_literal_shape(body: str) -> list[int] | None:
    """The shape MLIR infers for the nested list literal `body` (`[[1, 2], [3, 4]]`: [2, 2]),
    or None if its lists are ragged (sizes or nesting differ between siblings), which MLIR
    reports otherwise. One pass over its brackets, commas, parentheses and strings."""
    sizes: list[int] = []  # By depth: the size of the lists at that depth (-1: none closed).
    leaf_depth = 0  # The depth of the lists that hold scalars (0: none seen yet).
    commas: list[int] = []  # Per open list: its top-level commas so far.
    filled: list[bool] = []  # Per open list: whether it holds anything.
    parens = 0
    last = 0

    def scalar() -> bool:
        # A scalar in the innermost open list: lists holding scalars must all be that deep.
        nonlocal leaf_depth
        filled[-1] = True
        if not leaf_depth:
            leaf_depth = len(commas)
        return leaf_depth == len(commas)

    for match in _LIST_STRUCTURE.finditer(body):
        token = match.group()
        # Text between the tokens is a scalar (`1`, `-2.5`, `true`); strings and complex
        # numbers are tokens of their own.
        if commas and not parens and body[last : match.start()].strip() and not scalar():
            return None
        last = match.end()
        if token == ",":
            if not parens:
                commas[-1] += 1
        elif token == "(":
            if not parens and commas and not scalar():
                return None
            parens += 1
        elif token == ")":
            parens -= 1
        elif token == "[":
            if parens or (commas and leaf_depth == len(commas)):
                return None
            if commas:
                filled[-1] = True
            commas.append(0)
            filled.append(False)
            if len(commas) > len(sizes):
                sizes.append(-1)
        elif token == "]":
            if not commas or parens:
                return None
            depth = len(commas)
            separators = commas.pop()
            size = separators + 1 if filled.pop() else 0
            if sizes[depth - 1] < 0:
                sizes[depth - 1] = size
            elif sizes[depth - 1] != size:
                return None
            if not commas:
                break
        elif not parens and commas and not scalar():  # A string.
            return None
    else:
        return None
    if leaf_depth and leaf_depth != len(sizes):
        return None
    return sizes


_DENSE_LIST_TOKEN = lazy_compile(r'"(?:[^"\\\n]|\\.)*"|[\[\](){},]|[^\s\[\](){},"]+')


def _dense_list_structure_problem(text: str, start: int) -> tuple[int, str] | None:
    """Where the nested list of the `dense<...>` attribute `text` (its `<` just before
    `start`) is not as MLIR's tensor literal parser reads it, and MLIR's words: lists of
    entries separated by commas, an entry a scalar, a string, a list or a complex pair
    `(re, im)` (whose parts are entries too), the entries of a list of one rank, and nothing
    after the outer list (or after a splat's one scalar or pair). Reported where MLIR reports
    it: a token that cannot start an entry at it (at the `>` when the list ends there), a
    missing separator or closing bracket just after the token before, an entry of another
    rank at the token after it."""
    # Per open bracket: `[` or `(`, the entries read in it so far, and their rank.
    open_brackets: list[list[Any]] = []
    expect_entry = True
    previous_end = start
    ranks_differ = False
    minus = -1  # Where a `-` waits for its number.
    for match in _DENSE_LIST_TOKEN.finditer(text, start, len(text) - 1):
        if ranks_differ:
            return (match.start(), _RANKS_DIFFER)
        token = match.group()
        if token == "-" and minus < 0:
            minus = match.start()  # `- 1`: a sign before the number it belongs to.
            continue
        if minus >= 0:
            if not token[0].isdigit():
                return (match.start(), "expected integer or floating point literal")
            minus = -1
        elif token[0] == "-" and not token[1].isdigit():
            return (match.start() + 1, "expected integer or floating point literal")
        split = None if token in _DENSE_NON_SCALARS or token[0] == '"' else _number_end(token)
        if split == 0:
            return (match.start(), "expected element literal of primitive type")
        if not open_brackets:
            if previous_end > start:
                return (previous_end, "expected '>'")
            if token in _DENSE_NON_SCALARS and token not in "[(":
                return (match.start(), "expected element literal of primitive type")
            if token not in "[(":
                # A splat: one scalar or string, then the `>`.
                if split is not None:
                    return _after_entry_problem(open_brackets, match.start() + split)
                previous_end = match.end()
                continue
            open_brackets.append([token, 0, None])
        elif expect_entry:
            kind, count, rank = open_brackets[-1]
            if token == "(" or (token == "[" and kind == "["):
                open_brackets.append([token, 0, None])
            elif token == "]" and kind == "[" and count == 0 and text[previous_end - 1] == "[":
                open_brackets.pop()  # `[]`
                expect_entry, ranks_differ = _entry_read(open_brackets, 1)
            elif token in _DENSE_NON_SCALARS:
                return (match.start(), "expected element literal of primitive type")
            else:  # A scalar or a string.
                expect_entry, ranks_differ = _entry_read(open_brackets, 0)
                if split is not None:
                    return _after_entry_problem(open_brackets, match.start() + split)
        else:
            kind, count, rank = open_brackets[-1]
            if token == "," and (kind == "[" or count == 1):
                expect_entry = True
            elif token == ("]" if kind == "[" else ")") and (kind == "[" or count == 2):
                open_brackets.pop()
                entry_rank = rank + 1 if kind == "[" else 0
                expect_entry, ranks_differ = _entry_read(open_brackets, entry_rank)
            else:
                return _after_entry_problem(open_brackets, previous_end)
        previous_end = match.end()
    if minus >= 0:
        if minus == len(text) - 2:  # `->` is an arrow to MLIR's lexer.
            return (minus, "expected element literal of primitive type")
        return (len(text) - 1, "expected integer or floating point literal")
    if ranks_differ:
        return (len(text) - 1, _RANKS_DIFFER)
    if not open_brackets:
        return None
    if expect_entry:
        return (len(text) - 1, "expected element literal of primitive type")
    return _after_entry_problem(open_brackets, previous_end)


def _after_entry_problem(open_brackets: list[list[Any]], at: int) -> tuple[int, str]:
    """MLIR's error at `at`, where an entry has been read and what comes next is not what
    may follow it in the innermost open bracket (none: the splat's `>`)."""
    if not open_brackets:
        return (at, "expected '>'")
    kind, count, _ = open_brackets[-1]
    if kind == "[":
        return (at, "expected ']'")
    if count == 1:
        return (at, "expected ',' between complex elements")
    return (at, "expected ')' after complex elements")


# The number MLIR's lexer reads at the start of a dense element: a hexadecimal integer (group
# 1), a float (group 2: digits, a `.`, maybe an exponent) or a decimal integer.
_MLIR_NUMBER = lazy_compile(r"(0x[0-9A-Fa-f]+)|([0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?)|[0-9]+")


def _number_end(token: str) -> int | None:
    """Where in the dense element `token` (past a leading `-`) MLIR's lexer ends its number:
    None if at the end (or `token` is `true`/`false`), 0 if it is no number."""
    if token in ("true", "false"):
        return None
    sign = token[0] == "-"
    match = _MLIR_NUMBER.match(token, int(sign))
    if match is None:
        return 0
    return None if match.end() == len(token) else match.end()


_RANKS_DIFFER = "tensor literal is invalid; ranks are not consistent between elements"


def _entry_read(open_brackets: list[list[Any]], rank: int) -> tuple[bool, bool]:
    """Count an entry of `rank` read into the innermost open bracket: whether an entry is
    expected next (never), and whether its rank differs from the entries before it."""
    if not open_brackets:
        return False, False
    innermost = open_brackets[-1]
    innermost[1] += 1
    if innermost[0] == "(" or innermost[2] is None:
        innermost[2] = rank
        return False, False
    return False, innermost[2] != rank


_DENSE_NON_SCALARS = frozenset("[](){},")


def _dense_list_problem(text: str, type: ShapedType) -> tuple[int, str] | None:
    """`dense<[...]>`: no list has an empty entry (`[1, , 2]`, `[1, ]`; `[]` is an empty
    list), and the shape its nesting gives must be the type's."""
    start = len("dense<")
    problem = _dense_list_structure_problem(text, start)
    if problem is not None:
        return problem
    body = text[start:-1]
    shape = _list_literal_shape(body)
    if shape is None:
        return None
    if tuple(shape) == tuple(type.shape):
        return dense_elements(text, type)[1]
    written = ", ".join(str(dimension) for dimension in shape)
    expected = ", ".join(str(dimension) for dimension in type.shape)
    message = f"inferred shape of elements literal ([{written}]) does not match type ([{expected}])"
    return (0, message)


_dense_elements: dict[tuple[str, str], tuple[str, tuple[int, str] | None]] = {}


def dense_elements(text: str, type: ShapedType) -> tuple[str, tuple[int, str] | None]:
    """The `dense<...>` attribute `text` (a splat or a nested list of the shape of `type`,
    or hex data, as checked) as MLIR prints it, and the offset and words of MLIR's error with
    an element its element type does not take (or None): an integer's, an index's or a
    float's. Each element is read as MLIR's TensorLiteralParser reads it and printed as MLIR
    prints it (`255` of i8 as `-1`, i1 as `true`/`false`, `0x3F800000` of f32 as
    `1.000000e+00`); all equal as one splat, none as `dense<>`, more than 100 as hex data.
    Any other element type (complex, string, other floats) keeps the text as written."""
    key = (text, type.text)
    found = _dense_elements.get(key)
    if found is None:
        found = _read_dense_elements(text, type)
        if len(text) < 4096:
            _dense_elements[key] = found
    return found


def _read_dense_elements(text: str, type: ShapedType) -> tuple[str, tuple[int, str] | None]:
    element = type_from_text(type.element_type_text)
    if not isinstance(element, (IntegerType, IndexType, FloatType)):
        return text, None
    body = text[len("dense<") : -1].strip()
    if body.startswith('"'):
        return _hex_dense_elements(text, body, element, type), None
    values: list[str] = []
    as_written = False
    negative = False
    start = len("dense<")
    for match in _DENSE_LIST_TOKEN.finditer(text, start, len(text) - 1):
        token = match.group()
        if token in ("[", "]", ","):
            continue
        offset = match.start()
        if token == "-":
            negative = True
            continue
        if token.startswith("-"):
            negative, token, offset = True, token[1:], offset + 1
        problem, value = _dense_element(element, negative, token)
        if problem is not None:
            return text, (offset, problem)
        if value is None:
            as_written = True
        else:
            values.append(value)
        negative = False
    if as_written:
        return text, None
    return _dense_text(values, element, type), None


_HEX_LIMIT = 100
"""MLIR prints a dense literal of more elements than this (not a splat) as hex data."""


def _dense_text(values: list[str], element: Type, type: ShapedType) -> str:
    """The dense literal of `values` (each as MLIR prints an element of type `element`; one
    for a splat) of shaped type `type`, as MLIR prints it."""
    if not values:
        return "dense<>"
    if all(value == values[0] for value in values):
        return f"dense<{values[0]}>"
    if len(values) <= _HEX_LIMIT:
        return f"dense<{_nested(values, [cast(int, d) for d in type.shape])}>"
    size = _element_bytes(type)
    data = b"".join(_printed_bits(value, element).to_bytes(size, "little") for value in values)
    return f'dense<"0x{data.hex().upper()}">'


def _hex_dense_elements(text: str, body: str, element: Type, type: ShapedType) -> str:
    """The dense literal `text` of hex data `body` (a string, of as many bytes as `type`
    takes, as checked) as MLIR prints it; as written for a float type not in FORMATS."""
    # Imported on first use: start-up time.
    from streamopt.ir.floats import FORMATS, float_from_bits

    if isinstance(element, FloatType) and element.text not in FORMATS:
        return text
    size = _element_bytes(type)
    count = _element_count(type)
    try:
        data = bytes.fromhex(body[3:-1]) if body.startswith('"0x') else b""
    except ValueError:
        data = b""
    if len(data) not in (size, size * count) or count == 0:
        return text  # Refused as read (dense_problem), or no elements.
    values = []
    for at in range(0, len(data), size):
        bits = int.from_bytes(data[at : at + size], "little")
        if isinstance(element, FloatType):
            read = float_from_bits(bits, element.text)
            assert read is not None
            values.append(read[1])
        elif _integer_width(element) == 1:
            values.append("true" if bits & 1 else "false")
        else:
            unsigned = isinstance(element, IntegerType) and element.signedness == "ui"
            values.append(str(_as_held(bits, _integer_width(element), unsigned)))
    return _dense_text(values, element, type)


def _integer_width(element: Type) -> int:
    """The width of an integer type, or an index's (64)."""
    return element.width if isinstance(element, IntegerType) else 64


def _element_bytes(type: ShapedType) -> int:
    """The bytes MLIR's dense storage gives one element of `type` (of integers, indices or
    floats)."""
    return -(-cast(int, _element_bit_width(type.element_type_text)) // 8)


def _element_count(type: ShapedType) -> int:
    """The elements of the static shape of `type`."""
    count = 1
    for dimension in type.shape:
        count *= cast(int, dimension)
    return count


def _printed_bits(value: str, element: Type) -> int:
    """The bits of the element `value` of type `element`, as MLIR prints it."""
    if isinstance(element, FloatType):
        if value.startswith("0x"):
            return int(value, 16)
        # Imported on first use: start-up time.
        from streamopt.ir.floats import float_bits

        return float_bits(float(value), element.text)
    if value in ("true", "false"):
        return int(value == "true")
    return int(value) % (1 << _integer_width(element))


def _nested(values: list[str], shape: list[int]) -> str:
    """`values` (row-major) as MLIR prints a tensor literal of `shape`."""
    if len(shape) <= 1:
        return "[" + ", ".join(values) + "]"
    size = len(values) // shape[0]
    rows = [_nested(values[k * size : (k + 1) * size], shape[1:]) for k in range(shape[0])]
    return "[" + ", ".join(rows) + "]"


def _dense_element(element: Type, negative: bool, token: str) -> tuple[str | None, str | None]:
    """MLIR's problem with the dense element `token` (after a `-` if `negative`) of type
    `element`, or None; and the element as MLIR prints it (None: not read here)."""
    match = _MLIR_NUMBER.fullmatch(token)
    word = token in ("true", "false")
    if match is None and not word:
        return None, None
    if isinstance(element, FloatType):
        # Imported on first use: start-up time.
        from streamopt.ir.floats import float_from_bits, float_text

        if word:
            return "expected floating point literal", None
        if match is not None and match.group(2) is not None:
            value = -float(token) if negative else float(token)
            return None, float_text(value, element.text)
        problem = hex_float_problem(token, negative, element.width)
        if problem is not None:
            return problem, None
        read = float_from_bits(integer_literal(token), element.text)
        return None, read[1] if read is not None else None
    width = _integer_width(element)
    if word:
        if width != 1:
            return "expected i1 type for 'true' or 'false' values", None
        return None, token
    unsigned = isinstance(element, IntegerType) and element.signedness == "ui"
    if negative and unsigned:
        return "expected unsigned integer elements, but parsed negative value", None
    if match is not None and match.group(2) is not None:
        return "expected integer elements, but parsed floating-point", None
    value = integer_literal(token)
    signed = isinstance(element, IndexType) or (
        isinstance(element, IntegerType) and element.signedness == "si"
    )
    if not _builds_apint(value, width, negative, signed):
        return "integer constant out of range for type", None
    held = _as_held(-value if negative else value, width, unsigned)
    if width == 1:
        return None, "true" if held else "false"
    return None, str(held)


def dense_problem(text: str, type: ShapedType) -> tuple[int, str] | None:
    """Why `text`, a `dense<...>` attribute of shaped type `type`, is not one MLIR reads: the
    offset in `text` to report at and MLIR's message; None if it reads, or if this does not
    say (the shape, a hex string's data, a nested list's shape and entries, and the
    elements of an integer, index or float type (`dense_elements`) are checked).

    As MLIR's DenseElementsAttr parser: the type's shape must be static; a string inside is
    hex data when the element type is an integer, index, float or complex type (any other
    element type holds strings, which may spell anything): `0x` and an even number of hex
    digits, as many bytes as one element (a splat) or all of them take, an element taking
    its bit width rounded up to whole bytes (`i1` too: the MLIR of iree-opt 3.13 no longer
    packs it eight to a byte)."""
    shape = type.shape
    if None in shape or "<*" in type.text.replace(" ", ""):
        return (0, "elements literal type must have static shape")
    body = text[len("dense<") :].lstrip()
    if body.startswith("["):
        return _dense_list_problem(text, type)
    if body.startswith("{"):
        return (len(text) - len(body), "expected element literal of primitive type")
    match = _DENSE_STRING.fullmatch(text)
    if match is None and body == ">" and 0 not in shape:
        return (0, f"parsed zero elements, but type ('{type.text}') expected at least 1")
    if match is None:
        # A splat: one scalar or complex pair, then the `>`.
        problem = _dense_list_structure_problem(text, len("dense<"))
        return problem if problem is not None else dense_elements(text, type)[1]
    width = _element_bit_width(type.element_type_text)
    if width is None:
        return None
    body = match.group(1)[1:-1]
    if not body.startswith("0x") or len(body) % 2 or not _HEX_DIGITS.fullmatch(body, 2):
        return (match.start(1), "expected string containing hex digits starting with `0x`")
    data_bits = (len(body) - 2) // 2 * 8
    count = _element_count(type)
    storage = -(-width // 8) * 8
    if data_bits in (storage, storage * count):
        return None
    return (0, f"elements hex data size is invalid for provided type: '{type.text}'")


# An alias named in text kept as written (`#map`, `!type`: no dot, no `<` after the name),
# past strings and comments.
_ALIAS_USE = lazy_compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|([#!][A-Za-z_][\w$\-]*)(?![\w$.\-<])')
_aliases_named: dict[str, tuple[tuple[str, int], ...]] = {}


def aliases_named(text: str) -> tuple[tuple[str, int], ...]:
    """Each alias `text` names, with the offset just after the name (where iree-opt reports
    an undefined one)."""
    if "#" not in text and "!" not in text:
        return ()
    cached = _aliases_named.get(text)
    if cached is None:
        found = ((match.group(1), match.end(1)) for match in _ALIAS_USE.finditer(text))
        cached = tuple((alias, end) for alias, end in found if alias is not None)
        if len(text) < 4096:  # Executable bodies are seen once: keep only short texts.
            _aliases_named[text] = cached
    return cached
