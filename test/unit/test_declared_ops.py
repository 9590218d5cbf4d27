"""The declarative op layer (streamopt.ir.opdef / streamopt.ir.format): formats print with
MLIR's spacing, the grammar holds exactly the rules the formats give, and the ops whose syntax
is still hand-written are listed here with the reason."""

from __future__ import annotations

import marshal
import subprocess
import sys
from pathlib import Path

import pytest

from streamopt.api import parse
from streamopt.dialects import DEFERRED_MODULES, OPS, load_all
from streamopt.dialects.common import SegmentedOp
from streamopt.dialects.declared_grammar import declared_rules, synced
from streamopt.ir.core import Operation
from streamopt.ir.format import FormatError, _literal, compile_format
from streamopt.ir.opdef import (
    UNIT_KIND,
    DeclaredOp,
    OpDefinition,
    attr_def,
    generated_function,
    operand_def,
    region_def,
    result_def,
)
from streamopt.ir.types import INDEX
from streamopt.parser import grammar_text
from streamopt.printer import print_operation

# Every op class of stream, hal and util whose parsing or printing is still written by hand,
# and why. The test below fails when a class is missing here or is no longer hand-written.
HAND_WRITTEN: dict[str, str] = {
    # hal: none.
    # stream: none; its hard parts are custom<> directives (streamopt/dialects/stream).
    # util: ops whose IREE definition has a parser and printer of its own (no assemblyFormat).
    "util.func": "custom<FunctionSignature>: a function-like op with a region",
    "util.initializer": "function-op parser: `function_type` in its attributes is 'set twice'",
    "util.unfoldable_constant": "custom parser in IREE too: `{attrs}` before the value, whose "
    "type is the result's",
    "util.assume.int": "custom parser and printer in IREE: one operand per line, each with "
    "its assumptions",
}


def _hand_written(cls: type[Operation]) -> bool:
    """True when `cls` parses or prints by code of its own rather than its format."""
    if not (issubclass(cls, DeclaredOp) and cls.assembly_format):
        return True
    return cls.print is not DeclaredOp.print or "from_parse" in vars(cls)


@pytest.mark.parametrize("dialect", ["hal", "stream", "util"])
def test_hand_written_ops_are_listed_with_a_reason(dialect: str) -> None:
    load_all()
    found = {
        name for name, cls in OPS.items() if name.startswith(dialect + ".") and _hand_written(cls)
    }
    listed = {name for name in HAND_WRITTEN if name.startswith(dialect + ".")}
    assert found - listed == set(), "hand-written but not listed"
    assert listed - found == set(), "listed but declared"


# Every declared op whose generic form streamopt keeps as written rather than reading it as the
# op (streamopt.ir.generic_form), and why.
GENERIC_KEPT: dict[str, str] = {
    "stream.async.func": "streamopt models declarations only; IREE's op has a body region",
}


def test_declared_ops_read_their_generic_form() -> None:
    load_all()
    kept = {
        name
        for name, cls in OPS.items()
        if issubclass(cls, DeclaredOp)
        and not _hand_written(cls)
        and not cls.definition.reads_generic()
    }
    assert kept == set(GENERIC_KEPT)


def test_grammar_holds_the_rules_the_formats_give() -> None:
    text = grammar_text()
    assert declared_rules(), "no declared ops"
    assert synced(text) == text, "run `python -m streamopt.dialects.declared_grammar`"


# -- the format language ----------------------------------------------------------------------


class _Probe(DeclaredOp):
    """A throwaway op definition (not registered) for checking formats."""

    __slots__ = ()
    name = "test.probe"
    first = operand_def()
    rest = operand_def(variadic=True)
    out = result_def(INDEX)
    flag = attr_def(UNIT_KIND)
    assembly_format = "$first"


def _spaced(*literals: str) -> str:
    state = [True, False]
    return "".join(_literal(text, state) for text in literals)


