"""`--lower-cmd-to-hal`: lower cmd-phase stream IR to hal ops, as IREE's StreamToHAL does, and
`stream.cmd.move` to `hal.device.queue.move`.

Op by op (facts from IREE's `Conversion/StreamToHAL`, checked against `iree-opt
--iree-hal-conversion --iree-hal-indirect-command-buffers=false`, which prints the same IR for
inputs without moves and dispatches):

* Types: `!stream.resource<*>` becomes `!hal.buffer` and `!stream.timepoint` `!hal.fence`
  everywhere (function signatures, block arguments, `scf` results, globals; a timepoint global
  loses its `#stream.timepoint<immediate>` initial value).
* Timepoints become fences: `stream.timepoint.immediate` is `util.null : !hal.fence`; an op
  whose result timepoint is used signals a new `hal.fence.create`, one whose timepoint is unused
  signals a null fence; `join` is `hal.fence.join`, a host `await` is `hal.fence.await` plus
  `util.status.check_ok`, `barrier` a null fence.
* Devices: each op loads its affinity's device (`util.global.load immutable @dev`) and uses the
  affinity's queue mask (`-1`, any queue, unless the affinity lists queues); no affinity
  anywhere means `hal.devices.get %c0`. Allocations on a `#hal.device.optimal` affinity pick a
  device with `hal.allocator.select`.
* `stream.resource.alloca` is `hal.allocator.resolve_memory_properties` + `queue.alloca`;
  `dealloca` is `queue.dealloca` (`flags(PreferOrigin)` for `origin`).
* `stream.cmd.execute` holding exactly one copy or fill (flush, invalidate and discard aside) is
  `queue.copy` / `queue.fill`; any other execute records a one-shot command buffer (an execution
  barrier after each command of the region and of `serial` groups) and submits it with
  `queue.execute`. Dispatches look the executable and function up and compute workgroup counts
  with `hal.executable.calculate_workgroups` (streamopt keeps executables verbatim, so it cannot
  inline their count regions as IREE does); a dispatch with several entry points (variant
  selection) is not supported.
* Dispatch operands are first packed into i32 push constants (`--pack-dispatch-operands`:
  an index is two words, low then high).
* `stream.resource.constants` is IREE's constant upload (PackConstants + StreamToHAL): the
  values packed into `util.buffer.constant` host data, `hal.allocator.import` to use it in
  place, else `hal.allocator.allocate` + `hal.ex.file.from_memory` + `hal.device.queue.read`.
* `stream.tensor.import` / `export` of `!hal.buffer` / `!hal.buffer_view` lower as in IREE
  (`hal.buffer_view.buffer` + `hal.buffer.assert`, `hal.buffer_view.create`).
* `stream.cmd.move` (`%r, %t1 = stream.cmd.move on(EXEC) await(%t0) => %x : T1{%n} from(A) ->
  to(B) T2{%n} => !stream.timepoint`) becomes, on the execution affinity's device:

      %memory_types, %buffer_usage = hal.allocator.resolve_memory_properties for(B)
          lifetime(L2) : i32, i32
      %r = hal.device.queue.move<%dev : !hal.device> affinity(%q) wait(%t0) signal(%t1)
          source(%x : !hal.buffer)[%c0] pool(%c0_i64) type(%memory_types)
          usage(%buffer_usage) flags(PreferOrigin) : !hal.buffer{%n}

  (memory type and usage are resolved for the target affinity and the result's lifetime; the
  source is freed at its origin if the move copies).

Like MLIR's dialect conversion, the pass first builds the replacement of every op in program
order while the original IR stays intact (so folds and type queries see the input), then
replaces and erases the originals. It folds what IREE's conversion folds on the way: joins of
one timepoint or only immediate ones, host waits on immediate timepoints, `resource.size` of a
value whose size is in the IR, whole-range subviews, an export of an unchanged import (and an
import of an export) on the same affinity.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from streamopt.diagnostics import Diagnostic, DiagnosticError, error
from streamopt.dialects.arith import ConstantOp
from streamopt.dialects.hal import (
    BUFFER_USAGE,
    MEMORY_TYPE,
    AllocatorAllocateOp,
    AllocatorImportOp,
    AllocatorResolveMemoryPropertiesOp,
    AllocatorSelectOp,
    BufferAssertOp,
    BufferLengthOp,
    BufferLoadOp,
    BufferStoreOp,
    BufferSubspanOp,
    BufferUsageOp,
    BufferViewBufferOp,
    BufferViewCreateOp,
    CommandBufferCopyBufferOp,
    CommandBufferCreateOp,
    CommandBufferDeviceOp,
    CommandBufferDispatchOp,
    CommandBufferExecutionBarrierOp,
    CommandBufferFillBufferOp,
    CommandBufferFinalizeOp,
    DeviceAllocatorOp,
    DeviceQueueAllocaOp,
    DeviceQueueCopyOp,
    DeviceQueueDeallocaOp,
    DeviceQueueExecuteOp,
    DeviceQueueFillOp,
    DeviceQueueMoveOp,
    DeviceQueueReadOp,
    DevicesGetOp,
    ElementTypeOp,
    EncodingTypeOp,
    ExecutableCalculateWorkgroupsOp,
    ExecutableLookupFunctionOp,
    ExecutableLookupOp,
    ExFileFromMemoryOp,
    FenceAwaitOp,
    FenceCreateOp,
    FenceJoinOp,
    MemoryTypeOp,
)
from streamopt.dialects.scf import IfOp
from streamopt.dialects.stream import (
    CmdCopyOp,
    CmdDispatchOp,
    CmdExecuteOp,
    CmdFillOp,
    FileReadOp,
    ResourceAllocaOp,
    ResourceConstantsOp,
    ResourceDeallocaOp,
    ResourceSizeOp,
    ResourceSubviewOp,
    TensorExportOp,
    TensorImportOp,
    TimepointAwaitOp,
    TimepointBarrierOp,
    TimepointJoinOp,
)
from streamopt.dialects.util import (
    FuncOp,
    GlobalLoadOp,
    GlobalOp,
    NullOp,
    StatusCheckOkOp,
)
from streamopt.dialects.util.buffers import BufferConstantOp
from streamopt.ir.core import Block, BlockArgument, Operation, OpResult, Value, compact_uses
from streamopt.ir.module import Module
from streamopt.ir.types import (
    HAL_BUFFER,
    HAL_BUFFER_VIEW,
    HAL_FENCE,
    I32,
    I64,
    INDEX,
    TIMEPOINT,
    AffinityAttr,
    Attribute,
    OpaqueAttr,
    OptimalAffinityAttr,
    ResourceType,
    ShapedType,
    SymbolRefAttr,
    Type,
    TypeAttr,
    symbol_ref,
)
from streamopt.lowering.constant_packing import (
    StorageBuffer,
    check_upload_lifetime,
    checked_storage_size,
    pack_constants,
)
from streamopt.lowering.pack_dispatch_operands import pack_dispatch_operands
from streamopt.lowering.resource_config import lookup_resource_config
from streamopt.parser import token_values
from streamopt.passes import Pass, register_pass

# Ops inside `stream.cmd.execute` regions; the execute lowers them.
_COMMAND_OPS = frozenset(
    {
        "stream.cmd.serial",
        "stream.cmd.concurrent",
        "stream.cmd.copy",
        "stream.cmd.fill",
        "stream.cmd.dispatch",
        "stream.cmd.flush",
        "stream.cmd.invalidate",
        "stream.cmd.discard",
        "stream.yield",
    }
)
# Commands a queue transfer op ignores (IREE: "cache control"); they also record nothing.
_MEMORY_CONTROL_OPS = frozenset(
    {"stream.cmd.flush", "stream.cmd.invalidate", "stream.cmd.discard", "stream.yield"}
)
# Stream ops that stay: kernel code, kept verbatim.
_KEPT_OPS = frozenset({"stream.executable"})

_WAIT_MESSAGE = "failed to wait on timepoint"
_SERIAL_SOURCE_STAGES = "Dispatch|Transfer|CommandRetire"
_SERIAL_TARGET_STAGES = "CommandIssue|Dispatch|Transfer"


# -- stream.cmd.move, read by op name -------------------------------------------------------


@dataclass(frozen=True)
class CmdMoveLayout:
    """Where the parts of one `stream.cmd.move` are: operand indices and affinities.

    Read once from the op as parsed (types intact), so the lowering does not depend on which
    op class models `stream.cmd.move`, only on the op's operands, attributes and the size
    interfaces (`size_of_operand`, `size_of_result`).
    """

    source: int
    source_size: int | None
    result_size: int
    await_timepoint: int | None
    execution_affinity: Attribute | None
    source_affinity: Attribute | None
    target_affinity: Attribute | None


def read_cmd_move(op: Operation) -> CmdMoveLayout:
    """The layout of a `stream.cmd.move` (whatever class models it).

    The source is the resource operand, the await timepoint the timepoint operand; sizes come
    from the size interfaces, else from the index operands in order (source size, then result
    size). Affinities: `source_affinity`, `target_affinity`, and the execution affinity under
    `affinity` or `execution_affinity`.
    """
    operands = list(op.operands)
    resources = [i for i, v in enumerate(operands) if isinstance(v.type, ResourceType)]
    timepoints = [i for i, v in enumerate(operands) if v.type == TIMEPOINT]
    indices = [i for i, v in enumerate(operands) if v.type == INDEX]
    if len(resources) != 1 or len(timepoints) > 1 or not indices:
        raise error(f"'{op.name}' op: cannot find its source, sizes and await", op.location)
    source = resources[0]
    source_size = op.size_of_operand(source)
    result_size = op.size_of_result(0)
    source_size_index = _index_of(operands, source_size, default=indices[0])
    result_size_index = _index_of(operands, result_size, default=indices[-1])
    attributes = op.attributes
    return CmdMoveLayout(
        source=source,
        source_size=source_size_index,
        result_size=result_size_index,
        await_timepoint=timepoints[0] if timepoints else None,
        execution_affinity=attributes.get("affinity") or attributes.get("execution_affinity"),
        source_affinity=attributes.get("source_affinity"),
        target_affinity=attributes.get("target_affinity"),
    )


def _index_of(operands: list[Value], value: Value | None, default: int) -> int:
    if value is None:
        return default
    for index, operand in enumerate(operands):
        if operand is value:
            return index
    return default


# -- the pass -------------------------------------------------------------------------------


@register_pass
class LowerCmdToHalPass(Pass):
    """Lowers cmd-phase stream IR to hal: queue ops, command buffers and fences.

      %r, %t = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>)
          await(%t0) => !stream.resource<external>{%n} => !stream.timepoint
    becomes
      %memory_types, %buffer_usage = hal.allocator.resolve_memory_properties
          for(#hal.device.affinity<@dev_b>) lifetime(external) : i32, i32
      %dev_b = util.global.load immutable @dev_b : !hal.device
      %c-1_i64 = arith.constant -1 : i64
      %fence = hal.fence.create device(%dev_b : !hal.device) flags("None") : !hal.fence
      %c0_i64 = arith.constant 0 : i64
      %transient_buffer = hal.device.queue.alloca<%dev_b : !hal.device> affinity(%c-1_i64)
          wait(%t0) signal(%fence) pool(%c0_i64) type(%memory_types) usage(%buffer_usage)
          flags("None") : !hal.buffer{%n}
    """

    flag = "lower-cmd-to-hal"
    summary = "Lower cmd-phase stream IR (and stream.cmd.move) to hal queue ops and fences"

    def run(self, module: Module) -> None:
        with paused_collector():
            # hal dispatches take i32 push constants: pack index (and other) operands first.
            pack_dispatch_operands(module, self.stat)
            lowering = _Lowering(module, self)
            try:
                lowering.run()
            finally:
                # Its handler table holds bound methods of itself: a reference cycle that
                # would keep the replaced cmd IR (its mapping) alive with the cyclic
                # collector off.
                lowering.handlers.clear()


@contextmanager
def paused_collector() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a pass builds IR.

    A lowering allocates several objects per op and frees almost none until it is done; with
    the collector on, every full collection rescans all of them, which makes a pass over n ops
    cost O(n^2) (3x slower at 20k ops). The parser pauses it for the same reason.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


class _Lowering:
    """The state of one run: value mapping, insertion point, lowered ops."""

    def __init__(self, module: Module, pass_: Pass) -> None:
        self.module = module
        self.pass_ = pass_
        self.globals: dict[str, GlobalOp] = {
            op.sym_name: op for op in module.op.body.ops if isinstance(op, GlobalOp)
        }
        # Original value -> the hal value standing for it.
        self.mapping: dict[Value, Value] = {}
        # Original ops already replaced (in program order), erased at the end.
        self.lowered: list[Operation] = []
        self.anchor: Operation = module.op
        self.move_layouts: dict[Operation, CmdMoveLayout] = {}
        self.handlers: dict[str, Callable[[Operation], None]] = {
            "stream.timepoint.immediate": self._lower_immediate,
            "stream.timepoint.join": self._lower_join,
            "stream.timepoint.await": self._lower_await,
            "stream.timepoint.barrier": self._lower_barrier,
            "stream.resource.alloca": self._lower_alloca,
            "stream.resource.dealloca": self._lower_dealloca,
            "stream.resource.size": self._lower_size,
            "stream.resource.subview": self._lower_subview,
            "stream.resource.constants": self._lower_constants,
            "stream.resource.try_map": self._lower_try_map,
            "stream.resource.alloc": self._lower_alloc,
            "stream.file.constant": self._lower_file_constant,
            "stream.file.read": self._lower_file_read,
            "stream.resource.load": self._lower_resource_load,
            "stream.resource.store": self._lower_resource_store,
            "stream.tensor.import": self._lower_import,
            "stream.tensor.export": self._lower_export,
            "stream.cmd.execute": self._lower_execute,
            "stream.cmd.move": self._lower_move,
        }

    def run(self) -> None:
        self._check_supported()
        for op in self.module.walk():
            if op.name == "stream.cmd.move":
                self.move_layouts[op] = read_cmd_move(op)
        for op in list(self.module.op.body.ops):
            for region in op.regions:
                for block in region.blocks:
                    self._lower_block(block)
        self._replace_lowered()
        self._convert_types()

    # -- checks ---------------------------------------------------------------------------

    def _check_supported(self) -> None:
        """Report every op the pass cannot lower (all of them, before changing anything)."""
        problems: list[Diagnostic] = []
        for op in self.module.walk():
            name = op.name
            if name.startswith("stream.") and name not in _KEPT_OPS:
                if name in self.handlers:
                    continue
                if name in _COMMAND_OPS and _inside_execute(op):
                    continue
                if name.startswith("stream.async.") or name == "stream.tensor.sizeof":
                    message = f"'{name}' must be lowered to the cmd phase first (--lower-to-cmd)"
                else:
                    message = f"cannot lower '{name}' to hal"
                problems.append(Diagnostic("error", message, op.location))
            elif not op.is_known and _touches_stream_values(op):
                problems.append(
                    Diagnostic(
                        "error",
                        f"cannot lower '{name}': it uses stream resources or timepoints and "
                        "streamopt cannot retype an op it does not model",
                        op.location,
                    )
                )
            if len(problems) >= 64:
                break
        if problems:
            raise DiagnosticError(problems)

    # -- the walk -------------------------------------------------------------------------

    def _lower_block(self, block: Block) -> None:
        op = block.first_op
        while op is not None:
            following = op.next_op
            handler = self.handlers.get(op.name)
            if handler is not None:
                self.anchor = op
                handler(op)
            else:
                for region in op.regions:
                    for nested in region.blocks:
                        self._lower_block(nested)
            op = following

    def _replace_lowered(self) -> None:
        # The values the erased ops used: the sizes and offsets every op uses lose many uses.
        used: dict[Value, None] = {}
        for op in reversed(self.lowered):
            for result in op.results:
                if result.uses:
                    replacement = self.mapping.get(result)
                    assert replacement is not None, f"no replacement for a result of {op.name}"
                    result.replace_all_uses_with(replacement)
            used.update(dict.fromkeys(op.operands))
            op.erase()
        compact_uses(used)

    # -- building ---------------------------------------------------------------------------

    def map(self, value: Value) -> Value:
        """The hal value standing for original `value` (itself if it is not replaced)."""
        return self.mapping.get(value, value)

    def emit(self, op: Operation) -> Operation:
        """Insert `op` before the op being lowered."""
        anchor = self.anchor
        op.location = anchor.location
        block = anchor.parent
        assert block is not None
        block.insert_before(op, anchor)
        return op

    def constant(self, value: int, type: Type) -> Value:
        return self.emit(ConstantOp.create(value, type)).results[0]

    def done(self, op: Operation, replacements: Iterable[Value]) -> None:
        """Record that `op` is replaced by `replacements` (one per result)."""
        for result, value in zip(op.results, replacements, strict=True):
            self.mapping[result] = value
        self.lowered.append(op)

    def null_fence(self) -> Value:
        return self.emit(NullOp.create(HAL_FENCE)).results[0]

    def wait_fence(self, timepoint: Value | None) -> Value:
        """The fence an op waits on: the awaited timepoint's, or a null fence."""
        return self.map(timepoint) if timepoint is not None else self.null_fence()

    def signal_fence(self, device: Value, timepoint: Value | None) -> Value:
        """A new fence for a used result timepoint; a null fence when nothing waits on it."""
        if timepoint is None or not timepoint.uses:
            return self.null_fence()
        self.pass_.stat("num-fences", "Number of fences created for timepoints")
        return self.emit(FenceCreateOp.create(device)).results[0]

    # -- affinities and devices -----------------------------------------------------------

    def resolve(self, attr: Attribute | None) -> Attribute | None:
        return self.module.resolve(attr) if attr is not None else None

    def lookup_affinity(self, op: Operation) -> Attribute | None:
        return lookup_affinity(self.module, op)

    def device_and_queue(self, affinity: Attribute | None) -> tuple[Value, Value]:
        """The device an affinity names and its queue mask (for an optimal affinity, its
        first device)."""
        device = self.device(affinity)
        affinity = self._single(affinity)
        mask = -1
        if isinstance(affinity, AffinityAttr) and affinity.queues is not None:
            mask = sum(1 << queue for queue in affinity.queues)
        return device, self.constant(mask, I64)

    def device(self, affinity: Attribute | None) -> Value:
        """The device an affinity names (IREE's `hal.device.resolve`): the affinity's device
        global, or device 0 when there is no affinity."""
        affinity = self._single(affinity)
        if affinity is None:
            ordinal = self.constant(0, INDEX)
            return self.emit(DevicesGetOp.create(ordinal)).results[0]
        if not isinstance(affinity, AffinityAttr):
            raise error(
                f"cannot lower affinity '{affinity.text}': only #hal.device.affinity (and "
                "#hal.device.promise, #hal.device.optimal) name devices",
                self.anchor.location,
            )
        global_op = self.globals.get(affinity.device)
        if global_op is None:
            raise error(
                f"no 'util.global @{affinity.device} : !hal.device' for affinity '{affinity.text}'",
                self.anchor.location,
            )
        return self.emit(GlobalLoadOp.create(global_op, immutable=True)).results[0]

    def _single(self, affinity: Attribute | None) -> Attribute | None:
        """`affinity` resolved; an optimal affinity stands for its first device (as in IREE,
        which has no runtime policy for the others yet)."""
        affinity = self.resolve(affinity)
        if isinstance(affinity, OptimalAffinityAttr):
            return self.resolve(affinity.affinities[0]) if affinity.affinities else None
        return affinity

    def allocation_device(
        self, affinity: Attribute | None, memory_types: Value, buffer_usage: Value
    ) -> tuple[Value, Value]:
        """Where memory for `affinity` is allocated: its device, or for an optimal affinity
        the device `hal.allocator.select` picks among its devices."""
        affinity = self.resolve(affinity)
        if not isinstance(affinity, OptimalAffinityAttr) or len(affinity.affinities) < 2:
            return self.device_and_queue(affinity)
        candidates = [self.device_and_queue(a) for a in affinity.affinities]
        select = self.emit(
            AllocatorSelectOp.create(
                devices=[device for device, _ in candidates],
                queue_affinities=[queue_affinity for _, queue_affinity in candidates],
                memory_types=memory_types,
                buffer_usage=buffer_usage,
            )
        )
        return select.results[0], select.results[1]

    # -- timepoints -----------------------------------------------------------------------

    def _lower_immediate(self, op: Operation) -> None:
        self.done(op, [self.null_fence()])

    def _lower_join(self, op: Operation) -> None:
        assert isinstance(op, TimepointJoinOp)
        timepoints = op.await_timepoints
        if all(_is_immediate(t) for t in timepoints):
            # Folds to an immediate timepoint, which lowers to a null fence.
            self.done(op, [self.null_fence()])
        elif len(timepoints) == 1:
            self.done(op, [self.map(timepoints[0])])
        else:
            join = self.emit(FenceJoinOp.create([self.map(t) for t in timepoints]))
            self.done(op, [join.results[0]])

    def _lower_await(self, op: Operation) -> None:
        assert isinstance(op, TimepointAwaitOp)
        resources = [self.map(v) for v in op.resource_operands]
        if not _is_immediate(op.await_timepoint):
            timeout = self.constant(-1, I32)
            fence = self.map(op.await_timepoint)
            wait = FenceAwaitOp.create(fences=[fence], timeout_millis=timeout)
            status = self.emit(wait).results[0]
            self.emit(StatusCheckOkOp.create(status, _WAIT_MESSAGE))
            self.pass_.stat("num-host-waits", "Number of host waits on fences")
        self.done(op, resources)

    def _lower_barrier(self, op: Operation) -> None:
        assert isinstance(op, TimepointBarrierOp)
        # The resource is available once the barrier op runs (timepoint propagation would
        # have replaced the barrier otherwise), so its timepoint is already reached.
        self.done(op, [self.map(op.resource), self.null_fence()])

    # -- resources ------------------------------------------------------------------------

    def _lower_alloca(self, op: Operation) -> None:
        assert isinstance(op, ResourceAllocaOp)
        resource_type = op.results[0].type
        assert isinstance(resource_type, ResourceType)
        resolve = self.emit(
            AllocatorResolveMemoryPropertiesOp.create(
                resource_type.lifetime, self.resolve(op.affinity)
            )
        )
        memory_types, buffer_usage = resolve.results
        device, queue = self.allocation_device(self.lookup_affinity(op), memory_types, buffer_usage)
        wait = self.wait_fence(op.await_timepoint)
        signal = self.signal_fence(device, op.result_timepoint)
        pool = self.constant(0, I64)
        alloca = self.emit(
            DeviceQueueAllocaOp.create(
                device,
                queue,
                wait,
                signal,
                pool,
                memory_types,
                buffer_usage,
                op.storage_size,
                "IndeterminateLifetime" if op.indeterminate_lifetime else 0,
            )
        )
        self.pass_.stat("num-queue-allocas", "Number of queue allocations")
        self.done(op, [alloca.results[0], signal])

    def _lower_dealloca(self, op: Operation) -> None:
        assert isinstance(op, ResourceDeallocaOp)
        resource_type = op.resource.type
        assert isinstance(resource_type, ResourceType)
        # IREE resolves the properties here too (it would need them to pick among devices).
        resolve = self.emit(
            AllocatorResolveMemoryPropertiesOp.create(
                resource_type.lifetime, self.resolve(op.affinity)
            )
        )
        memory_types, buffer_usage = resolve.results
        device, queue = self.allocation_device(self.lookup_affinity(op), memory_types, buffer_usage)
        wait = self.wait_fence(op.await_timepoint)
        signal = self.signal_fence(device, op.result_timepoint)
        self.emit(
            DeviceQueueDeallocaOp.create(
                device,
                queue,
                wait,
                signal,
                self.map(op.resource),
                "PreferOrigin" if op.prefer_origin else 0,
            )
        )
        self.pass_.stat("num-queue-deallocas", "Number of queue deallocations")
        self.done(op, [signal])

    def _lower_size(self, op: Operation) -> None:
        assert isinstance(op, ResourceSizeOp)
        size = _find_size_value(op.resource, op)
        if size is None:
            size = self.emit(BufferLengthOp.create(self.map(op.resource))).results[0]
        self.done(op, [self.map(size)])

    def _lower_subview(self, op: Operation) -> None:
        assert isinstance(op, ResourceSubviewOp)
        if op.source_size is op.result_size:
            # The whole range: the source itself.
            self.done(op, [self.map(op.source)])
            return
        subspan = BufferSubspanOp.create(self.map(op.source), op.source_offset, op.result_size)
        self.done(op, [self.emit(subspan).results[0]])

    # -- constants ------------------------------------------------------------------------

    def _lower_constants(self, op: Operation) -> None:
        """Upload constant values as IREE does (PackConstants, then StreamToHAL): pack them
        into host data (`util.buffer.constant`), then per storage buffer either try to use
        the host data in place (`constant` lifetime: `hal.allocator.import`, falling back to
        a read when the device cannot) or read it into a new buffer (`variable` lifetime).
        Each result is a subspan of its buffer; the uploads run one after the other and the
        result timepoint is the last one's."""
        assert isinstance(op, ResourceConstantsOp)
        config = lookup_resource_config(op, self.module.resolve)
        affinity = self.lookup_affinity(op)
        slices = [
            (index, value, checked_storage_size(self.module.resolve(value), op.location))
            for index, value in enumerate(op.values)
        ]
        # The verifier makes every result the same type.
        resource_type = op.results_[0].type
        assert isinstance(resource_type, ResourceType)
        lifetime = resource_type.lifetime
        check_upload_lifetime(lifetime, op.location)
        replacements: dict[int, Value] = {}
        timepoint = self.null_fence()  # IREE's uploads await an immediate timepoint.
        offset = self.constant(0, INDEX)
        for storage in pack_constants(slices, config):
            data = BufferConstantOp.create(
                value=OpaqueAttr(storage.composite()), alignment=config.min_buffer_offset_alignment
            )
            host_data = self.emit(data).results[0]
            # Immutable data may be used in place; mutable data always gets its own copy.
            if lifetime == "constant":
                timepoint, buffer = self._try_map_constant(
                    affinity, host_data, offset, storage, timepoint
                )
            else:
                timepoint, buffer = self._read_constant(
                    affinity, lifetime, host_data, offset, storage, timepoint
                )
            for span in storage.spans:
                start = offset if span.offset == 0 else self.constant(span.offset, INDEX)
                size = op.operands[span.index]
                subspan = BufferSubspanOp.create(buffer, start, size)
                replacements[span.index] = self.emit(subspan).results[0]
            self.pass_.stat("num-constant-uploads", "Number of constant storage buffers")
        self.done(op, [*(replacements[i] for i in range(len(slices))), timepoint])

    def _try_map_constant(
        self,
        affinity: Attribute | None,
        host_data: Value,
        offset: Value,
        storage: StorageBuffer,
        timepoint: Value,
    ) -> tuple[Value, Value]:
        """IREE's `stream.resource.try_map` + `scf.if`: import the host data as a device
        local, immutable buffer; if the device cannot use it in place, read it into a new
        buffer. Returns the (fence, buffer) the `scf.if` yields."""
        total = self.constant(storage.total_size, INDEX)
        did_import, mapped = self._import_host_data(affinity, host_data, offset, total)
        branch = IfOp.create(did_import, [HAL_FENCE, HAL_BUFFER], with_else=True)
        self.emit(branch)
        then_yield, else_yield = branch.then_yield, branch.else_yield
        assert then_yield is not None and else_yield is not None
        for yield_op in (then_yield, else_yield):
            yield_op.location = branch.location
        then_yield.set_operands([timepoint, mapped])
        outer_anchor = self.anchor
        self.anchor = else_yield
        try:
            read_timepoint, buffer = self._read_constant(
                affinity, "constant", host_data, offset, storage, timepoint, total
            )
        finally:
            self.anchor = outer_anchor
        else_yield.set_operands([read_timepoint, buffer])
        return branch.results[0], branch.results[1]

    def _read_constant(
        self,
        affinity: Attribute | None,
        lifetime: str,
        host_data: Value,
        offset: Value,
        storage: StorageBuffer,
        timepoint: Value,
        total: Value | None = None,
    ) -> tuple[Value, Value]:
        """IREE's `stream.resource.alloc` + `stream.file.constant` + `stream.file.read`:
        allocate a buffer at once and read the host data into it on a queue. Returns the
        read's fence and the buffer."""
        if total is None:
            total = self.constant(storage.total_size, INDEX)
        buffer = self._allocate_now(affinity, lifetime, total)
        memory_file = self._file_from_host(affinity, host_data, offset, total)
        device, queue = self.device_and_queue(affinity)
        self.pass_.stat("num-fences", "Number of fences created for timepoints")
        signal = self.emit(FenceCreateOp.create(device)).results[0]
        file_offset = self.constant(0, I64)
        self._queue_read(
            device, queue, timepoint, signal, memory_file, file_offset, buffer, offset, total
        )
        return signal, buffer

    def _import_host_data(
        self, affinity: Attribute | None, host_data: Value, offset: Value, length: Value
    ) -> tuple[Value, Value]:
        """`hal.allocator.import` of host data as device-local, immutable storage for
        transfers and dispatches (IREE's lowering of `stream.resource.try_map`): whether it
        worked, and the buffer."""
        usage = BUFFER_USAGE.by_name
        buffer_usage = self.emit(
            BufferUsageOp.create(
                usage["SharingImmutable"] | usage["Transfer"] | usage["DispatchStorage"]
            )
        ).results[0]
        memory_type = self.emit(MemoryTypeOp.create("DeviceLocal")).results[0]
        device, queue = self.allocation_device(affinity, memory_type, buffer_usage)
        allocator = self.emit(DeviceAllocatorOp.create(device=device)).results[0]
        imported = self.emit(
            AllocatorImportOp.create(
                allocator, queue, memory_type, buffer_usage, host_data, offset, length
            )
        )
        return imported.results[0], imported.results[1]

    def _allocate_now(self, affinity: Attribute | None, lifetime: str, size: Value) -> Value:
        """A buffer usable at once (`hal.allocator.allocate`, IREE's lowering of
        `stream.resource.alloc`)."""
        resolve = self.emit(AllocatorResolveMemoryPropertiesOp.create(lifetime, affinity))
        memory_types, buffer_usage = resolve.results
        device, queue = self.allocation_device(affinity, memory_types, buffer_usage)
        allocator = self.emit(DeviceAllocatorOp.create(device=device)).results[0]
        return self.emit(
            AllocatorAllocateOp.create(allocator, queue, memory_types, buffer_usage, size)
        ).results[0]

    def _file_from_host(
        self, affinity: Attribute | None, host_data: Value, offset: Value, length: Value
    ) -> Value:
        """`hal.ex.file.from_memory` (IREE's lowering of `stream.file.constant`)."""
        device, queue = self.device_and_queue(affinity)
        flags = self.constant(0, I32)
        return self.emit(
            ExFileFromMemoryOp.create(device, queue, host_data, offset, length, flags)
        ).results[0]

    def _queue_read(
        self,
        device: Value,
        queue: Value,
        wait: Value,
        signal: Value,
        file: Value,
        file_offset: Value,
        buffer: Value,
        offset: Value,
        length: Value,
    ) -> None:
        """`hal.device.queue.read` on `device`'s `queue` (IREE's lowering of
        `stream.file.read`)."""
        self.emit(
            DeviceQueueReadOp.create(
                device, queue, wait, signal, file, file_offset, buffer, offset, length
            )
        )

    # -- the packed form of constants (--pack-constants) and host readbacks ----------------

    def _lower_try_map(self, op: Operation) -> None:
        source, offset, size = (self.map(v) for v in op.operands)
        did_import, buffer = self._import_host_data(self.lookup_affinity(op), source, offset, size)
        self.done(op, [did_import, buffer])

    def _lower_alloc(self, op: Operation) -> None:
        type = op.results[0].type
        assert isinstance(type, ResourceType)
        buffer = self._allocate_now(self.lookup_affinity(op), type.lifetime, op.operands[0])
        self.done(op, [buffer])

    def _lower_file_constant(self, op: Operation) -> None:
        source, _, offset, length = (self.map(v) for v in op.operands)
        self.done(op, [self._file_from_host(self.lookup_affinity(op), source, offset, length)])

    def _lower_file_read(self, op: Operation) -> None:
        assert isinstance(op, FileReadOp)
        file, file_offset, target, _, offset, length = (self.map(v) for v in op.operands[:6])
        device, queue = self.device_and_queue(self.lookup_affinity(op))
        signal = self.signal_fence(device, op.results[0])
        wait = self.wait_fence(op.await_timepoint)
        self._queue_read(device, queue, wait, signal, file, file_offset, target, offset, length)
        self.done(op, [signal])

    def _lower_resource_load(self, op: Operation) -> None:
        source, _, offset = (self.map(v) for v in op.operands)
        type = op.results[0].type
        assert type is not None
        self.done(op, [self.emit(BufferLoadOp.create(source, offset, type)).results[0]])

    def _lower_resource_store(self, op: Operation) -> None:
        target, _, offset, value = (self.map(v) for v in op.operands)
        self.emit(BufferStoreOp.create(value, target, offset))
        self.done(op, [])

    def _lower_import(self, op: Operation) -> None:
        assert isinstance(op, TensorImportOp)
        exported = op.source.defining_op
        if (
            isinstance(exported, TensorExportOp)
            and exported.affinity == op.affinity
            and exported.source_size is op.result_size
        ):
            # Importing what was just exported on the same affinity is the resource itself.
            self.done(op, [self.map(exported.source)])
            return
        source = self.map(op.source)
        buffer: Value
        if source.type == HAL_BUFFER_VIEW or isinstance(source.type, ShapedType):
            buffer = self.emit(BufferViewBufferOp.create(buffer_view=source)).results[0]
        elif source.type == HAL_BUFFER:
            buffer = source
        else:
            raise error(
                f"cannot lower an import of '{source.type}' to hal (IREE imports !hal.buffer "
                "and !hal.buffer_view)",
                op.location,
            )
        # Check at run time that the buffer is usable as the resource on this device.
        resource_type = op.results[0].type
        assert isinstance(resource_type, ResourceType)
        memory_types, buffer_usage = _required_buffer_bits(resource_type.lifetime, op)
        device = self.device(self.lookup_affinity(op))
        allocator = self.emit(DeviceAllocatorOp.create(device=device)).results[0]
        self.emit(
            BufferAssertOp.create(
                buffer=buffer,
                allocator=allocator,
                minimum_length=op.result_size,
                message="tensor",
                memory_types=memory_types,
                buffer_usage=buffer_usage,
            )
        )
        self.done(op, [buffer])

    def _lower_export(self, op: Operation) -> None:
        assert isinstance(op, TensorExportOp)
        imported = op.source.defining_op
        result_type = op.results[0].type
        if (
            isinstance(imported, TensorImportOp)
            and imported.source.type == result_type
            and imported.result_encoding == op.source_encoding
            and imported.result_encoding_dims == op.source_encoding_dims
            and imported.result_size is op.source_size
            and imported.affinity == op.affinity
        ):
            # Exporting what was just imported, unchanged, is the imported buffer (view).
            self.done(op, [self.map(imported.source)])
            return
        source = self.map(op.source)
        if result_type == HAL_BUFFER:
            self.done(op, [source])
            return
        encoding = op.source_encoding
        if result_type != HAL_BUFFER_VIEW or not isinstance(encoding, ShapedType):
            raise error(
                f"cannot lower an export to '{result_type}' to hal (IREE exports !hal.buffer "
                "and !hal.buffer_view)",
                op.location,
            )
        if encoding.kind != "tensor" or _has_encoding(encoding):
            raise error(
                f"cannot lower an export of '{encoding}': only dense tensors are supported",
                op.location,
            )
        encoding_type = self.emit(EncodingTypeOp.create()).results[0]
        element = token_values.type_from_text(encoding.element_type_text)
        element_type = self.emit(ElementTypeOp.create(element)).results[0]
        dynamic = iter(op.source_encoding_dims)
        dims = [
            next(dynamic) if extent is None else self.constant(extent, INDEX)
            for extent in encoding.shape
        ]
        offset = self.constant(0, INDEX)
        view = BufferViewCreateOp.create(
            source, offset, op.source_size, element_type, encoding_type, dims
        )
        self.done(op, [self.emit(view).results[0]])

    # -- execution ------------------------------------------------------------------------

    def _lower_execute(self, op: Operation) -> None:
        assert isinstance(op, CmdExecuteOp)
        device, queue = self.device_and_queue(self.lookup_affinity(op))
        for argument, operand in zip(op.body.arguments, op.resource_operands, strict=True):
            self.mapping[argument] = self.map(operand)
        transfer = _single_transfer(op)
        if transfer is not None:
            wait = self.wait_fence(op.await_timepoint)
            signal = self.signal_fence(device, op.result_timepoint)
            if isinstance(transfer, CmdFillOp):
                self.emit(
                    DeviceQueueFillOp.create(
                        device,
                        queue,
                        wait,
                        signal,
                        self.map(transfer.target),
                        transfer.target_offset,
                        transfer.target_length,
                        transfer.value,
                    )
                )
            else:
                assert isinstance(transfer, CmdCopyOp)
                self.emit(
                    DeviceQueueCopyOp.create(
                        device,
                        queue,
                        wait,
                        signal,
                        self.map(transfer.source),
                        transfer.source_offset,
                        self.map(transfer.target),
                        transfer.target_offset,
                        transfer.length,
                    )
                )
            self.pass_.stat("num-queue-transfers", "Number of executes lowered to a queue op")
            self.done(op, [signal])
            return
        modes = "OneShot" if op.await_timepoint is not None else "OneShot|AllowInlineExecution"
        categories = _command_categories(op.body)
        command_buffer = self.emit(
            CommandBufferCreateOp.create(
                device=device, queue_affinity=queue, modes=modes, command_categories=categories
            )
        ).results[0]
        self._record(op.body, command_buffer, serial=True)
        self.emit(CommandBufferFinalizeOp.create(command_buffer=command_buffer))
        wait = self.wait_fence(op.await_timepoint)
        signal = self.signal_fence(device, op.result_timepoint)
        self.emit(DeviceQueueExecuteOp.create(device, queue, wait, signal, command_buffer))
        self.pass_.stat("num-command-buffers", "Number of executes lowered to command buffers")
        self.done(op, [signal])

    def _record(self, block: Block, command_buffer: Value, serial: bool) -> None:
        """Record the commands of `block`; in serial order, a barrier follows each one."""
        for command in block.ops:
            name = command.name
            if name == "stream.yield":
                continue
            if name == "stream.cmd.serial":
                self._record(command.regions[0].blocks[0], command_buffer, serial=True)
            elif name == "stream.cmd.concurrent":
                self._record(command.regions[0].blocks[0], command_buffer, serial=False)
            elif isinstance(command, CmdFillOp):
                self.emit(
                    CommandBufferFillBufferOp.create(
                        command_buffer=command_buffer,
                        target_buffer=self.map(command.target),
                        target_offset=command.target_offset,
                        length=command.target_length,
                        pattern=command.value,
                        flags=0,
                    )
                )
            elif isinstance(command, CmdCopyOp):
                self.emit(
                    CommandBufferCopyBufferOp.create(
                        command_buffer=command_buffer,
                        source_buffer=self.map(command.source),
                        source_offset=command.source_offset,
                        target_buffer=self.map(command.target),
                        target_offset=command.target_offset,
                        length=command.length,
                        flags=0,
                    )
                )
            elif isinstance(command, CmdDispatchOp):
                self._record_dispatch(command, command_buffer)
            elif name not in _MEMORY_CONTROL_OPS:
                raise error(f"cannot record '{name}' into a command buffer", command.location)
            if serial:
                self.emit(
                    CommandBufferExecutionBarrierOp.create(
                        command_buffer=command_buffer,
                        source_stage_mask=_SERIAL_SOURCE_STAGES,
                        target_stage_mask=_SERIAL_TARGET_STAGES,
                        flags=0,
                    )
                )

    def _record_dispatch(self, dispatch: CmdDispatchOp, command_buffer: Value) -> None:
        if len(dispatch.entry_points) != 1:
            raise error(
                "cannot lower a dispatch with several entry points: choosing among "
                "executable variants needs their conditions, which streamopt does not read",
                dispatch.location,
            )
        for operand in dispatch.uniform_operands:
            if operand.type != I32:
                raise error(
                    f"dispatch operand of type '{operand.type}' was not packed into i32",
                    dispatch.location,
                )
        entry_point = self.resolve(dispatch.entry_points[0])
        assert isinstance(entry_point, SymbolRefAttr)
        # The device the command buffer records for (the execute's; dynamic in IREE's view).
        device = self.emit(CommandBufferDeviceOp.create(command_buffer=command_buffer)).results[0]
        lookup = ExecutableLookupOp.create(device, symbol_ref(entry_point.root))
        executable = self.emit(lookup).results[0]
        function = self.emit(ExecutableLookupFunctionOp.create(executable, entry_point))
        workgroups = self.emit(
            ExecutableCalculateWorkgroupsOp.create(
                device=device, entry_point=entry_point, workload=dispatch.workload
            )
        ).results
        x, y, z = workgroups
        self.emit(
            CommandBufferDispatchOp.create(
                command_buffer,
                executable,
                function.results[0],
                x,
                y,
                z,
                constants=dispatch.uniform_operands,
                binding_buffers=[self.map(resource) for resource in dispatch.resources],
                binding_offsets=dispatch.resource_offsets,
                binding_lengths=dispatch.resource_lengths,
            )
        )
        self.pass_.stat("num-dispatches", "Number of dispatches recorded")

    # -- moves ----------------------------------------------------------------------------

    def _lower_move(self, op: Operation) -> None:
        layout = self.move_layouts[op]
        operands = op.operands
        execution = self.resolve(layout.execution_affinity) or self.lookup_affinity(op)
        target = self.resolve(layout.target_affinity) or execution
        result_type = op.results[0].type
        assert isinstance(result_type, ResourceType)
        # The result must suit the target affinity: ask for the memory its lifetime needs there.
        resolve = self.emit(AllocatorResolveMemoryPropertiesOp.create(result_type.lifetime, target))
        memory_types, buffer_usage = resolve.results
        device, queue = self.device_and_queue(execution)
        awaited = operands[layout.await_timepoint] if layout.await_timepoint is not None else None
        wait = self.wait_fence(awaited)
        signal = self.signal_fence(device, op.results[-1])
        offset = self.constant(0, INDEX)
        pool = self.constant(0, I64)
        move = self.emit(
            DeviceQueueMoveOp.create(
                device,
                queue,
                wait,
                signal,
                self.map(operands[layout.source]),
                offset,
                pool,
                memory_types,
                buffer_usage,
                operands[layout.result_size],
                "PreferOrigin",
            )
        )
        self.pass_.stat("num-queue-moves", "Number of stream.cmd.move lowered to queue moves")
        self.done(op, [move.results[0], signal])

    # -- types ----------------------------------------------------------------------------

    def _convert_types(self) -> None:
        """Resources become buffers and timepoints fences, wherever a type is held."""
        for op in self.module.walk():
            for result in op.results:
                result.type = _convert(result.type)
            for region in op.regions:
                for block in region.blocks:
                    for argument in block.arguments:
                        argument.type = _convert(argument.type)
            if isinstance(op, FuncOp):
                header = op.header
                header.arg_types = [_convert_known(t) for t in header.arg_types]
                header.result_types = [_convert_known(t) for t in header.result_types]
            elif isinstance(op, GlobalOp):
                global_type = op.global_type
                converted = _convert_known(global_type)
                if converted is not global_type:
                    op.attributes["type"] = TypeAttr(converted)
                    if global_type == TIMEPOINT and op.initial_value is not None:
                        # `#stream.timepoint<immediate>` has no fence equivalent: start null.
                        op.set_initial_value(None)


# -- helpers --------------------------------------------------------------------------------


def _convert(type: Type | None) -> Type | None:
    if isinstance(type, ResourceType):
        return HAL_BUFFER
    if type == TIMEPOINT:
        return HAL_FENCE
    return type


def _convert_known(type: Type) -> Type:
    converted = _convert(type)
    assert converted is not None
    return converted


def _inside_execute(op: Operation) -> bool:
    return any(ancestor.name == "stream.cmd.execute" for ancestor in op.ancestors())


def _touches_stream_values(op: Operation) -> bool:
    """True if `op` or an op in its regions has a resource or timepoint operand or result:
    the regions of an op streamopt does not model name what they use from outside, which the
    lowering would retype under it."""
    for nested in op.walk():
        values = list(nested.operands) + list(nested.results)
        if any(isinstance(v.type, ResourceType) or v.type == TIMEPOINT for v in values):
            return True
    return False


def _is_immediate(timepoint: Value) -> bool:
    producer = timepoint.defining_op
    return producer is not None and producer.name == "stream.timepoint.immediate"


def _single_transfer(op: CmdExecuteOp) -> Operation | None:
    """The one copy or fill an execute holds besides memory control ops, if that is all."""
    found: Operation | None = None
    for block in op.regions[0].blocks:
        for command in block.ops:
            if command.name in _MEMORY_CONTROL_OPS:
                continue
            if command.name not in ("stream.cmd.fill", "stream.cmd.copy") or found is not None:
                return None
            found = command
    return found


def _command_categories(block: Block) -> str:
    """IREE's `deriveCommandCategories`: dispatches are Dispatch, every other op (the region's
    implicit `stream.yield` included) Transfer."""
    dispatch = False
    transfer = True  # The implicit terminator of the execute region.
    # A stack, not a recursive closure: that would be a reference cycle per execute, which
    # the command line (the cyclic collector off) never frees.
    pending = [block]
    while pending:
        for command in pending.pop().ops:
            if command.name == "stream.cmd.dispatch":
                dispatch = True
            else:
                transfer = True
            for region in command.regions:
                pending.extend(region.blocks)
    names = [name for name, present in (("Transfer", transfer), ("Dispatch", dispatch)) if present]
    return "|".join(names)


def _required_buffer_bits(lifetime: str, op: Operation) -> tuple[int, int]:
    """IREE's `deriveRequiredResourceBufferBits`: the memory type and usage a buffer imported
    as a resource of `lifetime` must have."""
    memory = MEMORY_TYPE.by_name
    usage = BUFFER_USAGE.by_name
    if lifetime in ("constant", "variable", "transient"):
        memory_types = memory["DeviceLocal"]
        buffer_usage = usage["SharingImmutable"] if lifetime == "constant" else 0
    elif lifetime == "external":
        memory_types, buffer_usage = memory["DeviceVisible"], 0
    elif lifetime == "staging":
        memory_types = memory["HostLocal"] | memory["DeviceVisible"]
        buffer_usage = usage["Transfer"] | usage["Mapping"]
    else:
        raise error(f"unsupported resource lifetime: {lifetime}", op.location)
    return memory_types, buffer_usage | usage["Transfer"] | usage["DispatchStorage"]


def _has_encoding(type: ShapedType) -> bool:
    body = type.text[type.text.index("<") + 1 : -1]
    return "," in body


def _find_size_value(value: Value, at: Operation) -> Value | None:
    """IREE's `SizeAwareTypeInterface::findSizeValue`: the size a producer (through ties)
    carries, else one a user of the value (or of a tied result) passes along and that is
    usable at `at`."""
    worklist = [value]
    seen: set[Value] = set()
    while worklist:
        current = worklist.pop()
        if current in seen:
            continue
        seen.add(current)
        if not isinstance(current, OpResult):
            continue
        producer = current.defining_op
        size = producer.size_of_result(current.index)
        if size is not None:
            return size
        tied = producer.tied_operand_index(current.index)
        if tied is not None:
            worklist.append(producer.operands[tied])
    worklist = [value]
    seen = set()
    while worklist:
        current = worklist.pop()
        if current in seen:
            continue
        seen.add(current)
        for use in current.uses:
            user = use.operation
            size = user.size_of_operand(use.index)
            if size is not None and user is not at and _usable_at(size, at):
                return size
            for result in user.results:
                if user.tied_operand_index(result.index) == use.index:
                    worklist.append(result)
    return None


def _usable_at(value: Value, at: Operation) -> bool:
    """True if `value` dominates `at` (structured control flow: defined in an enclosing block,
    before the op there that holds `at`)."""
    if isinstance(value, BlockArgument):
        block = value.block
        return block is not None and block.find_ancestor_op_in_block(at) is not None
    producer = value.defining_op
    if producer is None or producer.parent is None:
        return False
    anchor = producer.parent.find_ancestor_op_in_block(at)
    return anchor is not None and anchor is not producer and producer.is_before_in_block(anchor)


def lookup_affinity(module: Module, op: Operation) -> Attribute | None:
    """IREE's `AffinityAttr::lookupOrDefault`: the op's own affinity or an ancestor's, then
    the nearest `stream.affinity.default` (aliases followed)."""
    node: Operation | None = op
    while node is not None:
        affinity = node.attributes.get("stream.affinity")
        if affinity is None and node.name.startswith("stream."):
            affinity = node.attributes.get("affinity")
        if affinity is not None:
            return module.resolve(affinity)
        node = node.parent_op
    node = op
    while node is not None:
        affinity = node.attributes.get("stream.affinity.default")
        if affinity is not None:
            return module.resolve(affinity)
        node = node.parent_op
    return None
