"""The report options of ``evalkit compare`` (``--scores``, ``--test``, ``--out``, ...).

``evalkit compare --scores FILE`` compares per-topic scores computed by any
tool (``evalkit score --per-topic``, ``trec_eval -q``, ``ir_measures -q``,
PyTerrier, pytrec_eval, a wide table: :mod:`evalkit.formats.scores`); with
ratings and runs the scores are computed first
(:func:`evalkit.evaluate.scoring.engine.score`).  The report
(:mod:`evalkit.evaluate.comparison.report`) prints the pairs table to stdout and,
with ``--out DIR``, writes ``anova.csv``, ``systems.csv``, ``pairs.csv`` and
``systems.png``.  Without them, and with ``--test``, ``--correction`` and
``--format`` absent or at the classic table's values (``hsd``, ``none``,
``csv``), ``compare`` prints its classic table (HSD p-values of every pair,
:mod:`evalkit.evaluate.comparison.hsd`): an option given with the value it
has anyway never changes the output.  See ``docs/compare.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from ...errors import InputError
from ..command_inputs import print_notes, read_inputs, report_frame
from ..scoring.cli import run_renames

# the choices, spelled here so that building the parser imports no statistics
# (tests/evaluate/test_compare.py checks them against the modules that define them)
TESTS = ("hsd", "t", "wilcoxon", "permutation")
CORRECTIONS = ("holm", "bh", "bonferroni", "none")
SCORE_FORMATS = ("auto", "evalkit", "tsv", "csv", "json", "trec_eval", "ir_measures",
                 "pyterrier", "wide", "pytrec_eval")
PAIRS_FORMATS = ("csv", "json", "markdown", "latex")

__all__ = ["add_compare_parser", "add_report_options", "wants_report", "run_report", "run_compare"]

# What --help prints: plain text (argparse shows descriptions as they are, so no markup).
DESCRIPTION = (
    "Compare every pair of runs. With ratings (or qrels) and runs only: the randomised "
    "Tukey HSD table (CSV, four decimals; with two --gain values the same permutations for "
    "both and a discrepant column). With --scores (per-topic scores from evalkit, trec_eval, "
    "ir_measures, PyTerrier, pytrec_eval or a wide table), --out, or a --test, --correction "
    "or --format other than hsd, none, csv: the statistics report (ANOVA, intervals, "
    "corrected tests, wins and losses). An option given with its default value never "
    "changes the output.")

#: How compare's randomised p-values are counted, said beside each Monte Carlo error.
P_CONVENTION = ("p = count / B, as the paper tables keep it (a p of 0 is below 1 / B; its "
                "error is bounded with (count + 1) / (B + 1))")

#: The classic table's values of the report options: given, they select nothing.
_CLASSIC = {"test": "hsd", "correction": "none", "format": "csv"}


def add_compare_parser(sub) -> None:
    """Add ``compare`` to the ``evalkit`` sub-commands."""
    from ...measures.gains import GAINS
    from ..command_inputs import TRIALS, add_inputs

    cp = sub.add_parser("compare", help="randomised Tukey HSD over all run pairs (CSV); "
                        "with --scores/--test/--out: ANOVA, intervals, corrected tests",
                        description=DESCRIPTION)
    add_inputs(cp, scores=True)
    cp.add_argument("--gain", choices=GAINS, action="append", default=None,
                    help="one gain, or two (e.g. --gain raw --gain ug) to find discrepancies")
    cp.add_argument("--trials", type=int, default=TRIALS, metavar="B",
                    help=f"HSD or permutation-test trials (default {TRIALS})")
    cp.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the permutations")
    cp.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    cp.add_argument("--best-per-team", action="store_true",
                    help="keep each team's best run (team = run tag up to the first '-')")
    add_report_options(cp)


def add_report_options(cp) -> None:
    """Add the report's options to the ``compare`` parser."""
    g = cp.add_argument_group("statistics report (--scores, --out, or a --test, --correction "
                              "or --format other than hsd, none, csv selects it)")
    g.add_argument("--scores", nargs="+", metavar="FILE",
                   help="per-topic scores instead of ratings and runs (one file, or one per "
                        "run for trec_eval, ir_measures and pytrec_eval)")
    g.add_argument("--scores-format", choices=SCORE_FORMATS, default="auto",
                   help="auto (default: by extension and content, refused when unclear); "
                        "evalkit (evalkit score --per-topic: tsv, csv or json); trec_eval "
                        "(trec_eval -q: measure topic value); ir_measures (ir_measures -q: qid "
                        "measure value, run named by the file); pyterrier (CSV name,qid,measure,"
                        "value); wide (CSV topic,RUN1,RUN2,... of the one --measure); "
                        "pytrec_eval (JSON {topic: {measure: value}}, run named by the file)")
    g.add_argument("--rename", action="append", metavar="OLD=NEW",
                   help="rename a run: OLD is a run name, a scores file (its one run) or a run "
                        "file, e.g. for two files whose runs have the same name; repeatable")
    g.add_argument("--only-judge", metavar="NAME",
                   help="with --scores from evalkit score --per-judge: compare the runs under "
                        "this judge only (default: a report per judge, --out DIR/JUDGE/)")
    g.add_argument("--test", choices=TESTS, default=None,
                   help="hsd (randomised Tukey HSD, the default), t (paired t-test), wilcoxon, "
                        "permutation (paired randomisation test, --trials)")
    g.add_argument("--correction", choices=CORRECTIONS, default=None,
                   help="for t, wilcoxon and permutation (default holm); hsd takes none")
    g.add_argument("--out", metavar="DIR",
                   help="write anova.csv, systems.csv, pairs.csv and systems.png into DIR")
    g.add_argument("--format", choices=PAIRS_FORMATS, default=None,
                   help="the table on stdout: csv (the default), json (full precision), "
                        "markdown or latex (for a paper; these select the report)")


