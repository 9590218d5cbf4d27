"""Where the values of a `stream.resource.constants` go in the host data IREE embeds.

IREE's PackConstants packs the values of one upload back to back into storage buffers: each
value starts at an offset aligned to the device's `min_buffer_offset_alignment`, occupies its
storage size, and the buffer is padded so every value's range is aligned to
`min_buffer_range_alignment`; a value that would end past `max_allocation_size` starts a new
buffer. The bytes of a buffer are one `#util.composite<Nxi8, [...]>` attribute listing the
values with `dense<0> : vector<Kxi8>` padding between and after them, which becomes a
`util.buffer.constant`.

The storage size of a value is IREE's rounded physical storage size of its shaped type (one
byte per i1, packed sub-byte elements rounded to a power-of-two word), so only attributes with
a `tensor<...>` or `vector<...>` type (dense, dense_resource, ...) can be packed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from streamopt.diagnostics import Location, error
from streamopt.ir.types import Attribute, FloatType, IndexType, IntegerType, ShapedType
from streamopt.lazy_regex import lazy_compile
from streamopt.lowering.resource_config import ResourceConfig, align
from streamopt.parser import token_values

# The shaped type that ends a serializable attribute: `dense<...> : tensor<4xi32>`.
_TRAILING_SHAPED_TYPE = lazy_compile(r":\s*((?:tensor|vector)<[^<>]*(?:<[^<>]*>[^<>]*)*>)\s*$")


@dataclass
class PackedSpan:
    """One value of the upload: where it lies in its storage buffer."""

    index: int
    """Position of the value (and its result) in the `stream.resource.constants` op."""
    value: Attribute
    offset: int
    length: int
    """Storage size of the value in bytes (before any padding)."""


@dataclass
class StorageBuffer:
    """Host data holding several values, uploaded as one buffer of `total_size` bytes."""

    spans: list[PackedSpan] = field(default_factory=list)
    total_size: int = 0

    def composite(self) -> str:
        """The `#util.composite<Nxi8, [...]>` with the values and the zero padding."""
        values: list[str] = []
        offset = 0
        for span in self.spans:
            if span.length == 0:
                continue
            if span.offset > offset:
                values.append(_zeros(span.offset - offset))
            values.append(span.value.text)
            offset = span.offset + span.length
        if self.total_size > offset:
            values.append(_zeros(self.total_size - offset))
        return f"#util.composite<{self.total_size}xi8, [{', '.join(values)}]>"


def _zeros(count: int) -> str:
    return f"dense<0> : vector<{count}xi8>"


def storage_size(value: Attribute) -> int | None:
    """IREE's storage size of a serializable constant: the rounded physical size of the
    shaped type it ends with, or None if it has none streamopt can measure."""
    match = _TRAILING_SHAPED_TYPE.search(value.text)
    if match is None:
        return None
    shaped = token_values.type_from_text(match.group(1))
    if not isinstance(shaped, ShapedType):
        return None
    count = 1
    for dim in shaped.shape:
        if dim is None:
            return None
        count *= dim
    bits = _element_bits(shaped.element_type_text)
    if bits is None:
        return None
    return _rounded_physical_storage_size(count, bits)


def _element_bits(text: str) -> int | None:
    element = token_values.type_from_text(text)
    if isinstance(element, IntegerType):
        return element.width
    if isinstance(element, IndexType):
        return 64
    if isinstance(element, FloatType):
        return element.width
    return None


def _rounded_physical_storage_size(count: int, bits: int) -> int:
    """IREE's `getRoundedPhysicalStorageSize`: i1 as bytes, byte-sized elements as they
    are, sub-byte and odd widths packed into power-of-two words of at least two elements."""
    if bits == 1:
        return count
    if bits in (8, 16, 32, 64):
        return count * bits // 8
    desired = min(bits * 2, 64)
    word_bytes = 1
    while word_bytes * 8 < desired:
        word_bytes *= 2
    word_bits = word_bytes * 8
    per_word = word_bits // bits
    unaligned_bits = -(-count // per_word) * word_bits
    return -(-align(unaligned_bits, word_bits) // 8)


def pack_constants(
    values: list[tuple[int, Attribute, int]], config: ResourceConfig
) -> list[StorageBuffer]:
    """Lay out `(index, value, storage size)` in order into storage buffers, as IREE's
    `computePackingMap` does."""
    buffers = [StorageBuffer()]
    current = buffers[0]
    for index, value, length in values:
        offset = align(current.total_size, config.min_buffer_offset_alignment)
        padded = align(length, config.min_buffer_range_alignment)
        if offset + length > config.max_allocation_size:
            current = StorageBuffer()
            buffers.append(current)
            offset = 0
        current.spans.append(PackedSpan(index, value, offset, length))
        current.total_size = max(current.total_size, offset + padded)
    return [b for b in buffers if b.spans]


def check_upload_lifetime(lifetime: str, location: Location) -> None:
    """IREE uploads only `constant` and `variable` resources."""
    if lifetime not in ("constant", "variable"):
        raise error(
            f"cannot upload constants of lifetime '{lifetime}' (IREE uploads 'constant' and "
            "'variable' resources)",
            location,
        )


def checked_storage_size(value: Attribute, location: Location) -> int:
    """`storage_size(value)`, or an error for a value streamopt cannot lay out."""
    size = storage_size(value)
    if value.text.startswith("#stream.parameter") or size is None:
        raise error(
            f"cannot upload constant '{value.text}': streamopt uploads only values with a "
            "static tensor or vector type (not parameters)",
            location,
        )
    return size
