"""`--lower-to-cmd`: lower async stream IR to cmd IR in the form IREE's stream phase ends in.

`--lower-to-cmd` is a pipeline: `--lower-async-to-cmd` (below), then the steps that end IREE's
stream phase: `--pack-constants`, `--pack-dispatch-operands` and `--convert-scf-to-cf`, so that
its output (with `--expand-cmd-moves` after it) is what `iree-compile --compile-from=stream`
takes. Both passes live here: the pipeline is only the list of its stages.

`--lower-async-to-cmd` schedules the async ops. Every async op becomes timeline ops that await
exactly what it depends on:

* an op with fresh results allocates them (`stream.resource.alloca`) and runs in its own
  `stream.cmd.execute` on its affinity: splat is a `cmd.fill`, clone / slice / update / copy a
  `cmd.copy`, a dispatch a `cmd.dispatch` with `ro` / `rw` / `wo` resources, a transfer a
  `cmd.copy` with `cmd.invalidate` / `cmd.flush` where it crosses affinities (as IREE's
  ScheduleAllocation does);
* in-place ops (fill, update, copy, tied dispatch results) write the storage of their operand;
* `stream.async.move` becomes a `stream.cmd.move` timeline op that waits for the source's
  writer and every other reader; without `on(...)` it runs on its target affinity (the target
  is asked for the storage), so it is in the target's program order, not the source's;
* constants become `stream.resource.constants` uploads;
* host readbacks (`stream.async.load` / `store` of staging memory) wait on the host for the
  resource and become `stream.resource.load` / `store`, as IREE's ScheduleAllocation does;
* each storage the lowering allocated is freed with `stream.resource.dealloca` after its last
  use, on every path that neither moves it nor hands it to a merge (a move in one branch of an
  `scf.if`, the other branch frees it; see `lifetimes.DeallocaPlan`).

Each op awaits the last op on its affinity (program order) and every data dependency: a reader
waits for the last writer, a writer for every earlier use, a move or dealloca for every use
(see `timeline`). `scf.if` / `scf.for` / `scf.while` / `scf.index_switch` and `cf` branches
carry a timepoint next to each resource they pass, plus one per affinity for program order.
Functions await everything before `util.return` (resources come back ready) and callers await
the resources they pass to `util.call`; `stream.tensor.export` and `util.global.store` await
the value they hand out.

    %0 = stream.async.dispatch on(#hal.device.affinity<@a>) @ex::@fn(%x[%c0 to %n for %n])
        : (!stream.resource<external>{%n}) -> !stream.resource<transient>{%n}
    %1 = stream.async.move %0 : !stream.resource<transient>{%n}
        from(#hal.device.affinity<@a>) -> to(#hal.device.affinity<@b>) ...{%n}
  becomes
    %result, %result_timepoint = stream.resource.alloca uninitialized
        on(#hal.device.affinity<@a>) : !stream.resource<transient>{%n} => !stream.timepoint
    %0 = stream.cmd.execute on(#hal.device.affinity<@a>) await(%result_timepoint) =>
        with(%x as %arg1: ..., %result as %arg2: ...) {
      stream.cmd.dispatch @ex::@fn { ro %arg1[%c0 for %n] : ..., wo %arg2[%c0 for %n] : ... }
    } => !stream.timepoint
    %result_0, %result_timepoint_1 = stream.cmd.move origin on(#hal.device.affinity<@b>)
        await(%0) => %result : ... from(...) -> to(...) ... => !stream.timepoint

Assumptions, as for IREE's async IR after copy-on-write materialization: an in-place op is the
last use of the value it writes (later uses go through its result), and lifetimes are refined
(IREE's RefineUsage has run): a cast from or to `*` is an error, not a copy. Not supported
(reported as errors): `stream.async.call`, 64-bit fill patterns, tied results that change type.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import count
from typing import Any, ClassVar

from streamopt.diagnostics import UNKNOWN_LOCATION, Diagnostic, DiagnosticError, error
from streamopt.dialects.arith import ConstantOp, SelectOp
from streamopt.dialects.cf import BranchLikeOp
from streamopt.dialects.scf import ConditionOp, ForOp, IfOp, IndexSwitchOp, WhileOp
from streamopt.dialects.stream import (
    AsyncAllocaOp,
    AsyncBarrierOp,
    AsyncCallOp,
    AsyncCastOp,
    AsyncCloneOp,
    AsyncConcurrentOp,
    AsyncConstantOp,
    AsyncCopyOp,
    AsyncDispatchOp,
    AsyncExecuteOp,
    AsyncFillOp,
    AsyncFuncOp,
    AsyncLoadOp,
    AsyncMoveOp,
    AsyncSliceOp,
    AsyncSplatOp,
    AsyncStoreOp,
    AsyncTransferOp,
    AsyncUpdateOp,
    CmdCopyOp,
    CmdDispatchOp,
    CmdExecuteOp,
    CmdFillOp,
    CmdFlushOp,
    CmdInvalidateOp,
    CmdMoveOp,
    ResourceAllocaOp,
    ResourceConstantsOp,
    ResourceDeallocaOp,
    ResourceLoadOp,
    ResourceSizeOp,
    ResourceStoreOp,
    TensorExportOp,
    TensorImportOp,
    TimepointAwaitOp,
    TimepointBarrierOp,
    TimepointImmediateOp,
    TimepointJoinOp,
    YieldOp,
)
from streamopt.dialects.util import CallOp, FuncOp, GlobalStoreOp, InitializerOp, ReturnOp
from streamopt.ir.core import Block, BlockArgument, Operation, OpResult, Region, Value
from streamopt.ir.module import Module
from streamopt.ir.types import (
    INDEX,
    TIMEPOINT,
    AffinityAttr,
    Attribute,
    IntegerType,
    ResourceType,
    Type,
)
from streamopt.lowering.lifetimes import (
    DeallocaPlan,
    allocation_affinity,
    execution_affinity,
)
from streamopt.lowering.timeline import Scope, Timepoint, clock_max, clock_min, prune
from streamopt.passes import Pass, PipelinePass, register_pass

# Ops the lowering leaves as they are: no resource is touched, or the op is already cmd IR.
_KEEP = (
    "stream.tensor.sizeof",
    "stream.resource.size",
    "util.global.load",
    "util.global",
    "util.func",
    "util.initializer",
)


def _is_resource(value: Value) -> bool:
    return isinstance(value.type, ResourceType)


def _defined_inside(value: Value, op: Operation) -> bool:
    """True if `value` is defined in a region of `op` (at any depth)."""
    if isinstance(value, OpResult):
        return op.is_ancestor_of(value.op)
    assert isinstance(value, BlockArgument)
    owner = value.block.parent_op
    return owner is not None and (owner is op or op.is_ancestor_of(owner))


@register_pass
class LowerToCmdPass(PipelinePass):
    """Runs --lower-async-to-cmd, --pack-constants, --pack-dispatch-operands and
    --convert-scf-to-cf: cmd IR as IREE's stream phase leaves it."""

    flag = "lower-to-cmd"
    summary = (
        "Lower async stream IR to cmd IR as IREE's stream phase ends: --lower-async-to-cmd, "
        "--pack-constants, --pack-dispatch-operands, --convert-scf-to-cf"
    )
    stages: ClassVar[tuple[str, ...]] = (
        "lower-async-to-cmd",
        "pack-constants",
        "pack-dispatch-operands",
        "convert-scf-to-cf",
    )


