"""The op graph API: use lists stay in sync through every mutation, block order queries stay
right through inserts and erases, walks survive erasure, clones are deep, and the verifier
catches values used before they are defined."""

from __future__ import annotations

import itertools

import pytest

from streamopt.diagnostics import DiagnosticError
from streamopt.dialects.arith import ConstantOp
from streamopt.ir.core import Block, Operation, Region, Value
from streamopt.ir.types import I32, INDEX
from streamopt.ir.verify import verify_module
from streamopt.parser import parse_module
from streamopt.printer import print_module

SOURCE = """\
util.func public @f(%arg0: index) -> index {
  %c1 = arith.constant 1 : index
  %0 = arith.addi %arg0, %c1 : index
  %1 = arith.muli %0, %0 : index
  util.return %1 : index
}
"""


def uses_of(value: Value) -> list[tuple[str, int]]:
    return [(use.operation.name, use.index) for use in value.uses]


def body_ops(module: object) -> list[Operation]:
    func = next(op for op in module.walk() if op.name == "util.func")  # type: ignore[attr-defined]
    return list(func.regions[0].blocks[0].ops)


def check_use_lists(op: Operation) -> None:
    """Every operand's use list holds exactly the uses pointing back at it."""
    for nested in op.walk():
        for index, value in enumerate(nested.operands):
            assert any(u.operation is nested and u.index == index for u in value.uses)
        for result in nested.results:
            for use in result.uses:
                assert use.operation.operands[use.index] is result


def test_parse_builds_use_lists() -> None:
    module = parse_module(SOURCE)
    c1, add, mul, _ret = body_ops(module)
    assert uses_of(c1.result) == [("arith.addi", 1)]
    assert uses_of(add.result) == [("arith.muli", 0), ("arith.muli", 1)]
    assert uses_of(mul.result) == [("util.return", 0)]
    check_use_lists(module.op)


def test_set_operand_moves_the_use() -> None:
    module = parse_module(SOURCE)
    c1, add, mul, _ = body_ops(module)
    mul.set_operand(1, c1.result)
    assert uses_of(add.result) == [("arith.muli", 0)]
    assert ("arith.muli", 1) in uses_of(c1.result)
    check_use_lists(module.op)


def test_set_operands_replaces_all_uses_of_the_op() -> None:
    module = parse_module(SOURCE)
    c1, add, mul, _ = body_ops(module)
    mul.set_operands([c1.result, c1.result])
    assert uses_of(add.result) == []
    assert len(c1.result.uses) == 3
    check_use_lists(module.op)


def test_many_uses_stay_in_order_through_moves() -> None:
    """A value with many uses (held as a list, an ordered set once it loses one) keeps them
    in use order, each once, as uses move away and back."""
    adds = "".join(f"  %{i} = arith.addi %c1, %arg0 : index\n" for i in range(30))
    module = parse_module(
        "util.func public @f(%arg0: index) -> index {\n  %c1 = arith.constant 1 : index\n"
        f"{adds}  util.return %29 : index\n}}\n"
    )
    c1, *users, _ = body_ops(module)
    argument = users[0].operands[1]
    assert [use.operation for use in c1.result.uses] == users
    for user in users[::2]:
        user.set_operand(0, argument)
    assert [use.operation for use in c1.result.uses] == users[1::2]
    assert len(c1.result.uses) == 15
    users[0].set_operand(0, c1.result)
    assert [use.operation for use in c1.result.uses] == [*users[1::2], users[0]]
    check_use_lists(module.op)


def test_replace_all_uses_with() -> None:
    module = parse_module(SOURCE)
    c1, add, _mul, _ret = body_ops(module)
    add.result.replace_all_uses_with(c1.result)
    assert not add.result.has_uses()
    assert uses_of(c1.result) == [("arith.addi", 1), ("arith.muli", 0), ("arith.muli", 1)]
    add.erase()
    assert uses_of(c1.result) == [("arith.muli", 0), ("arith.muli", 1)]
    check_use_lists(module.op)


def test_erase_with_uses_is_refused() -> None:
    module = parse_module(SOURCE)
    _, add, _, _ = body_ops(module)
    with pytest.raises(AssertionError):
        add.erase()


