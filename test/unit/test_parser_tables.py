"""The table-driven parser accepts what Lark accepts, builds the same trees, fails the same way,
and its tables are cached and rebuilt when stale."""

from __future__ import annotations

import functools
import marshal
import random
import re
import zlib
from pathlib import Path
from typing import Any

import pytest
from lark import Lark
from lark import Token as LarkToken
from lark import Tree as LarkTree
from lark.exceptions import UnexpectedCharacters as LarkUnexpectedCharacters
from lark.exceptions import UnexpectedToken as LarkUnexpectedToken

from streamopt.parser import (
    _START_RULES,
    blank_verbatim_bodies,
    grammar_text,
    text_for_grammar,
    verbatim_bodies,
)
from streamopt.parser.lalr import (
    ParseError,
    Parser,
    Token,
    Tree,
    UnexpectedCharacters,
    UnexpectedToken,
)
from streamopt.parser.tables import (
    FORMAT,
    build_tables,
    cache_path,
    compile_regex,
    load_tables,
    regex_code,
)

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "test" / "lit").rglob("*.mlir")) + sorted(
    (ROOT / "examples").rglob("*.mlir")
)


class _NoCallbacks:
    """A transformer with no rule methods: every reduction makes a Tree, as Lark's would."""


@pytest.fixture(scope="module")
def lark() -> Lark:
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        start=_START_RULES,
        maybe_placeholders=False,
    )


@pytest.fixture(scope="module")
def ours() -> Parser:
    return Parser(build_tables(grammar_text(), _START_RULES), _NoCallbacks())


def _prepared(text: str) -> str:
    prepared = text_for_grammar(blank_verbatim_bodies(text))
    return prepared if prepared.endswith("\n") else prepared + "\n"


def _shape(node: Any) -> Any:
    """A comparable form of a tree from either parser."""
    if isinstance(node, (LarkTree, Tree)):
        return (node.data, [_shape(child) for child in node.children])
    assert isinstance(node, (LarkToken, Token)), node
    return (node.type, str(node), node.start_pos, node.end_pos)


def _outcome(parse: Any, text: str, start: str = "start") -> Any:
    """What `parse(text, start)` gives: its tree, or where and how it failed."""
    try:
        return ("tree", _shape(parse(text, start)))
    except (LarkUnexpectedToken, UnexpectedToken) as exc:
        token = exc.token
        return ("token", token.type, str(token), token.start_pos, set(exc.expected))
    except (LarkUnexpectedCharacters, UnexpectedCharacters) as exc:
        return ("characters", exc.pos_in_stream, set(exc.allowed))


def test_same_trees_as_lark_on_every_sample(lark: Lark, ours: Parser) -> None:
    assert len(SAMPLES) > 50
    for path in SAMPLES:
        text = _prepared(path.read_text())
        assert _outcome(ours.parse, text) == _outcome(lark.parse, text), path


def test_same_errors_as_lark_on_damaged_samples(lark: Lark, ours: Parser) -> None:
    """Cut a token out of each sample, or put a stray character in: both parsers fail (or
    succeed) alike, at the same token with the same expected terminals."""
    chooser = random.Random(12)
    failures = 0
    for path in SAMPLES:
        text = _prepared(path.read_text())
        for _ in range(4):
            at = chooser.randrange(len(text))
            if chooser.random() < 0.5:
                end = min(len(text), at + chooser.randrange(1, 12))
                damaged = text[:at] + text[end:]
            else:
                damaged = text[:at] + chooser.choice('%@^#!{}()<>,:="`~\\') + text[at:]
            expected = _outcome(lark.parse, damaged)
            failures += expected[0] != "tree"
            assert _outcome(ours.parse, damaged) == expected, (path, at)
    assert failures > 100, "the damage should break most samples"


def test_executable_bodies_read_as_their_blanked_copy(ours: Parser) -> None:
    """The parser takes each executable body as blank lines without a blanked copy of the
    text: the same trees and the same errors as on the copy, on every sample and on damaged
    ones."""

    chooser = random.Random(13)
    with_bodies = 0
    for path in SAMPLES:
        original = path.read_text()
        variants = [original]
        for _ in range(4):
            at = chooser.randrange(len(original))
            end = min(len(original), at + chooser.randrange(1, 12))
            variants.append(original[:at] + original[end:])
            variants.append(original[:at] + chooser.choice('{}\n"/') + original[at:])
        for text in variants:
            bodies = verbatim_bodies(text)
            with_bodies += bool(bodies)
            prepared = text_for_grammar(text, bodies)
            prepared = prepared if prepared.endswith("\n") else prepared + "\n"
            found = _outcome(functools.partial(ours.parse, blanks=bodies), prepared)
            assert found == _outcome(ours.parse, _prepared(text)), path
    assert with_bodies > 100


