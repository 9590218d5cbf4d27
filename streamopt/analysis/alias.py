"""Which SSA values may name the same storage.

Two relations connect values:

* **Tied**: a tied result (`stream.async.fill ... -> %x`, casts, awaits, barriers) is another
  name for its operand's storage. Values connected this way share a *root* (the value at the
  start of the tied chain) and form the root's *group*. An import of a buffer a
  `stream.tensor.export` made joins the exported resource's group, as IREE ties an import to
  its buffer; hal ops that tie a buffer or view to another (`hal.buffer_view.buffer`,
  `hal.buffer_view.create`, `hal.buffer.subspan`) give it no new identity. Any other buffer
  came from outside what streamopt follows (an argument, a global, `arith.select`, an scf
  result, a call) and may be any buffer the host holds, so every import of one in a function
  joins the function's first such import's group. Only a `consume` import that alone names
  its buffer stays apart: the caller handed the buffer over.
* **May alias**: those groups, one per function, every exported resource whose view may
  come back from outside (it goes somewhere other than an import, or is returned by a
  function the module calls), every resource an op streamopt does not model is given or
  gives, and every global such an op names, are linked through one `external` node that
  `component` follows.
* **Handed over**: an op may forward a value to other values (`scf.yield`, `stream.yield`,
  `cf.br`, a loop's init operands, a global store, a call whose callee returns its argument).
  The targets hold the same storage afterwards, so everything reachable from a root by
  handovers (its *forward roots*) is a later name for its storage. A call result that the
  callee's summary says may be a global's storage (it returns a load of it, or storage it
  stored there) is handed over from that global, as a load is.
* **Returned**: a `util.return` operand becomes the result of every call of its function. A
  return edge is followed only by the questions that need the callers' later uses of what a
  function returns (what may change a storage after an op); the callers' side of a call is
  described by the summary's handovers, which keep each call site's operands apart.

Roots are computed once per module in one walk; forward and backward closures are computed on
demand and cached per root. The same walk notes every use, by an op nested in the region of an
op streamopt does not model, of a value defined outside that op (`unmodelled_captures`): the
unmodelled op may run its regions at any time, so those uses let the storage escape.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from streamopt.analysis.effects import (
    GLOBAL_LOAD_OP,
    GLOBAL_STORE_OP,
    RETURN_OP,
    TENSOR_EXPORT_OP,
    TENSOR_IMPORT_OP,
    call_target,
    symbols_named_by,
)
from streamopt.analysis.producers import is_sole_consume_import
from streamopt.ir.core import BlockArgument, DetachedValue, Operation, OpResult, Value
from streamopt.ir.module import Module
from streamopt.ir.types import ResourceType

# The ops whose body is a function's: an import's group of outside buffers is per function.
_FUNCTION_OPS = frozenset({"util.func", "util.initializer"})


def is_resource_like(value: Value) -> bool:
    """True for values that may hold storage: resources, and untyped results of unknown ops."""
    return isinstance(value.type, ResourceType) or value.type is None


class GlobalStorage(DetachedValue):
    """The storage held by a `util.global`: every load of the global names it."""

    __slots__ = ("symbol",)

    def __init__(self, symbol: str) -> None:
        super().__init__(f"@{symbol}")
        self.symbol = symbol


@dataclass(frozen=True, slots=True)
class Handover:
    """`op` forwards its operand `operand_index` (`value`) to `targets`. For a call result
    handed over from a global (`value` the global's storage), `operand_index` is None."""

    op: Operation
    operand_index: int | None
    value: Value
    targets: tuple[Value, ...]


class AliasAnalysis:
    """Roots, groups and pass edges of every resource value in a module."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self._root: dict[Value, Value] = {}
        # Root -> every value whose root it is (the root included), in program order.
        self.groups: dict[Value, list[Value]] = {}
        # Root -> handovers that forward a member of its group.
        self.passes_from: dict[Value, list[Handover]] = {}
        # Target value -> handovers that forward into it.
        self.incoming: dict[Value, list[Handover]] = {}
        # (op, operand index) -> the handovers that forward that operand.
        self.passes_of: dict[tuple[Operation, int | None], list[Handover]] = {}
        # Root -> return edges from a member of its group to call results (see the module
        # docstring), and call result -> the return edges into it.
        self.returns_from: dict[Value, list[Handover]] = {}
        self.returned_into: dict[Value, list[Handover]] = {}
        self._forward: dict[Value, frozenset[Value]] = {}
        self._backward: dict[Value, frozenset[Value]] = {}
        self._later: dict[Value, frozenset[Value]] = {}
        self.globals: dict[str, GlobalStorage] = {}
        # Function -> its first import of a buffer from outside, the root of all of them.
        self._imported: dict[Operation | None, Value] = {}
        # Every storage a buffer from outside may be, and the node that links them.
        self.external = DetachedValue("external")
        self.may_alias: dict[Value, list[Value]] = {self.external: []}
        # (op, operand index) of uses inside regions of unmodelled ops, of values from outside.
        self.unmodelled_captures: set[tuple[Operation, int]] = set()
        # Exports whose view a function returns, and every function the module calls.
        self._returned_exports: list[tuple[Operation | None, Value]] = []
        self._callees: set[str] = set()
        # The symbols ops streamopt does not model name (`util.global.address @g`).
        self._unmodelled_symbols: set[str] = set()
        for op in module.op.walk():
            self._visit(op)
        self._link_returned_exports()
        for symbol in self._unmodelled_symbols & self.globals.keys():
            self._link_external(self.globals[symbol])

    def _visit(self, op: Operation) -> None:
        if not op.is_known:
            self._visit_unmodelled(op)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    if is_resource_like(arg):
                        self._add_root(arg)
        if op.name in (GLOBAL_LOAD_OP, GLOBAL_STORE_OP):
            self._visit_global_access(op)
        elif op.name == TENSOR_IMPORT_OP and op.results:
            self._visit_import(op)
        elif op.name == TENSOR_EXPORT_OP and op.operands:
            self._visit_export(op)
        elif (callee := call_target(op)) is not None:
            self._callees.add(callee)
        for result in op.results:
            if not is_resource_like(result) or result in self._root:
                continue
            tied = op.tied_operand_index(result.index)
            if tied is None:
                self._add_root(result)
            else:
                root = self.root(op.operands[tied])
                self._root[result] = root
                self.groups.setdefault(root, [root]).append(result)
        for index, targets in op.forwarded_operands():
            value = op.operands[index]
            if is_resource_like(value):
                self.add_pass(Handover(op, index, value, tuple(targets)))
        for value in getattr(op, "defined_values", ()):
            self._add_root(value)

    def _visit_unmodelled(self, op: Operation) -> None:
        # An op streamopt does not model may hand out, as its results or a global it names,
        # any storage it was given, or any other from outside.
        if op.regions:
            self._note_captures(op)
        for value in (*op.operands, *op.results, *getattr(op, "defined_values", ())):
            if is_resource_like(value):
                self._link_external(self.root(value))
        self._unmodelled_symbols.update(symbols_named_by(op))

    def _note_captures(self, op: Operation) -> None:
        for nested in op.walk():
            if nested is op:
                continue
            for index, operand in enumerate(nested.operands):
                if is_resource_like(operand) and not is_defined_inside(operand, op):
                    self.unmodelled_captures.add((nested, index))

    def global_storage(self, symbol: str) -> GlobalStorage:
        """The root standing for the storage of global `symbol`."""
        storage = self.globals.get(symbol)
        if storage is None:
            storage = self.globals[symbol] = GlobalStorage(symbol)
            self._add_root(storage)
        return storage

    def _visit_global_access(self, op: Operation) -> None:
        # All loads of one global name the same storage; a store hands a value to it.
        symbol = getattr(op.attributes.get("global"), "root", None)
        if not isinstance(symbol, str):
            return
        storage = self.global_storage(symbol)
        if op.name == GLOBAL_LOAD_OP:
            for result in op.results:
                if is_resource_like(result):
                    self._root[result] = storage
                    self.groups[storage].append(result)
        elif op.operands and is_resource_like(op.operands[0]):
            self.add_pass(Handover(op, 0, op.operands[0], (storage,)))

    def _visit_import(self, op: Operation) -> None:
        # IREE ties an import to its buffer, and a buffer is known by the start of its tied
        # chain (a view's buffer, a view of a buffer and a subspan are the buffer). The first
        # import of an outside buffer stays its own root, so its ownership is still decided
        # by how it imports.
        result = op.results[0]
        if not is_resource_like(result) or result in self._root:
            return
        producer = self.root(op.operands[0]).defining_op
        if producer is not None and producer.name == TENSOR_EXPORT_OP:
            root = self.root(producer.operands[0])
        elif is_sole_consume_import(op):
            return
        else:
            root = self._imported.setdefault(_function_of(op), result)
            if root is result:
                self._link_external(result)
        if root is not result:
            self._root[result] = root
            self.groups.setdefault(root, [root]).append(result)

    def _visit_export(self, op: Operation) -> None:
        # A view that reaches anything but an import (a global, a call, a select) may come
        # back as a buffer from outside. Returned, it does only if the function has callers
        # here; the host gets it once the program is done with it.
        views = [result for result in op.results if not is_resource_like(result)]
        while views:
            for use in views.pop().uses:
                user = use.operation
                if user.name == TENSOR_IMPORT_OP:
                    continue
                if user.name == RETURN_OP:
                    self._returned_exports.append((_function_of(user), op.operands[0]))
                    continue
                tied = [
                    result
                    for result in user.results
                    if user.tied_operand_index(result.index) == use.index
                ]
                if not tied:
                    self._link_external(self.root(op.operands[0]))
                    return
                views.extend(tied)

    def _link_returned_exports(self) -> None:
        """Link the exports returned from functions the module calls (after the walk, which
        has seen every call)."""
        for function, resource in self._returned_exports:
            name = getattr(function, "sym_name", None)
            if name is None or name in self._callees:
                self._link_external(self.root(resource))

    def _link_external(self, root: Value) -> None:
        self.may_alias[self.external].append(root)
        self.may_alias.setdefault(root, []).append(self.external)

    def _add_root(self, value: Value) -> None:
        self._root[value] = value
        self.groups.setdefault(value, [value])

    def add_pass(self, edge: Handover) -> None:
        """Record that `edge.op` forwards `edge.value` into `edge.targets`."""
        self.passes_from.setdefault(self.root(edge.value), []).append(edge)
        self.passes_of.setdefault((edge.op, edge.operand_index), []).append(edge)
        for target in edge.targets:
            self.incoming.setdefault(target, []).append(edge)
        self._forward.clear()
        self._backward.clear()
        self._later.clear()

    def add_return(self, edge: Handover) -> None:
        """Record that return `edge.op` hands `edge.value` to the call results `edge.targets`."""
        self.returns_from.setdefault(self.root(edge.value), []).append(edge)
        for target in edge.targets:
            self.returned_into.setdefault(target, []).append(edge)
        self._later.clear()

    def returned_to(self, root: Value) -> Iterator[Value]:
        """The roots of the call results `root`'s storage is returned as."""
        for edge in self.returns_from.get(root, ()):
            for target in edge.targets:
                yield self.root(target)

    def root(self, value: Value) -> Value:
        """The value at the start of `value`'s tied chain."""
        known = self._root.get(value)
        if known is not None:
            return known
        # Not visited yet (a use before its definition in a CFG region): follow the chain.
        chain: list[Value] = []
        current = value
        while isinstance(current, OpResult):
            tied = current.op.tied_operand_index(current.index)
            if tied is None:
                break
            chain.append(current)
            current = current.op.operands[tied]
            known = self._root.get(current)
            if known is not None:
                current = known
                break
        for link in chain:
            self._root[link] = current
        return current

    def group(self, root: Value) -> list[Value]:
        """The values tied to `root` (root first)."""
        return self.groups.get(root, [root])

    def forward_roots(self, root: Value) -> frozenset[Value]:
        """`root` and every root its storage may be passed to, transitively."""
        cached = self._forward.get(root)
        if cached is None:
            cached = self._closure(root, self._successors)
            self._forward[root] = cached
        return cached

    def backward_roots(self, root: Value) -> frozenset[Value]:
        """`root` and every root whose storage may have been passed into it, transitively."""
        cached = self._backward.get(root)
        if cached is None:
            cached = self._closure(root, self._predecessors)
            self._backward[root] = cached
        return cached

    def later_roots(self, root: Value) -> frozenset[Value]:
        """`root` and every root its storage may be passed to or returned as, transitively:
        every name it may have from now on, in this function and in its callers."""
        cached = self._later.get(root)
        if cached is None:

            def step(node: Value) -> Iterator[Value]:
                yield from self._successors(node)
                yield from self.returned_to(node)

            cached = self._closure(root, step)
            self._later[root] = cached
        return cached

    def forward_closure(self, roots: Iterable[Value]) -> set[Value]:
        """`roots` and every root their storage may be passed to: one walk for all of them."""
        seen = set(roots)
        stack = list(seen)
        while stack:
            for nxt in self._successors(stack.pop()):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return seen

    def successors(self, root: Value) -> Iterator[Value]:
        """The roots `root`'s storage is handed to directly."""
        return self._successors(root)

    def _successors(self, root: Value) -> Iterator[Value]:
        for edge in self.passes_from.get(root, ()):
            for target in edge.targets:
                yield self.root(target)

    def _predecessors(self, root: Value) -> Iterator[Value]:
        for member in self.group(root):
            for edge in self.incoming.get(member, ()):
                yield self.root(edge.value)

    @staticmethod
    def _closure(start: Value, step: object) -> frozenset[Value]:
        seen = {start}
        stack = [start]
        while stack:
            for nxt in step(stack.pop()):  # type: ignore[operator]
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return frozenset(seen)

    def component(self, root: Value, extra: object = None) -> frozenset[Value]:
        """Every root connected to `root` by handovers or returns in either direction, or
        that may be the same buffer from outside."""

        def neighbours(node: Value) -> Iterator[Value]:
            yield from self.may_alias.get(node, ())
            yield from self._successors(node)
            yield from self._predecessors(node)
            yield from self.returned_to(node)
            for member in self.group(node):
                for edge in self.returned_into.get(member, ()):
                    yield self.root(edge.value)
            if extra is not None:
                yield from extra(node)  # type: ignore[operator]

        return self._closure(root, neighbours)

    def names(self, roots: Iterable[Value]) -> Iterator[Value]:
        """Every value in the groups of `roots`."""
        for root in roots:
            yield from self.group(root)


def _function_of(op: Operation) -> Operation | None:
    """The function or initializer whose body holds `op`."""
    function = op.parent_op
    while function is not None and function.name not in _FUNCTION_OPS:
        function = function.parent_op
    return function


def defining_op(value: Value) -> Operation | None:
    """The op defining `value`, or for a block argument the op owning its region."""
    if isinstance(value, OpResult):
        return value.op
    if isinstance(value, BlockArgument):
        return value.block.parent_op
    if isinstance(value, DetachedValue):
        return value.defining
    return None


def is_defined_inside(value: Value, op: Operation) -> bool:
    """True if `value` is defined inside a region of `op` (so each run of `op` redefines it)."""
    if isinstance(value, OpResult):
        return op.is_ancestor_of(value.op)
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op
        return owner is not None and (owner is op or op.is_ancestor_of(owner))
    if isinstance(value, DetachedValue) and value.defining is not None:
        return value.defining is op or op.is_ancestor_of(value.defining)
    return False
