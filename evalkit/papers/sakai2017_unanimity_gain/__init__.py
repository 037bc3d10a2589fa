"""Sakai (EVIA 2017), *Unanimity-Aware Gain for Highly Subjective Assessments*:
the pipeline of ``notebooks/sakai2017_unanimity_gain.ipynb`` and its declaration.

This file declares the notebook (:data:`PARAMETERS`, :data:`NOTEBOOK`) and
re-exports the steps it calls, one module per experiment, each tested in
``tests/papers/test_sakai2017_unanimity_gain.py``:

==================  ========================================================
module              what it holds
==================  ========================================================
``collection``      the test collection: :func:`load_collection`, real
                    ratings (:func:`ratings_collection`), official gains
``conditions``      one rating draw per (Dmax, N) and the RawG / UG scores
                    of every run (:func:`score_conditions`)
``tables``          Table 1 (:func:`table1`), Table 2 (:func:`tau_table`),
                    Table 3 (:func:`best_runs`, :func:`discrepancies`) and
                    their comparison with the published values
``replications``    Tables 2-3 over independent worlds, each redrawing
                    the collection and the ratings (:func:`replicate`):
                    the draws every claim is judged on
``convergence``     §4: UG tends to RawG as N grows (closed forms beside
                    the committed draw, :func:`ug_to_rawg`)
``effect_sizes``    why ES_HSD at the HSD border is about q/sqrt(n)
                    (:func:`es_arithmetic`, :func:`es_vs_topics`)
``es_reading``      what Table 3's printed ES divide |d| by: the residual
                    variance, not its square root
                    (:func:`es_published_denominator`,
                    :func:`denominator_spread`, :func:`es_readings`)
``run_spread``      alternative collections varying one assumption
                    (:func:`run_spread_worlds`, :func:`run_spread_summary`)
``verdicts``        the paper's claims with the reproduction's verdicts
                    (their explanations built in ``explanations``)
``figures``         the notebook's figures
==================  ========================================================

The concepts (gains, measures, statistics) live in :mod:`evalkit.measures`
and :mod:`evalkit.stats`; the best-run-per-team rule in
:func:`evalkit.evaluate.comparison.hsd.best_per_team`.
"""

from __future__ import annotations

from ..._lazy import exports
from ... import paths
from ...declare import params
from ...declare.notebook import Comparison, Input, Notebook

# the steps load when first used: the runner reads NOTEBOOK without importing scipy or numba
__getattr__, _dir, _exported = exports(__name__, {
    "verdicts": ("BORDER_TOLERANCE", "ES_RANGE", "ES_RANGES", "TUNED_MEASURE", "CLAIM_RANGES",
                 "N_WITHOUT", "QUOTES", "SENSITIVITY_RANGES",
                 "claims", "over_draws"),
    "convergence": ("p_full_spread", "relative_excess", "ug_to_rawg"),
    "agreement": ("AGREEMENTS", "agreement_worlds"),
    "collection": ("DATA_SEED", "Collection", "collection_from_frames", "collection_from_lists",
                   "load_collection", "official_gains", "ratings_collection",
                   "ratings_frame_collection"),
    "conditions": ("MEASURE_NAMES", "Conditions", "conditions_from_gains", "ratings_conditions",
                   "ratings_stream", "score_conditions"),
    "effect_sizes": ("ES_SUBSETS", "ES_TOPIC_COUNTS", "es_arithmetic", "es_topics_summary",
                     "es_vs_topics", "studentised_range_q"),
    "explanations": ("es_reading_text",),
    "es_reading": ("DENOMINATOR_COLUMNS", "D_HALF_UNIT", "ES_HALF_UNIT", "HSD_SYSTEMS",
                   "HSD_TOPICS", "denominator_spread", "es_published_denominator", "es_readings",
                   "sd_reading_d_over_border"),
    "figures": ("es_figure", "es_reading_figure", "replication_distributions", "run_spread_figure",
                "tau_grid"),
    "replications": ("WHAT_VARIES", "collection_seed", "hsd_border_d", "replicate",
                     "replication_summary"),
    "run_spread": ("run_spread_summary", "run_spread_worlds"),
    "tables": ("PUBLISHED_D", "TABLE1_RATINGS", "best_runs", "count_published_pairs",
               "discrepancies", "table1", "table1_vs_published", "table3_vs_published", "tau_table"),
})


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_dir()))


