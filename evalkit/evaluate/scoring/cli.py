"""``evalkit score`` and ``evalkit measures``: the parsers and the output of the scores.

Scores go to stdout (trec_eval-style ``run<TAB>measure<TAB>topic<TAB>value``
with four decimals, ``judge<TAB>run<TAB>...`` with ``--per-judge``, or CSV /
JSON at full float precision); everything a user should know but not parse
(dropped topics, excluded topics, unjudged documents, ranks that contradict
the scores, topics a run lacks, which gains and stopping probabilities the
measures used) goes to stderr.
"""

from __future__ import annotations

import sys

import pandas as pd

from ...measures.gains import GAINS
from ..command_inputs import add_inputs, print_notes, read_inputs, report_frame

__all__ = ["add_score_parser", "add_measures_parser", "run_score", "run_measures",
           "measures_text"]

# What --help prints: plain text (argparse shows descriptions as they are, so no markup).
DESCRIPTION = (
    "Score TREC runs under judges' labels (one qrels file per judge, per-assessor ratings, "
    "pooled with RawG, WG or UG, or each judge on its own with --per-judge) or graded qrels "
    "with a gain map. Measures as ir_measures names them (nDCG@10, AP, P@10, R@100, RR, "
    "Rprec, Bpref, Success@k, Judged@k, ERR@k) and NTCIREVAL's (nG@1, nERR@k, P+, Q); "
    "'evalkit measures' lists them. Runs are ordered as trec_eval orders them (score "
    "descending, ties by document id descending) unless --order rank. stdout: "
    "'[judge] run measure topic value' lines (tsv, four decimals, no header; one 'all' line "
    "per run and measure, the mean), or csv / json at full precision. stderr: dropped, "
    "excluded and missing topics, unjudged documents, ranks that contradict scores.")
MEASURES_DESCRIPTION = (
    "List every measure evalkit score knows: its name, parameters, trec_eval's and "
    "ir_measures' names for it, its formula and source.")


def add_score_parser(sub) -> None:
    """Add ``score`` to the ``evalkit`` sub-commands."""
    from ..runs.order import ORDERS
    from .lists import MISSING

    sc = sub.add_parser("score", help="score runs under several judges (trec_eval's and "
                        "NTCIREVAL's measures)", description=DESCRIPTION)
    add_inputs(sc, listing=True)
    sc.add_argument("--gain", choices=GAINS, default="raw",
                    help="how judges' labels pool into one gain: raw (RawG, the sum), wg "
                         "(Li-Yoshikawa) or ug (Sakai's unanimity-aware gain)")
    sc.add_argument("--per-judge", action="store_true",
                    help="score every run under each --judge's own labels too (a judge field "
                         "first; the pooled judgments are named all:GAIN)")
    sc.add_argument("--order", choices=ORDERS, default="score",
                    help="score (default): as trec_eval, by score descending, ties by document id "
                         "descending; rank: by the rank column, ties in file order (NTCIREVAL)")
    sc.add_argument("--missing", choices=MISSING, default="zero",
                    help="a qrels topic a run does not return: zero (default) scores it 0 and "
                         "counts it in the mean (trec_eval -c); skip leaves it out")
    sc.add_argument("--per-topic", action="store_true", help="one line per topic too")
    sc.add_argument("--rename", action="append", metavar="OLD=NEW",
                    help="name a run: OLD is a run file given or a run's tag (run files sharing "
                         "a tag are otherwise named by their files); repeatable")
    sc.add_argument("--format", choices=("tsv", "csv", "json"), default="tsv",
                    help="tsv (default): trec_eval's 'run measure topic value' lines with four "
                         "decimals; csv (with a header) or json (records) at full precision")


def add_measures_parser(sub) -> None:
    """Add ``measures`` to the ``evalkit`` sub-commands."""
    mp = sub.add_parser("measures", help="list the measures evalkit score knows",
                        description=MEASURES_DESCRIPTION)
    mp.add_argument("--format", choices=("text", "csv"), default="text",
                    help="text (default): one block per measure; csv: the table")


def measures_text() -> str:
    """The registry as text: one block per measure (``evalkit measures``)."""
    from ...measures.registry import measures_table

    blocks = []
    for row in measures_table().to_dict("records"):
        same = "; ".join(f"{tool}: {row[tool]}" for tool in ("trec_eval", "ir_measures")
                         if row[tool] != "—")
        blocks.append(f"{row['measure']}  [{row['family']}]" + (f"  {same}" if same else "")
                      + f"\n    {row['formula']}"
                      + (f"\n    parameters: {row['parameters']}" if row["parameters"] != "—"
                         else "")
                      + f"\n    source: {row['source']}; evalkit.measures.{row['function']}")
    return "\n".join(blocks) + "\n"


def run_measures(args) -> int:
    """Print the measures (``evalkit measures``, ``evalkit score --list-measures``)."""
    if getattr(args, "format", "text") == "csv":
        from ...measures.registry import measures_table

        measures_table().to_csv(sys.stdout, index=False, lineterminator="\n")
    else:
        sys.stdout.write(measures_text())
    return 0


def write_records(out: pd.DataFrame) -> None:
    """JSON records at full precision (Python's shortest round-trip repr); NaN as null."""
    import json

    records = [{k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}
               for row in out.astype(object).to_dict(orient="records")]
    sys.stdout.write(json.dumps(records) + "\n")


def run_score(args) -> int:
    """Run ``evalkit score`` with parsed ``args``."""
    if args.list_measures:
        return run_measures(argparse_namespace(format="text"))
    from ...errors import InputError
    from .engine import score

    if not args.measure or not args.runs:
        raise InputError("give --measure M (e.g. --measure nDCG@10) and run files",
                         hint="evalkit measures lists the measures")
    data = read_inputs(args)
    if args.per_judge and "ratings" not in data:
        raise InputError("--per-judge scores each judge's own labels: give the judges with "
                         "--judge NAME=FILE (one per judge) or --ratings FILE, not --qrels")
    out = score(**data, gain=args.gain, measures=args.measure, per_topic=args.per_topic,
                per_judge=args.per_judge, order=args.order, missing=args.missing,
                common_topics=args.common_topics, rename=run_renames(args))
    report_frame(out, "score")
    print_notes(out.attrs.get("measure_notes", []), "score")
    if args.format == "json":
        write_records(out)
    elif args.format == "csv":   # full precision: what a script reads back
        out.to_csv(sys.stdout, index=False, na_rep="nan", lineterminator="\n")
    else:  # tsv: trec_eval's lines with four decimals, no header
        out.to_csv(sys.stdout, sep="\t", header=False, index=False,
                   float_format="%.4f", na_rep="nan", lineterminator="\n")
    return 0


def run_renames(args) -> dict:
    """``--rename OLD=NEW`` as ``{OLD: NEW}`` (OLD a run file or a run's tag)."""
    from ...formats.scores import parse_renames

    return parse_renames(getattr(args, "rename", None))


def argparse_namespace(**values):
    import argparse

    return argparse.Namespace(**values)
