"""The printer refuses to print text that would not parse: a type it must print is unknown.

Such IR can only come from a bug (a pass that built an op on a value of unknown type); the
printer stops at the op with a located internal error instead of writing `?` for the type, and
the command line reports it with exit status 70.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import streamopt.printer
from streamopt.dialects.util import ReturnOp
from streamopt.ir.module import Module
from streamopt.opt_command import EXIT_INTERNAL, main
from streamopt.parser import parse_module
from streamopt.printer import UnprintableError, print_module

TEXT = """\
util.func public @f() -> i32 {
  %0 = ub.poison : i32
  util.return %0 : i32
}
"""


def untyped_return() -> tuple[Module, ReturnOp]:
    """TEXT with the type of the unmodelled op's result forgotten (as a buggy pass might)."""
    module = parse_module(TEXT, "f.mlir")
    ret = next(op for op in module.walk() if isinstance(op, ReturnOp))
    ret.operands[0].type = None
    return module, ret


def test_unknown_type_is_refused_at_the_op() -> None:
    module, ret = untyped_return()
    with pytest.raises(UnprintableError) as refused:
        print_module(module)
    diagnostic = refused.value.diagnostic
    assert diagnostic.location == ret.location
    assert (diagnostic.location.line, diagnostic.location.column) == (3, 3)
    assert diagnostic.message == (
        "internal error: cannot print 'util.return': a type it must print is not known"
    )


def test_known_types_print() -> None:
    assert "util.return %0 : i32" in print_module(parse_module(TEXT, "f.mlir"))


def test_the_command_line_reports_a_refusal_as_an_internal_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(TEXT)
    out = tmp_path / "out.mlir"
    out.write_text("previous\n")

    def print_forgetting_a_type(
        module: Module, sink: Callable[[str], object], print_debug_locations: bool = False
    ) -> list[str]:
        ret = next(op for op in module.walk() if isinstance(op, ReturnOp))
        ret.operands[0].type = None
        return streamopt.printer.Printer(sink=sink).print_module_blocks(module)

    monkeypatch.setattr(streamopt.printer, "print_module_blocks", print_forgetting_a_type)
    monkeypatch.setattr(sys, "argv", ["streamopt", str(path), "-o", str(out)])
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code == EXIT_INTERNAL
    stderr = capsys.readouterr().err
    assert stderr.startswith(f"{path}:3:3: error: internal error: cannot print 'util.return'")
    assert "  util.return %0 : i32\n  ^" in stderr
    assert out.read_text() == "previous\n"


def test_a_refusal_after_output_was_streamed_drops_that_chunk_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The second chunk is long enough that the printer has written pieces of it to the file
    # before it reaches the op it refuses: they must not stay in the output.
    ops = "".join(f"  %{i} = arith.constant {i} : index\n" for i in range(20_000))
    long_chunk = (
        f"util.func public @g() -> i32 {{\n{ops}"
        "  %r = ub.poison : i32\n  util.return %r : i32\n}\n"
    )
    # The comment is the second chunk's first line; its `util.return` comes after the header,
    # 20,000 ops and ub.poison.
    path = tmp_path / "f.mlir"
    path.write_text(f"{TEXT}// -----\n// expected-error @+20003 {{{{cannot print}}}}\n{long_chunk}")
    out = tmp_path / "out.mlir"
    real_print = streamopt.printer.print_module_blocks

    def print_forgetting_a_type_in_g(
        module: Module, sink: Callable[[str], object], print_debug_locations: bool = False
    ) -> list[str]:
        returns = [op for op in module.walk() if isinstance(op, ReturnOp)]
        if len(list(module.walk())) > 1000:
            returns[0].operands[0].type = None
        return real_print(module, sink, print_debug_locations)

    monkeypatch.setattr(streamopt.printer, "print_module_blocks", print_forgetting_a_type_in_g)
    monkeypatch.setattr(
        sys,
        "argv",
        ["streamopt", str(path), "--split-input-file", "--verify-diagnostics", "-o", str(out)],
    )
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code == EXIT_INTERNAL
    assert capsys.readouterr().err == ""
    # As when the printer's text was held until the end: the chunks that printed, and only those.
    assert out.read_text() == print_module(parse_module(TEXT, "f.mlir")) + "\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.mlir", "out.mlir"]
