"""`--cse`: merge equal pure ops, as mlir-opt's `--cse` does, without sharing storage that
anyone could tell apart.

Two ops are equal when they have the same name, operands, result types, attributes and
op-specific state, are pure (`is_pure`), have no regions, and tie no result to an operand (an
op that writes in place is not pure in streamopt's storage model). The later one is replaced
by the earlier one when the earlier one dominates it: an earlier op of the same block, of an
enclosing block, or of the entry block of the region a later block is in. Regions of ops
isolated from above, and of ops streamopt does not model, start afresh.

    %a = arith.constant 4 : index                 %a = arith.constant 4 : index
    %b = arith.constant 4 : index       ->        %s = arith.addi %a, %a : index
    %s = arith.addi %a, %b : index

Resources are storage, not values (docs/storage-model.md): merging two dispatches makes
their results one storage, and two reads of one storage at different times may read
different bytes. So an op that reads or makes a resource is merged only when the storage
model says nobody could tell them apart (`StorageModel.merge_equal`): no name that may share
its operands' or results' storage is ever written, freed, leaked or returned to a caller in
the module. Such a merge changes those facts for the storages connected to it (a
`StorageModel.storage_class`), so other candidates among them wait for the next round, on a
new model. An unused pure op that touches
no resource is erased when the walk reaches it, as mlir-opt's `--cse` erases trivially dead
ops.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from streamopt.analysis.alias import is_resource_like
from streamopt.analysis.storage import StorageModel
from streamopt.ir.core import Block, Operation, Region, Value
from streamopt.ir.module import Module
from streamopt.passes import Pass, register_pass


def _key(op: Operation) -> Hashable | None:
    """What two ops must share to be merged, or None if `op` is never merged."""
    if (
        not op.is_known
        or not op.is_pure
        or op.is_terminator
        or op.regions
        or op.successors
        or not op.results
        or any(op.tied_operand_index(i) is not None for i in range(len(op.results)))
    ):
        return None
    state: list[Any] = []
    for cls in type(op).__mro__:
        if cls is Operation:
            break
        for slot in cls.__dict__.get("__slots__", ()):
            value = getattr(op, slot, None)
            state.append(tuple(value) if isinstance(value, list) else value)
    key = (
        op.name,
        tuple(op.operands),
        tuple(result.type for result in op.results),
        tuple(sorted(op.attribute_map.items(), key=lambda item: item[0])),
        tuple(state),
    )
    try:
        hash(key)
    except TypeError:
        return None  # An attribute streamopt keeps opaque and unhashable: leave the op.
    return key


def _trivially_dead(op: Operation) -> bool:
    """True for a mergeable op whose results nobody uses and that neither reads nor makes a
    resource (storage is left to the passes that reason about it)."""
    return not any(result.uses for result in op.results) and not any(
        is_resource_like(v) for v in (*op.operands, *op.results)
    )


class _Scopes:
    """Ops seen so far on the path of dominating blocks: one table and an undo log per
    scope, so entering and leaving a region costs what it added."""

    def __init__(self) -> None:
        self.table: dict[Hashable, Operation] = {}
        self.added: list[list[Hashable]] = []

    def push(self) -> None:
        self.added.append([])

    def pop(self) -> None:
        for key in self.added.pop():
            del self.table[key]

    def add(self, key: Hashable, op: Operation) -> None:
        self.table[key] = op
        self.added[-1].append(key)


@register_pass
class CSEPass(Pass):
    """Merges equal pure ops where the first dominates the second."""

    flag = "cse"
    summary = "Eliminate common subexpressions: merge equal pure ops (mlir-opt's --cse)"

    def run(self, module: Module) -> None:
        while self._round(module):
            pass

    def _round(self, module: Module) -> bool:
        """Merge what this round can; True if some merges wait for the next round."""
        self._module = module
        self._model: StorageModel | None = None
        self._stale: set[frozenset[Value]] = set()
        self._deferred = False
        self._region_ops(module.op, _Scopes())
        return self._deferred

    def _region_ops(self, op: Operation, scopes: _Scopes) -> None:
        for region in op.regions:
            if op.is_isolated_from_above or not op.is_known:
                self._region(region, _Scopes())
            else:
                self._region(region, scopes)

    def _region(self, region: Region, scopes: _Scopes) -> None:
        blocks = list(region.blocks)
        if not blocks:
            return
        # The entry block dominates every block of its region; other blocks are taken one at
        # a time (a block does not dominate its siblings in general).
        scopes.push()
        self._block(blocks[0], scopes)
        for block in blocks[1:]:
            scopes.push()
            self._block(block, scopes)
            scopes.pop()
        scopes.pop()

    def _block(self, block: Block, scopes: _Scopes) -> None:
        for op in list(block.ops):
            if op.parent is None:
                continue
            key = _key(op)
            if key is not None and _trivially_dead(op):
                # As mlir-opt's --cse: an unused pure op goes when it is reached, before it
                # could absorb a later equal op (which would keep the earlier position).
                op.erase()
                self.stat("num-dce'd", "Number of operations DCE'd")
                continue
            if key is not None:
                earlier = scopes.table.get(key)
                if earlier is None:
                    scopes.add(key, op)
                elif self._may_merge(earlier, op):
                    op.replace_all_uses_with(list(earlier.results))
                    op.erase()
                    self.stat("num-cse'd", "Number of operations CSE'd")
                    continue
            self._region_ops(op, scopes)

    def _may_merge(self, earlier: Operation, later: Operation) -> bool:
        """True unless merging would let someone tell two storages, or two reads, apart."""
        values = [
            v for v in (*later.operands, *earlier.results, *later.results) if is_resource_like(v)
        ]
        if not values:
            return True
        if self._model is None:
            self._model = StorageModel(self._module)
        model = self._model
        connected = [model.storage_class(v) for v in values]
        if any(roots in self._stale for roots in connected):
            self._deferred = True
            return False
        if model.merge_equal(values) is not None:
            return False
        self._stale.update(connected)
        return True
