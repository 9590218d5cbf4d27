"""Types and attributes.

Both are immutable values that print as text. The ones passes read are structured (resource
lifetimes, affinities, the topology, integers, strings, arrays, dictionaries, symbol references);
everything else is an `OpaqueType`/`OpaqueAttr` holding its text. A value parsed from text keeps
that exact text, so printing it back is byte for byte; a value built by a pass prints in the
canonical form IREE uses.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from streamopt.lazy_regex import lazy_compile


class Type:
    """Base of all types: compared and hashed by kind and canonical key."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def key(self) -> Any:
        return self.text

    def __eq__(self, other: object) -> bool:
        return other is self or (type(other) is type(self) and other.key() == self.key())

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.key()))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text!r})"


class OpaqueType(Type):
    """A type streamopt does not interpret, kept as written."""

    __slots__ = ()


class IndexType(Type):
    __slots__ = ()

    def __init__(self, text: str = "index") -> None:
        super().__init__(text)


class IntegerType(Type):
    """`iN`, `siN` or `uiN`."""

    __slots__ = ("signedness", "width")

    def __init__(self, width: int, signedness: str = "", text: str | None = None) -> None:
        super().__init__(text if text is not None else f"{signedness}i{width}")
        self.width = width
        self.signedness = signedness

    def key(self) -> Any:
        return (self.signedness, self.width)


class FloatType(Type):
    """A builtin float type such as `f32`, `bf16` or `f8E4M3FN`."""

    __slots__ = ()

    @property
    def width(self) -> int:
        """Its bits, as MLIR's FloatType::getWidth counts them: the number after `f` (`f16`,
        `bf16`, `f8E4M3FN`), 19 for tf32."""
        if self.text == "tf32":
            return 19
        start = self.text.index("f") + 1
        end = start
        while end < len(self.text) and self.text[end].isdigit():
            end += 1
        return int(self.text[start:end]) if end > start else 0


class ShapedType(Type):
    """`tensor<...>`, `vector<...>` or `memref<...>`: shape and element type read lazily."""

    __slots__ = ()

    @property
    def kind(self) -> str:
        return self.text[: self.text.index("<")]

    @property
    def shape(self) -> list[int | None]:
        """Dimensions, None for dynamic ones (`?`); a scalable one (`[4]`) is its base size."""
        return list(split_shaped_type(self.text)[0])

    @property
    def element_type_text(self) -> str:
        """The element type (`f32`, `complex<f32>`, `index`), without encoding or layout."""
        return split_shaped_type(self.text)[1]


# The dimensions that open a shaped type's body: `4x?x[8]x`, each followed by an `x` (blanks
# may stand between them, as MLIR's lexer takes them: `4x 4xf32`).
_SHAPE_PREFIX = lazy_compile(r"(?:(?:\d+|\?|\[\d+\])[ \t]*x[ \t]*)*")


@functools.lru_cache(maxsize=4096)
def split_shaped_type(text: str) -> tuple[tuple[int | None, ...], str]:
    """The dimensions and element type of shaped type `text` (`tensor<?x4xf32, #enc>`)."""
    body = text[text.index("<") + 1 : -1].strip()
    match = _SHAPE_PREFIX.match(body)
    prefix = match.group() if match else ""
    parts = prefix.split("x")[:-1]
    dims = tuple(None if part.strip() == "?" else int(part.strip(" \t[]")) for part in parts)
    element = body[len(prefix) :]
    # The element type ends at an encoding or layout after it (`, #enc`), outside the element
    # type's own brackets (`complex<f32>`, `vector<4xi8>`).
    depth = 0
    for i, char in enumerate(element):
        if char in "<([{":
            depth += 1
        elif char in ">)]}":
            depth -= 1
        elif char == "," and depth == 0:
            element = element[:i]
            break
    return dims, element.strip()


class ResourceType(Type):
    """`!stream.resource<L>` with lifetime L in `*`, external, staging, transient, variable,
    constant."""

    __slots__ = ("lifetime",)

    LIFETIMES = ("*", "external", "staging", "transient", "variable", "constant")

    def __init__(self, lifetime: str, text: str | None = None) -> None:
        super().__init__(text if text is not None else f"!stream.resource<{lifetime}>")
        self.lifetime = lifetime

    def key(self) -> Any:
        return self.lifetime


class DialectType(Type):
    """A parameterless dialect type such as `!stream.timepoint` or `!hal.buffer`."""

    __slots__ = ()


