"""The hal dialect: the device queue, fence, allocator, buffer view and command buffer ops that
lowering from stream emits and real IREE dumps contain.

Syntax follows the assemblyFormat of IREE's HALOps.td (and the `custom<Bindings>`,
`custom<BindingTable>`, `custom<DeviceQueueAffinityList>` directives of HALOps.cpp). Most ops
have a fixed operand list and a fixed syntax: they declare their operands in IREE's order and a
`syntax` template that both prints the op and tells `from_parse` the order in which the grammar
hands over its parts. Bit-enum attributes (`flags("None")`, `flags(PreferOrigin)`,
`mode("OneShot|AllowInlineExecution")`) are `BitEnumAttr`s printed the way MLIR prints them.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from streamopt.diagnostics import UNKNOWN_LOCATION, Diagnostic, DiagnosticError, Location, error
from streamopt.dialects import parse_rule, register_op, unmodelled_check
from streamopt.dialects.builtin import OpaqueOp
from streamopt.dialects.common import (
    SegmentedOp,
    check_operand_type,
    require_index_type,
    split_clauses,
)
from streamopt.ir.core import Access, Operation, RegionKind, Value, shared_attributes
from streamopt.ir.types import (
    HAL_ALLOCATOR,
    HAL_BUFFER,
    HAL_BUFFER_CONSTRAINT,
    HAL_BUFFER_VIEW,
    HAL_BUFFER_VIEW_CONSTRAINT,
    HAL_COMMAND_BUFFER,
    HAL_COMMAND_BUFFER_CONSTRAINT,
    HAL_DEVICE,
    HAL_DEVICE_CONSTRAINT,
    HAL_FENCE,
    HAL_FENCE_CONSTRAINT,
    I1,
    I32,
    I32_CONSTRAINT,
    I64,
    I64_CONSTRAINT,
    INDEX,
    INDEX_CONSTRAINT,
    Attribute,
    DialectType,
    IntegerAttr,
    IntegerType,
    OpaqueAttr,
    ShapedType,
    StringAttr,
    SymbolRefAttr,
    Type,
    TypeAttr,
    TypeConstraint,
    symbol_ref_from_text,
)
from streamopt.parser import interpret
from streamopt.parser.parts import TOKEN_CLASSES, AttrDict, Clause
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


# -- bit enums --------------------------------------------------------------------------------


class BitEnum:
    """A HAL bit-enum attribute kind: its cases in IREE's declaration order."""

    def __init__(self, name: str, cases: Sequence[tuple[str, int]]) -> None:
        self.name = name
        self.cases = tuple(cases)
        self.by_name = dict(self.cases)
        # One attribute per value (attributes are never changed in place): a lowered module
        # has a `flags` on most ops.
        self._attrs: dict[int, BitEnumAttr] = {}

    def parse(self, text: str) -> int | None:
        """The value of `A|B` (names joined by `|`), or None if a name is unknown."""
        value = 0
        for piece in text.split("|"):
            case = self.by_name.get(piece.strip())
            if case is None:
                return None
            value |= case
        return value

    def stringify(self, value: int) -> str:
        """MLIR's spelling: every case whose bits are all set, in declaration order."""
        if value == 0:
            return next((name for name, bits in self.cases if bits == 0), "None")
        return "|".join(name for name, bits in self.cases if bits and value & bits == bits)

    def attr(self, value: int | str) -> BitEnumAttr:
        """The attribute for `value` (an int or a spelling such as "PreferOrigin")."""
        if isinstance(value, str):
            parsed = self.parse(value)
            if parsed is None:
                raise ValueError(f"{value!r} is not a {self.name} value")
            value = parsed
        found = self._attrs.get(value)
        if found is None:
            found = self._attrs[value] = BitEnumAttr(self, value)
        return found

    def expected(self) -> str:
        return "[" + ", ".join(name for name, _ in self.cases) + "]"


class BitEnumAttr(Attribute):
    """A value of a `BitEnum`, printed bare when it is one bit (`PreferOrigin`) and quoted
    otherwise (`"None"`, `"Transfer|Dispatch"`), as MLIR prints bit enums."""

    __slots__ = ("enum", "value")

    def __init__(self, enum: BitEnum, value: int) -> None:
        spelling = enum.stringify(value)
        single_bit = value != 0 and value & (value - 1) == 0
        super().__init__(spelling if single_bit else f'"{spelling}"')
        self.enum = enum
        self.value = value

    def key(self) -> Any:
        return (self.enum.name, self.value)

    def __contains__(self, name: str) -> bool:
        """True if case `name` is set."""
        bits = self.enum.by_name[name]
        return self.value & bits == bits


def _flags(name: str, *extra: tuple[str, int]) -> BitEnum:
    return BitEnum(name, (("None", 0), *extra))


ALLOCA_FLAGS = _flags("AllocaFlag", ("IndeterminateLifetime", 1))
DEALLOCA_FLAGS = _flags("DeallocaFlag", ("PreferOrigin", 1))
# `hal.device.queue.move` (proposed; not in IREE yet): PreferOrigin frees a copied source on its
# origin queue, as queue.dealloca's does; the rest are the proposed HAL_MOVE_FLAG_* bits.
MOVE_FLAGS = _flags(
    "MoveFlag",
    ("PreferOrigin", 1 << 0),
    ("RequireAlias", 1 << 1),
    ("ForceCopy", 1 << 2),
    ("AllowGrant", 1 << 3),
    ("KeepSource", 1 << 4),
    ("AllowLowPerformance", 1 << 5),
)
COPY_FLAGS = _flags("CopyFlag", ("Reserved", 1))
READ_FLAGS = _flags("ReadFlag", ("Reserved", 1))
MEMORY_ACCESS = _flags(
    "MemoryAccess",
    ("Read", 0x1),
    ("Write", 0x2),
    ("Discard", 0x4),
    ("MayAlias", 0x8),
    ("Unaligned", 0x10),
    ("Any", 0x20),
)
FILL_FLAGS = _flags("FillFlag", ("Reserved", 1))
EXECUTE_FLAGS = _flags("ExecuteFlag", ("Reserved", 1))
FENCE_FLAGS = _flags("FenceFlag", ("Reserved", 1))
WAIT_FLAGS = _flags("WaitFlag", ("Reserved", 1))
DISPATCH_FLAGS = _flags("DispatchFlags", ("Reserved", 1))
EXECUTION_BARRIER_FLAGS = _flags("ExecutionBarrierFlag", ("Reserved", 1))
COMMAND_BUFFER_MODE = _flags("CommandBufferMode", ("OneShot", 0x1), ("AllowInlineExecution", 0x10))
COMMAND_CATEGORY = _flags("CommandCategory", ("Transfer", 0x1), ("Dispatch", 0x2))
EXECUTION_STAGE = _flags(
    "ExecutionStage",
    ("CommandIssue", 0x1),
    ("CommandProcess", 0x2),
    ("Dispatch", 0x4),
    ("Transfer", 0x8),
    ("CommandRetire", 0x10),
    ("Host", 0x20),
)
MEMORY_TYPE = _flags(
    "MemoryType",
    ("Optimal", 0x1),
    ("HostVisible", 0x2),
    ("HostCoherent", 0x4),
    ("HostCached", 0x8),
    ("HostLocal", 0x46),
    ("DeviceVisible", 0x10),
    ("DeviceLocal", 0x30),
)
BUFFER_USAGE = _flags(
    "BufferUsage",
    ("TransferSource", 0x1),
    ("TransferTarget", 0x2),
    ("Transfer", 0x3),
    ("DispatchIndirectParameters", 0x100),
    ("DispatchUniformRead", 0x200),
    ("DispatchStorageRead", 0x400),
    ("DispatchStorageWrite", 0x800),
    ("DispatchStorage", 0xC00),
    ("DispatchImageRead", 0x1000),
    ("DispatchImageWrite", 0x2000),
    ("DispatchImage", 0x3000),
    ("SharingExport", 0x10000),
    ("SharingReplicate", 0x20000),
    ("SharingConcurrent", 0x40000),
    ("SharingImmutable", 0x80000),
    ("MappingScoped", 0x1000000),
    ("MappingPersistent", 0x2000000),
    ("MappingOptional", 0x4000000),
    ("MappingAccessRandom", 0x8000000),
    ("MappingAccessSequentialWrite", 0x10000000),
    ("Mapping", 0x9000000),
)

# `!hal.file`: what `hal.ex.file.from_memory` makes and `hal.device.queue.read` reads.
HAL_FILE = DialectType("!hal.file")

# The lifetimes `hal.allocator.resolve_memory_properties` accepts (`*` is unknown).
LIFETIMES = ("*", "external", "staging", "transient", "variable", "constant")
# The `lifetime(...)` attribute of each, shared by the ops a lowering makes.
_LIFETIME_ATTRS = {lifetime: OpaqueAttr(lifetime) for lifetime in LIFETIMES}


# -- the template-driven base -----------------------------------------------------------------

# A buffer, or the index of a binding table slot (AnyTypeOf<[Index, HAL_BufferType]>).
_BUFFER_OR_SLOT = TypeConstraint(
    "index or buffer", lambda t: HAL_BUFFER_CONSTRAINT.accepts(t) or INDEX_CONSTRAINT.accepts(t)
)

# The type HALOps.td gives the operands of these names (HAL_Device, HAL_DeviceQueueAffinity,
# HAL_Fence, HAL_DeviceQueuePool, HAL_MemoryType, HAL_BufferUsage, HAL_DeviceSize, ...).
_OPERAND_TYPES: Mapping[str, TypeConstraint] = {
    "device": HAL_DEVICE_CONSTRAINT,
    "queue_affinity": I64_CONSTRAINT,
    "wait_fence": HAL_FENCE_CONSTRAINT,
    "signal_fence": HAL_FENCE_CONSTRAINT,
    "pool": I64_CONSTRAINT,
    "memory_types": I32_CONSTRAINT,
    "buffer_usage": I32_CONSTRAINT,
    "result_size": INDEX_CONSTRAINT,
    "source_buffer": HAL_BUFFER_CONSTRAINT,
    "target_buffer": HAL_BUFFER_CONSTRAINT,
    "source_offset": INDEX_CONSTRAINT,
    "target_offset": INDEX_CONSTRAINT,
    "source_length": INDEX_CONSTRAINT,
    "offset": INDEX_CONSTRAINT,
    "length": INDEX_CONSTRAINT,
    "minimum_length": INDEX_CONSTRAINT,
    "command_buffer": HAL_COMMAND_BUFFER_CONSTRAINT,
    "buffer_view": HAL_BUFFER_VIEW_CONSTRAINT,
    "element_type": I32_CONSTRAINT,
    "encoding_type": I32_CONSTRAINT,
    "workgroup_x": INDEX_CONSTRAINT,
    "workgroup_y": INDEX_CONSTRAINT,
    "workgroup_z": INDEX_CONSTRAINT,
}


