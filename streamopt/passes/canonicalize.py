"""`--canonicalize`: apply every op's folds and patterns, remove unused side-effect-free ops.

%c1 = arith.constant 1 : index          (no uses)   ->   (removed)
%r = stream.async.move %x : ... from(A) -> to(A)   ->   uses of %r use %x (op's fold)
"""

from __future__ import annotations

from streamopt.ir.core import Access, Operation
from streamopt.ir.module import Module
from streamopt.passes import Pass, register_pass


@register_pass
class CanonicalizePass(Pass):
    """Folds ops and erases dead pure ops until nothing changes."""

    flag = "canonicalize"
    summary = "Fold ops and remove unused side-effect-free ops"

    def run(self, module: Module) -> None:
        worklist: list[Operation] = list(module.op.walk_regions_first())
        queued = {id(op) for op in worklist}
        while worklist:
            op = worklist.pop()
            queued.discard(id(op))
            if op.parent is None:
                continue  # Already erased.
            if self._is_dead(op):
                producers = [v.defining_op for v in op.operands]
                op.erase()
                self.stat("num-dead-ops-erased", "Number of unused pure ops removed")
                self._requeue(producers, worklist, queued)
                continue
            # Folding an op whose results are unused changes nothing (and would never stop).
            replacements = op.fold() if any(r.uses for r in op.results) else None
            if replacements is not None:
                users = [use.operation for r in op.results for use in r.uses]
                op.replace_all_uses_with(list(replacements))
                self.stat("num-folds", "Number of ops folded away")
                self._requeue([*users, op], worklist, queued)
                continue
            neighbours = [v.defining_op for v in op.operands]
            if op.canonicalize():
                self.stat("num-canonicalized", "Number of ops rewritten by their patterns")
                self._requeue([op, *neighbours], worklist, queued)

    @staticmethod
    def _requeue(ops: list[Operation | None], worklist: list[Operation], queued: set[int]) -> None:
        for op in ops:
            if op is not None and id(op) not in queued:
                worklist.append(op)
                queued.add(id(op))

    @staticmethod
    def _is_dead(op: Operation) -> bool:
        # A pure op that writes in place (IREE marks stream.async.store and a tied dispatch
        # Pure) changes storage its operand's other names still see: not dead.
        return (
            op.is_pure
            and not op.regions
            and all(not r.uses for r in op.results)
            and not any(op.operand_access(i) & Access.WRITE for i in range(len(op.operands)))
        )
