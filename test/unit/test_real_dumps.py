"""Round trips of the real IREE dumps under examples/iree/ (made by examples/iree/make-dumps.sh).

Every dump is stored exactly as `iree-opt` prints it, so with no pass streamopt must print it back
byte for byte. When iree-opt is installed, the tests also check against it directly: iree-opt
accepts streamopt's output and prints it unchanged, and `streamopt FILE` equals `iree-opt FILE`;
and what iree-opt prints of each source program (`program.mlir`) streamopt prints back.
Dumps named `*.debuginfo.mlir` carry locations (iree-opt --mlir-print-debuginfo); stripping them,
or printing without `--mlir-print-debuginfo` (as iree-opt does by default), must give the plain
dump.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from streamopt.opt_options import command

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
DUMPS = sorted((EXAMPLES / "iree").glob("*/before-elide-*.mlir"))
DEBUGINFO_DUMPS = [p for p in DUMPS if p.name.endswith(".debuginfo.mlir")]
# The source programs (JAX's StableHLO in func.func, with flow.tensor.transfer), as written.
PROGRAMS = sorted((EXAMPLES / "iree").glob("*/program.mlir"))
# The README's example (a copy of one dump, but the first thing a user runs).
ALL_FILES = [*DUMPS, EXAMPLES / "two-devices.mlir"]
IREE_OPT = shutil.which("iree-opt")

needs_iree_opt = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not installed")


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(EXAMPLES)) for p in paths]


def run_streamopt(path: Path, *args: str) -> str:
    """stdout of `streamopt PATH ARGS...`; fails the test on a non-zero exit."""
    result = CliRunner().invoke(command, [str(path), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def run_iree_opt(text: str, *args: str) -> str:
    assert IREE_OPT is not None
    result = subprocess.run(
        [IREE_OPT, *args, "-"],
        input=text,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return result.stdout


def test_every_example_has_both_dumps() -> None:
    """Each example directory holds its program and the dumps before both pass runs."""
    programs = sorted((EXAMPLES / "iree").glob("*/program.mlir"))
    assert len(programs) >= 5
    for program in programs:
        for index in (1, 2):
            dump = program.parent / f"before-elide-{index}.mlir"
            assert dump.is_file(), dump
            assert "stream.async." in dump.read_text(), dump


def test_readme_example_is_a_dump() -> None:
    assert (EXAMPLES / "two-devices.mlir").read_bytes() == (
        EXAMPLES / "iree" / "two-devices" / "before-elide-2.mlir"
    ).read_bytes()


def debuginfo_flags(path: Path) -> list[str]:
    """The flag that prints a dump's locations, for the dumps that carry them."""
    return ["--mlir-print-debuginfo"] if path in DEBUGINFO_DUMPS else []


@pytest.mark.parametrize("path", ALL_FILES, ids=_ids(ALL_FILES))
def test_round_trip_is_exact(path: Path) -> None:
    assert run_streamopt(path, *debuginfo_flags(path)) == path.read_text()


@pytest.mark.parametrize("path", DUMPS, ids=_ids(DUMPS))
def test_round_trip_through_split_input_is_exact(path: Path) -> None:
    """A file without `// -----` is one chunk; splitting must not change the output."""
    flags = ["--split-input-file", *debuginfo_flags(path)]
    assert run_streamopt(path, *flags) == path.read_text()


@needs_iree_opt
@pytest.mark.parametrize("path", DUMPS, ids=_ids(DUMPS))
def test_iree_opt_accepts_output_and_agrees(path: Path) -> None:
    flags = debuginfo_flags(path)
    ours = run_streamopt(path, *flags)
    # iree-opt reads what streamopt wrote and prints the same text back...
    assert run_iree_opt(ours, *flags) == ours
    # ...and streamopt prints what iree-opt prints for the original file.
    assert ours == run_iree_opt(path.read_text(), *flags)


@pytest.mark.parametrize("path", PROGRAMS, ids=_ids(PROGRAMS))
def test_program_parses_as_written(path: Path) -> None:
    """Every source program parses and verifies with no pass (iree-opt needed or not)."""
    assert "func.func" in run_streamopt(path)


@needs_iree_opt
@pytest.mark.parametrize("path", PROGRAMS, ids=_ids(PROGRAMS))
def test_program_canonical_form_comes_back_exactly(path: Path) -> None:
    """What iree-opt prints of each source program (its canonical form) streamopt prints back
    byte for byte: func.func bodies, stablehlo ops and their regions are kept as written."""
    canonical = run_iree_opt(path.read_text())
    result = CliRunner().invoke(command, ["-"], input=canonical, catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == canonical


def test_some_dumps_carry_debuginfo() -> None:
    assert DEBUGINFO_DUMPS
    for path in DEBUGINFO_DUMPS:
        assert " loc(" in path.read_text(), path


@pytest.mark.parametrize("path", DEBUGINFO_DUMPS, ids=_ids(DEBUGINFO_DUMPS))
def test_strip_debuginfo_gives_the_plain_dump(path: Path) -> None:
    plain = path.with_name(path.name.replace(".debuginfo.mlir", ".mlir"))
    flags = ["--strip-debuginfo", "--mlir-print-debuginfo"]
    assert run_streamopt(path, *flags) == plain.read_text()


@pytest.mark.parametrize("path", DEBUGINFO_DUMPS, ids=_ids(DEBUGINFO_DUMPS))
def test_locations_are_left_out_by_default(path: Path) -> None:
    """As iree-opt prints a file without --mlir-print-debuginfo: the plain dump."""
    plain = path.with_name(path.name.replace(".debuginfo.mlir", ".mlir"))
    assert run_streamopt(path) == plain.read_text()


@needs_iree_opt
@pytest.mark.parametrize("path", DEBUGINFO_DUMPS, ids=_ids(DEBUGINFO_DUMPS))
def test_default_output_is_iree_opts_default(path: Path) -> None:
    assert run_streamopt(path) == run_iree_opt(path.read_text())
