"""Column-wise reading of whitespace-separated text files (TREC runs, qrels, ratings).

Serves the readers of :mod:`evalkit.formats.trec`, :mod:`.assessor_ratings` and
:mod:`.ratings` at TREC scale (millions of lines): the file is split into
columns by pandas' C tokeniser, and every check the line-by-line readers make
is done on whole columns.  The answers are the line-by-line readers' own
(tested against a copy of them): the same fields (Python's ``str.split()``),
the same values (Python's ``int()`` and ``float()`` on each distinct token),
and the same first error, named by file and line.

Fields are split by the C tokeniser only where it agrees with ``str.split()``
and ``str.splitlines()``: a file holding another line break or white space
Python knows (form feed, a lone carriage return, U+2028, a no-break space...)
is split by Python instead, with the same checks.
"""

from __future__ import annotations

import csv
import io
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from ..errors import InputError
from ._compressed import content_size
from ._fields import first_fields
from ._header import LineFormat, header_checked
from ._text import _file_bytes

# white space and line breaks of str.split()/str.splitlines() that the C tokeniser
# (space, tab, \n, \r\n) does not treat alike
_ODD_ASCII = (b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\x1f")
_ODD_UTF8 = (b"\xc2\x85", b"\xc2\xa0", b"\xe1\x9a\x80", b"\xe2\x81\x9f", b"\xe3\x80\x80")
_ODD_E280 = re.compile(rb"\xe2\x80[\x80-\x8a\xa8\xa9\xaf]")  # U+2000-200A, 2028, 2029, 202F
_NOT_SPACE = re.compile(rb"[^\t\n\x0b\x0c\r\x1c-\x1f ]")


#: Inputs of at least this many bytes are read by the compiled scanner
#: (:mod:`evalkit.formats._scan`).  It reads a 6 MB run file in about 70 ms against
#: the column-wise reader's 190 ms, but numba's import and cached machine code cost
#: about 0.7 s once per process: below some 35 MB in all the column-wise reader is
#: faster (measured in November 2026; ``benchmarks/README.md``).
COMPILED_MIN_BYTES = 32_000_000


#: Said once on stderr when large inputs meet an install without numba.
NO_NUMBA_NOTE = ("evalkit: numba is not installed, so large inputs are read column-wise (the "
                 "same answers, slower); for the compiled reader: "
                 "pip install 'evalkit-assessors[fast]'")
_noted = []


def use_compiled(*paths) -> bool:
    """Whether files of these paths add up to :data:`COMPILED_MIN_BYTES` (missing: 0;
    compressed: their size decompressed, :func:`~evalkit.formats._compressed.content_size`)
    and numba (the ``fast`` extra) can be imported; when only numba is missing, stderr
    says so once per process (:data:`NO_NUMBA_NOTE`)."""
    if sum(content_size(p) for p in paths) < COMPILED_MIN_BYTES:
        return False
    try:
        import numba  # noqa: F401  (the compiled scanner's; loaded for large inputs only)
    except ImportError:
        if not _noted:
            import sys

            print(NO_NUMBA_NOTE, file=sys.stderr)
            _noted.append(True)
        return False
    return True


def distinct_ids(names) -> np.ndarray:
    """Ids as the files write them (text; a document ``5`` is the file's ``"5"``), each once."""
    ids = np.asarray([str(name) for name in names], dtype=object)
    if len(set(ids.tolist())) != len(ids):
        raise ValueError("the vocabulary's ids must be distinct")
    return ids


def checked_bytes(path: Path, fmt: LineFormat | None = None,
                  skip_header: bool | None = None) -> tuple[bytes, bool]:
    """A file's bytes (decompressed, BOM dropped) with the checks of ``_text._read_text``,
    in its order, then, given the format ``fmt``, its first line's
    (:func:`~evalkit.formats._header.header_checked`: a header line refused, or
    emptied with ``skip_header``).

    Returns ``(raw, simple)``: ``simple`` when the C tokeniser splits the file
    as ``str.split()`` would.
    """
    path = Path(path)
    raw = _file_bytes(path)
    ascii_only = raw.isascii()
    if not ascii_only:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise InputError(f"byte 0x{raw[exc.start]:02x} is not valid UTF-8",
                             path=path, line=line, hint="save the file as UTF-8") from None
        empty = not text.strip()
        del text
    else:
        empty = _NOT_SPACE.search(raw) is None
    if empty:
        raise InputError("file is empty", path=path)
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise InputError("NUL byte in line", path=path, line=raw[:nul].count(b"\n") + 1)
    simple = _simple(raw, ascii_only)
    return header_checked(raw, path, fmt, skip_header), simple


def _simple(raw: bytes, ascii_only: bool) -> bool:
    """No line break or white space that ``str.split()`` knows and the C tokeniser does not."""
    if any(b in raw for b in _ODD_ASCII) or (b"\r" in raw and raw.count(b"\r") != raw.count(b"\r\n")):
        return False
    if ascii_only:
        return True
    if any(b in raw for b in _ODD_UTF8):
        return False
    return b"\xe2\x80" not in raw or _ODD_E280.search(raw) is None


@dataclass
class Columns:
    """The fields of a file's non-blank lines, one column per field position.

    ``frame`` has columns ``0 .. n-1`` (text, or numbers where the C tokeniser
    read a whole column as numbers) for the rows before the first line
    without ``n`` fields; ``count`` the number of fields of every non-blank
    line.  :meth:`line` turns row numbers into 1-based line numbers.
    """

    path: Path
    frame: pd.DataFrame
    count: np.ndarray
    texts: frozenset                             # the columns read as text
    lines: np.ndarray = field(repr=False)        # line number of each row
    raw: bytes = field(repr=False, default=b"")  # the bytes read (decompressed, checked)
    extra_lines: int = 0                         # lines whose fields after the n-th were ignored

    def line(self, row: int) -> int:
        """The 1-based line number of row ``row`` (blank lines are not rows)."""
        return int(self.lines[row])

    def token(self, row: int, k: int) -> str:
        """Field ``k`` of row ``row`` as the file writes it (for an error message)."""
        if k in self.texts:
            return self.frame[k].iloc[row]
        raw = self.raw                                 # a simple file: LF ends lines
        ends = np.flatnonzero(np.frombuffer(raw, dtype=np.uint8) == 10)
        number = self.line(row)
        start = int(ends[number - 2]) + 1 if number > 1 else 0
        stop = int(ends[number - 1]) if number - 1 < len(ends) else len(raw)
        return raw[start:stop].decode("utf-8").split()[k]

    def text_column(self, k: int) -> pd.Series:
        """Column ``k`` as text (read again when the tokeniser read it as numbers)."""
        if k in self.texts:
            return self.frame[k]
        n = self.frame.shape[1]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pd.errors.ParserWarning)
            again = pd.read_csv(io.BytesIO(self.raw), sep=r"\s+", header=None, names=list(range(n)),
                                usecols=[k], index_col=False, quoting=csv.QUOTE_NONE,
                                na_filter=False, engine="c", dtype={k: str}, low_memory=False,
                                nrows=len(self.frame), encoding="utf-8")
        return again[k]


