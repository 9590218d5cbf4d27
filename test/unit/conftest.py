"""Shared pytest set-up: every hypothesis test runs under the profile `fuzzing` selects."""

from __future__ import annotations

from fuzzing import load_profile

load_profile()
