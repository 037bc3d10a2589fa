"""How many reference topics (``evalkit estimate --plan WIDTH``): the ``n`` a width takes.

From the variances estimated on the present ``n0`` reference topics and
``T`` topics, the interval's width at ``n`` reference topics (and ``T - n``
others) is ``2 * q * SE(n)`` with ``q`` the interval's quantile (``z`` or
``t_{n-1}``; ``t_{n-1}`` for ``bootstrap-t``, whose quantiles at another ``n`` no
resample of the present topics gives) and

* ``classical``: ``SE(n)^2 = var(Y) / n``;
* ``ppi++``: ``SE(n)^2 = var(Y - lam Yh) / n + lam^2 var(Yh) / (T - n)``,
  ``lam = lam(n) = cov(Y, Yh) / ((1 + n / (T - n)) var(Yh))`` clipped to
  [0, 1] (PPI++'s tuning at that ``n``; ``var(Yh)`` over all ``T`` topics).

The plan is the smallest ``n`` in ``2..T`` with a width at most ``WIDTH``
(NaN when even ``T`` does not reach it).  It is an estimate resting on an
assumption, which the table states: the variances seen on the present
reference topics hold for the topics still to label, and those are drawn at
random from the same topics.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats.prediction_powered import quantile

__all__ = ["PLAN_METHODS", "ASSUMPTION", "plan_widths", "plan_table", "plan_summary"]

#: The methods a plan compares.
PLAN_METHODS = ("classical", "ppi++")

#: What every plan row rests on.
ASSUMPTION = ("variances of the present reference topics hold for the new ones; topics to "
              "label drawn at random")


def plan_widths(y, yhat, yhat_all, alpha: float, interval: str) -> dict[str, np.ndarray]:
    """``{method: widths}`` at ``n = 2..T`` (index ``n - 2``), over the leading axes.

    ``y``, ``yhat``: ``(..., n0)`` reference and proxy scores on the reference
    topics; ``yhat_all``: ``(..., T)`` the proxy's scores on every topic.
    """
    ddof = 0 if interval == "normal" else 1
    big_t = yhat_all.shape[-1]
    n = np.arange(2, big_t + 1, dtype=float)
    q = quantile(alpha, "t" if interval == "bootstrap-t" else interval, n - 1)
    var_y = y.var(-1, ddof=ddof)[..., None]
    cov = ((y - y.mean(-1, keepdims=True)) * (yhat - yhat.mean(-1, keepdims=True))).sum(-1)
    cov = (cov / (y.shape[-1] - ddof))[..., None]
    var_h = yhat.var(-1, ddof=ddof)[..., None]
    var_all = yhat_all.var(-1, ddof=ddof)[..., None]
    rest = big_t - n
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = np.where((var_all > 0) & (rest > 0),
                       cov / ((1 + n / np.where(rest > 0, rest, 1)) * var_all), 0.0)
        lam = np.clip(np.nan_to_num(lam), 0, 1)
        se2 = ((var_y - 2 * lam * cov + lam ** 2 * var_h) / n
               + np.where(rest > 0, lam ** 2 * var_all / np.where(rest > 0, rest, 1), 0.0))
    return {"classical": 2 * q * np.sqrt(var_y / n), "ppi++": 2 * q * np.sqrt(np.maximum(se2, 0))}


def _smallest(widths: np.ndarray, width: float) -> np.ndarray:
    ok = widths <= width
    return np.where(ok.any(-1), ok.argmax(-1) + 2, -1)


def plan_table(scores, width: float, alpha: float = 0.05, interval: str = "normal") -> pd.DataFrame:
    """Rows ``run, measure, method, width, reference_topics_needed, topics, width_now,
    reference_topics_now, assumption``."""
    every = np.concatenate([scores.proxy_labelled, scores.proxy_unlabelled], axis=-1)
    widths = plan_widths(scores.reference, scores.proxy_labelled, every, alpha, interval)
    rows = []
    for m, measure in enumerate(scores.measures):
        for r, run in enumerate(scores.runs):
            for method in PLAN_METHODS:
                w = widths[method][m, r]
                need = int(_smallest(w, width))
                rows.append({"run": run, "measure": measure, "method": method, "width": width,
                             "reference_topics_needed": need if need > 0 else np.nan,
                             "topics": scores.topics, "width_now": w[scores.n - 2],
                             "reference_topics_now": scores.n, "assumption": ASSUMPTION})
    return pd.DataFrame(rows)


def plan_summary(plan: pd.DataFrame, scores) -> list[str]:
    """Per measure and method: the reference topics every run's interval needs."""
    lines = []
    for (measure, method), part in plan.groupby(["measure", "method"], sort=False):
        need = part["reference_topics_needed"]
        text = (f"{int(need.max())}" if need.notna().all() else
                f"more than the {scores.topics} topics for {int(need.isna().sum())} run(s)")
        lines.append(f"{measure}, {method}: an interval at most {part['width'].iloc[0]:g} wide "
                     f"for every run takes {text} reference topics (now {scores.n}); an estimate "
                     f"assuming the {ASSUMPTION}")
    return lines
