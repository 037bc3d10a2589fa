"""trec_eval's judgment groups (``-R qrels_jg``): several users' judgments of one topic, averaged.

A judgment-groups file (:func:`evalkit.formats.judgment_groups.read_judgment_groups`)
is a qrels file whose second column names the judgment group (a user)
that judged the line.  trec_eval's ``qrels_jg`` measures score a run's list
under each group of a topic on its own and average over the topic's groups
(``form_res_rels_jg.c``, ``m_map_avgjg.c``, ``m_P_avgjg.c``,
``m_Rprec_mult_avgjg.c``):

* ``map_avgjg`` = (1/J_t) sum_j AP_j, AP_j = (1/R_j) sum_{rel_j(r)} P_j@r
  (0 for a group without a relevant document, which still counts in J_t);
* ``P_avgjg_k`` = (1/J_t) sum_j (relevant_j in the top k) / k;
* ``Rprec_mult_avgjg_x`` = (1/J_t) sum_j (relevant_j in the top c_j) / c_j with
  c_j = floor(x R_j + 0.9) (trec_eval's ``(long) (x * num_rel + 0.9)``, kept in
  10.0), 0 when c_j = 0;

J_t is the number of groups that judged topic t, and the topic's value
enters the mean over topics as any measure's does (``-c``: every topic of
the file).  The groups become judgment columns: column ``j`` holds each
topic's ``j``-th group in byte order of the names, so ``J_t`` columns hold
topic t and the measures of :mod:`evalkit.measures` compute every group at
once; :func:`average_over_groups` then averages each topic over its groups.
``--measure qrels_jg`` is trec_eval's set: ``map_avgjg``, ``P_avgjg`` at 5, 10,
15, 20, 30, 100, 200, 500 and 1000 and ``Rprec_mult_avgjg`` at 0.2, 0.4, ..., 2.0;
``P_avgjg.5,10`` and ``Rprec_mult_avgjg.0.5,1`` name other cutoffs, as trec_eval's ``-m``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from ...errors import InputError
from ...measures import average_precision, set_measures
from ...measures.ranked import RankedLists, num_relevant, per_topic, relevant
from ...measures.registry import TREC_EVAL
from ...measures.running import running_sum
from .judgments import judge_columns
from .lists import Scored

__all__ = ["GroupMeasure", "GROUP_MEASURES", "group_measures", "group_columns",
           "groups_frame", "average_over_groups"]

#: trec_eval's default cutoffs (``m_P_avgjg.c``, ``m_Rprec_mult_avgjg.c``).
P_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RPREC_MULT_CUTOFFS = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)

#: The measures, in trec_eval's order (``measures.c``), and the set that names them all.
GROUP_MEASURES = ("map_avgjg", "P_avgjg", "Rprec_mult_avgjg")
GROUP_SET = "qrels_jg"


@dataclass(frozen=True)
class GroupMeasure:
    """One value of a ``qrels_jg`` measure, per judgment group (averaged afterwards):
    ``name`` is trec_eval's printed name (``P_avgjg_10``), ``cut`` its cutoff (P) or
    multiple of R (Rprec_mult), ``rel`` the relevance level."""

    name: str
    base: str
    cut: float | None = None
    rel: float = 1.0
    family: str = TREC_EVAL

    @property
    def k(self) -> int | None:
        """The ranks the measure reads (None: the whole list)."""
        return int(self.cut) if self.base == "P_avgjg" else None

    @property
    def trec_eval_name(self) -> str:
        return self.name

    def compute(self, lists: RankedLists) -> np.ndarray:
        """``(G, T)``: the measure under each group's column (NaN where it does not judge the
        topic)."""
        if self.base == "map_avgjg":
            return average_precision.average_precision(lists, None, self.rel)
        if self.base == "P_avgjg":
            return set_measures.precision(lists, int(self.cut), self.rel)
        return rprec_mult(lists, self.cut, self.rel)


def rprec_mult(lists: RankedLists, x: float, rel: float) -> np.ndarray:
    """Precision at c = floor(x R + 0.9) documents, 0 when c = 0 (``m_Rprec_mult_avgjg.c``,
    one group's value)."""
    cut = np.floor(x * num_relevant(lists, rel) + 0.9).astype(np.int64)          # (G, T)
    hits = running_sum(relevant(lists.gains, rel))                                # (G, T, D)
    at = np.minimum(cut, lists.depth) - 1
    found = np.where(at >= 0, np.take_along_axis(
        hits, np.maximum(at, 0)[..., None], axis=-1)[..., 0] if lists.depth else 0, 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = np.where(cut > 0, found / np.maximum(cut, 1), 0.0)
    return per_topic(lists, value)


def _numbers(text: str, kind, name: str) -> list:
    try:
        values = sorted({kind(v) for v in text.split(",") if v.strip()})
    except ValueError:
        values = []
    if not values or any(v <= 0 for v in values):
        raise InputError(f"unknown measure {name}: cutoffs after the dot, e.g. "
                         f"{name.partition('.')[0]}.{'5,10' if kind is int else '0.5,1.0'}")
    return values


def group_measures(names, rel_level: float | None = None) -> list[GroupMeasure]:
    """trec_eval's ``-m`` names of the ``qrels_jg`` measures -> one :class:`GroupMeasure` per
    printed value, in trec_eval's order (its measures' order, cutoffs ascending).

    ``qrels_jg`` is the whole set; ``runid`` and ``num_q`` are accepted and printed anyway.
    """
    wanted: dict[str, list] = {}
    for name in ([names] if isinstance(names, str) else names):
        base, dot, params = str(name).strip().partition(".")
        if base == GROUP_SET and not dot:
            wanted.setdefault("map_avgjg", [None])
            wanted.setdefault("P_avgjg", list(P_CUTOFFS))
            wanted.setdefault("Rprec_mult_avgjg", list(RPREC_MULT_CUTOFFS))
        elif base == "map_avgjg" and not dot:
            wanted["map_avgjg"] = [None]
        elif base == "P_avgjg":
            wanted["P_avgjg"] = _numbers(params, int, name) if dot else list(P_CUTOFFS)
        elif base == "Rprec_mult_avgjg":
            wanted["Rprec_mult_avgjg"] = (_numbers(params, float, name) if dot
                                          else list(RPREC_MULT_CUTOFFS))
        elif base not in ("runid", "num_q") or dot:
            raise InputError(f"with --judgment-groups the measures are trec_eval's qrels_jg "
                             f"ones, not {name}",
                             hint="give --measure qrels_jg, map_avgjg, P_avgjg[.5,10] or "
                                  "Rprec_mult_avgjg[.0.2,1.0]")
    if not wanted:
        raise InputError("give --measure qrels_jg (or map_avgjg, P_avgjg, Rprec_mult_avgjg) "
                         "with --judgment-groups")
    rel = 1.0 if rel_level is None else float(rel_level)
    out = []
    for base in GROUP_MEASURES:
        for cut in wanted.get(base, []):
            label = (base if cut is None else f"{base}_{cut:d}" if base == "P_avgjg"
                     else f"{base}_{cut:3.2f}")
            out.append(GroupMeasure(label, base, cut, rel))
    return out


def groups_frame(groups) -> pd.DataFrame:
    """A judgment-groups frame as it is; a path read as trec_eval's qrels_jg file."""
    if isinstance(groups, pd.DataFrame):
        return groups
    if isinstance(groups, (str, Path)):
        from ...formats.judgment_groups import read_judgment_groups

        return read_judgment_groups(groups)
    raise InputError(f"judgment groups must be a frame or a qrels_jg file, not "
                     f"{type(groups).__name__}")


def group_columns(groups: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Judgment columns from a judgment-groups frame (``topic, group, doc, grade``): column
    ``jg<j>`` holds each topic's ``j``-th group (names in byte order, as trec_eval sorts
    them), the grade as the gain, grades below 0 in the pool but unjudged."""
    from ...formats.judgment_groups import GROUP_COLUMNS

    missing = [c for c in GROUP_COLUMNS if c not in groups]
    if missing:
        raise InputError(f"judgment groups need the columns {', '.join(GROUP_COLUMNS)}; "
                         f"missing {', '.join(missing)}")
    frame = groups[list(GROUP_COLUMNS)].astype({"topic": str, "group": str, "doc": str})
    pairs = frame[["topic", "group"]].drop_duplicates()
    pairs = pairs.assign(key=pairs["group"].map(lambda g: g.encode("utf-8")))
    pairs = pairs.sort_values(["topic", "key"], kind="stable")
    pairs["judge"] = [f"jg{j + 1}" for j in pairs.groupby("topic", sort=False).cumcount()]
    labels = frame.merge(pairs[["topic", "group", "judge"]], on=["topic", "group"])
    return judge_columns(labels.rename(columns={"group": "group_name"}))


def average_over_groups(scored: Scored) -> Scored:
    """Each topic's values averaged over the groups that judge it (one column, ``qrels_jg``);
    NaN where none scores it (a topic the run lacks, with ``missing="skip"``)."""
    values = scored.values                                          # (G, M, R, T)
    counted = np.isfinite(values)
    n = counted.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, np.where(counted, values, 0.0).sum(axis=0) / np.maximum(n, 1),
                        np.nan)
    return replace(scored, columns=(GROUP_SET,), values=mean[None],
                   positive=scored.positive.any(axis=0)[None])
