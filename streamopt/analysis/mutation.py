"""Is a storage written in place, freed, or does it escape?

A use *mutates* its storage when it writes in place (a tied operand, a write access), consumes
it (a move, a dealloca), or may do either later because the storage *escapes*. A use lets the
storage escape, and then it stays observable from outside what streamopt can see for the rest
of the program (docs/storage-model.md), when it is

* a `stream.tensor.export` (the host holds a view of it) or a `util.global.store` (whoever
  loads the global sees it, here or in another function or run);
* an operand of an op streamopt does not model, or of any op nested in the regions of one (it
  may run them at any time), or a use an op's own interfaces call escaping;
* a call whose callee has no body here or whose summary says the argument escapes;
* a return from a function that may have callers streamopt cannot see (public or referenced).
"""

from __future__ import annotations

from collections.abc import Iterable

from streamopt.analysis.alias import AliasAnalysis
from streamopt.analysis.calls import CallGraph
from streamopt.analysis.effects import GLOBAL_STORE_OP, RETURN_OP, UseKind, classify_use
from streamopt.analysis.last_use import LastUseAnalysis, LaterUse
from streamopt.dialects.util import FuncOp
from streamopt.ir.core import Operation, Use, Value


class MutationAnalysis:
    """Mutation and escape queries over the names of a storage."""

    def __init__(self, alias: AliasAnalysis, calls: CallGraph, last_use: LastUseAnalysis) -> None:
        self.alias = alias
        self.calls = calls
        self.last_use = last_use
        self._escapes: dict[Value, list[Use]] = {}
        self._changing_outside: dict[tuple[Value, FuncOp | None], Use | None] = {}

    def use_effect(self, use: Use) -> tuple[bool, bool]:
        """(mutates, escapes) for one use."""
        op = use.operation
        if (op, use.index) in self.alias.unmodelled_captures:
            return True, True
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
            # Returning ends this function's use; callers we cannot see may then do anything
            # with it, at any time.
            function = self.calls.function_of(op)
            if function is None or self.calls.may_have_unseen_callers(function):
                return True, True
        return False, False

    def changes(self, use: Use) -> bool:
        """True if `use` may change what another name of its storage sees: it writes, frees or
        leaks it. A return is a change only from a function that callers outside the module
        may call while callers in it do too: the module's callers' uses of the result are
        names of the storage (return edges), and the host, when it is the only caller, gets
        the storage once the function is done (`returns_to_host_only`)."""
        if use.operation.name == RETURN_OP:
            function = self.calls.function_of(use.operation)
            if function is None:
                return True
            unseen = self.calls.may_have_unseen_callers(function)
            return unseen and bool(self.calls.call_sites.get(function.sym_name))
        return self.use_effect(use)[0]

    def returns_to_host_only(self, op: Operation) -> bool:
        """True if return `op` hands storage only to callers outside the module (the host):
        its function may be called from outside and nothing here calls it.

        The host reads what it passed in and what it gets back, and IREE's ABI returns
        results without promising they are storage distinct from the arguments
        (`util.return %arg` is a valid function), so two names of one storage returned to it
        are observed as one would be (docs/storage-model.md). A return to a caller in the
        module is different: the caller may write what it gets back in place."""
        function = self.calls.function_of(op)
        return (
            function is not None
            and self.calls.may_have_unseen_callers(function)
            and not self.calls.call_sites.get(function.sym_name)
        )

    def own_escapes(self, root: Value) -> list[Use]:
        """The uses of names in `root`'s group (its tied names) that let the storage escape."""
        found = self._escapes.get(root)
        if found is None:
            found = [
                use for name in self.alias.group(root) for use in name.uses if self.escapes(use)
            ]
            self._escapes[root] = found
        return found

    def escapes(self, use: Use) -> bool:
        return self.use_effect(use)[1]

    def escape_among(
        self,
        roots: Iterable[Value],
        before: Operation | None = None,
        bound: Value | None = None,
    ) -> Use | None:
        """An escaping use of a name of any of `roots`, or None. With `before`, only one that
        may run before that op on a path through it: an escape after it is a later use, which
        the last-use analysis judges (a loop's carried name may hold new storage by then).
        With `bound` too (the root whose storage `before` sees), not one that can only reach
        `before` through a block that binds `bound` anew: it let earlier storage escape."""
        last_use = self.last_use
        for root in roots:
            for use in self.own_escapes(root):
                if before is None:
                    return use
                if not last_use.may_run_before(use.operation, before):
                    continue
                if bound is not None and last_use.rebound_between(use.operation, before, bound):
                    continue
                return use
        return None

    def mutation_after(self, op: Operation, value: Value) -> LaterUse | None:
        """A mutating use of the storage of `value` that may run after `op`, or None.

        The names the storage has when `op` runs count by where their uses are. A handover is
        a use but not a mutation, so what handovers after `op` give the storage to must be
        followed too (a loop it starts may move or write it), and those names count wherever
        they are written: the next iteration of a loop runs its body again."""
        root = self.alias.root(value)
        key, keep = "mutation", self.changes
        names = self.last_use.forward_roots_at(root, op)
        positions = self.last_use.merged_positions(names, key, keep)
        later = self.last_use.later_use_in(op, root, positions, names, key, keep)
        if later is not None:
            return later
        for name in self.last_use.handed_on_later(root, op):
            entry = next(iter(self.last_use.group_positions(name, key, keep).latest.values()), None)
            if entry is not None:
                return LaterUse(entry[1], "changed after it is handed on")
        # Positions order uses within `op`'s function only. A name with uses in another
        # function (a global's loads there, a call result) may be changed whenever that
        # function runs, which may be after `op` (a call of it later here).
        function = self.calls.function_of(op)
        for name in names:
            use = self._change_outside(name, function)
            if use is not None:
                return LaterUse(use.operation, "changed in another function")
        return None

    def _change_outside(self, root: Value, function: FuncOp | None) -> Use | None:
        """The first changing use (`changes`) of a name in `root`'s group that lies outside
        `function`, or None. Only uses elsewhere are judged: usually there are none."""
        key = (root, function)
        if key in self._changing_outside:
            return self._changing_outside[key]
        found: Use | None = None
        function_of = self.calls.function_of
        for name in self.alias.group(root):
            for use in name.uses:
                if function_of(use.operation) is not function and self.changes(use):
                    found = use
                    break
            if found is not None:
                break
        self._changing_outside[key] = found
        return found
