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
  ``10`` among 0-3 grades changes Dmax, hence UG and WG, for everyone) and,
  when it is below 0, its minimum.

Grades are kept as written, negative ones too (TREC Web's -2 for spam:
``--grades -2:3`` declares such a scale; what a negative grade counts for is
the scoring's business, as in trec_eval, where it is judged non-relevant).
Files may be gzip, bz2 or xz and may start with a header line to skip
(``skip_header``, ``--skip-header``); exactly repeated lines are read once,
with a note (:mod:`evalkit.formats.trec`).

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
from ...formats._columns import checked_bytes
from ...formats._header import LineFormat
from ...formats.judge_files import data_lines, read_judge_qrels
from ...formats.trec import QRELS_LINE

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
    fmt: LineFormat = QRELS_LINE   # the file's lines, for its header line
    skip_header: bool | None = None
    repeated: np.ndarray | None = None   # the reader's rows read once already (not in frame)

    def line(self, k: int) -> int | None:
        if self.rows is None:
            return self._item_line(k)
        if not hasattr(self, "_lines"):             # read once, only for a message
            lines = data_lines(self.path, self.fmt, self.skip_header)
            self._lines = lines if self.repeated is None else np.delete(lines, self.repeated)
        return int(self._lines[self.rows[k]])

    def _item_line(self, k: int) -> int | None:
        """The line of label ``k``'s item in an STC-ja file (``post reply r1 ... rN``)."""
        if not hasattr(self, "_items"):
            self._items = {}
            raw, _ = checked_bytes(self.path, self.fmt, self.skip_header)
            for number, text in enumerate(raw.decode("utf-8").splitlines(), 1):
                fields = text.split()
                if len(fields) >= 2:
                    self._items.setdefault((fields[0], fields[1]), number)
        item = (str(self.frame["topic"].iloc[k]), str(self.frame["doc"].iloc[k]))
        return self._items.get(item)


def parse_grades(text: str) -> tuple[int, int]:
    """``"0:3"`` -> ``(0, 3)``, ``"-2:3"`` -> ``(-2, 3)``: whole numbers ``LO < HI``.

    LO may be negative (TREC Web's -2 for spam, -1 elsewhere); the scale is
    then every whole number from LO to HI, and agreement statistics
    (``evalkit agreement``) work on it as declared: an ordinal or interval
    scale on which -2 lies two steps below 0.
    """
    lo, sep, hi = str(text).partition(":")
    try:
        lo_i, hi_i = int(lo), int(hi)
    except ValueError:
        raise ParameterError("grades", text, "LO:HI, two whole numbers such as 0:3 or -2:3"
                             ) from None
    if not sep or hi_i <= lo_i:
        raise ParameterError("grades", text, "LO:HI with LO < HI, such as 0:3 or -2:3")
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


def _ratings_sources(path, fmt: str, compiled, skip_header: bool | None = None
                     ) -> tuple[list[_Source], list[str]]:
    """The judges of a ratings file (one source per assessor) and the reader's notes."""
    from ...formats.assessor_ratings import RATINGS_LINE, _first_fields, read_any_ratings
    from ...formats.ratings import STC_LINE
    from .gains import natural_key

    path = Path(path)
    is_stc = fmt == "stc" or (fmt == "auto" and len(_first_fields(path, skip_header)) != 4)
    try:
        frame = read_any_ratings(path, None, fmt, compiled, skip_header)
    except InputError as exc:
        if is_stc or "twice" not in exc.problem:
            raise
        from ...formats.judge_files import second_column

        values = pd.unique(second_column(path, skip_header))
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
            "grade": part["rating"].to_numpy(np.int64)}), None if is_stc else rows, "--ratings",
            STC_LINE if is_stc else RATINGS_LINE, skip_header, frame.attrs.get("repeated_rows")))
    return out, list(frame.attrs.get("read_notes", []))


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
    lows = {s.judge: int(s.frame["grade"].min()) for s in sources}
    tops = {s.judge: int(s.frame["grade"].max()) for s in sources}
    lo, hi = min(lows.values()), max(tops.values())
    head = (f"grades {lo}..{hi} inferred from the labels (declare the scale with --grades LO:HI): "
            f"the highest, {hi}, is ")
    note = head + _set_by(sources, tops, hi, "highest", "at most", max)
    if lo < 0:                     # below 0: name it too (TREC Web's -2 for spam)
        note += f"; the lowest, {lo}, is " + _set_by(sources, lows, lo, "lowest", "at least", min)
    return lo, hi, [note]


