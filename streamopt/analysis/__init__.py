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
from streamopt.analysis.effects import UseKind, classify_use
from streamopt.analysis.last_use import LastUseAnalysis
from streamopt.analysis.mutation import MutationAnalysis
from streamopt.analysis.ownership import OwnershipAnalysis
from streamopt.ir.core import BlockArgument, Value
from streamopt.ir.module import Module


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
