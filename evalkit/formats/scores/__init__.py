"""Per-topic scores computed anywhere, read for ``evalkit compare --scores``.

Sakai (2018, *Laboratory Experiments in Information Retrieval*, ch. 5)
compares systems on a topics x systems matrix of per-topic scores; this
package reads that matrix from the files IR tools write (``--scores-format``):

evalkit (``evalkit score --per-topic``; ``tsv``, ``csv``, ``json``)
    TSV ``run measure topic value`` without a header, CSV with the header
    ``run,measure,topic,value``, or JSON records with those four keys; with
    ``--per-judge``, a ``judge`` field first (the frame then has a ``judge``
    column: ``compare --scores`` reports judge by judge).
trec_eval (``trec_eval -q``)
    ``measure topic value``, one file per run; the run is named by the
    ``runid all NAME`` line, or by the file's name without its extension.
ir_measures (``ir_measures qrels run MEASURES -q``)
    ``qid measure value`` (its ``-o jsonl`` records too), one file per run,
    named by the file's name without its extension.
pyterrier (``pt.Experiment(..., perquery=True).to_csv(path, index=False)``)
    CSV ``name,qid,measure,value``.
wide
    CSV with a ``topic`` (or ``qid``) column and one column per run, of one
    measure named by ``measure``.
pytrec_eval (``json.dump(evaluator.evaluate(run), f)``)
    JSON ``{topic: {measure: value}}``, one file per run, named by the file.

``auto`` picks the shape per file (:mod:`.detect`).  Rows whose topic is
``all`` (means over topics) are ignored, and so are trec_eval's string fields
(``relstring`` of ``-m all_trec``; ``frame.attrs["notes"]`` says how many lines).  A value that is not a finite
number, and a (run, measure, topic) given twice, are errors naming the file
and the line; a line of another shape (a measure called ``all``, a topic
spelled like a measure, a header where a number belongs) is an error naming
the likely shape.  Nothing is filled in: :func:`score_matrix` refuses a run
that lacks a topic another run has, since scores computed elsewhere may have
dropped it for a reason only their tool knows.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from ...errors import InputError
from .detect import detect
from .names import COUNT_MEASURES, STRING_MEASURES, is_count
from .shapes import READERS

__all__ = ["SCORE_FORMATS", "COUNT_MEASURES", "read_scores", "score_matrix", "parse_renames",
           "measures_to_compare"]

SCORE_FORMATS = ("auto", "evalkit", "tsv", "csv", "json", "trec_eval", "ir_measures",
                 "pyterrier", "wide", "pytrec_eval")

COLUMNS = ["run", "measure", "topic", "value", "file", "line"]

_EVALKIT_BY_SUFFIX = {".csv": "csv", ".json": "json"}


def _value(token, path: Path, line, where: str = "") -> float:
    try:
        value = float(token)
    except (TypeError, ValueError):
        value = math.nan
    if line == 1 and isinstance(token, str) and math.isnan(value) and token.strip().lower() != "nan":
        raise InputError(f"value {token!r} on the first line is not a number: a header line?",
                         path=path, line=line,
                         hint="evalkit's TSV, trec_eval and ir_measures have no header: drop it; "
                              "CSV headers: --scores-format csv (run,measure,topic,value), "
                              "pyterrier (name,qid,measure,value) or wide (topic,RUN1,...)")
    if isinstance(token, bool) or not math.isfinite(value):
        raise InputError(f"{where}value {token!r} is not a finite number", path=path, line=line,
                         hint="every topic needs a score; drop the topic from every run, "
                              "or score it")
    return value


def parse_renames(specs) -> dict[str, str]:
    """``["OLD=NEW", ...]`` -> ``{OLD: NEW}``; OLD is a file given to ``--scores`` or a run name."""
    out = {}
    for spec in specs or ():
        old, sep, new = str(spec).rpartition("=")
        if not sep or not old or not new:
            raise InputError(f"--rename {spec!r} is not OLD=NEW",
                             hint="OLD is a scores file (all its scores) or a run name")
        if old in out:
            raise InputError(f"--rename names {old!r} twice")
        out[old] = new
    return out


def _file_records(path: Path, fmt: str, measure, rename: dict, used: set):
    shape = detect(path) if fmt == "auto" else fmt
    if shape == "evalkit":
        shape = _EVALKIT_BY_SUFFIX.get(path.suffix.lower(), "tsv")
    records = list(READERS[shape](path, measure))
    key = next((k for k in rename if Path(k) == path), None)
    if key is not None:
        runs = list(dict.fromkeys(str(r[1][0]) for r in records))
        if len(runs) > 1:
            raise InputError(f"--rename {key}={rename[key]}: the file holds {len(runs)} runs "
                             f"({', '.join(runs[:5])})", path=path,
                             hint="rename a run of it by name: --rename RUN=NEW")
        used.add(key)
        return [(line, [rename[key], *fields[1:]]) for line, fields in records]
    out = []
    for line, fields in records:
        run = str(fields[0])
        if run in rename:
            used.add(run)
            run = rename[run]
        out.append((line, [run, *fields[1:]]))
    return out


def read_scores(paths, fmt: str = "auto", measure: str | None = None,
                rename: dict | None = None) -> pd.DataFrame:
    """Read per-topic scores into ``run, measure, topic, value, file, line``.

    ``paths``: one file or several (trec_eval, ir_measures and pytrec_eval
    write one file per run).  ``fmt``: one of :data:`SCORE_FORMATS`
    (``evalkit`` and ``auto`` choose evalkit's TSV, CSV or JSON by extension).
    ``measure``: the measure of a ``wide`` table.  ``rename``: ``{OLD: NEW}``,
    OLD a file of ``paths`` (its one run) or a run name, applied before
    duplicates are looked for (two files may name their run alike).  Rows
    whose topic is ``all`` are skipped; ``file`` and ``line`` say where each
    score came from (``line`` is ``record N`` or ``topic T`` for JSON).
    """
    if fmt not in SCORE_FORMATS:
        raise InputError(f"unknown scores format {fmt!r}", hint=f"one of {', '.join(SCORE_FORMATS)}")
    paths = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    rename = dict(rename or {})
    rows, seen, used, strings = [], {}, set(), {}
    for path in paths:
        for line, (run, measure_name, topic, value, *judge) in _file_records(path, fmt, measure,
                                                                              rename, used):
            topic = str(topic).strip()
            if topic == "all":
                continue
            if measure_name in STRING_MEASURES:
                strings[measure_name] = strings.get(measure_name, 0) + 1
                continue
            where = f"{line}: " if isinstance(line, str) else ""
            number = line if isinstance(line, int) else None
            score = _value(value, path, number, where)
            key = (run, measure_name, topic, *judge)
            if key in seen:
                first = seen[key]
                hint = "keep one score per run, measure and topic"
                if first[0] != path:
                    hint = (f"two files name their run {run}: tell them apart with "
                            f"--rename {path}={run}-2")
                raise InputError(f"{where}run {run} has a second {measure_name} score for topic "
                                 f"{topic} (first in {first[0]}, line {first[1]})", path=path,
                                 line=number, hint=hint)
            seen[key] = (path, line)
            rows.append((run, measure_name, topic, score, str(path), line, *judge))
    unused = [k for k in rename if k not in used]
    if unused:
        raise InputError(f"--rename {unused[0]}={rename[unused[0]]}: no scores file or run is "
                         f"called {unused[0]!r}", hint="OLD is a file given to --scores or a run name")
    if not rows:
        raise InputError("no per-topic scores (only 'all' rows?)", path=paths[0],
                         hint="write them with evalkit score --per-topic, trec_eval -q or "
                              "ir_measures -q")
    judged = {len(r) for r in rows}
    if len(judged) > 1:
        raise InputError("some scores name a judge (evalkit score --per-judge) and some do not",
                         path=paths[0], hint="give the scores of one kind at a time")
    frame = pd.DataFrame(rows, columns=COLUMNS + (["judge"] if judged == {7} else []))
    frame.attrs["notes"] = [f"{n} {name} line(s) left out: strings, not scores"
                            for name, n in strings.items()]
    return frame


def measures_to_compare(scores: pd.DataFrame, measures=None) -> tuple[list[str], list[str]]:
    """The measures to compare and the count fields left out.

    ``measures`` given: those, each checked to be in ``scores`` (an error
    names the ones there).  Otherwise every measure in order of appearance
    except trec_eval's and ir_measures' counts (:data:`COUNT_MEASURES`:
    ``num_ret``, ``num_rel``, ...), which are returned second.
    """
    present = list(pd.unique(scores["measure"]))
    if measures:
        for m in measures:
            if m not in present:
                raise InputError(f"no scores for measure {m!r}",
                                 hint=f"measures in the scores: {', '.join(present)}")
        return list(dict.fromkeys(measures)), []
    counts = [m for m in present if is_count(m)]
    chosen = [m for m in present if not is_count(m)]
    if not chosen:
        raise InputError(f"the scores hold only counts ({', '.join(counts)})",
                         hint="name one with --measure to compare it anyway")
    return chosen, counts


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