def _set_by(sources: list[_Source], ends: dict, end: int, which: str, bound: str, pick) -> str:
    """Which judges and lines give the scale's end ``end`` (``ends``: each judge's)."""
    setters = [s for s in sources if ends[s.judge] == end]
    if len(setters) == len(sources) > 1:
        return f"every judge's {which} grade ({len(sources)} judges)"
    parts = []
    for s in setters[:3]:
        at = np.flatnonzero(s.frame["grade"].to_numpy() == end)
        lines = [s.line(int(k)) for k in at[:3]] if s.rows is not None else []
        where = (f"{s.path.name} line{'s' if len(lines) > 1 else ''} "
                 + ", ".join(map(str, lines)) + (" ..." if len(at) > 3 else "")) if lines else s.path.name
        parts.append(f"{s.judge} ({_labels(len(at))}, {where})")
    more = f" and {len(setters) - 3} more judges" if len(setters) > 3 else ""
    rest = [t for t in ends.values() if t != end]
    others = (f"; the other {len(rest)} judge(s) grade {bound} {pick(rest)}" if rest else "")
    return f"set by {', '.join(parts)}{more}{others}"


def read_labels(judges: dict | None = None, ratings=None, ratings_format: str = "auto",
                grades: tuple[int, int] | None = None, clip: bool = False,
                compiled: bool | None = None, option: str | None = None,
                skip_header: bool | None = None) -> tuple[pd.DataFrame, list[str]]:
    """Every judge's labels as ``topic, judge, doc, grade`` and the notes for stderr.

    ``judges``: ``{name: qrels path}`` (:func:`~evalkit.formats.judge_files.read_judge_qrels`);
    ``ratings``: a per-assessor ratings file whose assessors are judges too
    (named as in the file); both may be given and add up.  ``grades``:
    the declared scale ``(LO, HI)``; see the module docstring for ``clip``
    and the inferred scale; ``option`` names the scale in messages (default
    ``--grades LO:HI``).  ``labels.attrs["grades"]`` holds the scale.
    ``skip_header``: skip a first line that looks like a header in every
    file (None: as :func:`~evalkit.formats._header.skipping_headers` says).
    The notes: lines read once, then the scale's.
    """
    if grades is not None:
        grades = parse_grades(f"{grades[0]}:{grades[1]}")
    if clip and grades is None:
        raise InputError("--clip needs --grades LO:HI (the scale to clamp labels into)")
    sources, read_notes = (_ratings_sources(ratings, ratings_format, compiled, skip_header)
                           if ratings is not None else ([], []))
    pool: dict[str, str] = {}
    share = len(sources) + len(judges or {}) > 1           # one judge: nothing to share
    for s in sources if share else ():
        s.frame["doc"] = _shared_ids(s.frame["doc"], pool)
    taken = {s.judge: "--ratings " + str(ratings) for s in sources}
    for name, path in (judges or {}).items():
        name = str(name)
        if name in taken:
            raise InputError(f"judge {name} is given twice ({taken[name]} has an assessor {name}, "
                             f"and --judge {name}={path})", hint="give each judge a name of its own")
        taken[name] = f"--judge {name}={path}"
        frame = read_judge_qrels(path, name, skip_header)
        read_notes += frame.attrs.get("read_notes", [])
        if share:
            frame["doc"] = _shared_ids(frame["doc"], pool)
        sources.append(_Source(name, Path(path), frame[["topic", "doc", "grade"]].copy(),
                               np.arange(len(frame)), "--judge", QRELS_LINE, skip_header,
                               frame.attrs.get("repeated_rows")))
    if not sources:
        raise InputError("no judges: give --judge NAME=FILE (one per judge) or --ratings FILE")
    if grades is not None:
        lo, hi = grades
        notes = _declared(sources, lo, hi, clip, option or f"--grades {lo}:{hi}")
    else:
        lo, hi, notes = _inferred(sources)
    notes = read_notes + notes
    labels = pd.concat([s.frame.assign(judge=s.judge) for s in sources],
                       ignore_index=True)[LABEL_COLUMNS]
    labels["grade"] = labels["grade"].astype(np.int64)
    labels.attrs["grades"] = (int(lo), int(hi))
    return labels, notes


def _shared_ids(ids: pd.Series, pool: dict[str, str]) -> pd.Series:
    """The same ids, each distinct one a single string object shared by every judge read so
    far (``pool``): ten judges of the same 100,000 documents hold 100,000 strings, not a
    million (about 60 MB less), and each string's hash, cached in the string, is computed
    once for all the look-ups after it."""
    keep = pool.setdefault
    shared = np.array([keep(d, d) for d in ids.tolist()], dtype=object)
    return pd.Series(shared, index=ids.index, dtype=ids.dtype)


def labels_to_ratings(labels: pd.DataFrame) -> pd.DataFrame:
    """The ``topic, assessor, doc, rating`` frame of ``evalkit score`` from judges' labels."""
    return pd.DataFrame({"topic": labels["topic"].to_numpy(), "assessor": labels["judge"].to_numpy(),
                         "doc": labels["doc"].to_numpy(), "rating": labels["grade"].to_numpy()})
