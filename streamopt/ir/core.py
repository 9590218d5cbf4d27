"""The op graph: values, uses, operations, blocks and regions.

The graph follows MLIR's structure. An `Operation` has operands (values it uses), results, an
attribute dictionary, nested regions and successor blocks. A `Region` holds blocks; a `Block`
holds block arguments and a doubly linked list of operations. Every `Value` knows its uses, and
every mutation (setting an operand, erasing an op, replacing uses) keeps those use lists in sync,
so use-def queries are O(1) and rewrites are O(changed uses).

Known ops are subclasses of `Operation` defined in `streamopt.dialects`; ops streamopt does not
model are `OpaqueOp` (custom syntax kept as text) or `GenericOp` (MLIR's generic form).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from streamopt.diagnostics import UNKNOWN_LOCATION, Location, Source

if TYPE_CHECKING:
    from streamopt.ir.types import Attribute, Type, TypeConstraint
    from streamopt.printer import Printer


class Access(enum.IntFlag):
    """How an op touches a resource operand (for alias, last-use and mutation analyses)."""

    NONE = 0
    READ = 1
    # Writes through the operand's storage (in place).
    WRITE = 2
    # Frees or consumes the storage (a move): no use may follow.
    CONSUME = 4
    # Passes the value on where streamopt cannot follow it (return, yield, call, global store,
    # an unknown op): it may be read, written or freed later by someone else.
    ESCAPE = 8
    ALL = READ | WRITE | CONSUME | ESCAPE


class RegionKind(enum.Enum):
    """How often an op's regions run, for analyses that reason about program order."""

    # Each region runs exactly once, in order, before the op completes (stream.async.execute).
    ONCE = "once"
    # At most one region runs, at most once (scf.if, scf.index_switch).
    EXCLUSIVE = "exclusive"
    # Regions may run any number of times (scf.for, scf.while bodies).
    LOOP = "loop"
    # The op is a function-like container: its body runs per call, not at this point.
    CALLABLE = "callable"
    # Unknown: analyses must assume anything (treated like LOOP and EXCLUSIVE together).
    UNKNOWN = "unknown"


class Use:
    """One use of a value: operand `index` of `operation`."""

    __slots__ = ("index", "operation")

    def __init__(self, operation: Operation, index: int) -> None:
        self.operation = operation
        self.index = index

    def __repr__(self) -> str:
        return f"Use({self.operation.name}#{self.index})"


class Value:
    """An SSA value: an op result or a block argument."""

    __slots__ = ("name_hint", "type", "uses")

    def __init__(self, type: Type | None, name_hint: str | None = None) -> None:
        self.type = type
        # The name to print this value with when it is not an automatic number (see printer).
        self.name_hint = name_hint
        # The uses in insertion order: a tuple up to _FEW_USES (replaced whole on each change:
        # most values have one or two uses, and a one-use tuple takes about half a list's
        # memory, a lowered module has millions of values), then a list (a sixth of a dict's
        # memory per use: a large module's constants have millions of uses), a dict (an
        # ordered set, O(1) add and remove) from the first removal from a list of more than
        # _FEW_USES on. Change it with _add_use and _remove_use only; read it as an iterable
        # with a length.
        self.uses: tuple[Use, ...] | list[Use] | dict[Use, None] = ()

    @property
    def owner(self) -> Operation | Block | None:
        """The op or block that defines this value."""
        return None

    @property
    def defining_op(self) -> Operation | None:
        """The op whose result this is, or None for block arguments."""
        return None

    @property
    def parent_block(self) -> Block | None:
        """The block this value is defined in."""
        return None

    def has_uses(self) -> bool:
        return bool(self.uses)

    def has_one_use(self) -> bool:
        return len(self.uses) == 1

    @property
    def users(self) -> Iterator[Operation]:
        """The ops using this value, once per use, in use order."""
        for use in self.uses:
            yield use.operation

    def replace_all_uses_with(self, other: Value) -> None:
        """Make every user of this value use `other` instead."""
        if other is self:
            return
        for use in list(self.uses):
            use.operation.set_operand(use.index, other)

    def replace_uses_where(self, other: Value, predicate: Callable[[Use], bool]) -> None:
        """Replace the uses for which `predicate` holds with `other`."""
        for use in list(self.uses):
            if predicate(use):
                use.operation.set_operand(use.index, other)


