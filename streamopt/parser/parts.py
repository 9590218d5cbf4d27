"""Small values the grammar's shared rules reduce to, handed to op classes' `from_parse`.

A known op's rule reduces to a list of these (plus IR values, types, attributes and tokens for
symbols and keywords); each op class reads the list in the order its rule lists them.
"""

from __future__ import annotations

from typing import Any

from streamopt.ir.core import Block, Region, Value
from streamopt.ir.types import Attribute, Type
from streamopt.parser.lalr import Token
from streamopt.records import Record

# A token of the parser: read it with `str(token)`, `.type`, `.start_pos`, `.end_pos`.
TokenLike = Any

TOKEN_CLASSES: tuple[type[Any], ...] = (Token,)


class Sized(Record):
    """`T{%s, ...}`: a type with its dynamic sizes."""

    type: Type
    sizes: list[Value]


class Tied(Record):
    """`%x{%s}` or `%x as T{%s}` in a result list: a result tied to operand `operand`."""

    operand: Value
    type: Type | None
    sizes: list[Value]


class Clause(Record):
    """A keyword clause such as `on(#aff)`, `from(#aff)`, `await(%t) =>`, `attributes {...}`."""

    kind: str
    value: Any


class AttributesClause(Clause):
    """`attributes {...}` (an attr-dict-with-keyword): the clause of kind "attributes", with
    its AttrDict as value. A class of its own so that the parser tells an op's parts that
    hold an attribute dictionary by their classes alone."""

    __slots__ = ()


class OperandRange(Record):
    """`%x[%offset to %end for %length]` in a dispatch or call operand list."""

    value: Value
    offset: Value
    end: Value
    length: Value


class Successor(Record):
    """`^bb1(%a : T)`."""

    block: Block
    arguments: list[Value]


class AttrDict(dict[str, Attribute]):
    """An attribute dictionary as written (`{a = 1}`); `start` is the offset in the parsed text
    diagnostics about it point at: its `{`, or the `attributes` keyword of an
    `attributes {...}` clause (as iree-opt's do)."""

    __slots__ = ("start",)

    start: int


class ValueList(list[Value]):
    """A comma-separated list of SSA values."""


class TypeList(list[Type]):
    """A comma-separated list of types."""


class RegionList(list[Region]):
    """The regions of a generic op."""


class SuccessorList(list[Successor]):
    """The successors of a generic op."""


class Properties(dict[str, Attribute]):
    """`<{...}>`: the properties of a generic op."""


class Operands(list[Any]):
    """A dispatch/call operand list: values and `OperandRange`s."""


class ShapedTypes(list[Any]):
    """`custom<ShapedTypeList>`: types and `Sized` types."""


class ShapedResults(list[Any]):
    """`custom<ShapedResultList>`: types, `Sized` types and `Tied` results."""


class EntryPoints(list[Attribute]):
    """Dispatch entry points (`@ex::@fn` or `{@a::@b, @c::@d}`)."""


class FormatGroup(Record):
    """The parts of an optional group of a declared op's format that was written (the
    reduction of its grammar rule, see streamopt.ir.format)."""

    group: int
    parts: list[Any]


class NegativeLiteral(Record):
    """`-7` or `-1.5` in an attribute: the number's token (after the `-`) and its value."""

    token: TokenLike
    attribute: Attribute