__all__ = [
    # the declaration
    "PARAMETERS", "NOTEBOOK",
    # the collection
    "DATA_SEED", "Collection", "load_collection", "collection_from_frames", "collection_from_lists",
    "ratings_collection", "ratings_frame_collection", "official_gains",
    # the rating draws and scores
    "MEASURE_NAMES", "Conditions", "ratings_stream", "score_conditions",
    "conditions_from_gains", "ratings_conditions",
    # Tables 1-3
    "TABLE1_RATINGS", "PUBLISHED_D", "table1", "table1_vs_published",
    "tau_table", "best_runs", "discrepancies", "count_published_pairs", "table3_vs_published",
    # beyond the paper
    "replicate", "replication_summary", "collection_seed", "hsd_border_d", "WHAT_VARIES",
    "p_full_spread", "relative_excess", "ug_to_rawg",
    "ES_TOPIC_COUNTS", "ES_SUBSETS", "studentised_range_q", "es_arithmetic",
    "es_vs_topics", "es_topics_summary",
    "HSD_TOPICS", "HSD_SYSTEMS", "D_HALF_UNIT", "ES_HALF_UNIT", "DENOMINATOR_COLUMNS",
    "es_published_denominator", "sd_reading_d_over_border", "denominator_spread", "es_readings",
    "es_reading_text",
    "run_spread_worlds", "run_spread_summary",
    "claims", "CLAIM_RANGES", "SENSITIVITY_RANGES", "BORDER_TOLERANCE", "ES_RANGE", "ES_RANGES",
    "TUNED_MEASURE", "N_WITHOUT", "QUOTES", "AGREEMENTS", "agreement_worlds",
    "over_draws",
    "tau_grid", "replication_distributions", "es_figure", "es_reading_figure", "run_spread_figure",
]

#: The notebook's parameters and their checks (see :mod:`evalkit.declare.params`).
PARAMETERS = {
    "p": params.number(lambda x: 0 <= x <= 1, "a number in [0, 1]"),
    "alpha": params.number(lambda x: 0 < x < 1, "a number in (0, 1)"),
    "dmax_grid": params.whole_list(),
    "n_grid": params.whole_list(),
    "cutoff": params.whole(),
    "trials": params.whole(),
    "replications": params.whole(),
    "seed": params.whole(0),
    "data_dir": params.folder("an existing folder with qrels.txt and runs/"),
    "spread_worlds": params.number_list(lambda x: x >= 0, "a non-empty list of spreads >= 0"),
    "world_seeds": params.whole(),
    "ratings_file": lambda name, v: v == "" or params.file(
        "an existing ratings file ('topic assessor doc rating' or NTCIR STC-ja), or \"\"")(name, v),
}


def _count_published_pairs(table):
    """Table 3's published pairs counted per condition (:func:`.tables.count_published_pairs`)."""
    from .tables import count_published_pairs

    return count_published_pairs(table)


def _simulate_collection(folder):
    """The default simulated collection (seed :data:`DATA_SEED`) written to ``folder``."""
    from ...simulate.stc import simulate_stc_collection
    from .collection import DATA_SEED

    return simulate_stc_collection(folder, seed=DATA_SEED)


