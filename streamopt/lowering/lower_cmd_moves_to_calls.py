"""`--lower-cmd-moves-to-calls`: turn each `stream.cmd.move` into a call of the runtime's
`queue_move`, so the decision to alias or copy is made when the program runs.

IREE has no move op, so the move leaves IREE's compiler as a call of an imported function
that a module supplied at run time implements (`streamopt.iree.moves` on IREE's runtime):

    %r, %t = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%t0) =>
        %x : !stream.resource<transient>{%n} from(#hal.device.affinity<@dev_a>) ->
        to(#hal.device.affinity<@dev_b>) !stream.resource<external>{%n} => !stream.timepoint
  becomes
    util.func private @streamopt.queue_move.transient.external(%arg0: !stream.resource<transient>,
        %arg1: index, %arg2: index, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64,
        %arg7: !stream.timepoint) -> (!stream.resource<external>, !stream.timepoint)
    ...
    %c0_i64 = arith.constant 0 : i64      // the source's device: @dev_a
    %c1_i64 = arith.constant 1 : i64      // the target's device: @dev_b
    %c-1_i64 = arith.constant -1 : i64    // any of its queues
    %c0_i64_0 = arith.constant 0 : i64    // no flags
    %r, %t = util.call @streamopt.queue_move.transient.external(%x, %c0, %n, %c0_i64,
        %c1_i64, %c-1_i64, %c0_i64_0, %t0) : (...) -> (!stream.resource<external>,
        !stream.timepoint)

The ABI (name, operands, results, flags) is `streamopt.move_api`'s. The call keeps the move's
ordering: it gets the move's await timepoint (an immediate one when the move awaits nothing)
and its result timepoint is the move's, so every user of the result still waits for it. A
device is named by its ordinal: the `ordinal` of its `#hal.device.target`, else its position
among the module's `!hal.device` globals (IREE binds a program's devices to the runtime's
device list the same way); a move without `from` passes -1 (`UNKNOWN_DEVICE`). A move
without `on` or `to` goes where IREE would run it: an enclosing op's affinity, else the
nearest `stream.affinity.default`. The queue affinity
is the mask of the target affinity's queues (-1 for any). `origin` (free a copied source on
the queue that allocated it) needs no flag: the runtime frees a copied source on the device it
came from, as the reference runtime does. `stream.cmd.move` has no other flags, so `flags` is
0 (a call written by hand may set `MoveFlags` bits, and the runtime module can add its own to
every move).
"""

from __future__ import annotations

from streamopt.diagnostics import error
from streamopt.dialects.arith import ConstantOp
from streamopt.dialects.stream import CmdMoveOp, TimepointImmediateOp
from streamopt.dialects.util import CallOp, FuncHeader, FuncOp, GlobalOp
from streamopt.ir.core import Block, Operation, Value
from streamopt.ir.module import Module
from streamopt.ir.symbols import SymbolTable
from streamopt.ir.types import (
    HAL_DEVICE,
    I64,
    INDEX,
    TIMEPOINT,
    AffinityAttr,
    AliasAttr,
    Attribute,
    ResourceType,
)
from streamopt.lazy_regex import lazy_compile
from streamopt.lowering.expand_cmd_moves import function_index_zero
from streamopt.lowering.lower_cmd_to_hal import lookup_affinity
from streamopt.move_api import RESOURCE_LIFETIMES, UNKNOWN_DEVICE, queue_move_import
from streamopt.passes import Pass, register_pass

_ORDINAL = lazy_compile(r"\bordinal\s*=\s*(\d+)")


