"""The inline transformer: turns grammar reductions straight into IR (no parse tree).

Lark calls one method per rule as the LALR parser reduces it, bottom up. Scoping needs a
top-down view too, so a few rules exist only to mark where a region opens (`region_open`) and to
declare the arguments a header gives its region (`util_func_header`, ...). The builder keeps:

* a stack of name scopes (one per region) mapping `%name` to the values it defines;
* a stack of blocks being filled, so each reduced op is appended to the innermost one;
* forward references: a use of a name not yet defined gets a placeholder that is replaced when
  the definition appears (MLIR allows that across blocks).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, cast

from streamopt.diagnostics import (
    Diagnostic,
    DiagnosticError,
    Location,
    OperandTypeMismatch,
    Source,
)
from streamopt.dialects import (
    OPS,
    op_class,
    op_class_for_rule,
    rule_callback,
)
from streamopt.dialects.builtin import (
    DEFINED,
    OPERAND,
    REGION,
    GenericOp,
    ModuleOp,
    OpaqueOp,
    VerbatimOp,
)
from streamopt.dialects.common import dynamic_dim_count
from streamopt.dialects.registered import (
    available_dialects_note,
    unknown_op_problem,
    unregistered_dialect_op_problem,
)
from streamopt.ir.core import (
    Block,
    DetachedValue,
    Operation,
    OpResult,
    Region,
    SharedAttributes,
    Value,
)
from streamopt.ir.debuginfo import LocationText
from streamopt.ir.module import Module
from streamopt.ir.opdef import DeclaredOp
from streamopt.ir.types import (
    TIMEPOINT,
    ArrayAttr,
    Attribute,
    DictAttr,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    OpaqueAttr,
    OptimalAffinityAttr,
    ResourceType,
    ShapedType,
    StringAttr,
    Type,
    TypeAttr,
    UnitAttr,
    nesting_depth,
    symbol_ref_from_text,
    symbol_spelling,
    unescape_string,
)
from streamopt.lazy_regex import lazy_compile
from streamopt.parser import token_values
from streamopt.parser.lalr import Token
from streamopt.parser.parts import (
    TOKEN_CLASSES,
    AttrDict,
    AttributesClause,
    Clause,
    EntryPoints,
    FormatGroup,
    NegativeLiteral,
    OperandRange,
    Operands,
    Properties,
    RegionList,
    ShapedResults,
    ShapedTypes,
    Sized,
    Successor,
    SuccessorList,
    Tied,
    TokenLike,
    TypeList,
    ValueList,
)

_UNIT = UnitAttr()

# What a name in scope stands for: the value, or the values of a result group (`%x:2`).
_Definition = Value | list[Value]

# How deep regions, and arrays and dictionaries in attributes, may nest. MLIR has no limit but
# its stack (iree-opt overflows near 3,500 nested regions); streamopt's recursive code (printer,
# verifiers, analyses) runs in a thread sized for this many levels (see streamopt.opt_command).
MAX_NESTING = 4096
_TOO_DEEP = f"attribute arrays and dictionaries nest more than {MAX_NESTING} levels deep"


class _RegionState:
    """A region being parsed: its scope, blocks and block labels."""

    __slots__ = ("block", "labels", "open_token", "pending_blocks", "region", "scope")

    def __init__(self, region: Region, open_token: TokenLike) -> None:
        self.region = region
        self.block = region.blocks[0]
        # The names this region defines (their values are in the builder's `visible`).
        self.scope: list[str] = []
        self.labels: dict[str, Block] = {}
        # Blocks named by a successor before their label was seen.
        self.pending_blocks: dict[str, tuple[Block, TokenLike]] = {}
        self.open_token = open_token


# MLIR's note to a decimal integer literal typed as a float (`1 : f32`).
_FLOAT_DOT = "add a trailing dot to make the literal a float"


class Builder:
    """Lark transformer building a `Module` from the reductions of grammar/stream.lark."""

    def __init__(self) -> None:
        self.source: Source = Source("<input>", "")
        self.text = ""
        self.parsed_text = ""
        # `--allow-unregistered-dialect`: keep generic ops, attributes and types of dialects
        # iree-opt does not register instead of rejecting them.
        self.allow_unregistered_dialect = False
        self._reset()
        # Callbacks of the rules dialect modules handle, made when the parser first asks.
        self._known_rules: dict[str, Callable[[list[Any]], Any]] = {}
        self.line_reuse = LineTemplates(self)

    def _reset(self) -> None:
        self.regions: list[_RegionState] = []
        self.top_block = Block()
        self.top_scope: dict[str, _Definition] = {}
        # Every name defined in an open region, for lookups in one probe: names are unique
        # across enclosing regions, so the innermost definition is the only one.
        self.visible: dict[str, _Definition] = {}
        self.forward_refs: dict[str, tuple[DetachedValue, TokenLike]] = {}
        # Names the syntax of an op kept as written defines for its regions (see
        # `_claim_header_name`), by spelling, in the order made: the offset of the op's name,
        # the value, and the op. An enclosing op kept as written that names one takes it over.
        self.header_claims: dict[str, list[tuple[int, DetachedValue, OpaqueOp]]] = {}
        self.pending_entry_args: list[tuple[TokenLike, Type, str | None]] | None = None
        self.aliases: list[str] = []
        self.trailing_aliases: list[str] = []
        self.alias_values: dict[str, Attribute | Type] = {}
        self.metadata: str | None = None
        self.region_spans: dict[Region, tuple[int, int]] = {}
        # `#alias` names used in locations, checked once the whole file is read.
        self.location_aliases: list[tuple[str, TokenLike, bool]] = []
        # The first use of each alias named inside an executable's body (the name and its
        # offset): kept as written, but each must be defined.
        self.named_aliases: dict[str, int] = {}
        if "line_reuse" in self.__dict__:
            self.line_reuse.clear()

    def begin(
        self,
        source: Source,
        parsed_text: str | None = None,
        allow_unregistered_dialect: bool = False,
    ) -> None:
        """Prepare to build IR for `source`, whose text Lark sees as `parsed_text` (the same
        offsets, continuation lines joined; the source text itself if not given), accepting
        what dialects iree-opt does not register where `allow_unregistered_dialect` says so."""
        self._reset()
        self.source = source
        self.text = source.text
        self.parsed_text = parsed_text if parsed_text is not None else source.text
        self.allow_unregistered_dialect = allow_unregistered_dialect

    # -- diagnostics -----------------------------------------------------------------------

    def location(self, token: TokenLike) -> Location:
        # From the offset: line breaks inside ops were joined before Lark counted lines.
        return self.source.location_at(token.start_pos)

    def error(self, message: str, token: TokenLike) -> DiagnosticError:
        return DiagnosticError(Diagnostic("error", message, self.location(token)))

    def wrong_token_error(self, message: str, token: TokenLike) -> DiagnosticError:
        """An error about `token` located as MLIR locates a wrong token: just after the
        token before it (past the blanks between them)."""
        position = token.start_pos
        text = self.text
        while position > 0 and text[position - 1] in " \t":
            position -= 1
        return DiagnosticError(Diagnostic("error", message, self.source.location_at(position)))

    def error_in(self, token: TokenLike, problem: tuple[int, str]) -> DiagnosticError:
        """The error for a `problem` found in `token`'s text: (offset in it, message)."""
        offset, message = problem
        location = self.source.location_at(token.start_pos + offset)
        found = Diagnostic("error", message, location)
        if message == token_values.DECIMAL_FOR_FLOAT:
            found.attach_note(_FLOAT_DOT, location)
        return DiagnosticError(found)

    # -- scopes ----------------------------------------------------------------------------

    def _current_block(self) -> Block:
        return self.regions[-1].block if self.regions else self.top_block

    def define(self, token: TokenLike, values: list[Value]) -> None:
        """Bind `%name` (from `token`) to `values` in the innermost scope."""
        name = str(token)
        # Names are unique in every enclosing region too (MLIR has no shadowing); sibling
        # regions may reuse them.
        if self.regions:
            if name in self.visible:
                raise self.error(f"redefinition of SSA value '{name}'", token)
            self.regions[-1].scope.append(name)
            self.visible[name] = values[0] if len(values) == 1 else values
        else:
            if name in self.top_scope:
                raise self.error(f"redefinition of SSA value '{name}'", token)
            self.top_scope[name] = values[0] if len(values) == 1 else values
        if self.forward_refs:
            self._resolve_forward(name, values)

    def _resolve_forward(self, name: str, values: list[Value]) -> None:
        for index, value in enumerate(values):
            key = name if index == 0 and len(values) == 1 else f"{name}#{index}"
            pending = self.forward_refs.pop(key, None)
            if pending is None and index == 0:
                pending = self.forward_refs.pop(f"{name}#0", None)
            if pending is not None:
                placeholder, token = pending
                if (
                    value.type is not None
                    and placeholder.type is not None
                    and value.type != placeholder.type
                ):
                    # MLIR names the value without its result number (`%0`, not `%0#1`).
                    raise self.error(
                        f"use of value '{name}' expects different type than prior uses: "
                        f"'{placeholder.type}' vs '{value.type}'",
                        token,
                    )
                placeholder.replace_all_uses_with(value)

    def lookup(self, token: TokenLike) -> Value:
        """The value `token` (`%name` or `%name#N`) refers to, or a forward placeholder."""
        return self.lookup_name(str(token), token)

    def lookup_name(self, spelling: str, token: TokenLike) -> Value:
        """The value `spelling` refers to; `token` locates errors."""
        if "#" in spelling:
            name, _, number = spelling.partition("#")
        else:
            name = spelling
            number = ""
        group = self.visible.get(name)
        if group is None:
            group = self.top_scope.get(name)
        if group is not None:
            if group.__class__ is not list:
                group = [group]  # type: ignore[list-item]
            assert isinstance(group, list)
            if number:
                index = int(number)
                if index >= len(group):
                    raise self.error(f"result number {index} of '{name}' is out of range", token)
                return group[index]
            return group[0]
        pending = self.forward_refs.get(spelling)
        if pending is None:
            pending = (DetachedValue(spelling), token)
            self.forward_refs[spelling] = pending
        return pending[0]

    # -- top level -------------------------------------------------------------------------

    def start(self, children: list[Any]) -> Module:
        if self.forward_refs:
            spelling, (_, token) = next(iter(self.forward_refs.items()))
            raise self.error(f"use of undeclared SSA value name '{spelling}'", token)
        for alias, offset in self.named_aliases.items():
            if alias not in self.alias_values:
                location = self.source.location_at(offset)
                message = f"undefined symbol alias id '{alias[1:]}'"
                raise DiagnosticError(Diagnostic("error", message, location))
        for alias, token, in_alias in self.location_aliases:
            if alias not in self.alias_values:
                # MLIR's words: an alias's body names a symbol, an op's location an alias.
                if in_alias:
                    raise self.error(f"undefined symbol alias id '{alias[1:]}'", token)
                raise self.error("operation location alias was never defined", token)
        ops = list(self.top_block.ops)
        if len(ops) == 1 and isinstance(ops[0], ModuleOp):
            module_op = ops[0]
            module_op.detach()
        else:
            module_op = ModuleOp()
            for op in ops:
                op.detach()
                module_op.body.append(op)
        return Module(
            module_op,
            self.source,
            self.aliases,
            self.alias_values,
            self.metadata,
            self.trailing_aliases,
        )

    def alias_def(self, children: list[Any]) -> None:
        token: TokenLike = children[0]
        # The definition ends where Lark saw it end: an alias IREE prints over several lines
        # (`#util.composite<...>` lists one value per line) is kept with its line breaks.
        end = self.parsed_text.find("\n", token.start_pos)
        line = self.text[token.start_pos : end if end >= 0 else len(self.text)]
        value = children[1]
        if isinstance(value, Attribute) and nesting_depth(value) > MAX_NESTING:
            raise self.error(_TOO_DEEP, token)
        if str(token) in self.alias_values:
            kind = "type" if str(token).startswith("!") else "attribute"
            raise self.error(f"redefinition of {kind} alias id '{str(token)[1:]}'", token)
        is_location = isinstance(value, TOKEN_CLASSES)  # `loc(...)`
        if is_location:
            self.note_location(value, in_alias=True)
        # MLIR prints location aliases that only locations use after the module, and only those
        # may follow their uses: keep a location alias written after an op there, and print
        # every other alias before the module.
        if is_location and not self.top_block.is_empty():
            self.trailing_aliases.append(line)
        else:
            self.aliases.append(line)
        self.alias_values[str(token)] = OpaqueAttr(str(value)) if is_location else value

    def file_metadata(self, children: list[Any]) -> None:
        token: TokenLike = children[0]
        # As written, with its line breaks (Lark saw it with continuation lines joined).
        self.metadata = self.text[token.start_pos : token.end_pos]

    # -- operations ------------------------------------------------------------------------

    def op_results(self, children: list[Any]) -> list[tuple[TokenLike, int]]:
        return children

    def op_result(self, children: list[Any]) -> tuple[TokenLike, int]:
        return (children[0], 1)

    def op_result_group(self, children: list[Any]) -> tuple[TokenLike, int]:
        spelling = str(children[1])
        # MLIR reads the count like any integer literal, hexadecimal included.
        count = int(spelling, 16) if spelling[:2] in ("0x", "0X") else int(spelling)
        if count < 1:
            raise self.error("expected a positive number of results", children[1])
        # Opaque ops get one result object per declared result, so an absurd count would exhaust
        # memory before any error could be reported. No real op has more results than the input
        # has characters.
        if count > len(self.text):
            raise self.error(f"too many results in a result group: {count}", children[1])
        return (children[0], count)

    def operation(self, children: list[Any]) -> Operation:
        first = children[0]
        if isinstance(first, list):
            groups: list[tuple[TokenLike, int]] = first
            op: Operation = children[1]
            rest = children[2:]
        else:
            groups = []
            op = first
            rest = children[1:]
        if rest:
            op.debug_loc = str(rest[0])
            self.note_location(rest[0])
        properties = op.properties if isinstance(op, GenericOp) else None
        for attr in (*op.attributes.values(), *(properties or {}).values()):
            if nesting_depth(attr) > MAX_NESTING:
                raise DiagnosticError(Diagnostic("error", _TOO_DEEP, op.location))
        if groups:
            count = sum(n for _, n in groups)
            results = op.results
            if isinstance(op, OpaqueOp) and not results:
                op.results = [op_result_for(op, i) for i in range(count)]
                results = op.results
            elif len(results) != count:
                raise DiagnosticError(
                    Diagnostic(
                        "error",
                        f"operation defines {len(results)} results but was provided "
                        f"{count} to bind",
                        self.location(groups[0][0]),
                    )
                )
            index = 0
            for token, n in groups:
                name = str(token)
                group = results[index : index + n]
                if not _is_numeric_name(name):
                    group[0].name_hint = name[1:]
                self.define(token, list(group))
                index += n
        elif op.results:
            raise DiagnosticError(
                Diagnostic(
                    "error",
                    f"operation defines {len(op.results)} results but was provided 0 to bind",
                    op.location,
                )
            )
        self._current_block().append(op)
        return op

    def _make_known_callback(self, cls: type[Operation]) -> Callable[[list[Any]], Operation]:
        from_parse = cls.from_parse  # type: ignore[attr-defined]
        inherent = cls.inherent_attributes

        def build(children: list[Any]) -> Operation:
            first = children[0]
            if isinstance(first, TOKEN_CLASSES):
                location = self.location(first)
                children = children[1:]
            else:
                # The rule starts with a header rule (util.func) that carries the location.
                location = first.location
            parts = [c for c in children if c.__class__ is not Token or c.type in _KEPT_TOKENS]
            if inherent and not _HOLDS_ATTR_DICT.isdisjoint(map(type, parts)):
                self._check_attr_dict(cls.name, inherent, parts)
            op: Operation = from_parse(self, parts, location)
            if first.__class__ is Token and op.location == location:
                op.locate_at(self.source, first.start_pos)
            return op

        return build

    def mismatch_at_use(self, exc: OperandTypeMismatch) -> DiagnosticError:
        """`exc`, raised while building the op it locates, in iree-opt's words: at the
        value's use in the op, naming it (as raised when the use cannot be found)."""
        location = exc.diagnostics[0].location
        if location.source is not self.source:
            return exc
        # The use nearest before the location on the op's line (a region op's capture list is
        # located at the block argument it binds, just past the use), else the first after.
        text = self.parsed_text
        offset = self.source.offset_of(location)
        start = text.rfind("\n", 0, offset) + 1
        spelling = None
        for scope in (self.visible, self.top_scope):
            for name, group in scope.items():
                values = group if isinstance(group, list) else [group]
                if exc.value in values:
                    index = values.index(exc.value)
                    spelling = name if len(values) == 1 else f"{name}#{index}"
                    break
            if spelling is not None:
                break
        if spelling is None:
            return exc
        name = spelling.split("#")[0]
        end = text.find("\n", start)
        uses = list(
            re.compile(re.escape(spelling) + r"(?![\w$.\-#])").finditer(
                text, start, end if end >= 0 else len(text)
            )
        )
        if not uses:
            return exc
        after = [u for u in uses if u.start() >= offset]
        if exc.use is not None and exc.use < len(after):
            use = after[exc.use]
        else:
            use = next((u for u in reversed(uses) if u.start() <= offset), uses[0])
        return DiagnosticError(
            Diagnostic(
                "error",
                f"use of value '{name}' expects different type than prior uses: "
                f"'{exc.type}' vs '{exc.value.type}'",
                self.source.location_at(use.start()),
            )
        )

    def _check_attr_dict(self, name: str, inherent: frozenset[str], parts: list[Any]) -> None:
        """Refuse an inherent attribute in the attribute dictionary of op `name`'s custom form
        (`{...}` or `attributes {...}`, a part of its own), as iree-opt does, at the `{`."""
        keyword: int | None = None
        for part in parts:
            start = keyword
            keyword = None
            if part.__class__ is AttributesClause:
                part = part.value
            elif part.__class__ is Token and part.type == "ATTRIBUTES":
                keyword = part.start_pos
            if part.__class__ is AttrDict and not inherent.isdisjoint(part):
                found = next(key for key in part if key in inherent)
                # iree-opt points at the `attributes` before a dictionary, if any (`start` of
                # one after `attributes` in a clause is already the keyword's).
                raise DiagnosticError(
                    Diagnostic(
                        "error",
                        f"custom op '{name}' inherent attribute '{found}' cannot be parsed "
                        "from attr-dict when strict properties in assembly format is enabled",
                        self.source.location_at(part.start if start is None else start),
                    )
                )

    def __getattr__(self, name: str) -> Any:
        # The parser looks callbacks up by rule name: an op's rule builds its class (from the
        # op table), other rules of a dialect call what its module registered.
        known = self.__dict__.get("_known_rules")
        if known is None:
            raise AttributeError(name)
        callback = known.get(name)
        if callback is None and name.startswith("op_") and "__g" in name:
            # An optional group of a declared op's format (streamopt.ir.format), not a rule
            # the grammar generator named (`__generic_regions_star_5`).
            callback = functools.partial(_format_group, int(name.rpartition("__g")[2]))
            known[name] = callback
        if callback is None:
            cls = op_class_for_rule(name)
            if cls is not None:
                callback = self._make_known_callback(cls)
            else:
                function = rule_callback(name)
                if function is None:
                    raise AttributeError(name)
                callback = functools.partial(function, self)
            known[name] = callback
        return callback

    def opaque_op(self, children: list[Any]) -> OpaqueOp:
        name_token: TokenLike = children[0]
        name = str(name_token)
        problem = unknown_op_problem(name, generic=False)
        if problem is not None and op_class(name) is None:
            raise self.error(problem, name_token)
        problem = unregistered_dialect_op_problem(name, False, self.allow_unregistered_dialect)
        if problem is not None:
            error = self.error(problem, name_token)
            error.diagnostics[0].attach_note(available_dialects_note(), self.location(name_token))
            raise error
        pieces: list[Any] = []
        _flatten(children, pieces)
        text = self.text
        template: list[Any] = []
        operands: list[Value] = []
        regions: list[Region] = []
        defined: list[DetachedValue] = []
        cursor = name_token.start_pos
        end = cursor
        op_defined: dict[str, DetachedValue] = {}
        dense: TokenLike | None = None
        dense_typed = False
        for piece in pieces:
            if isinstance(piece, Region):
                start, stop = self.region_spans.pop(piece)
                if start > cursor:
                    template.append(text[cursor:start])
                template.append((REGION, len(regions)))
                regions.append(piece)
                cursor = end = stop
            elif piece.type == "VALUE_ID":
                if piece.start_pos > cursor:
                    template.append(text[cursor : piece.start_pos])
                spelling = str(piece)
                own = op_defined.get(spelling)
                if own is None:
                    own = self._claim_header_name(spelling, name_token.start_pos)
                    if own is not None:
                        op_defined[spelling] = own
                        defined.append(own)
                if own is not None:
                    template.append((DEFINED, own))
                else:
                    template.append((OPERAND, len(operands)))
                    operands.append(self.lookup(piece))
                cursor = end = piece.end_pos
            elif piece.type == "LOC":
                # A piece of its own, which printing without debug locations leaves out with
                # the blanks before it.
                blank = piece.start_pos
                while blank > cursor and text[blank - 1] in " \t":
                    blank -= 1
                if blank > cursor:
                    template.append(text[cursor:blank])
                template.append(LocationText(text[blank : piece.end_pos]))
                cursor = end = piece.end_pos
            else:
                if piece.type == "TYPE_REF":
                    # Kept as written, but a hal/stream/util type must be one IREE defines.
                    problem = token_values.dialect_type_problem(str(piece))
                    if problem is not None:
                        raise self.error(problem, piece)
                    self.check_registered_dialects(piece)
                elif piece.type == "ATTR_REF":
                    self.check_dialect_attributes(piece)
                elif piece.type == "SHAPED":
                    spelling = str(piece)
                    if spelling.startswith(_SHAPED_PREFIXES):
                        self.check_shape(spelling, piece)
                        type = token_values.type_from_text(spelling)
                        if dense is not None and dense_typed and isinstance(type, ShapedType):
                            # `dense<...> : T`: MLIR reads the type after a dense attribute
                            # as its type, in any op's syntax.
                            self.check_dense(dense, type)
                    self.check_registered_dialects(piece)
                end = piece.end_pos
            # A `dense<...>`, then whether the `:` before its type came after it.
            if isinstance(piece, TOKEN_CLASSES) and piece.type == "SHAPED":
                dense = piece if str(piece).startswith("dense<") else None
                dense_typed = False
            else:
                colon = isinstance(piece, TOKEN_CLASSES) and str(piece) == ":"
                dense_typed = dense is not None and colon and not dense_typed
                dense = dense if dense_typed else None
        # Blanks that end the line are part of the op as written (IREE prints some ops, such
        # as an operand-less `transform.yield`, with a trailing space).
        blank_end = end
        while blank_end < len(text) and text[blank_end] in " \t":
            blank_end += 1
        if blank_end == len(text) or text[blank_end] == "\n":
            end = blank_end
        if end > cursor:
            template.append(text[cursor:end])
        op = OpaqueOp(
            str(name_token), template, operands, 0, regions, defined, self.location(name_token)
        )
        for value in defined:
            value.defining = op
            self.header_claims.setdefault(value.spelling, []).append(
                (name_token.start_pos, value, op)
            )
        return op

    def _claim_header_name(self, spelling: str, op_start: int) -> DetachedValue | None:
        """The value a name in the text of an op kept as written (whose name starts at
        `op_start`) defines, for its regions, or None when it is a use.

        Such an op's syntax is unknown, so a name in it that no op before it uses or defines is
        taken as one it defines (a function's argument, a loop's variable, the arguments a
        `stream.cmd.func` declaration names), as MLIR's parser of that op would declare it as
        an argument of its regions. The op is built after its regions,
        so their uses of the name are forward references by then, and an op inside it kept as
        written that names it too (`stablehlo.while(%iterArg = %arg0)` in a `func.func` with
        argument `%arg0`) has claimed it for itself: names are not shadowed, so the outermost
        op that names it defines it, and the inner ones use that value.
        """
        if "#" in spelling or spelling in self.visible or spelling in self.top_scope:
            return None
        pending = self.forward_refs.get(spelling)
        if pending is not None and pending[1].start_pos < op_start:
            return None  # Used before this op: a forward reference to a later definition.
        value = pending[0] if pending is not None else DetachedValue(spelling)
        if pending is not None:
            del self.forward_refs[spelling]
        claims = self.header_claims.get(spelling)
        # Claims made inside this op are the last ones made, after every one made before it.
        while claims and claims[-1][0] > op_start:
            _, inner, claimer = claims.pop()
            claimer.use_instead_of_defined(inner, value)
            if inner.type is not None and value.type is None:
                value.type = inner.type  # A forward reference's type, from its first use.
            inner.replace_all_uses_with(value)
        return value

    def opaque_group(self, children: list[Any]) -> list[Any]:
        return children

    def verbatim_op(self, children: list[Any]) -> VerbatimOp:
        name_token: TokenLike = children[0]
        closing: TokenLike = children[-1]
        self._check_executable_header(str(name_token), children[1:])
        text = self.source.text[name_token.start_pos : closing.end_pos]
        self.note_aliases(text, name_token.start_pos)
        location = self.location(name_token)
        return VerbatimOp(str(name_token), text, location.column, location)

    def _check_executable_header(self, name: str, items: list[Any]) -> None:
        """An executable's header names its symbol after an optional visibility (and, for
        `hal.executable`, `lazy`), as their assembly formats read it."""
        index = 0
        words = ("public", "private", "nested")
        for optional in (words, ("lazy",) if name == "hal.executable" else ()):
            item = items[index] if index < len(items) else None
            if isinstance(item, TOKEN_CLASSES) and str(item) in optional:
                index += 1
        item = items[index] if index < len(items) else None
        if isinstance(item, TOKEN_CLASSES) and item.type == "SYMBOL_REF" and "::" not in item:
            return
        token = item if isinstance(item, TOKEN_CLASSES) else items[-1]
        raise self.error(f"custom op '{name}' expected valid '@'-identifier for symbol name", token)

    def generic_op(self, children: list[Any]) -> Operation:
        name_token: TokenLike = children[0]
        operands: list[Value] = []
        successors: list[Successor] = []
        properties: dict[str, Attribute] | None = None
        regions: list[Region] = []
        attributes: dict[str, Attribute] = {}
        function_type: FunctionType | None = None
        for child in children[1:]:
            if isinstance(child, ValueList):
                operands = child
            elif isinstance(child, SuccessorList):
                successors = child
            elif isinstance(child, Properties):
                properties = dict(child)
            elif isinstance(child, RegionList):
                regions = child
            elif isinstance(child, AttrDict):
                attributes = dict(child)
            elif isinstance(child, FunctionType):
                function_type = child
        assert function_type is not None
        location = self.location(name_token)
        if len(function_type.inputs) != len(operands):
            raise DiagnosticError(
                Diagnostic(
                    "error",
                    f"expected {len(operands)} operand types but had {len(function_type.inputs)}",
                    location,
                )
            )
        for value, type in zip(operands, function_type.inputs):
            self.check_type(value, type, name_token)
        name = unescape_string(str(name_token))
        problem = unknown_op_problem(name, generic=True)
        if problem is not None and op_class(name) is None:
            raise DiagnosticError(Diagnostic("error", problem, location))
        problem = unregistered_dialect_op_problem(name, True, self.allow_unregistered_dialect)
        if problem is not None:
            # MLIR reports it at the token after the name (the `(` of the operand list).
            after = name_token.end_pos
            while self.text[after] in " \t":
                after += 1
            raise DiagnosticError(Diagnostic("error", problem, self.source.location_at(after)))
        if name == ModuleOp.name and not (operands or successors or function_type.results):
            module = self._generic_module(regions, attributes, properties, location)
            if module is not None:
                return module
        for region in regions:
            entry = region.blocks[0]
            # `({\n})`: MLIR's empty region has no block (`^bb0:` alone would be one).
            if len(region.blocks) == 1 and entry.is_empty() and not entry.label_hint:
                region.blocks.clear()
        result_types = list(function_type.results)
        unfit: str | None = None
        cls = op_class(name)
        if cls is not None and issubclass(cls, DeclaredOp) and cls.definition.reads_generic():
            # MLIR reads the generic form of an op it knows as that op. Imported here: only a
            # file with the generic form of a declared op needs it.
            from streamopt.ir.generic_form import read_generic

            found = read_generic(
                cls,
                operands,
                result_types,
                properties,
                attributes,
                regions,
                len(successors),
                location,
                self.alias_values,
            )
            if isinstance(found, Operation):
                return found
            unfit = found  # What the verifier says of the generic op, if anything.
        elif cls is not None and hasattr(cls, "from_generic") and not (regions or successors):
            # A hand-written op class that reads its own generic form (util.assume.int).
            found = cls.from_generic(operands, result_types, properties, attributes, location)
            if isinstance(found, Operation):
                return found
            unfit = found
        return GenericOp(
            name,
            operands,
            result_types,
            attributes,
            properties,
            regions,
            [s.block for s in successors],
            location,
            unfit,
        )

    @staticmethod
    def _generic_module(
        regions: list[Region],
        attributes: dict[str, Attribute],
        properties: dict[str, Attribute] | None,
        location: Location,
    ) -> ModuleOp | None:
        """`"builtin.module"() ({...}) : () -> ()` is a module, which MLIR prints in its
        custom form (and a top-level one is the file's module, not wrapped in another)."""
        if len(regions) != 1 or len(regions[0].blocks) != 1 or regions[0].blocks[0].arguments:
            return None
        properties = dict(properties or {})
        name = properties.pop("sym_name", None)
        if name is not None and not isinstance(name, StringAttr):
            return None
        merged = {**properties, **attributes}
        sym_name = f"@{symbol_spelling(name.value)}" if name is not None else None
        return ModuleOp(regions[0], merged, sym_name, location)

    def generic_successors(self, children: list[Any]) -> SuccessorList:
        return SuccessorList(children)

    def generic_properties(self, children: list[Any]) -> Properties:
        return Properties(children[0])

    def generic_regions(self, children: list[Any]) -> RegionList:
        return RegionList(children)

    # -- regions and blocks ----------------------------------------------------------------

    def region_open(self, children: list[Any]) -> TokenLike:
        if len(self.regions) >= MAX_NESTING:
            raise self.error(f"regions nest more than {MAX_NESTING} levels deep", children[0])
        block = Block()
        region = Region([block])
        state = _RegionState(region, children[0])
        self.regions.append(state)
        pending = self.pending_entry_args
        if pending is not None:
            self.pending_entry_args = None
            for token, type, loc in pending:
                arg = block.add_argument(type)
                arg.debug_loc = loc
                self.define(token, [arg])
        return children[0]

    def region(self, children: list[Any]) -> Region:
        state = self.regions.pop()
        visible = self.visible
        for name in state.scope:
            del visible[name]
        if state.pending_blocks:
            name, (_, token) = next(iter(state.pending_blocks.items()))
            raise self.error(f"reference to an undefined block '{name}'", token)
        open_token: TokenLike = children[0]
        close_token: TokenLike = children[-1]
        self.region_spans[state.region] = (open_token.start_pos, close_token.end_pos)
        return state.region

    def region_body(self, children: list[Any]) -> None:
        return None

    def block(self, children: list[Any]) -> None:
        return None

    def _region_of(self, token: TokenLike, what: str) -> _RegionState:
        """The innermost region being parsed; blocks and successors only exist inside one."""
        if not self.regions:
            raise self.error(f"{what} '{token}' outside of a region", token)
        return self.regions[-1]

    def block_label(self, children: list[Any]) -> None:
        token: TokenLike = children[0]
        state = self._region_of(token, "block")
        name = str(token)
        args: list[tuple[TokenLike, Type, str | None]] = children[1] if len(children) > 1 else []
        entry = state.region.blocks[0]
        if name in state.labels:
            raise self.error(f"redefinition of block '{name}'", token)
        if (
            len(state.region.blocks) == 1
            and entry.is_empty()
            and not entry.label_hint
            and not entry.arguments
        ):
            block = entry
        else:
            pending = state.pending_blocks.pop(name, None)
            block = pending[0] if pending is not None else Block()
            state.region.add_block(block)
        block.label_hint = True
        state.labels[name] = block
        state.block = block
        for arg_token, type, loc in args:
            arg = block.add_argument(type)
            arg.debug_loc = loc
            arg.name_hint = str(arg_token)[1:]
            self.define(arg_token, [arg])

    def block_args(self, children: list[Any]) -> list[tuple[TokenLike, Type, str | None]]:
        return children

    def block_arg(self, children: list[Any]) -> tuple[TokenLike, Type, str | None]:
        loc = str(children[2]) if len(children) > 2 else None
        if len(children) > 2:
            self.note_location(children[2])
        return (children[0], children[1], loc)

    def note_location(self, token: TokenLike, in_alias: bool = False) -> None:
        """Check that `loc(...)` reads as a location and remember the aliases it names: kept
        as text, but each must be defined (location aliases may be defined after their uses,
        at the end of the file)."""
        text = str(token)
        problem = token_values.location_problem(text)
        if problem is not None:
            raise self.error_in(token, problem)
        if "#" in text:
            for match in _LOCATION_ALIAS.finditer(text):
                if match.group(1) is not None:
                    self.location_aliases.append((match.group(1), token, in_alias))

    def successor(self, children: list[Any]) -> Successor:
        token: TokenLike = children[0]
        name = str(token)
        state = self._region_of(token, "successor")
        block = state.labels.get(name)
        if block is None:
            pending = state.pending_blocks.get(name)
            if pending is None:
                pending = (Block(), token)
                state.pending_blocks[name] = pending
            block = pending[0]
        args: list[Value] = []
        if len(children) > 1:
            args = children[1]
            types: list[Type] = children[2]
            if len(types) != len(args):
                raise self.error(
                    f"expected {len(args)} types in the successor list, got {len(types)}",
                    token,
                )
            for value, type in zip(args, types):
                self.check_type(value, type, token)
        return Successor(block, args)

    # -- values and types ------------------------------------------------------------------

    def value(self, children: list[Any]) -> Value:
        return self.lookup(children[0])

    def value_list(self, children: list[Any]) -> ValueList:
        return ValueList(children)

    def type_list(self, children: list[Any]) -> TypeList:
        return TypeList(children)

    def check_type(self, value: Value, type: Type, token: TokenLike) -> None:
        """Check that `value` has `type`; give values of unknown type (forward placeholders,
        results of unmodelled ops) the type this use states, as MLIR knows it."""
        if value.type is None:
            value.type = type
            return
        if value.type != type:
            raise self.error(
                f"use of value '{str(token).split('#')[0]}' expects different type than prior "
                "uses: "
                f"'{type}' vs '{value.type}'",
                token,
            )

    def sized_type(self, children: list[Any]) -> Sized:
        first = children[0]
        if isinstance(first, TOKEN_CLASSES):
            # SIZED_TYPE: `T{%a, %b}` lexed as one token.
            text = str(first)
            brace = text.index("{%")
            type = self._type_from_token(text[:brace], first)
            sizes = [
                self.lookup_name(name.strip(), first) for name in text[brace + 1 : -1].split(",")
            ]
            self._check_size_count(type, sizes, first, brace)
            return Sized(type, sizes)
        # `T {` sizes? `}`: the brace tokens are kept to locate a wrong count.
        sizes = children[2] if len(children) == 4 else []
        self._check_size_count(first, sizes, children[1], 0)
        return Sized(first, sizes)

    def _check_size_count(self, type: Type, sizes: list[Value], token: TokenLike, at: int) -> None:
        """A resource takes one size and a shaped type one per dynamic dimension, as IREE's
        custom<SizeAwareType> and custom<ShapedTypeList> parse them."""
        if isinstance(type, ResourceType):
            expected = 1
        elif isinstance(type, ShapedType):
            expected = dynamic_dim_count(type)
        else:
            return
        if len(sizes) != expected:
            if isinstance(type, ResourceType):
                message = f"expected one size for '{type}'"
            else:
                message = (
                    f"expected {expected} dynamic dimension sizes for '{type}', got {len(sizes)}"
                )
            position = self.source.location_at(token.start_pos + at)
            raise DiagnosticError(Diagnostic("error", message, position))

    def tied_result(self, children: list[Any]) -> Tied:
        return Tied(children[0], None, children[1] if len(children) > 1 else [])

    def tied_result_as(self, children: list[Any]) -> Tied:
        sized: Sized = children[-1]
        return Tied(children[0], sized.type, sized.sizes)

    def type(self, children: list[Any]) -> Type:
        child = children[0]
        if isinstance(child, TOKEN_CLASSES):
            if child.type == "BARE_ID" and not token_values.is_builtin_type_word(str(child)):
                raise self.wrong_token_error("expected non-function type", child)
            if child.type == "BARE_ID":
                wrong_width = token_values.integer_width_problem(str(child))
                if wrong_width is not None:
                    raise self.error(wrong_width, child)
            return self._type_from_token(str(child), child)
        return child  # type: ignore[no-any-return]

    def _type_from_token(self, text: str, token: TokenLike) -> Type:
        problem = token_values.dialect_type_problem(text)
        if problem is not None:
            raise self.error(problem, token)
        self.check_registered_dialects(token)
        if text.startswith(_SHAPED_PREFIXES):
            self.check_shape(text, token)
        return token_values.type_from_text(text)

    def check_shape(self, text: str, token: TokenLike) -> None:
        """Reject a tensor, vector or memref type (`text`, which starts `token`) whose element
        type is missing or is not a type, where iree-opt does."""
        shape_problem = token_values.shaped_type_problem(text)
        if shape_problem is not None:
            raise self.error_in(token, shape_problem)

    def function_type(self, children: list[Any]) -> FunctionType:
        inputs = children[0] if len(children) == 2 else []
        results = children[-1]
        if isinstance(results, TypeList):
            return FunctionType(inputs, results)
        return FunctionType(inputs, [results])

    def type_tuple(self, children: list[Any]) -> TypeList:
        return TypeList(children[0] if children else [])

    # -- attributes ------------------------------------------------------------------------

    def attr_dict(self, children: list[Any]) -> AttrDict:
        # `{`, the entries, `}`.
        out = AttrDict()
        out.start = children[0].start_pos
        for name, value in children[1:-1]:
            out[name] = value
        return out

    def attr_entry(self, children: list[Any]) -> tuple[str, Attribute]:
        token = children[0]
        name = unescape_string(str(token)) if token.type == "STRING" else str(token)
        return (name, children[1] if len(children) > 1 else _UNIT)

    def attribute_value(self, children: list[Any]) -> Attribute:
        core = children[0]
        type: Type | None = children[1] if len(children) > 1 else None
        if isinstance(core, TOKEN_CLASSES):
            if core.type == "SHAPED":
                if isinstance(type, ShapedType):
                    self.check_dense(core, type)
                elif str(core).startswith("affine_map<"):
                    problem = token_values.affine_map_problem(str(core))
                    if problem is not None:
                        raise self.error_in(core, problem)
                elif str(core).startswith("array<"):
                    problem = token_values.dense_array(str(core))[1]
                    if problem is not None:
                        raise self.error_in(core, problem)
            elif core.type == "BARE_ID" and not token_values.is_attribute_word(str(core)):
                raise self.wrong_token_error("expected attribute value", core)
            elif core.type == "INTEGER":
                self._check_typed_integer(core, type)
            attribute = token_values.attribute_from_token(core.type, str(core), type)
            return self._checked(attribute, core, type)
        if isinstance(core, NegativeLiteral):
            literal, core = core, core.attribute
            if literal.token.type == "INTEGER":
                self._check_typed_integer(literal.token, type, negative=True)
        if isinstance(core, AttrDict):
            core = DictAttr(core)
        elif isinstance(core, FunctionType):
            core = TypeAttr(core)
        elif isinstance(core, IntegerAttr):  # A negative literal: `-7 : index`.
            return token_values.integer_attribute(core.value, core.text, type)
        elif isinstance(core, FloatAttr):  # A negative literal: `-1.5`.
            return token_values.float_attribute(core.value, core.text, type)
        if type is not None:
            return OpaqueAttr(f"{core.text} : {type.text}")
        return core  # type: ignore[no-any-return]

    def check_dense(self, token: TokenLike, type: ShapedType) -> None:
        """Reject a `dense<...>` attribute (`token`) that its shaped type `type` does not
        allow, as iree-opt does (see `token_values.dense_problem`)."""
        text = str(token)
        if not text.startswith("dense<"):
            return
        problem = token_values.dense_problem(text, type)
        if problem is not None:
            raise self.error_in(token, problem)

    def _check_typed_integer(
        self, token: TokenLike, type: Type | None, negative: bool = False
    ) -> None:
        """Refuse the integer literal `token` (after a `-` if `negative`) where its `type`
        (None: i64) does not hold it, as MLIR does (at the literal, past any `-`)."""
        aliased = None
        if type is not None:
            aliased = cast(Type, self.alias_values.get(type.text, type))  # `!t = i32` is i32.
        wrong = token_values.typed_integer_problem(str(token), aliased, negative)
        if wrong is not None:
            found = Diagnostic("error", wrong, self.location(token))
            if wrong == token_values.DECIMAL_FOR_FLOAT:
                found.attach_note(_FLOAT_DOT, self.location(token))
            raise DiagnosticError(found)

    def negative_number(self, children: list[Any]) -> NegativeLiteral:
        token = children[0]
        if token.type == "INTEGER":
            value = IntegerAttr(-token_values.integer_literal(str(token)), None, f"-{token}")
            return NegativeLiteral(token, value)
        return NegativeLiteral(token, FloatAttr(-float(str(token)), None, f"-{token}"))

    def array_attr(self, children: list[Any]) -> ArrayAttr:
        return ArrayAttr(children)

    def attr_keyword(self, children: list[Any]) -> Clause:
        attributes: AttrDict = children[-1]
        attributes.start = children[0].start_pos
        return AttributesClause("attributes", attributes)

    def affinity_on(self, children: list[Any]) -> Clause:
        return self.affinity_clause("on", children[-1])

    def from_clause(self, children: list[Any]) -> Clause:
        return self.affinity_clause("from", children[-1])

    def to_clause(self, children: list[Any]) -> Clause:
        return self.affinity_clause("to", children[-1])

    def affinity_clause(self, keyword: str, token: TokenLike) -> Clause:
        """`keyword(#attr)` from the ATTR_REF token (or the whole `on(#attr)` token), with the
        attribute checked as IREE checks an affinity (see `_checked`)."""
        return Clause(keyword, self._checked(_clause_attribute(token), token))

    def _checked(self, attr: Attribute, token: TokenLike, type: Type | None = None) -> Attribute:
        """`attr`, unless it is an affinity, a promise or an optimal affinity the grammar could
        not read (or one with no affinities, or a member it could not read): IREE's syntax for
        those is fixed (`<@device>`, `<@device, [queues]>`, `<[affinity, ...]>`) and IREE
        rejects any other, so streamopt does too, instead of keeping it as written. Nor may it
        (or an attribute inside it) be a hal, stream or util attribute IREE does not define, or
        one of a dialect iree-opt does not register. `type` is the one written after it, if
        any."""
        self.check_dialect_attributes(token, type)
        if token.type == "SHAPED" and str(token).startswith(_SHAPED_PREFIXES):
            self.check_shape(str(token), token)
        malformed = isinstance(attr, OpaqueAttr) and attr.text.startswith(_DEVICE_ATTRIBUTES)
        if isinstance(attr, OptimalAffinityAttr):
            # Its affinities: one or more, each read as one (or an alias).
            inner = attr.affinities
            malformed = not inner or any(isinstance(a, OpaqueAttr) for a in inner)
        if malformed:
            kind = attr.text[: attr.text.index("<")]
            raise self.error(f"invalid '{kind}' attribute: expected {_DEVICE_SYNTAX[kind]}", token)
        return attr

    def note_aliases(self, text: str, start: int) -> None:
        """Remember the first use of each alias named inside `text` (an executable's body),
        which starts at offset `start`: checked once the file is read."""
        for alias, offset in token_values.aliases_named(text):
            if alias not in self.named_aliases:
                self.named_aliases[alias] = start + offset

    def check_aliases_defined(self, token: TokenLike) -> None:
        """Reject an alias `token` names (`#alias`, `!alias`, also inside a `<...>`) that no
        definition before it defines: MLIR's parser looks each up where it reads it (only a
        location's alias may be defined later)."""
        for alias, offset in token_values.aliases_named(str(token)):
            if alias not in self.alias_values:
                raise self.error_in(token, (offset, f"undefined symbol alias id '{alias[1:]}'"))

    def check_dialect_attributes(self, token: TokenLike, type: Type | None = None) -> None:
        """Reject an attribute in `token` whose `<...>` body nests its brackets wrongly, a hal,
        stream or util attribute that IREE does not define (or a `#hal.device.target` of the
        wrong shape), an alias not defined before it, and an attribute or type of a dialect
        iree-opt does not register (unless `--allow-unregistered-dialect`), located where
        iree-opt locates it. `type` is the type written after the token, if any."""
        text = str(token)
        problem = self._pretty_body_problem(token, text)
        if problem is None:
            self.check_aliases_defined(token)
            problem = token_values.dialect_attribute_problem(text)
        if not self.allow_unregistered_dialect:
            type_text = type.text if type is not None else None
            unregistered = token_values.unregistered_dialect_problem(text, type_text)
            if unregistered is not None and (problem is None or unregistered[0] < problem[0]):
                problem = unregistered
        if problem is not None:
            raise self.error_in(token, problem)

    def _pretty_body_problem(self, token: TokenLike, text: str) -> tuple[int, str] | None:
        """token_values.pretty_body_problem of `token` (its `text`), located as MLIR locates it:
        MLIR reads `->` in a body as one token, so a body the lexer's token closes at the `>`
        of a `->` goes on past the token, and MLIR's scan with it (to a string it reports at:
        `!foo.bar<-><"s">`)."""
        problem = token_values.pretty_body_problem(text)
        if problem is None:
            return None
        start = token.start_pos
        wider = token_values.first_pretty_body_problem(self.parsed_text, start, start + len(text))
        return (wider[0] - start, wider[1]) if wider is not None else problem

    def check_registered_dialects(self, token: TokenLike) -> None:
        """Reject an attribute or type in `token` whose `<...>` body nests its brackets
        wrongly, an alias not defined before it, or, unless `--allow-unregistered-dialect` was
        given, an attribute or type of a dialect iree-opt does not register, located where
        iree-opt locates it."""
        text = str(token)
        problem = self._pretty_body_problem(token, text)
        if problem is None:
            self.check_aliases_defined(token)
            if not self.allow_unregistered_dialect:
                problem = token_values.unregistered_dialect_problem(text)
        if problem is not None:
            raise self.error_in(token, problem)

    def await_clause(self, children: list[Any]) -> Clause:
        value = children[-1]
        if isinstance(value, TOKEN_CLASSES):
            return Clause("await", None)  # `await()`: none.
        if value.type is None:
            # `await(%t)` spells no type: it is a timepoint (an unmodelled op's result, say).
            value.type = TIMEPOINT
        return Clause("await", value)

    def operand_range(self, children: list[Any]) -> OperandRange:
        values = [c for c in children if not isinstance(c, TOKEN_CLASSES)]
        return OperandRange(values[0], values[1], values[2], values[3])

    def dispatch_operands(self, children: list[Any]) -> Operands:
        return Operands(children)

    def shaped_types(self, children: list[Any]) -> ShapedTypes:
        return ShapedTypes(children)

    def shaped_results(self, children: list[Any]) -> ShapedResults:
        return ShapedResults(children)

    def dispatch_entry_points(self, children: list[Any]) -> EntryPoints:
        return EntryPoints(symbol_ref_from_text(str(c)) for c in children)

    # -- attribute bodies (start rules) ----------------------------------------------------

    def attr_affinity(self, children: list[Any]) -> Any:
        return token_values.affinity_from_parts("affinity", children)

    def attr_promise(self, children: list[Any]) -> Any:
        return token_values.affinity_from_parts("promise", children)

    def attr_optimal(self, children: list[Any]) -> Any:
        return token_values.optimal_from_parts(children)

    def attr_topology(self, children: list[Any]) -> Any:
        return token_values.topology_from_parts(children)

    def topology_link(self, children: list[Any]) -> Any:
        return token_values.link_from_parts(children)