def test_iteration_survives_erasing_the_current_op() -> None:
    module = parse_module(SOURCE)
    block = body_ops(module)[0].parent
    assert block is not None
    seen = []
    for op in block.ops:
        seen.append(op.name)
        if op.name == "arith.muli":
            op.result.replace_all_uses_with(op.operands[0])
            op.erase()
    assert seen == ["arith.constant", "arith.addi", "arith.muli", "util.return"]
    assert [op.name for op in block.ops] == ["arith.constant", "arith.addi", "util.return"]


def test_block_order_follows_inserts_and_erases() -> None:
    block = Block()
    ops = [block.append(ConstantOp.create(i, INDEX)) for i in range(4)]
    assert all(a.is_before_in_block(b) for a, b in itertools.pairwise(ops))
    # Insert many ops between two neighbours: positions run out and the block renumbers.
    inserted = []
    anchor = ops[2]
    for i in range(40):
        inserted.append(block.insert_before(ConstantOp.create(100 + i, INDEX), anchor))
    order = list(block.ops)
    for earlier, later in itertools.pairwise(order):
        assert earlier.is_before_in_block(later)
        assert not later.is_before_in_block(earlier)
    inserted[5].detach()
    order = list(block.ops)
    assert inserted[5] not in order
    for earlier, later in itertools.pairwise(order):
        assert earlier.is_before_in_block(later)


def test_insert_after_and_detach() -> None:
    block = Block()
    a = block.append(ConstantOp.create(1, INDEX))
    c = block.append(ConstantOp.create(3, INDEX))
    b = block.insert_after(ConstantOp.create(2, INDEX), a)
    assert [op.int_value for op in block.ops] == [1, 2, 3]  # type: ignore[attr-defined]
    assert a.is_before_in_block(b) and b.is_before_in_block(c)
    c.detach()
    assert c.parent is None and block.last_op is b


def test_clone_is_deep_and_remaps_operands() -> None:
    module = parse_module(SOURCE)
    func = next(op for op in module.walk() if op.name == "util.func")
    copy = func.clone()
    original_ops = list(func.walk())
    copied_ops = list(copy.walk())
    assert [op.name for op in copied_ops] == [op.name for op in original_ops]
    assert not set(map(id, copied_ops)) & set(map(id, original_ops))
    copied_body = copy.regions[0].blocks[0]
    for op in copied_body.ops:
        for value in op.operands:
            owner = value.owner
            block = owner if isinstance(owner, Block) else owner.parent  # type: ignore[union-attr]
            assert block is copied_body
    check_use_lists(copy)


def test_walk_visits_nested_regions_in_order() -> None:
    module = parse_module(
        """\
util.func public @g(%arg0: i1) -> index {
  %0 = scf.if %arg0 -> (index) {
    %c1 = arith.constant 1 : index
    scf.yield %c1 : index
  } else {
    %c2 = arith.constant 2 : index
    scf.yield %c2 : index
  }
  util.return %0 : index
}
"""
    )
    names = [op.name for op in module.walk()]
    assert names == [
        "builtin.module",
        "util.func",
        "scf.if",
        "arith.constant",
        "scf.yield",
        "arith.constant",
        "scf.yield",
        "util.return",
    ]


def test_verifier_finds_a_use_before_its_definition() -> None:
    module = parse_module(SOURCE)
    c1, add, mul, _ = body_ops(module)
    block = c1.parent
    assert block is not None
    mul.detach()
    block.insert_before(mul, add)  # Now uses %0 before the addi defines it.
    with pytest.raises(DiagnosticError) as failure:
        verify_module(module)
    assert "is used before it is defined" in str(failure.value)


def test_verifier_finds_a_value_from_an_erased_op() -> None:
    module = parse_module(SOURCE)
    c1, _add, _, _ = body_ops(module)
    c1.detach()  # Detached without dropping its uses.
    with pytest.raises(DiagnosticError) as failure:
        verify_module(module)
    assert "erased" in str(failure.value)


def test_new_values_print_with_fresh_names() -> None:
    module = parse_module(SOURCE)
    c1, add, _, _ = body_ops(module)
    block = c1.parent
    assert block is not None
    new = block.insert_after(ConstantOp.create(7, I32), add)
    text = print_module(module)
    assert "%c7_i32 = arith.constant 7 : i32" in text
    assert new.result.name_hint is None
    parse_module(text)  # What was printed reads back.


def test_region_and_block_structure() -> None:
    region = Region([Block([INDEX]), Block()])
    assert region.entry_block.arguments[0].type == INDEX
    assert region.blocks[1].is_entry_block() is False
    assert region.blocks[0].is_entry_block() is True