_FEW_USES = 8


def _add_use(value: Value, use: Use) -> None:
    """Add `use` (not one of `value`'s uses) to `value`'s uses."""
    uses = value.uses
    if isinstance(uses, tuple):
        value.uses = (*uses, use) if len(uses) < _FEW_USES else [*uses, use]
    elif isinstance(uses, list):
        uses.append(use)
    else:
        uses[use] = None


def _remove_use(value: Value, use: Use) -> None:
    """Remove `use` from `value`'s uses, if it is there."""
    uses = value.uses
    if isinstance(uses, tuple):
        if use in uses:
            value.uses = tuple([other for other in uses if other is not use])
        return
    if isinstance(uses, list):
        if len(uses) <= _FEW_USES:
            if use in uses:
                uses.remove(use)
            return
        # A value that loses uses may lose many (a pass erasing its users): removing from a
        # long list would make that quadratic.
        uses = value.uses = dict.fromkeys(uses)
    uses.pop(use, None)


def compact_uses(values: Iterable[Value]) -> None:
    """Give each of `values` whose uses became a dict (see `Value.uses`) a list or tuple
    again: a dict never shrinks as uses are removed, and takes six times a list's memory
    per use. For after a pass removed many uses; the order of the uses is kept."""
    for value in values:
        uses = value.uses
        if isinstance(uses, dict):
            value.uses = tuple(uses) if len(uses) <= _FEW_USES else list(uses)


class OpResult(Value):
    """Result `index` of `op`."""

    __slots__ = ("index", "op")

    def __init__(
        self, op: Operation, index: int, type: Type | None, name_hint: str | None = None
    ) -> None:
        super().__init__(type, name_hint)
        self.op = op
        self.index = index

    @property
    def owner(self) -> Operation:
        return self.op

    @property
    def defining_op(self) -> Operation:
        return self.op

    @property
    def parent_block(self) -> Block | None:
        return self.op.parent

    def __repr__(self) -> str:
        return f"<OpResult {self.op.name}#{self.index}>"


class BlockArgument(Value):
    """Argument `index` of `block`."""

    __slots__ = ("block", "debug_loc", "index")

    def __init__(
        self, block: Block, index: int, type: Type | None, name_hint: str | None = None
    ) -> None:
        super().__init__(type, name_hint)
        self.block = block
        self.index = index
        self.debug_loc: str | None = None

    @property
    def owner(self) -> Block:
        return self.block

    @property
    def parent_block(self) -> Block:
        return self.block

    def __repr__(self) -> str:
        return f"<BlockArgument #{self.index}>"


class DetachedValue(Value):
    """A value with no defining op or block.

    The parser uses these as placeholders for forward references, and opaque ops use them for
    names their custom syntax defines (for example a loop variable) that streamopt cannot place.
    """

    __slots__ = ("defining", "spelling")

    def __init__(self, spelling: str, defining: Operation | None = None) -> None:
        super().__init__(None, None)
        self.spelling = spelling
        self.defining = defining

    def __repr__(self) -> str:
        return f"<DetachedValue {self.spelling}>"


OpT = TypeVar("OpT", bound="Operation")


class SharedAttributes(dict[str, "Attribute"]):
    """An attribute dictionary several ops hold (the copies of one parsed line, see
    `streamopt.parser.builder.LineTemplates`): `Operation.attributes` gives an op its own copy
    before anyone can change it, `Operation.attribute_map` reads it as it is. A large module
    saves a dictionary per op."""

    __slots__ = ()


