"""Debug locations as streamopt keeps them: the `loc(...)` text as written, and what printing
without them (iree-opt's default, `--mlir-print-debuginfo` off) or `--strip-debuginfo` drops.

Known ops and block arguments hold their location in `debug_loc`; an op kept as written holds
each of its locations as a `LocationText` piece of its template; an executable's body and the
file's location aliases (`#loc3 = loc(...)`) are text, from which `strip_locations` and
`is_location_alias` find them.
"""

from __future__ import annotations

from streamopt.lazy_regex import lazy_compile


class LocationText(str):
    """A piece of an op kept as written that is one location: the blanks before it and
    `loc(...)`."""

    __slots__ = ()


# A string literal (stepped over: `" loc("` in a string is no location) or a location's start.
_STRING_OR_LOCATION = lazy_compile(r'"(?:[^"\\\n]|\\.)*"|[ \t]+loc\(')


def strip_locations(text: str) -> str:
    """`text` without its ` loc(...)` suffixes (parentheses balanced, strings stepped over)."""
    if "loc(" not in text:
        return text
    pieces: list[str] = []
    cursor = 0
    position = 0
    while True:
        match = _STRING_OR_LOCATION.search(text, position)
        if match is None:
            break
        position = match.end()
        if match.group().startswith('"'):
            continue
        end = _closing_parenthesis(text, position)
        if end < 0:
            break  # Unbalanced: leave the rest as it is.
        pieces.append(text[cursor : match.start()])
        cursor = position = end + 1
    pieces.append(text[cursor:])
    return "".join(pieces)


def is_location_alias(line: str) -> bool:
    """True for a file-level alias line that defines a location (`#loc3 = loc(...)`)."""
    head, _, value = line.partition("=")
    return head.strip().startswith("#loc") and value.strip().startswith("loc(")


# What matters in a location's text: a string literal (stepped over whole) or a parenthesis.
_STRING_OR_PARENTHESIS = lazy_compile(r'"(?:[^"\\\n]|\\.)*"|[()]')


def _closing_parenthesis(text: str, index: int) -> int:
    """The index of the `)` that closes the `(` just before `index`, or -1."""
    depth = 1
    for match in _STRING_OR_PARENTHESIS.finditer(text, index):
        token = match.group()
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
            if depth == 0:
                return match.start()
    return -1
