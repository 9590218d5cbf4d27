"""An LALR(1) parser with a contextual lexer, driven by the tables of `streamopt.parser.tables`.

It does what Lark's LALR parser does with `lexer="contextual"` and an inline transformer (the
tables come from Lark, so the language and the shape of every reduction are Lark's), in one
loop with no per-token objects beyond the token itself: Lark itself is not imported at run
time. Each parser state lexes with the terminals it accepts, in Lark's order (first match of one
alternation, keywords folded into the identifier terminals that match them); each reduction
filters its children as Lark does (anonymous tokens out unless the rule keeps them, `_rule`
children spliced in, `?rule` passing a single child through) and calls the transformer's method
of the rule's name, or makes a `Tree` when it has none.

A transformer may also reuse whole lines (see `LineReuse`): where a line may start an
`operation`, it is offered the line first and may hand back that rule's value for all of it,
which the driver then pushes as if it had parsed the line.
"""

from __future__ import annotations

import marshal
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from streamopt.lazy_regex import lazy_compile
from streamopt.parser.tables import Tables, compile_regex

# What a blank span reads as a space.
_BLANKED = lazy_compile(r"[^\n]")

# The rule one line of input reduces to (grammar/stream.lark ends every op at a newline).
LINE_RULE = "operation"


class LineReuse(Protocol):
    """What a transformer implements to build whole lines without parsing them.

    `reuse` is asked at the start of each line that may hold an `operation`, with the line's
    first token and the parser state that would shift it; it returns the rule's value, the
    offset after the line's newline and the lexer to lex the next token with, or None to have
    the line parsed.
    `parsed` is told of each line it was asked about that was then parsed as one `operation`:
    its children, its value, and the lexer the token after it was lexed with (that of the
    state after the newline, which the state after the rule need not share), so that pushing
    the rule's value and lexing on with that lexer is exactly what the parse did.
    """

    def reuse(self, text: str, first: Token, state: int) -> tuple[Any, int, int] | None: ...

    def parsed(self, children: list[Any], value: Any, lexer: int) -> None: ...


class Token(str):
    """A lexed terminal: its text, terminal name and offsets in the parsed text."""

    __slots__ = ("end_pos", "start_pos", "type")

    type: str
    start_pos: int
    end_pos: int

    @property
    def value(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {str(self)!r})"


def make_token(kind: str, text: str, start: int, end: int) -> Token:
    """A token of terminal `kind` spelled `text` at offsets `start`..`end`."""
    token = Token(text)
    token.type = kind
    token.start_pos = start
    token.end_pos = end
    return token


class Tree:
    """The result of a rule the transformer has no method for (Lark's default)."""

    __slots__ = ("children", "data")

    def __init__(self, data: str, children: list[Any]) -> None:
        self.data = data
        self.children = children


class ParseError(Exception):
    """Input the grammar does not accept."""


class UnexpectedToken(ParseError):
    """A token no rule allows where it stands; `expected` are the terminals that would be."""

    def __init__(self, token: Token, expected: set[str]) -> None:
        super().__init__(f"unexpected token {token!r}")
        self.token = token
        self.expected = expected


class UnexpectedCharacters(ParseError):
    """Text at `pos_in_stream` that no terminal of the current state matches."""

    def __init__(self, pos_in_stream: int, allowed: set[str]) -> None:
        super().__init__(f"unexpected characters at offset {pos_in_stream}")
        self.pos_in_stream = pos_in_stream
        self.allowed = allowed


class _Lexer:
    """One contextual lexer: a compiled alternation and what to do with each match."""

    __slots__ = ("_match", "_pattern", "_pattern_code", "allowed", "ignore", "skipping", "unless")

    def __init__(self, spec: Any) -> None:
        pattern, allowed, unless, ignore, skipping, (pattern_code, skipping_code) = spec
        self._pattern: str = pattern
        self._pattern_code: bytes | None = pattern_code
        self._match: Callable[[str, int], re.Match[str] | None] | None = None
        # Skips ignored text and matches the next token in one call (see tables.py); when it
        # finds nothing, `match` says what Lark's lexer does there.
        self.skipping: Callable[[str, int], re.Match[str] | None] | None = (
            compile_regex(skipping, skipping_code).match if skipping is not None else None
        )
        self.allowed: set[str] = set(allowed) or {"<END-OF-FILE>"}
        self.unless: dict[str, dict[str, str]] = unless
        self.ignore: frozenset[str] = frozenset(ignore)

    def match(self, text: str, pos: int) -> re.Match[str] | None:
        """Lark's match at `pos`: the first terminal of the alternation, ignored ones included."""
        if self._match is None:
            # Compiled when first needed: with `skipping`, only at the end of input and on errors.
            self._match = compile_regex(self._pattern, self._pattern_code).match
        return self._match(text, pos)


