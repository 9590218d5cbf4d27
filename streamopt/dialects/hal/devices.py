"""hal fences, allocators, devices and files."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import error
from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.builtin import attribute_type
from streamopt.dialects.common import (
    ANY_ATTRIBUTE,
    STRING,
    EffectsNotModelledOp,
    SegmentedOp,
    check_operand_type,
    op_error,
)
from streamopt.dialects.hal.base import (
    CHANNEL_FLAGS,
    FENCE_FLAGS,
    HAL_FILE,
    MEMORY_ACCESS,
    WAIT_FLAGS,
    HalOp,
    quads,
    unknown_case,
)
from streamopt.ir.core import Access
from streamopt.ir.opdef import (
    AttributeKind,
    CustomDirective,
    DeclaredOp,
    FormatReader,
    attr_def,
    custom_directive,
    operand_def,
    result_def,
)
from streamopt.ir.types import (
    HAL_ALLOCATOR,
    HAL_BUFFER,
    HAL_DEVICE,
    HAL_FENCE,
    HAL_FENCE_CONSTRAINT,
    I1,
    I32,
    I32_CONSTRAINT,
    I64,
    INDEX,
    INDEX_CONSTRAINT,
    UTIL_BUFFER_CONSTRAINT,
    Attribute,
    DialectType,
    IntegerAttr,
    IntegerType,
    OpaqueAttr,
    TypeConstraint,
)
from streamopt.parser.parts import Clause
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


# The lifetimes `hal.allocator.resolve_memory_properties` accepts (`*` is unknown).
LIFETIMES = ("*", "external", "staging", "transient", "variable", "constant")
# The `lifetime(...)` attribute of each, shared by the ops a lowering makes.
_LIFETIME_ATTRS = {lifetime: OpaqueAttr(lifetime) for lifetime in LIFETIMES}

# What hal.device.resolve gives: AnyTypeOf<[HAL_Device, HAL_Allocator, HAL_DeviceQueueAffinity]>.
_DEVICE_ALLOCATOR_OR_AFFINITY = TypeConstraint(
    "device or allocator or 64-bit signless integer",
    lambda t: t in (HAL_DEVICE, HAL_ALLOCATOR, I64),
)


@register_op
class FenceCreateOp(HalOp):
    """`%fence = hal.fence.create device(%d : !hal.device) flags("None") : !hal.fence`."""

    name = "hal.fence.create"
    device = operand_def()
    flags = attr_def(FENCE_FLAGS, default=0)
    result = result_def(HAL_FENCE, asm_name="fence")
    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `flags` `(` $flags `)` `:` type($result) "
        "attr-dict-with-keyword"
    )


@register_op
class FenceJoinOp(HalOp):
    """`%fence = hal.fence.join at([%a, %b]) flags("None") -> !hal.fence`: reached when all
    of the fences are."""

    name = "hal.fence.join"
    fences = operand_def(HAL_FENCE_CONSTRAINT, variadic=True, type=HAL_FENCE)
    flags = attr_def(FENCE_FLAGS, default=0)
    result = result_def(HAL_FENCE, asm_name="fence")
    assembly_format = (
        "`at` `(` `[` $fences `]` `)` `flags` `(` $flags `)` `->` type($result) "
        "attr-dict-with-keyword"
    )


@register_op
class FenceAwaitOp(HalOp):
    """`%status = hal.fence.await until([%f]) timeout_millis(%t) flags("None") : i32`: block
    the host until the fences are reached."""

    name = "hal.fence.await"
    timeout_millis = operand_def(I32_CONSTRAINT)
    fences = operand_def(HAL_FENCE_CONSTRAINT, variadic=True, type=HAL_FENCE)
    flags = attr_def(WAIT_FLAGS, default=0)
    status = result_def(I32, asm_name="status")
    assembly_format = (
        "`until` `(` `[` $fences `]` `)` `timeout_millis` `(` $timeout_millis `)` "
        "`flags` `(` $flags `)` `:` type($status) attr-dict-with-keyword"
    )


@register_op
class FenceQueryOp(HalOp):
    """`%status = hal.fence.query<%fence : !hal.fence> : i32`: OK once the fence is reached."""

    name = "hal.fence.query"
    fence = operand_def(HAL_FENCE_CONSTRAINT)
    status = result_def(I32)
    assembly_format = "`<` $fence `:` type($fence) `>` `:` type($status) attr-dict-with-keyword"


@register_op
class FenceSignalOp(HalOp):
    """`hal.fence.signal<%fence : !hal.fence>`: reach the fence from the host."""

    name = "hal.fence.signal"
    fence = operand_def(HAL_FENCE_CONSTRAINT)
    assembly_format = "`<` $fence `:` type($fence) `>` attr-dict-with-keyword"


@register_op
class FenceFailOp(HalOp):
    """`hal.fence.fail<%fence : !hal.fence> status(%status)`: fail the fence with a status."""

    name = "hal.fence.fail"
    fence = operand_def(HAL_FENCE_CONSTRAINT)
    status = operand_def(I32_CONSTRAINT)
    assembly_format = (
        "`<` $fence `:` type($fence) `>` `status` `(` $status `)` attr-dict-with-keyword"
    )


# -- allocator and device lookup --------------------------------------------------------------


@parse_rule("hal_lifetime")
def _hal_lifetime(b: Builder, children: list[Any]) -> Attribute:
    (token,) = children
    quoted = token.type == "STRING"
    name = str(token)[1:-1] if quoted else str(token)
    # `*` is no keyword: it is written as a string.
    if name not in LIFETIMES or (name == "*" and not quoted):
        op_name = "hal.allocator.resolve_memory_properties"
        raise error(unknown_case(op_name, "lifetime", token, LIFETIMES), b.location(token))
    return _LIFETIME_ATTRS[name]


class _LifetimeKind(AttributeKind):
    """HAL_LifetimeAttr (`lifetime(transient)`), read by `hal_lifetime`; `*`, not a keyword,
    is written as a string. The accessor gives the lifetime's name."""

    grammar = "hal_lifetime"

    def from_part(self, reader: FormatReader, name: str, part: Any) -> Attribute:
        attribute: Attribute = part
        return attribute

    def text(self, attribute: Attribute) -> str:
        return '"*"' if attribute.text == "*" else attribute.text

    def make(self, value: Any) -> Attribute:
        return _LIFETIME_ATTRS[value]

    def value(self, attribute: Attribute) -> str:
        return attribute.text

    reads_generic = True

    def from_attribute(self, attribute: Attribute) -> Attribute | None:
        # IREE's HAL_Lifetime: an i32 that numbers LIFETIMES.
        if not isinstance(attribute, IntegerAttr) or attribute.type != I32:
            return None
        found = attribute.value
        return _LIFETIME_ATTRS[LIFETIMES[found]] if 0 <= found < len(LIFETIMES) else None


