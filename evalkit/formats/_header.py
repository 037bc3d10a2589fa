"""Header lines: a first line that names the columns of a TREC-style file instead of holding data.

TREC qrels, runs and ratings files have no header, but files written by
spreadsheets, pandas or dataset tools often start with one
(``query_id iteration doc_id relevance``, ``qid Q0 docno rank score tag``).
trec_eval reads such a qrels line as one more judgment (``atol("relevance")``
is grade 0); a reader checking each field refuses it with a puzzling message
("grade 'relevance' is not an integer").  The readers of
:mod:`evalkit.formats.trec`, :mod:`.assessor_ratings` and :mod:`.ratings`
look at the first non-blank line once, before reading any field
(:func:`header_checked`), with the format's :class:`LineFormat`:

* a line of data (the format's number of fields, its numbers numbers) is data;
* a line that is not data **looks like a header line** when words stand
  where the format puts numbers (each such field holds a letter and is not
  a number), or, with another number of fields, when no field holds a digit
  (a CSV line of data, ``1,0,d1,2``, is not taken for a header);
* any other line is left to the reader, which names its mistake.

A header line is refused, naming its file and line ("looks like a header
line: remove it"), or, with ``--skip-header`` (``skip_header=True``, or the
commands' :func:`skipping_headers`), emptied in the bytes the reader sees: it
is then a blank line, and every other line keeps its number.  A first line
of data is never skipped.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..errors import InputError

__all__ = ["LineFormat", "header_checked", "first_line", "skipping_headers", "skip_headers"]

_SKIP: ContextVar[bool] = ContextVar("evalkit_skip_header", default=False)
_NOT_SPACE = re.compile(rb"[^\t\n\x0b\x0c\r\x1c-\x1f ]")


@contextmanager
def skipping_headers(skip: bool = True):
    """Within the block, readers not told otherwise skip header lines (``--skip-header``
    of ``evalkit score``, ``compare``, ``assessors`` and ``agreement``)."""
    token = _SKIP.set(bool(skip))
    try:
        yield
    finally:
        _SKIP.reset(token)


def skip_headers(skip_header: bool | None = None) -> bool:
    """A reader's ``skip_header``: as given, or (None) as :func:`skipping_headers` set it."""
    return _SKIP.get() if skip_header is None else bool(skip_header)


@dataclass(frozen=True)
class LineFormat:
    """A data line of a whitespace-separated format: its fields and where its numbers are.

    ``numbers``: ``(position, parse)`` of each numeric field, ``parse``
    raising ``ValueError`` for a bad token; with ``more``, a line has at least
    ``fields`` fields and every field from the last position on is parsed so
    (NTCIR STC-ja's ``post reply r1 ... rN``).
    """

    layout: str
    fields: int
    numbers: tuple[tuple[int, Callable[[str], object]], ...]
    more: bool = False

    def _count_ok(self, tokens: list[str]) -> bool:
        return len(tokens) >= self.fields if self.more else len(tokens) == self.fields

    def _numeric(self, tokens: list[str]) -> list[tuple[str, Callable]]:
        out = [(tokens[k], parse) for k, parse in self.numbers if k < len(tokens)]
        if self.more:
            last, parse = self.numbers[-1]
            out += [(t, parse) for t in tokens[last + 1:]]
        return out

    def looks_like_header(self, tokens: list[str]) -> bool:
        """Not a line of data, and names where numbers belong (see the module docstring)."""
        if not self._count_ok(tokens):
            return bool(tokens) and not any(c.isdigit() for t in tokens for c in t)
        numeric = self._numeric(tokens)
        return bool(numeric) and all(_word(t, parse) for t, parse in numeric)


def _word(token: str, parse: Callable) -> bool:
    """A token that is a name, not a number of the format: it holds a letter and fails ``parse``."""
    if not any(c.isalpha() for c in token):
        return False
    try:
        parse(token)
    except ValueError:
        return True
    return False


def first_line(raw: bytes) -> tuple[int, int, int, str] | None:
    """``(line, start, end, text)`` of the first non-blank line of ``raw`` (UTF-8): its
    1-based number as ``str.splitlines()`` counts lines, the byte span of its text
    (without its line break) and the text; None when every line is blank.

    Reads from the start to that line only.
    """
    at = 0
    while True:
        hit = _NOT_SPACE.search(raw, at)
        if hit is None:
            return None
        start = raw.rfind(b"\n", 0, hit.start()) + 1
        stop = raw.find(b"\n", hit.start())
        stop = len(raw) if stop < 0 else stop
        chunk = raw[start:stop].decode("utf-8")
        offset = 0
        for k, piece in enumerate(chunk.splitlines(keepends=True)):
            text = piece.splitlines()[0] if piece.splitlines() else ""
            if text.strip():
                before = len(raw[:start].decode("utf-8").splitlines())
                begin = start + len(chunk[:offset].encode("utf-8"))
                return before + k + 1, begin, begin + len(text.encode("utf-8")), text
            offset += len(piece)
        at = stop + 1                 # a line of white space only Python knows (U+00A0...)


def header_checked(raw: bytes, path: Path, fmt: LineFormat | None,
                   skip_header: bool | None = None) -> bytes:
    """``raw`` unchanged, or with its header line emptied (``skip_header``); a header line
    not to be skipped is an :class:`~evalkit.errors.InputError` naming file and line."""
    found = None if fmt is None else first_line(raw)
    if found is None:
        return raw
    line, start, end, text = found
    if not fmt.looks_like_header(text.split()):
        return raw
    if not skip_headers(skip_header):
        shown = " ".join(text.split())
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise InputError(f"{shown!r} looks like a header line: remove it", path=path, line=line,
                         hint=f"or give --skip-header to skip it; a line of this file is "
                              f"'{fmt.layout}'")
    # spaces, not nothing: "\r" + header + "\n" emptied would join into one "\r\n" break
    rest = raw[:start] + b" " * (end - start) + raw[end:]
    if _NOT_SPACE.search(rest) is None:
        raise InputError("the file holds a header line and nothing else", path=path, line=line)
    return rest
