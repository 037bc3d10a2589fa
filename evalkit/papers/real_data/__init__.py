"""Analyses that the real public data makes possible (installed by ``evalkit data fetch``).

The pipeline of ``notebooks/real_data.ipynb`` and its declaration :data:`NOTEBOOK`,
one module per experiment (the notebook imports them all from here):

* :mod:`.trec2014` — TREC 2014 Microblog: the pool's facts computed from the
  real qrels beside their stated values and who states them (Wang et al.
  SIGIR 2015 §4.1: 55 topics, 194 relevant tweets per topic; the qrels' own
  count of judgments), and the ARI summary of the TTG simulator run over the
  real pool (real topics, tweets, grades and snowflake times) beside the
  paper's, so that Figure 3 can be drawn for the paper's own topics 179 and
  225 with their real titles and the paper's ARI beside the simulated one.
* :mod:`.stc_rawg_vs_ug` — NTCIR-12 STC Japanese: ten real ratings per item,
  exactly what Sakai (EVIA 2017) names as future work.  :func:`stc_spread`
  compares the rating spread D with Sakai's uniform simulation;
  :func:`stc_experiment` ranks the real pool with simulated runs and
  compares RawG vs UG (tau, HSD discrepancies) under the real ratings and
  under uniform ratings.
* Beyond the paper: :mod:`.stc_assessors_n` keeps N of the ten real
  assessors per item (:func:`assessor_subsets`); :mod:`.stc_agreement` draws
  ratings around each item's real mean with a controlled noise
  (:func:`agreement_worlds`); :mod:`.stc_controls` separates agreement from
  the runs' signal (RawG fixed with unanimity varied; real rating vectors
  shuffled; :func:`control_worlds`), to explain the real-vs-uniform rows.
* :mod:`.verdicts` — :func:`claims`, the findings with their verdicts (the
  claim texts are :data:`CLAIMS`, their kinds and the papers' words
  :data:`SOURCES`; verdicts over uniform draws and subsets, :data:`VARIES`),
  and :func:`tau_sentence`, the findings' sentence generated from them.
* :mod:`.figures` — the notebook's figures.
"""

from __future__ import annotations

from pathlib import Path

from ..._lazy import exports
from ...errors import ParameterError
from ... import data
from ...declare import params
from ...declare.notebook import Comparison, Notebook
from .. import sakai2017_unanimity_gain as unanimity

# the steps load when first used: the runner reads NOTEBOOK without importing scipy or numba
__getattr__, _dir, _exported = exports(__name__, {
    "figures": ("agreement_figure", "controls_figure", "gain_scatter", "real_pool_timelines",
                "spread_comparison", "subsets_figure"),
    "stc_agreement": ("NOISE_GRID", "agreement_worlds"),
    "stc_assessors_n": ("N_GRID", "assessor_subsets", "replicate_slopes", "subset_summary", "tau_trend",
                        "trend_sentence", "uniform_share_below_dmax"),
    "stc_controls": ("DISAGREE_GRID", "control_worlds", "controls_summary"),
    "stc_rawg_vs_ug": ("load_stc", "missing_ratings_summary", "rawg_vs_ug", "rawg_vs_ug_many",
                       "split_by_topic", "stc_collection", "stc_experiment", "stc_spread",
                       "stc_summary"),
    "trec2014": ("PAPER_ARI", "PAPER_FACTS", "PAPER_TOPIC_ARI", "STATED", "ari_table",
                 "timeline_panels", "trec2014_facts"),
    "verdicts": ("CLAIMS", "NOT_TESTABLE_WHY", "SOURCES", "TREND_LEVELS", "TREND_RULE", "VARIES", "claims",
                 "tau_sentence"),
})


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_dir()))


__all__ = [
    # the declaration
    "NOTEBOOK", "PARAMETERS", "REQUIRED",
    # TREC 2014 Microblog
    "PAPER_FACTS", "STATED", "PAPER_ARI", "PAPER_TOPIC_ARI", "trec2014_facts", "ari_table",
    "timeline_panels",
    # STC-ja: the collection and RawG vs UG
    "load_stc", "missing_ratings_summary", "stc_spread", "stc_collection", "split_by_topic",
    "rawg_vs_ug", "rawg_vs_ug_many", "stc_experiment", "stc_summary",
    # beyond the paper
    "N_GRID", "assessor_subsets", "uniform_share_below_dmax", "subset_summary", "replicate_slopes",
    "tau_trend", "trend_sentence",
    "NOISE_GRID", "agreement_worlds",
    "DISAGREE_GRID", "control_worlds", "controls_summary",
    # claims and figures
    "CLAIMS", "SOURCES", "VARIES", "NOT_TESTABLE_WHY", "TREND_RULE", "TREND_LEVELS", "claims", "tau_sentence",
    "real_pool_timelines", "spread_comparison", "gain_scatter", "subsets_figure", "agreement_figure", "controls_figure",
]

#: Data sets the real-data notebook needs.
REQUIRED = ("trec2014-qrels", "trec2014-topics", "stc-ja-test", "stc-ja-dev")


