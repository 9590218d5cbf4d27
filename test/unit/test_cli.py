"""The `streamopt` command line: input and output, split files, diagnostics, passes, exit codes.

Most tests run the console-script entry point `streamopt.opt_command.main` in-process with
`sys.argv` patched, so they see exactly the exit status and streams a user sees; a few run the
installed module in a subprocess to check the same through a real process boundary.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

import streamopt as streamopt_package
from streamopt.opt_command import main, mlir_style_argv
from streamopt.passes import PASS_INDEX, load_all

# A module as streamopt (and iree-opt) prints it, blank last line included: parse + print gives
# it back unchanged.
CANONICAL = """\
module {
  util.func public @f(%arg0: index) -> index {
    util.return %arg0 : index
  }
}

"""

# One dead constant with a location: canonicalize erases it, strip-debuginfo drops the loc.
WITH_DEAD_CONSTANT = """\
util.func public @f(%arg0: index) -> index {
  %c1 = arith.constant 1 : index loc("model.py":1:2)
  util.return %arg0 : index
}
"""

TWO_CHUNKS = """\
util.func public @first() {
  util.return
}
// -----
util.func public @second(%a: index) -> index {
  util.return %a : index
}
"""

TWO_CHUNKS_PRINTED = """\
module {
  util.func public @first() {
    util.return
  }
}

// -----
module {
  util.func public @second(%arg0: index) -> index {
    util.return %arg0 : index
  }
}

"""

# A verifier error on line 3 (util.return with no operands in a function returning index).
VERIFIER_ERROR = """\
util.func public @f(%arg0: index) -> index {
  // expected-error @+1 {{has 0 operands, but enclosing function}}
  util.return
}
"""

DIAGNOSTIC = re.compile(r"^(?P<file>[^\n]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str


Streamopt = Callable[..., Run]


@pytest.fixture
def streamopt(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Streamopt:
    """Call as `streamopt(*args, stdin=...)`; returns a Run with the exit code and both streams."""

    def run(*args: str, stdin: str = "") -> Run:
        monkeypatch.setattr(sys, "argv", ["streamopt", *args])
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_info:
            main()
        out, err = capsys.readouterr()
        code = exit_info.value.code
        # sys.exit(None) exits 0; any other non-integer status would be a bug.
        code = 0 if code is None else code
        assert isinstance(code, int), code
        return Run(code, out, err)

    return run


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# -- input and output ---------------------------------------------------------------------


def test_reads_stdin_when_no_input_is_given(streamopt: Streamopt) -> None:
    run = streamopt(stdin=CANONICAL)
    assert (run.code, run.stdout, run.stderr) == (0, CANONICAL, "")


def test_dash_means_stdin(streamopt: Streamopt) -> None:
    run = streamopt("-", stdin=CANONICAL)
    assert (run.code, run.stdout) == (0, CANONICAL)


def test_reads_a_file(streamopt: Streamopt, tmp_path: Path) -> None:
    run = streamopt(str(write(tmp_path, "in.mlir", CANONICAL)))
    assert (run.code, run.stdout) == (0, CANONICAL)


def test_output_file(streamopt: Streamopt, tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    run = streamopt(str(write(tmp_path, "in.mlir", CANONICAL)), "-o", str(out))
    assert (run.code, run.stdout, run.stderr) == (0, "", "")
    assert out.read_text() == CANONICAL


def test_failed_run_leaves_the_output_file_alone(streamopt: Streamopt, tmp_path: Path) -> None:
    out = write(tmp_path, "out.mlir", "previous output\n")
    for bad in ("util.func public @f( {\n", VERIFIER_ERROR):
        run = streamopt(str(write(tmp_path, "bad.mlir", bad)), "-o", str(out))
        assert run.code == 1 and "error:" in run.stderr
        assert out.read_text() == "previous output\n"
    # A pass error is a failed run too.
    unlowerable = """\
util.func public @wide_splat(%size: index) -> !stream.resource<*> {
  %c1_i64 = arith.constant 1 : i64
  %0 = stream.async.splat %c1_i64 : i64 -> !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}
