"""The vocabulary of queue moves, shared by every layer that decides, encodes or reports one.

A queue move hands a buffer to another device (or queue) without copying when the target can
use it as it is, and copies it (alloca on the target, copy, dealloca of the source) when it
cannot. The modes, flags and reasons follow the proposed `hal_device_queue_move` API
(hal-semantics section 4); `MoveStats` counts what moves did. The reference runtime
(`streamopt.runtime`) and the module that implements moves on IREE's runtime
(`streamopt.iree.moves`) both use them, and `--lower-cmd-moves-to-calls` encodes `MoveFlags`
in the call it emits, so this module imports nothing but the standard library.

The runtime call (`--lower-cmd-moves-to-calls` emits it, `streamopt.iree.moves` implements it):

    %result, %result_timepoint = util.call @streamopt.queue_move.L1.L2(%source,
        %source_offset, %length, %source_device, %target_device, %queue_affinity, %flags,
        %await) : (!stream.resource<L1>, index, index, i64, i64, i64, i64, !stream.timepoint)
        -> (!stream.resource<L2>, !stream.timepoint)

moves `length` bytes of `source` from `source_offset` to device `target_device` (an ordinal into
the devices the program runs on, as `#hal.device.target<..., {ordinal = N}>` numbers them) on
the queues of `queue_affinity` (a mask, -1 for any), once `await` is reached; the result is
usable at `result_timepoint`. `source_device` is the ordinal of the device the source comes from
(where a copied source is freed), or -1 when the move does not say (`from`). `flags` holds
`MoveFlags` bits. L1 and L2 are the resource lifetimes of the source and the result
(`queue_move_import`): `util.call` checks types exactly and a symbol has one signature, so each
pair is its own import. In IREE's VM the call is `(!hal.buffer, i64 x 6, !hal.fence) ->
(!hal.buffer, !hal.fence)`; every integer is 64-bit because IREE 3.13's Python modules misread a
ref argument that follows an i32 (the process crashes).
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

QUEUE_MOVE_MODULE = "streamopt"
"""The VM module that implements the runtime call."""

QUEUE_MOVE_FUNCTION = "queue_move"
"""The function's name inside that module (before the lifetimes)."""

UNKNOWN_DEVICE = -1
"""`source_device` of a move that does not say where its source comes from."""

RESOURCE_LIFETIMES = ("external", "staging", "transient", "variable", "constant")
"""The refined lifetimes a resource has in cmd IR (one import per pair of them)."""


def queue_move_import(source_lifetime: str, result_lifetime: str) -> str:
    """`streamopt.queue_move.transient.external`: the imported function moving a resource of
    `source_lifetime` into one of `result_lifetime`."""
    return f"{QUEUE_MOVE_MODULE}.{QUEUE_MOVE_FUNCTION}.{source_lifetime}.{result_lifetime}"


class MoveMode(enum.Enum):
    """How `queue_move` produces its result."""

    ALIAS = "alias"
    """A wrapper over the same root with a new residency; no bytes touched."""
    ALIAS_AFTER_GRANT = "alias_after_grant"
    """Alias once the target device is granted access to the allocation."""
    IMPORT = "import"
    """Alias through an export/import of the allocation into the target device."""
    COPY = "copy"
    """alloca on the target, copy, then dealloca of the source at its origin."""
    UNSUPPORTED = "unsupported"
    """Neither aliasing nor copying can produce a buffer with the requested params."""

    @property
    def is_zero_copy(self) -> bool:
        return self in (MoveMode.ALIAS, MoveMode.ALIAS_AFTER_GRANT, MoveMode.IMPORT)


class MoveFlags(enum.IntFlag):
    """Flags of `query_buffer_move` / `queue_move`."""

    NONE = 0
    REQUIRE_ALIAS = 1 << 0
    """Fail with UNAVAILABLE (nothing enqueued) instead of copying."""
    FORCE_COPY = 1 << 1
    """Always copy (tests, determinism)."""
    ALLOW_GRANT = 1 << 2
    """The device may program access to the allocation to alias it."""
    KEEP_SOURCE = 1 << 3
    """Transfer semantics: the caller keeps the source, so it is copied and never freed."""
    ALLOW_LOW_PERFORMANCE = 1 << 4
    """Aliasing memory that is reachable only remotely (slowly) is acceptable."""


class MoveReason(enum.IntFlag):
    """Why a move copies (or cannot alias)."""

    NONE = 0
    FORCED = 1 << 0
    """FORCE_COPY was given."""
    NO_PEER = 1 << 1
    """The target device cannot reach the source's memory."""
    POOL_ACCESS = 1 << 2
    """The target needs a grant to reach the memory and ALLOW_GRANT was not given."""
    LOW_PERFORMANCE = 1 << 3
    """The memory is reachable only remotely and ALLOW_LOW_PERFORMANCE was not given."""
    TYPE_WIDENED = 1 << 4
    """The requested memory type is not a subset of what the backing is from the target."""
    USAGE_WIDENED = 1 << 5
    """The requested usage is not a subset of the source's usage."""
    ACCESS_WIDENED = 1 << 6
    """The requested access is not a subset of the source's access."""
    SUBSPAN = 1 << 7
    """The moved range is not the whole root allocation."""
    EXTERNAL = 1 << 8
    """The source is imported/external memory, which the runtime never frees."""
    NOT_TERMINAL = 1 << 9
    """The source allocation has other logical owners."""
    KEEP_SOURCE = 1 << 10
    """KEEP_SOURCE was given: the source stays live, so the result must not alias it."""

    def names(self) -> list[str]:
        """The names of the single reasons set, in declaration order."""
        # Plain ints: iterating an IntFlag and testing membership is slow, and this runs for
        # every move (trace arguments and statistics).
        value = int(self)
        return [name for name, bit in _MOVE_REASON_BITS if value & bit]


_MOVE_REASON_BITS: tuple[tuple[str, int], ...] = tuple(
    (member.name, int(member)) for member in MoveReason if member.name and int(member)
)


@dataclass
class MoveStats:
    """What queue moves did."""

    modes: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    rejected: int = 0
    """REQUIRE_ALIAS moves that failed synchronously."""

    @property
    def aliased(self) -> int:
        """Moves that touched no bytes (ALIAS, ALIAS_AFTER_GRANT, IMPORT)."""
        return sum(n for mode, n in self.modes.items() if MoveMode(mode).is_zero_copy)

    @property
    def copied(self) -> int:
        return self.modes[MoveMode.COPY.value]

    def record(self, mode: MoveMode, reasons: MoveReason) -> None:
        self.modes[mode.value] += 1
        for name in reasons.names():
            self.reasons[name] += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "aliased": self.aliased,
            "copied": self.copied,
            "rejected": self.rejected,
            "modes": dict(sorted(self.modes.items())),
            "reasons": dict(sorted(self.reasons.items())),
        }
