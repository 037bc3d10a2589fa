"""The reproduction report: ``figures/index.html``, generated from files only.

For each paper: every transcribed published table (``data/published/``) beside
its reproduced counterpart (a CSV a notebook wrote), with differences beyond
a tolerance highlighted; every figure with its caption; the paper's claims as
a checklist with the reproduction's verdict and number (the notebooks'
``claims.csv``); the parameters and seeds each notebook ran with and its run
time (from the executed notebooks' papermill metadata); package versions.
Rendered with Jinja2 (``evalkit/templates/report.html.j2``); images are
linked relatively, so the folder ``figures/`` is self-contained.
"""

from __future__ import annotations

import importlib.metadata
import platform
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from . import io, published
from .reproduce import NOTEBOOKS, ROOT

__all__ = ["COMPARISONS", "FIGURES", "build", "screenshot"]


@dataclass(frozen=True)
class Comparison:
    """A published table and the reproduced CSV it is compared with."""

    published: str            # data/published/<name>.csv
    reproduced: str           # path under figures/
    keys: tuple[str, ...]
    values: dict              # published column -> reproduced column
    tolerance: float = 0.0    # |difference| above which a cell is highlighted
    caption: str = ""
    prepare: str = ""         # name of a reshaping step for the published table


COMPARISONS = {
    "sakai2017": [
        Comparison("sakai2017_table1", "sakai2017/table1.csv", ("item",),
                   {"RawG": "RawG", "D": "D", "WG": "WG", "UG (p=0.2)": "UG (p=0.2)",
                    "UG (p=0.1)": "UG (p=0.1)"}, 0.05,
                   "Table 1, worked example (WG printed to one decimal in the paper)."),
        Comparison("sakai2017_table2", "sakai2017/table2.csv", ("measure", "dmax", "N"),
                   {"tau": "tau", "low": "low", "high": "high"}, 0.01,
                   "Table 2: Kendall tau between RawG and UG run rankings, 95% CI (simulated collection)."),
        Comparison("sakai2017_table3", "sakai2017/table3_counts.csv", ("measure", "dmax", "N"),
                   {"discrepancies": "discrepancies"}, 0.5,
                   "Table 3 summarised: number of randomised Tukey HSD discrepancies per condition.",
                   prepare="count_pairs"),
    ],
    "wang2015": [
        Comparison("wang2015_ari", "wang2015/ari_vs_published.csv", ("statistic",),
                   {"value_published": "value_reproduced"}, 0.05,
                   "Section 4.1: per-topic ARI and cluster counts.", prepare="as_is"),
        Comparison("wang2015_table1", "wang2015/table1.csv", ("metric",),
                   {"rank_swaps": "rank_swaps", "tau": "tau"}, 0.03,
                   "Table 1: rank swaps (of 1225 pairs) and Kendall tau, official vs alternate."),
        Comparison("wang2015_table3", "wang2015/table3_anova.csv", ("metric",),
                   {"F_published": "F", "p_published": "p"}, 0.05,
                   "§5 Table 3: ANOVA of per-assessor kappa across bins (simulated user model).",
                   prepare="as_is"),
        Comparison("wang2015_fleiss", "wang2015/fleiss_shared.csv", ("statistic",),
                   {"value_published": "value_reproduced"}, 0.05,
                   "§5: Fleiss' kappa on the pairs all assessors judged.", prepare="as_is"),
        Comparison("wang2015_ttg_official_scores", "wang2015/figure2_spread.csv",
                   ("statistic", "metric"), {"TREC 2014": "simulated"}, 0.05,
                   "Figure 2's data: spread of the official TREC 2014 scores vs the simulated runs.",
                   prepare="as_is"),
    ],
    "kim2010": [
        Comparison("kim2010_table1", "kim2010/table1.csv", ("noise_ratio",),
                   {m: m for m in ("ac-tau", "ac-sp", "wca-tau", "wca-sp", "rba-tau", "rba-sp",
                                   "frespa")}, 0.05,
                   "Table 1: ED per method and noise ratio (mean over noise draws)."),
        Comparison("kim2010_tables2-4", "kim2010/table2.csv", ("table", "value"),
                   {"original": "original_mean", "noisy": "noisy_mean"}, 0.05,
                   "Table 2: FreSPA's ED for wLen and wSup.", prepare="tables234"),
        Comparison("kim2010_tables2-4", "kim2010/table3.csv", ("table", "value"),
                   {"original": "original_mean", "noisy": "noisy_mean"}, 0.05,
                   "Table 3: FreSPA's ED for maxLen/k and minLen/k.", prepare="tables234"),
        Comparison("kim2010_tables2-4", "kim2010/table4.csv", ("table", "value"),
                   {"original": "original_mean", "noisy": "noisy_mean"}, 0.05,
                   "Table 4: FreSPA's ED for minSup.", prepare="tables234"),
    ],
    "real_data": [
        Comparison("wang2015_ari", "real_data/trec2014_facts.csv", ("fact",),
                   {"published": "computed"}, 0.0,
                   "TREC 2014 pool facts computed from the real qrels.", prepare="as_is"),
    ],
}