def column_values(columns: Columns, k: int, parse: Callable[[str], object],
                  kinds: str) -> tuple[np.ndarray, np.ndarray]:
    """``(values, ok)`` of column ``k``: as read when the tokeniser read it as numbers of
    ``kinds`` (numpy kind letters; every token then parses), else :func:`parse_tokens`."""
    column = columns.frame[k]
    if column.dtype.kind in kinds:
        return column.to_numpy(), np.ones(len(column), dtype=bool)
    return parse_tokens(columns.text_column(k), parse)


def _field_counts(raw: bytes, chunk: int = 1 << 24) -> np.ndarray:
    """Fields on each line (``len(line.split())``, 0 for a blank line) of a simple file.

    Vectorised over pieces of about ``chunk`` bytes cut at line ends; in a
    simple file white space is space, tab, CR and LF, and lines end at LF.
    """
    a = np.frombuffer(raw, dtype=np.uint8)
    out, start = [], 0
    while start < len(a):
        end = len(a) if start + chunk >= len(a) else raw.find(b"\n", start + chunk) + 1 or len(a)
        piece = a[start:end]
        space = (piece == 32) | (piece == 9) | (piece == 10) | (piece == 13)
        begins = np.flatnonzero(~space & np.concatenate(([True], space[:-1])))
        breaks = np.flatnonzero(piece == 10)
        before = np.searchsorted(begins, breaks)          # fields before each line's end
        counts = np.diff(before, prepend=0)
        if piece[-1] != 10:                                  # a last line without LF
            counts = np.append(counts, len(begins) - (before[-1] if len(before) else 0))
        out.append(counts)
        start = end
    return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)


