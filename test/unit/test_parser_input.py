"""Inputs at the edges of what the parser takes: bytes that are not UTF-8, and deep nesting.

As in iree-opt, a byte that is not UTF-8 is accepted in a comment or a string literal and
reported at its line and column anywhere else. Regions and attributes may nest thousands of
levels deep (iree-opt overflows its stack near 3,500 nested regions); past
`MAX_NESTING` levels the parser reports where, instead of running out of stack.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from streamopt.ir.core import Block, Operation, Region
from streamopt.opt_command import main
from streamopt.parser import parse_module
from streamopt.parser.builder import MAX_NESTING
from streamopt.printer import print_module

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


def test_bytes_in_a_string_print_as_iree_opt_prints_them(
    streamopt: Streamopt, tmp_path: Path
) -> None:
    """Each byte of a string that is not printable ASCII is written `\\XX`, as
    llvm::printEscapedString writes it."""
    text = PRINTED.replace(b"-> index {", b'-> index attributes {note = "caf\xe9 \xff"} {')
    printed = PRINTED.replace(b"-> index {", b'-> index attributes {note = "caf\\E9 \\FF"} {')
    path = write(tmp_path, text)
    assert streamopt(str(path)) == (0, printed, "")
    if shutil.which("iree-opt") is not None:
        result = subprocess.run(["iree-opt", str(path)], capture_output=True, check=False)
        assert (result.returncode, result.stdout) == (0, printed)


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
    %0 = "ub.poison"() {s = "\xc3\x28"} : () -> i32
    %1 = ub.poison {label = "\xa0"} : i32
    util.return
  }
}

"""
    # The generic op's attributes are read (and its string printed as iree-opt prints it);
    # the text of the op in custom form is kept.
    printed = text.replace(b'{s = "\xc3\x28"}', b'{s = "\\C3("}')
    assert streamopt(str(write(tmp_path, text))) == (0, printed, "")


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


# -- CR LF line breaks ------------------------------------------------------------------------

# Executables as iree-opt prints them, whose bodies the parser finds by the lines they start
# and end on: a real dump's stream.executable and a hal.executable.
DUMP = Path(__file__).resolve().parents[2] / "examples/iree/mlp-deep/before-elide-1.mlir"
HAL_EXECUTABLE = b"""\
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
module {
  hal.executable private @ex {
    hal.executable.variant public @embedded_elf target(#executable_target_embedded_elf_x86_64) {
      hal.executable.export public @fn ordinal(0) layout(#pipeline_layout)
      builtin.module {
        func.func @fn() {
          return
        }
      }
    }
  }
  util.func public @f(%arg0: index) -> index {
    util.return %arg0 : index
  }
}

"""


@pytest.mark.parametrize("printed", [DUMP.read_bytes(), HAL_EXECUTABLE], ids=["stream", "hal"])
def test_crlf_line_breaks_read_as_newlines(printed: bytes) -> None:
    """Text with CR LF line breaks parses as with LF ones and prints back with LF (what
    iree-opt prints for it), through the API as through the command line."""
    text = printed.decode()
    assert "executable" in text
    crlf = text.replace("\n", "\r\n")
    assert print_module(parse_module(crlf, "crlf.mlir")) + "\n" == text


@pytest.mark.parametrize("printed", [DUMP.read_bytes(), HAL_EXECUTABLE], ids=["stream", "hal"])
def test_crlf_files_print_as_iree_opt_prints_them(
    streamopt: Streamopt, tmp_path: Path, printed: bytes
) -> None:
    path = write(tmp_path, printed.replace(b"\n", b"\r\n"))
    assert streamopt(str(path)) == (0, printed, "")
    if shutil.which("iree-opt") is not None:
        result = subprocess.run(["iree-opt", str(path)], capture_output=True, check=False)
        assert (result.returncode, result.stdout) == (0, printed)


