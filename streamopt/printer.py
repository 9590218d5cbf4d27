"""Print IR as text in the form IREE's tools print it.

Value and block names follow MLIR's printer: values without a name of their own are numbered
`%0, %1, ...` per isolated scope, entry block arguments are `%argN`, named values (`%c16`,
`%result_timepoint`) keep their name and get a `_N` suffix on conflict, nested regions continue
the numbering of their parent and sibling regions reuse it. Printing IR that IREE printed, with
no change, gives back the same text. Locations (`loc(...)`) are printed only when asked for, as
iree-opt prints them only with `--mlir-print-debuginfo`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from streamopt.diagnostics import Diagnostic
from streamopt.ir.core import Block, DetachedValue, Operation, OpResult, Region, Value
from streamopt.ir.debuginfo import is_location_alias
from streamopt.ir.types import Attribute, Type, print_attr_dict
from streamopt.lazy_regex import lazy_compile

if TYPE_CHECKING:
    from streamopt.ir.module import Module


class UnknownTypeError(Exception):
    """Raised by `type_text` for a value whose type streamopt does not know."""


class UnprintableError(Exception):
    """The printer refused to print an op: its text would not parse (a type it would have to
    print is unknown). A bug in whatever made the op; `diagnostic` is located at the op."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def known_type(type: Type | None) -> Type:
    """`type`, for an op printer; raises UnknownTypeError rather than print a type that is not
    known (a result of an unmodelled op reaching a known op's typed operand list)."""
    if type is None:
        raise UnknownTypeError
    return type


def type_text(type: Type | None) -> str:
    """The text of `type` for an op printer (see `known_type`)."""
    return known_type(type).text


_ARG_NAME = lazy_compile(r"arg(\d+)")


class _NameScope:
    """Names in use, visible to nested regions (a chain of sets)."""

    __slots__ = ("names", "parent")

    def __init__(self, parent: _NameScope | None) -> None:
        self.parent = parent
        self.names: set[str] = set()

    def __contains__(self, name: str) -> bool:
        scope: _NameScope | None = self
        while scope is not None:
            if name in scope.names:
                return True
            scope = scope.parent
        return False


