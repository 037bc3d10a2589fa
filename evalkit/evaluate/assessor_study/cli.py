"""``evalkit assessors``: the parser, and the run that writes the tables and figure to ``--out``."""

from __future__ import annotations

import sys

__all__ = ["add_assessors_parser", "run_assessors"]

# What --help prints: plain text (argparse shows descriptions as they are, so no markup).
DESCRIPTION = (
    "Score the runs under every judge (all assessors pooled, each assessor, each left out, "
    "median, Dawid-Skene, the mean over assessors) and write leaderboards, rank correlations "
    "(each assessor also against the others without them), agreement, Dawid-Skene "
    "reliability, verdict stability and a bump chart to --out DIR; stdout: the summary lines.")


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
    ap.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the permutations")
    ap.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
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
                       min_topics=args.min_topics)
    print_notes(report.notes, "assessors")
    written = write_assessor_report(report, Path(args.out), reliability=True)
    if not can_draw():
        print("evalkit assessors: the figure needs matplotlib (not installed): "
              "pip install 'evalkit-assessors[workspace]'", file=sys.stderr)
    print("\n".join(report.summary()))
    print(f"evalkit assessors: wrote {', '.join(p.name for p in written)} to {args.out}",
          file=sys.stderr)
    return 0
