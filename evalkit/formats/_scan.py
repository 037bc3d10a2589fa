"""A compiled one-pass reader of whitespace-separated files: the fast path of the run reader.

:func:`evalkit.formats.trec.run_table` and
:func:`evalkit.formats.assessor_ratings.read_assessor_ratings` read large
files (:data:`evalkit.formats._columns.COMPILED_MIN_BYTES`; TREC runs of
millions of lines) through here.  The file's bytes are split into fields by
a numba loop, identifiers are turned into integer codes while they are
still bytes (:mod:`evalkit.formats._intern`: two ids share a code exactly
when they are the same text), and ranks and scores are parsed without
making a Python object per line.

The answers are Python's own:

* fields are split as ``str.split()`` splits them, on files
  :func:`evalkit.formats._columns.checked_bytes` calls simple (white space
  is space, tab, CR of a CRLF and LF);
* an integer token of at most 18 digits with an optional sign is read as
  ``int()`` reads it; any other token (``1_000``, a huge number, a non-ASCII
  digit) is handed to ``int()`` itself;
* a decimal token (``5.481336``, ``-0.5``, ``1e-3``) whose digits fit in
  2^53 and whose power of ten is at most 22 is read by Clinger's fast path
  (W. D. Clinger, "How to read floating point numbers accurately", PLDI
  1990): the digits and the power of ten are both exact doubles, so one
  multiplication or division rounds correctly, as ``float()`` does; any
  other token is handed to ``float()``.

Nothing here raises an error about the file: when a check fails (a line
without the expected number of fields, a bad or non-finite number, a
document twice, two tags), the caller reads the file again through the
column-wise path, which names the file, the line and the problem; or, for a
line without the expected fields after rows that pass every check, reports
it with :func:`stopped_at`.
"""

from __future__ import annotations

import re

import numba
import numpy as np

from ._intern import equal_bytes

__all__ = ["split_fields", "stopped_at", "parse_ints", "parse_floats", "numbers", "first_other",
           "repeated_in_block", "POW10"]

# exact doubles 1e0 .. 1e22 (Clinger's fast path needs the power of ten exact)
POW10 = np.array([float(10 ** k) for k in range(23)])
_MANTISSA_MAX = 2 ** 53


@numba.njit(cache=True, nogil=True)
def _split(buf, starts, ends, kind):
    n = starts.shape[0]
    size = len(buf)
    i = 0
    row = 0
    k = 0
    while i < size:
        c = kind[buf[i]]
        if c == 0:                               # a field starts
            start = i
            i += 1
            while i < size and kind[buf[i]] == 0:
                i += 1
            if k < n:
                starts[k, row] = start
                ends[k, row] = i
            k += 1
        elif c == 2:                             # a line feed ends the line
            if k > 0:
                if k != n:
                    return starts, ends, row, False
                row += 1
                k = 0
            i += 1
        else:
            i += 1
    if k > 0:                                    # a last line without a line feed
        if k != n:
            return starts, ends, row, False
        row += 1
    return starts, ends, row, True


# byte classes of a simple file: 1 blank (space, tab, CR), 2 line feed, 0 part of a field
_KIND = np.zeros(256, dtype=np.uint8)
_KIND[[32, 9, 13]] = 1
_KIND[10] = 2