FIGURES = {
    "sakai2017": [
        ("table2_tau_grid.png", "Kendall tau (RawG vs UG) with 95% CI per measure, N and Dmax; "
                                "hollow markers: the paper's values."),
        ("replications.png", "Beyond the paper: tau and discrepancy counts over independent rating draws."),
    ],
    "wang2015": [
        ("figure2_precision_recall.png", "Figure 2: precision vs unweighted / weighted recall with "
                                         "iso-F1 contours; simulated runs (top), official TREC 2014 runs (bottom)."),
        ("ari_histogram.png", "Per-topic ARI between the official and alternate clusters."),
        ("figure3_cluster_timelines.png", "Figure 3: clusters of two topics, official (top) and alternate (bottom)."),
        ("figure4_official_vs_alternate.png", "Figure 4: every run's score under both cluster sets."),
        ("figure5_swap_histograms.png", "Figure 5: rank swaps binned by absolute score difference."),
        ("tau_vs_disagreement.png", "Beyond the paper: Kendall tau against assessor disagreement."),
        ("figure7_kappa.png", "Figure 7: Cohen's kappa per metric and bin of metric difference "
                              "(\"neither|preferences\" under each bar; simulated judgments)."),
        ("figure8_kappa_per_assessor.png", "Figure 8: kappa per metric (rows) and assessor (columns)."),
        ("figure9_kappa_by_time.png", "Figure 9: kappa by time spent, 30 s bins (missing bar: undefined)."),
    ],
    "kim2010": [
        ("ed_vs_noise.png", "ED against noise ratio per method (band: min-max over noise draws; "
                            "dashed: the paper)."),
    ],
    "real_data": [
        ("figure3_real_topics.png", "Figure 3 on the real TREC 2014 pool (topics 179 and 225, real "
                                    "titles and times; clusters simulated)."),
        ("stc_spread.png", "Spread D of ten real STC-ja ratings vs Sakai's uniform simulation."),
        ("stc_rawg_vs_ug.png", "RawG vs UG per STC-ja item, by spread D."),
    ],
}

TITLES = {
    "sakai2017": "Sakai (EVIA 2017): unanimity-aware gain",
    "wang2015": "Wang, Sherman, Lin & Efron (SIGIR 2015): assessor differences and user preferences in TTG",
    "kim2010": "Kim, Zhai & Han (ECIR 2010): aggregating ideal orderings",
    "real_data": "Real public data: TREC 2014 Microblog and NTCIR-12 STC Japanese",
}

PACKAGES = ("numpy", "scipy", "pandas", "numba", "statsmodels", "scikit-learn", "matplotlib",
            "seaborn", "papermill", "jinja2")


def _published_frame(c: Comparison) -> pd.DataFrame:
    frame = published.load(c.published)
    if c.prepare == "count_pairs":
        frame = frame.groupby(list(c.keys)).size().rename("discrepancies").reset_index()
    elif c.prepare == "tables234":
        frame = frame.astype({"value": float})
    return frame


def _comparison_table(c: Comparison, figures: Path) -> dict | None:
    path = figures / c.reproduced
    if not path.is_file():
        return None
    rep = pd.read_csv(path)
    if c.prepare == "as_is":  # the notebook already wrote both columns side by side
        merged = rep
        pairs = list(c.values.items())
    else:
        pub = _published_frame(c)
        for k in c.keys:
            if k in rep and k in pub and rep[k].dtype != pub[k].dtype:
                rep[k], pub[k] = rep[k].astype(str), pub[k].astype(str)
        pub = pub[list(c.keys) + list(c.values)].rename(columns={k: f"{k} (published)" for k in c.values})
        rep = rep[list(c.keys) + list(c.values.values())].rename(
            columns={v: f"{v} (reproduced)" for v in c.values.values()})
        how = "left" if c.prepare != "count_pairs" else "right"
        merged = pub.merge(rep, on=list(c.keys), how=how)
        if c.prepare == "count_pairs":
            merged = merged.fillna({"discrepancies (published)": 0})
        pairs = [(f"{p} (published)", f"{r} (reproduced)") for p, r in c.values.items()]
    header = list(c.keys) + [col for pair in pairs for col in pair]
    rows = []
    n_diff = 0
    for _, row in merged.iterrows():
        cells = [{"text": _fmt(row[k]), "cls": "key"} for k in c.keys]
        for pcol, rcol in pairs:
            a, b = row.get(pcol), row.get(rcol)
            differs = _differs(a, b, c.tolerance)
            n_diff += differs
            cells.append({"text": _fmt(a), "cls": "pub"})
            cells.append({"text": _fmt(b), "cls": "diff" if differs else "same"})
        rows.append(cells)
    return {"published": c.published, "reproduced": c.reproduced, "caption": c.caption,
            "header": header, "rows": rows, "n_diff": n_diff, "tolerance": c.tolerance}


