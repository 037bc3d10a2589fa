"""``evalkit agreement``: how far judges agree, from their labels alone (no runs).

Reads one TREC qrels file per judge (``--judge NAME=FILE``) and/or a
per-assessor ratings file (``--ratings FILE``), measures every judge
against ``--reference NAME`` or the others pooled, and writes the tables
and figure of :mod:`evalkit.evaluate.judge_agreement.report` into ``--out DIR``.
Library only: nothing of the workspace is imported.
"""

from __future__ import annotations

import sys

__all__ = ["add_agreement_parser", "run_agreement"]

DESCRIPTION = (
    "How far judges agree, from their labels alone (no runs). Each judge is measured against "
    "--reference NAME on the items both graded, or, without it, against the others pooled: every "
    "pair (this judge's grade of an item, another judge's grade of it) is one unit. Statistics: "
    "Krippendorff's alpha (ordinal, interval, nominal), Cohen's kappa (unweighted, linear, "
    "quadratic) and, per cut c, alpha and kappa of 'grade >= c', each with a 95% percentile "
    "bootstrap interval over topics. Tests between judges (--pairs): for every pair, the "
    "difference of the --order-by statistic on the items both graded, its paired topic-bootstrap "
    "interval and a paired randomisation test over topics with Holm's correction (or --test hsd). "
    "Writes agreement.csv, confusion.csv, reliability.csv (Dawid-Skene: the chance each judge "
    "gives each grade to an item of each estimated grade), per_topic.csv (each statistic topic "
    "by topic, for evalkit compare --scores), pairs.csv, consensus_<method>.txt (one grade per "
    "item from the judges other than the reference, as qrels) and agreement.png to --out DIR, "
    "and prints the judges that agree most and least and how many are statistically "
    "indistinguishable from the best.")


#: pairs.py's choices and limit, spelled here so that building the parser imports no statistics
#: (numba); tests/evaluate/test_agreement_pairs.py checks them against pairs.py
PAIR_TESTS = ("permutation", "hsd")
MAX_JUDGES_FOR_PAIRS = 40


def add_agreement_parser(sub) -> None:
    """Add ``agreement`` to the ``evalkit`` sub-commands."""
    import argparse

    from ..command_inputs import TRIALS
    from ..judges.options import add_judge_options
    from .consensus import CONSENSUS_METHODS
    from .text_tables import TEXT_FORMATS

    ap = sub.add_parser("agreement", help="how far judges agree (alpha, kappa, Dawid-Skene), "
                        "tests between judges, consensus; labels only, no runs",
                        description=DESCRIPTION)
    add_judge_options(ap, common=False)
    ap.add_argument("--ratings-format", choices=("auto", "assessor", "stc"), default="auto",
                    help="auto: four fields per line = per-assessor, otherwise STC-ja")
    ap.add_argument("--reference", metavar="NAME",
                    help="the judge every other is measured against (e.g. the human labels); "
                         "default: each judge against the others pooled")
    ap.add_argument("--cuts", metavar="C,...",
                    help="binary cuts: 'grade >= c' is relevant (default: every grade above the lowest)")
    ap.add_argument("--bootstrap", type=int, default=1000, metavar="B",
                    help="topic-bootstrap replicates for the 95%% intervals and the pairs' "
                         "intervals (default 1000; 0: none)")
    ap.add_argument("--seed", type=int, default=0, metavar="S",
                    help="seed of the bootstrap, the randomisation test and the HSD")
    ap.add_argument("--order-by", "--statistic", dest="order_by", default="alpha_ordinal",
                    metavar="NAME",
                    help="the statistic that orders the judges (figure, summary, Markdown table) "
                         "and that the tests between judges compare (default alpha_ordinal; any "
                         "statistic of agreement.csv); --statistic is the same option")
    ap.add_argument("--pairs", action=argparse.BooleanOptionalAction, default=None,
                    help=f"tests between every pair of judges, pairs.csv (default: on with at "
                         f"most {MAX_JUDGES_FOR_PAIRS} judges besides the reference)")
    ap.add_argument("--test", choices=PAIR_TESTS, default="permutation",
                    help="permutation (default): the paired randomisation test over topics, "
                         "Holm over the pairs; hsd: the randomised Tukey HSD over per-topic values")
    ap.add_argument("--trials", type=int, default=TRIALS, metavar="B",
                    help=f"randomisation (or HSD) trials of the tests between judges (default {TRIALS})")
    ap.add_argument("--alpha", type=float, default=0.05,
                    help="significance level of the tests between judges (default 0.05)")
    ap.add_argument("--consensus", action="append", choices=CONSENSUS_METHODS, metavar="METHOD",
                    help="write consensus_METHOD.txt, one grade per item: majority (ties to the "
                         "lower grade), median (of an even count the lower), mean (rounded, halves "
                         "down) or dawid-skene; repeat for more (default: dawid-skene)")
    ap.add_argument("--consensus-with-reference", action="store_true",
                    help="let the reference judge enter the consensus (default: left out)")
    ap.add_argument("--min-overlap", default="50%", metavar="SHARE",
                    help="flag a judge when fewer than this share of its items were graded by "
                         "its reference (default 50%%; 0.5 or 50%%)")
    ap.add_argument("--format", choices=TEXT_FORMATS, default="csv",
                    help="csv (default): the tables as CSV; markdown or latex: also the agreement "
                         "and pairs tables for a paper, in Markdown or LaTeX")
    ap.add_argument("--out", metavar="DIR", required=True, help="folder for the tables and figure")


