"""hal executables (the host-side lookups) and command buffers."""

from __future__ import annotations

from streamopt.dialects import register_op, unmodelled_check
from streamopt.dialects.builtin import OpaqueOp
from streamopt.dialects.common import (
    STRING,
    SYMBOL,
    EffectsNotModelledOp,
    SegmentedOp,
    op_error,
)
from streamopt.dialects.hal.base import (
    COMMAND_BUFFER_MODE,
    COMMAND_CATEGORY,
    COPY_FLAGS,
    DISPATCH_FLAGS,
    EXECUTION_BARRIER_FLAGS,
    EXECUTION_STAGE,
    FILL_FLAGS,
    UPDATE_FLAGS,
    HalOp,
)
from streamopt.ir.core import Access, Operation
from streamopt.ir.opdef import (
    attr_def,
    operand_def,
    result_def,
)
from streamopt.ir.types import (
    HAL_BUFFER_CONSTRAINT,
    HAL_COMMAND_BUFFER,
    HAL_DEVICE,
    I32,
    I64,
    INDEX,
    INDEX_CONSTRAINT,
    UTIL_BUFFER_CONSTRAINT,
    DialectType,
    ShapedType,
    TypeConstraint,
)

HAL_EXECUTABLE = DialectType("!hal.executable")


# A buffer, or the index of a binding table slot (AnyTypeOf<[Index, HAL_BufferType]>).
_BUFFER_OR_SLOT = TypeConstraint(
    "index or buffer", lambda t: HAL_BUFFER_CONSTRAINT.accepts(t) or INDEX_CONSTRAINT.accepts(t)
)


@register_op
class ExecutableLookupOp(HalOp):
    """`%exe = hal.executable.lookup device(%d : !hal.device) executable(@ex) :
    !hal.executable`: the (cached, possibly lazily loaded) executable on a device."""

    name = "hal.executable.lookup"
    is_pure = True
    device = operand_def()
    executable = attr_def(SYMBOL)
    result = result_def(HAL_EXECUTABLE, asm_name="exe")
    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `executable` `(` $executable `)` "
        "`:` type($result) attr-dict-with-keyword"
    )


@register_op
class ExecutableLookupFunctionOp(HalOp):
    """`%function_id = hal.executable.lookup.function target(%exe : !hal.executable)
    function(@ex::@variant::@fn) : i64`: the runtime id of an exported function."""

    name = "hal.executable.lookup.function"
    is_pure = True
    executable = operand_def()
    entry_point = attr_def(SYMBOL)
    result = result_def(I64, asm_name="function_id")
    assembly_format = (
        "`target` `(` $executable `:` type($executable) `)` `function` `(` $entry_point `)` "
        "`:` type($result) attr-dict-with-keyword"
    )


@register_op
class ExecutableCalculateWorkgroupsOp(HalOp):
    """`%x, %y, %z = hal.executable.calculate_workgroups device(%d : !hal.device)
    target(@ex::@variant::@fn) workload([%w0, ...]) : index, index, index`: the workgroup
    count the export's count region computes for a workload."""

    name = "hal.executable.calculate_workgroups"
    is_pure = True
    device = operand_def()
    workload = operand_def(INDEX_CONSTRAINT, variadic=True)
    entry_point = attr_def(SYMBOL)
    workgroup_x = result_def(INDEX, asm_name="workgroup_x")
    workgroup_y = result_def(INDEX, asm_name="workgroup_y")
    workgroup_z = result_def(INDEX, asm_name="workgroup_z")
    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `target` `(` $entry_point `)` "
        "(`workload` `(` `[` $workload^ `]` `)`)? "
        "`:` type($workgroup_x) `,` type($workgroup_y) `,` type($workgroup_z) "
        "attr-dict-with-keyword"
    )


# -- command buffers --------------------------------------------------------------------------


