"""Is a storage written in place, freed or leaked anywhere (or after a given op)?

A use *mutates* its storage when it writes in place (a tied operand, a write access), consumes
it (a move, a dealloca), or lets it *escape* where streamopt cannot follow: an unmodelled op, a
global store, an external function, a callee whose summary says it mutates or leaks the
argument, or a return from a public function (the caller may do anything with it).
"""

from __future__ import annotations

from streamopt.analysis.alias import AliasAnalysis
from streamopt.analysis.calls import CallGraph
from streamopt.analysis.effects import GLOBAL_STORE_OP, UseKind, classify_use
from streamopt.analysis.last_use import LastUseAnalysis, LaterUse
from streamopt.ir.core import Operation, Use, Value


class MutationAnalysis:
    """Mutation and escape queries over the names of a storage."""

    def __init__(self, alias: AliasAnalysis, calls: CallGraph, last_use: LastUseAnalysis) -> None:
        self.alias = alias
        self.calls = calls
        self.last_use = last_use
        self._mutated: dict[Value, Use | None] = {}
        self._escaped: dict[Value, Use | None] = {}

    def use_effect(self, use: Use) -> tuple[bool, bool]:
        """(mutates, escapes) for one use."""
        op = use.operation
        if op.name == GLOBAL_STORE_OP:
            # The global now holds the storage: loads of it are further names (AliasAnalysis
            # links them), but the store itself changes no bytes.
            return False, True
        kind = classify_use(op, use.index)
        if kind is UseKind.MUTATE:
            return True, False
        if kind is UseKind.ESCAPE:
            return True, True
        if kind is UseKind.CALL:
            mutated, escapes = self.calls.call_effect(op, use.index)
            return mutated or escapes, escapes
        if kind is UseKind.RETURN:
            # Returning ends this function's use; callers we cannot see may then change it.
            function = self.calls.function_of(op)
            if function is None or self.calls.may_have_unseen_callers(function):
                return True, False
        return False, False

    def _is_mutation(self, use: Use) -> bool:
        return self.use_effect(use)[0]

    def first_mutation(self, value: Value) -> Use | None:
        """A use that mutates or leaks the storage of `value` (through any name), or None."""
        root = self.alias.root(value)
        if root not in self._mutated:
            self._mutated[root] = self._find(root, escapes_only=False)
        return self._mutated[root]

    def first_escape(self, value: Value) -> Use | None:
        """A use through which the storage of `value` leaves what streamopt can see."""
        root = self.alias.root(value)
        if root not in self._escaped:
            self._escaped[root] = self._find(root, escapes_only=True)
        return self._escaped[root]

    def _find(self, root: Value, escapes_only: bool) -> Use | None:
        for name in self.alias.names(self.alias.forward_roots(root)):
            for use in name.uses:
                mutates, escapes = self.use_effect(use)
                if escapes or (mutates and not escapes_only):
                    return use
        return None

    def mutation_after(self, op: Operation, value: Value) -> LaterUse | None:
        """A mutating use of the storage of `value` that may run after `op`, or None."""
        root = self.alias.root(value)
        positions = self.last_use.positions_at(root, op, "mutation", self._is_mutation)
        return self.last_use.later_use_in(op, root, positions)
