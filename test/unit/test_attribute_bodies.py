"""The insides of attribute bodies, read as MLIR reads them.

MLIR scans a dialect attribute's or type's `<...>` body for nesting (`(`, `[`, `{`, `<`, with
strings and `->` stepped over) before any dialect reads it, and refuses one whose brackets do
not nest. streamopt's lexer checks only the `<...>`, so the parser checks the rest
(streamopt.parser.token_values, `pretty_body_problem`). Every body of up to three pieces from
a vocabulary of brackets, a string and `->` (1,111 bodies, each as an attribute and as a
type) is refused by streamopt exactly when iree-opt refuses it, and where iree-opt says the
brackets do not nest, streamopt says so at the same line and column.

An executable target's configuration is a dictionary. Every configuration of up to four
pieces from a vocabulary of keys, values, types, commas and brackets (7,381) is read as
iree-opt reads it: the same ones refused, each with iree-opt's first error, at its line and
column. So is every `dense<[...]>` list of up to four pieces from a vocabulary of a scalar,
commas and brackets (4,681: nesting, complex pairs, ranks, what follows the list), and every
int assumption body of up to four pieces of fields, signs, numbers and commas (7,381), as
`#util.int.assumption<...>` and as a row of util.assume.int, and every dense array body
(`array<...>`) of up to four pieces of element types, separators and elements (11,111).
"""

from __future__ import annotations

import itertools
import shutil

import pytest
from differential import first_errors_of_both

from streamopt.parser.token_values import pretty_body_problem

PIECES = ["(", ")", "[", "]", "{", "}", "<", ">", '"s"', "->"]
BODIES = ["".join(p) for n in range(4) for p in itertools.product(PIECES, repeat=n)]
UNBALANCED = "character in pretty dialect name"
UNREGISTERED = ("--allow-unregistered-dialect",)


def _cases() -> list[str]:
    cases = []
    for body in BODIES:
        cases.append(f"util.func public @f() attributes {{m = #foo.bar<{body}>}} {{\n")
        cases.append(f"util.func public @f(%arg0: !foo.bar<{body}>) {{\n")
    return [case + "  util.return\n}\n" for case in cases]


CONFIG_PIECES = ["a", " = ", "1", " : i64", ", ", "[", "]", "{", "}"]
CONFIGS = ["".join(p) for n in range(5) for p in itertools.product(CONFIG_PIECES, repeat=n)]


DENSE_PIECES = ["1", ", ", "[", "]", "(", ")", "{", "}"]
DENSE_LISTS = ["".join(p) for n in range(5) for p in itertools.product(DENSE_PIECES, repeat=n)]


def test_the_vocabulary_makes_both_kinds_of_body() -> None:
    assert len(BODIES) == 1 + 10 + 100 + 1000
    checked = [pretty_body_problem(f"#foo.bar<{body}>") for body in BODIES]
    assert checked[0] is None and pretty_body_problem('#foo.bar<"(" -> [{}]>') is None
    assert any(problem is not None for problem in checked)


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_small_body_is_refused_as_iree_opt_refuses_it() -> None:
    cases = _cases()
    iree, ours = first_errors_of_both(cases, UNREGISTERED)
    # Both tools read and refuse many: the enumeration covers both outcomes.
    assert 0 < len(iree) < len(cases)
    assert sorted(ours) == sorted(iree)
    unbalanced = {chunk: error for chunk, error in iree.items() if UNBALANCED in error[2]}
    assert len(unbalanced) > 500
    for chunk, (line, column, message) in unbalanced.items():
        assert ours[chunk][:2] == (line, column), cases[chunk]
        assert UNBALANCED in ours[chunk][2], cases[chunk]
        if "->" not in cases[chunk]:
            # With `->` in the body, the lexer can end the token where MLIR's scan goes on
            # past it: the error is at the same place, but it may name another bracket.
            assert ours[chunk][2] == message, cases[chunk]


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_small_target_config_is_read_as_iree_opt_reads_it() -> None:
    assert len(CONFIGS) == 1 + 9 + 81 + 729 + 6561
    # The vocabulary meets each way a dictionary can be wrong that the parser words itself.
    _read_alike(
        '#hal.executable.target<"a", "b", {{{}}}>',
        CONFIGS,
        {
            "expected '}' in attribute dictionary",
            "duplicate key 'a' in dictionary attribute",
            "expected attribute value",
            "expected attribute name",
            "expected '>'",
        },
    )


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_small_dense_list_is_read_as_iree_opt_reads_it() -> None:
    assert len(DENSE_LISTS) == 1 + 8 + 64 + 512 + 4096
    _read_alike(
        "dense<[{}]> : tensor<1xi32>",
        DENSE_LISTS,
        {
            "expected element literal of primitive type",
            "expected ']'",
            "expected '>'",
            "expected ',' between complex elements",
            "expected ')' after complex elements",
            "tensor literal is invalid; ranks are not consistent between elements",
        },
    )


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_small_dense_splat_is_read_as_iree_opt_reads_it() -> None:
    """The same pieces with no list around them: a splat is one scalar or complex pair."""
    _read_alike(
        "dense<{}> : tensor<1xi32>",
        DENSE_LISTS[1:],
        {
            "expected element literal of primitive type",
            "expected ']'",
            "expected '>'",
            "expected ',' between complex elements",
            "expected ')' after complex elements",
        },
    )


