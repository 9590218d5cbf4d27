"""MLIR's declarative assembly format, read once per op and compiled into its printer, the
reader of its grammar rule's parts, and the grammar rule itself.

An op declares its syntax as ODS does (`assemblyFormat` in IREE's *.td files):

    `<` $device `:` type($device) `>` `flags` `(` $flags `)`
    `:` custom<SizeAwareType>(type($result), $result_size) attr-dict-with-keyword

Elements: `literal`s in backticks (`` `` `` is "no space here"), `$name` (an operand, a result
or an attribute of the op), `type($name)` (or `qualified(type($name))`: streamopt always prints
types qualified), `functional-type($operands, $results)`, `attr-dict`, `attr-dict-with-keyword`,
`custom<Name>(args...)` (a `CustomDirective` registered under that name), and optional groups
`(elements)?` whose anchor `^` says which element's presence decides the group, with an else
branch `(elements) : (elements)?`.

From the format come (`CompiledFormat`):

* `grammar()`: the body of the op's Lark rule (grammar/stream.lark), one terminal or shared rule
  per element; an optional group is a rule of its own, so its parts arrive as one
  `FormatGroup`. A test checks the grammar file's rule of every declared op against it.
* `builder_source()`: Python code reading the parts the grammar hands over (in format order)
  into operands, result types and attributes, then making the op.
* `printer_source()`: Python code printing the op with MLIR's spacing rules
  (`shouldEmitSpaceBefore` in mlir-tblgen's OpFormatGen.cpp): no space before `)`, `]`, `,`,
  `>` and after `(`, `[`, `{`, `<`; a space before every other element.

`opdef.generated_function` runs that code and keeps it compiled in the cache directory, so a
run whose ops' code is cached does not import this module.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from streamopt.ir.opdef import CUSTOM_DIRECTIVES, KEYWORD_TOKENS
from streamopt.lazy_regex import lazy_compile

if TYPE_CHECKING:
    from streamopt.ir.opdef import OpDefinition


class FormatError(Exception):
    """A format string that does not follow the declarative syntax (a bug in an op class)."""


# -- elements ----------------------------------------------------------------------------------


class Literal(NamedTuple):
    text: str  # "", " " and `\n` (_NEWLINE) are whitespace elements.


_NEWLINE = "\\n"  # A `\n` literal, as written in the format.


class Variable(NamedTuple):
    name: str


class TypeOf(NamedTuple):
    name: str


class FunctionalType(NamedTuple):
    """`functional-type($inputs, $results)`: `(T, U) -> V`, the types of two fields."""

    inputs: str
    results: str


class AttrDictElement(NamedTuple):
    keyword: bool


class Custom(NamedTuple):
    name: str
    args: tuple[Variable | TypeOf, ...]


class Optional(NamedTuple):
    then: tuple[Any, ...]  # Elements.
    otherwise: tuple[Any, ...]
    anchor: Variable | TypeOf | Custom
    number: int  # Numbers the op's optional groups (their grammar rules).


class Fused(NamedTuple):
    """Elements the grammar reads as one shared rule, for speed and for the coarse tokens it
    has (`T{%s}` is one token, so is `on(#aff)`): `kind` is "sized" (`type($x) `{` $s `}``),
    "clause" (an optional `kw `(` $x^ `)`` group), or "arrow" (`=` `` `>`). `names` are the
    fields it sets; `original` the elements as written, which the printer prints."""

    kind: str
    names: tuple[str, ...]
    grammar: str
    original: tuple[Any, ...]


Element = Literal | Variable | TypeOf | FunctionalType | AttrDictElement | Custom | Optional | Fused

# The shared grammar rules of `kw `(` $x `)`` clauses, by keyword; each reduces to a
# `Clause(kw, value)` (streamopt.parser.builder).
CLAUSE_RULES = {
    "on": "affinity_on",
    "from": "from_clause",
    "to": "to_clause",
    "await": "await_clause",
    "for": "hal_for_affinity",
}


def _fuse(elements: Sequence[Element], definition: OpDefinition) -> tuple[Element, ...]:
    """`elements` with the runs the grammar reads as one rule replaced by `Fused`."""
    out: list[Element] = []
    items = list(elements)
    i = 0
    while i < len(items):
        # A sized type may have a `` between the type and its `{`.
        skip = int(isinstance(items[i], TypeOf) and items[i + 1 : i + 2] == [Literal("")])
        match [items[i], *items[i + 1 + skip : i + 5]]:
            case [TypeOf(type_name), Literal("{"), Variable(size), Literal("}"), *_] if (
                size in definition.operands
                and not definition.is_variadic(type_name)
                and not definition.is_variadic(size)
            ):
                end = i + 4 + skip
                out.append(Fused("sized", (type_name, size), "sized_type", tuple(items[i:end])))
                i = end
            case [Literal("="), Literal(""), Literal(">"), *_]:
                out.append(Fused("arrow", (), '"=>"', tuple(items[i : i + 3])))
                i += 3
            case [
                Optional([Literal(keyword), Literal("("), Variable(name), Literal(")")], []),
                *_,
            ] if keyword in CLAUSE_RULES:
                out.append(
                    Fused("clause", (keyword, name), CLAUSE_RULES[keyword] + "?", (items[i],))
                )
                i += 1
            case [Optional(then, otherwise) as group, *_]:
                fused = (_fuse(then, definition), _fuse(otherwise, definition))
                out.append(group._replace(then=fused[0], otherwise=fused[1]))
                i += 1
            case [element, *_]:
                out.append(element)
                i += 1
    return tuple(out)


# -- reading the format string -----------------------------------------------------------------

_TOKEN = lazy_compile(
    r"\s*(?:(?P<literal>`[^`]*`)|(?P<variable>\$[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<keyword>attr-dict-with-keyword|attr-dict|functional-type|type|ref|qualified|custom)"
    r"(?![A-Za-z0-9_])"
    r"|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)|(?P<punct>[()?^:,<>]))"
)


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    position = 0
    text = text.strip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            raise FormatError(f"cannot read the format at {text[position:]!r}")
        out.append(match.group(match.lastgroup or 0))
        position = match.end()
    return out


class _FormatParser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.position = 0
        self.groups = 0

    def peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise FormatError(f"expected {expected!r}, found {token!r}")
        self.position += 1
        return token

    def elements(self, until: str | None = None) -> tuple[list[Element], Element | None]:
        out: list[Element] = []
        anchor: Element | None = None
        while self.peek() is not None and self.peek() != until:
            element = self.element()
            if self.peek() == "^":
                self.take()
                anchor = element
            out.append(element)
        return out, anchor

    def argument(self) -> Variable | TypeOf:
        token = self.take()
        if token in ("type", "ref", "qualified"):
            # `ref(...)` and `qualified(...)` are what they hold (`ref($x)` is `$x`,
            # `qualified(type($x))` is `type($x)`).
            self.take("(")
            found = TypeOf(self.take()[1:]) if token == "type" else self.argument()
            self.take(")")
            return found
        if not token.startswith("$"):
            raise FormatError(f"expected a variable, found {token!r}")
        return Variable(token[1:])

    def element(self) -> Element:
        token = self.peek()
        assert token is not None
        if token.startswith("$") or token in ("type", "qualified"):
            return self.argument()
        self.take()
        if token == "functional-type":
            self.take("(")
            inputs = self.argument()
            self.take(",")
            results = self.argument()
            self.take(")")
            return FunctionalType(inputs.name, results.name)
        if token.startswith("`"):
            return Literal(token[1:-1])
        if token in ("attr-dict", "attr-dict-with-keyword"):
            return AttrDictElement(token == "attr-dict-with-keyword")
        if token == "custom":
            self.take("<")
            name = self.take()
            if name.startswith("$"):
                raise FormatError("custom<> needs a name")
            self.take(">")
            self.take("(")
            args: list[Variable | TypeOf] = []
            while self.peek() != ")":
                args.append(self.argument())
                if self.peek() == ",":
                    self.take()
            self.take(")")
            return Custom(name, tuple(args))
        if token == "(":
            then, anchor = self.elements(")")
            self.take(")")
            otherwise: list[Element] = []
            if self.peek() == ":":
                self.take()
                self.take("(")
                otherwise, _ = self.elements(")")
                self.take(")")
            self.take("?")
            if anchor is None:
                anchor = next((e for e in then if not isinstance(e, Literal)), None)
            if not isinstance(anchor, (Variable, TypeOf, Custom)):
                raise FormatError("an optional group needs an anchor")
            self.groups += 1
            return Optional(tuple(then), tuple(otherwise), anchor, self.groups - 1)
        raise FormatError(f"unexpected {token!r} in a format")


# -- compiled formats --------------------------------------------------------------------------


class CompiledFormat:
    """One op's format compiled against its definition."""

    def __init__(
        self, definition: OpDefinition, elements: tuple[Element, ...], rule_prefix: str
    ) -> None:
        self.definition = definition
        self.elements = elements
        self.rule_prefix = rule_prefix
        # The optional operands that anchor a group a literal opens (`await(` $t^ `)`): MLIR
        # reads the group with the operand left out (`await()`), as if it were not written.
        self.may_be_left_out = {
            e.anchor.name
            for e in _walk(elements)
            if isinstance(e, Optional)
            and isinstance(e.anchor, Variable)
            and e.anchor.name in definition.operands
            and definition.operands[e.anchor.name].optional
            and _opened_by_literal(e)
        }

    def written_fields(self) -> set[str]:
        """The fields every op written in this format spells: those outside optional groups
        and custom directives (where ODS's required attributes are written)."""
        found: set[str] = set()
        for element in self.elements:
            if isinstance(element, Variable):
                found.add(element.name)
            elif isinstance(element, Fused) and element.kind != "clause":
                found.update(element.names)
        return found

    # -- grammar ---------------------------------------------------------------------------

    def grammar(self) -> str:
        """The op rule's body (after the op name's literal), then one `\\n`-separated rule
        per optional group."""
        extra: list[str] = []
        body = self._grammar(self.elements, extra)
        return "\n".join([body, *extra])

    def _grammar(self, elements: Sequence[Element], extra: list[str]) -> str:
        pieces: list[str] = []
        for element in elements:
            if isinstance(element, Optional):
                rule = f"{self.rule_prefix}__g{element.number}"
                then = self._grammar(element.then, extra)
                anchor = element.anchor
                if isinstance(anchor, Variable) and self.definition.is_variadic(anchor.name):
                    # A group anchored on a list is printed only when the list is not empty;
                    # MLIR reads an empty one after a literal that opens the group, with no
                    # types (`[]`: no workload). Not in a group that opens with `{`
                    # (tensor.sizeof's), whose `{}` the grammar could not tell from an empty
                    # attribute dictionary.
                    opened = _opened_by_literal(element)
                    # (A NamedTuple equals any tuple of its values: TypeOf(x) == Variable(x).)
                    typed = any(
                        isinstance(e, TypeOf) and e.name == anchor.name for e in element.then
                    )
                    if not opened or typed:
                        then = then.replace("value_list?", "value_list", 1)
                    if typed:
                        then = then.replace("type_list?", "type_list", 1)
                extra.append(f"!{rule}: {then}")
                if element.otherwise:
                    pieces.append(f"({rule} | {self._grammar(element.otherwise, extra)})")
                else:
                    pieces.append(f"{rule}?")
            elif isinstance(element, Fused):
                pieces.append(element.grammar)
            elif isinstance(element, Literal):
                if element.text.strip() and element.text != _NEWLINE:
                    pieces.append('"' + element.text + '"')
            else:
                pieces.append(self._element_grammar(element))
        return " ".join(p for p in pieces if p)

    def _element_grammar(self, element: Element) -> str:
        definition = self.definition
        if isinstance(element, AttrDictElement):
            return "attr_keyword?" if element.keyword else "attr_dict?"
        if isinstance(element, Custom):
            return CUSTOM_DIRECTIVES[element.name].grammar
        if isinstance(element, FunctionalType):
            return "function_type"
        if isinstance(element, TypeOf):
            if definition.is_variadic(element.name):
                return "type_list?"
            field = definition.operands.get(element.name) or definition.results.get(element.name)
            return "(type | function_type)" if field and field.function_type else "type"
        assert isinstance(element, Variable)
        name = element.name
        if name in definition.attributes:
            return definition.attributes[name].kind.grammar
        if name in definition.regions:
            return "region"
        if definition.is_variadic(name):
            return "value_list?"
        return "value?" if name in self.may_be_left_out else "value"

    # -- parsing ---------------------------------------------------------------------------

    def builder_source(self) -> str:
        """The reader of the parts as Python code (`build_op(cls, reader, parts, location)`,
        run in `opdef.builder_namespace`): one step per element, in format order (the
        positions of optional parts are known only when reading), then the fixed types and
        checks of the fields, then the op."""
        definition = self.definition
        lines = ["def build_op(cls, reader, parts, location):"]
        literals = [e.text.upper() for e in _walk(self.elements) if isinstance(e, Literal)]
        if KEYWORD_TOKENS.intersection(literals):
            # A literal of the format reaches the parts as a keyword token.
            lines.append("    parts = [p for p in parts if not is_keyword(p)]")
        lines += [
            "    n = len(parts)",
            "    i = 0",
            "    ops = reader.operands",
            "    attrs = reader.attributes",
            "    rts = reader.result_types",
        ]
        self._parse_code(self.elements, lines, "    ", "parts", "i", "n")
        lines.append(f"    assert i == n, {definition.name!r}")
        spelled = {e.name for e in _walk(self.elements) if isinstance(e, TypeOf)}
        for e in _walk(self.elements):
            if isinstance(e, FunctionalType):
                spelled.update((e.inputs, e.results))
        spelled.update(
            a.name
            for e in _walk(self.elements)
            if isinstance(e, Custom)
            for a in e.args
            if isinstance(a, TypeOf)
        )
        for field in definition.operand_list:
            name = field.name
            if definition.use_types[name] is None or (field.type is None and name in spelled):
                continue
            if field.variadic:
                lines.append(f"    for value in ops.get({name!r}, ()):")
                lines.append(f"        check_type(value, fixed[{name!r}], location)")
            else:
                lines.append(f"    if ops.get({name!r}) is not None:")
                lines.append(f"        check_type(ops[{name!r}], fixed[{name!r}], location)")
        for field in definition.operand_list:
            name, source = field.name, field.same_as
            if source is None or name in spelled:
                continue
            if source in definition.results:
                lines.append(f"    want = rts.get({source!r})")
            else:
                lines.append(f"    want = getattr(ops.get({source!r}), 'type', None)")
            values = f"ops.get({name!r}) or ()" if field.variadic else f"[ops.get({name!r})]"
            lines.append(f"    for value in ({values}) if want is not None else ():")
            lines.append("        if value is not None:")
            lines.append("            check_type(value, want, location)")
        for name, _ in definition.checked:
            if name in definition.results:
                lines.append(f"    found = rts.get({name!r})")
            else:
                lines.append(f"    found = getattr(ops.get({name!r}), 'type', None)")
            lines.append("    if found is not None:")
            lines.append(f"        checks[{name!r}](found, location)")
        operands: list[str] = []
        for field in definition.operand_list:
            name = field.name
            if field.variadic:
                operands.append(f"*ops.get({name!r}, ())")
            elif field.optional:
                operands.append(f"*((ops[{name!r}],) if ops.get({name!r}) is not None else ())")
            else:
                operands.append(f"ops[{name!r}]")
        types: list[str] = []
        for result in definition.result_list:
            if result.variadic and result.same_as is not None:
                types.append(f"*[v.type for v in ops.get({result.same_as!r}, ())]")
            elif result.variadic:
                types.append(f"*rts.get({result.name!r}, ())")
            elif result.same_as is not None:
                # A type the format spells wins (the verifier compares them, as ODS's does).
                types.append(f"rts.get({result.name!r}) or ops[{result.same_as!r}].type")
            else:
                types.append(f"rts.get({result.name!r}, results[{result.name!r}])")
        regions = [
            f"drop_terminator(reader.regions[{name!r}], {f.terminator!r})"
            if f.terminator
            else f"reader.regions[{name!r}]"
            for name, f in definition.regions.items()
        ]
        segments = ", segments=segments_of(ops)" if definition.segmented else ""
        lines.append(
            f"    return cls([{', '.join(operands)}], [{', '.join(types)}], attrs, "
            f"[{', '.join(regions)}], location=location{segments}, **reader.extra)"
        )
        return "\n".join(lines)

    def _parse_code(
        self,
        elements: Sequence[Element],
        lines: list[str],
        indent: str,
        parts: str,
        i: str,
        n: str,
    ) -> None:
        definition = self.definition
        part = f"{parts}[{i}]"
        maybe = f"({parts}[{i}] if {i} < {n} else None)"
        for element in elements:
            if isinstance(element, Literal):
                continue
            if isinstance(element, Fused):
                if element.kind == "sized":
                    type_name, size_name = element.names
                    lines += [
                        f"{indent}sized = {part}",
                        f"{indent}{i} += 1",
                        f"{indent}if len(sized.sizes) != 1:",
                        f"{indent}    raise error(f\"expected one size for '{{sized.type}}'\", "
                        "reader.location)",
                        f"{indent}ops[{size_name!r}] = sized.sizes[0]",
                        self._set_type_code(indent, type_name, "sized.type"),
                    ]
                elif element.kind == "clause":
                    keyword, name = element.names
                    target = "attrs" if name in definition.attributes else "ops"
                    lines += [
                        f"{indent}clause = {maybe}",
                        f"{indent}if isinstance(clause, Clause) and clause.kind == {keyword!r}:",
                        f"{indent}    {target}[{name!r}] = clause.value",
                        f"{indent}    {i} += 1",
                    ]
                continue
            if isinstance(element, Optional):
                depth = len(indent)
                inner, inner_i, inner_n = f"g{depth}", f"gi{depth}", f"gn{depth}"
                lines += [
                    f"{indent}group = {maybe}",
                    f"{indent}if group.__class__ is FormatGroup and group.group == "
                    f"{element.number}:",
                    f"{indent}    {i} += 1",
                    f"{indent}    {inner} = [p for p in group.parts if not is_keyword(p)]",
                    f"{indent}    {inner_n} = len({inner})",
                    f"{indent}    {inner_i} = 0",
                ]
                self._parse_code(element.then, lines, indent + "    ", inner, inner_i, inner_n)
                lines.append(f"{indent}else:")
                lines.append(f"{indent}    pass")
                self._parse_code(element.otherwise, lines, indent + "    ", parts, i, n)
                continue
            if isinstance(element, AttrDictElement):
                lines += [
                    f"{indent}found = {maybe}",
                    f"{indent}if isinstance(found, AttributesClause):",
                    f"{indent}    attrs.update(found.value)",
                    f"{indent}    {i} += 1",
                ]
                if not element.keyword:
                    lines += [
                        f"{indent}elif isinstance(found, AttrDict):",
                        f"{indent}    attrs.update(found)",
                        f"{indent}    {i} += 1",
                    ]
                continue
            if isinstance(element, Custom):
                args = _directive_args(element)
                count = CUSTOM_DIRECTIVES[element.name].parts
                given = part if count == 1 else f"tuple({parts}[{i}:{i} + {count}])"
                lines += [
                    f"{indent}directives[{element.name!r}].parse(reader, {given}, {args!r})",
                    f"{indent}{i} += {count}",
                ]
                continue
            if isinstance(element, FunctionalType):
                lines += [f"{indent}found = {part}", f"{indent}{i} += 1"]
                self._functional_type_code(element, lines, indent)
                continue
            name = element.name
            if name in definition.regions:
                lines += [f"{indent}reader.regions[{name!r}] = {part}", f"{indent}{i} += 1"]
                continue
            if name in definition.attributes and not definition.attributes[name].kind.grammar:
                # A unit attribute: its group was written, so it is set.
                lines.append(f"{indent}attrs[{name!r}] = kinds[{name!r}].make(True)")
                continue
            if name in definition.attributes:
                lines += [
                    f"{indent}attrs[{name!r}] = kinds[{name!r}].from_part(reader, {name!r}, "
                    f"{part})",
                    f"{indent}{i} += 1",
                ]
                continue
            if name in self.may_be_left_out:
                lines += [
                    f"{indent}found = {maybe}",
                    f"{indent}if isinstance(found, Value):",
                    f"{indent}    ops[{name!r}] = found",
                    f"{indent}    {i} += 1",
                ]
                continue
            if definition.is_variadic(name):
                # An empty list is left out: no part.
                lines += [
                    f"{indent}found = {maybe}",
                    f"{indent}if isinstance(found, list):",
                    f"{indent}    {i} += 1",
                    f"{indent}else:",
                    f"{indent}    found = []",
                ]
                value = "list(found)"
            else:
                lines += [f"{indent}found = {part}", f"{indent}{i} += 1"]
                value = "found"
            if isinstance(element, TypeOf):
                lines.append(self._set_type_code(indent, name, value))
            else:
                lines.append(f"{indent}ops[{name!r}] = {value}")

    def _functional_type_code(self, element: FunctionalType, lines: list[str], indent: str) -> None:
        """Read `found`, a function type, into the types of the element's two fields, with
        MLIR's errors when it has more or fewer types than they have values."""
        definition = self.definition
        inputs, results = element.inputs, element.results
        variadic = definition.is_variadic(inputs)
        mismatch = "number of operands and types do not match: got {} operands and {} types"
        prefix = f"custom op '{definition.name}' "
        lines += [
            f"{indent}count = len(ops.get({inputs!r}) or ())" if variadic else f"{indent}count = 1",
            f"{indent}if count != len(found.inputs):",
            f"{indent}    message = {mismatch!r}.format(count, len(found.inputs))",
            f"{indent}    raise error({prefix!r} + message, location)",
            self._set_type_code(
                indent, inputs, "list(found.inputs)" if variadic else "found.inputs[0]"
            ),
        ]
        if definition.is_variadic(results):
            lines.append(self._set_type_code(indent, results, "list(found.results)"))
            return
        # The op has one result, so the line binds one name (MLIR counts the names it binds).
        lines += [
            f"{indent}if len(found.results) != 1:",
            f"{indent}    message = f'operation defines {{len(found.results)}} results but was "
            "provided 1 to bind'",
            f"{indent}    raise error(message, location)",
            self._set_type_code(indent, results, "found.results[0]"),
        ]

    def _set_type_code(self, indent: str, name: str, type: str) -> str:
        """`type($name)` was written as `type`: a result's type, or an operand's check."""
        if name in self.definition.results:
            return f"{indent}rts[{name!r}] = {type}"
        if self.definition.is_variadic(name) or self.definition.operands[name].optional:
            return f"{indent}reader.set_type({name!r}, {type})"
        return f"{indent}check_type(ops[{name!r}], {type}, reader.location)"

    # -- printing --------------------------------------------------------------------------

    def printer_source(self) -> str:
        """The printer as Python code (`print_op(op, p)`, run in `opdef.printer_namespace`),
        with the spacing decided once, as mlir-tblgen decides it when it generates the
        printer (the state flows through an optional group's then and else branches as
        written)."""
        lines = [
            "def print_op(op, p):",
            "    w = p.write",
            "    v = p.value_name",
            "    ops = op.operands",
        ]
        self._print_code(self.elements, [True, False], lines, "    ")
        lines = _merge_writes(lines)
        lines.append("    pass")
        return "\n".join(lines)

    def _value_code(self, name: str) -> str:
        """An expression for operand or result field `name` of `op`."""
        definition = self.definition
        if name in definition.results:
            indices, variable = definition.result_index, definition.variable_result
            values = "op.results"
        elif not definition.segmented:
            values, indices, variable = "ops", definition.operand_index, definition.variable
        else:
            return f"field_value(op, {name!r})"
        # Single fields before the variable one sit at a fixed index, those after it at a
        # fixed index from the end.
        index = indices[name]
        if variable is None or index < variable:
            return f"{values}[{index}]"
        if index > variable:
            return f"{values}[{index - len(indices)}]"
        return f"field_value(op, {name!r})"

    def _print_code(
        self,
        elements: Sequence[Element],
        state: list[bool],
        lines: list[str],
        indent: str,
    ) -> None:
        definition = self.definition
        for element in elements:
            if isinstance(element, Fused):
                self._print_code(element.original, state, lines, indent)
                continue
            if isinstance(element, Literal) and element.text == _NEWLINE:
                # MLIR's printNewline: a line break and the op's indentation.
                lines.append(f"{indent}w('\\n' + ' ' * p.indent_width)")
                state[0], state[1] = False, False
                continue
            if isinstance(element, Literal):
                text = _literal(element.text, state)
                if text:
                    lines.append(f"{indent}w({text!r})")
                continue
            if isinstance(element, Optional):
                lines.append(f"{indent}if {self._present_code(element.anchor)}:")
                self._print_code(element.then, state, lines, indent + "    ")
                lines.append(f"{indent}    pass")
                if element.otherwise:
                    lines.append(f"{indent}else:")
                    self._print_code(element.otherwise, state, lines, indent + "    ")
                    lines.append(f"{indent}    pass")
                continue
            if isinstance(element, AttrDictElement):
                keyword = " attributes " if element.keyword else " "
                lines += [
                    f"{indent}attrs = op.attribute_map",
                    f"{indent}if attrs and not elided.issuperset(attrs):",
                    f"{indent}    rest = {{k: a for k, a in attrs.items() if k not in elided}}",
                    f"{indent}    w({keyword!r} + print_attr_dict(rest))",
                ]
                state[1] = False
                continue
            if (
                isinstance(element, Variable)
                and element.name in definition.attributes
                and not definition.attributes[element.name].kind.grammar
            ):
                continue  # A unit attribute prints as its group's literals.
            if state[0] or not state[1]:
                lines.append(f"{indent}w(' ')")
            state[0], state[1] = True, False
            if isinstance(element, Custom):
                args = _directive_args(element)
                call = f"directives[{element.name!r}].print(op, p, {args!r})"
                # A directive that writes (a region) must not join the writes around it.
                writes = CUSTOM_DIRECTIVES[element.name].writes
                lines.append(f"{indent}{call}" if writes else f"{indent}w({call})")
                continue
            if isinstance(element, FunctionalType):
                types = [self._types_code(element.inputs), self._types_code(element.results)]
                lines.append(f"{indent}w(function_type_text({types[0]}, {types[1]}))")
                continue
            name = element.name
            if name in definition.regions:
                region = f"op.regions[{definition.region_index[name]}]"
                terminators = definition.regions[name].terminator is None
                lines.append(
                    f"{indent}p.print_region({region}, print_block_terminators={terminators})"
                )
                continue
            if name in definition.attributes:
                lines.append(f"{indent}w(kinds[{name!r}].text(op.attribute_map[{name!r}]))")
                continue
            value = self._value_code(name)
            many = definition.is_variadic(name)
            if isinstance(element, TypeOf):
                if many:
                    lines.append(f"{indent}w(', '.join(type_text(v.type) for v in {value}))")
                else:
                    lines.append(f"{indent}w(type_text({value}.type))")
            elif many:
                lines.append(f"{indent}w(p.values({value}))")
            else:
                lines.append(f"{indent}w(v({value}))")

    def _types_code(self, name: str) -> str:
        """An expression for the list of the types of field `name`."""
        value = self._value_code(name)
        if self.definition.is_variadic(name):
            return f"[v.type for v in {value}]"
        return f"[{value}.type]"

    def _present_code(self, anchor: Variable | TypeOf | Custom) -> str:
        if isinstance(anchor, Custom):
            args = _directive_args(anchor)
            return f"directives[{anchor.name!r}].present(op, {args!r})"
        name = anchor.name
        if name in self.definition.attributes:
            return f"{name!r} in op.attribute_map"
        found = self.definition.operands.get(name)
        if found is not None and (found.variadic or found.optional):
            value = f"field_value(op, {name!r})"
            return f"bool({value})" if found.variadic else f"{value} is not None"
        return "True"


