"""``evalkit estimate``: runs' reference-judged scores from a proxy judge's labels.

A reference judge (the humans) labelled some topics, a proxy judge (an LLM)
all of them; prediction-powered inference (:mod:`evalkit.stats.prediction_powered`)
estimates every run's reference-judged score with an interval that holds
whatever the proxy's errors.  One module per concept::

    topic_scores.py   the runs scored per topic under both judges; the input checks
    estimators.py     classical, proxy, ppi (lambda = 1) and ppi++ per run; the sampling note
    pairs.py          differences between runs, Holm, the verdicts side by side (--pairs)
    plan.py           the reference topics an interval of a given width needs (--plan)
    bias.py           does the proxy favour a run beyond the others (--bias)
    bland_altman.py   the Bland-Altman figure of --bias
    judge_panel.py    many proxy judges on one pool: their worth in human topics, circularity
    api.py            estimate(): the command from Python, the same frames
    output.py         the tables as CSV, JSON or Markdown, on stdout or in --out DIR
    cli.py            the parser and the run
    coverage.py       the coverage study: do the intervals hold in simulated worlds

The package is ``estimation`` so that ``evalkit.evaluate.estimate`` stays the
function (a subpackage of that name would replace it once imported), as
``scoring`` is the package of ``score``.
"""

from ..._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "api": ("estimate", "estimate_report", "EstimateReport"),
    "estimators": ("estimates_table", "METHODS"),
    "pairs": ("pairs_table", "verdicts_table"),
    "plan": ("plan_table",),
    "bias": ("bias_table",),
    "topic_scores": ("TopicScores", "topic_scores"),
})
