"""The storage model: what every rewrite of a module's resources and the verifier ask.

docs/storage-model.md states it. One `StorageModel` is computed per module (per sweep of a
pass that rewrites): the storages, every name each has (ties, handovers through `scf`/`cf`,
execute captures, globals, call arguments and results, returns to callers), where each
escapes and where each is read, written or freed. Its parts are the analyses of this package
(alias, calls, last use, mutation, ownership); a rewrite does not combine them itself but asks
one of the model's questions:

* `consume(op, index)`: may the storage of `op`'s operand be consumed here (taken over by a
  move, a removed copy's result)? It must be owned and `op` an exclusive use of it.
* `share(op, source, result)`: may `source` and `result`, which `op` made a copy of it, be one
  storage from `op` on? Either `op` consumes the source (above), or neither side is changed
  while both may be seen. Clone removal, same-device and unified-memory transfer removal ask
  it; `share_bytes` asks it for a byte range (slice folding), `merge_equal` for two results
  of equal ops (CSE).
* `drop_write(op)`: may what `op` writes into its target be dropped, nothing but the names
  of its result seeing the target from `op` on (update elision)?

The verifier of `stream.async.move` and `stream.cmd.move` asks `consume` too.

A rewrite changes the facts of every storage connected to what it rewrote. The model is not
recomputed after each one (that would be quadratic); a rewrite tells it what it did
(`rewrote`), and a question whose facts went stale answers `STALE`: the pass decides it
again in its next sweep, on a new model.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from streamopt.analysis.alias import AliasAnalysis
from streamopt.analysis.calls import CallGraph
from streamopt.analysis.effects import RETURN_OP, UseKind, classify_use
from streamopt.analysis.last_use import LastUseAnalysis, UsePositions
from streamopt.analysis.mutation import MutationAnalysis
from streamopt.analysis.ownership import Conflict, ConflictKind, OwnershipAnalysis, describe_use
from streamopt.analysis.ranges import ByteRange, disjoint, use_range
from streamopt.dialects.stream import AsyncMoveOp, AsyncTransferOp, StreamOp
from streamopt.ir.core import BlockArgument, Operation, OpResult, Use, Value
from streamopt.ir.module import Module
from streamopt.ir.types import AffinityAttr, Attribute, ResourceType


class RefusalKind(enum.Enum):
    BORROWED = "borrowed"  # the storage comes from somewhere the module does not own
    SHARED = "shared"  # another name may still see it (a handover into it was not exclusive)
    ESCAPE = "escape"  # a name of it escaped before the op
    USE = "use"  # a name of it is used after the op (or again, in a loop)
    CHANGED = "changed"  # a name of it is written, freed or leaked while both sides live
    STALE = "stale"  # the facts it needs changed in this sweep: ask again next sweep


@dataclass(frozen=True)
class Refusal:
    """Why the model says no: a kind, the text for `--stats`, and the op that observes the
    storage (None when none is to blame)."""

    kind: RefusalKind
    text: str
    user: Operation | None = None

    def __str__(self) -> str:
        return self.text


STALE = Refusal(RefusalKind.STALE, "decided in a later sweep")


@dataclass(frozen=True)
class Sharing:
    """Yes to `share`: `exclusive` when `op` consumes the source (it was the source's last
    use); otherwise the result's storage is never changed and the source's is not changed
    while both may be seen, so the shared storage changes exactly where the source's did."""

    exclusive: bool = False


def _refusal_of(conflict: Conflict) -> Refusal:
    if conflict.kind is ConflictKind.ESCAPE:
        user = conflict.user
        return Refusal(
            RefusalKind.ESCAPE,
            f"source storage escapes through '{user.name}' at {user.location}",
            user,
        )
    return Refusal(RefusalKind.USE, f"not the last use of the source ({conflict})", conflict.user)


class _StaleRoots:
    """Roots whose facts of one kind went stale this sweep: single roots, and the storage
    classes (`StorageModel.storage_class`) a rewrite touched, kept whole so that marking a
    large class costs one hash rather than its size each time."""

    def __init__(self, model: StorageModel) -> None:
        self.model = model
        self.roots: set[Value] = set()
        self.classes: set[frozenset[Value]] = set()

    def add_roots(self, roots: Iterable[Value]) -> None:
        self.roots.update(roots)

    def add_classes(self, *values: Value) -> None:
        for value in values:
            self.classes.add(self.model.storage_class(value))

    def __contains__(self, root: Value) -> bool:
        if root in self.roots:
            return True
        return bool(self.classes) and self.model.storage_class(root) in self.classes


