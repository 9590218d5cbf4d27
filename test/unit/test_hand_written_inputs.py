"""Every hand-written case of the lit suite keeps its meaning through streamopt: iree-opt
prints streamopt's output exactly as it prints the case itself.

The lit files are IR written by hand (not printed by IREE, which the conformance run and the
real dumps cover): value names, attribute spellings, line breaks and forms iree-opt reads but
never prints. streamopt keeps some of that as written (value names, attribute aliases, the text
of ops it keeps as written), so its output is compared through iree-opt, which prints both in
one form. A case either tool refuses, and the cases with streamopt's own move ops (which
iree-opt does not define), are left out; new lit cases join the comparison by themselves.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

LIT = Path(__file__).parents[1] / "lit"
STREAMOPT_ONLY = ("stream.async.move", "stream.cmd.move", "hal.device.queue.move")


def cases() -> list[tuple[str, str]]:
    """(name, text) of each `// -----` chunk of the lit files that expects no diagnostic."""
    found = []
    for path in sorted(LIT.rglob("*.mlir")):
        if "Output" in path.parts or "invalid" in path.name:
            continue
        text = path.read_text()
        if any(name in text for name in STREAMOPT_ONLY):
            continue
        for index, chunk in enumerate(re.split(r"^// -----\s*$", text, flags=re.MULTILINE)):
            if chunk.strip() and "expected-" not in chunk:
                found.append((f"{path.relative_to(LIT)}#{index}", chunk))
    return found


def _run(command: list[str], text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command, "-"], input=text, capture_output=True, text=True, check=False)


def _compare(text: str) -> tuple[bool, str | None]:
    """Whether both tools read `text`, and what differs: nothing when iree-opt prints
    streamopt's output as it prints `text`. A case iree-opt reads must be read by streamopt;
    one iree-opt refuses is left out (streamopt keeps some ops as written, unchecked)."""
    iree = _run(["iree-opt"], text)
    if iree.returncode:
        return False, None
    ours = _run([sys.executable, "-m", "streamopt"], text)
    if ours.returncode:
        return False, f"streamopt refuses what iree-opt reads: {ours.stderr[:300]}"
    again = _run(["iree-opt"], ours.stdout)
    if again.returncode:
        return True, f"iree-opt refuses streamopt's output: {again.stderr[:300]}"
    if again.stdout != iree.stdout:
        return True, f"iree-opt prints it:\n{iree.stdout}\nand streamopt's output:\n{again.stdout}"
    return True, None


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="needs iree-opt (the test extra)")
def test_hand_written_cases_keep_their_meaning() -> None:
    found = cases()
    assert len(found) > 200
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(_compare, [text for _, text in found]))
    assert sum(compared for compared, _ in results) > 200
    problems = [f"{name}: {problem}" for (name, _), (_, problem) in zip(found, results) if problem]
    assert not problems, f"{len(problems)} cases:\n\n" + "\n\n".join(problems[:5])