"""
    run = streamopt(str(write(tmp_path, "p.mlir", unlowerable)), "--lower-to-cmd", "-o", str(out))
    assert run.code == 1 and "cannot be lowered" in run.stderr
    assert out.read_text() == "previous output\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mlir", "out.mlir", "p.mlir"]


def test_successful_run_replaces_the_output_file(streamopt: Streamopt, tmp_path: Path) -> None:
    out = write(tmp_path, "out.mlir", "previous output, longer than the new one " * 10)
    out.chmod(0o640)
    run = streamopt(str(write(tmp_path, "in.mlir", CANONICAL)), "-o", str(out))
    assert (run.code, run.stderr) == (0, "")
    assert out.read_text() == CANONICAL
    # The replaced file keeps its permissions; no temporary file is left beside it.
    assert out.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mlir", "out.mlir"]


def test_output_through_a_symlink_writes_its_target(streamopt: Streamopt, tmp_path: Path) -> None:
    target = write(tmp_path, "target.mlir", "old\n")
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    run = streamopt(str(write(tmp_path, "in.mlir", CANONICAL)), "-o", str(link))
    assert run.code == 0
    assert link.is_symlink() and target.read_text() == CANONICAL


def test_output_skips_temporary_names_someone_else_holds(
    streamopt: Streamopt, tmp_path: Path
) -> None:
    out = write(tmp_path, "out.mlir", "previous output\n")
    # What is already there under the names a run would try first is neither written
    # through (a link) nor replaced (a file).
    elsewhere = write(tmp_path, "elsewhere.mlir", "not yours\n")
    taken = [tmp_path / f".out.mlir.{os.getpid()}.{n}.tmp" for n in range(3)]
    taken[0].symlink_to(elsewhere)
    taken[1].write_text("someone else's\n")
    taken[2].mkdir()
    run = streamopt(str(write(tmp_path, "in.mlir", CANONICAL)), "-o", str(out))
    assert (run.code, run.stderr) == (0, "")
    assert out.read_text() == CANONICAL
    assert elsewhere.read_text() == "not yours\n"
    assert taken[1].read_text() == "someone else's\n" and taken[2].is_dir()


@pytest.mark.parametrize("where", ["missing folder", "/dev/full"])
def test_unwritable_output_is_an_error(streamopt: Streamopt, tmp_path: Path, where: str) -> None:
    if where == "/dev/full" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    out = str(tmp_path / "absent" / "out.mlir") if where == "missing folder" else where
    run = streamopt(str(write(tmp_path, "in.mlir", CANONICAL)), "-o", out)
    assert run.code == 1
    assert run.stderr.startswith(f"streamopt: error: cannot write '{out}': ")
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr


def test_read_only_output_file_is_an_error(
    streamopt: Streamopt, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = write(tmp_path, "out.mlir", "previous output\n")
    out.chmod(0o444)
    if os.geteuid() == 0:
        # Root may write any file; everyone else is refused this one. Ask as they would.
        real_access = os.access
        monkeypatch.setattr(
            os,
            "access",
            lambda path, mode, **kw: mode & os.W_OK == 0 and real_access(path, mode, **kw),
        )
    run = streamopt(str(write(tmp_path, "in.mlir", CANONICAL)), "-o", str(out))
    assert run.code == 1
    assert run.stderr == f"streamopt: error: cannot write '{out}': Permission denied\n"
    assert out.read_text() == "previous output\n"


def test_missing_input_file_is_a_diagnostic(streamopt: Streamopt, tmp_path: Path) -> None:
    run = streamopt(str(tmp_path / "absent.mlir"))
    assert run.code == 1
    assert "cannot read" in run.stderr and "absent.mlir" in run.stderr
    assert "Traceback" not in run.stderr


# -- --split-input-file -------------------------------------------------------------------


def test_split_input_file_joins_chunks_with_separator(streamopt: Streamopt, tmp_path: Path) -> None:
    run = streamopt("--split-input-file", str(write(tmp_path, "s.mlir", TWO_CHUNKS)))
    assert (run.code, run.stdout) == (0, TWO_CHUNKS_PRINTED)


def test_without_split_the_separator_is_a_comment(streamopt: Streamopt, tmp_path: Path) -> None:
    run = streamopt(str(write(tmp_path, "s.mlir", TWO_CHUNKS)))
    assert run.code == 0
    assert "// -----" not in run.stdout
    assert run.stdout.count("module {") == 1
    assert "@first" in run.stdout and "@second" in run.stdout


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="iree-opt is not installed")
def test_split_output_matches_iree_opt(streamopt: Streamopt, tmp_path: Path) -> None:
    path = write(tmp_path, "s.mlir", TWO_CHUNKS)
    expected = subprocess.run(
        ["iree-opt", "--split-input-file", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert streamopt("--split-input-file", str(path)).stdout == expected


def test_split_errors_use_file_line_numbers(streamopt: Streamopt, tmp_path: Path) -> None:
    # The broken op is on line 9 of the file (7 lines, a separator, then it), line 1 of its chunk.
    text = TWO_CHUNKS + "// -----\n%oops = \n"
    path = write(tmp_path, "s.mlir", text)
    run = streamopt("--split-input-file", str(path))
    assert run.code == 1
    first = run.stderr.splitlines()[0]
    match = DIAGNOSTIC.match(first)
    assert match, run.stderr
    assert (match["file"], match["line"]) == (str(path), "9")
    # The chunks that parsed are still printed.
    assert run.stdout == TWO_CHUNKS_PRINTED


# -- diagnostics --------------------------------------------------------------------------


def test_syntax_error_format_and_exit_code(streamopt: Streamopt, tmp_path: Path) -> None:
    text = "util.func public @f() {\n  util.return %x :\n}\n"
    path = write(tmp_path, "bad.mlir", text)
    run = streamopt(str(path))
    assert run.code == 1
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    match = DIAGNOSTIC.match(lines[0])
    assert match, run.stderr
    assert match["file"] == str(path) and match["line"] == "2"
    # The source line, then a caret under the reported column.
    assert lines[1] == "  util.return %x :"
    assert lines[2] == " " * (int(match["col"]) - 1) + "^"


def test_verifier_error_without_verify_diagnostics(streamopt: Streamopt, tmp_path: Path) -> None:
    path = write(tmp_path, "v.mlir", VERIFIER_ERROR)
    run = streamopt(str(path))
    assert run.code == 1
    assert run.stderr.startswith(f"{path}:3:")
    assert "has 0 operands, but enclosing function" in run.stderr


def test_verify_diagnostics_success(streamopt: Streamopt, tmp_path: Path) -> None:
    run = streamopt("--verify-diagnostics", str(write(tmp_path, "v.mlir", VERIFIER_ERROR)))
    assert (run.code, run.stderr) == (0, "")


def test_verify_diagnostics_per_chunk(streamopt: Streamopt, tmp_path: Path) -> None:
    text = VERIFIER_ERROR + "// -----\n" + VERIFIER_ERROR
    path = write(tmp_path, "v.mlir", text)
    run = streamopt("--split-input-file", "--verify-diagnostics", str(path))
    assert (run.code, run.stderr) == (0, "")


def test_verify_diagnostics_expected_error_missing(streamopt: Streamopt, tmp_path: Path) -> None:
    text = CANONICAL.replace(
        "    util.return", "    // expected-error @+1 {{never reported}}\n    util.return"
    )
    path = write(tmp_path, "v.mlir", text)
    run = streamopt("--verify-diagnostics", str(path))
    assert run.code == 1
    assert run.stderr.startswith(f"{path}:3:")
    assert 'expected error "never reported" was not produced' in run.stderr


def test_verify_diagnostics_unexpected_error(streamopt: Streamopt, tmp_path: Path) -> None:
    text = VERIFIER_ERROR.replace("  // expected-error @+1 {{has 0 operands", "  // {{")
    path = write(tmp_path, "v.mlir", text)
    run = streamopt("--verify-diagnostics", str(path))
    assert run.code == 1
    assert "unexpected error: " in run.stderr and "has 0 operands" in run.stderr


def test_verify_diagnostics_wrong_message(streamopt: Streamopt, tmp_path: Path) -> None:
    text = VERIFIER_ERROR.replace("has 0 operands", "has 7 operands")
    run = streamopt("--verify-diagnostics", str(write(tmp_path, "v.mlir", text)))
    assert run.code == 1
    assert "unexpected error" in run.stderr and "was not produced" in run.stderr


def test_verify_diagnostics_wrong_line(streamopt: Streamopt, tmp_path: Path) -> None:
    text = VERIFIER_ERROR.replace("@+1", "@+2")
    run = streamopt("--verify-diagnostics", str(write(tmp_path, "v.mlir", text)))
    assert run.code == 1


# -- usage ---------------------------------------------------------------------------------


def test_help_lists_every_pass(streamopt: Streamopt) -> None:
    run = streamopt("--help")
    assert run.code == 0
    passes = load_all()
    assert passes, "no pass is registered"
    section = run.stdout.split("Passes (run in the order given):", 1)[1]
    for flag, cls in passes.items():
        line = next((ln for ln in section.splitlines() if ln.split()[:1] == [f"--{flag}"]), None)
        assert line is not None, f"--{flag} missing from --help"
        assert cls.summary.split()[0] in line


@pytest.mark.parametrize(
    "args",
    [["--no-such-flag"], ["--pass-pipeline=no-such-pass"], ["-o"], ["a.mlir", "b.mlir"]],
)
def test_usage_errors_exit_2(streamopt: Streamopt, args: list[str]) -> None:
    run = streamopt(*args, stdin=CANONICAL)
    assert run.code == 2
    assert run.stdout == ""
    assert "Usage:" in run.stderr or "Error:" in run.stderr


# -- passes, ordering and statistics -------------------------------------------------------

_DUMP_HEADER = re.compile(r"^// -----// IR Dump After \w+ \(([\w-]+)\) //----- //$", re.MULTILINE)


def pass_order(stderr: str) -> list[str]:
    return _DUMP_HEADER.findall(stderr)


@pytest.mark.parametrize(
    ("args", "order"),
    [
        (["--canonicalize", "--strip-debuginfo"], ["canonicalize", "strip-debuginfo"]),
        (["--strip-debuginfo", "--canonicalize"], ["strip-debuginfo", "canonicalize"]),
        (
            ["--pass-pipeline=canonicalize,strip-debuginfo,canonicalize"],
            ["canonicalize", "strip-debuginfo", "canonicalize"],
        ),
        (
            ["--pass-pipeline=builtin.module(strip-debuginfo,canonicalize)"],
            ["strip-debuginfo", "canonicalize"],
        ),
        (
            ["--strip-debuginfo", "--pass-pipeline=canonicalize"],
            ["strip-debuginfo", "canonicalize"],
        ),
        (
            ["--pass-pipeline=canonicalize", "--strip-debuginfo"],
            ["canonicalize", "strip-debuginfo"],
        ),
    ],
)
def test_passes_run_in_command_line_order(
    streamopt: Streamopt, args: list[str], order: list[str]
) -> None:
    run = streamopt(*args, "--print-ir-after-all", stdin=WITH_DEAD_CONSTANT)
    assert run.code == 0, run.stderr
    assert pass_order(run.stderr) == order


def test_pass_results_reach_stdout(streamopt: Streamopt) -> None:
    run = streamopt("--canonicalize", stdin=WITH_DEAD_CONSTANT)
    assert (run.code, run.stdout) == (0, CANONICAL)


def test_stats_report_counts_per_pass(streamopt: Streamopt) -> None:
    run = streamopt("--strip-debuginfo", "--canonicalize", "--stats", stdin=WITH_DEAD_CONSTANT)
    assert run.code == 0
    assert run.stdout == CANONICAL
    report = run.stderr
    assert "Pass statistics report" in report
    strip_at = report.index("StripDebuginfoPass")
    canonicalize_at = report.index("CanonicalizePass")
    assert strip_at < canonicalize_at
    assert re.search(r"\(S\) 1 num-locations-stripped - ", report[strip_at:canonicalize_at])
    assert re.search(r"\(S\) 1 num-dead-ops-erased - ", report[canonicalize_at:])


def test_stats_sum_over_split_chunks(streamopt: Streamopt, tmp_path: Path) -> None:
    text = WITH_DEAD_CONSTANT + "// -----\n" + WITH_DEAD_CONSTANT
    path = write(tmp_path, "s.mlir", text)
    run = streamopt("--split-input-file", "--canonicalize", "--stats", str(path))
    assert run.code == 0
    assert re.search(r"\(S\) 2 num-dead-ops-erased - ", run.stderr), run.stderr


def test_no_stats_without_flag(streamopt: Streamopt) -> None:
    run = streamopt("--canonicalize", stdin=WITH_DEAD_CONSTANT)
    assert run.stderr == ""


# -- what a user of mlir-opt or iree-opt expects ----------------------------------------------

WITH_LOCATION_PRINTED = """\
module {
  util.func public @f(%arg0: index) -> index {
    %c1 = arith.constant 1 : index loc("model.py":1:2)
    util.return %arg0 : index
  }
}

