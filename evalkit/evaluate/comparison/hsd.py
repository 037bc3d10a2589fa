"""Compare runs with the randomised Tukey HSD: the engine of ``evalkit compare``.

For each measure and gain, the topics x runs score matrix goes through
:func:`evalkit.stats.hsd.randomised_tukey_hsd` (Carterette 2012, Sakai's
Discpower): p-values over all run pairs with the familywise error rate
controlled, and the effect size ES = |d| / sqrt(V_E), V_E the residual
variance of the two-way ANOVA without replication (Sakai 2014).  With two
gains the same seed gives both the same permutations (common random
numbers), so a pair significant under one gain and not the other, a
*discrepancy* (Sakai 2017, Table 3), comes from the gains, not from chance.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...errors import InputError, ParameterError
from ...stats.hsd import randomised_tukey_hsd_many
from ...measures.registry import expand_all
from ..notes import show_notes
from ..runs.frames import team_of
from ..scoring.engine import (judge_labels, judges_and_runs, measure_names, pooled_judgments,
                              scored_runs)
from ..sources import qrels_frame, ratings_and_judges, runs_source

__all__ = ["compare", "best_per_team"]

COLUMNS = ["measure", "gain", "system_a", "system_b", "diff", "p_value", "effect_size",
           "significant"]


def best_per_team(means: pd.Series) -> list[str]:
    """Each team's best run: argmax over the team's runs r of ``means[r]``, names sorted.

    ``means`` maps run name -> mean score; a run's team is :func:`~evalkit.evaluate.runs.frames.team_of`
    (its tag up to the first '-').  This is the selection of Sakai (EVIA 2017, §5):
    one run per team, its best by the official mean nG@1, enters the randomised Tukey HSD.
    The result depends on the runs and their means only, never on their order:
    among equal means the run whose name sorts first wins, a run without a mean
    (NaN) is chosen only if its whole team has none, and the chosen names come
    back sorted.  A run named twice is an error (its mean would be ambiguous).
    """
    duplicated = means.index[means.index.duplicated()]
    if len(duplicated):
        raise InputError(f"run {duplicated[0]!r} has two means", hint="give each run once")
    frame = means.rename("mean").rename_axis("run").reset_index()
    frame["team"] = frame["run"].map(team_of)
    best = frame.sort_values(["team", "mean", "run"], ascending=[True, False, True],
                             na_position="last", kind="stable")
    return sorted(best.groupby("team", sort=True).head(1)["run"])


def compare(runs: pd.DataFrame, ratings: pd.DataFrame | None = None, *,
            qrels: pd.DataFrame | None = None, gain_map=None, gains=("raw",), p: float = 0.2,
            dmax: int | None = None, measures=("nG@1", "P+", "nERR", "Q"), trials: int = 5000,
            seed: int = 0, alpha: float = 0.05, best_per_team_runs: bool = False,
            beta: float = 1.0, judges=None, common_topics: bool = False,
            grades: tuple[int, int] | None = None, clip: bool = False,
            rename: dict | None = None) -> pd.DataFrame:
    """All run pairs, per measure and gain: ``measure, gain, system_a, system_b, diff,
    p_value, effect_size, significant`` (+ ``discrepant`` with two gains).

    Topics are those with a positive ideal gain under every gain given (the
    matrices must match for common random numbers).  With
    ``best_per_team_runs`` each team's best run by its mean under the first
    gain is kept, per measure.  ``frame.attrs["mc_se"]`` is the largest Monte
    Carlo standard error of a p-value, sqrt(p(1-p)/B).  Judges as
    :func:`~evalkit.evaluate.scoring.engine.score` takes them (``ratings``,
    ``judges={name: qrels path or frame}``, ``gain_map``, ``common_topics``, ``grades``,
    ``clip``, ``rename``); a judge
    sharing no topic with the others or with the runs is refused.
    """
    gains = list(gains)
    if not gains or len(set(gains)) != len(gains) or len(gains) > 2:
        raise ParameterError("gain", gains, "one or two different gains")
    if isinstance(alpha, bool) or not 0 < alpha < 1:
        raise ParameterError("alpha", alpha, "a number in (0, 1)")
    specs = expand_all(measure_names(measures))
    runs, qrels = runs_source(runs), qrels_frame(qrels)
    ratings, judges, read = ratings_and_judges(ratings, judges, grades, clip)
    if beta != 1.0:
        raise InputError("beta other than 1 is not available in this version")
    if qrels is not None and gains != ["raw"]:
        raise InputError("WG and UG need per-assessor ratings, not qrels")
    labels, topics = judge_labels(ratings, judges, common_topics) if qrels is None else (None, {})
    scored = scored_runs(runs, pooled_judgments(None, qrels, gain_map, gains, p, dmax, labels),
                         specs, rename=rename)
    scored.notes[:0] = read
    scored.notes.extend(judges_and_runs(scored, topics))
    names = list(scored.runs)
    if len(names) < 2:
        raise InputError("comparing needs at least two runs")
    valid = np.isfinite(scored.values).all(axis=(0, 1, 2))        # (T,)
    tables, mc_se = [], 0.0
    for m, spec in enumerate(specs):
        values = scored.values[:, m][:, :, valid]                  # (G, R, T)
        chosen = list(range(len(names)))
        if best_per_team_runs:
            keep = best_per_team(pd.Series(values[0].mean(axis=1), index=names))
            chosen = [names.index(r) for r in keep]
        matrices = [pd.DataFrame(values[g][chosen].T, columns=[names[i] for i in chosen])
                    for g in range(len(gains))]
        # one pass, the same row permutations for every gain (common random numbers)
        results = randomised_tukey_hsd_many(matrices, n_trials=trials, seed=seed)
        for gain, result in zip(gains, results):
            mc_se = max(mc_se, float(result["p_value_se"].max()))
            result.insert(0, "gain", gain)
            result.insert(0, "measure", spec.name)
            result["significant"] = result["p_value"] < alpha
            tables.append(result[COLUMNS])
    out = pd.concat(tables, ignore_index=True)
    if len(gains) == 2:
        sig = out.pivot_table(index=["measure", "system_a", "system_b"], columns="gain",
                              values="significant", aggfunc="first")
        flips = (sig[gains[0]] != sig[gains[1]]).rename("discrepant").reset_index()
        out = out.merge(flips, on=["measure", "system_a", "system_b"], how="left", sort=False)
    out.attrs.update(mc_se=mc_se, trials=trials, topics=int(valid.sum()),
                     excluded_topics=[str(t) for t in np.array(scored.topics)[~valid]],
                     notes=scored.notes)
    show_notes(scored.notes, "compare")
    return out