@register_pass
class LowerAsyncToCmdPass(Pass):
    """Lowers async stream IR to cmd IR (allocas, execution regions, moves, deallocas)."""

    flag = "lower-async-to-cmd"
    summary = (
        "Lower async stream ops to cmd IR: resource allocas, cmd.execute regions, cmd.move "
        "timeline ops and deallocas, ordered by timepoints"
    )

    def run(self, module: Module) -> None:
        _check_nothing_nested_in_unknown_ops(module)
        _check_lifetimes_refined(module)
        for op in list(module.walk()):
            if isinstance(op, AsyncExecuteOp | AsyncConcurrentOp) and op.parent is not None:
                _inline_execution_region(op)
        plan = DeallocaPlan(module)
        segments = count(1)
        sequence = count(1)
        for op in list(module.walk()):
            if isinstance(op, FuncOp | InitializerOp) and op.regions and op.regions[0].blocks:
                _FunctionLowering(self, module, op, plan, segments, sequence).run()
        for root, reason in plan.leaks():
            owner = root.defining_op
            where = owner.location if owner is not None else "a block argument"
            self.report_lines.append(f"storage allocated at {where} is not freed: {reason}")
            self.stat("num-storages-not-freed", "Number of allocated storages nothing frees")


def _check_lifetimes_refined(module: Module) -> None:
    """Refuse the first resource (in program order) whose lifetime is still `*`: a function
    argument, or what an op makes (a cast from an import, a clone, a splat, ...).

    IREE's RefineUsage gives every `*` resource a lifetime (and removes the casts) before its
    second ElideAsyncCopies; cmd IR has no `*` lifetime (iree-compile rejects an alloca of
    one), and lowering the casts as copies would copy every import and export once more (a
    2-device MLP: 128 KB copied becomes 8.1 MB). IREE 3.10 and 3.11 print `external -> *`
    clones where 3.13 prints casts, so every op is checked, not only casts."""
    for function in module.walk():
        if not isinstance(function, FuncOp | InitializerOp) or not function.regions:
            continue
        blocks = function.regions[0].blocks
        arguments = blocks[0].arguments if blocks else []
        if any(_is_unrefined(argument) for argument in arguments):
            raise _unrefined(function)
        for op in function.walk():
            if op is not function and any(_is_unrefined(result) for result in op.results):
                raise _unrefined(op)


def _is_unrefined(value: Value) -> bool:
    return isinstance(value.type, ResourceType) and value.type.lifetime == "*"


def _unrefined(op: Operation) -> DiagnosticError:
    return error(
        f"'{op.name}' op cannot be lowered to cmd IR: resource lifetime '*' is not refined "
        "(lower the IR IREE prints before its second ElideAsyncCopies, after RefineUsage, or "
        "run `iree-opt --iree-stream-refine-usage` first)",
        op.location,
    )


def _check_nothing_nested_in_unknown_ops(module: Module) -> None:
    """Refuse stream ops nested in an op streamopt does not model: that op may run its regions
    at any time and any number of times, so nothing inside can be scheduled on the timeline
    around it (and leaving the async op there would not be cmd IR)."""
    problems: list[Diagnostic] = []
    for op in module.walk():
        if not op.name.startswith(("stream.async.", "stream.tensor.")) or op.name in _KEEP:
            continue
        unknown = next((a for a in op.ancestors() if not a.is_known), None)
        if unknown is None:
            continue
        problems.append(
            Diagnostic(
                "error",
                f"cannot lower '{unknown.name}': it holds '{op.name}', which lowering cannot "
                "schedule inside an op streamopt does not model (it may run its regions at "
                "any time)",
                unknown.location,
            ).attach_note(f"'{op.name}' is here", op.location)
        )
        if len(problems) >= 64:
            break
    if problems:
        raise DiagnosticError(problems)


# -- execution regions -----------------------------------------------------------------------


def _inline_execution_region(op: AsyncExecuteOp | AsyncConcurrentOp) -> None:
    """Replace a `stream.async.execute` / `concurrent` by its body, so that every async op is
    lowered on its own: captures become the outer values (awaited first if the region awaits a
    timepoint), results the yielded values, and the region's timepoint the yielded values'."""
    block = op.parent
    assert block is not None
    body = op.body
    operands = op.resource_operands
    awaited = op.await_timepoint if isinstance(op, AsyncExecuteOp) else None
    replacements = list(operands)
    resources = [(i, v) for i, v in enumerate(operands) if _is_resource(v)]
    if awaited is not None and resources:
        sizes = [op.size_of_operand(i) for i, _ in resources]
        await_op = TimepointAwaitOp.create(
            [v for _, v in resources], [s for s in sizes if s is not None], awaited
        )
        block.insert_before(await_op, op)
        for (i, _), result in zip(resources, await_op.results):
            replacements[i] = result
    for argument, value in zip(body.arguments, replacements):
        argument.replace_all_uses_with(value)
    terminator = body.last_op
    affinity = op.affinity
    for inner in list(body.ops):
        if inner is terminator:
            continue
        # Ops in an execution region run on the region's affinity (transfers print only
        # their target there).
        if affinity is not None and inner.name.startswith(("stream.async.", "stream.tensor.")):
            name = (
                "execution_affinity"
                if isinstance(inner, AsyncTransferOp | AsyncMoveOp)
                else "affinity"
            )
            inner.attributes.setdefault(name, affinity)
        inner.detach()
        block.insert_before(inner, op)
    yielded = terminator.resource_operands if isinstance(terminator, YieldOp) else []
    for result, value in zip(op.results_, yielded):
        result.replace_all_uses_with(value)
    if isinstance(op, AsyncExecuteOp):
        timepoint = op.results[-1]
        if timepoint.uses:
            points: list[Value] = []
            for value, size in zip(yielded, terminator.resource_operand_sizes):  # type: ignore[union-attr]
                barrier = TimepointBarrierOp.create(value, size)
                block.insert_before(barrier, op)
                points.append(barrier.results[1])
            if not points:
                joined: Operation = TimepointImmediateOp.create()
            elif len(points) == 1:
                joined = points[0].defining_op  # type: ignore[assignment]
            else:
                joined = TimepointJoinOp.create(points)
            if joined.parent is None:
                block.insert_before(joined, op)
            timepoint.replace_all_uses_with(joined.results[-1])
    # The yield goes with the emptied region: drop its uses, or analyses still see them.
    if terminator is not None:
        terminator.drop_all_references()
    op.regions = []
    op.erase()


# -- lowering one function -------------------------------------------------------------------


