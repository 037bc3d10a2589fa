"""Judges' labels as they come: one qrels file per judge, a per-assessor ratings file, or both.

The inputs of ``--judge NAME=FILE`` and ``--ratings FILE`` in ``evalkit
score``, ``compare``, ``assessors`` and ``agreement`` (``docs/agreement.md``):
:func:`read_labels` reads them into one long frame ``topic, judge, doc,
grade`` and checks the grade scale:

* with ``grades=(LO, HI)`` (``--grades LO:HI``) a label outside the scale is
  refused with its file and line, or clamped into it with ``clip=True``
  (``--clip``; a note says how many labels, per judge);
* without, the scale is the lowest to the highest label seen, and a note
  names it and the judges and lines that set its maximum (one LLM judge's
  ``10`` among 0-3 grades changes Dmax, hence UG and WG, for everyone).

Names must be unique across ``--judge`` and the assessors of ``--ratings``;
a ratings file whose second column holds one iteration-like value (``0``,
``Q0``: one judge's qrels) is refused with ``--judge`` and ``--qrels`` named;
one named assessor's ratings are read as such.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ...errors import InputError, ParameterError
from ...formats.judge_files import data_lines, read_judge_qrels

__all__ = ["LABEL_COLUMNS", "parse_grades", "parse_judges", "read_labels", "labels_to_ratings",
           "grade_scale"]

#: The long frame of judges' labels.
LABEL_COLUMNS = ["topic", "judge", "doc", "grade"]


@dataclass
class _Source:
    """One judge's labels and where they came from (``rows``: the reader's row of each
    label, for its line number; None where rows are not lines, as in an STC-ja file, whose
    line is then found by the label's item: one line per post and reply)."""

    judge: str
    path: Path
    frame: pd.DataFrame            # topic, doc, grade
    rows: np.ndarray | None
    option: str                    # how it was given, for messages

    def line(self, k: int) -> int | None:
        if self.rows is None:
            return self._item_line(k)
        if not hasattr(self, "_lines"):
            self._lines = data_lines(self.path)     # read once, only for a message
        return int(self._lines[self.rows[k]])

    def _item_line(self, k: int) -> int | None:
        """The line of label ``k``'s item in an STC-ja file (``post reply r1 ... rN``)."""
        if not hasattr(self, "_items"):
            self._items = {}
            with open(self.path, encoding="utf-8-sig") as f:
                for number, text in enumerate(f, 1):
                    fields = text.split()
                    if len(fields) >= 2:
                        self._items.setdefault((fields[0], fields[1]), number)
        item = (str(self.frame["topic"].iloc[k]), str(self.frame["doc"].iloc[k]))
        return self._items.get(item)


def parse_grades(text: str) -> tuple[int, int]:
    """``"0:3"`` -> ``(0, 3)``: whole numbers ``0 <= LO < HI``."""
    lo, sep, hi = str(text).partition(":")
    try:
        lo_i, hi_i = int(lo), int(hi)
    except ValueError:
        raise ParameterError("grades", text, "LO:HI, two whole numbers such as 0:3") from None
    if not sep or lo_i < 0 or hi_i <= lo_i:
        raise ParameterError("grades", text, "LO:HI with 0 <= LO < HI, such as 0:3")
    return lo_i, hi_i


def parse_judges(specs) -> dict[str, str]:
    """``["alice=a.qrels", ...]`` -> ``{"alice": "a.qrels", ...}``; a name given twice is refused."""
    out: dict[str, str] = {}
    for spec in specs or []:
        name, sep, path = str(spec).partition("=")
        if not sep or not name or not path or any(c.isspace() for c in name):
            raise InputError(f"--judge {spec!r} is not NAME=FILE",
                             hint="one judge per option, e.g. --judge alice=alice.qrels")
        if name in out:
            raise InputError(f"judge {name} is given twice (--judge {name}={out[name]} and "
                             f"--judge {spec})", hint="give each judge once, with its own name")
        out[name] = path
    return out


