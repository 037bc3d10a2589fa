"""Ordering judgments (Kim, Zhai & Han): ``set,assessor,position,item`` CSV."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from ._text import _lines

__all__ = ["read_orderings"]


def read_orderings(path) -> dict[str, list[tuple[str, ...]]]:
    """Read ordering judgments, CSV ``set,assessor,position,item`` with a header.

    Returns ``{set: [ordering of assessor 1, ...]}`` (assessors in file order).
    Positions of one (set, assessor) must be 1..k without gaps or repeats,
    items must not repeat, and every assessor of a set must order the same
    items; a set needs at least two assessors.
    """
    path = Path(path)
    lines = _lines(path, ",")
    header = next(lines, None)
    if header is None or header[1] != ["set", "assessor", "position", "item"]:
        raise InputError("expected the header 'set,assessor,position,item'", path=path, line=1)
    seen: dict[tuple[str, str], dict[int, tuple[str, int]]] = {}
    for number, fields in lines:
        if len(fields) != 4 or any(not f.strip() for f in fields):
            raise InputError(f"expected 4 non-empty fields, got {fields}", path=path, line=number)
        set_id, assessor, position, item = (f.strip() for f in fields)
        try:
            pos = int(position)
        except ValueError:
            raise InputError(f"position {position!r} is not an integer", path=path, line=number) from None
        entry = seen.setdefault((set_id, assessor), {})
        if pos in entry:
            raise InputError(f"position {pos} of {set_id}/{assessor} given twice "
                             f"(first on line {entry[pos][1]})", path=path, line=number)
        for other_item, other_line in entry.values():
            if other_item == item:
                raise InputError(f"{set_id}/{assessor} lists item {item!r} twice "
                                 f"(first on line {other_line})", path=path, line=number)
        entry[pos] = (item, number)
    sets: dict[str, list[tuple[str, ...]]] = {}
    first_line: dict[str, tuple[set, str, int]] = {}
    for (set_id, assessor), entry in seen.items():
        positions = sorted(entry)
        line = min(n for _, n in entry.values())
        if positions != list(range(1, len(positions) + 1)):
            raise InputError(f"positions of {set_id}/{assessor} are {positions[:12]}, not 1..k",
                             path=path, line=line)
        order = tuple(entry[p][0] for p in positions)
        if set_id in first_line:
            items, who, _ = first_line[set_id]
            if set(order) != items:
                raise InputError(
                    f"{set_id}/{assessor} does not order the same items as {who} "
                    f"(not a permutation of the set's items)", path=path, line=line)
        else:
            first_line[set_id] = (set(order), assessor, line)
        sets.setdefault(set_id, []).append(order)
    if not sets:
        raise InputError("no judgments in file", path=path)
    for set_id, orders in sets.items():
        if len(orders) < 2:
            raise InputError(f"set {set_id} has {len(orders)} judgment; at least two are needed",
                             path=path, line=first_line[set_id][2])
    return sets
