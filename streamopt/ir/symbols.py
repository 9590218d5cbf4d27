"""Symbol tables: find the op that defines `@name` in a module.

A `SymbolTable` indexes the ops directly in the body of a symbol-table op (a module) by the
symbol they define: `util.func`, `util.global`, executables kept verbatim, nested modules, and
ops streamopt does not model that name a symbol in their header (`func.func @f`,
`stream.async.func @g`). Passes build one per module and look callees and globals up in O(1).

Verifiers run op by op and have no pass to hand them a table, so `SymbolTable.nearest` keeps a
small cache of tables. A cached entry is checked on every lookup (the op found must still sit in
the table's block under that name) and the table is rebuilt when the check or the lookup fails;
rebuilding touches only the module's top-level ops.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import ClassVar

from streamopt.ir.core import Block, Operation
from streamopt.ir.types import StringAttr, SymbolRefAttr, symbol_ref_from_text
from streamopt.lazy_regex import lazy_compile

# `@name` or `@"quoted name"` at the start of a word (nested references are not definitions).
_SYMBOL_WORD = lazy_compile(r'(?<![\w:])@([A-Za-z_$.][A-Za-z0-9_$.\-]*|"(?:[^"\\]|\\.)*")')


def symbol_name(op: Operation) -> str | None:
    """The symbol `op` defines in its parent's symbol table, or None.

    Known ops say so with a string `sym_name` property. Ops streamopt keeps as text define the
    first `@name` of their header (MLIR prints the defined symbol before any reference), and ops
    in generic form define their `sym_name` property or attribute.
    """
    name = getattr(op, "sym_name", None)
    if isinstance(name, str):
        # ModuleOp keeps the `@name` token as written.
        return symbol_ref_from_text(name).root if name.startswith("@") else name
    if op.is_known:
        return None
    text = getattr(op, "text", None)  # VerbatimOp
    if text is None:
        template = getattr(op, "template", None)  # OpaqueOp
        if template and isinstance(template[0], str):
            text = template[0]
    if isinstance(text, str):
        header = text.split("{", 1)[0]
        match = _SYMBOL_WORD.search(header)
        if match is not None:
            return symbol_ref_from_text(match.group(0)).root
        return None
    properties = getattr(op, "properties", None) or {}  # GenericOp
    attr = properties.get("sym_name") or op.attribute_map.get("sym_name")
    if isinstance(attr, StringAttr):
        return attr.value
    return None


def nearest_symbol_table_op(op: Operation) -> Operation:
    """The closest enclosing module of `op` (or its outermost ancestor, for detached IR)."""
    current = op
    for ancestor in op.ancestors():
        # By name: ir lies below the dialects (builtin.module's generic form is a ModuleOp
        # too, see the parser's generic module).
        if ancestor.name == "builtin.module":
            return ancestor
        current = ancestor
    return current


class SymbolTable:
    """The symbols defined directly in the body of `table_op` (a module)."""

    __slots__ = ("block", "duplicates", "symbols", "table_op")

    def __init__(self, table_op: Operation) -> None:
        self.table_op = table_op
        self.block: Block | None = (
            table_op.regions[0].blocks[0]
            if table_op.regions and table_op.regions[0].blocks
            else None
        )
        self.symbols: dict[str, Operation] = {}
        # Later definitions of a name already defined (the first one wins lookups).
        self.duplicates: list[tuple[str, Operation]] = []
        self._build()

    def _build(self) -> None:
        self.symbols.clear()
        self.duplicates.clear()
        if self.block is None:
            return
        for op in self.block.ops:
            name = symbol_name(op)
            if name is None:
                continue
            if name in self.symbols:
                self.duplicates.append((name, op))
            else:
                self.symbols[name] = op

    # -- queries ---------------------------------------------------------------------------

    def lookup(self, name: str | SymbolRefAttr) -> Operation | None:
        """The op defining `name` (`"f"`, `"@f"` or a reference, whose root is used)."""
        key = _key(name)
        op = self.symbols.get(key)
        if op is not None and self._is_current(key, op):
            return op
        # Stale or missing: the IR may have changed since the table was built.
        self._build()
        return self.symbols.get(key)

    def lookup_op(self, name: str | SymbolRefAttr, cls: type[Operation]) -> Operation | None:
        """The op defining `name` if it is an instance of `cls`, else None."""
        op = self.lookup(name)
        return op if isinstance(op, cls) else None

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str | SymbolRefAttr) and self.lookup(name) is not None

    def __iter__(self) -> Iterator[tuple[str, Operation]]:
        return iter(list(self.symbols.items()))

    def __len__(self) -> int:
        return len(self.symbols)

    def ops_of(self, cls: type[Operation]) -> list[Operation]:
        """Every symbol-defining op of class `cls`, in module order."""
        return [op for op in self.symbols.values() if isinstance(op, cls)]

    def _is_current(self, key: str, op: Operation) -> bool:
        return op.parent is self.block and symbol_name(op) == key

    # -- updates ---------------------------------------------------------------------------

    def insert(self, op: Operation, before: Operation | None = None) -> str:
        """Put `op` (which must define a new symbol) in the table's block; return its name."""
        name = symbol_name(op)
        assert name is not None, f"{op.name} does not define a symbol"
        assert self.lookup(name) is None, f"symbol @{name} is already defined"
        assert self.block is not None
        if before is None:
            self.block.append(op)
        else:
            self.block.insert_before(op, before)
        self.symbols[name] = op
        return name

    def erase(self, op: Operation) -> None:
        """Erase a symbol-defining op and forget its name."""
        name = symbol_name(op)
        if name is not None and self.symbols.get(name) is op:
            del self.symbols[name]
        op.erase()

    # -- the cache verifiers use -----------------------------------------------------------

    _cache: ClassVar[OrderedDict[int, SymbolTable]] = OrderedDict()
    _CACHE_SIZE: ClassVar[int] = 8

    @classmethod
    def nearest(cls, op: Operation) -> SymbolTable:
        """The table of the module enclosing `op`, cached across calls."""
        table_op = nearest_symbol_table_op(op)
        key = id(table_op)
        table = cls._cache.get(key)
        if table is None or table.table_op is not table_op:
            table = cls(table_op)
            cls._cache[key] = table
            if len(cls._cache) > cls._CACHE_SIZE:
                cls._cache.popitem(last=False)
        else:
            cls._cache.move_to_end(key)
        return table

    @classmethod
    def lookup_nearest(cls, op: Operation, name: str | SymbolRefAttr) -> Operation | None:
        """The op defining `name` in the module enclosing `op`."""
        return cls.nearest(op).lookup(name)


def _key(name: str | SymbolRefAttr) -> str:
    if isinstance(name, SymbolRefAttr):
        return name.root
    if name.startswith("@"):
        return symbol_ref_from_text(name).root
    return name
