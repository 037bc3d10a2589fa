"""Can this judge replace that one?  Every judge's leaderboard against a reference judge's.

``evalkit assessors --reference NAME`` (``docs/assessors.md``) compares,
per measure, the reference's leaderboard (``assessor:NAME``) with every
other judge's (:func:`reference_judges`), as Voorhees (2000) compared
TREC assessors and Sakai (EVIA 2017, Table 3) two gain definitions:

* rank correlation: Kendall's tau-b, Yilmaz, Aslam & Robertson's (2008)
  tau_ap with the reference as the true ranking, and the share of the
  reference's top ``k`` runs in the judge's top ``k``
  (:mod:`evalkit.stats.leaderboard_agreement`), each with a percentile
  topic-bootstrap interval: both leaderboards recomputed on the same
  resampled topics, drawn from the topics both judges can score;
* significance agreement: for every run pair, the reference's and the
  judge's verdicts (the paired t test with Holm's correction,
  :func:`evalkit.stats.pairwise.paired_pairs`, or the randomised Tukey
  HSD, :func:`evalkit.stats.hsd.randomised_tukey_hsd_many`, the two
  judges on the same permutations) counted as ``both_same_direction``,
  ``reference_only``, ``judge_only``, ``opposite``, ``neither``.

References: Voorhees, E. M. (2000). Variations in relevance judgments and
the measurement of retrieval effectiveness. *IP&M* 36(5), 697-716,
doi:10.1016/S0306-4573(00)00010-8.  Yilmaz, E., Aslam, J. A., & Robertson,
S. (2008). A new rank correlation coefficient for information retrieval.
*SIGIR*, 587-594, doi:10.1145/1390334.1390435.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...errors import InputError, ParameterError
from ...stats.confusion_agreement import percentile_interval, topic_bootstrap
from ...stats.hsd import randomised_tukey_hsd_many
from ...stats.leaderboard_agreement import (bootstrap_means, kendall_tau_b_many, tau_ap_many,
                                            top_k_overlap_many)
from ...stats.pairwise import paired_pairs

__all__ = ["reference_judges", "check_reference", "check_reference_options",
           "compare_with_reference", "judge_correlation", "verdict_counts", "REFERENCE_COLUMNS",
           "VERDICT_COUNTS", "TESTS"]

#: The columns of ``reference.csv``.
REFERENCE_COLUMNS = ["reference", "judge", "measure", "statistic", "value", "ci_low", "ci_high",
                     "topics", "includes_reference"]
#: The five ways two judges' verdicts on one run pair can relate (they sum to the pairs).
VERDICT_COUNTS = ("both_same_direction", "reference_only", "judge_only", "opposite", "neither")
#: The tests behind the verdicts: the paired t test with Holm, or the randomised Tukey HSD.
TESTS = ("t", "hsd")


def check_reference(reference: str, assessors: list[str]) -> str:
    """The judge column of ``reference`` (``assessor:<name>``), or an error naming the judges."""
    if reference not in assessors:
        raise InputError(f"--reference {reference}: no judge of that name; the judges are "
                         + ", ".join(assessors))
    return f"assessor:{reference}"


def check_reference_options(top, bootstrap, test) -> None:
    """``top`` a whole number >= 1, ``bootstrap`` >= 0, ``test`` one of :data:`TESTS`
    (checked before any scoring; ``top`` below the number of runs is checked once they are read)."""
    if test not in TESTS:
        raise ParameterError("test", test, "t (paired t test with Holm) or hsd")
    if isinstance(bootstrap, bool) or int(bootstrap) != bootstrap or bootstrap < 0:
        raise ParameterError("bootstrap", bootstrap, "a whole number >= 0 (0: no interval)")
    if isinstance(top, bool) or int(top) != top or top < 1:
        raise ParameterError("top", top, "a whole number >= 1")


def reference_judges(order: list[str], assessors: list[str], reference: str) -> dict[str, bool]:
    """The judges compared with ``reference``, in report order: ``{judge: holds the reference's
    labels}``.

    Each other ``assessor:<id>`` and ``without:<reference>`` (everyone but
    the reference, pooled: the consensus of the others) are independent of
    the reference; the pooled judges (``all:raw`` ... ``dawid-skene``) and
    ``assessor-mean`` contain its labels and are compared for information
    (flagged ``True``).  The other ``without:<id>`` judges are left out: each
    holds the reference's labels and differs from ``all:raw`` by one assessor.
    """
    own = f"assessor:{reference}"
    out = {}
    for judge in order:
        if judge == own or (judge.startswith("without:") and judge != f"without:{reference}"):
            continue
        out[judge] = not (judge.startswith("assessor:") or judge.startswith("without:"))
    return out


def verdict_counts(ref_diff, ref_significant, judge_diff, judge_significant) -> dict[str, int]:
    """The five counts of two judges' verdicts over the same run pairs.

    ``both_same_direction``: both significant, the differences of one sign;
    ``opposite``: both significant, opposite signs; ``reference_only``,
    ``judge_only``: significant under one judge alone; ``neither``.
    """
    rs, js = np.asarray(ref_significant, bool), np.asarray(judge_significant, bool)
    same = np.sign(np.asarray(ref_diff)) == np.sign(np.asarray(judge_diff))
    return {"both_same_direction": int((rs & js & same).sum()),
            "reference_only": int((rs & ~js).sum()), "judge_only": int((~rs & js).sum()),
            "opposite": int((rs & js & ~same).sum()), "neither": int((~rs & ~js).sum())}


def _statistics(ref: np.ndarray, est: np.ndarray, top: int) -> dict[str, np.ndarray]:
    return {"kendall_tau": kendall_tau_b_many(ref, est), "tau_ap": tau_ap_many(ref, est),
            f"top_{top}_overlap": top_k_overlap_many(ref, est, top)}


def _verdicts(matrices: list[np.ndarray], test: str, alpha: float, trials: int, seed):
    """``(diff, significant)`` per matrix (topics x runs): Holm-corrected paired t tests, or
    the randomised HSD with every matrix on the same permutations."""
    if test == "t":
        out = []
        for x in matrices:
            table = paired_pairs(x, test="t", correction="holm", alpha=alpha)
            out.append((table["diff"].to_numpy(), table["significant"].to_numpy()))
        return out
    tables = randomised_tukey_hsd_many(matrices, n_trials=trials, seed=seed)
    return [(t["diff"].to_numpy(), t["p_value"].to_numpy() < alpha) for t in tables]


def compare_with_reference(per_topic: dict, labels: list[str], judges: dict[str, bool],
                           reference: str, *, top: int = 5, bootstrap: int = 1000, seed=0,
                           alpha: float = 0.05, test: str = "t",
                           trials: int = 5000) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """``(reference.csv, significance_agreement.csv, notes)`` for every judge and measure.

    ``per_topic``: ``{measure: (judges, runs, topics)}`` per-topic values,
    NaN where a judge cannot score a topic; ``labels`` names axis 0;
    ``reference`` is the reference's column.  For a judge, the topics are
    those both it and the reference can score (``topics``).  ``value`` is
    the statistic of the two leaderboards (run means) on those topics;
    ``ci_low``, ``ci_high`` the ``1 - alpha`` percentile interval over
    ``bootstrap`` resamples of them (:func:`topic_bootstrap` from ``seed``:
    every judge with the same number of topics gets the same draws; none
    when ``bootstrap`` is 0).  Verdicts: ``test`` at ``alpha`` (``trials``
    permutations from ``seed`` for the HSD).
    """
    check_reference_options(top, bootstrap, test)
    n_runs = next(iter(per_topic.values())).shape[1]
    if top >= n_runs:
        raise ParameterError("top", top, f"a whole number from 1 to {n_runs - 1} "
                                         f"(below the {n_runs} runs)")
    rows, counts, notes, weights = [], [], [], {}
    r = labels.index(reference)
    ref_name = reference.split(":", 1)[1]
    for measure, values in per_topic.items():
        groups: dict[bytes, list[str]] = {}
        for judge in judges:
            common = (np.isfinite(values[r]).all(axis=0)
                      & np.isfinite(values[labels.index(judge)]).all(axis=0))
            groups.setdefault(common.tobytes(), []).append(judge)
        for key, members in groups.items():
            common = np.frombuffer(key, dtype=bool)
            n = int(common.sum())
            ref = values[r][:, common].T                                   # (T, R)
            mats = [values[labels.index(j)][:, common].T for j in members]
            if n < 2:
                notes.append(f"{measure}: {', '.join(members)} share{'s' if len(members) == 1 else ''}"
                             f" {n} scorable topic(s) with {ref_name}: not compared")
                for judge in members:
                    rows += [(judge, measure, s, np.nan, np.nan, np.nan, n)
                             for s in ("kendall_tau", "tau_ap", f"top_{top}_overlap")]
                    counts.append((judge, measure, *([0] * 5), 0, n))
                continue
            if bootstrap and n not in weights:
                weights[n] = topic_bootstrap(n, int(bootstrap), seed)
            verdicts = _verdicts([ref, *mats], test, alpha, trials, seed)
            ref_means = bootstrap_means(ref, np.ones((1, n)))
            ref_boot = bootstrap_means(ref, weights[n]) if bootstrap else None
            for judge, x, (diff, sig) in zip(members, mats, verdicts[1:]):
                point = _statistics(ref_means, bootstrap_means(x, np.ones((1, n))), top)
                if bootstrap:
                    boot = _statistics(ref_boot, bootstrap_means(x, weights[n]), top)
                for stat, value in point.items():
                    low, high = (percentile_interval(boot[stat], 1 - alpha) if bootstrap
                                 else (np.nan, np.nan))
                    rows.append((judge, measure, stat, float(value[0]), float(low), float(high), n))
                c = verdict_counts(*verdicts[0], diff, sig)
                counts.append((judge, measure, *c.values(), len(diff), n))
    frame = pd.DataFrame(rows, columns=REFERENCE_COLUMNS[1:-1])
    table = pd.DataFrame(counts, columns=["judge", "measure", *VERDICT_COUNTS, "pairs", "topics"])
    order = {j: i for i, j in enumerate(judges)}
    out = []
    for f in (frame, table):
        f = f.sort_values(["measure", "judge"], key=lambda s: s.map(order) if s.name == "judge"
                          else s.map({m: i for i, m in enumerate(per_topic)}), kind="stable")
        f.insert(0, "reference", ref_name)
        f["includes_reference"] = f["judge"].map(judges)
        out.append(f.reset_index(drop=True))
    return out[0], out[1], notes


def judge_correlation(per_topic: dict, labels: list[str], judges: list[str]) -> pd.DataFrame:
    """``measure, judge_a, judge_b, kendall_tau, topics``: Kendall's tau-b between the
    leaderboards of every two of ``judges`` (both ways round, and each with itself), each pair
    on the topics both can score, as in ``reference.csv``; NaN with fewer than two topics or a
    leaderboard that ties every run."""
    index = [labels.index(j) for j in judges]
    pairs = [(i, j) for i in range(len(judges)) for j in range(i, len(judges))]
    rows = []
    for measure, values in per_topic.items():
        ok = np.isfinite(values[index]).all(axis=1)                        # (J, T)
        means_a, means_b, shared = [], [], []
        for i, j in pairs:
            common = ok[i] & ok[j]
            shared.append(int(common.sum()))
            ones = np.ones((1, shared[-1]))
            with np.errstate(invalid="ignore", divide="ignore"):      # no shared topic: NaN
                means_a.append(bootstrap_means(values[index[i]][:, common].T, ones)[0])
                means_b.append(bootstrap_means(values[index[j]][:, common].T, ones)[0])
        tau = np.full(len(pairs), np.nan)
        fine = np.array(shared) >= 2
        if fine.any():
            tau[fine] = kendall_tau_b_many(np.array(means_a)[fine], np.array(means_b)[fine])
        for (i, j), t, n in zip(pairs, tau, shared):
            rows.append((measure, judges[i], judges[j], t, n))
            if i != j:
                rows.append((measure, judges[j], judges[i], t, n))
    return pd.DataFrame(rows, columns=["measure", "judge_a", "judge_b", "kendall_tau", "topics"])