def _ratings_sources(path, fmt: str, compiled) -> list[_Source]:
    from ...formats.assessor_ratings import _first_fields, read_any_ratings
    from .gains import natural_key

    path = Path(path)
    is_stc = fmt == "stc" or (fmt == "auto" and len(_first_fields(path)) != 4)
    try:
        frame = read_any_ratings(path, None, fmt, compiled)
    except InputError as exc:
        if is_stc or "twice" not in exc.problem:
            raise
        from ...formats.judge_files import second_column

        values = pd.unique(second_column(path))
        if len(values) != 1 or not _iteration_like(str(values[0])):
            raise
        raise InputError(f"{exc.problem}, and the second column is always {values[0]}: this looks "
                         "like several judges' TREC qrels one after another", path=exc.path,
                         line=exc.line, hint="split it into one qrels file per judge and give each "
                                             "with --judge NAME=FILE") from None
    names = pd.unique(frame["assessor"])
    if len(names) == 1 and not is_stc and _iteration_like(str(names[0])):
        raise InputError(
            f"only one assessor ({names[0]}) in the second column: this looks like one judge's "
            "TREC qrels 'topic iteration doc grade', not per-assessor ratings", path=path,
            hint="give one judge's qrels with --judge NAME=FILE (one option per judge), or "
                 "graded qrels with --qrels FILE --gain-map")
    out = []
    for name in sorted(names, key=natural_key):
        rows = np.flatnonzero((frame["assessor"] == name).to_numpy())
        part = frame.iloc[rows]
        out.append(_Source(str(name), path, pd.DataFrame({
            "topic": part["topic"].to_numpy(), "doc": part["doc"].to_numpy(),
            "grade": part["rating"].to_numpy(np.int64)}), None if is_stc else rows, "--ratings"))
    return out


def _iteration_like(text: str) -> bool:
    """A qrels iteration field (``0``, ``Q0``, ``1``...), not an assessor's name."""
    return text.upper() == "Q0" or text.replace(".", "", 1).isdigit()


def grade_scale(labels: pd.DataFrame) -> tuple[int, int]:
    """The scale of a labels frame: ``labels.attrs["grades"]`` when declared or inferred by
    :func:`read_labels`, else the lowest and highest grade in it."""
    if "grades" in labels.attrs:
        lo, hi = labels.attrs["grades"]
        return int(lo), int(hi)
    if labels.empty:
        raise InputError("no labels")
    return int(labels["grade"].min()), int(labels["grade"].max())


def _declared(sources: list[_Source], lo: int, hi: int, clip: bool, option: str) -> list[str]:
    notes = []
    for s in sources:
        g = s.frame["grade"].to_numpy()
        bad = (g < lo) | (g > hi)
        if not bad.any():
            continue
        if not clip:
            k = int(np.flatnonzero(bad)[0])
            where = "" if s.line(k) is not None else f" (topic {s.frame['topic'].iloc[k]}, " \
                                                       f"document {s.frame['doc'].iloc[k]})"
            raise InputError(f"grade {g[k]} of judge {s.judge} is outside {option}"
                             f"{where}; {_labels(int(bad.sum()))} of this judge {'is' if bad.sum() == 1 else 'are'} "
                             "outside it", path=s.path,
                             line=s.line(k), hint=f"fix the labels, widen {option.split()[0]}, or "
                                                  "give --clip to clamp them into the scale")
        above, below = int((g > hi).sum()), int((g < lo).sum())
        values = ", ".join(str(v) for v in sorted(set(g[bad].tolist())))
        s.frame["grade"] = np.clip(g, lo, hi)
        moved = ", ".join(f"{count} to {to}" for count, to in ((above, hi), (below, lo)) if count)
        notes.append(f"--clip: {_labels(int(bad.sum()))} of judge {s.judge} outside {lo}..{hi} "
                     f"(grades {values}) clamped: {moved}")
    return notes


def _labels(n: int) -> str:
    return f"{n} label" + ("" if n == 1 else "s")


