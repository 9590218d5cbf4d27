"""Shared fixtures for the runtime tests: a fresh runtime on the default topology and helpers
that make a buffer with known bytes."""

from __future__ import annotations

import numpy as np
import pytest

from streamopt.runtime import BufferParams, Device, Fence, Runtime
from streamopt.runtime.buffers import Buffer


@pytest.fixture
def runtime() -> Runtime:
    return Runtime()


def pattern(size: int, seed: int = 1) -> bytes:
    """`size` bytes that differ from each other and between seeds."""
    return ((np.arange(size, dtype=np.uint32) * 7 + seed * 13) % 251).astype(np.uint8).tobytes()


def make_buffer(
    device: Device,
    data: bytes,
    params: BufferParams | None = None,
    name: str = "src",
) -> tuple[Buffer, Fence]:
    """Queue-alloca a buffer on `device` and update it with `data`; returns the buffer and the
    fence reached once the bytes are in (nothing has run yet)."""
    runtime = device.runtime
    allocated = runtime.create_fence(f"{name}.allocated")
    buffer = device.queue_alloca(
        0, None, allocated, None, params or BufferParams(), len(data), name=name
    )
    written = runtime.create_fence(f"{name}.written")
    device.queue_update(0, allocated, written, data, 0, buffer, 0, len(data))
    return buffer, written