def _cuts(text):
    from ...errors import ParameterError

    if text is None:
        return None
    try:
        return [int(c) for c in text.split(",")]
    except ValueError:
        raise ParameterError("cuts", text, "whole numbers separated by commas, e.g. 1,2,3") from None


def run_agreement(args) -> int:
    """Run ``evalkit agreement`` with parsed ``args``; return the exit status."""
    from ...errors import InputError
    from ..judges.options import read_judgments
    from .grid import parse_share
    from .report import agreement_report, can_draw, summary, write_agreement_report

    cuts = _cuts(args.cuts)
    min_overlap = parse_share(args.min_overlap)
    read = read_judgments(args, "agreement")
    if read is None:
        raise InputError("give the judges: --judge NAME=FILE (one per judge) and/or --ratings FILE")
    labels, notes = read
    report = agreement_report(labels, args.reference, cuts, args.bootstrap, args.seed,
                              args.order_by, args.pairs, args.trials, args.test, args.alpha,
                              args.consensus or ["dawid-skene"], args.consensus_with_reference,
                              min_overlap)
    for note in notes + report.notes:           # after every check: a refusal stays one line
        print(f"evalkit agreement: {note}", file=sys.stderr)
    unconverged = [m for m, f in report.consensus.items() if f.attrs.get("converged") is False]
    if report.reliability.attrs.get("converged") is False or unconverged:
        print("evalkit agreement: Dawid-Skene did not converge in 100 EM iterations; "
              "reliability.csv and consensus_dawid-skene.txt are its last estimates", file=sys.stderr)
    written = write_agreement_report(report, args.out, fmt=args.format)
    if not can_draw():
        print("evalkit agreement: the figure needs matplotlib (not installed): "
              "pip install 'evalkit-assessors[workspace]'", file=sys.stderr)
    if report.pairs is not None and report.settings.get("test") != "hsd":
        print("evalkit agreement: tests between judges: p = (count + 1) / (B + 1) "
              "(never 0; pairs.csv)", file=sys.stderr)
    print("\n".join(summary(report)))
    print(f"evalkit agreement: wrote {', '.join(p.name for p in written)} to {args.out}",
          file=sys.stderr)
    return 0