@cache
def _template_fields(syntax: str) -> tuple[tuple[str, str], ...]:
    """The `{name:spec}` fields of a syntax template, in order."""
    return tuple(
        (name, spec or "")
        for _, name, spec, _ in string.Formatter().parse(syntax)
        if name is not None
    )


class _Field:
    """One `{name:spec}` of a syntax template, formatted for one op."""

    __slots__ = ("name", "op", "printer")

    def __init__(self, op: HalOp, printer: Printer, name: str) -> None:
        self.op = op
        self.printer = printer
        self.name = name

    def __format__(self, spec: str) -> str:
        op = self.op
        if spec == "result":
            type = op.results[int(self.name[len("result") :])].type
            return type_text(type)
        if spec == "sized":
            type = op.results[0].type
            size = self.printer.v(op.operand(self.name))
            return f"{type_text(type)}{{{size}}}"
        if self.name in op.attribute_fields:
            return op.attribute_map[self.name].text
        value = op.operand(self.name)
        if spec == "type":
            return type_text(value.type)
        return self.printer.v(value)


class _Fields:
    """The `str.format_map` mapping that formats an op's template fields."""

    __slots__ = ("op", "printer")

    def __init__(self, op: HalOp, printer: Printer) -> None:
        self.op = op
        self.printer = printer

    def __getitem__(self, name: str) -> _Field:
        return _Field(self.op, self.printer, name)


class HalOp(Operation):
    """A hal op with a fixed operand list, printed and parsed through its `syntax` template.

    Template fields: `{x}` is operand x (or attribute x if it is in `attribute_fields`),
    `{x:type}` operand x's type, `{resultN:result}` result N's type, and `{x:sized}` the first
    result's type with size operand x (`!hal.buffer{%n}`). The attribute dictionary follows,
    after `attributes` unless `inline_attr_dict` says where IREE prints it.
    """

    __slots__ = ()
    # Operand names in IREE's order.
    operand_names: ClassVar[tuple[str, ...]] = ()
    # Attribute names printed by the template: a BitEnum, `str` for a string attribute, or
    # `SymbolRefAttr` for a symbol reference.
    attribute_fields: ClassVar[Mapping[str, BitEnum | type]] = {}
    result_types: ClassVar[tuple[Type, ...]] = ()
    syntax: ClassVar[str] = ""
    # Names IREE's printer gives the results.
    result_names: ClassVar[tuple[str | None, ...]] = ()

    def operand(self, name: str) -> Value:
        """The operand called `name` in IREE's op definition."""
        return self.operands[self.operand_names.index(name)]

    def constrained_operands(self) -> Iterator[tuple[Value, TypeConstraint, bool]]:
        # Operands are named as in HALOps.td, and a name means one type there (see
        # _OPERAND_TYPES); `operand_types` names the exceptions.
        for name, value in zip(self.operand_names, self.operands):
            constraint = self.operand_types.get(name) or _OPERAND_TYPES.get(name)
            if constraint is not None:
                yield value, constraint, False

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        return cls.from_template_parts(b, rest, dict(clauses.get("attributes", {})), location)

    @classmethod
    def from_template_parts(
        cls, b: Builder, rest: list[Any], attributes: dict[str, Attribute], location: Location
    ) -> HalOp:
        """Build the op from the parts its grammar rule hands over in template order."""
        operands: dict[str, Value] = {}
        result_types = list(cls.result_types)
        parts = iter(p for p in rest if not _is_keyword(p))
        for name, spec in _template_fields(cls.syntax):
            part = next(parts)
            if spec == "result":
                result_types[int(name[len("result") :])] = part
            elif spec == "sized":
                result_types[0] = part.type
                if len(part.sizes) != 1:
                    raise error(f"expected one size for '{part.type}'", location)
                operands[name] = part.sizes[0]
            elif spec == "type":
                check_operand_type(operands[name], part, location)
            elif name in cls.attribute_fields:
                attributes[name] = _attribute_from_token(
                    b, cls.name, name, cls.attribute_fields[name], part, location
                )
            else:
                operands[name] = part
        op = cls([operands[n] for n in cls.operand_names], result_types, attributes)
        op.location = location
        return op

    @classmethod
    def build(cls, attributes: Mapping[str, Any] | None = None, **operands: Value) -> Any:
        """The op with operands given by name; bit-enum attributes may be ints or spellings.

        Every attribute field must be given; results get the op's fixed result types.
        """
        attrs: dict[str, Attribute] = {}
        for name, value in (attributes or {}).items():
            kind = cls.attribute_fields.get(name)
            if isinstance(kind, BitEnum) and not isinstance(value, Attribute):
                attrs[name] = kind.attr(value)
            elif kind is str and isinstance(value, str):
                attrs[name] = StringAttr(value)
            elif kind is SymbolRefAttr and isinstance(value, str):
                attrs[name] = symbol_ref_from_text(value)
            else:
                attrs[name] = value
        missing = [n for n in cls.attribute_fields if n not in attrs]
        assert not missing, f"{cls.name}: missing attributes {missing}"
        return cls(
            [operands[n] for n in cls.operand_names],
            list(cls.result_types),
            shared_attributes(attrs),
        )

    def asm_result_name(self, index: int) -> str | None:
        names = self.result_names
        return names[index] if index < len(names) else None

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def print(self, p: Printer) -> None:
        p.write(self.name)
        p.write(self.syntax.format_map(_Fields(self, p)))
        p.attr_dict(self, tuple(self.attribute_fields), keyword=True)


def _is_keyword(part: Any) -> bool:
    """Keyword tokens the grammar keeps (`for`, `from`, `on`) carry nothing for the op."""
    kind = getattr(part, "type", None) if isinstance(part, TOKEN_CLASSES) else None
    return kind is not None and kind not in ("STRING", "BARE_ID", "ATTR_REF", "SYMBOL_REF")


def _attribute_from_token(
    b: Builder, op_name: str, name: str, kind: BitEnum | type, token: Any, location: Location
) -> Attribute:
    """The attribute `name` spelled by `token`; an unknown bit-enum case is an error at the
    token, worded as IREE words it."""
    text = str(token)
    if kind is str:
        return interpret.attribute_from_token("STRING", text, None)
    if kind is SymbolRefAttr:
        return symbol_ref_from_text(text)
    assert isinstance(kind, BitEnum)
    quoted = token.type == "STRING"
    value = kind.parse(text[1:-1] if quoted else text)
    if value is None:
        where = b.location(token) if hasattr(token, "line") else location
        if quoted:
            message = f"invalid {name} attribute specification: {text}"
        else:
            message = (
                "expected string or keyword containing one of the following enum values for "
                f"attribute '{name}' {kind.expected()}"
            )
        raise error(f"custom op '{op_name}' {message}", where)
    return BitEnumAttr(kind, value)


def _op_error(op: Operation, message: str) -> DiagnosticError:
    """MLIR's op diagnostic: `'name' op message`."""
    return error(f"'{op.name}' op {message}", op.location)


# -- device queue ops -------------------------------------------------------------------------

_QUEUE_OPERANDS = ("device", "queue_affinity", "wait_fence", "signal_fence")
_QUEUE_SYNTAX = (
    "<{device} : {device:type}> affinity({queue_affinity}) wait({wait_fence}) "
    "signal({signal_fence})"
)


class QueueOp(HalOp):
    """A device queue op: runs on `device` / `queue_affinity` after `wait_fence` is reached
    and signals `signal_fence` when done."""

    __slots__ = ()

    @property
    def device(self) -> Value:
        return self.operands[0]

    @property
    def queue_affinity(self) -> Value:
        return self.operands[1]

    @property
    def wait_fence(self) -> Value:
        return self.operands[2]

    @property
    def signal_fence(self) -> Value:
        return self.operands[3]

    @property
    def flags(self) -> BitEnumAttr:
        flags = self.attribute_map["flags"]
        assert isinstance(flags, BitEnumAttr)
        return flags

    def verify(self) -> None:
        wait = self.wait_fence
        producer = wait.defining_op
        if wait is self.signal_fence and (producer is None or producer.name != "util.null"):
            raise _op_error(
                self, "device queue operations cannot wait and signal on the same fence."
            )


@register_op
class DeviceQueueAllocaOp(QueueOp):
    """`hal.device.queue.alloca`: a buffer whose memory is usable once `signal_fence` is."""

    __slots__ = ()
    name = "hal.device.queue.alloca"
    inherent_attributes = frozenset({"flags"})
    operand_names = (*_QUEUE_OPERANDS, "pool", "memory_types", "buffer_usage", "result_size")
    attribute_fields = {"flags": ALLOCA_FLAGS}
    result_types = (HAL_BUFFER,)
    result_names = ("transient_buffer",)
    syntax = (
        _QUEUE_SYNTAX + " pool({pool}) type({memory_types}) usage({buffer_usage}) "
        "flags({flags}) : {result_size:sized}"
    )

    @classmethod
    def create(
        cls,
        device: Value,
        queue_affinity: Value,
        wait_fence: Value,
        signal_fence: Value,
        pool: Value,
        memory_types: Value,
        buffer_usage: Value,
        size: Value,
        flags: int | str = 0,
    ) -> DeviceQueueAllocaOp:
        op: DeviceQueueAllocaOp = cls.build(
            {"flags": flags},
            device=device,
            queue_affinity=queue_affinity,
            wait_fence=wait_fence,
            signal_fence=signal_fence,
            pool=pool,
            memory_types=memory_types,
            buffer_usage=buffer_usage,
            result_size=size,
        )
        return op

    @property
    def result_size_value(self) -> Value:
        return self.operands[7]

    def result_size(self, index: int) -> Value | None:
        return self.result_size_value


@register_op
class DeviceQueueDeallocaOp(QueueOp):
    """`hal.device.queue.dealloca`: free `buffer` once `wait_fence` is reached."""

    __slots__ = ()
    name = "hal.device.queue.dealloca"
    inherent_attributes = frozenset({"flags"})
    operand_names = (*_QUEUE_OPERANDS, "buffer")
    attribute_fields = {"flags": DEALLOCA_FLAGS}
    syntax = _QUEUE_SYNTAX + " buffer({buffer} : {buffer:type}) flags({flags})"

    @classmethod
    def create(
        cls,
        device: Value,
        queue_affinity: Value,
        wait_fence: Value,
        signal_fence: Value,
        buffer: Value,
        flags: int | str = 0,
    ) -> DeviceQueueDeallocaOp:
        op: DeviceQueueDeallocaOp = cls.build(
            {"flags": flags},
            device=device,
            queue_affinity=queue_affinity,
            wait_fence=wait_fence,
            signal_fence=signal_fence,
            buffer=buffer,
        )
        return op

    @property
    def buffer(self) -> Value:
        return self.operands[4]

    @property
    def prefer_origin(self) -> bool:
        return "PreferOrigin" in self.flags

    def operand_access(self, index: int) -> Access:
        return Access.CONSUME if index == 4 else Access.NONE


