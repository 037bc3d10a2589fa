"""``evalkit assessors``: the parser, and the run that writes the tables and figure to ``--out``."""

from __future__ import annotations

import sys

__all__ = ["add_assessors_parser", "run_assessors"]

# What --help prints: plain text (argparse shows descriptions as they are, so no markup).
DESCRIPTION = (
    "Score the runs under every judge (all assessors pooled, each assessor, each left out, "
    "median, Dawid-Skene, the mean over assessors) and write leaderboards, rank correlations "
    "(each assessor also against the others without them), agreement, Dawid-Skene "
    "reliability, verdict stability and a bump chart to --out DIR; stdout: the summary lines. "
    "With --reference NAME, every judge's leaderboard is also compared with that judge's "
    "(Kendall's tau-b, tau_ap, top-K overlap, each with a topic-bootstrap interval) and their "
    "significance verdicts counted run pair by run pair (reference.csv, "
    "significance_agreement.csv, a heat map of rank correlations).")


#: --test's choices with --reference, spelled here so that building the parser imports no
#: statistics (numba); tests/evaluate/test_assessors_reference.py checks them against reference.TESTS
TESTS = ("t", "hsd")


def add_assessors_parser(sub) -> None:
    """Add ``assessors`` to the ``evalkit`` sub-commands."""
    from ..command_inputs import MEASURE_HELP, TRIALS
    from ..judges.options import add_judge_options

    ap = sub.add_parser("assessors", help="how leaderboards and HSD verdicts depend on the assessors",
                        description=DESCRIPTION)
    add_judge_options(ap.add_argument_group("judgments (--judge and/or --ratings)"))
    ap.add_argument("--ratings-format", choices=("auto", "assessor", "stc"), default="auto",
                    help="auto: four fields per line = per-assessor, otherwise STC-ja")
    ap.add_argument("--measure", action="append", metavar="M", required=True, help=MEASURE_HELP)
    ap.add_argument("--p", type=float, default=0.2, help="UG's unanimity weight (default 0.2)")
    ap.add_argument("--dmax", type=int, default=None,
                    help="largest possible rating (default: the largest seen)")
    ap.add_argument("--trials", type=int, default=TRIALS, metavar="B",
                    help=f"HSD trials (default {TRIALS})")
    ap.add_argument("--seed", type=int, default=0, metavar="S",
                    help="seed of the permutations and of the topic bootstrap")
    ap.add_argument("--alpha", type=float, default=0.05,
                    help="significance level (default 0.05); --reference's intervals are "
                         "1 - alpha (95%%)")
    ref = ap.add_argument_group("against a reference judge")
    ref.add_argument("--reference", metavar="NAME",
                     help="compare every judge's leaderboard with this judge's (a NAME of "
                          "--judge NAME=FILE or an assessor of --ratings): writes reference.csv "
                          "and significance_agreement.csv")
    ref.add_argument("--top", type=int, default=5, metavar="K",
                     help="top-K overlap: the share of the reference's K best runs among the "
                          "judge's K best (default 5; K below the number of runs)")
    ref.add_argument("--bootstrap", type=int, default=1000, metavar="B",
                     help="topic-bootstrap resamples for the intervals of tau, tau_ap and the "
                          "top-K overlap (default 1000; 0: no interval)")
    ref.add_argument("--test", choices=TESTS, default="t",
                     help="the test behind each run pair's verdict: t = paired t test with "
                          "Holm's correction over the pairs (default), hsd = randomised Tukey "
                          "HSD with --trials permutations")
    ap.add_argument("--min-topics", type=float, default=0.5, metavar="SHARE",
                    help="flag assessors who can score fewer than this share of the topics "
                         "(default 0.5); they are left out of the summary's verdict")
    ap.add_argument("--out", metavar="DIR", required=True, help="folder for the tables and figure")
    ap.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files")


def run_assessors(args) -> int:
    """Run ``evalkit assessors`` with parsed ``args``: files to ``--out``, summary to stdout."""
    from pathlib import Path

    from ..command_inputs import print_notes, read_inputs
    from .report import can_draw, write_assessor_report
    from .study import assessors

    args.qrels = None
    data = read_inputs(args)
    report = assessors(data["runs"].frame(), data["ratings"], measures=args.measure, p=args.p,
                       dmax=data["dmax"], trials=args.trials, seed=args.seed, alpha=args.alpha,
                       min_topics=args.min_topics, reference=args.reference, top=args.top,
                       bootstrap=args.bootstrap, test=args.test,
                       common_topics=args.common_topics)
    print_notes(report.notes, "assessors")
    written = write_assessor_report(report, Path(args.out), reliability=True)
    if not can_draw():
        print("evalkit assessors: the figure needs matplotlib (not installed): "
              "pip install 'evalkit-assessors[workspace]'", file=sys.stderr)
    print("\n".join(report.summary()))
    print(f"evalkit assessors: wrote {', '.join(p.name for p in written)} to {args.out}",
          file=sys.stderr)
    return 0
