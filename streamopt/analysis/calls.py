"""The call graph and what each function does with its arguments and results.

A `FunctionSummary` says, for a `util.func` with a body, which arguments each result may alias,
whether a result may be storage a caller cannot own, and whether each argument may be written
in place or escape (be stored in a global, handed to an unknown op or function). Summaries are
computed callees first (Tarjan's strongly connected components); calls inside a recursive
cycle are treated as unknown. With them, a `util.call` becomes precise: its operand `k` is
passed into result `j` when the callee returns its argument `k`, and the call only mutates or
leaks an operand when the callee does.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from streamopt.analysis.alias import AliasAnalysis, GlobalStorage, Handover, is_resource_like
from streamopt.analysis.effects import (
    RETURN_OP,
    UseKind,
    call_target,
    classify_use,
    symbols_named_by,
)
from streamopt.analysis.graph import strongly_connected_components
from streamopt.analysis.producers import RootKind, classify_root
from streamopt.dialects.util import FuncOp
from streamopt.ir.core import Access, BlockArgument, Operation, Value
from streamopt.ir.module import Module


@dataclass
class FunctionSummary:
    """What a function does with its arguments, seen from its callers."""

    function: FuncOp
    # Per result: argument indices the returned storage may be.
    result_arguments: list[set[int]] = field(default_factory=list)
    # Per result: why the returned storage may be something a caller cannot own (or None).
    result_borrowed: list[str | None] = field(default_factory=list)
    # Per result: the globals whose storage it may be (loaded from them, or stored in them).
    result_globals: list[set[str]] = field(default_factory=list)
    # Per argument: may be written in place or freed, may escape, may be freed (consumed:
    # moved or deallocated, here or in a callee).
    argument_mutated: list[bool] = field(default_factory=list)
    argument_escapes: list[bool] = field(default_factory=list)
    argument_consumed: list[bool] = field(default_factory=list)


class CallGraph:
    """Functions, call sites, symbol escapes and function summaries of a module."""

    def __init__(self, module: Module, alias: AliasAnalysis) -> None:
        self.alias = alias
        self.functions: dict[str, FuncOp] = {}
        self.call_sites: dict[str, list[Operation]] = {}
        # Functions named by something other than a util.call callee (an attribute, the text
        # of an unmodelled op): they may be called from places we cannot see.
        self.referenced: set[str] = set()
        self.summaries: dict[str, FunctionSummary] = {}
        # Call results that may be storage the caller cannot own, with the reason.
        self.borrowed_call_results: dict[Value, str] = {}
        self._function_of: dict[Operation, FuncOp] = {}
        for op in module.op.walk():
            if isinstance(op, FuncOp):
                self.functions[op.sym_name] = op
            callee = call_target(op)
            if callee is not None:
                self.call_sites.setdefault(callee, []).append(op)
            self.referenced.update(symbols_named_by(op, skip="callee" if callee else None))
        self._summarize()

    # -- queries ---------------------------------------------------------------------------

    def callee_of(self, call: Operation) -> FuncOp | None:
        """The function a util.call calls, if it is defined in the module."""
        name = call_target(call)
        return self.functions.get(name) if name is not None else None

    def may_have_unseen_callers(self, function: FuncOp) -> bool:
        """True for functions callable from outside the module or through a reference."""
        return function.is_public or function.sym_name in self.referenced

    def function_of(self, op: Operation) -> FuncOp | None:
        """The util.func containing `op`."""
        cached = self._function_of.get(op)
        if cached is not None:
            return cached
        for ancestor in op.ancestors():
            if isinstance(ancestor, FuncOp):
                self._function_of[op] = ancestor
                return ancestor
        return None

    # -- summaries -------------------------------------------------------------------------

    def _summarize(self) -> None:
        for component in self._components():
            members = {f.sym_name for f in component}
            for function in component:
                self._connect_calls(function, members)
            for function in component:
                if not function.is_declaration:
                    self.summaries[function.sym_name] = self._summary(function, members)
        for name, function in self.functions.items():
            self._connect_returns(function, self.call_sites.get(name, []))

    def _connect_returns(self, function: FuncOp, calls: list[Operation]) -> None:
        """Record that each return of `function` hands its operands to the results of
        every call of it (in the module): the callers' uses of a result are later uses of
        what the function returned."""
        if function.is_declaration or not calls:
            return
        for block in function.regions[0].blocks:
            terminator = block.last_op
            if terminator is None or terminator.name != RETURN_OP:
                continue
            for j, operand in enumerate(terminator.operands):
                if not is_resource_like(operand):
                    continue
                targets = tuple(call.results[j] for call in calls if j < len(call.results))
                if targets:
                    self.alias.add_return(Handover(terminator, j, operand, targets))

    def _calls_in(self, function: FuncOp) -> Iterator[Operation]:
        for op in function.walk():
            if call_target(op) is not None:
                yield op

    def _connect_calls(self, function: FuncOp, cycle: set[str]) -> None:
        """Record what each call in `function` returns, from its callee's summary."""
        for call in self._calls_in(function):
            name = call_target(call)
            summary = self.summaries.get(name) if name not in cycle else None  # type: ignore[arg-type]
            for result in call.results:
                if (
                    not is_resource_like(result)
                    or call.tied_operand_index(result.index) is not None
                ):
                    continue
                if summary is None:
                    self.borrowed_call_results[result] = (
                        f"returned by '@{name}', whose body is not known"
                        if name not in cycle
                        else f"returned by recursive call to '@{name}'"
                    )
                    continue
                j = result.index
                for k in sorted(summary.result_arguments[j]):
                    if k < len(call.operands) and is_resource_like(call.operands[k]):
                        self.alias.add_pass(Handover(call, k, call.operands[k], (result,)))
                for symbol in sorted(summary.result_globals[j]):
                    storage = self.alias.global_storage(symbol)
                    self.alias.add_pass(Handover(call, None, storage, (result,)))
                reason = summary.result_borrowed[j]
                if reason is not None:
                    self.borrowed_call_results[result] = f"returned by '@{name}': {reason}"

    def _summary(self, function: FuncOp, cycle: set[str]) -> FunctionSummary:
        alias = self.alias
        summary = FunctionSummary(function)
        count = len(function.header.result_types)
        summary.result_arguments = [set() for _ in range(count)]
        summary.result_borrowed = [None] * count
        summary.result_globals = [set() for _ in range(count)]
        sources: list[set[Value]] = [set() for _ in range(count)]
        for block in function.regions[0].blocks:
            terminator = block.last_op
            if terminator is None or terminator.name != RETURN_OP:
                continue
            for j, operand in enumerate(terminator.operands):
                if j >= count or not is_resource_like(operand):
                    continue
                sources[j].update(alias.backward_roots(alias.root(operand)))
                for root in alias.backward_roots(alias.root(operand)):
                    origin = classify_root(root, root in alias.incoming)
                    if origin.kind is RootKind.FUNCTION_ARGUMENT:
                        assert isinstance(root, BlockArgument)
                        if root.block.parent_op is function:
                            summary.result_arguments[j].add(root.index)
                        else:
                            summary.result_borrowed[j] = "argument of another function"
                    elif origin.kind is RootKind.BORROWED:
                        summary.result_borrowed[j] = origin.reason
                    elif origin.kind is RootKind.CALL_RESULT:
                        reason = self.borrowed_call_results.get(root)
                        if reason is not None:
                            summary.result_borrowed[j] = reason
        # Storage that escaped in here (stored in a global, say) is not the caller's alone;
        # a global it came from or went to names it for the caller too.
        for j in range(count):
            reached = alias.forward_closure(sources[j]) if sources[j] else set()
            summary.result_globals[j] = {
                root.symbol for root in (*sources[j], *reached) if isinstance(root, GlobalStorage)
            }
            unknown = summary.result_borrowed[j] is None and sources[j]
            if unknown and self._effects(reached)[1]:
                summary.result_borrowed[j] = "may have escaped in the callee"
        # Two results that may be one storage: neither is the caller's alone. A result is
        # named with the first pair it is in, found through the first result holding each
        # source (a function with many results is not compared pair by pair).
        borrowed = summary.result_borrowed

        def shared(index: int, pair: tuple[int, int]) -> None:
            if borrowed[index] is None:
                borrowed[index] = f"results #{pair[0]} and #{pair[1]} may be one storage"

        first: dict[Value, int] = {}
        for k in range(count):
            earlier = sorted({first.setdefault(root, k) for root in sources[k]} - {k})
            if earlier:
                shared(k, (earlier[0], k))
            for other in earlier:
                shared(other, (other, k))
        arguments = function.body.arguments
        summary.argument_mutated = [False] * len(arguments)
        summary.argument_escapes = [False] * len(arguments)
        summary.argument_consumed = [False] * len(arguments)
        for arg in arguments:
            if not is_resource_like(arg):
                continue
            roots = self.alias.forward_roots(self.alias.root(arg))
            mutated, escapes = self._effects(roots)
            summary.argument_mutated[arg.index] = mutated
            summary.argument_escapes[arg.index] = escapes
            summary.argument_consumed[arg.index] = self.may_consume(roots)
        return summary

    def may_consume(self, roots: Iterable[Value]) -> bool:
        """True if the storage of `roots` may be freed through one of their names: moved,
        deallocated, handed to a callee that may free it or to code streamopt cannot see."""
        alias = self.alias
        for value in alias.names(roots):
            for use in value.uses:
                op = use.operation
                if (op, use.index) in alias.unmodelled_captures or not op.is_known:
                    return True
                kind = classify_use(op, use.index)
                if kind is UseKind.CALL:
                    name = call_target(op)
                    summary = self.summaries.get(name) if name is not None else None
                    if summary is None or use.index >= len(summary.argument_consumed):
                        return True
                    if summary.argument_consumed[use.index]:
                        return True
                elif kind is UseKind.MUTATE and op.operand_access(use.index) & Access.CONSUME:
                    return True
        return False

    def _effects(self, roots: Iterable[Value]) -> tuple[bool, bool]:
        """(may be mutated, may escape) for the storage of `roots`, through any of their names
        in this function or the functions it calls. Returning it is neither: the callers see
        that as a handover."""
        mutated = False
        alias = self.alias
        for value in alias.names(roots):
            for use in value.uses:
                if (use.operation, use.index) in alias.unmodelled_captures:
                    return True, True
                kind = classify_use(use.operation, use.index)
                if kind is UseKind.MUTATE:
                    mutated = True
                elif kind is UseKind.ESCAPE:
                    return True, True
                elif kind is UseKind.CALL:
                    callee_mutated, callee_escapes = self.call_effect(use.operation, use.index)
                    if callee_escapes:
                        return True, True
                    mutated = mutated or callee_mutated
        return mutated, False

    def call_effect(self, call: Operation, index: int) -> tuple[bool, bool]:
        """(may mutate, may escape) for operand `index` of util.call `call`."""
        name = call_target(call)
        summary = self.summaries.get(name) if name is not None else None
        if summary is None or index >= len(summary.argument_mutated):
            return True, True
        return summary.argument_mutated[index], summary.argument_escapes[index]

    def _components(self) -> list[list[FuncOp]]:
        """Strongly connected components of the call graph, callees first."""

        def callees(name: str) -> list[str]:
            return [
                callee
                for call in self._calls_in(self.functions[name])
                if (callee := call_target(call)) is not None and callee in self.functions
            ]

        return [
            [self.functions[name] for name in component]
            for component in strongly_connected_components(self.functions, callees)
        ]
