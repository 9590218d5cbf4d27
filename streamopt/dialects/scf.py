"""The scf dialect."""

from __future__ import annotations
