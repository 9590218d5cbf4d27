"""How strict streamopt's verifier is next to iree-opt's, on damaged real dumps.

    python test/mutants_vs_iree_opt.py [COUNT] [--seed N] [--show] [--streamopt-source DIR]

Makes COUNT mutants (1,000 by default; mutants N to N + COUNT - 1) of the real dumps with the edits
of the mutation fuzz test (test/unit/test_fuzz_mutations.py), runs streamopt on each with no pass,
and runs iree-opt on every mutant streamopt accepts. It prints how many of those iree-opt rejects,
split by where the damage is: in host code (what streamopt verifies) or only inside executables
(kernel code, which streamopt keeps verbatim and never checks). `--show` lists the host-code ones
with iree-opt's message. `--streamopt-source DIR` runs the streamopt of another source tree (for
example an older commit, `git archive COMMIT | tar -x -C DIR`) in a child process on the same
mutants, for a before/after count. Needs iree-opt on PATH.
"""

from __future__ import annotations

import argparse
import bisect
import difflib
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "unit"))

import test_fuzz_mutations as fuzz

from streamopt.parser import verbatim_bodies

_ERROR = re.compile(r"^[^\n]*?:(\d+):(\d+): error: (.*)$", re.MULTILINE)


def _inside(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """True if the seed range [start, end) is inside one of the sorted, disjoint `spans`; an
    insertion (start == end) is inside when it lands anywhere from a span's start to its end."""
    index = bisect.bisect_right([span_start for span_start, _ in spans], start) - 1
    if index < 0:
        return False
    span_start, span_end = spans[index]
    if start == end:
        return span_start <= start <= span_end
    return span_start <= start and end <= span_end


def damaged_ranges(seed: str, mutant: str) -> list[tuple[int, int]]:
    """The ranges of `seed` the mutant changed or deleted, and (as empty ranges) the places
    where it inserted text: a line diff, then a character diff of each changed run."""
    seed_lines = seed.split("\n")
    mutant_lines = mutant.split("\n")
    seed_starts = [0]
    for line in seed_lines:
        seed_starts.append(seed_starts[-1] + len(line) + 1)
    matcher = difflib.SequenceMatcher(None, seed_lines, mutant_lines, autojunk=False)
    ranges: list[tuple[int, int]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        base = seed_starts[i1]
        if tag == "insert":
            # Whole lines inserted before seed line i1: at the end of the line before.
            ranges.append((max(base - 1, 0), max(base - 1, 0)))
            continue
        old = "\n".join(seed_lines[i1:i2])
        new = "\n".join(mutant_lines[j1:j2])
        chars = difflib.SequenceMatcher(None, old, new, autojunk=False)
        for char_tag, c1, c2, _, _ in chars.get_opcodes():
            if char_tag != "equal":
                ranges.append((base + c1, base + c2))
    return ranges


def error_offset(text: str, line: int, column: int) -> int:
    """The offset in `text` of a 1-based line and column."""
    lines = text.split("\n")
    return sum(len(piece) + 1 for piece in lines[: line - 1]) + column - 1


def damage_is_in_kernel_code(
    seed: str, mutant: str, error_line: int | None, error_column: int | None
) -> bool:
    """True if iree-opt's rejection is about kernel code (executable bodies, which streamopt
    keeps verbatim). That is so when every edit is inside a body. When only some are (a
    mutant may also carry a host edit that is valid, such as a deep nest), the mutant's
    bodies are put back as the seed has them and iree-opt asked again: if it takes that, the
    host edits are valid. (iree-opt may report damage to kernel code at a host op, an undefined
    value in a kernel found where the host defines that name, so its error line alone does not
    say.) If the bodies cannot be paired up (an executable lost its header), the error's place
    decides."""
    seed_bodies = verbatim_bodies(seed)
    inside = [_inside(seed_bodies, start, end) for start, end in damaged_ranges(seed, mutant)]
    if all(inside):
        return True
    if not any(inside):
        return False
    mutant_bodies = verbatim_bodies(mutant)
    if len(mutant_bodies) == len(seed_bodies):
        pieces: list[str] = []
        cursor = 0
        for (start, end), (seed_start, seed_end) in zip(mutant_bodies, seed_bodies):
            pieces += [mutant[cursor:start], seed[seed_start:seed_end]]
            cursor = end
        pieces.append(mutant[cursor:])
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", encoding="utf-8") as host_only:
            host_only.write("".join(pieces))
            host_only.flush()
            command = ["iree-opt", host_only.name]
            result = subprocess.run(command, capture_output=True, check=False, timeout=120)
        return result.returncode == 0
    if error_line is None or error_column is None:
        return False
    position = error_offset(mutant, error_line, error_column)
    return _inside(mutant_bodies, position, position + 1)


def _run_other(source: Path, path: Path) -> int:
    """The exit status of the streamopt in `source` on `path` (a child process)."""
    program = (
        f"import sys; sys.path.insert(0, {str(source.resolve())!r}); "
        "from streamopt.opt_command import main; main()"
    )
    command = [sys.executable, "-c", program, str(path)]
    try:
        result = subprocess.run(command, capture_output=True, check=False, timeout=120)
    except subprocess.TimeoutExpired:
        return -1
    return result.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", type=int, nargs="?", default=1000)
    parser.add_argument("--seed", type=int, default=0, help="the first mutant's number")
    parser.add_argument(
        "--streamopt-source", type=Path, help="run the streamopt package found in this folder"
    )
    parser.add_argument("--show", action="store_true", help="list the host-code mutants")
    args = parser.parse_args()

    accepted = 0
    where: Counter[str] = Counter()
    host: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "mutant.mlir"
        for mutant in map(fuzz.make_mutant, range(args.seed, args.seed + args.count)):
            path.write_bytes(mutant.data)
            if args.streamopt_source is None:
                code, _, _ = fuzz.run_cli([str(path)])
            else:
                code = _run_other(args.streamopt_source, path)
            if code != 0:
                continue
            accepted += 1
            result = subprocess.run(
                ["iree-opt", str(path)], capture_output=True, check=False, timeout=120
            )
            if result.returncode == 0:
                where["accepted by iree-opt"] += 1
                continue
            stderr = result.stderr.decode("utf-8", "replace")
            error = _ERROR.search(stderr)
            seed = mutant.seed.read_text()
            line = int(error.group(1)) if error else None
            column = int(error.group(2)) if error else None
            if damage_is_in_kernel_code(seed, mutant.data.decode("utf-8", "replace"), line, column):
                where["rejected by iree-opt in an executable"] += 1
                continue
            where["rejected by iree-opt in host code"] += 1
            message = error.group(3) if error else stderr.strip().split("\n")[0]
            host.append(
                f"  mutant {mutant.number} of {mutant.seed.relative_to(fuzz.ROOT)} "
                f"({', '.join(mutant.edits)}), line {error.group(1) if error else '?'}: "
                f"{message[:200]}"
            )
    first, last = args.seed, args.seed + args.count - 1
    print(f"{args.count} mutants ({first} to {last}); streamopt accepts {accepted}, of which:")
    for kind in (
        "accepted by iree-opt",
        "rejected by iree-opt in an executable",
        "rejected by iree-opt in host code",
    ):
        print(f"  {where[kind]:5d} {kind}")
    if args.show and host:
        print("\n".join(host))
    return 0


if __name__ == "__main__":
    sys.exit(main())
