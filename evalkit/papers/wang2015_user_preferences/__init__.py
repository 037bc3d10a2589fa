"""Wang, Sherman, Lin & Efron (SIGIR 2015) §5: do user preferences agree with the TTG metrics?

The declaration of ``notebooks/wang2015_user_preferences.ipynb``
(:data:`PARAMETERS`, :data:`NOTEBOOK`; its world is the §3–4 one, seed
:data:`evalkit.papers.wang2015_assessor_differences.TTG_SEED`) and its
pipeline, one module per experiment; every public name is importable from
here (``paper.agreement``), loaded on first use.

* :mod:`.study` — the study and its agreement: :func:`load_study`,
  :func:`judgment_table`, Cohen's kappa per bin (:func:`agreement`), Table 2
  (:func:`landis_koch_table`), Table 3 (:func:`anova_by_bin`), Fleiss' kappa
  on the shared pairs (:func:`shared_fleiss`).
* :mod:`.worlds` — beyond the paper: Table 3's precision ANOVA over
  simulated studies as the assessor who ignores precision keeps more of it
  (:func:`anova_worlds`, :func:`summarise_anova_worlds`).
* :mod:`.verdicts` — :func:`claims`, the paper's claims with the
  reproduction's verdicts.
* :mod:`.figures` — Figures 7–9 and the ANOVA worlds.
"""

from __future__ import annotations

from ..._lazy import exports
from ...simulate.preferences import simulate_preferences
from ... import paths
from ...declare import params
from ...declare.notebook import Comparison, Input, Notebook
from .. import wang2015_assessor_differences as assessor_differences

__getattr__, _dir, _exported = exports(__name__, {
    "study": ("METRICS_OF_TYPE", "BINS", "TIME_BIN", "METRICS", "implied_choice", "agreement",
              "anova_by_bin", "judgment_table", "shared_fleiss", "kappa_trend", "load_study",
              "design_table", "landis_koch_table", "fleiss_vs_published", "paper_anova_p"),
    "worlds": ("anova_worlds", "summarise_anova_worlds"),
    "verdicts": ("claims",),
    "figures": ("kappa_bars", "kappa_by_metric", "kappa_small_multiples", "anova_worlds_figure"),
})
__all__ = ["PARAMETERS", "NOTEBOOK", *_exported]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_dir()))


#: The notebook's parameters and their checks (see :mod:`evalkit.declare.params`).
PARAMETERS = {
    "alpha": params.number(lambda x: 0 < x < 1, "a number in (0, 1)"),
    "insensitive_shares": params.number_list(lambda x: 0 <= x <= 1, "a non-empty list of numbers "
                                                                     "in [0, 1]"),
    "studies": params.whole(1),
    "study_seed": params.whole(0),
    "data_dir": params.folder("an existing folder with qrels.txt, clusters-*.json, runs/ and "
                              "preferences.csv"),
}


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
        "anova_worlds.csv", "anova_worlds.md", "anova_worlds_studies.csv", "anova_worlds_studies.md",
        "anova_worlds.png", "anova_worlds.svg",
    ),
    quick={"insensitive_shares": [0, 1], "studies": 2},
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
        ("anova_worlds.png", "Why the precision ANOVA is not significant: p over simulated studies of "
                             "the paper's design, as the assessor who ignores precision keeps more of "
                             "its precision sensitivity (insensitive_share, 0 = the default model)."),
    ),
    expected_seconds=22,
)
