"""The Python API (`streamopt.parse`, `run_passes`, `print`, ...): docs/python-api.md's examples
run as written, and what the examples do not show."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import streamopt

ROOT = Path(__file__).resolve().parents[2]
API_DOC = ROOT / "docs" / "python-api.md"
TEXT = "util.func public @f(%arg0: index) -> index {\n  util.return %arg0 : index\n}\n"


def doc_examples(path: Path) -> str:
    """The ```pycon blocks of a Markdown file, one after another."""
    blocks = re.findall(r"^```pycon\n(.*?)^```$", path.read_text(), re.MULTILINE | re.DOTALL)
    return "\n".join(blocks)


def test_the_documented_examples_run_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    examples = doc_examples(API_DOC)
    assert examples.count(">>> ") >= 15
    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest(examples, {}, str(API_DOC), str(API_DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failures: list[str] = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0, "".join(failures)
    assert runner.tries == examples.count(">>> ")


def test_every_api_name_is_documented_and_importable() -> None:
    documented = API_DOC.read_text()
    for name in streamopt.__all__:
        if name.startswith("__") or name == "IREE_VERSION":
            continue
        assert getattr(streamopt, name) is not None
        assert f"`{name}" in documented, name


def test_import_streamopt_imports_nothing_else() -> None:
    """Every run of the command imports the package: the API's modules come when used."""
    code = (
        "import sys, streamopt; print(sorted(m for m in sys.modules if m.startswith('streamopt')))"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout
    assert out.strip() == "['streamopt']"


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = streamopt.nope  # type: ignore[attr-defined]


def test_str_of_a_module_is_the_commands_output(tmp_path: Path) -> None:
    from streamopt.opt_command import main

    path = tmp_path / "f.mlir"
    path.write_text(TEXT)
    module = streamopt.parse_file(path)
    assert str(module) == streamopt.print(module)
    completed = subprocess.run(
        [sys.executable, "-m", "streamopt", str(path)],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert completed.stdout == str(module)
    assert main is not None


def test_diagnostic_error_str_has_the_location_and_a_caret() -> None:
    with pytest.raises(streamopt.DiagnosticError) as caught:
        streamopt.parse("util.func public @f(\n", filename="model.mlir")
    lines = str(caught.value).splitlines()
    assert re.fullmatch(r"model\.mlir:1:21: error: .+", lines[0]), lines
    assert lines[1:] == ["util.func public @f(", " " * 20 + "^"]


def test_verify_false_keeps_what_the_verifier_rejects() -> None:
    wrong = "util.func public @f() -> index {\n  util.return\n}\n"
    with pytest.raises(streamopt.DiagnosticError, match=r"f\.mlir:2:3: error"):
        streamopt.parse(wrong, filename="f.mlir")
    module = streamopt.parse(wrong, filename="f.mlir", verify=False)
    with pytest.raises(streamopt.DiagnosticError):
        streamopt.verify(module)


def test_run_passes_reads_pipelines_and_flags_alike() -> None:
    for pipeline in ("cse,canonicalize", "builtin.module(cse,canonicalize)"):
        manager = streamopt.run_passes(streamopt.parse(TEXT), pipeline)
        assert [p.flag for p in manager.passes] == ["cse", "canonicalize"]
    manager = streamopt.run_passes(streamopt.parse(TEXT), ["--cse", "canonicalize"])
    assert [p.flag for p in manager.passes] == ["cse", "canonicalize"]
    with pytest.raises(ValueError, match="unknown pass 'bogus'"):
        streamopt.run_passes(streamopt.parse(TEXT), ["bogus"])
    with pytest.raises(ValueError, match="nested pipeline"):
        streamopt.run_passes(streamopt.parse(TEXT), "builtin.module(util.func(cse))")


def test_statistics_sum_over_repeated_passes() -> None:
    text = (
        "util.func public @f(%arg0: index) -> index {\n"
        "  %c1 = arith.constant 1 : index\n"
        "  util.return %arg0 : index\n"
        "}\n"
    )
    module = streamopt.parse(text)
    manager = streamopt.run_passes(module, "canonicalize,canonicalize")
    assert manager.statistics == {"canonicalize": {"num-dead-ops-erased": 1}}
    assert len(manager.seconds) == 2


def test_print_of_one_op() -> None:
    module = streamopt.parse(TEXT)
    (function,) = [op for op in module.walk() if op.name == "util.func"]
    assert streamopt.print(function) == TEXT
    # As MLIR prints an op on its own: values defined outside it have no name there.
    (ret,) = [op for op in module.walk() if op.name == "util.return"]
    assert streamopt.print(ret) == "util.return %<<UNKNOWN SSA VALUE>> : index\n"
