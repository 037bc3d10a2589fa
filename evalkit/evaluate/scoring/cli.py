"""``evalkit score`` and ``evalkit measures``: the parsers and the output of the scores.

Scores go to stdout (trec_eval-style ``run<TAB>measure<TAB>topic<TAB>value``
with four decimals, ``judge<TAB>run<TAB>...`` with ``--per-judge``, CSV /
JSON at full float precision, or trec_eval's own layout with ``--format
trec_eval``, :mod:`.trec_eval_format`); everything a user should know but not parse
(dropped topics, excluded topics, unjudged documents, ranks that contradict
the scores, topics a run lacks, which gains and stopping probabilities the
measures used) goes to stderr.
"""

from __future__ import annotations

import sys

import pandas as pd

from ...measures.gains import GAINS
from ..command_inputs import add_inputs, print_notes, read_inputs, report_frame
from ..judges.options import FILL_HELP

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
    "excluded and missing topics, unjudged documents, ranks that contradict scores. "
    "trec_eval's options: --judged-only (-J), --depth N (-M), --rel-level L (-l), "
    "--judgment-groups FILE (-R qrels_jg), '-' for a run on stdin, --format trec_eval "
    "(its own output, to diff). --fill FILE fills each judge's unlabelled documents from "
    "FILE (an LLM's qrels).")
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
    sc.add_argument("--format", choices=("tsv", "csv", "json", "trec_eval"), default="tsv",
                    help="tsv (default): trec_eval's 'run measure topic value' lines with four "
                         "decimals; csv (with a header) or json (records) at full precision; "
                         "trec_eval: trec_eval's own output (one block per run, per judge "
                         "with --per-judge), to diff against it")
    sc.add_argument("--fill", metavar="FILE",
                    help=FILL_HELP + "; --judged-only then counts filled documents as judged")
    te = sc.add_argument_group("trec_eval's options")
    te.add_argument("--judged-only", action="store_true",
                    help="trec_eval -J: remove the documents the judgments do not judge (not in "
                         "the qrels, or graded below 0) from each list before any measure "
                         "(condensed lists)")
    te.add_argument("--depth", type=_positive_int, metavar="N",
                    help="trec_eval -M: read only the first N documents of each topic's list")
    te.add_argument("--rel-level", type=_positive_float, metavar="L",
                    help="trec_eval -l: a gain of at least L is relevant for every binary "
                         "measure (default 1); a measure's own rel=, AP(rel=2), wins")
    te.add_argument("--judgment-groups", metavar="FILE",
                    help="trec_eval -R qrels_jg: a qrels file whose second column names the "
                         "judgment group; with --measure qrels_jg (map_avgjg, P_avgjg, "
                         "Rprec_mult_avgjg), each topic averaged over its groups")


def _positive_int(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of documents >= 1, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a relevance level > 0, got {text!r}")
    return value


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
    if args.runs.count("-") > 1:
        raise InputError("'-' (a run on standard input) can be given once")
    if args.judgment_groups is not None:
        from .judgment_groups import group_measures
        from .engine import measure_names

        group_measures(measure_names(args.measure), args.rel_level)    # before any reading
        if args.per_judge:
            raise InputError("--per-judge scores each judge's own labels; --judgment-groups "
                             "are averaged over each topic's groups, as trec_eval does")
        data = _judgment_group_inputs(args)
    else:
        data = read_inputs(args)
    if args.per_judge and "ratings" not in data:
        raise InputError("--per-judge scores each judge's own labels: give the judges with "
                         "--judge NAME=FILE (one per judge) or --ratings FILE, not --qrels")
    out = score(**data, gain=args.gain, measures=args.measure, per_topic=args.per_topic,
                per_judge=args.per_judge, order=args.order, missing=args.missing,
                common_topics=args.common_topics, rename=run_renames(args),
                judged_only=args.judged_only, depth=args.depth, rel_level=args.rel_level)
    report_frame(out, "score")
    print_notes(out.attrs.get("measure_notes", []), "score")
    if args.format == "trec_eval":
        from .trec_eval_format import trec_eval_text

        if args.per_judge:
            blocks = list(dict.fromkeys(zip(out["judge"], out["run"])))
            print_notes(["--format trec_eval: one block per judge and run, in this order: "
                         + ", ".join(f"{j} {r}" for j, r in blocks[:12])
                         + (" ..." if len(blocks) > 12 else "")], "score")
        sys.stdout.write(trec_eval_text(out))
    elif args.format == "json":
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


def _judgment_group_inputs(args) -> dict:
    """The runs and the judgment groups (``--judgment-groups``), which stand alone."""
    from ...errors import InputError
    from ...formats._columns import use_compiled
    from ...formats.judgment_groups import read_judgment_groups
    from ..runs.files import RunFiles

    if args.ratings or args.judge or args.qrels is not None:
        raise InputError("--judgment-groups are the judgments of their own: give it without "
                         "--judge, --ratings or --qrels")
    if args.gain_map is not None or args.gain != "raw":
        raise InputError("--gain and --gain-map do not apply to --judgment-groups (trec_eval "
                         "reads their grades as gains, as in qrels)")
    groups = read_judgment_groups(args.judgment_groups, getattr(args, "skip_header", None))
    print_notes(groups.attrs.get("read_notes", []), args.command)
    return {"runs": RunFiles(args.runs, compiled=use_compiled(*args.runs)),
            "judgment_groups": groups}


def argparse_namespace(**values):
    import argparse

    return argparse.Namespace(**values)
