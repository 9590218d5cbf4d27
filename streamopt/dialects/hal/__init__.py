"""The hal dialect, one module per group of IREE's ops (HALOps.td): `queue` (device queue
ops), `devices` (fences, allocators, devices, files), `buffers` (element types, buffers, buffer
views) and `command_buffers` (executable lookups, command buffers); `base` holds what they
share. Their ops are those lowering from stream emits and real IREE dumps contain.

Syntax follows the assemblyFormat of IREE's HALOps.td (and the `custom<Bindings>`,
`custom<BindingTable>`, `custom<DeviceQueueAffinityList>` directives of HALOps.cpp). Every op
is declared (streamopt.ir.opdef): its operands in IREE's order and IREE's assembly format, from
which its parser, printer and grammar rule come. Bit-enum attributes (`flags("None")`,
`flags(PreferOrigin)`, `mode("OneShot|AllowInlineExecution")`) are `BitEnumAttr`s printed the
way MLIR prints them.

Importing the package registers every hal op (`streamopt.dialects.load_dialect`); the op
classes are importable from it.
"""

from __future__ import annotations

from streamopt.dialects.hal.base import *  # noqa: F403
from streamopt.dialects.hal.buffers import *  # noqa: F403
from streamopt.dialects.hal.command_buffers import *  # noqa: F403
from streamopt.dialects.hal.devices import *  # noqa: F403
from streamopt.dialects.hal.queue import *  # noqa: F403
