"""Timepoint bookkeeping of --lower-async-to-cmd: which timepoints an await list may drop, and what
each kind of scope falls back to."""

from __future__ import annotations

from streamopt.ir.core import Value
from streamopt.ir.types import TIMEPOINT, ResourceType
from streamopt.lowering.timeline import Scope, Timepoint, clock_max, clock_min, prune

A = ("device-a", 1)
B = ("device-b", 1)


def _tp(clock: dict[object, int], complete: bool = True) -> Timepoint:
    return Timepoint(Value(TIMEPOINT), dict(clock), complete)


def test_prune_drops_what_a_later_timepoint_on_the_chain_implies() -> None:
    first = _tp({A: 1})
    second = _tp({A: 2})
    other = _tp({B: 1})
    assert prune([first, second, other]) == [second, other]
    # Order of first appearance is kept, and the same value twice counts once.
    assert prune([other, second, other, first]) == [other, second]


def test_a_join_implies_its_members_and_a_follower_implies_the_join() -> None:
    first, other = _tp({A: 1}), _tp({B: 1})
    clock, complete = clock_max([first, other])
    joined = Timepoint(Value(TIMEPOINT), clock, complete)
    assert prune([first, joined, other]) == [joined]
    after = _tp({**clock, A: 2})
    assert prune([joined, after]) == [after]


def test_merged_timepoints_are_only_implied_by_what_follows_them() -> None:
    # A block argument knows nothing of what flows in: its fresh key keeps it in every list
    # that does not follow it, even next to a timepoint that is later on every chain.
    merged = Timepoint.fresh(Value(TIMEPOINT))
    later = _tp({A: 9, B: 9})
    assert prune([merged, later]) == [merged, later]
    follower = Timepoint(Value(TIMEPOINT), {**merged.clock, A: 10})
    assert prune([merged, follower]) == [follower]


def test_incomplete_clocks_are_never_dropped() -> None:
    truncated = _tp({A: 1}, complete=False)
    later = _tp({A: 5})
    assert prune([truncated, later]) == [truncated, later]
    # A clock too long to keep is cut down and marked incomplete.
    long = Timepoint(Value(TIMEPOINT), {("chain", i): 1 for i in range(40)})
    assert not long.complete and len(long.clock) < 40


def test_clock_min_keeps_what_every_incoming_value_follows() -> None:
    assert clock_min([_tp({A: 3, B: 1}), _tp({A: 1})]) == {A: 1}
    assert clock_min([]) == {}


def test_branch_scopes_see_their_parent_and_barrier_scopes_start_from_carried_values() -> None:
    storage = Value(ResourceType("*"))
    function = Scope(None, "function", 1)
    written = _tp({A: 1})
    function.issued("a", written)
    function.wrote(storage, written)
    branch = Scope(function, "branch", 1)
    assert branch.last_of("a") == [written]
    assert branch.ready_of(storage) == [written]
    read = _tp({A: 2, B: 1})
    branch.read(storage, read)
    # The read joins the pending uses in the branch, not in its parent.
    assert branch.accesses_of(storage) == [read]
    assert function.accesses_of(storage) == [written]

    # A loop body: program order comes from the carried timepoint; readers of a value from
    # outside wait for its writer only, writers also for the previous iterations' uses.
    loop = Scope(function, "loop", 2)
    carried = Timepoint.fresh(Value(TIMEPOINT))
    loop.carried = {"a": carried}
    assert loop.last_of("a") == [carried]
    assert loop.ready_of(storage) == [written]
    assert loop.accesses_of(storage) == [written, carried]
    loop.written_outer = {storage}
    assert loop.ready_of(storage) == [written, carried]

    # A block entered by branches: everything before it is what was carried in.
    block = Scope(function, "block", 3)
    block.carried = {"a": carried}
    assert block.ready_of(storage) == [carried]
    assert block.frontier() == [carried]
    issued = Timepoint(Value(TIMEPOINT), {**carried.clock, ("b", 3): 1})
    block.issued("b", issued)
    assert block.frontier() == [issued]
