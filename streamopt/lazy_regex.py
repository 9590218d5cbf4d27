"""Regular expressions compiled when first used.

A module-level `re.compile` runs at import, whether or not the run ever uses the pattern: the
start-up modules' patterns took about 10 ms of every run, a tenth of a short one.
"""

from __future__ import annotations

import re
from typing import Any, cast

# What a compiled pattern offers; once compiled, these are the pattern's own, looked up as
# plain attributes (no __getattr__ call) from then on.
_ATTRIBUTES = (
    "findall",
    "finditer",
    "flags",
    "fullmatch",
    "groupindex",
    "groups",
    "match",
    "pattern",
    "scanner",
    "search",
    "split",
    "sub",
    "subn",
)


class _LazyPattern:
    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        compiled = re.compile(*self._source)
        for attribute in _ATTRIBUTES:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_compile({self._source[0]!r}, {self._source[1]!r})"


def lazy_compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, compiled when one of its methods or attributes is first
    used. Use it through its methods (`X.match(...)`): `re` functions and isinstance checks
    do not take it for a pattern."""
    return cast(re.Pattern[str], _LazyPattern(pattern, flags))