@register_op
class DeviceQueueMoveOp(QueueOp):
    """`hal.device.queue.move`: hand `source` to this queue as a buffer with the requested
    memory type and usage, aliasing it when the device can and copying otherwise.

        %r = hal.device.queue.move<%dev : !hal.device> affinity(%q) wait(%wf) signal(%sf)
            source(%src : !hal.buffer)[%off] pool(%pool) type(%t) usage(%u)
            flags(PreferOrigin) : !hal.buffer{%n}

    The result handle is usable at once; its contents are valid once `signal_fence` is reached.
    The move consumes the source: nothing may touch it after the op is issued (unless
    `KeepSource`). `PreferOrigin` frees a copied source on the queue that allocated it. Flags
    follow the proposed `hal_device_queue_move` API (hal-semantics section 4).
    """

    __slots__ = ()
    name = "hal.device.queue.move"
    inherent_attributes = frozenset({"flags"})
    operand_names = (
        *_QUEUE_OPERANDS,
        "source_buffer",
        "source_offset",
        "pool",
        "memory_types",
        "buffer_usage",
        "result_size",
    )
    attribute_fields = {"flags": MOVE_FLAGS}
    result_types = (HAL_BUFFER,)
    result_names = ("moved_buffer",)
    syntax = (
        _QUEUE_SYNTAX + " source({source_buffer} : {source_buffer:type})[{source_offset}] "
        "pool({pool}) type({memory_types}) usage({buffer_usage}) flags({flags}) : "
        "{result_size:sized}"
    )
    # The operand types ODS would check (the parser only checks the ones the syntax spells).
    _operand_types: ClassVar[tuple[Type, ...]] = (
        HAL_DEVICE,
        I64,
        HAL_FENCE,
        HAL_FENCE,
        HAL_BUFFER,
        INDEX,
        I64,
        I32,
        I32,
        INDEX,
    )
    _operand_type_names: ClassVar[tuple[str, ...]] = (
        "device",
        "64-bit signless integer",
        "fence",
        "fence",
        "buffer",
        "index",
        "64-bit signless integer",
        "32-bit signless integer",
        "32-bit signless integer",
        "index",
    )

    @classmethod
    def create(
        cls,
        device: Value,
        queue_affinity: Value,
        wait_fence: Value,
        signal_fence: Value,
        source_buffer: Value,
        source_offset: Value,
        pool: Value,
        memory_types: Value,
        buffer_usage: Value,
        size: Value,
        flags: int | str = 0,
    ) -> DeviceQueueMoveOp:
        op: DeviceQueueMoveOp = cls.build(
            {"flags": flags},
            device=device,
            queue_affinity=queue_affinity,
            wait_fence=wait_fence,
            signal_fence=signal_fence,
            source_buffer=source_buffer,
            source_offset=source_offset,
            pool=pool,
            memory_types=memory_types,
            buffer_usage=buffer_usage,
            result_size=size,
        )
        return op

    @property
    def source_buffer(self) -> Value:
        return self.operands[4]

    @property
    def source_offset(self) -> Value:
        return self.operands[5]

    @property
    def pool(self) -> Value:
        return self.operands[6]

    @property
    def memory_types(self) -> Value:
        return self.operands[7]

    @property
    def buffer_usage(self) -> Value:
        return self.operands[8]

    @property
    def result_size_value(self) -> Value:
        return self.operands[9]

    def result_size(self, index: int) -> Value | None:
        return self.result_size_value

    def operand_access(self, index: int) -> Access:
        # The move reads the source and ends the caller's ownership of it.
        if index == 4:
            return Access.NONE if "KeepSource" in self.flags else Access.READ | Access.CONSUME
        return Access.NONE

    def verify(self) -> None:
        super().verify()
        for index, (value, want, spelled) in enumerate(
            zip(self.operands, self._operand_types, self._operand_type_names)
        ):
            if value.type is not None and value.type != want:
                raise _op_error(self, f"operand #{index} must be {spelled}, but got '{value.type}'")
        if self.result.type != HAL_BUFFER:
            raise _op_error(self, f"result #0 must be buffer, but got '{self.result.type}'")
        flags = self.flags
        if "RequireAlias" in flags and "ForceCopy" in flags:
            raise _op_error(self, "cannot both require aliasing (RequireAlias) and force a copy")
        if "KeepSource" not in flags:
            _verify_not_used_after(self, self.source_buffer)


def _verify_not_used_after(op: Operation, source: Value) -> None:
    """Raise if `source` may be used after `op` consumed it: by a later op of `op`'s block (or
    an op nested in one), or again by `op` itself in a later iteration of an enclosing loop."""
    block = op.parent
    if block is None:
        return
    for use in source.uses:
        user = use.operation
        if user is op:
            continue
        anchor = block.find_ancestor_op_in_block(user)
        if anchor is not None and anchor is not op and op.is_before_in_block(anchor):
            diagnostic = Diagnostic(
                "error",
                f"'{op.name}' op source is used after the move, by '{user.name}' at "
                f"{user.location}",
                op.location,
            )
            diagnostic.attach_note("later use here", user.location)
            raise DiagnosticError(diagnostic)
    defining_block = source.parent_block
    node = op
    while node.parent is not defining_block:
        ancestor = node.parent_op
        if ancestor is None:
            break
        if ancestor.region_kind is RegionKind.LOOP:
            diagnostic = Diagnostic(
                "error",
                f"'{op.name}' op source may be used after the move: inside a loop that runs it "
                "again",
                op.location,
            )
            diagnostic.attach_note("loop here", ancestor.location)
            raise DiagnosticError(diagnostic)
        node = ancestor


@register_op
class DeviceQueueCopyOp(QueueOp):
    """`hal.device.queue.copy`: copy `length` bytes between buffers on a queue."""

    __slots__ = ()
    name = "hal.device.queue.copy"
    inherent_attributes = frozenset({"flags"})
    operand_names = (
        *_QUEUE_OPERANDS,
        "source_buffer",
        "source_offset",
        "target_buffer",
        "target_offset",
        "length",
    )
    attribute_fields = {"flags": COPY_FLAGS}
    syntax = (
        _QUEUE_SYNTAX + " source({source_buffer} : {source_buffer:type})[{source_offset}] "
        "target({target_buffer} : {target_buffer:type})[{target_offset}] length({length}) "
        "flags({flags})"
    )

    @classmethod
    def create(
        cls,
        device: Value,
        queue_affinity: Value,
        wait_fence: Value,
        signal_fence: Value,
        source_buffer: Value,
        source_offset: Value,
        target_buffer: Value,
        target_offset: Value,
        length: Value,
        flags: int | str = 0,
    ) -> DeviceQueueCopyOp:
        op: DeviceQueueCopyOp = cls.build(
            {"flags": flags},
            device=device,
            queue_affinity=queue_affinity,
            wait_fence=wait_fence,
            signal_fence=signal_fence,
            source_buffer=source_buffer,
            source_offset=source_offset,
            target_buffer=target_buffer,
            target_offset=target_offset,
            length=length,
        )
        return op

    @property
    def source_buffer(self) -> Value:
        return self.operands[4]

    @property
    def source_offset(self) -> Value:
        return self.operands[5]

    @property
    def target_buffer(self) -> Value:
        return self.operands[6]

    @property
    def target_offset(self) -> Value:
        return self.operands[7]

    @property
    def length(self) -> Value:
        return self.operands[8]

    def operand_access(self, index: int) -> Access:
        return {4: Access.READ, 6: Access.WRITE}.get(index, Access.NONE)


@register_op
class DeviceQueueFillOp(QueueOp):
    """`hal.device.queue.fill`: splat a 1/2/4-byte pattern into a buffer range on a queue."""

    __slots__ = ()
    name = "hal.device.queue.fill"
    inherent_attributes = frozenset({"flags"})
    operand_names = (*_QUEUE_OPERANDS, "target_buffer", "target_offset", "length", "pattern")
    attribute_fields = {"flags": FILL_FLAGS}
    syntax = (
        _QUEUE_SYNTAX + " target({target_buffer} : {target_buffer:type})[{target_offset}] "
        "length({length}) pattern({pattern} : {pattern:type}) flags({flags})"
    )

    @classmethod
    def create(
        cls,
        device: Value,
        queue_affinity: Value,
        wait_fence: Value,
        signal_fence: Value,
        target_buffer: Value,
        target_offset: Value,
        length: Value,
        pattern: Value,
        flags: int | str = 0,
    ) -> DeviceQueueFillOp:
        op: DeviceQueueFillOp = cls.build(
            {"flags": flags},
            device=device,
            queue_affinity=queue_affinity,
            wait_fence=wait_fence,
            signal_fence=signal_fence,
            target_buffer=target_buffer,
            target_offset=target_offset,
            length=length,
            pattern=pattern,
        )
        return op

    @property
    def target_buffer(self) -> Value:
        return self.operands[4]

    @property
    def target_offset(self) -> Value:
        return self.operands[5]

    @property
    def length(self) -> Value:
        return self.operands[6]

    @property
    def pattern(self) -> Value:
        return self.operands[7]

    def operand_access(self, index: int) -> Access:
        return Access.WRITE if index == 4 else Access.NONE

    def verify(self) -> None:
        super().verify()
        type = self.pattern.type
        if not (isinstance(type, IntegerType) and type.width in (8, 16, 32)):
            raise _op_error(
                self,
                "operand #7 must be 8-bit signless integer or 16-bit signless integer or "
                f"32-bit signless integer, but got '{type}'",
            )


@register_op
class DeviceQueueExecuteOp(QueueOp):
    """`hal.device.queue.execute`: run a recorded command buffer on a queue."""

    __slots__ = ()
    name = "hal.device.queue.execute"
    inherent_attributes = frozenset({"flags"})
    operand_names = (*_QUEUE_OPERANDS, "command_buffer")
    attribute_fields = {"flags": EXECUTE_FLAGS}
    syntax = _QUEUE_SYNTAX + " commands({command_buffer}) flags({flags})"

    @classmethod
    def create(
        cls,
        device: Value,
        queue_affinity: Value,
        wait_fence: Value,
        signal_fence: Value,
        command_buffer: Value,
        flags: int | str = 0,
    ) -> DeviceQueueExecuteOp:
        op: DeviceQueueExecuteOp = cls.build(
            {"flags": flags},
            device=device,
            queue_affinity=queue_affinity,
            wait_fence=wait_fence,
            signal_fence=signal_fence,
            command_buffer=command_buffer,
        )
        return op

    @property
    def command_buffer(self) -> Value:
        return self.operands[4]

    def operand_access(self, index: int) -> Access:
        # The buffers the commands touch were named when they were recorded.
        return Access.READ if index == 4 else Access.NONE


