"""Per-topic scores computed anywhere, read for ``evalkit compare --scores``.

Sakai (2018, *Laboratory Experiments in Information Retrieval*, ch. 5)
compares systems on a topics x systems matrix of per-topic scores; this
module reads that matrix from the files IR tools write:

evalkit (``evalkit score --per-topic``)
    TSV ``run measure topic value`` without a header (trec_eval's layout),
    CSV with the header ``run,measure,topic,value``, or JSON records with
    those four keys.
trec_eval (``trec_eval -q``)
    ``measure topic value``, one file per run; the run is named by the
    ``runid all NAME`` line, or by the file's name without its extension.

``all`` rows (means over topics) are ignored.  A value that is not a finite
number, and a (run, measure, topic) given twice, are errors naming the file
and the line.  Nothing is filled in: :func:`score_matrix` refuses a run that
lacks a topic another run has, since scores computed elsewhere may have
dropped it for a reason only their tool knows.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from ._text import _lines, _read_text

__all__ = ["SCORE_FORMATS", "read_scores", "score_matrix"]

SCORE_FORMATS = ("auto", "tsv", "csv", "json", "trec_eval")

COLUMNS = ["run", "measure", "topic", "value", "file", "line"]


def _value(token, path: Path, line: int | None, where: str = "") -> float:
    try:
        value = float(token)
    except (TypeError, ValueError):
        value = math.nan
    if not math.isfinite(value):
        raise InputError(f"{where}value {token!r} is not a finite number", path=path, line=line,
                         hint="every topic needs a score; drop the topic from every run, "
                              "or score it")
    return value


def _evalkit_tsv(path: Path):
    for number, fields in _lines(path):
        if len(fields) != 4:
            raise InputError(f"expected 4 fields 'run measure topic value', got {len(fields)}",
                             path=path, line=number,
                             hint="for trec_eval -q output give --scores-format trec_eval")
        yield number, fields


def _evalkit_csv(path: Path):
    rows = csv.reader(_read_text(path).splitlines())
    header = [h.strip() for h in next(rows)]
    if header != ["run", "measure", "topic", "value"]:
        raise InputError(f"header {','.join(header)!r} is not 'run,measure,topic,value'",
                         path=path, line=1)
    for fields in rows:
        if not any(f.strip() for f in fields):
            continue
        if len(fields) != 4:
            raise InputError(f"expected 4 fields 'run,measure,topic,value', got {len(fields)}",
                             path=path, line=rows.line_num)
        yield rows.line_num, fields


def _evalkit_json(path: Path):
    try:
        records = json.loads(_read_text(path))
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", path=path, line=exc.lineno) from None
    if not isinstance(records, list):
        raise InputError("expected a JSON list of records {run, measure, topic, value}", path=path)
    for i, record in enumerate(records, start=1):
        if not isinstance(record, dict) or set(record) != {"run", "measure", "topic", "value"}:
            raise InputError(f"record {i} does not have exactly the keys run, measure, topic, value",
                             path=path)
        # JSON keeps no useful line numbers: the record's position stands in for one
        yield f"record {i}", [str(record["run"]), str(record["measure"]), str(record["topic"]),
                              record["value"]]


def _trec_eval(path: Path):
    rows, name = [], None
    for number, fields in _lines(path):
        if len(fields) != 3:
            raise InputError(f"expected 3 fields 'measure topic value' (trec_eval -q), "
                             f"got {len(fields)}", path=path, line=number)
        measure, topic, value = fields
        if measure == "runid":
            name = value
            continue
        rows.append((number, [None, measure, topic, value]))
    name = name if name is not None else path.stem
    for number, fields in rows:
        fields[0] = name
        yield number, fields


def _records(path: Path, fmt: str):
    if fmt == "auto":
        suffix = path.suffix.lower()
        fmt = {".csv": "csv", ".json": "json"}.get(suffix, "tsv")
    return {"tsv": _evalkit_tsv, "csv": _evalkit_csv, "json": _evalkit_json,
            "trec_eval": _trec_eval}[fmt](path)


def read_scores(paths, fmt: str = "auto") -> pd.DataFrame:
    """Read per-topic scores into ``run, measure, topic, value, file, line``.

    ``paths``: one file or several (trec_eval writes one file per run).
    ``fmt``: ``auto`` (by extension: ``.csv``, ``.json``, otherwise evalkit's
    TSV), ``tsv``, ``csv``, ``json`` or ``trec_eval``.  Rows whose topic is
    ``all`` are skipped; ``file`` and ``line`` say where each score came from
    (``line`` is ``record N`` for JSON).
    """
    if fmt not in SCORE_FORMATS:
        raise InputError(f"unknown scores format {fmt!r}", hint=f"one of {', '.join(SCORE_FORMATS)}")
    paths = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    rows, seen = [], {}
    for path in paths:
        for line, (run, measure, topic, value) in _records(path, fmt):
            if topic == "all":
                continue
            where = f"{line}: " if isinstance(line, str) else ""
            number = line if isinstance(line, int) else None
            score = _value(value, path, number, where)
            key = (run, measure, topic)
            if key in seen:
                first = seen[key]
                raise InputError(f"{where}run {run} has a second {measure} score for topic {topic} "
                                 f"(first in {first[0]}, line {first[1]})", path=path, line=number,
                                 hint="keep one score per run, measure and topic")
            seen[key] = (path, line)
            rows.append((run, measure, topic, score, str(path), line))
    if not rows:
        raise InputError("no per-topic scores (only 'all' rows?)", path=paths[0],
                         hint="write them with evalkit score --per-topic or trec_eval -q")
    return pd.DataFrame(rows, columns=COLUMNS)


def score_matrix(scores: pd.DataFrame, measure: str) -> pd.DataFrame:
    """The topics x runs matrix of one measure (rows and columns in order of appearance).

    Errors, naming the file: fewer than two runs or two topics, and a run
    without a score for a topic that another run has.
    """
    rows = scores[scores["measure"] == measure]
    if rows.empty:
        raise InputError(f"no scores for measure {measure!r}",
                         hint=f"measures in the scores: {', '.join(pd.unique(scores['measure']))}")
    files = ", ".join(pd.unique(rows["file"]))
    runs, topics = pd.unique(rows["run"]), pd.unique(rows["topic"])
    if len(runs) < 2:
        raise InputError(f"comparing needs at least two runs; {measure} has one ({runs[0]}) "
                         f"in {files}", hint="give the scores of every run to compare")
    if len(topics) < 2:
        raise InputError(f"comparing needs at least two topics; {measure} has one ({topics[0]}) "
                         f"in {files}")
    matrix = rows.pivot(index="topic", columns="run", values="value").loc[topics, runs]
    if matrix.isna().any().any():
        t, r = np.argwhere(matrix.isna().to_numpy())[0]
        topic, run = topics[t], runs[r]
        run_files = ", ".join(pd.unique(rows.loc[rows["run"] == run, "file"]))
        raise InputError(f"run {run} has no {measure} score for topic {topic}, which other runs "
                         f"have", path=run_files,
                         hint="scores from elsewhere are not filled in: score that topic, or "
                              "drop it from every run")
    matrix.columns.name, matrix.index.name = None, "topic"
    return matrix
