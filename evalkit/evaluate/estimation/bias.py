"""Does the proxy judge favour a run? (``evalkit estimate --bias``)

On the ``n`` topics both judges judged, run ``r``'s per-topic difference is
``d_rt = proxy_rt - reference_rt``.  Per run:

* ``shift``: ``mean_t d_rt``, with a percentile topic-bootstrap interval
  (``bootstrap`` resamples of the ``n`` topics, ``seed``); ``loa_low``,
  ``loa_high``: Bland & Altman's limits of agreement ``shift +- 1.96 sd(d_r)``
  (*Statistical methods for assessing agreement between two methods of
  clinical measurement*, Lancet 327, 1986, doi:10.1016/S0140-6736(86)90837-8);
* ``relative_shift``: ``mean_t (d_rt - med_t(r))``, where ``med_t(r)`` is the
  median of the *other* runs' ``d_st`` on topic ``t``.  A lenient judge
  shifts every run, so the null is not zero but the others' shift (the run x
  judge interaction); the median keeps one favoured run from making every
  other run look disfavoured;
* ``p_value``: a randomisation test over topics of ``relative_shift``: under
  the null the runs' ``e_st = d_st - med_t(s)`` are exchangeable within each
  topic, so each of ``trials`` draws picks one run at random per topic and
  averages its ``e``; two-sided, ``(1 + #extreme) / (1 + trials)`` per tail,
  doubled; ``p_holm``: Holm over the runs, per measure.

A randomisation test over topics as Carterette (*Multiple testing in
statistical analysis of systems-based information retrieval experiments*,
TOIS 30, 2012) uses them for runs; the question is Clarke & Dietz's
(*LLM-based relevance assessment still can't replace human relevance
assessment*, arXiv:2412.17156, 2024) and Balog, Metzler & Qin's (*Rankers,
judges, and assistants*, SIGIR 2025): does an LLM judge reward some systems
more than the humans do.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats.pairwise import _holm as holm

__all__ = ["relative_shifts", "bias_table", "bias_summary"]

#: Randomisation draws held in memory at once (draws x topics indices).
_CHUNK = 2000


def relative_shifts(d: np.ndarray) -> np.ndarray:
    """``e_rt = d_rt - median_{s != r} d_st`` of ``d`` ``(R, n)``; ``d`` itself for one run."""
    runs = d.shape[0]
    if runs < 2:
        return d.copy()
    others = np.stack([np.median(np.delete(d, r, axis=0), axis=0) for r in range(runs)])
    return d - others


def _randomisation_p(e: np.ndarray, trials: int, rng: np.random.Generator) -> np.ndarray:
    """Two-sided p of each run's ``mean_t e_rt`` against one run drawn per topic."""
    runs, n = e.shape
    observed = e.mean(1)
    above = np.zeros(runs)
    below = np.zeros(runs)
    done = 0
    while done < trials:
        k = min(_CHUNK, trials - done)
        pick = rng.integers(0, runs, size=(k, n))
        null = e[pick, np.arange(n)].mean(1)                                   # (k,)
        above += (null[:, None] >= observed[None, :] - 1e-12).sum(0)
        below += (null[:, None] <= observed[None, :] + 1e-12).sum(0)
        done += k
    return np.minimum(1.0, 2 * np.minimum(above + 1, below + 1) / (trials + 1))


def bias_table(scores, alpha: float = 0.05, bootstrap: int = 1000, trials: int = 5000,
               seed: int = 0) -> pd.DataFrame:
    """Rows ``run, measure, shift, ci_low, ci_high, p_value, p_holm, relative_shift,
    loa_low, loa_high, topics``: one per run and measure."""
    rng = np.random.default_rng(seed)
    n = scores.n
    rows = []
    for m, measure in enumerate(scores.measures):
        d = scores.proxy_labelled[m] - scores.reference[m]                     # (R, n)
        resample = rng.integers(0, n, size=(bootstrap, n))
        boot = d[:, resample].mean(-1)                                          # (R, B)
        low, high = np.quantile(boot, [alpha / 2, 1 - alpha / 2], axis=1)
        e = relative_shifts(d)
        p = (_randomisation_p(e, trials, rng) if d.shape[0] > 1
             else np.full(d.shape[0], np.nan))
        adjusted = holm(p) if d.shape[0] > 1 else p
        sd = d.std(1, ddof=1)
        for r, run in enumerate(scores.runs):
            shift = d[r].mean()
            rows.append({"run": run, "measure": measure, "shift": shift, "ci_low": low[r],
                         "ci_high": high[r], "p_value": p[r], "p_holm": adjusted[r],
                         "relative_shift": e[r].mean(), "loa_low": shift - 1.96 * sd[r],
                         "loa_high": shift + 1.96 * sd[r], "topics": n})
    return pd.DataFrame(rows)


def bias_summary(bias: pd.DataFrame, alpha: float) -> list[str]:
    """Per measure: the runs the proxy favours or disfavours beyond the others (Holm)."""
    lines = []
    for measure, part in bias.groupby("measure", sort=False):
        flagged = part[part["p_holm"] < alpha]
        said = ", ".join(f"{r.run} ({'favoured' if r.relative_shift > 0 else 'disfavoured'}, "
                         f"{r.relative_shift:+.4f} beyond the others, p_holm {r.p_holm:.3g})"
                         for r in flagged.itertuples()) or "none"
        lines.append(f"{measure}: the proxy shifts the runs by {part['shift'].median():+.4f} "
                     f"(median over runs); runs it treats differently from the others at "
                     f"alpha {alpha:g} after Holm: {said}")
    return lines
