"""The `streamopt-run` command: results, the report table and JSON, traces, --compare, errors.

Tests call the console-script entry point `streamopt.run_command.main` in-process with `sys.argv`
patched, so they see the exit status and the streams a user sees.
"""

# IR lines cannot wrap.
# ruff: noqa: E501

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from streamopt.run_command import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def real_dumps() -> list[Path]:
    """Every IREE dump under examples/: files with a util.func outside comments (the IREE
    source programs they came from only mention util.func in comments), and no RUN line (the
    tests of examples/lit-suite are split files that lit runs)."""

    def is_dump(path: Path) -> bool:
        lines = path.read_text().splitlines()
        return not any(line.startswith("// RUN:") for line in lines) and any(
            "util.func" in line and not line.lstrip().startswith("//") for line in lines
        )

    return sorted(path for path in EXAMPLES.rglob("*.mlir") if is_dump(path))


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def invoke(*args: str) -> Run:
        monkeypatch.setattr(sys, "argv", ["streamopt-run", *args])
        with pytest.raises(SystemExit) as exit_info:
            main()
        captured = capsys.readouterr()
        code = exit_info.value.code
        return Run(code if isinstance(code, int) else 0, captured.out, captured.err)

    return invoke


TWO_DEVICES = EXAMPLES / "two-devices.mlir"


def test_prints_results_and_the_table(run_cli) -> None:  # type: ignore[no-untyped-def]
    run = run_cli(str(TWO_DEVICES))
    assert run.code == 0, run.err
    assert run.out.startswith("result[0]: 4xf32=")
    for heading in ("queue ops", "bytes copied", "by moves", "allocated", "peak resident"):
        assert heading in run.out
    assert "dev_a (cpu)" in run.out and "dev_b (cpu)" in run.out
    assert "moves: 0 aliased, 0 copied" in run.out


