"""SymbolTable: lookups by name, staleness after IR changes, and the cache verifiers use."""

from __future__ import annotations

from streamopt.dialects.builtin import ModuleOp, OpaqueOp, VerbatimOp
from streamopt.dialects.util import CallOp, FuncOp, GlobalOp
from streamopt.ir.core import Operation
from streamopt.ir.symbols import SymbolTable, nearest_symbol_table_op, symbol_name
from streamopt.ir.types import INDEX, StringAttr, symbol_ref_from_text
from streamopt.parser import parse_module

SOURCE = """\
module {
  util.global private @dev_a : !hal.device
  util.global private mutable @"quoted name" : index
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
  }
  func.func private @external(%arg0: index) -> index
  util.func private @callee(%arg0: index) -> index
  util.func public @main(%arg0: index) -> index {
    %0 = util.call @callee(%arg0) : (index) -> index
    util.return %0 : index
  }
}
"""


def _module() -> ModuleOp:
    return parse_module(SOURCE).op


def _find(module: ModuleOp, name: str) -> Operation:
    return next(op for op in module.walk() if op.name == name)


def test_lookup_finds_each_kind_of_definition() -> None:
    module = _module()
    table = SymbolTable(module)
    assert isinstance(table.lookup("dev_a"), GlobalOp)
    assert isinstance(table.lookup("@dev_a"), GlobalOp)
    assert isinstance(table.lookup("quoted name"), GlobalOp)
    assert isinstance(table.lookup("callee"), FuncOp)
    assert isinstance(table.lookup("main"), FuncOp)
    # Executables are kept as text; their symbol is read off the header.
    assert isinstance(table.lookup("ex"), VerbatimOp)
    # A nested reference resolves to its root's definition.
    assert table.lookup(symbol_ref_from_text("@ex::@fn")) is table.lookup("ex")
    # An op streamopt does not model defines the first symbol of its header.
    external = table.lookup("external")
    assert isinstance(external, OpaqueOp) and external.name == "func.func"
    assert table.lookup("missing") is None
    assert "callee" in table and "missing" not in table
    assert [op.sym_name for op in table.ops_of(FuncOp)] == ["callee", "main"]  # type: ignore[attr-defined]
    assert len(table) == 6


def test_symbol_name_of_ops_that_define_none() -> None:
    module = _module()
    call = _find(module, "util.call")
    assert symbol_name(call) is None
    assert isinstance(call, CallOp) and call.callee == "callee"


def test_lookup_sees_erased_inserted_and_renamed_symbols() -> None:
    module = _module()
    table = SymbolTable(module)
    callee = table.lookup("callee")
    assert callee is not None

    # Erased behind the table's back: the stale entry is noticed.
    dev = table.lookup("dev_a")
    assert dev is not None
    dev.erase()
    assert table.lookup("dev_a") is None

    # Added behind the table's back: a miss rebuilds the table.
    new_global = GlobalOp.create("dev_b", INDEX)
    module.body.append(new_global)
    assert table.lookup("dev_b") is new_global

    # Renamed behind the table's back: the old name no longer resolves.
    assert isinstance(new_global, GlobalOp)
    new_global.attributes["sym_name"] = StringAttr("dev_c")
    assert table.lookup("dev_b") is None
    assert table.lookup("dev_c") is new_global

    # Through the table.
    inserted = GlobalOp.create("first", INDEX)
    assert table.insert(inserted, before=module.body.first_op) == "first"
    assert module.body.first_op is inserted
    assert table.lookup("first") is inserted
    table.erase(inserted)
    assert inserted.parent is None
    assert table.lookup("first") is None


def test_duplicates_are_recorded_and_the_first_definition_wins() -> None:
    module = parse_module("util.global private @g : index\nutil.global private @g : i32\n").op
    table = SymbolTable(module)
    first, second = list(module.body.ops)
    assert table.lookup("g") is first
    assert table.duplicates == [("g", second)]


def test_nearest_is_cached_per_module_and_stays_correct() -> None:
    module = _module()
    call = _find(module, "util.call")
    assert nearest_symbol_table_op(call) is module
    table = SymbolTable.nearest(call)
    assert SymbolTable.nearest(module.body.first_op) is table  # type: ignore[arg-type]
    assert SymbolTable.lookup_nearest(call, "callee") is table.lookup("callee")
    # Another module gets its own table.
    other = _module()
    assert SymbolTable.nearest(other.body.first_op) is not table  # type: ignore[arg-type]
    # The cached table follows changes too.
    callee = table.lookup("callee")
    assert callee is not None
    callee.erase()
    assert SymbolTable.lookup_nearest(call, "callee") is None


def test_nested_module_is_its_own_table() -> None:
    module = parse_module(
        "module {\n"
        "  util.global private @outer : index\n"
        "  module @inner {\n"
        "    util.global private @g : index\n"
        "  }\n"
        "}\n"
    ).op
    inner = next(op for op in module.body.ops if isinstance(op, ModuleOp))
    table = SymbolTable(module)
    assert table.lookup("inner") is inner
    assert table.lookup("g") is None
    inner_global = next(iter(inner.body.ops))
    assert nearest_symbol_table_op(inner_global) is inner
    assert SymbolTable.lookup_nearest(inner_global, "g") is inner_global
    assert SymbolTable.lookup_nearest(inner_global, "outer") is None
