"""`--expand-cmd-moves`: rewrite each `stream.cmd.move` as allocate, copy, free the source.

The stream-level twin of `--expand-moves` (which works on `hal.device.queue.move`): always
correct, never aliasing, and made only of ops IREE already has, so the result can be read by
`iree-opt` and lowered by IREE's own cmd-to-hal conversion.

    %r, %t = stream.cmd.move origin on(#hal.device.affinity<@a>) await(%t0) =>
        %x : !stream.resource<transient>{%n} from(#hal.device.affinity<@a>) ->
        to(#hal.device.affinity<@b>) !stream.resource<transient>{%n} => !stream.timepoint
  becomes
    %result, %result_timepoint = stream.resource.alloca uninitialized
        on(#hal.device.affinity<@b>) await(%t0) => !stream.resource<transient>{%n}
        => !stream.timepoint
    %0 = stream.cmd.execute on(#hal.device.affinity<@a>) await(%result_timepoint) =>
        with(%x as %arg0: ..., %result as %arg1: ...) {
      stream.cmd.copy %arg0[%c0], %arg1[%c0], %n : ... -> ...
    } => !stream.timepoint
    %1 = stream.resource.dealloca origin on(#hal.device.affinity<@a>) await(%0) =>
        %x : !stream.resource<transient>{%n} => !stream.timepoint

The target is allocated where the move sends it (`to`, else the execution affinity), the copy
runs on the move's execution affinity, and the source is freed where it came from (`from`, else
the execution affinity), on its allocating queue when the move says `origin`. Uses of the
move's timepoint use the dealloca's, which follows the copy: the result is usable then, as it
was after the move.
"""

from __future__ import annotations

from streamopt.dialects.stream import (
    CmdCopyOp,
    CmdExecuteOp,
    CmdMoveOp,
    ResourceAllocaOp,
    ResourceDeallocaOp,
)
from streamopt.ir.core import Block, Operation, Value
from streamopt.ir.module import Module
from streamopt.ir.types import ResourceType
from streamopt.lowering.lower_to_cmd import index_zero
from streamopt.passes import Pass, register_pass


@register_pass
class ExpandCmdMovesPass(Pass):
    """Expands stream.cmd.move into alloca + one-copy cmd.execute + dealloca of the source."""

    flag = "expand-cmd-moves"
    summary = (
        "Rewrite each stream.cmd.move into stream.resource.alloca, a one-copy "
        "stream.cmd.execute and a stream.resource.dealloca of the source"
    )

    def run(self, module: Module) -> None:
        zeros: dict[Block, Value] = {}
        for op in list(module.walk()):
            if isinstance(op, CmdMoveOp) and op.parent is not None:
                self._expand(op, zeros)
                self.stat("num-moves-expanded", "Number of stream.cmd.move ops expanded")

    def _expand(self, move: CmdMoveOp, zeros: dict[Block, Value]) -> None:
        block = move.parent
        assert block is not None
        result_type = move.results[0].type
        assert isinstance(result_type, ResourceType)
        execution = move.affinity
        source, source_size = move.source, move.source_size
        result_size = move.result_size
        alloca = ResourceAllocaOp.create(
            result_size,
            await_timepoint=move.await_timepoint,
            affinity=move.target_affinity or execution,
            result=result_type,
        )
        block.insert_before(alloca, move)
        target = alloca.results[0]
        execute = CmdExecuteOp.create(
            [source, target], [source_size, result_size], alloca.results[1], affinity=execution
        )
        block.insert_before(execute, move)
        zero = function_index_zero(move, zeros)
        source_arg, target_arg = execute.body.arguments
        copy = CmdCopyOp.create(
            source_arg, source_size, zero, target_arg, result_size, zero, source_size
        )
        execute.body.append(copy)
        dealloca = ResourceDeallocaOp.create(
            source,
            source_size,
            await_timepoint=execute.results[0],
            affinity=move.source_affinity or execution,
            prefer_origin=move.prefer_origin,
        )
        block.insert_before(dealloca, move)
        for new in (alloca, execute, copy, dealloca):
            new.location, new.debug_loc = move.location, move.debug_loc
        move.results[0].replace_all_uses_with(target)
        move.results[1].replace_all_uses_with(dealloca.results[0])
        move.erase()


def function_index_zero(op: Operation, zeros: dict[Block, Value]) -> Value:
    """An index 0 at the top of the function (or initializer) holding `op`; `zeros` remembers
    the one of each entry block already found."""
    region = op.parent.parent if op.parent is not None else None
    while region is not None and region.parent is not None:
        owner = region.parent
        if owner.name in ("util.func", "util.initializer") or owner.parent is None:
            break
        region = owner.parent.parent if owner.parent is not None else None
    assert region is not None
    entry = region.blocks[0]
    zero = zeros.get(entry)
    if zero is None:
        zero = zeros[entry] = index_zero(entry)
    return zero
