"""Low-level text reading shared by every reader in :mod:`evalkit.formats`.

A file is decompressed when it is gzip, bz2 or xz (:mod:`evalkit.formats._compressed`,
recognised by its first bytes), then decoded and checked once (exists, UTF-8
with an optional BOM, not empty, no NUL byte); errors name the file and the
line.  CRLF line endings and blank lines are accepted, and so are comment lines,
as trec_eval 10 reads them: a line whose first non-blank character is ``#`` is
blanked (its bytes become spaces, so line numbers stay those of the file); a
``#`` elsewhere, as inside MS MARCO v2.1's ``msmarco_v2.1_doc_00_880019750#4_1633802806``,
is part of the id.  :func:`grade_value` is how every judges' file reads a grade.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Iterator

from ..errors import InputError
from ._compressed import decompressed


#: The file name that stands for standard input (a run on stdin, as trec_eval 10 reads it).
STDIN = "-"
_stdin: list[bytes] = []


def _stdin_bytes() -> bytes:
    """Standard input's bytes, read once per process (a reader may read a file twice)."""
    if not _stdin:
        import sys

        _stdin.append(sys.stdin.buffer.read())
    return _stdin[0]


def _file_bytes(path: Path) -> bytes:
    """A file's bytes, decompressed when compressed, with a UTF-8 BOM dropped; a missing
    path or a folder is an InputError; ``-`` (:data:`STDIN`) is standard input."""
    if str(path) == STDIN:
        return decompressed(Path(STDIN), _stdin_bytes()).removeprefix(b"\xef\xbb\xbf")
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path=path, hint="check the path")
    if not path.is_file():
        raise InputError("not a regular file", path=path)
    return without_comments(decompressed(path, path.read_bytes()).removeprefix(b"\xef\xbb\xbf"),
                            path)


#: A comment line: ``#`` first after blanks (not a line break), up to the line's end.
_COMMENT = re.compile(rb"^[ \t\x0b\x0c]*#[^\r\n]*", re.MULTILINE)


def without_comments(raw: bytes, path: Path | None = None) -> bytes:
    """``raw`` with each comment line's bytes turned into spaces (the module docstring);
    a file of comment lines only is an InputError.  A file without ``#`` is not scanned."""
    if b"#" not in raw:
        return raw
    out = _COMMENT.sub(lambda m: b" " * len(m.group()), raw)
    if not out.strip() and raw.strip():
        raise InputError("file holds only comment lines (lines starting with '#')", path=path)
    return out


def _read_text(path: Path) -> str:
    """A file's text, checked once: it exists, is UTF-8 (a BOM is dropped), is
    not empty and holds no NUL byte; errors name the file and the line."""
    path = Path(path)
    raw = _file_bytes(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(
            f"byte 0x{raw[exc.start]:02x} is not valid UTF-8",
            path=path, line=line, hint="save the file as UTF-8",
        ) from None
    if not text.strip():
        raise InputError("file is empty", path=path)
    if "\x00" in text:
        raise InputError("NUL byte in line", path=path, line=text[: text.index("\x00")].count("\n") + 1)
    return text


def _lines(path: Path, sep: str | None = None) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line_number, fields)`` of the non-blank lines of a checked text file.

    Fields are split on white space, or on ``sep`` (e.g. "," for simple CSV
    without quoting).
    """
    for number, line in enumerate(_read_text(path).splitlines(), start=1):
        if line.strip():
            yield number, line.split(sep)


def grade_value(token: str, levels: bool = True) -> int:
    """A grade as judges' files write it: an integer (``2``, ``-2``: TREC Web's spam grade),
    NTCIREVAL's ``L2``, or an integral decimal (``2.0``, ``2.00``, read as 2).

    Python's ``int()`` of the token (without the ``L``), else ``float()`` when
    it is finite and whole.  ``ValueError`` otherwise (``1.5``, ``high``):
    :func:`grade_problem` says which.  ``levels=False`` (ratings files): no ``L``.
    """
    t = token[1:] if levels and token[:1] in ("L", "l") else token
    try:
        return int(t)
    except ValueError:
        value = float(t)                    # ValueError: not a number at all
        if not value.is_integer():          # 1.5, and nan or inf
            raise ValueError(token) from None
        return int(value)


def grade_problem(token: str, what: str = "grade") -> str:
    """Why :func:`grade_value` refuses ``token``: a fraction, or not a number (``what``:
    ``grade``, or ``rating`` for a ratings file, whose tokens have no ``L``)."""
    t = token[1:] if what == "grade" and token[:1] in ("L", "l") else token
    try:
        fraction = math.isfinite(float(t))
    except ValueError:
        fraction = False
    if fraction or what != "grade":
        return f"{what} {token!r} is not a whole number"
    return f"{what} {token!r} is not an integer or L0/L1/L2..."


def _grade(token: str, path: Path, line: int) -> int:
    """:func:`grade_value`, or an InputError naming the line (the line-by-line readers')."""
    try:
        return grade_value(token)
    except ValueError:
        raise InputError(grade_problem(token), path=path, line=line) from None


def _topic(token: str) -> str:
    """Normalise topic ids: TREC Microblog writes 'MB171' and '171' alike."""
    return token[2:] if token[:2].upper() == "MB" and token[2:].isdigit() else token


def run_fields_message(fields: int) -> str:
    """What a run line of ``fields`` fields is told; four fields are a qrels line, so it says
    how to give a judge's qrels (the usual slip: several qrels after one ``--ratings``)."""
    message = f"expected 6 fields 'topic Q0 doc rank score tag', got {fields}"
    if fields == 4:
        message += (": this looks like a qrels line 'topic iteration doc grade', not a run "
                    "(give each judge's qrels with --judge NAME=FILE, graded qrels with --qrels, "
                    "and the run files last)")
    return message