_shared_attributes: dict[tuple[tuple[str, int], ...], SharedAttributes] = {}
# A lowering makes ops with a few distinct attribute dictionaries; the bound keeps a
# long-lived process (the tests) from holding every dictionary it ever made.
_SHARED_ATTRIBUTES_KEPT = 4096


def shared_attributes(attributes: Mapping[str, Attribute]) -> dict[str, Attribute]:
    """A dictionary equal to `attributes` that ops built with the same attribute objects
    share (a `SharedAttributes`, copied before an op changes it): a lowering that shares its
    attribute objects saves a dictionary per op it makes.

    Keyed by the objects' identities, which the cached dictionary keeps alive (equal
    attributes of different kinds, such as two bit enums spelled "None", stay apart)."""
    key = tuple([(name, id(value)) for name, value in attributes.items()])
    found = _shared_attributes.get(key)
    if found is None:
        found = SharedAttributes(attributes)
        if len(_shared_attributes) < _SHARED_ATTRIBUTES_KEPT:
            _shared_attributes[key] = found
    return found


# What an op without regions or successors holds: immutable, so it can be shared.
_NONE: tuple[Any, ...] = ()


class Operation:
    """An operation. Known ops subclass it; `name` is the op's full name."""

    __slots__ = (
        "_attributes",
        "_location",
        "_next",
        "_operands",
        "_order",
        "_prev",
        "_source",
        "_uses",
        "debug_loc",
        "parent",
        "regions",
        "results",
        "successors",
    )

    name: str = ""
    # Known ops set these: the dialect prefix for printing, and traits the analyses read.
    is_terminator: ClassVar[bool] = False
    is_isolated_from_above: ClassVar[bool] = False
    # Pure ops have no side effects: unused ones may be removed, equal ones merged.
    is_pure: ClassVar[bool] = False
    # How this op's regions execute (see RegionKind).
    region_kind: ClassVar[RegionKind] = RegionKind.UNKNOWN
    # MLIR's NoTerminator trait: the blocks of this op's regions need not end in a terminator
    # (a module). Every other known op's blocks must.
    has_no_terminator: ClassVar[bool] = False
    # ODS's HasParent / ParentOneOf: the ops this one must be nested in (any op when empty).
    parent_names: ClassVar[tuple[str, ...]] = ()
    # ODS's AllTypesMatch: groups of accessors whose values must all have one type.
    same_types: ClassVar[tuple[tuple[str, ...], ...]] = ()
    # Whether the verifier checks the operand type constraints before `verify()`, in ODS's
    # order (operands, results, the op's verifier); else after it, where `verify()` may word a
    # wrong type more precisely.
    operand_types_first: ClassVar[bool] = False
    # The operand types the op's definition allows (its ODS type constraints), by the name of
    # the accessor (a property or an operand segment) giving the operand or operands. The
    # verifier checks them; an operand of unknown type is not checked.
    operand_types: ClassVar[Mapping[str, TypeConstraint]] = {}
    # The inherent attributes (ODS arguments that are attributes, held as properties) an op's
    # custom form may not carry in its attribute dictionary, plain or after `attributes`:
    # iree-opt's generated parsers refuse them there (strict properties). Ops whose parser is
    # hand-written (util.func, ...) leave it empty, as do the segment sizes, which iree-opt
    # accepts in the dictionary. The generic form carries them in its dictionary.
    inherent_attributes: ClassVar[frozenset[str]] = frozenset()

    def __init__(
        self,
        operands: Sequence[Value] = (),
        result_types: Sequence[Type | None] = (),
        attributes: dict[str, Attribute] | None = None,
        regions: Sequence[Region] = (),
        successors: Sequence[Block] = (),
        location: Location = UNKNOWN_LOCATION,
    ) -> None:
        # Lists of exactly their length, and one shared empty tuple for the regions and
        # successors most ops do not have: a large module has millions of ops.
        # The ops without operands (constants, global loads: two in five of a lowered
        # module's ops) share the empty tuple; set_operands replaces it whole.
        self._operands: list[Value] | tuple[()] = list(operands) if operands else _NONE
        # A tuple (only ever replaced whole): a list would take another allocation per op.
        uses = tuple([Use(self, i) for i in range(len(self._operands))])
        for value, use in zip(self._operands, uses):
            value_uses = value.uses
            if type(value_uses) is tuple and len(value_uses) < _FEW_USES:
                value.uses = (*value_uses, use)
            elif type(value_uses) is list:
                value_uses.append(use)
            else:
                _add_use(value, use)
        self._uses: tuple[Use, ...] = uses
        # A tuple (only ever replaced whole): 16 bytes less than a list, and none at all for
        # the ops without results, which share the empty tuple.
        self.results: Sequence[OpResult] = (
            tuple([OpResult(self, i, result_type) for i, result_type in enumerate(result_types)])
            if result_types
            else _NONE
        )
        self._attributes: dict[str, Attribute] = attributes if attributes is not None else {}
        self.regions: Sequence[Region] = _NONE
        for region in regions:
            self.add_region(region)
        self.successors: Sequence[Block] = list(successors) if successors else _NONE
        self._location: Location | int = location
        self._source: Source | None = None
        self.debug_loc: str | None = None
        self.parent: Block | None = None
        self._prev: Operation | None = None
        self._next: Operation | None = None
        self._order = 0

    # -- location --------------------------------------------------------------------------

    @property
    def location(self) -> Location:
        """Where the op was written (its first token), or where a pass says it comes from."""
        source = self._source
        if source is None:
            return self._location  # type: ignore[return-value]
        return source.location_at(self._location)  # type: ignore[arg-type]

    @location.setter
    def location(self, value: Location) -> None:
        self._location = value
        self._source = None

    def locate_at(self, source: Source, offset: int) -> None:
        """Set the location to character `offset` of `source`, kept as the offset: a parsed
        module holds one per op, and an offset takes a quarter of a Location's memory."""
        self._location = offset
        self._source = source

    # -- attributes ------------------------------------------------------------------------

    @property
    def attributes(self) -> dict[str, Attribute]:
        """The attribute dictionary, this op's own to change (a shared one is copied first)."""
        found = self._attributes
        if found.__class__ is SharedAttributes:
            found = self._attributes = dict(found)
        return found

    @attributes.setter
    def attributes(self, value: dict[str, Attribute]) -> None:
        self._attributes = value

    @property
    def attribute_map(self) -> Mapping[str, Attribute]:
        """The attributes, to read only: no copy of a dictionary shared with other ops."""
        return self._attributes

    # -- operands --------------------------------------------------------------------------

    @property
    def operands(self) -> Sequence[Value]:
        """The operand values (read only; use set_operand/set_operands to change them)."""
        return self._operands

    def set_operand(self, index: int, value: Value) -> None:
        """Set operand `index` to `value`, keeping both use lists in sync."""
        operands = self._operands
        old = operands[index]
        if old is value:
            return
        assert isinstance(operands, list)  # An op with an operand `index` has a list.
        use = self._uses[index]
        _remove_use(old, use)
        operands[index] = value
        _add_use(value, use)

    def set_operands(self, values: Sequence[Value]) -> None:
        """Replace the whole operand list."""
        self.drop_operand_uses()
        self._operands = list(values)
        self._uses = tuple([Use(self, i) for i in range(len(self._operands))])
        for value, use in zip(self._operands, self._uses):
            _add_use(value, use)

    def drop_operand_uses(self) -> None:
        """Remove this op from the use lists of its operands (before erasing it)."""
        for value, use in zip(self._operands, self._uses):
            _remove_use(value, use)

    @property
    def result(self) -> OpResult:
        """The single result of a one-result op."""
        assert len(self.results) == 1, f"{self.name} has {len(self.results)} results"
        return self.results[0]

    # -- structure -------------------------------------------------------------------------

    def add_region(self, region: Region) -> Region:
        region.parent = self
        self.regions = [*self.regions, region]
        return region

    @property
    def parent_op(self) -> Operation | None:
        """The op whose region holds this op."""
        if self.parent is None or self.parent.parent is None:
            return None
        return self.parent.parent.parent

    @property
    def next_op(self) -> Operation | None:
        return self._next

    @property
    def prev_op(self) -> Operation | None:
        return self._prev

    def ancestors(self) -> Iterator[Operation]:
        """This op's enclosing ops, innermost first."""
        op = self.parent_op
        while op is not None:
            yield op
            op = op.parent_op

    def is_ancestor_of(self, other: Operation) -> bool:
        """True if `other` is nested (at any depth) inside this op."""
        return any(a is self for a in other.ancestors())

    def is_before_in_block(self, other: Operation) -> bool:
        """True if this op comes before `other`, both being in the same block."""
        block = self.parent
        assert block is not None and other.parent is block
        block.ensure_order()
        return self._order < other._order

    def walk(self) -> Iterator[Operation]:
        """This op and every op nested in it, in pre-order. Safe to erase the current op."""
        yield self
        if self.regions:
            yield from _walk_regions(self.regions)

    def walk_regions_first(self) -> Iterator[Operation]:
        """Every op nested in this one and then the op itself (post-order)."""
        # An explicit stack: nesting may be thousands of levels deep, and each level of
        # `yield from` would also cost every op below it one more step.
        stack: list[tuple[Operation, Iterator[Operation]]] = [(self, _ops_in(self.regions))]
        while stack:
            op, pending = stack[-1]
            nested = next(pending, None)
            if nested is None:
                stack.pop()
                yield op
            elif nested.regions:
                stack.append((nested, _ops_in(nested.regions)))
            else:
                yield nested

    # -- mutation --------------------------------------------------------------------------

    def detach(self) -> None:
        """Unlink this op from its block without touching uses."""
        block = self.parent
        if block is None:
            return
        block._unlink(self)

    def erase(self) -> None:
        """Remove this op and everything nested in it. Its results must have no uses left.

        The erased ops keep their name, attributes and location, and their results keep
        pointing at them, but they no longer hold their operands, results, regions or
        successors: that breaks the reference cycles between an op and its results, blocks
        and neighbours, so the erased IR is freed as soon as nothing else holds it (the
        command line runs with the cyclic collector off, which would never free it).
        """
        for result in self.results:
            assert not result.uses, f"erasing {self.name} whose result still has uses"
        self.detach()
        erased = list(self.walk())
        for op in erased:
            op.drop_operand_uses()
        for op in erased:
            op._dismantle()

    def _dismantle(self) -> None:
        """Drop this erased op's links to its operands, results, regions and successors (and
        unlink the blocks and ops of its regions from each other)."""
        self._operands = _NONE
        self._uses = ()
        self.results = _NONE
        for region in self.regions:
            for block in region.blocks:
                op = block._first
                while op is not None:
                    following = op._next
                    op._prev = op._next = None
                    op.parent = None
                    op = following
                block._first = block._last = None
                block.arguments = []
                block.parent = None
            region.blocks = []
            region.parent = None
        self.regions = _NONE
        self.successors = _NONE

    def drop_all_references(self) -> None:
        """Drop the uses held by this op and every op nested in it."""
        for op in self.walk():
            op.drop_operand_uses()
            op._operands = _NONE
            op._uses = ()

    def replace_all_uses_with(self, values: Sequence[Value]) -> None:
        """Replace each result's uses with the matching value."""
        assert len(values) == len(self.results)
        for result, value in zip(self.results, values):
            result.replace_all_uses_with(value)

    def clone(self, mapping: dict[Value, Value] | None = None) -> Operation:
        """Deep-copy this op; operands are remapped through `mapping`, which is updated."""
        if mapping is None:
            mapping = {}
        new = self.__class__.__new__(self.__class__)
        Operation.__init__(
            new,
            [mapping.get(v, v) for v in self._operands],
            [r.type for r in self.results],
            dict(self._attributes),
            (),
            [],
            self.location,
        )
        new.debug_loc = self.debug_loc
        self._copy_extra_state(new)
        for old_result, new_result in zip(self.results, new.results):
            new_result.name_hint = old_result.name_hint
            mapping[old_result] = new_result
        block_map: dict[Block, Block] = {}
        for region in self.regions:
            new.add_region(region.clone(mapping, block_map))
        new.successors = [block_map.get(b, b) for b in self.successors]
        return new

    def _copy_extra_state(self, new: Operation) -> None:
        """Copy subclass-specific state into a clone (subclasses with extra slots override)."""

    # -- interfaces known ops refine -------------------------------------------------------

    def verify(self) -> None:
        """Check op-specific invariants; raise DiagnosticError on failure."""

    def constrained_operands(self) -> Iterator[tuple[Value, TypeConstraint, bool, int | None]]:
        """Each operand `operand_types` constrains, with its constraint, whether it is one of
        a variadic group (operand segments and accessors returning lists are) and its operand
        index (None here: an accessor does not say which operand it read)."""
        segments: Sequence[str] = getattr(self, "segment_names", ())
        for accessor, constraint in self.operand_types.items():
            if accessor in segments:
                for value in self.segment(segments.index(accessor)):  # type: ignore[attr-defined]
                    yield value, constraint, True, None
                continue
            found = getattr(self, accessor)
            if isinstance(found, list | tuple):
                for value in found:
                    yield value, constraint, True, None
            elif found is not None:
                yield found, constraint, False, None

    def constrained_results(self) -> Iterator[tuple[Value, TypeConstraint, bool, int]]:
        """Each result the op's definition constrains, as `constrained_operands` gives
        operands (ops declared with streamopt.ir.opdef have some)."""
        return iter(())

    def verify_in_module(self, context: Any) -> None:
        """Check invariants that need module-wide analyses (a `VerifyContext`); raise
        DiagnosticError on failure. Runs after every op passed `verify`."""

    def print(self, printer: Printer) -> None:
        """Print the op's custom form (after results and before the location)."""
        printer.print_generic(self)

    def fold(self) -> Sequence[Value] | None:
        """Values that can replace this op's results, or None if it does not fold."""
        return None

    def asm_result_name(self, index: int) -> str | None:
        """The name IREE's printer gives result `index` when it has none of its own."""
        return None

    def tied_operand_index(self, result_index: int) -> int | None:
        """The operand index result `result_index` is tied to (aliases), or None."""
        return None

    def operand_access(self, index: int) -> Access:
        """How this op touches operand `index`. Unknown ops may do anything (Access.ALL)."""
        return Access.ALL

    def forwarded_operands(self) -> Iterable[tuple[int, Sequence[Value]]]:
        """Operands this op passes on to other values in the same function.

        Yields (operand index, the values it may become): a terminator's operands become its
        parent op's results or the next iteration's block arguments, a branch's operands become
        its successor's arguments, a loop's init operands become its body arguments and results.
        Calls and returns are not listed (their targets are in other functions).
        """
        return ()

    def canonicalize(self) -> bool:
        """Rewrite this op in place (or erase it) into a simpler form; True if IR changed."""
        return False

    def size_of_operand(self, index: int) -> Value | None:
        """The size operand of resource operand `index`, if the op carries one."""
        return None

    def size_of_result(self, index: int) -> Value | None:
        """The size operand of resource result `index`, if the op carries one."""
        return None

    @property
    def is_known(self) -> bool:
        """True for ops streamopt models (their semantics are understood by analyses)."""
        return True

    @property
    def spells_argument_names(self) -> bool:
        """Whether the op's text names its regions' arguments itself (an op kept as written,
        whose syntax streamopt does not print), so that the printer keeps those names."""
        return not self.is_known

    @property
    def might_be_terminator(self) -> bool:
        """Whether the op may end a block (MLIR's `mightHaveTrait<IsTerminator>`): it is a
        terminator, or streamopt does not know the op's definition."""
        return self.is_terminator

    def get_attr(self, key: str, default: Any = None) -> Any:
        return self._attributes.get(key, default)

    def __repr__(self) -> str:
        return f"<{self.name} at {self.location}>"


