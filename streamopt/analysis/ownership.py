"""Owned or borrowed: may this storage be consumed by the code that names it?

The facts follow docs/storage-model.md. For every storage root two things are decided:

* **shared**: some handover that fed the root was not exclusive, so another name may still
  observe the storage: the giver uses it again (later, or inside the loop it starts), it had
  escaped (exported, stored in a global, given to an op streamopt does not model, returned
  from a public function), or the op handed it on twice. A shared storage may never be
  consumed; the verifier rejects a move of one.
* **borrowed**: the storage comes from somewhere the module does not own: a global, a
  constant, a non-consume import, an unmodelled op, the argument of a function with callers
  streamopt cannot see. It may be read, but not taken over.

A root is *owned* when it is neither (design section 4, rules 1 and 3): fresh results are
owned; a merge (a block argument, a control-flow result, a call result that returns an
argument) is owned when every value flowing in is owned and handed over exclusively; a function
argument is passed *by value* when the function can only be called from inside the module and
every call site hands over an owned value exclusively.

`conflict_at` is the one test of exclusivity, used for handovers here, for the pass's
candidates (a transfer to move, a clone to drop) and by the verifier for moves. The roots
depend on each other, so they are solved together once per module: everything starts owned and
is demoted until nothing changes (a greatest fixed point, so a loop that only carries its own
storage around stays owned).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from streamopt.analysis.alias import AliasAnalysis, is_resource_like
from streamopt.analysis.calls import CallGraph
from streamopt.analysis.last_use import LastUseAnalysis
from streamopt.analysis.mutation import MutationAnalysis
from streamopt.analysis.producers import RootKind, classify_root
from streamopt.dialects.util import FuncOp
from streamopt.ir.core import BlockArgument, Operation, Region, Value


class ConflictKind(enum.Enum):
    ESCAPE = "escape"  # a name of the storage escaped
    USE = "use"  # a name of it is used after the op, or inside the loop it starts
    OPERAND = "operand"  # the op also uses it through another operand


@dataclass(frozen=True, slots=True)
class Conflict:
    """Why an op is not an exclusive use of a storage: what else may observe it (`user`, the
    op that does, and `reason`, how)."""

    kind: ConflictKind
    user: Operation
    reason: str

    def __str__(self) -> str:
        return describe_use(self.user, self.reason)

    def at_handover(self, op: Operation) -> str:
        """Why the storage `op` hands on stays visible to others after it."""
        where = f"'{op.name}' at {op.location}"
        if self.kind is ConflictKind.ESCAPE:
            return f"it escaped through '{self.user.name}' at {self.user.location} before {where}"
        if self.kind is ConflictKind.OPERAND:
            return f"{where} hands it on {self.reason}"
        return f"{where} hands it on while it is {self}"


@dataclass(frozen=True, slots=True)
class Incoming:
    """A value handed to a merge or argument root at `op` (operand `operand_index`)."""

    op: Operation
    operand_index: int | None
    value: Value


class OwnershipAnalysis:
    """Owned, borrowed or shared for every storage root of a module, with the reason."""

    def __init__(
        self,
        alias: AliasAnalysis,
        calls: CallGraph,
        last_use: LastUseAnalysis,
        mutation: MutationAnalysis,
    ) -> None:
        self.alias = alias
        self.calls = calls
        self.last_use = last_use
        self.mutation = mutation
        self._borrowed: dict[Value, str | None] = {}
        self._shared: dict[Value, str | None] = {}
        self._conflict: dict[tuple[Operation, int], Conflict | None] = {}
        # Per region: the name of an unmodelled op ending one of its blocks, if any.
        self._unknown_exits: dict[Region, str | None] = {}
        self._solve()

    def is_owned(self, value: Value) -> bool:
        """True if the storage `value` names is owned."""
        return self.reason_borrowed(value) is None

    def reason_borrowed(self, value: Value) -> str | None:
        """Why the storage `value` names is not owned (shared or borrowed), or None if it is."""
        root = self.alias.root(value)
        if root not in self._borrowed:
            return "not a resource"
        return self._shared[root] or self._borrowed[root]

    def reason_shared(self, value: Value) -> str | None:
        """Why another name may still observe the storage `value` names when it is defined
        (a handover that fed it was not exclusive), or None."""
        return self._shared.get(self.alias.root(value))

    # -- exclusivity -----------------------------------------------------------------------

    def conflict_at(self, op: Operation, operand_index: int) -> Conflict | None:
        """None if nothing but `op`'s use of operand `operand_index` may observe that
        operand's storage from `op` on; otherwise what may.

        The names considered are those the storage may have when `op` runs: the operand's
        tied names and the names they were handed to before (not the targets `op` itself
        hands it to, which are its new names). Any of them conflicts if `op` uses it through
        another operand (unless the two go to different successors of a branch), if it is
        used after `op` or, when `op` has regions (a loop it starts), inside them, or if it
        escaped before `op` on a path through it (an escape stays observable for the rest of
        the program; one after `op` is a later use).
        """
        key = (op, operand_index)
        if key not in self._conflict:
            self._conflict[key] = self._compute_conflict(op, operand_index)
        return self._conflict[key]

    def _compute_conflict(self, op: Operation, operand_index: int) -> Conflict | None:
        alias = self.alias
        root = alias.root(op.operands[operand_index])
        names = self.last_use.forward_roots_at(root, op, skip=op)
        if len(names) > 1:
            # Other handovers reached names this one also feeds; those are its own.
            names -= self._targets_of(op, operand_index) - {root}
        # The same storage used by the op another way is not exclusive, unless the two go to
        # different successors of a branch (only one is taken).
        successor_of = getattr(op, "successor_operand_index", None)
        mine = successor_of(operand_index) if successor_of is not None else None
        for index, other in enumerate(op.operands):
            if index == operand_index or alias.root(other) not in names:
                continue
            theirs = successor_of(index) if successor_of is not None else None
            if mine is not None and theirs is not None and mine[0] != theirs[0]:
                continue
            return Conflict(ConflictKind.OPERAND, op, f"also as operand #{index}")
        # One operand handed to several names at once (a callee that returns its argument
        # twice): each of them sees the storage the others do.
        if len(alias.passes_of.get((op, operand_index), ())) > 1:
            return Conflict(ConflictKind.OPERAND, op, "handed to several results at once")
        positions = self.last_use.merged_positions(names)
        successor = op.successors[mine[0]] if mine is not None else None
        later = self.last_use.later_use_in(op, root, positions, names, successor=successor)
        if later is not None:
            return Conflict(ConflictKind.USE, later.user, later.reason)
        if op.regions:
            for name in names:
                inside = self.last_use.used_inside(name, op)
                if inside is not None:
                    reason = "used inside the region it is handed to"
                    return Conflict(ConflictKind.USE, inside, reason)
        escape = self.mutation.escape_among(names, before=op, bound=root)
        if escape is not None:
            return Conflict(ConflictKind.ESCAPE, escape.operation, "escaped before")
        return None

    def _targets_of(self, op: Operation, operand_index: int) -> set[Value]:
        """The roots `op` hands operand `operand_index` to, and every root they pass it on
        to: the storage's names from `op` on."""
        roots: set[Value] = set()
        for edge in self.alias.passes_of.get((op, operand_index), ()):
            for target in edge.targets:
                roots.update(self.alias.forward_roots(self.alias.root(target)))
        return roots

    # -- solving ---------------------------------------------------------------------------

    def _solve(self) -> None:
        alias = self.alias
        pending: dict[Value, list[Incoming]] = {}
        for root in list(alias.groups):
            if not is_resource_like(root):
                continue
            self._shared[root] = None
            origin = classify_root(root, root in alias.incoming)
            kind = origin.kind
            if kind is RootKind.FRESH:
                self._borrowed[root] = None
            elif kind is RootKind.BORROWED:
                self._borrowed[root] = origin.reason
            elif kind is RootKind.FUNCTION_ARGUMENT:
                self._start_argument(root, pending)
            elif kind is RootKind.CALL_RESULT:
                self._borrowed[root] = self.calls.borrowed_call_results.get(root)
                pending[root] = self._incoming_of(root)
            else:  # a merge
                self._borrowed[root] = self._unknown_predecessor(root)
                pending[root] = self._incoming_of(root)
        # Demote until stable; a root is demoted at most once each way, so this terminates.
        changed = True
        while changed:
            changed = False
            for root, incoming in pending.items():
                if self._shared[root] is not None:
                    continue
                for item in incoming:
                    shared, borrowed = self._incoming_problem(item)
                    if shared is not None:
                        self._shared[root] = shared
                        changed = True
                        break
                    if borrowed is not None and self._borrowed[root] is None:
                        self._borrowed[root] = borrowed
                        changed = True

    def _start_argument(self, root: Value, pending: dict[Value, list[Incoming]]) -> None:
        assert isinstance(root, BlockArgument)
        function = root.block.parent_op
        assert isinstance(function, FuncOp)
        sites = self.calls.call_sites.get(function.sym_name, [])
        incoming = [
            Incoming(call, root.index, call.operands[root.index])
            for call in sites
            if root.index < len(call.operands)
        ]
        # The call sites streamopt can see hand storage in either way: their handovers decide
        # whether it is shared; unseen callers make it borrowed.
        pending[root] = incoming
        if self.calls.may_have_unseen_callers(function):
            why = "public" if function.is_public else "referenced"
            self._borrowed[root] = f"argument of {why} function '@{function.sym_name}'"
        elif len(incoming) != len(sites):
            self._borrowed[root] = "a call site passes too few arguments"
        else:
            self._borrowed[root] = None

    def _incoming_of(self, root: Value) -> list[Incoming]:
        incoming: list[Incoming] = []
        for member in self.alias.group(root):
            for edge in self.alias.incoming.get(member, ()):
                incoming.append(Incoming(edge.op, edge.operand_index, edge.value))
        return incoming

    def _incoming_problem(self, item: Incoming) -> tuple[str | None, str | None]:
        """(why the handover makes the receiver shared, why it makes it borrowed)."""
        source = self.alias.root(item.value)
        if source not in self._borrowed:
            return None, "receives a value of unknown origin"
        shared = self._shared[source]
        if shared is not None:
            return shared, None
        if item.operand_index is None:
            # A call result handed over from a global: the callee returns its storage.
            return None, f"receives borrowed storage ({self._borrowed[source]})"
        conflict = self.conflict_at(item.op, item.operand_index)
        if conflict is not None:
            return conflict.at_handover(item.op), None
        source_reason = self._borrowed[source]
        if source_reason is not None:
            return None, f"receives borrowed storage ({source_reason})"
        return None, None

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


def describe_use(op: Operation, reason: str) -> str:
    """`used later: 'op.name' at file:line:col`."""
    return f"{reason}: '{op.name}' at {op.location}"
