"""stream resource ops: timeline allocation (`stream.resource.alloca` / `dealloca`), constant
uploads, sizes, host loads and stores, mapping, subviews and packing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from streamopt.diagnostics import Location
from streamopt.dialects import parse_rule, register_op
from streamopt.dialects.common import (
    SegmentedOp,
    affinity_attrs,
    check_operand_type,
    require_index_type,
)
from streamopt.dialects.stream.base import (
    StreamOp,
    _TimelineOpBase,
    check_sized_operand,
    keyword_attributes,
    one_size,
    op_error,
    parts_of_kind,
    require_resource,
    require_timepoint,
    sized_text,
    split_keywords,
)
from streamopt.ir.core import Access, Operation, OpResult, Value
from streamopt.ir.opdef import DeclaredOp, operand_def, result_def
from streamopt.ir.types import (
    I1,
    INDEX,
    INDEX_CONSTRAINT,
    TIMEPOINT,
    TIMEPOINT_CONSTRAINT,
    UNIT,
    ArrayAttr,
    Attribute,
    ResourceType,
    Type,
)
from streamopt.parser.interpret import integer_literal
from streamopt.parser.parts import AttrDict, Clause, Sized

if TYPE_CHECKING:
    from streamopt.parser.builder import Builder
    from streamopt.printer import Printer


@register_op
class ResourceAllocaOp(_TimelineOpBase):
    """`stream.resource.alloca`: allocate memory with undefined contents on a timeline.

        %r, %t = stream.resource.alloca uninitialized on(A) await(%t0) =>
            !stream.resource<transient>{%s} => !stream.timepoint

    The memory is usable once the result timepoint is reached. `indeterminate` marks a lifetime
    analysis could not bound: it must not be freed asynchronously.
    """

    __slots__ = ()
    name = "stream.resource.alloca"
    inherent_attributes = frozenset({"indeterminate_lifetime", "affinity"})
    operand_types = {"storage_size": INDEX_CONSTRAINT, "await_timepoint": TIMEPOINT_CONSTRAINT}
    fixed_operand_count = 1

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourceAllocaOp:
        clauses, rest = split_keywords(parts)
        attributes = keyword_attributes(clauses)
        for part in rest:
            if isinstance(part, AttrDict):
                attributes.update(part)
        sized: Sized = parts_of_kind(rest, Sized)[0]
        timepoint_type: Type = next(p for p in rest if isinstance(p, Type))
        require_timepoint(timepoint_type, location)
        operands = [one_size(sized, location)]
        if "await" in clauses:
            check_operand_type(clauses["await"], TIMEPOINT, location)
            operands.append(clauses["await"])
        if "indeterminate" in clauses:
            attributes["indeterminate_lifetime"] = UNIT
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        return cls(operands, [sized.type, TIMEPOINT], attributes, location=location)

    @classmethod
    def create(
        cls,
        size: Value,
        type: ResourceType,
        affinity: Attribute | None = None,
        await_timepoint: Value | None = None,
        indeterminate: bool = False,
    ) -> ResourceAllocaOp:
        """An allocation of `size` bytes of `type`, on `affinity`, after `await_timepoint`."""
        attributes: dict[str, Attribute] = {}
        if indeterminate:
            attributes["indeterminate_lifetime"] = UNIT
        if affinity is not None:
            attributes["affinity"] = affinity
        operands = [size] if await_timepoint is None else [size, await_timepoint]
        return cls(operands, [type, TIMEPOINT], attributes)

    @property
    def storage_size(self) -> Value:
        return self.operands[0]

    @property
    def indeterminate_lifetime(self) -> bool:
        return "indeterminate_lifetime" in self.attribute_map

    def result_size(self, index: int) -> Value | None:
        return self.storage_size if index == 0 else None

    def asm_result_name(self, index: int) -> str | None:
        return ("result", "result_timepoint")[index]

    def verify(self) -> None:
        if not isinstance(self.results[0].type, ResourceType):
            raise op_error(
                self,
                f"result #0 must be any stream-compatible type, but got '{self.results[0].type}'",
            )

    def print(self, p: Printer) -> None:
        p.write("stream.resource.alloca uninitialized")
        if self.indeterminate_lifetime:
            p.write(" indeterminate")
        self.print_affinity(p)
        if not self.print_await(p):
            p.write(" :")
        p.attr_dict(self, ("affinity", "indeterminate_lifetime"))
        p.write(f" {sized_text(p, self.results[0].type, self.storage_size)} => !stream.timepoint")


@register_op
class ResourceDeallocaOp(_TimelineOpBase):
    """`%t = stream.resource.dealloca origin? on(A) await(%t0) => %r : T{%s} => !stream.timepoint`.

    Frees `%r` once the await timepoint is reached; the result timepoint says when the memory
    may be reused. `origin` asks to free it on the queue that allocated it.
    """

    __slots__ = ()
    name = "stream.resource.dealloca"
    inherent_attributes = frozenset({"prefer_origin", "affinity"})
    operand_types = {"resource_size": INDEX_CONSTRAINT, "await_timepoint": TIMEPOINT_CONSTRAINT}
    fixed_operand_count = 2

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourceDeallocaOp:
        clauses, rest = split_keywords(parts)
        attributes = keyword_attributes(clauses)
        resource: Value = rest[0]
        sized: Sized = rest[1]
        require_timepoint(rest[2], location)
        for part in rest[3:]:
            if isinstance(part, AttrDict):
                attributes.update(part)
        operands = [resource, check_sized_operand(resource, sized, location)]
        if "await" in clauses:
            check_operand_type(clauses["await"], TIMEPOINT, location)
            operands.append(clauses["await"])
        if "origin" in clauses:
            attributes["prefer_origin"] = UNIT
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        return cls(operands, [TIMEPOINT], attributes, location=location)

    @classmethod
    def create(
        cls,
        resource: Value,
        size: Value,
        affinity: Attribute | None = None,
        await_timepoint: Value | None = None,
        prefer_origin: bool = False,
    ) -> ResourceDeallocaOp:
        """Free `resource` (of `size` bytes) on `affinity` after `await_timepoint`."""
        attributes: dict[str, Attribute] = {}
        if prefer_origin:
            attributes["prefer_origin"] = UNIT
        if affinity is not None:
            attributes["affinity"] = affinity
        operands = (
            [resource, size] if await_timepoint is None else [resource, size, await_timepoint]
        )
        return cls(operands, [TIMEPOINT], attributes)

    @property
    def resource(self) -> Value:
        return self.operands[0]

    @property
    def resource_size(self) -> Value:
        return self.operands[1]

    @property
    def prefer_origin(self) -> bool:
        return "prefer_origin" in self.attribute_map

    def operand_access(self, index: int) -> Access:
        # Freeing ends the storage's life: nothing may use it afterwards.
        return Access.CONSUME if index == 0 else Access.NONE

    def operand_size(self, index: int) -> Value | None:
        return self.resource_size if index == 0 else None

    def print(self, p: Printer) -> None:
        p.write("stream.resource.dealloca")
        if self.prefer_origin:
            p.write(" origin")
        self.print_affinity(p)
        self.print_await(p)
        resource = self.resource
        p.write(f" {p.v(resource)} : {sized_text(p, resource.type, self.resource_size)}")
        p.write(" => !stream.timepoint")
        p.attr_dict(self, ("affinity", "prefer_origin"))


class ConstantValue(NamedTuple):
    """`T{%size} = value` in a `stream.resource.constants` list."""

    sized: Sized
    value: Attribute


@parse_rule("constant_value")
def _constant_value(b: Builder, children: list[Any]) -> ConstantValue:
    return ConstantValue(children[0], children[-1])


@register_op
class ResourceConstantsOp(StreamOp):
    """`stream.resource.constants`: upload (or map) constant values, on a timeline.

        %results:2, %result_timepoint = stream.resource.constants on(A) :
          !stream.resource<constant>{%c16} = dense<[1, 2, 3, 4]> : tensor<4xi32>,
          !stream.resource<constant>{%c8} = dense<1> : tensor<2xi32>
          => !stream.timepoint

    Each result holds its value once the result timepoint is reached. `constant` results are
    immutable; `variable` results are initial values of mutable storage.
    """

    __slots__ = ()
    name = "stream.resource.constants"
    inherent_attributes = frozenset({"values", "affinity"})
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourceConstantsOp:
        clauses, rest = split_keywords(parts)
        attributes: dict[str, Attribute] = {}
        constants: list[ConstantValue] = []
        for part in rest:
            if isinstance(part, AttrDict):
                attributes.update(part)
            elif isinstance(part, ConstantValue):
                constants.append(part)
        require_timepoint(rest[-1], location)
        for constant in constants:
            require_resource(constant.sized.type, location)
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        attributes["values"] = ArrayAttr(c.value for c in constants)
        return cls(
            [one_size(c.sized, location) for c in constants],
            [*(c.sized.type for c in constants), TIMEPOINT],
            attributes,
            location=location,
        )

    @classmethod
    def create(
        cls,
        constants: Sequence[tuple[Type, Value, Attribute]],
        affinity: Attribute | None = None,
    ) -> ResourceConstantsOp:
        """Upload each `(resource type, size, value)` on `affinity`."""
        attributes: dict[str, Attribute] = {"values": ArrayAttr(v for _, _, v in constants)}
        if affinity is not None:
            attributes["affinity"] = affinity
        return cls(
            [size for _, size, _ in constants],
            [*(type for type, _, _ in constants), TIMEPOINT],
            attributes,
        )

    @property
    def values(self) -> list[Attribute]:
        values = self.attributes["values"]
        return list(values.elements) if isinstance(values, ArrayAttr) else []

    @property
    def resource_results(self) -> Sequence[OpResult]:
        return self.results[:-1]

    @property
    def await_timepoints(self) -> list[Value]:
        return []

    @property
    def result_timepoint(self) -> OpResult:
        return self.results[-1]

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def result_size(self, index: int) -> Value | None:
        return self.operands[index] if index < len(self.operands) else None

    def asm_result_name(self, index: int) -> str | None:
        # MLIR names the variadic group `%results` and the timepoint `%result_timepoint`.
        if index == len(self.results) - 1:
            return "result_timepoint"
        return "results" if index == 0 else None

    def verify(self) -> None:
        results = self.resource_results
        if len(self.operands) != len(results) or len(self.values) != len(results):
            raise op_error(self, "mismatched constant/result counts")
        if len({r.type for r in results}) > 1:
            raise op_error(self, "all results must be of the same type")
        for index, result in enumerate(results):
            type = result.type
            if not isinstance(type, ResourceType) or type.lifetime not in ("constant", "variable"):
                raise op_error(
                    self,
                    f"result #{index} must be variadic of constant resource or variable resource, "
                    f"but got '{type}'",
                )

    def print(self, p: Printer) -> None:
        p.write("stream.resource.constants")
        self.print_affinity(p)
        p.attr_dict(self, ("affinity", "values"))
        p.write(" : ")
        indent = "\n" + " " * p.indent_width + "  "
        entries = [
            f"{indent}{sized_text(p, result.type, size)} = {value.text}"
            for result, size, value in zip(self.resource_results, self.operands, self.values)
        ]
        p.write(",".join(entries))
        p.write(f"{indent}=> !stream.timepoint")


@register_op
class ResourceSizeOp(DeclaredOp):
    """`%n = stream.resource.size %r : T`: the byte size of a resource's storage."""

    __slots__ = ()
    name = "stream.resource.size"
    inherent_attributes = frozenset({"affinity"})
    is_pure = True
    resource: Value = operand_def(check=require_resource)
    result: OpResult = result_def(INDEX)
    assembly_format = "$resource attr-dict `:` type($resource)"

    def operand_size(self, index: int) -> Value | None:
        # As in IREE: the size of the operand is what this op computes.
        return self.result

    def fold(self) -> list[Value] | None:
        """The size the resource's producer already carries, if it carries one."""
        resource = self.resource
        producer = resource.defining_op
        if producer is None:
            return None
        size = producer.result_size(resource.index)  # type: ignore[attr-defined]
        return [size] if size is not None else None


