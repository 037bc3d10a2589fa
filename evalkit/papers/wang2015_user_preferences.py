"""Wang, Sherman, Lin & Efron (SIGIR 2015) §5: do user preferences agree with the TTG metrics?

The pipeline of ``notebooks/wang2015_user_preferences.ipynb`` and its
declaration :data:`NOTEBOOK`.  The pairs shown to users come from the
paper's sampling procedure (:mod:`evalkit.simulate.preference_sampling`);
the judgment log is simulated (:mod:`evalkit.simulate.preferences`) and read
with :func:`evalkit.formats.preferences.read_preferences`.

Agreement (§5.2): :func:`agreement` bins pairs by the absolute difference of
the sampled metric and computes Cohen's kappa between the human choice
("prefer neither" dropped) and the metric's implied preference;
:func:`anova_by_bin` is Table 3, :func:`shared_fleiss` the Fleiss' kappa of
the pairs every assessor judged, :func:`claims` the paper's claims.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..formats.preferences import read_preferences
from ..simulate.preferences import preference_timelines, simulate_preferences
from ..stats import agreement as agreement_stats
from ..workspace import params, paths
from ..workspace.claims import Claims
from ..workspace.notebook import Comparison, Input, Notebook
from . import wang2015_assessor_differences as assessor_differences

__all__ = ["METRICS_OF_TYPE", "BINS", "TIME_BIN", "METRICS", "implied_choice", "agreement",
           "anova_by_bin", "judgment_table", "shared_fleiss", "kappa_trend", "load_study",
           "landis_koch_table", "fleiss_vs_published", "claims", "validate_parameters", "NOTEBOOK"]


#: Which metrics each sampling type is checked against (§5.2).
METRICS_OF_TYPE = {"precision": ("precision",), "recall": ("recall", "weighted_recall"),
                   "f1": ("f1", "weighted_f1")}


#: Figure 7's bins of absolute metric difference (the last one closed at 1).
BINS = (0.0, 0.1, 0.2, 0.3, 0.4, 1.0 + 1e-9)


#: Figure 9's bins of time spent, seconds.
TIME_BIN = 30


def implied_choice(left: float, right: float) -> str:
    """The preference a metric implies: the run with the higher score (ties: neither)."""
    return "left" if left > right else "right" if right > left else "neither"


def agreement(judgments: pd.DataFrame, by: tuple[str, ...] = ("metric", "bin"),
              alpha: float = 0.05) -> pd.DataFrame:
    """Cohen's kappa between human and metric preferences per group.

    ``judgments`` (long format, one row per judgment and checked metric) has
    ``metric, bin, choice, implied`` and any grouping columns.  "Prefer
    neither" judgments are counted, then dropped before kappa (as the paper).
    """
    rows = []
    for key, g in judgments.groupby(list(by), sort=True, observed=True):
        decided = g[g.choice != "neither"]
        k = agreement_stats.cohens_kappa(decided.choice, decided.implied, alpha) if len(decided) else None
        rows.append({**dict(zip(by, key if isinstance(key, tuple) else (key,))),
                     "kappa": k.kappa if k else np.nan, "low": k.low if k else np.nan,
                     "high": k.high if k else np.nan, "neither": int((g.choice == "neither").sum()),
                     "preferences": len(decided)})
    return pd.DataFrame(rows)


def anova_by_bin(per_assessor: pd.DataFrame) -> pd.DataFrame:
    """Table 3: one-way ANOVA of per-assessor kappa across bins, per metric (scipy)."""
    from scipy.stats import f_oneway

    rows = []
    for metric, g in per_assessor.dropna(subset=["kappa"]).groupby("metric", sort=False):
        groups = [x.kappa.to_numpy() for _, x in g.groupby("bin", observed=True) if len(x)]
        groups = [x for x in groups if len(x) >= 1]
        n = sum(len(x) for x in groups)
        if len(groups) < 2 or n <= len(groups):
            rows.append({"metric": metric, "df1": np.nan, "df2": np.nan, "F": np.nan, "p": np.nan})
            continue
        res = f_oneway(*groups)
        rows.append({"metric": metric, "df1": len(groups) - 1, "df2": n - len(groups),
                     "F": float(res.statistic), "p": float(res.pvalue)})
    return pd.DataFrame(rows)


def judgment_table(log: pd.DataFrame, timelines: pd.DataFrame) -> pd.DataFrame:
    """One row per (judgment, checked metric): the metric difference, its bin,
    the human choice and the metric's implied choice.

    ``timelines`` holds per (run, topic) metric values (see
    :func:`evalkit.simulate.preferences.preference_timelines`).  Orientation: ``diff`` is
    left minus right; bins use ``|diff|`` (Figure 7's bins).
    """
    scores = timelines.set_index(["run", "topic"])
    rows = []
    for j in log.itertuples(index=False):
        left, right = scores.loc[(j.left_run, j.topic)], scores.loc[(j.right_run, j.topic)]
        for m in METRICS_OF_TYPE[j.type]:
            d = float(left[m] - right[m])
            rows.append((j.assessor, j.batch, j.pair_id, j.type, j.topic, m, d,
                         implied_choice(left[m], right[m]), j.choice, j.seconds))
    out = pd.DataFrame(rows, columns=["assessor", "batch", "pair_id", "type", "topic", "metric",
                                      "diff", "implied", "choice", "seconds"])
    labels = [f"[{a:g},{b:.1f})" if b < 1 else f"[{a:g},1]" for a, b in zip(BINS[:-1], BINS[1:])]
    out["bin"] = pd.cut(out["diff"].abs(), BINS, right=False, labels=labels)
    edges = np.arange(0, max(out.seconds.max(), TIME_BIN) + TIME_BIN, TIME_BIN)
    out["time_bin"] = pd.cut(out.seconds, edges, right=False,
                             labels=[f"[{int(a)},{int(b)})" for a, b in zip(edges[:-1], edges[1:])])
    return out


def shared_fleiss(log: pd.DataFrame) -> tuple[float, int, int]:
    """Fleiss' kappa over the pairs every assessor judged (the shared pairs).

    Choices are oriented to a fixed run order per pair (left/right placement
    was random), categories: prefer run A, prefer run B, neither.  Returns
    ``(kappa, pairs, raters)``.
    """
    raters = log.assessor.nunique()
    counts = log.groupby("pair_id").assessor.nunique()
    shared = counts[counts == raters].index
    rows = []
    for pid, g in log[log.pair_id.isin(shared)].groupby("pair_id"):
        first = min(g.left_run.iloc[0], g.right_run.iloc[0])
        picks = [("A" if (c == "left") == (l == first) else "B") if c != "neither" else "N"
                 for c, l in zip(g.choice, g.left_run)]
        rows.append([picks.count("A"), picks.count("B"), picks.count("N")])
    if not rows:
        return float("nan"), 0, raters
    return agreement_stats.fleiss_kappa(np.array(rows)), len(rows), raters


def kappa_trend(agg: pd.DataFrame, metric: str) -> tuple[float, float]:
    """Kappa of the smallest and of the largest populated bin of ``metric`` (NaN if none)."""
    k = agg[(agg.metric == metric)].dropna(subset=["kappa"]).kappa
    return (float(k.iloc[0]), float(k.iloc[-1])) if len(k) else (float("nan"), float("nan"))


#: The five metrics, in the paper's order.
METRICS = ["precision", "recall", "weighted_recall", "f1", "weighted_f1"]


def load_study(data_dir) -> tuple:
    """The TTG world, per-(run, topic) metric values and the judgment log of ``data_dir``."""
    world = assessor_differences.load_world(data_dir)
    timelines = preference_timelines(world.runs, world.qrels, world.clusters["official"])
    log = read_preferences(Path(data_dir) / "preferences.csv", set(world.runs.run),
                           set(world.qrels.topic))
    return world, timelines, log


def design_table(log: pd.DataFrame) -> pd.DataFrame:
    """Judgments per assessor, batch and sampling type."""
    return log.groupby(["assessor", "batch", "type"]).size().unstack(fill_value=0).reset_index()


def landis_koch_table(agg: pd.DataFrame) -> pd.DataFrame:
    """Table 2: the range of bin kappas per metric with Landis & Koch's labels."""
    ranges = agg.dropna(subset=["kappa"]).groupby("metric").kappa.agg(["min", "max"]).reindex(METRICS)
    return ranges.assign(min_label=ranges["min"].map(agreement_stats.landis_koch),
                         max_label=ranges["max"].map(agreement_stats.landis_koch)).reset_index()


def fleiss_vs_published(fk: float, n_pairs: int, n_raters: int, published: pd.DataFrame) -> pd.DataFrame:
    """Fleiss' kappa on the shared pairs beside the paper's."""
    return pd.DataFrame({"statistic": ["fleiss_kappa_shared", "shared_pairs", "assessors"],
                         "value_reproduced": [fk, n_pairs, n_raters]}).merge(
        published.rename(columns={"value": "value_published"}), on="statistic")


def claims(agg: pd.DataFrame, t3: pd.DataFrame, fk: float) -> pd.DataFrame:
    """The paper's §5 claims with the reproduction's verdicts."""
    first, last = kappa_trend(agg, "precision")
    anova = t3.set_index("metric")
    label = agreement_stats.landis_koch(fk)
    busy = agg[agg.preferences >= 20]
    c = Claims()
    c.add("Agreement grows with the metric difference (kappa of the largest populated bin > smallest), "
          "precision", f"{first:.3f} -> {last:.3f}", last > first)
    c.add("Assessors agree with every metric better than chance (all bin kappas with >= 20 preferences > 0)",
          f"{int((busy.kappa > 0).sum())} of {int((agg.preferences >= 20).sum())}",
          bool((busy.kappa > 0).all()))
    c.add("ANOVA across bins significant for precision (paper p = 0.0437)",
          f"p = {anova.loc['precision', 'p']:.4f}", anova.loc["precision", "p"] < 0.05)
    c.add("ANOVA across bins significant for unweighted F1 (paper p = 0.0115)",
          f"p = {anova.loc['f1', 'p']:.4f}", anova.loc["f1", "p"] < 0.05)
    c.add("Fleiss' kappa on shared pairs is 'fair' (paper 0.294)", f"{fk:.3f} ({label})", label == "fair")
    return c.frame()


#: The notebook's parameters and their checks (see :mod:`evalkit.workspace.params`).
PARAMETERS = {
    "alpha": params.number(lambda x: 0 < x < 1, "a number in (0, 1)"),
    "data_dir": params.folder("an existing folder with qrels.txt, clusters-*.json, runs/ and "
                              "preferences.csv"),
}

def validate_parameters(**values) -> None:
    """Check the notebook's parameters; raise ParameterError naming the first bad one."""
    NOTEBOOK.check(**values)


NOTEBOOK = Notebook(
    name="wang2015_user_preferences",
    paper="wang2015",
    title=assessor_differences.NOTEBOOK.title,
    parameters=PARAMETERS,
    inputs=(*assessor_differences.NOTEBOOK.inputs,
            Input("data/raw/ttg/preferences.csv",
                  lambda: simulate_preferences(paths.RAW / "ttg", seed=assessor_differences.TTG_SEED))),
    outputs=(
        "preferences_design.csv", "figure7_kappa.csv", "figure7_kappa.png",
        "figure8_kappa_per_assessor.csv", "figure8_kappa_per_assessor.png",
        "table2_landis_koch.csv", "table3_anova.csv", "figure9_kappa_by_time.csv",
        "figure9_kappa_by_time.png", "fleiss_shared.csv", "claims_preferences.csv",
    ),
    comparisons=(
        Comparison("wang2015_table3", "wang2015/table3_anova.csv", ("metric",),
                   {"F_published": "F", "p_published": "p"}, 0.05,
                   "§5 Table 3: ANOVA of per-assessor kappa across bins (simulated user model).",
                   joined=True),
        Comparison("wang2015_fleiss", "wang2015/fleiss_shared.csv", ("statistic",),
                   {"value_published": "value_reproduced"}, 0.05,
                   "§5: Fleiss' kappa on the pairs all assessors judged.", joined=True),
    ),
    figures=(
        ("figure7_kappa.png", "Figure 7: Cohen's kappa per metric and bin of metric difference "
                              "(\"neither|preferences\" under each bar; simulated judgments)."),
        ("figure8_kappa_per_assessor.png", "Figure 8: kappa per metric (rows) and assessor (columns)."),
        ("figure9_kappa_by_time.png", "Figure 9: kappa by time spent, 30 s bins (missing bar: undefined)."),
    ),
)
