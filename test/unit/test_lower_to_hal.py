"""`--lower-to-hal`: runs the registered --lower-async-to-cmd and --lower-cmd-to-hal, in that order."""

# IR lines cannot be wrapped.
# ruff: noqa: E501

from __future__ import annotations

import pytest

from streamopt.diagnostics import DiagnosticError
from streamopt.ir.module import Module
from streamopt.lowering.lower_to_hal import LowerToHalPass
from streamopt.parser import parse_module
from streamopt.passes import PASSES, Pass, load_all
from streamopt.printer import print_module

CMD_INPUT = """\
util.global private @dev_a : !hal.device
util.func public @f(%arg0: index) -> (!stream.resource<transient>, !stream.timepoint) {
  %0, %1 = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%arg0} => !stream.timepoint
  util.return %0, %1 : !stream.resource<transient>, !stream.timepoint
}
"""


class _RecordingLowerAsyncToCmd(Pass):
    """Stands in for --lower-async-to-cmd: the input is already at the cmd level."""

    flag = "lower-async-to-cmd"
    calls: list[str] = []

    def run(self, module: Module) -> None:
        self.calls.append(print_module(module))
        self.stat("num-seen", "Modules seen")


def test_runs_lower_async_to_cmd_then_lower_cmd_to_hal(monkeypatch: pytest.MonkeyPatch) -> None:
    load_all()
    _RecordingLowerAsyncToCmd.calls = []
    monkeypatch.setitem(PASSES, "lower-async-to-cmd", _RecordingLowerAsyncToCmd)
    module = parse_module(CMD_INPUT)
    pipeline = LowerToHalPass()
    pipeline.run(module)
    # lower-async-to-cmd saw the input before lower-cmd-to-hal changed it.
    assert len(_RecordingLowerAsyncToCmd.calls) == 1
    assert "stream.resource.alloca" in _RecordingLowerAsyncToCmd.calls[0]
    text = print_module(module)
    assert "stream." not in text.replace("stream.affinity", "")
    assert "hal.device.queue.alloca" in text
    assert pipeline.statistics["lower-async-to-cmd.num-seen"].value == 1
    assert pipeline.statistics["lower-cmd-to-hal.num-queue-allocas"].value == 1


def test_missing_stage_is_a_diagnostic(monkeypatch: pytest.MonkeyPatch) -> None:
    load_all()
    monkeypatch.delitem(PASSES, "lower-async-to-cmd", raising=False)
    with pytest.raises(DiagnosticError, match=r"needs the --lower-async-to-cmd pass"):
        LowerToHalPass().run(parse_module(CMD_INPUT))