def _splice(include: list[tuple[int, bool]], call: Callable[[list[Any]], Any]) -> Any:
    """Lark's child filter: keep the listed children, splicing `_rule` results in."""
    if not any(expand for _, expand in include):
        keep = [i for i, _ in include]
        if len(keep) == 1:
            only = keep[0]
            return lambda children: call([children[only]])
        return lambda children: call([children[i] for i in keep])

    def filtered(children: list[Any]) -> Any:
        out: list[Any] = []
        for i, expand in include:
            if expand:
                if out:
                    out += children[i].children
                else:
                    out = children[i].children
            else:
                out.append(children[i])
        return call(out)

    return filtered


def _expand_single(call: Callable[[list[Any]], Any]) -> Callable[[list[Any]], Any]:
    return lambda children: children[0] if len(children) == 1 else call(children)


class _ActionRows(dict[int, dict[str, int]]):
    """The action table, state -> row, decoding a state's row the first time it is read."""

    __slots__ = ("_stored",)

    def __init__(self, stored: list[bytes]) -> None:
        super().__init__()
        self._stored = stored

    def __missing__(self, state: int) -> dict[str, int]:
        if not 0 <= state < len(self._stored):
            raise KeyError(state)
        row: dict[str, int] = marshal.loads(self._stored[state])
        self[state] = row
        return row


class _Reductions(dict[int, tuple[str, int, Callable[[list[Any]], Any] | None]]):
    """Reduce action -> (rule name, length, callback), each made the first time a parse
    reduces by the rule (a run uses a small part of the grammar's rules). No callback for a
    `?rule` of one symbol, which passes its child through."""

    __slots__ = ("_rules", "_transformer")

    def __init__(self, rules: list[bytes], transformer: Any) -> None:
        super().__init__()
        self._rules = rules
        self._transformer = transformer

    def __missing__(self, action: int) -> tuple[str, int, Callable[[list[Any]], Any] | None]:
        rule = -1 - action
        if not 0 <= rule < len(self._rules):
            raise KeyError(action)
        origin, size, name, expand1, include = marshal.loads(self._rules[rule])
        call: Callable[[list[Any]], Any] | None = None
        if not (expand1 and size == 1 and include is None):
            call = getattr(self._transformer, name, None)
            if call is None:
                call = _tree_maker(name)
            if expand1:
                call = _expand_single(call)
            if include is not None:
                call = _splice(include, call)
        entry = (origin, size, call)
        self[action] = entry
        return entry