@register_op
class CommandBufferCreateOp(HalOp):
    """`%cmd = hal.command_buffer.create device(%d : !hal.device) mode(OneShot)
    categories(Transfer) affinity(%q) bindings(%n)? : !hal.command_buffer`."""

    name = "hal.command_buffer.create"
    device = operand_def()
    queue_affinity = operand_def()
    binding_capacity = operand_def(INDEX_CONSTRAINT, optional=True)
    modes = attr_def(COMMAND_BUFFER_MODE)
    command_categories = attr_def(COMMAND_CATEGORY)
    result = result_def(HAL_COMMAND_BUFFER, asm_name="cmd")
    assembly_format = (
        "`device` `(` $device `:` type($device) `)` `mode` `(` $modes `)` "
        "`categories` `(` $command_categories `)` `affinity` `(` $queue_affinity `)` "
        "(`bindings` `(` $binding_capacity^ `)`)? `:` type($result) attr-dict-with-keyword"
    )


@register_op
class CommandBufferFinalizeOp(HalOp):
    """`hal.command_buffer.finalize<%cmd : !hal.command_buffer>`: end recording."""

    name = "hal.command_buffer.finalize"
    command_buffer = operand_def()
    assembly_format = "`<` $command_buffer `:` type($command_buffer) `>` attr-dict-with-keyword"


@register_op
class CommandBufferDeviceOp(HalOp):
    """`%d = hal.command_buffer.device<%cmd : !hal.command_buffer> : !hal.device`."""

    name = "hal.command_buffer.device"
    is_pure = True
    command_buffer = operand_def()
    result = result_def(HAL_DEVICE)
    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>` `:` type($result) attr-dict-with-keyword"
    )


@register_op
class CommandBufferExecutionBarrierOp(HalOp):
    """`hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("...")
    target("...") flags("None")`: later commands wait for earlier ones."""

    name = "hal.command_buffer.execution_barrier"
    command_buffer = operand_def()
    source_stage_mask = attr_def(EXECUTION_STAGE)
    target_stage_mask = attr_def(EXECUTION_STAGE)
    flags = attr_def(EXECUTION_BARRIER_FLAGS, default=0)
    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>` `source` `(` $source_stage_mask `)` "
        "`target` `(` $target_stage_mask `)` `flags` `(` $flags `)` attr-dict-with-keyword"
    )


class _CommandOp(HalOp):
    """A command buffer op whose buffers may be binding table slots (an `index`, no buffer):
    only a buffer operand has its field's access."""

    def operand_access(self, index: int) -> Access:
        return Access.NONE if self.operands[index].type == INDEX else super().operand_access(index)


@register_op
class CommandBufferFillBufferOp(_CommandOp):
    """`hal.command_buffer.fill_buffer<%cmd : T> target(%b : !hal.buffer)[%o, %l]
    pattern(%p : i32) flags("None")`. The target may be a binding slot (`index`)."""

    name = "hal.command_buffer.fill_buffer"
    command_buffer = operand_def()
    target_buffer = operand_def(_BUFFER_OR_SLOT, access=Access.WRITE)
    target_offset = operand_def()
    length = operand_def()
    pattern = operand_def()
    flags = attr_def(FILL_FLAGS, default=0)
    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>` "
        "`target` `(` $target_buffer `:` type($target_buffer) `)` "
        "`` `[` $target_offset `,` $length `]` `pattern` `(` $pattern `:` type($pattern) `)` "
        "`flags` `(` $flags `)` attr-dict-with-keyword"
    )


@register_op
class CommandBufferCopyBufferOp(_CommandOp):
    """`hal.command_buffer.copy_buffer<%cmd : T> source(%a : !hal.buffer)[%o]
    target(%b : !hal.buffer)[%o] length(%l) flags("None")`. Buffers may be binding slots."""

    name = "hal.command_buffer.copy_buffer"
    command_buffer = operand_def()
    source_buffer = operand_def(_BUFFER_OR_SLOT, access=Access.READ)
    source_offset = operand_def()
    target_buffer = operand_def(_BUFFER_OR_SLOT, access=Access.WRITE)
    target_offset = operand_def()
    length = operand_def()
    flags = attr_def(COPY_FLAGS, default=0)
    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>` "
        "`source` `(` $source_buffer `:` type($source_buffer) `)` `` `[` $source_offset `]` "
        "`target` `(` $target_buffer `:` type($target_buffer) `)` `` `[` $target_offset `]` "
        "`length` `(` $length `)` `flags` `(` $flags `)` attr-dict-with-keyword"
    )


