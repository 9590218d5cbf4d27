"""Every small program that names one buffer from outside twice computes the same bytes in
every form `streamopt-run --compare` runs (after `--elide-async-copies`, and lowered).

A function's view argument may reach a `stream.tensor.import` under many names: itself, an
`arith.select` or `scf.if` of it, a global it was stored to, a call that returns it, its
buffer, a subspan of that, a view made of that. The enumeration imports the view under each
name twice: once to fill it in place (here, or in a callee it is passed to) and once to
clone it, the clone being read after the fill. Removing that clone would show the fill in its
bytes, so the pass must keep it under every pair of names; a twin with no fill checks that the
pass still removes the clone under every pair (docs/storage-model.md, "Buffers from outside").
"""

# IR lines cannot wrap.
# ruff: noqa: E501

from __future__ import annotations

import itertools

from streamopt.parser import parse_module
from streamopt.passes import PassManager
from streamopt.printer import print_module
from streamopt.runtime.interpreter.report import first_difference

from .program_generator import forms, run_form

RESOURCE = "!stream.resource<external>{%c16}"
VIEW = "!hal.buffer_view"
BUFFER = "!hal.buffer"

# How a name of the argument `%a` is made: (lines, with {v} the name, and the name's type).
NAMES: dict[str, tuple[list[str], str]] = {
    "argument": ([], VIEW),
    "select": (["{v} = arith.select %c, %a, %a : !hal.buffer_view"], VIEW),
    "scf.if": (
        [
            "{v} = scf.if %c -> (!hal.buffer_view) {{",
            "  scf.yield %a : !hal.buffer_view",
            "}} else {{",
            "  scf.yield %a : !hal.buffer_view",
            "}}",
        ],
        VIEW,
    ),
    "global": (
        [
            "util.global.store %a, @view : !hal.buffer_view",
            "{v} = util.global.load @view : !hal.buffer_view",
        ],
        VIEW,
    ),
    "call": (["{v} = util.call @same_view(%a) : (!hal.buffer_view) -> !hal.buffer_view"], VIEW),
    "buffer": (["{v} = hal.buffer_view.buffer<%a : !hal.buffer_view> : !hal.buffer"], BUFFER),
    "subspan": (
        [
            "{v}_whole = hal.buffer_view.buffer<%a : !hal.buffer_view> : !hal.buffer",
            "{v} = hal.buffer.subspan<{v}_whole : !hal.buffer>[%c0, %c16] : !hal.buffer",
        ],
        BUFFER,
    ),
    "view of the buffer": (
        [
            "{v}_whole = hal.buffer_view.buffer<%a : !hal.buffer_view> : !hal.buffer",
            "{v}_type = hal.element_type<i32> : i32",
            "{v}_encoding = hal.encoding_type<dense_row_major> : i32",
            "{v} = hal.buffer_view.create buffer({v}_whole : !hal.buffer)[%c0, %c16] shape([%c4]) type({v}_type) encoding({v}_encoding) : !hal.buffer_view",
        ],
        VIEW,
    ),
}

# Where the fill happens: in @main on its own import, in a callee given the name, or nowhere.
WRITERS = ("here", "callee", "none")

HEADER = """util.global private mutable @view : !hal.buffer_view
util.func private @same_view(%v: !hal.buffer_view) -> !hal.buffer_view {
  util.return %v : !hal.buffer_view
}
"""


def callee(type: str) -> str:
    """A function that imports its argument (of `type`) and fills it in place."""
    return f"""util.func private @fill(%v: {type}, %value: i32) -> !stream.resource<external> {{
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %0 = stream.tensor.import %v : {type} -> tensor<4xi32> in {RESOURCE}
  %1 = stream.async.fill %value, %0[%c0 to %c16 for %c16] : i32 -> %0 as {RESOURCE}
  util.return %1 : !stream.resource<external>
}}
"""


def program(writer_name: str, reader_name: str, writer: str) -> str:
    """@main: import the view as `reader_name` and clone it, fill it through `writer_name`
    (`writer` says where), and return the clone and what the fill gave."""
    body = [
        "%c0 = arith.constant 0 : index",
        "%c4 = arith.constant 4 : index",
        "%c16 = arith.constant 16 : index",
    ]
    values = {}
    for role, name in (("r", reader_name), ("w", writer_name)):
        lines, type = NAMES[name]
        value = "%a" if name == "argument" else f"%{role}"
        body += [line.format(v=value) for line in lines]
        values[role] = (value, type)
    reader, reader_type = values["r"]
    body += [
        f"%read = stream.tensor.import {reader} : {reader_type} -> tensor<4xi32> in {RESOURCE}",
        f"%clone = stream.async.clone %read : {RESOURCE} -> {RESOURCE}",
    ]
    writer_value, writer_type = values["w"]
    functions = HEADER
    if writer == "here":
        body += [
            f"%written = stream.tensor.import {writer_value} : {writer_type} -> tensor<4xi32> in {RESOURCE}",
            f"%filled = stream.async.fill %value, %written[%c0 to %c16 for %c16] : i32 -> %written as {RESOURCE}",
        ]
    elif writer == "callee":
        functions += callee(writer_type)
        body.append(
            f"%filled = util.call @fill({writer_value}, %value) : ({writer_type}, i32) -> !stream.resource<external>"
        )
    else:
        body.append("%filled = stream.async.splat %value : i32 -> " + RESOURCE)
    body.append(
        "util.return %clone, %filled : !stream.resource<external>, !stream.resource<external>"
    )
    indented = "\n".join("  " + line for line in body)
    return (
        functions
        + "util.func public @main(%a: !hal.buffer_view, %c: i1, %value: i32) -> (!stream.resource<external>, !stream.resource<external>) {\n"
        + indented
        + "\n}\n"
    )


INPUTS = ["4xi32=1,2,3,4", "i1=1", "i32=7"]


def test_no_clone_of_a_buffer_from_outside_is_removed_while_another_name_fills_it() -> None:
    failed = []
    removed_unwritten = 0
    compared = [(form, flags) for form, flags in forms() if flags]
    for writer_name, reader_name, writer in itertools.product(NAMES, NAMES, WRITERS):
        text = program(writer_name, reader_name, writer)
        reference = run_form(text, INPUTS, [])
        for form, flags in compared:
            difference = first_difference(reference, run_form(text, INPUTS, flags))
            if difference is not None:
                failed.append(
                    f"{writer_name} / {reader_name} / fill {writer} / {form}: {difference}"
                )
        if writer == "none":
            removed_unwritten += _clone_removed(text)
    assert not failed, (
        f"{len(failed)} runs (a program in a form) of {len(NAMES) ** 2 * len(WRITERS)} programs differ:\n"
        + "\n".join(failed)
    )
    # With nothing filling the view the clone is not needed; the pass must still see that
    # (under every pair of names, as nothing writes any storage).
    assert removed_unwritten == len(NAMES) ** 2


def _clone_removed(text: str) -> int:
    """1 if `--elide-async-copies` removes @main's clone, else 0."""
    module = parse_module(text, "program.mlir")
    PassManager.from_flags(["elide-async-copies"]).run(module)
    return 0 if "stream.async.clone" in print_module(module) else 1
