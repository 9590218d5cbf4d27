"""bench/lower_hal_stage.py: the generated program lowers, and the stage reports sizes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from streamopt.parser import parse_module
from streamopt.passes import PassManager
from streamopt.printer import print_module

BENCH = Path(__file__).resolve().parents[2] / "bench" / "lower_hal_stage.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lower_hal_stage", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Dataclasses look their module up by name.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_generated_program_has_the_requested_size_and_lowers() -> None:
    bench = _bench()
    text = bench.generate_cmd_program(200)
    timing = bench.time_cmd_to_hal(text)
    # The units, plus two device globals, the function, two constants and the return.
    assert timing.ops_in == 200 + 6
    assert timing.ops_out > timing.ops_in
    assert min(timing.parse, timing.lower, timing.print) >= 0


def test_stage_output_is_what_the_passes_print() -> None:
    bench = _bench()
    text = bench.generate_cmd_program(20)
    module = parse_module(text)
    PassManager.from_flags(bench.STAGE_FLAGS).run(module)
    output = print_module(module)
    assert output.count("hal.device.queue.copy") == 2  # one per expanded move (2 units)
    assert "stream.cmd" not in output