@register_op
class DeviceQueueBarrierOp(QueueOp):
    """`hal.device.queue.barrier`: signal `signal_fence` once `wait_fence` is reached."""

    __slots__ = ()
    name = "hal.device.queue.barrier"
    inherent_attributes = frozenset({"flags"})
    operand_names = _QUEUE_OPERANDS
    attribute_fields = {"flags": EXECUTE_FLAGS}
    syntax = _QUEUE_SYNTAX + " flags({flags})"

    @classmethod
    def create(
        cls,
        device: Value,
        queue_affinity: Value,
        wait_fence: Value,
        signal_fence: Value,
        flags: int | str = 0,
    ) -> DeviceQueueBarrierOp:
        op: DeviceQueueBarrierOp = cls.build(
            {"flags": flags},
            device=device,
            queue_affinity=queue_affinity,
            wait_fence=wait_fence,
            signal_fence=signal_fence,
        )
        return op


@register_op
class DeviceQueueReadOp(QueueOp):
    """`hal.device.queue.read`: stream `length` bytes of a file into a buffer on a queue.

        hal.device.queue.read<%dev : !hal.device> affinity(%q) wait(%wf) signal(%sf)
            source(%file : !hal.file)[%c0_i64] target(%buffer : !hal.buffer)[%c0]
            length(%n) flags("None")

    How IREE uploads constant data a device cannot import (`--iree-hal-conversion` of a
    `stream.file.read`); the source offset is an i64, the target offset and length are sizes.
    """

    __slots__ = ()
    name = "hal.device.queue.read"
    inherent_attributes = frozenset({"flags"})
    operand_types = {"source_offset": I64_CONSTRAINT}  # A file offset.
    operand_names = (
        *_QUEUE_OPERANDS,
        "source_file",
        "source_offset",
        "target_buffer",
        "target_offset",
        "length",
    )
    attribute_fields = {"flags": READ_FLAGS}
    syntax = (
        _QUEUE_SYNTAX + " source({source_file} : {source_file:type})[{source_offset}] "
        "target({target_buffer} : {target_buffer:type})[{target_offset}] length({length}) "
        "flags({flags})"
    )

    @classmethod
    def create(
        cls,
        device: Value,
        queue_affinity: Value,
        wait_fence: Value,
        signal_fence: Value,
        source_file: Value,
        source_offset: Value,
        target_buffer: Value,
        target_offset: Value,
        length: Value,
        flags: int | str = 0,
    ) -> DeviceQueueReadOp:
        op: DeviceQueueReadOp = cls.build(
            {"flags": flags},
            device=device,
            queue_affinity=queue_affinity,
            wait_fence=wait_fence,
            signal_fence=signal_fence,
            source_file=source_file,
            source_offset=source_offset,
            target_buffer=target_buffer,
            target_offset=target_offset,
            length=length,
        )
        return op

    @property
    def source_file(self) -> Value:
        return self.operands[4]

    @property
    def source_offset(self) -> Value:
        return self.operands[5]

    @property
    def target_buffer(self) -> Value:
        return self.operands[6]

    @property
    def target_offset(self) -> Value:
        return self.operands[7]

    @property
    def length(self) -> Value:
        return self.operands[8]

    def operand_access(self, index: int) -> Access:
        return {4: Access.READ, 6: Access.WRITE}.get(index, Access.NONE)


class Binding(NamedTuple):
    """`(%buffer : T)[%offset, %length]` in a binding list."""

    buffer: Value
    type: Type
    offset: Value
    length: Value


class Bindings(list[Binding]):
    """A `[` NL binding, NL binding NL `]` list."""


@parse_rule("hal_binding_list")
def _hal_binding_list(b: Builder, children: list[Any]) -> Bindings:
    return Bindings(c for c in children if isinstance(c, Binding))


@parse_rule("hal_binding")
def _hal_binding(b: Builder, children: list[Any]) -> Binding:
    buffer, type, offset, length = (c for c in children if not isinstance(c, TOKEN_CLASSES))
    return Binding(buffer, type, offset, length)


def _check_bindings(bindings: Sequence[Binding], location: Location) -> None:
    for binding in bindings:
        check_operand_type(binding.buffer, binding.type, location)
        check_operand_type(binding.offset, INDEX, location)
        check_operand_type(binding.length, INDEX, location)


def _print_bindings(
    p: Printer, buffers: Sequence[Value], offsets: Sequence[Value], lengths: Sequence[Value]
) -> str:
    """`[` then `(%b : T)[%o, %l]` one per line (joined by `, ` before each newline) `]`."""
    indent = " " * p.indent_width
    items = [
        f"\n{indent}  ({p.v(buffer)} : {type_text(buffer.type)})[{p.v(offset)}, {p.v(length)}]"
        for buffer, offset, length in zip(buffers, offsets, lengths)
    ]
    return "[" + ", ".join(items) + f"\n{indent}]"


@register_op
class DeviceQueueExecuteIndirectOp(QueueOp, SegmentedOp):
    """`hal.device.queue.execute.indirect`: run a reusable command buffer with its binding
    table (`bindings([(%buffer : !hal.buffer)[%offset, %length], ...])`)."""

    __slots__ = ()
    name = "hal.device.queue.execute.indirect"
    inherent_attributes = frozenset({"flags"})
    operand_names = (*_QUEUE_OPERANDS, "command_buffer")
    attribute_fields = {"flags": EXECUTE_FLAGS}
    segment_names = ("fixed", "binding_buffers", "binding_offsets", "binding_lengths")

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        rest = [p for p in rest if not _is_keyword(p)]
        device, device_type, queue_affinity, wait, signal, command_buffer, bindings, flags = rest
        check_operand_type(device, device_type, location)
        _check_bindings(bindings, location)
        attributes = dict(clauses.get("attributes", {}))
        attributes["flags"] = _attribute_from_token(
            b, cls.name, "flags", EXECUTE_FLAGS, flags, location
        )
        return cls.create(
            device, queue_affinity, wait, signal, command_buffer, bindings, attributes, location
        )

    @classmethod
    def create(
        cls,
        device: Value,
        queue_affinity: Value,
        wait_fence: Value,
        signal_fence: Value,
        command_buffer: Value,
        bindings: Sequence[tuple[Value, Any, Value, Value]],
        attributes: dict[str, Attribute] | None = None,
        location: Location = UNKNOWN_LOCATION,
    ) -> DeviceQueueExecuteIndirectOp:
        """`bindings` are `(buffer, type, offset, length)` (the type is not used)."""
        attrs = dict(attributes or {})
        attrs.setdefault("flags", EXECUTE_FLAGS.attr(0))
        operands = [device, queue_affinity, wait_fence, signal_fence, command_buffer]
        for position in (0, 2, 3):
            operands.extend(binding[position] for binding in bindings)
        count = len(bindings)
        return cls(operands, (), attrs, location=location, segments=(5, count, count, count))

    @property
    def binding_buffers(self) -> list[Value]:
        return self.segment(1)

    def operand_access(self, index: int) -> Access:
        if index == 4:
            return Access.READ
        position = index - self.segment_start(1)
        if 0 <= position < self.segments[1]:
            # What the commands do with each binding is not written here.
            return Access.READ | Access.WRITE
        return Access.NONE

    def print(self, p: Printer) -> None:
        p.write(self.name)
        p.write(_QUEUE_SYNTAX.format_map(_Fields(self, p)))
        p.write(f" commands({p.v(self.operands[4])}) bindings(")
        p.write(_print_bindings(p, self.segment(1), self.segment(2), self.segment(3)))
        p.write(f") flags({self.attribute_map['flags'].text})")
        p.attr_dict(self, ("flags",), keyword=True)


# -- fences -----------------------------------------------------------------------------------


@register_op
class FenceCreateOp(HalOp):
    """`%fence = hal.fence.create device(%d : !hal.device) flags("None") : !hal.fence`."""

    __slots__ = ()
    name = "hal.fence.create"
    inherent_attributes = frozenset({"flags"})
    operand_names = ("device",)
    attribute_fields = {"flags": FENCE_FLAGS}
    result_types = (HAL_FENCE,)
    result_names = ("fence",)
    syntax = " device({device} : {device:type}) flags({flags}) : {result0:result}"

    @classmethod
    def create(cls, device: Value, flags: int | str = 0) -> FenceCreateOp:
        op: FenceCreateOp = cls.build({"flags": flags}, device=device)
        return op


@register_op
class FenceJoinOp(HalOp):
    """`%fence = hal.fence.join at([%a, %b]) flags("None") -> !hal.fence`: reached when all
    of the fences are."""

    __slots__ = ()
    name = "hal.fence.join"
    inherent_attributes = frozenset({"flags"})
    attribute_fields = {"flags": FENCE_FLAGS}
    result_types = (HAL_FENCE,)
    result_names = ("fence",)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        fences: list[Value] = list(rest[0]) if isinstance(rest[0], list) else []
        flags, result_type = rest[-2], rest[-1]
        for fence in fences:
            check_operand_type(fence, HAL_FENCE, location)
        attributes = dict(clauses.get("attributes", {}))
        attributes["flags"] = _attribute_from_token(
            b, cls.name, "flags", FENCE_FLAGS, flags, location
        )
        return cls(fences, [result_type], attributes, location=location)

    @classmethod
    def create(cls, fences: Sequence[Value], flags: int | str = 0) -> FenceJoinOp:
        return cls(list(fences), [HAL_FENCE], shared_attributes({"flags": FENCE_FLAGS.attr(flags)}))

    @property
    def fences(self) -> list[Value]:
        return list(self.operands)

    def print(self, p: Printer) -> None:
        p.write(f"hal.fence.join at([{p.values(self.operands)}]) ")
        p.write(f"flags({self.attribute_map['flags'].text}) -> {self.result.type}")
        p.attr_dict(self, ("flags",), keyword=True)


@register_op
class FenceAwaitOp(HalOp):
    """`%status = hal.fence.await until([%f]) timeout_millis(%t) flags("None") : i32`: block
    the host until the fences are reached."""

    __slots__ = ()
    name = "hal.fence.await"
    inherent_attributes = frozenset({"flags"})
    attribute_fields = {"flags": WAIT_FLAGS}
    result_types = (I32,)
    result_names = ("status",)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        fences: list[Value] = list(rest[0]) if len(rest) == 4 else []
        timeout, flags, result_type = rest[-3:]
        for fence in fences:
            check_operand_type(fence, HAL_FENCE, location)
        check_operand_type(timeout, I32, location)
        attributes = dict(clauses.get("attributes", {}))
        attributes["flags"] = _attribute_from_token(
            b, cls.name, "flags", WAIT_FLAGS, flags, location
        )
        return cls([timeout, *fences], [result_type], attributes, location=location)

    @classmethod
    def create(
        cls, fences: Sequence[Value], timeout_millis: Value, flags: int | str = 0
    ) -> FenceAwaitOp:
        return cls([timeout_millis, *fences], [I32], {"flags": WAIT_FLAGS.attr(flags)})

    @property
    def timeout_millis(self) -> Value:
        return self.operands[0]

    @property
    def fences(self) -> list[Value]:
        return list(self.operands[1:])

    def print(self, p: Printer) -> None:
        p.write(f"hal.fence.await until([{p.values(self.fences)}]) ")
        p.write(f"timeout_millis({p.v(self.timeout_millis)}) ")
        p.write(f"flags({self.attribute_map['flags'].text}) : {self.result.type}")
        p.attr_dict(self, ("flags",), keyword=True)


