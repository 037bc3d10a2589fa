"""``evalkit score``, ``compare``, ``assessors``, ``agreement`` and ``measures``: the command line
of :mod:`evalkit.evaluate`.

Each command's parser and run live in its package (``scoring/cli.py``,
``comparison/cli.py``, ``assessor_study/cli.py``, ``judge_agreement/cli.py``);
this module adds them to the ``evalkit`` parser and dispatches.  ``--out`` is
checked before any work (one line, exit 2, nothing written).
"""

from __future__ import annotations

import sys

__all__ = ["COMMANDS", "add_parsers", "run"]

#: The sub-commands this module adds and runs.
COMMANDS = ("score", "compare", "assessors", "agreement", "estimate", "measures")


def add_parsers(sub) -> None:
    """Add the four sub-commands to the ``evalkit`` parser."""
    from .assessor_study.cli import add_assessors_parser
    from .comparison.cli import add_compare_parser
    from .estimation.cli import add_estimate_parser
    from .judge_agreement.cli import add_agreement_parser
    from .scoring.cli import add_measures_parser, add_score_parser

    add_score_parser(sub)
    add_compare_parser(sub)
    add_assessors_parser(sub)
    add_agreement_parser(sub)
    add_estimate_parser(sub)
    add_measures_parser(sub)


def run(args) -> int:
    """Run one of :data:`COMMANDS` with parsed ``args``; return the exit status.

    A closed stdout (``evalkit score ... | head``) ends the command quietly.
    """
    try:
        return _run(args)
    except BrokenPipeError:
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(args) -> int:
    if getattr(args, "out", None) is not None:      # before any work: one line, exit 2
        from .judges.options import check_out_dir

        check_out_dir(args.out)
    if args.command == "measures":
        from .scoring.cli import run_measures

        return run_measures(args)
    if args.command == "agreement":
        from .judge_agreement.cli import run_agreement

        return run_agreement(args)
    if args.command == "estimate":
        from .estimation.cli import run_estimate

        return run_estimate(args)
    if args.command == "assessors":
        from .assessor_study.cli import run_assessors

        return run_assessors(args)
    if args.command == "compare":
        from .comparison.cli import run_compare

        return run_compare(args)
    from .scoring.cli import run_score

    return run_score(args)
