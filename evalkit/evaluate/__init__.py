"""Evaluate your own runs under several judges: ``evalkit score``, ``compare``, ``assessors``, ``agreement``.

One package per command, over shared modules for the judges and the runs;
each layer imports only those below it::

    cli.py                 the four sub-commands' parsers and dispatch
    scoring/               evalkit score: trec_eval's and NTCIREVAL's measures, per judge
    comparison/            evalkit compare: randomised Tukey HSD, the statistics report
    assessor_study/        evalkit assessors: leaderboards and verdicts under every judge
    judge_agreement/       evalkit agreement: how far judges agree, consensus
    estimation/            evalkit estimate: scores under few human labels and many LLM labels
    judges/                judges' labels as they come, gains, the shared options
    runs/                  run files one at a time, runs frames
    command_inputs.py      the options score, compare and assessors share, read into inputs
    sources.py             the Python API's inputs: paths or frames
    paper_tables.py        the Markdown and LaTeX tables compare and agreement write
    columns.py             the column names frames may use (evalkit's, ir_measures', ranx's)
    examples.py            the shipped sample in data/examples/
    memory.py              freed memory returned to the system between a command's phases

The functions below mirror the commands, taking files or frames and returning frames
(``score``, ``compare``, ``assessors``, ``agreement``):

* :func:`~evalkit.evaluate.scoring.engine.score`: trec_eval-style scores with RawG, WG
  or UG gains (or graded qrels and a gain map).
* :func:`~evalkit.evaluate.comparison.hsd.compare`: randomised Tukey HSD over all run
  pairs with effect sizes, and discrepancies between two gains.
* :func:`~evalkit.evaluate.comparison.report.compare_scores`: the statistics report of
  ``evalkit compare --scores``: ANOVA, intervals, corrected tests, wins and losses.
* :func:`~evalkit.evaluate.assessor_study.study.assessors`: how leaderboards and HSD
  verdicts depend on the assessors (``evalkit assessors``; files written by
  :func:`~evalkit.evaluate.assessor_study.report.write_assessor_report`).
* :func:`~evalkit.evaluate.judge_agreement.tables.agreement_table` (``evalkit agreement``):
  how far judges agree, each against a reference or the others pooled, with
  topic-bootstrap intervals; :func:`~evalkit.evaluate.judge_agreement.tables.read_judges`
  reads one qrels file per judge; :func:`~evalkit.evaluate.judge_agreement.pairs.pairs_table`
  tests every pair of judges; :func:`~evalkit.evaluate.judge_agreement.consensus.consensus_table`
  gives one grade per item by majority, median, mean or Dawid-Skene.
* :func:`~evalkit.evaluate.judge_agreement.api.agreement`: ``evalkit agreement`` in one call
  (judges as files or frames in, the report's tables out).
* :func:`~evalkit.evaluate.estimation.api.estimate` (``evalkit estimate``): every run's score
  under a reference judge with few topics estimated with a proxy judge's labels on all of
  them (prediction-powered inference), differences between runs, a plan, a bias test.
* :func:`~evalkit.evaluate.judges.gains.item_gains`: one gain per item from ratings.
* :func:`~evalkit.evaluate.examples.write_example`: the shipped sample in
  ``data/examples/``.
"""

from .._lazy import exports

__getattr__, __dir__, __all__ = exports(__name__, {
    "scoring.engine": ("score",),
    "comparison.hsd": ("compare", "best_per_team"),
    "comparison.report": ("ComparisonReport", "compare_scores", "write_report"),
    "judges.gains": ("item_gains", "gains_from_qrels"),
    "examples": ("write_example",),
    "assessor_study.study": ("assessors", "AssessorReport"),
    "assessor_study.report": ("write_assessor_report", "bump_chart"),
    "judge_agreement.tables": ("read_judges", "agreement_table", "confusion_table",
                               "reliability_table", "consensus"),
    "judge_agreement.api": ("agreement",),
    "judge_agreement.pairs": ("pairs_table",),
    "judge_agreement.consensus": ("consensus_table",),
    "estimation.api": ("estimate", "EstimateReport"),
})
