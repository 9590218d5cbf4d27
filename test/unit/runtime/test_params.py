"""Flag parsing and printing in IREE's spelling."""

from __future__ import annotations

import pytest

from streamopt.runtime import BufferParams, BufferUsage, MemoryType, MoveReason
from streamopt.runtime.params import DEFAULT_USAGE, format_flags, parse_flags


def test_parse_iree_spelling_matches_iree_bit_values() -> None:
    # HALAttrs.td: DeviceLocal = 0x30, HostVisible = 0x02, HostLocal = 0x46.
    assert parse_flags(MemoryType, "DeviceLocal|HostVisible") == 0x32
    assert parse_flags(MemoryType, "HostLocal") == 0x46
    assert parse_flags(BufferUsage, "TransferSource|DispatchStorage") == 0xC01
    assert parse_flags(MemoryType, "None") == 0


def test_parse_accepts_upper_case_and_rejects_unknown_bits() -> None:
    assert parse_flags(MemoryType, "DEVICE_LOCAL") == MemoryType.DEVICE_LOCAL
    with pytest.raises(ValueError, match="Bogus"):
        parse_flags(MemoryType, "DeviceLocal|Bogus")


def test_format_prefers_composite_names() -> None:
    value = MemoryType.HOST_LOCAL | MemoryType.DEVICE_VISIBLE
    assert format_flags(value) == "HOST_LOCAL|DEVICE_VISIBLE"
    assert parse_flags(MemoryType, format_flags(value)) == value
    assert format_flags(MemoryType.NONE) == "NONE"


def test_zero_params_take_defaults() -> None:
    params = BufferParams(type=MemoryType.DEVICE_LOCAL | MemoryType.OPTIMAL).with_defaults()
    assert params.usage == DEFAULT_USAGE
    assert params.required_type() == MemoryType.DEVICE_LOCAL


def test_move_reason_names_in_declaration_order() -> None:
    reasons = MoveReason.SUBSPAN | MoveReason.NO_PEER
    assert reasons.names() == ["NO_PEER", "SUBSPAN"]
