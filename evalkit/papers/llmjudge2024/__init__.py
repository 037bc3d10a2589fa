"""LLMJudge 2024: real human and LLM judge labels, and the three papers' questions asked of them.

The pipeline of ``notebooks/llmjudge2024.ipynb`` and its declaration
:data:`NOTEBOOK`, one module per experiment:

* :mod:`.labels` — the human labels and the 33 public LLM judges (``make
  data``), read with :func:`evalkit.evaluate.judge_agreement.tables.read_judges` on grades
  0-3 with the organisers' clipping; the dirt counted.
* :mod:`.published` — the organisers' table reproduced to its six printed
  decimals, and what its "kappa" columns really are (alpha of binarised
  labels) beside Cohen's kappa.
* :mod:`.systems` — judges compared as systems: per-topic agreement, the
  randomised Tukey HSD and paired t tests with Holm (``evalkit compare``'s
  machinery).
* :mod:`.best_judge` — tests between judges: how many judges the best one cannot
  be told apart from (``evalkit agreement``'s paired randomisation test).
* :mod:`.combining` — Kim's question: combined judges (the library's consensus
  rules, the human labels left out) against the best single judge chosen on
  other topics.
* :mod:`.replacing` — can these LLM judges replace the human assessors, and
  does combining them help?  The answer, written from the tables.
* :mod:`.unanimity` — Sakai's question: the LLM judges' spread D against
  agreement with the human label; RawG, WG and UG against N.
* :mod:`.verdicts` — the claims table; :mod:`.figures` — the figures.

No system runs were released with the challenge, so no leaderboard question
is asked of these data (the claims table says so).
"""

from __future__ import annotations

from pathlib import Path

from ..._lazy import exports
from ... import data
from ...declare import params
from ...declare.notebook import Comparison, Notebook
from ...errors import ParameterError

# the steps load when first used: the runner reads NOTEBOOK without importing scipy or numba
__getattr__, _dir, _exported = exports(__name__, {
    "best_judge": ("best_versus_rest", "holm_floor", "indistinguishable_summary", "judge_order",
                   "judge_pairs", "trials_needed", "versus_best"),
    "combining": ("COMBINERS", "CONSENSUS_RULES", "FAIR", "ORACLE", "SPLIT_LEVELS", "combined_labels",
                  "combining_table", "consensus_summary", "fair_best_single", "split_draws",
                  "split_summary"),
    "figures": ("agreement_figure", "alpha_vs_kappa_figure", "combining_figure",
                "indistinguishable_figure", "pairs_figure", "unanimity_figure"),
    "labels": ("GRADES", "HUMAN", "JUDGES", "changed_by_clipping", "dirt", "judge_files",
               "label_matrix", "load_labels", "team_of"),
    "published": ("COLUMNS", "CUTS", "USUAL", "means", "usual_statistic", "versus_published"),
    "replacing": ("replacement_answers",),
    "systems": ("judges_compared", "pairs_table", "per_topic_agreement", "separable_pairs"),
    "unanimity": ("N_GRID", "gains_summary", "gains_vs_n", "spread_table", "ug_minus_raw"),
    "verdicts": ("N_JUDGED", "answers", "claims", "ug_vs_raw_sensitivity"),
})


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_dir()))


__all__ = [
    "NOTEBOOK", "PARAMETERS", "REQUIRED",
    "HUMAN", "GRADES", "JUDGES", "judge_files", "team_of", "load_labels", "dirt", "changed_by_clipping",
    "label_matrix",
    "COLUMNS", "USUAL", "CUTS", "versus_published", "usual_statistic", "means",
    "per_topic_agreement", "judges_compared", "separable_pairs", "pairs_table",
    "judge_order", "judge_pairs", "holm_floor", "trials_needed", "best_versus_rest", "versus_best",
    "indistinguishable_summary",
    "COMBINERS", "CONSENSUS_RULES", "FAIR", "ORACLE", "combined_labels", "fair_best_single",
    "combining_table", "split_draws", "split_summary", "SPLIT_LEVELS", "consensus_summary",
    "replacement_answers",
    "N_GRID", "spread_table", "gains_vs_n", "gains_summary", "ug_minus_raw",
    "claims", "answers", "N_JUDGED", "ug_vs_raw_sensitivity",
    "agreement_figure", "alpha_vs_kappa_figure", "pairs_figure", "indistinguishable_figure",
    "combining_figure", "unanimity_figure",
]

#: Data sets the chapter needs: the human labels, the 33 judges and the MIT notice.
REQUIRED = ("llmjudge-human", *(f"llmjudge-{run}" for run, _size, _sha in data.LLMJUDGE_JUDGES),
            "llmjudge-licence")