def test_blanks_and_comments_before_a_bad_token(lark: Lark, ours: Parser) -> None:
    """Skipping blanks and comments never backtracks: a long run of them before text that is
    no token fails at once, at the same place as Lark, and a token inside a comment is never
    taken for one outside it."""
    for tail in ["`", "%", "// util.return\n`"]:
        text = "module {\n  util.func private @f() {\n" + " \t" * 20000 + tail
        assert _outcome(ours.parse, text) == _outcome(lark.parse, text), tail


def test_attribute_start_rules(lark: Lark, ours: Parser) -> None:
    for start, text in [
        ("attr_affinity", "#hal.device.affinity<@dev_a, [0, 1]>"),
        ("attr_optimal", "#hal.device.optimal<[#hal.device.affinity<@a>]>"),
        ("attr_topology", "#hal.device.topology<links = [(@a -> @b = {unified_memory = true})]>"),
        ("attr_promise", "#hal.device.promise<@dev"),
    ]:
        assert _outcome(ours.parse, text, start) == _outcome(lark.parse, text, start), text


def test_tables_are_cached_and_rebuilt_when_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STREAMOPT_CACHE_DIR", str(tmp_path))
    grammar = 'start: WORD+\nWORD: /[a-z]+/\n%ignore " "\n'
    built = load_tables(grammar, ["start"])
    path = Path(cache_path(grammar + "\0start"))
    assert path.is_file()
    assert marshal.loads(path.read_bytes()) == built
    # A cached file is what the next run reads.
    marker = dict(built, marker=True)
    path.write_bytes(marshal.dumps(marker))
    assert load_tables(grammar, ["start"]).get("marker") is True
    # Tables of another format, or damaged ones, are built again (Lark may number the states
    # differently each time, so compare what they parse).
    for stale in (marshal.dumps(dict(built, format=FORMAT + 1)), b"\x00garbage"):
        path.write_bytes(stale)
        rebuilt = load_tables(grammar, ["start"])
        assert rebuilt["format"] == FORMAT
        assert marshal.loads(path.read_bytes()) == rebuilt
        tree = Parser(rebuilt, None).parse("ab cd", "start")
        assert [str(t) for t in tree.children] == ["ab", "cd"]
    # Another grammar has tables of its own.
    assert cache_path(grammar.replace("+", "*") + "\0start") != str(path)


def test_a_grammar_change_reaches_the_parser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STREAMOPT_CACHE_DIR", str(tmp_path))
    words = Parser(load_tables('start: WORD+\nWORD: /[a-z]+/\n%ignore " "\n', ["start"]), None)
    assert [str(t) for t in words.parse("ab cd", "start").children] == ["ab", "cd"]
    numbers = Parser(load_tables('start: NUM+\nNUM: /[0-9]+/\n%ignore " "\n', ["start"]), None)
    with pytest.raises(ParseError):
        numbers.parse("ab cd", "start")
    assert len(list(tmp_path.iterdir())) == 2


def test_stored_regexes_are_the_ones_re_compiles(ours: Parser) -> None:
    lexers = [marshal.loads(lexer) for lexer in ours.tables["lexers"]]
    stored = 0
    for pattern, _, _, _, skipping, (pattern_code, skipping_code) in lexers:
        for text, code in ((pattern, pattern_code), (skipping, skipping_code)):
            if text is None:
                assert code is None
                continue
            # This interpreter's re exposes its compiler: every regex is stored compiled.
            assert code is not None
            assert compile_regex(text, code) == re.compile(text)
            stored += 1
    assert stored > len(lexers)


def test_a_stored_regex_another_python_made_is_compiled_again() -> None:
    pattern = r"(?P<A>a+)|(?P<B>b)"
    code = regex_code(pattern)
    assert code is not None
    magic, arguments = marshal.loads(zlib.decompress(code))
    foreign = zlib.compress(marshal.dumps((magic + 1, arguments)))
    garbage = zlib.compress(marshal.dumps((magic, (0, [1, 2, 3], 0, {}, ()))))
    for stale in (foreign, garbage, b"not marshal", None):
        compiled = compile_regex(pattern, stale)
        assert compiled == re.compile(pattern)
        assert compiled.match("aab") is not None
        assert compiled.match("aab").lastgroup == "A"  # type: ignore[union-attr]
