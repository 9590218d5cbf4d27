"""Every `// -----` chunk of the lit inputs and shipped examples that iree-opt reads, written in
MLIR's generic form (`iree-opt --mlir-print-op-generic`), is read as MLIR reads it: iree-opt
prints streamopt's output of it as it prints the chunk itself. streamopt prints the ops it
declares in their custom form and keeps the rest generic, so its output is compared through
iree-opt. Each tool runs once on all the chunks (`--split-input-file`).

IREE's own tests get the same check from `test/iree_conformance.py --generic`.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from test_fuzz_mutations import run_cli

ROOT = Path(__file__).resolve().parents[2]
SPLIT = re.compile(r"^// -----[ \t]*\n", re.MULTILINE)
UNREGISTERED = "--allow-unregistered-dialect"


def chunks(unregistered: bool) -> list[str]:
    """The chunks of the files whose RUN lines do (or do not) allow unregistered dialects,
    but for files of expected diagnostics."""
    found: list[str] = []
    for folder in ("examples", "test/lit"):
        for path in sorted((ROOT / folder).rglob("*.mlir")):
            text = path.read_text()
            if "expected-error" not in text and (UNREGISTERED in text) == unregistered:
                found += [chunk for chunk in SPLIT.split(text) if chunk.strip()]
    return found


def iree_opt(texts: list[str], flags: list[str]) -> list[str]:
    """iree-opt's output of each text ("" where it refuses one)."""
    run = subprocess.run(
        ["iree-opt", "--split-input-file", *flags, "-"],
        input="// -----\n".join(texts),
        capture_output=True,
        text=True,
        check=False,
    )
    outputs = SPLIT.split(run.stdout)
    assert len(outputs) == len(texts), run.stderr
    return outputs


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (the test extra)")
@pytest.mark.parametrize("unregistered", [False, True], ids=["registered", "unregistered"])
def test_generic_forms_read_as_mlir_reads_them(unregistered: bool) -> None:
    flags = [UNREGISTERED] if unregistered else []
    texts = chunks(unregistered)
    canonical = iree_opt(texts, flags)
    generic = iree_opt(texts, [*flags, "--mlir-print-op-generic"])
    back = iree_opt(generic, flags)
    # Chunks iree-opt refuses (new ops such as stream.async.move) or does not read back from
    # its own generic form are left out.
    kept = [i for i, text in enumerate(back) if text and text == canonical[i]]
    assert len(kept) >= len(texts) // 2, (len(kept), len(texts))
    code, out, err = run_cli(
        ["--split-input-file", *flags, "-"], "// -----\n".join(generic[i] for i in kept).encode()
    )
    assert code == 0, err.decode()
    outputs = SPLIT.split(out.decode())
    assert len(outputs) == len(kept)
    again = iree_opt(outputs, flags)
    for index, text in zip(kept, again):
        assert text, f"iree-opt refuses streamopt's output of:\n{generic[index]}"
        assert text == canonical[index], f"not what iree-opt prints of:\n{texts[index]}"
