"""Wang, Sherman, Lin & Efron (SIGIR 2015) §5: the user-preference study and its agreement.

Do user preferences agree with the TTG metrics?  The pairs shown to users
come from the paper's sampling procedure
(:mod:`evalkit.simulate.preference_sampling`); the judgment log is simulated
(:mod:`evalkit.simulate.preferences`) and read with
:func:`evalkit.formats.preferences.read_preferences`.

* :func:`load_study`, :func:`design_table` — the world, the per-(run, topic)
  metric values, the judgment log and its design.
* :func:`judgment_table` — one row per (judgment, checked metric) with the
  metric difference, its bin and the metric's implied choice.
* :func:`agreement` — §5.2: Cohen's kappa between the human choice ("prefer
  neither" dropped) and the metric's implied preference, per bin (Figures
  7–9); :func:`landis_koch_table` is Table 2, :func:`anova_by_bin` Table 3
  (:func:`paper_anova_p`: the paper's own p), :func:`shared_fleiss` the
  Fleiss' kappa of the pairs every assessor judged.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ...formats.preferences import read_preferences
from ...simulate.preferences import preference_timelines
from ...stats import agreement as agreement_stats
from ..wang2015_assessor_differences.pipeline import load_world
from .kappa import kappa_of_tables

__all__ = ["METRICS_OF_TYPE", "BINS", "BIN_LABELS", "TIME_BIN", "TIME_CAP", "time_bins", "same_implied", "time_panels", "METRICS", "implied_choice", "agreement", "agreement_by",
           "anova_by_bin", "judgment_table", "shared_fleiss", "kappa_trend", "load_study", "design_table",
           "landis_koch_table", "fleiss_vs_published", "paper_anova_p", "replication_power"]


#: Which metrics each sampling type is checked against (§5.2).
METRICS_OF_TYPE = {"precision": ("precision",), "recall": ("recall", "weighted_recall"),
                   "f1": ("f1", "weighted_f1")}


#: Figure 7's bins of absolute metric difference (the last one closed at 1).
BINS = (0.0, 0.1, 0.2, 0.3, 0.4, 1.0 + 1e-9)


#: Figure 7's bin labels, in order (every figure places them at fixed positions).
BIN_LABELS = tuple(f"[{a:g},{b:.1f})" if b < 1 else f"[{a:g},1]" for a, b in zip(BINS[:-1], BINS[1:]))


#: Figure 9's bins of time spent, seconds.
TIME_BIN = 30
#: Figure 9's last bin pools the judgments from this many seconds on (a display choice:
#: about 1% of the committed study's judgments take longer).
TIME_CAP = 300


#: The five metrics, in the paper's order.
METRICS = ["precision", "recall", "weighted_recall", "f1", "weighted_f1"]


def implied_choice(left: float, right: float) -> str:
    """The preference a metric implies: the run with the higher score (ties: neither)."""
    return "left" if left > right else "right" if right > left else "neither"


def agreement(judgments: pd.DataFrame, by: tuple[str, ...] = ("metric", "bin"),
              alpha: float = 0.05) -> pd.DataFrame:
    """Cohen's kappa between human and metric preferences per group.

    ``judgments`` (long format, one row per judgment and checked metric) has
    ``metric, bin, choice, implied`` and any grouping columns.  "Prefer
    neither" judgments are counted, then dropped before kappa (as the paper);
    kappa and its interval per group are those of
    :func:`evalkit.stats.agreement.cohens_kappa`, computed for all groups at
    once (:func:`.kappa.kappa_of_tables`).  A group without a decided
    judgment, or with one category only, has an undefined (NaN) kappa.
    """
    return agreement_by(judgments, by, alpha)(judgments["choice"])


_CATS = {"left": 0, "right": 1, "neither": 2}


def _codes(values) -> np.ndarray:
    """``left``, ``right``, ``neither`` as 0, 1, 2 (anything else: ValueError)."""
    values = np.asarray(values, dtype=object)
    codes = np.full(values.shape, -1, dtype=int)
    for name, code in _CATS.items():
        codes[values == name] = code
    if (codes < 0).any():
        raise ValueError(f"choices and implied choices must be one of {sorted(_CATS)}")
    return codes


def agreement_by(judgments: pd.DataFrame, by: tuple[str, ...] = ("metric", "bin"),
                 alpha: float = 0.05):
    """:func:`agreement` for many sets of choices on the same judgments: the groups and the
    implied choices are coded once, and the returned function maps a ``choice`` array (one
    per row of ``judgments``) to the agreement frame (the simulated studies redraw only the
    choices)."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")
    groups = judgments.groupby(list(by), sort=True, observed=True)
    code = groups.ngroup().to_numpy()
    keys = groups.size().index
    frame = keys.to_frame(index=False) if isinstance(keys, pd.MultiIndex) else pd.DataFrame({by[0]: keys})
    metric = _codes(judgments["implied"])

    def of(choice) -> pd.DataFrame:
        human = _codes(choice)
        decided = human != 2
        tables = np.zeros((len(keys), 3, 3))
        np.add.at(tables, (code[decided], human[decided], metric[decided]), 1)
        k = kappa_of_tables(tables, alpha)
        return frame.assign(kappa=k["kappa"], low=k["low"], high=k["high"],
                            neither=np.bincount(code[~decided], minlength=len(keys)).astype(int),
                            preferences=k["n"].astype(int))

    return of