class Parser:
    """Parses text with `tables`, calling `transformer`'s rule methods on each reduction."""

    def __init__(self, tables: Tables, transformer: Any) -> None:
        self.tables = tables
        self._actions: dict[int, dict[str, int]] = _ActionRows(tables["action_rows"])
        self._specs: list[bytes] = tables["lexers"]
        self._state_lexer: list[int] = tables["state_lexer"]
        self._lexers: list[_Lexer | None] = [None] * len(self._specs)
        self._root = tables["root_lexer"]
        self._lines: LineReuse | None = getattr(transformer, "line_reuse", None)
        self._reductions = _Reductions(tables["rules"], transformer)

    def with_transformer(self, transformer: Any) -> Parser:
        """A parser of the same tables that calls `transformer` instead, sharing this one's
        decoded states and compiled lexers (each costs time the first time it is used)."""
        other = Parser.__new__(Parser)
        other.__dict__.update(self.__dict__)
        other._lines = getattr(transformer, "line_reuse", None)
        other._reductions = _Reductions(self.tables["rules"], transformer)
        return other

    def literal(self, terminal: str) -> str | None:
        """The text of `terminal` when it is a literal (a keyword or punctuation)."""
        found: str | None = self.tables["literals"].get(terminal)
        return found

    def _lexer(self, index: int) -> _Lexer:
        lexer = self._lexers[index]
        if lexer is None:
            # Compiled on first use: a run only meets a few of the states' lexers.
            lexer = self._lexers[index] = _Lexer(marshal.loads(self._specs[index]))
        return lexer

    def parse(self, text: str, start: str, blanks: Sequence[tuple[int, int]] = ()) -> Any:
        """Parse all of `text` from rule `start`; return what its reduction made.

        `blanks` are spans of `text` (in order, each starting at a newline) to lex as if each
        character in them that is not a newline were a space, without a blanked copy of the
        text: a span is one newline token, as blank lines are.
        """
        actions = self._actions
        reductions = self._reductions
        state_lexer = self._state_lexer
        lexers = self._lexers
        end_state = self.tables["end_states"][start]
        states = [self.tables["start_states"][start]]
        values: list[Any] = []
        pos = 0
        last: Token | None = None
        kind: str
        found: re.Match[str] | None
        lines = self._lines
        # At the first token of a line; and the stack height where a line offered to `lines`
        # began, until its `operation` is reduced there (or the next line begins).
        line_start = lines is not None
        offered = -1
        # The lexer of the next token when a reused line says which (-1: the state's own).
        next_lexer = -1
        # The next blank span; a token that reaches into it is its newline token.
        blank = 0
        blank_start, blank_end = blanks[0] if blanks else (len(text) + 1, 0)
        while True:
            state = states[-1]
            # Lex the next token with the lexer of the state the last shift left.
            if next_lexer < 0:
                index = state_lexer[state]
            else:
                index = next_lexer
                next_lexer = -1
            lexer = lexers[index] or self._lexer(index)
            skipping = lexer.skipping
            found = skipping(text, pos) if skipping is not None else None
            if found is not None:
                kind = found.lastgroup  # type: ignore[assignment]  # Every terminal is named.
                # The token's group is the last one, so it ends where the match does.
                begin, end = found.span(kind)
                spelling = text[begin:end]
                words = lexer.unless.get(kind)
                if words is not None:
                    kind = words.get(spelling, kind)
                token = Token(spelling)
                token.type = kind
                token.start_pos = begin
                token.end_pos = pos = end
            else:
                token, pos = self._next_token(text, pos, lexer, last)
                kind = token.type
            if pos > blank_start:
                if kind == "_NL" and token.start_pos == blank_start:
                    # The newline, blank lines and indentation a blanked span would be.
                    pos = max(pos, blank_end)
                    token = make_token(
                        kind, _BLANKED.sub(" ", text[blank_start:pos]), blank_start, pos
                    )
                while blank_start < pos:
                    blank += 1
                    blank_start, blank_end = (
                        blanks[blank] if blank < len(blanks) else (len(text) + 1, 0)
                    )
            # Reduce as long as the state says so, then shift the token.
            while True:
                row = actions[state]
                action = row.get(kind)
                if action is None:
                    raise UnexpectedToken(token, {s for s in row if s.isupper()})
                if action >= 0:
                    break
                origin, size, call = reductions[action]
                if call is None:
                    state = states[-1] = actions[states[-2]][origin]
                    if kind == "$END" and state == end_state:
                        return values[-1]
                    continue
                top = states[-1]
                if size:
                    children = values[-size:]
                    del values[-size:]
                    del states[-size:]
                else:
                    children = []
                value = call(children)
                state = actions[states[-1]][origin]
                if offered == len(states) and origin == LINE_RULE:
                    offered = -1
                    lines.parsed(children, value, state_lexer[top])  # type: ignore[union-attr]
                states.append(state)
                values.append(value)
                if kind == "$END" and state == end_state:
                    return value
            if line_start:
                line_start = False
                offered = -1
                goto = actions[state].get(LINE_RULE)
                if goto is not None:
                    reused = lines.reuse(text, token, state)  # type: ignore[union-attr]
                    if reused is not None:
                        value, pos, next_lexer = reused
                        states.append(goto)
                        values.append(value)
                        line_start = True
                        continue
                    offered = len(states)
            states.append(action)
            values.append(token)
            last = token
            if kind == "_NL" and lines is not None:
                line_start = True

    def _next_token(
        self, text: str, pos: int, lexer: _Lexer, last: Token | None
    ) -> tuple[Token, int]:
        """The next token as Lark's lexer finds it, one terminal or ignored text at a time,
        and the position after it (for the states and places where `skipping` does not
        apply: the end of input, errors)."""
        while pos < len(text):
            found = lexer.match(text, pos)
            if found is None:
                raise self._lex_error(text, pos, lexer)
            kind = found.lastgroup
            assert kind is not None
            end = found.end()
            if kind in lexer.ignore:
                pos = end
                continue
            spelling = found.group()
            kind = lexer.unless.get(kind, {}).get(spelling, kind)
            return make_token(kind, spelling, pos, end), end
        return make_token("$END", "", last.start_pos if last else 0, pos), pos

    def _lex_error(self, text: str, pos: int, lexer: _Lexer) -> ParseError:
        """Lark's contextual lexer error: a token of another context is an unexpected token;
        text no terminal matches is unexpected characters."""
        allowed = lexer.allowed
        root = self._lexer(self._root)
        cursor = pos
        while cursor < len(text):
            found = root.match(text, cursor)
            if found is None:
                break
            kind = found.lastgroup
            assert kind is not None
            if kind in root.ignore:
                cursor = found.end()
                continue
            spelling = found.group()
            words = root.unless.get(kind)
            if words is not None:
                kind = words.get(spelling, kind)
            return UnexpectedToken(make_token(kind, spelling, cursor, found.end()), allowed)
        return UnexpectedCharacters(pos, allowed)


def _tree_maker(name: str) -> Callable[[list[Any]], Tree]:
    return lambda children: Tree(name, children)
