"""LLMJudge 2024's 33 LLM judges as proxies for its human labels: what each is worth in human
topics, and the circularity experiment.

The labels are real (human labels and 33 public LLM judges on one pool of 25
topics, :mod:`evalkit.papers.llmjudge2024.labels`); the runs are **simulated**
over the judged pool (:func:`evalkit.evaluate.estimation.judge_panel.pool_runs`,
as the real-data chapter builds its runs), since no system runs were released
with the challenge.  Every number here rests on those simulated runs: a worked
example of the method on real labels, not a verdict on a paper's claim.

* :func:`judge_agreement`: each judge's ordinal Krippendorff alpha with the
  human labels (``evalkit agreement``), the order of the figures;
* :func:`panel`: the runs (simulated ones and a circular run that ranks the
  pool by one judge's own labels) scored per topic under the humans and every
  judge;
* :func:`width_table`: per judge and ``n`` human topics, PPI's and PPI++'s
  interval width over the humans-only one
  (:func:`~evalkit.evaluate.estimation.judge_panel.width_ratios`) and the
  number of human topics PPI++ is worth, ``n / ratio^2``;
* :func:`circularity_table`: the bias test (:mod:`evalkit.evaluate.estimation.bias`)
  of the circular run under every judge, its own first.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import pandas as pd

from ...evaluate.estimation.judge_panel import circular_run, circularity, panel_scores, pool_runs
from ...errors import EvalkitNote

__all__ = ["Panel", "judge_agreement", "panel", "width_table", "circularity_table",
           "singled_out"]


@dataclass(frozen=True)
class Panel:
    """Per-topic scores: ``names`` (runs), ``topics``, ``human`` ``(R, T)``, ``judges``
    ``{judge: (R, T)}``, the circular run's name and its judge."""

    names: tuple
    topics: tuple
    human: object
    judges: dict
    circular: str
    own: str


def judge_agreement(labels: pd.DataFrame, human: str) -> pd.DataFrame:
    """``judge, alpha``: ordinal Krippendorff alpha with ``human``, highest first."""
    from ...evaluate.judge_agreement.tables import agreement_table

    table = agreement_table(labels, reference=human, cuts=(), bootstrap=0)
    rows = table[table["statistic"] == "alpha_ordinal"]
    out = rows[["judge", "value"]].rename(columns={"value": "alpha"})
    return out.sort_values("alpha", ascending=False, kind="stable").reset_index(drop=True)


def panel(labels: pd.DataFrame, human: str, judges, own: str, seed: int, n_runs: int = 20,
          n_teams: int = 8, measure: str = "nDCG@10") -> Panel:
    """``n_runs`` simulated runs of ``n_teams`` teams over the human pool and the circular run
    of judge ``own``, scored under the humans and every judge (the scorer's notes on gains and
    unjudged documents are the same for every call and are not repeated here)."""
    circular = f"circular-{own}"
    runs = pd.concat([pool_runs(labels, human, seed, n_runs=n_runs, n_teams=n_teams),
                      circular_run(labels, own, seed, name=circular)], ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EvalkitNote)
        names, topics, reference, proxies = panel_scores(runs, labels, human, list(judges),
                                                         measure)
    return Panel(names, topics, reference, proxies, circular, own)


def width_table(p: Panel, order, ns=(5, 10, 15), draws: int = 200, seed: int = 0,
                alpha: float = 0.05) -> pd.DataFrame:
    """``judge, alpha_ordinal, n, method, width_ratio, worth_topics``: the mean PPI (PPI++)
    interval width over the humans-only one at ``n`` random human topics (``draws`` random
    sets; the circular run left out), and ``worth_topics = n / width_ratio^2``, the human
    topics a classical interval of that width needs; judges in ``order`` (a ``judge, alpha``
    frame)."""
    from ...evaluate.estimation.judge_panel import width_ratios

    keep = [k for k, name in enumerate(p.names) if name != p.circular]
    widths = width_ratios(p.human[keep], {j: v[keep] for j, v in p.judges.items()}, ns, draws,
                          seed, alpha)
    widths["worth_topics"] = widths["n"] / widths["width_ratio"] ** 2
    out = widths.merge(order.rename(columns={"alpha": "alpha_ordinal"}), on="judge")
    rank = {j: k for k, j in enumerate(order["judge"])}
    out = out.sort_values(["n", "method", "judge"], key=lambda s: s.map(rank)
                          if s.name == "judge" else s, kind="stable")
    return out[["judge", "alpha_ordinal", "n", "method", "width_ratio", "worth_topics"]
               ].reset_index(drop=True)


def circularity_table(p: Panel, trials: int, seed: int, alpha: float = 0.05) -> pd.DataFrame:
    """The circular run's row of the bias test under every judge (Holm over the runs within
    each judge), its own judge first, then by p-value."""
    table = circularity(p.names, p.topics, p.human, p.judges, p.circular, trials, seed, alpha)
    table["own_judge"] = table["judge"] == p.own
    table = table.sort_values(["own_judge", "p_holm", "shift"], ascending=[False, True, False],
                              kind="stable")
    return table.reset_index(drop=True)


def singled_out(table: pd.DataFrame, alpha: float = 0.05) -> dict:
    """``{own, own_p_holm, others, others_singled_out}``: whether the bias test singles the
    circular run out (``p_holm < alpha``) for its own judge and for how many of the others."""
    own = table[table["own_judge"]].iloc[0]
    others = table[~table["own_judge"]]
    return {"own": own["judge"], "own_shift": float(own["shift"]),
            "own_p_holm": float(own["p_holm"]), "others": len(others),
            "others_singled_out": int((others["p_holm"] < alpha).sum())}