def _inferred(sources: list[_Source]) -> tuple[int, int, list[str]]:
    lo = min(int(s.frame["grade"].min()) for s in sources)
    tops = {s.judge: int(s.frame["grade"].max()) for s in sources}
    hi = max(tops.values())
    setters = [s for s in sources if tops[s.judge] == hi]
    head = (f"grades {lo}..{hi} inferred from the labels (declare the scale with --grades LO:HI): "
            f"the highest, {hi}, is ")
    if len(setters) == len(sources) > 1:
        return lo, hi, [head + f"every judge's highest grade ({len(sources)} judges)"]
    parts = []
    for s in setters[:3]:
        at = np.flatnonzero(s.frame["grade"].to_numpy() == hi)
        lines = [s.line(int(k)) for k in at[:3]] if s.rows is not None else []
        where = (f"{s.path.name} line{'s' if len(lines) > 1 else ''} "
                 + ", ".join(map(str, lines)) + (" ..." if len(at) > 3 else "")) if lines else s.path.name
        parts.append(f"{s.judge} ({_labels(len(at))}, {where})")
    more = f" and {len(setters) - 3} more judges" if len(setters) > 3 else ""
    rest = [t for j, t in tops.items() if t < hi]
    others = (f"; the other {len(rest)} judge(s) grade at most {max(rest)}" if rest else "")
    return lo, hi, [head + f"set by {', '.join(parts)}{more}{others}"]


def read_labels(judges: dict | None = None, ratings=None, ratings_format: str = "auto",
                grades: tuple[int, int] | None = None, clip: bool = False,
                compiled: bool | None = None, option: str | None = None
                ) -> tuple[pd.DataFrame, list[str]]:
    """Every judge's labels as ``topic, judge, doc, grade`` and the notes for stderr.

    ``judges``: ``{name: qrels path}`` (:func:`~evalkit.formats.judge_files.read_judge_qrels`);
    ``ratings``: a per-assessor ratings file whose assessors are judges too
    (named as in the file); both may be given and add up.  ``grades``:
    the declared scale ``(LO, HI)``; see the module docstring for ``clip``
    and the inferred scale; ``option`` names the scale in messages (default
    ``--grades LO:HI``).  ``labels.attrs["grades"]`` holds the scale.
    """
    if grades is not None:
        grades = parse_grades(f"{grades[0]}:{grades[1]}")
    if clip and grades is None:
        raise InputError("--clip needs --grades LO:HI (the scale to clamp labels into)")
    sources = _ratings_sources(ratings, ratings_format, compiled) if ratings is not None else []
    taken = {s.judge: "--ratings " + str(ratings) for s in sources}
    for name, path in (judges or {}).items():
        name = str(name)
        if name in taken:
            raise InputError(f"judge {name} is given twice ({taken[name]} has an assessor {name}, "
                             f"and --judge {name}={path})", hint="give each judge a name of its own")
        taken[name] = f"--judge {name}={path}"
        frame = read_judge_qrels(path, name)
        sources.append(_Source(name, Path(path), frame[["topic", "doc", "grade"]].copy(),
                               np.arange(len(frame)), "--judge"))
    if not sources:
        raise InputError("no judges: give --judge NAME=FILE (one per judge) or --ratings FILE")
    if grades is not None:
        lo, hi = grades
        notes = _declared(sources, lo, hi, clip, option or f"--grades {lo}:{hi}")
    else:
        lo, hi, notes = _inferred(sources)
    labels = pd.concat([s.frame.assign(judge=s.judge) for s in sources],
                       ignore_index=True)[LABEL_COLUMNS]
    labels["grade"] = labels["grade"].astype(np.int64)
    labels.attrs["grades"] = (int(lo), int(hi))
    return labels, notes


def labels_to_ratings(labels: pd.DataFrame) -> pd.DataFrame:
    """The ``topic, assessor, doc, rating`` frame of ``evalkit score`` from judges' labels."""
    return pd.DataFrame({"topic": labels["topic"].to_numpy(), "assessor": labels["judge"].to_numpy(),
                         "doc": labels["doc"].to_numpy(), "rating": labels["grade"].to_numpy()})