# Tokens that stay in known ops' children: named terminals that carry data.
# The classes of the parts of an op that hold its attribute dictionary.
_HOLDS_ATTR_DICT = frozenset((AttrDict, AttributesClause))

_KEPT_TOKENS = frozenset(
    {
        "VALUE_ID",
        "SYMBOL_REF",
        "BARE_ID",
        "INTEGER",
        "FLOAT",
        "STRING",
        "ATTR_REF",
        "TYPE_REF",
        "SHAPED",
        "BLOCK_ID",
        "LOC",
        "ON",
        "FROM",
        "TO",
        "AWAIT",
        "WITH",
        "AS",
        "FOR",
        "ATTRIBUTES",
    }
)


# The affinity attributes whose syntax IREE fixes, and that syntax.
_DEVICE_SYNTAX = {
    "#hal.device.affinity": "<@device> or <@device, [queues]>",
    "#hal.device.promise": "<@device> or <@device, [queues]>",
    "#hal.device.optimal": "<[affinity, ...]>",
}
_DEVICE_ATTRIBUTES = tuple(f"{kind}<" for kind in _DEVICE_SYNTAX)
_SHAPED_PREFIXES = ("tensor<", "vector<", "memref<")
# An alias in a location (`loc(#loc3)`, `callsite(#loc1 at #loc2)`), past its strings.
_LOCATION_ALIAS = lazy_compile(r'"(?:[^"\\\n]|\\.)*"|(#[A-Za-z_][\w$.\-]*)')


