"""The stream dialect, one module per group of IREE's ops (StreamOps.td): `async_` (async
resource ops), `async_control` (dispatch, functions and calls, execution regions), `tensor`,
`timeline` (timepoints), `resource`, `file`, `channel` (collective channels, the device
context), `parameter` (parameter loads, reads and writes) and `cmd`; `base` holds what they share.

Importing the package registers the stream ops but those of `channel` and `parameter`, which
register when one of their ops is first met (`streamopt.dialects.DEFERRED_MODULES`); the op
classes and the bases other layers read are importable from the package, and those two
modules' from the module."""

from __future__ import annotations

from streamopt.dialects.stream.async_ import *  # noqa: F403
from streamopt.dialects.stream.async_control import *  # noqa: F403
from streamopt.dialects.stream.base import *  # noqa: F403
from streamopt.dialects.stream.cmd import *  # noqa: F403
from streamopt.dialects.stream.file import *  # noqa: F403
from streamopt.dialects.stream.resource import *  # noqa: F403
from streamopt.dialects.stream.tensor import *  # noqa: F403
from streamopt.dialects.stream.timeline import *  # noqa: F403