class FunctionType(Type):
    """`(inputs) -> results`."""

    __slots__ = ("inputs", "results")

    def __init__(
        self, inputs: Iterable[Type], results: Iterable[Type], text: str | None = None
    ) -> None:
        self.inputs = tuple(inputs)
        self.results = tuple(results)
        if text is None:
            ins = ", ".join(t.text for t in self.inputs)
            if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
                outs = self.results[0].text
            else:
                outs = "(" + ", ".join(t.text for t in self.results) + ")"
            text = f"({ins}) -> {outs}"
        super().__init__(text)

    def key(self) -> Any:
        return (self.inputs, self.results)


INDEX = IndexType()
I1 = IntegerType(1)
I32 = IntegerType(32)
I64 = IntegerType(64)
TIMEPOINT = DialectType("!stream.timepoint")
STREAM_FILE = DialectType("!stream.file")
HAL_DEVICE = DialectType("!hal.device")
HAL_BUFFER = DialectType("!hal.buffer")
HAL_FENCE = DialectType("!hal.fence")
HAL_BUFFER_VIEW = DialectType("!hal.buffer_view")
HAL_COMMAND_BUFFER = DialectType("!hal.command_buffer")
HAL_ALLOCATOR = DialectType("!hal.allocator")
UTIL_BUFFER = DialectType("!util.buffer")


class TypeConstraint:
    """A type constraint of an op definition (ODS): which types an operand may have, and how
    MLIR's verifier describes them (`operand #2 must be index, but got 'i32'`)."""

    __slots__ = ("accepts", "description", "kind")

    def __init__(
        self, description: str, accepts: Callable[[Type], bool], kind: str | None = None
    ) -> None:
        self.description = description
        self.accepts = accepts
        # The C++ type class ODS's parser reads a spelled type of such a field as (`util.buffer`
        # for IREE's Util_BufferType): another kind of type is refused where it is written.
        self.kind = kind


def _one_of(*types: Type) -> Callable[[Type], bool]:
    return lambda t: t in types


INDEX_CONSTRAINT = TypeConstraint("index", _one_of(IndexType()))
I1_CONSTRAINT = TypeConstraint("1-bit signless integer", _one_of(I1))
I32_CONSTRAINT = TypeConstraint("32-bit signless integer", _one_of(I32))
I64_CONSTRAINT = TypeConstraint("64-bit signless integer", _one_of(I64))
TIMEPOINT_CONSTRAINT = TypeConstraint("a timepoint", _one_of(TIMEPOINT))
RESOURCE_CONSTRAINT = TypeConstraint("a resource", lambda t: isinstance(t, ResourceType))
HAL_DEVICE_CONSTRAINT = TypeConstraint("device", _one_of(HAL_DEVICE))
HAL_FENCE_CONSTRAINT = TypeConstraint("fence", _one_of(HAL_FENCE))
HAL_BUFFER_CONSTRAINT = TypeConstraint("buffer", _one_of(HAL_BUFFER))
HAL_BUFFER_VIEW_CONSTRAINT = TypeConstraint("buffer_view", _one_of(HAL_BUFFER_VIEW))
HAL_COMMAND_BUFFER_CONSTRAINT = TypeConstraint("command_buffer", _one_of(HAL_COMMAND_BUFFER))
HAL_ALLOCATOR_CONSTRAINT = TypeConstraint("allocator", _one_of(HAL_ALLOCATOR))
UTIL_BUFFER_CONSTRAINT = TypeConstraint(
    "A reference counted byte buffer.", _one_of(UTIL_BUFFER), kind="util.buffer"
)
# The constraint ODS names by each of these types (a result declared `I32:$status`).
CONSTRAINT_OF: dict[Type, TypeConstraint] = {
    INDEX: INDEX_CONSTRAINT,
    I1: I1_CONSTRAINT,
    I32: I32_CONSTRAINT,
    I64: I64_CONSTRAINT,
    TIMEPOINT: TIMEPOINT_CONSTRAINT,
    HAL_DEVICE: HAL_DEVICE_CONSTRAINT,
    HAL_FENCE: HAL_FENCE_CONSTRAINT,
    HAL_BUFFER: HAL_BUFFER_CONSTRAINT,
    HAL_BUFFER_VIEW: HAL_BUFFER_VIEW_CONSTRAINT,
    HAL_COMMAND_BUFFER: HAL_COMMAND_BUFFER_CONSTRAINT,
    HAL_ALLOCATOR: HAL_ALLOCATOR_CONSTRAINT,
    UTIL_BUFFER: UTIL_BUFFER_CONSTRAINT,
}
# And the other way: a value of a field so constrained is of that type (ODS's BuildableType).
BUILDABLE_TYPE: dict[TypeConstraint, Type] = {c: t for t, c in CONSTRAINT_OF.items()}


