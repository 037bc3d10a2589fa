"""Kim's question on real judgments: does combining the LLM judges beat the best single one?

Kim, Zhai & Han (ECIR 2010) aggregate several judges' orderings into one
reference; here 33 LLM judges' grades are combined per item
(:func:`combined_labels`).  The library's consensus rules
(:func:`evalkit.evaluate.judge_agreement.consensus.consensus_table`, ``evalkit
agreement --consensus``) give the **majority** grade (ties to the lower), the
(lower) **median**, the **mean** rounded to the nearest grade (halves down;
33 judges never give a half) and the **Dawid-Skene** consensus, each made of
the judges :func:`~evalkit.evaluate.judge_agreement.consensus.entering_judges`
lets in: every LLM judge, **the human reference left out**, so a consensus
measured against the humans does not contain them.  The chapter adds the
**team median** (each team's runs first reduced to their lower median, so
that a team that submitted eleven runs of one set-up votes once) and Sakai's
**unanimity-aware gain** UG = RawG + p N (Dmax - D) (EVIA 2017, Eq. 2) put on
the 0-3 scale by dividing by its largest value N Dmax (1 + p) / Dmax and
rounding half up.  Each is scored against the human labels like a judge.

The best single judge must be **chosen fairly**: the judge with the highest
ordinal alpha on the *other* topics (:func:`fair_best_single`: the topics in
``folds`` seeded folds; each fold's labels come from the judge chosen on the
rest), not on the topics it is scored on (the oracle's choice, shown as an
optimistic bound).  :func:`combining_table` scores every contender with the
library's :func:`~evalkit.evaluate.judge_agreement.tables.agreement_table` and adds the
paired topic-bootstrap interval of its difference from the fairly chosen
judge (the same resampled topics for both).  :func:`split_draws` repeats the
comparison over seeded splits, each with the paired randomisation test over
topics (:func:`~.best_judge.randomisation_p`, Holm over the combiners), and
:func:`consensus_summary` gathers the library's rules' answers.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...declare.claims import interval_verdict
from ...evaluate.judge_agreement.consensus import consensus_table, entering_judges
from ...evaluate.judge_agreement.grid import as_grid
from ...evaluate.judge_agreement.tables import agreement_table
from ...measures import gains
from ...stats.confusion_agreement import (alpha_from_confusion, percentile_interval,
                                          topic_bootstrap)
from ...stats.pairwise import _holm
from .best_judge import randomisation_p
from .labels import GRADES, HUMAN, LabelMatrix, team_of

__all__ = ["COMBINERS", "LIBRARY_RULES", "CONSENSUS_RULES", "FAIR", "ORACLE", "SPLIT_LEVELS",
           "combined_labels", "fair_best_single", "long_labels", "per_topic_confusions",
           "combining_table", "split_draws", "split_summary", "consensus_summary"]

#: The combiners, in the tables' order.
COMBINERS = ("majority", "median", "team median", "mean", "dawid-skene", "ug")
#: The combiners that are the library's consensus rules (``evalkit agreement --consensus``).
LIBRARY_RULES = ("majority", "median", "mean", "dawid-skene")
#: The consensus rules the chapter's answer reports (majority, median and Dawid-Skene).
CONSENSUS_RULES = ("majority", "median", "dawid-skene")
#: The names of the fairly chosen and of the oracle's best single judge.
FAIR, ORACLE = "best single (chosen on other topics)", "best single (oracle)"


def _lower_median(x: np.ndarray) -> np.ndarray:
    """Per row, the lower median (the middle grade; of the two middle ones, the lower)."""
    return np.sort(x, axis=1)[:, (x.shape[1] - 1) // 2]


def _half_up(x: np.ndarray) -> np.ndarray:
    return np.floor(np.asarray(x, dtype=float) + 0.5).astype(np.int64)


def combined_labels(m: LabelMatrix, p: float = 0.2, dmax: int = GRADES[1]) -> dict[str, np.ndarray]:
    """``{combiner: grade per item}`` (items in ``m``'s order) from the LLM judges' grades.

    The :data:`LIBRARY_RULES` are the library's ``consensus_table`` over the judges
    ``entering_judges`` lets in from ``m``'s labels with the human reference among them: the
    reference is left out by the library, so the result does not depend on ``m.human``.
    """
    llm = m.llm
    n = llm.shape[1]
    labels = as_grid(long_labels(m, {j: llm[:, k] for k, j in enumerate(m.judges)}))  # + human
    entering = entering_judges(labels, HUMAN)
    keys = pd.MultiIndex.from_arrays([m.topics.astype(str), m.docs.astype(str)])
    rules = {rule: consensus_table(labels, rule, entering).set_index(["topic", "doc"])["grade"]
             .reindex(keys).to_numpy(dtype=np.int64) for rule in LIBRARY_RULES}
    ug = gains.unanimity_gain(llm.astype(float), dmax, p)
    teams = pd.unique(pd.Series([team_of(j) for j in m.judges]))
    per_team = np.column_stack([_lower_median(llm[:, [team_of(j) == t for j in m.judges]])
                                for t in teams])
    return {"majority": rules["majority"], "median": rules["median"],
            "team median": _lower_median(per_team), "mean": rules["mean"],
            "dawid-skene": rules["dawid-skene"], "ug": _half_up(ug / (n * (1.0 + p))).clip(0, dmax)}


def long_labels(m: LabelMatrix, columns: dict[str, np.ndarray], human: bool = True) -> pd.DataFrame:
    """``topic, judge, doc, grade`` for ``{judge: grade per item}`` (and the human labels first)."""
    frames = [pd.DataFrame({"topic": m.topics.astype(str), "judge": name, "doc": m.docs.astype(str),
                            "grade": np.asarray(g, dtype=np.int64)})
              for name, g in (({HUMAN: m.human} if human else {}) | columns).items()]
    out = pd.concat(frames, ignore_index=True)
    out.attrs["grades"] = GRADES
    return out


def per_topic_confusions(m: LabelMatrix, columns: dict[str, np.ndarray]) -> np.ndarray:
    """``(T, J, K, K)``: per topic and column, the confusion of human grade (rows) and its grade."""
    _, t = m.topic_codes
    k = GRADES[1] - GRADES[0] + 1
    out = np.zeros((t.max() + 1, len(columns), k, k))
    for j, g in enumerate(columns.values()):
        np.add.at(out, (t, j, m.human - GRADES[0], np.asarray(g) - GRADES[0]), 1.0)
    return out


def _judges(m: LabelMatrix) -> dict[str, np.ndarray]:
    return {j: m.llm[:, k] for k, j in enumerate(m.judges)}


def _alpha(confusions: np.ndarray) -> np.ndarray:
    return alpha_from_confusion(confusions, np.arange(GRADES[0], GRADES[1] + 1), "ordinal")


def fair_best_single(m: LabelMatrix, folds: int = 5, seed: int = 0,
                     per_topic: np.ndarray | None = None) -> tuple[np.ndarray, pd.DataFrame]:
    """``(grades, choices)``: each fold's topics labelled by the judge with the best ordinal alpha
    on the other folds' topics; ``choices`` lists ``fold, topics, chosen, alpha_on_rest``.

    The topics, in order of appearance, are permuted with ``seed`` and dealt
    into ``folds`` folds.  ``per_topic``: the judges' per-topic confusions
    (:func:`per_topic_confusions` of ``m.llm``), when already computed.
    """
    names, t = m.topic_codes
    fold_of = np.random.default_rng(seed).permutation(len(names)) % folds
    if per_topic is None:
        per_topic = per_topic_confusions(m, _judges(m))
    grades = np.empty(len(m.human), dtype=np.int64)
    rows = []
    for f in range(folds):
        rest = _alpha(per_topic[fold_of != f].sum(axis=0))
        best = int(np.nanargmax(rest))
        items = fold_of[t] == f
        grades[items] = m.llm[items, best]
        rows.append((f, " ".join(map(str, names[fold_of == f])), m.judges[best], rest[best]))
    return grades, pd.DataFrame(rows, columns=["fold", "topics", "chosen", "alpha_on_rest"])


def combining_table(m: LabelMatrix, combined: dict[str, np.ndarray], folds: int = 5,
                    bootstrap: int = 1000, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(table, choices)``: every combiner, the fairly chosen and the oracle's best single judge.

    ``combined``: :func:`combined_labels`; the topics are split into ``folds``
    with ``seed`` (:func:`fair_best_single`).

    ``table``: ``judge, kind, value, ci_low, ci_high, diff_vs_fair, diff_low, diff_high,
    supported`` with ``value`` the ordinal alpha against the human labels and
    its 95% topic-bootstrap interval (:func:`agreement_table`, ``bootstrap``
    replicates from ``seed``); ``diff_vs_fair`` is value minus the fairly
    chosen judge's, with the paired percentile interval over the same
    resampled topics; ``supported`` says whether that interval excludes 0.
    """
    per_judge = per_topic_confusions(m, _judges(m))
    fair, choices = fair_best_single(m, folds, seed, per_judge)
    oracle = int(np.nanargmax(_alpha(per_judge.sum(axis=0))))
    columns = dict(combined) | {FAIR: fair, ORACLE: m.llm[:, oracle]}
    scored = agreement_table(long_labels(m, columns), reference=HUMAN, cuts=None,
                             bootstrap=bootstrap, seed=seed)
    scored = scored[scored["statistic"] == "alpha_ordinal"].set_index("judge")
    weights = topic_bootstrap(per_judge.shape[0], bootstrap, seed).astype(float)
    reps = _alpha(np.tensordot(weights, per_topic_confusions(m, columns), axes=(1, 0)))  # (B, J)
    names = list(columns)
    diffs = reps - reps[:, [names.index(FAIR)]]
    low, high = percentile_interval(diffs)
    rows = []
    for j, name in enumerate(names):
        v = scored.loc[name]
        kind = "combined" if name in COMBINERS else "single"
        d = v["value"] - scored.loc[FAIR, "value"]
        rows.append((name, kind, v["value"], v["ci_low"], v["ci_high"], d, low[j], high[j],
                     bool(name != FAIR and (low[j] > 0 or high[j] < 0))))
    table = pd.DataFrame(rows, columns=["judge", "kind", "value", "ci_low", "ci_high",
                                        "diff_vs_fair", "diff_low", "diff_high", "supported"])
    table.attrs["oracle"] = m.judges[oracle]
    return table, choices


def _split_differences(m: LabelMatrix, combined: dict[str, np.ndarray], folds: int, draws: int,
                       bootstrap: int, seed: int):
    """``(alpha per combiner, [(fair alpha, point differences, (B, J) replicate differences,
    fair judge's per-topic confusions)] per split)``: split ``r`` uses seed ``seed + r``; every
    split shares the ``bootstrap`` topic resamples from ``seed``."""
    per_topic = per_topic_confusions(m, combined)
    mine = _alpha(per_topic.sum(axis=0))
    weights = topic_bootstrap(per_topic.shape[0], bootstrap, seed).astype(float)
    reps = _alpha(np.tensordot(weights, per_topic, axes=(1, 0)))                # (B, J)
    per_judge = per_topic_confusions(m, _judges(m))
    out = []
    for r in range(draws):
        fair, _ = fair_best_single(m, folds, seed + r, per_judge)
        fair_topic = per_topic_confusions(m, {FAIR: fair})
        base = float(_alpha(fair_topic.sum(axis=0))[0])
        out.append((base, mine - base, reps - _alpha(np.tensordot(weights, fair_topic, axes=(1, 0))),
                    fair_topic))
    return mine, out


def _split_p_values(m: LabelMatrix, combined: dict[str, np.ndarray], fair_topics: list,
                    trials: int, seed) -> np.ndarray:
    """``(R, J)``: each combiner against the fairly chosen judge of each split (its per-topic
    confusions in ``fair_topics``), the paired randomisation test's p
    (:func:`~.best_judge.randomisation_p`, topics in ``evalkit agreement``'s order, the same
    ``trials`` swaps from ``seed`` for every split, as the splits share the topic resamples)."""
    names, _ = m.topic_codes
    order = np.argsort(names.astype(str), kind="stable")
    both = np.concatenate([per_topic_confusions(m, combined), *fair_topics], axis=1)[order]
    n, r = len(combined), len(fair_topics)
    p = randomisation_p(both.transpose(1, 0, 2, 3), np.tile(np.arange(n), r),
                        n + np.repeat(np.arange(r), n), trials, seed)
    return p.reshape(r, n)


def split_draws(m: LabelMatrix, combined: dict[str, np.ndarray], folds: int = 5, draws: int = 20,
                bootstrap: int = 1000, seed: int = 0, trials: int = 0) -> pd.DataFrame:
    """``draw, judge, alpha, fair_alpha, diff, diff_low, diff_high, supported, p_value, p_holm``:
    each combiner against the judge chosen on other topics under ``draws`` seeded splits of the
    topics into folds (split ``r`` uses seed ``seed + r``, so draw 0 is
    :func:`combining_table`'s split).

    Alpha is pooled over all items; the difference's paired 95% interval
    resamples topics as :func:`combining_table` does (the same ``bootstrap``
    replicates from ``seed`` for every split); ``supported``: it excludes 0.
    With ``trials``, ``p_value`` is the paired randomisation test of the
    combiner against the split's fair judge (``trials`` swaps from ``seed``,
    the same for every split) and ``p_holm`` Holm's adjustment over the
    combiners of the split; without, both are NaN.
    """
    mine, splits = _split_differences(m, combined, folds, draws, bootstrap, seed)
    p = (_split_p_values(m, combined, [f for *_, f in splits], trials, seed) if trials
         else np.full((len(splits), len(combined)), np.nan))
    rows = []
    for r, (base, _, diffs, _) in enumerate(splits):
        low, high = percentile_interval(diffs)
        holm = _holm(p[r]) if trials else p[r]
        rows += [(r, name, float(a), base, float(a) - base, low[j], high[j],
                  bool(low[j] > 0 or high[j] < 0), p[r, j], holm[j])
                 for j, (name, a) in enumerate(zip(combined, mine))]
    return pd.DataFrame(rows, columns=["draw", "judge", "alpha", "fair_alpha", "diff", "diff_low",
                                       "diff_high", "supported", "p_value", "p_holm"])


#: The interval levels :func:`split_summary` reports (95% decides; the others are its sensitivity).
SPLIT_LEVELS = (0.90, 0.95, 0.99)


def split_summary(m: LabelMatrix, combined: dict[str, np.ndarray], folds: int = 5, draws: int = 20,
                  bootstrap: int = 1000, seed: int = 0) -> pd.DataFrame:
    """``judge, draws, positive, mean_diff, low_90, high_90, diff_low, diff_high, low_99, high_99``:
    each combiner's difference from the judge chosen on other topics averaged over the ``draws``
    splits of :func:`split_draws` (the same splits and topic resamples), with the paired
    topic-bootstrap percentile intervals of that mean at :data:`SPLIT_LEVELS` (95%:
    ``diff_low``-``diff_high``); ``positive`` counts the splits with a difference above 0.

    The splits redraw which judge is chosen, not the topics: the uncertainty of a claim about
    the combiners is the topics', which every split shares, so it is the mean's interval over
    resampled topics, not the count of splits, that says whether 25 topics resolve it.
    """
    _, splits = _split_differences(m, combined, folds, draws, bootstrap, seed)
    point = np.mean([d for _, d, _, _ in splits], axis=0)
    mean_reps = np.mean([reps for _, _, reps, _ in splits], axis=0)                # (B, J)
    bounds = [percentile_interval(mean_reps, level) for level in SPLIT_LEVELS]
    positive = np.sum([d > 0 for _, d, _, _ in splits], axis=0)
    return pd.DataFrame({"judge": list(combined), "draws": len(splits), "positive": positive,
                         "mean_diff": point, "low_90": bounds[0][0], "high_90": bounds[0][1],
                         "diff_low": bounds[1][0], "diff_high": bounds[1][1],
                         "low_99": bounds[2][0], "high_99": bounds[2][1]})


def consensus_summary(comb: pd.DataFrame, splits: pd.DataFrame, split_mean: pd.DataFrame,
                      entering: int, rules=CONSENSUS_RULES, alpha: float = 0.05) -> pd.DataFrame:
    """The library's consensus rules against the humans and against the fairly chosen judge:
    ``rule, judges, alpha, ci_low, ci_high, draws, mean_diff, diff_low, diff_high, positive,
    interval_excludes_0, test_rejects, verdict``.

    ``alpha`` with its topic-bootstrap interval from ``comb`` (:func:`combining_table`);
    ``mean_diff`` and its paired 95% interval over the splits from ``split_mean``
    (:func:`split_summary`), ``verdict`` by that interval
    (:func:`~evalkit.declare.claims.interval_verdict`); ``positive``,
    ``interval_excludes_0`` and ``test_rejects`` count the splits of ``splits``
    (:func:`split_draws`) with a positive difference, an interval excluding 0 and
    ``p_holm < alpha``; ``judges``: how many judges entered (the reference left out).
    """
    t, s = comb.set_index("judge"), split_mean.set_index("judge")
    rows = []
    for rule in rules:
        mine = splits[splits["judge"] == rule]
        rows.append((rule, entering, t.loc[rule, "value"], t.loc[rule, "ci_low"],
                     t.loc[rule, "ci_high"], len(mine), s.loc[rule, "mean_diff"],
                     s.loc[rule, "diff_low"], s.loc[rule, "diff_high"], int((mine["diff"] > 0).sum()),
                     int(mine["supported"].sum()), int((mine["p_holm"] < alpha).sum()),
                     interval_verdict(s.loc[rule, "diff_low"], s.loc[rule, "diff_high"])))
    return pd.DataFrame(rows, columns=["rule", "judges", "alpha", "ci_low", "ci_high", "draws",
                                       "mean_diff", "diff_low", "diff_high", "positive",
                                       "interval_excludes_0", "test_rejects", "verdict"])
