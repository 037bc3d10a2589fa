"""Few human labels, many LLM labels: the chapter of ``evalkit estimate`` and ``--fill``.

The pipeline of ``notebooks/few_human_labels.ipynb`` and its declaration
:data:`NOTEBOOK`, one module per experiment:

* :mod:`.coverage` — do the intervals hold?  The coverage study of
  :mod:`evalkit.evaluate.estimation.coverage` in small (three simulated worlds
  where the truth is known); the full study is ``make sweep-ppi-coverage``.
* :mod:`.llm_judges` — LLMJudge 2024's 33 LLM judges as proxies for its human
  labels: PPI's interval width against the humans-only one per judge, and the
  circularity experiment (a run ranking by one judge's own labels).
* :mod:`.pool_depth` — holes in shallow pools (Upadhyay, Kamalloo & Lin 2024):
  holes as non-relevant, condensed lists, or filled by an LLM judge.
* :mod:`.verdicts` — the claims table; :mod:`.figures` — the figures.

The LLMJudge labels are real; its runs are simulated over the judged pool (no
system runs were released with the challenge), so no claim rests on them: the
claims that would are "not testable here", and the chapter's numbers on them
are worked examples of the methods.
"""

from __future__ import annotations

from ..._lazy import exports
from ...declare import params
from ...declare.notebook import Notebook
from ..llmjudge2024 import REQUIRED, _installed

__getattr__, __dir__, _exported = exports(__name__, {
    "coverage": ("NS", "quick_coverage", "holds_table"),
    "llm_judges": ("Panel", "judge_agreement", "panel", "width_table", "circularity_table",
              "singled_out"),
    "pool_depth": ("DEPTHS", "STRATEGIES", "pool_depth_study"),
    "figures": ("coverage_figure", "width_figure", "pool_depth_figure"),
    "verdicts": ("claims", "holding_variants"),
})

__all__ = ["NOTEBOOK", "PARAMETERS", *_exported]

#: The notebook's parameters and their checks (see :mod:`evalkit.declare.params`).
PARAMETERS = {
    "external_dir": _installed,
    "draws": params.whole(10),
    "pool": params.whole(100),
    "width_draws": params.whole(10),
    "trials": params.whole(100),
    "alpha": params.number(lambda x: 0 < x < 1, "a number in (0, 1)"),
    "seed": params.whole(0),
}

_TABLES = ("coverage", "widths", "circularity", "pool_depth", "pool_depth_shifts", "claims")

NOTEBOOK = Notebook(
    name="few_human_labels",
    paper="few_human_labels",
    title="Few human labels, many LLM labels",
    parameters=PARAMETERS,
    outputs=tuple([f"{stem}.{ext}" for stem in _TABLES for ext in ("csv", "md")]
                  + [f"{stem}.{ext}" for stem in ("coverage", "width_ratio", "pool_depth")
                     for ext in ("png", "svg")]),
    quick={"draws": 40, "pool": 300, "width_draws": 20, "trials": 300},
    needs_data=REQUIRED,
    figures=(
        ("coverage.png", "Coverage of the 95% intervals of the humans-only (classical), PPI and "
                         "PPI++ estimates in three simulated worlds where the truth is known "
                         "(n human topics of 200), normal and t quantiles and the bootstrap-t, "
                         "bars 2 Monte Carlo errors; below, the width over the classical "
                         "interval's (bootstrap-t widths clipped to [0, 1]). A quick "
                         "version of the coverage study (make sweep-ppi-coverage)."),
        ("width_ratio.png", "LLMJudge 2024: each LLM judge's PPI and PPI++ interval width over "
                            "the humans-only width with 10 of 25 topics human-labelled, judges "
                            "ordered by their ordinal alpha with the humans (real labels, "
                            "simulated runs)."),
        ("pool_depth.png", "Pools of depth 10, 20 and 50 from half of the simulated runs over "
                           "the LLMJudge pool: Kendall's tau of the leaderboard against the full "
                           "human qrels with holes as non-relevant, condensed lists, or holes "
                           "filled by an LLM judge, and each left-out run's score shift."),
    ),
    not_reproduced=(
        ("Upadhyay, Kamalloo & Lin's (2024) numbers on TREC DL",
         "Their runs and pools are not in the data; the study is redone in their style on "
         "runs simulated over the LLMJudge pool"),
    ),
    expected_seconds=15,
)