def read_columns(path, n: int, text: tuple[int, ...] | None = None,
                 fmt: LineFormat | None = None, skip_header: bool | None = None,
                 extra: bool = False) -> Columns:
    """Split ``path`` into ``n`` whitespace-separated columns and count each line's fields.

    Columns in ``text`` are read as text, the others as numbers where every
    token of the column is one (else as text); ``text=None`` reads all as text.
    When a line has other than ``n`` fields, only the rows before it are split
    (the first error is on that line or before it).  With ``extra``, fields after the
    ``n``-th are ignored, as trec_eval ignores a run line's (``Columns.extra_lines``
    counts such lines).  ``fmt``, ``skip_header``: the first line's check (:func:`checked_bytes`).
    """
    path = Path(path)
    raw, simple = checked_bytes(path, fmt, skip_header)
    if simple:
        counts = _field_counts(raw)
        more = int(np.count_nonzero(counts > n)) if extra else 0
        if more:
            raw = first_fields(raw, n, counts)
            counts = np.minimum(counts, n)
        lines = np.flatnonzero(counts) + 1
        count = counts[lines - 1]
        bad = first_row(count != n)
        rows = len(count) if bad is None else bad
        as_text = range(n) if text is None else text
        with warnings.catch_warnings():     # rows after a bad line are not read at all
            warnings.simplefilter("ignore", pd.errors.ParserWarning)
            frame = pd.read_csv(io.BytesIO(raw), sep=r"\s+", header=None, names=list(range(n)),
                                index_col=False, quoting=csv.QUOTE_NONE, na_filter=False,
                                engine="c", dtype={c: str for c in as_text}, low_memory=False,
                                nrows=rows)
        if len(frame) == rows:
            return Columns(path, frame, count, frozenset(as_text), lines=lines, raw=raw,
                           extra_lines=more)
    return _python_columns(path, raw, n, extra)