def is_primitive(type: Type) -> bool:
    """An index, integer, float or complex type (IREE's Stream_PrimitiveType; what
    ObjectType::isCompatible refuses)."""
    return isinstance(type, IndexType | IntegerType | FloatType) or type.text.startswith("complex<")


def signless_integer(*widths: int) -> TypeConstraint:
    """ODS's AnyTypeOf<[I8, I16, ...]>: a signless integer of one of `widths` bits."""
    return TypeConstraint(
        " or ".join(f"{width}-bit signless integer" for width in widths),
        lambda t: isinstance(t, IntegerType) and not t.signedness and t.width in widths,
    )


def resource_type(lifetime: str = "*") -> ResourceType:
    return ResourceType(lifetime)


# -------------------------------------------------------------------------------------------
# Attributes


class Attribute:
    """Base of all attributes: compared and hashed by kind and canonical key."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def key(self) -> Any:
        return self.text

    def __eq__(self, other: object) -> bool:
        return other is self or (type(other) is type(self) and other.key() == self.key())

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.key()))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text!r})"


class OpaqueAttr(Attribute):
    """An attribute streamopt does not interpret, kept as written."""

    __slots__ = ()


class UnitAttr(Attribute):
    """Presence-only attribute (a dictionary key with no value)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("unit")


UNIT = UnitAttr()


class BoolAttr(Attribute):
    __slots__ = ("value",)

    def __init__(self, value: bool) -> None:
        super().__init__("true" if value else "false")
        self.value = value


class IntegerAttr(Attribute):
    """An integer with an optional type (`16 : index`; a bare `16` is i64)."""

    __slots__ = ("type", "value")

    def __init__(self, value: int, type: Type | None = None, text: str | None = None) -> None:
        if text is None:
            text = str(value) if type is None else f"{value} : {type.text}"
        super().__init__(text)
        self.value = value
        self.type = type

    def key(self) -> Any:
        return (self.value, self.type)


class FloatAttr(Attribute):
    __slots__ = ("type", "value")

    def __init__(self, value: float, type: Type | None, text: str) -> None:
        super().__init__(text)
        self.value = value
        self.type = type


def _escape(value: str) -> str:
    """`value` spelled as MLIR prints a string (llvm::printEscapedString): printable ASCII but
    `"` as it is, `\\` doubled, and every other byte as `\\XX`."""
    out = []
    for ch in value:
        if ch == "\\":
            out.append("\\\\")
        elif 32 <= ord(ch) < 127 and ch != '"':
            out.append(ch)
        else:
            # A byte the input did not decode (see decode_source) is that byte again.
            out.extend(f"\\{b:02X}" for b in ch.encode("utf-8", "surrogateescape"))
    return "".join(out)


def unescape_string(literal: str) -> str:
    """The value of an MLIR string literal (with its quotes)."""
    body = literal[1:-1]
    if "\\" not in body:
        return body
    out = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in '"\\':
                out += nxt.encode()
                i += 2
                continue
            if nxt == "n":
                out += b"\n"
                i += 2
                continue
            if nxt == "t":
                out += b"\t"
                i += 2
                continue
            hexpair = body[i + 1 : i + 3]
            if len(hexpair) == 2 and all(c in "0123456789abcdefABCDEF" for c in hexpair):
                out.append(int(hexpair, 16))
                i += 3
                continue
        out += ch.encode("utf-8", "surrogateescape")
        i += 1
    # Escapes of bytes that are not UTF-8 stay those bytes (see decode_source).
    return out.decode("utf-8", "surrogateescape")


class StringAttr(Attribute):
    __slots__ = ("value",)

    def __init__(self, value: str, text: str | None = None) -> None:
        super().__init__(text if text is not None else f'"{_escape(value)}"')
        self.value = value

    def key(self) -> Any:
        return self.value


class SymbolRefAttr(Attribute):
    """`@root` or `@root::@nested`."""

    __slots__ = ("path",)

    def __init__(self, path: Iterable[str], text: str | None = None) -> None:
        self.path = tuple(path)
        if text is None:
            text = "::".join("@" + symbol_spelling(p) for p in self.path)
        super().__init__(text)

    @property
    def root(self) -> str:
        return self.path[0]

    @property
    def leaf(self) -> str:
        return self.path[-1]

    def key(self) -> Any:
        return self.path


