"""Low-level text reading shared by every reader in :mod:`evalkit.formats`.

A file is decoded and checked once (exists, UTF-8 with an optional BOM, not
empty, no NUL byte); errors name the file and the line.  CRLF line endings
and blank lines are accepted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from ..errors import InputError


def _file_bytes(path: Path) -> bytes:
    """A file's bytes with a UTF-8 BOM dropped; a missing path or a folder is an InputError."""
    if not path.exists():
        raise InputError("file not found", path=path, hint="check the path")
    if not path.is_file():
        raise InputError("not a regular file", path=path)
    return path.read_bytes().removeprefix(b"\xef\xbb\xbf")


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


def _grade(token: str, path: Path, line: int) -> int:
    t = token[1:] if token[:1] in ("L", "l") else token
    try:
        grade = int(t)
    except ValueError:
        raise InputError(
            f"grade {token!r} is not an integer or L0/L1/L2...", path=path, line=line
        ) from None
    if grade < 0:
        raise InputError(f"grade {token!r} is negative", path=path, line=line)
    return grade


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
