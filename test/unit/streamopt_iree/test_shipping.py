"""Shipping moves in one's own application (docs/shipping.md): `python -m
streamopt.iree.build` writes a .vmfb once, and examples/shipping/app.py loads it with plain
`iree.runtime` code and streamopt's move module; it gives the plain IREE build's results."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

from streamopt.iree.build import Program, build_plain

REPO = Path(__file__).resolve().parents[3]
SHIPPING = REPO / "examples" / "shipping"


def _app() -> ModuleType:
    spec = importlib.util.spec_from_file_location("shipping_app", SHIPPING / "app.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build(output: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "streamopt.iree.build", str(SHIPPING / "model.mlir"),
               "-o", str(output), *flags]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_the_shipped_vmfb_gives_the_plain_builds_results(tmp_path: Path) -> None:
    vmfb = tmp_path / "model.vmfb"
    built = _build(vmfb)
    assert built.returncode == 0, built.stderr
    assert "devices dev_a, dev_b (in this order)" in built.stderr
    assert b"streamopt.queue_move" in vmfb.read_bytes()
    path = SHIPPING / "model.mlir"
    plain = build_plain(Program.read(path, path.read_text(encoding="utf-8")), tmp_path)
    app = _app()
    inputs = app.inputs()
    expected, plain_report = app.run(str(plain.vmfb), *inputs)
    got, report = app.run(str(vmfb), *inputs)
    assert expected.shape == (64, 256) and np.any(expected != 0)
    assert got.tobytes() == expected.tobytes()
    # The plain build imports no move; the shipped one moves both activations, and between
    # local-task devices both alias.
    assert plain_report["moves_aliased"] == 0 and plain_report["moves_copied"] == 0
    assert report["moves_aliased"] == 2 and report["moves_copied"] == 0


def test_the_app_runs_as_a_script(tmp_path: Path) -> None:
    vmfb = tmp_path / "model.vmfb"
    assert _build(vmfb).returncode == 0
    ran = subprocess.run([sys.executable, str(SHIPPING / "app.py"), str(vmfb)],
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert "moves aliased 2, copied 0" in ran.stdout


def test_an_expanded_build_needs_no_move_module(tmp_path: Path) -> None:
    vmfb = tmp_path / "expanded.vmfb"
    built = _build(vmfb, "--expand")
    assert built.returncode == 0, built.stderr
    assert "move module: none" in built.stderr
    assert b"streamopt.queue_move" not in vmfb.read_bytes()


def test_a_build_error_is_a_diagnostic(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @main( {\n", encoding="utf-8")
    output = tmp_path / "out.vmfb"
    output.write_bytes(b"old")
    command = [sys.executable, "-m", "streamopt.iree.build", str(bad), "-o", str(output)]
    failed = subprocess.run(command, capture_output=True, text=True, check=False)
    assert failed.returncode == 1
    assert "error:" in failed.stderr and "Traceback" not in failed.stderr
    assert output.read_bytes() == b"old"


def test_before_calls_runs_once_loaded_and_before_the_first_call(tmp_path: Path) -> None:
    # bench/iree_common.py marks memory there: after the arguments, before any call.
    from streamopt.iree.run import run_vmfb

    path = SHIPPING / "model.mlir"
    plain = build_plain(Program.read(path, path.read_text(encoding="utf-8")), tmp_path)
    seen: list[int] = []
    run = run_vmfb(plain.vmfb, ["dev_a", "dev_b"], None, [], (), 3,
                   before_calls=lambda: seen.append(len(seen)))  # fmt: skip
    assert seen == [0] and len(run.call_seconds) == 3
