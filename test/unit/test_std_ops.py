"""util/arith/scf/cf ops: the interfaces analyses read, the constructors passes use, clones."""

# IR lines are as long as IREE prints them.
# ruff: noqa: E501

from __future__ import annotations

from streamopt.dialects import arith, cf, scf, util
from streamopt.ir.core import Access, Block, Operation, RegionKind
from streamopt.ir.module import Module
from streamopt.ir.types import I1, INDEX, resource_type
from streamopt.ir.verify import verify_module
from streamopt.parser import parse_module
from streamopt.printer import print_module

SOURCE = """\
util.func private @callee(%arg0: !stream.resource<*>, %arg1: index) -> (%arg0, !stream.resource<*>)
util.func public @main(%arg0: !stream.resource<*>, %arg1: index, %arg2: i1) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0:2 = util.call @callee(%arg0, %arg1) : (!stream.resource<*>, index) -> (%arg0, !stream.resource<*>)
  %1 = scf.for %arg3 = %c0 to %arg1 step %c1 iter_args(%arg4 = %0#1) -> (!stream.resource<*>) {
    scf.yield %arg4 : !stream.resource<*>
  }
  %2 = scf.if %arg2 -> (!stream.resource<*>) {
    scf.yield %1 : !stream.resource<*>
  } else {
    scf.yield %0#0 : !stream.resource<*>
  }
  %3 = arith.select %arg2, %2, %1 : !stream.resource<*>
  %4:2 = util.optimization_barrier %3, %arg1 : !stream.resource<*>, index
  cf.cond_br %arg2, ^bb1(%4#0 : !stream.resource<*>), ^bb1(%3 : !stream.resource<*>)
^bb1(%5: !stream.resource<*>):
  util.return %5 : !stream.resource<*>
}
"""


def _ops(module: Module) -> dict[str, Operation]:
    return {op.name: op for op in module.walk()}


def test_interfaces() -> None:
    module = parse_module(SOURCE)
    ops = _ops(module)
    call = ops["util.call"]
    assert [call.operand_access(i) for i in range(2)] == [Access.ESCAPE, Access.ESCAPE]
    assert [call.tied_operand_index(i) for i in range(2)] == [0, None]

    loop = ops["scf.for"]
    assert isinstance(loop, scf.ForOp)
    assert loop.region_kind is RegionKind.LOOP
    assert [loop.operand_access(i) for i in range(4)] == [Access.NONE] * 3 + [Access.ESCAPE]
    assert loop.init_args == [call.results[1]]
    assert loop.region_iter_args == list(loop.body.arguments[1:])
    assert isinstance(loop.yield_op, scf.YieldOp)
    assert loop.yield_op.operand_access(0) is Access.ESCAPE

    branch = ops["scf.if"]
    assert isinstance(branch, scf.IfOp)
    assert branch.region_kind is RegionKind.EXCLUSIVE
    assert branch.operand_access(0) is Access.NONE
    assert branch.else_block is not None

    select = ops["arith.select"]
    assert [select.operand_access(i) for i in range(3)] == [
        Access.NONE,
        Access.ESCAPE,
        Access.ESCAPE,
    ]
    assert ops["arith.constant"].is_pure and select.is_pure

    barrier = ops["util.optimization_barrier"]
    assert [barrier.tied_operand_index(i) for i in range(2)] == [0, 1]
    assert not barrier.is_pure

    cond_br = ops["cf.cond_br"]
    assert isinstance(cond_br, cf.CondBranchOp)
    assert cond_br.is_terminator
    assert [cond_br.operand_access(i) for i in range(3)] == [
        Access.NONE,
        Access.ESCAPE,
        Access.ESCAPE,
    ]
    assert cond_br.true_operands == [barrier.results[0]]
    assert cond_br.false_operands == [select.result]
    assert cond_br.successor_operand_index(2) == (1, 0)
    assert cond_br.successor_operand_index(0) is None