class _FunctionLowering:
    """Lowers the async ops of one `util.func` or `util.initializer`."""

    def __init__(
        self,
        pass_: LowerAsyncToCmdPass,
        module: Module,
        function: Operation,
        plan: DeallocaPlan,
        segments: count[int],
        sequence: count[int],
    ) -> None:
        self.pass_ = pass_
        self.function = function
        self.plan = plan
        self.segments = segments
        self.sequence = sequence
        self.entry = function.regions[0].blocks[0]
        # Arguments the function may free: a return may not wait on them by name.
        self.consumed_arguments = plan.consumed_arguments(function)
        default = function.attributes.get("stream.affinity.default")
        if default is None:
            default = module.op.attributes.get("stream.affinity.default")
        self.default_key: Hashable = _key_of(default) if default is not None else ("default",)
        # Root (async value) -> the cmd-level value naming its storage.
        self.storage_of_root: dict[Value, Value] = {}
        # Storage -> the size given where it was created.
        self.size_of: dict[Value, Value] = {}
        self._c0: Value | None = None
        self._immediate: Value | None = None
        # Timepoint values the lowering made, with what they are known to follow (input ops
        # that refer to them, such as an awaited region timepoint, keep that knowledge).
        self.timepoints: dict[Value, Timepoint] = {}
        # Block -> (indices of resource arguments, carried affinity keys) of the arguments
        # added to blocks entered by branches.
        self.block_layout: dict[Block, tuple[list[int], list[Hashable]]] = {}
        # The op being lowered: what the lowering creates takes its location.
        self.source: Operation | None = None

    def insert(self, op: Operation, anchor: Operation) -> None:
        """Insert `op` before `anchor`, located (with what it holds) at the op being
        lowered, as IREE's rewrites locate what they create."""
        _insert_before(op, anchor)
        self.locate(op)

    def locate(self, op: Operation) -> None:
        source = self.source
        if source is None:
            return
        for nested in op.walk():
            if nested.location is UNKNOWN_LOCATION:
                nested.location = source.location
                if nested.debug_loc is None:
                    nested.debug_loc = source.debug_loc

    def run(self) -> None:
        scope = Scope(None, "function", next(self.segments))
        entry = self.entry
        for argument in entry.arguments:
            if _is_resource(argument):
                scope.define(argument, [])
        self.lower_region(self.function.regions[0], scope)

    # -- affinities and constants ----------------------------------------------------------

    def key(self, affinity: Attribute | None) -> Hashable:
        return _key_of(affinity) if affinity is not None else self.default_key

    def c0(self) -> Value:
        """An index 0 at the top of the function, where it dominates every use."""
        if self._c0 is None:
            self._c0 = index_zero(self.entry)
        return self._c0

    def immediate(self) -> Value:
        if self._immediate is None:
            op = TimepointImmediateOp.create()
            self._insert_at_entry(op)
            self._immediate = op.results[0]
        return self._immediate

    def _insert_at_entry(self, op: Operation) -> None:
        first = self.entry.first_op
        if first is None:
            self.entry.append(op)
        else:
            self.entry.insert_before(op, first)

    # -- timepoints ------------------------------------------------------------------------

    def join(self, timepoints: Sequence[Timepoint], anchor: Operation) -> Timepoint | None:
        """One timepoint reached when all of `timepoints` are (a join before `anchor`)."""
        kept = prune(timepoints)
        if not kept:
            return None
        if len(kept) == 1:
            return kept[0]
        op = TimepointJoinOp.create([t.value for t in kept])
        self.insert(op, anchor)
        clock, complete = clock_max(kept)
        joined = Timepoint(op.results[0], clock, complete)
        self.timepoints[joined.value] = joined
        return joined

    def known(self, value: Value) -> Timepoint:
        """The timepoint `value`: one the lowering made, or an external one."""
        timepoint = self.timepoints.get(value)
        if timepoint is None:
            timepoint = self.timepoints[value] = Timepoint.fresh(value)
        return timepoint

    def value_of(self, timepoints: Sequence[Timepoint], anchor: Operation) -> Value:
        """A timepoint value for `timepoints` (`stream.timepoint.immediate` if none)."""
        joined = self.join(timepoints, anchor)
        return joined.value if joined is not None else self.immediate()

    def issue(
        self,
        scope: Scope,
        affinity: Attribute | None,
        deps: Sequence[Timepoint],
        anchor: Operation,
        make: Callable[[Value | None], Operation],
    ) -> tuple[Operation, Timepoint]:
        """Insert the timeline op `make(await)` before `anchor` on `affinity`, awaiting the
        last op there and `deps`; it becomes the last op there."""
        key = self.key(affinity)
        awaited = self.join([*scope.last_of(key), *deps], anchor)
        op = make(awaited.value if awaited is not None else None)
        self.insert(op, anchor)
        clock, complete = clock_max([awaited] if awaited is not None else [])
        clock[(key, scope.segment)] = next(self.sequence)
        timepoint = Timepoint(op.results[-1], clock, complete)
        self.timepoints[timepoint.value] = timepoint
        scope.issued(key, timepoint)
        return op, timepoint

    def alloca(
        self,
        scope: Scope,
        type: Type | None,
        size: Value,
        affinity: Attribute | None,
        anchor: Operation,
    ) -> tuple[Value, Timepoint]:
        """A new storage of `size` bytes of `type` (a resource type) on `affinity`."""
        assert isinstance(type, ResourceType)
        resource_type = type
        op, timepoint = self.issue(
            scope,
            affinity,
            [],
            anchor,
            lambda awaited: ResourceAllocaOp.create(
                size, await_timepoint=awaited, affinity=affinity, result=resource_type
            ),
        )
        storage = op.results[0]
        scope.define(storage, [timepoint])
        self.size_of[storage] = size
        return storage, timepoint

    def execute(
        self,
        scope: Scope,
        affinity: Attribute | None,
        reads: Sequence[tuple[Value, Value]],
        writes: Sequence[tuple[Value, Value]],
        anchor: Operation,
        fill_body: Callable[[Block, dict[Value, Value]], None],
        order: Sequence[Value] = (),
    ) -> Timepoint:
        """A `stream.cmd.execute` on `affinity` capturing the `(storage, size)` pairs it
        `reads` and `writes` (storages in `order` first, in that order);
        `fill_body(body, argument_of_storage)` adds the commands."""
        sizes: dict[Value, Value] = {}
        for storage, size in [*reads, *writes]:
            sizes.setdefault(storage, size)
        captures = {storage: sizes[storage] for storage in order}
        captures.update(
            (storage, size) for storage, size in sizes.items() if storage not in captures
        )
        written = {storage for storage, _ in writes}
        deps: list[Timepoint] = []
        for storage in captures:
            deps.extend(
                scope.accesses_of(storage) if storage in written else scope.ready_of(storage)
            )
        op, timepoint = self.issue(
            scope,
            affinity,
            deps,
            anchor,
            lambda awaited: CmdExecuteOp.create(
                list(captures), list(captures.values()), awaited, affinity=affinity
            ),
        )
        assert isinstance(op, CmdExecuteOp)
        arguments: dict[Value, Value] = dict(zip(captures, op.body.arguments))
        fill_body(op.body, arguments)
        self.locate(op)
        for storage in captures:
            if storage in written:
                scope.wrote(storage, timepoint)
            else:
                scope.read(storage, timepoint)
        return timepoint

    def size(self, storage: Value, anchor: Operation) -> Value:
        """The size of `storage`: where it was created, else `stream.resource.size`."""
        size = self.size_of.get(storage)
        if size is not None:
            return size
        op = ResourceSizeOp.create(storage)
        self.insert(op, anchor)
        return op.results[0]

    def host_await(
        self,
        scope: Scope,
        storages: Sequence[Value],
        extra: Sequence[Timepoint],
        anchor: Operation,
        sizes: Sequence[Value | None] = (),
    ) -> list[Value]:
        """`stream.timepoint.await` before `anchor` until `storages` are ready (and `extra`);
        the awaited values (the storages themselves when nothing is pending). `sizes` gives
        the size written at the use, where the use has one."""
        timepoints = [*extra]
        for storage in storages:
            timepoints.extend(scope.ready_of(storage))
        joined = self.join(timepoints, anchor)
        if joined is None or not storages:
            return list(storages)
        given = list(sizes) + [None] * (len(storages) - len(sizes))
        resolved = [
            size if size is not None else self.size(storage, anchor)
            for storage, size in zip(storages, given)
        ]
        op = TimepointAwaitOp.create(list(storages), resolved, joined.value)
        self.insert(op, anchor)
        return list(op.results)

    # -- regions and blocks ----------------------------------------------------------------

    def lower_region(self, region: Region, scope: Scope) -> None:
        blocks = region.blocks
        if len(blocks) == 1:
            self.lower_block(blocks[0], scope)
            return
        keys = sorted(self.keys_in(region), key=repr)
        block_scopes: dict[Block, Scope] = {}
        for block in blocks[1:]:
            inner = Scope(scope, "block", next(self.segments))
            # Each resource argument gets its timepoint right after it; the carried timepoints
            # (one per affinity) come last.
            items: list[Value | Type] = []
            resource_indices: list[int] = []
            pairs: list[int] = []
            for argument in list(block.arguments):
                if _is_resource(argument):
                    resource_indices.append(argument.index)
                    pairs.append(len(items))
                items.append(argument)
                if _is_resource(argument):
                    items.append(TIMEPOINT)
            first_carried = len(items)
            items.extend(TIMEPOINT for _ in keys)
            arguments = _set_block_arguments(block, items)
            inner.carried = {
                key: Timepoint.fresh(arguments[first_carried + i]) for i, key in enumerate(keys)
            }
            for position in pairs:
                inner.define(arguments[position], [Timepoint.fresh(arguments[position + 1])])
            self.block_layout[block] = (resource_indices, keys)
            block_scopes[block] = inner
        self.lower_block(blocks[0], scope)
        for block in blocks[1:]:
            self.lower_block(block, block_scopes[block])

    def lower_block(self, block: Block, scope: Scope) -> None:
        # The block's own ops, taken before the deallocas are put in front of them (those are
        # lowered already).
        op = block.first_op
        for root in self.plan.at_start.get(block, ()):
            if op is not None:
                self.dealloca(scope, root, op)
        while op is not None:
            following = op.next_op
            self.source = op
            self.lower_op(op, scope)
            self.source = op
            for root in self.plan.after.get(op, ()):
                if following is not None:
                    self.dealloca(scope, root, following)
            op = following

    def keys_in(self, container: Operation | Region) -> set[Hashable]:
        """Every affinity key lowering may issue an op on inside `container` (a superset)."""
        keys: set[Hashable] = set()
        if isinstance(container, Region):
            # Deallocas at the start of the region's own blocks (where a branch edge drops
            # a storage); those of nested regions are found with their ops below.
            for block in container.blocks:
                for root in self.plan.at_start.get(block, ()):
                    keys.add(self.key(self.plan.affinity.get(root)))
        ops = container.walk()
        for op in ops:
            if isinstance(op, AsyncTransferOp | AsyncMoveOp):
                keys.add(self.key(execution_affinity(op)))
                keys.add(self.key(allocation_affinity(op)))
            elif op.name.startswith(("stream.async.", "stream.tensor.")):
                keys.add(self.key(op.attributes.get("affinity")))
            for root in self.plan.after.get(op, ()):
                keys.add(self.key(self.plan.affinity.get(root)))
            for region in op.regions:
                for block in region.blocks:
                    for root in self.plan.at_start.get(block, ()):
                        keys.add(self.key(self.plan.affinity.get(root)))
        return keys

    # -- ops -------------------------------------------------------------------------------

    def lower_op(self, op: Operation, scope: Scope) -> None:
        handler = _HANDLERS.get(type(op))
        if handler is not None:
            handler(self, op, scope)
            return
        if isinstance(op, BranchLikeOp):
            self.lower_branch(op, scope)
            return
        if op.name in _KEEP or op.name.startswith("arith.") or op.is_terminator:
            return
        if not any(_is_resource(v) for v in op.operands) and not any(
            _is_resource(r) for r in op.results
        ):
            return
        self.lower_other(op, scope)

    def lower_other(self, op: Operation, scope: Scope) -> None:
        """An op the lowering does not model: its resource operands are awaited first (it may
        read or write them on the host) and its resource results are new, ready storage."""
        if op.name.startswith("stream.async.") or op.name.startswith("stream.tensor."):
            raise error(f"'{op.name}' op cannot be lowered to cmd IR", op.location)
        # Its regions may read or write what they name from outside, at any time: those
        # storages are awaited before it as its operands are.
        uses = [(op, i) for i, v in enumerate(op.operands) if _is_resource(v)]
        for nested in op.walk():
            if nested is op:
                continue
            uses.extend(
                (nested, i)
                for i, v in enumerate(nested.operands)
                if _is_resource(v) and not _defined_inside(v, op)
            )
        if uses:
            storages = list(dict.fromkeys(user.operands[i] for user, i in uses))
            pending = [t for s in storages for t in scope.accesses_of(s)]
            awaited = self.host_await(scope, storages, pending, op)
            mapping = dict(zip(storages, awaited))
            for user, index in uses:
                user.set_operand(index, mapping[user.operands[index]])
        for result in op.results:
            if _is_resource(result):
                scope.define(result, [])

    def replace_root(self, old: Value, storage: Value) -> None:
        self.storage_of_root[old] = storage
        old.replace_all_uses_with(storage)

    def dealloca(self, scope: Scope, root: Value, anchor: Operation) -> None:
        storage = self.storage_of_root.get(root, root)
        affinity = self.plan.affinity.get(root)
        size = self.size(storage, anchor)
        deps = [*scope.accesses_of(storage), *scope.ready_of(storage)]
        self.issue(
            scope,
            affinity,
            deps,
            anchor,
            lambda awaited: ResourceDeallocaOp.create(
                storage,
                size,
                await_timepoint=awaited,
                affinity=affinity,
                prefer_origin=affinity is None,
            ),
        )
        self.pass_.stat("num-deallocas", "Number of deallocas inserted")

    # -- async ops -------------------------------------------------------------------------

    def lower_alloca(self, op: AsyncAllocaOp, scope: Scope) -> None:
        storage, _ = self.alloca(
            scope,
            op.result.type,
            op.storage_size,
            op.affinity,
            op,
        )
        self.replace_root(op.result, storage)
        op.erase()

    def lower_constant(self, op: AsyncConstantOp, scope: Scope) -> None:
        type = op.result.type
        assert isinstance(type, ResourceType)
        size = op.result_size
        uploadable = type.lifetime in ("constant", "variable")
        upload_type = type if uploadable else ResourceType("constant")
        upload = ResourceConstantsOp.create([size], [op.value], op.affinity, [upload_type])
        self.insert(upload, op)
        clock: dict[Hashable, int] = {}
        timepoint = Timepoint.fresh(upload.results[1], clock)
        ready = [timepoint]
        if op.await_timepoint is not None:
            ready.append(self.known(op.await_timepoint))
        constant = upload.results[0]
        scope.define(constant, ready)
        self.size_of[constant] = size
        if upload_type == type:
            self.replace_root(op.result, constant)
        else:
            # No cmd op turns constant memory into another lifetime: copy it.
            storage, _ = self.alloca(scope, type, size, op.affinity, op)

            def body(block: Block, args: dict[Value, Value]) -> None:
                block.append(
                    CmdCopyOp.create(
                        args[constant], size, self.c0(), args[storage], size, self.c0(), size
                    )
                )

            self.execute(scope, op.affinity, [(constant, size)], [(storage, size)], op, body)
            self.replace_root(op.result, storage)
        op.erase()

    def lower_splat(self, op: AsyncSplatOp, scope: Scope) -> None:
        _check_fill_pattern(op, op.value)
        size = op.result_size
        storage, _ = self.alloca(scope, op.result.type, size, op.affinity, op)
        if op.await_timepoint is not None:
            scope.ready[storage] = [*scope.ready_of(storage), self.known(op.await_timepoint)]
            scope.accesses[storage] = list(scope.ready[storage])

        def body(block: Block, args: dict[Value, Value]) -> None:
            block.append(CmdFillOp.create(args[storage], size, self.c0(), size, op.value))

        self.execute(scope, op.affinity, [], [(storage, size)], op, body)
        self.replace_root(op.result, storage)
        op.erase()

    def _copy_into_new(
        self,
        op: Operation,
        scope: Scope,
        source: Value,
        source_size: Value,
        source_offset: Value | None,
        length: Value,
        result_size: Value,
    ) -> None:
        """Clone, slice, cast: a new allocation holding `length` bytes of `source`."""
        affinity = op.attributes.get("affinity")
        storage, _ = self.alloca(scope, op.results[0].type, result_size, affinity, op)

        def body(block: Block, args: dict[Value, Value]) -> None:
            block.append(
                CmdCopyOp.create(
                    args[source],
                    source_size,
                    source_offset if source_offset is not None else self.c0(),
                    args[storage],
                    result_size,
                    self.c0(),
                    length,
                )
            )

        self.execute(scope, affinity, [(source, source_size)], [(storage, result_size)], op, body)
        self.replace_root(op.results[0], storage)
        op.erase()

    def lower_clone(self, op: AsyncCloneOp, scope: Scope) -> None:
        self._copy_into_new(
            op, scope, op.source, op.source_size, None, op.source_size, op.result_size
        )

    def lower_slice(self, op: AsyncSliceOp, scope: Scope) -> None:
        self._copy_into_new(
            op,
            scope,
            op.source,
            op.source_size,
            op.source_offset,
            op.result_size,
            op.result_size,
        )

    def lower_cast(self, op: AsyncCastOp, scope: Scope) -> None:
        if op.source.type == op.result.type:
            self.replace_root(op.result, op.source)
            op.erase()
            return
        # `*` lifetimes were refused before lowering (`_check_lifetimes_refined`). cmd IR has no
        # op that changes a resource's lifetime in place: copy.
        self._copy_into_new(
            op, scope, op.source, op.source_size, None, op.source_size, op.result_size
        )

    def lower_barrier(self, op: AsyncBarrierOp, scope: Scope) -> None:
        self.replace_root(op.result, op.source)
        op.erase()

    def lower_fill(self, op: AsyncFillOp, scope: Scope) -> None:
        _check_fill_pattern(op, op.value)
        target, size = op.target, op.target_size

        def body(block: Block, args: dict[Value, Value]) -> None:
            block.append(
                CmdFillOp.create(args[target], size, op.target_offset, op.target_length, op.value)
            )

        self.execute(scope, op.affinity, [], [(target, size)], op, body)
        self.replace_root(op.result, target)
        op.erase()

    def lower_update(self, op: AsyncUpdateOp, scope: Scope) -> None:
        target, size, update = op.target, op.target_size, op.update

        def body(block: Block, args: dict[Value, Value]) -> None:
            block.append(
                CmdCopyOp.create(
                    args[update],
                    op.update_size,
                    self.c0(),
                    args[target],
                    size,
                    op.target_offset,
                    op.update_size,
                )
            )

        self.execute(scope, op.affinity, [(update, op.update_size)], [(target, size)], op, body)
        self.replace_root(op.result, target)
        op.erase()

    def lower_copy(self, op: AsyncCopyOp, scope: Scope) -> None:
        target, size, source = op.target, op.target_size, op.source

        def body(block: Block, args: dict[Value, Value]) -> None:
            block.append(
                CmdCopyOp.create(
                    args[source],
                    op.source_size,
                    op.source_offset,
                    args[target],
                    size,
                    op.target_offset,
                    op.length,
                )
            )

        self.execute(scope, op.affinity, [(source, op.source_size)], [(target, size)], op, body)
        self.replace_root(op.result, target)
        op.erase()

    def lower_transfer(self, op: AsyncTransferOp, scope: Scope) -> None:
        execution = execution_affinity(op)
        source, source_size = op.source, op.source_size
        result_type = op.result.type
        result_size = op.result_size
        storage, _ = self.alloca(scope, result_type, result_size, allocation_affinity(op), op)
        source_affinity, target_affinity = op.source_affinity, op.target_affinity
        # As IREE's ScheduleAllocation: invalidate what comes from elsewhere, flush what goes
        # elsewhere (staging memory always counts as elsewhere).
        transfer_in = (source_affinity is not None and source_affinity != execution) or _lifetime(
            source
        ) == "staging"
        transfer_out = (target_affinity is not None and target_affinity != execution) or _lifetime(
            op.result
        ) == "staging"

        def body(block: Block, args: dict[Value, Value]) -> None:
            c0 = self.c0()
            if transfer_in:
                block.append(
                    CmdInvalidateOp.create(
                        args[source], source_size, c0, source_size, source_affinity
                    )
                )
            block.append(
                CmdCopyOp.create(
                    args[source], source_size, c0, args[storage], result_size, c0, source_size
                )
            )
            if transfer_out:
                block.append(
                    CmdFlushOp.create(args[storage], result_size, c0, result_size, target_affinity)
                )

        self.execute(scope, execution, [(source, source_size)], [(storage, result_size)], op, body)
        self.replace_root(op.result, storage)
        op.erase()

    def lower_move(self, op: AsyncMoveOp, scope: Scope) -> None:
        execution = execution_affinity(op)
        source = op.source
        result_type = op.result.type
        assert isinstance(result_type, ResourceType)
        # The move frees the source: it waits for its writer and every other use.
        deps = [*scope.ready_of(source), *scope.accesses_of(source)]
        move, timepoint = self.issue(
            scope,
            execution,
            deps,
            op,
            lambda awaited: CmdMoveOp.create(
                source,
                op.source_size,
                op.result_size,
                result=result_type,
                affinity=execution,
                source_affinity=op.source_affinity,
                target_affinity=op.target_affinity,
                await_timepoint=awaited,
                prefer_origin=True,
            ),
        )
        storage = move.results[0]
        scope.define(storage, [timepoint])
        self.size_of[storage] = op.result_size
        self.replace_root(op.result, storage)
        op.erase()
        self.pass_.stat("num-moves", "Number of stream.async.move ops lowered to stream.cmd.move")

    def lower_dispatch(self, op: AsyncDispatchOp, scope: Scope) -> None:
        affinity = op.affinity
        start = op.segments[0]
        operands = op.resource_operands
        offsets, lengths = op.segment(3), op.segment(5)
        tied_positions = {t for t in op.tied_operands if t is not None}
        for result, tied in zip(op.results, op.tied_operands):
            if tied is not None and result.type != operands[tied].type:
                raise error(
                    f"'{op.name}' op cannot be lowered to cmd IR: tied result #{result.index} "
                    "changes the resource type",
                    op.location,
                )
        reads: list[tuple[Value, Value]] = []
        writes: list[tuple[Value, Value]] = []
        # (operand position or None for a new result, storage, size, offset, length, access)
        entries: list[tuple[Value, Value, Value | None, Value, str]] = []
        uniform: list[Value] = []
        range_index = 0
        for position, value in enumerate(operands):
            if not _is_resource(value):
                uniform.append(value)
                continue
            size = op.size_of_operand(start + position)
            assert size is not None
            access = "rw" if position in tied_positions else "ro"
            (writes if access == "rw" else reads).append((value, size))
            entries.append((value, size, offsets[range_index], lengths[range_index], access))
            range_index += 1
        new_results: list[tuple[OpResult, Value]] = []
        for result, tied in zip(op.results, op.tied_operands):
            if tied is not None or not _is_resource(result):
                continue
            size = op.size_of_result(result.index)
            assert size is not None
            storage, _ = self.alloca(scope, result.type, size, affinity, op)
            writes.append((storage, size))
            entries.append((storage, size, None, size, "wo"))
            new_results.append((result, storage))
        inherent = op.inherent_attributes
        attributes = {k: v for k, v in op.attribute_map.items() if k not in inherent}

        def body(block: Block, args: dict[Value, Value]) -> None:
            resources = [
                (args[value], size, offset if offset is not None else self.c0(), length, access)
                for value, size, offset, length, access in entries
            ]
            values, sizes, offsets, lengths, accesses = zip(*resources) if resources else [()] * 5
            dispatch = CmdDispatchOp.create(
                op.workload, uniform, values, sizes, offsets, lengths, op.entry_points, accesses
            )
            dispatch.attributes.update(attributes)
            dispatch.location = op.location
            block.append(dispatch)

        order = [entry[0] for entry in entries]
        self.execute(scope, affinity, reads, writes, op, body, order)
        for result, storage in new_results:
            self.replace_root(result, storage)
        for result, tied in zip(op.results, op.tied_operands):
            if tied is not None:
                self.replace_root(result, operands[tied])
        op.erase()

    def lower_load(self, op: AsyncLoadOp, scope: Scope) -> None:
        # A host readback (as IREE's ScheduleAllocation does it): wait on the host until the
        # staging resource's last writer is done, then read it with `stream.resource.load`.
        (awaited,) = self.host_await(scope, [op.source], [], op, [op.source_size])
        result_type = op.result.type
        assert result_type is not None
        load = ResourceLoadOp.create(awaited, op.source_size, op.source_offset, result_type)
        self.insert(load, op)
        op.result.replace_all_uses_with(load.results[0])
        op.erase()
        self.pass_.stat("num-host-readbacks", "Number of stream.async.load lowered to host reads")

    def lower_store(self, op: AsyncStoreOp, scope: Scope) -> None:
        # A host write into staging memory: wait until every queued use of the resource is
        # done (the write must not race a reader), then write it with `stream.resource.store`.
        target = op.target
        pending = scope.accesses_of(target)
        (awaited,) = self.host_await(scope, [target], pending, op, [op.target_size])
        self.insert(ResourceStoreOp.create(awaited, op.target_size, op.target_offset, op.value), op)
        op.result.replace_all_uses_with(target)
        op.erase()

    def lower_unsupported(self, op: Operation, scope: Scope) -> None:
        raise error(f"'{op.name}' op cannot be lowered to cmd IR", op.location)

    # -- tensor, timeline and util ops -----------------------------------------------------

    def lower_import(self, op: TensorImportOp, scope: Scope) -> None:
        # Imported buffers are ready on entry and never freed here.
        scope.define(op.result, [])
        self.size_of[op.result] = op.result_size

    def lower_export(self, op: TensorExportOp, scope: Scope) -> None:
        (awaited,) = self.host_await(scope, [op.source], [], op, [op.source_size])
        op.set_operand(0, awaited)

    def lower_timepoint_await(self, op: TimepointAwaitOp, scope: Scope) -> None:
        # The results are the operands, usable once the timepoint is reached too.
        awaited = self.known(op.await_timepoint)
        for result, storage in zip(op.results, op.resource_operands):
            scope.ready[storage] = prune([*scope.ready_of(storage), awaited])
            scope.accesses[storage] = prune([*scope.accesses_of(storage), awaited])
            self.replace_root(result, storage)
        op.erase()

    def lower_timepoint_join(self, op: TimepointJoinOp, scope: Scope) -> None:
        # The join follows its operands, and is a value of its own (an input op).
        clock, _ = clock_max(self.known(v) for v in op.operands)
        self.timepoints[op.results[0]] = Timepoint.fresh(op.results[0], clock)

    def lower_timepoint_immediate(self, op: TimepointImmediateOp, scope: Scope) -> None:
        # Already reached: implied by anything.
        self.timepoints[op.results[0]] = Timepoint(op.results[0], {})

    def lower_timepoint_barrier(self, op: TimepointBarrierOp, scope: Scope) -> None:
        storage = op.resource
        op.results[1].replace_all_uses_with(self.value_of(scope.ready_of(storage), op))
        self.replace_root(op.results[0], storage)
        op.erase()

    def lower_select(self, op: SelectOp, scope: Scope) -> None:
        # A resource chosen at run time: ready when both choices are, used when either is.
        result = op.results[0]
        if not _is_resource(result):
            return
        choices = [v for v in op.operands[1:] if _is_resource(v)]
        ready = prune([t for v in choices for t in scope.ready_of(v)])
        accesses = prune([t for v in choices for t in scope.accesses_of(v)])
        scope.define(result, ready, accesses)

    def lower_global_store(self, op: GlobalStoreOp, scope: Scope) -> None:
        if _is_resource(op.value):
            (awaited,) = self.host_await(scope, [op.value], [], op)
            op.set_operand(0, awaited)

    def lower_call(self, op: CallOp, scope: Scope) -> None:
        # The callee gets its arguments ready and free of pending uses (it may write them).
        indices = [i for i, v in enumerate(op.operands) if _is_resource(v)]
        if indices:
            storages = list(dict.fromkeys(op.operands[i] for i in indices))
            pending = [t for s in storages for t in scope.accesses_of(s)]
            awaited = self.host_await(scope, storages, pending, op)
            mapping = dict(zip(storages, awaited))
            for index in indices:
                op.set_operand(index, mapping[op.operands[index]])
        # Results come back ready (the callee awaited them before returning).
        for result in op.results:
            if _is_resource(result):
                scope.define(result, [])

    def lower_return(self, op: ReturnOp, scope: Scope) -> None:
        # Everything the function issued is done when it returns: callers see ready results
        # and may reuse their arguments at once. The wait names the returned resources, or
        # else the resource arguments the function does not free (`stream.timepoint.await`
        # needs a resource to name; a freed one is gone); with neither, nothing the caller
        # can see is pending.
        pending = scope.frontier()
        indices = [i for i, v in enumerate(op.operands) if _is_resource(v)]
        storages = list(dict.fromkeys(op.operands[i] for i in indices))
        if not storages:
            storages = [
                a
                for a in self.entry.arguments
                if _is_resource(a) and a not in self.consumed_arguments
            ]
        if not storages:
            return
        awaited = self.host_await(scope, storages, pending, op)
        mapping = dict(zip(storages, awaited))
        for index in indices:
            op.set_operand(index, mapping[op.operands[index]])

    # -- control flow ----------------------------------------------------------------------

    def region_yield_timepoints(
        self, scope: Scope, values: Sequence[Value], anchor: Operation
    ) -> list[Value]:
        """`values`, each resource followed by the timepoint of its contents and uses."""
        out: list[Value] = []
        for value in values:
            out.append(value)
            if _is_resource(value):
                pending = [*scope.ready_of(value), *scope.accesses_of(value)]
                out.append(self.value_of(pending, anchor))
        return out

    def lower_branch(self, op: BranchLikeOp, scope: Scope) -> None:
        for index, block in enumerate(op.successors):
            layout = self.block_layout.get(block)
            if layout is None:
                continue
            _, keys = layout
            values = self.region_yield_timepoints(scope, op.successor_operands(index), op)
            values.extend(self.value_of(scope.last_of(key), op) for key in keys)
            op.set_successor_operands(index, values)

    def lower_exclusive(self, op: Operation, scope: Scope) -> None:
        """scf.if / scf.index_switch: one region runs. Each yields, next to each resource, the
        timepoint of its contents, and one timepoint per affinity it issued work on."""
        if isinstance(op, IfOp):
            op.ensure_else_block()
        blocks = [region.blocks[0] for region in op.regions if region.blocks]
        scopes = [Scope(scope, "branch", scope.segment) for _ in blocks]
        for block, inner in zip(blocks, scopes):
            self.lower_block(block, inner)
        self.source = op
        keys: list[Hashable] = []
        for inner in scopes:
            for key in inner.last:
                if key not in keys:
                    keys.append(key)
        touched_ready: set[Value] = set()
        touched_accesses: set[Value] = set()
        for inner in scopes:
            touched_ready.update(s for s in inner.ready if s not in inner.created)
            touched_accesses.update(s for s in inner.accesses if s not in inner.created)
        if not keys and not any(_is_resource(r) for r in op.results):
            return
        key_timepoints: list[list[Timepoint]] = [[] for _ in keys]
        for block, inner in zip(blocks, scopes):
            terminator = block.last_op
            assert terminator is not None
            values = self.region_yield_timepoints(inner, list(terminator.operands), terminator)
            for i, key in enumerate(keys):
                joined = self.join(inner.last_of(key), terminator)
                values.append(joined.value if joined is not None else self.immediate())
                if joined is not None:
                    key_timepoints[i].append(joined)
            terminator.set_operands(values)
        resource_results = [r for r in op.results if _is_resource(r)]
        items: list[Value | Type] = []
        for result in op.results:
            items.append(result)
            if _is_resource(result):
                items.append(TIMEPOINT)
        items.extend(TIMEPOINT for _ in keys)
        results = _set_results(op, items)
        for result in resource_results:
            position = results.index(result)
            timepoint = Timepoint.fresh(results[position + 1])
            scope.define(result, [timepoint])
        dones: list[Timepoint] = []
        first_key = len(results) - len(keys)
        for i, key in enumerate(keys):
            known = clock_min(key_timepoints[i]) if len(key_timepoints[i]) == len(blocks) else {}
            done = Timepoint.fresh(results[first_key + i], known)
            scope.issued(key, done)
            dones.append(done)
        for storage in touched_ready:
            scope.ready[storage] = prune([*scope.ready_of(storage), *dones])
        for storage in touched_accesses:
            scope.accesses[storage] = prune([*scope.accesses_of(storage), *dones])

    def lower_for(self, op: ForOp, scope: Scope) -> None:
        body = op.body
        inner = Scope(scope, "loop", next(self.segments))
        inner.written_outer = _written_outer(op)
        keys = sorted(self.keys_in(op.regions[0]), key=repr)
        inits: list[Value] = []
        arguments: list[Value | Type] = [body.arguments[0]]
        results: list[Value | Type] = []
        for init, argument, result in zip(op.init_args, op.region_iter_args, op.results):
            inits.append(init)
            arguments.append(argument)
            results.append(result)
            if _is_resource(init):
                pending = [*scope.ready_of(init), *scope.accesses_of(init)]
                inits.append(self.value_of(pending, op))
                arguments.append(TIMEPOINT)
                results.append(TIMEPOINT)
        for key in keys:
            inits.append(self.value_of(scope.last_of(key), op))
            arguments.append(TIMEPOINT)
            results.append(TIMEPOINT)
        op.set_operands([op.lower_bound, op.upper_bound, op.step, *inits])
        new_arguments = _set_block_arguments(body, arguments)
        new_results = _set_results(op, results)
        carried_start = len(new_arguments) - len(keys)
        inner.carried = {
            key: Timepoint.fresh(new_arguments[carried_start + i]) for i, key in enumerate(keys)
        }
        for index, argument in enumerate(new_arguments[:carried_start]):
            if _is_resource(argument):
                inner.define(argument, [Timepoint.fresh(new_arguments[index + 1])])
        self.lower_block(body, inner)
        self.source = op
        terminator = body.last_op
        assert terminator is not None
        values = self.region_yield_timepoints(inner, list(terminator.operands), terminator)
        values.extend(self.value_of(inner.last_of(key), terminator) for key in keys)
        terminator.set_operands(values)
        self._after_loop(scope, inner, new_results, keys)

    def _after_loop(
        self, scope: Scope, inner: Scope, results: list[OpResult], keys: list[Hashable]
    ) -> None:
        carried_start = len(results) - len(keys)
        for index, result in enumerate(results[:carried_start]):
            if _is_resource(result):
                scope.define(result, [Timepoint.fresh(results[index + 1])])
        dones = [Timepoint.fresh(results[carried_start + i]) for i in range(len(keys))]
        for key, done in zip(keys, dones):
            scope.issued(key, done)
        for storage in inner.ready:
            if storage not in inner.created:
                scope.ready[storage] = prune([*scope.ready_of(storage), *dones])
        for storage in inner.accesses:
            if storage not in inner.created:
                scope.accesses[storage] = prune([*scope.accesses_of(storage), *dones])

    def lower_while(self, op: WhileOp, scope: Scope) -> None:
        keys = sorted(self.keys_in(op), key=repr)
        written = _written_outer(op)
        before, after = op.before_block, op.after_block
        # Initial values and `before` arguments.
        inits: list[Value] = []
        before_items: list[Value | Type] = []
        for init, argument in zip(op.inits, before.arguments):
            inits.append(init)
            before_items.append(argument)
            if _is_resource(init):
                pending = [*scope.ready_of(init), *scope.accesses_of(init)]
                inits.append(self.value_of(pending, op))
                before_items.append(TIMEPOINT)
        for key in keys:
            inits.append(self.value_of(scope.last_of(key), op))
            before_items.append(TIMEPOINT)
        op.set_operands(inits)
        before_arguments = _set_block_arguments(before, before_items)
        # `after` arguments and results: what scf.condition forwards.
        after_items: list[Value | Type] = []
        result_items: list[Value | Type] = []
        for argument, result in zip(after.arguments, op.results):
            after_items.append(argument)
            result_items.append(result)
            if _is_resource(argument):
                after_items.append(TIMEPOINT)
                result_items.append(TIMEPOINT)
        after_items.extend(TIMEPOINT for _ in keys)
        result_items.extend(TIMEPOINT for _ in keys)
        after_arguments = _set_block_arguments(after, after_items)
        results = _set_results(op, result_items)
        before_scope = self._loop_scope(scope, before_arguments, keys, written)
        self.lower_block(before, before_scope)
        self.source = op
        condition = before.last_op
        assert isinstance(condition, ConditionOp)
        values = self.region_yield_timepoints(before_scope, condition.args, condition)
        values.extend(self.value_of(before_scope.last_of(key), condition) for key in keys)
        condition.set_operands([condition.condition, *values])
        after_scope = self._loop_scope(scope, after_arguments, keys, written)
        self.lower_block(after, after_scope)
        self.source = op
        terminator = after.last_op
        assert terminator is not None
        values = self.region_yield_timepoints(after_scope, list(terminator.operands), terminator)
        values.extend(self.value_of(after_scope.last_of(key), terminator) for key in keys)
        terminator.set_operands(values)
        combined = Scope(scope, "loop", before_scope.segment)
        combined.ready = {**before_scope.ready, **after_scope.ready}
        combined.accesses = {**before_scope.accesses, **after_scope.accesses}
        combined.created = before_scope.created | after_scope.created
        self._after_loop(scope, combined, results, keys)

    def _loop_scope(
        self,
        scope: Scope,
        arguments: list[BlockArgument],
        keys: list[Hashable],
        written: set[Value],
    ) -> Scope:
        inner = Scope(scope, "loop", next(self.segments))
        inner.written_outer = written
        carried_start = len(arguments) - len(keys)
        inner.carried = {
            key: Timepoint.fresh(arguments[carried_start + i]) for i, key in enumerate(keys)
        }
        for index, argument in enumerate(arguments[:carried_start]):
            if _is_resource(argument):
                inner.define(argument, [Timepoint.fresh(arguments[index + 1])])
        return inner

    def lower_structured(self, op: Operation, scope: Scope) -> None:
        # What is made before the op (initial values) and at its yields is located at it.
        if isinstance(op, IfOp | IndexSwitchOp):
            self.lower_exclusive(op, scope)
        elif isinstance(op, ForOp):
            self.lower_for(op, scope)
        elif isinstance(op, WhileOp):
            self.lower_while(op, scope)