@register_pass
class LowerCmdMovesToCallsPass(Pass):
    """Lowers stream.cmd.move into a util.call of the runtime's queue_move."""

    flag = "lower-cmd-moves-to-calls"
    summary = (
        "Rewrite each stream.cmd.move into a util.call of the imported "
        "streamopt.queue_move.<lifetimes>, decided at run time (see streamopt.move_api)"
    )

    def run(self, module: Module) -> None:
        moves = [op for op in module.walk() if isinstance(op, CmdMoveOp)]
        if not moves:
            return
        ordinals = device_ordinals(module)
        symbols = SymbolTable(module.op)
        declarations: dict[str, FuncOp] = {}
        zeros: dict[Block, Value] = {}
        for move in moves:
            callee = self._declaration(module, symbols, declarations, move)
            self._lower(module, move, callee, ordinals, zeros)
            self.stat("num-moves-lowered", "Number of stream.cmd.move ops lowered to calls")

    def _declaration(
        self,
        module: Module,
        symbols: SymbolTable,
        declarations: dict[str, FuncOp],
        move: CmdMoveOp,
    ) -> FuncOp:
        """The `util.func private` declaration of the import for `move`'s lifetimes (made
        before the module's first function when the module has none yet)."""
        source_type, result_type = move.source.type, move.results[0].type
        lifetimes: list[str] = []
        for what, type in (("source", source_type), ("result", result_type)):
            if not isinstance(type, ResourceType) or type.lifetime not in RESOURCE_LIFETIMES:
                raise error(
                    f"'{move.name}' op {what} has lifetime '{getattr(type, 'lifetime', type)}'; "
                    "a runtime move needs a refined lifetime",
                    move.location,
                )
            lifetimes.append(type.lifetime)
        name = queue_move_import(lifetimes[0], lifetimes[1])
        declaration = declarations.get(name)
        if declaration is not None:
            return declaration
        assert isinstance(source_type, ResourceType) and isinstance(result_type, ResourceType)
        arg_types = [source_type, INDEX, INDEX, I64, I64, I64, I64, TIMEPOINT]
        result_types = [result_type, TIMEPOINT]
        existing = symbols.lookup(name)
        if existing is not None:
            # A module lowered before (or written by hand) already declares it.
            if not (
                isinstance(existing, FuncOp)
                and existing.is_declaration
                and list(existing.header.arg_types) == arg_types
                and list(existing.header.result_types) == result_types
            ):
                raise error(
                    f"'@{name}' is already defined, and not as the runtime move's declaration",
                    existing.location,
                )
            declarations[name] = existing
            return existing
        header = FuncHeader(
            visibility="private",
            sym_name=name,
            arg_types=arg_types,
            arg_attrs=[None] * len(arg_types),
            result_types=result_types,
            result_attrs=[None] * len(result_types),
            tied_results=[None] * len(result_types),
            attributes={},
        )
        declaration = FuncOp(header, None, move.location)
        first_function = next(
            (op for op in module.op.body.ops if op.name in ("util.func", "util.initializer")),
            None,
        )
        symbols.insert(declaration, before=first_function)
        declarations[name] = declaration
        return declaration

    def _lower(
        self,
        module: Module,
        move: CmdMoveOp,
        callee: FuncOp,
        ordinals: dict[str, int],
        zeros: dict[Block, Value],
    ) -> None:
        block = move.parent
        assert block is not None

        def emit(op: Operation) -> Value:
            op.location, op.debug_loc = move.location, move.debug_loc
            block.insert_before(op, move)
            return op.results[0]

        execution = lookup_affinity(module, move)
        target_affinity = move.target_affinity or execution
        # Without `from` the source may be anywhere (IREE leaves the source affinity unset).
        source_device = (
            _device_ordinal(module, move, move.source_affinity, ordinals, "source")
            if move.source_affinity is not None
            else UNKNOWN_DEVICE
        )
        target_device = _device_ordinal(module, move, target_affinity, ordinals, "target")
        awaited = move.await_timepoint
        if awaited is None:
            awaited = emit(TimepointImmediateOp.create())
        operands = [
            move.source,
            function_index_zero(move, zeros),
            move.result_size,
            emit(ConstantOp.create(source_device, I64)),
            emit(ConstantOp.create(target_device, I64)),
            emit(ConstantOp.create(_queue_mask(module, target_affinity), I64)),
            emit(ConstantOp.create(0, I64)),
            awaited,
        ]
        call = CallOp.create(callee, operands, move.location)
        call.debug_loc = move.debug_loc
        block.insert_before(call, move)
        move.results[0].replace_all_uses_with(call.results[0])
        move.results[1].replace_all_uses_with(call.results[1])
        move.erase()


def device_ordinals(module: Module) -> dict[str, int]:
    """Each `!hal.device` global's ordinal: the `ordinal` of its `#hal.device.target`, else its
    position among the module's device globals."""
    ordinals: dict[str, int] = {}
    position = 0
    for op in module.op.body.ops:
        if not isinstance(op, GlobalOp):
            continue
        initial = op.initial_value
        target = module.resolve(initial).text if initial is not None else ""
        if op.global_type != HAL_DEVICE and not target.startswith("#hal.device."):
            continue
        match = _ORDINAL.search(target) if target.startswith("#hal.device.target") else None
        ordinals[op.sym_name] = int(match.group(1)) if match else position
        position += 1
    return ordinals


def _resolved(module: Module, affinity: Attribute | None) -> Attribute | None:
    if isinstance(affinity, AliasAttr):
        return module.resolve(affinity)
    return affinity


def _device_ordinal(
    module: Module,
    move: CmdMoveOp,
    affinity: Attribute | None,
    ordinals: dict[str, int],
    what: str,
) -> int:
    affinity = _resolved(module, affinity)
    if not isinstance(affinity, AffinityAttr):
        spelled = affinity.text if affinity is not None else "none"
        raise error(
            f"'{move.name}' op {what} affinity must name one device for a runtime move, "
            f"got {spelled}",
            move.location,
        )
    ordinal = ordinals.get(affinity.device)
    if ordinal is None:
        raise error(
            f"'{move.name}' op {what} device @{affinity.device} is not a !hal.device global "
            "of the module",
            move.location,
        )
    return ordinal


def _queue_mask(module: Module, affinity: Attribute | None) -> int:
    """The queues of `affinity` as a mask; -1 (any queue) when it lists none."""
    affinity = _resolved(module, affinity)
    if isinstance(affinity, AffinityAttr) and affinity.queues is not None:
        mask = 0
        for queue in affinity.queues:
            mask |= 1 << queue
        # An i64 operand: the top queue bit makes it negative.
        return mask - (1 << 64) if mask >= 1 << 63 else mask
    return -1