def test_global_load_purity_follows_mutability() -> None:
    module = parse_module(
        "util.global private @a : index\n"
        "util.global private mutable @b : index\n"
        "util.func public @f() -> (index, index) {\n"
        "  %a = util.global.load immutable @a : index\n"
        "  %b = util.global.load @b : index\n"
        "  util.return %a, %b : index, index\n"
        "}\n"
    )
    loads = [op for op in module.walk() if isinstance(op, util.GlobalLoadOp)]
    assert [op.is_pure for op in loads] == [True, False]


def test_clone_keeps_segments_ties_and_successors() -> None:
    module = parse_module(SOURCE)
    main = [op for op in module.walk() if isinstance(op, util.FuncOp)][1]
    copy = main.clone()
    assert isinstance(copy, util.FuncOp)
    copy.header.sym_name = "copy"
    module.op.body.append(copy)
    verify_module(module)
    text = print_module(module)
    body = text[text.index("@copy") :]
    assert (
        "cf.cond_br %arg2, ^bb1(%4#0 : !stream.resource<*>), ^bb1(%3 : !stream.resource<*>)" in body
    )
    assert "(%arg0, !stream.resource<*>)" in body
    cloned_branch = next(op for op in copy.walk() if isinstance(op, cf.CondBranchOp))
    assert cloned_branch.successors[0].parent is copy.regions[0]


def test_constructors_build_verifiable_ir() -> None:
    module = parse_module(
        "util.func public @f(%arg0: index, %arg1: i1, %arg2: !stream.resource<*>) {\n"
        "  util.return\n"
        "}\n"
    )
    func = next(op for op in module.walk() if isinstance(op, util.FuncOp))
    ret = func.body.last_op
    assert ret is not None
    arg0, arg1, arg2 = func.body.arguments

    def insert(op: Operation) -> Operation:
        func.body.insert_before(op, ret)  # type: ignore[arg-type]
        return op

    zero = insert(arith.ConstantOp.create(0, INDEX))
    add = insert(arith.AddIOp.create(arg0, zero.result, ("nsw",)))
    cmp = insert(arith.CmpIOp.create("ult", add.result, arg0))
    assert cmp.result.type == I1
    loop = insert(scf.ForOp.create(zero.result, arg0, add.result, [arg2]))
    branch = insert(scf.IfOp.create(arg1, [INDEX]))
    assert isinstance(branch, scf.IfOp)
    for yield_op in (branch.then_yield, branch.else_yield):
        assert yield_op is not None
        yield_op.set_operands([arg0])
    cond = scf.ConditionOp.create(arg1, [arg0])
    loop_while = insert(scf.WhileOp.create([arg0], [INDEX]))
    assert isinstance(loop_while, scf.WhileOp)
    loop_while.before_block.append(cond)
    cond.set_operands([arg1, loop_while.before_block.arguments[0]])
    loop_while.after_block.append(scf.YieldOp.create(loop_while.after_arguments))
    global_op = util.GlobalOp.create("g", resource_type(), mutable=True)
    module.op.body.insert_before(global_op, func)
    insert(util.GlobalStoreOp.create(loop.results[0], global_op))
    insert(util.GlobalLoadOp.create(global_op))
    target = Block([INDEX])
    func.regions[0].add_block(target)
    target.append(util.ReturnOp([], ()))
    ret.erase()
    func.body.append(cf.BranchOp.create(target, [arg0]))
    verify_module(module)
    text = print_module(module)
    assert "util.global private mutable @g : !stream.resource<*>" in text
    assert "arith.addi %arg0, %c0 overflow<nsw> : index" in text
    assert "scf.for %arg3 = %c0 to %arg0 step %0 iter_args(%arg4 = %arg2)" in text
    assert "%g = util.global.load @g : !stream.resource<*>" in text
    assert "cf.br ^bb1(%arg0 : index)" in text
    assert "^bb1(%" in text and "// pred: ^bb0" in text
    # What we print, we read back to the same text.
    assert print_module(parse_module(text)) == text


def test_region_kinds() -> None:
    assert util.FuncOp.region_kind is RegionKind.CALLABLE
    assert util.InitializerOp.region_kind is RegionKind.CALLABLE
    assert scf.WhileOp.region_kind is RegionKind.LOOP
    assert scf.IndexSwitchOp.region_kind is RegionKind.EXCLUSIVE
