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
    "bootstrap interval over topics. Writes agreement.csv, confusion.csv, reliability.csv "
    "(Dawid-Skene: the chance each judge gives each grade to an item of each estimated grade), "
    "consensus.txt (Dawid-Skene's most likely grade per item, as qrels) and agreement.png to "
    "--out DIR, and prints the judges that agree most and least.")


def add_agreement_parser(sub) -> None:
    """Add ``agreement`` to the ``evalkit`` sub-commands."""
    from ..judges.options import add_judge_options

    ap = sub.add_parser("agreement", help="how far judges agree (alpha, kappa, Dawid-Skene); "
                        "labels only, no runs", description=DESCRIPTION)
    add_judge_options(ap)
    ap.add_argument("--ratings-format", choices=("auto", "assessor", "stc"), default="auto",
                    help="auto: four fields per line = per-assessor, otherwise STC-ja")
    ap.add_argument("--reference", metavar="NAME",
                    help="the judge every other is measured against (e.g. the human labels); "
                         "default: each judge against the others pooled")
    ap.add_argument("--cuts", metavar="C,...",
                    help="binary cuts: 'grade >= c' is relevant (default: every grade above the lowest)")
    ap.add_argument("--bootstrap", type=int, default=1000, metavar="B",
                    help="topic-bootstrap replicates for the 95%% intervals (default 1000; 0: none)")
    ap.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the bootstrap")
    ap.add_argument("--statistic", default="alpha_ordinal", metavar="NAME",
                    help="the statistic that orders the judges in the figure and the summary "
                         "(default alpha_ordinal; any statistic of agreement.csv)")
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
    from .report import agreement_report, can_draw, summary, write_agreement_report
    from ..judges.options import read_judgments

    cuts = _cuts(args.cuts)
    read = read_judgments(args, "agreement")
    if read is None:
        raise InputError("give the judges: --judge NAME=FILE (one per judge) and/or --ratings FILE")
    labels, notes = read
    report = agreement_report(labels, args.reference, cuts, args.bootstrap, args.seed, args.statistic)
    for note in notes:           # after every check: a refusal stays one line
        print(f"evalkit agreement: {note}", file=sys.stderr)
    if report.settings.get("ds_converged") is False:
        print("evalkit agreement: Dawid-Skene did not converge in 100 EM iterations; "
              "reliability.csv and consensus.txt are its last estimates", file=sys.stderr)
    written = write_agreement_report(report, args.out)
    if not can_draw():
        print("evalkit agreement: the figure needs matplotlib (not installed): "
              "pip install 'evalkit-assessors[workspace]'", file=sys.stderr)
    print("\n".join(summary(report)))
    print(f"evalkit agreement: wrote {', '.join(p.name for p in written)} to {args.out}",
          file=sys.stderr)
    return 0
