"""IREE's own dialect tests as a conformance check of streamopt's parser, verifier and printer.

    python test/iree_conformance.py PATH/TO/iree [--jobs N] [--cache DIR] [--show KIND]

PATH/TO/iree is a checkout or a bare clone of IREE's repository (read with `git show`; this
script never copies IREE's files into streamopt). The tests are the `.mlir` files under
`compiler/src/iree/compiler/Dialect/{Stream,HAL,Util}/` (IR, Transforms and Conversion tests);
each is split at `// -----` into cases, as `--split-input-file` does. For each case:

* iree-opt prints it with no pass (adding `--allow-unregistered-dialect` when the file's RUN
  lines do, as streamopt's runs of the case do too). That text is IREE's canonical form of
  the case.
* When iree-opt accepts it, streamopt must print the canonical form back byte for byte
  (`identical`). Otherwise the case is `rejected` (streamopt reports an error), `different`
  (streamopt prints other text that iree-opt accepts) or `broken` (other text that iree-opt
  rejects: a silent change, the worst outcome). streamopt must also read the case's raw text
  without wrapping a top-level module in a second one (`rewrapped`) and without an internal
  error (`crashed`).
* When iree-opt rejects it (the file's invalid-IR cases and the few others IREE's parser or
  verifier refuses), streamopt must reject it too (`invalid accepted` otherwise).

With `--generic`, streamopt reads each case iree-opt accepts in MLIR's generic form instead
(`iree-opt --mlir-print-op-generic`), as MLIR reads it: iree-opt must print streamopt's output
as it prints the case (`identical`), and `rejected`, `different`, `broken` and `crashed` are as
above. A case iree-opt does not read back from its own generic form is `unreadable`.

The summary counts each kind; `--show KIND` lists the cases of that kind with the first line
where the outputs differ. iree-opt results are cached (in `--cache`, by the text of each case)
so that reruns only run streamopt. Exit status 0 when every case conforms.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "unit"))

from test_fuzz_mutations import run_cli

DIALECTS = ("Stream", "HAL", "Util")
ROOT = "compiler/src/iree/compiler/Dialect"
SPLIT = re.compile(r"^// -----[ \t]*$", re.MULTILINE)

KINDS = (
    "identical",
    "rejected",
    "different",
    "broken",
    "crashed",
    "rewrapped",
    "invalid rejected",
    "invalid accepted",
    "unreadable",
)
CONFORMING = ("identical", "invalid rejected")


@dataclass
class Case:
    """One `// -----` chunk of a test file."""

    path: str
    line: int
    text: str
    flags: list[str]

    @property
    def name(self) -> str:
        return f"{self.path}:{self.line}"

    def key(self) -> str:
        return hashlib.sha256(("\0".join(self.flags) + "\0" + self.text).encode()).hexdigest()


@dataclass
class Outcome:
    case: Case
    kinds: list[str] = field(default_factory=list)
    detail: str = ""


def git_files(repo: Path) -> list[str]:
    """The test files, from the repository's HEAD."""
    listing = subprocess.run(
        ["git", "-C", str(repo), "ls-tree", "-r", "--name-only", "HEAD", ROOT],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    pattern = re.compile(rf"^{ROOT}/({'|'.join(DIALECTS)})/.*/test/.*\.mlir$")
    return sorted(path for path in listing if pattern.match(path))


def read(repo: Path, path: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "show", f"HEAD:{path}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def split_cases(path: str, text: str) -> list[Case]:
    """The cases of one file, with the line each starts at and the parsing flags of its RUN
    lines."""
    flags = ["--allow-unregistered-dialect"] if "--allow-unregistered-dialect" in text else []
    cases: list[Case] = []
    start = 0
    line = 1
    for match in SPLIT.finditer(text):
        chunk = text[start : match.start()]
        cases.append(Case(path, line, chunk, flags))
        line += chunk.count("\n") + 1
        start = match.end() + 1
    cases.append(Case(path, line, text[start:], flags))
    return [case for case in cases if case.text.strip()]


def iree_opt(case: Case, cache: dict[str, tuple[int, str]]) -> tuple[int, str]:
    """iree-opt's exit status and output for the case (cached)."""
    key = case.key()
    if key not in cache:
        result = subprocess.run(
            ["iree-opt", *case.flags, "-"],
            input=case.text,
            capture_output=True,
            text=True,
            check=False,
        )
        cache[key] = (result.returncode, result.stdout)
    return cache[key]


def generic_check(case: Case, cache: dict[str, tuple[int, str]]) -> Outcome | None:
    """The outcome of streamopt reading the case in the generic form (see `--generic`); None
    for a case iree-opt rejects."""
    code, canonical = iree_opt(case, cache)
    if code != 0:
        return None
    outcome = Outcome(case)
    _, generic = iree_opt(Case(case.path, case.line, case.text, _generic(case.flags)), cache)
    back_code, back = iree_opt(Case(case.path, case.line, generic, case.flags), cache)
    if back_code != 0 or back != canonical:
        outcome.kinds.append("unreadable")
        return outcome
    got_code, got, got_err = streamopt(generic, case.flags)
    if got_code not in (0, 1):
        outcome.kinds.append("crashed")
        outcome.detail = got_err.strip().split("\n")[0]
        return outcome
    if got_code == 1:
        outcome.kinds.append("rejected")
        outcome.detail = got_err.strip().split("\n")[0]
        return outcome
    again_code, again = iree_opt(Case(case.path, case.line, got, case.flags), cache)
    if again_code != 0:
        outcome.kinds.append("broken")
        outcome.detail = first_difference(canonical, got)
    elif again != canonical:
        outcome.kinds.append("different")
        outcome.detail = first_difference(canonical, again)
    else:
        outcome.kinds.append("identical")
    return outcome


def _generic(flags: list[str]) -> list[str]:
    return [*flags, "--mlir-print-op-generic"]


def iree_accepts(text: str, flags: list[str]) -> bool:
    result = subprocess.run(
        ["iree-opt", *flags, "-"], input=text, capture_output=True, text=True, check=False
    )
    return result.returncode == 0


def streamopt(text: str, flags: list[str]) -> tuple[int, str, str]:
    """streamopt with no pass on `text` with the case's parsing `flags`, in this process:
    (exit status, stdout, stderr)."""
    code, out, err = run_cli([*flags, "-"], text.encode("utf-8", "surrogateescape"))
    return code, out.decode("utf-8", "surrogateescape"), err.decode("utf-8", "replace")


def first_difference(expected: str, got: str) -> str:
    for number, (a, b) in enumerate(zip(expected.split("\n"), got.split("\n")), 1):
        if a != b:
            return f"line {number}: iree-opt {a.strip()!r} / streamopt {b.strip()!r}"
    return "one output is longer"


def nested_module_depth(text: str) -> int:
    """How many `module {` lines open before the first line that is not one."""
    depth = 0
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if re.match(r'^(?:module|builtin\.module|"builtin\.module"\(\))', stripped):
            depth += 1
            continue
        break
    return depth


def check(case: Case, cache: dict[str, tuple[int, str]]) -> Outcome:
    outcome = Outcome(case)
    code, canonical = iree_opt(case, cache)
    raw_code, raw_out, raw_err = streamopt(case.text, case.flags)
    if raw_code not in (0, 1):
        outcome.kinds.append("crashed")
        outcome.detail = raw_err.strip().split("\n")[0]
        return outcome
    if code != 0:
        if raw_code == 0:
            outcome.kinds.append("invalid accepted")
        else:
            outcome.kinds.append("invalid rejected")
        return outcome
    if raw_code == 0 and nested_module_depth(raw_out) > nested_module_depth(canonical):
        outcome.kinds.append("rewrapped")
        outcome.detail = "a top-level module is printed inside another"
    got_code, got, got_err = streamopt(canonical, case.flags)
    if got_code not in (0, 1):
        outcome.kinds.append("crashed")
        outcome.detail = got_err.strip().split("\n")[0]
    elif got_code == 1:
        outcome.kinds.append("rejected")
        outcome.detail = got_err.strip().split("\n")[0]
    elif got == canonical:
        outcome.kinds.append("identical")
    elif iree_accepts(got, case.flags):
        outcome.kinds.append("different")
        outcome.detail = first_difference(canonical, got)
    else:
        outcome.kinds.append("broken")
        outcome.detail = first_difference(canonical, got)
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path, help="IREE's repository (a checkout or bare clone)")
    parser.add_argument("--jobs", type=int, default=2, help="iree-opt processes at once")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(tempfile.gettempdir()) / "streamopt-iree-conformance",
        help="where iree-opt's outputs are kept between runs",
    )
    parser.add_argument("--show", action="append", default=[], choices=KINDS, metavar="KIND")
    parser.add_argument(
        "--generic", action="store_true", help="read the cases in MLIR's generic form"
    )
    args = parser.parse_args()

    cases = [
        case for path in git_files(args.repo) for case in split_cases(path, read(args.repo, path))
    ]
    args.cache.mkdir(parents=True, exist_ok=True)
    cache_file = args.cache / "iree-opt.json"
    cache: dict[str, tuple[int, str]] = (
        {k: tuple(v) for k, v in json.loads(cache_file.read_text()).items()}  # type: ignore[misc]
        if cache_file.exists()
        else {}
    )
    missing = [case for case in cases if case.key() not in cache]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(lambda case: iree_opt(case, cache), missing))
        if args.generic:
            # iree-opt's generic form of each case it accepts, and that form read back.
            accepted = [case for case in cases if cache[case.key()][0] == 0]
            generic = [Case(c.path, c.line, c.text, _generic(c.flags)) for c in accepted]
            list(pool.map(lambda case: iree_opt(case, cache), generic))
            back = [
                Case(c.path, c.line, cache[g.key()][1], c.flags) for c, g in zip(accepted, generic)
            ]
            list(pool.map(lambda case: iree_opt(case, cache), back))
    cache_file.write_text(json.dumps(cache))

    if args.generic:
        outcomes = [o for o in (generic_check(case, cache) for case in cases) if o is not None]
        cache_file.write_text(json.dumps(cache))
    else:
        outcomes = [check(case, cache) for case in cases]
    counts: Counter[str] = Counter(kind for outcome in outcomes for kind in outcome.kinds)
    valid = sum(1 for o in outcomes if not set(o.kinds) & {"invalid rejected", "invalid accepted"})
    invalid = len(outcomes) - valid
    print(f"{len(cases)} cases in {len({c.path for c in cases})} files of {args.repo}")
    print(f"{valid} cases iree-opt prints with no pass:")
    if args.generic:
        print("  in the generic form:")
    for kind in ("identical", "rejected", "different", "broken", "rewrapped", "crashed"):
        print(f"  {counts[kind]:5d} {kind}")
    if args.generic:
        print(f"  {counts['unreadable']:5d} unreadable (iree-opt does not read its generic form)")
    if not args.generic:
        print(f"{invalid} cases iree-opt rejects with no pass:")
        for kind in ("invalid rejected", "invalid accepted"):
            print(f"  {counts[kind]:5d} {kind.split()[1]} by streamopt")
    for kind in args.show:
        print(f"\n{kind}:")
        for outcome in outcomes:
            if kind in outcome.kinds:
                print(f"  {outcome.case.name}: {outcome.detail}")
    conforming = {*CONFORMING, "unreadable"} if args.generic else set(CONFORMING)
    bad = [o for o in outcomes if not set(o.kinds) <= conforming]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