def test_literal_spacing_follows_mlir() -> None:
    assert _spaced("<", "x", ">") == "<x>"  # Nothing after `<`, nor before `>`.
    assert _spaced("x", "y", ":") == " x y :"
    assert _spaced("source", "(", ")", "", "[", "]") == " source()[]"
    assert _spaced("(", ")", "[") == "() ["
    assert _spaced(")", "->", "(") == ") -> ("
    assert _spaced(" ", "(") == " ("


def test_unknown_field_is_an_error() -> None:
    with pytest.raises(FormatError, match=r"\$missing"):
        compile_format(OpDefinition(_Probe), "$missing attr-dict", "op_test_probe")


def test_optional_group_needs_an_anchor() -> None:
    with pytest.raises(FormatError, match="anchor"):
        compile_format(OpDefinition(_Probe), "(`a` `b`)?", "op_test_probe")


def test_grammar_of_elements() -> None:
    compiled = compile_format(
        OpDefinition(_Probe),
        "$first (`rest` `[` $rest^ `]`)? `:` type($out) attr-dict",
        "op_test_probe",
    )
    # A group a literal opens may hold an empty list (MLIR reads `rest[]` as no list).
    assert compiled.grammar().split("\n") == [
        'value op_test_probe__g0? ":" type attr_dict?',
        '!op_test_probe__g0: "rest" "[" value_list? "]"',
    ]


def test_a_group_a_list_opens_or_types_needs_a_value() -> None:
    # Only a value can tell that such a group is written.
    for format, group in [
        ("($rest^ `:` type($rest))? attr-dict", 'value_list ":" type_list'),
        ("(`rest` `(` $rest^ `:` type($rest) `)`)? attr-dict", '"rest" "(" value_list ":"'),
    ]:
        compiled = compile_format(OpDefinition(_Probe), format, "op_test_probe")
        assert group in compiled.grammar().split("\n")[1], format


def test_unit_attribute_is_its_group() -> None:
    compiled = compile_format(
        OpDefinition(_Probe), "(`flag` $flag^)? $first `:` type($out) attr-dict", "op_test_probe"
    )
    assert compiled.grammar().split("\n") == [
        'op_test_probe__g0? value ":" type attr_dict?',
        '!op_test_probe__g0: "flag"',
    ]


class _UnitProbe(_Probe):
    __slots__ = ()
    name = "test.unit_probe"
    assembly_format = "(`flag` $flag^)? $first `:` type($out) attr-dict"


def test_unit_attribute_prints_as_its_literal() -> None:
    module = parse("util.func public @f(%a: index) {\n  util.return\n}\n")
    func = next(op for op in module.walk() if op.name == "util.func")
    value = func.regions[0].blocks[0].arguments[0]
    # The value is not in a module the printer numbers: only the syntax around it matters.
    with_flag = print_operation(_UnitProbe.create(value, [], True))
    assert with_flag.startswith("%0 = test.unit_probe flag %") and with_flag.endswith(" : index\n")
    without = print_operation(_UnitProbe.create(value, []))
    assert without.startswith("%0 = test.unit_probe %")


def test_create_takes_operands_then_attributes_by_position_or_name() -> None:
    load_all()
    create = OPS["hal.fence.create"]
    module = parse(
        "util.func public @f(%d: !hal.device) {\n  util.return\n}\n",
    )
    func = next(op for op in module.walk() if op.name == "util.func")
    device = func.regions[0].blocks[0].arguments[0]
    op = create.create(device, "None")  # type: ignore[attr-defined]
    assert op.attribute_map["flags"].text == '"None"'
    assert op.asm_result_name(0) == "fence"
    assert op.definition.field_value(op, "device") is device


class _ListsProbe(DeclaredOp, SegmentedOp):
    """Two operand lists (segments), a region whose block takes the first list's types, and a
    result list tied pairwise to the second."""

    __slots__ = ()
    name = "test.lists_probe"
    lhs = operand_def(variadic=True)
    rhs = operand_def(variadic=True)
    out = result_def(variadic=True, tied_to="rhs")
    body_ = region_def(arguments="lhs")
    assembly_format = "$lhs `,` $rhs `\\n` `:` $body attr-dict"


