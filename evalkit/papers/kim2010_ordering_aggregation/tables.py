"""Kim, Zhai & Han (ECIR 2010) Tables 1-4 (§5.3): ED under noise and FreSPA's parameters.

Table 1 is the ED (§5.2, :func:`evalkit.measures.discriminativeness.discriminativeness`)
of the seven methods at each noise ratio r, with ``round(n r)`` random
orderings added to each set of n judgments.  The notebook scores R worlds
(:mod:`.worlds`: clean judgments and noise redrawn per draw; the paper does
not say how often it drew its noise) and the tables report the mean and
standard deviation over them; :func:`table1` and :func:`frespa_tables` draw
the noise only, on one clean world (the alternative worlds of :mod:`.heterogeneity`).  Tables 2-4 vary one FreSPA parameter at a time on the
original data and on noisy data at one ratio (``noisy_ratio``; the paper does
not say which, and its noisy FreSPA ED at default parameters, about 0.55,
matches its Table 1 at r = 0.5).  The ``*_vs_published`` helpers lay the
reproduced tables beside the paper's (``data/published/kim2010_*.csv``).
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ...measures import aggregation as methods, discriminativeness as edm

__all__ = ["GRID_W", "GRID_RATIO", "FRESPA_TABLES", "length_from_ratio", "noisy_sets",
           "mean_pairwise_tau", "dilution_check", "table1", "summarise_table1", "table1_sd",
           "table1_order_checks", "table1_vs_published", "frespa_settings", "frespa_tables", "per_draw",
           "frespa_vs_published", "dilution_checks", "FENCE", "table1_robust", "table1_outliers"]

#: The paper's grids: Table 2's weights wLen, wSup; Table 3's length ratios and Table 4's minSup.
GRID_W = (0, 0.25, 0.5, 0.75, 1, 5, 10, 20, 50, 100)
GRID_RATIO = (0, 0.25, 0.5, 0.75, 1)

#: Which FreSPA parameters each of Tables 2-4 varies.
FRESPA_TABLES = {"table2": ["wLen", "wSup"], "table3": ["maxLen/k", "minLen/k"], "table4": ["minSup"]}


def length_from_ratio(ratio: float):
    """Pattern length for a ratio of k (Table 3): ``max(2, round(ratio k))``, half up."""
    return lambda k: max(2, min(k, int(math.floor(ratio * k + 0.5))))


def noisy_sets(sets: Mapping[str, list], ratio: float, seed: int, draw: int) -> dict:
    """Each set plus ``round(n ratio)`` random orderings; one stream per (seed, ratio, draw)."""
    if ratio == 0:
        return dict(sets)
    rng = np.random.default_rng(np.random.SeedSequence([seed, draw, int(round(ratio * 1000))]))
    return {name: edm.add_noise(judg, ratio, rng) for name, judg in sorted(sets.items())}


def mean_pairwise_tau(sets: Mapping[str, list]) -> float:
    """Mean over sets of the mean pairwise Kendall tau between assessors.

    On clean data it equals ED(AC-tau) (§5.2 with correlations mapped by
    ``(x + 1)/2``); the paper's 0.454 is the simulator's calibration target.
    """
    vals = []
    for judg in sets.values():
        eng = edm.SetEngine(methods.check_judgments(judg))
        n = eng.n
        vals.append((eng.tau.sum() - n) / (n * (n - 1)))
    return float(np.mean(vals))


def dilution_check(sets: Mapping[str, list], ratio: float) -> float:
    """The dilution prediction of AC-tau's ED at noise ``ratio``, from the clean ED.

    Random orderings correlate 0 on average with everything, so the ED shrinks
    by ``(n-1)/(n-1+nr) * n/(n+nr)`` per set (averaged over sets).
    """
    preds = []
    for judg in sets.values():
        n = len(judg)
        m = int(math.floor(n * ratio + 0.5))
        clean = edm.discriminativeness("ac-tau", judg)
        preds.append(clean * (n - 1) / (n - 1 + m) * n / (n + m))
    return float(np.mean(preds))


def table1(sets, ratios: Sequence[float] = GRID_RATIO, draws: int = 10, seed: int = 2010,
           frespa_params: dict | None = None, progress: bool = True) -> pd.DataFrame:
    """ED of the seven methods per noise ratio and draw (long format)."""
    rows = []
    frespa = frespa_params or {}
    jobs = [(r, d) for r in ratios for d in (range(1) if r == 0 else range(draws))]
    for r, d in tqdm(jobs, desc="Table 1 noise draws", disable=not progress):
        eds = _seven_methods(noisy_sets(sets, r, seed, d), frespa)
        rows += [{"noise_ratio": r, "draw": d, "method": m, "ED": eds[m]} for m in edm.METHODS]
    return pd.DataFrame(rows)


def _seven_methods(data: Mapping[str, list], frespa: dict) -> dict[str, float]:
    """ED of every method on one data set, one engine per set for all seven (the same numbers as
    :func:`~evalkit.measures.discriminativeness.discriminativeness` per method)."""
    per_set = {m: [] for m in edm.METHODS}
    for judg in data.values():
        judg = methods.check_judgments(judg)
        eng = edm.SetEngine(judg)
        for m in edm.METHODS[:-1]:
            kind, corr = m.split("-")
            per_set[m].append(eng.correlation_ed("kendall" if corr == "tau" else "spearman", kind))
        k = len(judg[0])
        p = edm.frespa_params(**{key: (v(k) if callable(v) else v) for key, v in frespa.items()})
        per_set["frespa"].append(eng.frespa_ed([p])[0] if k <= edm.FAST_MAX_ITEMS else
                                 edm.discriminativeness("frespa", judg, **p))
    return {m: float(np.mean(v)) for m, v in per_set.items()}


def summarise_table1(long: pd.DataFrame) -> pd.DataFrame:
    """Mean ED per (noise ratio, method) with Max-Min and % degradation rows (paper layout)."""
    mean = long.groupby(["noise_ratio", "method"])["ED"].mean().unstack()[list(edm.METHODS)]
    lo, hi = mean.index.min(), mean.index.max()
    out = mean.copy()
    out.index = [f"{r:g}" for r in out.index]
    out.loc["Max-Min"] = mean.loc[lo] - mean.loc[hi]
    out.loc["% Degradation"] = 100 * (mean.loc[lo] - mean.loc[hi]) / mean.loc[lo]
    out.index.name = "noise_ratio"
    return out.reset_index()


def table1_sd(long: pd.DataFrame) -> pd.DataFrame:
    """Standard deviation of ED over noise draws per (noise ratio, method)."""
    return long.groupby(["noise_ratio", "method"])["ED"].std(ddof=1).unstack()[list(edm.METHODS)]


#: Tukey's fences: a draw is an outlier beyond this many interquartile ranges outside the quartiles.
FENCE = 1.5


def table1_robust(long: pd.DataFrame) -> pd.DataFrame:
    """Median, quartiles and outlying draws of ED per (noise ratio, method), for skewed draws:
    ``noise_ratio, method, median, q1, q3, draws, outliers`` (outside :data:`FENCE` IQRs)."""
    g = long.groupby(["noise_ratio", "method"], sort=False)["ED"]
    out = g.quantile(0.5).rename("median").to_frame()
    out["q1"], out["q3"], out["draws"] = g.quantile(0.25), g.quantile(0.75), g.size()
    out["outliers"] = table1_outliers(long).groupby(["noise_ratio", "method"]).size()
    return out.fillna({"outliers": 0}).astype({"outliers": int}).reset_index()


def table1_outliers(long: pd.DataFrame) -> pd.DataFrame:
    """The draws whose ED lies outside Tukey's fences (:data:`FENCE` IQRs beyond the quartiles)
    of their (noise ratio, method): ``noise_ratio, method, draw, ED, median, low_fence, high_fence``."""
    g = long.groupby(["noise_ratio", "method"])["ED"]
    q1, q3 = g.transform(lambda x: x.quantile(0.25)), g.transform(lambda x: x.quantile(0.75))
    lo, hi = q1 - FENCE * (q3 - q1), q3 + FENCE * (q3 - q1)
    out = long.assign(median=g.transform("median"), low_fence=lo, high_fence=hi)
    out = out[(out.ED < lo) | (out.ED > hi)]
    return out[["noise_ratio", "method", "draw", "ED", "median", "low_fence", "high_fence"]].reset_index(drop=True)


def table1_order_checks(mean: pd.DataFrame) -> dict:
    """The Table 1 orderings the paper claims, counted over noise ratios (rows of ``mean``).

    ``mean`` has one row per noise ratio and a column per method.  Counts the
    ratios where FreSPA > RBA-Sp and where RBA > WCA (tau and Sp), and gives
    the worst % degradation (lowest to highest ratio,
    ``100 (ED_lo - ED_hi) / ED_lo``) of RBA and FreSPA and the best of AC and WCA.
    """
    lo, hi = mean.index.min(), mean.index.max()
    deg = 100 * (mean.loc[lo] - mean.loc[hi]) / mean.loc[lo]
    return {"frespa_gt_rba_sp": int((mean["frespa"] > mean["rba-sp"]).sum()),
            "rba_gt_wca": int(((mean["rba-tau"] > mean["wca-tau"])
                               & (mean["rba-sp"] > mean["wca-sp"])).sum()),
            "ratios": len(mean),
            "worst_rba_frespa_drop_pct": max(deg["rba-tau"], deg["rba-sp"], deg["frespa"]),
            "best_ac_wca_drop_pct": min(deg["ac-tau"], deg["ac-sp"], deg["wca-tau"], deg["wca-sp"])}


def table1_vs_published(t1: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """Reproduced and published Table 1 rows interleaved (the paper's row order)."""
    both = pd.concat([t1.assign(source="reproduced"), published.assign(source="published")])
    row_order = {r: i for i, r in enumerate(t1["noise_ratio"])}
    return both.sort_values(["noise_ratio", "source"], key=lambda c: c.map(row_order)
                            if c.name == "noise_ratio" else c, kind="stable")


def frespa_settings(w_grid=GRID_W, ratio_grid=GRID_RATIO, sup_grid=GRID_RATIO) -> list[tuple[str, float, dict]]:
    """(table, value, FreSPA parameters) for Tables 2–4, defaults elsewhere."""
    out = []
    for w in w_grid:
        out.append(("wLen", w, {"w_len": w}))
    for w in w_grid:
        out.append(("wSup", w, {"w_sup": w}))
    for r in ratio_grid:
        out.append(("maxLen/k", r, {"max_len": length_from_ratio(r)}))
    for r in ratio_grid:
        out.append(("minLen/k", r, {"min_len": length_from_ratio(r)}))
    for s in sup_grid:
        out.append(("minSup", s, {"min_sup": s}))
    return out


def frespa_tables(sets, noisy_ratio: float = 0.5, draws: int = 10, seed: int = 2010,
                  settings=None, progress: bool = True) -> pd.DataFrame:
    """Tables 2–4: FreSPA's ED per parameter setting, original and noisy data.

    Returns long format: ``table, value, data ("original"/"noisy"), draw, ED``.
    All settings are scored in one pass per data set (the engine reuses the
    subset statistics of each held-out judgment).
    """
    settings = settings or frespa_settings()
    grid = [p for _, _, p in settings]
    rows = []
    variants = [("original", 0)] + [("noisy", d) for d in range(draws)]
    for label, d in tqdm(variants, desc="Tables 2-4 data sets", disable=not progress):
        data = sets if label == "original" else noisy_sets(sets, noisy_ratio, seed, d)
        eds = edm.discriminativeness("frespa", data, params_grid=grid)
        for (table, value, _), ed in zip(settings, eds):
            rows.append({"table": table, "value": value, "data": label, "draw": d, "ED": ed})
    return pd.DataFrame(rows)


def frespa_vs_published(ft: pd.DataFrame, published: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Tables 2-4: mean (and sd) ED per setting on original and noisy data, beside the paper's."""
    wide = ft.groupby(["table", "value", "data"])["ED"].agg(["mean", "std"]).unstack("data")
    wide.columns = [f"{data}_{stat}" for stat, data in wide.columns]
    cmp = wide.reset_index().merge(
        published.rename(columns={"original": "original_published", "noisy": "noisy_published"}),
        on=["table", "value"], how="outer")
    cols = ["table", "value", "original_mean", "original_published", "noisy_mean", "noisy_std",
            "noisy_published"]
    return {name: cmp[cmp.table.isin(tables)][cols].set_index("table").loc[tables].reset_index()
            for name, tables in FRESPA_TABLES.items()}


def _values_as_float(frame: pd.DataFrame) -> pd.DataFrame:
    """Tables 2-4's ``value`` column as floats (the comparison's ``prepare`` step)."""
    return frame.astype({"value": float})


def per_draw(long: pd.DataFrame) -> dict[int, pd.DataFrame]:
    """Table 1 of each draw: draw -> ED per (noise ratio, method).

    A draw with its own clean row (every draw of :func:`~.worlds.score_worlds`, which redraws
    the clean judgments too) keeps it; when the clean ratio (0) has one draw only (one clean
    world, :func:`table1`), that row joins every draw's table.
    """
    clean = long[long.noise_ratio == 0]
    noisy = long[long.noise_ratio > 0]
    if clean["draw"].nunique() > 1:          # one pivot for all draws, cut by draw (the same frames)
        wide = long.pivot_table(index=["draw", "noise_ratio"], columns="method", values="ED")
        return {int(d): wide.xs(d, level="draw").dropna(axis=1, how="all")
                for d in wide.index.unique("draw")}
    out = {}
    for d in sorted(noisy["draw"].unique()) or [0]:
        part = pd.concat([clean, noisy[noisy.draw == d]])
        out[int(d)] = part.pivot_table(index="noise_ratio", columns="method", values="ED")
    return out


def dilution_checks(worlds: Sequence[Mapping[str, list]], ratios: Sequence[float]) -> pd.DataFrame:
    """:func:`dilution_check` for every world and noise ratio, each set's clean ED computed once:
    ``draw, noise_ratio, predicted`` (AC-tau's ED shrunk by ``(n-1)/(n-1+nr) n/(n+nr)``)."""
    rows = []
    for d, sets in enumerate(worlds):
        clean = [(len(j), edm.SetEngine(methods.check_judgments(j)).correlation_ed("kendall", "ac"))
                 for j in sets.values()]
        for r in ratios:
            if r > 0:
                pred = [ed * (n - 1) / (n - 1 + m) * n / (n + m)
                        for n, ed in clean for m in [int(math.floor(n * r + 0.5))]]
                rows.append({"draw": d, "noise_ratio": float(r), "predicted": float(np.mean(pred))})
    return pd.DataFrame(rows)