@register_op
class ResourceLoadOp(DeclaredOp):
    """`%v = stream.resource.load %r[%o] : !stream.resource<staging>{%s} -> i32`: a host read
    of one element of a staging resource (what `stream.async.load` lowers to)."""

    __slots__ = ()
    name = "stream.resource.load"
    source = operand_def(access=Access.READ, check=require_resource)
    source_size = operand_def(size_of="source")
    source_offset = operand_def()
    result = result_def()
    assembly_format = (
        "$source `[` $source_offset `]` `:` type($source) `` `{` $source_size `}` `->` "
        "type($result) attr-dict-with-keyword"
    )


@register_op
class ResourceStoreOp(DeclaredOp):
    """`stream.resource.store %v, %r[%o] : i32 -> !stream.resource<staging>{%s}`: a host write
    of one element of a staging resource (what `stream.async.store` lowers to)."""

    __slots__ = ()
    name = "stream.resource.store"
    target = operand_def(access=Access.WRITE, check=require_resource)
    target_size = operand_def(size_of="target")
    target_offset = operand_def()
    value = operand_def()
    assembly_format = (
        "$value `,` $target `[` $target_offset `]` `:` type($value) `->` type($target) "
        "`{` $target_size `}` attr-dict-with-keyword"
    )

    @classmethod
    def create(
        cls, value: Value, target: Value, target_size: Value, offset: Value
    ) -> ResourceStoreOp:
        return cls([target, target_size, offset, value], [])


