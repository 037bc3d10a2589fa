"""``evalkit estimate``: every run's reference-judged score from a proxy judge's labels.

Reads the judges as ``evalkit score`` does (``--judge NAME=FILE``), scores
the runs under ``--reference`` and ``--proxy`` per topic, and prints (or,
with ``--out DIR``, writes) the tables of
:func:`~evalkit.evaluate.estimation.api.estimate_report`.  Bad input is one
line on stderr, exit 2, nothing written.  Library only.
"""

from __future__ import annotations

import sys

__all__ = ["add_estimate_parser", "run_estimate"]

DESCRIPTION = (
    "Every run's score under a reference judge that labelled only some topics (the humans), "
    "estimated with a proxy judge that labelled all of them (an LLM), by prediction-powered "
    "inference (Angelopoulos et al., Science 2023; PPI++, 2023). Rows per run, measure and "
    "method: classical (the reference's topics alone), proxy (the proxy alone: biased), ppi "
    "(lambda = 1) and ppi++ (lambda power-tuned, clipped to [0, 1]), each with its interval, "
    "the reference topics and topics it rests on, and for ppi the effective number of "
    "reference topics the proxy's labels are worth. The intervals assume the reference "
    "topics were sampled at random. --pairs: every pair of runs, Holm, the verdicts side by "
    "side; --plan WIDTH: the reference topics an interval that wide needs; --bias: does the "
    "proxy favour a run beyond the others (randomisation test over topics, Holm).")

#: output.py's choices, spelled here so that building the parser imports nothing heavy
FORMATS = ("csv", "json", "markdown")
INTERVALS = ("normal", "t", "bootstrap-t")


def add_estimate_parser(sub) -> None:
    """Add ``estimate`` to the ``evalkit`` sub-commands."""
    from ..command_inputs import MEASURE_HELP, TRIALS
    from ..judges.options import FILL_HELP, add_judge_options
    from ..runs.order import ORDERS

    ap = sub.add_parser("estimate", help="runs' human-judged scores estimated from LLM labels on "
                        "all topics and human labels on a few (prediction-powered inference)",
                        description=DESCRIPTION)
    add_judge_options(ap, ratings=False)
    ap.add_argument("--reference", metavar="NAME", required=True,
                    help="the judge whose scores are estimated (e.g. the humans; some topics)")
    ap.add_argument("--proxy", metavar="NAME", required=True,
                    help="the judge that labelled every topic (e.g. an LLM)")
    ap.add_argument("--measure", action="append", metavar="M", required=True, help=MEASURE_HELP)
    ap.add_argument("--alpha", type=float, default=0.05,
                    help="1 - the intervals' level and the tests' level (default 0.05)")
    ap.add_argument("--interval", default="normal", metavar="{" + ",".join(INTERVALS) + "}",
                    help="normal (default): normal quantiles, ddof 0, as ppi-python; t: t "
                         "quantiles with n - 1 degrees of freedom, ddof 1 (few reference "
                         "topics); bootstrap-t: the studentized bootstrap of both samples of "
                         "topics (--bootstrap resamples, at least 99; --seed), p-values too; "
                         "checked before any work, a wrong value is one line, exit 2")
    ap.add_argument("--pairs", action="store_true",
                    help="every pair of runs: differences, intervals, p-values, Holm, verdicts")
    ap.add_argument("--plan", type=float, metavar="WIDTH",
                    help="the reference topics an interval at most WIDTH wide needs, classical "
                         "and ppi++ (an estimate from the present variances)")
    ap.add_argument("--bias", action="store_true",
                    help="does the proxy favour a run: each run's shift (proxy - reference) on "
                         "the topics both judged, against the other runs' (figure with --out)")
    ap.add_argument("--bootstrap", type=int, default=1000, metavar="B",
                    help="topic-bootstrap resamples of --bias's intervals and of "
                         "--interval bootstrap-t (default 1000)")
    ap.add_argument("--trials", type=int, default=TRIALS, metavar="B",
                    help=f"randomisation trials of --bias's test (default {TRIALS})")
    ap.add_argument("--seed", type=int, default=0, metavar="S",
                    help="seed of the bootstraps (--bias, --interval bootstrap-t) and of "
                         "--bias's randomisation test (default 0)")
    ap.add_argument("--fill", metavar="FILE", help=FILL_HELP)
    ap.add_argument("--order", choices=ORDERS, default="score",
                    help="score (default): as trec_eval; rank: by the rank column (NTCIREVAL)")
    ap.add_argument("--format", choices=FORMATS, default="csv",
                    help="csv (default), json or markdown")
    ap.add_argument("--out", metavar="DIR",
                    help="write the tables (estimates, pairs, verdicts, plan, bias, per_topic) "
                         "and bland_altman.png here instead of printing them")
    ap.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files")


def run_estimate(args) -> int:
    """Run ``evalkit estimate`` with parsed ``args``; return the exit status."""
    from ...formats._columns import use_compiled
    from ..command_inputs import print_notes
    from ..judges.labels import parse_judges
    from ..judges.holes import read_filled_judgments
    from ..runs.files import RunFiles
    from .api import check_options, estimate_report
    from .output import report_text, write_report

    check_options(args.alpha, args.interval, args.plan, args.bootstrap, args.trials)

    compiled = use_compiled(*args.runs)
    sources = parse_judges(args.judge)
    read = read_filled_judgments(args, "estimate", compiled, [args.reference, args.proxy])
    if read is None:
        from ...errors import InputError

        raise InputError("give the judges: --judge NAME=FILE for the reference and the proxy")
    labels, notes = read
    report = estimate_report(RunFiles(args.runs, compiled=compiled), labels, args.reference,
                             args.proxy, args.measure, args.alpha, args.interval, args.pairs,
                             args.plan, args.bias, args.bootstrap, args.trials, args.seed,
                             args.order, sources)
    print_notes(notes + report.notes, "estimate")     # after every check: a refusal is one line
    if args.out is None:
        sys.stdout.write(report_text(report, args.format))
        print_notes(report.summary, "estimate")
        return 0
    from ..judge_agreement.figure import can_draw

    figure = args.bias and can_draw()
    written = write_report(report, args.out, args.format, figure)
    print("\n".join(report.summary))
    print(f"evalkit estimate: wrote {', '.join(p.name for p in written)} to {args.out}",
          file=sys.stderr)
    return 0
