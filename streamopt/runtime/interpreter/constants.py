"""The bytes of constant attributes (`stream.async.constant` values, `util.buffer.constant`
host data).

Understood: `dense<...> : tensor<...>` (or `vector<...>`) with a splat, a (nested) list or a hex
string, and `dense_resource<name>` blobs from the file's `{-# dialect_resources #-}` section;
for host data also `#util.composite<Nxi8, [...]>` (its values back to back) and strings.
Anything else (parameters, opaque attributes) gets bytes derived from the attribute's text, so
every form of a program still sees the same constant.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np

from streamopt.diagnostics import Location, error
from streamopt.ir.floats import FORMATS, float_from_bits
from streamopt.ir.module import Module
from streamopt.ir.types import Attribute, OpaqueAttr, unescape_string

from .values import parse_tensor_type

_DENSE = re.compile(r"^dense<(.*)>\s*:\s*((?:tensor|vector)<.*>)$", re.S)
_DENSE_RESOURCE = re.compile(r"^dense_resource<([^>]+)>\s*:\s*((?:tensor|vector)<.*>)$", re.S)
_COMPOSITE = re.compile(r"^#util\.composite<\s*(\d+)xi8\s*,\s*\[(.*)\]\s*>$", re.S)
_NUMBER = re.compile(r"true|false|[-+]?(?:0x[0-9a-fA-F]+|\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan)")


def constant_bytes(module: Module, attr: Attribute, size: int, location: Location) -> bytes:
    """`size` bytes holding `attr` (zero padded or truncated to `size`)."""
    attr = module.resolve(attr)
    text = attr.text.strip()
    data: bytes
    match = _DENSE.match(text)
    resource = _DENSE_RESOURCE.match(text)
    if match is not None:
        data = _dense_bytes(match.group(1).strip(), match.group(2), location)
    elif resource is not None:
        data = _resource_bytes(module, resource.group(1).strip(), location)
    else:
        data = _derived_bytes(text, size)
    if len(data) < size:
        data += bytes(size - len(data))
    return data[:size]


def serialized_bytes(module: Module, attr: Attribute, location: Location) -> bytes:
    """The host bytes `util.buffer.constant` serializes `attr` to: a composite's values back
    to back, a string's characters, a dense value's elements."""
    attr = module.resolve(attr)
    text = attr.text.strip()
    composite = _COMPOSITE.match(text)
    if composite is not None:
        data = b"".join(
            serialized_bytes(module, OpaqueAttr(element), location)
            for element in _top_level_elements(composite.group(2))
        )
        length = int(composite.group(1))
        if len(data) != length:
            raise error(f"composite of {length} bytes holds {len(data)} bytes of values", location)
        return data
    if text.startswith('"') and text.endswith('"'):
        return unescape_string(text).encode("utf-8", "surrogateescape")
    match = _DENSE.match(text)
    if match is not None:
        return _dense_bytes(match.group(1).strip(), match.group(2), location)
    resource = _DENSE_RESOURCE.match(text)
    if resource is not None:
        return _resource_bytes(module, resource.group(1).strip(), location)
    raise error(f"cannot serialize '{text}' to host bytes", location)


def _top_level_elements(body: str) -> list[str]:
    """The comma-separated elements of a list body, not splitting nested `<>`, `[]`, `()`,
    `{}` or strings."""
    elements: list[str] = []
    depth = 0
    start = 0
    in_string = False
    index = 0
    while index < len(body):
        ch = body[index]
        if in_string:
            if ch == "\\":
                index += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "<[({":
            depth += 1
        elif ch in ">])}" and not (ch == ">" and body[index - 1 : index] == "-"):
            depth -= 1
        elif ch == "," and depth == 0:
            elements.append(body[start:index].strip())
            start = index + 1
        index += 1
    last = body[start:].strip()
    if last:
        elements.append(last)
    return elements


def _dense_bytes(body: str, type_text: str, location: Location) -> bytes:
    if type_text.startswith("vector<"):
        type_text = "tensor<" + type_text[len("vector<") :]
    try:
        tensor = parse_tensor_type(type_text)
    except ValueError as exc:
        raise error(f"cannot build constant of type '{type_text}': {exc}", location) from None
    count = 1
    for dim in tensor.dims:
        count *= dim if dim is not None else 0
    dtype = tensor.element.dtype
    if body.startswith('"0x') or body.startswith('"0X'):
        raw = bytes.fromhex(body[3:-1])
        per = tensor.element.byte_width
        # A hex splat holds one element.
        return raw * count if len(raw) == per and count > 1 else raw
    words = _NUMBER.findall(body)
    values: list[float | int] = []
    for word in words:
        if word == "true":
            values.append(1)
        elif word == "false":
            values.append(0)
        elif word.startswith("0x") and tensor.element.name in FORMATS:
            # A float's bits (as MLIR prints an infinity or a NaN).
            read = float_from_bits(int(word, 16), tensor.element.name)
            assert read is not None
            values.append(read[0])
        elif word.lower().startswith(("0x", "-0x", "+0x")):
            values.append(int(word, 16))
        elif tensor.element.is_float:
            values.append(float(word))
        else:
            values.append(int(float(word)) if "." in word or "e" in word.lower() else int(word))
    if not values:
        raise error(f"cannot read constant 'dense<{body}>'", location)
    if len(values) == 1 and count != 1:
        values = values * count
    if tensor.element.name == "bf16":
        floats = np.asarray(values, dtype=np.float32).view(np.uint32)
        return (floats >> 16).astype(np.uint16).tobytes()
    if tensor.element.is_float:
        array = np.asarray(values, dtype=np.float64).astype(dtype)
    else:
        width = tensor.element.bits
        mask = (1 << width) - 1 if width < 64 else (1 << 64) - 1
        unsigned = np.asarray([int(v) & mask for v in values], dtype=np.uint64)
        array = unsigned.astype(np.dtype(f"u{tensor.element.byte_width}"))
    return array.tobytes()


def _resource_bytes(module: Module, name: str, location: Location) -> bytes:
    metadata = module.metadata or ""
    match = re.search(re.escape(name) + r'\s*:\s*"0x([0-9a-fA-F]*)"', metadata)
    if match is None:
        raise error(f"no dialect resource '{name}' in the file", location)
    # The blob starts with its 4-byte alignment.
    return bytes.fromhex(match.group(1))[4:]


def _derived_bytes(text: str, size: int) -> bytes:
    out = bytearray()
    counter = 0
    while len(out) < size:
        seed = f"{counter}:{text}".encode("utf-8", "surrogateescape")
        out += hashlib.blake2b(seed, digest_size=64).digest()
        counter += 1
    return bytes(out[:size])
