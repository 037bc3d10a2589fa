"""``evalkit score``: the parser and the output of the scores (tsv, csv or json).

Scores go to stdout (trec_eval-style ``run<TAB>measure<TAB>topic<TAB>value``
with four decimals, or CSV / JSON at full float precision); everything a
user should know but not parse (dropped topics, excluded topics, unjudged
documents) goes to stderr.
"""

from __future__ import annotations

import sys

import pandas as pd

from ...measures.gains import GAINS
from ..command_inputs import add_inputs, read_inputs, report_frame

__all__ = ["add_score_parser", "run_score"]

# What --help prints: plain text (argparse shows descriptions as they are, so no markup).
DESCRIPTION = (
    "Score TREC runs with gains from several assessors' ratings (RawG, WG, UG) or from "
    "graded qrels. stdout: 'run measure topic value' lines (tsv, four decimals, no header; "
    "one 'all' line per run and measure, the mean over topics with a positive ideal gain), "
    "or csv / json at full precision. stderr: dropped and excluded topics, unjudged "
    "documents.")


def add_score_parser(sub) -> None:
    """Add ``score`` to the ``evalkit`` sub-commands."""
    sc = sub.add_parser("score", help="score runs with gains from several assessors' ratings",
                        description=DESCRIPTION)
    add_inputs(sc)
    sc.add_argument("--gain", choices=GAINS, default="raw",
                    help="raw (RawG), wg (Li-Yoshikawa) or ug (Sakai's unanimity-aware gain)")
    sc.add_argument("--per-topic", action="store_true", help="one line per topic too")
    sc.add_argument("--format", choices=("tsv", "csv", "json"), default="tsv",
                    help="tsv (default): trec_eval's 'run measure topic value' lines with four "
                         "decimals; csv (with a header) or json (records) at full precision")


def write_records(out: pd.DataFrame) -> None:
    """JSON records at full precision (Python's shortest round-trip repr); NaN as null."""
    import json

    records = [{k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}
               for row in out.astype(object).to_dict(orient="records")]
    sys.stdout.write(json.dumps(records) + "\n")


def run_score(args) -> int:
    """Run ``evalkit score`` with parsed ``args``."""
    from .engine import score

    out = score(**read_inputs(args), gain=args.gain, measures=args.measure,
                per_topic=args.per_topic)
    report_frame(out, "score")
    if args.format == "json":
        write_records(out)
    elif args.format == "csv":   # full precision: what a script reads back
        out.to_csv(sys.stdout, index=False, na_rep="nan", lineterminator="\n")
    else:  # tsv: trec_eval's lines with four decimals, no header
        out.to_csv(sys.stdout, sep="\t", header=False, index=False,
                   float_format="%.4f", na_rep="nan", lineterminator="\n")
    return 0