def anova_by_bin(per_assessor: pd.DataFrame) -> pd.DataFrame:
    """Table 3: one-way ANOVA of per-assessor kappa across bins, per metric.

    ``F = (SS_B / (g - 1)) / (SS_W / (N - g))`` over the ``g`` bins holding a
    defined kappa and their ``N`` kappas, ``p`` its upper F tail (the values of
    :func:`scipy.stats.f_oneway`, computed for all metrics at once; the tail is
    ``scipy.special.fdtrc``, which ``scipy.stats.f.sf`` calls, without importing
    ``scipy.stats``).  A metric with fewer than 2 bins or no residual degree of
    freedom gets NaN.
    """
    from scipy.special import fdtrc

    k = per_assessor.dropna(subset=["kappa"])
    metric, metrics = pd.factorize(k["metric"])          # metrics in order of first appearance
    bins, labels = pd.factorize(k["bin"].astype(str))
    x = k["kappa"].to_numpy(float)
    cell = metric * max(len(labels), 1) + bins
    size = len(metrics) * max(len(labels), 1)
    n = np.bincount(cell, minlength=size).reshape(len(metrics), -1)
    total = np.bincount(cell, weights=x, minlength=size).reshape(len(metrics), -1)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(n > 0, total / n, 0.0)
        ssw = np.bincount(metric, weights=(x - mean.ravel()[cell]) ** 2, minlength=len(metrics))
        grand = total.sum(1) / n.sum(1)
        ssb = (n * (mean - grand[:, None]) ** 2).sum(1)
    rows = []
    for i, m in enumerate(metrics):
        groups, count = int((n[i] > 0).sum()), int(n[i].sum())
        df1, df2 = groups - 1, count - groups
        if df1 < 1 or df2 < 1:
            rows.append({"metric": m, "df1": np.nan, "df2": np.nan, "F": np.nan, "p": np.nan})
            continue
        with np.errstate(divide="ignore", invalid="ignore"):
            f = (ssb[i] / df1) / (ssw[i] / df2)
        p = float(fdtrc(df1, df2, f)) if np.isfinite(f) else (0.0 if f == np.inf else np.nan)
        rows.append({"metric": m, "df1": df1, "df2": df2, "F": float(f), "p": p})
    return pd.DataFrame(rows, columns=["metric", "df1", "df2", "F", "p"])