def _installed(name, v):
    missing = [d for d in REQUIRED if not data.available(d, Path(v))]
    if missing:
        raise ParameterError(name, v, f"a folder holding {missing} (run `make data`)")


#: The notebook's parameters and their checks (see :mod:`evalkit.declare.params`).
PARAMETERS = {
    **{k: unanimity.PARAMETERS[k] for k in ("p", "trials", "alpha", "seed", "replications")},
    "external_dir": _installed,
    "stc_teams": params.whole(2),
    "stc_runs": params.whole(2),
    "timeline_topics": params.pair("a list of two topic ids"),
    "subsets": params.whole(),
    "control_draws": params.whole(),
}


NOTEBOOK = Notebook(
    name="real_data",
    paper="real_data",
    title="Real public data: TREC 2014 Microblog and NTCIR-12 STC Japanese",
    parameters=PARAMETERS,
    outputs=tuple(
        [f"{stem}.{ext}" for stem in ("trec2014_facts", "ari_real_pool", "stc_spread", "stc_rawg_vs_ug",
                                       "stc_dev_missing", "stc_summary", "claims", "stc_assessors_n",
                                       "stc_assessors_n_summary", "stc_agreement", "stc_controls",
                                       "stc_controls_summary", "stc_who_judged_tau")
                             for ext in ("csv", "md")]
        + [f"stc_who_judged_{table}.csv"
           for table in ("leaderboards", "rank_correlation", "agreement", "verdict_stability")]
        + [f"{stem}.{ext}" for stem in ("figure3_real_topics", "stc_spread", "stc_rawg_vs_ug",
                                       "stc_assessors_n", "stc_agreement", "stc_controls",
                                       "stc_who_judged")
           for ext in ("png", "svg")]),
    # verdicts over draws need R >= 20 uniform draws and subset replicates, even in a quick run
    quick={"trials": 200, "replications": 20, "subsets": 20, "control_draws": 1},
    needs_data=REQUIRED,
    comparisons=(
        Comparison("wang2015_ari", "real_data/trec2014_facts.csv", ("fact", "stated_by"),
                   {"published": "computed"}, 0.5,
                   "TREC 2014 pool facts computed from the real qrels beside their stated values "
                   "and who states them: 55 topics and 194 relevant tweets per topic are Wang et "
                   "al.'s (§4.1; the qrels give 10,645 / 55 = 193.5, stated as a whole tweet; the "
                   "tolerance of 0.5 is a workspace reading, the paper states no rounding rule); 57,985 judgments is the qrels' own count.",
                   joined=True),
    ),
    figures=(
        ("figure3_real_topics.png", "Figure 3 on the real TREC 2014 pool (topics 179 and 225, real "
                                    "titles and times; clusters simulated): each panel's title "
                                    "gives the simulated assessors' ARI for the topic and, in "
                                    "brackets, the paper's (§4.1: 0.687 and 0.305; its mean over "
                                    "topics 0.445, ours in ari_real_pool.md)."),
        ("stc_spread.png", "Spread D of ten real STC-ja ratings vs Sakai's uniform simulation "
                           "(share of the relevant items at each D; one uniform draw)."),
        ("stc_rawg_vs_ug.png", "RawG vs UG per STC-ja item, coloured by spread D; point area is the "
                               "number of items; dashed UG = RawG."),
        ("stc_assessors_n.png", "Beyond the paper: N of the ten real STC-ja assessors per item; tau "
                                "and HSD discrepancies of RawG vs UG against N. Filled markers: mean "
                                "over the seeded subsets with error bars the 95% t interval of that "
                                "mean; open diamonds: N = 10, all ten assessors, one set, with the "
                                "95% confidence interval of its one tau (dashed). Tau axis from 0.9. "
                                "Runs simulated over the real pool."),
        ("stc_agreement.png", "Why real and uniform ratings differ: ratings drawn around each item's "
                              "real mean with noise sigma (only sigma varies, one draw each); thin "
                              "lines real ratings, dotted the mean of the uniform draws."),
        ("stc_controls.png", "Agreement vs the runs' signal: unanimity varied with each item's real "
                             "RawG fixed (left, mean of draws); right: tau per world at fixed "
                             "positions, error bars the range (min to max) over the draws (uniform "
                             "`replications`, shuffled `control_draws`; the real ratings are one "
                             "set)."),
        ("stc_who_judged.png", "Beyond the paper (evalkit assessors): each simulated run's rank "
                               "(1 = best) under every judge (pooled gains, the median, "
                               "Dawid-Skene, AWARE, each real assessor alone, all but one), one "
                               "panel per measure; Krippendorff's alpha in the title."),
    ),
    not_reproduced=(
        ("Sakai's Tables 2-3 with the real NTCIR-12 STC-ja runs",
         "The submitted runs are not public: runs are simulated over the real pool, so the "
         "notebook tests the gains on real ratings, not how the real systems would rank"),
    ),
    expected_seconds=10,
)
