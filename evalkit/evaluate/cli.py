"""``evalkit score``, ``compare``, ``assessors`` and ``agreement``: the command line of :mod:`evalkit.evaluate`.

Scores go to stdout (trec_eval-style ``run<TAB>measure<TAB>topic<TAB>value``
with four decimals, or CSV / JSON at full float precision); everything a
user should know but not parse (dropped topics, excluded topics, unjudged
documents, Monte Carlo error) goes to stderr.  ``assessors`` writes its
tables and figure to ``--out DIR`` and its summary lines to stdout;
``agreement`` (:mod:`evalkit.evaluate.agreement_cli`) likewise.  Judges come
as ``--judge NAME=FILE`` (one qrels file each) and/or ``--ratings FILE``
(:mod:`evalkit.evaluate.cli_options`); ``--out`` is checked before any work.
"""

from __future__ import annotations

import argparse
import sys

import pandas as pd

from ..measures.gains import GAINS

__all__ = ["COMMANDS", "add_parsers", "run"]

#: The sub-commands this module adds and runs.
COMMANDS = ("score", "compare", "assessors", "agreement")


def _common(p: argparse.ArgumentParser, scores: bool = False) -> None:
    """The judgments, measures and runs options; with ``scores`` (``compare``)
    --measure and the runs become optional, since ``--scores`` brings both."""
    from .cli_options import add_judge_options

    src = p.add_argument_group("judgments (--judge and/or --ratings, or --qrels)")
    add_judge_options(src)
    src.add_argument("--qrels", metavar="FILE", help="graded TREC qrels (with --gain-map)")
    p.add_argument("--ratings-format", choices=("auto", "assessor", "stc"), default="auto",
                   help="auto: four fields per line = per-assessor, otherwise STC-ja")
    p.add_argument("--gain-map", metavar="G:V,...", help="qrels grade -> gain, e.g. 1:1,2:3")
    p.add_argument("--p", type=float, default=0.2, help="UG's unanimity weight (default 0.2)")
    p.add_argument("--dmax", type=int, default=None,
                   help="largest possible rating (default: the largest seen)")
    p.add_argument("--measure", action="append", metavar="M", required=not scores,
                   help="nG@1, P+, nERR, Q, optionally @k (nERR@10); repeat for more"
                        + ("; with --scores: measures in the file (default: all)" if scores else ""))
    p.add_argument("runs", nargs="*" if scores else "+", metavar="RUN", help="TREC run files")


def add_parsers(sub) -> None:
    """Add the ``score`` and ``compare`` sub-commands to the ``evalkit`` parser."""
    sc = sub.add_parser("score", help="score runs with gains from several assessors' ratings",
                        description=__doc__)
    _common(sc)
    sc.add_argument("--gain", choices=GAINS, default="raw",
                    help="raw (RawG), wg (Li-Yoshikawa) or ug (Sakai's unanimity-aware gain)")
    sc.add_argument("--per-topic", action="store_true", help="one line per topic too")
    sc.add_argument("--format", choices=("tsv", "csv", "json"), default="tsv")
    cp = sub.add_parser("compare", help="randomised Tukey HSD over all run pairs (CSV); "
                        "with --scores/--test/--out: ANOVA, intervals, corrected tests",
                        description=__doc__)
    _common(cp, scores=True)
    cp.add_argument("--gain", choices=GAINS, action="append", default=None,
                    help="one gain, or two (e.g. --gain raw --gain ug) to find discrepancies")
    cp.add_argument("--trials", type=int, default=5000, metavar="B", help="HSD or permutation-test trials (default 5000)")
    cp.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the permutations")
    cp.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    cp.add_argument("--best-per-team", action="store_true",
                    help="keep each team's best run (team = run tag up to the first '-')")
    from .comparison_cli import add_report_options

    add_report_options(cp)
    _assessors_parser(sub)