# The pieces of an int assumption's body: a field with its `=` (given twice in four pieces), a
# field's bare name, `=`, a sign, numbers in both bases and past 64 bits, `true` (a value, or
# a name no field has) and a comma.
ASSUMPTION_PIECES = ["umin = ", "udiv", "=", "-", "7", "0x1", "99999999999999999999", "true", ", "]
ASSUMPTIONS = ["".join(p) for n in range(5) for p in itertools.product(ASSUMPTION_PIECES, repeat=n)]
ASSUMPTION_MESSAGES = {
    "expected '='",
    "expected '>'",
    "expected integer value",
    "expected valid keyword",
    "duplicate or unknown struct parameter name: umin",
    "duplicate or unknown struct parameter name: true",
    "integer value too large",
}


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_small_int_assumption_is_read_as_iree_opt_reads_it() -> None:
    assert len(ASSUMPTIONS) == 1 + 9 + 81 + 729 + 6561
    _read_alike("#util.int.assumption<{}>", ASSUMPTIONS, ASSUMPTION_MESSAGES)


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_small_assume_int_row_is_read_as_iree_opt_reads_it() -> None:
    """The same bodies as a row of util.assume.int, whose custom parser reads them as the
    attribute's (its own errors worded `custom op 'util.assume.int' ...`)."""
    cases = [
        f"util.func private @f(%a: index) -> index {{\n  %0 = util.assume.int %a<{body}> : index\n"
        "  util.return %0 : index\n}\n"
        for body in ASSUMPTIONS
    ]
    iree, ours = first_errors_of_both(cases)
    assert 0 < len(iree) < len(cases)
    prefix = "custom op 'util.assume.int' "
    messages = {message.removeprefix(prefix) for _, _, message in iree.values()}
    assert messages >= ASSUMPTION_MESSAGES
    assert ours == iree


# The pieces of a dense array's body: a signed, an i1 and a float element type, the colon and
# commas, a sign, and elements each some of them take (200: past si8, a decimal for f16;
# 0x100: past 8 bits, a bit pattern for f16; `true`: only for i1; 1.5: only for f16).
ARRAY_PIECES = ["si8", "i1", "f16", ": ", ", ", "-", "200", "0x100", "true", "1.5"]
ARRAYS = ["".join(p) for n in range(5) for p in itertools.product(ARRAY_PIECES, repeat=n)]


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (iree-base-compiler)")
def test_every_small_dense_array_is_read_as_iree_opt_reads_it() -> None:
    assert len(ARRAYS) == 1 + 10 + 100 + 1000 + 10000
    _read_alike(
        "array<{}>",
        ARRAYS,
        {
            "expected non-function type",
            "expected ':' after dense array type",
            "expected integer literal",
            "integer constant out of range",
            "expected 'true' or 'false' values for i1 type",
            "expected i1 type for 'true' or 'false' values",
            "expected floating point literal",
            "unexpected decimal integer literal for a floating point value",
            "hexadecimal float literal should not have a leading minus",
            "expected '>' to close an array attribute",
        },
    )


def _read_alike(attribute: str, insides: list[str], messages: set[str]) -> None:
    """Each of `insides` put into `attribute` (a format string) of a function is refused by
    streamopt exactly when iree-opt refuses it, with iree-opt's first error; the cases meet
    every one of `messages`."""
    cases = [f"util.func private @f() attributes {{m = {attribute.format(i)}}}\n" for i in insides]
    iree, ours = first_errors_of_both(cases, UNREGISTERED)
    assert 0 < len(iree) < len(cases)
    assert messages <= {message for _, _, message in iree.values()}
    assert ours == iree
