"""Every committed program, built through streamopt inside IREE's pipeline and built by plain
IREE, gives byte-identical results on IREE's runtime (one local-task device per device it
names, seeded inputs).

Each program runs from its dump before IREE's second ElideAsyncCopies (the resume point:
streamopt's passes, then `iree-compile --compile-from=stream`; plain: `--compile-from=flow`)
and from its source program (streamopt's build compiles it to the elide point first). Nothing
is cached between runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from streamopt.iree.build import (
    STREAMOPT_PASSES,
    InputKind,
    Program,
    build_plain,
    build_streamopt,
)
from streamopt.iree.run import run_vmfb
from streamopt.run_cli import first_difference

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples" / "iree"
PROGRAMS = sorted(p.name for p in EXAMPLES.iterdir() if (p / "program.mlir").exists())


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


def _check_same(path: Path, tmp_path: Path) -> None:
    program = Program.read(path, path.read_text(encoding="utf-8"))
    plain = build_plain(program, tmp_path)
    streamopt = build_streamopt(program, tmp_path)
    expected = run_vmfb(plain.vmfb, program.devices, None, [])
    got = run_vmfb(streamopt.vmfb, program.devices, None, [])
    assert expected.outputs, "the program returns nothing to compare"
    assert first_difference(expected, got) is None, first_difference(expected, got)


@pytest.mark.parametrize("name", PROGRAMS)
def test_dump_builds_match(name: str, tmp_path: Path) -> None:
    path = EXAMPLES / name / "before-elide-2.mlir"
    assert Program.read(path, path.read_text()).kind is InputKind.DUMP
    _check_same(path, tmp_path)


@pytest.mark.parametrize("name", PROGRAMS)
def test_source_builds_match(name: str, tmp_path: Path) -> None:
    _check_same(EXAMPLES / name / "program.mlir", tmp_path)


def test_streamopt_output_is_in_the_final_stream_form(tmp_path: Path) -> None:
    # What iree-compile --compile-from=stream gets: no scf on the host, no async ops, no
    # index operands in executables, host readbacks as stream.resource.load.
    path = EXAMPLES / "data-dependent-loop" / "before-elide-2.mlir"
    build = build_streamopt(Program.read(path, path.read_text()), tmp_path)
    text = build.intermediate["streamopt"].read_text()
    assert "scf." not in text.split("util.func", 1)[1]
    assert "stream.async." not in text
    assert "stream.resource.load" in text
    assert [t.stage for t in build.timings] == ["streamopt", "iree-compile --compile-from=stream"]
    assert STREAMOPT_PASSES == ["elide-async-copies", "lower-to-cmd", "expand-cmd-moves"]


def test_unrefined_dump_is_refined_by_iree_first(tmp_path: Path) -> None:
    path = EXAMPLES / "mlp-deep" / "before-elide-1.mlir"
    program = Program.read(path, path.read_text())
    assert program.kind is InputKind.UNREFINED_DUMP
    build = build_streamopt(program, tmp_path)
    assert build.timings[0].stage == "refine"
    refined = build.intermediate["refine"].read_text()
    assert "!stream.resource<*>" not in refined
    plain = build_plain(program, tmp_path)
    expected = run_vmfb(plain.vmfb, program.devices, None, [])
    got = run_vmfb(build.vmfb, program.devices, None, [])
    assert first_difference(expected, got) is None