def _clause_attribute(token: Any) -> Attribute:
    """The attribute of `on(#a)`, given the ATTR_REF token or the whole ON_AFFINITY token."""
    text = str(token)
    if token.type != "ATTR_REF":
        text = text[text.index("(") + 1 : -1]
    return token_values.attribute_from_token("ATTR_REF", text, None)


def _format_group(index: int, children: list[Any]) -> FormatGroup:
    parts = [c for c in children if c.__class__ is not Token or c.type in _KEPT_TOKENS]
    return FormatGroup(index, parts)


def op_result_for(op: Operation, index: int) -> Any:
    return OpResult(op, index, None)


def _is_numeric_name(name: str) -> bool:
    return name[1:].isdigit()


def _flatten(children: list[Any], out: list[Any]) -> None:
    """Append the leaves of the nested lists `children` to `out`, in order."""
    # An explicit stack: an unmodelled op's brackets may nest arbitrarily deep.
    stack = [iter(children)]
    while stack:
        child = next(stack[-1], _DONE)
        if child is _DONE:
            stack.pop()
        elif isinstance(child, list):
            stack.append(iter(child))
        else:
            out.append(child)


_DONE = object()


def _angle_body(levels: int) -> str:
    """The balanced `<...>` body of ATTR_REF, TYPE_REF and SHAPED in grammar/stream.lark
    (`_B3` for 3 levels), for lines without strings."""
    body = r"(?:[^<>\"\-\n]|->|-)*"
    for _ in range(levels):
        body = rf"(?:[^<>\"\-\n]|->|-|<{body}>)*"
    return body


