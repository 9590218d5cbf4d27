"""Inputs at the edges of what the parser takes: bytes that are not UTF-8.

As in iree-opt, a byte that is not UTF-8 is accepted in a comment or a string literal and
reported at its line and column anywhere else.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from streamopt.cli import main

FUNCTION = b"""\
util.func public @f(%arg0: index) -> index {
  // a comment \xff\xfe in Latin-1
  util.return %arg0 : index
}
"""

PRINTED = b"""\
module {
  util.func public @f(%arg0: index) -> index {
    util.return %arg0 : index
  }
}

"""


def run(
    capsysbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
    *args: str,
) -> tuple[int, bytes, str]:
    """The console-script entry point in this process: (exit code, stdout bytes, stderr)."""
    monkeypatch.setattr(sys, "argv", ["streamopt", *args])
    capsysbinary.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        main()
    out, err = capsysbinary.readouterr()
    code = exit_info.value.code
    return (0 if code is None else int(code)), out, err.decode()


Streamopt = Callable[..., tuple[int, bytes, str]]


@pytest.fixture
def streamopt(
    capsysbinary: pytest.CaptureFixture[bytes], monkeypatch: pytest.MonkeyPatch
) -> Streamopt:
    return lambda *args: run(capsysbinary, monkeypatch, *args)


def write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "in.mlir"
    path.write_bytes(data)
    return path


# -- bytes that are not UTF-8 -----------------------------------------------------------------


def test_bytes_in_a_comment_are_ignored(streamopt: Streamopt, tmp_path: Path) -> None:
    assert streamopt(str(write(tmp_path, FUNCTION))) == (0, PRINTED, "")


def test_bytes_in_a_string_are_kept(streamopt: Streamopt, tmp_path: Path) -> None:
    text = PRINTED.replace(b"-> index {", b'-> index attributes {note = "caf\xe9 \xff"} {')
    code, out, err = streamopt(str(write(tmp_path, text)))
    assert (code, out, err) == (0, text, "")


def test_bytes_in_an_unmodelled_op_and_an_executable_are_kept(
    streamopt: Streamopt, tmp_path: Path
) -> None:
    text = b"""\
module {
  stream.executable private @ex {
    builtin.module {
      func.func @k() {
        // kernel comment \x80
        return
      }
    }
  }
  util.func public @f() {
    %0 = "my.op"() {s = "\xc3\x28"} : () -> i32
    my.other {label = "\xa0"}
    util.return
  }
}

"""
    assert streamopt(str(write(tmp_path, text))) == (0, text, "")


@pytest.mark.parametrize(
    ("data", "line", "column"),
    [
        # A Latin-1 letter in a name, a lone continuation byte, a sequence cut short at the end.
        (FUNCTION.replace(b"@f(", b"@f\xe9("), 1, 20),
        (FUNCTION.replace(b"util.return %arg0", b"util.return \x80%arg0"), 3, 15),
        (FUNCTION + b"\xe2\x82", 5, 1),
        # In an executable's body, outside its comments and strings, as iree-opt reads it.
        (
            b"stream.executable private @ex {\n  builtin.module {\n    \xff\n  }\n}\n",
            3,
            5,
        ),
    ],
)
def test_other_bytes_are_located_errors(
    streamopt: Streamopt, tmp_path: Path, data: bytes, line: int, column: int
) -> None:
    path = write(tmp_path, data)
    code, out, err = streamopt(str(path))
    assert (code, out) == (1, b"")
    lines = err.split("\n")
    byte = re.search(rb"[\x80-\xff]", data.split(b"\n")[line - 1])
    assert byte is not None
    assert lines[0] == (
        f"{path}:{line}:{column}: error: invalid UTF-8: byte 0x{byte.group()[0]:02X} "
        "outside a comment or string"
    )
    # The line is quoted with U+FFFD for each such byte, the caret under the first.
    quoted = re.sub(rb"[\x80-\xff]", "\ufffd".encode(), data.split(b"\n")[line - 1]).decode()
    assert lines[1:3] == [quoted, " " * (column - 1) + "^"]


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="iree-opt is not installed")
def test_iree_opt_agrees_on_bytes(tmp_path: Path) -> None:
    """iree-opt takes the bytes in a comment and a string and rejects them elsewhere."""
    accepted = FUNCTION.replace(b"-> index {", b'-> index attributes {s = "\xff"} {')
    rejected = FUNCTION.replace(b"@f(", b"@f\xe9(")
    for data, code in ((accepted, 0), (rejected, 1)):
        path = write(tmp_path, data)
        result = subprocess.run(["iree-opt", str(path)], capture_output=True, check=False)
        assert result.returncode == code, result.stderr