_WRITE = lazy_compile(r"^( *)w\((.*)\)$")


def _merge_writes(lines: list[str]) -> list[str]:
    """`w(a)` then `w(b)` at one indentation as `w(a + b)`, adjacent literals as one (`'a' +
    'b'` is `'ab'`): one write per run of elements. Linear in the lines: the terms of the
    current run are kept apart until the run ends."""
    out: list[str] = []
    run: list[str] = []  # The terms of the write that out[-1] will hold.
    indent = ""
    for line in [*lines, ""]:
        match = _WRITE.match(line)
        if match is not None and run and match.group(1) == indent:
            term = match.group(2)
            if _LITERAL.match(term) and _LITERAL.match(run[-1]):
                run[-1] = run[-1][:-1] + term[1:]
            else:
                run.append(term)
            continue
        if run:
            out.append(f"{indent}w({' + '.join(run)})")
            run = []
        if match is not None:
            indent, run = match.group(1), [match.group(2)]
        elif line:
            out.append(line)
    return out


# A term that is one literal (not `', '.join(...)`).
_LITERAL = lazy_compile(r"^'[^'\\]*'$")


def _directive_args(custom: Custom) -> list[tuple[str, str]]:
    """A custom directive's arguments as (`type` or `value`, field name) pairs."""
    return [("type" if isinstance(a, TypeOf) else "value", a.name) for a in custom.args]


