"""Random multi-device programs compute the same bytes in every form.

`program_generator.py` writes the programs (in IREE's async syntax, over three devices, with
every way storage changes name or escapes) and runs them. The first test is the gate of
`--elide-async-copies`: a wrong rewrite (a copy moved or removed while its storage is still
observed) shows as other bytes or a read of a moved buffer. The second runs every pipeline of
`streamopt-run --compare` on the same kind of programs (a lowering may refuse, with its
diagnostic, only the op streamopt does not model). Both run the same programs on
every run (seeds 0, 1, ...; see fuzzing.py); `STREAMOPT_FUZZ_SCALE=N` runs N times as many
fresh ones. A failure prints each failing seed and the first failing program.
"""

# IR lines cannot wrap.
# ruff: noqa: E501

from __future__ import annotations

from collections import Counter

from fuzzing import fuzz_seeds

from .interp_util import output_bytes, run_ir
from .program_generator import (
    ALL_CONSTRUCTS,
    SEED_STRIDE,
    T16,
    Failure,
    Options,
    Program,
    RandomChooser,
    T,
    affinity,
    check_program,
    executable,
    write_program,
)


def failures_of(
    count: int, options: Options, only: list[str] | None
) -> list[tuple[int, Program, Failure]]:
    """Every program among `fuzz_seeds(count)` that fails `check_program`."""
    failed = []
    for seed in fuzz_seeds(count, SEED_STRIDE):
        program = write_program(RandomChooser(seed), options)
        failure = check_program(program, only)
        if failure is not None:
            failed.append((seed, program, failure))
    return failed


def report(failed: list[tuple[int, Program, Failure]]) -> str:
    seeds = ", ".join(str(seed) for seed, _, _ in failed)
    seed, program, failure = failed[0]
    return (
        f"{len(failed)} programs failed (seeds {seeds}); the first, seed {seed} "
        f"(python test/unit/runtime/program_generator.py --first {seed} --count 1 --print):\n"
        f"{failure}\n--- inputs: {' '.join(program.inputs)} ---\n{program.text}"
    )


def test_elide_never_makes_a_wrong_rewrite() -> None:
    failed = failures_of(300, ALL_CONSTRUCTS, only=["elided"])
    assert not failed, report(failed)


def test_every_form_computes_the_same_bytes() -> None:
    failed = failures_of(60, ALL_CONSTRUCTS, only=None)
    assert not failed, report(failed)


CONSTRUCTS = {
    "splat",
    "transfer",
    "same-device transfer",
    "clone",
    "slice",
    "update",
    "dispatch",
    "in-place dispatch",
    "export",
    "global store",
    "global load",
    "scf.execute_region",
    "private function",
    "public function",
    "call",
    "call in a region",
    "call of a public function",
    "scf.if",
    "scf.for",
    "scf.while",
    "loop body reads its init",
    "cf diamond",
    "cf loop",
    "stream.async.execute",
    "escape then handover",
    "unified topology",
}


def test_the_generator_draws_every_construct() -> None:
    seen: Counter[str] = Counter()
    for seed in range(200):
        seen.update(write_program(RandomChooser(seed)).constructs)
    missing = CONSTRUCTS - {name for name, count in seen.items() if count}
    assert not missing, f"never drawn in 200 programs: {sorted(missing)}"


def test_the_generator_makes_programs_the_pass_turns_into_moves() -> None:
    # Not every random program has a transfer at a last use; this one does, and the elided
    # form must move (and alias between the CPUs) rather than copy.
    text = (
        executable()
        + f"""
util.func public @main(%flag_i32: i32, %trip: index) -> ({T}) {{
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1_i8 = arith.constant 1 : i8
  %v1 = stream.async.splat on({affinity("dev_a")}) %c1_i8 : i8 -> {T16}
  %v2 = stream.async.transfer %v1 : {T16} from({affinity("dev_a")}) -> to({affinity("dev_b")}) {T16}
  %v3 = stream.async.dispatch on({affinity("dev_b")}) @ex::@mix1(%v2[%c0 to %c16 for %c16]) : ({T16}) -> {T16}
  util.return %v3 : {T}
}}"""
    )
    given_form = run_ir(text, inputs=["1", "1"])
    elided = run_ir(text, inputs=["1", "1"], passes=["elide-async-copies"])
    assert output_bytes(given_form) == output_bytes(elided)
    assert given_form.report()["bytes_copied"]["total"] == 16
    assert elided.report()["moves_aliased"] == 1
    assert elided.report()["bytes_copied"]["total"] == 0