_HANDLERS: dict[type, Callable[[_FunctionLowering, Any, Scope], None]] = {
    AsyncAllocaOp: _FunctionLowering.lower_alloca,
    AsyncConstantOp: _FunctionLowering.lower_constant,
    AsyncSplatOp: _FunctionLowering.lower_splat,
    AsyncCloneOp: _FunctionLowering.lower_clone,
    AsyncSliceOp: _FunctionLowering.lower_slice,
    AsyncCastOp: _FunctionLowering.lower_cast,
    AsyncBarrierOp: _FunctionLowering.lower_barrier,
    AsyncFillOp: _FunctionLowering.lower_fill,
    AsyncUpdateOp: _FunctionLowering.lower_update,
    AsyncCopyOp: _FunctionLowering.lower_copy,
    AsyncTransferOp: _FunctionLowering.lower_transfer,
    AsyncMoveOp: _FunctionLowering.lower_move,
    AsyncDispatchOp: _FunctionLowering.lower_dispatch,
    AsyncLoadOp: _FunctionLowering.lower_load,
    AsyncStoreOp: _FunctionLowering.lower_store,
    AsyncCallOp: _FunctionLowering.lower_unsupported,
    TensorImportOp: _FunctionLowering.lower_import,
    TensorExportOp: _FunctionLowering.lower_export,
    TimepointAwaitOp: _FunctionLowering.lower_timepoint_await,
    TimepointBarrierOp: _FunctionLowering.lower_timepoint_barrier,
    TimepointJoinOp: _FunctionLowering.lower_timepoint_join,
    TimepointImmediateOp: _FunctionLowering.lower_timepoint_immediate,
    GlobalStoreOp: _FunctionLowering.lower_global_store,
    SelectOp: _FunctionLowering.lower_select,
    CallOp: _FunctionLowering.lower_call,
    ReturnOp: _FunctionLowering.lower_return,
    IfOp: _FunctionLowering.lower_structured,
    IndexSwitchOp: _FunctionLowering.lower_structured,
    ForOp: _FunctionLowering.lower_structured,
    WhileOp: _FunctionLowering.lower_structured,
    AsyncFuncOp: lambda lowering, op, scope: None,
}