_ORDER_STRIDE = 1 << 12


class Block:
    """A list of operations with arguments."""

    __slots__ = ("_first", "_last", "_order_valid", "arguments", "label_hint", "parent")

    def __init__(self, arg_types: Iterable[Type | None] = ()) -> None:
        self.arguments: list[BlockArgument] = [
            BlockArgument(self, i, t) for i, t in enumerate(arg_types)
        ]
        self.parent: Region | None = None
        self._first: Operation | None = None
        self._last: Operation | None = None
        # Op positions (`Operation._order`) are spaced _ORDER_STRIDE apart (parsed ops: their
        # offsets in the text) so inserting between two ops rarely needs a renumbering;
        # erasing never does.
        self._order_valid = True
        # Whether the parsed text spelled out the entry block's label (kept for opaque ops).
        self.label_hint: bool = False

    @property
    def parent_op(self) -> Operation | None:
        return self.parent.parent if self.parent is not None else None

    def add_argument(self, type: Type | None, name_hint: str | None = None) -> BlockArgument:
        arg = BlockArgument(self, len(self.arguments), type, name_hint)
        self.arguments.append(arg)
        return arg

    def erase_argument(self, index: int) -> None:
        """Remove argument `index`; it must have no uses."""
        arg = self.arguments.pop(index)
        assert not arg.uses, "erasing a block argument that still has uses"
        for i, later in enumerate(self.arguments):
            later.index = i

    @property
    def ops(self) -> Iterator[Operation]:
        """The ops in order. Erasing or moving the current op during iteration is safe."""
        op = self._first
        while op is not None:
            following = op._next
            yield op
            op = following

    def ops_reversed(self) -> Iterator[Operation]:
        op = self._last
        while op is not None:
            preceding = op._prev
            yield op
            op = preceding

    @property
    def first_op(self) -> Operation | None:
        return self._first

    @property
    def last_op(self) -> Operation | None:
        return self._last

    @property
    def terminator(self) -> Operation | None:
        last = self._last
        return last if last is not None and last.is_terminator else None

    def is_empty(self) -> bool:
        return self._first is None

    def __len__(self) -> int:
        return sum(1 for _ in self.ops)

    def append(self, op: Operation) -> Operation:
        """Add `op` (which must not be in a block) at the end."""
        assert op.parent is None, "op is already in a block"
        op.parent = self
        last = self._last
        op._prev = last
        op._next = None
        # A parsed op's offset in the text is a position that is already there (a large module
        # saves an int per op); ops come in the order of their text.
        located = op._source is not None
        if last is None:
            self._first = op
            op._order = op._location if located else _ORDER_STRIDE  # type: ignore[assignment]
        else:
            last._next = op
            if located and op._location > last._order:  # type: ignore[operator]
                op._order = op._location  # type: ignore[assignment]
            else:
                op._order = last._order + _ORDER_STRIDE
        self._last = op
        return op

    def insert_before(self, op: Operation, anchor: Operation) -> Operation:
        """Insert `op` right before `anchor`, which must be in this block."""
        assert op.parent is None and anchor.parent is self
        op.parent = self
        previous = anchor._prev
        op._next = anchor
        op._prev = previous
        if previous is None:
            self._first = op
        else:
            previous._next = op
        anchor._prev = op
        if self._order_valid:
            low = previous._order if previous is not None else 0
            if anchor._order - low > 1:
                op._order = (low + anchor._order) // 2
            else:
                self._order_valid = False
        return op

    def insert_after(self, op: Operation, anchor: Operation) -> Operation:
        """Insert `op` right after `anchor`, which must be in this block."""
        if anchor._next is None:
            return self.append(op)
        return self.insert_before(op, anchor._next)

    def _unlink(self, op: Operation) -> None:
        if op._prev is None:
            self._first = op._next
        else:
            op._prev._next = op._next
        if op._next is None:
            self._last = op._prev
        else:
            op._next._prev = op._prev
        op._prev = op._next = None
        op.parent = None

    def ensure_order(self) -> None:
        """Number the ops so that `is_before_in_block` is O(1) until the next mutation."""
        if self._order_valid:
            return
        for i, op in enumerate(self.ops, 1):
            op._order = i * _ORDER_STRIDE
        self._order_valid = True

    def walk(self) -> Iterator[Operation]:
        """Every op in this block and nested in its ops, in pre-order."""
        for op in self.ops:
            yield op
            if op.regions:
                yield from _walk_regions(op.regions)

    def is_entry_block(self) -> bool:
        return self.parent is not None and self.parent.blocks[0] is self

    def find_ancestor_op_in_block(self, op: Operation) -> Operation | None:
        """The op in this block that is `op` or contains it, or None."""
        current: Operation | None = op
        while current is not None and current.parent is not self:
            current = current.parent_op
        return current


