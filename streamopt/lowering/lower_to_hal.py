"""`--lower-to-hal`: the whole lowering from async stream IR to hal, as one pipeline pass.

It runs `--lower-to-cmd` (async to cmd: moves get their own `stream.cmd.move` timeline op) and
then `--lower-cmd-to-hal` (cmd to hal: timepoints become fences, `stream.cmd.move` becomes
`hal.device.queue.move`), verifying the IR in between. The stages are looked up by flag in the
pass registry when the pass runs, so the pipeline works as soon as both passes are registered,
whichever module provides them. `--expand-moves` is not part of it: run it after to turn queue
moves into copies.
"""

from __future__ import annotations

from typing import ClassVar

from streamopt.diagnostics import error
from streamopt.ir.module import Module
from streamopt.ir.verify import verify_module
from streamopt.passes import Pass, load_all, register_pass


@register_pass
class LowerToHalPass(Pass):
    """Runs --lower-to-cmd, then --lower-cmd-to-hal.

      %r = stream.async.move %x : !stream.resource<*>{%n} from(A) -> to(B) ...{%n}
    becomes (through `stream.cmd.move`)
      %r = hal.device.queue.move<%dev_b : !hal.device> ... source(%x : !hal.buffer)[%c0]
          ... flags(PreferOrigin) : !hal.buffer{%n}
    """

    flag = "lower-to-hal"
    summary = "Lower async stream IR to hal: --lower-to-cmd, then --lower-cmd-to-hal"
    stages: ClassVar[tuple[str, ...]] = ("lower-to-cmd", "lower-cmd-to-hal")

    def run(self, module: Module) -> None:
        registry = load_all()
        for flag in self.stages:
            if flag not in registry:
                raise error(
                    f"--{self.flag} needs the --{flag} pass, which this streamopt does not have",
                    module.op.location,
                )
        for index, flag in enumerate(self.stages):
            stage = registry[flag]()
            stage.run(module)
            if index + 1 < len(self.stages):
                # The next stage expects valid input, as a pass manager would check.
                verify_module(module)
            for statistic in stage.statistics.values():
                self.stat(f"{flag}.{statistic.name}", statistic.description, statistic.value)
            self.report_lines.extend(stage.report_lines)