def _assessors_parser(sub) -> None:
    ap = sub.add_parser("assessors", help="how leaderboards and HSD verdicts depend on the assessors",
                        description="Score the runs under every judge (all assessors pooled, each "
                                    "assessor, each left out, median, Dawid-Skene, the mean over "
                                    "assessors) and write leaderboards, rank correlations (each "
                                    "assessor also against the others without them), agreement, "
                                    "Dawid-Skene reliability, verdict stability and a bump chart "
                                    "to --out DIR (see docs/assessors.md).")
    from .agreement_cli import add_agreement_parser
    from .cli_options import add_judge_options

    add_judge_options(ap.add_argument_group("judgments (--judge and/or --ratings)"))
    ap.add_argument("--ratings-format", choices=("auto", "assessor", "stc"), default="auto",
                    help="auto: four fields per line = per-assessor, otherwise STC-ja")
    ap.add_argument("--measure", action="append", metavar="M", required=True,
                    help="nG@1, P+, nERR, Q, optionally @k (nERR@10); repeat for more")
    ap.add_argument("--p", type=float, default=0.2, help="UG's unanimity weight (default 0.2)")
    ap.add_argument("--dmax", type=int, default=None,
                    help="largest possible rating (default: the largest seen)")
    ap.add_argument("--trials", type=int, default=2000, metavar="B", help="HSD trials (default 2000)")
    ap.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the permutations")
    ap.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    ap.add_argument("--min-topics", type=float, default=0.5, metavar="SHARE",
                    help="flag assessors who can score fewer than this share of the topics "
                         "(default 0.5); they are left out of the summary's verdict")
    ap.add_argument("--out", metavar="DIR", required=True, help="folder for the tables and figure")
    ap.add_argument("runs", nargs="+", metavar="RUN", help="TREC run files")
    add_agreement_parser(sub)


def _inputs(args) -> dict:
    from ..formats._columns import use_compiled
    from ..formats.trec import read_qrels
    from ..errors import InputError
    from .cli_options import read_judgments
    from .judge_labels import labels_to_ratings
    from .run_files import RunFiles

    judged = bool(args.ratings or args.judge)
    qrels = getattr(args, "qrels", None)
    if judged == (qrels is not None):
        raise InputError("give the judges (--judge NAME=FILE, one per judge, and/or --ratings "
                         "FILE) or graded --qrels FILE (with --gain-map), not both" if judged else
                         "give the judges: --judge NAME=FILE (one per judge), --ratings FILE, "
                         "or --qrels FILE (with --gain-map)")
    # read, checked and scored one file at a time; compiled readers when the inputs are large
    compiled = use_compiled(*args.runs, *(args.ratings or []))
    if judged:
        labels, notes = read_judgments(args, args.command, compiled)
        for note in notes:
            print(f"evalkit {args.command}: {note}", file=sys.stderr)
        return {"runs": RunFiles(args.runs, compiled=compiled), "ratings": labels_to_ratings(labels),
                "dmax": labels.attrs["grades"][1], "p": args.p}
    if args.grades or args.clip:
        raise InputError("--grades and --clip apply to --judge and --ratings, not to --qrels")
    return {"runs": RunFiles(args.runs, compiled=compiled), "qrels": read_qrels(qrels),
            "gain_map": args.gain_map}


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


def _write_records(out: pd.DataFrame) -> None:
    """JSON records at full precision (Python's shortest round-trip repr); NaN as null."""
    import json

    records = [{k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}
               for row in out.astype(object).to_dict(orient="records")]
    sys.stdout.write(json.dumps(records) + "\n")


def _assessors(args) -> int:
    from pathlib import Path

    from .assessor_study import assessors
    from .assessor_report import can_draw, write_assessor_report

    args.qrels = None
    data = _inputs(args)
    report = assessors(data["runs"].frame(), data["ratings"], measures=args.measure, p=args.p,
                       dmax=data["dmax"], trials=args.trials, seed=args.seed, alpha=args.alpha,
                       min_topics=args.min_topics)
    for note in report.notes:
        print(f"evalkit assessors: {note}", file=sys.stderr)
    written = write_assessor_report(report, Path(args.out), reliability=True)
    if not can_draw():
        print("evalkit assessors: the figure needs matplotlib (not installed): "
              "pip install 'evalkit-assessors[workspace]'", file=sys.stderr)
    print("\n".join(report.summary()))
    print(f"evalkit assessors: wrote {', '.join(p.name for p in written)} to {args.out}",
          file=sys.stderr)
    return 0


def _run(args) -> int:
    if getattr(args, "out", None) is not None:      # before any work: one line, exit 2
        from .cli_options import check_out_dir

        check_out_dir(args.out)
    if args.command == "agreement":
        from .agreement_cli import run_agreement

        return run_agreement(args)
    if args.command == "assessors":
        return _assessors(args)
    if args.command == "compare":
        from .comparison_cli import wants_report, run_report

        if wants_report(args):
            return run_report(args, lambda: _inputs(args))
        if not args.runs or not args.measure:
            from ..errors import InputError

            raise InputError("give --measure M and run files (or --scores FILE)")
    data = _inputs(args)
    if args.command == "score":
        from .scoring import score

        out = score(**data, gain=args.gain, measures=args.measure, per_topic=args.per_topic)
        _report(out, "score")
        if args.format == "json":
            _write_records(out)
        elif args.format == "csv":   # full precision: what a script reads back
            out.to_csv(sys.stdout, index=False, na_rep="nan", lineterminator="\n")
        else:  # tsv: trec_eval's lines with four decimals, no header
            out.to_csv(sys.stdout, sep="\t", header=False, index=False,
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
