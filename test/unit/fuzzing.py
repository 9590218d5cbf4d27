"""How the randomised tests run: the same examples on every run unless asked.

By default every hypothesis test is derandomized (its examples follow from the test's name)
and reads no example database, and seeded generators run seeds 0, 1, 2, ... (`fuzz_seeds`),
so a commit is green or red, never both. Setting `STREAMOPT_FUZZ_SCALE=N` (N > 1) selects the
`long` profile instead: fresh random examples on each run, N times as many (`fuzz_examples`,
`fuzz_seeds`), with a reproduction blob (or the seed) printed on failure. `conftest.py` loads
the profile before any test runs.
"""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, settings

SCALE_VARIABLE = "STREAMOPT_FUZZ_SCALE"

_COMMON = {
    "database": None,
    "deadline": None,
    "suppress_health_check": [
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
}
settings.register_profile("ci", derandomize=True, **_COMMON)
settings.register_profile("long", derandomize=False, print_blob=True, **_COMMON)


def fuzz_scale() -> int:
    """The factor `STREAMOPT_FUZZ_SCALE` asks for (1 when unset)."""
    text = os.environ.get(SCALE_VARIABLE, "").strip()
    if not text:
        return 1
    try:
        scale = int(text)
    except ValueError:
        raise SystemExit(f"{SCALE_VARIABLE} must be a whole number, got {text!r}") from None
    return max(scale, 1)


def fuzz_examples(count: int) -> int:
    """How many examples a test that runs `count` in CI runs now."""
    return count * fuzz_scale()


def fuzz_seeds(count: int, stride: int = 1_000_003) -> range:
    """Seeds for a test that runs `count` seeded examples in CI: 0 to count - 1, or in the
    long profile `count` times the scale from a fresh random start (a multiple of `stride`)."""
    scale = fuzz_scale()
    if scale == 1:
        return range(count)
    start = random.SystemRandom().randrange(1, 2**31) * stride
    return range(start, start + count * scale)


def load_profile() -> str:
    """Load the profile the environment asks for; its name."""
    name = "long" if fuzz_scale() > 1 else "ci"
    settings.load_profile(name)
    return name
