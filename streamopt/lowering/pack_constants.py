"""`--pack-constants`: upload `stream.resource.constants` the way IREE's PackConstants does,
in the form IREE's stream phase ends in (IREE's HAL conversion rejects
`stream.resource.constants`).

The values of one op are laid out into storage buffers (`constant_packing`, shared with
`--lower-cmd-to-hal`, which uploads them the same way one level down); each buffer's bytes
become a `util.buffer.constant`, and then:

* `constant` lifetime: `stream.resource.try_map` uses the host data in place when the device
  can; otherwise (an `scf.if`) `stream.resource.alloc` + `stream.file.constant` +
  `stream.file.read` copy it into memory of the device's own;
* `variable` lifetime (mutable): always the alloc + read.

Each value is a `stream.resource.subview` of its buffer (the buffer itself when it is the
whole buffer); the buffers are uploaded one after the other, and the op's timepoint is the last
upload's. Runs as part of `--lower-to-cmd`; implemented here rather than by calling IREE's pass
so that streamopt's output needs nothing in between it and `iree-compile
--compile-from=stream`, and the reference runtime runs the same form.
"""

from __future__ import annotations

from streamopt.dialects.arith import ConstantOp
from streamopt.dialects.scf import IfOp
from streamopt.dialects.stream import (
    FileConstantOp,
    FileReadOp,
    ResourceAllocOp,
    ResourceConstantsOp,
    ResourceSubviewOp,
    ResourceTryMapOp,
    TimepointImmediateOp,
)
from streamopt.dialects.util.buffers import BufferConstantOp
from streamopt.ir.core import Operation, Value
from streamopt.ir.module import Module
from streamopt.ir.types import I64, INDEX, TIMEPOINT, OpaqueAttr, ResourceType
from streamopt.lowering.constant_packing import (
    check_upload_lifetime,
    checked_storage_size,
    pack_constants,
)
from streamopt.lowering.resource_config import lookup_resource_config
from streamopt.passes import Pass, register_pass


@register_pass
class PackConstantsPass(Pass):
    """Packs `stream.resource.constants` into host data uploaded as IREE's PackConstants does.

      %r, %t = stream.resource.constants on(A) : !stream.resource<constant>{%c16} =
          dense<[1, 2, 3, 4]> : tensor<4xi32> => !stream.timepoint
    becomes
      %buffer_cst = util.buffer.constant <alignment = 64> : !util.buffer =
          #util.composite<64xi8, [dense<[1, 2, 3, 4]> : tensor<4xi32>, dense<0> : vector<48xi8>]>
      %did_map, %result = stream.resource.try_map on(A) %buffer_cst[%c0] : !util.buffer -> i1,
          !stream.resource<constant>{%c64}
      %0:2 = scf.if %did_map -> (!stream.timepoint, !stream.resource<constant>) { ... }
          else { stream.resource.alloc + stream.file.constant + stream.file.read }
      %1 = stream.resource.subview %0#1[%c0] : ...{%c64} -> ...{%c16}
    """

    flag = "pack-constants"
    summary = (
        "Pack stream.resource.constants into util.buffer.constant host data, mapped or read "
        "as IREE's PackConstants does"
    )

    def run(self, module: Module) -> None:
        for op in [op for op in module.walk() if isinstance(op, ResourceConstantsOp)]:
            _Packer(module, op).run()
            self.stat("num-packed-uploads", "Number of stream.resource.constants packed")


class _Packer:
    def __init__(self, module: Module, op: ResourceConstantsOp) -> None:
        self.module = module
        self.op = op
        self.anchor: Operation = op

    def emit(self, new: Operation) -> Operation:
        new.location = self.op.location
        new.debug_loc = self.op.debug_loc
        block = self.anchor.parent
        assert block is not None
        block.insert_before(new, self.anchor)
        return new

    def index(self, value: int) -> Value:
        return self.emit(ConstantOp.create(value, INDEX)).results[0]

    def run(self) -> None:
        op = self.op
        config = lookup_resource_config(op, self.module.resolve)
        resource_type = op.results_[0].type if op.results_ else None
        if not isinstance(resource_type, ResourceType):
            op.results[-1].replace_all_uses_with(
                self.emit(TimepointImmediateOp.create()).results[0]
            )
            op.erase()
            return
        lifetime = resource_type.lifetime
        check_upload_lifetime(lifetime, op.location)
        slices = [
            (i, v, checked_storage_size(self.module.resolve(v), op.location))
            for i, v in enumerate(op.values)
        ]
        timepoint: Value = self.emit(TimepointImmediateOp.create()).results[0]
        zero = self.index(0)
        replacements: dict[int, Value] = {}
        for storage in pack_constants(slices, config):
            data = self.emit(
                BufferConstantOp.create(
                    value=OpaqueAttr(storage.composite()),
                    alignment=config.min_buffer_offset_alignment,
                )
            ).results[0]
            total = self.index(storage.total_size)
            if lifetime == "constant":
                timepoint, buffer = self._try_map(resource_type, data, zero, total, timepoint)
            else:
                timepoint, buffer = self._read(resource_type, data, zero, total, timepoint)
            for span in storage.spans:
                size = op.operands[span.index]
                if span.offset == 0 and span.length == storage.total_size:
                    replacements[span.index] = buffer
                    continue
                start = zero if span.offset == 0 else self.index(span.offset)
                view = ResourceSubviewOp.create(buffer, total, start, size)
                replacements[span.index] = self.emit(view).results[0]
        for index, result in enumerate(op.results_):
            result.replace_all_uses_with(replacements[index])
        op.results[-1].replace_all_uses_with(timepoint)
        op.erase()

    def _try_map(
        self, type: ResourceType, data: Value, zero: Value, total: Value, timepoint: Value
    ) -> tuple[Value, Value]:
        affinity = self.op.affinity
        mapped = self.emit(ResourceTryMapOp.create(data, zero, total, affinity, result=type))
        did_map, resource = mapped.results
        branch = IfOp.create(did_map, [TIMEPOINT, type], with_else=True)
        self.emit(branch)
        then_yield, else_yield = branch.then_yield, branch.else_yield
        assert then_yield is not None and else_yield is not None
        for yield_op in (then_yield, else_yield):
            yield_op.location = self.op.location
        then_yield.set_operands([timepoint, resource])
        outer, self.anchor = self.anchor, else_yield
        try:
            read_timepoint, buffer = self._read(type, data, zero, total, timepoint)
        finally:
            self.anchor = outer
        else_yield.set_operands([read_timepoint, buffer])
        return branch.results[0], branch.results[1]

    def _read(
        self, type: ResourceType, data: Value, zero: Value, total: Value, timepoint: Value
    ) -> tuple[Value, Value]:
        affinity = self.op.affinity
        buffer = self.emit(ResourceAllocOp.create(total, True, affinity, type)).results[0]
        file = self.emit(FileConstantOp.create(data, total, zero, total, affinity)).results[0]
        file_offset = self.emit(ConstantOp.create(0, I64)).results[0]
        read = FileReadOp.create(file, file_offset, buffer, total, zero, total, timepoint, affinity)
        return self.emit(read).results[0], buffer