class StorageModel:
    """The storages of one module and the questions rewrites ask about them."""

    def __init__(self, module: Module, homes: dict[Value, str] | None = None) -> None:
        self.module = module
        self.alias = AliasAnalysis(module)
        self.calls = CallGraph(module, self.alias)
        self.last_use = LastUseAnalysis(self.alias)
        self.mutation = MutationAnalysis(self.alias, self.calls, self.last_use)
        self.ownership = OwnershipAnalysis(self.alias, self.calls, self.last_use, self.mutation)
        self._classes: dict[Value, frozenset[Value]] = {}
        self._changing: dict[Value, Use | None] = {}
        self._changes_of: dict[frozenset[Value], Use | None] = {}
        # Facts rewrites made stale this sweep: where a storage's uses are (a removed copy
        # merges its result's uses into its source), and who changes it (a move consumes its
        # source; a copy removed at its source's last use hands the result's writers over).
        self._stale_uses = _StaleRoots(self)
        self._stale_changes = _StaleRoots(self)
        # Roots whose storage lives in another device's memory than the IR says (the source
        # of a unified-memory transfer removed earlier), by device; kept by the caller across
        # models (the IR no longer says it).
        self._homes: dict[Value, str] = {} if homes is None else homes

    # -- the questions ---------------------------------------------------------------------

    def consume(self, op: Operation, index: int) -> Refusal | None:
        """None if `op` may consume the storage of its operand `index`: it is owned (fresh,
        or handed over exclusively from owned storage) and nothing but this use may observe
        it from `op` on (no other name used later or escaped before); else why not."""
        value = op.operands[index]
        if self._uses_stale(value):
            return STALE
        ownership = self.ownership
        shared = ownership.reason_shared(value)
        if shared is not None:
            return Refusal(RefusalKind.SHARED, f"source storage is not owned ({shared})")
        borrowed = ownership.reason_borrowed(value)
        if borrowed is not None:
            return Refusal(RefusalKind.BORROWED, f"source storage is not owned ({borrowed})")
        conflict = ownership.conflict_at(op, index)
        return None if conflict is None else _refusal_of(conflict)

    def observers_after(self, op: Operation, index: int) -> Conflict | Refusal | None:
        """What may observe the storage of `op`'s operand `index` once `op` consumed it: a
        name of it used after `op` or escaped before (a `Conflict`), a handover into it that
        was not exclusive (`SHARED`); None if nothing. The verifier's question: a consuming
        op may consume borrowed storage it was handed, not storage others still see."""
        conflict = self.ownership.conflict_at(op, index)
        if conflict is not None:
            return conflict
        shared = self.ownership.reason_shared(op.operands[index])
        if shared is not None:
            return Refusal(RefusalKind.SHARED, shared)
        return None

    def share(
        self, op: Operation, source: Value, result: Value, no_take_over: str | None = None
    ) -> Sharing | Refusal:
        """May `source` and `result` (`op`'s copy of it) be one storage from `op` on?

        Yes when `op` may consume the source (`consume`): the result takes it over (unless
        `no_take_over` says why it may not). Yes too when nothing changes the storage while
        both may be seen: no name the result's storage may have is ever written, freed,
        leaked or returned to a caller that may write it, and, from `op` on, no name the
        source's storage may have is (for borrowed or shared storage: never, through any
        name that may share it)."""
        consumed = (
            self.consume(op, 0)
            if no_take_over is None
            else Refusal(RefusalKind.BORROWED, no_take_over)
        )
        if consumed is None:
            return Sharing(exclusive=True)
        if self._changes_stale(source) or self._changes_stale(result):
            return STALE
        change = self._first_change(self.alias.later_roots(self.alias.root(result)))
        if change is not None:
            if consumed is STALE:
                return STALE
            refusal = _changed("the copy", change)
            return Refusal(refusal.kind, f"{consumed}; and {refusal.text}", refusal.user)
        owned = self.ownership.reason_borrowed(source) is None
        escaped = consumed.kind is RefusalKind.ESCAPE
        if owned and not escaped and consumed is not STALE:
            later = self.mutation.mutation_after(op, source)
            if later is not None:
                return Refusal(
                    RefusalKind.CHANGED,
                    f"{consumed}; and the source is changed later "
                    f"({describe_use(later.user, later.reason)})",
                    later.user,
                )
            return Sharing()
        change = self._first_change(self.storage_class(source))
        if change is not None:
            if consumed is STALE:
                return STALE
            refusal = _changed("the source", change)
            return Refusal(refusal.kind, f"{consumed}; and {refusal.text}", refusal.user)
        return Sharing()

    def share_bytes(
        self, op: Operation, source: Value, result: Value, sliced: ByteRange
    ) -> Refusal | None:
        """None if `result` (`op`'s copy of bytes `sliced` of `source`) may be read in place
        of those bytes of the source: the result's users use no other name of the source's
        storage, and no name that may share the source's storage writes, frees or leaks those
        bytes once `op` has run (returns do not count: they end the function, and whoever
        gets the storage back acts after the result's users)."""
        if self._uses_stale(source) or self._uses_stale(result):
            return STALE
        if self._changes_stale(source) or self._changes_stale(result):
            return STALE
        storage = self.storage_class(source)
        alias = self.alias
        for use in result.uses:
            user = use.operation
            for index, other in enumerate(user.operands):
                if index != use.index and alias.root(other) in storage:
                    return Refusal(
                        RefusalKind.USE,
                        f"'{user.name}' at {user.location} also uses the source's storage",
                        user,
                    )
        mutation, last_use = self.mutation, self.last_use
        for name in alias.names(storage):
            for use in name.uses:
                user = use.operation
                if user is op or not mutation.use_effect(use)[0] or user.name == RETURN_OP:
                    continue
                if not last_use.may_run_before(op, user):
                    continue
                touched = use_range(user, use.index)
                if touched is not None and disjoint(touched, sliced):
                    continue
                return Refusal(
                    RefusalKind.CHANGED,
                    f"the sliced bytes may change after the slice: '{user.name}' at "
                    f"{user.location}",
                    user,
                )
        return None

    def drop_write(self, op: Operation, target_index: int) -> Refusal | None:
        """None if nothing but `op`'s result, and the names its users tie to it, may see the
        storage of `op`'s operand `target_index` from `op` on: it is owned, no other name
        the storage has when `op` runs is used after `op`, and none escaped before."""
        target = op.operands[target_index]
        if self._uses_stale(target) or self._changes_stale(target):
            return STALE
        borrowed = self.ownership.reason_borrowed(target)
        if borrowed is not None:
            return Refusal(RefusalKind.BORROWED, f"target storage is not owned ({borrowed})")
        alias, last_use = self.alias, self.last_use
        root = alias.root(target)
        derived: set[Value] = set(op.results)
        names = last_use.forward_roots_at(root, op, skip=op)
        positions = UsePositions()
        for name in alias.names(names):
            if isinstance(name, OpResult):
                tied = name.op.tied_operand_index(name.index)
                if tied is not None and name.op.operands[tied] in derived:
                    derived.add(name)
            if name in derived:
                continue
            for use in name.uses:
                if use.operation is not op:
                    positions.add(use.operation)
        later = last_use.later_use_in(op, root, positions, names)
        if later is not None:
            return Refusal(
                RefusalKind.USE,
                f"the target storage is {describe_use(later.user, later.reason)}",
                later.user,
            )
        escape = self.mutation.escape_among(names, before=op, bound=root)
        if escape is not None:
            user = escape.operation
            return Refusal(
                RefusalKind.ESCAPE,
                f"the target storage escaped through '{user.name}' at {user.location}",
                user,
            )
        return None

    def merge_equal(self, values: Iterable[Value]) -> Refusal | None:
        """None if the storages of `values` (the operands and results of two equal ops) may be
        told apart by nobody once the ops are merged: nothing that may share any of them is
        ever written, freed, leaked or returned to a caller that may write it."""
        for value in values:
            if self._changes_stale(value) or self._uses_stale(value):
                return STALE
        for value in values:
            change = self._first_change(self.storage_class(value))
            if change is not None:
                return _changed("a merged storage", change)
        return None

    # -- facts a rewrite reads besides the questions ---------------------------------------

    def copy_of_borrowed(self, value: Value) -> str | None:
        """Why a copy of `value` may not take its storage over although this run owns it:
        it is a same-lifetime transfer of borrowed storage, which a later elision (this pass
        on another topology, or IREE's) may remove, and then whoever writes through the
        copy's users would write the borrowed storage. IREE keeps such a clone on purpose."""
        root = self.alias.root(value)
        producer = root.op if isinstance(root, OpResult) else None
        if (
            isinstance(producer, AsyncTransferOp)
            and producer.parent is not None
            and producer.source.type == producer.result.type
            and not self.ownership.is_owned(producer.source)
        ):
            return (
                "its source is a same-lifetime transfer of borrowed storage, which may be removed"
            )
        return None

    def is_owned(self, value: Value) -> bool:
        """True if the storage `value` names is owned (neither borrowed nor shared)."""
        return self.ownership.is_owned(value)

    def root(self, value: Value) -> Value:
        """The value at the start of `value`'s tied chain (its storage's root)."""
        return self.alias.root(value)

    def home_device(self, value: Value) -> str | None:
        """The device whose memory holds `value`'s storage, as far as the ops that made it
        say: the affinity of its producer (the target of a transfer or move), the one device
        every value handed into a merge comes from, or where an earlier removed transfer left
        it (`rewrote`); None when unknown."""
        alias = self.alias
        seen: set[Value] = set()
        stack = [alias.root(value)]
        found: str | None = None
        while stack:
            root = stack.pop()
            if root in seen:
                continue
            seen.add(root)
            device: str | None = self._homes.get(root)
            if device is None:
                incoming = [
                    edge for name in alias.group(root) for edge in alias.incoming.get(name, ())
                ]
                if incoming:
                    stack.extend(alias.root(edge.value) for edge in incoming)
                    continue
                device = _producer_device(root)
            if device is None or (found is not None and device != found):
                return None
            found = device
        return found

    def storage_class(self, value: Value) -> frozenset[Value]:
        """Every root that may name storage `value`'s may be (or become) one with: connected
        by handovers, returns, or calls (a callee's argument and what its callers pass), or
        that may be the same buffer from outside (`AliasAnalysis.may_alias`)."""
        root = self.alias.root(value)
        cached = self._classes.get(root)
        if cached is None:
            cached = self.alias.component(root, self._call_neighbours)
            for member in cached:
                self._classes[member] = cached
        return cached

    # -- what rewrites tell it -------------------------------------------------------------

    def rewrote(self, op: Operation, how: str, home: str | None = None) -> None:
        """Note that `op` is about to be rewritten (`how`: "move", "take over" when its
        result takes over its source's storage at its last use, "share" when the result's
        storage is never changed (the merged storage has the source's changes and no others:
        only where its uses are goes stale), "merge" for any other merge of storages): the facts of
        the storages it touches are stale from now on in this model. `home` is where the
        storage lives when a removed unified-memory transfer leaves it in another device's
        memory than the IR says."""
        source, result = op.operands[0], op.results[0]
        if home is not None:
            self._homes[self.alias.root(source)] = home
        if how == "move":
            # The result is the same fresh storage before and after; the source is consumed.
            self._stale_changes.add_classes(source)
        elif how == "take over":
            # Every name that fed the source is dead by now and whatever the result fed keeps
            # an owned storage, so only the two merged groups' uses change, and names the
            # source was handed to on a path this op is not on (they now share a group that
            # holds the result's uses). Writers change further out: a callee that wrote only
            # its copy now writes its argument, which its callers' sharing relied on.
            source_root = self.alias.root(source)
            self._stale_uses.add_roots((source_root, self.alias.root(result)))
            if self.alias.passes_from.get(source_root):
                self._stale_uses.add_roots(self.alias.forward_roots(source_root))
            self._stale_changes.add_classes(source, result)
        elif how == "share":
            self._stale_uses.add_classes(source, result)
        else:
            assert how == "merge"
            self._stale_uses.add_classes(source, result)
            self._stale_changes.add_classes(source, result)

    # -- inside ----------------------------------------------------------------------------

    def _uses_stale(self, value: Value) -> bool:
        return self.alias.root(value) in self._stale_uses

    def _changes_stale(self, value: Value) -> bool:
        return self.alias.root(value) in self._stale_changes

    def _call_neighbours(self, root: Value) -> Iterator[Value]:
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

    def _first_change(self, roots: frozenset[Value]) -> Use | None:
        # Once per set: every import of a buffer from outside shares one storage class, and
        # a walk of it per clone made removing N clones N times its size.
        if roots in self._changes_of:
            return self._changes_of[roots]
        found = next(filter(None, map(self._changing_use, roots)), None)
        self._changes_of[roots] = found
        return found

    def _changing_use(self, root: Value) -> Use | None:
        """A use in `root`'s group that may change what another name sharing the storage
        sees (`MutationAnalysis.changes`); None if there is none.

        Constant-lifetime storage only counts explicit writes: whoever receives it may read
        it but not write it (IREE initializers do fill constants in place, so writes count).
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
                elif self.mutation.changes(use):
                    found = use
                    break
            if found is not None:
                break
        self._changing[root] = found
        return found


def _changed(side: str, use: Use) -> Refusal:
    user = use.operation
    text = f"{side} is changed by '{user.name}' at {user.location}"
    return Refusal(RefusalKind.CHANGED, text, user)


def _producer_device(root: Value) -> str | None:
    """The device a root's producer names: a transfer's or move's target, another stream
    op's affinity."""
    if not isinstance(root, OpResult):
        return None
    op = root.op
    attr: Attribute | None
    if isinstance(op, AsyncTransferOp | AsyncMoveOp):
        attr = op.target_affinity
    elif isinstance(op, StreamOp):
        attr = op.affinity
    else:
        return None
    return attr.device if isinstance(attr, AffinityAttr) else None
