"""What one use of a resource does to its storage.

Every analysis asks the same question of a use (operand `index` of `op`): does it only read,
write in place, consume (free) the storage, forward it along a known edge (a yield, a branch, a
loop's init), hand it to a call or a return, or let it escape somewhere streamopt cannot follow
(an unknown op, a global, an external function)? `classify_use` answers it from the op's
interfaces, treating ops streamopt does not model as escaping.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator

from streamopt.dialects.builtin import OpaqueOp
from streamopt.ir.core import Access, Operation
from streamopt.ir.types import ArrayAttr, Attribute, DictAttr, SymbolRefAttr
from streamopt.lazy_regex import lazy_compile


class UseKind(enum.Enum):
    NONE = "none"  # not a storage use (a size, an offset)
    READ = "read"
    MUTATE = "mutate"  # written in place or consumed
    PASS = "pass"  # forwarded along an edge recorded in AliasAnalysis
    CALL = "call"  # an argument of util.call (see FunctionSummary)
    RETURN = "return"  # returned to the caller
    ESCAPE = "escape"  # anything may happen to it


CALL_OP = "util.call"
RETURN_OP = "util.return"
GLOBAL_STORE_OP = "util.global.store"
GLOBAL_LOAD_OP = "util.global.load"
TENSOR_IMPORT_OP = "stream.tensor.import"
TENSOR_EXPORT_OP = "stream.tensor.export"

# Access bits as plain ints: `classify_use` runs once per use of every resource, and each `&`
# of two IntFlag members builds a new enum member (several Python calls), which made those
# tests most of its time.
_ESCAPE = int(Access.ESCAPE)
_MUTATE = int(Access.WRITE | Access.CONSUME)
_READ = int(Access.READ)


def call_target(op: Operation) -> str | None:
    """The callee symbol of a util.call (without `@`), or None for other ops."""
    if op.name != CALL_OP:
        return None
    callee = op.attributes.get("callee")
    root = getattr(callee, "root", None)
    return root if isinstance(root, str) else None


_SYMBOL_IN_TEXT = lazy_compile(r"@([A-Za-z_$.][A-Za-z0-9_$.\-]*)")


def symbols_named_by(op: Operation, skip: str | None = None) -> Iterator[str]:
    """Every symbol `op` names: in its attributes (but attribute `skip`), and in the text of
    an op kept as written."""
    for name, attr in op.attributes.items():
        if name != skip:
            yield from _symbols_in(attr)
    if isinstance(op, OpaqueOp):
        for piece in op.template:
            if isinstance(piece, str) and "@" in piece:
                yield from _SYMBOL_IN_TEXT.findall(piece)


def _symbols_in(attr: Attribute) -> Iterator[str]:
    if isinstance(attr, SymbolRefAttr):
        yield attr.root
    elif isinstance(attr, ArrayAttr):
        for element in attr.elements:
            yield from _symbols_in(element)
    elif isinstance(attr, DictAttr):
        for value in attr.entries.values():
            yield from _symbols_in(value)


def classify_use(op: Operation, index: int, forwarded: frozenset[int] | None = None) -> UseKind:
    """What operand `index` of `op` does to the storage it names.

    `forwarded` is the set of operand indices `op` forwards (from `forwarded_operands`); pass it
    when calling in a loop to avoid recomputing it.
    """
    if not op.is_known:
        return UseKind.ESCAPE
    if op.name == CALL_OP:
        return UseKind.CALL
    if op.name == RETURN_OP:
        return UseKind.RETURN
    if op.name == GLOBAL_STORE_OP:
        return UseKind.ESCAPE
    if forwarded is None:
        forwarded = frozenset(i for i, _ in op.forwarded_operands())
    if index in forwarded:
        return UseKind.PASS
    access = int(op.operand_access(index))
    if access & _ESCAPE:
        return UseKind.ESCAPE
    if access & _MUTATE:
        return UseKind.MUTATE
    if access & _READ:
        return UseKind.READ
    return UseKind.NONE
