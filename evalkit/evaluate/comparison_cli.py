"""The report options of ``evalkit compare`` (``--scores``, ``--test``, ``--out``, ...).

``evalkit compare --scores FILE`` compares per-topic scores computed by any
tool (``evalkit score --per-topic``, ``trec_eval -q``); with ratings and runs
the scores are computed first (:func:`evalkit.evaluate.scoring.score`).  The
report (:mod:`evalkit.evaluate.comparison`) prints the pairs table to stdout
and, with ``--out DIR``, writes ``anova.csv``, ``systems.csv``, ``pairs.csv``
and ``systems.png``.  Without any of these options ``compare`` keeps its
original output (HSD p-values of every pair, :mod:`evalkit.evaluate.significance`).
See ``docs/compare.md``.
"""

from __future__ import annotations

import sys

from ..errors import InputError

# the choices, spelled here so that building the parser imports no statistics
# (tests/evaluate/test_compare.py checks them against the modules that define them)
TESTS = ("hsd", "t", "wilcoxon", "permutation")
CORRECTIONS = ("holm", "bh", "bonferroni", "none")
SCORE_FORMATS = ("auto", "tsv", "csv", "json", "trec_eval")
PAIRS_FORMATS = ("csv", "json", "markdown", "latex")

__all__ = ["add_report_options", "wants_report", "run_report"]

_REPORT_OPTIONS = ("scores", "test", "correction", "out", "format")


def add_report_options(cp) -> None:
    """Add the report's options to the ``compare`` parser."""
    g = cp.add_argument_group("statistics report (any of these selects it)")
    g.add_argument("--scores", nargs="+", metavar="FILE",
                   help="per-topic scores instead of ratings and runs: evalkit score --per-topic "
                        "output (TSV, CSV or JSON), or trec_eval -q files (one per run)")
    g.add_argument("--scores-format", choices=SCORE_FORMATS, default="auto",
                   help="auto: by extension (.csv, .json, else evalkit's TSV); trec_eval: -q output")
    g.add_argument("--test", choices=TESTS, default=None,
                   help="hsd (randomised Tukey HSD, default), t (paired t-test), wilcoxon, "
                        "permutation (paired randomisation test, --trials)")
    g.add_argument("--correction", choices=CORRECTIONS, default=None,
                   help="for t, wilcoxon and permutation (default holm); hsd needs none")
    g.add_argument("--out", metavar="DIR",
                   help="write anova.csv, systems.csv, pairs.csv and systems.png into DIR")
    g.add_argument("--format", choices=PAIRS_FORMATS, default=None,
                   help="the pairs table on stdout: csv (default) or json at full precision, "
                        "markdown or latex for a paper")


def wants_report(args) -> bool:
    """Whether any report option was given."""
    return any(getattr(args, name) is not None for name in _REPORT_OPTIONS)


def _scores_from_ratings(args, inputs):
    from .scoring import score

    if args.gain and len(args.gain) > 1:
        raise InputError("the statistics report compares one gain at a time: give one --gain")
    if args.best_per_team:
        raise InputError("--best-per-team works without the report options; with them, "
                         "give only the runs to compare")
    frame = score(**inputs(), gain=(args.gain or ["raw"])[0], measures=args.measure,
                  per_topic=True)
    for note in frame.attrs.get("notes", []):
        print(f"evalkit compare: {note}", file=sys.stderr)
    excluded = frame.attrs.get("excluded_topics", [])
    if excluded:
        print(f"evalkit compare: {len(excluded)} topic(s) without a positive gain left out of "
              f"the comparison: {', '.join(excluded)}", file=sys.stderr)
    return frame[frame["topic"] != "all"].reset_index(drop=True)


def run_report(args, inputs) -> int:
    """Run the report: read or compute the scores, compare, print and write."""
    from .comparison import compare_scores, write_report
    from .comparison_output import format_pairs

    if args.scores:
        if args.runs or args.ratings or args.judge or args.qrels:
            raise InputError("--scores replaces ratings and runs: give one or the other")
        from ..formats.scores import read_scores

        scores = read_scores(args.scores, args.scores_format)
    else:
        if not args.runs or not args.measure:
            raise InputError("give --scores FILE, or --measure M with ratings and run files")
        scores = _scores_from_ratings(args, inputs)
    report = compare_scores(scores, args.measure, test=args.test or "hsd",
                            correction=args.correction, alpha=args.alpha, trials=args.trials,
                            seed=args.seed)
    s = report.settings
    for measure, topics in s["topics"].items():
        print(f"evalkit compare: {measure}: {s['systems'][measure]} runs x {topics} topics",
              file=sys.stderr)
    if "mc_se" in s:
        print(f"evalkit compare: B = {s['trials']} trials; Monte Carlo standard error of the "
              f"p-values at most {s['mc_se']:.4f}", file=sys.stderr)
    sys.stdout.write(format_pairs(report.pairs, args.format or "csv", s))
    if args.out:
        paths = write_report(report, args.out)
        print("evalkit compare: wrote " + ", ".join(str(p) for p in paths), file=sys.stderr)
    return 0
