"""stream async control-flow ops (IREE's "Async control flow ops"): `stream.async.dispatch`,
`stream.async.func`, `stream.async.call`, and the execution regions `stream.async.execute` and
`stream.async.concurrent`.

Dispatches and calls share custom<DispatchOperands> (resources with their ranges) and
custom<ShapedFunctionType>; execution regions share custom<ResourceRegion> (captures that
become the region's arguments). Results of all four may be tied to an operand, by their
`tied_operands` attribute: one function reads tied results for all of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from streamopt.diagnostics import Location, error
from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.common import (
    ANY_ATTRIBUTE,
    SYMBOL_NAME,
    TIED_OPERANDS,
    TYPE,
    TYPE_ARRAY,
    VISIBILITY,
    SegmentedOp,
    ValueKind,
    array_of,
    check_operand_type,
    flat_symbol,
    op_error,
    resolve_tied_results,
    result_list_text,
    shaped_result_texts,
    shaped_type_texts,
)
from streamopt.dialects.stream.base import (
    AFFINITY,
    ANY_OR_STAGING_RESOURCE,
    ANY_RESOURCE,
    ANY_RESOURCE_OR_PRIMITIVE,
    ARRAY,
    AWAIT,
    ON,
    StreamOp,
    TimelineOp,
    YieldOp,
    check_lifetime,
    check_size_counts,
    check_timepoint,
    check_variadic_results,
    field_values,
    print_captures,
    verify_workload,
)
from streamopt.ir.core import Access, Block, OpResult, RegionKind, Value
from streamopt.ir.opdef import (
    CustomDirective,
    DeclaredOp,
    attr_def,
    custom_directive,
    operand_def,
    region_def,
    result_def,
)
from streamopt.ir.types import (
    INDEX_CONSTRAINT,
    TIMEPOINT,
    TIMEPOINT_CONSTRAINT,
    ArrayAttr,
    Attribute,
    DictAttr,
    FunctionType,
    OpaqueType,
    ResourceType,
    SymbolRefAttr,
    Type,
    TypeAttr,
    print_attr_dict,
    symbol_ref_from_text,
)
from streamopt.parser.lalr import Tree
from streamopt.parser.parts import AttrDict, OperandRange, ShapedResults, Sized
from streamopt.records import Record

if TYPE_CHECKING:
    from streamopt.ir.opdef import FormatReader
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


@parse_rule("stream_dispatch_operands")
def _dispatch_operands(b: Builder, children: list[Any]) -> list[Any]:
    return children[0] if children else []


def _parse_dispatch_operands(
    reader: FormatReader, part: list[Any], args: Sequence[tuple[str, str]]
) -> None:
    groups: list[list[Value]] = [[], [], [], []]
    for item in part:
        for group, value in zip(groups, item if isinstance(item, OperandRange) else (item,)):
            group.append(value)
    for (_, name), group in zip(args, groups):
        reader.operands[name] = group


def _print_dispatch_operands(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    operands, *bounds = field_values(op, args)
    ranges = zip(*bounds)
    parts: list[str] = []
    v = p.value_name
    for value in operands:
        found = next(ranges, None) if isinstance(value.type, ResourceType) else None
        if found is None:
            parts.append(v(value))
        else:
            parts.append(f"{v(value)}[{v(found[0])} to {v(found[1])} for {v(found[2])}]")
    return "(" + ", ".join(parts) + ")"


# `custom<DispatchOperands>($operands, $offsets, $ends, $lengths)`: `(%a[%o to %e for %l], %c)`,
# each resource with the range the op touches.
custom_directive(
    "DispatchOperands",
    CustomDirective("stream_dispatch_operands", _parse_dispatch_operands, _print_dispatch_operands),
)


@parse_rule("stream_function_type")
@parse_rule("stream_encoded_function_type")
def _function_type(b: Builder, children: list[Any]) -> tuple[list[Any], ShapedResults]:
    return (children[0] if len(children) > 1 else []), children[-1]


def _parse_function_type(
    reader: FormatReader, part: tuple[list[Any], Sequence[Any]], args: Sequence[tuple[str, str]]
) -> None:
    operands, _, sizes, *results = (name for _, name in args)
    written, items = part
    count = len(reader.operands.get(operands) or ())
    if len(written) != count:
        message = "number of operands and types do not match: got {} operands and {} types"
        raise error(message.format(count, len(written)), reader.location)
    reader.set_type(operands, [t.type if isinstance(t, Sized) else t for t in written])
    reader.operands[sizes] = [size for t in written if isinstance(t, Sized) for size in t.sizes]
    resolve_tied_results(reader, items, operands, results)


def _print_function_type(
    op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]], encoded: Sequence[Any] = ()
) -> str:
    values, _, sizes, results, result_sizes, tied = field_values(op, args)
    operands = shaped_type_texts(p, [v.type for v in values], sizes)
    outs = shaped_result_texts(p, values, [r.type for r in results], result_sizes, tied)
    if encoded:
        encodings, dims, result_encodings, result_dims = encoded
        operands = _with_encodings(p, encodings, dims, operands)
        outs = _with_encodings(p, result_encodings, result_dims, outs)
    return f"({', '.join(operands)}) -> {result_list_text(outs)}"


# `custom<ShapedFunctionType>(ref($operands), type($operands), $operand_sizes, type($results),
# $result_sizes, $tied_operands)`: `(T{%s}, index) -> (%x{%s}, T{%s2})`.
custom_directive(
    "ShapedFunctionType",
    CustomDirective("stream_function_type", _parse_function_type, _print_function_type),
)

# IREE's Util::UnusedType: the encoding of an entry written without one.
UNUSED = OpaqueType("!util.unused")


def _without_encodings(entries: Sequence[Any]) -> tuple[list[Any], Attribute, list[Value]]:
    """`entries` without their encodings; the encodings (UNUSED where an entry has none) as
    a TypeArrayAttr, and their dims."""
    inner: list[Any] = []
    encodings: list[Type] = []
    dims: list[Value] = []
    for entry in entries:
        encoding: Any = UNUSED
        if isinstance(entry, Tree):  # `E{%d} in T{%s}`: the grammar's stream_encoded.
            encoding, entry = entry.children
        if isinstance(encoding, Sized):
            dims.extend(encoding.sizes)
            encoding = encoding.type
        inner.append(entry)
        encodings.append(encoding)
    return inner, TYPE_ARRAY.make(encodings), dims


def _with_encodings(
    p: Printer, encodings: Sequence[Type], dims: Sequence[Value], entries: Sequence[str]
) -> list[str]:
    """Each of `entries` after its encoding with dims and `in` (none where it is UNUSED)."""
    texts = iter(shaped_type_texts(p, [e for e in encodings if e != UNUSED], dims))
    return [
        e if encoding == UNUSED else f"{next(texts)} in {e}"
        for encoding, e in zip(encodings, entries)
    ]


# Where the arguments of custom<ShapedFunctionType> are among those of
# custom<EncodedShapedFunctionType>, and where the encodings and their dims are.
_SHAPED, _ENCODINGS = (0, 1, 2, 5, 6, 9), (3, 4, 7, 8)


def _parse_encoded(
    reader: FormatReader, part: tuple[list[Any], ShapedResults], args: Sequence[tuple[str, str]]
) -> None:
    encodings, dims, result_encodings, result_dims = (args[i][1] for i in _ENCODINGS)
    operands, results = (_without_encodings(entries) for entries in part)
    written, reader.attributes[encodings], reader.operands[dims] = operands
    items, reader.attributes[result_encodings], reader.operands[result_dims] = results
    _parse_function_type(reader, (written, items), [args[i] for i in _SHAPED])


def _print_encoded(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    encoded = field_values(op, [args[i] for i in _ENCODINGS])
    return _print_function_type(op, p, [args[i] for i in _SHAPED], encoded)


# `custom<EncodedShapedFunctionType>(ref($operands), type($operands), $operand_sizes,
# $operand_encodings, $operand_encoding_dims, type($results), $result_sizes, $result_encodings,
# $result_encoding_dims, $tied_operands)`: custom<ShapedFunctionType> whose entries may follow
# their encoding and its dims, `(tensor<?x4xf32>{%d} in !stream.resource<*>{%s}, index) ->
# tensor<4xf32> in %x{%s}`.
custom_directive(
    "EncodedShapedFunctionType",
    CustomDirective("stream_encoded_function_type", _parse_encoded, _print_encoded),
)


class TiedResourcesOp(StreamOp, SegmentedOp):
    """An op that reads the resources of its operand list declared with an access (a dispatch's
    or call's `resource_operands`, stream.tensor.dispatch's `mixed_operands`) and writes one in
    place when a result is tied to it (IREE's getAsyncAccessRanges); its other operands are
    plain values."""

    # Fields each op declares (in its own order).
    tied_operands: tuple[int | None, ...] | None
    results_: list[OpResult]

    @classmethod
    def create(cls, *args: Any, **kwargs: Any) -> Any:
        """The op (see DeclaredOp.create); results not tied unless `tied_operands` says."""
        op = super().create(*args, **kwargs)
        if op.tied_operands is None:
            op.attributes["tied_operands"] = TIED_OPERANDS.make([None] * len(op.results_))
        return op

    def operand_access(self, index: int) -> Access:
        found = self.definition.locate_operand(self, index)
        if found is None or not isinstance(self.operands[index].type, ResourceType):
            return Access.NONE
        field, position = found
        if field.access and position in (self.tied_operands or ()):
            return field.access | Access.WRITE
        return field.access

    def verify(self) -> None:
        # IREE's verifyOpValueSizes: each list of sizes has one per resource of its list.
        definition = self.definition
        for field in definition.operand_list:
            if field.sizes:
                values = definition.field_value(self, field.sizes[0])
                sizes = definition.field_value(self, field.name)
                check_size_counts(self, [v.type for v in values], sizes)


_OPERANDS = (
    "custom<DispatchOperands>($resource_operands, $resource_operand_offsets, "
    "$resource_operand_ends, $resource_operand_lengths) attr-dict `:` "
    "custom<ShapedFunctionType>(ref($resource_operands), type($resource_operands), "
    "$resource_operand_sizes, type($results), $result_sizes, $tied_operands)"
)


@register_op
class AsyncDispatchOp(TiedResourcesOp):
    """`stream.async.dispatch on(A) @ex::@fn[%w](%a[%o to %e for %l], %c) : (...) -> (...)`."""

    name = "stream.async.dispatch"
    operand_types_first = True
    is_pure = True
    workload = operand_def(INDEX_CONSTRAINT, variadic=True)
    entry_points: list[Attribute] = attr_def(ARRAY)
    resource_operands = operand_def(ANY_RESOURCE_OR_PRIMITIVE, variadic=True, access=Access.READ)
    resource_operand_sizes = operand_def(
        INDEX_CONSTRAINT, variadic=True, size_of="resource_operands"
    )
    resource_operand_offsets = operand_def(INDEX_CONSTRAINT, variadic=True)
    resource_operand_ends = operand_def(INDEX_CONSTRAINT, variadic=True)
    resource_operand_lengths = operand_def(INDEX_CONSTRAINT, variadic=True)
    result_sizes = operand_def(INDEX_CONSTRAINT, variadic=True, size_of="results")
    tied_operands = attr_def(TIED_OPERANDS)
    affinity: Attribute | None = attr_def(AFFINITY)
    results_ = result_def(variadic=True, tied_to="resource_operands")
    assembly_format = ON + (
        "custom<DispatchEntryPoints>($entry_points) (`[` $workload^ `]`)? `` " + _OPERANDS
    )

    def verify(self) -> None:
        check_variadic_results(self, self.results_, ANY_RESOURCE)
        super().verify()
        for index, tied in enumerate(self.tied_operands or ()):
            if tied is not None and not 0 <= tied < len(self.resource_operands):
                raise op_error(self, f"result #{index} tied to invalid operand index {tied}")
        if not self.entry_points:
            raise op_error(self, "at least one entry point must be defined")

    def verify_in_module(self, context: Any) -> None:
        verify_workload(self, self.entry_points, len(self.workload), context)


class _FuncResult(Record):
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


@parse_rule("async_func_results")
@parse_rule("async_func_bare_results")
def _async_func_results(b: Builder, children: list[Any]) -> _FuncResults:
    # Without parentheses a result may be a bare type; within them each is a _FuncResult.
    return _FuncResults(
        child if isinstance(child, _FuncResult) else _FuncResult(None, child, None)
        for child in children
    )


# The arguments' or results' attribute dictionaries; the accessor gives each (or None).
_DICTS = ValueKind(
    lambda dicts: ArrayAttr(DictAttr(entries or {}) for entries in dicts),
    lambda attribute: [element.entries or None for element in attribute.elements],
    generic=array_of(DictAttr),
)


@parse_rule("stream_function_signature")
def _function_signature(b: Builder, children: list[Any]) -> tuple[list[Any], list[_FuncResult]]:
    arguments: list[Any] = next((c for c in children if not isinstance(c, _FuncResults)), [])
    return arguments, next((c for c in children if isinstance(c, _FuncResults)), _FuncResults())


def _parse_signature(
    reader: FormatReader, part: tuple[list[Any], list[_FuncResult]], args: Sequence[Any]
) -> None:
    function_type, tied, arg_attrs, res_attrs = (name for _, name in args)
    arguments, results = part
    if any(name is None for name, _, _ in arguments):
        raise error("expected SSA operand: async function arguments are named", reader.location)
    names = [str(name) for name, _, _ in arguments]
    inputs = [type for _, type, _ in arguments]
    outputs: list[Type] = []
    ties: list[int | None] = []
    for result in results:
        index = None
        if result.tied_name is not None:
            if str(result.tied_name) not in names:
                raise error(
                    f"tied operand not found for result reference {result.tied_name}",
                    reader.builder.location(result.tied_name),
                )
            index = names.index(str(result.tied_name))
        ties.append(index)
        outputs.append(result.type if result.type is not None else inputs[index])  # type: ignore[index]
    reader.attributes[function_type] = TypeAttr(FunctionType(inputs, outputs))
    reader.attributes[tied] = TIED_OPERANDS.make(ties)
    reader.attributes[arg_attrs] = _DICTS.make([attrs for _, _, attrs in arguments])
    reader.attributes[res_attrs] = _DICTS.make([r.attributes for r in results])


def _print_signature(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> str:
    function_type, tied, arg_attrs, res_attrs = (getattr(op, name) for _, name in args)
    inputs, results = function_type.inputs, function_type.results

    def with_attributes(text: str, attributes: dict[str, Attribute] | None) -> str:
        return text + " " + print_attr_dict(attributes) if attributes else text

    arguments = ", ".join(
        with_attributes(f"%arg{i}: {type.text}", attrs)
        for i, (type, attrs) in enumerate(zip(inputs, arg_attrs))
    )
    if not results:
        return f"({arguments})"
    items: list[str] = []
    for type, index, attrs in zip(results, tied, res_attrs):
        if index is None:
            text = type.text
        else:
            text = f"%arg{index}" + (f" as {type.text}" if inputs[index] != type else "")
        items.append(with_attributes(text, attrs))
    joined = ", ".join(items)
    if len(results) != 1 or any(res_attrs):
        joined = f"({joined})"
    return f"({arguments}) -> {joined}"


# `custom<ShapedFunctionSignature>($function_type, $tied_operands, $arg_attrs, $res_attrs)`:
# `(%arg0: T, %arg1: index) -> %arg0`, results that may be tied to arguments by name.
custom_directive(
    "ShapedFunctionSignature",
    CustomDirective("stream_function_signature", _parse_signature, _print_signature),
)


@register_op
class AsyncFuncOp(DeclaredOp):
    """`stream.async.func private @f(%arg0: T, %arg1: index) -> %arg0`: an external function
    that `stream.async.call` can call. streamopt models declarations only (IREE's format
    ends in an optional `($body^)?`)."""

    name = "stream.async.func"
    is_isolated_from_above = True
    region_kind = RegionKind.CALLABLE
    sym_name: str = attr_def(SYMBOL_NAME)
    function_type: FunctionType = attr_def(TYPE)
    tied_operands: tuple[int | None, ...] = attr_def(TIED_OPERANDS)
    sym_visibility: str | None = attr_def(VISIBILITY)
    arg_attrs = attr_def(_DICTS)
    res_attrs = attr_def(_DICTS)
    models_generic_form = False  # IREE's op has a region (the body) in the generic form.
    assembly_format = (
        "($sym_visibility^)? $sym_name `` custom<ShapedFunctionSignature>($function_type, "
        "$tied_operands, $arg_attrs, $res_attrs) attr-dict-with-keyword"
    )

    @property
    def is_public(self) -> bool:
        return self.sym_visibility in (None, "public")

    is_declaration = True

    def tied_result_argument(self, result_index: int) -> int | None:
        """The argument result `result_index` is tied to, if any."""
        return self.tied_operands[result_index]

    def verify(self) -> None:
        if self.is_public:
            raise op_error(self, "symbol declaration cannot have public visibility")


# A flat symbol reference (`@f`): a callee.
_SYMBOL = ValueKind(
    lambda name: SymbolRefAttr([name]),
    None,
    "SYMBOL_REF",
    lambda part: symbol_ref_from_text(str(part)),
    flat_symbol,
)


@register_op
class AsyncCallOp(TiedResourcesOp):
    """`%r = stream.async.call on(A) @f(%x[%o to %e for %l], %n) : (T{%s}, index) -> %x{%s}`."""

    name = "stream.async.call"
    operand_types_first = True
    callee: SymbolRefAttr = attr_def(_SYMBOL)
    resource_operands = operand_def(variadic=True, access=Access.READ)
    resource_operand_sizes = operand_def(
        INDEX_CONSTRAINT, variadic=True, size_of="resource_operands"
    )
    resource_operand_offsets = operand_def(INDEX_CONSTRAINT, variadic=True)
    resource_operand_ends = operand_def(INDEX_CONSTRAINT, variadic=True)
    resource_operand_lengths = operand_def(INDEX_CONSTRAINT, variadic=True)
    result_sizes = operand_def(INDEX_CONSTRAINT, variadic=True, size_of="results")
    tied_operands = attr_def(TIED_OPERANDS)
    arg_attrs = attr_def(ANY_ATTRIBUTE)
    res_attrs = attr_def(ANY_ATTRIBUTE)
    affinity: Attribute | None = attr_def(AFFINITY)
    results_ = result_def(variadic=True, tied_to="resource_operands")
    assembly_format = ON + "$callee `` " + _OPERANDS

    def verify(self) -> None:
        check_variadic_results(self, self.results_, ANY_RESOURCE_OR_PRIMITIVE)
        super().verify()
        operands = self.resource_operands
        required = sum(1 for v in operands if isinstance(v.type, ResourceType))
        present = len(self.resource_operand_offsets)
        if (
            len(self.resource_operand_ends) != present
            or len(self.resource_operand_lengths) != present
        ):
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
        # Imported here, as verify_workload does: most runs verify no call.
        from streamopt.ir.symbols import SymbolTable

        callee = SymbolTable.lookup_nearest(self, self.callee)
        # A callee streamopt does not model (a stream.async.func in the generic form) may be one.
        if callee is None or (callee.is_known and not isinstance(callee, AsyncFuncOp)):
            raise op_error(self, f"undefined external call: {self.callee.root}")
        if not isinstance(callee, AsyncFuncOp):
            return
        calls = ([v.type for v in operands], [r.type for r in self.results])
        callee_type = callee.function_type
        if [len(types) for types in calls] != [len(callee_type.inputs), len(callee_type.results)]:
            inputs, results = ([t for t in types if t is not None] for types in calls)
            expected = FunctionType(inputs, results).text
            raise op_error(
                self,
                f"function type mismatch; expected '{expected}' but callee is '{callee_type.text}'",
            )
        for what, callee_types, call_types in zip(
            ("argument", "result"), (callee_type.inputs, callee_type.results), calls
        ):
            for provided, expected in zip(callee_types, call_types):
                # IREE allows an async function to declare `*` for any resource lifetime of
                # the call.
                if provided != expected and not (
                    isinstance(provided, ResourceType)
                    and isinstance(expected, ResourceType)
                    and provided.lifetime == "*"
                ):
                    raise op_error(
                        self,
                        f"function {what} type mismatch; expected '{expected}' but callee "
                        f"provides '{provided}'",
                    )


class ResourceCaptures(Record):
    """`(%x as %arg0: T{%s}, ...) -> (results)` of an execute or concurrent region; `types`,
    each operand's type as written and where, checked once the region is read."""

    operands: list[Value]
    sizes: list[Value]
    results: list[Any]
    types: list[tuple[Type, Location]]


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
    # The region that follows gets one entry argument per capture.
    b.pending_entry_args = [(arg_token, sized.type, None) for _, arg_token, sized in captures]
    sizes = [size for _, _, sized in captures for size in sized.sizes]
    types = [(sized.type, b.location(arg_token)) for _, arg_token, sized in captures]
    return ResourceCaptures([value for value, _, _ in captures], sizes, results, types)


def _parse_resource_region(
    reader: FormatReader, part: tuple[ResourceCaptures, Any], args: Sequence[tuple[str, str]]
) -> None:
    operands, _, sizes, *results, body = (name for _, name in args)
    captures, region = part
    # IREE's parser resolves the captured operands after it has read the region: a wrong type
    # in the region is the first error.
    for value, (type, location) in zip(captures.operands, captures.types):
        check_operand_type(value, type, location)
    reader.operands[operands] = captures.operands
    reader.operands[sizes] = captures.sizes
    resolve_tied_results(reader, captures.results, operands, results)
    reader.regions[body] = region


def _print_resource_region(op: DeclaredOp, p: Printer, args: Sequence[tuple[str, str]]) -> None:
    values, _, sizes, results, result_sizes, tied, region = field_values(op, args)
    p.write(print_captures(p, values, region.blocks[0].arguments, sizes))
    if results:
        texts = shaped_result_texts(p, values, [r.type for r in results], result_sizes, tied)
        p.write(" -> " + result_list_text(texts))
    p.write(" ")
    p.print_region(region)


# `custom<ResourceRegion>($operands, type($operands), $operand_sizes, type($results),
# $result_sizes, $tied_operands, $body)`: `(%x as %arg0: T{%s}) -> (%x{%s}, T{%s2}) {...}`,
# the captured operands with the region arguments that stand for them.
custom_directive(
    "ResourceRegion",
    CustomDirective(
        "resource_captures region",
        _parse_resource_region,
        _print_resource_region,
        parts=2,
        writes=True,
    ),
)


class ResourceRegionOp(TiedResourcesOp):
    """Shared by `stream.async.execute` and `stream.async.concurrent`: captured resources become
    the region's entry arguments, the region's `stream.yield` gives the resource results, and
    results may be tied to (update in place) a captured operand."""

    region_kind = RegionKind.ONCE
    resource_operands = operand_def(variadic=True, access=Access.READ)
    resource_operand_sizes = operand_def(
        INDEX_CONSTRAINT, variadic=True, size_of="resource_operands"
    )
    result_sizes = operand_def(INDEX_CONSTRAINT, variadic=True, size_of="results")
    tied_operands = attr_def(TIED_OPERANDS)
    affinity: Attribute | None = attr_def(AFFINITY)
    body_ = region_def(arguments="resource_operands")
    _REGION = (
        "`with` `` custom<ResourceRegion>($resource_operands, type($resource_operands), "
        "$resource_operand_sizes, type($results), $result_sizes, $tied_operands, $body)"
    )

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
        for index, (_, argument) in enumerate(zip(self.resource_operands, arguments)):
            yield index, (argument,)

    def verify(self) -> None:
        operands, results = self.resource_operands, self.results_
        for what, values in (("operand", operands), ("result", results)):
            for i, value in enumerate(values):
                check_lifetime(self, what, i, value.type, ANY_OR_STAGING_RESOURCE)
        super().verify()
        if len(self.regions) != 1 or len(self.regions[0].blocks) != 1:
            raise op_error(self, "expects a region with one block")
        body = self.body
        if [a.type for a in body.arguments] != [v.type for v in operands]:
            raise op_error(self, "region arguments do not match the captured operands")
        # Every resource used in the body is captured or produced there (IREE's
        # verifyAllResourcesCaptured); values from outside must come in through `with(...)`.
        for op in body.ops:
            for operand in op.operands:
                its_own = isinstance(operand, OpResult) and operand.op is op
                if isinstance(operand.type, ResourceType) and (
                    operand.parent_block is not body or its_own
                ):
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


@register_op
class AsyncExecuteOp(ResourceRegionOp, TimelineOp):
    """`%results:2, %result_timepoint = stream.async.execute on(A) await(%t) =>
    with(%x as %arg0: T{%s}) -> (%x{%s}, T{%s2}) { ... } => !stream.timepoint`."""

    name = "stream.async.execute"
    await_timepoint = operand_def(TIMEPOINT_CONSTRAINT, optional=True)
    results_ = result_def(variadic=True, tied_to="resource_operands", asm_name="results")
    result_timepoint = result_def(TIMEPOINT, asm_name="result_timepoint")
    assembly_format = (
        ON + AWAIT + "? " + ResourceRegionOp._REGION + " `=` `` `>` type($result_timepoint) "
        "attr-dict-with-keyword"
    )

    def verify(self) -> None:
        super().verify()
        check_timepoint(self, "result", len(self.results) - 1, self.results[-1].type)


@register_op
class AsyncConcurrentOp(ResourceRegionOp):
    """`%r:2 = stream.async.concurrent with(%x as %arg0: T{%s}) -> (...) { ... }`: a wave of
    work inside an execute (or another concurrent) region."""

    name = "stream.async.concurrent"
    results_ = result_def(variadic=True, tied_to="resource_operands")
    parent_names = ("stream.async.execute", "stream.async.concurrent")
    assembly_format = ON + ResourceRegionOp._REGION + " attr-dict-with-keyword"
