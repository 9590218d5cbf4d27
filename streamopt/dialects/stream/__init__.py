"""The stream dialect, one module per group of IREE's ops (StreamOps.td): `async_` (async
resource ops), `async_control` (dispatch, functions and calls, execution regions), `tensor`,
`timeline` (timepoints), `resource`, `file` and `cmd`; `base` holds what they share.

Importing the package registers every stream op (`streamopt.dialects.load_dialect`); the op
classes and the bases other layers read are importable from it."""

from __future__ import annotations

from streamopt.dialects.stream.async_ import AsyncAllocaOp as AsyncAllocaOp
from streamopt.dialects.stream.async_ import AsyncBarrierOp as AsyncBarrierOp
from streamopt.dialects.stream.async_ import AsyncCastOp as AsyncCastOp
from streamopt.dialects.stream.async_ import AsyncCloneOp as AsyncCloneOp
from streamopt.dialects.stream.async_ import AsyncConstantOp as AsyncConstantOp
from streamopt.dialects.stream.async_ import AsyncCopyOp as AsyncCopyOp
from streamopt.dialects.stream.async_ import AsyncFillOp as AsyncFillOp
from streamopt.dialects.stream.async_ import AsyncLoadOp as AsyncLoadOp
from streamopt.dialects.stream.async_ import AsyncMoveOp as AsyncMoveOp
from streamopt.dialects.stream.async_ import AsyncSliceOp as AsyncSliceOp
from streamopt.dialects.stream.async_ import AsyncSplatOp as AsyncSplatOp
from streamopt.dialects.stream.async_ import AsyncStoreOp as AsyncStoreOp
from streamopt.dialects.stream.async_ import AsyncTransferOp as AsyncTransferOp
from streamopt.dialects.stream.async_ import AsyncUpdateOp as AsyncUpdateOp
from streamopt.dialects.stream.async_ import TransferLikeOp as TransferLikeOp
from streamopt.dialects.stream.async_control import AsyncCallOp as AsyncCallOp
from streamopt.dialects.stream.async_control import AsyncConcurrentOp as AsyncConcurrentOp
from streamopt.dialects.stream.async_control import AsyncDispatchOp as AsyncDispatchOp
from streamopt.dialects.stream.async_control import AsyncExecuteOp as AsyncExecuteOp
from streamopt.dialects.stream.async_control import AsyncFuncOp as AsyncFuncOp
from streamopt.dialects.stream.async_control import ResourceRegionOp as ResourceRegionOp
from streamopt.dialects.stream.base import StreamOp as StreamOp
from streamopt.dialects.stream.base import TimelineOp as TimelineOp
from streamopt.dialects.stream.base import YieldOp as YieldOp
from streamopt.dialects.stream.base import value_access as value_access
from streamopt.dialects.stream.cmd import CmdConcurrentOp as CmdConcurrentOp
from streamopt.dialects.stream.cmd import CmdCopyOp as CmdCopyOp
from streamopt.dialects.stream.cmd import CmdDiscardOp as CmdDiscardOp
from streamopt.dialects.stream.cmd import CmdDispatchOp as CmdDispatchOp
from streamopt.dialects.stream.cmd import CmdExecuteOp as CmdExecuteOp
from streamopt.dialects.stream.cmd import CmdFillOp as CmdFillOp
from streamopt.dialects.stream.cmd import CmdFlushOp as CmdFlushOp
from streamopt.dialects.stream.cmd import CmdInvalidateOp as CmdInvalidateOp
from streamopt.dialects.stream.cmd import CmdMoveOp as CmdMoveOp
from streamopt.dialects.stream.cmd import CmdSerialOp as CmdSerialOp
from streamopt.dialects.stream.file import FileConstantOp as FileConstantOp
from streamopt.dialects.stream.file import FileReadOp as FileReadOp
from streamopt.dialects.stream.resource import ResourceAllocaOp as ResourceAllocaOp
from streamopt.dialects.stream.resource import ResourceAllocOp as ResourceAllocOp
from streamopt.dialects.stream.resource import ResourceConstantsOp as ResourceConstantsOp
from streamopt.dialects.stream.resource import ResourceDeallocaOp as ResourceDeallocaOp
from streamopt.dialects.stream.resource import ResourceLoadOp as ResourceLoadOp
from streamopt.dialects.stream.resource import ResourcePackOp as ResourcePackOp
from streamopt.dialects.stream.resource import ResourceSizeOp as ResourceSizeOp
from streamopt.dialects.stream.resource import ResourceStoreOp as ResourceStoreOp
from streamopt.dialects.stream.resource import ResourceSubviewOp as ResourceSubviewOp
from streamopt.dialects.stream.resource import ResourceTryMapOp as ResourceTryMapOp
from streamopt.dialects.stream.tensor import TensorExportOp as TensorExportOp
from streamopt.dialects.stream.tensor import TensorImportOp as TensorImportOp
from streamopt.dialects.stream.tensor import TensorSizeOfOp as TensorSizeOfOp
from streamopt.dialects.stream.timeline import TimepointAwaitOp as TimepointAwaitOp
from streamopt.dialects.stream.timeline import TimepointBarrierOp as TimepointBarrierOp
from streamopt.dialects.stream.timeline import TimepointImmediateOp as TimepointImmediateOp
from streamopt.dialects.stream.timeline import TimepointJoinOp as TimepointJoinOp
