"""Status codes and errors of the reference HAL.

A `Status` is what a failed semaphore carries and what a synchronous error raises (inside a
`HalError`). `UseAfterMoveError` is the error for touching a buffer handle after it was moved:
it names the buffer, the move that consumed it and the offending use, each with the caller's
`location` object (the interpreter passes IR locations), so a report can point at both ops.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace


class StatusCode(enum.Enum):
    """The subset of `iree_status_code_t` the runtime produces."""

    OK = "OK"
    CANCELLED = "CANCELLED"
    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED"
    NOT_FOUND = "NOT_FOUND"
    RESOURCE_EXHAUSTED = "RESOURCE_EXHAUSTED"
    FAILED_PRECONDITION = "FAILED_PRECONDITION"
    ABORTED = "ABORTED"
    OUT_OF_RANGE = "OUT_OF_RANGE"
    UNIMPLEMENTED = "UNIMPLEMENTED"
    INTERNAL = "INTERNAL"
    UNAVAILABLE = "UNAVAILABLE"


@dataclass(frozen=True)
class Status:
    """A failure: code, message, and the caller's location of the op that failed (if any)."""

    code: StatusCode
    message: str
    location: object | None = None
    error: HalError | None = field(default=None, compare=False, repr=False)
    """The error that failed the op, kept so host waits re-raise it (UseAfterMoveError keeps
    its buffer and move details through every downstream semaphore)."""

    def clone(self, note: str | None = None) -> Status:
        """A copy (as drivers clone a status into every signal), optionally with a note."""
        if note is None:
            return replace(self)
        return replace(self, message=f"{self.message}; {note}")

    def __str__(self) -> str:
        return f"{self.code.value}: {self.message}"


class HalError(Exception):
    """A synchronous error from a runtime call (nothing was enqueued), or a failed host wait."""

    def __init__(self, status: Status) -> None:
        super().__init__(str(status))
        self.status = status

    @staticmethod
    def of(status: Status) -> HalError:
        """The error to raise for a failed wait on `status`: the original error if the
        status came from one (same class and details), else a plain HalError."""
        return status.error if status.error is not None else HalError(status)

    @property
    def code(self) -> StatusCode:
        return self.status.code


def hal_error(code: StatusCode, message: str, location: object | None = None) -> HalError:
    """Shorthand for `HalError(Status(code, message, location))`."""
    return HalError(Status(code, message, location))


@dataclass(frozen=True)
class MoveRecord:
    """The move that consumed a buffer handle: enough to report where it happened."""

    move_id: int
    target_device: str
    mode: str
    location: object | None = None


class UseAfterMoveError(HalError):
    """A buffer handle was used after a queue move consumed it.

    Attributes: `buffer_name` (the handle), `move` (the consuming move and its location), `use`
    (what touched the handle, e.g. "read by queue_copy"), `use_location` (the caller's location
    for that use, if it passed one).
    """

    def __init__(
        self,
        buffer_name: str,
        move: MoveRecord,
        use: str,
        use_location: object | None = None,
    ) -> None:
        where = f" (moved at {move.location})" if move.location is not None else ""
        message = (
            f"use after move: buffer '{buffer_name}' {use}, but it was consumed by move "
            f"#{move.move_id} to '{move.target_device}' ({move.mode}){where}"
        )
        super().__init__(Status(StatusCode.FAILED_PRECONDITION, message, use_location))
        self.buffer_name = buffer_name
        self.move = move
        self.use = use
        self.use_location = use_location
