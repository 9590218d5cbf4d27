"""The checks of ops kept as written (`UNMODELLED_CHECKS`), held to iree-opt's verdicts.

The lit cases under test/lit/dialects check one message per op; here the rules with many
spellings (util.string.format's placeholders) are run over the spellings around each
rule, and, where iree-opt is installed, iree-opt is asked whether it agrees on every one.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from streamopt.dialects.util.buffers import string_format_problem

COUNT = "format string placeholder count does not match the 2 provided argument(s)"
INVALID = "in format string; expected '{}' or '{N}'"

# (format string, the problem with two arguments); each checked against iree-opt 3.13.
FORMATS = [
    ("{}{}", None),
    ("{0}{1}", None),
    ("{1}", None),
    ("{1}{1}{0}", None),
    ("{{{}}} is {}", None),
    ("{" + "0" * 5000 + "1}", None),
    ("{0}", COUNT),
    ("{0}{0}", COUNT),
    ("{{}}", COUNT),
    ("{4294967295}", COUNT),
    ("{00000000004294967295}", COUNT),
    ("{}{0}", "cannot mix sequential '{}' and explicit '{N}' placeholders"),
    ("{", "unclosed '{' in format string"),
    ("}", "unmatched '}' in format string"),
    ("{}}", "unmatched '}' in format string"),
    ("a{x}", f"invalid placeholder '{{x}}' {INVALID}"),
    ("{ 0}", f"invalid placeholder '{{ 0}}' {INVALID}"),
    ("{-0}", f"invalid placeholder '{{-0}}' {INVALID}"),
    ("{4294967296}", f"invalid placeholder '{{4294967296}}' {INVALID}"),
    ("{" + "9" * 5000 + "}", f"invalid placeholder '{{{'9' * 5000}}}' {INVALID}"),
]


@pytest.mark.parametrize(("format", "problem"), FORMATS)
def test_string_format_placeholders(format: str, problem: str | None) -> None:
    assert string_format_problem(format, 2) == problem


def _function(format: str) -> str:
    return (
        "util.func public @f(%a: index, %b: i32) -> !util.buffer {\n"
        f'  %0 = util.string.format "{format}"(%a, %b) : (index, i32) -> !util.buffer\n'
        "  util.return %0 : !util.buffer\n}\n"
    )


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="iree-opt is not installed")
def test_iree_opt_agrees(tmp_path: Path) -> None:
    for format, problem in FORMATS:
        path = tmp_path / "case.mlir"
        path.write_text(_function(format))
        done = subprocess.run(["iree-opt", str(path)], capture_output=True, text=True)
        if problem is None:
            assert done.returncode == 0, (format, done.stderr)
        else:
            assert f"'util.string.format' op {problem}" in done.stderr, (format, done.stderr)