# -- allocator and device lookup --------------------------------------------------------------


@parse_rule("hal_lifetime")
def _hal_lifetime(b: Builder, children: list[Any]) -> Clause:
    if not children:
        return Clause("lifetime", "*")
    token = children[0]
    name = str(token)
    if token.type == "STRING":
        name = name[1:-1]
    if name not in LIFETIMES:
        raise error(
            "custom op 'hal.allocator.resolve_memory_properties' expected string or keyword "
            "containing one of the following enum values for attribute 'lifetime' "
            f"[{', '.join(LIFETIMES)}]",
            b.location(token),
        )
    return Clause("lifetime", name)


@parse_rule("hal_for_affinity")
def _hal_for_affinity(b: Builder, children: list[Any]) -> Clause:
    token = next(c for c in children if getattr(c, "type", None) == "ATTR_REF")
    # Checked as every other attribute token is (dialect, hal attribute names).
    b.check_dialect_attributes(token)
    return Clause("for", interpret.attribute_from_token("ATTR_REF", str(token), None))


@register_op
class AllocatorResolveMemoryPropertiesOp(HalOp):
    """`%memory_types, %buffer_usage = hal.allocator.resolve_memory_properties for(A)
    lifetime(transient) : i32, i32`: the memory type and usage bits a resource of that
    lifetime needs on affinity A."""

    __slots__ = ()
    name = "hal.allocator.resolve_memory_properties"
    inherent_attributes = frozenset({"affinity", "lifetime"})
    is_pure = True
    result_types = (I32, I32)
    result_names = ("memory_types", "buffer_usage")

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        lifetime = clauses["lifetime"]
        attributes = dict(clauses.get("attributes", {}))
        if "for" in clauses:
            attributes["affinity"] = clauses["for"]
        attributes["lifetime"] = OpaqueAttr(lifetime)
        types = [p for p in rest if isinstance(p, Type)]
        return cls((), types, attributes, location=location)

    @classmethod
    def create(
        cls, lifetime: str, affinity: Attribute | None = None
    ) -> AllocatorResolveMemoryPropertiesOp:
        assert lifetime in LIFETIMES, lifetime
        attributes: dict[str, Attribute] = {}
        if affinity is not None:
            attributes["affinity"] = affinity
        attributes["lifetime"] = _LIFETIME_ATTRS[lifetime]
        return cls((), [I32, I32], shared_attributes(attributes))

    @property
    def affinity(self) -> Attribute | None:
        return self.attribute_map.get("affinity")

    @property
    def lifetime(self) -> str:
        return self.attribute_map["lifetime"].text

    def print(self, p: Printer) -> None:
        p.write(self.name)
        affinity = self.affinity
        if affinity is not None:
            p.write(f" for({affinity.text})")
        # `*` is not a keyword: MLIR prints (and only reads) it as a string.
        lifetime = self.lifetime
        p.write(f' lifetime("{lifetime}") : ' if lifetime == "*" else f" lifetime({lifetime}) : ")
        p.write(", ".join(type_text(r.type) for r in self.results))
        p.attr_dict(self, ("affinity", "lifetime"), keyword=True)


class SelectEntry(NamedTuple):
    """`(%device, %queue_affinity : !hal.device, i64)` in `hal.allocator.select from([...])`."""

    device: Value
    queue_affinity: Value
    device_type: Type
    queue_affinity_type: Type


@parse_rule("hal_select_entry")
def _hal_select_entry(b: Builder, children: list[Any]) -> SelectEntry:
    device, affinity, device_type, affinity_type = (
        c for c in children if not isinstance(c, TOKEN_CLASSES)
    )
    return SelectEntry(device, affinity, device_type, affinity_type)


@register_op
class AllocatorSelectOp(SegmentedOp):
    """`%device, %queue_affinity = hal.allocator.select from([(%d, %q : !hal.device, i64),
    ...]) type(%t) usage(%u) : !hal.device, i64`: pick the device that allocates memory shared
    by several (an `#hal.device.optimal` affinity)."""

    __slots__ = ()
    name = "hal.allocator.select"
    is_pure = True
    segment_names = ("devices", "queue_affinities", "memory_types", "buffer_usage")

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        rest = [p for p in rest if not _is_keyword(p)]
        entries = [p for p in rest if isinstance(p, SelectEntry)]
        memory_types, buffer_usage, device_type, affinity_type = rest[len(entries) :]
        for entry in entries:
            check_operand_type(entry.device, entry.device_type, location)
            check_operand_type(entry.queue_affinity, entry.queue_affinity_type, location)
        check_operand_type(memory_types, I32, location)
        check_operand_type(buffer_usage, I32, location)
        return cls.create(
            [(e.device, e.queue_affinity) for e in entries],
            memory_types,
            buffer_usage,
            [device_type, affinity_type],
            dict(clauses.get("attributes", {})),
            location,
        )

    @classmethod
    def create(
        cls,
        candidates: Sequence[tuple[Value, Value]],
        memory_types: Value,
        buffer_usage: Value,
        result_types: Sequence[Type] = (HAL_DEVICE, I64),
        attributes: dict[str, Attribute] | None = None,
        location: Location = UNKNOWN_LOCATION,
    ) -> AllocatorSelectOp:
        """Choose among `(device, queue_affinity)` candidates."""
        devices = [device for device, _ in candidates]
        affinities = [affinity for _, affinity in candidates]
        count = len(candidates)
        return cls(
            [*devices, *affinities, memory_types, buffer_usage],
            list(result_types),
            attributes or {},
            location=location,
            segments=(count, count, 1, 1),
        )

    def asm_result_name(self, index: int) -> str | None:
        return ("device", "queue_affinity")[index]

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def verify(self) -> None:
        if self.segments[0] != self.segments[1]:
            raise _op_error(self, "requires the same number of devices and queue affinities")

    def print(self, p: Printer) -> None:
        indent = " " * p.indent_width
        entries = [
            f"({p.v(device)}, {p.v(affinity)} : {device.type}, {affinity.type})"
            for device, affinity in zip(self.segment(0), self.segment(1))
        ]
        separator = f",\n{indent}  "
        p.write(f"{self.name} from([\n{indent}  " + separator.join(entries) + f"\n{indent}])")
        p.write(f" type({p.v(self.segment(2)[0])}) usage({p.v(self.segment(3)[0])}) : ")
        p.write(", ".join(type_text(r.type) for r in self.results))
        p.attr_dict(self, keyword=True)


@register_op
class DeviceAllocatorOp(HalOp):
    """`%allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator`."""

    __slots__ = ()
    name = "hal.device.allocator"
    is_pure = True
    operand_names = ("device",)
    result_types = (HAL_ALLOCATOR,)
    result_names = ("allocator",)
    syntax = "<{device} : {device:type}> : {result0:result}"


@register_op
class AllocatorAllocateOp(HalOp):
    """`%buffer = hal.allocator.allocate<%allocator : !hal.allocator> affinity(%q)
    type(%memory_types) usage(%buffer_usage) : !hal.buffer{%size}`: a buffer allocated at once
    (not on a queue), usable as soon as the op returns."""

    __slots__ = ()
    name = "hal.allocator.allocate"
    operand_names = ("allocator", "queue_affinity", "memory_types", "buffer_usage", "result_size")
    result_types = (HAL_BUFFER,)
    result_names = ("buffer",)
    syntax = (
        "<{allocator} : {allocator:type}> affinity({queue_affinity}) type({memory_types}) "
        "usage({buffer_usage}) : {result_size:sized}"
    )

    @classmethod
    def create(
        cls,
        allocator: Value,
        queue_affinity: Value,
        memory_types: Value,
        buffer_usage: Value,
        size: Value,
    ) -> AllocatorAllocateOp:
        op: AllocatorAllocateOp = cls.build(
            allocator=allocator,
            queue_affinity=queue_affinity,
            memory_types=memory_types,
            buffer_usage=buffer_usage,
            result_size=size,
        )
        return op

    @property
    def result_size_value(self) -> Value:
        return self.operands[4]

    def result_size(self, index: int) -> Value | None:
        return self.result_size_value


@register_op
class AllocatorImportOp(HalOp):
    """`%did_import, %mapped = hal.allocator.import<%allocator : !hal.allocator>
    source(%bytes : !util.buffer)[%offset, %length] affinity(%q) type(%memory_types)
    usage(%buffer_usage) : i1, !hal.buffer`: try to use host memory as a device buffer.

    When the device cannot use the memory with that type and usage (host memory as device
    local memory of a discrete device), `%did_import` is false and the buffer is null.
    """

    __slots__ = ()
    name = "hal.allocator.import"
    operand_names = (
        "allocator",
        "queue_affinity",
        "memory_types",
        "buffer_usage",
        "source",
        "offset",
        "length",
    )
    result_types = (I1, HAL_BUFFER)
    result_names = ("did_import", "mapped")
    syntax = (
        "<{allocator} : {allocator:type}> source({source} : {source:type})[{offset}, {length}] "
        "affinity({queue_affinity}) type({memory_types}) usage({buffer_usage}) : "
        "{result0:result}, {result1:result}"
    )

    @classmethod
    def create(
        cls,
        allocator: Value,
        queue_affinity: Value,
        memory_types: Value,
        buffer_usage: Value,
        source: Value,
        offset: Value,
        length: Value,
    ) -> AllocatorImportOp:
        op: AllocatorImportOp = cls.build(
            allocator=allocator,
            queue_affinity=queue_affinity,
            memory_types=memory_types,
            buffer_usage=buffer_usage,
            source=source,
            offset=offset,
            length=length,
        )
        return op

    def operand_access(self, index: int) -> Access:
        # The imported buffer aliases the source bytes.
        return Access.ESCAPE if index == 4 else Access.NONE

    def result_size(self, index: int) -> Value | None:
        return self.operands[6] if index == 1 else None


@register_op
class ExFileFromMemoryOp(HalOp):
    """`%memory_file = hal.ex.file.from_memory device(%dev : !hal.device) affinity(%q)
    access(Read) buffer(%bytes : !util.buffer)[%offset for %length] flags(%flags) :
    !hal.file`: a file whose contents are a byte range of host memory (experimental in IREE)."""

    __slots__ = ()
    name = "hal.ex.file.from_memory"
    inherent_attributes = frozenset({"access"})
    operand_names = ("device", "queue_affinity", "buffer", "offset", "length", "flags")
    attribute_fields = {"access": MEMORY_ACCESS}
    result_types = (HAL_FILE,)
    result_names = ("memory_file",)
    syntax = (
        " device({device} : {device:type}) affinity({queue_affinity}) access({access}) "
        "buffer({buffer} : {buffer:type})[{offset} for {length}] flags({flags}) : "
        "{result0:result}"
    )

    @classmethod
    def create(
        cls,
        device: Value,
        queue_affinity: Value,
        buffer: Value,
        offset: Value,
        length: Value,
        flags: Value,
        access: int | str = "Read",
    ) -> ExFileFromMemoryOp:
        op: ExFileFromMemoryOp = cls.build(
            {"access": access},
            device=device,
            queue_affinity=queue_affinity,
            buffer=buffer,
            offset=offset,
            length=length,
            flags=flags,
        )
        return op

    def operand_access(self, index: int) -> Access:
        # The file reads the bytes when a queue op reads it.
        return Access.ESCAPE if index == 2 else Access.NONE


