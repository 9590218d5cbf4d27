"""Scalar dispatch operands at every level: the hal lowering packs an index into two i32 push
constants, and the kernel (whose code still takes an index) sees the same value as at the
async and cmd levels, so every form computes the same bytes."""

# IR lines cannot wrap.
# ruff: noqa: E501

from __future__ import annotations

import pytest

from streamopt.ir.module import Module
from streamopt.parser import parse_module
from streamopt.runtime.interpreter.kernels import ExecutableIndex

from .interp_util import A, output_bytes, run_ir

EXECUTABLE = """
stream.executable private @ex {
  stream.executable.export public @fn workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    stream.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fn(%arg0: index, %arg1: f32, %arg2: !stream.binding, %arg3: i64, %arg4: !stream.binding) {
      %c0 = arith.constant 0 : index
      %0 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xi8>>
      %1 = stream.binding.subspan %arg4[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi8>>
      return
    }
  }
}
"""


def program(count: int) -> str:
    return (
        EXECUTABLE
        + f"""
util.func public @main() -> !stream.resource<external> {{
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %n = arith.constant {count} : index
  %f = arith.constant 1.5 : f32
  %k = arith.constant -3 : i64
  %c1_i8 = arith.constant 1 : i8
  %0 = stream.async.splat on({A}) %c1_i8 : i8 -> !stream.resource<transient>{{%c16}}
  %1 = stream.async.dispatch on({A}) @ex::@fn[%n](%n, %f, %0[%c0 to %c16 for %c16], %k) : (index, f32, !stream.resource<transient>{{%c16}}, i64) -> !stream.resource<external>{{%c16}}
  util.return %1 : !stream.resource<external>
}}"""
    )


@pytest.mark.parametrize("count", [3, 5_000_000_000])
def test_packed_operands_reach_the_kernel_unchanged(count: int) -> None:
    expected = output_bytes(run_ir(program(count)))
    for passes in (["lower-to-cmd"], ["lower-to-cmd", "pack-dispatch-operands"], ["lower-to-hal"]):
        assert output_bytes(run_ir(program(count), passes=passes)) == expected, passes


def test_the_operand_value_matters() -> None:
    # Otherwise the test above could not fail.
    assert output_bytes(run_ir(program(3), passes=["lower-to-hal"])) != output_bytes(
        run_ir(program(4), passes=["lower-to-hal"])
    )


def _index() -> ExecutableIndex:
    module: Module = parse_module(EXECUTABLE, "ex.mlir")
    return ExecutableIndex(module)


def test_kernel_constants_rebuild_64_bit_arguments_from_words() -> None:
    index = _index()
    # index, f32, i64: five words once packed.
    words = [0x2A05F200, 0x1, 0x3FC00000, 0xFFFFFFFD, 0xFFFFFFFF]
    assert index.kernel_constants("ex", "fn", words) == [5_000_000_000, 0x3FC00000, 2**64 - 3]


def test_kernel_constants_pass_unpacked_or_unknown_words() -> None:
    index = _index()
    assert index.kernel_constants("ex", "fn", [1, 2, 3]) == [1, 2, 3]
    assert index.kernel_constants("ex", "other", [1, 2]) == [1, 2]
    assert index.kernel_constants("missing", "fn", [1, 2]) == [1, 2]
