"""The cf dialect."""

from __future__ import annotations
