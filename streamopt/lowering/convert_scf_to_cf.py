"""`--convert-scf-to-cf`: structured control flow on the host to `cf` branches, as MLIR's
SCFToControlFlow (which IREE runs at the end of its stream phase) does it.

IREE's HAL conversion, where `iree-compile --compile-from=stream` resumes, rejects `scf` ops
around stream ops, so streamopt's cmd lowering ends with this pass. Innermost ops first:

* `scf.if %c` splits its block: `cf.cond_br %c, ^then, ^else`, each branch's blocks moved
  into the function, its `scf.yield` a `cf.br` to the continuation, whose arguments are the
  results;
* `scf.for %i = %lb to %ub step %s iter_args(...)` becomes a header block
  `^cond(%i, %args...)` testing `arith.cmpi slt, %i, %ub`, the body (its `scf.yield` adds the
  step and branches back) and the continuation;
* `scf.while` branches into its `before` blocks; `scf.condition(%c) %v` becomes
  `cf.cond_br %c, ^after(%v), ^continuation(%v)` and the `after` region's `scf.yield` branches
  back to `before`;
* `scf.index_switch %i` casts the index to i32 (`arith.index_cast`) and becomes `cf.switch`
  to each case's blocks and the default's.

Ops inside executables are kernel code and are never touched.
"""

from __future__ import annotations

from streamopt.dialects.arith import AddIOp, CmpIOp, IndexCastOp
from streamopt.dialects.cf import BranchOp, CondBranchOp, SwitchOp
from streamopt.dialects.scf import ConditionOp, ForOp, IfOp, IndexSwitchOp, WhileOp, YieldOp
from streamopt.ir.core import Block, Operation, Region
from streamopt.ir.module import Module
from streamopt.ir.types import I32
from streamopt.passes import Pass, register_pass


@register_pass
class ConvertScfToCfPass(Pass):
    """Converts `scf.if` / `scf.for` / `scf.while` into `cf` branches between blocks.

      %r = scf.if %c -> (index) { scf.yield %a : index } else { scf.yield %b : index }
    becomes
      cf.cond_br %c, ^bb1, ^bb2
    ^bb1:
      cf.br ^bb3(%a : index)
    ^bb2:
      cf.br ^bb3(%b : index)
    ^bb3(%r: index):
    """

    flag = "convert-scf-to-cf"
    summary = "Convert scf.if/for/while on the host into cf branches (as IREE's stream phase ends)"

    def run(self, module: Module) -> None:
        # Post-order: an op's nested scf ops are converted before it is.
        structured = [
            op for op in module.op.walk() if isinstance(op, IfOp | ForOp | WhileOp | IndexSwitchOp)
        ]
        for op in reversed(structured):
            if isinstance(op, IndexSwitchOp):
                _convert_index_switch(op)
            elif isinstance(op, IfOp):
                _convert_if(op)
            elif isinstance(op, ForOp):
                _convert_for(op)
            else:
                _convert_while(op)
            self.stat("num-converted", "Number of scf ops converted to cf branches")


def _split_after(op: Operation) -> Block:
    """Move the ops after `op` into a new block placed after `op`'s block; return it."""
    block = op.parent
    assert block is not None and block.parent is not None
    region = block.parent
    continuation = Block()
    continuation.label_hint = True
    region.blocks.insert(region.blocks.index(block) + 1, continuation)
    continuation.parent = region
    following = []
    cursor = op.next_op
    while cursor is not None:
        following.append(cursor)
        cursor = cursor.next_op
    for moved in following:
        moved.detach()
        continuation.append(moved)
    return continuation


def _inline_region(source: Region, before: Block) -> list[Block]:
    """Move every block of `source` into `before`'s region, just before `before`."""
    region = before.parent
    assert region is not None
    blocks = list(source.blocks)
    source.blocks.clear()
    position = region.blocks.index(before)
    for offset, block in enumerate(blocks):
        region.blocks.insert(position + offset, block)
        block.parent = region
        block.label_hint = True
    return blocks


def _terminators(blocks: list[Block], kind: type[Operation]) -> list[Operation]:
    return [b.terminator for b in blocks if isinstance(b.terminator, kind)]