"""


def test_locations_are_left_out_by_default(streamopt: Streamopt) -> None:
    """As `iree-opt FILE` prints it: no loc(...) unless asked for."""
    run = streamopt(stdin=WITH_DEAD_CONSTANT)
    assert run.code == 0, run.stderr
    assert run.stdout == WITH_LOCATION_PRINTED.replace(' loc("model.py":1:2)', "")


def test_mlir_print_debuginfo_keeps_locations(streamopt: Streamopt) -> None:
    run = streamopt("--mlir-print-debuginfo", stdin=WITH_DEAD_CONSTANT)
    assert (run.code, run.stdout) == (0, WITH_LOCATION_PRINTED)


def test_locations_in_ir_dumps_follow_the_flag(streamopt: Streamopt) -> None:
    args = ("--elide-async-copies", "--print-ir-after-all")
    plain = streamopt(*args, stdin=WITH_DEAD_CONSTANT)
    assert "IR Dump After" in plain.stderr and "loc(" not in plain.stderr
    located = streamopt(*args, "--mlir-print-debuginfo", stdin=WITH_DEAD_CONSTANT)
    assert 'loc("model.py":1:2)' in located.stderr


@pytest.mark.parametrize(
    ("single", "double"),
    [
        (["-split-input-file"], ["--split-input-file"]),
        (["-elide-async-copies", "-canonicalize"], ["--elide-async-copies", "--canonicalize"]),
        (["-pass-pipeline=cse,canonicalize"], ["--pass-pipeline=cse,canonicalize"]),
        (["-pass-pipeline", "cse"], ["--pass-pipeline", "cse"]),
        (
            ["-mlir-print-debuginfo", "-verify-diagnostics"],
            ["--mlir-print-debuginfo", "--verify-diagnostics"],
        ),
        (["-print-ir-after-all", "-cse"], ["--print-ir-after-all", "--cse"]),
    ],
)
def test_long_options_take_one_dash_as_in_mlir_opt(
    streamopt: Streamopt, single: list[str], double: list[str]
) -> None:
    with_one = streamopt(*single, stdin=WITH_DEAD_CONSTANT)
    with_two = streamopt(*double, stdin=WITH_DEAD_CONSTANT)
    assert with_one.code == 0, with_one.stderr
    assert (with_one.code, with_one.stdout, with_one.stderr) == (
        with_two.code,
        with_two.stdout,
        with_two.stderr,
    )


def test_one_dash_spelling_changes_only_option_names() -> None:
    argv = ["-o", "-split-input-file", "-cse", "-x", "-", "--", "-cse"]
    assert mlir_style_argv(argv) == ["-o", "-split-input-file", "--cse", "-x", "-", "--", "-cse"]
    assert mlir_style_argv(["-help", "-version", "-h"]) == ["--help", "--version", "-h"]


def test_version_names_streamopt_and_iree(streamopt: Streamopt) -> None:
    for spelling in ("--version", "-version"):
        run = streamopt(spelling)
        assert run.code == 0
        assert run.stdout.splitlines()[0] == f"streamopt {streamopt_package.__version__}"
        assert f"IREE {streamopt_package.IREE_VERSION}" in run.stdout


def test_iree_version_is_the_one_the_test_extra_installs() -> None:
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert f'"iree-base-compiler=={streamopt_package.IREE_VERSION}"' in pyproject
    assert f'"iree-base-runtime=={streamopt_package.IREE_VERSION}"' in pyproject


def test_version_agrees_with_the_installed_package() -> None:
    from importlib.metadata import version

    assert version("streamopt") == streamopt_package.__version__


def test_list_passes_lists_every_pass(streamopt: Streamopt) -> None:
    run = streamopt("--list-passes")
    assert run.code == 0
    listed = [line.split()[0] for line in run.stdout.splitlines()]
    assert listed == [f"--{flag}" for flag in PASS_INDEX]


@pytest.mark.parametrize("spelling", ["--mlir-print-ir-after-all", "--print-ir-after-all"])
def test_print_ir_after_all(streamopt: Streamopt, spelling: str) -> None:
    run = streamopt("--canonicalize", "--cse", spelling, stdin=WITH_DEAD_CONSTANT)
    assert run.code == 0, run.stderr
    assert pass_order(run.stderr) == ["canonicalize", "cse"]
    assert "%c1 = arith.constant" not in run.stderr  # After canonicalize erased it.


@pytest.mark.parametrize("spelling", ["--mlir-print-ir-before-all", "--print-ir-before-all"])
def test_print_ir_before_all(streamopt: Streamopt, spelling: str) -> None:
    run = streamopt("--canonicalize", "--cse", spelling, stdin=WITH_DEAD_CONSTANT)
    assert run.code == 0, run.stderr
    headers = re.findall(r"^// -----// IR Dump Before (\w+) \(([\w-]+)\) //----- //$",
                         run.stderr, re.MULTILINE)  # fmt: skip
    assert headers == [("CanonicalizePass", "canonicalize"), ("CSEPass", "cse")]
    before_canonicalize = run.stderr.split("IR Dump Before CSEPass")[0]
    assert "%c1 = arith.constant 1 : index" in before_canonicalize


def test_mlir_pass_statistics_is_stats(streamopt: Streamopt) -> None:
    stats = streamopt("--canonicalize", "--stats", stdin=WITH_DEAD_CONSTANT)
    mlir = streamopt("--canonicalize", "--mlir-pass-statistics", stdin=WITH_DEAD_CONSTANT)
    assert "num-dead-ops-erased" in stats.stderr
    assert (mlir.code, mlir.stdout, mlir.stderr) == (stats.code, stats.stdout, stats.stderr)


_TIMING_ROW = re.compile(r"^  +-?\d+\.\d{4} \( *-?\d+\.\d%\)  (.+)$")


def test_mlir_timing_prints_mlirs_report(streamopt: Streamopt, tmp_path: Path) -> None:
    text = WITH_DEAD_CONSTANT + "// -----\n" + WITH_DEAD_CONSTANT
    path = write(tmp_path, "t.mlir", text)
    run = streamopt("--split-input-file", "--canonicalize", "--cse", "--mlir-timing", str(path))
    assert run.code == 0, run.stderr
    assert run.stdout == CANONICAL + "// -----\n" + CANONICAL  # The timing is on stderr.
    lines = run.stderr.splitlines()
    assert lines[:3] == [
        "===" + "-" * 73 + "===",
        " " * 25 + "... Execution time report ...",
        "===" + "-" * 73 + "===",
    ]
    assert re.fullmatch(r"  Total Execution Time: \d+\.\d{4} seconds", lines[3])
    assert lines[4:6] == ["", "  ----Wall Time----  ----Name----"]
    rows = [_TIMING_ROW.match(line) for line in lines[6:]]
    assert all(rows), lines[6:]
    names = [row.group(1) for row in rows if row]
    # One row per pass of the pipeline (both chunks summed), as mlir-opt reports one run.
    assert names == ["Parser", "CanonicalizePass", "CSEPass", "Output", "Rest", "Total"]
    assert lines[-1].endswith("(100.0%)  Total")


def test_no_timing_report_without_the_flag(streamopt: Streamopt) -> None:
    assert "Execution time report" not in streamopt("--cse", stdin=CANONICAL).stderr


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        (
            "builtin.module(util.func(cse))",
            "nested pipeline 'util.func(cse)' is not supported: every streamopt pass runs on "
            "the whole module, not on each 'util.func' (to run them on the module: "
            "'builtin.module(cse)')",
        ),
        (
            "builtin.module(func.func(cse,canonicalize),elide-async-copies)",
            "nested pipeline 'func.func(cse,canonicalize)' is not supported",
        ),
        ("builtin.module(cse{max-iterations=2})", "pass options are not supported: 'cse{"),
        ("builtin.module(cse", "unbalanced brackets"),
        ("builtin.module(no-such-pass)", "unknown pass 'no-such-pass'"),
    ],
)
def test_pipelines_streamopt_cannot_run_are_clear_errors(
    streamopt: Streamopt, pipeline: str, message: str
) -> None:
    run = streamopt(f"--pass-pipeline={pipeline}", stdin=CANONICAL)
    assert run.code == 2
    assert message in run.stderr, run.stderr


@pytest.mark.parametrize("pipeline", ["builtin.module(cse,canonicalize)", "any(cse,canonicalize)"])
def test_anchored_pipelines_run(streamopt: Streamopt, pipeline: str) -> None:
    run = streamopt(f"--pass-pipeline={pipeline}", "--print-ir-after-all", stdin=CANONICAL)
    assert run.code == 0, run.stderr
    assert pass_order(run.stderr) == ["cse", "canonicalize"]


# -- through a real process ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stdin", "args", "code"),
    [(CANONICAL, [], 0), ("util.func @f(\n", [], 1), (CANONICAL, ["--no-such-flag"], 2)],
)
def test_process_exit_status(stdin: str, args: list[str], code: int) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "streamopt", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
