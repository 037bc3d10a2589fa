"""The per-topic scores ``evalkit estimate`` estimates from, and the checks of its inputs.

Every run is scored under the reference judge and the proxy judge by
:func:`evalkit.evaluate.scoring.engine.score` (``per_judge``, ``per_topic``,
``missing="skip"``), exactly as ``evalkit score --per-judge --per-topic``
scores them.  Prediction-powered inference (Angelopoulos et al. 2023) then
takes two samples of topics: the ``n`` topics the reference judged
(``reference`` and ``proxy_labelled`` scores) and the ``N`` other topics the
proxy judged (``proxy_unlabelled`` scores).

Refused in one line (:class:`~evalkit.errors.InputError`, exit 2, nothing
written): a reference or proxy that is not among the judges, a reference
with no topic in common with the proxy, a proxy that lacks some reference
topics, fewer than 2 reference topics or fewer than 2 other topics, and a
run that does not return every topic (or a measure that cannot score one,
as NTCIREVAL's measures cannot score a topic without a relevant document).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...errors import InputError

__all__ = ["TopicScores", "check_judges", "topic_scores"]


@dataclass(frozen=True)
class TopicScores:
    """Per-topic scores, arrays ``(M, R, topics)``: measures and runs in the given order."""

    measures: tuple[str, ...]
    runs: tuple[str, ...]
    labelled: tuple[str, ...]          # the reference's topics (sorted)
    unlabelled: tuple[str, ...]        # the proxy's other topics (sorted)
    reference: np.ndarray              # (M, R, n) the reference judge's scores
    proxy_labelled: np.ndarray         # (M, R, n) the proxy's scores on the same topics
    proxy_unlabelled: np.ndarray       # (M, R, N) the proxy's scores on the other topics

    @property
    def n(self) -> int:
        return len(self.labelled)

    @property
    def topics(self) -> int:
        return len(self.labelled) + len(self.unlabelled)

    def frame(self) -> pd.DataFrame:
        """Rows ``run, measure, topic, reference, proxy`` (reference NaN where it did not judge)."""
        rows = []
        topics = np.array(self.labelled + self.unlabelled, dtype=object)
        for m, measure in enumerate(self.measures):
            for r, run in enumerate(self.runs):
                ref = np.concatenate([self.reference[m, r], np.full(len(self.unlabelled), np.nan)])
                prox = np.concatenate([self.proxy_labelled[m, r], self.proxy_unlabelled[m, r]])
                rows.append(pd.DataFrame({"run": run, "measure": measure, "topic": topics,
                                          "reference": ref, "proxy": prox}))
        return pd.concat(rows, ignore_index=True)


def _where(sources: dict, name: str) -> str:
    return f" ({sources[name]})" if sources.get(name) else ""


def _some(items, k: int = 5) -> str:
    items = sorted(map(str, items))
    return ", ".join(items[:k]) + (" ..." if len(items) > k else "")


def check_judges(labels: pd.DataFrame, reference: str, proxy: str,
                 sources: dict | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(labelled, unlabelled)`` topics of ``labels`` (``topic, judge, doc, grade``), or an
    :class:`InputError` naming the judge and its file (``sources``: ``{name: path}``)."""
    sources = sources or {}
    names = sorted(labels["judge"].unique())
    for role, name in (("--reference", reference), ("--proxy", proxy)):
        if name is None:
            raise InputError(f"give {role} NAME: one of the judges ({', '.join(names)})")
        if name not in names:
            raise InputError(f"{role} {name} is not among the judges ({', '.join(names)})",
                             hint="give it with --judge NAME=FILE")
    if reference == proxy:
        raise InputError(f"--reference and --proxy are the same judge, {reference}",
                         hint="the reference is the humans, the proxy the judge that labels "
                              "every topic (an LLM)")
    ref = set(labels.loc[labels["judge"] == reference, "topic"].astype(str))
    prox = set(labels.loc[labels["judge"] == proxy, "topic"].astype(str))
    if not ref & prox:
        raise InputError(f"the reference judge {reference}{_where(sources, reference)} has no "
                         f"topic in common with the proxy judge {proxy}{_where(sources, proxy)}",
                         hint="check that both judge the same collection's topic ids")
    if ref - prox:
        raise InputError(f"the proxy judge {proxy}{_where(sources, proxy)} lacks {len(ref - prox)} "
                         f"of the reference judge's {len(ref)} topics: {_some(ref - prox)}",
                         hint="the proxy must label every topic, the reference's too")
    if len(ref) < 2:
        raise InputError(f"the reference judge {reference}{_where(sources, reference)} judged "
                         f"{len(ref)} topic; an interval needs at least 2",
                         hint="label at least 2 topics by hand (evalkit estimate --plan says "
                              "how many give the width you want)")
    if len(prox - ref) < 2:
        raise InputError(f"the proxy judge {proxy}{_where(sources, proxy)} judged "
                         f"{len(prox - ref)} topic(s) beyond the reference's {len(ref)}; "
                         "prediction-powered inference needs at least 2",
                         hint="with every topic judged by the reference, evalkit score gives "
                              "its scores")
    return tuple(sorted(ref)), tuple(sorted(prox - ref))


def topic_scores(runs, labels: pd.DataFrame, reference: str, proxy: str, measures,
                 order: str = "score", sources: dict | None = None) -> TopicScores:
    """Score ``runs`` under ``reference`` and ``proxy`` (two judges of ``labels``), per topic."""
    from ..scoring.engine import score

    labelled, unlabelled = check_judges(labels, reference, proxy, sources)
    two = labels[labels["judge"].isin([reference, proxy])]
    two.attrs.update(labels.attrs)
    measures = tuple(dict.fromkeys(measures))
    scores = score(runs, judges=two, per_judge=True, per_topic=True, measures=measures,
                   order=order, missing="skip")
    scores = scores[scores["topic"] != "all"]
    runs_ = tuple(sorted(scores["run"].unique()))
    topics = labelled + unlabelled
    table = {}
    for judge, wanted in ((reference, labelled), (proxy, topics)):
        part = scores[scores["judge"] == judge]
        wide = part.set_index(["measure", "run", "topic"])["value"].unstack("topic")
        wide = wide.reindex(index=pd.MultiIndex.from_product([measures, runs_]),
                            columns=list(wanted))
        values = wide.to_numpy(dtype=float).reshape(len(measures), len(runs_), len(wanted))
        _check_complete(values, judge, measures, runs_, wanted, sources or {})
        table[judge] = values
    n = len(labelled)
    return TopicScores(measures, runs_, labelled, unlabelled, table[reference],
                       table[proxy][..., :n], table[proxy][..., n:])


def _check_complete(values, judge, measures, runs, topics, sources) -> None:
    """Every run scored on every topic under ``judge``, or one line saying what is missing."""
    missing = np.isnan(values)
    if not missing.any():
        return
    m, r, t = (int(i[0]) for i in np.nonzero(missing))
    lacking = [topics[k] for k in np.nonzero(missing[m, r])[0]]
    if missing[m, :, t].all():
        raise InputError(f"{measures[m]} cannot score topic {topics[t]} under judge "
                         f"{judge}{_where(sources, judge)} for any run (no run returns it, or "
                         "it has no relevant document, which NTCIREVAL's measures leave out)",
                         hint="give runs for every topic, or a trec_eval measure such as nDCG@10")
    raise InputError(f"run {runs[r]} lacks {len(lacking)} of the {len(topics)} topics judged by "
                     f"{judge}: {_some(lacking)}",
                     hint="every run must return every topic (a topic a run lacks would count "
                          "0 for one judge and not the other)")
