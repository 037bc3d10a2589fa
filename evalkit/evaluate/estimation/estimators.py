"""Every run's reference-judged score four ways: ``classical``, ``proxy``, ``ppi``, ``ppi++``.

On the per-topic scores of :class:`~evalkit.evaluate.estimation.topic_scores.TopicScores`
(``n`` reference topics, ``N`` others, ``T = n + N``):

* ``classical``: the mean of the reference's scores on its ``n`` topics, the
  CLT interval (ppi-python's ``classical_mean_ci``);
* ``proxy``: the mean of the proxy's scores on all ``T`` topics, the CLT
  interval: what the proxy alone says, biased by whatever its errors are;
* ``ppi``: prediction-powered inference, ``lam = 1`` (ppi-python's ``ppi_mean_ci(lam=1)``);
* ``ppi++``: ``lam`` power-tuned and clipped to [0, 1] (``ppi_mean_ci(lam=None)``).

The formulas are :mod:`evalkit.stats.prediction_powered`'s; ``interval="bootstrap-t"``
takes the intervals and p-values from :mod:`evalkit.stats.bootstrap_t` (``resamples``,
``seed``).  Each row also
gives ``lambda`` and ``effective_reference_topics``, ``var(Y) / se^2``: how
many reference topics alone would give the interval's standard error.
:func:`estimate_rows` also works on the differences of two runs
(:mod:`~evalkit.evaluate.estimation.pairs`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...stats.prediction_powered import MeanEstimate, classical_mean, prediction_powered_mean

__all__ = ["METHODS", "PROXY_NOTE", "method_estimates", "estimates_table", "sampling_note",
           "welch_p"]

#: The methods, in the order of the tables.
METHODS = ("classical", "proxy", "ppi", "ppi++")

#: What a proxy row says about itself.
PROXY_NOTE = "biased: the proxy judge alone, uncorrected"


def method_estimates(reference, proxy_labelled, proxy_unlabelled, alpha: float,
                     interval: str, resamples: int = 1000, seed=0,
                     own_axes: int = 0) -> dict[str, MeanEstimate]:
    """``{method: MeanEstimate}`` over the leading axes of the ``(..., n)`` and ``(..., N)``
    arrays; ``resamples``, ``seed`` and ``own_axes`` serve ``interval="bootstrap-t"``
    (:func:`evalkit.stats.bootstrap_t.bootstrap_t_means`)."""
    if interval == "bootstrap-t":
        from ...stats.bootstrap_t import bootstrap_t_means

        return bootstrap_t_means(reference, proxy_labelled, proxy_unlabelled, alpha, resamples,
                                 seed, own_axes)
    every = np.concatenate([proxy_labelled, proxy_unlabelled], axis=-1)
    return {
        "classical": classical_mean(reference, alpha, interval),
        "proxy": classical_mean(every, alpha, interval),
        "ppi": prediction_powered_mean(reference, proxy_labelled, proxy_unlabelled, 1.0, alpha,
                                       interval),
        "ppi++": prediction_powered_mean(reference, proxy_labelled, proxy_unlabelled, None,
                                         alpha, interval),
    }


def used_topics(method: str, n: int, topics: int) -> tuple[int, int]:
    """``(reference topics, topics)`` a method's estimate rests on."""
    return {"classical": (n, n), "proxy": (0, topics)}.get(method, (n, topics))


def estimates_table(scores, alpha: float = 0.05, interval: str = "normal",
                    resamples: int = 1000, seed: int = 0) -> pd.DataFrame:
    """Rows ``run, measure, method, estimate, ci_low, ci_high, reference_topics, topics,
    effective_reference_topics, lambda, note``: one per run, measure and method."""
    found = method_estimates(scores.reference, scores.proxy_labelled, scores.proxy_unlabelled,
                             alpha, interval, resamples, seed)
    rows = []
    for m, measure in enumerate(scores.measures):
        for r, run in enumerate(scores.runs):
            for method in METHODS:
                e = found[method]
                n_ref, topics = used_topics(method, scores.n, scores.topics)
                rows.append({"run": run, "measure": measure, "method": method,
                             "estimate": e.estimate[m, r], "ci_low": e.low[m, r],
                             "ci_high": e.high[m, r], "reference_topics": n_ref, "topics": topics,
                             "effective_reference_topics": (np.nan if method == "proxy"
                                                            else e.effective_n[m, r]),
                             "lambda": np.nan if method == "proxy" else e.lam[m, r],
                             "note": PROXY_NOTE if method == "proxy" else ""})
    return pd.DataFrame(rows)


def sampling_note(scores, alpha: float = 0.05) -> list[str]:
    """The assumption the intervals rest on, and a warning where the data speak against it.

    Under random sampling the proxy's scores (mean over runs, per topic) of
    the reference topics and of the others come from one distribution; a
    Welch t-test at ``alpha`` that says otherwise is reported per measure
    (:func:`welch_p`).
    """
    notes = [f"the intervals assume the {scores.n} reference topics are a random sample of the "
             f"{scores.topics} topics; if they were chosen otherwise (the first ones, the easy "
             "ones, the judged pool of some runs), ppi and classical may be biased"]
    for m, measure in enumerate(scores.measures):
        a = scores.proxy_labelled[m].mean(0)
        b = scores.proxy_unlabelled[m].mean(0)
        if np.ptp(np.concatenate([a, b])) == 0:
            continue
        p = welch_p(a, b)
        if p < alpha:
            notes.append(f"{measure}: the reference topics do not look randomly sampled: the "
                         f"proxy's mean per topic is {a.mean():.4f} on them and {b.mean():.4f} on "
                         f"the others (Welch p = {p:.2g}); the intervals assume a random sample")
    return notes


def welch_p(a, b) -> float:
    """Welch's two-sided t-test p-value (``scipy.stats.ttest_ind(a, b, equal_var=False)``'s,
    tested): ``t = (mean a - mean b) / sqrt(va/na + vb/nb)`` (``ddof = 1``), the
    Welch-Satterthwaite degrees of freedom."""
    from scipy import special

    a, b = np.asarray(a, float), np.asarray(b, float)
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    if va + vb == 0:
        return 1.0 if a.mean() == b.mean() else 0.0
    t = (a.mean() - b.mean()) / np.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (a.size - 1) + vb ** 2 / (b.size - 1))
    return float(2 * special.stdtr(df, -abs(t)))