def test_a_lone_cr_is_blank_space_that_counts_no_line(streamopt: Streamopt, tmp_path: Path) -> None:
    """A CR alone separates tokens and ends a comment, as in MLIR's lexer, but diagnostics
    count lines by LF (as iree-opt does), and a CR inside a string is `\\0D`, as iree-opt
    prints it."""
    good = write(
        tmp_path,
        b'util.func public @f() -> index attributes {a = "x\ry"} {\r'
        b"  // note\r%c1 = arith.constant 1 : index\n"
        b"  util.return %c1 : index\n}\n",
    )
    code, out, err = streamopt(str(good))
    assert (code, err) == (0, "")
    assert b'{a = "x\\0Dy"}' in out
    assert b"%c1 = arith.constant 1 : index" in out
    bad = write(
        tmp_path,
        b"util.func public @f() -> index {\r  %0 = arith.constant 1 : i32\n"
        b"  util.return %0 : index\n}\n",
    )
    code, _, err = streamopt(str(bad))
    assert code == 1
    assert err.startswith(f"{bad}:2:"), err
    if shutil.which("iree-opt") is not None:
        result = subprocess.run(["iree-opt", str(bad)], capture_output=True, check=False)
        assert result.stderr.startswith(f"{bad}:2:".encode())


# -- deep nesting -----------------------------------------------------------------------------


def nested_ifs(depth: int) -> bytes:
    """A function whose body nests `depth` scf.if regions around a transfer."""
    t = "!stream.resource<transient>"
    lines = [
        f"util.func public @f(%c: i1, %x: {t}, %s: index) -> {t} {{",
        *["scf.if %c {"] * depth,
        f"%y = stream.async.transfer %x : {t}{{%s}} -> {t}{{%s}}",
        f"%z = util.optimization_barrier %y : {t}",
        *["}"] * depth,
        f"util.return %x : {t}",
        "}",
    ]
    return "\n".join(lines).encode() + b"\n"


def nested_attribute(depth: int) -> bytes:
    value = "1"
    for level in range(depth):
        value = f"[{value}]" if level % 2 else f"{{a = {value}}}"
    return f"util.func public @f() attributes {{deep = {value}}} {{\n  util.return\n}}\n".encode()


@pytest.mark.parametrize("passes", [[], ["--elide-async-copies", "--lower-to-hal"]])
def test_a_thousand_nested_regions(streamopt: Streamopt, tmp_path: Path, passes: list[str]) -> None:
    code, out, err = streamopt(str(write(tmp_path, nested_ifs(1000))), *passes)
    assert (code, err) == (0, "")
    assert out.count(b"scf.if %arg0 ") == 1000
    # The op at the bottom went through every pass: with passes, the transfer is gone (a
    # same-device transfer of storage nothing writes is removed, or else lowered to a copy).
    assert out.count(b"stream.async.transfer") == (0 if passes else 1)
    assert out.count(b"util.optimization_barrier") == 1
    printed = tmp_path / "printed.mlir"
    printed.write_bytes(out)
    assert streamopt(str(printed)) == (0, out, "")


def test_attributes_nested_to_the_limit(streamopt: Streamopt, tmp_path: Path) -> None:
    code, out, err = streamopt(str(write(tmp_path, nested_attribute(MAX_NESTING))))
    assert (code, err) == (0, "")
    assert out.count(b"[") == MAX_NESTING // 2


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (nested_ifs(MAX_NESTING + 1), MAX_NESTING + 1, "regions nest"),
        (nested_attribute(MAX_NESTING + 1), 1, "attribute arrays and dictionaries nest"),
    ],
)
def test_nesting_past_the_limit_is_a_located_error(
    streamopt: Streamopt, tmp_path: Path, data: bytes, line: int, message: str
) -> None:
    path = write(tmp_path, data)
    code, out, err = streamopt(str(path))
    assert (code, out) == (1, b"")
    assert err.startswith(f"{path}:{line}:")
    assert f"error: {message} more than {MAX_NESTING} levels deep\n" in err


def test_walks_do_not_recurse() -> None:
    """Walking IR nested far deeper than Python's recursion limit, without a deep stack."""
    depth = sys.getrecursionlimit() * 3
    top = Operation(regions=[Region([Block()])])
    innermost = top
    for _ in range(depth):
        nested = Operation(regions=[Region([Block()])])
        innermost.regions[0].blocks[0].append(nested)
        innermost = nested
    assert sum(1 for _ in top.walk()) == depth + 1
    post_order = list(top.walk_regions_first())
    assert post_order[0] is innermost and post_order[-1] is top
    assert sum(1 for _ in top.regions[0].walk()) == depth
    assert sum(1 for _ in top.regions[0].blocks[0].walk()) == depth
