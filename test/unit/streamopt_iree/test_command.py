"""`streamopt-run FILE --backend iree`: results, --compare, --input/--function/--report-json,
kept .vmfb, modules supplied at run time, and errors as diagnostics naming the stage."""

# ruff: noqa: E501

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from streamopt.iree.build import InputKind, classify, device_names
from streamopt.iree.run import abi_arguments, make_arguments
from streamopt.run_command import main

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples" / "iree"


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def invoke(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["streamopt-run", *args])
        with pytest.raises(SystemExit) as exit_info:
            main()
        captured = capsys.readouterr()
        code = exit_info.value.code
        return (code if isinstance(code, int) else 0), captured.out, captured.err

    return invoke


def test_compare_a_source_program(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    report_path = tmp_path / "report.json"
    code, out, err = run_cli(str(EXAMPLES / "control-flow" / "program.mlir"), "--backend", "iree", "--compare",
                             "--input", "4xf32=1,2,3,4", "--input", "i32=1", "--input", "i32=3",
                             "--report-json", str(report_path), "--keep-vmfb", str(tmp_path / "kept"))  # fmt: skip
    assert code == 0, err
    # (1 2 3 4) squared on dev_b, then three times x * 2 - input.
    assert out.startswith("result[0]: 4xf32=1 18 51 100\n")
    assert "iree-compile --compile-from=stream" in out and "same bytes" in out
    report = json.loads(report_path.read_text())
    assert report["backend"] == "iree" and report["same_bytes"] is True
    assert report["outputs"] == ["4xf32=1 18 51 100"]
    assert report["devices"] == ["dev_a", "dev_b"]
    assert [b["build"] for b in report["builds"]] == [
        "streamopt",
        "streamopt, moves forced to copy",
        "plain",
    ]
    for build in report["builds"]:
        assert Path(build["vmfb"]).is_file()


def test_function_and_devices(run_cli) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(str(EXAMPLES / "two-devices" / "before-elide-2.mlir"), "--backend", "iree",
                             "--function", "main", "--iree-device", "x", "--iree-device", "y", "--no-table")  # fmt: skip
    assert code == 0, err
    assert out.startswith("result[0]: 4xf32=")


def test_missing_function_is_a_diagnostic(run_cli) -> None:  # type: ignore[no-untyped-def]
    path = EXAMPLES / "two-devices" / "program.mlir"
    code, _out, err = run_cli(str(path), "--backend", "iree", "--function", "nope")
    assert code == 1
    assert err.startswith(
        f"{path}: error: [iree runtime] no function 'nope' in the module (has: main)"
    )
    assert "Traceback" not in err


def test_compile_error_names_the_stage(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.mlir"
    path.write_text("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                    "  %y = arith.addf %x, %q : tensor<4xf32>\n"
                    "  return %y : tensor<4xf32>\n}\n")  # fmt: skip
    code, _out, err = run_cli(str(path), "--backend", "iree")
    assert code == 1
    assert err == (f"{path}:2:23: error: [iree-compile to the elide point] iree-compile: use of undeclared SSA value name\n"
                   "  %y = arith.addf %x, %q : tensor<4xf32>\n"
                   "                      ^\n")  # fmt: skip


def test_runtime_error_names_the_stage(run_cli) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = run_cli(
        str(EXAMPLES / "two-devices" / "before-elide-2.mlir"),
        "--backend",
        "iree",
        "--input",
        "3xf32=1",
    )
    assert code == 1
    assert "error: [iree runtime] @main: " in err and "input0 shape dimension 0 mismatch" in err


def test_streamopt_error_names_the_stage(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # A dump streamopt's verifier refuses (a host read of transient memory): the diagnostic,
    # located in the file, says which stage failed.
    text = (EXAMPLES / "two-devices" / "before-elide-2.mlir").read_text()
    head, main_function = text.split("util.func public @main", 1)
    marker = "    %c0 = arith.constant 0 : index\n"
    assert marker in main_function
    bad = (
        head
        + "util.func public @main"
        + main_function.replace(
            marker,
            marker
            + "    %bad = stream.async.alloca : !stream.resource<transient>{%c0}\n    %v = stream.async.load %bad[%c0] : !stream.resource<transient>{%c0} -> i32\n",
            1,
        )
    )
    path = tmp_path / "dump.mlir"
    path.write_text(bad)
    code, _out, err = run_cli(str(path), "--backend", "iree")
    assert code == 1
    assert (
        f"{path}:" in err
        and "error: [streamopt --elide-async-copies --lower-to-cmd --lower-cmd-moves-to-calls]"
        in err
    )
    assert "staging" in err and "Traceback" not in err


def test_runtime_module_extension(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # The hook the next layer (moves on IREE's runtime) plugs into: modules made for the
    # run's instance and devices, and a report merged into --report-json.
    extension = tmp_path / "ext.py"
    extension.write_text(
        "class Extension:\n"
        "    def __init__(self):\n"
        "        self.devices = None\n"
        "    def modules(self, instance, devices):\n"
        "        self.devices = len(devices)\n"
        "        return []\n"
        "    def report(self):\n"
        "        return {'extension_devices': self.devices}\n"
        "def extension():\n"
        "    return Extension()\n"
    )
    report_path = tmp_path / "r.json"
    code, _out, err = run_cli(str(EXAMPLES / "three-devices" / "before-elide-2.mlir"), "--backend", "iree",
                             "--iree-module", str(extension), "--report-json", str(report_path), "--no-table")  # fmt: skip
    assert code == 0, err
    assert json.loads(report_path.read_text())["extension_devices"] == 3


def test_iree_options_need_the_iree_backend(run_cli) -> None:  # type: ignore[no-untyped-def]
    code, _out, err = run_cli(str(REPO / "examples" / "two-devices.mlir"), "--keep-vmfb", "x")
    assert code == 2 and "need --backend iree" in err
    code, _out, err = run_cli(str(REPO / "examples" / "two-devices.mlir"), "--iree-moves", "expand")
    assert code == 2 and "--iree-moves need --backend iree" in err


def test_kinds_and_devices() -> None:
    source = (EXAMPLES / "pipeline-four" / "program.mlir").read_text()
    assert classify(source) is InputKind.SOURCE
    assert device_names(source, InputKind.SOURCE) == ["dev_a", "dev_b", "dev_c", "dev_d"]
    dump = (EXAMPLES / "three-devices" / "before-elide-2.mlir").read_text()
    assert classify(dump) is InputKind.DUMP
    assert device_names(dump, InputKind.DUMP) == ["dev_a", "dev_b", "dev_c"]
    assert (
        classify((EXAMPLES / "two-devices" / "before-elide-1.mlir").read_text())
        is InputKind.UNREFINED_DUMP
    )


def test_seeded_arguments_follow_the_abi() -> None:
    declaration = (
        "sync func @main(%input0: tensor<?x4xf32>, %input1: i32) -> (%output0: tensor<?x4xf32>)"
    )
    specs = abi_arguments(declaration)
    assert [s.text for s in specs] == ["tensor<?x4xf32>", "i32"]
    first = make_arguments(declaration, [])
    second = make_arguments(declaration, [])
    assert first[0].shape == (3, 4) and (first[0] == second[0]).all() and first[1] == second[1]
    given = make_arguments(declaration, ["2x4xf32=1", "i32=7"])
    assert given[0].shape == (2, 4) and given[1] == 7


def test_the_rest_of_streamopt_does_not_import_iree() -> None:
    code = (
        "import sys\n"
        "import streamopt.opt_command, streamopt.run_command, streamopt.runtime.interpreter\n"
        "from streamopt.passes import load_all\n"
        "load_all()\n"
        "assert not [m for m in sys.modules if m == 'iree' or m.startswith('iree.')], sorted(sys.modules)\n"
        "assert 'streamopt.iree' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
