"""Timepoint bookkeeping for lowering async IR to cmd IR.

Lowering turns every async op into timeline ops (`stream.resource.alloca`, `stream.cmd.execute`,
`stream.cmd.move`, `stream.resource.dealloca`), each awaiting one timepoint. What it must await
is the state kept here:

* per affinity, the timepoint of the last op issued there (program order);
* per storage (the cmd-level resource value), the timepoints when its contents are ready (its
  last write) and of every access since (a writer waits for earlier readers, a move or a
  dealloca for every earlier use).

State lives in nested `Scope`s that follow the IR's regions: a branch of an `scf.if` sees its
parent's state and records its own on top; a loop body or a block entered by `cf` branches
starts from timepoints carried in as block arguments.

Each timepoint carries a vector clock saying which ops it is known to follow, so that an await
list can drop timepoints another one already implies: after `%t2` awaited `%t1` on the same
affinity, waiting for both is waiting for `%t2`. A clock entry `(key, n)` claims "follows the
op numbered `n` on chain `key`, and every op before it on that chain". Chains are an affinity
within a *segment* (straight-line code plus `scf.if` branches, where issue order is execution
order); loop bodies and `cf` blocks start new segments. Merged values (block arguments, results
of control flow) get a fresh key of their own: their clock is then a complete description of
what they imply, and only a timepoint derived from them can imply them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from itertools import count

from streamopt.ir.core import Value

Clock = dict[Hashable, int]

# Clocks longer than this are cut down; a cut clock no longer describes everything its
# timepoint implies, so that timepoint is never dropped in favour of another (see `complete`).
_MAX_CLOCK = 16

_fresh_keys = count(1)


class Timepoint:
    """A `!stream.timepoint` value and what it is known to follow."""

    __slots__ = ("clock", "complete", "value")

    def __init__(self, value: Value, clock: Clock, complete: bool = True) -> None:
        self.value = value
        self.clock = clock
        # True if `clock` lists everything the timepoint implies: only then may an await list
        # drop it because another timepoint's clock covers it.
        self.complete = complete
        if len(clock) > _MAX_CLOCK:
            keep = sorted(clock.items(), key=lambda item: -item[1])[:_MAX_CLOCK]
            self.clock = dict(keep)
            self.complete = False

    @classmethod
    def fresh(cls, value: Value, known: Clock | None = None) -> Timepoint:
        """A merged or external timepoint: its own key, plus what it is `known` to follow."""
        clock = dict(known) if known else {}
        clock[("fresh", next(_fresh_keys))] = 1
        return cls(value, clock)

    def __repr__(self) -> str:
        return f"<Timepoint {self.value!r} {self.clock}>"


def clock_max(timepoints: Iterable[Timepoint]) -> tuple[Clock, bool]:
    """The clock of a timepoint awaiting all of `timepoints`, and whether it is complete."""
    clock: Clock = {}
    complete = True
    for timepoint in timepoints:
        complete = complete and timepoint.complete
        for key, number in timepoint.clock.items():
            if clock.get(key, 0) < number:
                clock[key] = number
    return clock, complete


def clock_min(timepoints: list[Timepoint]) -> Clock:
    """What a value equal to one of `timepoints` (which one is known at run time) follows."""
    if not timepoints:
        return {}
    clock = dict(timepoints[0].clock)
    for timepoint in timepoints[1:]:
        other = timepoint.clock
        clock = {k: min(v, other[k]) for k, v in clock.items() if k in other}
    return clock


def implies(later: Timepoint, earlier: Timepoint) -> bool:
    """True if reaching `later` is known to mean `earlier` was reached."""
    if later.value is earlier.value:
        return True
    if not earlier.complete:
        return False
    clock = later.clock
    return all(clock.get(key, 0) >= number for key, number in earlier.clock.items())


def prune(timepoints: Iterable[Timepoint]) -> list[Timepoint]:
    """`timepoints` without the ones another of them implies (first occurrence order)."""
    kept: list[Timepoint] = []
    for timepoint in timepoints:
        if any(implies(other, timepoint) for other in kept):
            continue
        kept = [other for other in kept if not implies(timepoint, other)]
        kept.append(timepoint)
    return kept


class Scope:
    """Lowering state for one region (or one block of a multi-block region).

    Lookups fall back to the parent scope, except in a *barrier* scope (a loop body or a block
    entered by branches), which starts from the timepoints carried into it: `carried` (one per
    affinity key) stands for everything issued before the scope was entered.
    """

    __slots__ = (
        "accesses",
        "carried",
        "created",
        "kind",
        "last",
        "missing_key",
        "parent",
        "ready",
        "segment",
        "written_outer",
    )

    def __init__(self, parent: Scope | None, kind: str, segment: int) -> None:
        self.parent = parent
        # "function", "branch" (scf.if / index_switch region), "loop" (loop body), "block"
        # (a block of a multi-block region other than the entry block).
        self.kind = kind
        self.segment = segment
        self.last: dict[Hashable, Timepoint] = {}
        self.ready: dict[Value, list[Timepoint]] = {}
        self.accesses: dict[Value, list[Timepoint]] = {}
        # Storages defined in this scope (their state does not leave it).
        self.created: set[Value] = set()
        # Barrier scopes: the timepoint carried in per affinity key.
        self.carried: dict[Hashable, Timepoint] | None = None
        # Called for an affinity key a barrier scope carries no timepoint for; returns one.
        self.missing_key: Callable[[Hashable], Timepoint] | None = None
        # Loop bodies: storages defined outside the loop that the body writes in place (so the
        # previous iteration's writes matter to readers in this one).
        self.written_outer: set[Value] = set()

    # -- lookups ---------------------------------------------------------------------------

    def all_carried(self) -> list[Timepoint]:
        return list(self.carried.values()) if self.carried else []

    def last_of(self, key: Hashable) -> list[Timepoint]:
        """The timepoint of the last op issued on `key`, if any."""
        scope: Scope | None = self
        while scope is not None:
            timepoint = scope.last.get(key)
            if timepoint is not None:
                return [timepoint]
            if scope.carried is not None:
                carried = scope.carried.get(key)
                if carried is None and scope.missing_key is not None:
                    carried = scope.missing_key(key)
                    scope.carried[key] = carried
                return [carried] if carried is not None else scope.all_carried()
            scope = scope.parent
        return []

    def ready_of(self, storage: Value) -> list[Timepoint]:
        """Timepoints after which `storage` holds its current contents."""
        scope: Scope | None = self
        extra: list[Timepoint] = []
        while scope is not None:
            found = scope.ready.get(storage)
            if found is not None:
                return prune(found + extra)
            if scope.kind == "block":
                return prune(scope.all_carried() + extra)
            if scope.kind == "loop" and storage in scope.written_outer:
                extra = extra + scope.all_carried()
            scope = scope.parent
        return prune(extra)

    def accesses_of(self, storage: Value) -> list[Timepoint]:
        """Timepoints of every use of `storage` a writer or a free must wait for."""
        scope: Scope | None = self
        extra: list[Timepoint] = []
        while scope is not None:
            found = scope.accesses.get(storage)
            if found is not None:
                return prune(found + extra)
            if scope.kind == "block":
                return prune(scope.all_carried() + extra)
            if scope.kind == "loop":
                # The previous iteration's uses.
                extra = extra + scope.all_carried()
            scope = scope.parent
        return prune(extra)

    def frontier(self) -> list[Timepoint]:
        """Timepoints that together follow everything issued so far on every affinity."""
        keys: dict[Hashable, None] = {}
        scope: Scope | None = self
        base: list[Timepoint] = []
        while scope is not None:
            for key in scope.last:
                keys[key] = None
            if scope.carried is not None:
                base = scope.all_carried()
                break
            scope = scope.parent
        timepoints: list[Timepoint] = []
        for key in keys:
            timepoints.extend(self.last_of(key))
        return prune(timepoints + base)

    # -- updates ---------------------------------------------------------------------------

    def issued(self, key: Hashable, timepoint: Timepoint) -> None:
        """An op on `key` was issued: later ops there follow it."""
        self.last[key] = timepoint

    def wrote(self, storage: Value, timepoint: Timepoint) -> None:
        """`storage` was written by an op that waited for all earlier uses."""
        self.ready[storage] = [timepoint]
        self.accesses[storage] = [timepoint]

    def read(self, storage: Value, timepoint: Timepoint) -> None:
        self.accesses[storage] = prune([*self.accesses_of(storage), timepoint])

    def define(
        self, storage: Value, ready: list[Timepoint], accesses: list[Timepoint] | None = None
    ) -> None:
        """A new storage name, ready after `ready`, with pending uses `accesses`."""
        self.created.add(storage)
        self.ready[storage] = list(ready)
        self.accesses[storage] = list(accesses if accesses is not None else ready)
