"""Reading the same small programs with iree-opt and with streamopt, for the enumerated
differential tests: each program a `// -----` chunk of one input, each tool run once."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from collections.abc import Sequence

Errors = dict[int, tuple[int, int, str]]


def first_errors(tool: Sequence[str], text: str, flags: Sequence[str] = ()) -> Errors:
    """Run `tool` with `flags` on the `// -----` chunks of `text`: the first error of each
    chunk it refuses, by chunk number, as (line, column, message)."""
    run = subprocess.run(
        [*tool, *flags, "--split-input-file", "-"], input=text, capture_output=True, text=True
    )
    assert "Traceback" not in run.stderr
    chunk_of_line = list(itertools.accumulate(int(line == "// -----") for line in text.split("\n")))
    errors: Errors = {}
    for match in re.finditer(r"^<stdin>:(\d+):(\d+): error: (.*)$", run.stderr, re.MULTILINE):
        line = int(match[1])
        errors.setdefault(chunk_of_line[line - 1], (line, int(match[2]), match[3]))
    return errors


def first_errors_of_both(
    programs: Sequence[str], flags: Sequence[str] = ()
) -> tuple[Errors, Errors]:
    """`first_errors` of iree-opt and of streamopt (this interpreter's) on `programs`."""
    text = "// -----\n".join(programs)
    iree = first_errors(["iree-opt"], text, flags)
    ours = first_errors([sys.executable, "-m", "streamopt"], text, flags)
    return iree, ours


def outputs_of_both(text: str, flags: Sequence[str] = ()) -> tuple[str, str]:
    """What iree-opt and streamopt (this interpreter's) print of `text` with `flags`, each
    of which must read it."""
    outputs = []
    for tool in (["iree-opt"], [sys.executable, "-m", "streamopt"]):
        run = subprocess.run(
            [*tool, *flags, "-"], input=text, capture_output=True, text=True, check=False
        )
        assert run.returncode == 0, run.stderr[-4000:]
        outputs.append(run.stdout)
    return outputs[0], outputs[1]


def split_outputs_of_both(programs: Sequence[str]) -> tuple[str, str]:
    """`outputs_of_both` of `programs` as the `// -----` chunks of one input."""
    return outputs_of_both("// -----\n".join(programs), ["--split-input-file"])