def symbol_spelling(name: str) -> str:
    """Symbol `name` as MLIR prints it after its `@`: bare when it is a bare identifier (a
    letter or `_`, then letters, digits and `_$.`; no `-`), else a quoted, escaped string."""
    if (
        name
        and (name[0].isalpha() or name[0] == "_")
        and all(c.isalnum() or c in "_$." for c in name)
    ):
        return name
    return f'"{_escape(name)}"'


_symbol_refs: dict[str, SymbolRefAttr] = {}


def symbol_ref_from_text(text: str) -> SymbolRefAttr:
    """The SymbolRefAttr of `@a::@b` text (quoted names allowed).

    Attributes are never changed in place, so one object serves every use of a spelling (a
    dump names the same few symbols on thousands of ops)."""
    found = _symbol_refs.get(text)
    if found is None:
        parts = []
        for piece in _split_symbol_path(text):
            name = piece[1:]
            parts.append(unescape_string(name) if name.startswith('"') else name)
        spelling = str(text)
        found = _symbol_refs[spelling] = SymbolRefAttr(parts, spelling)
    return found


_symbol_refs_by_name: dict[str, SymbolRefAttr] = {}


def symbol_ref(name: str) -> SymbolRefAttr:
    """The SymbolRefAttr `@name`, one object per name (as `symbol_ref_from_text`: a lowering
    names the same few globals on thousands of ops)."""
    found = _symbol_refs_by_name.get(name)
    if found is None:
        found = _symbol_refs_by_name[name] = SymbolRefAttr([name])
    return found


_integer_attrs: dict[tuple[int, Type], IntegerAttr] = {}
# Lowerings make constants of a few values and types; a bound keeps a long-lived process
# (the tests) from holding every value it ever saw.
_INTEGER_ATTRS_KEPT = 4096


def integer_attr(value: int, type: Type) -> IntegerAttr:
    """The IntegerAttr `value : type`, one object per value and type while there are few:
    attributes are never changed in place, and a lowered module holds a constant per op."""
    if value.__class__ is not int:  # A bool is an int, but prints as True or False.
        return IntegerAttr(value, type)
    key = (value, type)
    found = _integer_attrs.get(key)
    if found is None:
        found = IntegerAttr(value, type)
        if len(_integer_attrs) < _INTEGER_ATTRS_KEPT:
            _integer_attrs[key] = found
    return found


def _split_symbol_path(text: str) -> list[str]:
    pieces: list[str] = []
    i = 0
    start = 0
    in_string = False
    while i < len(text):
        ch = text[i]
        if in_string:
            if ch == "\\":
                i += 2
                continue
            if ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif text.startswith("::", i):
            pieces.append(text[start:i])
            i += 2
            start = i
            continue
        i += 1
    pieces.append(text[start:])
    return pieces


class TypeAttr(Attribute):
    __slots__ = ("type",)

    def __init__(self, type: Type) -> None:
        super().__init__(type.text)
        self.type = type

    def key(self) -> Any:
        return self.type


def nesting_depth(attr: Attribute) -> int:
    """How many arrays and dictionaries deep `attr` nests (0 for other attributes)."""
    return attr.depth if isinstance(attr, (ArrayAttr, DictAttr)) else 0


class ArrayAttr(Attribute):
    __slots__ = ("depth", "elements")

    def __init__(self, elements: Iterable[Attribute], text: str | None = None) -> None:
        self.elements = tuple(elements)
        # Kept per attribute (no recursion) so the parser can refuse absurdly deep nests.
        self.depth: int = 1 + max(map(nesting_depth, self.elements), default=0)
        if text is None:
            text = "[" + ", ".join(e.text for e in self.elements) + "]"
        super().__init__(text)

    def key(self) -> Any:
        return self.elements


class DictAttr(Attribute):
    """An attribute dictionary. Entry order is kept as written; it prints sorted by name."""

    __slots__ = ("depth", "entries")

    def __init__(self, entries: Mapping[str, Attribute], text: str | None = None) -> None:
        self.entries = dict(entries)
        self.depth: int = 1 + max(map(nesting_depth, self.entries.values()), default=0)
        if text is None:
            text = print_attr_dict(self.entries)
        super().__init__(text)

    def key(self) -> Any:
        return tuple(sorted(self.entries.items(), key=lambda kv: kv[0]))

    def get(self, name: str) -> Attribute | None:
        return self.entries.get(name)


def _entry_name(entry: tuple[str, Attribute]) -> str:
    return entry[0]


def attr_name_spelling(name: str) -> str:
    """A dictionary key as MLIR prints it (quoted unless a bare identifier)."""
    if (
        name
        and (name[0].isalpha() or name[0] == "_")
        and all(c.isalnum() or c in "_$." for c in name)
    ):
        return name
    return f'"{_escape(name)}"'


