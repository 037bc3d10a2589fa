"""Inputs of ``evalkit score`` / ``compare``: item gains and runs.

Frames may use evalkit's column names or those of ir_measures and ranx
(``query_id``, ``doc_id``, ``relevance``, ``score``; ranx's ``q_id``, and
``score`` as a qrels grade); :func:`item_gains`,
:func:`gains_from_qrels` and :func:`normalise_runs` map them once.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import InputError, ParameterError
from ..measures.gains import check_dmax, check_p, gain_values

__all__ = ["normalise_ratings", "item_gains", "gains_from_qrels", "parse_gain_map", "normalise_runs",
           "team_of"]

_ALIASES = {
    "topic": ("topic", "query_id", "q_id", "qid", "query"),
    "doc": ("doc", "doc_id", "docno", "item"),
    "assessor": ("assessor", "annotator", "worker", "rater"),
    "rating": ("rating", "relevance", "label", "grade"),
    "grade": ("grade", "relevance", "rating", "label", "score"),   # ranx qrels: q_id, doc_id, score
    "run": ("run", "run_id", "system", "tag", "name"),
    "rank": ("rank",),
    "score": ("score",),
}


def _rename(frame: pd.DataFrame, wanted: tuple[str, ...], optional: tuple[str, ...] = (),
            what: str = "frame") -> pd.DataFrame:
    """``frame`` with columns renamed to evalkit's names; a missing one is an error naming it."""
    mapping = {}
    for name in wanted + optional:
        hit = next((c for c in _ALIASES[name] if c in frame.columns), None)
        if hit is None and name in wanted:
            raise InputError(f"{what} has no {name!r} column (or {', '.join(_ALIASES[name][1:])})",
                             hint=f"columns found: {', '.join(map(str, frame.columns))}")
        if hit is not None:
            mapping[hit] = name
    out = frame[list(mapping)].rename(columns=mapping)
    for name in ("topic", "doc", "assessor", "run"):
        if name in out and not pd.api.types.is_string_dtype(out[name]):
            out[name] = out[name].astype(str)
    return out


def normalise_ratings(ratings: pd.DataFrame) -> pd.DataFrame:
    """``topic, assessor, doc, rating`` with whole, non-negative ratings, each judgment once."""
    r = _rename(ratings, ("topic", "assessor", "doc", "rating"), what="ratings")
    values = pd.to_numeric(r["rating"], errors="coerce")
    bad = values.isna() | (values != values.round()) | (values < 0)
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise InputError(f"rating {ratings.iloc[i][r.columns.get_loc('rating')]!r} in row {i} "
                         "is not a whole number >= 0")
    r["rating"] = values.astype(np.int64)
    dup = r.duplicated(["topic", "assessor", "doc"])
    if dup.any():
        t, a, d = r.loc[dup.idxmax(), ["topic", "assessor", "doc"]]
        raise InputError(f"assessor {a} rates document {d} of topic {t} twice")
    return r


def item_gains(ratings: pd.DataFrame, gain: str = "raw", p: float = 0.2,
               dmax: int | None = None) -> pd.DataFrame:
    """One gain per item (topic, doc) from per-assessor ratings: ``topic, doc, gain, n``.

    ``raw``: RawG_i, the sum of the item's ratings; ``wg``: (1 - D_i/Dmax) RawG_i;
    ``ug``: RawG_i + p N_i (Dmax - D_i) when RawG_i > 0, else 0, with D_i the
    spread (max - min) and N_i the number of ratings the item has (Sakai 2017,
    Eqs. 1-2, computed by :func:`evalkit.measures.gains.gain_values`).
    ``dmax`` defaults to the largest rating seen.
    """
    check_p(p)
    r = normalise_ratings(ratings)
    if r.empty:
        raise InputError("no ratings")
    top = int(r["rating"].max())
    dmax = check_dmax(top if dmax is None else dmax)
    if top > dmax:
        raise InputError(f"a rating of {top} is above dmax = {dmax}", hint="raise dmax")
    by = r.groupby(["topic", "doc"], sort=True)["rating"]
    items = by.agg(raw="sum", high="max", low="min", n="size").reset_index()
    raw = items["raw"].to_numpy(float)
    spread = (items["high"] - items["low"]).to_numpy(float)
    n = items["n"].to_numpy(float)
    values = gain_values(gain, raw, spread, n, dmax, p)
    return pd.DataFrame({"topic": items["topic"], "doc": items["doc"], "gain": values,
                         "n": items["n"]})


def parse_gain_map(text: str) -> dict[int, float]:
    """``"1:1,2:3"`` -> ``{1: 1.0, 2: 3.0}`` (grade -> gain; grade 0 is always gain 0)."""
    out = {}
    for part in text.split(","):
        grade, sep, value = part.partition(":")
        try:
            out[int(grade)] = float(value)
        except ValueError:
            raise ParameterError("gain-map", text, "GRADE:GAIN pairs such as 1:1,2:3") from None
        if not sep:
            raise ParameterError("gain-map", text, "GRADE:GAIN pairs such as 1:1,2:3")
    return out


def gains_from_qrels(qrels: pd.DataFrame, gain_map: dict[int, float]) -> pd.DataFrame:
    """Item gains from graded qrels through ``gain_map`` (NTCIREVAL's gain values).

    Grade 0 (and below) has gain 0; a positive grade missing from the map is an error.
    """
    q = _rename(qrels, ("topic", "doc", "grade"), what="qrels")
    grades = q["grade"].astype(int)
    missing = sorted(set(grades[grades > 0]) - set(gain_map))
    if missing:
        raise InputError(f"grade(s) {missing} have no gain in the gain map",
                         hint="give every positive grade, e.g. --gain-map 1:1,2:3")
    gain = grades.map(lambda g: gain_map.get(g, 0.0) if g > 0 else 0.0).astype(float)
    return pd.DataFrame({"topic": q["topic"], "doc": q["doc"], "gain": gain, "n": 1})


def normalise_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """``run, topic, doc, rank`` from a TREC-like frame.

    Without a ``rank`` column the order is by ``score`` descending, ties broken
    by document id descending (trec_eval's rule).  Without a run column all
    rows are one run named ``run``.
    """
    r = _rename(runs, ("topic", "doc"), ("run", "rank", "score"), what="runs")
    if "run" not in r:
        r.insert(0, "run", "run")
    if "rank" not in r:
        if "score" not in r:
            raise InputError("runs need a 'rank' or a 'score' column")
        r = r.sort_values(["run", "topic", "score", "doc"], ascending=[True, True, False, False],
                          kind="stable")
        r["rank"] = r.groupby(["run", "topic"]).cumcount() + 1
    return r[["run", "topic", "doc", "rank"]].reset_index(drop=True)


def team_of(run: str) -> str:
    """A run's team: its tag up to the first '-' (Sakai's best-run-per-team selection)."""
    return run.split("-", 1)[0]