def test_segments_regions_and_ties() -> None:
    module = parse("util.func public @f(%a: index, %b: index, %c: index) {\n  util.return\n}\n")
    func = next(op for op in module.walk() if op.name == "util.func")
    a, b, c = func.regions[0].blocks[0].arguments
    op = _ListsProbe.create([a], [b, c], out=[INDEX, INDEX])
    assert op.segments == (1, 2) and op.lhs == [a] and op.rhs == [b, c]
    assert [op.tied_operand_index(i) for i in range(2)] == [1, 2]
    assert op.asm_result_name(0) is None
    assert [arg.type for arg in op.regions[0].blocks[0].arguments] == [INDEX]
    assert op.definition.format.grammar() == 'value_list? "," value_list? ":" region attr_dict?'
    # `\n` is MLIR's printNewline: a line break and the op's indentation. (The values are in
    # no module the printer numbers: only the syntax around them matters.)
    first, second = print_operation(op).split("\n")[:2]
    assert first.startswith("%0:2 = test.lists_probe %") and second == ": {"


def test_generated_code_is_cached_by_op_format_and_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STREAMOPT_CACHE_DIR", str(tmp_path))
    definition = OpDefinition(_UnitProbe)
    generated = generated_function(definition, "print_op")
    assert generated.__code__.co_filename == "<test.unit_probe print_op>"
    (path,) = tmp_path.iterdir()
    # The next run executes the cached code object (without compiling the format)...
    key, _ = marshal.loads(path.read_bytes())
    assert _UnitProbe.assembly_format in key
    assert all(name in key for name in ("opdef.py", "format.py", "test_declared_ops.py"))
    other = compile("def print_op(op, p):\n    return 2", "<cached>", "exec")
    path.write_bytes(marshal.dumps((key, other)))
    assert generated_function(definition, "print_op").__code__.co_filename == "<cached>"
    # ...unless it was made for another key with the same checksum, or is damaged.
    for stale in (marshal.dumps(("another key", other)), b"\x00garbage"):
        path.write_bytes(stale)
        again = generated_function(definition, "print_op")
        assert again.__code__.co_filename == "<test.unit_probe print_op>"


def test_deferred_modules_cover_their_ops() -> None:
    """Every op of a deferred module is found by a prefix of DEFERRED_MODULES that names that
    module (so `op_class` and the parser's rule lookup import it), and no prefix names ops of
    another module."""
    load_all()
    deferred = {f"streamopt.dialects.{module}" for module in DEFERRED_MODULES.values()}
    for name, cls in OPS.items():
        found = [m for p, m in DEFERRED_MODULES.items() if name.startswith(p)]
        if cls.__module__ in deferred:
            assert found == [cls.__module__.removeprefix("streamopt.dialects.")], name
        else:
            assert found == [], f"{name} is in {cls.__module__}, not {found}"


def test_deferred_ops_load_on_first_use() -> None:
    """In a fresh interpreter, a file of deferred ops parses, verifies and prints; importing
    the dialect alone does not import them."""
    program = (
        "util.func public @f(%a: index, %l: !util.list<?>) -> (index, !util.buffer) {\n"
        "  %0 = util.align %a, %a : index\n"
        "  %1 = util.list.size %l : !util.list<?>\n"
        "  %2 = util.string.itoa %1 : index -> !util.buffer\n"
        "  util.return %0, %2 : index, !util.buffer\n"
        "}\n"
    )
    script = (
        "import sys\n"
        "import streamopt.dialects.util, streamopt.dialects.stream\n"
        "assert not any(m.endswith(('.buffers', '.lists', '.arithmetic', '.channel',"
        " '.parameter')) for m in sys.modules), 'imported early'\n"
        "from streamopt.api import parse\n"
        "from streamopt.printer import print_operation\n"
        f"print(print_operation(parse({program!r}).op), end='')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "%itoa = util.string.itoa %1 : index -> !util.buffer" in done.stdout
