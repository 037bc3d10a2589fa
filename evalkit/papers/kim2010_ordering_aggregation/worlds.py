"""Kim, Zhai & Han (ECIR 2010): the R worlds every table, claim and figure of the notebook reads.

A claim judged over draws rests on the clean judgments as much as on the
noise, so draw ``d`` redraws both (:data:`VARIES`): the clean judgments are
the committed ones for ``d = 0`` and the default simulator
(:func:`evalkit.simulate.orderings.simulate_sets`, the judgments of ``simulate_orderings``) with seed
``seed + d`` otherwise, and the noise is :func:`~.tables.noisy_sets`'s
stream ``(seed, d, r)``.  :func:`score_worlds` scores every world once, one
engine per set and noise ratio, for Table 1 (the seven methods, WCA at every
weight offset), Tables 2-4 (every FreSPA setting on the clean and the
``noisy_ratio`` data of the same draw) and the world's calibration; the
tables, claims and figures only read its frames.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ...measures import aggregation as methods, discriminativeness as edm
from ...simulate.orderings import simulate_sets
from .tables import frespa_settings, mean_pairwise_tau, noisy_sets

__all__ = ["VARIES", "world_sets", "correlation_eds", "score_worlds"]

#: What each draw redraws (the claims' ``varies`` column).
VARIES = ("clean judgments (a Mallows world drawn with the default calibration; draw 0 is the "
          "committed one) and noise orderings")


def world_sets(sets: Mapping[str, list], draws: int, seed: int) -> list[dict]:
    """The clean judgments of each draw: ``sets`` for draw 0, the default simulator with seed
    ``seed + d`` for draw ``d`` > 0 (the seeds of :func:`~.minsup.minsup_worlds`' default worlds)."""
    return [dict(sets)] + [simulate_sets(seed + d) for d in range(1, draws)]   # as the CSV reads back


def _resolve(params: dict, k: int) -> dict:
    return edm.frespa_params(**{key: (v(k) if callable(v) else v) for key, v in params.items()})


def _wca_turns(eng: edm.SetEngine, attr: str) -> tuple[float, float]:
    """Smallest |sum of weights| and largest |score| over the turns of WCA with the weights read
    literally (a = 0); see :func:`~.wca_weights.wca_outliers`.

    In turn ``i`` gold ``j``'s weight is its mean correlation with the other golds,
    ``(sum_l c[j, l] - c[j, i] - 1) / (n - 2)``: one matrix for all turns (row ``i``).
    """
    c, n = getattr(eng, attr), eng.n
    w = (c.sum(1)[None, :] - c - 1) / (n - 2)       # w[i, j]: gold j's weight in turn i
    np.fill_diagonal(w, 0.0)
    sums = w.sum(1)
    ok = np.abs(sums) >= 1e-12                      # the engine falls back to the mean at 0
    scores = np.abs((w * c).sum(1)[ok] / sums[ok])  # c[i, j] with the diagonal weighted 0
    return float(np.abs(sums).min()), float(scores.max())


def correlation_eds(eng: edm.SetEngine, offsets: Sequence[float]) -> dict:
    """ED of AC, RBA and WCA (one value per offset) with Kendall's tau and Spearman's rho, every
    leave-one-out turn at once: the numbers of :meth:`~evalkit.measures.discriminativeness.SetEngine.correlation_ed`
    and ``wca_ed`` (tests: equal to 1e-12), vectorised over turns.

    After the (x + 1)/2 mapping a turn adds the score itself (§5.2).  Turn ``i``'s RBA consensus
    ranks the column sums of the other judgments' ranks (ties share their average rank); WCA's
    weight of gold ``j`` is ``(sum_l c[j, l] - c[j, i] - 1) / (n - 2)``, mapped to ``(w + a)/(1 + a)``.
    """
    n = eng.n
    if n < 3:                                   # one gold per turn: the engine's own rule
        return {**{f"ac-{t}": eng.correlation_ed(c, "ac") for t, c in (("tau", "kendall"), ("sp", "spearman"))},
                **{f"rba-{t}": eng.correlation_ed(c, "rba") for t, c in (("tau", "kendall"), ("sp", "spearman"))},
                **{f"wca-{t}": eng.wca_ed(c, list(offsets)) for t, c in (("tau", "kendall"), ("sp", "spearman"))}}
    ranks = eng.ranks
    v = ranks.sum(0)[None, :] - ranks                            # turn i: rank sums of the others
    cons = (v[:, :, None] > v[:, None, :]).sum(2) + ((v[:, :, None] == v[:, None, :]).sum(2) + 1) / 2.0
    sa = eng.signs
    sb = np.sign(cons[:, eng.pair_i] - cons[:, eng.pair_j])
    den = np.sqrt(np.count_nonzero(sa, 1) * np.count_nonzero(sb, 1))
    rba_tau = np.divide((sa * sb).sum(1), den, out=np.zeros(n), where=den > 0)
    da, db = ranks - ranks.mean(1, keepdims=True), cons - cons.mean(1, keepdims=True)
    den = np.sqrt((da * da).sum(1) * (db * db).sum(1))
    rba_sp = np.divide((da * db).sum(1), den, out=np.zeros(n), where=den > 0)
    out = {"rba-tau": float(rba_tau.mean()), "rba-sp": float(rba_sp.mean())}
    off = np.eye(n, dtype=bool)
    for t, c in (("tau", eng.tau), ("sp", eng.rho)):
        out[f"ac-{t}"] = float(((c.sum(1) - 1) / (n - 1)).mean())
        raw = (c.sum(1)[None, :] - c - 1) / (n - 2)                 # raw[i, j]: gold j's weight in turn i
        ac = (c.sum(1) - 1) / (n - 1)
        a = np.array(offsets, dtype=float)[:, None, None]           # every offset at once:
        w = np.where(off, 0.0, np.where(a == 0, raw, (raw + a) / (1 + a)))   # offsets x n x n
        tot = w.sum(2)                                              # row sums, as one offset's
        cancel = np.abs(tot) < 1e-12                                # the engine falls back to AC
        score = np.where(cancel, ac, (w * np.where(off, 0.0, c)).sum(2) / np.where(cancel, 1.0, tot))
        out[f"wca-{t}"] = score.mean(1)
    return out


def score_worlds(worlds: Sequence[Mapping[str, list]], ratios: Sequence[float], noisy_ratio: float,
                 seed: int, frespa_defaults: dict | None = None, offsets: Sequence[float] = (0, 1),
                 settings=None) -> dict[str, pd.DataFrame]:
    """Every number the notebook needs from each world, computed once.

    Returns frames (``draw`` is the world's index):

    * ``table1``: ``noise_ratio, draw, method, ED`` (WCA at the default offset 1);
    * ``wca``: ``weight_offset, noise_ratio, draw, method, ED`` (every method; only WCA
      depends on the offset);
    * ``frespa``: ``table, value, data ("original"/"noisy"), draw, ED`` for ``settings``
      (:func:`~.tables.frespa_settings`) on the clean and the ``noisy_ratio`` data;
    * ``outliers``: per WCA variant, noisy ratio and draw, the ED with the weights read
      literally (a = 0), that world's clean ED, and the smallest |sum of weights| and
      largest |score| over its turns;
    * ``calibration``: per draw, the mean pairwise tau and the number of sets.
    """
    frespa = dict(frespa_defaults or {})
    settings = settings or frespa_settings()
    offsets = sorted({float(a) for a in offsets} | {0.0, 1.0})
    asked = {float(r) for r in ratios} | {0.0}
    ratios = sorted(asked | {float(noisy_ratio)})
    t1, wca, ft, outl, calib = [], [], [], [], []
    for d, clean in enumerate(worlds):
        calib.append({"draw": d, "world_seed": seed + d if d else None,
                      "mean_pairwise_tau": mean_pairwise_tau(clean), "sets": len(clean)})
        for r in ratios:
            data = clean if r == 0 else noisy_sets(clean, r, seed, d)
            per = {m: [] for m in edm.METHODS}
            per_wca = {m: [] for m in ("wca-tau", "wca-sp")}
            grid_eds, turns = [], {"wca-tau": [], "wca-sp": []}
            grid_here = r == 0 or r == noisy_ratio
            for judg in data.values():
                eng = edm.SetEngine(methods.check_judgments(judg))
                corr = correlation_eds(eng, offsets)
                for m in ("ac-tau", "ac-sp", "rba-tau", "rba-sp"):
                    per[m].append(corr[m])
                for m, attr in (("wca-tau", "tau"), ("wca-sp", "rho")):
                    per_wca[m].append(corr[m])
                    if r > 0:
                        turns[m].append(_wca_turns(eng, attr))
                params = [_resolve(frespa, eng.k)]
                if grid_here:
                    params += [_resolve(p, eng.k) for _, _, p in settings]
                if eng.k <= edm.FAST_MAX_ITEMS:
                    eds = eng.frespa_ed(params)
                else:
                    eds = np.array([edm.discriminativeness("frespa", judg, **p) for p in params])
                per["frespa"].append(eds[0])
                grid_eds.append(eds[1:])
            for m, v in per_wca.items():
                per[m] = [row[offsets.index(1.0)] for row in v]
                means = np.mean(v, axis=0)
                wca += [{"weight_offset": a, "noise_ratio": r, "draw": d, "method": m, "ED": float(e)}
                        for a, e in zip(offsets, means)]
            eds = {m: float(np.mean(v)) for m, v in per.items()}
            t1 += [{"noise_ratio": r, "draw": d, "method": m, "ED": eds[m]} for m in edm.METHODS]
            wca += [{"weight_offset": a, "noise_ratio": r, "draw": d, "method": m, "ED": eds[m]}
                    for a in offsets for m in edm.METHODS if not m.startswith("wca")]
            if r > 0:
                for m, t in turns.items():
                    outl.append({"method": m, "noise_ratio": r, "draw": d, "min_abs_weight_sum": min(x[0] for x in t),
                                 "max_abs_score": max(x[1] for x in t)})
            if grid_here:
                g = np.mean(grid_eds, axis=0)
                ft += [{"table": t, "value": v, "data": "original" if r == 0 else "noisy", "draw": d,
                        "ED": float(e)} for (t, v, _), e in zip(settings, g)]
    wca = pd.DataFrame(wca)
    literal = wca[wca.weight_offset == 0].set_index(["method", "noise_ratio", "draw"])["ED"]
    outliers = pd.DataFrame(outl)
    if len(outliers):
        outliers.insert(3, "ED", [literal[(m, r, d)] for m, r, d in
                                  outliers[["method", "noise_ratio", "draw"]].itertuples(index=False)])
        outliers.insert(4, "clean_ED", [literal[(m, 0.0, d)] for m, d in
                                        outliers[["method", "draw"]].itertuples(index=False)])
    t1 = pd.DataFrame(t1)
    table = t1.noise_ratio.isin(asked)              # noisy_ratio joins Table 1 only when asked for
    outliers = outliers[outliers.noise_ratio.isin(asked)].reset_index(drop=True) if len(outliers) else outliers
    return {"table1": t1[table].reset_index(drop=True),
            "wca": wca[wca.noise_ratio.isin(asked)].sort_values(["weight_offset", "noise_ratio", "draw"],
                                                                 kind="stable").reset_index(drop=True),
            "frespa": pd.DataFrame(ft), "outliers": outliers, "calibration": pd.DataFrame(calib)}
