"""Every small program over a vocabulary of storage operations, and the check each one gets.

A random generator tests the shapes its author imagined; this enumerates *all* programs up to
a size, so the shapes nobody imagined are in the set too. A program is a straight list of at
most `MAX_STATEMENTS` statements over 16-byte (or, once sliced, 8-byte) resources, placed by
at most one *wrapper* that puts one contiguous segment of the list somewhere else:

* statements (`VOCABULARY`): a splat, a load of a private mutable global, an in-place write
  of the global through a load, a store to it, a read-only dispatch, an in-place dispatch, a
  fill, a clone, a transfer to the same device, to the other CPU or to the discrete device,
  a slice, an update, a copy, a dispatch of two values, and the host's: an import of the
  buffer `@main` borrows from its caller (every one names the caller's storage), an import of
  the buffer it is given to consume (at most once), an export (its buffer view goes back to
  the caller), an export whose view is imported again, directly or after taking its
  `!hal.buffer`, a subspan of it and a new view of that. Operands are any earlier value on the
  right device (a tied result is a new name of its operand's storage; the old name stays
  usable), so every way a storage gets several names is in the set;
* wrappers (`WRAPPERS`): none (all in `@main`); the segment in a private or public callee
  (its inputs the arguments, the values it makes that are used later or observed its
  results: a segment at the start makes a callee that returns its argument, one at the end
  a callee whose results go straight to the host); in an `scf.if` (run or not, the other
  branch yielding what came in or fresh storage); in an `scf.for` body carrying its first
  input; in a block after a `cf.br`, with its values as block arguments or by dominance; in
  a `stream.async.execute`;
* the module's topology: none, or `@dev_a <-> @dev_b` with unified memory (only for programs
  that transfer between them, where it can matter).

`@main` returns every value no later statement uses, the global (when used), the caller's
buffer as it is at the end (imported again, when borrowed) and every exported view, so every
byte a wrong rewrite could change is observed. A callee that imports gets the caller's
buffers as arguments and returns the views it exports. The set is deterministic:
`programs()` yields it in one order, each with a stable index, and `ci_slice()` takes every
`CI_STRIDE`-th.

The check (`check`) runs each through every form of
`streamopt-run --compare` against the program as given: a wrong rewrite shows as other
bytes, a read of a moved buffer, or a verifier or lowering error on valid input.

    python test/unit/runtime/program_enumerator.py --count            # how many, by wrapper
    python test/unit/runtime/program_enumerator.py --jobs 2           # run the whole set
    python test/unit/runtime/program_enumerator.py --print 1234       # one program
"""

# IR lines cannot wrap.
# ruff: noqa: E501

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
    from runtime.program_generator import Failure, Program, executable, forms
else:
    from .program_generator import Failure, Program, executable, forms

MAX_STATEMENTS = 3
"""The longest statement list (a wrapper adds a call, a region or a branch around part of it)."""

DEVICES = ("dev_a", "dev_b", "dev_c")
"""dev_a and dev_b are the runtime's two CPUs (host memory), dev_c its discrete device."""

T = "!stream.resource<transient>"
TOPOLOGY = (
    "#hal.device.topology<links = [(@dev_a -> @dev_b = {unified_memory = true}), "
    "(@dev_b -> @dev_a = {unified_memory = true})]>"
)


def affinity(device: str) -> str:
    return f"#hal.device.affinity<@{device}>"


# -- statements ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """A statement kind: how many resource operands it takes and what it makes."""

    name: str
    arity: int
    makes: bool = True  # defines a value
    tied: bool = False  # the value is another name of operand 0's storage
    device: str | None = None  # a transfer's target: "same", "cpu" (the other CPU), "discrete"


VOCABULARY: tuple[Kind, ...] = (
    Kind("splat", 0),
    Kind("load", 0),
    Kind("global-write", 0),
    Kind("store", 1, makes=False),
    Kind("dispatch", 1),
    Kind("in-place", 1, tied=True),
    Kind("fill", 1, tied=True),
    Kind("clone", 1),
    Kind("transfer", 1, device="same"),
    Kind("transfer", 1, device="cpu"),
    Kind("transfer", 1, device="discrete"),
    Kind("slice", 1),
    Kind("update", 2, tied=True),
    Kind("copy", 2, tied=True),
    Kind("dispatch2", 2),
    Kind("import", 0),
    Kind("import-consume", 0),
    Kind("export", 1, makes=False),
    Kind("reimport", 1, tied=True),
    Kind("rewrap", 1, tied=True),
)

CANDIDATES = frozenset({"clone", "transfer", "slice", "update"})
"""Kinds `--elide-async-copies` may rewrite: a program without one only tests the lowering."""


@dataclass(frozen=True)
class Statement:
    kind: Kind
    operands: tuple[int, ...]


@dataclass(frozen=True)
class ValueInfo:
    """Value `index` of a statement list: where it lives, how big it is, and which storage
    it names when the list runs straight through (tied results and global loads name
    storage another value made)."""

    device: str
    size: int
    storage: int


