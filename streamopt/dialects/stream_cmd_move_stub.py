"""STUB: a minimal `stream.cmd.move`, only so that lower-hal's tests can parse cmd IR with moves.

DROP AT MERGE in favour of the lower-cmd branch's `stream.cmd.move` (it owns the op): delete
this file, its import in `streamopt/dialects/__init__.py::load_all` and the grammar block marked
"STUB: stream.cmd.move" in `grammar/stream.lark`. `--lower-cmd-to-hal` reads moves by op name
through `streamopt.lowering.lower_cmd_to_hal.read_cmd_move`, not through this class.

    %r, %t1 = stream.cmd.move on(EXEC) await(%t0) => %x : T1{%n} from(A) -> to(B) T2{%n}
        => !stream.timepoint
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import Location
from streamopt.dialects import register_op
from streamopt.dialects.common import check_operand_type, split_clauses
from streamopt.dialects.stream import StreamOp
from streamopt.ir.core import Access, Value
from streamopt.ir.types import TIMEPOINT, Attribute

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


@register_op
class CmdMoveOp(StreamOp):
    """STUB `stream.cmd.move`: operands source, source size, result size, then the optional
    await timepoint; attributes `affinity` (on), `source_affinity`, `target_affinity`."""

    __slots__ = ()
    name = "stream.cmd.move"

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> CmdMoveOp:
        clauses, rest = split_clauses(parts)
        source, source_sized, result_sized, timepoint_type = rest
        check_operand_type(source, source_sized.type, location)
        attributes: dict[str, Attribute] = dict(clauses.get("attributes", {}))
        for clause, name in (("on", "affinity"), ("from", "source_affinity")):
            if clause in clauses:
                attributes[name] = clauses[clause]
        if "to" in clauses:
            attributes["target_affinity"] = clauses["to"]
        operands = [source, source_sized.sizes[0], result_sized.sizes[0]]
        if "await" in clauses:
            check_operand_type(clauses["await"], TIMEPOINT, location)
            operands.append(clauses["await"])
        return cls(operands, [result_sized.type, timepoint_type], attributes, location=location)

    @property
    def source(self) -> Value:
        return self.operands[0]

    @property
    def await_timepoint(self) -> Value | None:
        return self.operands[3] if len(self.operands) > 3 else None

    def operand_access(self, index: int) -> Access:
        return Access.READ | Access.CONSUME if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.operands[1] if index == 0 else None

    def result_size(self, index: int) -> Value | None:
        return self.operands[2] if index == 0 else None

    def print(self, p: Printer) -> None:
        p.write("stream.cmd.move")
        self.print_affinity(p)
        timepoint = self.await_timepoint
        if timepoint is not None:
            p.write(f" await({p.v(timepoint)}) =>")
        source = self.source
        p.write(f" {p.v(source)} : {source.type}{{{p.v(self.operands[1])}}}")
        if "source_affinity" in self.attributes:
            p.write(f" from({self.attributes['source_affinity'].text})")
        p.write(" ->")
        if "target_affinity" in self.attributes:
            p.write(f" to({self.attributes['target_affinity'].text})")
        p.write(f" {self.results[0].type}{{{p.v(self.operands[2])}}} => {self.results[1].type}")
        p.attr_dict(self, ("affinity", "source_affinity", "target_affinity"), keyword=True)
