"""TREC formats: qrels, runs and TREC Microblog topics.

qrels
    ``topic iteration doc grade``: whitespace separated; ``grade`` an integer
    >= 0 or ``L0``/``L1``/``L2``... (NTCIREVAL style).  The iteration field is
    ignored.  A document judged twice for one topic is an error.
run
    ``topic Q0 doc rank score tag``: one file per run (the tag names it).
    ``rank`` must be an integer, ``score`` a finite number; a document listed
    twice in one topic is an error.  Items are ordered by rank.
topics
    The TREC Microblog topic file (``<top>`` blocks).
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from ..errors import InputError
from ..outputs import write_text
from ._text import _grade, _lines, _topic

__all__ = ["read_qrels", "write_qrels", "read_run", "read_runs", "write_run", "read_topics"]


def read_qrels(path) -> pd.DataFrame:
    """Read TREC qrels into a frame with columns ``topic, doc, grade``."""
    path = Path(path)
    rows = []
    seen: dict[tuple[str, str], int] = {}
    for number, fields in _lines(path):
        if len(fields) != 4:
            raise InputError(
                f"expected 4 fields 'topic iteration doc grade', got {len(fields)}",
                path=path, line=number,
            )
        topic, _, doc, grade = fields
        topic = _topic(topic)
        key = (topic, doc)
        if key in seen:
            raise InputError(
                f"document {doc} is judged twice for topic {topic} "
                f"(first on line {seen[key]})", path=path, line=number,
            )
        seen[key] = number
        rows.append((topic, doc, _grade(grade, path, number)))
    return pd.DataFrame(rows, columns=["topic", "doc", "grade"])


def write_qrels(qrels: pd.DataFrame, path) -> Path:
    """Write ``topic, doc, grade`` as TREC qrels (iteration field 0)."""
    lines = (f"{t} 0 {d} {g}\n" for t, d, g in qrels[["topic", "doc", "grade"]].itertuples(index=False))
    return write_text(path, "".join(lines))


def read_run(path, qrels: pd.DataFrame | None = None, report: list | None = None) -> pd.DataFrame:
    """Read one TREC run into ``run, topic, doc, rank, score``.

    If ``qrels`` is given, rows for topics the qrels do not judge are dropped
    (they cannot be scored) and one message per such topic is appended to
    ``report`` (or raised as an error when ``report`` is None, so nothing is
    dropped silently).
    """
    path = Path(path)
    rows = []
    seen: dict[tuple[str, str], int] = {}
    tags: set[str] = set()
    for number, fields in _lines(path):
        if len(fields) != 6:
            raise InputError(
                f"expected 6 fields 'topic Q0 doc rank score tag', got {len(fields)}",
                path=path, line=number,
            )
        topic, _, doc, rank, score, tag = fields
        topic = _topic(topic)
        try:
            rank_i = int(rank)
        except ValueError:
            raise InputError(f"rank {rank!r} is not an integer", path=path, line=number) from None
        try:
            score_f = float(score)
        except ValueError:
            raise InputError(f"score {score!r} is not a number", path=path, line=number) from None
        if not math.isfinite(score_f):
            raise InputError(f"score {score!r} is not finite", path=path, line=number)
        key = (topic, doc)
        if key in seen:
            raise InputError(
                f"document {doc} is listed twice for topic {topic} "
                f"(first on line {seen[key]})", path=path, line=number,
                hint="a run lists each document at most once per topic",
            )
        seen[key] = number
        tags.add(tag)
        rows.append((tag, topic, doc, rank_i, score_f))
    if len(tags) > 1:
        raise InputError(
            f"one run file must have one tag, found {len(tags)}: {sorted(tags)[:5]}",
            path=path,
        )
    run = pd.DataFrame(rows, columns=["run", "topic", "doc", "rank", "score"])
    if qrels is not None:
        judged = set(qrels["topic"].unique())
        extra = sorted(set(run["topic"]) - judged)
        if extra:
            message = (
                f"{path}: topics {extra} are not in the qrels; "
                f"{int(run['topic'].isin(extra).sum())} rows dropped"
            )
            if report is None:
                raise InputError(
                    f"topics {extra} are not in the qrels",
                    path=path, hint="pass report=[] to drop them and collect a message",
                )
            report.append(message)
            run = run[~run["topic"].isin(extra)].reset_index(drop=True)
    return run


def read_runs(folder, qrels: pd.DataFrame | None = None, report: list | None = None) -> pd.DataFrame:
    """Read every run file in ``folder`` (sorted by name) into one frame."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("run folder not found", path=folder)
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    if not files:
        raise InputError("no run files found", path=folder)
    root = folder.resolve()
    for p in files:
        if root not in p.resolve().parents:
            raise InputError(f"links outside the run folder (to {p.resolve()})", path=p,
                             hint="copy the file into the folder instead of linking it")
    runs = [read_run(p, qrels, report) for p in files]
    frame = pd.concat(runs, ignore_index=True)
    names = [r["run"].iloc[0] for r in runs if len(r)]
    if len(set(names)) != len(names):
        raise InputError("two run files share a run tag", path=folder)
    return frame


def write_run(run: pd.DataFrame, path) -> Path:
    """Write one run (``run, topic, doc, rank, score``) in TREC format."""
    lines = (
        f"{t} Q0 {d} {r} {s:.6f} {tag}\n"
        for tag, t, d, r, s in run[["run", "topic", "doc", "rank", "score"]].itertuples(index=False)
    )
    return write_text(path, "".join(lines))


def read_topics(path) -> pd.DataFrame:
    """Read TREC Microblog topics (``<top> <num> Number: MB171 </num> <query> ...``).

    Returns ``topic`` (e.g. "171"), ``query``, ``querytime`` (text) and
    ``querytweettime`` (tweet id as text).
    """
    import re

    path = Path(path)
    text = "\n".join(" ".join(f) for _, f in _lines(path))
    blocks = re.findall(r"<top>(.*?)</top>", text, flags=re.S)
    if not blocks:
        raise InputError("no <top> ... </top> topic blocks", path=path)
    rows = []
    for k, block in enumerate(blocks, start=1):
        fields = {}
        for tag in ("num", "query", "querytime", "querytweettime"):
            m = re.search(rf"<{tag}>(.*?)</{tag}>", block, flags=re.S)
            if m is None:
                raise InputError(f"topic block {k} has no <{tag}>", path=path)
            fields[tag] = " ".join(m.group(1).split())
        num = fields["num"].replace("Number:", "").strip()
        rows.append((_topic(num), fields["query"], fields["querytime"], fields["querytweettime"]))
    return pd.DataFrame(rows, columns=["topic", "query", "querytime", "querytweettime"])