def _target_device(kind: Kind, source: str) -> str:
    if kind.device == "same":
        return source
    if kind.device == "discrete":
        return "dev_c"
    return "dev_b" if source != "dev_b" else "dev_a"


GLOBAL_INITIAL = -1
"""The storage the global holds before any statement runs (a splat of `@main`'s prelude)."""

BORROWED = -2
"""The caller's buffer `%bv`: every borrowed import of it names this storage."""

HOST_KINDS = frozenset({"import", "import-consume", "export", "reimport", "rewrap"})
"""Kinds that import from or export to the host (`%bv`, `%bw`, buffer views)."""


def value_infos(statements: Sequence[Statement]) -> list[ValueInfo]:
    """Value 0 (the input splat on dev_a) and the value each value-making statement defines."""
    infos = [ValueInfo("dev_a", 16, 0)]
    in_global, global_device = GLOBAL_INITIAL, "dev_a"
    for number, statement in enumerate(statements, start=1):
        kind = statement.kind
        first = infos[statement.operands[0]] if statement.operands else None
        if kind.name == "store":
            assert first is not None
            in_global, global_device = first.storage, first.device
            continue
        if kind.name == "export":
            continue
        if kind.name == "import":
            infos.append(ValueInfo("dev_a", 16, BORROWED))
            continue
        if kind.name in ("load", "global-write"):
            infos.append(ValueInfo(global_device, 16, in_global))
        elif kind.name in ("splat", "import-consume"):
            infos.append(ValueInfo("dev_a", 16, number))
        elif kind.name == "transfer":
            assert first is not None
            infos.append(ValueInfo(_target_device(kind, first.device), first.size, number))
        elif kind.name == "slice":
            assert first is not None
            infos.append(ValueInfo(first.device, 8, number))
        elif kind.name in ("dispatch", "dispatch2", "clone"):
            assert first is not None
            size = first.size if kind.name == "clone" else 16
            infos.append(ValueInfo(first.device, size, number))
        else:
            assert first is not None and kind.tied
            infos.append(first)
    return infos


def _applications(kind: Kind, infos: list[ValueInfo]) -> Iterator[tuple[int, ...]]:
    """Every operand tuple `kind` may take among `infos`."""
    indices = range(len(infos))
    if kind.arity == 0:
        yield ()
    elif kind.arity == 1:
        for i in indices:
            info = infos[i]
            if kind.name == "store" and info.size != 16:
                continue  # The global holds 16 bytes.
            if kind.name == "slice" and info.size != 16:
                continue
            if kind.name == "transfer" and kind.device == "cpu" and info.device == "dev_c":
                continue  # From the discrete device, "the other CPU" is not defined.
            yield (i,)
    else:
        for i, j in itertools.permutations(indices, 2):
            a, b = infos[i], infos[j]
            if a.device != b.device:
                continue
            if kind.name == "dispatch2" and i > j:
                continue  # Reads both: the order does not matter.
            if kind.name == "update" and b.size > a.size:
                continue  # update writes operand 1 (all of it) into operand 0.
            if kind.name in ("update", "copy") and a.storage == b.storage:
                continue  # A copy within one storage whose ranges overlap is invalid.
            yield (i, j)


def statement_lists(length: int) -> Iterator[tuple[Statement, ...]]:
    """Every statement list of `length` statements, in a fixed order."""
    if length == 0:
        yield ()
        return
    for prefix in statement_lists(length - 1):
        infos = value_infos(prefix)
        consumed = any(s.kind.name == "import-consume" for s in prefix)
        for kind in VOCABULARY:
            if kind.name == "import-consume" and consumed:
                continue  # `%bw` is the program's once it is consumed.
            for operands in _applications(kind, infos):
                yield (*prefix, Statement(kind, operands))


# -- wrappers --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Wrapper:
    """Where statements `start` to `end` (exclusive) go; `kind` "main" puts all in @main."""

    kind: str
    start: int = 0
    end: int = 0


WRAPPERS = (
    "call-private",
    "call-private-through",  # the callee also returns the inputs used after it
    "call-public",
    "call-public-through",
    "if-then-pass",  # then branch runs; else would yield the segment's inputs
    "if-then-fresh",  # then branch runs; else would yield fresh splats
    "if-else-pass",  # else branch runs
    "for",
    "br-arguments",
    "br-through",  # block arguments, and the inputs used after it go through the next block's
    "br-dominance",
    "execute",
)


def wrappers(length: int) -> Iterator[Wrapper]:
    yield Wrapper("main")
    for start in range(length):
        for end in range(start + 1, length + 1):
            for kind in WRAPPERS:
                yield Wrapper(kind, start, end)


