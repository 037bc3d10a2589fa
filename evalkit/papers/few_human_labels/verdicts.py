"""The chapter's claims table: what the coverage study shows, and what 25 topics cannot.

Rows resting on the coverage study's simulated worlds (where the truth is
known; each coverage a share over the draws, with its Monte Carlo error) are
``beyond`` rows: questions the workspace asks of the method.  Nothing rests on
the runs simulated over the LLMJudge 2024 pool: the rows about circularity and
holes are *not testable here*, with the reason, and the chapter's tables are
their worked examples.
"""

from __future__ import annotations

import pandas as pd

from ...declare.claims import Claims
from .coverage import holds_table
from .history import REVISED

__all__ = ["claims", "holding_variants"]

_SIMULATED = ("the runs are simulated over the LLMJudge 2024 pool (no system runs were "
              "released), so a verdict would be about the simulator, not about systems; "
              "{file} is a worked example")


def _span(values) -> str:
    return f"{min(values):.3f}-{max(values):.3f}"


def holding_variants(coverage: pd.DataFrame) -> pd.DataFrame:
    """Per setting and ``n``: the PPI variants (``ppi``, ``ppi++`` x every interval) within
    95% +- 2 MC errors (``holding``), and the one nearest 0.95 from below when none is
    (``best``, its coverage and MC error): the rule declared in ``docs/estimate.md``."""
    h = holds_table(coverage)
    rows = []
    for (setting, n), part in h[h["method"].isin(["ppi", "ppi++"])].groupby(["setting", "n"],
                                                                           sort=False):
        ok = part[part["verdict"] == "holds"]
        best = part.loc[(part["coverage"] - 0.95).abs().idxmin()]
        rows.append({"setting": setting, "n": n,
                     "holding": ", ".join(f"{m} {i} {c:.3f}" for m, i, c in
                                          zip(ok["method"], ok["interval"], ok["coverage"])),
                     "best": f"{best['method']} {best['interval']}",
                     "coverage": best["coverage"], "mc_error": best["mc_error"],
                     "verdict": best["verdict"]})
    return pd.DataFrame(rows)


def claims(coverage: pd.DataFrame) -> pd.DataFrame:
    """``claims.csv`` from ``coverage.csv``'s rows (the quick study of the notebook)."""
    c = Claims(history=REVISED)
    h = holds_table(coverage)
    cells = holding_variants(coverage)
    none = cells[cells["holding"] == ""]
    c.add("At every setting and n (10, 25, 50 human topics of 200) some PPI interval variant "
          "(ppi or ppi++ with normal, t or bootstrap-t intervals) covers the truth within 95% "
          "+- 2 Monte Carlo errors (the issue's rule, declared before the bootstrap-t's numbers)",
          f"{len(cells) - len(none)} of {len(cells)} setting x n cells have one",
          none.empty,
          "" if none.empty else "none holds at " + "; ".join(
              f"{r.setting} n = {r.n} (nearest: {r.best} {r.coverage:.3f}, 2 MC errors "
              f"{2 * r.mc_error:.3f}, {r.verdict})" for r in none.itertuples())
          + "; see few_human_labels/coverage.csv", kind="beyond",
          id="some-ppi-variant-holds-at-every-n")
    ppi_t = h[(h["method"] == "ppi") & (h["interval"] == "t") & (h["n"] >= 25)]
    c.add("PPI's interval with t quantiles covers the truth within 95% +- 2 Monte Carlo errors "
          "at n = 25 and 50 human topics in all three worlds",
          f"coverage {_span(ppi_t['coverage'])} over {len(ppi_t)} setting x n cells "
          f"(MC error up to {ppi_t['mc_error'].max():.3f})", (ppi_t["verdict"] != "under").all(),
          "" if (ppi_t["verdict"] != "under").all() else
          "see few_human_labels/coverage.csv: the cells marked under", kind="beyond",
          id="ppi-t-covers-at-25-and-50")
    biased = h[(h["method"] == "proxy") & h["setting"].isin(["lenient", "favouring"])]
    c.add("Where the LLM judge is biased (lenient, favouring one run), the LLM-only interval "
          "undercovers at every n",
          f"proxy-only coverage {_span(biased['coverage'])}",
          (biased["verdict"] == "under").all(),
          "" if (biased["verdict"] == "under").all() else "see few_human_labels/coverage.csv",
          kind="beyond", id="proxy-undercovers-when-biased")
    tuned = coverage[coverage["method"] == "ppi++"]
    c.add("PPI++'s interval is narrower than the humans-only interval in every world and n",
          f"width / classical width {_span(tuned['width_ratio'])}",
          (tuned["width_ratio"] < 1).all(),
          "" if (tuned["width_ratio"] < 1).all() else "see few_human_labels/coverage.csv",
          kind="beyond", id="ppi-plus-plus-narrower")
    c.add_not_testable("An LLM judge favours a run that ranks with its own labels, and other "
                       "LLM judges favour it too (circularity)",
                       _SIMULATED.format(file="few_human_labels/circularity.csv"),
                       evidence="a worked example: few_human_labels/circularity.csv",
                       kind="beyond", id="circularity-shared-by-judges")
    c.add_not_testable("Filling the holes of a shallow pool with an LLM's labels keeps the "
                       "leaderboard closer to the full-qrels one than counting holes "
                       "non-relevant or condensing the lists (Upadhyay, Kamalloo & Lin 2024)",
                       _SIMULATED.format(file="few_human_labels/pool_depth.csv"),
                       evidence="a worked example: few_human_labels/pool_depth.csv",
                       kind="beyond", id="filled-pool-closer")
    return c.frame()
