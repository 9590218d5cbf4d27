"""`--strip-debuginfo`: drop every `loc(...)` so output compares without location noise.

%0 = arith.constant 1 : index loc("a.py":3:4)   ->   %0 = arith.constant 1 : index
"""

from __future__ import annotations

from streamopt.dialects.builtin import OpaqueOp
from streamopt.ir.module import Module
from streamopt.passes import Pass, register_pass


@register_pass
class StripDebuginfoPass(Pass):
    """Removes trailing op locations, block argument locations and location aliases."""

    flag = "strip-debuginfo"
    summary = "Remove debug locations (loc(...)) from every op"

    def run(self, module: Module) -> None:
        for op in module.walk():
            if op.debug_loc is not None:
                op.debug_loc = None
                self.stat("num-locations-stripped", "Number of op locations removed")
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        arg.debug_loc = None
            if isinstance(op, OpaqueOp) and op.template:
                last = op.template[-1]
                if isinstance(last, str) and " loc(" in last:
                    op.template[-1] = last[: last.rindex(" loc(")]
        kept = [line for line in module.aliases if not _is_location_alias(line)]
        module.aliases[:] = kept


def _is_location_alias(line: str) -> bool:
    head, _, value = line.partition("=")
    return head.strip().startswith("#loc") and value.strip().startswith("loc(")