def wants_report(args) -> bool:
    """Whether the report is asked for: ``--scores``, ``--out``, or a ``--test``,
    ``--correction`` or ``--format`` other than the classic table's (so one set
    of options gives one output, whether its defaults are spelled out or not)."""
    if args.scores or args.out or getattr(args, "only_judge", None):
        return True
    return any(getattr(args, name) not in (None, value) for name, value in _CLASSIC.items())


def _scores_from_ratings(args, inputs):
    from ..scoring.engine import score

    if args.gain and len(args.gain) > 1:
        raise InputError("the statistics report compares one gain at a time: give one --gain")
    if args.best_per_team:
        raise InputError("--best-per-team works without the report options; with them, "
                         "give only the runs to compare")
    frame = score(**inputs(), gain=(args.gain or ["raw"])[0], measures=args.measure,
                  per_topic=True, common_topics=args.common_topics, rename=run_renames(args))
    print_notes(frame.attrs.get("notes", []), "compare")
    excluded = frame.attrs.get("excluded_topics", [])
    if excluded:
        print(f"evalkit compare: {len(excluded)} topic(s) without a positive gain left out of "
              f"the comparison: {', '.join(excluded)}", file=sys.stderr)
    return frame[frame["topic"] != "all"].reset_index(drop=True)