# -- helpers ---------------------------------------------------------------------------------


def index_zero(entry: Block) -> Value:
    """`arith.constant 0 : index` among the constants that open `entry`, or a new one there."""
    for op in entry.ops:
        if not isinstance(op, ConstantOp):
            break
        if op.results[0].type == INDEX and op.int_value == 0:
            return op.results[0]
    constant = ConstantOp.create(0, INDEX)
    first = entry.first_op
    if first is None:
        entry.append(constant)
    else:
        entry.insert_before(constant, first)
    return constant.results[0]


def _key_of(affinity: Attribute) -> Hashable:
    """Ops on the same device queues share one program order, however the affinity is
    spelled (`#hal.device.affinity<@a>` or `#hal.device.promise<@a>`)."""
    if isinstance(affinity, AffinityAttr):
        return ("device", affinity.device, affinity.queues)
    return ("attr", affinity.text)


def _lifetime(value: Value) -> str:
    return value.type.lifetime if isinstance(value.type, ResourceType) else "*"


def _check_fill_pattern(op: Operation, value: Value) -> None:
    type = value.type
    if not (isinstance(type, IntegerType) and type.width in (8, 16, 32)):
        raise error(
            f"'{op.name}' op cannot be lowered to cmd IR: stream.cmd.fill takes 8, 16 or 32-bit "
            f"patterns, got '{type}'",
            op.location,
        )


