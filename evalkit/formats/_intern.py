"""Ids to integer codes while they are still bytes: the hash table of the compiled scanner.

:class:`Interned` holds distinct ids (a vocabulary, e.g. the judged
documents) once, as one byte buffer, and gives each token of a file the code
of its id, as :func:`pandas.factorize` of the vocabulary followed by the
tokens would, without making a Python string per token.  Two tokens share a
code exactly when their bytes are equal (:meth:`Interned.block_codes`: equal
codes are equal bytes, but an id may have a code in each block): the table
stores a 32-bit hash per entry to settle most probes, and compares the bytes
when the hashes agree.
Up to 2^32 - 1 distinct ids per table (:meth:`Interned.block_codes`: the vocabulary
and a file's (block, id) pairs together).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numba
import numpy as np

from ._columns import distinct_ids

__all__ = ["Interned", "Groups", "token_ids", "equal_bytes"]

_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)


@numba.njit(cache=True, nogil=True, inline="always")
def _hash(buf, start, end):
    """32 well-mixed bits of an id: FNV-1a over its bytes, then MurmurHash3's finaliser."""
    h = _FNV_OFFSET
    for i in range(start, end):
        h = (h ^ np.uint64(buf[i])) * _FNV_PRIME
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    return h >> np.uint64(32)


@numba.njit(cache=True, nogil=True, inline="always")
def equal_bytes(a, a0, a1, b, b0, b1):
    if a1 - a0 != b1 - b0:
        return False
    for i in range(a1 - a0):
        if a[a0 + i] != b[b0 + i]:
            return False
    return True


# A table is a power-of-two array of uint64 slots, at most half full, probed linearly
# from hash & mask.  A slot holds (hash << 32) | (code + 1), 0 when empty: most probes
# are settled by the stored hash without reading the id's bytes, and the table grows
# without rehashing them.
@numba.njit(cache=True, nogil=True, inline="always")
def _code(slot):
    return np.int64(slot & np.uint64(0xFFFFFFFF)) - 1


@numba.njit(cache=True, nogil=True, inline="always")
def _same_id(held, buf, s, e, starts, ends, first, vbuf, vstarts, vends):
    """Whether the id of code ``held`` is the token ``buf[s:e]``: a vocabulary id's bytes,
    or those of the new id ``held - V`` first seen at row ``first[held - V]``."""
    vocabulary = len(vstarts)
    if held < vocabulary:
        return equal_bytes(vbuf, vstarts[held], vends[held], buf, s, e)
    f = first[held - vocabulary]
    return equal_bytes(buf, starts[f], ends[f], buf, s, e)


@numba.njit(cache=True, nogil=True)
def _place(table, h, code):
    mask = np.uint64(len(table) - 1)
    at = h & mask
    while table[at] != 0:
        at = (at + np.uint64(1)) & mask
    table[at] = (h << np.uint64(32)) | np.uint64(code + 1)


@numba.njit(cache=True, nogil=True)
def _build_slots(vbuf, vstarts, vends, size):
    """A table of ``size`` slots holding the vocabulary's codes 0..V-1 (a repeated id keeps
    its first code)."""
    table = np.zeros(size, dtype=np.uint64)
    mask = np.uint64(size - 1)
    for code in range(len(vstarts)):
        h = _hash(vbuf, vstarts[code], vends[code])
        at = h & mask
        while True:
            slot = table[at]
            if slot == 0:
                table[at] = (h << np.uint64(32)) | np.uint64(code + 1)
                break
            held = _code(slot)
            if (slot >> np.uint64(32)) == h and equal_bytes(vbuf, vstarts[held], vends[held],
                                                       vbuf, vstarts[code], vends[code]):
                break
            at = (at + np.uint64(1)) & mask
    return table


@numba.njit(cache=True, nogil=True)
def _grown(table):
    """The same entries in a table twice the size."""
    bigger = np.zeros(2 * len(table), dtype=np.uint64)
    for slot in table:
        if slot != 0:
            _place(bigger, slot >> np.uint64(32), _code(slot))
    return bigger


