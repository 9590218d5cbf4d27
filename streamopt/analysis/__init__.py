"""Analyses over the op graph, each computed once per module run.

`ResourceAnalysis` builds them in dependency order for one module:

* `AliasAnalysis` (alias.py): which values name the same storage (tied chains, handovers);
* `CallGraph` (calls.py): call sites and what each function does with arguments and results;
* `LastUseAnalysis` (last_use.py): whether a storage may be used after an op;
* `MutationAnalysis` (mutation.py): in-place writes, frees and escapes;
* `OwnershipAnalysis` (ownership.py): owned, borrowed or shared storage, by-value arguments,
  and `conflict_at`, the one test of whether an op is an exclusive use of a storage.

docs/storage-model.md states the model these facts follow.
"""

from __future__ import annotations

from collections.abc import Iterator

from streamopt.analysis.alias import AliasAnalysis
from streamopt.analysis.calls import CallGraph
from streamopt.analysis.effects import RETURN_OP, UseKind, classify_use
from streamopt.analysis.last_use import LastUseAnalysis
from streamopt.analysis.mutation import MutationAnalysis
from streamopt.analysis.ownership import OwnershipAnalysis
from streamopt.ir.core import BlockArgument, Operation, Use, Value
from streamopt.ir.module import Module
from streamopt.ir.types import ResourceType


class ResourceAnalysis:
    """All resource analyses of one module, computed together."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self.alias = AliasAnalysis(module)
        self.calls = CallGraph(module, self.alias)
        self.last_use = LastUseAnalysis(self.alias)
        self.mutation = MutationAnalysis(self.alias, self.calls, self.last_use)
        self.ownership = OwnershipAnalysis(self.alias, self.calls, self.last_use, self.mutation)
        self._affected: dict[Value, frozenset[Value]] = {}
        self._changing: dict[Value, Use | None] = {}

    def call_neighbours(self, root: Value) -> Iterator[Value]:
        """Roots linked to `root` across calls: callee arguments it is passed as, and the
        caller operands a function argument receives."""
        alias = self.alias
        for name in alias.group(root):
            for use in name.uses:
                if classify_use(use.operation, use.index) is UseKind.CALL:
                    callee = self.calls.callee_of(use.operation)
                    if callee is not None and not callee.is_declaration:
                        arguments = callee.body.arguments
                        if use.index < len(arguments):
                            yield alias.root(arguments[use.index])
        if isinstance(root, BlockArgument) and root.block.is_entry_block():
            function = root.block.parent_op
            name_of = getattr(function, "sym_name", None)
            if name_of is not None:
                for call in self.calls.call_sites.get(name_of, ()):
                    if root.index < len(call.operands):
                        yield alias.root(call.operands[root.index])

    def affected_roots(self, value: Value) -> frozenset[Value]:
        """Every root whose analysis results may change if `value`'s storage is rewritten."""
        root = self.alias.root(value)
        cached = self._affected.get(root)
        if cached is None:
            cached = self.alias.component(root, self.call_neighbours)
            for member in cached:
                self._affected[member] = cached
        return cached

    def changing_use(self, root: Value) -> Use | None:
        """A use in `root`'s group that may change what another name sharing the storage
        sees: one that writes, frees or leaks it, or returns it to a caller in the module
        (which may then write it, believing it owns it); None if there is none.

        Constant-lifetime storage only counts explicit writes: whoever receives it may read
        it but not write it (IREE initializers do fill constants in place, so writes count).
        A return to the host only (see `returns_to_host_only`) is not a change.
        """
        if root in self._changing:
            return self._changing[root]
        found: Use | None = None
        for name in self.alias.group(root):
            constant = isinstance(name.type, ResourceType) and name.type.lifetime == "constant"
            for use in name.uses:
                if constant:
                    if classify_use(use.operation, use.index) is UseKind.MUTATE:
                        found = use
                        break
                    continue
                if use.operation.name == RETURN_OP:
                    if self.returns_to_host_only(use.operation):
                        continue
                    found = use
                    break
                if self.mutation.use_effect(use)[0]:
                    found = use
                    break
            if found is not None:
                break
        self._changing[root] = found
        return found

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
