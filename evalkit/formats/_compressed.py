"""Compressed input files: gzip, bz2 and xz, recognised by their first bytes, read in memory.

Every reader of :mod:`evalkit.formats` takes a file's bytes from
:func:`evalkit.formats._text._file_bytes`, which hands them here: a file that
starts with a compressor's magic bytes (not its name: ``qrels.txt`` may be
gzip, ``run.gz`` plain text) is decompressed once, in memory, and read as if
it had been written uncompressed, so line numbers in messages are those of
the decompressed text (``zcat FILE | sed -n 12p`` shows line 12).  Only the
first bytes are looked at: a plain file is not touched by an extra pass.

The last decompressed file is kept (with its compressed bytes, to know it is
the same file): readers that look at a file twice (the first line, then the
columns; a message's line) decompress it once.  zstd and zip are recognised
and refused with what to do.  :func:`content_size` is a file's size once
decompressed, for the choice of the compiled reader
(:data:`evalkit.formats._columns.COMPILED_MIN_BYTES`).
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import zlib
from pathlib import Path

from ..errors import InputError

__all__ = ["compression", "decompressed", "content_size"]

# (name, magic bytes, decompress, the command that tests a file)
_FORMATS = (
    ("gzip", b"\x1f\x8b", gzip.decompress, "gzip -t"),
    ("bz2", b"BZh", bz2.decompress, "bzip2 -t"),
    ("xz", b"\xfd7zXZ\x00", lzma.decompress, "xz -t"),
)
# recognised, not read: what to do instead
_REFUSED = (
    (b"\x28\xb5\x2f\xfd", "zstd data", "decompress it first (zstd -d FILE) or recompress it "
                                       "with gzip, bz2 or xz"),
    (b"PK\x03\x04", "a zip archive", "unzip it and give the file inside"),
)
_last: list = []          # [(path, compressed bytes, decompressed bytes)]: the last file


def compression(head: bytes) -> str | None:
    """``"gzip"``, ``"bz2"``, ``"xz"`` or None (not compressed), from a file's first bytes."""
    for name, magic, _, _ in _FORMATS:
        if head.startswith(magic) and (name != "bz2" or head[3:4].isdigit() and head[3:4] != b"0"):
            return name
    return None


def decompressed(path: Path, raw: bytes) -> bytes:
    """``raw`` (the bytes of ``path``) decompressed when they start with a magic number,
    else ``raw`` itself; a corrupt or truncated file, zstd or zip is an
    :class:`~evalkit.errors.InputError` naming the file."""
    name = compression(raw[:6])
    if name is None:
        for magic, what, hint in _REFUSED:
            if raw.startswith(magic):
                raise InputError(f"this is {what}, which evalkit does not read", path=path,
                                 hint=hint)
        return raw
    key = str(path)
    kept = _last[0] if _last else None     # read once: run files are read on two threads
    if kept is not None and kept[0] == key and kept[1] == raw:
        return kept[2]
    _, _, decompress, test = next(f for f in _FORMATS if f[0] == name)
    try:
        data = decompress(raw)
    except (OSError, EOFError, zlib.error, lzma.LZMAError, ValueError) as exc:
        raise InputError(f"{name} data is corrupt or truncated ({exc})", path=path,
                         hint=f"check the file with {test} FILE, or fetch it again") from None
    _last[:] = [(key, raw, data)]
    return data


def content_size(path) -> int:
    """The size of ``path`` once decompressed (0 when it is not a file).

    A plain file's size; gzip's recorded size (of the last member: exact for
    a file written by one ``gzip``) and xz's (its last stream's index); bz2
    records none, so a bz2 file counts at its compressed size, a lower bound.
    """
    path = Path(path)
    if not path.is_file():
        return 0
    size = path.stat().st_size
    with open(path, "rb") as f:
        name = compression(f.read(6))
        if name == "gzip" and size >= 18:
            f.seek(size - 4)
            return max(size, int.from_bytes(f.read(4), "little"))
        if name == "xz":
            f.seek(max(0, size - (1 << 16)))
            return max(size, _xz_size(f.read()))
    return size


def _xz_size(tail: bytes) -> int:
    """The uncompressed size recorded in the index of the last xz stream in ``tail``
    (the file's last bytes); 0 when it cannot be read from them."""
    end = len(tail)
    while end >= 4 and tail[end - 4:end] == b"\0\0\0\0":      # stream padding
        end -= 4
    footer = tail[end - 12:end]
    if len(footer) < 12 or footer[10:] != b"YZ":
        return 0
    index_size = (int.from_bytes(footer[4:8], "little") + 1) * 4
    index = tail[end - 12 - index_size:end - 12]
    if len(index) != index_size or index[:1] != b"\0":
        return 0
    values, at = [], 1

    def varint() -> int:
        nonlocal at
        value, shift = 0, 0
        while at < len(index):
            byte = index[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value
        raise IndexError
    try:
        records = varint()
        for _ in range(records):
            varint()                                   # the block's unpadded size
            values.append(varint())                    # its uncompressed size
    except IndexError:
        return 0
    return sum(values)