# -- programs --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """One enumerated program before it is written."""

    statements: tuple[Statement, ...]
    wrapper: Wrapper
    unified: bool
    # A value some statement uses that `@main` returns as well (None: only the unused ones).
    extra: int | None = None

    def describe(self) -> str:
        parts = []
        for index, statement in enumerate(self.statements):
            kind = statement.kind
            name = kind.name + (f"({kind.device})" if kind.device else "")
            operands = ",".join(f"v{i}" for i in statement.operands)
            marker = ""
            if self.wrapper.kind != "main" and index == self.wrapper.start:
                marker = f"[{self.wrapper.kind}: "
            parts.append(f"{marker}{name} {operands}".strip())
            if self.wrapper.kind != "main" and index == self.wrapper.end - 1:
                parts[-1] += "]"
        topology = " (unified a<->b)" if self.unified else ""
        extra = f" (v{self.extra} returned too)" if self.extra is not None else ""
        return "; ".join(parts) + topology + extra


MAX_SIZE = 6
"""The largest program: a statement costs one plus its operands, a wrapper one."""

THROUGH_MAX_SIZE = 7
"""Wrappers that hand their inputs back out (a callee returning its argument, a block passing
it on) go one further: the shapes the reviewer's enumerator found wrong need it."""


def size_of(statements: Sequence[Statement], wrapper: Wrapper) -> int:
    return sum(1 + s.kind.arity for s in statements) + (wrapper.kind != "main")


def shapes(max_statements: int = MAX_STATEMENTS) -> Iterator[Shape]:
    """Every program shape, in a fixed order."""
    for length in range(1, max_statements + 1):
        for statements in statement_lists(length):
            if not any(s.kind.name in CANDIDATES for s in statements):
                continue
            infos = value_infos(statements)
            crosses = any(
                s.kind.name == "transfer"
                and {
                    infos[s.operands[0]].device,
                    _target_device(s.kind, infos[s.operands[0]].device),
                }
                == {"dev_a", "dev_b"}
                for s in statements
            )
            for wrapper in wrappers(length):
                size = size_of(statements, wrapper)
                limit = THROUGH_MAX_SIZE if wrapper.kind.endswith("through") else MAX_SIZE
                if size > limit:
                    continue
                topologies = (False, True) if crosses else (False,)
                for unified in topologies:
                    yield Shape(statements, wrapper, unified)
                if wrapper.kind != "main" or size + 1 > MAX_SIZE:
                    continue
                # In @main, every value a statement uses may also be returned: an older name
                # of a storage a later statement writes, moves or copies.
                used = sorted({i for s in statements for i in s.operands})
                for extra in used:
                    for unified in topologies:
                        yield Shape(statements, wrapper, unified, extra)


PRELUDE = (
    "%c0 = arith.constant 0 : index",
    "%c1 = arith.constant 1 : index",
    "%c2 = arith.constant 2 : index",
    "%c4 = arith.constant 4 : index",
    "%c8 = arith.constant 8 : index",
    "%c12 = arith.constant 12 : index",
    "%c16 = arith.constant 16 : index",
    *(f"%c{k}_i8 = arith.constant {k} : i8" for k in range(1, 8)),
)


STATEMENT_TEXT: dict[str, tuple[str, ...]] = {
    "splat": ("{name} = stream.async.splat {on}{pattern} : i8 -> {t16}",),
    "load": ("{name} = util.global.load @g : {t}",),
    "global-write": (
        "{loaded} = util.global.load @g : {t}",
        "{name} = stream.async.fill {on}{pattern}, {loaded}[%c0 to %c8 for %c8] : i8 -> {loaded} as {t16}",
    ),
    "store": ("util.global.store {a}, @g : {t}",),
    "dispatch": (
        "{name} = stream.async.dispatch {on}@ex::@mix1({a}[%c0 to %c{sa} for %c{sa}]) : ({ta}) -> {t16}",
    ),
    "in-place": (
        "{name} = stream.async.dispatch {on}@ex::@update({a}[%c0 to %c{sa} for %c{sa}]) : ({ta}) -> {a}{{%c{sa}}}",
    ),
    "fill": (
        "{name} = stream.async.fill {on}{pattern}, {a}[%c0 to %c4 for %c4] : i8 -> {a} as {ta}",
    ),
    "clone": ("{name} = stream.async.clone {on}{a} : {ta} -> {ta}",),
    "transfer": ("{name} = stream.async.transfer {a} : {ta} {from}-> to({to}) {ta}",),
    "slice": ("{name} = stream.async.slice {on}{a}[%c4 to %c12] : {t16} -> {t}{{%c8}}",),
    "update": ("{name} = stream.async.update {on}{b}, {a}[%c0 to %c{sb}] : {tb} -> {a} as {ta}",),
    "copy": (
        "{name} = stream.async.copy {on}{b}[%c0 to %c4], {a}[%c4 to %c8], %c4 : {tb} -> {a} as {ta}",
    ),
    "dispatch2": (
        "{name} = stream.async.dispatch {on}@ex::@mix2({a}[%c0 to %c{sa} for %c{sa}], {b}[%c0 to %c{sb} for %c{sb}]) : ({ta}, {tb}) -> {t16}",
    ),
    "import": (
        "{name} = stream.tensor.import {on}%bv : !hal.buffer_view -> tensor<16xi8> in {t16}",
    ),
    "import-consume": (
        "{name} = stream.tensor.import {on}consume %bw : !hal.buffer_view -> tensor<16xi8> in {t16}",
    ),
    "export": (
        "{view} = stream.tensor.export {on}{a} : tensor<{sa}xi8> in {ta} -> !hal.buffer_view",
    ),
    "reimport": (
        "{view} = stream.tensor.export {on}{a} : tensor<{sa}xi8> in {ta} -> !hal.buffer_view",
        "{name} = stream.tensor.import {on}{view} : !hal.buffer_view -> tensor<{sa}xi8> in {ta}",
    ),
    "rewrap": (
        "{view} = stream.tensor.export {on}{a} : tensor<{sa}xi8> in {ta} -> !hal.buffer_view",
        "{view}_b = hal.buffer_view.buffer<{view} : !hal.buffer_view> : !hal.buffer",
        "{view}_s = hal.buffer.subspan<{view}_b : !hal.buffer>[%c0, %c{sa}] : !hal.buffer",
        "{view}_t = hal.element_type<i8> : i32",
        "{view}_e = hal.encoding_type<dense_row_major> : i32",
        "{view}_v = hal.buffer_view.create buffer({view}_s : !hal.buffer)[%c0, %c{sa}] shape([%c{sa}]) type({view}_t) encoding({view}_e) : !hal.buffer_view",
        "{name} = stream.tensor.import {on}{view}_v : !hal.buffer_view -> tensor<{sa}xi8> in {ta}",
    ),
}
"""How each statement kind is written: `{a}`/`{b}` its operands, `{ta}`/`{tb}` their types
with sizes, `{name}` the value it defines, `{view}` the buffer view an export makes (one line
each, the in-place global write and the export and import of a view two). `%bv` is the buffer
`@main` borrows from its caller, `%bw` the one it is given to consume."""