@register_op
class ResourceTryMapOp(StreamOp):
    """`%ok, %r = stream.resource.try_map on(A) %buf[%o] : !util.buffer -> i1, T{%n}`: use host
    memory in place as a resource if the device can (`%ok`), as IREE's PackConstants does for
    constant data."""

    __slots__ = ()
    name = "stream.resource.try_map"
    inherent_attributes = frozenset({"affinity"})
    is_pure = True

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourceTryMapOp:
        clauses, rest = split_keywords(parts)
        source, offset, source_type, flag_type, sized = rest
        check_operand_type(source, source_type, location)
        require_resource(sized.type, location)
        attributes = keyword_attributes(clauses)
        affinity_attrs(clauses, attributes)
        operands = [source, offset, one_size(sized, location)]
        return cls(operands, [flag_type, sized.type], attributes, location=location)

    @classmethod
    def create(
        cls, source: Value, offset: Value, size: Value, type: ResourceType,
        affinity: Attribute | None,
    ) -> ResourceTryMapOp:  # fmt: skip
        attributes: dict[str, Attribute] = {} if affinity is None else {"affinity": affinity}
        return cls([source, offset, size], [I1, type], attributes)

    def result_size(self, index: int) -> Value | None:
        return self.operands[2] if index == 1 else None

    def asm_result_name(self, index: int) -> str | None:
        return ("did_map", "result")[index]

    def print(self, p: Printer) -> None:
        source, offset, size = self.operands
        p.write("stream.resource.try_map")
        self.print_affinity(p)
        p.write(
            f" {p.v(source)}[{p.v(offset)}] : {source.type} -> {self.results[0].type}, "
            f"{sized_text(p, self.results[1].type, size)}"
        )
        p.attr_dict(self, ("affinity",), keyword=True)


