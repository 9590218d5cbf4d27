"""Parser tables: the grammar compiled into plain data, built once and cached on disk.

`build_tables(grammar)` asks Lark to compile grammar/stream.lark into LALR(1) tables and takes
from it everything `streamopt.parser.lalr` needs to parse without Lark: the action table, each
rule's length and callback shape (which children a reduction keeps, which it splices, whether a
`?rule` passes its only child through), and each parser state's contextual lexer (its terminals
in Lark's match order, and the keywords Lark folds into identifier terminals). The result holds
only builtins, so it is stored with `marshal` and loads in a few milliseconds; Lark is imported
only when the tables are built (the first run after the grammar changes).

Encoding: `actions[state]` maps a symbol (terminal or rule name) to a state to shift to (>= 0)
or to `-1 - rule` to reduce by rule number `rule`.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib
from typing import Any

# Bump when the layout of the tables changes, so old caches are not read.
FORMAT = 1

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
    lexers: list[tuple[str, list[str], dict[str, dict[str, str]], list[str]]] = []
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
            lexers.append((str(pattern), allowed, unless, ignore))
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
        "actions": actions,
        "rules": rule_rows,
        "lexers": lexers,
        "state_lexer": state_lexer,
        "root_lexer": root,
        "start_states": {str(k): v for k, v in parse_table.start_states.items()},
        "end_states": {str(k): v for k, v in parse_table.end_states.items()},
        "literals": literal,
        "ignore": [str(name) for name in lark.ignore_tokens],
    }


def cache_path(grammar: str) -> str:
    """Where the tables of `grammar` (its text and start rules) are kept.

    A per-user cache directory, not the temporary directory: lit gives every test its own
    TMPDIR. The name holds a checksum of the grammar, the table format and the Python version
    (marshal's format), so checkouts with different grammars never read each other's tables.
    """
    directory = os.environ.get("STREAMOPT_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "streamopt",
    )
    # A checksum, not a secure hash: hashlib's import alone would double the cost of loading.
    encoded = grammar.encode()
    digest = f"{zlib.crc32(encoded):08x}{len(encoded):x}"
    version = f"{sys.version_info[0]}{sys.version_info[1]}"
    return os.path.join(directory, f"tables-{digest}-f{FORMAT}-py{version}.marshal")


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
    _store(path, tables)
    return tables


def _store(path: str, tables: Tables) -> None:
    """Write the tables atomically (a concurrent run reads either nothing or all of them)."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        temporary = f"{path}.{os.getpid()}.tmp"
        with open(temporary, "wb") as handle:
            marshal.dump(tables, handle)
        os.replace(temporary, path)
    except OSError:
        pass  # A read-only home: build the tables again next time.
