"""What the hal modules share: bit-enum attributes, the hal types and lifetimes, and the
declared base of hal ops."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from streamopt.diagnostics import error
from streamopt.ir.opdef import (
    AttributeKind,
    DeclaredOp,
    FormatReader,
)
from streamopt.ir.types import (
    HAL_BUFFER_CONSTRAINT,
    HAL_BUFFER_VIEW_CONSTRAINT,
    HAL_COMMAND_BUFFER_CONSTRAINT,
    HAL_DEVICE_CONSTRAINT,
    HAL_FENCE_CONSTRAINT,
    I32,
    I32_CONSTRAINT,
    I64,
    I64_CONSTRAINT,
    INDEX_CONSTRAINT,
    Attribute,
    DialectType,
    IntegerAttr,
    TypeConstraint,
    signless_integer,
)


class BitEnum(AttributeKind):
    """A HAL bit-enum attribute kind (`flags("None")`, `flags(PreferOrigin)`): `None` then its
    `cases` (`"Name=bits ..."`), in IREE's declaration order, stored in an integer of `width`
    bits (the generic form's `flags = 1 : i64`)."""

    grammar = "_hal_enum"
    reads_generic = True

    def __init__(self, name: str, cases: str, width: int = 64) -> None:
        self.name = name
        self.storage = I64 if width == 64 else I32
        self.by_name = {"None": 0}
        for case in cases.split():
            spelling, _, bits = case.partition("=")
            self.by_name[spelling] = int(bits, 0)
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
            return "None"
        return "|".join(
            name for name, bits in self.by_name.items() if bits and value & bits == bits
        )

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

    def make(self, value: Any) -> Attribute:
        return self.attr(value)

    def from_attribute(self, attribute: Attribute) -> Attribute | None:
        if not isinstance(attribute, IntegerAttr) or attribute.type != self.storage:
            return None
        mask = 0
        for bits in self.by_name.values():
            mask |= bits
        if attribute.value < 0 or attribute.value & ~mask:  # MLIR refuses bits no case has.
            return None
        return self.attr(attribute.value)

    def from_part(self, reader: FormatReader, name: str, token: Any) -> Attribute:
        """The value `token` spells; an unknown case is an error at the token, worded as
        IREE words it."""
        text = str(token)
        value = self.parse(text[1:-1] if token.type == "STRING" else text)
        if value is None:
            where = reader.builder.location(token) if hasattr(token, "line") else reader.location
            raise error(unknown_case(reader.definition.name, name, token, self.by_name), where)
        return self.attr(value)


def unknown_case(op_name: str, attribute: str, token: Any, cases: Iterable[str]) -> str:
    """iree-opt's words for enum attribute `attribute` of op `op_name` when `token`, a
    string or a keyword, names none of its `cases`."""
    if token.type == "STRING":
        return f"custom op '{op_name}' invalid {attribute} attribute specification: {token}"
    return (
        f"custom op '{op_name}' expected string or keyword containing one of the following enum "
        f"values for attribute '{attribute}' [{', '.join(cases)}]"
    )


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


ALLOCA_FLAGS = BitEnum("AllocaFlag", "IndeterminateLifetime=1")
DEALLOCA_FLAGS = BitEnum("DeallocaFlag", "PreferOrigin=1")
# `hal.device.queue.move` (proposed; not in IREE yet): PreferOrigin frees a copied source on its
# origin queue, as queue.dealloca's does; the rest are the proposed HAL_MOVE_FLAG_* bits.
MOVE_FLAGS = BitEnum(
    "MoveFlag",
    "PreferOrigin=0x1 RequireAlias=0x2 ForceCopy=0x4 AllowGrant=0x8 KeepSource=0x10 "
    "AllowLowPerformance=0x20",
)
COPY_FLAGS = BitEnum("CopyFlag", "Reserved=1")
READ_FLAGS = BitEnum("ReadFlag", "Reserved=1")
WRITE_FLAGS = BitEnum("WriteFlag", "Reserved=1")
UPDATE_FLAGS = BitEnum("UpdateFlag", "Reserved=1")
CHANNEL_FLAGS = BitEnum("ChannelFlag", "Reserved=1")
MEMORY_ACCESS = BitEnum(
    "MemoryAccess", "Read=0x1 Write=0x2 Discard=0x4 MayAlias=0x8 Unaligned=0x10 Any=0x20", 32
)
FILL_FLAGS = BitEnum("FillFlag", "Reserved=1")
EXECUTE_FLAGS = BitEnum("ExecuteFlag", "Reserved=1")
FENCE_FLAGS = BitEnum("FenceFlag", "Reserved=1")
WAIT_FLAGS = BitEnum("WaitFlag", "Reserved=1")
DISPATCH_FLAGS = BitEnum("DispatchFlags", "Reserved=1")
EXECUTION_BARRIER_FLAGS = BitEnum("ExecutionBarrierFlag", "Reserved=1")
COMMAND_BUFFER_MODE = BitEnum("CommandBufferMode", "OneShot=0x1 AllowInlineExecution=0x10", 32)
COMMAND_CATEGORY = BitEnum("CommandCategory", "Transfer=0x1 Dispatch=0x2", 32)
EXECUTION_STAGE = BitEnum(
    "ExecutionStage",
    "CommandIssue=0x1 CommandProcess=0x2 Dispatch=0x4 Transfer=0x8 CommandRetire=0x10 Host=0x20",
    32,
)
MEMORY_TYPE = BitEnum(
    "MemoryType",
    "Optimal=0x1 HostVisible=0x2 HostCoherent=0x4 HostCached=0x8 HostLocal=0x46 "
    "DeviceVisible=0x10 DeviceLocal=0x30",
    32,
)
BUFFER_USAGE = BitEnum(
    "BufferUsage",
    "TransferSource=0x1 TransferTarget=0x2 Transfer=0x3 DispatchIndirectParameters=0x100 "
    "DispatchUniformRead=0x200 DispatchStorageRead=0x400 DispatchStorageWrite=0x800 "
    "DispatchStorage=0xC00 DispatchImageRead=0x1000 DispatchImageWrite=0x2000 "
    "DispatchImage=0x3000 SharingExport=0x10000 SharingReplicate=0x20000 "
    "SharingConcurrent=0x40000 SharingImmutable=0x80000 MappingScoped=0x1000000 "
    "MappingPersistent=0x2000000 MappingOptional=0x4000000 MappingAccessRandom=0x8000000 "
    "MappingAccessSequentialWrite=0x10000000 Mapping=0x9000000",
    32,
)

# `!hal.file`: what `hal.ex.file.from_memory` makes and `hal.device.queue.read` reads.
HAL_FILE = DialectType("!hal.file")
# IREE's HAL_File, which HALTypes.td describes as "buffer".
HAL_FILE_CONSTRAINT = TypeConstraint("buffer", lambda t: t == HAL_FILE)


# The type HALOps.td gives the operands of these names (HAL_Device, HAL_DeviceQueueAffinity,
# HAL_Fence, HAL_DeviceQueuePool, HAL_MemoryType, HAL_BufferUsage, HAL_DeviceSize, ...).
_OPERAND_TYPES: Mapping[str, TypeConstraint] = {
    name: constraint
    for names, constraint in (
        ("device", HAL_DEVICE_CONSTRAINT),
        ("command_buffer", HAL_COMMAND_BUFFER_CONSTRAINT),
        ("buffer_view", HAL_BUFFER_VIEW_CONSTRAINT),
        ("wait_fence signal_fence", HAL_FENCE_CONSTRAINT),
        ("source_buffer target_buffer", HAL_BUFFER_CONSTRAINT),
        ("queue_affinity pool entry_point", I64_CONSTRAINT),
        ("memory_types buffer_usage element_type encoding_type", I32_CONSTRAINT),
        ("pattern", signless_integer(8, 16, 32)),  # HAL_FillPatternType.
        (
            "result_size source_offset target_offset source_length offset length minimum_length "
            "workgroup_x workgroup_y workgroup_z",
            INDEX_CONSTRAINT,
        ),
    )
    for name in names.split()
}


class HalOp(DeclaredOp):
    """A hal op declared by its fields and IREE's assembly format (see streamopt.ir.opdef).
    Operands are named as in HALOps.td, and a name means one type there (`_OPERAND_TYPES`)."""

    default_operand_types = _OPERAND_TYPES


def quads(part: Any) -> list[list[Any]]:
    """The children of a list rule without a callback (parser.lalr.Tree), four per item: the
    values and types of `(%buffer : T)[%offset, %length]` or `(%device, %queue : T, U)`."""
    items = part.children
    return [items[i : i + 4] for i in range(0, len(items), 4)]