@numba.njit(cache=True, nogil=True)
def _intern_column(buf, starts, ends, vbuf, vstarts, vends, table):
    """Codes of the tokens ``buf[starts[r]:ends[r]]``: a vocabulary id's code, else
    ``V + j`` for the ``j``-th new id (``first[j]`` its first row).  ``table`` is
    changed, and doubled when it would be more than half full."""
    rows = len(starts)
    vocabulary = len(vstarts)
    mask = np.uint64(len(table) - 1)
    codes = np.empty(rows, dtype=np.int64)
    first = np.empty(rows, dtype=np.int64)
    new = 0
    for r in range(rows):
        s, e = starts[r], ends[r]
        if r > 0 and equal_bytes(buf, starts[r - 1], ends[r - 1], buf, s, e):
            codes[r] = codes[r - 1]              # runs of one id (a topic's block)
            continue
        h = _hash(buf, s, e)
        at = h & mask
        while True:
            slot = table[at]
            if slot == 0:
                code = vocabulary + new
                table[at] = (h << np.uint64(32)) | np.uint64(code + 1)
                first[new] = r
                codes[r] = code
                new += 1
                if 2 * (code + 1) > len(table):
                    table = _grown(table)
                    mask = np.uint64(len(table) - 1)
                break
            if (slot >> np.uint64(32)) == h:
                held = _code(slot)
                if _same_id(held, buf, s, e, starts, ends, first, vbuf, vstarts, vends):
                    codes[r] = held
                    break
            at = (at + np.uint64(1)) & mask
    return codes, first[:new]


@numba.njit(cache=True, nogil=True)
def _entries(vbuf, vstarts, vends, codes):
    """The table entries ``(hash << 32) | (code + 1)`` of some vocabulary codes."""
    out = np.empty(len(codes), dtype=np.uint64)
    for i in range(len(codes)):
        c = codes[i]
        out[i] = (_hash(vbuf, vstarts[c], vends[c]) << np.uint64(32)) | np.uint64(c + 1)
    return out


@numba.njit(cache=True, nogil=True)
def _intern_blocks(buf, starts, ends, heads, block_group, offsets, entries, vbuf, vstarts, vends):
    """Codes of the tokens, block by block of rows (``heads[b]`` up to the next head): a
    token gets its vocabulary code when the block's group (``block_group[b]``, -1 for none)
    holds it (``entries[offsets[g]:offsets[g + 1]]``), else ``V + j`` for the ``j``-th
    (block, id) in order of first appearance (``first[j]`` its first row).  Each block
    starts a small table from its group's entries, which stays in the core's cache; the
    groups are only read (the threads of several files share them)."""
    rows = len(starts)
    vocabulary = len(vstarts)
    codes = np.empty(rows, dtype=np.int64)
    first = np.empty(rows, dtype=np.int64)
    small = np.zeros(16, dtype=np.uint64)
    new = 0
    for b in range(len(heads)):
        a = heads[b]
        z = heads[b + 1] if b + 1 < len(heads) else rows
        g = block_group[b]
        g0 = offsets[g] if g >= 0 else 0
        g1 = offsets[g + 1] if g >= 0 else 0
        size = 16
        while size < 2 * (z - a + g1 - g0):
            size *= 2
        if len(small) < size:
            small = np.zeros(size, dtype=np.uint64)
        else:
            small[:size] = 0
        mask = np.uint64(size - 1)
        for i in range(g0, g1):
            at = (entries[i] >> np.uint64(32)) & mask
            while small[at] != 0:
                at = (at + np.uint64(1)) & mask
            small[at] = entries[i]
        for r in range(a, z):
            s, e = starts[r], ends[r]
            h = _hash(buf, s, e)
            at = h & mask
            while True:
                slot = small[at]
                if slot == 0:
                    small[at] = (h << np.uint64(32)) | np.uint64(vocabulary + new + 1)
                    first[new] = r
                    codes[r] = vocabulary + new
                    new += 1
                    break
                if (slot >> np.uint64(32)) == h:
                    held = _code(slot)
                    if _same_id(held, buf, s, e, starts, ends, first, vbuf, vstarts, vends):
                        codes[r] = held
                        break
                at = (at + np.uint64(1)) & mask
    return codes, first[:new]


def _table_size(entries: int) -> int:
    """Slots for ``entries`` ids: a power of two, at most half full."""
    return 1 << max(4, int(2 * max(entries, 1) - 1).bit_length())


@dataclass(frozen=True)
class Groups:
    """Named sets of a vocabulary's codes (:meth:`Interned.groups`): for a run file, each
    topic's judged documents.  ``index`` maps a name to its group ``g``, whose codes'
    table entries are ``entries[offsets[g]:offsets[g + 1]]``."""

    index: dict
    offsets: np.ndarray
    entries: np.ndarray


