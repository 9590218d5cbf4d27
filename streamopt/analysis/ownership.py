"""Owned or borrowed: may this storage be consumed by the code that names it?

A root is *owned* when nothing outside its names can see its storage any more (design section
4, rules 1 and 3):

* fresh results are owned; borrowed producers (globals, constants, non-consume imports,
  unmodelled ops) never are;
* a merge (a block argument, a control-flow result, a call result that returns an argument) is
  owned when every value flowing in is owned and handed over as its last use;
* a function argument is passed *by value* (owned) when the function can only be called from
  inside the module and every call site passes an owned value as its last use; public
  functions take their arguments by reference.

These depend on each other, so they are solved together once per module: everything starts
owned and is demoted until nothing changes (a greatest fixed point, so a loop that only carries
its own storage around stays owned).
"""

from __future__ import annotations

from dataclasses import dataclass

from streamopt.analysis.alias import AliasAnalysis, is_resource_like
from streamopt.analysis.calls import CallGraph
from streamopt.analysis.last_use import LastUseAnalysis
from streamopt.analysis.producers import RootKind, classify_root
from streamopt.dialects.util import FuncOp
from streamopt.ir.core import BlockArgument, Operation, Region, Value


@dataclass(frozen=True, slots=True)
class Incoming:
    """A value handed to a merge or argument root at `op` (operand `operand_index`)."""

    op: Operation
    operand_index: int
    value: Value