class Writer:
    """Writes one shape as a module, or says the wrapper does not apply (None)."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.statements = shape.statements
        self.infos = value_infos(shape.statements)
        # Statement index -> the index of the value it defines (None for a store).
        self.defines: list[int | None] = []
        count = 1
        for statement in self.statements:
            if statement.kind.makes:
                self.defines.append(count)
                count += 1
            else:
                self.defines.append(None)
        self.uses_global = any(
            s.kind.name in ("load", "global-write", "store") for s in self.statements
        )
        # Export statement index -> its buffer view's name where `@main` can return it.
        self.views: dict[int, str] = {}
        self.counter = 0

    # -- facts -----------------------------------------------------------------------------

    def defined_in(self, start: int, end: int) -> list[int]:
        return [v for v in self.defines[start:end] if v is not None]

    def used_in(self, start: int, end: int) -> set[int]:
        return {i for s in self.statements[start:end] for i in s.operands}

    def has_kind(self, start: int, end: int, *names: str) -> bool:
        return any(s.kind.name in names for s in self.statements[start:end])

    def exports_in(self, start: int, end: int) -> list[int]:
        return [i for i in range(start, end) if self.statements[i].kind.name == "export"]

    def host_buffers(self, start: int, end: int) -> list[str]:
        """The caller's buffers statements start..end import: `%bv` (borrowed), `%bw`
        (consumed); a function that imports them takes them as arguments of these names."""
        kinds = (("%bv", "import"), ("%bw", "import-consume"))
        return [name for name, kind in kinds if self.has_kind(start, end, kind)]

    def observed(self) -> list[int]:
        """Values @main returns: those no statement uses, and the extra one the shape names."""
        used = self.used_in(0, len(self.statements))
        extra = self.shape.extra
        return [v for v in range(len(self.infos)) if v not in used or v == extra]

    def type_of(self, value: int) -> str:
        return f"{T}{{%c{self.infos[value].size}}}"

    # -- statements ------------------------------------------------------------------------

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def statement(
        self, index: int, names: dict[int, str], lines: list[str], isolated: bool = False
    ) -> None:
        """Append statement `index`, its operands named by `names`; name its value there."""
        statement = self.statements[index]
        kind = statement.kind
        operands = [names[i] for i in statement.operands]
        infos = [self.infos[i] for i in statement.operands]
        defined = self.defines[index]
        name = f"%v{defined}" if defined is not None else ""
        if defined is not None:
            names[defined] = name
        device = infos[0].device if infos else "dev_a"
        on = "" if isolated else f"on({affinity(device)}) "
        pattern = f"%c{defined % 7 + 1 if defined is not None else 1}_i8"
        sizes = [info.size for info in infos]
        fields = {
            "name": name,
            "on": on,
            "pattern": pattern,
            "a": operands[0] if operands else "",
            "b": operands[1] if len(operands) > 1 else "",
            "sa": sizes[0] if sizes else 16,
            "sb": sizes[1] if len(sizes) > 1 else 16,
            "ta": f"{T}{{%c{sizes[0] if sizes else 16}}}",
            "tb": f"{T}{{%c{sizes[1] if len(sizes) > 1 else 16}}}",
            "t": T,
            "t16": f"{T}{{%c16}}",
            "from": "" if isolated else f"from({affinity(device)}) ",
            "to": affinity(_target_device(kind, device)),
            "loaded": self.fresh("l") if kind.name == "global-write" else "",
            "view": self.fresh("x") if kind.name in ("export", "reimport", "rewrap") else "",
        }
        if kind.name == "export":
            self.views[index] = fields["view"]
        for template in STATEMENT_TEXT[kind.name]:
            lines.append(template.format(**fields))

    def straight(self, start: int, end: int, names: dict[int, str], lines: list[str]) -> None:
        for index in range(start, end):
            self.statement(index, names, lines)

    # -- the module ------------------------------------------------------------------------

    def write(self) -> Program | None:
        wrapper = self.shape.wrapper
        names: dict[int, str] = {0: "%v0"}
        main: list[str] = [*PRELUDE]
        main.append(f"%v0 = stream.async.splat on({affinity('dev_a')}) %c1_i8 : i8 -> {T}{{%c16}}")
        if self.uses_global:
            main.append(
                f"%g0 = stream.async.splat on({affinity('dev_a')}) %c2_i8 : i8 -> {T}{{%c16}}"
            )
            main.append(f"util.global.store %g0, @g : {T}")
        functions: list[str] = []
        if wrapper.kind == "main":
            self.straight(0, len(self.statements), names, main)
        else:
            start, end = wrapper.start, wrapper.end
            self.straight(0, start, names, main)
            placed = self.segment(wrapper, names, main, functions)
            if not placed:
                return None
            self.straight(end, len(self.statements), names, main)
        observed = self.observed()
        if any(v not in names for v in observed):
            return None  # Defined in a region that does not hand it out.
        results = [names[v] for v in observed]
        types = [T for _ in observed]
        if self.uses_global:
            main.append(f"%final = util.global.load @g : {T}")
            results.append("%final")
            types.append(T)
        host = self.host_buffers(0, len(self.statements))
        if "%bv" in host:
            # What the caller's buffer holds when `@main` returns.
            main.append(
                STATEMENT_TEXT["import"][0].format(
                    name="%final_bv", on=f"on({affinity('dev_a')}) ", t16=f"{T}{{%c16}}"
                )
            )
            results.append("%final_bv")
            types.append(T)
        for index in self.exports_in(0, len(self.statements)):
            results.append(self.views[index])
            types.append("!hal.buffer_view")
        main.append(f"util.return {', '.join(results)} : {', '.join(types)}")
        arguments = "".join(f", {name}: !hal.buffer_view" for name in host)
        header = (
            f"util.func public @main(%flag: i1, %trip: index{arguments}) -> ({', '.join(types)}) {{"
        )
        body = "\n".join(
            [
                "util.global private @dev_a : !hal.device",
                "util.global private @dev_b : !hal.device",
                "util.global private @dev_c : !hal.device",
                *([f"util.global private mutable @g : {T}"] if self.uses_global else []),
                executable(),
                *functions,
                header,
                *("  " + line for line in main),
                "}",
            ]
        )
        if self.shape.unified:
            indented = "\n".join("  " + line for line in body.split("\n"))
            body = f"module attributes {{stream.topology = {TOPOLOGY}}} {{\n{indented}\n}}"
        flag = "0" if wrapper.kind == "if-else-pass" else "1"
        contents = {"%bv": "16xi8=9", "%bw": "16xi8=10"}
        inputs = [flag, "2", *(contents[name] for name in host)]
        return Program(body, inputs, Counter({wrapper.kind: 1}))

    def segment(
        self, wrapper: Wrapper, names: dict[int, str], main: list[str], functions: list[str]
    ) -> bool:
        """Write statements start..end as the wrapper says; False if it does not apply."""
        start, end = wrapper.start, wrapper.end
        defined = set(self.defined_in(start, end))
        inputs = sorted(v for v in self.used_in(start, end) if v not in defined)
        later = self.used_in(end, len(self.statements)) | set(self.observed())
        outputs = [v for v in self.defined_in(start, end) if v in later]
        kind = wrapper.kind
        if kind.endswith("through"):
            # Inputs used after the segment come back out of it under new names.
            back = [v for v in inputs if v in later]
            if not back:
                return False  # The same program as the plain wrapper.
            outputs = outputs + back
        if kind.startswith("call"):
            public = kind.startswith("call-public")
            return self.call(public, start, end, inputs, outputs, names, main, functions)
        if kind.startswith(("if", "for")) and self.exports_in(start, end):
            return False  # The view would not leave the region.
        if kind == "for" and self.has_kind(start, end, "import-consume"):
            return False  # A second iteration would consume `%bw` again: invalid as given.
        if kind.startswith("if"):
            return self.if_op(kind, start, end, inputs, outputs, names, main)
        if kind == "for":
            return self.for_op(start, end, inputs, outputs, names, main)
        if kind.startswith("br"):
            return self.branch(kind != "br-dominance", start, end, inputs, outputs, names, main)
        assert kind == "execute"
        return self.execute(start, end, inputs, outputs, names, main)

    def rename(self, values: Sequence[int], prefix: str) -> dict[int, str]:
        return {v: self.fresh(prefix) for v in values}

    def result_names(self, count: int, prefix: str) -> tuple[str, list[str]]:
        base = self.fresh(prefix)
        if count == 1:
            return base, [base]
        return f"{base}:{count}", [f"{base}#{i}" for i in range(count)]

    def call(
        self,
        public: bool,
        start: int,
        end: int,
        inputs: list[int],
        outputs: list[int],
        names: dict[int, str],
        main: list[str],
        functions: list[str],
    ) -> bool:
        inner = self.rename(inputs, "a")
        lines = [*PRELUDE]
        self.straight(start, end, inner, lines)
        exports = self.exports_in(start, end)
        returned = ", ".join([*(inner[v] for v in outputs), *(self.views[i] for i in exports)])
        returned_types = ", ".join([*(T for _ in outputs), *("!hal.buffer_view" for _ in exports)])
        lines.append(f"util.return {returned} : {returned_types}" if returned else "util.return")
        host = self.host_buffers(start, end)
        arguments = ", ".join(
            [*(f"{inner[v]}: {T}" for v in inputs), *(f"{h}: !hal.buffer_view" for h in host)]
        )
        visibility = "public" if public else "private"
        functions.append(
            "\n".join(
                [
                    f"util.func {visibility} @f1({arguments}) -> ({returned_types}) {{",
                    *("  " + line for line in lines),
                    "}",
                ]
            )
        )
        passed = ", ".join([*(names[v] for v in inputs), *host])
        passed_types = ", ".join([*(T for _ in inputs), *("!hal.buffer_view" for _ in host)])
        if returned:
            lhs, results = self.result_names(len(outputs) + len(exports), "r")
            main.append(f"{lhs} = util.call @f1({passed}) : ({passed_types}) -> ({returned_types})")
            names.update(zip(outputs, results))
            self.views.update(zip(exports, results[len(outputs) :]))
        else:
            main.append(f"util.call @f1({passed}) : ({passed_types}) -> ()")
        return True

    def if_op(
        self,
        kind: str,
        start: int,
        end: int,
        inputs: list[int],
        outputs: list[int],
        names: dict[int, str],
        main: list[str],
    ) -> bool:
        if not outputs:
            lines: list[str] = []
            self.straight(start, end, dict(names), lines)
            main.append("scf.if %flag {")
            main.extend("  " + line for line in lines)
            main.append("}")
            return True
        then_names = dict(names)
        then_lines: list[str] = []
        self.straight(start, end, then_names, then_lines)
        else_lines: list[str] = []
        else_values = []
        # Storage an output names when the else branch runs instead (what it passes on).
        instead: dict[int, int] = {}
        for value in outputs:
            size = self.infos[value].size
            same = [v for v in inputs if self.infos[v].size == size]
            if kind.endswith("pass") and same:
                else_values.append(names[same[0]])
                instead[self.infos[value].storage] = self.infos[same[0]].storage
            else:
                fresh = self.fresh("e")
                else_lines.append(
                    f"{fresh} = stream.async.splat on({affinity(self.infos[value].device)}) %c3_i8 : i8 -> {T}{{%c{size}}}"
                )
                else_values.append(fresh)
        for statement in self.statements[end:]:
            # A copy between two names of one storage on the else path overlaps itself.
            if statement.kind.name in ("update", "copy"):
                a, b = (self.infos[v].storage for v in statement.operands)
                if instead.get(a, a) == instead.get(b, b):
                    return False
        types = ", ".join(T for _ in outputs)
        lhs, results = self.result_names(len(outputs), "if")
        main.append(f"{lhs} = scf.if %flag -> ({types}) {{")
        main.extend("  " + line for line in then_lines)
        main.append(f"  scf.yield {', '.join(then_names[v] for v in outputs)} : {types}")
        main.append("} else {")
        main.extend("  " + line for line in else_lines)
        main.append(f"  scf.yield {', '.join(else_values)} : {types}")
        main.append("}")
        names.update(zip(outputs, results))
        return True

    def for_op(
        self,
        start: int,
        end: int,
        inputs: list[int],
        outputs: list[int],
        names: dict[int, str],
        main: list[str],
    ) -> bool:
        """The segment as a loop body carrying its first input (and the values it makes
        that are used later, started as fresh splats)."""
        if not inputs:
            return False
        carried = inputs[0]
        size = self.infos[carried].size
        # The carried slot takes the last value the body makes of the same size, if any.
        same = [v for v in outputs if self.infos[v].size == size]
        follows = same[-1] if same else None
        others = [v for v in outputs if v != follows]
        if follows is not None:
            # From the second iteration on, the carried value names what `follows` named:
            # a copy between the two would then overlap itself (invalid as given).
            storage = self.infos[follows].storage
            for statement in self.statements[start:end]:
                if statement.kind.name in ("update", "copy") and carried in statement.operands:
                    other = [v for v in statement.operands if v != carried]
                    if other and self.infos[other[0]].storage == storage:
                        return False
        inits = [names[carried]]
        for value in others:
            fresh = self.fresh("i")
            main.append(
                f"{fresh} = stream.async.splat on({affinity(self.infos[value].device)}) %c3_i8 : i8 -> {T}{{%c{self.infos[value].size}}}"
            )
            inits.append(fresh)
        body_names = dict(names)
        accumulators = [self.fresh("acc") for _ in inits]
        body_names[carried] = accumulators[0]
        lines: list[str] = []
        self.straight(start, end, body_names, lines)
        yielded = [body_names[follows] if follows is not None else accumulators[0]]
        yielded += [body_names[v] for v in others]
        types = ", ".join(T for _ in inits)
        header = ", ".join(f"{a} = {i}" for a, i in zip(accumulators, inits))
        lhs, results = self.result_names(len(inits), "for")
        main.append(
            f"{lhs} = scf.for %i = %c0 to %trip step %c1 iter_args({header}) -> ({types}) {{"
        )
        main.extend("  " + line for line in lines)
        main.append(f"  scf.yield {', '.join(yielded)} : {types}")
        main.append("}")
        # After the loop, the carried value (and what followed it) is the loop's result.
        if follows is not None:
            names[follows] = results[0]
        names[carried] = results[0] if follows is None else names[carried]
        names.update(zip(others, results[1:]))
        return True

    def branch(
        self,
        arguments: bool,
        start: int,
        end: int,
        inputs: list[int],
        outputs: list[int],
        names: dict[int, str],
        main: list[str],
    ) -> bool:
        if not arguments:
            main.append("cf.br ^bb1")
            main.append("^bb1:")
            self.straight(start, end, names, main)
            main.append("cf.br ^bb2")
            main.append("^bb2:")
            return True
        inner = self.rename(inputs, "b")
        passed = ", ".join(names[v] for v in inputs)
        types = ", ".join(T for _ in inputs)
        main.append(f"cf.br ^bb1({passed} : {types})" if inputs else "cf.br ^bb1")
        header = ", ".join(f"{inner[v]}: {T}" for v in inputs)
        main.append(f"^bb1({header}):" if inputs else "^bb1:")
        body_names = dict(names)
        body_names.update(inner)
        self.straight(start, end, body_names, main)
        outer = self.rename(outputs, "j")
        out_types = ", ".join(T for _ in outputs)
        out_passed = ", ".join(body_names[v] for v in outputs)
        main.append(f"cf.br ^bb2({out_passed} : {out_types})" if outputs else "cf.br ^bb2")
        out_header = ", ".join(f"{outer[v]}: {T}" for v in outputs)
        main.append(f"^bb2({out_header}):" if outputs else "^bb2:")
        names.update(outer)
        return True

    def execute(
        self,
        start: int,
        end: int,
        inputs: list[int],
        outputs: list[int],
        names: dict[int, str],
        main: list[str],
    ) -> bool:
        """The segment in a `stream.async.execute` on one device: only ops that take no
        affinity of their own, with no global access, on values of that device."""
        segment = self.statements[start:end]
        if not inputs or not outputs:
            return False
        device = self.infos[inputs[0]].device
        for statement in segment:
            kind = statement.kind
            if kind.name in ("load", "global-write", "store", "splat") or kind.name in HOST_KINDS:
                return False
            if kind.name == "transfer" and kind.device != "same":
                return False
        if any(self.infos[v].device != device for v in inputs):
            return False
        inner = self.rename(inputs, "x")
        lines: list[str] = []
        body_names = dict(inner)
        for index in range(start, end):
            self.statement(index, body_names, lines, isolated=True)
        captures = ", ".join(f"{names[v]} as {inner[v]}: {self.type_of(v)}" for v in inputs)
        result_types = [self.type_of(v) for v in outputs]
        result_list = result_types[0] if len(outputs) == 1 else f"({', '.join(result_types)})"
        lhs, results = self.result_names(len(outputs), "ex")
        timepoint = self.fresh("tp")
        main.append(
            f"{lhs}, {timepoint} = stream.async.execute on({affinity(device)}) with({captures}) -> {result_list} {{"
        )
        main.extend("  " + line for line in lines)
        main.append(
            f"  stream.yield {', '.join(body_names[v] for v in outputs)} : {', '.join(result_types)}"
        )
        main.append("} => !stream.timepoint")
        awaited_lhs, awaited = self.result_names(len(outputs), "aw")
        main.append(
            f"{awaited_lhs} = stream.timepoint.await {timepoint} => {', '.join(results)} : {', '.join(result_types)}"
        )
        names.update(zip(outputs, awaited))
        return True


@dataclass
class Enumerated:
    """A program of the set, with its stable index and what it is."""

    index: int
    shape: Shape
    program: Program = field(repr=False)


def programs(max_statements: int = MAX_STATEMENTS) -> Iterator[Enumerated]:
    """The whole set, in a fixed order; indices count only the programs written."""
    index = 0
    for shape in shapes(max_statements):
        program = Writer(shape).write()
        if program is None:
            continue
        yield Enumerated(index, shape, program)
        index += 1


CI_STRIDE = 137
"""CI runs every CI_STRIDE-th program (a fixed slice across every wrapper and length)."""


def ci_slice(stride: int = CI_STRIDE) -> Iterator[Enumerated]:
    for item in programs():
        if item.index % stride == 0:
            yield item


def _copy(module: Any) -> Any:
    from streamopt.ir.module import Module

    return Module(
        module.op.clone(),
        module.source,
        module.aliases,
        module.alias_values,
        module.metadata,
        module.trailing_aliases,
    )


def check(item: Enumerated) -> Failure | None:
    """None if every form of `streamopt-run --compare` computes the bytes of the program as
    given (and reads no moved buffer, and every pass's output verifies); else the first
    failure. `check_program` does the same from text for every form; this parses once and
    makes each form from a copy of the form its passes extend (the lowerings start from the
    elided form), which is what the pipelines of one command line do too."""
    from streamopt.diagnostics import DiagnosticError, render
    from streamopt.ir.verify import verify_module
    from streamopt.parser import parse_module
    from streamopt.passes import PassManager
    from streamopt.runtime.interpreter import run_module
    from streamopt.runtime.interpreter.report import first_difference

    program = item.program
    try:
        given = parse_module(program.text, "program.mlir")
        verify_module(given)
        reference = run_module(_copy(given), "main", program.inputs)
    except DiagnosticError as exc:
        details = "\n".join(render(d) for d in exc.diagnostics)
        return Failure("as given", "the program does not run", details)
    made: dict[tuple[str, ...], Any] = {(): given}
    for name, flags in forms():
        if not flags:
            continue
        base = max((k for k in made if tuple(flags[: len(k)]) == k), key=len)
        module = _copy(made[base])
        try:
            PassManager.from_flags(flags[len(base) :]).run(module)
            made[tuple(flags)] = module
            result = run_module(_copy(module), "main", program.inputs)
        except DiagnosticError as exc:
            details = "\n".join(render(d) for d in exc.diagnostics)
            kind = "use after move" if "use after move" in details else "error"
            return Failure(name, kind, details)
        difference = first_difference(reference, result)
        if difference is not None:
            return Failure(name, "different bytes", difference)
    return None


def report(item: Enumerated, failure: Failure) -> str:
    return (
        f"program {item.index} ({item.shape.describe()}):\n{failure}\n"
        f"--- inputs: {' '.join(item.program.inputs)} ---\n{item.program.text}"
    )


# -- command line ----------------------------------------------------------------------------


def _check_shapes(batch: list[tuple[int, Shape]]) -> list[tuple[int, str, str]]:
    failed = []
    for index, shape in batch:
        program = Writer(shape).write()
        assert program is not None
        item = Enumerated(index, shape, program)
        failure = check(item)
        if failure is not None:
            failed.append((index, f"{failure.form}: {failure.kind}", report(item, failure)))
    return failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", action="store_true", help="count the programs by wrapper")
    parser.add_argument("--print", type=int, metavar="INDEX", help="print program INDEX")
    parser.add_argument("--stride", type=int, default=1, help="run every N-th program")
    parser.add_argument(
        "--kind", action="append", default=[], help="only programs with a statement of KIND"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--last", type=int, default=1 << 62)
    parser.add_argument("--show", type=int, default=3, help="failing programs to print")
    parser.add_argument("--progress", action="store_true", help="report progress on stderr")
    args = parser.parse_args()
    if args.print is not None:
        for item in programs():
            if item.index == args.print:
                print(f"// {item.shape.describe()}\n// inputs: {' '.join(item.program.inputs)}")
                print(item.program.text)
                return
        raise SystemExit(f"no program {args.print}")
    if args.count:
        by_wrapper: Counter[str] = Counter()
        by_length: Counter[int] = Counter()
        total = 0
        for item in programs():
            by_wrapper[item.shape.wrapper.kind] += 1
            by_length[len(item.shape.statements)] += 1
            total += 1
        for name, count in sorted(by_wrapper.items()):
            print(f"{count:8d}  {name}")
        for length, count in sorted(by_length.items()):
            print(f"{count:8d}  {length} statements")
        print(f"{total:8d}  programs")
        return
    start = time.perf_counter()
    selected = [
        (item.index, item.shape)
        for item in programs()
        if args.first <= item.index < args.last and item.index % args.stride == 0
        if not args.kind or any(s.kind.name in args.kind for s in item.shape.statements)
    ]
    batches = [selected[k : k + 200] for k in range(0, len(selected), 200)]
    failed: list[tuple[int, str, str]] = []
    done = 0
    with multiprocessing.Pool(args.jobs) as pool:
        for part in pool.imap_unordered(_check_shapes, batches):
            failed.extend(part)
            done += 1
            if args.progress and done % 25 == 0:
                print(
                    f"... {done * 200} programs, {len(failed)} failed", file=sys.stderr, flush=True
                )
    checked = len(selected)
    failed.sort()
    kinds = Counter(kind for _, kind, _ in failed)
    for index, kind, _ in failed:
        print(f"program {index}: {kind}")
    for _, _, text in failed[: args.show]:
        print(text)
    for kind, count in kinds.most_common():
        print(f"{count:6d}  {kind}")
    print(f"{len(failed)} of {checked} programs failed in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