@register_op
class ResourceAllocOp(StreamOp):
    """`%r = stream.resource.alloc uninitialized on(A) : T{%n}`: allocate at once (not on a
    timeline), as IREE's PackConstants does for data it reads from a file."""

    __slots__ = ()
    name = "stream.resource.alloc"
    inherent_attributes = frozenset({"uninitialized", "affinity"})

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourceAllocOp:
        clauses, rest = split_keywords(parts)
        attributes = keyword_attributes(clauses)
        for part in rest:
            if isinstance(part, AttrDict):
                attributes.update(part)
        sized: Sized = parts_of_kind(rest, Sized)[0]
        require_resource(sized.type, location)
        affinity_attrs(clauses, attributes)
        if "uninitialized" in clauses:
            attributes["uninitialized"] = UNIT
        return cls([one_size(sized, location)], [sized.type], attributes, location=location)

    @classmethod
    def create(cls, size: Value, type: ResourceType, affinity: Attribute | None) -> ResourceAllocOp:
        attributes: dict[str, Attribute] = {"uninitialized": UNIT}
        if affinity is not None:
            attributes["affinity"] = affinity
        return cls([size], [type], attributes)

    def result_size(self, index: int) -> Value | None:
        return self.operands[0]

    def print(self, p: Printer) -> None:
        p.write("stream.resource.alloc")
        if "uninitialized" in self.attribute_map:
            p.write(" uninitialized")
        self.print_affinity(p)
        p.attr_dict(self, ("affinity", "uninitialized"))
        p.write(f" : {sized_text(p, self.results[0].type, self.operands[0])}")


@register_op
class ResourceSubviewOp(DeclaredOp):
    """`%v = stream.resource.subview %r[%offset] : T{%size} -> T{%length}`: an alias of a range."""

    __slots__ = ()
    name = "stream.resource.subview"
    is_pure = True
    # Making a view touches no bytes; what users of the view do reaches the source through the
    # tie.
    source = operand_def(check=require_resource)
    source_size = operand_def(INDEX_CONSTRAINT, size_of="source")
    source_offset = operand_def(INDEX_CONSTRAINT, type=INDEX)
    result_size_value = operand_def(INDEX_CONSTRAINT, size_of="result")
    result = result_def(check=require_resource)
    assembly_format = (
        "$source `[` $source_offset `]` `:` type($source) `` `{` $source_size `}` `->` "
        "type($result) `` `{` $result_size_value `}` attr-dict-with-keyword"
    )

    @classmethod
    def create(
        cls, source: Value, source_size: Value, offset: Value, length: Value
    ) -> ResourceSubviewOp:
        """A view of `length` bytes of `source` starting at `offset`."""
        return cls([source, source_size, offset, length], [source.type])

    def tied_operand_index(self, result_index: int) -> int | None:
        return 0

    def verify(self) -> None:
        if self.source.type != self.result.type:
            raise op_error(self, "failed to verify that all of {source, result} have same type")