def _installed(name, v):
    missing = [d for d in REQUIRED if not data.available(d, Path(v))]
    if missing:
        raise ParameterError(name, v, f"a folder holding the LLMJudge 2024 files ({len(missing)} "
                                      f"missing, e.g. {missing[0]}; run `make data`)")


#: The notebook's parameters and their checks (see :mod:`evalkit.declare.params`).
PARAMETERS = {
    "external_dir": _installed,
    "bootstrap": params.whole(),
    "trials": params.whole(),
    "alpha": params.number(lambda x: 0 < x < 1, "a number in (0, 1)"),
    "p": params.number(lambda x: 0 <= x <= 1, "a number in [0, 1]"),
    "folds": params.whole(2),
    "swap_draws": params.whole(),
    "split_draws": params.whole(),
    "subsets": params.whole(),
    "seed": params.whole(0),
}

_TABLES = ("agreement_vs_published", "agreement_vs_usual", "published_means", "dirt",
           "judges_as_systems_systems", "judges_as_systems_pairs", "judges_as_systems_separable",
           "indistinguishable", "indistinguishable_summary",
           "combining", "combining_choices", "combining_splits", "combining_splits_summary",
           "consensus",
           "unanimity_spread", "gains_vs_n", "gains_vs_n_summary", "ug_minus_raw", "claims")

NOTEBOOK = Notebook(
    name="llmjudge2024",
    paper="llmjudge2024",
    title="LLMJudge 2024: human and LLM judges on real labels",
    parameters=PARAMETERS,
    outputs=tuple(
        ["agreement.csv", "pairs.csv"]
        + [f"{stem}.{ext}" for stem in _TABLES for ext in ("csv", "md")]
        + [f"{stem}.{ext}" for stem in ("agreement", "alpha_vs_kappa", "judges_as_systems",
                                       "indistinguishable", "combining", "unanimity")
           for ext in ("png", "svg")]),
    # verdicts over draws need R >= 20 splits and subsets, even in a quick run
    quick={"bootstrap": 100, "trials": 500, "swap_draws": 20, "split_draws": 20, "subsets": 20},
    needs_data=REQUIRED,
    comparisons=(
        Comparison("llmjudge2024_agreement", "llmjudge2024/agreement_vs_published.csv",
                   ("judge", "statistic"), {"published": "reproduced"}, 1e-6,
                   "The organisers' printed agreement of the 8 public judges with the human labels "
                   "(their 'kappa' columns are Krippendorff's alpha of the binarised labels), "
                   "reproduced.", joined=True),
    ),
    figures=(
        ("agreement.png", "Krippendorff's ordinal alpha of each of the 33 public LLM judges with "
                          "the human labels, 95% topic-bootstrap interval; diamonds: the "
                          "organisers' printed values."),
        ("alpha_vs_kappa.png", "The organisers' 'kappa' columns hold Krippendorff's alpha of the "
                               "binarised labels; Cohen's kappa of the same labels beside it."),
        ("judges_as_systems.png", "Judges compared as systems: per-topic alpha as a per-topic "
                                  "score, means with 95% intervals, and the judge pairs the "
                                  "randomised Tukey HSD separates over 25 topics."),
        ("indistinguishable.png", "Each LLM judge's ordinal alpha with the human labels minus the "
                                  "best judge's, paired 95% topic-bootstrap interval; the judges "
                                  "the paired randomisation test (Holm over the best's pairs) "
                                  "cannot tell from the best marked."),
        ("combining.png", "Combined LLM judges (majority, median, team median, mean, Dawid-Skene, "
                          "UG; the human labels left out) against the best single judge chosen "
                          "on other topics, averaged over the seeded splits, and the oracle's."),
        ("unanimity.png", "Exact agreement of a single LLM judge with the human grade by the "
                          "LLM judges' spread D (black); Kendall tau of RawG, WG and UG from N "
                          "judges with the human grade (mean over subsets, bars the quartiles); "
                          "UG minus RawG averaged over the subsets with its 95% topic-bootstrap "
                          "interval."),
    ),
    not_reproduced=(
        ("The organisers' rows for the 31 submissions that are not public",
         "Only the 33 public judge files can be scored (their notebook printed 10 of its 64 "
         "rows, 8 of them public; agreement.csv has all 33 public judges); the means over all "
         "64 submissions are shown as context"),
        ("Any leaderboard question (do LLM labels rank systems as human labels do?)",
         "No system runs were released with the challenge"),
    ),
    expected_seconds=9,
)
