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
* :mod:`.kappa` — :func:`kappa_of_tables`, Cohen's kappa and its interval
  for many tables at once (the same values as :mod:`evalkit.stats.agreement`).
* :mod:`.worlds` — the study drawn again: Table 3 for every metric and each
  study's outcomes over simulated studies (:func:`anova_worlds`,
  :func:`study_outcomes`); beyond the paper, the precision ANOVA as the
  assessor who ignores precision keeps more of it
  (:func:`summarise_anova_worlds`).
* :mod:`.verdicts` — :func:`claims`, the paper's claims and the calibration
  targets with verdicts over the simulated studies.
* :mod:`.anova_claims` — Table 3's rows of :func:`claims`: not testable (the
  user model decides them), with what the studies give and what else stands
  in the way (degrees of freedom, the paper's own p).
* :mod:`.design_claims` — §5.1's design as the simulated studies reach it:
  the procedure the sampler builds in, and the equal thirds per sampling type
  the simulated runs cannot give.
* :mod:`.figures` — Figures 7–9 and the ANOVA worlds.
"""

from __future__ import annotations

from ..._lazy import exports
from ...simulate.preferences import simulate_preferences
from ... import paths
from ...declare import params
from ...declare.notebook import Comparison, Input, Notebook
from ...declare.claims import MIN_DRAWS
from .. import wang2015_assessor_differences as assessor_differences

__getattr__, _dir, _exported = exports(__name__, {
    "study": ("METRICS_OF_TYPE", "BINS", "BIN_LABELS", "TIME_BIN", "TIME_CAP", "time_bins", "same_implied", "time_panels", "METRICS", "implied_choice", "agreement", "agreement_by",
              "anova_by_bin", "judgment_table", "shared_fleiss", "kappa_trend", "load_study",
              "design_table", "landis_koch_table", "fleiss_vs_published", "paper_anova_p", "replication_power"),
    "worlds": ("MIN_PREFERENCES", "StudyDraws", "anova_worlds", "study_outcomes", "summarise_anova_worlds"),
    "kappa": ("kappa_of_tables",),
    "verdicts": ("claims",),
    "figures": ("kappa_bars", "kappa_by_metric", "kappa_by_time", "kappa_small_multiples",
                "anova_worlds_figure"),
})
__all__ = ["PARAMETERS", "NOTEBOOK", *_exported]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_dir()))


#: The notebook's parameters and their checks (see :mod:`evalkit.declare.params`).
PARAMETERS = {
    "alpha": params.number(lambda x: 0 < x < 1, "a number in (0, 1)"),
    "insensitive_shares": params.number_list(lambda x: 0 <= x <= 1, "a non-empty list of numbers "
                                                                     "in [0, 1]"),
    "studies": params.whole(MIN_DRAWS),
    "study_seed": params.whole(0),
    "data_dir": params.folder("an existing folder with qrels.txt, clusters-*.json, runs/ and "
                              "preferences.csv"),
}


_BARS = ("Error bars: 95% large-sample interval (Fleiss, Cohen & Everitt 1969), clipped to "
         "kappa's range [-1, 1], a triangle marking a clipped end; \"neither|preferences\" counts above "
         "each bin; an empty place: no judgment or an undefined kappa.")


NOTEBOOK = Notebook(
    name="wang2015_user_preferences",
    paper="wang2015",
    title=assessor_differences.NOTEBOOK.title,
    parameters=PARAMETERS,
    inputs=(*assessor_differences.NOTEBOOK.inputs,
            Input("data/raw/ttg/preferences.csv",
                  lambda: simulate_preferences(paths.RAW / "ttg", seed=assessor_differences.TTG_SEED))),
    outputs=tuple(f"{stem}.{ext}" for stem, exts in (
        ("preferences_design", ("csv", "md")), ("figure7_kappa", ("csv", "md", "png", "svg")),
        ("figure8_kappa_per_assessor", ("csv", "md", "png", "svg")),
        ("table2_landis_koch", ("csv", "md")), ("table3_anova", ("csv", "md")),
        ("figure9_kappa_by_time", ("csv", "md", "png", "svg")), ("fleiss_shared", ("csv", "md")),
        ("anova_worlds", ("csv", "md", "png", "svg")), ("anova_worlds_studies", ("csv", "md")),
        ("study_draws", ("csv", "md")), ("claims_preferences", ("csv", "md"))) for ext in exts),
    quick={"insensitive_shares": [0], "studies": MIN_DRAWS},
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
        ("figure7_kappa.png", "Figure 7: Cohen's kappa per metric and bin of |metric difference| "
                              "(simulated judgments); pale hatched bars rest on fewer than 20 preferences, "
                              "the claims' threshold. " + _BARS),
        ("figure8_kappa_per_assessor.png", "Figure 8: kappa per metric (rows) and assessor (columns), "
                                           "Figure 7's bins at the same positions. " + _BARS),
        ("figure9_kappa_by_time.png", "Figure 9: kappa by time spent on the comparison, 30 s bins, "
                                      "the last bin pooling the slow judgments (a dash: kappa 0). "
                                      + _BARS),
        ("anova_worlds.png", "Why the precision ANOVA of the simulated users is rarely significant: p "
                             "over simulated studies (the paper's sampling procedure on the simulated runs), "
                             "as the assessor who ignores precision keeps more of its precision sensitivity "
                             "(0 = the default user model); right: the share of studies with p < 0.05, error "
                             "bars its 95% Wilson interval."),
    ),
    not_reproduced=(
        ("Figure 6", "a screenshot of the web interface that collected the preferences; here the "
                     "judgments are simulated by a user model, so there is no interface to show."),
        ("§5.2, why precision agreement is low", "the paper's explanation (an artefact of discarding "
                     "long runs, where poor precision costs the reader little) is about real readers; the "
                     "simulated users' choice does not depend on timeline length, so it cannot be tested "
                     "here (the low agreement itself is a claim row)."),
        ("§5.2, why weighted F1's p is high", "the paper's two explanations (assessors cannot judge "
                     "importance, or the weights miss it) are about real users; the simulated users weigh "
                     "weighted recall by construction."),
    ),
    expected_seconds=7,
)
