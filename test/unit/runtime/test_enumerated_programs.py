"""Every small program over the storage vocabulary computes the same bytes in every form.

`program_enumerator.py` enumerates all programs up to a size (statements over splats, global
loads, stores and in-place writes, dispatches, fills, clones, transfers, slices, updates,
copies, imports of the caller's buffers (borrowed or consumed), exports and imports of what
was exported (its view, or one rebuilt from its `!hal.buffer`), placed in `@main`, in a
private or public callee, across a call in either direction, in `scf.if`/`scf.for`, after a
`cf.br`, in a `stream.async.execute`), and checks each through every form of
`streamopt-run --compare`. This is the gate of `--elide-async-copies` and the lowerings: a
wrong rewrite, a read of a moved buffer, or a verifier or lowering error on valid input fails
it, with the program printed.

CI runs a fixed slice: every `CI_STRIDE`-th program, so every wrapper and length is in it.
`STREAMOPT_ENUMERATE=all` runs the whole set instead (on every core: about 230 CPU-minutes),
or `STREAMOPT_ENUMERATE=N` every N-th program.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import Counter
from functools import cache

from .program_enumerator import (
    CI_STRIDE,
    VOCABULARY,
    WRAPPERS,
    Enumerated,
    check,
    programs,
    report,
)
from .program_generator import Failure

VARIABLE = "STREAMOPT_ENUMERATE"


def stride() -> int:
    text = os.environ.get(VARIABLE, "").strip()
    if not text:
        return CI_STRIDE
    if text == "all":
        return 1
    try:
        return max(int(text), 1)
    except ValueError:
        raise SystemExit(f"{VARIABLE} must be 'all' or a whole number, got {text!r}") from None


@cache
def _selected(step: int) -> list[Enumerated]:
    """Every `step`-th program: writing the whole set to number it takes half a minute, so
    the module's tests share it."""
    return [item for item in programs() if item.index % step == 0]


def _checked(item: Enumerated) -> tuple[Enumerated, Failure | None]:
    return item, check(item)


def test_every_enumerated_program_computes_the_same_bytes() -> None:
    step = stride()
    selected = _selected(step)
    assert selected, "the enumerator made no programs"
    if step == 1:
        with multiprocessing.Pool() as pool:
            results = pool.map(_checked, selected, chunksize=200)
    else:
        results = [_checked(item) for item in selected]
    failed = [(item, failure) for item, failure in results if failure is not None]
    if failed:
        kinds = Counter(f"{failure.form}: {failure.kind}" for _, failure in failed)
        summary = ", ".join(f"{count} {kind}" for kind, count in kinds.most_common())
        indices = " ".join(str(item.index) for item, _ in failed[:40])
        item, failure = failed[0]
        raise AssertionError(
            f"{len(failed)} of {len(selected)} programs failed ({summary}); programs "
            f"{indices}; the first (python test/unit/runtime/program_enumerator.py --print "
            f"{item.index}):\n{report(item, failure)}"
        )


def test_the_ci_slice_has_every_statement_kind_and_wrapper() -> None:
    kinds: Counter[str] = Counter()
    wrappers: Counter[str] = Counter()
    lengths: Counter[int] = Counter()
    for item in _selected(CI_STRIDE):
        wrappers[item.shape.wrapper.kind] += 1
        lengths[len(item.shape.statements)] += 1
        for statement in item.shape.statements:
            kinds[f"{statement.kind.name} {statement.kind.device or ''}".strip()] += 1
    vocabulary = {f"{kind.name} {kind.device or ''}".strip() for kind in VOCABULARY}
    assert vocabulary - set(kinds) == set()
    assert {"main", *WRAPPERS} - set(wrappers) == set()
    assert set(lengths) == {1, 2, 3}
