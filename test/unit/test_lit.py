"""Run the lit suite (test/lit) as part of pytest, so one command runs every test."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The lit package has no __main__ module (`python -m lit` fails), so call its entry point.
_RUN_LIT = "import sys; from lit.main import main; sys.argv[0] = 'lit'; main()"


def test_lit_suite(tmp_path: Path) -> None:
    env = dict(os.environ, STREAMOPT_LIT_OUT=str(tmp_path / "lit-out"))
    result = subprocess.run(
        [sys.executable, "-c", _RUN_LIT, "-sv", str(ROOT / "test" / "lit")],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    output = result.stdout + result.stderr
    # An empty suite must fail, not pass.
    match = re.search(r"Total Discovered Tests: (\d+)", output)
    assert match and int(match.group(1)) > 0, output[-4000:]
    assert result.returncode == 0, output[-20000:]
