"""Ops streamopt keeps as written (`OpaqueOp`): the names their syntax defines for their regions,
and the keywords a region may be followed by.

The names are checked in the IR (which value each use is), since printing them back would look
right even with the wrong use-def graph; the keywords are checked for every token the grammar
lets follow a region, read from the parser's tables, not only the ones real dumps showed.
"""

from __future__ import annotations

import marshal

import pytest

from streamopt.dialects.builtin import OpaqueOp
from streamopt.ir.core import Operation
from streamopt.ir.verify import verify_module
from streamopt.parser import _START_RULES, grammar_text, parse_module
from streamopt.parser.tables import load_tables
from streamopt.printer import print_module


def ops_named(text: str, name: str) -> list[Operation]:
    module = parse_module(text, "kept.mlir")
    verify_module(module)
    return [op for op in module.op.walk() if op.name == name]


def test_function_arguments_are_the_values_its_body_uses() -> None:
    # The issue's smallest case: two lines of body, the second a use the first made too.
    text = (
        "func.func @main(%a: f32) -> f32 {\n  %b = arith.addf %a, %a : f32\n  return %a : f32\n}\n"
    )
    (function,) = ops_named(text, "func.func")
    assert isinstance(function, OpaqueOp)
    (argument,) = function.defined_values
    users = sorted(op.name for op in argument.users)
    assert users == ["arith.addf", "arith.addf", "return"]
    (ret,) = [op for op in function.walk() if op.name == "return"]
    assert ret.operands == [argument] and not ret.defined_values  # type: ignore[attr-defined]


def test_an_unused_argument_is_still_the_functions() -> None:
    (function,) = ops_named("func.func @f(%a: f32) {\n  return\n}\n", "func.func")
    assert [value.spelling for value in function.defined_values] == ["%a"]  # type: ignore[attr-defined]


def test_inner_op_naming_an_outer_argument_uses_it() -> None:
    # `stablehlo.while(%iterArg = %arg0)`: %iterArg is the loop's, %arg0 the function's, though
    # the loop is built first and nothing used %arg0 before it. The use after the loop is the
    # same value. (The text is iree-opt's.)
    text = """\
module {
  func.func @f(%arg0: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>
    cond {
      %2 = stablehlo.compare LT, %iterArg, %arg0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      stablehlo.return %iterArg : tensor<i32>
    }
    %1 = stablehlo.add %0, %arg0 : tensor<i32>
    return %1 : tensor<i32>
  }
}
"""
    module = parse_module(text, "kept.mlir")
    verify_module(module)
    ops = {op.name: op for op in module.op.walk()}
    function, loop = ops["func.func"], ops["stablehlo.while"]
    assert isinstance(function, OpaqueOp) and isinstance(loop, OpaqueOp)
    (argument,) = function.defined_values
    assert [value.spelling for value in loop.defined_values] == ["%iterArg"]
    assert loop.operands == [argument]
    assert sorted(op.name for op in argument.users) == [
        "stablehlo.add",
        "stablehlo.compare",
        "stablehlo.while",
    ]
    assert print_module(module) == text


def test_sibling_functions_define_their_own_arguments() -> None:
    text = (
        "func.func @f(%arg0: f32) -> f32 {\n  return %arg0 : f32\n}\n"
        "func.func @g(%arg0: f32) -> f32 {\n  return %arg0 : f32\n}\n"
    )
    first, second = ops_named(text, "func.func")
    (a,) = first.defined_values  # type: ignore[attr-defined]
    (b,) = second.defined_values  # type: ignore[attr-defined]
    assert a is not b
    assert [op.parent_op for op in a.users] == [first]
    assert [op.parent_op for op in b.users] == [second]


def test_a_use_before_an_op_is_not_its_definition() -> None:
    # %v is used before the loop names it: a forward reference (to the constant in ^bb2), not a
    # name the loop defines.
    text = """\
func.func @f() {
  cf.br ^bb2
^bb1:
  %w = util.optimization_barrier %v : index
  %r = stablehlo.while(%iterArg = %v) : index
  cond {
    stablehlo.return %iterArg : index
  } do {
    stablehlo.return %iterArg : index
  }
  return
^bb2:
  %v = arith.constant 1 : index
  cf.br ^bb1
}
"""
    (loop,) = ops_named(text, "stablehlo.while")
    (constant,) = [op for op in loop.parent_op.walk() if op.name == "arith.constant"]  # type: ignore[union-attr]
    assert loop.operands == [constant.results[0]]


def _literals_after_a_region() -> list[str]:
    """The keywords and punctuation the grammar lets follow a region's `}` in some op (the
    terminals of the state that reduces `region`), brackets and line ends left out."""
    tables = load_tables(grammar_text(), _START_RULES)
    rules = [marshal.loads(rule) for rule in tables["rules"]]
    region_rules = {-1 - index for index, rule in enumerate(rules) if rule[0] == "region"}
    follow: set[str] = set()
    for stored in tables["action_rows"]:
        row = marshal.loads(stored)
        if region_rules & set(row.values()):
            follow.update(symbol for symbol in row if symbol.isupper())
    literals = tables["literals"]
    return sorted(
        literals[name] for name in follow if name in literals and literals[name] not in "{}()[]"
    )


def test_the_tokens_after_a_region_are_known() -> None:
    literals = _literals_after_a_region()
    assert {"do", "else", "=>", ","} <= set(literals), literals


@pytest.mark.parametrize("literal", _literals_after_a_region())
def test_an_op_kept_as_written_reads_what_may_follow_a_region(literal: str) -> None:
    text = (
        "module {\n"
        "  func.func @f() {\n"
        "    stablehlo.custom_op {\n"
        "      stablehlo.return\n"
        f"    }} {literal} {{\n"
        "      stablehlo.return\n"
        "    }\n"
        "    return\n"
        "  }\n"
        "}\n"
    )
    assert print_module(parse_module(text, "kept.mlir")) == text