def _replace(terminator: Operation, new: Operation) -> None:
    block = terminator.parent
    assert block is not None
    new.location = terminator.location
    block.insert_before(new, terminator)
    terminator.erase()


def _results_into(op: Operation, continuation: Block) -> None:
    for result in op.results:
        argument = continuation.add_argument(result.type, result.name_hint)
        result.replace_all_uses_with(argument)


def _begin(op: Operation) -> tuple[Block, Block]:
    """Split after `op`, with its results as the continuation's arguments: (op's block,
    continuation)."""
    continuation = _split_after(op)
    _results_into(op, continuation)
    block = op.parent
    assert block is not None
    return block, continuation


def _finish(op: Operation, block: Block, branch: Operation) -> None:
    """End `op`'s block with `branch` (located at `op`) in place of `op`."""
    branch.location = op.location
    block.insert_before(branch, op)
    op.erase()


def _branch_regions(op: Operation, continuation: Block) -> list[Block]:
    """Move each region of `op` before `continuation`, its `scf.yield`s branching there; the
    entry block of each (the continuation for an empty region)."""
    targets: list[Block] = []
    for region in op.regions:
        blocks = _inline_region(region, continuation) if region.blocks else []
        for yield_op in _terminators(blocks, YieldOp):
            _replace(yield_op, BranchOp.create(continuation, list(yield_op.operands)))
        targets.append(blocks[0] if blocks else continuation)
    return targets


def _convert_if(op: IfOp) -> None:
    block, continuation = _begin(op)
    then_block, else_block = _branch_regions(op, continuation)
    _finish(op, block, CondBranchOp.create(op.condition, then_block, [], else_block, []))


def _convert_for(op: ForOp) -> None:
    block, continuation = _begin(op)
    assert block.parent is not None
    body_blocks = _inline_region(op.regions[0], continuation)
    entry = body_blocks[0]
    header = Block()
    header.label_hint = True
    region = block.parent
    region.blocks.insert(region.blocks.index(entry), header)
    header.parent = region
    # The header takes the body's arguments (induction variable, then iter_args).
    for argument in list(entry.arguments):
        replacement = header.add_argument(argument.type, argument.name_hint)
        argument.replace_all_uses_with(replacement)
    while entry.arguments:
        entry.erase_argument(len(entry.arguments) - 1)
    induction, carried = header.arguments[0], header.arguments[1:]
    compare = CmpIOp.create("slt", induction, op.upper_bound, op.location)
    header.append(compare)
    header.append(CondBranchOp.create(compare.results[0], entry, [], continuation, list(carried)))
    header.last_op.location = op.location  # type: ignore[union-attr]
    for yield_op in _terminators(body_blocks, YieldOp):
        yield_block = yield_op.parent
        assert yield_block is not None
        step = AddIOp.create(induction, op.step, location=op.location)
        yield_block.insert_before(step, yield_op)
        _replace(yield_op, BranchOp.create(header, [step.results[0], *yield_op.operands]))
    _finish(op, block, BranchOp.create(header, [op.lower_bound, *op.init_args]))


def _convert_while(op: WhileOp) -> None:
    block, continuation = _begin(op)
    before_blocks = _inline_region(op.regions[0], continuation)
    after_blocks = _inline_region(op.regions[1], continuation)
    before, after = before_blocks[0], after_blocks[0]
    for condition in _terminators(before_blocks, ConditionOp):
        assert isinstance(condition, ConditionOp)
        values = list(condition.args)
        _replace(
            condition,
            CondBranchOp.create(condition.condition, after, values, continuation, values),
        )
    for yield_op in _terminators(after_blocks, YieldOp):
        _replace(yield_op, BranchOp.create(before, list(yield_op.operands)))
    _finish(op, block, BranchOp.create(before, list(op.inits)))


def _convert_index_switch(op: IndexSwitchOp) -> None:
    block, continuation = _begin(op)
    targets = _branch_regions(op, continuation)  # The default region first, then the cases.
    flag = IndexCastOp.create(op.argument, I32)
    flag.location = op.location
    block.insert_before(flag, op)
    switch = SwitchOp(
        [flag.results[0]],
        (),
        {},
        successors=targets,
        segments=(1, *(0 for _ in targets)),
        case_values=list(op.case_values),
    )
    _finish(op, block, switch)
