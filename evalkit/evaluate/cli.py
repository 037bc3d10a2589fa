"""``evalkit score`` and ``evalkit compare``: the command-line face of :mod:`evalkit.evaluate`.

Scores go to stdout (trec_eval-style ``run<TAB>measure<TAB>topic<TAB>value``,
or CSV / JSON); everything a user should know but not parse (dropped topics,
excluded topics, unjudged documents, Monte Carlo error) goes to stderr.
"""

from __future__ import annotations

import argparse
import sys

import pandas as pd

from .inputs import GAINS

__all__ = ["add_parsers", "run"]


def _common(p: argparse.ArgumentParser) -> None:
    src = p.add_argument_group("judgments (one of)")
    src.add_argument("--ratings", metavar="FILE",
                     help="per-assessor ratings 'topic assessor doc rating' (or the NTCIR STC-ja file)")
    src.add_argument("--qrels", metavar="FILE", help="graded TREC qrels (with --gain-map)")
    p.add_argument("--ratings-format", choices=("auto", "assessor", "stc"), default="auto",
                   help="auto: four fields per line = per-assessor, otherwise STC-ja")
    p.add_argument("--gain-map", metavar="G:V,...", help="qrels grade -> gain, e.g. 1:1,2:3")
    p.add_argument("--p", type=float, default=0.2, help="UG's unanimity weight (default 0.2)")
    p.add_argument("--dmax", type=int, default=None,
                   help="largest possible rating (default: the largest seen)")
    p.add_argument("--measure", action="append", metavar="M", required=True,
                   help="nG@1, P+, nERR, Q, optionally @k (nERR@10); repeat for more")
    p.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files")


def add_parsers(sub) -> None:
    """Add the ``score`` and ``compare`` sub-commands to the ``evalkit`` parser."""
    sc = sub.add_parser("score", help="score runs with gains from several assessors' ratings",
                        description=__doc__)
    _common(sc)
    sc.add_argument("--gain", choices=GAINS, default="raw",
                    help="raw (RawG), wg (Li-Yoshikawa) or ug (Sakai's unanimity-aware gain)")
    sc.add_argument("--per-topic", action="store_true", help="one line per topic too")
    sc.add_argument("--format", choices=("tsv", "csv", "json"), default="tsv")
    cp = sub.add_parser("compare", help="randomised Tukey HSD over all run pairs (CSV)",
                        description=__doc__)
    _common(cp)
    cp.add_argument("--gain", choices=GAINS, action="append", default=None,
                    help="one gain, or two (e.g. --gain raw --gain ug) to find discrepancies")
    cp.add_argument("--trials", type=int, default=5000, metavar="B", help="HSD trials (default 5000)")
    cp.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the permutations")
    cp.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    cp.add_argument("--best-per-team", action="store_true",
                    help="keep each team's best run (team = run tag up to the first '-')")


def _inputs(args) -> dict:
    from ..formats.assessor_ratings import read_any_ratings
    from ..formats.trec import read_qrels
    from ..errors import InputError
    from .run_files import RunFiles

    if (args.ratings is None) == (args.qrels is None):
        raise InputError("give --ratings FILE or --qrels FILE (with --gain-map)")
    runs = RunFiles(args.runs)          # read, checked and scored one file at a time
    if args.ratings:
        return {"runs": runs, "ratings": read_any_ratings(args.ratings, args.dmax, args.ratings_format),
                "dmax": args.dmax, "p": args.p}
    return {"runs": runs, "qrels": read_qrels(args.qrels), "gain_map": args.gain_map}


def _report(frame: pd.DataFrame, command: str) -> None:
    for note in frame.attrs.get("notes", []):
        print(f"evalkit {command}: {note}", file=sys.stderr)
    excluded = frame.attrs.get("excluded_topics", [])
    if excluded:
        print(f"evalkit {command}: {len(excluded)} topic(s) without a positive gain excluded "
              f"from the mean: {', '.join(excluded[:10])}" + (" ..." if len(excluded) > 10 else ""),
              file=sys.stderr)


def run(args) -> int:
    """Run ``evalkit score`` or ``evalkit compare`` with parsed ``args``; return the exit status.

    A closed stdout (``evalkit score ... | head``) ends the command quietly.
    """
    try:
        return _run(args)
    except BrokenPipeError:
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(args) -> int:
    data = _inputs(args)
    if args.command == "score":
        from .scoring import score

        out = score(**data, gain=args.gain, measures=args.measure, per_topic=args.per_topic)
        _report(out, "score")
        if args.format == "json":
            sys.stdout.write(out.to_json(orient="records", double_precision=6) + "\n")
        else:  # tsv: trec_eval's lines, no header
            tsv = args.format == "tsv"
            out.to_csv(sys.stdout, sep="\t" if tsv else ",", header=not tsv, index=False,
                       float_format="%.4f", na_rep="nan", lineterminator="\n")
        return 0
    from .significance import compare  # the HSD's compiled kernel: imported only when needed

    out = compare(**data, gains=args.gain or ["raw"], measures=args.measure, trials=args.trials,
                  seed=args.seed, alpha=args.alpha, best_per_team_runs=args.best_per_team)
    _report(out, "compare")
    print(f"evalkit compare: {out.attrs['topics']} topics, B = {out.attrs['trials']} trials; "
          f"Monte Carlo standard error of the p-values at most {out.attrs['mc_se']:.4f}",
          file=sys.stderr)
    out.to_csv(sys.stdout, index=False, float_format="%.4f")
    return 0