def test_report_json_has_the_documented_keys(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "report.json"
    run = run_cli(str(TWO_DEVICES), "--report-json", str(path), "--no-table")
    assert run.code == 0, run.err
    report = json.loads(path.read_text())
    for key in ("moves_aliased", "moves_copied"):
        assert isinstance(report[key], int)
    for key in ("bytes_copied_by_moves", "bytes_copied", "bytes_allocated", "peak_bytes"):
        assert set(report[key]) == {"total", "by_device"}
        assert set(report[key]["by_device"]) == {"dev_a", "dev_b"}
    # The dump transfers 16 bytes each way.
    assert report["bytes_copied"]["total"] == 32
    assert report["bytes_copied_by_moves"]["total"] == 0
    assert report["outputs"][0].startswith("4xf32=")


def test_trace_is_a_chrome_trace_of_queue_ops(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "trace.json"
    run = run_cli(str(TWO_DEVICES), "--trace", str(path), "--no-table")
    assert run.code == 0, run.err
    trace = json.loads(path.read_text())
    names = {e["name"] for e in trace["traceEvents"] if e.get("ph") == "X"}
    assert {"alloca", "copy", "dispatch", "dealloca"} <= names
    processes = {e["args"]["name"] for e in trace["traceEvents"] if e.get("name") == "process_name"}
    assert {"dev_a", "dev_b"} <= processes


def test_compare_runs_every_registered_form(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "report.json"
    run = run_cli(str(TWO_DEVICES), "--compare", "--report-json", str(path))
    assert run.code == 0, run.err
    assert "forms compared" in run.out
    forms = {entry["form"]: entry for entry in json.loads(path.read_text())["compare"]}
    elided = forms["elided"]
    assert elided["same_bytes"] is True
    assert elided["report"]["moves_aliased"] == 2
    assert elided["report"]["bytes_copied"]["total"] == 0
    for entry in forms.values():
        if entry["skipped"]:
            assert f"skipped '{entry['form']}'" in run.err


THREE_DEVICES = EXAMPLES / "iree" / "three-devices" / "before-elide-2.mlir"


def test_lowered_moves_are_issued_on_their_target(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A move asks its target device for the storage: every lowered form makes the async
    form's choices. The dump moves dev_a -> dev_c (the discrete device: a copy), dev_b -> dev_a
    (host memory both reach: an alias) and dev_c -> dev_a (a copy); a queue move issued on the
    source device would alias all three."""
    path = tmp_path / "report.json"
    run = run_cli(str(THREE_DEVICES), "--compare", "--report-json", str(path), "--no-table")
    assert run.code == 0, run.err
    forms = {entry["form"]: entry for entry in json.loads(path.read_text())["compare"]}
    for form in ("elided", "lowered to cmd", "lowered to hal"):
        report = forms[form]["report"]
        assert forms[form]["same_bytes"] is True, form
        assert (report["moves_aliased"], report["moves_copied"]) == (1, 2), form


MOVE_TO_DEFAULT = """#map = affine_map<(d0) -> (d0)>
module attributes {stream.affinity.default = #hal.device.affinity<@dev_a>} {
  util.global private @dev_a : !hal.device
  util.global private @dev_b : !hal.device
  util.global private @dev_c : !hal.device
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
        return
      }
    }
  }
  util.func public @main() -> !stream.resource<external> {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c1_i32 = arith.constant 1 : i32
    %0 = stream.async.splat on(#hal.device.affinity<@dev_a>) %c1_i32 : i32 -> !stream.resource<transient>{%c16}
    %1 = stream.async.move %0 : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_c>) !stream.resource<transient>{%c16}
    %2 = stream.async.dispatch on(#hal.device.affinity<@dev_c>) @ex::@fn(%1[%c0 to %c16 for %c16]) : (!stream.resource<transient>{%c16}) -> !stream.resource<transient>{%c16}
    %3 = stream.async.move %2 : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_c>) -> !stream.resource<transient>{%c16}
    %4 = stream.async.dispatch on(#hal.device.affinity<@dev_a>) @ex::@fn(%3[%c0 to %c16 for %c16]) : (!stream.resource<transient>{%c16}) -> !stream.resource<external>{%c16}
    util.return %4 : !stream.resource<external>
  }
}
"""


def test_a_move_without_to_goes_to_the_default_affinity(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A move with no `to(...)` sends its result to the default affinity (dev_a), so the move
    from the discrete dev_c copies in every form; issued on its source, it would alias and
    leave the value in dev_c's memory."""
    program = tmp_path / "move_to_default.mlir"
    program.write_text(MOVE_TO_DEFAULT)
    path = tmp_path / "report.json"
    run = run_cli(str(program), "--compare", "--report-json", str(path), "--no-table")
    assert run.code == 0, run.err
    forms = {entry["form"]: entry for entry in json.loads(path.read_text())["compare"]}
    for form in ("as given", "lowered to cmd", "lowered to hal"):
        report = forms[form]["report"]
        assert forms[form]["same_bytes"] is True, form
        assert (report["moves_aliased"], report["moves_copied"]) == (0, 2), form


def test_inputs_and_function_flags(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    program = tmp_path / "prog.mlir"
    program.write_text(
        """util.func public @other() -> i32 {
  %c1_i32 = arith.constant 1 : i32
  util.return %c1_i32 : i32
}
util.func public @twice(%arg0: i32, %arg1: !hal.buffer_view) -> (i32, !hal.buffer_view) {
  %0 = arith.addi %arg0, %arg0 : i32
  util.return %0, %arg1 : i32, !hal.buffer_view
}
"""
    )
    import numpy as np

    array = tmp_path / "x.npy"
    np.save(array, np.arange(3, dtype=np.int16))
    run = run_cli(str(program), "--function", "twice", "--input", "21", "--input", str(array))
    assert run.code == 0, run.err
    assert "result[0]: i32=42" in run.out
    assert "result[1]: 3xi16=0 1 2" in run.out
    run = run_cli(str(program), "--function", "twice", "--input", "2xf32=1.5", "--no-table",
                  "--input", "3")  # fmt: skip
    assert run.code == 1
    assert "scalar" in run.err


def test_errors_are_located_and_never_tracebacks(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    program = tmp_path / "bad.mlir"
    program.write_text(
        """util.global private @dev_a : !hal.device
util.global private @dev_b : !hal.device
util.func public @main() -> !stream.resource<external> {
  %c16 = arith.constant 16 : index
  %c5_i8 = arith.constant 5 : i8
  %0 = stream.async.splat %c5_i8 : i8 -> !stream.resource<external>{%c16}
  %1 = stream.async.move %0 : !stream.resource<external>{%c16} -> to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%c16}
  %2 = stream.async.clone %0 : !stream.resource<external>{%c16} -> !stream.resource<external>{%c16}
  util.return %2 : !stream.resource<external>
}
"""
    )
    run = run_cli(str(program))
    assert run.code == 1
    assert "Traceback" not in run.err
    # The verifier already rejects it (statically) with the file's location.
    assert f"{program}:7:" in run.err
    # Unverified, the interpreter catches the read when it happens: at the clone, line 8.
    run = run_cli(str(program), "--no-verify")
    assert run.code == 1
    assert f"{program}:8:8: error: use after move" in run.err
    assert f"{program}:7:8: note: moved here" in run.err
    syntax = tmp_path / "syntax.mlir"
    syntax.write_text("util.func public @main( {\n")
    run = run_cli(str(syntax))
    assert run.code == 1
    assert run.err.startswith(f"{syntax}:1:")
    run = run_cli(str(tmp_path / "missing.mlir"))
    assert run.code != 0
    assert "Traceback" not in run.err


def test_a_form_that_computes_other_bytes_fails_compare(
    run_cli, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    # A pass that changes what the program computes must make --compare fail.
    from streamopt import run_command as module

    def breaking_pass(text: str, name: str, flags: list[str], *args, **kwargs):  # type: ignore[no-untyped-def]
        if flags:
            text = text.replace("@main_dispatch_1_", "@main_dispatch_0_")
        return original(text, name, flags, *args, **kwargs)

    original = module._parse_and_lower
    monkeypatch.setattr(module, "_parse_and_lower", breaking_pass)
    run = run_cli(str(TWO_DEVICES), "--compare", "--no-table")
    assert run.code == 1
    assert "computes different bytes" in run.err
    # Reported at the function that was run.
    assert f"{TWO_DEVICES}:" in run.err and "util.func public @main" in run.err


@pytest.mark.parametrize("path", real_dumps(), ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_every_real_dump_runs_with_no_flags(run_cli, path: Path) -> None:  # type: ignore[no-untyped-def]
    run = run_cli(str(path), "--no-table")
    assert run.code == 0, run.err
    assert run.out.startswith("result[0]: ")


def test_allow_unregistered_dialect_keeps_what_iree_opt_does_not_register(
    run_cli, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    program = tmp_path / "unregistered.mlir"
    program.write_text(
        """util.func public @main() -> i32 attributes {note = #foo.bar<1>} {
  %c1_i32 = arith.constant 1 : i32
  util.return %c1_i32 : i32
}
"""
    )
    run = run_cli(str(program), "--no-table")
    assert run.code == 1
    assert f"{program}:1:" in run.err and "--allow-unregistered-dialect" in run.err
    run = run_cli(str(program), "--no-table", "--allow-unregistered-dialect")
    assert run.code == 0, run.err
    assert "result[0]: i32=1" in run.out
    # Every compared form parses with the flag too.
    run = run_cli(str(program), "--no-table", "--compare", "--allow-unregistered-dialect")
    assert run.code == 0, run.err
    # IREE's compiler would reject the dialect anyway.
    run = run_cli(str(program), "--backend", "iree", "--allow-unregistered-dialect")
    assert run.code == 2
    assert "needs the reference backend" in run.err


# -- what the issue-21 newcomer met: terminals, pipes, stand-in kernels, errors ------------------


def test_piped_output_is_plain_text(run_cli) -> None:  # type: ignore[no-untyped-def]
    """Not a terminal: no box drawing, no padded title, one aligned line per row."""
    run = run_cli(str(TWO_DEVICES), "--compare")
    assert run.code == 0, run.err
    assert not set(run.out) & set("┏┃━│─┡┼└╇"), run.out
    lines = run.out.splitlines()
    assert "@main on the reference runtime" in lines
    assert all(line == line.rstrip() for line in lines)
    header = next(line for line in lines if line.startswith("device"))
    assert header.split("  ")[0] == "device" and header.endswith("peak resident")
    assert any(line.startswith("dev_a (cpu)  alloca 3, copy 1") for line in lines), lines
    assert "forms compared" in lines


def _terminal_output(table: object, width: int) -> str:
    """What `show` prints of `table` to a terminal `width` columns wide."""
    import io

    from streamopt.text_table import show

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    import os

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        show([table], stream)  # type: ignore[list-item]
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    return stream.getvalue()


def _report_of(run_cli, tmp_path: Path, path: Path = TWO_DEVICES) -> dict:  # type: ignore[no-untyped-def, type-arg]
    out = tmp_path / "report.json"
    run = run_cli(str(path), "--report-json", str(out), "--no-table")
    assert run.code == 0, run.err
    return json.loads(out.read_text())  # type: ignore[no-any-return]


def _visible(text: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_tables_fit_an_80_column_terminal_without_cutting_names(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from streamopt.runtime.interpreter.report import report_table

    report = _report_of(run_cli, tmp_path)
    shown = _visible(_terminal_output(report_table(report, "@main on the reference runtime"), 80))
    lines = shown.splitlines()
    assert max(len(line) for line in lines) <= 80, shown
    assert "…" not in shown
    assert "dev_a (cpu)" in shown and "dev_b (cpu)" in shown
    for word in ("device", "queue ops", "bytes", "copied", "moves", "allocated", "resident"):
        assert word in shown
    assert "┃" in shown  # A terminal gets the box.


def test_a_table_too_wide_for_the_terminal_is_stacked(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from streamopt.runtime.interpreter.report import report_table

    report = _report_of(run_cli, tmp_path)
    long_name = "a_device_with_a_rather_long_name_" * 2 + "x"
    report["devices"] = {long_name: report["devices"]["dev_a"], **report["devices"]}
    shown = _visible(_terminal_output(report_table(report, "title"), 60))
    lines = shown.splitlines()
    assert f"{long_name} (cpu)" in lines
    assert all(len(line) <= 60 for line in lines if long_name not in line), shown
    assert "  queue ops:" in shown and "…" not in shown


def test_reference_results_say_they_come_from_stand_in_kernels(run_cli) -> None:  # type: ignore[no-untyped-def]
    run = run_cli(str(TWO_DEVICES))
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0].startswith("result[0]: ")
    assert lines[1].startswith("note: results come from stand-in kernels")
    # --no-table prints the results only.
    assert "note:" not in run_cli(str(TWO_DEVICES), "--no-table").out


def test_no_stand_in_note_without_dispatches(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    program = tmp_path / "constant.mlir"
    program.write_text(
        "util.func public @main() -> i32 {\n"
        "  %c1_i32 = arith.constant 1 : i32\n"
        "  util.return %c1_i32 : i32\n"
        "}\n"
    )
    run = run_cli(str(program))
    assert run.code == 0, run.err
    assert "stand-in" not in run.out


def test_errors_have_streamopts_prefix_and_exit_codes(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from streamopt.opt_command import main as streamopt_main

    missing = tmp_path / "missing.mlir"
    run = run_cli(str(missing))
    assert run.code == 1
    assert run.err == f"streamopt-run: error: cannot read '{missing}': No such file or directory\n"
    run = run_cli(str(TWO_DEVICES), "--function", "nope")
    assert run.code == 1
    assert run.err == "streamopt-run: error: no function '@nope' in the module\n"
    run = run_cli(str(TWO_DEVICES), "--topology", str(missing))
    assert run.code == 1
    assert run.err.startswith(f"streamopt-run: error: --topology {missing}: ")
    # The same as streamopt's own.
    monkeypatch.setattr(sys, "argv", ["streamopt", str(missing)])
    with pytest.raises(SystemExit) as exit_info:
        streamopt_main()
    assert exit_info.value.code == 1
