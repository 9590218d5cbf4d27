"""`--strip-debuginfo`: drop every `loc(...)` so output compares without location noise.

%0 = arith.constant 1 : index loc("a.py":3:4)   ->   %0 = arith.constant 1 : index
"""

from __future__ import annotations

from streamopt.dialects.builtin import OpaqueOp, VerbatimOp
from streamopt.ir.debuginfo import LocationText, is_location_alias, strip_locations
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
            if isinstance(op, OpaqueOp):
                op.template = [p for p in op.template if p.__class__ is not LocationText]
            if isinstance(op, VerbatimOp) and " loc(" in op.text:
                # Executable bodies name location aliases too (`%arg0: T loc(#loc3)`); left in
                # place they would refer to the aliases removed below.
                op.text = strip_locations(op.text)
        for aliases in (module.aliases, module.trailing_aliases):
            aliases[:] = [line for line in aliases if not is_location_alias(line)]
