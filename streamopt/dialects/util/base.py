"""What the util modules share: the base of ops whose effects are not modelled, symbol lookup,
SSA name spelling and the generic-form helpers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from streamopt.diagnostics import Location, error
from streamopt.dialects.builtin import GenericOp, ModuleOp
from streamopt.dialects.common import ValueKind, flat_symbol, op_error
from streamopt.ir.core import Operation
from streamopt.ir.symbols import SymbolTable
from streamopt.ir.types import Attribute, SymbolRefAttr, symbol_ref_from_text


def sanitize_identifier(name: str) -> str:
    """`name` as MLIR's printer turns it into an SSA name: `a b` -> `a_b`, `+b` -> `_2Bb`.

    Letters, digits and `$._-` are kept, spaces become `_`, anything else its hex code; a name
    that does not start with a valid character gets a `_` prefix.
    """

    def valid(ch: str) -> bool:
        return (ch.isascii() and ch.isalnum()) or ch in "$._-"

    if name and all(valid(ch) for ch in name) and not name[0].isdigit():
        return name
    out = ["_"] if not name or name[0].isdigit() or not (valid(name[0]) or name[0] == " ") else []
    for ch in name:
        if valid(ch) or ch == " ":
            out.append("_" if ch == " " else ch)
        else:
            out.extend(f"{byte:X}" for byte in ch.encode("utf-8", "surrogateescape"))
    return "".join(out)


SymbolOpT = TypeVar("SymbolOpT", bound=Operation)


def lookup_symbol(op: Operation, name: str, cls: type[SymbolOpT], missing: str) -> SymbolOpT | None:
    """The callee or global (`cls`) named `name` in the module holding `op`, if there are
    both; None also when an op streamopt does not model defines it.

    Raises IREE's diagnostic `missing` when the module defines no such symbol, or as another
    known op.
    """
    table = SymbolTable.nearest(op)
    if not isinstance(table.table_op, ModuleOp):
        return None
    found = table.lookup(name)
    if found is None or (found.is_known and not isinstance(found, cls)):
        raise op_error(op, missing)
    return found if isinstance(found, cls) else None


def type_parameter(text: str, type_name: str) -> str | None:
    """`T` of type `text` when it is `type_name<T>` (`!util.list<?>`, `!util.ptr<i32>`), else
    None."""
    if text.startswith(type_name + "<") and text.endswith(">"):
        return text[len(type_name) + 1 : -1].strip()
    return None


def inherent_attribute(op: GenericOp, name: str) -> Attribute | None:
    """Inherent attribute `name` of a generic-form op: a property, or (as MLIR also reads
    it) an entry of the attribute dictionary."""
    found = op.properties.get(name) if op.properties is not None else None
    return found if found is not None else op.attribute_map.get(name)


FLAT_SYMBOL = ValueKind(
    lambda name: SymbolRefAttr([name]),
    lambda attribute: attribute.root,
    "SYMBOL_REF",
    lambda part: symbol_ref_from_text(str(part)),
    flat_symbol,
)


def check_set_twice(
    op_name: str, attributes: Mapping[str, Attribute], name: str, location: Location
) -> None:
    """An attribute a hand-written parser sets from the op's syntax (`name`), also in its
    attribute dictionary: MLIR's op parser refuses the duplicate once the op is read."""
    if name in attributes:
        raise error(
            f"custom op '{op_name}' attribute '{name}' occurs more than once in the attribute list",
            location,
        )