def judgment_table(log: pd.DataFrame, timelines: pd.DataFrame) -> pd.DataFrame:
    """One row per (judgment, checked metric): the metric difference, its bin,
    the human choice and the metric's implied choice.

    ``timelines`` holds per (run, topic) metric values (see
    :func:`evalkit.simulate.preferences.preference_timelines`).  Orientation: ``diff`` is
    left minus right; bins use ``|diff|`` (Figure 7's bins).
    """
    scores = timelines.set_index(["run", "topic"])
    log = log.reset_index(drop=True)
    unknown = set(log["type"]) - set(METRICS_OF_TYPE)
    if unknown:
        raise KeyError(f"judgment type(s) {sorted(map(str, unknown))} not among {list(METRICS_OF_TYPE)}")
    left_at = scores.index.get_indexer(pd.MultiIndex.from_arrays([log.left_run, log.topic]))
    right_at = scores.index.get_indexer(pd.MultiIndex.from_arrays([log.right_run, log.topic]))
    if (left_at < 0).any() or (right_at < 0).any():
        bad = log[(left_at < 0) | (right_at < 0)].iloc[0]
        raise KeyError(f"no timeline for run {bad.left_run!r} or {bad.right_run!r} on topic {bad.topic!r}")
    # one row per (judgment, checked metric): judgments in log order, each type's metrics in order
    checked = [METRICS_OF_TYPE[k] for k in log["type"].to_numpy()]
    row = np.repeat(np.arange(len(log)), np.array([len(ms) for ms in checked], dtype=np.int64))
    metric = np.array([m for ms in checked for m in ms], dtype=object)
    names = list(dict.fromkeys(m for ms in METRICS_OF_TYPE.values() for m in ms))
    values = scores[names].to_numpy(float)
    col = pd.Index(names).get_indexer(metric)
    left, right = values[left_at[row], col], values[right_at[row], col]
    out = log.iloc[row][["assessor", "batch", "pair_id", "type", "topic"]].reset_index(drop=True).assign(
        metric=metric, diff=left - right,
        implied=np.where(left > right, "left", np.where(right > left, "right", "neither")),
        choice=log["choice"].to_numpy()[row], seconds=log["seconds"].to_numpy()[row])
    out["bin"] = pd.cut(out["diff"].abs(), BINS, right=False, labels=list(BIN_LABELS))
    out["time_bin"] = time_bins(out.seconds)
    return out


def time_bins(seconds: pd.Series) -> pd.Categorical:
    """Figure 9's bins: :data:`TIME_BIN` seconds wide up to :data:`TIME_CAP`; the last bin
    pools every judgment from ``TIME_CAP`` s on (labelled ``[cap,longest]``), so a few slow
    judgments do not stretch the time axis."""
    top = float(max(seconds.max(), 0.0))
    edges = list(range(0, TIME_CAP + 1, TIME_BIN))
    labels = [f"[{a},{b})" for a, b in zip(edges[:-1], edges[1:])]
    if top >= TIME_CAP:
        edges.append(np.inf)
        labels.append(f"[{TIME_CAP},{int(np.ceil(top))}]")
    return pd.cut(seconds, edges, right=False, labels=labels)


def shared_fleiss(log: pd.DataFrame) -> tuple[float, int, int]:
    """Fleiss' kappa over the pairs every assessor judged (the shared pairs).

    Choices are oriented to a fixed run order per pair (left/right placement
    was random), categories: prefer run A, prefer run B, neither.  Returns
    ``(kappa, pairs, raters)``.
    """
    raters = log.assessor.nunique()
    counts = log.groupby("pair_id").assessor.nunique()
    shared = counts[counts == raters].index
    sub = log[log.pair_id.isin(shared)]
    if not len(sub):
        return float("nan"), 0, raters
    # pairs in order, each pair's judgments in log order; run A: the first judgment's smaller run
    order = np.argsort(sub["pair_id"].to_numpy(), kind="stable")
    pid, choice, left, right = (sub[c].to_numpy(object)[order] for c in ("pair_id", "choice", "left_run", "right_run"))
    _, start, size = np.unique(pid, return_index=True, return_counts=True)
    group = np.repeat(np.arange(start.size), size)
    first = np.repeat(np.where(left[start] <= right[start], left[start], right[start]), size)
    neither = choice == "neither"
    a = ~neither & ((choice == "left") == (left == first))
    rows = np.column_stack([np.bincount(group[m], minlength=start.size) for m in (a, ~neither & ~a, neither)])
    return agreement_stats.fleiss_kappa(rows), len(rows), raters


def kappa_trend(agg: pd.DataFrame, metric: str) -> tuple[float, float]:
    """Kappa of the smallest and of the largest populated bin of ``metric`` (NaN if none)."""
    k = agg[(agg.metric == metric)].dropna(subset=["kappa"]).kappa
    return (float(k.iloc[0]), float(k.iloc[-1])) if len(k) else (float("nan"), float("nan"))


