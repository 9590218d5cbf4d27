"""The hal dialect."""

from __future__ import annotations