@register_op
class DeviceResolveOp(Operation):
    """`%device, %queue_affinity = hal.device.resolve on(A) : !hal.device, i64`: the device
    (allocator, queue affinity) an affinity names."""

    __slots__ = ()
    name = "hal.device.resolve"
    inherent_attributes = frozenset({"affinity"})
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        attributes: dict[str, Attribute] = {}
        types: list[Type] = []
        for part in rest:
            if isinstance(part, AttrDict):
                attributes.update(part)
            elif isinstance(part, list):
                types = list(part)
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        return cls((), types, attributes, location=location)

    @classmethod
    def create(
        cls, result_types: Sequence[Type], affinity: Attribute | None = None
    ) -> DeviceResolveOp:
        attributes = {"affinity": affinity} if affinity is not None else {}
        return cls((), list(result_types), attributes)

    @property
    def affinity(self) -> Attribute | None:
        return self.attribute_map.get("affinity")

    def asm_result_name(self, index: int) -> str | None:
        type = self.results[index].type
        if type == HAL_DEVICE:
            return "device"
        if type == HAL_ALLOCATOR:
            return "allocator"
        if isinstance(type, IntegerType):
            return "queue_affinity"
        return None

    def print(self, p: Printer) -> None:
        p.write(self.name)
        affinity = self.affinity
        if affinity is not None:
            p.write(f" on({affinity.text})")
        p.attr_dict(self, ("affinity",))
        p.write(" : " + ", ".join(type_text(r.type) for r in self.results))


@register_op
class DevicesCountOp(Operation):
    """`%device_count = hal.devices.count : index`."""

    __slots__ = ()
    name = "hal.devices.count"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        attributes = dict(parts[0]) if isinstance(parts[0], AttrDict) else {}
        return cls((), [parts[-1]], attributes, location=location)

    def asm_result_name(self, index: int) -> str | None:
        return "device_count"

    def print(self, p: Printer) -> None:
        p.write(self.name)
        p.attr_dict(self)
        p.write(f" : {self.result.type}")


@register_op
class DevicesGetOp(Operation):
    """`%device_0 = hal.devices.get %c0 : !hal.device`: the device at an ordinal."""

    __slots__ = ()
    name = "hal.devices.get"
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        index: Value = parts[0]
        check_operand_type(index, INDEX, location)
        attributes = dict(parts[1]) if isinstance(parts[1], AttrDict) else {}
        return cls([index], [parts[-1]], attributes, location=location)

    @classmethod
    def create(cls, index: Value) -> DevicesGetOp:
        return cls([index], [HAL_DEVICE])

    def asm_result_name(self, index: int) -> str | None:
        producer = self.operands[0].defining_op
        ordinal = getattr(producer, "int_value", None) if producer is not None else None
        return f"device_{ordinal}" if isinstance(ordinal, int) else "device_n"

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def print(self, p: Printer) -> None:
        p.write(f"{self.name} {p.v(self.operands[0])}")
        p.attr_dict(self)
        p.write(f" : {self.result.type}")


# -- element types, buffers and buffer views --------------------------------------------------


@register_op
class ElementTypeOp(Operation):
    """`%element_type_f32 = hal.element_type<f32> : i32`: the runtime code of an element
    type."""

    __slots__ = ()
    name = "hal.element_type"
    inherent_attributes = frozenset({"type"})
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        attributes = dict(parts[1]) if isinstance(parts[1], AttrDict) else {}
        attributes["type"] = TypeAttr(parts[0])
        return cls((), [parts[-1]], attributes, location=location)

    @classmethod
    def create(cls, type: Type) -> ElementTypeOp:
        return cls((), [I32], {"type": TypeAttr(type)})

    @property
    def element_type(self) -> Type:
        attr = self.attribute_map["type"]
        assert isinstance(attr, TypeAttr)
        return attr.type

    def asm_result_name(self, index: int) -> str | None:
        return "element_type_" + "".join(
            c if c.isalnum() or c in "_$." else "_" for c in self.element_type.text
        )

    def verify(self) -> None:
        type = self.element_type
        text = type.text
        if not (
            isinstance(type, IntegerType)
            or text in ("f16", "bf16", "f32", "f64", "index")
            or text.startswith(("f8", "f6", "f4", "complex<"))
        ):
            raise _op_error(self, "unsupported element type")

    def print(self, p: Printer) -> None:
        p.write(f"{self.name}<{self.element_type.text}>")
        p.attr_dict(self, ("type",))
        p.write(f" : {self.result.type}")


class _BitsConstantOp(Operation):
    """`%r = hal.<name><"A|B"> : i32`: the runtime value of a bit-enum (folds to a constant)."""

    __slots__ = ()
    is_pure = True
    enum: ClassVar[BitEnum]
    attribute_name: ClassVar[str]

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        token = parts[0]
        attributes = dict(parts[1]) if isinstance(parts[1], AttrDict) else {}
        attributes[cls.attribute_name] = _attribute_from_token(
            b, cls.name, cls.attribute_name, cls.enum, token, location
        )
        return cls((), [parts[-1]], attributes, location=location)

    @classmethod
    def create(cls, value: int | str) -> Operation:
        return cls((), [I32], {cls.attribute_name: cls.enum.attr(value)})

    @property
    def value(self) -> int:
        attr = self.attribute_map[self.attribute_name]
        assert isinstance(attr, BitEnumAttr)
        return attr.value

    def asm_result_name(self, index: int) -> str | None:
        return self.name.removeprefix("hal.")

    def print(self, p: Printer) -> None:
        p.write(f"{self.name}<{self.attribute_map[self.attribute_name].text}>")
        p.attr_dict(self, (self.attribute_name,))
        p.write(f" : {self.result.type}")


@register_op
class MemoryTypeOp(_BitsConstantOp):
    """`%memory_type = hal.memory_type<"DeviceVisible|DeviceLocal"> : i32`."""

    __slots__ = ()
    name = "hal.memory_type"
    inherent_attributes = frozenset({"type"})
    enum = MEMORY_TYPE
    attribute_name = "type"


@register_op
class BufferUsageOp(_BitsConstantOp):
    """`%buffer_usage = hal.buffer_usage<"TransferSource|...|SharingImmutable"> : i32`."""

    __slots__ = ()
    name = "hal.buffer_usage"
    inherent_attributes = frozenset({"usage"})
    enum = BUFFER_USAGE
    attribute_name = "usage"


@register_op
class EncodingTypeOp(Operation):
    """`%dense_row_major = hal.encoding_type<dense_row_major> : i32`."""

    __slots__ = ()
    name = "hal.encoding_type"
    inherent_attributes = frozenset({"encoding"})
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        token = parts[0]
        attributes = dict(parts[1]) if isinstance(parts[1], AttrDict) else {}
        if token.type == "ATTR_REF":
            attributes["encoding"] = interpret.attribute_from_token("ATTR_REF", str(token), None)
        elif str(token) != "dense_row_major":
            raise error(f"expected 'dense_row_major' or an attribute, got '{token}'", location)
        return cls((), [parts[-1]], attributes, location=location)

    @classmethod
    def create(cls) -> EncodingTypeOp:
        """The dense row-major encoding."""
        return cls((), [I32], {})

    def asm_result_name(self, index: int) -> str | None:
        return None if "encoding" in self.attribute_map else "dense_row_major"

    def verify(self) -> None:
        if "encoding" in self.attribute_map:
            raise _op_error(self, "unsupported encoding type")

    def print(self, p: Printer) -> None:
        encoding = self.attribute_map.get("encoding")
        p.write(f"{self.name}<{encoding.text if encoding is not None else 'dense_row_major'}>")
        p.attr_dict(self, ("encoding",))
        p.write(f" : {self.result.type}")


class _ShapedBufferViewOp(HalOp, SegmentedOp):
    """Buffer view ops that end in `shape([%d0, ...]) type(%et) encoding(%enc)`."""

    __slots__ = ()

    @property
    def shape(self) -> list[Value]:
        return self.segment(1)

    def _shape_syntax(self, p: Printer) -> str:
        fixed = self.segment(0)
        return f" shape([{p.values(self.shape)}]) type({p.v(fixed[-2])}) encoding({p.v(fixed[-1])})"


@register_op
class BufferViewAssertOp(_ShapedBufferViewOp):
    """`hal.buffer_view.assert<%v : !hal.buffer_view> message("m") shape([%d]) type(%t)
    encoding(%e)`: abort unless the view holds such a tensor."""

    __slots__ = ()
    name = "hal.buffer_view.assert"
    inherent_attributes = frozenset({"message"})
    operand_names = ("buffer_view", "element_type", "encoding_type")
    attribute_fields = {"message": str}
    segment_names = ("fixed", "shape")

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        view, view_type, message = rest[:3]
        shape: list[Value] = list(rest[3]) if len(rest) == 6 else []
        element_type, encoding_type = rest[-2:]
        check_operand_type(view, view_type, location)
        _check_shape(shape, element_type, encoding_type, location)
        attributes = dict(clauses.get("attributes", {}))
        attributes["message"] = interpret.attribute_from_token("STRING", str(message), None)
        return cls(
            [view, element_type, encoding_type, *shape],
            (),
            attributes,
            location=location,
            segments=(3, len(shape)),
        )

    def print(self, p: Printer) -> None:
        view = self.operands[0]
        p.write(f"{self.name}<{p.v(view)} : {view.type}> ")
        p.write(f"message({self.attribute_map['message'].text})")
        p.write(self._shape_syntax(p))
        p.attr_dict(self, ("message",), keyword=True)


def _check_shape(
    shape: Sequence[Value], element_type: Value, encoding_type: Value, location: Location
) -> None:
    for dim in shape:
        check_operand_type(dim, INDEX, location)
    check_operand_type(element_type, I32, location)
    check_operand_type(encoding_type, I32, location)