class PackSlice(NamedTuple):
    """`[start, end] = %size` in `stream.resource.pack`: a slice live over [start, end]."""

    start: int
    end: int
    size: Value


@parse_rule("pack_offset")
def _pack_offset(b: Builder, children: list[Any]) -> Clause:
    return Clause("offset", children[-1])


@parse_rule("pack_slice")
def _pack_slice(b: Builder, children: list[Any]) -> PackSlice:
    start, end = (
        integer_literal(str(c)) for c in children if getattr(c, "type", None) == "INTEGER"
    )
    return PackSlice(start, end, children[-1])


@register_op
class ResourcePackOp(StreamOp, SegmentedOp):
    """`%total, %offsets:N = stream.resource.pack on(A) offset(%o)? slices({[0, 1] = %s, ...})
    : index`: place slices with the given lifetimes in one slab (slices whose lifetimes do not
    overlap may share bytes); results are the slab size and each slice's offset."""

    __slots__ = ("lifetime_intervals",)
    name = "stream.resource.pack"
    inherent_attributes = frozenset({"lifetime_intervals", "affinity"})
    operand_types = {"offset": INDEX_CONSTRAINT, "dynamic_slice_sizes": INDEX_CONSTRAINT}
    is_pure = True
    segment_names = ("offset", "dynamic_slice_sizes")

    def __init__(
        self, *args: Any, lifetime_intervals: Sequence[tuple[int, int]] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.lifetime_intervals: list[tuple[int, int]] = list(lifetime_intervals)

    def _copy_extra_state(self, new: Operation) -> None:
        SegmentedOp._copy_extra_state(self, new)
        assert isinstance(new, ResourcePackOp)
        new.lifetime_intervals = list(self.lifetime_intervals)

    @classmethod
    def from_parse(cls, b: Builder, parts: list[Any], location: Location) -> ResourcePackOp:
        clauses, rest = split_keywords(parts)
        slices = [p for p in rest if isinstance(p, PackSlice)]
        for piece in slices:
            check_operand_type(piece.size, INDEX, location)
        result_type: Type = rest[-1]
        require_index_type(cls.name, result_type, location)
        attributes = keyword_attributes(clauses)
        if "on" in clauses:
            attributes["affinity"] = clauses["on"]
        offset = [clauses["offset"]] if "offset" in clauses else []
        return cls(
            offset + [piece.size for piece in slices],
            [result_type] * (len(slices) + 1),
            attributes,
            location=location,
            segments=(len(offset), len(slices)),
            lifetime_intervals=[(piece.start, piece.end) for piece in slices],
        )

    @classmethod
    def create(
        cls,
        slices: Sequence[tuple[int, int, Value]],
        offset: Value | None = None,
        affinity: Attribute | None = None,
    ) -> ResourcePackOp:
        """Pack `(start, end, size)` slices, offsets starting at `offset` (0 if None)."""
        base = [offset] if offset is not None else []
        return cls(
            base + [size for _, _, size in slices],
            [INDEX] * (len(slices) + 1),
            {"affinity": affinity} if affinity is not None else {},
            segments=(len(base), len(slices)),
            lifetime_intervals=[(start, end) for start, end, _ in slices],
        )

    @property
    def offset(self) -> Value | None:
        return self.operands[0] if self.segments[0] else None

    @property
    def dynamic_slice_sizes(self) -> list[Value]:
        return self.segment(1)

    @property
    def total_length(self) -> Value:
        return self.results[0]

    @property
    def packed_offsets(self) -> list[Value]:
        return list(self.results[1:])

    def operand_access(self, index: int) -> Access:
        return Access.NONE

    def verify(self) -> None:
        count = len(self.results) - 1
        if len(self.lifetime_intervals) != count:
            raise op_error(self, "requires a [start, end] range for each slice")
        if self.segments[1] != count:
            raise op_error(self, "requires a size for each slice")

    def print(self, p: Printer) -> None:
        p.write("stream.resource.pack")
        self.print_affinity(p)
        offset = self.offset
        if offset is not None:
            p.write(f" offset({p.v(offset)})")
        p.write(" slices({")
        slices = [
            f"[{start}, {end}] = {p.v(size)}"
            for (start, end), size in zip(self.lifetime_intervals, self.dynamic_slice_sizes)
        ]
        if slices:
            indent = " " * p.indent_width
            p.write(f"\n{indent}  " + f",\n{indent}  ".join(slices) + f"\n{indent}")
        p.write(f"}}) : {self.total_length.type}")
        p.attr_dict(self, ("affinity",), keyword=True)
