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
from streamopt.analysis.graph import strongly_connected_components
from streamopt.analysis.last_use import LastUseAnalysis, LaterUse
from streamopt.ir.core import Operation, Use, Value


class MutationAnalysis:
    """Mutation and escape queries over the names of a storage."""

    def __init__(self, alias: AliasAnalysis, calls: CallGraph, last_use: LastUseAnalysis) -> None:
        self.alias = alias
        self.calls = calls
        self.last_use = last_use
        self._escaped: dict[Value, Use | None] | None = None

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

    def first_escape(self, value: Value) -> Use | None:
        """A use through which the storage of `value` leaves what streamopt can see."""
        if self._escaped is None:
            self._escaped = self._solve_escapes()
        return self._escaped.get(self.alias.root(value))

    def _solve_escapes(self) -> dict[Value, Use | None]:
        """For every root, an escaping use of it or of a name it is handed to. One pass over
        the handover graph (its strongly connected components, targets first), so chains of
        handovers stay linear."""
        alias = self.alias
        own: dict[Value, Use | None] = {}
        for root in alias.groups:
            own[root] = next(
                (use for name in alias.group(root) for use in name.uses if self.use_effect(use)[1]),
                None,
            )
        escaped: dict[Value, Use | None] = {}
        for component in strongly_connected_components(
            alias.groups, lambda root: list(alias.successors(root))
        ):
            members = set(component)
            found = next((own[m] for m in component if own[m] is not None), None)
            if found is None:
                found = next(
                    (
                        escaped[target]
                        for m in component
                        for target in alias.successors(m)
                        if target not in members and escaped.get(target) is not None
                    ),
                    None,
                )
            for member in component:
                escaped[member] = found
        return escaped

    def mutation_after(self, op: Operation, value: Value) -> LaterUse | None:
        """A mutating use of the storage of `value` that may run after `op`, or None."""
        root = self.alias.root(value)
        positions = self.last_use.positions_at(root, op, "mutation", self._is_mutation)
        return self.last_use.later_use_in(op, root, positions)
