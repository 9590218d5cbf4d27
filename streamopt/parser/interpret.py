"""Read the insides of coarse tokens: types and dialect attributes.

The grammar lexes `!stream.resource<*>` or `#hal.device.affinity<@dev_a>` as one token. These
functions turn a token's text into a structured type or attribute, once per distinct spelling
(the results are cached), using the grammar's `attr_*` start rules for dialect attributes.
"""

from __future__ import annotations

import re
from typing import Any, cast

from streamopt.ir.types import (
    INDEX,
    AffinityAttr,
    AliasAttr,
    Attribute,
    BoolAttr,
    DialectType,
    FloatAttr,
    FloatType,
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
from streamopt.parser.lalr import ParseError
from streamopt.parser.parts import TOKEN_CLASSES

_type_cache: dict[str, Type] = {}
_attr_cache: dict[tuple[str, str, Type | None], Attribute] = {}

_INTEGER_TYPE = re.compile(r"(si|ui|i)([0-9]+)")
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
_DIALECT_TYPE = re.compile(r"!(hal|stream|util)\.([A-Za-z0-9_$.\-]*)")


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


_BUILTIN_TYPE_WORDS = re.compile(r"index|(si|ui|i)[0-9]+|none|" + "|".join(sorted(_FLOAT_TYPES)))


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


def _attribute_from_token(kind: str, text: str, type: Type | None) -> Attribute:
    suffix = f" : {type.text}" if type is not None else ""
    if kind == "INTEGER":
        return IntegerAttr(integer_literal(text), type, text + suffix)
    if kind == "FLOAT":
        return FloatAttr(float(text), type, text + suffix)
    if type is not None:
        # `dense<...> : tensor<...>` and similar: kept as written.
        if kind == "STRING":
            return OpaqueAttr(text + suffix)
        return OpaqueAttr(text + suffix)
    if kind == "STRING":
        return StringAttr(unescape_string(text), text)
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


def _dialect_attribute(text: str) -> Attribute:
    if "<" not in text:
        return AliasAttr(text)
    prefix = text[: text.index("<") + 1]
    start_rule = _STRUCTURED_ATTRS.get(prefix)
    if start_rule is None:
        return OpaqueAttr(text)
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