def run_report(args, inputs) -> int:
    """Run the report: read or compute the scores, compare, print and write."""
    from .report import compare_scores, write_report
    from .output import format_pairs

    if args.scores:
        if args.runs or args.ratings or args.judge or args.qrels or args.common_topics:
            raise InputError("--scores replaces ratings and runs: give one or the other")
        from ...formats.scores import parse_renames, read_scores

        wide = args.measure[0] if args.measure and len(args.measure) == 1 else None
        scores = read_scores(args.scores, args.scores_format, wide,
                             parse_renames(getattr(args, "rename", None)))
        print_notes(scores.attrs.get("notes", []), "compare")
    else:
        if not args.runs or not args.measure:
            raise InputError("give --scores FILE, or --measure M with ratings and run files")
        if getattr(args, "only_judge", None):
            raise InputError("--only-judge picks a judge of --scores (evalkit score --per-judge "
                             "output); with run files, give only that judge's --judge")
        scores = _scores_from_ratings(args, inputs)
    parts = _by_judge(scores, getattr(args, "only_judge", None))
    tables = []
    for judge, part in parts:
        who = f"{judge}: " if judge is not None else ""
        report = compare_scores(part, args.measure, test=args.test or "hsd",
                                correction=args.correction, alpha=args.alpha, trials=args.trials,
                                seed=args.seed)
        s = report.settings
        if s.get("counts_left_out"):
            print(f"evalkit compare: {who}counts not compared: {', '.join(s['counts_left_out'])} "
                  "(name one with --measure to compare it)", file=sys.stderr)
        for measure, topics in s["topics"].items():
            print(f"evalkit compare: {who}{measure}: {s['systems'][measure]} runs x {topics} "
                  "topics", file=sys.stderr)
        if "mc_se" in s:
            print(f"evalkit compare: {who}B = {s['trials']} trials; {P_CONVENTION}; Monte Carlo "
                  f"standard error of the p-values at most {s['mc_se']:.4f}", file=sys.stderr)
        if args.out:
            folder = Path(args.out) / judge if len(parts) > 1 else Path(args.out)
            paths = write_report(report, folder)
            print("evalkit compare: wrote " + ", ".join(str(p) for p in paths), file=sys.stderr)
        tables.append((judge, report.pairs, s))
    fmt = args.format or "csv"
    if len(tables) == 1:
        sys.stdout.write(format_pairs(tables[0][1], fmt, tables[0][2]))
    elif fmt in ("csv", "json"):                       # one table, a judge column first
        joined = pd.concat([t.assign(judge=j)[["judge", *t.columns]] for j, t, _ in tables],
                           ignore_index=True)
        sys.stdout.write(format_pairs(joined, fmt, tables[0][2]))
    else:
        sys.stdout.write("\n".join(f"judge {j}:\n\n" + format_pairs(t, fmt, s)
                                   for j, t, s in tables))
    return 0


def _by_judge(scores, only: str | None) -> list[tuple[str | None, object]]:
    """``[(judge, scores)]``: one part per judge of ``evalkit score --per-judge`` output (or the
    ``only`` one, ``--only-judge``), or ``[(None, scores)]`` for scores without judges."""
    if "judge" not in scores:
        if only is not None:
            raise InputError(f"--only-judge {only}: the scores name no judge (they come from "
                             "evalkit score --per-judge when they do)")
        return [(None, scores)]
    judges = list(dict.fromkeys(scores["judge"]))
    if only is not None:
        if only not in judges:
            raise InputError(f"--only-judge {only}: no such judge in the scores; they are "
                             f"{', '.join(judges)}")
        judges = [only]
    return [(j, scores[scores["judge"] == j].drop(columns="judge").reset_index(drop=True))
            for j in judges]


def run_compare(args) -> int:
    """Run ``evalkit compare``: the report (:func:`run_report`) when asked for, else the
    classic HSD table of every run pair on stdout."""
    if wants_report(args):
        return run_report(args, lambda: read_inputs(args))
    if not args.runs or not args.measure:
        raise InputError("give --measure M and run files (or --scores FILE)")
    from .hsd import compare  # the HSD's compiled kernel: imported only when needed

    out = compare(**read_inputs(args), gains=args.gain or ["raw"], measures=args.measure,
                  trials=args.trials, seed=args.seed, alpha=args.alpha,
                  best_per_team_runs=args.best_per_team, common_topics=args.common_topics,
                  rename=run_renames(args))
    report_frame(out, "compare")
    print(f"evalkit compare: {out.attrs['topics']} topics, B = {out.attrs['trials']} trials; "
          f"{P_CONVENTION}; Monte Carlo standard error of the p-values at most "
          f"{out.attrs['mc_se']:.4f}", file=sys.stderr)
    out.to_csv(sys.stdout, index=False, float_format="%.4f")
    return 0