def _differs(a, b, tol) -> bool:
    try:
        a, b = float(a), float(b)
    except (TypeError, ValueError):
        return str(a) != str(b)
    if np.isnan(a) or np.isnan(b):
        return not (np.isnan(a) and np.isnan(b))
    return abs(a - b) > tol + 1e-12


def _fmt(v) -> str:
    if isinstance(v, (float, np.floating)):
        if np.isnan(v):
            return "–"
        return f"{v:.4g}" if abs(v) < 1000 else f"{v:,.0f}"
    return str(v)


def _run_info(executed: Path) -> dict:
    import nbformat
    import papermill

    out = {}
    for nb in NOTEBOOKS:
        path = executed / nb.path.name
        if not path.is_file():
            continue
        meta = nbformat.read(path, as_version=4).metadata.get("papermill", {})
        defaults = {k: v["default"] for k, v in papermill.inspect_notebook(str(nb.path)).items()}
        params = {**defaults, **meta.get("parameters", {})}
        params.pop("out_dir", None)
        out.setdefault(nb.paper, []).append({"notebook": f"notebooks/{nb.path.name}",
                                             "seconds": meta.get("duration"), "parameters": params})
    return out


def build(figures: Path | None = None, executed: Path | None = None,
          total_seconds: float | None = None) -> Path:
    """Render ``figures/index.html`` from the generated files; returns its path."""
    import jinja2

    figures = Path(figures or ROOT / "figures")
    executed = Path(executed or ROOT / "build" / "notebooks")
    runs = _run_info(executed)
    sections = []
    for paper, title in TITLES.items():
        if not (figures / paper).is_dir():
            continue
        claims = [c for path in sorted((figures / paper).glob("claims*.csv"))
                  for c in pd.read_csv(path).to_dict("records")]
        sections.append({
            "id": paper, "title": title,
            "tables": [t for c in COMPARISONS.get(paper, []) if (t := _comparison_table(c, figures))],
            "figures": [{"src": f"{paper}/{f}", "caption": cap} for f, cap in FIGURES.get(paper, [])
                        if (figures / paper / f).is_file()],
            "claims": claims,
            "held": sum(c["verdict"] == "holds" for c in claims),
            "runs": runs.get(paper, []),
        })
    versions = {}
    for p in PACKAGES:
        try:
            versions[p] = importlib.metadata.version(p)
        except importlib.metadata.PackageNotFoundError:
            versions[p] = "not installed"
    env = jinja2.Environment(loader=jinja2.PackageLoader("evalkit", "templates"),
                             autoescape=jinja2.select_autoescape(["html", "j2"]))
    html = env.get_template("report.html.j2").render(
        sections=sections, versions=versions, python=platform.python_version(),
        total_seconds=total_seconds,
        notebook_seconds=sum(r["seconds"] or 0 for s in sections for r in s["runs"]))
    return io.write_text(figures / "index.html", html)


CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars")


def screenshot(page: Path | None = None, target: Path | None = None, height: int = 2400) -> Path:
    """Render the report in headless Chromium (Debian package ``chromium``) to a PNG.

    Raises ``FileNotFoundError`` naming the package when Chromium is absent.
    """
    import shutil
    import subprocess
    import tempfile

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise FileNotFoundError("headless Chromium not found: install the Debian package "
                                "`chromium` (apt-get install chromium)")
    page = Path(page or ROOT / "figures" / "index.html").resolve()
    target = Path(target or ROOT / "build" / "report.png").resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                        f"--window-size=1200,{height}", f"--screenshot={target}", page.as_uri()],
                       check=True, capture_output=True, timeout=120)
    return target