class OwnershipAnalysis:
    """Owned/borrowed for every storage root of a module, with the reason when borrowed."""

    def __init__(self, alias: AliasAnalysis, calls: CallGraph, last_use: LastUseAnalysis) -> None:
        self.alias = alias
        self.calls = calls
        self.last_use = last_use
        self._reason: dict[Value, str | None] = {}
        self._pass_last_use: dict[tuple[Operation, int], str | None] = {}
        # Per region: the name of an unmodelled op ending one of its blocks, if any.
        self._unknown_exits: dict[Region, str | None] = {}
        self._solve()

    def is_owned(self, value: Value) -> bool:
        """True if the storage `value` names is owned."""
        return self.reason_borrowed(value) is None

    def reason_borrowed(self, value: Value) -> str | None:
        """Why the storage `value` names is not owned, or None if it is."""
        root = self.alias.root(value)
        if root not in self._reason:
            return "not a resource"
        return self._reason[root]

    # -- solving ---------------------------------------------------------------------------

    def _solve(self) -> None:
        alias = self.alias
        pending: dict[Value, list[Incoming]] = {}
        for root in list(alias.groups):
            if not is_resource_like(root):
                continue
            origin = classify_root(root, root in alias.incoming)
            kind = origin.kind
            if kind is RootKind.FRESH:
                self._reason[root] = None
            elif kind is RootKind.BORROWED:
                self._reason[root] = origin.reason
            elif kind is RootKind.FUNCTION_ARGUMENT:
                self._start_argument(root, pending)
            elif kind is RootKind.CALL_RESULT:
                borrowed = self.calls.borrowed_call_results.get(root)
                self._reason[root] = borrowed
                if borrowed is None:
                    pending[root] = self._incoming_of(root)
            else:  # a merge
                problem = self._unknown_predecessor(root)
                self._reason[root] = problem
                if problem is None:
                    pending[root] = self._incoming_of(root)
        # Demote until stable; a root is demoted at most once, so this terminates.
        changed = True
        while changed:
            changed = False
            for root, incoming in pending.items():
                if self._reason[root] is not None:
                    continue
                for item in incoming:
                    why = self._incoming_problem(item)
                    if why is not None:
                        self._reason[root] = why
                        changed = True
                        break

    def _start_argument(self, root: Value, pending: dict[Value, list[Incoming]]) -> None:
        assert isinstance(root, BlockArgument)
        function = root.block.parent_op
        assert isinstance(function, FuncOp)
        if self.calls.may_have_unseen_callers(function):
            why = "public" if function.is_public else "referenced"
            self._reason[root] = f"argument of {why} function '@{function.sym_name}'"
            return
        sites = self.calls.call_sites.get(function.sym_name, [])
        incoming = [
            Incoming(call, root.index, call.operands[root.index])
            for call in sites
            if root.index < len(call.operands)
        ]
        if len(incoming) != len(sites):
            self._reason[root] = "a call site passes too few arguments"
            return
        self._reason[root] = None
        pending[root] = incoming

    def _incoming_of(self, root: Value) -> list[Incoming]:
        incoming: list[Incoming] = []
        for member in self.alias.group(root):
            for edge in self.alias.incoming.get(member, ()):
                incoming.append(Incoming(edge.op, edge.operand_index, edge.value))
        return incoming

    def _incoming_problem(self, item: Incoming) -> str | None:
        source = self.alias.root(item.value)
        if source not in self._reason:
            return "receives a value of unknown origin"
        source_reason = self._reason[source]
        if source_reason is not None:
            return f"receives borrowed storage ({source_reason})"
        later = self.pass_is_last_use(item.op, item.operand_index)
        if later is not None:
            return f"receives storage that is used again ({later})"
        return None

    def _unknown_predecessor(self, root: Value) -> str | None:
        """For a non-entry block argument: a predecessor whose branch we cannot read."""
        if not isinstance(root, BlockArgument) or root.block.is_entry_block():
            return None
        region = root.block.parent
        if region is None:
            return "argument of a detached block"
        if region not in self._unknown_exits:
            self._unknown_exits[region] = next(
                (
                    terminator.name
                    for block in region.blocks
                    if (terminator := block.last_op) is not None and not terminator.is_known
                ),
                None,
            )
        name = self._unknown_exits[region]
        return None if name is None else f"block may be entered from unmodelled op '{name}'"

    # -- handovers -------------------------------------------------------------------------

    def pass_is_last_use(self, op: Operation, operand_index: int) -> str | None:
        """None if `op` hands over operand `operand_index` as the last use of its storage;
        otherwise what else may use the storage afterwards."""
        key = (op, operand_index)
        if key not in self._pass_last_use:
            self._pass_last_use[key] = self._compute_pass_last_use(op, operand_index)
        return self._pass_last_use[key]

    def _compute_pass_last_use(self, op: Operation, operand_index: int) -> str | None:
        alias = self.alias
        root = alias.root(op.operands[operand_index])
        # The same storage handed over twice (or used by the op another way) is not exclusive,
        # unless the two go to different successors of a branch (only one is taken).
        successor_of = getattr(op, "successor_operand_index", None)
        mine = successor_of(operand_index) if successor_of is not None else None
        for index, other in enumerate(op.operands):
            if index == operand_index or alias.root(other) != root:
                continue
            theirs = successor_of(index) if successor_of is not None else None
            if mine is not None and theirs is not None and mine[0] != theirs[0]:
                continue
            return f"also operand #{index} of '{op.name}'"
        # Other uses of the storage's own names after the handover.
        later = self.last_use.later_use_in(op, root, self.last_use.group_positions(root))
        if later is not None:
            return describe_use(later.user, later.reason)
        # Names the storage was handed to earlier, through other edges, used after this one.
        edges = alias.passes_from.get(root, ())
        own_targets = self._targets_of(op, operand_index) if len(edges) > 1 else set()
        for edge in edges:
            if edge.op is op:
                continue
            if not _runs_before(edge.op, op) or self.last_use.exclusive(edge.op, op):
                continue  # after `op` (itself a later use, above) or never on its path
            for target in edge.targets:
                target_root = alias.root(target)
                if target_root in own_targets:
                    continue
                positions = self.last_use.positions_at(target_root, op)
                later = self.last_use.later_use_in(op, target_root, positions)
                if later is not None:
                    return describe_use(later.user, later.reason)
                clash = self.last_use.uses_at(op, alias.forward_roots(target_root), operand_index)
                if clash is not None:
                    return f"an alias is also an operand of '{op.name}'"
        return None

    def _targets_of(self, op: Operation, operand_index: int) -> set[Value]:
        roots: set[Value] = set()
        for edge in self.alias.passes_from.get(self.alias.root(op.operands[operand_index]), ()):
            if edge.op is op and edge.operand_index == operand_index:
                for target in edge.targets:
                    roots.update(self.alias.forward_roots(self.alias.root(target)))
        return roots


def _runs_before(a: Operation, b: Operation) -> bool:
    """True if `a` may run before `b`: `a` precedes (or encloses) `b`'s ancestor in `a`'s
    block, or the two are in different regions (assumed possible)."""
    block = a.parent
    if block is None:
        return False
    ancestor = block.find_ancestor_op_in_block(b)
    if ancestor is None:
        return True
    if ancestor is a:
        return True
    return a.is_before_in_block(ancestor)


def describe_use(op: Operation, reason: str) -> str:
    """`used later: 'op.name' at file:line:col`."""
    return f"{reason}: '{op.name}' at {op.location}"