def _insert_before(op: Operation, anchor: Operation) -> None:
    block = anchor.parent
    assert block is not None
    block.insert_before(op, anchor)


def _written_outer(loop: Operation) -> set[Value]:
    """Resources defined outside `loop` that ops inside it write in place or free."""
    # Imported when first needed: start-up time.
    from streamopt.analysis.alias import is_defined_inside
    from streamopt.ir.core import Access

    written: set[Value] = set()
    for op in loop.walk():
        if op is loop:
            continue
        for index, value in enumerate(op.operands):
            if not _is_resource(value) or is_defined_inside(value, loop):
                continue
            if op.operand_access(index) & (Access.WRITE | Access.CONSUME):
                written.add(value)
    return written


def _set_block_arguments(block: Block, items: list[Value | Type]) -> list[BlockArgument]:
    """Make `block`'s arguments `items`: existing arguments are kept (in their new place),
    types become new arguments."""
    arguments: list[BlockArgument] = []
    for index, item in enumerate(items):
        if isinstance(item, BlockArgument):
            argument = item
            argument.index = index
        else:
            assert isinstance(item, Type)
            argument = BlockArgument(block, index, item)
        arguments.append(argument)
    block.arguments = arguments
    return arguments


def _set_results(op: Operation, items: list[Value | Type]) -> list[OpResult]:
    """Make `op`'s results `items`: existing results are kept, types become new results."""
    results: list[OpResult] = []
    for index, item in enumerate(items):
        if isinstance(item, OpResult):
            result = item
            result.index = index
        else:
            assert isinstance(item, Type)
            result = OpResult(op, index, item)
        results.append(result)
    op.results = results
    return results
