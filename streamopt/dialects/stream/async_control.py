"""stream async control-flow ops (IREE's "Async control flow ops"): `stream.async.dispatch`,
`stream.async.func`, `stream.async.call`, and the execution regions `stream.async.execute` and
`stream.async.concurrent`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from streamopt.diagnostics import UNKNOWN_LOCATION, Location, error
from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.builtin import ModuleOp
from streamopt.dialects.common import (
    SegmentedOp,
    check_operand_type,
    print_shaped_function_type,
    print_shaped_result_list,
    split_clauses,
)
from streamopt.dialects.stream.base import (
    ANY_OR_STAGING_LIFETIMES,
    StreamOp,
    YieldOp,
    check_lifetime,
    check_size_counts,
    check_timepoint,
    op_attributes,
    op_error,
    resolve_shaped_results,
    size_in_list,
    verify_workload,
    with_affinity,
)
from streamopt.ir.core import Access, Block, Operation, OpResult, Region, RegionKind, Value
from streamopt.ir.types import (
    INDEX_CONSTRAINT,
    TIMEPOINT,
    TIMEPOINT_CONSTRAINT,
    Attribute,
    FunctionType,
    ResourceType,
    SymbolRefAttr,
    Type,
    _symbol_spelling,
    print_attr_dict,
    symbol_ref_from_text,
)
from streamopt.parser.parts import (
    TOKEN_CLASSES,
    AttrDict,
    EntryPoints,
    OperandRange,
    Operands,
    ShapedResults,
    ShapedTypes,
    Sized,
    Tied,
)
from streamopt.printer import type_text

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


@register_op
class AsyncDispatchOp(StreamOp, SegmentedOp):
    """`stream.async.dispatch on(A) @ex::@fn[%w](%a[%o to %e for %l], %c) : (...) -> (...)`."""

    __slots__ = ("entry_points", "tied_operands")
    name = "stream.async.dispatch"
    inherent_attributes = frozenset({"entry_points", "tied_operands", "affinity"})
    operand_types = {
        "workload": INDEX_CONSTRAINT,
        "resource_operand_sizes": INDEX_CONSTRAINT,
        "resource_operand_offsets": INDEX_CONSTRAINT,
        "resource_operand_ends": INDEX_CONSTRAINT,
        "resource_operand_lengths": INDEX_CONSTRAINT,
        "result_sizes": INDEX_CONSTRAINT,
    }
    is_pure = True
    segment_names = (
        "workload",
        "resource_operands",
        "resource_operand_sizes",
        "resource_operand_offsets",
        "resource_operand_ends",
        "resource_operand_lengths",
        "result_sizes",
    )

    def __init__(
        self,
        *args: Any,
        entry_points: list[Attribute] | None = None,
        tied_operands: list[int | None] | None = None,
        has_workload: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.entry_points = entry_points or []
        self.tied_operands = tied_operands or [None] * len(self.results)

    def _copy_extra_state(self, new: Operation) -> None:
        SegmentedOp._copy_extra_state(self, new)
        assert isinstance(new, AsyncDispatchOp)
        new.entry_points = list(self.entry_points)
        new.tied_operands = list(self.tied_operands)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncDispatchOp:
        clauses, rest = split_clauses(parts)
        entry_points: list[Attribute] = []
        operand_parts: list[Any] = []
        attributes: dict[str, Attribute] = {}
        operand_types: list[Any] = []
        result_items: list[Any] = []
        for part in rest:
            if isinstance(part, EntryPoints):
                entry_points = part
            elif isinstance(part, Operands):
                operand_parts = part
            elif isinstance(part, AttrDict):
                attributes = dict(part)
            elif isinstance(part, ShapedTypes):
                operand_types = part
            elif isinstance(part, ShapedResults):
                result_items = part
        operands: list[Value] = []
        offsets: list[Value] = []
        ends: list[Value] = []
        lengths: list[Value] = []
        for item in operand_parts:
            if isinstance(item, OperandRange):
                operands.append(item.value)
                offsets.append(item.offset)
                ends.append(item.end)
                lengths.append(item.length)
            else:
                operands.append(item)
        if len(operand_types) != len(operands):
            raise error(
                f"expected {len(operands)} operand types, got {len(operand_types)}", location
            )
        operand_sizes: list[Value] = []
        for value, type_part in zip(operands, operand_types):
            type = type_part.type if isinstance(type_part, Sized) else type_part
            check_operand_type(value, type, location)
            if isinstance(type_part, Sized):
                operand_sizes.extend(type_part.sizes)
        result_types: list[Type] = []
        result_sizes: list[Value] = []
        tied: list[int | None] = []
        for item in result_items:
            if isinstance(item, Tied):
                position = next((i for i, v in enumerate(operands) if v is item.operand), None)
                if position is None:
                    raise error("tied operand not found for result reference", location)
                tied.append(position)
                result_types.append(item.type if item.type is not None else operands[position].type)  # type: ignore[arg-type]
                result_sizes.extend(item.sizes)
            elif isinstance(item, Sized):
                tied.append(None)
                result_types.append(item.type)
                result_sizes.extend(item.sizes)
            else:
                tied.append(None)
                result_types.append(item)
        workload = list(clauses.get("workload", []))
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        segments = [
            len(workload),
            len(operands),
            len(operand_sizes),
            len(offsets),
            len(ends),
            len(lengths),
            len(result_sizes),
        ]
        all_operands = workload + operands + operand_sizes + offsets + ends + lengths + result_sizes
        op = cls(
            all_operands,
            result_types,
            attributes,
            location=location,
            segments=segments,
            entry_points=entry_points,
            tied_operands=tied,
        )
        return op

    @property
    def workload(self) -> list[Value]:
        return self.segment(0)

    @property
    def resource_operands(self) -> list[Value]:
        return self.segment(1)

    @property
    def resource_operand_sizes(self) -> list[Value]:
        return self.segment(2)

    @property
    def result_sizes(self) -> list[Value]:
        return self.segment(6)

    def tied_operand_index(self, result_index: int) -> int | None:
        """Index (into all operands) of the operand result `result_index` is tied to."""
        tied = self.tied_operands[result_index]
        return None if tied is None else self.segments[0] + tied

    def operand_access(self, index: int) -> Access:
        start = self.segments[0]
        position = index - start
        if position < 0 or position >= self.segments[1]:
            return Access.NONE
        if not isinstance(self.operands[index].type, ResourceType):
            return Access.NONE
        if position in self.tied_operands:
            return Access.READ | Access.WRITE
        return Access.READ

    def operand_size(self, index: int) -> Value | None:
        position = index - self.segments[0]
        if position < 0 or position >= self.segments[1]:
            return None
        # Sizes are listed for the sized operands only, in order.
        sized = [
            i for i, v in enumerate(self.resource_operands) if isinstance(v.type, ResourceType)
        ]
        if position not in sized:
            return None
        return self.resource_operand_sizes[sized.index(position)]

    def result_size(self, index: int) -> Value | None:
        sized = [i for i, r in enumerate(self.results) if isinstance(r.type, ResourceType)]
        if index not in sized:
            return None
        return self.result_sizes[sized.index(index)]

    def verify(self) -> None:
        operands = self.resource_operands
        check_size_counts(self, [v.type for v in operands], self.resource_operand_sizes)
        check_size_counts(self, [r.type for r in self.results], self.result_sizes)
        for index, tied in enumerate(self.tied_operands):
            if tied is not None and not 0 <= tied < len(operands):
                raise op_error(self, f"result #{index} tied to invalid operand index {tied}")
        if not self.entry_points:
            raise op_error(self, "at least one entry point must be defined")

    def verify_in_module(self, context: Any) -> None:
        verify_workload(self, self.entry_points, len(self.workload), context)

    def print(self, p: Printer) -> None:
        write = p.write
        write("stream.async.dispatch")
        self.print_affinity(p)
        entry = self.entry_points
        if len(entry) == 1:
            write(" " + entry[0].text)
        else:
            write(" {" + ", ".join(e.text for e in entry) + "}")
        workload = self.workload
        if workload:
            write("[" + p.values(workload) + "]")
        operands = self.resource_operands
        offsets = self.segment(3)
        ends = self.segment(4)
        lengths = self.segment(5)
        parts: list[str] = []
        range_index = 0
        for value in operands:
            if isinstance(value.type, ResourceType):
                parts.append(
                    f"{p.v(value)}[{p.v(offsets[range_index])} to {p.v(ends[range_index])} for "
                    f"{p.v(lengths[range_index])}]"
                )
                range_index += 1
            else:
                parts.append(p.v(value))
        write("(" + ", ".join(parts) + ")")
        p.attr_dict(self, ("affinity",))
        write(" : ")
        write(
            print_shaped_function_type(
                p,
                self,
                operands,
                [v.type for v in operands],  # type: ignore[misc]
                self.resource_operand_sizes,
                [r.type for r in self.results],  # type: ignore[misc]
                self.result_sizes,
                self.tied_operands,
            )
        )


class _FuncResult(NamedTuple):
    """One result of a `stream.async.func` signature: a type, or a tied argument name."""

    tied_name: Any  # the VALUE_ID token of the tied argument, or None
    type: Type | None
    attributes: AttrDict | None


class _FuncResults(list[_FuncResult]):
    """The `-> ...` part of a `stream.async.func` signature."""


@parse_rule("async_func_tied")
def _async_func_tied(b: Builder, children: list[Any]) -> _FuncResult:
    return _FuncResult(children[0], children[-1] if len(children) > 2 else None, None)


@parse_rule("async_func_typed_result")
def _async_func_typed_result(b: Builder, children: list[Any]) -> _FuncResult:
    return _FuncResult(None, children[0], children[1] if len(children) > 1 else None)


@parse_rule("async_func_bare_results")
def _async_func_bare_results(b: Builder, children: list[Any]) -> _FuncResults:
    return _FuncResults(
        child if isinstance(child, _FuncResult) else _FuncResult(None, child, None)
        for child in children
    )


@parse_rule("async_func_results")
def _async_func_results(b: Builder, children: list[Any]) -> _FuncResults:
    return _FuncResults(children)


@register_op
class AsyncFuncOp(Operation):
    """`stream.async.func private @f(%arg0: T, %arg1: index) -> %arg0`: an external function
    that `stream.async.call` can call (declarations only, as in IREE)."""

    __slots__ = (
        "arg_attrs",
        "function_type",
        "res_attrs",
        "sym_name",
        "tied_operands",
        "visibility",
    )
    name = "stream.async.func"
    inherent_attributes = frozenset(
        {"sym_name", "function_type", "tied_operands", "sym_visibility", "arg_attrs", "res_attrs"}
    )
    is_isolated_from_above = True
    region_kind = RegionKind.CALLABLE

    def __init__(
        self,
        sym_name: str,
        function_type: FunctionType,
        tied_operands: Sequence[int | None] | None = None,
        visibility: str | None = None,
        arg_attrs: Sequence[AttrDict | None] | None = None,
        res_attrs: Sequence[AttrDict | None] | None = None,
        attributes: dict[str, Attribute] | None = None,
        location: Location = UNKNOWN_LOCATION,
    ) -> None:
        super().__init__(attributes=attributes, location=location)
        self.sym_name = sym_name
        self.function_type = function_type
        self.tied_operands: list[int | None] = list(
            tied_operands or [None] * len(function_type.results)
        )
        self.visibility = visibility
        self.arg_attrs: list[AttrDict | None] = list(
            arg_attrs or [None] * len(function_type.inputs)
        )
        self.res_attrs: list[AttrDict | None] = list(
            res_attrs or [None] * len(function_type.results)
        )

    def _copy_extra_state(self, new: Operation) -> None:
        assert isinstance(new, AsyncFuncOp)
        new.sym_name = self.sym_name
        new.function_type = self.function_type
        new.tied_operands = list(self.tied_operands)
        new.visibility = self.visibility
        new.arg_attrs = list(self.arg_attrs)
        new.res_attrs = list(self.res_attrs)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncFuncOp:
        clauses, rest = split_clauses(parts)
        visibility: str | None = None
        sym_name = ""
        args: list[tuple[Any, Type, AttrDict | None]] = []
        results: list[_FuncResult] = []
        for part in rest:
            if isinstance(part, TOKEN_CLASSES):
                # The visibility keyword (BARE_ID) or the symbol (SYMBOL_REF).
                text = str(part)
                if text.startswith("@"):
                    sym_name = text
                else:
                    visibility = text
            elif isinstance(part, _FuncResults):
                results = part
            elif isinstance(part, list):
                args = part
        if visibility not in (None, "public", "private", "nested"):
            raise error(f"expected 'public', 'private' or 'nested', got '{visibility}'", location)
        if any(name is None for name, _, _ in args):
            raise error("expected SSA operand: async function arguments are named", location)
        arg_names = [str(name) for name, _, _ in args]
        arg_types = [type for _, type, _ in args]
        result_types: list[Type] = []
        tied: list[int | None] = []
        for result in results:
            if result.tied_name is not None:
                name = str(result.tied_name)
                if name not in arg_names:
                    raise error(
                        f"tied operand not found for result reference {name}",
                        b.location(result.tied_name),
                    )
                index = arg_names.index(name)
                tied.append(index)
                result_types.append(result.type if result.type is not None else arg_types[index])
            else:
                assert result.type is not None
                tied.append(None)
                result_types.append(result.type)
        return cls(
            symbol_ref_from_text(sym_name).root,
            FunctionType(arg_types, result_types),
            tied,
            visibility,
            [attrs for _, _, attrs in args],
            [r.attributes for r in results],
            dict(clauses.get("attributes", {})),
            location,
        )

    @classmethod
    def create(
        cls,
        sym_name: str,
        function_type: FunctionType,
        tied_operands: Sequence[int | None] | None = None,
        visibility: str | None = "private",
    ) -> AsyncFuncOp:
        """Declare `@sym_name` with `function_type`; `tied_operands[i]` is the argument result
        `i` is tied to (or None)."""
        return cls(sym_name, function_type, tied_operands, visibility)

    @property
    def is_public(self) -> bool:
        return self.visibility in (None, "public")

    @property
    def is_declaration(self) -> bool:
        return True

    def tied_result_argument(self, result_index: int) -> int | None:
        """The argument result `result_index` is tied to, if any."""
        return self.tied_operands[result_index]

    def verify(self) -> None:
        if self.is_public:
            raise op_error(self, "symbol declaration cannot have public visibility")

    def print(self, p: Printer) -> None:
        inputs = self.function_type.inputs
        results = self.function_type.results
        p.write(
            f"stream.async.func {self.visibility or 'public'} @{_symbol_spelling(self.sym_name)}("
        )
        args: list[str] = []
        for i, type in enumerate(inputs):
            text = f"%arg{i}: {type.text}"
            attrs = self.arg_attrs[i] if i < len(self.arg_attrs) else None
            if attrs:
                text += " " + print_attr_dict(attrs)
            args.append(text)
        p.write(", ".join(args) + ")")
        if results:
            any_result_attrs = any(self.res_attrs)
            items: list[str] = []
            for i, type in enumerate(results):
                tied = self.tied_operands[i]
                text = ""
                if tied is not None:
                    text = f"%arg{tied}"
                    if inputs[tied] != type:
                        text += " as " + type.text
                else:
                    text = type.text
                attrs = self.res_attrs[i] if i < len(self.res_attrs) else None
                if attrs:
                    text += " " + print_attr_dict(attrs)
                items.append(text)
            joined = ", ".join(items)
            if len(results) != 1 or any_result_attrs:
                joined = f"({joined})"
            p.write(" -> " + joined)
        p.attr_dict(self, (), keyword=True)


def _split_operand_list(
    items: Sequence[Any],
) -> tuple[list[Value], list[Value], list[Value], list[Value]]:
    """Operands and the offsets, ends and lengths of the ranged ones (custom<DispatchOperands>)."""
    operands: list[Value] = []
    offsets: list[Value] = []
    ends: list[Value] = []
    lengths: list[Value] = []
    for item in items:
        if isinstance(item, OperandRange):
            operands.append(item.value)
            offsets.append(item.offset)
            ends.append(item.end)
            lengths.append(item.length)
        else:
            operands.append(item)
    return operands, offsets, ends, lengths


def _print_operand_list(
    p: Printer,
    operands: Sequence[Value],
    offsets: Sequence[Value],
    ends: Sequence[Value],
    lengths: Sequence[Value],
) -> str:
    """`(%a[%o to %e for %l], %c)`: resources carry their range."""
    parts: list[str] = []
    range_index = 0
    for value in operands:
        if isinstance(value.type, ResourceType) and range_index < len(offsets):
            parts.append(
                f"{p.v(value)}[{p.v(offsets[range_index])} to {p.v(ends[range_index])} for "
                f"{p.v(lengths[range_index])}]"
            )
            range_index += 1
        else:
            parts.append(p.v(value))
    return "(" + ", ".join(parts) + ")"


def _lookup_symbol(op: Operation, name: str) -> Operation | None:
    """The op named `@name` in the nearest enclosing module (MLIR's lookupNearestSymbolFrom)."""
    for ancestor in op.ancestors():
        if not isinstance(ancestor, ModuleOp):
            continue
        for candidate in ancestor.body.ops:
            if getattr(candidate, "sym_name", None) == name:
                return candidate
        return None
    return None


def _function_type_text(inputs: Sequence[Type | None], results: Sequence[Type | None]) -> str:
    return FunctionType([t for t in inputs if t], [t for t in results if t]).text


@register_op
class AsyncCallOp(StreamOp, SegmentedOp):
    """`%r = stream.async.call on(A) @f(%x[%o to %e for %l], %n) : (T{%s}, index) -> %x{%s}`."""

    __slots__ = ("tied_operands",)
    name = "stream.async.call"
    inherent_attributes = frozenset(
        {"callee", "tied_operands", "arg_attrs", "res_attrs", "affinity"}
    )
    operand_types = {
        "resource_operand_sizes": INDEX_CONSTRAINT,
        "resource_operand_offsets": INDEX_CONSTRAINT,
        "resource_operand_ends": INDEX_CONSTRAINT,
        "resource_operand_lengths": INDEX_CONSTRAINT,
        "result_sizes": INDEX_CONSTRAINT,
    }
    segment_names = (
        "resource_operands",
        "resource_operand_sizes",
        "resource_operand_offsets",
        "resource_operand_ends",
        "resource_operand_lengths",
        "result_sizes",
    )

    def __init__(
        self, *args: Any, tied_operands: Sequence[int | None] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.tied_operands: list[int | None] = list(tied_operands or [None] * len(self.results))

    def _copy_extra_state(self, new: Operation) -> None:
        SegmentedOp._copy_extra_state(self, new)
        assert isinstance(new, AsyncCallOp)
        new.tied_operands = list(self.tied_operands)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncCallOp:
        clauses, rest = split_clauses(parts)
        attributes: dict[str, Attribute] = {}
        callee = ""
        operand_items: list[Any] = []
        operand_types: list[Any] = []
        result_items: list[Any] = []
        for part in rest:
            if isinstance(part, TOKEN_CLASSES):
                callee = str(part)
            elif isinstance(part, Operands):
                operand_items = part
            elif isinstance(part, AttrDict):
                attributes = dict(part)
            elif isinstance(part, ShapedTypes):
                operand_types = part
            elif isinstance(part, ShapedResults):
                result_items = part
        operands, offsets, ends, lengths = _split_operand_list(operand_items)
        if len(operand_types) != len(operands):
            raise error(
                f"expected {len(operands)} operand types, got {len(operand_types)}", location
            )
        operand_sizes: list[Value] = []
        for value, type_part in zip(operands, operand_types):
            type = type_part.type if isinstance(type_part, Sized) else type_part
            check_operand_type(value, type, location)
            if isinstance(type_part, Sized):
                operand_sizes.extend(type_part.sizes)
        result_types, result_sizes, tied = resolve_shaped_results(result_items, operands, location)
        attributes["callee"] = symbol_ref_from_text(callee)
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        groups = [operands, operand_sizes, offsets, ends, lengths, result_sizes]
        return cls(
            [v for group in groups for v in group],
            result_types,
            attributes,
            location=location,
            segments=[len(group) for group in groups],
            tied_operands=tied,
        )

    @classmethod
    def create(
        cls,
        callee: str,
        operands: Sequence[Value],
        operand_sizes: Sequence[Value],
        ranges: Sequence[tuple[Value, Value, Value]],
        result_types: Sequence[Type],
        result_sizes: Sequence[Value],
        tied_operands: Sequence[int | None] | None = None,
        affinity: Attribute | None = None,
    ) -> AsyncCallOp:
        """Call `@callee`. `ranges` holds (offset, end, length) per resource operand, in order;
        `tied_operands[i]` is the position in `operands` result `i` is tied to, or None."""
        groups = [
            list(operands),
            list(operand_sizes),
            [r[0] for r in ranges],
            [r[1] for r in ranges],
            [r[2] for r in ranges],
            list(result_sizes),
        ]
        attributes = with_affinity({"callee": SymbolRefAttr([callee])}, affinity)
        return cls(
            [v for group in groups for v in group],
            list(result_types),
            attributes,
            segments=[len(group) for group in groups],
            tied_operands=tied_operands,
        )

    @property
    def callee(self) -> SymbolRefAttr:
        callee = self.attributes["callee"]
        assert isinstance(callee, SymbolRefAttr)
        return callee

    @property
    def resource_operands(self) -> list[Value]:
        return self.segment(0)

    def forwarded_operands(self) -> Iterable[tuple[int, Sequence[Value]]]:
        # Yielded resources become the results of the execute/concurrent op.
        parent = self.parent_op
        if parent is None:
            return
        for index in range(self.segments[0]):
            if index < len(parent.results):
                yield index, (parent.results[index],)

    @property
    def resource_operand_sizes(self) -> list[Value]:
        return self.segment(1)

    @property
    def result_sizes(self) -> list[Value]:
        return self.segment(5)

    def tied_operand_index(self, result_index: int) -> int | None:
        """Index (into all operands) of the operand result `result_index` is tied to."""
        return self.tied_operands[result_index]

    def operand_access(self, index: int) -> Access:
        if index >= self.segments[0] or not isinstance(self.operands[index].type, ResourceType):
            return Access.NONE
        if index in self.tied_operands:
            return Access.READ | Access.WRITE
        return Access.READ

    def operand_size(self, index: int) -> Value | None:
        if index >= self.segments[0]:
            return None
        operands = self.resource_operands
        return size_in_list(index, [v.type for v in operands], self.resource_operand_sizes)

    def result_size(self, index: int) -> Value | None:
        return size_in_list(index, [r.type for r in self.results], self.result_sizes)

    def verify(self) -> None:
        operands = self.resource_operands
        check_size_counts(self, [v.type for v in operands], self.resource_operand_sizes)
        check_size_counts(self, [r.type for r in self.results], self.result_sizes)
        required = sum(1 for v in operands if isinstance(v.type, ResourceType))
        present = self.segments[2]
        if self.segments[3] != present or self.segments[4] != present:
            raise op_error(
                self, "mismatch on resource range offsets/ends/lengths; counts must match"
            )
        if present != required:
            raise op_error(
                self,
                f"expects {required} resource range operand sets but {present} are present",
            )
        for result in self.results:
            if not isinstance(result.type, ResourceType):
                raise op_error(
                    self, "non-resource return values are not yet supported on async calls"
                )
        callee = _lookup_symbol(self, self.callee.root)
        if not isinstance(callee, AsyncFuncOp):
            raise op_error(self, f"undefined external call: {self.callee.root}")
        call_inputs = [v.type for v in operands]
        call_results = [r.type for r in self.results]
        callee_type = callee.function_type
        if len(callee_type.inputs) != len(call_inputs) or len(callee_type.results) != len(
            call_results
        ):
            expected = _function_type_text(call_inputs, call_results)
            raise op_error(
                self,
                f"function type mismatch; expected '{expected}' but callee is '{callee_type.text}'",
            )
        for callee_arg, call_arg in zip(callee_type.inputs, call_inputs):
            if not _call_type_compatible(callee_arg, call_arg):
                raise op_error(
                    self,
                    f"function argument type mismatch; expected '{call_arg}' but callee "
                    f"provides '{callee_arg}'",
                )
        for callee_result, call_result in zip(callee_type.results, call_results):
            if not _call_type_compatible(callee_result, call_result):
                raise op_error(
                    self,
                    f"function result type mismatch; expected '{call_result}' but callee "
                    f"provides '{callee_result}'",
                )

    def print(self, p: Printer) -> None:
        p.write("stream.async.call")
        self.print_affinity(p)
        operands = self.resource_operands
        p.write(" " + self.callee.text)
        p.write(_print_operand_list(p, operands, self.segment(2), self.segment(3), self.segment(4)))
        p.attr_dict(self, ("affinity", "callee"))
        p.write(" : ")
        p.write(
            print_shaped_function_type(
                p,
                self,
                operands,
                [v.type for v in operands],  # type: ignore[misc]
                self.resource_operand_sizes,
                [r.type for r in self.results],  # type: ignore[misc]
                self.result_sizes,
                self.tied_operands,
            )
        )


def _call_type_compatible(callee: Type, call: Type | None) -> bool:
    """IREE allows an async function to declare `*` for any resource lifetime of the call."""
    if callee == call:
        return True
    if isinstance(callee, ResourceType) and isinstance(call, ResourceType):
        return callee.lifetime == "*"
    return False


class ResourceCaptures(NamedTuple):
    """`with(%x as %arg0: T{%s}, ...) -> (results)` of an execute or concurrent region."""

    operands: list[Value]
    types: list[Type]
    sizes: list[Value]
    results: list[Any]


@parse_rule("resource_capture")
def _resource_capture(b: Builder, children: list[Any]) -> tuple[Value, Any, Sized]:
    value, _, arg_token, sized = children
    return (value, arg_token, sized)


@parse_rule("resource_results")
def _resource_results(b: Builder, children: list[Any]) -> ShapedResults:
    return ShapedResults(children)


@parse_rule("resource_captures")
def _resource_captures(b: Builder, children: list[Any]) -> ResourceCaptures:
    captures = [c for c in children if isinstance(c, tuple)]
    results = next((c for c in children if isinstance(c, ShapedResults)), ShapedResults())
    entry_args: list[tuple[Any, Type, str | None]] = []
    operands: list[Value] = []
    types: list[Type] = []
    sizes: list[Value] = []
    for value, arg_token, sized in captures:
        check_operand_type(value, sized.type, b.location(arg_token))
        operands.append(value)
        types.append(sized.type)
        sizes.extend(sized.sizes)
        entry_args.append((arg_token, sized.type, None))
    # The region that follows gets one entry argument per capture.
    b.pending_entry_args = entry_args
    return ResourceCaptures(operands, types, sizes, results)


class ResourceRegionOp(StreamOp, SegmentedOp):
    """Shared by `stream.async.execute` and `stream.async.concurrent`: captured resources become
    the region's entry arguments, the region's `stream.yield` gives the resource results, and
    results may be tied to (update in place) a captured operand."""

    __slots__ = ("tied_operands",)
    region_kind = RegionKind.ONCE

    def __init__(
        self, *args: Any, tied_operands: Sequence[int | None] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.tied_operands: list[int | None] = list(
            tied_operands or [None] * self.resource_result_count
        )

    def _copy_extra_state(self, new: Operation) -> None:
        SegmentedOp._copy_extra_state(self, new)
        assert isinstance(new, ResourceRegionOp)
        new.tied_operands = list(self.tied_operands)

    @property
    def resource_result_count(self) -> int:
        return len(self.results)

    @property
    def resource_results(self) -> Sequence[OpResult]:
        return self.results[: self.resource_result_count]

    @property
    def resource_operands(self) -> list[Value]:
        return self.segment(0)

    @property
    def resource_operand_sizes(self) -> list[Value]:
        return self.segment(1)

    @property
    def result_sizes(self) -> list[Value]:
        return self.segment(2)

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def yield_op(self) -> YieldOp | None:
        terminator = self.body.last_op
        return terminator if isinstance(terminator, YieldOp) else None

    def forwarded_operands(self) -> Iterable[tuple[int, Sequence[Value]]]:
        # Captured resources are the region's entry arguments.
        arguments = self.body.arguments if self.regions and self.regions[0].blocks else []
        for index, _ in enumerate(self.resource_operands):
            if index < len(arguments):
                yield index, (arguments[index],)

    def tied_operand_index(self, result_index: int) -> int | None:
        """The captured operand result `result_index` updates in place (operands come first)."""
        if result_index >= self.resource_result_count:
            return None
        return self.tied_operands[result_index]

    def operand_access(self, index: int) -> Access:
        # As IREE's getAsyncAccessRanges: a capture is read, and written when a result is tied
        # to it; sizes and the await timepoint are plain values.
        if index >= self.segments[0] or not isinstance(self.operands[index].type, ResourceType):
            return Access.NONE
        if index in self.tied_operands:
            return Access.READ | Access.WRITE
        return Access.READ

    def operand_size(self, index: int) -> Value | None:
        if index >= self.segments[0]:
            return None
        return size_in_list(
            index, [v.type for v in self.resource_operands], self.resource_operand_sizes
        )

    def result_size(self, index: int) -> Value | None:
        if index >= self.resource_result_count:
            return None
        return size_in_list(index, [r.type for r in self.resource_results], self.result_sizes)

    def verify(self) -> None:
        operands = self.resource_operands
        for i, value in enumerate(operands):
            check_lifetime(self, "operand", i, value.type, ANY_OR_STAGING_LIFETIMES)
        results = self.resource_results
        for i, result in enumerate(results):
            check_lifetime(self, "result", i, result.type, ANY_OR_STAGING_LIFETIMES)
        check_size_counts(self, [v.type for v in operands], self.resource_operand_sizes)
        check_size_counts(self, [r.type for r in results], self.result_sizes)
        if len(self.regions) != 1 or len(self.regions[0].blocks) != 1:
            raise op_error(self, "expects a region with one block")
        body = self.body
        if [a.type for a in body.arguments] != [v.type for v in operands]:
            raise op_error(self, "region arguments do not match the captured operands")
        # Every resource used in the body is captured or produced there (IREE's
        # verifyAllResourcesCaptured); values from outside must come in through `with(...)`.
        for op in body.ops:
            for operand in op.operands:
                if not isinstance(operand.type, ResourceType):
                    continue
                if operand.parent_block is body and not (
                    isinstance(operand, OpResult) and operand.op is op
                ):
                    continue
                raise op_error(
                    op, "used resource not listed in explicit captures (or produced internally)"
                )
        # IREE's parser adds no implicit terminator: a body must end in its stream.yield.
        last = body.last_op
        if last is None:
            raise op_error(self, "empty block: expect at least a terminator")
        if not last.is_terminator:
            raise error("block with no terminator", last.location)
        yield_op = self.yield_op
        if yield_op is None:
            raise op_error(last, "expects the region to end with 'stream.yield'")
        yielded = yield_op.resource_operands
        if len(yielded) != len(results):
            raise op_error(yield_op, "yield result count mismatch with parent op")
        for outer, inner in zip(results, yielded):
            if outer.type != inner.type:
                raise op_error(
                    yield_op,
                    f"result type mismatch: expected '{outer.type}' but got '{inner.type}'",
                )
        for outer_size, inner_size in zip(self.result_sizes, yield_op.resource_operand_sizes):
            if outer_size is not inner_size:
                raise op_error(yield_op, "result size mismatch")

    def _print_captures(self, p: Printer) -> None:
        operands = self.resource_operands
        sizes = self.resource_operand_sizes
        captures: list[str] = []
        size_index = 0
        for operand, arg in zip(operands, self.body.arguments):
            text = f"{p.v(operand)} as {p.v(arg)}: {type_text(arg.type)}"
            if isinstance(arg.type, ResourceType):
                text += "{" + p.v(sizes[size_index]) + "}"
                size_index += 1
            captures.append(text)
        p.write("with(" + ", ".join(captures) + ")")
        results = self.resource_results
        if results:
            text = print_shaped_result_list(
                p,
                self,
                operands,
                [r.type for r in results],  # type: ignore[misc]
                self.result_sizes,
                self.tied_operands,
            )
            p.write(" -> " + (text if len(results) == 1 else f"({text})"))
        p.write(" ")
        p.print_region(self.regions[0], print_entry_block_args=False)


def _new_region(types: Sequence[Type | None]) -> Region:
    return Region([Block(types)])


@register_op
class AsyncExecuteOp(ResourceRegionOp):
    """`%results:2, %result_timepoint = stream.async.execute on(A) await(%t) =>
    with(%x as %arg0: T{%s}) -> (%x{%s}, T{%s2}) { ... } => !stream.timepoint`."""

    __slots__ = ()
    name = "stream.async.execute"
    inherent_attributes = frozenset({"tied_operands", "affinity"})
    operand_types = {
        "resource_operand_sizes": INDEX_CONSTRAINT,
        "result_sizes": INDEX_CONSTRAINT,
        "await_timepoint": TIMEPOINT_CONSTRAINT,
    }
    segment_names = (
        "resource_operands",
        "resource_operand_sizes",
        "result_sizes",
        "await_timepoint",
    )

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncExecuteOp:
        clauses, rest = split_clauses(parts)
        captures, region, timepoint_type = rest
        types, sizes, tied = resolve_shaped_results(captures.results, captures.operands, location)
        awaited = [clauses["await"]] if "await" in clauses else []
        groups = [captures.operands, captures.sizes, sizes, awaited]
        return cls(
            [v for group in groups for v in group],
            [*types, timepoint_type],
            op_attributes(clauses),
            [region],
            location=location,
            segments=[len(group) for group in groups],
            tied_operands=tied,
        )

    @classmethod
    def create(
        cls,
        operands: Sequence[Value],
        operand_sizes: Sequence[Value],
        result_types: Sequence[Type],
        result_sizes: Sequence[Value],
        tied_operands: Sequence[int | None] | None = None,
        await_timepoint: Value | None = None,
        affinity: Attribute | None = None,
    ) -> AsyncExecuteOp:
        """An execute region capturing `operands`; its block has one argument per capture and
        no ops yet (the caller fills it and ends it with a `stream.yield`)."""
        awaited = [await_timepoint] if await_timepoint is not None else []
        groups = [list(operands), list(operand_sizes), list(result_sizes), awaited]
        return cls(
            [v for group in groups for v in group],
            [*result_types, TIMEPOINT],
            with_affinity(None, affinity),
            [_new_region([v.type for v in operands])],
            segments=[len(group) for group in groups],
            tied_operands=tied_operands,
        )

    @property
    def resource_result_count(self) -> int:
        return len(self.results) - 1

    @property
    def await_timepoint(self) -> Value | None:
        return self.operands[-1] if self.segments[3] else None

    @property
    def await_timepoints(self) -> list[Value]:
        return self.segment(3)

    @property
    def result_timepoint(self) -> OpResult:
        return self.results[-1]

    def asm_result_name(self, index: int) -> str | None:
        # ODS names the two result groups `results` and `result_timepoint`.
        if index == len(self.results) - 1:
            return "result_timepoint"
        return "results" if index == 0 else None

    def verify(self) -> None:
        super().verify()
        check_timepoint(self, "result", len(self.results) - 1, self.results[-1].type)
        if self.segments[3]:
            check_timepoint(self, "operand", len(self.operands) - 1, self.operands[-1].type)

    def print(self, p: Printer) -> None:
        p.write("stream.async.execute")
        self.print_affinity(p)
        if self.segments[3]:
            p.write(f" await({p.v(self.operands[-1])}) =>")
        p.write(" ")
        self._print_captures(p)
        p.write(f" => {self.results[-1].type}")
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class AsyncConcurrentOp(ResourceRegionOp):
    """`%r:2 = stream.async.concurrent with(%x as %arg0: T{%s}) -> (...) { ... }`: a wave of
    work inside an execute (or another concurrent) region."""

    __slots__ = ()
    name = "stream.async.concurrent"
    inherent_attributes = frozenset({"tied_operands", "affinity"})
    operand_types = {"resource_operand_sizes": INDEX_CONSTRAINT, "result_sizes": INDEX_CONSTRAINT}
    segment_names = ("resource_operands", "resource_operand_sizes", "result_sizes")

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> AsyncConcurrentOp:
        clauses, rest = split_clauses(parts)
        captures, region = rest
        types, sizes, tied = resolve_shaped_results(captures.results, captures.operands, location)
        groups = [captures.operands, captures.sizes, sizes]
        return cls(
            [v for group in groups for v in group],
            types,
            op_attributes(clauses),
            [region],
            location=location,
            segments=[len(group) for group in groups],
            tied_operands=tied,
        )

    @classmethod
    def create(
        cls,
        operands: Sequence[Value],
        operand_sizes: Sequence[Value],
        result_types: Sequence[Type],
        result_sizes: Sequence[Value],
        tied_operands: Sequence[int | None] | None = None,
        affinity: Attribute | None = None,
    ) -> AsyncConcurrentOp:
        """A concurrent region capturing `operands` (body left empty for the caller)."""
        groups = [list(operands), list(operand_sizes), list(result_sizes)]
        return cls(
            [v for group in groups for v in group],
            list(result_types),
            with_affinity(None, affinity),
            [_new_region([v.type for v in operands])],
            segments=[len(group) for group in groups],
            tied_operands=tied_operands,
        )

    def verify(self) -> None:
        parent = self.parent_op
        if parent is None or parent.name not in ("stream.async.execute", "stream.async.concurrent"):
            raise op_error(
                self,
                "expects parent op to be one of 'stream.async.execute, stream.async.concurrent'",
            )
        super().verify()

    def print(self, p: Printer) -> None:
        p.write("stream.async.concurrent")
        self.print_affinity(p)
        p.write(" ")
        self._print_captures(p)
        p.attr_dict(self, ("affinity",), keyword=True)