class Printer:
    """Accumulates text for one module or op; see `print_module` and `print_operation`."""

    def __init__(
        self, print_debug_locations: bool = False, sink: Callable[[str], object] | None = None
    ) -> None:
        self._out: list[str] = []
        self.write = self._out.append
        # The text so far in large pieces: small ones are joined every few thousand, so a big
        # module is held as about its own size in text rather than as millions of strings.
        self._blocks: list[str] = []
        # Given a sink, the pieces go to it instead, as they are made: a big module's text is
        # then never held at all.
        self._sink = sink if sink is not None else self._blocks.append
        self.indent_width = 0
        self._indent = ""
        # A value's name, or its number (an int takes half the memory of its text).
        self.names: dict[Value, str | int] = {}
        self.block_names: dict[Block, str] = {}
        self._block_order: dict[Block, int] = {}
        self._predecessor_cache: dict[Region, dict[Block, list[Block]]] = {}
        # iree-opt's --mlir-print-debuginfo: print `loc(...)` (and the aliases only they use).
        self.print_debug_locations = print_debug_locations

    def text(self) -> str:
        return "".join(self.blocks())

    def blocks(self) -> list[str]:
        """The text so far, as a list of pieces to write one after another (empty when the
        pieces went to a sink, which has then been given all of them)."""
        if self._out:
            self._flush()
        return self._blocks

    def _flush(self) -> None:
        self._sink("".join(self._out))
        self._out.clear()

    # -- naming ----------------------------------------------------------------------------

    def number(self, op: Operation) -> None:
        """Assign names to every value and block nested in `op` (MLIR's SSANameState)."""
        scope = _NameScope(None)
        state = (0, 0, 0)
        self._number_op_results(op, scope, state)
        for region in op.regions:
            self._number_region(region, state, scope)

    def _number_region(
        self, region: Region, state: tuple[int, int, int], parent: _NameScope
    ) -> None:
        scope = _NameScope(parent)
        value_id, arg_id, conflict_id = state
        names = self.names
        owner = region.parent
        keep_arg_names = owner is not None and owner.spells_argument_names
        arg_floors: dict[Operation, int] = {}
        op_scopes: dict[Operation, _NameScope] = {}
        for index, block in enumerate(region.blocks):
            self.block_names[block] = f"^bb{index}"
            self._block_order[block] = index
            is_entry = index == 0
            for arg in block.arguments:
                if keep_arg_names and arg.name_hint:
                    name, conflict_id = self._unique(arg.name_hint, scope, conflict_id)
                    names[arg] = name
                    numbered = _ARG_NAME.fullmatch(arg.name_hint)
                    if is_entry and numbered:
                        # A name MLIR's numbering gave it: the regions nested in the op number
                        # their arguments after it.
                        arg_id = max(arg_id, int(numbered.group(1)) + 1)
                elif is_entry:
                    name, conflict_id = self._unique(f"arg{arg_id}", scope, conflict_id)
                    arg_id += 1
                    names[arg] = name
                else:
                    names[arg] = value_id
                    value_id += 1
            for op in block.ops:
                results = op.results
                defined = getattr(op, "defined_values", None)
                if defined:
                    # Names an unmodelled op's syntax defines are seen by its own regions only.
                    own = op_scopes[op] = _NameScope(scope)
                    for value in defined:
                        name = value.spelling[1:]
                        own.names.add(name)
                        names[value] = name
                        numbered = _ARG_NAME.fullmatch(name)
                        if numbered:
                            # An argument an unmodelled op (func.func) declares, numbered by
                            # MLIR: the regions nested in that op number theirs after it.
                            floor = int(numbered.group(1)) + 1
                            arg_floors[op] = max(arg_floors.get(op, 0), floor)
                if not results:
                    continue
                first = results[0]
                hint = first.name_hint or op.asm_result_name(0)
                if hint:
                    name, conflict_id = self._unique(hint, scope, conflict_id)
                    names[first] = name
                else:
                    names[first] = value_id
                    value_id += 1
                for result in results[1:]:
                    hint = result.name_hint or op.asm_result_name(result.index)
                    if hint:
                        name, conflict_id = self._unique(hint, scope, conflict_id)
                        names[result] = name
        state = (value_id, arg_id, conflict_id)
        for block in region.blocks:
            for op in block.ops:
                nested_state = state
                if op in arg_floors:
                    nested_state = (value_id, max(arg_id, arg_floors[op]), conflict_id)
                for nested in op.regions:
                    self._number_region(nested, nested_state, op_scopes.get(op, scope))

    @staticmethod
    def _unique(name: str, scope: _NameScope, conflict_id: int) -> tuple[str, int]:
        if name not in scope:
            scope.names.add(name)
            return name, conflict_id
        while True:
            probe = f"{name}_{conflict_id}"
            conflict_id += 1
            if probe not in scope:
                scope.names.add(probe)
                return probe, conflict_id

    def _number_op_results(
        self, op: Operation, scope: _NameScope, state: tuple[int, int, int]
    ) -> None:
        for result in op.results:
            self.names[result] = result.name_hint or str(result.index)

    def value_name(self, value: Value) -> str:
        """`%name` (with `#N` for a result inside a multi-result group)."""
        cls = value.__class__
        if cls is not OpResult and not isinstance(value, OpResult):
            name = self.names.get(value)
            if name is None:
                if isinstance(value, DetachedValue):
                    return value.spelling
                return "%<<UNKNOWN SSA VALUE>>"
            return f"%{name}"
        op = value.op  # type: ignore[attr-defined]
        results = op.results
        if len(results) == 1:
            name = self.names.get(value)
            return f"%{name}" if name is not None else "%<<UNKNOWN SSA VALUE>>"
        # Groups start at result 0 and at every result that has a name of its own.
        index = value.index  # type: ignore[attr-defined]
        start = index
        while start > 0 and not self._starts_group(op, start):
            start -= 1
        end = index + 1
        while end < len(results) and not self._starts_group(op, end):
            end += 1
        head = self.names.get(results[start])
        if head is None:
            return "%<<UNKNOWN SSA VALUE>>"
        if end - start == 1:
            return f"%{head}"
        return f"%{head}#{index - start}"

    def _starts_group(self, op: Operation, index: int) -> bool:
        return index == 0 or bool(op.results[index].name_hint or op.asm_result_name(index))

    def v(self, value: Value) -> str:
        """Short alias of value_name for op printers."""
        return self.value_name(value)

    def values(self, values: Iterable[Value]) -> str:
        return ", ".join(self.value_name(v) for v in values)

    # -- ops -------------------------------------------------------------------------------

    def print_operation(self, op: Operation) -> None:
        """Print `op` on its own line(s) at the current indentation."""
        write = self.write
        write(self._indent)
        results = op.results
        if results:
            write(self._result_list(op))
            write(" = ")
        try:
            op.print(self)
        except UnknownTypeError:
            raise UnprintableError(
                Diagnostic(
                    "error",
                    f"internal error: cannot print '{op.name}': a type it must print is not known",
                    op.location,
                )
            ) from None
        if op.debug_loc is not None and self.print_debug_locations:
            write(" ")
            write(op.debug_loc)
        write("\n")
        if len(self._out) > 8192:
            self._flush()

    def _result_list(self, op: Operation) -> str:
        results = op.results
        names = self.names
        if len(results) == 1:
            return f"%{names[results[0]]}"
        groups: list[str] = []
        start = 0
        count = len(results)
        for i in range(1, count + 1):
            if i == count or self._starts_group(op, i):
                size = i - start
                head = names[results[start]]
                groups.append(f"%{head}:{size}" if size > 1 else f"%{head}")
                start = i
        return ", ".join(groups)

    def print_region(
        self,
        region: Region,
        print_entry_block_args: bool = False,
        print_block_terminators: bool = True,
        print_empty_block: bool = False,
        opaque: bool = False,
        indent: int | None = None,
    ) -> None:
        """Print `{`, the blocks of `region`, and `}` at the current indentation (or at
        `indent` spaces)."""
        if indent is not None and indent != self.indent_width:
            saved = self.indent_width, self._indent
            self.indent_width, self._indent = indent, " " * indent
            try:
                self.print_region(
                    region, print_entry_block_args, print_block_terminators, print_empty_block,
                    opaque,
                )  # fmt: skip
            finally:
                self.indent_width, self._indent = saved
            return
        write = self.write
        write("{\n")
        blocks = region.blocks
        if blocks:
            entry = blocks[0]
            if opaque:
                show_header = entry.label_hint
            else:
                show_header = (print_empty_block and entry.is_empty()) or (
                    print_entry_block_args and bool(entry.arguments)
                )
            self._print_block(entry, show_header, print_block_terminators)
            for block in blocks[1:]:
                self._print_block(block, True, True)
        write(self._indent)
        write("}")

    def _print_block(self, block: Block, print_header: bool, print_terminator: bool) -> None:
        write = self.write
        if print_header:
            write(self._indent)
            write(self.block_names.get(block, "^bb?"))
            if block.arguments:
                parts = []
                for arg in block.arguments:
                    text = f"{self.value_name(arg)}: {type_text(arg.type)}"
                    if arg.debug_loc is not None and self.print_debug_locations:
                        text += " " + arg.debug_loc
                    parts.append(text)
                write("(" + ", ".join(parts) + ")")
            write(":")
            write(self._predecessor_comment(block))
            write("\n")
        saved = self._indent
        self.indent_width += 2
        self._indent = " " * self.indent_width
        for op in block.ops:
            if not print_terminator and op is block.last_op and op.is_terminator:
                continue
            self.print_operation(op)
        self.indent_width -= 2
        self._indent = saved

    def _predecessor_comment(self, block: Block) -> str:
        region = block.parent
        if region is None:
            return "  // block is not in a region!"
        preds = self._predecessors(region).get(block, [])
        if not preds:
            return "" if block.is_entry_block() else "  // no predecessors"
        # Like MLIR's Block::getSinglePredecessor, a block reached twice from the same
        # terminator (`cf.cond_br %c, ^bb1, ^bb1`) has two predecessors, not one.
        if len(preds) == 1:
            return "  // pred: " + self.block_names.get(preds[0], "^bb?")
        preds = sorted(preds, key=lambda b: self._block_order.get(b, 0))
        return f"  // {len(preds)} preds: " + ", ".join(
            self.block_names.get(p, "^bb?") for p in preds
        )

    def _predecessors(self, region: Region) -> dict[Block, list[Block]]:
        """Each block's predecessors (one entry per branch edge), computed once per region."""
        cached = self._predecessor_cache.get(region)
        if cached is None:
            cached = {}
            for other in region.blocks:
                terminator = other.last_op
                if terminator is not None:
                    for successor in terminator.successors:
                        cached.setdefault(successor, []).append(other)
            self._predecessor_cache[region] = cached
        return cached

    def block_name(self, block: Block) -> str:
        return self.block_names.get(block, "^bb?")

    def successor(self, block: Block, args: Sequence[Value] = ()) -> str:
        """`^bbN` or `^bbN(%a, %b : T, T)`."""
        name = self.block_name(block)
        if not args:
            return name
        types = ", ".join(type_text(v.type) for v in args)
        return f"{name}({self.values(args)} : {types})"

    def print_generic(self, op: Operation, properties: dict[str, Attribute] | None = None) -> None:
        """MLIR's generic form: `"name"(%a) [^bb] <{props}> ({...}) {attrs} : (T) -> T`."""
        write = self.write
        write(f'"{op.name}"({self.values(op.operands)})')
        if op.successors:
            write(" [" + ", ".join(self.block_name(b) for b in op.successors) + "]")
        if properties:
            write(" <" + print_attr_dict(properties) + ">")
        if op.regions:
            write(" (")
            for i, region in enumerate(op.regions):
                if i:
                    write(", ")
                self.print_region(region, True, True, True)
            write(")")
        if op.attribute_map:
            write(" " + print_attr_dict(op.attribute_map))
        ins = ", ".join(type_text(v.type) for v in op.operands)
        outs = [type_text(r.type) for r in op.results]
        out_text = (
            outs[0]
            if len(outs) == 1 and not outs[0].startswith("(")
            else ("(" + ", ".join(outs) + ")")
        )
        write(f" : ({ins}) -> {out_text}")

    # -- attribute helpers for op printers -------------------------------------------------

    def attr_dict(self, op: Operation, elided: Iterable[str] = (), keyword: bool = False) -> None:
        """Print the attributes not in `elided` as ` {..}` (or ` attributes {..}`)."""
        skip = set(elided)
        rest = {k: v for k, v in op.attribute_map.items() if k not in skip}
        if rest:
            self.write(" attributes " if keyword else " ")
            self.write(print_attr_dict(rest))

    # -- modules ---------------------------------------------------------------------------

    def print_module(self, module: Module) -> str:
        """Print a whole parsed file: aliases, the module op, trailing metadata."""
        return "".join(self.print_module_blocks(module))

    def print_module_blocks(self, module: Module) -> list[str]:
        """`print_module`'s text as a list of pieces, for writing out without joining them."""
        for alias in self._aliases(module.aliases):
            self.write(alias)
            self.write("\n")
        top = module.op
        self.number(top)
        self.print_operation(top)
        for alias in self._aliases(module.trailing_aliases):
            self.write(alias)
            self.write("\n")
        if module.metadata is not None:
            self.write("\n")
            self.write(module.metadata)
            self.write("\n")
        return self.blocks()

    def _aliases(self, lines: list[str]) -> Iterable[str]:
        if self.print_debug_locations:
            return lines
        return [line for line in lines if not is_location_alias(line)]


def print_module(module: Module, print_debug_locations: bool = False) -> str:
    """The text of `module`, with its `loc(...)` locations if `print_debug_locations` (as
    iree-opt prints it, with `--mlir-print-debuginfo` if that is set)."""
    return Printer(print_debug_locations).print_module(module)


def print_module_blocks(
    module: Module,
    sink: Callable[[str], object] | None = None,
    print_debug_locations: bool = False,
) -> list[str]:
    """The text of `module` as pieces to write in order (a big module is not joined into one
    string); with a `sink`, each piece is handed to it as soon as it is made, and the list
    returned is empty."""
    return Printer(print_debug_locations, sink).print_module_blocks(module)


def print_operation(op: Operation, print_debug_locations: bool = False) -> str:
    """The text of a single op (its values named as if it were the top level)."""
    printer = Printer(print_debug_locations)
    printer.number(op)
    printer.print_operation(op)
    return printer.text()