def load_study(data_dir) -> tuple:
    """The TTG world, per-(run, topic) metric values and the judgment log of ``data_dir``."""
    world = load_world(data_dir)
    timelines = preference_timelines(world.runs, world.qrels, world.clusters["official"])
    log = read_preferences(Path(data_dir) / "preferences.csv", set(world.runs.run),
                           set(world.qrels.topic))
    return world, timelines, log


def design_table(log: pd.DataFrame) -> pd.DataFrame:
    """Judgments per assessor, batch and sampling type."""
    return log.groupby(["assessor", "batch", "type"]).size().unstack(fill_value=0).reset_index()


def landis_koch_table(agg: pd.DataFrame, min_preferences: int = 0) -> pd.DataFrame:
    """Table 2: the range of bin kappas per metric with Landis & Koch's labels, over the bins
    resting on at least ``min_preferences`` preferences (0: every bin with a defined kappa)."""
    agg = agg[agg["preferences"] >= min_preferences] if min_preferences else agg
    ranges = agg.dropna(subset=["kappa"]).groupby("metric").kappa.agg(["min", "max"]).reindex(METRICS)
    return ranges.assign(min_label=ranges["min"].map(agreement_stats.landis_koch),
                         max_label=ranges["max"].map(agreement_stats.landis_koch)).reset_index()


def fleiss_vs_published(fk: float, n_pairs: int, n_raters: int, published: pd.DataFrame) -> pd.DataFrame:
    """Fleiss' kappa on the shared pairs beside the paper's."""
    return pd.DataFrame({"statistic": ["fleiss_kappa_shared", "shared_pairs", "assessors"],
                         "value_reproduced": [fk, n_pairs, n_raters]}).merge(
        published.rename(columns={"value": "value_published"}), on="statistic")


def paper_anova_p(f: float = 3.397, df1: int = 3, df2: int = 16) -> float:
    """The p-value of the paper's precision ANOVA, F(3, 16) = 3.397 (scipy; the paper: 0.0437):
    ``scipy.special.fdtrc``, the upper tail ``scipy.stats.f.sf`` computes."""
    from scipy.special import fdtrc

    return float(fdtrc(df1, df2, f))


def replication_power(f: float = 3.397, df1: int = 3, df2: int = 16, alpha: float = 0.05) -> float:
    """The chance that a new study like the paper's rejects again at ``alpha``, if the true effect is
    the one its F implies: ``P(F' > F_crit)`` for the noncentral F(df1, df2, lambda) with
    ``lambda = df1 F (df2 - 2)/df2 - df1`` (the moment estimate: ``E F' = df2 (df1 + lambda) /
    (df1 (df2 - 2))``), ``F_crit`` the upper ``alpha`` point of F(df1, df2) (scipy ``ncf``, ``f``).
    The paper's precision ANOVA, F(3, 16) = 3.397 (p = 0.0437): about 0.41."""
    from scipy import stats

    lam = max(df1 * f * (df2 - 2) / df2 - df1, 0.0)
    return float(stats.ncf.sf(stats.f.isf(alpha, df1, df2), df1, df2, lam))


def same_implied(jt: pd.DataFrame, a: str = "f1", b: str = "weighted_f1") -> tuple[int, int]:
    """On the judgments checked against both metrics ``a`` and ``b``: how many get the same
    implied choice from both, and how many there are.

    When the two agree on every judgment, every kappa not binned by the
    metric's own difference (Figure 9's time bins) is the same for both.
    """
    x, y = jt[jt.metric == a], jt[jt.metric == b]
    if len(x) != len(y) or not (x.pair_id.to_numpy() == y.pair_id.to_numpy()).all():
        raise ValueError(f"{a} and {b} are not checked on the same judgments")
    return int((x.implied.to_numpy() == y.implied.to_numpy()).sum()), len(x)


def time_panels(jt: pd.DataFrame) -> list[tuple[str, str]]:
    """Figure 9's panels ``(title, metric)``: weighted F1 joins F1's panel when the two imply the
    same choice on every F1-sampled judgment (then their time-binned kappas are identical)."""
    same, n = same_implied(jt)
    if n and same == n:
        return [(m.replace("_", " "), m) for m in METRICS[:3]] + [
            (f"f1 = weighted f1 (same implied choice on all {n} F1-sampled judgments)", "f1")]
    return [(m.replace("_", " "), m) for m in METRICS]