def typed_text(attribute: Attribute) -> str:
    """`attribute` as MLIR prints it where the type is never elided (an op's value, a
    dictionary's entry; an array's elements elide it): an untyped integer as an i64, an
    untyped float as an f64."""
    if isinstance(attribute, (IntegerAttr, FloatAttr)) and attribute.type is None:
        return f"{attribute.text} : {'i64' if isinstance(attribute, IntegerAttr) else 'f64'}"
    return attribute.text


def print_attr_dict(entries: Mapping[str, Attribute]) -> str:
    """`{a = 1, b}` with unit attributes printed as bare keys, sorted by name as MLIR keeps a
    DictionaryAttr (a file iree-opt printed has them sorted already)."""
    parts = []
    items = sorted(entries.items(), key=_entry_name) if len(entries) > 1 else entries.items()
    for name, value in items:
        spelled = attr_name_spelling(name)
        if isinstance(value, UnitAttr):
            parts.append(spelled)
        else:
            parts.append(f"{spelled} = {typed_text(value)}")
    return "{" + ", ".join(parts) + "}"


class AliasAttr(Attribute):
    """A reference to an attribute alias defined at the top of the file (`#map`)."""

    __slots__ = ()

    @property
    def alias_name(self) -> str:
        return self.text


class AffinityAttr(Attribute):
    """`#hal.device.affinity<@dev>` / `#hal.device.promise<@dev>`, optionally with queues."""

    __slots__ = ("device", "kind", "queues")

    def __init__(
        self,
        device: str,
        queues: Iterable[int] | None = None,
        kind: str = "affinity",
        text: str | None = None,
    ) -> None:
        self.device = device
        self.queues = tuple(queues) if queues is not None else None
        self.kind = kind
        if text is None:
            queue_text = (
                ", [" + ", ".join(str(q) for q in self.queues) + "]"
                if self.queues is not None
                else ""
            )
            text = f"#hal.device.{kind}<@{symbol_spelling(device)}{queue_text}>"
        super().__init__(text)

    def key(self) -> Any:
        return (self.kind, self.device, self.queues)

    @property
    def devices(self) -> tuple[str, ...]:
        return (self.device,)


class OptimalAffinityAttr(Attribute):
    """`#hal.device.optimal<[a, b]>`: memory shared by several affinities."""

    __slots__ = ("affinities",)

    def __init__(self, affinities: Iterable[Attribute], text: str | None = None) -> None:
        self.affinities = tuple(affinities)
        if text is None:
            text = "#hal.device.optimal<[" + ", ".join(a.text for a in self.affinities) + "]>"
        super().__init__(text)

    def key(self) -> Any:
        return self.affinities

    @property
    def devices(self) -> tuple[str, ...]:
        out: list[str] = []
        for affinity in self.affinities:
            for device in getattr(affinity, "devices", ()):
                if device not in out:
                    out.append(device)
        return tuple(out)


class TopologyLink:
    """One directed edge of a topology: `(@src -> @dst = {props})`."""

    __slots__ = ("destination", "properties", "source")

    def __init__(self, source: str, destination: str, properties: Mapping[str, Attribute]):
        self.source = source
        self.destination = destination
        self.properties = dict(properties)

    def flag(self, name: str) -> bool:
        value = self.properties.get(name)
        return (isinstance(value, BoolAttr) and value.value) or isinstance(value, UnitAttr)

    def key(self) -> Any:
        return (self.source, self.destination, tuple(sorted(self.properties.items())))


class TopologyAttr(Attribute):
    """`#hal.device.topology<links = [...]>`."""

    __slots__ = ("links",)

    def __init__(self, links: Iterable[TopologyLink], text: str | None = None) -> None:
        self.links = tuple(links)
        if text is None:
            body = ", ".join(
                f"(@{symbol_spelling(link.source)} -> @{symbol_spelling(link.destination)}"
                f" = {print_attr_dict(link.properties)})"
                for link in self.links
            )
            text = f"#hal.device.topology<links = [{body}]>"
        super().__init__(text)

    def key(self) -> Any:
        return tuple(link.key() for link in self.links)

    def link(self, source: str, destination: str) -> TopologyLink | None:
        for link in self.links:
            if link.source == source and link.destination == destination:
                return link
        return None

    def has_unified_memory(self, source: str, destination: str) -> bool:
        """True if `source` memory is usable by `destination` as-is (a device is unified with
        itself)."""
        if source == destination:
            return True
        link = self.link(source, destination)
        return link is not None and link.flag("unified_memory")