@register_op
class CommandBufferDispatchOp(_CommandOp, SegmentedOp):
    """`hal.command_buffer.dispatch<%cmd : T> target(%exe : !hal.executable)[%ordinal]
    workgroups([%x, %y, %z]) constants([...])? bindings([...]) flags("None")`."""

    name = "hal.command_buffer.dispatch"
    command_buffer = operand_def()
    executable = operand_def()
    entry_point = operand_def()
    workgroup_x = operand_def()
    workgroup_y = operand_def()
    workgroup_z = operand_def()
    constants = operand_def(variadic=True, type=I32)
    # A kernel may read and write each binding (a binding slot, an index, is no buffer).
    binding_buffers = operand_def(variadic=True, access=Access.READ | Access.WRITE)
    binding_offsets = operand_def(variadic=True)
    binding_lengths = operand_def(variadic=True)
    flags = attr_def(DISPATCH_FLAGS, default=0)
    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>` "
        "`target` `(` $executable `:` type($executable) `)` `` `[` $entry_point `]` "
        "`workgroups` `(` `[` $workgroup_x `,` $workgroup_y `,` $workgroup_z `]` `)` "
        "(`constants` `(` `[` $constants^ `]` `)`)? `bindings` `(` `[` custom<Bindings>("
        "$binding_buffers, type($binding_buffers), $binding_offsets, $binding_lengths) `]` `)` "
        "`flags` `(` $flags `)` attr-dict-with-keyword"
    )

    def verify(self) -> None:
        if not len(self.binding_buffers) == len(self.binding_offsets) == len(self.binding_lengths):
            raise op_error(
                self, "requires that binding fields all have the same number of elements"
            )


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
        raise op_error(
            op,
            f"result type '{type_text}' has {dynamic} dynamic dimensions but {values} "
            "associated dimension SSA values",
        )


# -- declared, effects not modelled -----------------------------------------------------------


@register_op
class CommandBufferBeginDebugGroupOp(EffectsNotModelledOp, HalOp):
    """`hal.command_buffer.begin_debug_group<%cmd : !hal.command_buffer> label("name")`."""

    name = "hal.command_buffer.begin_debug_group"
    command_buffer = operand_def()
    label = attr_def(STRING)
    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>` `label` `(` $label `)` "
        "attr-dict-with-keyword"
    )


@register_op
class CommandBufferEndDebugGroupOp(EffectsNotModelledOp, HalOp):
    """`hal.command_buffer.end_debug_group<%cmd : !hal.command_buffer>`."""

    name = "hal.command_buffer.end_debug_group"
    command_buffer = operand_def()
    assembly_format = "`<` $command_buffer `:` type($command_buffer) `>` attr-dict-with-keyword"


@register_op
class CommandBufferUpdateBufferOp(EffectsNotModelledOp, _CommandOp):
    """`hal.command_buffer.update_buffer<%cmd : T> source(%bytes : !util.buffer{%n})[%o]
    target(%b : !hal.buffer)[%p] length(%l) flags("None")`: host bytes recorded into a buffer
    (or a binding table slot)."""

    name = "hal.command_buffer.update_buffer"
    command_buffer = operand_def()
    source_buffer = operand_def(UTIL_BUFFER_CONSTRAINT)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source_buffer")
    source_offset = operand_def()
    target_buffer = operand_def(_BUFFER_OR_SLOT)
    target_offset = operand_def()
    length = operand_def()
    flags = attr_def(UPDATE_FLAGS, default=0)
    assembly_format = (
        "`<` $command_buffer `:` type($command_buffer) `>` `source` `(` $source_buffer `:` "
        "type($source_buffer) `{` $source_size `}` `)` `` `[` $source_offset `]` `target` `(` "
        "$target_buffer `:` type($target_buffer) `)` `` `[` $target_offset `]` `length` `(` "
        "$length `)` `flags` `(` $flags `)` attr-dict-with-keyword"
    )
