"""Options every judging command shares: ``--judge``, ``--ratings``, ``--grades``, ``--clip``,
``--common-topics``, ``--skip-header``, ``--out``.

``evalkit score``, ``compare``, ``assessors`` and ``agreement`` take judges
as they come (:mod:`evalkit.evaluate.judges.labels`): one TREC qrels file per
judge (``--judge NAME=FILE``, repeatable), a per-assessor ratings file
(``--ratings FILE``, once), or both, compressed or not, with a header line
to skip or not (``--skip-header``, for every input file of the command).
:func:`check_out_dir` is the one check of ``--out DIR``, made before any
work: a folder that cannot be written is refused in one line (exit 2) and
nothing is written.  :func:`negative_values` lets ``--grades -2:3`` through
argparse, which would take ``-2:3`` for an option.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from ...errors import InputError

__all__ = ["add_judge_options", "check_out_dir", "read_judgments", "declared_grades",
           "negative_values", "NEGATIVE_VALUE_OPTIONS"]

#: Options whose value may start with a minus sign: a negative grade (``--grades -2:3``,
#: ``--cuts -1,1``, ``--gain-map -2:0,1:1``).
NEGATIVE_VALUE_OPTIONS = ("--grades", "--cuts", "--gain-map")
_NEGATIVE = re.compile(r"-\d[-\d:,.]*")


def negative_values(argv: list[str]) -> list[str]:
    """``argv`` with ``--grades -2:3`` written ``--grades=-2:3`` (the same for each of
    :data:`NEGATIVE_VALUE_OPTIONS`): argparse takes a value starting with ``-`` that is
    not a plain negative number for an option, and would refuse the pair."""
    out = []
    for token in argv:
        if out and out[-1] in NEGATIVE_VALUE_OPTIONS and _NEGATIVE.fullmatch(token):
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out

#: --fill's help, the same in score and estimate.
FILL_HELP = ("qrels (e.g. an LLM's) whose labels fill each judge's holes: a document a judge "
             "did not label, on a topic it labelled, takes FILE's label; each judge filled on "
             "its own before any pooling (counted on stderr)")

RATINGS_HELP = ("per-assessor ratings 'topic assessor doc rating' (or the NTCIR STC-ja file); "
                "give it once, with every assessor in it")


def add_judge_options(p, ratings: bool = True, common: bool = True) -> None:
    """Add ``--judge``, ``--grades``, ``--clip`` (and ``--ratings`` unless the caller has it,
    and ``--common-topics`` where runs are scored)."""
    if ratings:
        p.add_argument("--ratings", metavar="FILE", action="append", help=RATINGS_HELP)
    p.add_argument("--judge", action="append", metavar="NAME=FILE",
                   help="one judge's TREC qrels 'topic iteration doc grade', named NAME; repeat "
                        "for each judge (adds to --ratings)")
    p.add_argument("--grades", metavar="LO:HI",
                   help="the grade scale, e.g. 0:3 or -2:3 (TREC Web's -2 for spam): a label "
                        "outside it is an error (or clamped with --clip); default: the lowest to "
                        "the highest label seen")
    p.add_argument("--clip", action="store_true",
                   help="clamp labels outside --grades into the scale (stderr says how many)")
    if common:
        p.add_argument("--common-topics", action="store_true",
                       help="score every judge on the topics all of them judged (default: "
                            "each judge on its own topics; stderr says how many when they "
                            "differ)")
    p.add_argument("--skip-header", action="store_true",
                   help="skip a first line that names the columns (e.g. 'query_id iteration "
                        "doc_id relevance') in every input file; without it such a line is "
                        "refused. A first line of data is never skipped")


def check_out_dir(out) -> Path:
    """``--out DIR`` usable, or :class:`~evalkit.errors.InputError` in one line; nothing is written.

    Refused: an existing file, a path under a file, a folder (or the nearest
    existing folder above it) in which a folder cannot be created.  The last
    is tried for real (a temporary folder made and removed at once), so a
    read-only file system is caught whoever runs the command.
    """
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise InputError(f"--out {out} is a file, not a folder",
                         hint="give a folder to write into (it is created if missing)")
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise InputError(f"--out {out} lies under {probe}, which is a file",
                         hint="give a folder whose parents are folders")
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".evalkit-out-check.", dir=probe))
    except OSError as exc:
        raise InputError(f"--out {out}: cannot create a folder in {probe} ({exc.strerror or exc})",
                         hint="give a folder you can write to") from None
    return path


def declared_grades(args) -> tuple[int, int] | None:
    """The scale of ``--grades`` (or ``0:--dmax`` where a command has ``--dmax``); None: inferred."""
    from .labels import parse_grades

    grades = parse_grades(args.grades) if getattr(args, "grades", None) else None
    dmax = getattr(args, "dmax", None)
    if grades is not None and dmax is not None and dmax != grades[1]:
        raise InputError(f"--dmax {dmax} and --grades {args.grades} disagree",
                         hint="give --grades alone (its HI is the largest possible grade)")
    if grades is None and dmax is not None:
        grades = (0, int(dmax))
    return grades


def read_judgments(args, command: str, compiled: bool | None = None):
    """``(labels, notes)`` of ``--ratings`` and ``--judge``; None when neither was given.

    ``--ratings`` given twice is refused (one file holds every assessor;
    each judge's own qrels file goes with ``--judge``).
    """
    from .labels import parse_judges, read_labels

    ratings = getattr(args, "ratings", None) or []
    ratings = [ratings] if isinstance(ratings, str) else list(ratings)
    if len(ratings) > 1:
        raise InputError(f"--ratings is given {len(ratings)} times ({', '.join(ratings)}): one "
                         "--ratings file holds every assessor",
                         hint="give each judge's own qrels file with --judge NAME=FILE")
    judges = parse_judges(getattr(args, "judge", None))
    if not ratings and not judges:
        if getattr(args, "clip", False) or getattr(args, "grades", None):
            raise InputError(f"--grades and --clip apply to --judge and --ratings: give judges "
                             f"to evalkit {command}")
        return None
    dmax = getattr(args, "dmax", None)
    option = f"--dmax {dmax}" if dmax is not None and not getattr(args, "grades", None) else None
    return read_labels(judges, ratings[0] if ratings else None,
                       getattr(args, "ratings_format", "auto"), declared_grades(args),
                       getattr(args, "clip", False), compiled, option,
                       getattr(args, "skip_header", None))