NOTEBOOK = Notebook(
    name="sakai2017_unanimity_gain",
    paper="sakai2017",
    title="Sakai (EVIA 2017): unanimity-aware gain",
    parameters=PARAMETERS,
    unused_when={"data_dir": "ratings_file"},   # with a ratings file, data_dir is not read
    inputs=(Input("data/raw/stc/qrels.txt",
                  lambda: _simulate_collection(paths.RAW / "stc")),),
    outputs=(
        "table1.csv", "table1.md", "table1_vs_published.csv", "table1_vs_published.md",
        "table2.csv", "table2.md", "table2_vs_published.csv", "table2_vs_published.md",
        "table2_tau_grid.png", "table2_tau_grid.svg",
        "table3.csv", "table3.md", "table3_counts.csv", "table3_counts.md",
        "table3_vs_published.md", "es_arithmetic.csv", "es_arithmetic.md",
        "es_published_denominator.csv", "es_published_denominator.md",
        "es_denominator_spread.csv", "es_denominator_spread.md", "es_readings.csv", "es_readings.md",
        "es_published_denominator.png", "es_published_denominator.svg",
        "es_denominator.csv", "es_denominator.md", "es_denominator.png", "es_denominator.svg",
        "run_spread_worlds.csv", "run_spread_worlds.md", "run_spread_worlds.png", "run_spread_worlds.svg",
        "run_spread_summary.csv", "run_spread_summary.md",
        "replications.csv", "replications.md", "replications_summary.md", "replication_pairs.csv",
        "replication_pairs.md",
        "replications.png", "replications.svg", "ug_to_rawg.csv", "ug_to_rawg.md",
        "agreement_worlds.csv", "agreement_worlds.md", "claims.csv", "claims.md",
    ),
    quick={"n_grid": [5, 20], "dmax_grid": [2, 8], "trials": 200, "replications": 2,
           "spread_worlds": [0.25, 0.5], "world_seeds": 1},
    comparisons=(
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
                   prepare=_count_published_pairs, how="right", fill_published=0),
    ),
    figures=(
        ("table2_tau_grid.png", "Kendall's tau between the RawG and UG rankings of all runs per "
                                "measure, N and Dmax in the committed world (draw 0; filled "
                                "markers, solid bars: the 95% confidence interval, unclipped as "
                                "the paper prints it) beside the paper's tau and interval (hollow "
                                "markers, dashed bars); the other worlds are in replications.png."),
        ("es_denominator.png", "ES = |d|/sqrt(V_E) of borderline pairs follows q/sqrt(n): the "
                               "median ES of pairs with p near 0.05 (markers, one per measure) "
                               "over random subsets of n topics beside q/sqrt(n) (line); Table 3's "
                               "pairs at n = 100 with ES as the paper's text defines it, V_E "
                               "taken as |d|/ES (red dashes)."),
        ("es_published_denominator.png", "What Table 3's printed |d|/ES is: left, its relative "
                                         "spread within each condition with two or more pairs "
                                         "against what the printed digits allow; right, |d| / "
                                         "HSD border for the 48 printed values when |d|/ES is "
                                         "the residual variance and when it is the residual sd."),
        ("replications.png", "The upper 95% limit of tau (top; the Table 2 claim is about it) and "
                             "the number of discrepant pairs (bottom) over the independent worlds "
                             "the claims are judged on (each redraws the collection and the "
                             "ratings; draw 0 the committed one), the paper's values as hollow "
                             "diamonds; boxes span the quartiles, whiskers the furthest draw "
                             "within 1.5 IQR, dots the draws beyond."),
        ("run_spread_worlds.png", "Alternative collections where only run_spread varies, on the "
                                  "collection seeds of the notebook's first draws at each value "
                                  "(at the default spread, the draws themselves): left, the conditions whose upper "
                                  "limit of tau reaches 1 per collection (grey) and their mean with "
                                  "a 95% t interval over seeds (error bars, clipped at the total "
                                  "and marked); right, the HSD border |d| of nG@1 each world gives "
                                  "(the calibration target; the paper's range shaded)."),
    ),
    not_reproduced=(
        ("§6: NTCIR-13 STC-2 with UG (three extra significant nG@1 pairs, one for P+; the UG "
         "sets of significant pairs were supersets of the RawG sets)",
         "the STC-2 Chinese runs and their per-assessor ratings are not public"),
        ("§4 and §6: with real, correlated ratings the simulation 'probably underestimates' the "
         "effect of UG",
         "needs real ratings: the real-data chapter (notebooks/real_data.ipynb) tests it on the "
         "NTCIR-12 STC-ja ratings, where the ratings are more unanimous as predicted but the "
         "effect on rankings is not testable on simulated runs (real_data/claims.md)"),
    ),
    expected_seconds=11,
)
