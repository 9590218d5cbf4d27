"""Run IREE's own lit tests of ElideAsyncCopies with streamopt, one case at a time.

    python bench/iree_elide_tests.py IREE_TEST_DIR_OR_FILES... [--tool iree-opt] [-v] [-k NAME]
                                     [--filecheck PATH]

IREE_TEST_DIR is `compiler/src/iree/compiler/Dialect/Stream/Transforms/test` of a checkout of
IREE (its `elide_async_copies*.mlir` files are run), or name the files themselves. Nothing of
IREE's is kept in this repository: the files are read where they are.

Each `// -----` chunk of a file is one case. It is run alone through
`streamopt --elide-async-copies` (plus `--cse` when the file's RUN line has it), every
`stream.async.move` of the output is read as the `stream.async.transfer` it replaces (IREE has
no moves), and the output is checked against the chunk's own CHECK lines with FileCheck from
the `filecheck` package (`--filecheck PATH` takes another, such as LLVM's FileCheck). `--tool
iree-opt` runs `iree-opt --iree-stream-elide-async-copies` instead, to check the harness. The
script prints one line per failing case and the count (`passed/total`); the README argues each
case streamopt does not pass.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

PATTERN = "elide_async_copies*.mlir"
SEPARATOR = re.compile(r"^// -----\s*$", re.MULTILINE)
LABEL = re.compile(r"CHECK-LABEL:\s*(?:util\.func\s+(?:public\s+|private\s+)?)?@([\w$.]+)")
FUNC = re.compile(r"util\.func\s+(?:public\s+|private\s+)?@([\w$.]+)")


@dataclass
class Case:
    file: Path
    index: int
    text: str
    cse: bool

    @property
    def name(self) -> str:
        found = LABEL.findall(self.text) or FUNC.findall(self.text)
        # The last label names the case's entry point (callees are checked first).
        return found[-1] if found else f"chunk {self.index}"


def cases_of(path: Path) -> list[Case]:
    text = path.read_text()
    run = next((line for line in text.splitlines() if "RUN:" in line), "")
    cse = "--cse" in run.split("|")[0]
    chunks = SEPARATOR.split(text)
    return [
        Case(path, index, chunk, cse)
        for index, chunk in enumerate(chunks)
        if re.search(r"//\s*CHECK", chunk)
    ]


def command_for(tool: str, cse: bool, path: Path) -> list[str]:
    if tool == "iree-opt":
        return ["iree-opt", "--iree-stream-elide-async-copies", *(["--cse"] * cse), str(path)]
    return ["streamopt", "--elide-async-copies", *(["--cse"] * cse), str(path)]


def run_case(case: Case, tool: str, filecheck: str, workdir: Path) -> str | None:
    """None if the case passes, else what went wrong."""
    chunk = workdir / f"case-{case.file.stem}-{case.index}.mlir"
    chunk.write_text(case.text)
    produced = subprocess.run(
        command_for(tool, case.cse, chunk), capture_output=True, text=True, check=False
    )
    if produced.returncode != 0:
        return f"{tool} exited {produced.returncode}: {produced.stderr.strip()}"
    output = produced.stdout.replace("stream.async.move", "stream.async.transfer")
    checked = subprocess.run(
        [filecheck, str(chunk)], input=output, capture_output=True, text=True, check=False
    )
    if checked.returncode != 0:
        return (checked.stdout + checked.stderr).strip() + "\n--- output ---\n" + output
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path, help="IREE's test directory or files")
    parser.add_argument("--tool", choices=("streamopt", "iree-opt"), default="streamopt")
    parser.add_argument("-k", dest="only", help="run only cases whose name contains this")
    parser.add_argument("--filecheck", default="filecheck", help="the FileCheck to run")
    parser.add_argument("-v", "--verbose", action="store_true", help="show why a case failed")
    args = parser.parse_args()
    for tool in (args.tool, args.filecheck):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} not found on PATH")
    files: list[Path] = []
    for path in args.paths:
        files.extend(sorted(path.glob(PATTERN)) if path.is_dir() else [path])
    if not files:
        sys.exit(f"no {PATTERN} files under {' '.join(map(str, args.paths))}")
    passed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            for case in cases_of(path):
                if args.only and args.only not in case.name:
                    continue
                total += 1
                failure = run_case(case, args.tool, args.filecheck, Path(tmp))
                if failure is None:
                    passed += 1
                    continue
                print(f"FAIL {path.name}: {case.name}")
                if args.verbose:
                    print("    " + failure.replace("\n", "\n    "))
    print(f"{passed}/{total} cases pass with {args.tool}")


if __name__ == "__main__":
    main()
