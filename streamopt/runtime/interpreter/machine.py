"""The interpreter core: frames, regions, control flow, devices and error reporting.

`Interpreter` walks the IR of a module op by op. Each op name maps to a handler (registered
with `@handles`, in the `*_ops` modules) that computes the op's results from its operands'
runtime values. Handlers of async stream ops enqueue queue work on the runtime and let the
interpreter work out what it waits on (`begin_work` / `end_work`); handlers of cmd- and
hal-level ops use the timepoints and fences the IR passes explicitly.

Errors: a handler raises `DiagnosticError` (or a runtime `HalError`, which the interpreter
turns into one at the op's location). A use after move is reported at the offending op with a
note at the move.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from streamopt.diagnostics import (
    UNKNOWN_LOCATION,
    Diagnostic,
    DiagnosticError,
    Location,
    error,
)
from streamopt.dialects.builtin import ModuleOp
from streamopt.ir.core import Block, Operation, Region, Value
from streamopt.ir.module import Module
from streamopt.ir.symbols import SymbolTable
from streamopt.ir.types import (
    AffinityAttr,
    AliasAttr,
    Attribute,
    OptimalAffinityAttr,
    ResourceType,
    TopologyAttr,
)
from streamopt.runtime.buffers import AllocationState, Buffer
from streamopt.runtime.devices import Device
from streamopt.runtime.kernels import Kernel
from streamopt.runtime.params import (
    BufferParams,
    BufferUsage,
    DeallocaFlags,
    MemoryType,
)
from streamopt.runtime.semaphores import Fence, Timepoint
from streamopt.runtime.status import HalError, UseAfterMoveError
from streamopt.runtime.system import Runtime
from streamopt.runtime.topology import (
    Topology,
    default_topology,
    device_kinds,
    topology_from_module,
)

from .liveness import BlockLiveness, block_liveness
from .values import Resource, Storage

Handler = Callable[["Interpreter", "Frame", Operation], "Sequence[Any] | None"]
HANDLERS: dict[str, Handler] = {}

# Ops with no results whose effect the model does not need (status checks, traces, hints).
IGNORED_OPS = frozenset(
    {
        "util.status.check_ok",
        "hal.buffer_view.trace",
        "hal.device.queue.flush",
        "stream.cmd.flush",
        "stream.cmd.invalidate",
        "stream.cmd.discard",
        "hal.command_buffer.execution_barrier",
        "hal.command_buffer.finalize",
        "hal.command_buffer.begin_debug_group",
        "hal.command_buffer.end_debug_group",
    }
)


def handles(*names: str) -> Callable[[Handler], Handler]:
    """Decorator: run the function for ops called any of `names`."""

    def register(function: Handler) -> Handler:
        for name in names:
            assert name not in HANDLERS, f"two handlers for {name}"
            HANDLERS[name] = function
        return function

    return register


def lifetime_params(lifetime: str) -> BufferParams:
    """The buffer parameters storage of a resource lifetime gets (what
    `hal.allocator.resolve_memory_properties` answers), shared by every level so a move asks
    for the same thing whichever level issued it."""
    if lifetime == "staging":
        return BufferParams(
            MemoryType.HOST_LOCAL | MemoryType.DEVICE_VISIBLE,
            BufferUsage.TRANSFER | BufferUsage.MAPPING,
        )
    return BufferParams(
        MemoryType.DEVICE_LOCAL, BufferUsage.TRANSFER | BufferUsage.DISPATCH_STORAGE
    )


@dataclass
class ExecuteContext:
    """An enclosing `stream.async.execute`/`concurrent` region: what its ops also wait on and
    the signals of the work they enqueued (the region's result timepoint joins them)."""

    wait: list[Timepoint]
    signals: list[Timepoint] = field(default_factory=list)


class Frame:
    """One function invocation: the runtime value of each SSA value in scope."""

    __slots__ = ("contexts", "env", "function", "region_exit")

    def __init__(self, function: str) -> None:
        self.function = function
        self.env: dict[Value, Any] = {}
        self.region_exit: list[Value] = []
        self.contexts: list[ExecuteContext] = []


@dataclass
class Transfer:
    """What a terminator does: go to `block` (None: leave the region) with `values`."""

    op: Operation
    values: list[Any]
    block: Block | None = None


class Interpreter:
    """Runs a module's functions on the reference runtime.

    `topology`: the runtime's devices (default: the module's `stream.topology`, else the
    embedded default). The module's device globals are bound to its devices by name when it
    has devices of those names, else in order (a third device beyond the default's two CPUs
    lands on its discrete device). `kernels` maps `@executable::@export` names (without `@`,
    e.g. `ex::fn`) to kernels; other dispatches run a `DeterministicKernel`.
    """

    def __init__(
        self,
        module: Module,
        topology: Topology | None = None,
        kernels: dict[str, Kernel] | None = None,
    ) -> None:
        self.module = module
        self.module_op: ModuleOp = module.op
        self.symbols = SymbolTable(module.op)
        self.device_names = module_device_names(module)
        self.topology = bind_topology(module, self.device_names, topology)
        self.runtime = Runtime(self.topology)
        self.kernels: dict[str, Kernel] = dict(kernels or {})
        # The kernels dispatches ran that nobody supplied (stand-ins: `DeterministicKernel`).
        self.stand_in_kernels: list[str] = []
        self.globals: dict[str, Any] = {}
        self._liveness: dict[Block, BlockLiveness] = {}
        self._storage_count = 0
        self.pending_drops: list[Any] = []
        self._imports: dict[int, Storage] = {}
        from .kernels import ExecutableIndex

        self.executables = ExecutableIndex(module)
        self.default_device = next(iter(self.runtime.devices.values()))

    # -- devices and affinities -------------------------------------------------------------

    def device_of(self, name: str, location: Location) -> Device:
        device = self.runtime.devices.get(name)
        if device is None:
            raise error(
                f"no device '@{name}' in the topology (devices: "
                f"{', '.join('@' + d for d in self.runtime.devices)})",
                location,
            )
        return device

    def resolve_affinity(self, attr: Attribute, location: Location) -> tuple[Device, int]:
        """The device and queue mask an affinity attribute names."""
        if isinstance(attr, AliasAttr):
            attr = self.module.resolve(attr)
        if isinstance(attr, AffinityAttr):
            mask = 0
            for queue in attr.queues or ():
                mask |= 1 << queue
            return self.device_of(attr.device, location), mask
        if isinstance(attr, OptimalAffinityAttr) and attr.affinities:
            return self.resolve_affinity(attr.affinities[0], location)
        match = re.search(r"@([A-Za-z_$.][\w$.\-]*)", attr.text)
        if match is not None:
            return self.device_of(match.group(1), location), 0
        raise error(f"cannot tell which device affinity '{attr.text}' names", location)

    def op_affinity(self, op: Operation, attr: Attribute | None = None) -> tuple[Device, int]:
        """Where `op` runs: `attr` if given, else its own affinity, else the nearest enclosing
        op's, the function's `stream.affinity`, the module's `stream.affinity.default`, and
        finally the first device."""
        if attr is not None:
            return self.resolve_affinity(attr, op.location)
        own = op.attributes.get("affinity")
        if own is not None:
            return self.resolve_affinity(own, op.location)
        for ancestor in op.ancestors():
            keys = ("affinity",) if ancestor.name.startswith("stream.") else ()
            for key in (*keys, "stream.affinity", "stream.affinity.default"):
                value = ancestor.attributes.get(key)
                if value is not None:
                    return self.resolve_affinity(value, op.location)
        return self.default_device, 0

    # -- values ---------------------------------------------------------------------------

    def get(self, frame: Frame, value: Value, op: Operation) -> Any:
        try:
            return frame.env[value]
        except KeyError:
            raise error(
                f"'{op.name}' uses a value the interpreter has not computed", op.location
            ) from None

    def operands(self, frame: Frame, op: Operation) -> list[Any]:
        return [self.get(frame, v, op) for v in op.operands]

    def resource(self, frame: Frame, value: Value, op: Operation) -> Resource:
        found = self.get(frame, value, op)
        if not isinstance(found, Resource):
            raise error(f"'{op.name}' expected a resource, got {type(found).__name__}", op.location)
        return found

    def integer(self, frame: Frame, value: Value, op: Operation) -> int:
        found = self.get(frame, value, op)
        if isinstance(found, bool):
            return int(found)
        if isinstance(found, int):
            return found
        if hasattr(found, "__index__"):
            return int(found.__index__())
        raise error(f"'{op.name}' expected an integer, got {type(found).__name__}", op.location)

    def fence(self, frame: Frame, value: Value, op: Operation) -> Fence | None:
        found = self.get(frame, value, op)
        if found is not None and not isinstance(found, Fence):
            raise error(f"'{op.name}' expected a fence, got {type(found).__name__}", op.location)
        return found

    def bind(self, frame: Frame, value: Value, obj: Any) -> None:
        """Make `value` name `obj` (a resource binding holds its storage). Defining a value
        again (a block a `cf` loop runs again) ends its previous instance."""
        if isinstance(obj, Resource):
            obj.storage.refs += 1
        previous = frame.env.get(value)
        frame.env[value] = obj
        if isinstance(previous, Resource):
            self.drop(previous)

    def release(self, frame: Frame, value: Value) -> None:
        """Drop `value`'s binding; storage no binding names any more is freed."""
        obj = frame.env.pop(value, None)
        if isinstance(obj, Resource):
            self.drop(obj)

    def retain(self, obj: Any) -> None:
        """Hold `obj` while it is handed from a terminator to its receiver."""
        if isinstance(obj, Resource):
            obj.storage.refs += 1

    def drop(self, obj: Any) -> None:
        """Release a hold taken by `retain` (or a binding)."""
        if isinstance(obj, Resource):
            storage = obj.storage
            storage.refs -= 1
            if storage.refs <= 0:
                self.free_storage(storage)

    def hold_forever(self, obj: Any) -> None:
        """Keep `obj`'s storage alive to the end of the run (globals, exported views)."""
        if isinstance(obj, Resource):
            obj.storage.auto_free = False

    def make_storage(self, buffer: Any, auto_free: bool, name: str = "") -> Storage:
        self._storage_count += 1
        return Storage(buffer, name or f"storage{self._storage_count}", auto_free)

    def import_resource(self, buffer: Buffer, consume: bool) -> Resource:
        """A resource over an imported buffer. Every import of one allocation shares one
        storage (so async work through either name is ordered); the interpreter never frees
        it. Without `consume` the caller keeps owning the memory: a move of it must copy."""
        key = id(buffer.allocation)
        storage = self._imports.get(key)
        if storage is None:
            storage = self.make_storage(buffer, auto_free=False, name=f"import:{buffer.name}")
            self._imports[key] = storage
            if not consume:
                buffer.preserve()
        return Resource(storage, buffer, "external")

    def free_storage(self, storage: Storage) -> None:
        """Enqueue the dealloca of storage no SSA value names any more, after all its work."""
        if storage.freed or not storage.auto_free:
            return
        storage.freed = True
        buffer = storage.buffer
        allocation = buffer.allocation
        if (
            buffer.moved_handle() is not None
            or allocation.state is AllocationState.FREED
            or allocation.dealloca_enqueued
        ):
            # A move consumed it (and frees it if it copied), or it is already going away.
            return
        device = buffer.placement.device
        device.queue_dealloca(
            0, storage.write_dependencies(), None, buffer, DeallocaFlags.PREFER_ORIGIN
        )

    # -- async work -----------------------------------------------------------------------

    def begin_work(
        self,
        frame: Frame,
        reads: Iterable[Resource] = (),
        writes: Iterable[Resource] = (),
        extra: Iterable[Timepoint] = (),
    ) -> tuple[list[Timepoint], Fence]:
        """What async work on `reads`/`writes` waits for, and a fresh fence it signals."""
        wait: list[Timepoint] = list(extra)
        for context in frame.contexts:
            wait.extend(context.wait)
        written = {id(r.storage) for r in writes}
        for resource in reads:
            if id(resource.storage) not in written:
                wait.extend(resource.storage.read_dependencies())
        for resource in writes:
            wait.extend(resource.storage.write_dependencies())
        return _unique(wait), self.runtime.create_fence()

    def end_work(
        self,
        frame: Frame,
        signal: Fence,
        reads: Iterable[Resource] = (),
        writes: Iterable[Resource] = (),
    ) -> None:
        """Record that `signal` ends work that read `reads` and wrote `writes`."""
        written = {id(r.storage) for r in writes}
        for resource in reads:
            if id(resource.storage) not in written:
                resource.storage.note_read(signal)
        for resource in writes:
            resource.storage.note_write(signal)
        for context in frame.contexts:
            context.signals.extend(signal.timepoints)

    def allocate(
        self,
        frame: Frame,
        op: Operation,
        device: Device,
        mask: int,
        size: int,
        lifetime: str,
    ) -> Resource:
        """A fresh async-level resource on `device` (its bytes exist once the alloca ran)."""
        wait, allocated = self.begin_work(frame)
        buffer = device.queue_alloca(
            mask, wait, allocated, None, lifetime_params(lifetime), size, location=op.location
        )
        storage = self.make_storage(buffer, auto_free=True)
        storage.last_write = list(allocated.timepoints)
        for context in frame.contexts:
            context.signals.extend(allocated.timepoints)
        return Resource(storage, buffer, lifetime)

    def kernel(self, symbol: str) -> Kernel:
        """The kernel a dispatch of `symbol` (`ex::fn`) runs."""
        known = self.kernels.get(symbol)
        if known is not None:
            return known
        # Imported when first needed: start-up time.
        from streamopt.runtime.kernels import DeterministicKernel

        kernel = self.kernels[symbol] = DeterministicKernel(symbol)
        self.stand_in_kernels.append(symbol)
        return kernel

    # -- functions and regions ------------------------------------------------------------

    def lookup_function(self, name: str, location: Location) -> Operation:
        op = self.symbols.lookup(name)
        if op is None:
            raise error(f"no function '@{name}' in the module", location)
        return op

    def call(self, name: str, arguments: Sequence[Any], location: Location) -> list[Any]:
        """Call function `name` with `arguments`; returns its results, each held once for the
        caller (bind them, then `drop` the hold)."""
        function = self.lookup_function(name, location)
        if not function.regions or not function.regions[0].blocks:
            raise error(f"cannot call '@{name}': it has no body", location)
        frame = Frame(name)
        body = function.regions[0]
        entry = body.blocks[0]
        if len(entry.arguments) != len(arguments):
            raise error(
                f"'@{name}' takes {len(entry.arguments)} arguments, got {len(arguments)}",
                location,
            )
        for argument in arguments:
            self.retain(argument)
        transfer = self.run_region(frame, body, list(arguments))
        return transfer.values

    def run_region(self, frame: Frame, region: Region, arguments: list[Any]) -> Transfer:
        """Run `region` from its entry block. `arguments` are held once each (the entry
        block's bindings take them over). Returns the terminator's transfer, whose values are
        held once each for the receiver."""
        block = region.blocks[0]
        exits_before = len(frame.region_exit)
        values = arguments
        while True:
            transfer = self.run_block(frame, block, values)
            if transfer.block is None:
                break
            block, values = transfer.block, transfer.values
        for value in frame.region_exit[exits_before:]:
            self.release(frame, value)
        del frame.region_exit[exits_before:]
        return transfer

    def liveness(self, block: Block) -> BlockLiveness:
        found = self._liveness.get(block)
        if found is None:
            found = self._liveness[block] = block_liveness(block)
        return found

    def run_block(self, frame: Frame, block: Block, arguments: list[Any]) -> Transfer:
        """Bind `block`'s arguments (taking over the holds on `arguments`), run its ops, and
        return what its terminator hands on."""
        liveness = self.liveness(block)
        if len(block.arguments) != len(arguments):
            raise error(
                f"block takes {len(block.arguments)} arguments, got {len(arguments)}",
                block.first_op.location if block.first_op else UNKNOWN_LOCATION,
            )
        for argument, obj in zip(block.arguments, arguments):
            self.bind(frame, argument, obj)
            self.drop(obj)
        for value in liveness.at_entry:
            self.release(frame, value)
        for value in liveness.at_region_exit:
            if value not in frame.region_exit:
                frame.region_exit.append(value)
        after = liveness.after
        for op in block.ops:
            if op.is_terminator or op.successors:
                transfer = self.terminate(frame, op)
                for value in after.get(op, ()):
                    self.release(frame, value)
                return transfer
            self.execute(frame, op)
            for value in after.get(op, ()):
                self.release(frame, value)
        # A block without a terminator (an implicit yield was dropped by the parser).
        return Transfer(block.last_op or block.parent_op or self.module_op, [])

    def execute(self, frame: Frame, op: Operation) -> None:
        """Run one non-terminator op and bind its results."""
        handler = HANDLERS.get(op.name)
        if handler is None:
            if op.name in IGNORED_OPS and not op.results:
                return
            raise error(f"the interpreter does not support '{op.name}'", op.location)
        holds = len(self.pending_drops)
        try:
            results = handler(self, frame, op)
        except DiagnosticError:
            raise
        except UseAfterMoveError as exc:
            raise use_after_move_error(exc, op.location) from None
        except HalError as exc:
            raise hal_diagnostic(exc, op.location) from None
        if results is None:
            results = []
        if len(results) != len(op.results):
            raise error(
                f"internal: '{op.name}' produced {len(results)} values for "
                f"{len(op.results)} results",
                op.location,
            )
        for result, obj in zip(op.results, results):
            self.bind(frame, result, obj)
        # Results handed over from a region or call were held for us; the bindings hold them
        # now.
        handed = self.pending_drops[holds:]
        del self.pending_drops[holds:]
        for obj in handed:
            self.drop(obj)

    def terminate(self, frame: Frame, op: Operation) -> Transfer:
        """Evaluate a terminator: its operands, held once each, and where control goes."""
        # Imported when first needed: start-up time.
        from streamopt.dialects.cf import BranchOp, CondBranchOp, SwitchOp

        if isinstance(op, BranchOp):
            block, values = op.dest, op.dest_operands
        elif isinstance(op, CondBranchOp):
            taken = bool(self.integer(frame, op.condition, op))
            block = op.true_dest if taken else op.false_dest
            values = op.true_operands if taken else op.false_operands
        elif isinstance(op, SwitchOp):
            flag = self.integer(frame, op.flag, op)
            width = getattr(op.flag.type, "width", 64)
            index = 0
            for k, case in enumerate(op.case_values):
                if (case - flag) % (1 << width) == 0:
                    index = k + 1
                    break
            block = op.successors[index]
            values = op.segment(index + 1)
        else:
            # stream.yield lists its resources' sizes after them: only the resources go on.
            operands = getattr(op, "resource_operands", None) if op.name == "stream.yield" else None
            objs = [self.get(frame, v, op) for v in (operands or op.operands)]
            for obj in objs:
                self.retain(obj)
            return Transfer(op, objs)
        objs = [self.get(frame, v, op) for v in values]
        for obj in objs:
            self.retain(obj)
        return Transfer(op, objs, block)

    def run_nested(self, frame: Frame, region: Region, arguments: list[Any]) -> list[Any]:
        """Run a nested region whose terminator yields the parent's results; returns the
        yielded values, held once each."""
        for obj in arguments:
            self.retain(obj)
        return self.run_region(frame, region, arguments).values

    # -- whole runs -----------------------------------------------------------------------

    def run_initializers(self) -> None:
        """Initialize globals from their initial values, then run `util.initializer`s in
        module order (as the VM does when a module loads)."""
        from .std_ops import initialize_globals

        initialize_globals(self)
        for op in self.module_op.body.ops:
            if op.name == "util.initializer":
                frame = Frame("<initializer>")
                self.run_region(frame, op.regions[0], [])

    def finish(self) -> None:
        """Run all queued work; raise the first failure, or an error if work is stuck."""
        self.runtime.drain()
        if self.runtime.errors:
            raise hal_diagnostic(self.runtime.errors[0], UNKNOWN_LOCATION)
        if self.runtime.scheduler.pending:
            raise error(
                "queue work never ran (it waits on fences nothing signals): "
                + self.runtime.pending_summary(),
                UNKNOWN_LOCATION,
            )


def _unique(timepoints: list[Timepoint]) -> list[Timepoint]:
    seen: set[tuple[int, int]] = set()
    out: list[Timepoint] = []
    for timepoint in timepoints:
        key = (id(timepoint.semaphore), timepoint.value)
        # A reached timepoint orders nothing; a failed one still must fail the waiter.
        if key not in seen and not timepoint.semaphore.is_reached(timepoint.value):
            seen.add(key)
            out.append(timepoint)
    return out


def location_of(value: object) -> Location | None:
    return value if isinstance(value, Location) else None


def use_after_move_error(exc: UseAfterMoveError, fallback: Location) -> DiagnosticError:
    """`error: use after move ...` at the use, with a note at the move."""
    where = location_of(exc.use_location) or fallback
    message = (
        f"use after move: buffer '{exc.buffer_name}' {exc.use} after move #{exc.move.move_id} "
        f"to '{exc.move.target_device}' ({exc.move.mode})"
    )
    moved_at = location_of(exc.move.location)
    if moved_at is not None:
        message += f" at {moved_at}"
    diagnostic = Diagnostic("error", message, where)
    if moved_at is not None:
        diagnostic.attach_note("moved here", moved_at)
    return DiagnosticError(diagnostic)


def hal_diagnostic(exc: HalError, fallback: Location) -> DiagnosticError:
    """A runtime failure as a diagnostic at the op that failed."""
    if isinstance(exc, UseAfterMoveError):
        return use_after_move_error(exc, fallback)
    where = location_of(exc.status.location) or fallback
    return DiagnosticError(Diagnostic("error", f"runtime: {exc.status}", where))


# -- module facts ---------------------------------------------------------------------------


def module_device_names(module: Module) -> list[str]:
    """The module's devices: `!hal.device` globals in order, then any other device an
    affinity attribute names."""
    names: list[str] = []
    # Imported when first needed: start-up time.
    from streamopt.dialects.util import GlobalOp

    for op in module.op.body.ops:
        if isinstance(op, GlobalOp) and op.global_type.text == "!hal.device":
            names.append(op.sym_name)
    for op in module.walk():
        for attr in op.attributes.values():
            for name in _affinity_devices(module, attr):
                if name not in names:
                    names.append(name)
    return names


def _affinity_devices(module: Module, attr: Attribute) -> list[str]:
    if isinstance(attr, AliasAttr):
        attr = module.resolve(attr)
    if isinstance(attr, AffinityAttr | OptimalAffinityAttr):
        return list(attr.devices)
    return []


def _device_targets(module: Module, names: Sequence[str]) -> dict[str, str]:
    """The text of each device global's initial value (its target), with aliases followed."""
    # Imported when first needed: start-up time.
    from streamopt.dialects.util import GlobalOp

    targets: dict[str, str] = {}
    for op in module.op.body.ops:
        if isinstance(op, GlobalOp) and op.sym_name in names and op.initial_value is not None:
            targets[op.sym_name] = module.resolve(op.initial_value).text
    return targets


def bind_topology(module: Module, names: Sequence[str], topology: Topology | None) -> Topology:
    """The topology a run uses (see `Interpreter`)."""
    if topology is not None:
        return topology.bind(list(names)) if names else topology
    if not names:
        return default_topology()
    attr = module.op.attributes.get("stream.topology")
    if isinstance(attr, AliasAttr):
        attr = module.resolve(attr)
    if isinstance(attr, TopologyAttr):
        kinds = device_kinds(names, _device_targets(module, names))
        return topology_from_module(list(names), attr, kinds)
    return default_topology().bind(list(names))


def resource_lifetime(value: Value) -> str:
    type = value.type
    return type.lifetime if isinstance(type, ResourceType) else "*"