# A value name as VALUE_ID lexes it, captured so that `split` keeps it.
_VALUE_NAME = lazy_compile(r"(%[A-Za-z0-9_$.\-]+(?:#[0-9]+)?)")
# A value name (captured), or an attribute or a type, whose text is kept whole.
_NAME_OR_BODY = lazy_compile(
    rf"[#!][A-Za-z_][A-Za-z0-9_$.\-]*(?:<{_angle_body(3)}>)?"
    r"|(?:tensor|vector|memref|complex|tuple|dense|dense_resource|sparse|affine_map|affine_set"
    rf"|array|strided|opaque)<{_angle_body(3)}>"
    r"|(%[A-Za-z0-9_$.\-]+(?:#[0-9]+)?)"
)


def _first_value(builder: Builder, name: str) -> Value | None:
    """The value `name` (no `#N`) denotes in `builder`'s scopes, if defined."""
    group = builder.visible.get(name)
    if group is None:
        group = builder.top_scope.get(name)
    if group is None or group.__class__ is not list:
        return group  # type: ignore[return-value]
    assert isinstance(group, list)
    return group[0] if group else None


def _abstract_names(pieces: list[str]) -> tuple[str, list[str]] | None:
    """The text of `_VALUE_NAME.split` pieces with each name replaced by `%N`, N the number of
    its first occurrence, and the names in that order; None if a name has a result number."""
    numbers: dict[str, int] = {}
    names: list[str] = []
    pieces = list(pieces)
    for i in range(1, len(pieces), 2):
        name = pieces[i]
        number = numbers.get(name)
        if number is None:
            if "#" in name:
                return None
            number = numbers[name] = len(names)
            names.append(name)
        pieces[i] = f"%{number}"
    return "".join(pieces), names


