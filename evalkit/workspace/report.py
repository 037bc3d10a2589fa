"""The reproduction report: ``figures/index.html``, generated from files only.

For each paper: every transcribed published table (``data/published/``) beside
its reproduced counterpart (a CSV a notebook wrote), with differences beyond
a tolerance highlighted; every figure with its caption; the paper's claims as
a checklist with the reproduction's verdict and number (the notebooks'
``claims.csv``, read by :mod:`evalkit.workspace.findings`); the parameters
and seeds each notebook ran with and its run time (from the executed
notebooks' papermill metadata); package versions.
Rendered with Jinja2 (``evalkit/workspace/templates/report.html.j2``); images are
linked relatively, so the folder ``figures/`` is self-contained.
"""

from __future__ import annotations

import importlib.metadata
import platform
from pathlib import Path

import numpy as np
import pandas as pd

from .. import papers, paths
from ..declare.claims import RULE, SIMULATED_NOTE, tally_text
from ..declare.notebook import Comparison
from ..outputs import write_text
from . import findings, published

__all__ = ["build", "screenshot", "sections"]


def sections() -> dict[str, dict]:
    """Report sections by output folder, in registry order: title, comparisons, figures, notebooks."""
    out: dict[str, dict] = {}
    for nb in papers.notebooks():
        s = out.setdefault(nb.paper, {"title": nb.title, "comparisons": [], "figures": [],
                                      "notebooks": []})
        s["comparisons"] += nb.comparisons
        s["figures"] += nb.figures
        s["notebooks"].append(nb)
    return out


PACKAGES = ("numpy", "scipy", "pandas", "numba", "statsmodels", "scikit-learn", "matplotlib",
            "seaborn", "papermill", "jinja2")


def _published_frame(c: Comparison) -> pd.DataFrame:
    frame = published.load(c.published)
    return c.prepare(frame) if c.prepare else frame


def _comparison_table(c: Comparison, figures: Path) -> dict | None:
    path = figures / c.reproduced
    if not path.is_file():
        return None
    rep = pd.read_csv(path)
    if c.joined:  # the notebook already wrote both columns side by side
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
        merged = pub.merge(rep, on=list(c.keys), how=c.how)
        if c.fill_published is not None:
            merged = merged.fillna({f"{p} (published)": c.fill_published for p in c.values})
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
    import json

    out = {}
    for nb in papers.notebooks():
        path = executed / nb.path.name
        if not path.is_file():
            continue
        meta = json.loads(path.read_text()).get("metadata", {}).get("papermill", {})
        params = {**nb.defaults(), **meta.get("parameters", {})}
        params.pop("out_dir", None)
        out.setdefault(nb.paper, []).append({"notebook": f"notebooks/{nb.path.name}",
                                             "seconds": meta.get("duration"), "parameters": params})
    return out


def build(figures: Path | None = None, executed: Path | None = None,
          total_seconds: float | None = None) -> Path:
    """Render ``figures/index.html`` from the generated files; returns its path."""
    import jinja2

    figures = Path(figures or paths.FIGURES)
    executed = Path(executed or paths.EXECUTED)
    runs = _run_info(executed)
    rendered = []
    for paper, section in sections().items():
        if not (figures / paper).is_dir():
            continue
        claims = findings.paper_claims(figures / paper)
        rendered.append({
            "id": paper, "title": section["title"],
            "tables": [t for c in section["comparisons"] if (t := _comparison_table(c, figures))],
            "figures": [{"src": f"{paper}/{f}", "caption": cap} for f, cap in section["figures"]
                        if (figures / paper / f).is_file()],
            "claims": findings.of_kind(claims, "paper"),
            "beyond": findings.of_kind(claims, "beyond"),
            "checks": findings.of_kind(claims, "calibration") + findings.of_kind(claims, "identity"),
            "tally": tally_text(claims, "paper"),
            "simulated": not any(nb.needs_data for nb in section["notebooks"]),
            "tally_beyond": tally_text(claims, "beyond"),
            "runs": runs.get(paper, []),
        })
    from .sweeps.recipes import RECIPES

    sweeps = [{"src": r.figure, "caption": r.caption, "command": r.command}
              for r in RECIPES.values() if (figures / r.figure).is_file()]
    versions = {}
    for p in PACKAGES:
        try:
            versions[p] = importlib.metadata.version(p)
        except importlib.metadata.PackageNotFoundError:
            versions[p] = "not installed"
    env = jinja2.Environment(loader=jinja2.PackageLoader("evalkit.workspace", "templates"),
                             autoescape=jinja2.select_autoescape(["html", "j2"]))
    html = env.get_template("report.html.j2").render(
        sections=rendered, rule=RULE, simulated_note=SIMULATED_NOTE, not_reproduced=findings.not_reproduced(), sweeps=sweeps, versions=versions, python=platform.python_version(),
        total_seconds=total_seconds,
        notebook_seconds=sum(r["seconds"] or 0 for s in rendered for r in s["runs"]))
    return write_text(figures / "index.html", html)


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
    page = Path(page or paths.FIGURES / "index.html").resolve()
    target = Path(target or paths.BUILD / "report.png").resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                        f"--window-size=1200,{height}", f"--screenshot={target}", page.as_uri()],
                       check=True, capture_output=True, timeout=120)
    return target