@register_op
class BufferViewCreateOp(_ShapedBufferViewOp):
    """`%view = hal.buffer_view.create buffer(%b : !hal.buffer)[%offset, %length] shape([%d])
    type(%t) encoding(%e) : !hal.buffer_view`: a tensor view of a buffer range."""

    __slots__ = ()
    name = "hal.buffer_view.create"
    is_pure = True
    operand_names = (
        "source_buffer",
        "source_offset",
        "source_length",
        "element_type",
        "encoding_type",
    )
    segment_names = ("fixed", "shape")

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        buffer, buffer_type, offset, length = rest[:4]
        shape: list[Value] = list(rest[4]) if len(rest) == 8 else []
        element_type, encoding_type, result_type = rest[-3:]
        check_operand_type(buffer, buffer_type, location)
        check_operand_type(offset, INDEX, location)
        check_operand_type(length, INDEX, location)
        _check_shape(shape, element_type, encoding_type, location)
        return cls(
            [buffer, offset, length, element_type, encoding_type, *shape],
            [result_type],
            dict(clauses.get("attributes", {})),
            location=location,
            segments=(5, len(shape)),
        )

    @classmethod
    def create(
        cls,
        buffer: Value,
        offset: Value,
        length: Value,
        element_type: Value,
        encoding_type: Value,
        shape: Sequence[Value],
    ) -> BufferViewCreateOp:
        return cls(
            [buffer, offset, length, element_type, encoding_type, *shape],
            [HAL_BUFFER_VIEW],
            {},
            segments=(5, len(shape)),
        )

    def asm_result_name(self, index: int) -> str | None:
        return "view"

    def tied_operand_index(self, result_index: int) -> int | None:
        # The view shares the buffer's storage.
        return 0

    def print(self, p: Printer) -> None:
        buffer, offset, length = self.operands[:3]
        p.write(f"{self.name} buffer({p.v(buffer)} : {buffer.type})")
        p.write(f"[{p.v(offset)}, {p.v(length)}]")
        p.write(self._shape_syntax(p))
        p.write(f" : {self.result.type}")
        p.attr_dict(self, keyword=True)


@register_op
class BufferViewBufferOp(HalOp):
    """`%buffer = hal.buffer_view.buffer<%view : !hal.buffer_view> : !hal.buffer`."""

    __slots__ = ()
    name = "hal.buffer_view.buffer"
    is_pure = True
    operand_names = ("buffer_view",)
    result_types = (HAL_BUFFER,)
    result_names = ("buffer",)
    syntax = "<{buffer_view} : {buffer_view:type}> : {result0:result}"

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0


@parse_rule("hal_dim_index")
def _hal_dim_index(b: Builder, children: list[Any]) -> int:
    # iree-opt takes any integer here, a negative one too (its verifier does not look at it).
    negative = any(isinstance(c, TOKEN_CLASSES) and str(c) == "-" for c in children)
    value = interpret.integer_literal(str(children[-1]))
    # An index attribute holds 64 bits, signed.
    if value > (1 << 63) - (0 if negative else 1):
        raise b.error("integer constant out of range for attribute", children[-1])
    return -value if negative else value


@register_op
class BufferViewDimOp(HalOp):
    """`%dim = hal.buffer_view.dim<%view : !hal.buffer_view>[0] : index`: the size of one
    dimension of a view."""

    __slots__ = ()
    name = "hal.buffer_view.dim"
    inherent_attributes = frozenset({"index"})
    is_pure = True
    operand_names = ("buffer_view",)
    result_types = (INDEX,)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        view, view_type, index, result_type = rest
        check_operand_type(view, view_type, location)
        require_index_type(cls.name, result_type, location)
        attributes: dict[str, Attribute] = dict(clauses.get("attributes", {}))
        attributes["index"] = IntegerAttr(index, INDEX)
        return cls([view], [INDEX], attributes, location=location)

    @property
    def index(self) -> int:
        attribute = self.attribute_map["index"]
        assert isinstance(attribute, IntegerAttr)
        return attribute.value

    def print(self, p: Printer) -> None:
        view = self.operands[0]
        p.write(f"{self.name}<{p.v(view)} : {view.type}>[{self.index}] : {self.result.type}")
        p.attr_dict(self, ("index",), keyword=True)


@register_op
class BufferSubspanOp(HalOp):
    """`%buffer = hal.buffer.subspan<%b : !hal.buffer>[%offset, %length] : !hal.buffer`: a
    buffer aliasing a byte range of another."""

    __slots__ = ()
    name = "hal.buffer.subspan"
    is_pure = True
    operand_names = ("source_buffer", "source_offset", "length")
    result_types = (HAL_BUFFER,)
    result_names = ("buffer",)
    syntax = (
        "<{source_buffer} : {source_buffer:type}>[{source_offset}, {length}] : {result0:result}"
    )

    @classmethod
    def create(cls, source: Value, offset: Value, length: Value) -> BufferSubspanOp:
        op: BufferSubspanOp = cls.build(source_buffer=source, source_offset=offset, length=length)
        return op

    def tied_operand_index(self, result_index: int) -> int | None:
        # The subspan shares the source's storage.
        return 0


@register_op
class BufferLoadOp(HalOp):
    """`%v = hal.buffer.load<%b : !hal.buffer>[%offset] : i32`: a host read of one element
    (what `stream.resource.load` lowers to)."""

    __slots__ = ()
    name = "hal.buffer.load"
    operand_names = ("source_buffer", "source_offset")
    result_types = (INDEX,)  # The parsed or given type replaces it.
    syntax = "<{source_buffer} : {source_buffer:type}>[{source_offset}] : {result0:result}"

    @classmethod
    def create(cls, buffer: Value, offset: Value, type: Type) -> BufferLoadOp:
        return cls([buffer, offset], [type])

    def operand_access(self, index: int) -> Access:
        return Access.READ if index == 0 else Access.NONE


@register_op
class BufferStoreOp(HalOp):
    """`hal.buffer.store<%b : !hal.buffer>[%offset] value(%v : i32)`: a host write of one
    element (what `stream.resource.store` lowers to)."""

    __slots__ = ()
    name = "hal.buffer.store"
    operand_names = ("value", "target_buffer", "target_offset")
    syntax = (
        "<{target_buffer} : {target_buffer:type}>[{target_offset}] value({value} : {value:type})"
    )

    @classmethod
    def create(cls, value: Value, buffer: Value, offset: Value) -> BufferStoreOp:
        op: BufferStoreOp = cls.build(value=value, target_buffer=buffer, target_offset=offset)
        return op

    def operand_access(self, index: int) -> Access:
        return Access.WRITE if index == 1 else Access.NONE


@register_op
class BufferLengthOp(HalOp):
    """`%length = hal.buffer.length<%b : !hal.buffer> : index`: the byte length of a buffer."""

    __slots__ = ()
    name = "hal.buffer.length"
    is_pure = True
    operand_names = ("buffer",)
    result_types = (INDEX,)
    result_names = ("length",)
    syntax = "<{buffer} : {buffer:type}> : {result0:result}"

    @classmethod
    def create(cls, buffer: Value) -> BufferLengthOp:
        op: BufferLengthOp = cls.build(buffer=buffer)
        return op


@register_op
class BufferAssertOp(HalOp):
    """`hal.buffer.assert<%b : !hal.buffer> message("m") allocator(%a : !hal.allocator)
    minimum_length(%n) type(DeviceVisible) usage("...")`: abort unless the buffer fits."""

    __slots__ = ()
    name = "hal.buffer.assert"
    inherent_attributes = frozenset({"message", "memory_types", "buffer_usage"})
    operand_names = ("buffer", "allocator", "minimum_length")
    attribute_fields = {"message": str, "memory_types": MEMORY_TYPE, "buffer_usage": BUFFER_USAGE}
    syntax = (
        "<{buffer} : {buffer:type}> message({message}) allocator({allocator} : "
        "{allocator:type}) minimum_length({minimum_length}) type({memory_types}) "
        "usage({buffer_usage})"
    )


# -- executables ------------------------------------------------------------------------------

HAL_EXECUTABLE = DialectType("!hal.executable")


@register_op
class ExecutableLookupOp(HalOp):
    """`%exe = hal.executable.lookup device(%d : !hal.device) executable(@ex) :
    !hal.executable`: the (cached, possibly lazily loaded) executable on a device."""

    __slots__ = ()
    name = "hal.executable.lookup"
    inherent_attributes = frozenset({"executable"})
    is_pure = True
    operand_names = ("device",)
    attribute_fields = {"executable": SymbolRefAttr}
    result_types = (HAL_EXECUTABLE,)
    result_names = ("exe",)
    syntax = " device({device} : {device:type}) executable({executable}) : {result0:result}"

    @classmethod
    def create(cls, device: Value, executable: str | SymbolRefAttr) -> ExecutableLookupOp:
        """`executable` is the executable's symbol (`@ex`)."""
        op: ExecutableLookupOp = cls.build({"executable": executable}, device=device)
        return op


@register_op
class ExecutableLookupFunctionOp(HalOp):
    """`%function_id = hal.executable.lookup.function target(%exe : !hal.executable)
    function(@ex::@variant::@fn) : i64`: the runtime id of an exported function."""

    __slots__ = ()
    name = "hal.executable.lookup.function"
    inherent_attributes = frozenset({"entry_point"})
    is_pure = True
    operand_names = ("executable",)
    attribute_fields = {"entry_point": SymbolRefAttr}
    result_types = (I64,)
    result_names = ("function_id",)
    syntax = " target({executable} : {executable:type}) function({entry_point}) : {result0:result}"

    @classmethod
    def create(
        cls, executable: Value, entry_point: str | SymbolRefAttr
    ) -> ExecutableLookupFunctionOp:
        op: ExecutableLookupFunctionOp = cls.build(
            {"entry_point": entry_point}, executable=executable
        )
        return op


@parse_rule("hal_workload")
def _hal_workload(b: Builder, children: list[Any]) -> Clause:
    return Clause("workload", list(children[-1]))


@register_op
class ExecutableCalculateWorkgroupsOp(HalOp):
    """`%x, %y, %z = hal.executable.calculate_workgroups device(%d : !hal.device)
    target(@ex::@variant::@fn) workload([%w0, ...]) : index, index, index`: the workgroup
    count the export's count region computes for a workload."""

    __slots__ = ()
    name = "hal.executable.calculate_workgroups"
    inherent_attributes = frozenset({"entry_point"})
    is_pure = True
    operand_names = ("device",)
    attribute_fields = {"entry_point": SymbolRefAttr}
    result_types = (INDEX, INDEX, INDEX)
    result_names = ("workgroup_x", "workgroup_y", "workgroup_z")
    syntax = " device({device} : {device:type}) target({entry_point})"

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        # The template ends before the optional workload and the three result types.
        op = cls.from_template_parts(b, rest[:-3], dict(clauses.get("attributes", {})), location)
        for result, type in zip(op.results, rest[-3:]):
            result.type = type
        workload: list[Value] = clauses.get("workload", [])
        for value in workload:
            check_operand_type(value, INDEX, location)
        op.set_operands([*op.operands, *workload])
        return op

    @classmethod
    def create(
        cls, device: Value, entry_point: str | SymbolRefAttr, workload: Sequence[Value]
    ) -> ExecutableCalculateWorkgroupsOp:
        op: ExecutableCalculateWorkgroupsOp = cls.build({"entry_point": entry_point}, device=device)
        op.set_operands([device, *workload])
        return op

    @property
    def workload(self) -> list[Value]:
        return list(self.operands[1:])

    def print(self, p: Printer) -> None:
        p.write(self.name)
        p.write(self.syntax.format_map(_Fields(self, p)))
        if self.workload:
            p.write(f" workload([{p.values(self.workload)}])")
        p.write(" : " + ", ".join(type_text(r.type) for r in self.results))
        p.attr_dict(self, tuple(self.attribute_fields), keyword=True)


