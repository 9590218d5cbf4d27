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
import difflib
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "unit"))

import test_fuzz_mutations as fuzz

from streamopt.parser import blank_verbatim_bodies

_ERROR = re.compile(r"^[^\n]*?:(\d+):\d+: error: (.*)$", re.MULTILINE)


def executable_lines(text: str) -> set[int]:
    """Line numbers (1-based) inside executables, where streamopt keeps the text verbatim."""
    blanked = blank_verbatim_bodies(text).split("\n")
    return {
        number
        for number, (line, seen) in enumerate(zip(text.split("\n"), blanked), 1)
        if line.strip() and not seen.strip()
    }


def damaged_lines(seed: str, mutant: str) -> set[int]:
    """The lines of `seed` (1-based) that the mutant changed or deleted, or next to which it
    inserted lines."""
    matcher = difflib.SequenceMatcher(None, seed.split("\n"), mutant.split("\n"), autojunk=False)
    lines: set[int] = set()
    for tag, start, end, _, _ in matcher.get_opcodes():
        if tag != "equal":
            lines.update(range(start + 1, max(end, start + 1) + 1))
    return lines


def _run_other(source: Path, path: Path) -> int:
    """The exit status of the streamopt in `source` on `path` (a child process)."""
    program = (
        f"import sys; sys.path.insert(0, {str(source.resolve())!r}); "
        "from streamopt.cli import main; main()"
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
            # Where the damage is: iree-opt sometimes reports damage to kernel code at a host op
            # (an undefined value in a kernel, found when the host defines that name).
            seed = mutant.seed.read_text()
            if damaged_lines(seed, mutant.data.decode("utf-8", "replace")) <= executable_lines(
                seed
            ):
                where["rejected by iree-opt in an executable"] += 1
                continue
            where["rejected by iree-opt in host code"] += 1
            message = error.group(2) if error else stderr.strip().split("\n")[0]
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
