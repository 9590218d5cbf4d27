"""A reference HAL runtime in Python that executes lowered IR on real bytes.

Devices, buffers and timeline semaphores modelled on IREE's HAL, with queue operations
(alloca, dealloca, fill, update, copy, dispatch, execute, barrier, move) that run on numpy bytes
in semaphore order, a topology of which device reaches which memory, and the proposed buffer
move API (`Device.query_buffer_move`, `Device.queue_move`). Statistics and a Chrome trace record
what ran. See `system.Runtime` for an example.
"""

from streamopt.move_api import MoveFlags, MoveMode, MoveReason
from streamopt.runtime.buffers import Allocation, AllocationState, Buffer, Placement, Residency
from streamopt.runtime.commands import (
    BindingSlot,
    BindingTableEntry,
    CommandBuffer,
    DispatchBinding,
)
from streamopt.runtime.devices import Allocator, Device, Pool
from streamopt.runtime.kernels import DeterministicKernel, Kernel
from streamopt.runtime.move import MoveInfo, MoveResult
from streamopt.runtime.params import (
    QUEUE_AFFINITY_ANY,
    AllocaFlags,
    BufferParams,
    BufferUsage,
    DeallocaFlags,
    MemoryAccess,
    MemoryType,
    format_flags,
    parse_flags,
)
from streamopt.runtime.queue import OpState, QueueOp
from streamopt.runtime.semaphores import FAILURE_VALUE, Fence, Semaphore, Timepoint
from streamopt.runtime.stats import Statistics
from streamopt.runtime.status import (
    HalError,
    MoveRecord,
    Status,
    StatusCode,
    UseAfterMoveError,
)
from streamopt.runtime.system import Runtime
from streamopt.runtime.topology import (
    AccessMode,
    DeviceSpec,
    MemoryEdge,
    MemorySpace,
    Topology,
    default_topology,
    load_topology,
    topology_from_dict,
    topology_from_module,
)
from streamopt.runtime.trace import TraceEvent, TraceRecorder, write_chrome_trace

__all__ = [
    "FAILURE_VALUE",
    "QUEUE_AFFINITY_ANY",
    "AccessMode",
    "AllocaFlags",
    "Allocation",
    "AllocationState",
    "Allocator",
    "BindingSlot",
    "BindingTableEntry",
    "Buffer",
    "BufferParams",
    "BufferUsage",
    "CommandBuffer",
    "DeallocaFlags",
    "DeterministicKernel",
    "Device",
    "DeviceSpec",
    "DispatchBinding",
    "Fence",
    "HalError",
    "Kernel",
    "MemoryAccess",
    "MemoryEdge",
    "MemorySpace",
    "MemoryType",
    "MoveFlags",
    "MoveInfo",
    "MoveMode",
    "MoveReason",
    "MoveRecord",
    "MoveResult",
    "OpState",
    "Placement",
    "Pool",
    "QueueOp",
    "Residency",
    "Runtime",
    "Semaphore",
    "Statistics",
    "Status",
    "StatusCode",
    "Timepoint",
    "Topology",
    "TraceEvent",
    "TraceRecorder",
    "UseAfterMoveError",
    "default_topology",
    "format_flags",
    "load_topology",
    "parse_flags",
    "topology_from_dict",
    "topology_from_module",
    "write_chrome_trace",
]
