"""Writing an output file so that it ends up holding either its old contents or all of the new.

`AtomicFile` takes the output piece by piece as it is produced and writes it at once into a
temporary file beside the target, which replaces the target only when the run commits: a big
module is never held in memory as text, and a failed run leaves the previous output alone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from typing import BinaryIO


class AtomicFile:
    """The new contents of the file at `path`, written as they come, in place on `commit`.

    Nothing is created until the first write (or `commit`). A path that is not a regular file
    (`/dev/stdout`, a pipe, `/dev/full`) cannot be replaced by a rename without replacing the
    device: its pieces are kept in memory and written in place on `commit`. A write that fails
    is remembered, not raised: `commit` raises it, so a run reports an unwritable output only
    when it would have written it.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._target = os.path.realpath(path)
        self._existing: os.stat_result | None = None
        self._handle: BinaryIO | None = None
        self._temporary: str | None = None
        self._pieces: list[bytes] | None = None
        self._error: OSError | None = None
        self._started = False
        self._done = False

    def _start(self) -> None:
        self._started = True
        try:
            self._existing = os.stat(self._target)
        except FileNotFoundError:
            self._existing = None
        except OSError as exc:
            self._error = exc
            return
        if self._existing is not None and not stat.S_ISREG(self._existing.st_mode):
            self._pieces = []
            return
        if self._existing is not None and not os.access(self._target, os.W_OK):
            # A rename would replace a file its owner made read-only.
            self._error = PermissionError(errno.EACCES, os.strerror(errno.EACCES), self.path)
            return
        try:
            descriptor, self._temporary = _create_beside(self._target)
        except OSError as exc:
            self._error = exc
            return
        self._handle = os.fdopen(descriptor, "wb")

    def write(self, data: bytes) -> None:
        """Append `data` to the new contents (an error is kept for `commit`)."""
        if not self._started:
            self._start()
        if self._handle is not None:
            try:
                self._handle.write(data)
            except OSError as exc:
                self._error = exc
                self.discard()
        elif self._pieces is not None:
            self._pieces.append(data)

    def tell(self) -> int:
        """A mark of how much was written, for `truncate`."""
        if self._handle is not None:
            return self._handle.tell()
        if self._pieces is not None:
            return len(self._pieces)
        return 0

    def truncate(self, mark: int) -> None:
        """Drop what was written after `tell()` returned `mark`."""
        if self._handle is not None:
            try:
                self._handle.seek(mark)
                self._handle.truncate()
            except OSError as exc:
                self._error = exc
                self.discard()
        elif self._pieces is not None:
            del self._pieces[mark:]

    def commit(self) -> None:
        """Make the file hold exactly what was written. Raises OSError when it cannot."""
        if not self._started:
            self._start()
        if self._error is not None:
            self.discard()
            raise self._error
        self._done = True
        if self._pieces is not None:
            with open(self._target, "wb") as device:
                for piece in self._pieces:
                    device.write(piece)
            self._pieces = None
            return
        handle = self._handle
        temporary = self._temporary
        assert handle is not None and temporary is not None
        try:
            # No fsync: the promise is about failed runs, not power cuts (as for mlir-opt's
            # output files), and an fsync is most of the time a short run spends writing.
            handle.close()
            if self._existing is not None:
                os.chmod(temporary, stat.S_IMODE(self._existing.st_mode))
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(temporary, 0o666 & ~umask)
            os.replace(temporary, self._target)
        except BaseException:
            self._done = False
            self.discard()
            raise
        self._handle = None
        self._temporary = None

    def discard(self) -> None:
        """Forget what was written: the file keeps its old contents (nothing after `commit`)."""
        if self._done:
            return
        self._pieces = None
        if self._handle is not None:
            with contextlib.suppress(OSError):
                self._handle.close()
            self._handle = None
        if self._temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._temporary)
            self._temporary = None


# Attempts at a free temporary name before giving up (each name is taken only if it is
# free: O_EXCL, so a file or link someone else put there is never written through).
_NAME_ATTEMPTS = 1000


def _create_beside(target: str) -> tuple[int, str]:
    """A new empty file, readable and writable only by its owner, in `target`'s folder:
    its descriptor and path. Raises OSError when none can be made."""
    folder, name = os.path.split(target)
    # Not tempfile.mkstemp: importing tempfile costs a short run about 8 ms, and its random
    # names guard shared folders such as /tmp, which O_EXCL already does here.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for attempt in range(_NAME_ATTEMPTS):
        path = os.path.join(folder, f".{name}.{os.getpid()}.{attempt}.tmp")
        try:
            return os.open(path, flags, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", target)