def _names_in_bodies(pieces: list[str]) -> bool:
    """True if some name of the `_VALUE_NAME.split` pieces is inside `<...>`."""
    depth = 0
    for i in range(0, len(pieces) - 1, 2):
        piece = pieces[i]
        depth += piece.count("<") - piece.count(">") + piece.count("->") + piece.count("=>")
        if depth:
            return True
    return False


def _split_outside_bodies(line: str) -> list[str]:
    """`_VALUE_NAME.split(line)`, but with the names in attribute and type bodies kept in the
    text around them."""
    pieces: list[str] = []
    cursor = 0
    for match in _NAME_OR_BODY.finditer(line):
        if match.group(1) is not None:
            pieces.append(line[cursor : match.start()])
            pieces.append(match.group(1))
            cursor = match.end()
    pieces.append(line[cursor:])
    return pieces


# The `_NL` terminal: a line break with any blank or comment lines and indentation after it.
_NEWLINE = lazy_compile(r"(?:\r?\n[\t \f]*(?://[^\n]*)?)+")
# A template: the op, the name number of each operand, the operand types, the number of
# results, the lexer of the token after the line, and the attributes its copies share.
_Template = tuple[Operation, tuple[int, ...], list[Any], int, int, SharedAttributes]
_TemplateKey = tuple[int, str, int, str]
# Templates kept per parse: enough for the distinct op shapes of any real dump, and a bound on
# what a file of all-different lines makes the parser keep.
_MAX_TEMPLATES = 4096


