"""Parser tables: the grammar compiled into plain data, built once and cached on disk.

`build_tables(grammar)` asks Lark to compile grammar/stream.lark into LALR(1) tables and takes
from it everything `streamopt.parser.lalr` needs to parse without Lark: the action table, each
rule's length and callback shape (which children a reduction keeps, which it splices, whether a
`?rule` passes its only child through), and each parser state's contextual lexer (its terminals
in Lark's match order, and the keywords Lark folds into identifier terminals). The result holds
only builtins, so it is stored with `marshal` and loads in a few milliseconds; Lark is imported
only when the tables are built (the first run after the grammar changes).

Each lexer's regexes are stored compiled as well (the `re` module's own compiled form, see
`regex_code`): compiling a lexer's alternation costs about a millisecond, and a short file meets
dozens of lexers, which made compiling regexes most of a small run's parse.

Encoding: `actions[state]` maps a symbol (terminal or rule name) to a state to shift to (>= 0)
or to `-1 - rule` to reduce by rule number `rule`. The stored tables keep each state's row, each
rule and each lexer as marshal data of its own (`action_rows`, `rules`, `lexers`), decoded when a
parse first reaches the state, reduces by the rule or lexes with the lexer: a run meets a small
part of the thousands of states, rules and lexers, and decoding them all was most of the load.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # re's compiler core; no stubs.
import marshal
import os
import re
import sys
import zlib
from typing import Any

# Bump when the layout of the tables changes, so old caches are not read.
FORMAT = 6

Tables = dict[str, Any]


def build_tables(grammar: str, start: list[str]) -> Tables:
    """Compile `grammar` (Lark syntax, LALR, contextual lexer) into plain tables."""
    from lark import Lark
    from lark.lexer import PatternStr, _create_unless
    from lark.parse_tree_builder import _should_expand
    from lark.parsers.lalr_analysis import Reduce

    lark = Lark(grammar, parser="lalr", lexer="contextual", start=start, maybe_placeholders=False)
    frontend = lark.parser
    parse_table = frontend.parser.parser.parse_table
    lexer = frontend.lexer

    rules = lark.rules
    rule_index = {id(rule): i for i, rule in enumerate(rules)}
    actions: list[dict[str, int]] = []
    for state in range(len(parse_table.states)):
        row: dict[str, int] = {}
        for symbol, (action, argument) in parse_table.states[state].items():
            row[str(symbol)] = -1 - rule_index[id(argument)] if action is Reduce else argument
        actions.append(row)

    rule_rows: list[tuple[str, int, str, bool, list[tuple[int, bool]] | None]] = []
    for rule in rules:
        options = rule.options
        include = [
            (i, bool(_should_expand(sym)))  # type: ignore[no-untyped-call]
            for i, sym in enumerate(rule.expansion)
            if options.keep_all_tokens or not (sym.is_term and sym.filter_out)  # type: ignore[attr-defined]
        ]
        filtered = len(include) < len(rule.expansion) or any(expand for _, expand in include)
        name = str(rule.alias or options.template_source or rule.origin.name)
        rule_rows.append(
            (
                str(rule.origin.name),
                len(rule.expansion),
                name,
                bool(options.expand1 and not rule.alias),
                include if filtered else None,
            )
        )

    # One contextual lexer per distinct set of terminals, as Lark shares them.
    lexers: list[
        tuple[
            str,
            list[str],
            dict[str, dict[str, str]],
            list[str],
            str | None,
            tuple[bytes | None, bytes | None],
        ]
    ] = []
    lexer_of: dict[int, int] = {}
    state_lexer: list[int] = []

    def describe(basic: Any) -> int:
        key = id(basic)
        if key not in lexer_of:
            terminals, callbacks = _create_unless(  # type: ignore[no-untyped-call]
                basic.terminals, basic.g_regex_flags, basic.re, basic.use_bytes
            )
            unless: dict[str, dict[str, str]] = {}
            for name, callback in callbacks.items():
                words: dict[str, str] = {}
                for word in callback.scanner.terminals:
                    assert isinstance(word.pattern, PatternStr) and not word.pattern.flags
                    words.setdefault(str(word.pattern.value), str(word.name))
                unless[str(name)] = words
            pattern = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals)
            allowed = sorted({str(t.name) for t in terminals} - set(basic.ignore_types))
            lexer_of[key] = len(lexers)
            ignore = sorted(str(name) for name in basic.ignore_types)
            skipping = _skipping_pattern(terminals)
            codes = (regex_code(pattern), regex_code(skipping) if skipping is not None else None)
            lexers.append((str(pattern), allowed, unless, ignore, skipping, codes))
        return lexer_of[key]

    for state in range(len(parse_table.states)):
        state_lexer.append(describe(lexer.lexers[state]))
    root = describe(lexer.root_lexer)

    literal = {
        str(t.name): str(t.pattern.value)
        for t in lark.terminals
        if isinstance(t.pattern, PatternStr)
    }
    return {
        "format": FORMAT,
        "action_rows": [marshal.dumps(row) for row in actions],
        "rules": [marshal.dumps(rule) for rule in rule_rows],
        "lexers": [marshal.dumps(lexer) for lexer in lexers],
        "state_lexer": state_lexer,
        "root_lexer": root,
        "start_states": {str(k): v for k, v in parse_table.start_states.items()},
        "end_states": {str(k): v for k, v in parse_table.end_states.items()},
        "literals": literal,
        "ignore": [str(name) for name in lark.ignore_tokens],
    }


def _skipping_pattern(terminals: list[Any]) -> str | None:
    """The lexer's alternation behind a prefix that skips what it ignores, when that gives the
    same tokens: when no other terminal can start with a character an ignored one starts with,
    Lark's lexer skips ignored text wherever it meets it, as the prefix does, and then a single
    match finds the next token. None when some terminal could start like an ignored one."""
    ignored = [t for t in terminals if t.name.startswith("__IGNORE")]
    kept = [t for t in terminals if not t.name.startswith("__IGNORE")]
    skipped: set[int] = set()
    for terminal in ignored:
        first = _first_characters(terminal.pattern.to_regexp())
        if first is None:
            return None
        skipped |= first
    for terminal in kept:
        first = _first_characters(terminal.pattern.to_regexp())
        if first is None or first & skipped:
            return None
    prefix = "|".join(t.pattern.to_regexp() for t in ignored)
    body = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in kept)
    if not (ignored and kept):
        return None
    # The skipped text must not be given back when no terminal follows (no backtracking into
    # a comment to find a token inside it, no trying every split of a run of blanks): a
    # lookahead is atomic, and the backreference then consumes what it matched.
    return f"(?=(?P<_skipped>(?:{prefix})*))(?P=_skipped)(?:{body})"


def _first_characters(regex: str) -> set[int] | None:
    """The code points a match of `regex` can start with; None when it may start with any."""
    # The regex parser's own syntax tree (a private module; tables are built rarely and
    # rebuilt when the Python version changes).
    try:
        from re import _constants as c  # type: ignore[attr-defined]
        from re import _parser  # type: ignore[attr-defined]
    except ImportError:  # Python 3.10
        import sre_constants as c
        import sre_parse as _parser

    def sequence(items: Any) -> tuple[set[int] | None, bool]:
        found: set[int] = set()
        for op, argument in items:
            first, nullable = element(op, argument)
            if first is None:
                return None, False
            found |= first
            if not nullable:
                return found, False
        return found, True

    def element(op: Any, argument: Any) -> tuple[set[int] | None, bool]:
        if op is c.LITERAL:
            return {argument}, False
        if op is c.IN:
            chars: set[int] = set()
            for kind, value in argument:
                if kind is c.LITERAL:
                    chars.add(value)
                elif kind is c.RANGE:
                    chars.update(range(value[0], value[1] + 1))
                else:  # A negated set or a category: could be anything.
                    return None, False
            return chars, False
        if op is c.SUBPATTERN:
            _, add_flags, del_flags, pattern = argument
            return sequence(pattern) if not (add_flags or del_flags) else (None, False)
        if op is c.BRANCH:
            union: set[int] = set()
            any_nullable = False
            for branch in argument[1]:
                first, nullable = sequence(branch)
                if first is None:
                    return None, False
                union |= first
                any_nullable = any_nullable or nullable
            return union, any_nullable
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            low, _, pattern = argument
            first, nullable = sequence(pattern)
            return first, nullable or low == 0
        if op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            return set(), True  # Zero width: the next element decides.
        return None, False

    return sequence(_parser.parse(regex))[0]


def regex_code(pattern: str) -> bytes | None:
    """`pattern` as the `re` module compiles it, in marshal data from which `compile_regex`
    makes the same pattern object without compiling it again; None when this Python's `re`
    does not expose its compiler the way the code below expects."""
    # The compiler's private steps, as re.compile runs them (Lib/re/_compiler.py compile());
    # the result is checked against re.compile's own, and the tables are rebuilt whenever
    # the Python version changes.
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(pattern, 0)
        # Opcodes are an int subclass marshal cannot store.
        code = [int(word) for word in _compiler._code(parsed, 0)]
        state = parsed.state
        groupindex = dict(state.groupdict)
        indexgroup: list[str | None] = [None] * state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        arguments = (state.flags, code, state.groups - 1, groupindex, tuple(indexgroup))
        if _sre.compile(pattern, *arguments) != re.compile(pattern):
            return None
        # Compressed: the codes are most of the tables' size, and reading them all costs
        # more than inflating the few a run uses.
        return zlib.compress(marshal.dumps((_sre.MAGIC, arguments)))
    except Exception:  # Another Python's internals: compile at run time instead.
        return None


def compile_regex(pattern: str, code: bytes | None) -> re.Pattern[str]:
    """The compiled `pattern`, from `code` (made by `regex_code`) when this Python can use
    it, else compiled now."""
    if code is not None:
        try:
            magic, arguments = marshal.loads(zlib.decompress(code))
            if magic == _sre.MAGIC:
                compiled: re.Pattern[str] = _sre.compile(pattern, *arguments)
                return compiled
        except Exception:  # A cache from an interpreter whose re module differs.
            pass
    return re.compile(pattern)


def cache_path(grammar: str) -> str:
    """Where the tables of `grammar` (its text and start rules) are kept.

    A per-user cache directory, not the temporary directory: lit gives every test its own
    TMPDIR. Checkouts with different grammars never read each other's tables (see cache_file).
    """
    # This file's own text counts too, so a change to how tables are built rebuilds them.
    return cache_file(f"tables-f{FORMAT}", grammar.encode() + _generator_source())


def cache_file(kind: str, key: bytes) -> str:
    """The file of the cache directory that holds the `kind` of entry made from `key`: its
    name holds a checksum of the key and the Python version (marshal's format)."""
    # A checksum, not a secure hash: hashlib's import alone would double the cost of loading.
    digest = f"{zlib.crc32(key):08x}{len(key):x}"
    version = f"{sys.version_info[0]}{sys.version_info[1]}"
    return os.path.join(cache_directory(), f"{kind}-{digest}-py{version}.marshal")


def cache_directory() -> str:
    """The per-user directory of streamopt's caches (`STREAMOPT_CACHE_DIR` moves it)."""
    return os.environ.get("STREAMOPT_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "streamopt",
    )


def _generator_source() -> bytes:
    try:
        with open(__file__, "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def load_tables(grammar: str, start: list[str]) -> Tables:
    """The tables of `grammar` with start rules `start`: read from the cache, or built (and
    cached) when missing."""
    path = cache_path(grammar + "\0" + " ".join(start))
    try:
        with open(path, "rb") as handle:
            # loads() of the whole file: load() on a file is several times slower.
            tables: Tables = marshal.loads(handle.read())
        if tables.get("format") == FORMAT and list(tables["start_states"]) == start:
            return tables
    except (OSError, EOFError, ValueError, TypeError, KeyError):
        pass
    tables = build_tables(grammar, start)
    store(path, tables)
    return tables


def store(path: str, tables: Any) -> None:
    """Write `tables` (anything marshal writes) atomically: a concurrent run reads either
    nothing or all of it."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        temporary = f"{path}.{os.getpid()}.tmp"
        with open(temporary, "wb") as handle:
            marshal.dump(tables, handle)
        os.replace(temporary, path)
    except OSError:
        pass  # A read-only home: build the tables again next time.
