"""Constant uploads at the hal level: `stream.resource.constants` lowered to host data that a
device imports in place when it can use host memory (a CPU) and reads into its own memory
when it cannot (the discrete device), with the same bytes either way."""

# IR lines cannot wrap.
# ruff: noqa: E501

from __future__ import annotations

import numpy as np
import pytest

from streamopt.diagnostics import DiagnosticError
from streamopt.ir.types import OpaqueAttr
from streamopt.runtime.buffers import Buffer
from streamopt.runtime.interpreter.constants import serialized_bytes
from streamopt.runtime.params import BufferParams, BufferUsage, MemoryType
from streamopt.runtime.system import Runtime
from streamopt.runtime.topology import default_topology

from .interp_util import B, C, module_of, output_bytes, run_ir

VALUES = bytes([1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0])


def upload(affinity: str) -> str:
    return f"""
util.func public @main() -> (!stream.resource<constant>, !stream.resource<constant>) {{
  %c16 = arith.constant 16 : index
  %c8 = arith.constant 8 : index
  %results:2, %result_timepoint = stream.resource.constants on({affinity}) :
    !stream.resource<constant>{{%c16}} = dense<[1, 2, 3, 4]> : tensor<4xi32>,
    !stream.resource<constant>{{%c8}} = dense<7> : tensor<2xi32>
    => !stream.timepoint
  %0:2 = stream.timepoint.await %result_timepoint => %results#0, %results#1 : !stream.resource<constant>{{%c16}}, !stream.resource<constant>{{%c8}}
  util.return %0#0, %0#1 : !stream.resource<constant>, !stream.resource<constant>
}}"""


@pytest.mark.parametrize("affinity", [B, C], ids=["cpu", "discrete"])
def test_hal_upload_computes_the_cmd_level_bytes(affinity: str) -> None:
    cmd = run_ir(upload(affinity))
    hal = run_ir(upload(affinity), passes=["lower-cmd-to-hal"])
    for result in (cmd, hal):
        assert output_bytes(result, 0) == VALUES
        assert output_bytes(result, 1) == bytes([7, 0, 0, 0]) * 2


def test_cpu_uses_the_host_data_in_place() -> None:
    result = run_ir(upload(B), passes=["lower-cmd-to-hal"])
    # Imported: nothing is allocated, read or updated on the device.
    assert result.report()["queue_ops"].get("dev_b", {}) == {}


def test_discrete_device_reads_the_host_data_into_its_memory() -> None:
    result = run_ir(upload(C), passes=["lower-cmd-to-hal"])
    # One read of the packed data (both values, padded to 64 bytes each).
    assert result.report()["queue_ops"]["dev_c"] == {"read": 1}


def _runtime() -> Runtime:
    return Runtime(default_topology())


def test_import_host_shares_the_bytes_and_is_external() -> None:
    runtime = _runtime()
    data = np.arange(8, dtype=np.uint8)
    params = BufferParams(MemoryType.DEVICE_LOCAL, BufferUsage.TRANSFER)
    buffer = runtime.devices["cpu0"].allocator.try_import_host(data, params)
    assert isinstance(buffer, Buffer)
    assert buffer.allocation.external
    data[0] = 42
    assert buffer.read(0, 1) == bytes([42])


def test_import_host_fails_where_host_memory_is_not_device_local() -> None:
    runtime = _runtime()
    params = BufferParams(MemoryType.DEVICE_LOCAL, BufferUsage.TRANSFER)
    data = np.zeros(8, dtype=np.uint8)
    assert runtime.devices["gpu0"].allocator.try_import_host(data, params) is None


def test_composite_bytes_are_the_values_back_to_back() -> None:
    module = module_of("util.func public @f() {\n  util.return\n}")
    text = '#util.composite<24xi8, [dense<[1, 2]> : tensor<2xi32>, dense<0> : vector<8xi8>, dense<-1> : tensor<4xi16>, "ab"]>'
    with pytest.raises(DiagnosticError, match="composite of 24 bytes holds 26 bytes"):
        serialized_bytes(module, OpaqueAttr(text), module.op.location)
    data = serialized_bytes(module, OpaqueAttr(text.replace("24xi8", "26xi8")), module.op.location)
    assert data == bytes([1, 0, 0, 0, 2, 0, 0, 0]) + bytes(8) + b"\xff" * 8 + b"ab"


@pytest.mark.parametrize(
    ("literal", "data"),
    [
        # MLIR prints an infinity or a NaN element by its bits: they are the element's bits.
        ("dense<[0x7F800000, 1.500000e+00]> : tensor<2xf32>", "0000807f0000c03f"),
        ("dense<[0x7C00, 1.000000e-01]> : tensor<2xf16>", "007c662e"),
        ("dense<[0x7F80, 1.000980e-01]> : tensor<2xbf16>", "807fcd3d"),
        (
            "dense<[0xFFF0000000000000, 0.000000e+00]> : tensor<2xf64>",
            "000000000000f0ff" + "00" * 8,
        ),
    ],
)
def test_float_elements_spelled_as_bits_are_those_bits(literal: str, data: str) -> None:
    module = module_of("util.func public @f() {\n  util.return\n}")
    assert serialized_bytes(module, OpaqueAttr(literal), module.op.location).hex() == data