class LineTemplates:
    """Builds a known op from a line that differs from an earlier one only in its value names.

    Large dumps repeat a few op shapes thousands of times (`%12 = stream.async.clone on(..)
    %11 : T{%c16} -> T{%c16}`). A line's template key is its text with each value name replaced
    by the number of its first occurrence (so which names are equal is part of the key), with
    the parser state that would shift its first token and that token's terminal. The first
    line of a key is parsed; when it is one known op without regions, successors or a location,
    whose operands are the values of the names on the line, every one of them, the op is kept
    as the template. A later line of the same key gets a copy of it (class, attributes, result
    types, op-specific state) over the values its own names denote, provided each is defined
    and has the type the template's operand had, and no result name is taken; otherwise the
    line is parsed, which reports any error as before. Parsing the line would build an equal
    op: every check and choice of an op's parse depends only on the line's text without its
    names, on which names are equal, and on the operands' types.
    """

    __slots__ = ("_builder", "_pending", "_templates")

    def __init__(self, builder: Builder) -> None:
        self._builder = builder
        self._templates: dict[_TemplateKey, _Template]
        self._templates = {}
        self._pending: tuple[_TemplateKey, list[str]] | None = None

    def clear(self) -> None:
        """Forget the templates of the last parse."""
        self._templates = {}
        self._pending = None

    def reuse(self, text: str, first: Token, state: int) -> tuple[Any, int, int] | None:
        """The op of the line starting with `first`, the offset after its newline and the
        lexer of the next token, or None to parse the line (see `lalr.LineReuse`)."""
        self._pending = None
        begin = first.start_pos
        newline = text.find("\n", begin)
        if newline < 0:
            return None
        line = text[begin:newline]
        if '"' in line or "^" in line or "loc(" in line or line.endswith("{"):
            return None
        # The first token was lexed in the context of the line before: a name's length is
        # the key's business, any other token's must be the same.
        spelled = -1 if first.type == "VALUE_ID" else first.end_pos - begin
        pieces = _VALUE_NAME.split(line)
        abstracted = _abstract_names(pieces)
        if abstracted is None:
            return None
        key = (state, first.type, spelled, abstracted[0])
        template = self._templates.get(key)
        if template is None and _names_in_bodies(pieces):
            # A `%` inside an attribute's or a type's `<...>` is not a value (and HAL ops
            # put values in angle brackets): split again, exactly. Whether that is needed
            # depends on the text around the names only, which the first key holds.
            abstracted = _abstract_names(_split_outside_bodies(line))
            if abstracted is None:
                return None
            key = (state, first.type, spelled, abstracted[0])
            template = self._templates.get(key)
        names = abstracted[1]
        if template is None:
            self._pending = (key, names)
            return None
        if template[3]:
            # An op is located at its name, after the result list's `=` (names hold none).
            begin = text.index("=", begin) + 1
            while text[begin] in " \t":
                begin += 1
        op = self._instantiate(template, names, begin)
        if op is None:
            return None
        end = _NEWLINE.match(text, newline)
        assert end is not None
        return op, end.end(), template[4]

    def parsed(self, children: list[Any], value: Any, lexer: int) -> None:
        """Keep the op of the line last offered to `reuse` as its key's template, if it can
        be one."""
        pending = self._pending
        self._pending = None
        if pending is None or len(self._templates) >= _MAX_TEMPLATES:
            return
        key, names = pending
        op = value
        if (
            not isinstance(op, Operation)
            or OPS.get(op.name) is not op.__class__
            or op.regions
            or op.successors
            or op.debug_loc is not None
        ):
            return
        first = children[0]
        groups: list[tuple[TokenLike, int]] = first if isinstance(first, list) else []
        results = len(groups)
        if len(op.results) != results or any(count != 1 for _, count in groups):
            return
        if [str(token) for token, _ in groups] != names[:results]:
            return
        builder = self._builder
        number_of: dict[int, int] = {}
        for number in range(results, len(names)):
            value = _first_value(builder, names[number])
            if value is None:
                return
            number_of[id(value)] = number
        slots: list[int] = []
        for operand in op.operands:
            found = number_of.get(id(operand))
            if found is None or operand.type is None:
                return
            slots.append(found)
        if len(set(slots)) != len(names) - results:
            return  # A name on the line that is no operand: maybe not a value at all.
        types = [operand.type for operand in op.operands]
        # The template and its copies share one attribute dictionary until one is changed.
        shared = op.attributes = SharedAttributes(op.attribute_map)
        self._templates[key] = (op, tuple(slots), types, results, lexer, shared)

    def _instantiate(
        self,
        template: _Template,
        names: list[str],
        begin: int,
    ) -> Operation | None:
        builder = self._builder
        if builder.forward_refs:
            return None  # Defining a result may resolve one: the parse checks that.
        prototype, slots, types, results, _, shared = template
        visible = builder.visible
        top_scope = builder.top_scope
        taken = visible if builder.regions else top_scope
        for name in names[:results]:
            if name in taken:
                return None
        values: list[Value] = []
        for name in names[results:]:
            value = _first_value(builder, name)
            if value is None:
                return None
            values.append(value)
        operands = [values[slot - results] for slot in slots]
        for operand, expected in zip(operands, types):
            if operand.type is not expected and operand.type != expected:
                return None
        cls = prototype.__class__
        op = cls.__new__(cls)
        Operation.__init__(
            op,
            operands,
            [result.type for result in prototype.results],
            shared,
        )
        op.locate_at(builder.source, begin)
        prototype._copy_extra_state(op)
        for result, name in zip(op.results, names):
            if not _is_numeric_name(name):
                result.name_hint = name[1:]
            builder.define(name, [result])
        builder._current_block().append(op)
        return op
