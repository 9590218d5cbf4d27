"""The buffer constraints IREE's stream lowering packs constants and dispatch operands by.

IREE reads them from a `#stream.resource_config<{...}>` under `stream.resources` on the op or
an ancestor (or from the affinity's device target); without one it uses its host defaults
(`--iree-stream-resource-*` flags): offsets and ranges aligned to 64 bytes, 64-bit indices,
no allocation size limit. streamopt reads the attribute and otherwise uses those defaults,
which are also what IREE's llvm-cpu devices report.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from streamopt.ir.core import Operation
from streamopt.ir.types import Attribute
from streamopt.lazy_regex import lazy_compile

_INT64_MAX = 2**63 - 1
_FIELD = lazy_compile(r"([A-Za-z_]\w*)\s*=\s*(\d+)")


@dataclass(frozen=True)
class ResourceConfig:
    """IREE's `ResourceConfigAttr`: the constraints buffers of one device must meet."""

    max_allocation_size: int = _INT64_MAX
    min_buffer_offset_alignment: int = 64
    min_buffer_range_alignment: int = 64
    index_bits: int = 64

    @classmethod
    def from_text(cls, text: str) -> ResourceConfig:
        """The config a `#stream.resource_config<{...}>` spells; a field it leaves out takes
        the value IREE's attribute parser gives it (0, and 32 for `index_bits`)."""
        fields = {name: int(value) for name, value in _FIELD.findall(text)}
        return cls(
            max_allocation_size=fields.get("max_allocation_size", 0) or _INT64_MAX,
            min_buffer_offset_alignment=max(1, fields.get("min_buffer_offset_alignment", 0)),
            min_buffer_range_alignment=max(1, fields.get("min_buffer_range_alignment", 0)),
            index_bits=fields.get("index_bits", 32),
        )


DEFAULT_RESOURCE_CONFIG = ResourceConfig()


def lookup_resource_config(
    op: Operation, resolve: Callable[[Attribute], Attribute] | None = None
) -> ResourceConfig:
    """The config that applies at `op`: the nearest `stream.resources` attribute on it or an
    ancestor (`resolve` follows attribute aliases), else IREE's host defaults."""
    node: Operation | None = op
    while node is not None:
        attr = node.attributes.get("stream.resources")
        if attr is not None and resolve is not None:
            attr = resolve(attr)
        if attr is not None and "resource_config" in attr.text:
            return ResourceConfig.from_text(attr.text)
        node = node.parent_op
    return DEFAULT_RESOURCE_CONFIG


def align(value: int, alignment: int) -> int:
    """`value` rounded up to a multiple of `alignment`."""
    return -(-value // alignment) * alignment
