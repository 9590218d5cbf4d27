"""Every committed program, built through streamopt inside IREE's pipeline and built by plain
IREE, gives byte-identical results on IREE's runtime (one local-task device per device it
names, seeded inputs).

Each program runs from its dump before IREE's second ElideAsyncCopies (the resume point:
streamopt's passes, then `iree-compile --compile-from=stream`; plain: `--compile-from=flow`)
and from its source program (streamopt's build compiles it to the elide point first). The
streamopt build's moves are runtime calls (`streamopt.iree.moves`): in both forms its .vmfb
runs twice, with each move decided at run time (between local-task devices every one aliases)
and with every move forced to copy, and all three runs give the same bytes. Each build is
made once per session (`builds` in conftest.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from streamopt.iree.build import (
    STREAMOPT_PASSES,
    InputKind,
    Program,
)
from streamopt.iree.moves import QueueMoves
from streamopt.iree.run import run_vmfb
from streamopt.move_api import MoveFlags
from streamopt.runtime.interpreter.report import first_difference

from .conftest import Builds

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples" / "iree"
ALL_PROGRAMS = sorted(p.name for p in EXAMPLES.iterdir() if (p / "program.mlir").exists())
MODEL_SIZED_MARK = "// model-sized:"
"""make-programs.py marks the programs whose activations are tens of MiB: running them takes
seconds and hundreds of MiB, so bench/iree_models.py runs them and the tests only build them."""
MODEL_SIZED = [
    name
    for name in ALL_PROGRAMS
    if MODEL_SIZED_MARK in (EXAMPLES / name / "program.mlir").read_text().split("\n", 3)[1]
]
PROGRAMS = [name for name in ALL_PROGRAMS if name not in MODEL_SIZED]


def test_the_corpus_has_every_kind_of_program() -> None:
    # The list: a deep MLP, baked weights, a transformer block, pipeline and data
    # parallel splits, a dynamic batch, a live residual, a loop over layers, a host readback.
    kinds = ["mlp-deep", "mlp-baked", "transformer-block", "pipeline-four", "data-parallel",
             "dynamic-batch", "residual-live", "layer-loop", "data-dependent-loop"]  # fmt: skip
    for name in kinds:
        assert name in PROGRAMS
        assert (EXAMPLES / name / "before-elide-2.mlir").exists()
    readback = (EXAMPLES / "data-dependent-loop" / "before-elide-2.mlir").read_text()
    assert "stream.async.load" in readback
    # Issue 23: programs whose cross-device activations are model-sized.
    assert MODEL_SIZED == ["mlp-pipeline", "transformer-pipeline", "vocab-parallel"]


# Each model-sized program's activation moves: how many, of how many bytes each.
MODEL_SIZED_MOVES = {
    "mlp-pipeline": (2, 64 << 20),
    "transformer-pipeline": (4, 16 << 20),
    "vocab-parallel": (2, 128 << 20),
}


@pytest.mark.parametrize("name", MODEL_SIZED)
def test_model_sized_programs_build_with_their_moves(name: str, tmp_path: Path) -> None:
    from streamopt.iree.build import build_streamopt

    path = EXAMPLES / name / "before-elide-2.mlir"
    build = build_streamopt(Program.read(path, path.read_text()), tmp_path)
    assert build.vmfb.stat().st_size > 0
    calls = [
        line
        for line in build.intermediate["streamopt"].read_text().splitlines()
        if "util.call @streamopt.queue_move." in line
    ]
    count, size = MODEL_SIZED_MOVES[name]
    assert len(calls) == count
    # Each call's length operand is the activation's size, an index constant.
    assert all(f"%c{size}" in line for line in calls), calls


def _check_three_builds(builds: Builds, path: Path) -> None:
    program, plain, streamopt = builds.get(path)
    expected = run_vmfb(plain.vmfb, program.devices, None, [])
    moves = QueueMoves(program.devices)
    got = run_vmfb(streamopt.vmfb, program.devices, None, [], [moves])
    assert expected.outputs, "the program returns nothing to compare"
    assert first_difference(expected, got) is None, first_difference(expected, got)
    # Local-task devices share the process's memory: every move aliases (and every program
    # on more than one device moves something).
    assert moves.stats.copied == 0 and moves.stats.rejected == 0 and moves.failed == 0
    assert (moves.stats.aliased > 0) == (len(program.devices) > 1)
    # The third build: the same .vmfb with every move forced to copy (running it is cheap next
    # to compiling it).
    forced = QueueMoves(program.devices, MoveFlags.FORCE_COPY)
    copied = run_vmfb(streamopt.vmfb, program.devices, None, [], [forced])
    assert first_difference(expected, copied) is None, first_difference(expected, copied)
    assert forced.stats.aliased == 0 and forced.stats.copied == moves.stats.aliased
    assert dict(forced.stats.reasons) == (
        {"FORCED": moves.stats.aliased} if moves.stats.aliased else {}
    )
    copied_bytes = forced.report()["bytes_copied_by_moves"]["total"]
    assert copied_bytes == sum(p.bytes_moved for p in moves.pairs.values())
    assert (copied_bytes > 0) == (moves.stats.aliased > 0)


@pytest.mark.parametrize("name", PROGRAMS)
def test_dump_builds_match(name: str, builds: Builds) -> None:
    path = EXAMPLES / name / "before-elide-2.mlir"
    assert Program.read(path, path.read_text()).kind is InputKind.DUMP
    _check_three_builds(builds, path)


@pytest.mark.parametrize("name", PROGRAMS)
def test_source_builds_match(name: str, builds: Builds) -> None:
    _check_three_builds(builds, EXAMPLES / name / "program.mlir")


def test_streamopt_output_is_in_the_final_stream_form(builds: Builds) -> None:
    # What iree-compile --compile-from=stream gets: no scf on the host, no async ops, no
    # index operands in executables, host readbacks as stream.resource.load, moves as calls.
    _program, _plain, build = builds.get(EXAMPLES / "data-dependent-loop" / "before-elide-2.mlir")
    text = build.intermediate["streamopt"].read_text()
    assert "scf." not in text.split("util.func", 1)[1]
    assert "stream.async." not in text and "stream.cmd.move" not in text
    assert "stream.resource.load" in text
    assert "util.call @streamopt.queue_move." in text
    assert [t.stage for t in build.timings] == ["streamopt", "iree-compile --compile-from=stream"]
    assert STREAMOPT_PASSES == ["elide-async-copies", "lower-to-cmd", "lower-cmd-moves-to-calls"]


def test_unrefined_dump_is_refined_by_iree_first(builds: Builds) -> None:
    path = EXAMPLES / "mlp-deep" / "before-elide-1.mlir"
    program, _plain, build = builds.get(path)
    assert program.kind is InputKind.UNREFINED_DUMP
    assert build.timings[0].stage == "refine"
    refined = build.intermediate["refine"].read_text()
    assert "!stream.resource<*>" not in refined
    _check_three_builds(builds, path)