@parse_rule("hal_for_affinity")
def _hal_for_affinity(b: Builder, children: list[Any]) -> Clause:
    token = next(c for c in children if getattr(c, "type", None) == "ATTR_REF")
    return b.affinity_clause("for", token)


@register_op
class AllocatorResolveMemoryPropertiesOp(HalOp):
    """`%memory_types, %buffer_usage = hal.allocator.resolve_memory_properties for(A)
    lifetime(transient) : i32, i32`: the memory type and usage bits a resource of that
    lifetime needs on affinity A."""

    name = "hal.allocator.resolve_memory_properties"
    is_pure = True
    affinity = attr_def(ANY_ATTRIBUTE)
    lifetime = attr_def(_LifetimeKind())
    memory_types = result_def(I32, asm_name="memory_types")
    buffer_usage = result_def(I32, asm_name="buffer_usage")
    assembly_format = (
        "(`for` `(` $affinity^ `)`)? `lifetime` `(` $lifetime `)` "
        "`:` type($memory_types) `,` type($buffer_usage) attr-dict-with-keyword"
    )

    @classmethod
    def create(
        cls, lifetime: str, affinity: Attribute | None = None
    ) -> AllocatorResolveMemoryPropertiesOp:
        """The op for a resource of `lifetime` (one of LIFETIMES) on `affinity`."""
        return super().create(affinity=affinity, lifetime=lifetime)


