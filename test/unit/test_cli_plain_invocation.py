"""`plain_invocation` (the command line read without click) reads every command line as the
click command does, or leaves it to click; and the command lines lit runs are read by it."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from pathlib import Path

import click
import pytest
from fuzzing import fuzz_examples
from hypothesis import given, settings
from hypothesis import strategies as st

from streamopt.opt_command import OPTIONS, Invocation, pass_flags, plain_invocation
from streamopt.opt_options import command

ROOT = Path(__file__).resolve().parents[2]

PASSES = list(pass_flags())
# Words a command line is made of: every option and pass flag, their values, and what click
# reads otherwise (help, `--`, unknown options, joined and attached values, bad pipelines).
WORDS = [
    *(spelling for option in OPTIONS for spelling in option.spellings),
    *(f"--{flag}" for flag in PASSES),
    "-",
    "in.mlir",
    "out.mlir",
    "",
    "--",
    "-h",
    "--help",
    "--bogus",
    "-x",
    "-o=out.mlir",
    "-oout.mlir",
    "--pass-pipeline=cse,canonicalize",
    "--pass-pipeline=builtin.module(elide-async-copies)",
    "--pass-pipeline=",
    "--pass-pipeline=no-such-pass",
    "cse,lower-to-cmd",
    "bogus-pass",
    "--stats=1",
    "--split-input-file=yes",
    "--elide-async-copies=1",
]


def click_reading(argv: Sequence[str]) -> dict[str, object] | None:
    """What the click command reads from `argv`, or None when click reports a usage error
    or would print help."""
    try:
        ctx = command.make_context("streamopt", list(argv))
    except (click.UsageError, click.exceptions.Exit):
        return None
    pipeline = (ctx.obj or {}).get("pipeline", [])
    return Invocation(pipeline=pipeline, **ctx.params).as_dict()


def check_same_reading(argv: Sequence[str]) -> None:
    plain = plain_invocation(argv)
    if plain is None:
        return  # click reads it, whatever it is.
    assert plain.as_dict() == click_reading(argv), argv


@settings(max_examples=fuzz_examples(400))
@given(st.lists(st.sampled_from(WORDS), max_size=7))
def test_plain_reading_is_clicks(argv: list[str]) -> None:
    check_same_reading(argv)


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["in.mlir"],
        ["-"],
        ["in.mlir", "-o", "out.mlir"],
        ["-o", "-", "in.mlir"],
        ["--elide-async-copies", "--split-input-file", "in.mlir"],
        ["--canonicalize", "in.mlir", "--elide-async-copies", "--stats"],
        ["--pass-pipeline=builtin.module(cse,elide-async-copies)", "--canonicalize", "in.mlir"],
        ["--canonicalize", "--pass-pipeline", "cse", "in.mlir"],
        ["--verify-diagnostics", "--split-input-file", "--no-verify", "in.mlir"],
        ["--print-ir-after-all", "--lower-to-hal", "in.mlir"],
        ["--mlir-print-ir-before-all", "--mlir-print-debuginfo", "--mlir-timing", "in.mlir"],
        ["--mlir-pass-statistics", "--cse", "in.mlir"],
    ],
)
def test_plain_command_lines_are_read_without_click(argv: list[str]) -> None:
    plain = plain_invocation(argv)
    assert plain is not None, argv
    assert plain.as_dict() == click_reading(argv)


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["-h"],
        ["in.mlir", "other.mlir"],
        ["--stats", "--stats"],
        ["--stats", "--mlir-pass-statistics"],
        ["--version"],
        ["--list-passes"],
        ["--cse", "--cse"],
        ["--", "in.mlir"],
        ["-o"],
        ["-oout.mlir"],
        ["--pass-pipeline=no-such-pass"],
        ["--bogus"],
    ],
)
def test_other_command_lines_are_left_to_click(argv: list[str]) -> None:
    assert plain_invocation(argv) is None


def test_shell_completion_is_left_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_STREAMOPT_COMPLETE", "bash_complete")
    assert plain_invocation(["in.mlir"]) is None


def _lit_command_lines() -> list[list[str]]:
    """The arguments of each `streamopt` in the RUN lines of test/lit (redirections left out)."""
    lines = []
    for path in sorted((ROOT / "test" / "lit").rglob("*.mlir")):
        for run in re.findall(r"^// RUN: (.*)$", path.read_text(), re.MULTILINE):
            for segment in re.split(r"\||&&|;", run):
                words = shlex.split(segment)
                if not words or words[0].split("/")[-1] not in ("streamopt", "not"):
                    continue
                if words[0].endswith("not"):
                    words = words[1:]
                    if not words or words[0] != "streamopt":
                        continue
                argv: list[str] = []
                rest = iter(words[1:])
                for word in rest:
                    if word in (">", "2>", "<"):
                        next(rest, None)  # The redirection's file.
                    elif not re.match(r"\d?[<>]", word):
                        argv.append(word)
                lines.append(argv)
    return lines


def test_lit_command_lines_are_read_without_click() -> None:
    lines = _lit_command_lines()
    assert len(lines) > 50
    for argv in lines:
        # A lit file may check click's own behaviour (help, usage errors): those go to click.
        if any(w in ("--help", "-h", "--bogus") for w in argv):
            continue
        check_same_reading(argv)
    plain = [argv for argv in lines if plain_invocation(argv) is not None]
    assert len(plain) >= 0.9 * len(lines), [a for a in lines if plain_invocation(a) is None]