def _literal(text: str, state: list[bool]) -> str:
    """A literal with MLIR's spacing before it; updates the printer state after it."""
    if text == "":
        state[0], state[1] = False, True
        return ""
    if text == " ":
        state[0], state[1] = False, False
        return " "
    space = ""
    if state[0]:
        if len(text) != 1 and text != "->":
            space = " "
        elif state[1]:
            space = "" if text[0] in ">)}]," else " "
        else:
            space = "" if text[0] in "<>(){}[]," else " "
    state[0] = len(text) != 1 or text[0] not in "<({["
    state[1] = text[0] != "_" and not text[0].isalpha()
    return space + text


def compile_format(definition: OpDefinition, text: str, rule_prefix: str) -> CompiledFormat:
    """Read `text` against the op's fields; unknown names are an error."""
    elements, _ = _FormatParser(text).elements()
    _check_names(definition, elements)
    return CompiledFormat(definition, _fuse(elements, definition), rule_prefix)


def _check_names(definition: OpDefinition, elements: Sequence[Element]) -> None:
    for element in _walk(elements):
        if isinstance(element, Custom) and element.name not in CUSTOM_DIRECTIVES:
            raise FormatError(f"{definition.name}: no custom<{element.name}>")
        named = element.args if isinstance(element, Custom) else (element,)
        if isinstance(element, FunctionalType):
            named = (Variable(element.inputs), Variable(element.results))
        for one in named:
            if isinstance(one, (Variable, TypeOf)) and not definition.has_field(one.name):
                raise FormatError(f"{definition.name}: the format names no field ${one.name}")


def _opened_by_literal(group: Optional) -> bool:
    """Whether a literal opens the group, one other than `{` (the grammar could not tell `{}`
    from an empty attribute dictionary after it)."""
    first = group.then[0]
    return isinstance(first, Literal) and first.text != "{"


def _walk(elements: Sequence[Element]) -> Iterator[Element]:
    """`elements` and, after each optional group, the elements of its branches."""
    for element in elements:
        yield element
        if isinstance(element, Optional):
            yield from _walk(element.then)
            yield from _walk(element.otherwise)