def _parse_affinity_list(reader: FormatReader, part: Any, args: Sequence[tuple[str, str]]) -> None:
    devices, _, affinities = (name for _, name in args)
    entries = quads(part)
    for device, affinity, device_type, affinity_type in entries:
        check_operand_type(device, device_type, reader.location)
        check_operand_type(affinity, affinity_type, reader.location)
    reader.operands[devices] = [entry[0] for entry in entries]
    reader.operands[affinities] = [entry[1] for entry in entries]


def _print_affinity_list(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    devices, _, affinities = (op.definition.field_value(op, name) for _, name in args)
    indent = " " * p.indent_width
    entries = [
        f"({p.v(device)}, {p.v(affinity)} : {type_text(device.type)}, {type_text(affinity.type)})"
        for device, affinity in zip(devices, affinities)
    ]
    return f"[\n{indent}  " + f",\n{indent}  ".join(entries) + f"\n{indent}]"


# `custom<DeviceQueueAffinityList>($devices, type($devices), $queue_affinities)`:
# `[(%device, %queue_affinity : !hal.device, i64), ...]`, one pair per line.
custom_directive(
    "DeviceQueueAffinityList",
    CustomDirective("hal_device_queue_affinity_list", _parse_affinity_list, _print_affinity_list),
)


@register_op
class AllocatorSelectOp(HalOp, SegmentedOp):
    """`%device, %queue_affinity = hal.allocator.select from([(%d, %q : !hal.device, i64),
    ...]) type(%t) usage(%u) : !hal.device, i64`: pick the device that allocates memory shared
    by several (an `#hal.device.optimal` affinity)."""

    name = "hal.allocator.select"
    is_pure = True
    same_variadic_operand_size = True
    devices = operand_def(variadic=True)
    queue_affinities = operand_def(variadic=True)
    memory_types = operand_def(type=I32)
    buffer_usage = operand_def(type=I32)
    selected_device = result_def(HAL_DEVICE, asm_name="device")
    selected_queue_affinity = result_def(I64, asm_name="queue_affinity")
    assembly_format = (
        "`from` `(` custom<DeviceQueueAffinityList>($devices, type($devices), "
        "$queue_affinities) `)` `type` `(` $memory_types `)` `usage` `(` $buffer_usage `)` "
        "`:` type($selected_device) `,` type($selected_queue_affinity) attr-dict-with-keyword"
    )

    def verify(self) -> None:
        if len(self.devices) != len(self.queue_affinities):
            raise op_error(self, "requires the same number of devices and queue affinities")


@register_op
class DeviceAllocatorOp(HalOp):
    """`%allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator`."""

    name = "hal.device.allocator"
    is_pure = True
    device = operand_def()
    result = result_def(HAL_ALLOCATOR, asm_name="allocator")
    assembly_format = "`<` $device `:` type($device) `>` `:` type($result) attr-dict-with-keyword"


@register_op
class AllocatorAllocateOp(HalOp):
    """`%buffer = hal.allocator.allocate<%allocator : !hal.allocator> affinity(%q)
    type(%memory_types) usage(%buffer_usage) : !hal.buffer{%size}`: a buffer allocated at once
    (not on a queue), usable as soon as the op returns."""

    name = "hal.allocator.allocate"
    allocator = operand_def()
    queue_affinity = operand_def()
    memory_types = operand_def()
    buffer_usage = operand_def()
    result_size = operand_def(INDEX_CONSTRAINT, size_of="result")
    result = result_def(HAL_BUFFER, asm_name="buffer")
    assembly_format = (
        "`<` $allocator `:` type($allocator) `>` `affinity` `(` $queue_affinity `)` "
        "`type` `(` $memory_types `)` `usage` `(` $buffer_usage `)` "
        "`:` type($result) `{` $result_size `}` attr-dict-with-keyword"
    )


@register_op
class AllocatorImportOp(HalOp):
    """`%did_import, %mapped = hal.allocator.import<%allocator : !hal.allocator>
    source(%bytes : !util.buffer)[%offset, %length] affinity(%q) type(%memory_types)
    usage(%buffer_usage) : i1, !hal.buffer`: try to use host memory as a device buffer.

    When the device cannot use the memory with that type and usage (host memory as device
    local memory of a discrete device), `%did_import` is false and the buffer is null.
    """

    name = "hal.allocator.import"
    allocator = operand_def()
    queue_affinity = operand_def()
    memory_types = operand_def()
    buffer_usage = operand_def()
    source = operand_def(access=Access.ESCAPE)  # The imported buffer aliases the source bytes.
    offset = operand_def()
    length = operand_def(size_of="result")
    did_import = result_def(I1, asm_name="did_import")
    result = result_def(HAL_BUFFER, asm_name="mapped")
    assembly_format = (
        "`<` $allocator `:` type($allocator) `>` "
        "`source` `(` $source `:` type($source) `)` `` `[` $offset `,` $length `]` "
        "`affinity` `(` $queue_affinity `)` `type` `(` $memory_types `)` "
        "`usage` `(` $buffer_usage `)` `:` type($did_import) `,` type($result) "
        "attr-dict-with-keyword"
    )


@register_op
class ExFileFromMemoryOp(HalOp):
    """`%memory_file = hal.ex.file.from_memory device(%dev : !hal.device) affinity(%q)
    access(Read) buffer(%bytes : !util.buffer)[%offset for %length] flags(%flags) :
    !hal.file`: a file whose contents are a byte range of host memory (experimental in IREE)."""

    name = "hal.ex.file.from_memory"
    device = operand_def()
    queue_affinity = operand_def()
    buffer = operand_def(access=Access.ESCAPE)  # The file reads the bytes when a queue op does.
    offset = operand_def()
    length = operand_def()
    flags = operand_def()
    access = attr_def(MEMORY_ACCESS, default="Read")
    result = result_def(HAL_FILE, asm_name="memory_file")
    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `affinity` `(` $queue_affinity `)` "
        "`access` `(` $access `)` `buffer` `(` $buffer `:` type($buffer) `)` "
        "`` `[` $offset `for` $length `]` `flags` `(` $flags `)` `:` type($result) "
        "attr-dict-with-keyword"
    )