def split_fields(buf: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """``(starts, ends, ok)``: byte spans of the ``n`` fields of each non-blank line.

    ``starts[k, r]:ends[k, r]`` is field ``k`` of row ``r`` (each field's row
    contiguous).  Reading stops at the first non-blank line without ``n``
    fields (``ok`` False; the rows before it are returned).
    """
    # a row takes n bytes, n-1 spaces and a line feed; and rows are lines
    max_rows = min(len(buf) // (2 * n - 1), _line_feeds(buf)) + 1
    offset = np.int32 if len(buf) < 2 ** 31 else np.int64
    starts, ends, rows, ok = _split(buf, np.empty((n, max_rows), offset),
                                    np.empty((n, max_rows), offset), _KIND)
    return starts[:, :rows], ends[:, :rows], ok


@numba.njit(cache=True, nogil=True)
def _line_feeds(buf) -> int:
    """How many line feeds ``buf`` holds (without the GIL: two files are read at once, and
    ``bytes.count`` would hold it)."""
    n = 0
    for c in buf:
        n += c == 10
    return n


_NOT_BLANK = re.compile(rb"[^ \t\r\n]")


def stopped_at(raw: bytes, ends: np.ndarray) -> tuple[int, int]:
    """``(line, fields)`` of the line :func:`split_fields` stopped at (``ok`` False): its
    1-based line number and how many fields ``str.split()`` finds on it."""
    after = int(ends[-1, -1]) if ends.shape[1] else 0      # the end of the last good row
    if ends.shape[1]:
        after = raw.find(b"\n", after) + 1                 # the good row's line ends there
    hit = _NOT_BLANK.search(raw, after)
    start = raw.rfind(b"\n", 0, hit.start()) + 1
    stop = raw.find(b"\n", start)
    line = raw[start:] if stop < 0 else raw[start:stop]
    return raw.count(b"\n", 0, start) + 1, len(line.split())


@numba.njit(cache=True, nogil=True)
def parse_ints(buf, starts, ends):
    """``(values, slow)``: ``[+-]digits`` tokens of at most 18 digits read here; ``slow``
    marks the tokens left for Python's ``int()``."""
    rows = len(starts)
    values = np.zeros(rows, dtype=np.int64)
    slow = np.zeros(rows, dtype=np.bool_)
    for r in range(rows):
        i, e = starts[r], ends[r]
        negative = False
        if i < e and (buf[i] == 43 or buf[i] == 45):          # + -
            negative = buf[i] == 45
            i += 1
        if i == e or e - i > 18:
            slow[r] = True
            continue
        v = 0
        for j in range(i, e):
            d = np.int64(buf[j]) - 48
            if d < 0 or d > 9:
                slow[r] = True
                break
            v = v * 10 + d
        values[r] = -v if negative else v
    return values, slow


@numba.njit(cache=True, nogil=True)
def parse_floats(buf, starts, ends, pow10):
    """``(values, slow)``: decimal tokens read exactly where Clinger's fast path applies;
    ``slow`` marks the tokens left for Python's ``float()``."""
    rows = len(starts)
    values = np.zeros(rows)
    slow = np.zeros(rows, dtype=np.bool_)
    limit = np.int64(_MANTISSA_MAX)
    for r in range(rows):
        i, e = starts[r], ends[r]
        negative = False
        if i < e and (buf[i] == 43 or buf[i] == 45):
            negative = buf[i] == 45
            i += 1
        mantissa = np.int64(0)
        digits = 0
        fraction = 0
        point = False
        bad = False
        while i < e:
            b = buf[i]
            if 48 <= b <= 57:
                digits += 1
                if mantissa > (limit - 9) // 10:
                    bad = True
                    break
                mantissa = mantissa * 10 + (np.int64(b) - 48)
                if point:
                    fraction += 1
            elif b == 46 and not point:           # .
                point = True
            else:
                break
            i += 1
        exponent = 0
        if not bad and i < e and (buf[i] == 101 or buf[i] == 69) and digits > 0:   # e E
            i += 1
            sign = 1
            if i < e and (buf[i] == 43 or buf[i] == 45):
                sign = -1 if buf[i] == 45 else 1
                i += 1
            if i == e or e - i > 4:
                bad = True
            while i < e and not bad:
                d = np.int64(buf[i]) - 48
                if d < 0 or d > 9:
                    bad = True
                    break
                exponent = exponent * 10 + d
                i += 1
            exponent *= sign
        if bad or i != e or digits == 0:
            slow[r] = True
            continue
        power = exponent - fraction
        if power < -22 or power > 22:
            if mantissa == 0:
                values[r] = -0.0 if negative else 0.0
            else:
                slow[r] = True
            continue
        v = float(mantissa) * pow10[power] if power >= 0 else float(mantissa) / pow10[-power]
        values[r] = -v if negative else v
    return values, slow


@numba.njit(cache=True, nogil=True)
def first_other(buf, starts, ends):
    """The first row whose token differs from row 0's, or -1."""
    for r in range(1, len(starts)):
        if not equal_bytes(buf, starts[0], ends[0], buf, starts[r], ends[r]):
            return r
    return -1


@numba.njit(cache=True, nogil=True)
def repeated_in_block(topic, doc, n_docs):
    """Whether some ``doc`` code repeats within a block of equal ``topic`` codes (0), none
    does (1), or a topic's rows are not one block (-1: ask another check).  One pass, with
    each document's last block remembered."""
    last = np.full(n_docs, -1, dtype=np.int64)
    seen = np.zeros(topic.max() + 1 if len(topic) else 1, dtype=np.bool_)
    block = -1
    for r in range(len(topic)):
        if r == 0 or topic[r] != topic[r - 1]:
            if seen[topic[r]]:
                return -1
            seen[topic[r]] = True
            block += 1
        if last[doc[r]] == block:
            return 0
        last[doc[r]] = block
    return 1


def numbers(raw: bytes, buf: np.ndarray, starts, ends, parse) -> np.ndarray | None:
    """Python's ``parse(token)`` (``int`` or ``float``) of every token, as int64 or float64.

    Tokens the compiled parsers leave (``1_000``, ``1e400``, 17 significant
    digits...) are given to ``parse`` itself.  None when a token is not a
    number, or an integer does not fit in int64: the caller's column-wise
    reader then judges the file.
    """
    if parse is int:
        values, slow = parse_ints(buf, starts, ends)
    else:
        values, slow = parse_floats(buf, starts, ends, POW10)
    if slow.any():
        where = np.flatnonzero(slow)
        try:
            fixed = [parse(raw[starts[r]:ends[r]].decode("utf-8")) for r in where.tolist()]
        except ValueError:
            return None
        if parse is int and not all(-2 ** 63 <= v < 2 ** 63 for v in fixed):
            return None
        values[where] = fixed
    return values
