"""Where each resource value dies, so the interpreter can free storage after its last use.

At the async level nothing in the IR frees memory: IREE's allocation passes add deallocas
after each resource's last use. The interpreter does the same with reference counts: every
SSA binding of a resource holds its storage, and a binding is dropped right after the op in
its defining block that contains its last use (a use nested in a loop or branch counts at that
loop or branch op, so a value used in a loop body lives until the loop ends). Values used in
another block of a multi-block region (`cf.br` targets that read it through dominance) are
dropped when the region exits.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from streamopt.ir.core import Block, Operation, Value
from streamopt.ir.types import ResourceType


@dataclass
class BlockLiveness:
    """Release points of the resource values defined in one block."""

    at_entry: list[Value] = field(default_factory=list)
    """Block arguments no op in the block uses."""
    after: dict[Operation, list[Value]] = field(default_factory=dict)
    """Values to drop right after each op (their last use, or their definition if unused)."""
    at_region_exit: list[Value] = field(default_factory=list)
    """Values used outside the block: dropped when the region returns."""


def _is_resource(value: Value) -> bool:
    return isinstance(value.type, ResourceType)


def block_liveness(block: Block) -> BlockLiveness:
    """Compute the release points of `block`'s resource arguments and results."""
    liveness = BlockLiveness()
    block.ensure_order()
    order = {op: index for index, op in enumerate(block.ops)}

    def place(value: Value, definition: Operation | None) -> None:
        last: Operation | None = None
        for use in value.uses:
            anchor = block.find_ancestor_op_in_block(use.operation)
            if anchor is None:
                liveness.at_region_exit.append(value)
                return
            if last is None or order[anchor] > order[last]:
                last = anchor
        if last is None:
            if definition is None:
                liveness.at_entry.append(value)
            else:
                liveness.after.setdefault(definition, []).append(value)
            return
        liveness.after.setdefault(last, []).append(value)

    for argument in block.arguments:
        if _is_resource(argument):
            place(argument, None)
    for op in block.ops:
        for result in op.results:
            if _is_resource(result):
                place(result, op)
    return liveness