@register_op
class DeviceResolveOp(HalOp):
    """`%device, %queue_affinity = hal.device.resolve on(A) : !hal.device, i64`: the device
    (allocator, queue affinity) an affinity names."""

    name = "hal.device.resolve"
    is_pure = True
    affinity = attr_def(ANY_ATTRIBUTE)
    # IREE's `$results` (a name Operation has).
    outputs = result_def(variadic=True, constraint=_DEVICE_ALLOCATOR_OR_AFFINITY)
    assembly_format = "(`on` `(` $affinity^ `)`)? attr-dict `:` type($outputs)"

    def asm_result_name(self, index: int) -> str | None:
        type = self.results[index].type
        if type == HAL_DEVICE:
            return "device"
        if type == HAL_ALLOCATOR:
            return "allocator"
        if isinstance(type, IntegerType):
            return "queue_affinity"
        return None


@register_op
class DevicesCountOp(HalOp):
    """`%device_count = hal.devices.count : index`."""

    name = "hal.devices.count"
    is_pure = True
    result = result_def(INDEX, asm_name="device_count")
    assembly_format = "attr-dict `:` type($result)"


@register_op
class DevicesGetOp(HalOp):
    """`%device_0 = hal.devices.get %c0 : !hal.device`: the device at an ordinal."""

    name = "hal.devices.get"
    is_pure = True
    index = operand_def(INDEX_CONSTRAINT)
    result = result_def(HAL_DEVICE)
    assembly_format = "$index attr-dict `:` type($result)"

    def asm_result_name(self, index: int) -> str | None:
        producer = self.operands[0].defining_op
        ordinal = getattr(producer, "int_value", None) if producer is not None else None
        return f"device_{ordinal}" if isinstance(ordinal, int) else "device_n"


