"""Kernels that dispatches run.

A `Kernel` gets one numpy view per binding, the access of each binding and the push constants,
and writes its results into the views. `DeterministicKernel` stands in for kernels the runtime
does not know: every written binding gets bytes that are a fixed function of the kernel's
symbol, the binding index, the constants and the bytes of every readable binding, so two forms
of one program compute the same bytes (and differ when an input differs).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from streamopt.runtime.params import MemoryAccess

Bytes = npt.NDArray[np.uint8]


class Kernel(Protocol):
    """A dispatchable function."""

    @property
    def name(self) -> str: ...

    def __call__(
        self, views: Sequence[Bytes], accesses: Sequence[MemoryAccess], constants: Sequence[int]
    ) -> None: ...


class DeterministicKernel:
    """A stand-in kernel: outputs are a hash-seeded function of symbol and inputs."""

    def __init__(self, name: str) -> None:
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"DeterministicKernel({self._name!r})"

    def __call__(
        self, views: Sequence[Bytes], accesses: Sequence[MemoryAccess], constants: Sequence[int]
    ) -> None:
        digest = hashlib.blake2b(self._name.encode("utf-8", "surrogateescape"), digest_size=16)
        for constant in constants:
            digest.update(int(constant).to_bytes(8, "little", signed=constant < 0))
        for view, access in zip(views, accesses):
            if access & MemoryAccess.READ:
                digest.update(len(view).to_bytes(8, "little"))
                digest.update(np.ascontiguousarray(view).data)
        seed = digest.digest()
        for index, (view, access) in enumerate(zip(views, accesses)):
            if access & MemoryAccess.WRITE:
                key = int.from_bytes(seed, "little") ^ (index + 1)
                generator = np.random.Generator(np.random.PCG64(key))
                view[:] = generator.integers(0, 256, size=len(view), dtype=np.uint8)