class Interned:
    """Distinct ids (a vocabulary) as one byte buffer, ready to give codes to a file's tokens.

    :meth:`codes` gives each token the code of its id: its place in ``names``
    (the vocabulary, in order), else ``len(names) + j`` for the ``j``-th new
    id in order of first appearance, as :func:`pandas.factorize` of the
    vocabulary followed by the tokens would.  Ids are text, as in the files:
    ``names`` are turned into strings (a document ``5`` is the file's ``"5"``)
    and must be distinct.
    """

    def __init__(self, names=()):
        self.names = distinct_ids(names)
        listed = self.names.tolist()
        joined = "".join(listed)
        if joined.isascii():                        # a character is a byte: one encode
            raw = joined.encode("ascii")
            lengths = np.fromiter(map(len, listed), dtype=np.int64, count=len(listed))
        else:
            encoded = [name.encode("utf-8") for name in listed]
            raw = b"".join(encoded)
            lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
        self.ends = np.cumsum(lengths)
        self.starts = self.ends - lengths
        self.buf = np.frombuffer(raw or b"\0", dtype=np.uint8)

    def __len__(self) -> int:
        return len(self.names)

    @cached_property
    def _slots(self) -> np.ndarray:
        """The vocabulary's own table (:meth:`codes`), built when first needed."""
        return _build_slots(self.buf, self.starts, self.ends, _table_size(len(self)))

    def codes(self, buf, starts, ends, expected: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(codes, first)``: each token's code and the first row of each new id.

        ``expected``: about how many new ids to make room for (default: a
        quarter of the tokens; the table doubles whenever it is half full).
        The vocabulary's own table is not changed: each file starts from it.
        """
        size = _table_size(len(self) + (len(starts) // 4 if expected is None else expected))
        if not len(self):                         # no vocabulary: an empty table of that size
            table = np.zeros(size, dtype=np.uint64)
        else:
            table = self._slots.copy()
            while len(table) < size:              # room for this file's ids too
                table = _grown(table)
        return _intern_column(buf, starts, ends, self.buf, self.starts, self.ends, table)

    def groups(self, names, offsets, codes) -> Groups:
        """Named sets of this vocabulary's codes: the ``g``-th name's are
        ``codes[offsets[g]:offsets[g + 1]]`` (for a run file: each topic's judged documents,
        :meth:`block_codes`)."""
        offsets = np.asarray(offsets, dtype=np.int64)
        if len(offsets) != len(names) + 1:
            raise ValueError("offsets: one more than the names")
        entries = _entries(self.buf, self.starts, self.ends, np.asarray(codes, dtype=np.int64))
        return Groups({str(name): g for g, name in enumerate(names)}, offsets, entries)

    def block_codes(self, buf, starts, ends, heads, groups: Groups,
                    block_names) -> tuple[np.ndarray, np.ndarray]:
        """``(codes, first)`` block by block of rows (``heads``: each block's first row; in
        a run file, a topic's lines): a token gets its vocabulary code only in a block whose
        group (``block_names[b]`` in ``groups``; none if absent) holds it; any other id gets
        ``len(names) + j`` for the ``j``-th (block, id).  Equal codes still mean equal ids
        and, within a block, equal ids equal codes; one id may have a code in each block.

        On TREC runs against their qrels each topic's table is a few thousand entries that
        stay in the core's cache: about half the time of one table for every judged
        document (``benchmarks/README.md``)."""
        block_group = np.asarray([groups.index.get(str(n), -1) for n in block_names],
                                 dtype=np.int64)
        if len(block_group) != len(heads):
            raise ValueError("block_names: one name per block")
        return _intern_blocks(buf, starts, ends, np.asarray(heads, dtype=np.int64), block_group,
                              groups.offsets, groups.entries, self.buf, self.starts, self.ends)


def token_ids(raw: bytes, buf: np.ndarray, starts, ends,
              expected: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(codes, names)`` of the tokens ``raw[starts[r]:ends[r]]`` with no vocabulary:
    ``names[codes[r]]`` is each row's id as text (ids in order of first appearance)."""
    codes, first = Interned().codes(buf, starts, ends, expected)
    names = [raw[starts[r]:ends[r]].decode("utf-8") for r in first.tolist()]
    return codes, np.asarray(names, dtype=object)