# -- declared, effects not modelled -----------------------------------------------------------

HAL_CHANNEL = DialectType("!hal.channel")
_CHANNEL = TypeConstraint("collective.channel", lambda t: t == HAL_CHANNEL)


@register_op
class ChannelCreateOp(EffectsNotModelledOp, HalOp):
    """`%channel = hal.channel.create device(%d : !hal.device) affinity(%q) flags("None")
    id(%id) group(%g) rank(%r) count(%n) : !hal.channel`: a collective channel."""

    name = "hal.channel.create"
    device = operand_def()
    queue_affinity = operand_def()
    flags = attr_def(CHANNEL_FLAGS, default=0)
    id = operand_def(UTIL_BUFFER_CONSTRAINT)
    group = operand_def(UTIL_BUFFER_CONSTRAINT)
    rank = operand_def(I32_CONSTRAINT)
    count = operand_def(I32_CONSTRAINT)
    result = result_def(asm_name="channel", constraint=_CHANNEL)
    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `affinity` `(` $queue_affinity `)` "
        "`flags` `(` $flags `)` `id` `(` $id `)` `group` `(` $group `)` `rank` `(` $rank `)` "
        "`count` `(` $count `)` `:` type($result) attr-dict-with-keyword"
    )


@register_op
class ChannelSplitOp(EffectsNotModelledOp, HalOp):
    """`%channel = hal.channel.split<%c : !hal.channel> color(%i) key(%j) flags("None") :
    !hal.channel`."""

    name = "hal.channel.split"
    channel = operand_def(_CHANNEL)
    color = operand_def(I32_CONSTRAINT)
    key = operand_def(I32_CONSTRAINT)
    flags = attr_def(CHANNEL_FLAGS, default=0)
    result = result_def(asm_name="channel", constraint=_CHANNEL)
    assembly_format = (
        "`<` $channel `:` type($channel) `>` `color` `(` $color `)` `key` `(` $key `)` `flags` "
        "`(` $flags `)` `:` type($result) attr-dict-with-keyword"
    )


@register_op
class ChannelRankAndCountOp(EffectsNotModelledOp, HalOp):
    """`%ccl_rank, %ccl_count = hal.channel.rank_and_count<%c : !hal.channel> : i32, i32`."""

    name = "hal.channel.rank_and_count"
    channel = operand_def(_CHANNEL)
    rank = result_def(I32, asm_name="ccl_rank")
    count = result_def(I32, asm_name="ccl_count")
    assembly_format = (
        "`<` $channel `:` type($channel) `>` `:` type($rank) `,` type($count) "
        "attr-dict-with-keyword"
    )


@register_op
class DeviceQueryOp(EffectsNotModelledOp, HalOp):
    """`%ok, %value = hal.device.query<%d : !hal.device> key("category" :: "key") : i1, T
    (= default)?`: a device property, and whether the device knows it."""

    name = "hal.device.query"
    device = operand_def()
    category = attr_def(STRING)
    key = attr_def(STRING)
    default_value = attr_def(ANY_ATTRIBUTE)
    ok = result_def(I1, asm_name="ok")
    value = result_def(asm_name="value")
    assembly_format = (
        "`<` $device `:` type($device) `>` `key` `(` $category `:` `` `:` $key `)` `:` "
        "type($ok) `,` type($value) (`=` $default_value^)? attr-dict-with-keyword"
    )

    def verify(self) -> None:
        default = self.default_value
        if default is not None and attribute_type(default) != self.value.type:
            raise op_error(self, "type mismatch between result and default value")
