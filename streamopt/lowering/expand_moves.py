"""`--expand-moves`: rewrite each `hal.device.queue.move` into queue ops IREE knows.

A move may alias its source or copy it; the expansion always copies, which is always correct
(design section 5):

    %r = hal.device.queue.move<%dev : !hal.device> affinity(%q) wait(%wf) signal(%sf)
        source(%src : !hal.buffer)[%off] pool(%pool) type(%t) usage(%u)
        flags(PreferOrigin) : !hal.buffer{%n}
  becomes
    %f1 = hal.fence.create device(%dev : !hal.device) flags("None") : !hal.fence
    %r = hal.device.queue.alloca<%dev : !hal.device> affinity(%q) wait(%wf) signal(%f1)
        pool(%pool) type(%t) usage(%u) flags("None") : !hal.buffer{%n}
    %f2 = hal.fence.create device(%dev : !hal.device) flags("None") : !hal.fence
    hal.device.queue.copy<%dev : !hal.device> affinity(%q) wait(%f1) signal(%f2)
        source(%src : !hal.buffer)[%off] target(%r : !hal.buffer)[%c0] length(%n) flags("None")
    hal.device.queue.dealloca<%dev : !hal.device> affinity(%q) wait(%f2) signal(%sf)
        buffer(%src : !hal.buffer) flags(PreferOrigin)

The dealloca frees the source on its origin queue when the move says `PreferOrigin`. With
`KeepSource` the caller keeps the source: the copy signals `%sf` and nothing is freed. A move
that requires aliasing (`RequireAlias`) cannot become a copy and is an error.
"""

from __future__ import annotations

from streamopt.diagnostics import error
from streamopt.dialects.arith import ConstantOp
from streamopt.dialects.hal import (
    DeviceQueueAllocaOp,
    DeviceQueueCopyOp,
    DeviceQueueDeallocaOp,
    DeviceQueueMoveOp,
    FenceCreateOp,
)
from streamopt.ir.core import Operation
from streamopt.ir.module import Module
from streamopt.ir.types import INDEX
from streamopt.lowering.lower_cmd_to_hal import paused_collector
from streamopt.passes import Pass, register_pass


@register_pass
class ExpandMovesPass(Pass):
    """Expands each hal.device.queue.move into queue alloca + copy + dealloca."""

    flag = "expand-moves"
    summary = "Rewrite hal.device.queue.move into queue alloca + copy + dealloca (always copies)"

    def run(self, module: Module) -> None:
        moves = [op for op in module.walk() if isinstance(op, DeviceQueueMoveOp)]
        for move in moves:
            if "RequireAlias" in move.flags:
                raise error(
                    f"'{move.name}' op requires aliasing (RequireAlias) and cannot be expanded "
                    "into a copy",
                    move.location,
                )
        with paused_collector():
            for move in moves:
                self._expand(move)

    def _expand(self, move: DeviceQueueMoveOp) -> None:
        block = move.parent
        assert block is not None

        def emit(op: Operation) -> Operation:
            op.location = move.location
            block.insert_before(op, move)
            return op

        device, queue = move.device, move.queue_affinity
        keep_source = "KeepSource" in move.flags
        allocated = emit(FenceCreateOp.create(device)).results[0]
        target = emit(
            DeviceQueueAllocaOp.create(
                device,
                queue,
                move.wait_fence,
                allocated,
                move.pool,
                move.memory_types,
                move.buffer_usage,
                move.result_size,
            )
        ).results[0]
        copied = move.signal_fence if keep_source else emit(FenceCreateOp.create(device)).results[0]
        zero = emit(ConstantOp.create(0, INDEX)).results[0]
        emit(
            DeviceQueueCopyOp.create(
                device,
                queue,
                allocated,
                copied,
                move.source_buffer,
                move.source_offset,
                target,
                zero,
                move.result_size,
            )
        )
        if not keep_source:
            emit(
                DeviceQueueDeallocaOp.create(
                    device,
                    queue,
                    copied,
                    move.signal_fence,
                    move.source_buffer,
                    "PreferOrigin" if "PreferOrigin" in move.flags else 0,
                )
            )
        move.results[0].replace_all_uses_with(target)
        move.erase()
        self.stat("num-moves-expanded", "Number of queue moves expanded into alloca+copy+dealloca")
