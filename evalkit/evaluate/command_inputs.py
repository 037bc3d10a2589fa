"""What ``evalkit score``, ``compare`` and ``assessors`` share: the judgments, measures and runs
options, and reading them into the inputs of :func:`~evalkit.evaluate.scoring.engine.score`.

Judges come as ``--judge NAME=FILE`` (one qrels file each) and/or
``--ratings FILE`` (:mod:`evalkit.evaluate.judges.options`), or as graded
``--qrels FILE`` with ``--gain-map``; runs as TREC run files read one at a
time (:class:`~evalkit.evaluate.runs.files.RunFiles`).  Notes for the user
go to stderr, prefixed with the command.
"""

from __future__ import annotations

import argparse
import sys

import pandas as pd

from ..errors import InputError

__all__ = ["TRIALS", "add_inputs", "read_inputs", "print_notes"]

#: Randomised Tukey HSD trials B of compare and assessors: Sakai's B = 5000 (EVIA 2017,
#: sec. 5), a Monte Carlo standard error of at most 0.0031 at p = 0.05 (2000 gives 0.0049).
TRIALS = 5000

#: What --measure's help says the measures are.
MEASURE_HELP = ("a measure as ir_measures names it (nDCG@10, AP, AP(rel=2), P@10, R@100, RR, "
                "NDCG@10, MAP), as trec_eval's -m does (map, ndcg_cut.10,20, P.5,10), a set "
                "(all_trec, official) or NTCIREVAL's (nG@1, nERR@10, P+, Q); 'evalkit measures' "
                "lists them all; repeat for more")


def add_inputs(p: argparse.ArgumentParser, scores: bool = False, listing: bool = False) -> None:
    """The judgments, measures and runs options; with ``scores`` (``compare``)
    --measure and the runs become optional, since ``--scores`` brings both; with
    ``listing`` (``score``) too, since ``--list-measures`` needs neither."""
    from .judges.options import add_judge_options

    src = p.add_argument_group("judgments (--judge and/or --ratings, or --qrels)")
    add_judge_options(src)
    src.add_argument("--qrels", metavar="FILE",
                     help="one graded TREC qrels file, read as trec_eval reads it (the grade is "
                          "the gain unless --gain-map maps it)")
    p.add_argument("--ratings-format", choices=("auto", "assessor", "stc"), default="auto",
                   help="auto: four fields per line = per-assessor, otherwise STC-ja")
    p.add_argument("--gain-map", metavar="G:V,...",
                   help="grade -> gain, e.g. 1:1,2:3 (NTCIREVAL's gain values), for --qrels and "
                        "for each judge's grades before pooling (with --gain raw); default: "
                        "each grade its own gain, grades 0 and below gain 0")
    p.add_argument("--p", type=float, default=0.2, help="UG's unanimity weight (default 0.2)")
    p.add_argument("--dmax", type=int, default=None,
                   help="largest possible rating (default: the largest seen)")
    optional = scores or listing
    if listing:
        p.add_argument("--list-measures", action="store_true",
                       help="list the measures (as 'evalkit measures' does) and stop")
    p.add_argument("--measure", action="append", metavar="M", required=not optional,
                   help=MEASURE_HELP
                        + ("; with --scores: measures as the file names them (default: all but the "
                           "counts num_ret, num_rel, ...; for a wide table, its one measure)"
                           if scores else ""))
    p.add_argument("runs", nargs="*" if optional else "+", metavar="RUN", help="TREC run files")


def check_measures(names) -> None:
    """``--measure`` parsed as the commands will parse it, so that a name evalkit does not
    know is refused in one line before any file is read (and before any note)."""
    if names:
        from ..measures.registry import expand_all

        expand_all([names] if isinstance(names, str) else list(names), strings=True)


def read_inputs(args) -> dict:
    """``runs`` (:class:`RunFiles`) and either ``ratings``, ``dmax`` and ``p`` (judges) or
    ``qrels`` and ``gain_map``, read and checked one file at a time."""
    from ..formats._columns import use_compiled
    from ..formats.trec import read_qrels
    from .judges.labels import labels_to_ratings
    from .judges.holes import read_filled_judgments
    from .judges.labels import parse_judges
    from .judges.topics import judge_topics, named_judges, refuse_disjoint_judges
    from .runs.files import RunFiles

    check_measures(getattr(args, "measure", None))
    judged = bool(args.ratings or args.judge)
    qrels = getattr(args, "qrels", None)
    if judged == (qrels is not None):
        raise InputError("give the judges (--judge NAME=FILE, one per judge, and/or --ratings "
                         "FILE) or graded --qrels FILE, not both" if judged else
                         "give the judges: --judge NAME=FILE (one per judge), --ratings FILE, "
                         "or --qrels FILE")
    # read, checked and scored one file at a time; compiled readers when the inputs are large
    compiled = use_compiled(*args.runs, *(args.ratings or []))
    if judged:
        labels, notes = read_filled_judgments(args, args.command, compiled)
        named = parse_judges(args.judge) if args.judge else None   # one line, before any note
        refuse_disjoint_judges(named_judges(judge_topics(labels), named))
        print_notes(notes, args.command)
        return {"runs": RunFiles(args.runs, compiled=compiled), "ratings": labels_to_ratings(labels),
                "dmax": labels.attrs["grades"][1], "p": args.p,
                "gain_map": getattr(args, "gain_map", None)}
    if getattr(args, "fill", None):
        raise InputError("--fill fills each judge's holes: give the judges with --judge "
                         "NAME=FILE or --ratings FILE, not --qrels")
    if args.grades or args.clip:
        raise InputError("--grades and --clip apply to --judge and --ratings, not to --qrels")
    frame = read_qrels(qrels, getattr(args, "skip_header", None))
    print_notes(frame.attrs.get("read_notes", []), args.command)
    return {"runs": RunFiles(args.runs, compiled=compiled), "qrels": frame,
            "gain_map": args.gain_map}


def print_notes(notes, command: str) -> None:
    """Each note on its own stderr line, ``evalkit COMMAND: note``."""
    for note in notes:
        print(f"evalkit {command}: {note}", file=sys.stderr)


def report_frame(frame: pd.DataFrame, command: str) -> None:
    """A scores frame's notes and excluded topics on stderr."""
    print_notes(frame.attrs.get("notes", []), command)
    excluded = frame.attrs.get("excluded_topics", [])
    if excluded:
        print(f"evalkit {command}: {len(excluded)} topic(s) without a positive gain excluded "
              f"from the mean: {', '.join(excluded[:10])}" + (" ..." if len(excluded) > 10 else ""),
              file=sys.stderr)
