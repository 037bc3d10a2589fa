"""Exercises on the real public data (TREC 2014 Microblog, NTCIR-12 STC-ja)."""

from __future__ import annotations

from .core import Verdict, close_to, report, unanswered  # noqa: F401

__all__: list[str] = []