# -- command buffers --------------------------------------------------------------------------


@parse_rule("hal_binding_capacity")
def _hal_binding_capacity(b: Builder, children: list[Any]) -> Clause:
    return Clause("bindings", children[-1])


@register_op
class CommandBufferCreateOp(HalOp):
    """`%cmd = hal.command_buffer.create device(%d : !hal.device) mode(OneShot)
    categories(Transfer) affinity(%q) bindings(%n)? : !hal.command_buffer`."""

    __slots__ = ()
    name = "hal.command_buffer.create"
    inherent_attributes = frozenset({"modes", "command_categories"})
    operand_names = ("device", "queue_affinity")
    attribute_fields = {"modes": COMMAND_BUFFER_MODE, "command_categories": COMMAND_CATEGORY}
    result_types = (HAL_COMMAND_BUFFER,)
    result_names = ("cmd",)
    syntax = (
        " device({device} : {device:type}) mode({modes}) categories({command_categories}) "
        "affinity({queue_affinity})"
    )

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        # The template ends before the optional `bindings(%n)` and the result type.
        op = cls.from_template_parts(b, rest[:-1], dict(clauses.get("attributes", {})), location)
        op.results[0].type = rest[-1]
        if "bindings" in clauses:
            check_operand_type(clauses["bindings"], INDEX, location)
            op.set_operands([*op.operands, clauses["bindings"]])
        return op

    @classmethod
    def create(
        cls,
        device: Value,
        queue_affinity: Value,
        modes: int | str,
        categories: int | str,
        binding_capacity: Value | None = None,
    ) -> CommandBufferCreateOp:
        op: CommandBufferCreateOp = cls.build(
            {"modes": modes, "command_categories": categories},
            device=device,
            queue_affinity=queue_affinity,
        )
        if binding_capacity is not None:
            op.set_operands([*op.operands, binding_capacity])
        return op

    @property
    def binding_capacity(self) -> Value | None:
        return self.operands[2] if len(self.operands) > 2 else None

    def print(self, p: Printer) -> None:
        p.write(self.name)
        p.write(self.syntax.format_map(_Fields(self, p)))
        capacity = self.binding_capacity
        if capacity is not None:
            p.write(f" bindings({p.v(capacity)})")
        p.write(f" : {self.result.type}")
        p.attr_dict(self, tuple(self.attribute_fields), keyword=True)


@register_op
class CommandBufferFinalizeOp(HalOp):
    """`hal.command_buffer.finalize<%cmd : !hal.command_buffer>`: end recording."""

    __slots__ = ()
    name = "hal.command_buffer.finalize"
    operand_names = ("command_buffer",)
    syntax = "<{command_buffer} : {command_buffer:type}>"


@register_op
class CommandBufferDeviceOp(HalOp):
    """`%d = hal.command_buffer.device<%cmd : !hal.command_buffer> : !hal.device`."""

    __slots__ = ()
    name = "hal.command_buffer.device"
    is_pure = True
    operand_names = ("command_buffer",)
    result_types = (HAL_DEVICE,)
    syntax = "<{command_buffer} : {command_buffer:type}> : {result0:result}"


@register_op
class CommandBufferExecutionBarrierOp(HalOp):
    """`hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("...")
    target("...") flags("None")`: later commands wait for earlier ones."""

    __slots__ = ()
    name = "hal.command_buffer.execution_barrier"
    inherent_attributes = frozenset({"source_stage_mask", "target_stage_mask", "flags"})
    operand_names = ("command_buffer",)
    attribute_fields = {
        "source_stage_mask": EXECUTION_STAGE,
        "target_stage_mask": EXECUTION_STAGE,
        "flags": EXECUTION_BARRIER_FLAGS,
    }
    syntax = (
        "<{command_buffer} : {command_buffer:type}> source({source_stage_mask}) "
        "target({target_stage_mask}) flags({flags})"
    )


@register_op
class CommandBufferFillBufferOp(HalOp):
    """`hal.command_buffer.fill_buffer<%cmd : T> target(%b : !hal.buffer)[%o, %l]
    pattern(%p : i32) flags("None")`. The target may be a binding slot (`index`)."""

    __slots__ = ()
    name = "hal.command_buffer.fill_buffer"
    inherent_attributes = frozenset({"flags"})
    operand_types = {"source_buffer": _BUFFER_OR_SLOT, "target_buffer": _BUFFER_OR_SLOT}
    operand_names = ("command_buffer", "target_buffer", "target_offset", "length", "pattern")
    attribute_fields = {"flags": FILL_FLAGS}
    syntax = (
        "<{command_buffer} : {command_buffer:type}> target({target_buffer} : "
        "{target_buffer:type})[{target_offset}, {length}] pattern({pattern} : {pattern:type}) "
        "flags({flags})"
    )

    def operand_access(self, index: int) -> Access:
        return Access.WRITE if index == 1 and self.operands[1].type != INDEX else Access.NONE


@register_op
class CommandBufferCopyBufferOp(HalOp):
    """`hal.command_buffer.copy_buffer<%cmd : T> source(%a : !hal.buffer)[%o]
    target(%b : !hal.buffer)[%o] length(%l) flags("None")`. Buffers may be binding slots."""

    __slots__ = ()
    name = "hal.command_buffer.copy_buffer"
    inherent_attributes = frozenset({"flags"})
    operand_types = {"source_buffer": _BUFFER_OR_SLOT, "target_buffer": _BUFFER_OR_SLOT}
    operand_names = (
        "command_buffer",
        "source_buffer",
        "source_offset",
        "target_buffer",
        "target_offset",
        "length",
    )
    attribute_fields = {"flags": COPY_FLAGS}
    syntax = (
        "<{command_buffer} : {command_buffer:type}> source({source_buffer} : "
        "{source_buffer:type})[{source_offset}] target({target_buffer} : "
        "{target_buffer:type})[{target_offset}] length({length}) flags({flags})"
    )

    def operand_access(self, index: int) -> Access:
        if self.operands[index].type == INDEX:
            return Access.NONE
        return {1: Access.READ, 3: Access.WRITE}.get(index, Access.NONE)


@parse_rule("hal_constants")
def _hal_constants(b: Builder, children: list[Any]) -> Clause:
    return Clause("constants", list(children[-1]))


@register_op
class CommandBufferDispatchOp(HalOp, SegmentedOp):
    """`hal.command_buffer.dispatch<%cmd : T> target(%exe : !hal.executable)[%ordinal]
    workgroups([%x, %y, %z]) constants([...])? bindings([...]) flags("None")`."""

    __slots__ = ()
    name = "hal.command_buffer.dispatch"
    inherent_attributes = frozenset({"flags"})
    operand_names = (
        "command_buffer",
        "executable",
        "entry_point",
        "workgroup_x",
        "workgroup_y",
        "workgroup_z",
    )
    attribute_fields = {"flags": DISPATCH_FLAGS}
    segment_names = ("fixed", "constants", "binding_buffers", "binding_offsets", "binding_lengths")

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> Operation:
        clauses, rest = split_clauses(parts)
        command_buffer, cmd_type, executable, exe_type, entry_point, x, y, z, bindings, flags = rest
        check_operand_type(command_buffer, cmd_type, location)
        check_operand_type(executable, exe_type, location)
        constants: list[Value] = clauses.get("constants", [])
        for constant in constants:
            check_operand_type(constant, I32, location)
        _check_bindings(bindings, location)
        attributes = dict(clauses.get("attributes", {}))
        attributes["flags"] = _attribute_from_token(
            b, cls.name, "flags", DISPATCH_FLAGS, flags, location
        )
        count = len(bindings)
        operands = [command_buffer, executable, entry_point, x, y, z, *constants]
        for position in (0, 2, 3):
            operands.extend(binding[position] for binding in bindings)
        return cls(
            operands,
            (),
            attributes,
            location=location,
            segments=(6, len(constants), count, count, count),
        )

    @classmethod
    def create(
        cls,
        command_buffer: Value,
        executable: Value,
        entry_point: Value,
        workgroups: Sequence[Value],
        constants: Sequence[Value],
        bindings: Sequence[tuple[Value, Any, Value, Value]],
        flags: int | str = 0,
    ) -> CommandBufferDispatchOp:
        """A dispatch of function `entry_point` over `workgroups` (x, y, z); `bindings` are
        `(buffer, type, offset, length)` (the type is not used)."""
        operands = [command_buffer, executable, entry_point, *workgroups, *constants]
        for position in (0, 2, 3):
            operands.extend(binding[position] for binding in bindings)
        count = len(bindings)
        return cls(
            operands,
            (),
            shared_attributes({"flags": DISPATCH_FLAGS.attr(flags)}),
            segments=(6, len(constants), count, count, count),
        )

    @property
    def constants(self) -> list[Value]:
        return self.segment(1)

    @property
    def binding_buffers(self) -> list[Value]:
        return self.segment(2)

    def operand_access(self, index: int) -> Access:
        position = index - self.segment_start(2)
        if 0 <= position < self.segments[2] and self.operands[index].type != INDEX:
            # A kernel may read and write each binding.
            return Access.READ | Access.WRITE
        return Access.NONE

    def verify(self) -> None:
        if not self.segments[2] == self.segments[3] == self.segments[4]:
            raise _op_error(
                self, "requires that binding fields all have the same number of elements"
            )

    def print(self, p: Printer) -> None:
        cmd, exe, entry_point, x, y, z = self.segment(0)
        p.write(f"{self.name}<{p.v(cmd)} : {cmd.type}> target({p.v(exe)} : {exe.type})")
        p.write(f"[{p.v(entry_point)}] workgroups([{p.values([x, y, z])}])")
        if self.constants:
            p.write(f" constants([{p.values(self.constants)}])")
        p.write(" bindings(")
        p.write(_print_bindings(p, self.segment(2), self.segment(3), self.segment(4)))
        p.write(f") flags({self.attribute_map['flags'].text})")
        p.attr_dict(self, ("flags",), keyword=True)


# -- ops kept as written, checked as IREE's verifiers check them ---------------------------


@unmodelled_check("hal.interface.binding.subspan")
def _check_binding_subspan(op: Operation) -> None:
    """InterfaceBindingSubspanOp::verify: a shaped result type has one `{...}` value per
    dynamic dimension (`... : memref<?x4xi8>{%dim}`, read off the kept text)."""
    if not isinstance(op, OpaqueOp):
        return
    written = op.trailing_type_text()
    if written is None:
        return
    type_text, _, dims = written.partition("{")
    type_text = type_text.strip()
    if not type_text.startswith(("memref<", "tensor<", "vector<")) or "<*" in type_text:
        return
    dynamic = ShapedType(type_text).shape.count(None)
    values = dims.count("%_")
    if dynamic != values:
        raise _op_error(
            op,
            f"result type '{type_text}' has {dynamic} dynamic dimensions but {values} "
            "associated dimension SSA values",
        )
