"""`--lower-to-hal`: the whole lowering from async stream IR to hal, as one pipeline pass.

It runs `--lower-async-to-cmd` (async to cmd: moves get their own `stream.cmd.move` timeline
op) and then `--lower-cmd-to-hal` (cmd to hal: timepoints become fences, `stream.cmd.move` becomes
`hal.device.queue.move`), verifying the IR in between. The stages are looked up by flag in the
pass registry when the pass runs, so the pipeline works as soon as both passes are registered,
whichever module provides them. `--expand-moves` is not part of it: run it after to turn queue
moves into copies.
"""

from __future__ import annotations

from typing import ClassVar

from streamopt.passes import PipelinePass, register_pass


@register_pass
class LowerToHalPass(PipelinePass):
    """Runs --lower-async-to-cmd, then --lower-cmd-to-hal.

      %r = stream.async.move %x : !stream.resource<*>{%n} from(A) -> to(B) ...{%n}
    becomes (through `stream.cmd.move`)
      %r = hal.device.queue.move<%dev_b : !hal.device> ... source(%x : !hal.buffer)[%c0]
          ... flags(PreferOrigin) : !hal.buffer{%n}
    """

    flag = "lower-to-hal"
    summary = "Lower async stream IR to hal: --lower-async-to-cmd, then --lower-cmd-to-hal"
    stages: ClassVar[tuple[str, ...]] = ("lower-async-to-cmd", "lower-cmd-to-hal")