class Region:
    """A list of blocks owned by an op."""

    __slots__ = ("blocks", "parent")

    def __init__(self, blocks: Iterable[Block] = ()) -> None:
        self.blocks: list[Block] = []
        self.parent: Operation | None = None
        for block in blocks:
            self.add_block(block)

    def add_block(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def entry_block(self) -> Block:
        return self.blocks[0]

    def walk(self) -> Iterator[Operation]:
        """Every op in this region, in pre-order."""
        return _walk_regions([self])

    def is_ancestor_of_op(self, op: Operation) -> bool:
        """True if `op` is nested (at any depth) inside this region."""
        block = op.parent
        while block is not None:
            if block.parent is self:
                return True
            owner = block.parent.parent if block.parent is not None else None
            block = owner.parent if owner is not None else None
        return False

    def clone(self, mapping: dict[Value, Value], block_map: dict[Block, Block]) -> Region:
        """Deep-copy the region, remapping values and blocks."""
        new = Region()
        for block in self.blocks:
            new_block = Block()
            new_block.label_hint = block.label_hint
            for arg in block.arguments:
                new_arg = new_block.add_argument(arg.type, arg.name_hint)
                mapping[arg] = new_arg
            block_map[block] = new_block
            new.add_block(new_block)
        for block in self.blocks:
            new_block = block_map[block]
            for op in block.ops:
                new_block.append(op.clone(mapping))
        # Successors of cloned ops were remapped as they were cloned only if their target was
        # cloned first; fix up forward references now that every block exists.
        for block in new.blocks:
            for op in block.ops:
                op.successors = [block_map.get(b, b) for b in op.successors]
        return new


def _ops_in(regions: Iterable[Region]) -> Iterator[Operation]:
    """The ops directly in `regions`, block by block (safe to erase the current op)."""
    for region in regions:
        for block in region.blocks:
            yield from block.ops


def _walk_regions(regions: Iterable[Region]) -> Iterator[Operation]:
    """Every op nested in `regions`, in pre-order, with an explicit stack (see
    `Operation.walk_regions_first`). Safe to erase the current op."""
    stack = [_ops_in(regions)]
    while stack:
        op = next(stack[-1], None)
        if op is None:
            stack.pop()
            continue
        yield op
        if op.regions:
            stack.append(_ops_in(op.regions))


def single_block_region(ops: Iterable[Operation] = (), arg_types: Iterable[Type] = ()) -> Region:
    """A region with one block holding `ops`."""
    block = Block(arg_types)
    for op in ops:
        block.append(op)
    return Region([block])