def _python_columns(path: Path, raw: bytes, n: int, extra: bool = False) -> Columns:
    """The same columns split by ``str.splitlines()`` and ``str.split()``."""
    cols: list[list[str]] = [[] for _ in range(n)]
    counts, lines = [], []
    more = 0
    for number, line in enumerate(raw.decode("utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        fields = line.split()
        if extra and len(fields) > n:
            fields, more = fields[:n], more + 1
        lines.append(number)
        counts.append(len(fields))
        fields = fields[:n] + [""] * (n - len(fields))
        for k in range(n):
            cols[k].append(fields[k])
    frame = pd.DataFrame({k: pd.Series(cols[k], dtype=str) for k in range(n)})
    return Columns(path, frame, np.asarray(counts, dtype=np.int64), frozenset(range(n)),
                   lines=np.asarray(lines, dtype=np.int64), raw=raw, extra_lines=more)


def parse_tokens(column: pd.Series, parse: Callable[[str], object]) -> tuple[np.ndarray, np.ndarray]:
    """``parse`` applied once per distinct token: ``(values, ok)`` per row.

    ``parse`` returns a value, or raises ``ValueError`` for a bad token (``ok``
    False there, value NaN).
    """
    codes, uniques = pd.factorize(column, sort=False)
    values = np.empty(len(uniques), dtype=object)
    good = np.ones(len(uniques), dtype=bool)
    for i, token in enumerate(uniques.tolist()):
        try:
            values[i] = parse(token)
        except ValueError:
            values[i], good[i] = np.nan, False
    return values[codes], good[codes]


def whole_numbers(values: np.ndarray) -> np.ndarray:
    """Python ints as a column the way pandas builds one from rows (int64, else wider)."""
    return pd.Series(values.tolist()).to_numpy() if len(values) else values.astype(np.int64)


def first_row(mask) -> int | None:
    """The first True row of ``mask``, or None."""
    hits = np.flatnonzero(np.asarray(mask))
    return int(hits[0]) if hits.size else None


def raise_first(candidates: list[tuple[int | None, Callable[[int], InputError]]]) -> None:
    """Raise the error of the earliest row; on one row, the first check listed (the old order)."""
    found = [(row, order, make) for order, (row, make) in enumerate(candidates) if row is not None]
    if found:
        row, _, make = min(found, key=lambda f: (f[0], f[1]))
        raise make(row)


def factorize_keys(*codes: np.ndarray) -> np.ndarray:
    """One int64 key per row from several non-negative integer code columns (mixed radix;
    equal keys exactly when all codes are equal).  The key so far is renumbered densely
    when the next radix would overflow int64."""
    key = np.zeros(len(codes[0]), dtype=np.int64)
    for c in codes:
        radix = int(c.max(initial=0)) + 1
        if (int(key.max(initial=0)) + 1) * radix >= 2 ** 63:
            key = pd.factorize(key, sort=False)[0].astype(np.int64)
        key = key * np.int64(radix) + c.astype(np.int64)
    return key


def repeats(*codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, firsts)``: every row whose key (:func:`factorize_keys`) occurred before, in
    order, and the row where that key first occurred."""
    if len(codes[0]) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    key = pd.factorize(factorize_keys(*codes), sort=False)[0]      # 0, 1, ... as keys appear
    seen = np.maximum.accumulate(np.r_[-1, key[:-1]])
    new = key > seen
    rows = np.flatnonzero(~new)
    return rows, np.flatnonzero(new)[key[rows]]


def repeated_lines_note(columns: Columns, rows: np.ndarray, firsts: np.ndarray, same: str) -> str:
    """What stderr says of lines that repeat an earlier line exactly (``same``: what they
    share, e.g. "topic, document and grade") and were read once: how many, and where."""
    k = len(rows)
    lines = [columns.line(int(r)) for r in rows[:5]]
    first = [columns.line(int(r)) for r in firsts[:5]]
    more = " ..." if k > 5 else ""
    plural = k > 1
    return (f"{columns.path}: {k} line{'s' if plural else ''} repeat{'' if plural else 's'} an "
            f"earlier line exactly (same {same}) and {'were' if plural else 'was'} read once: "
            f"line{'s' if plural else ''} {', '.join(map(str, lines))}{more} (first on line"
            f"{'s' if plural else ''} {', '.join(map(str, first))}{more})")


def first_duplicate(*codes: np.ndarray) -> tuple[int | None, int | None]:
    """``(row, first)``: the first row whose key occurred before, and where it first occurred."""
    key = factorize_keys(*codes)
    dup = pd.Series(key).duplicated(keep="first").to_numpy()
    row = first_row(dup)
    if row is None:
        return None, None
    return row, int(np.flatnonzero(key[:row] == key[row])[0])
