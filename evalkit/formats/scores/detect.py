"""``--scores-format auto``: the shape of a per-topic scores file, where it is unambiguous.

By extension and content: ``.json`` holding a list is evalkit's records, an
object pytrec_eval's ``{topic: {measure: value}}``; ``.jsonl`` (or text that
starts with ``{``) ir_measures' ``-o jsonl``; a ``.csv`` by its header
(``run,measure,topic,value`` evalkit, ``name,qid,measure,value`` PyTerrier,
a first column ``topic``/``qid``/``query_id`` a wide table); other text by
its fields: three with a number last on every line is trec_eval ``-q`` or
ir_measures ``-q``, told apart by where the means' ``all`` stands
(trec_eval: ``measure all value`` and ``runid all NAME``; ir_measures:
``all measure value``) or by which column is spelled like measures;
anything else is evalkit's TSV.  When neither tells, the file is refused
with both names, never guessed.
"""

from __future__ import annotations

import json
from pathlib import Path

from ...errors import InputError
from .._text import _lines, _read_text
from .names import STRING_MEASURES, is_header, looks_like_measure

__all__ = ["detect"]


def _json_shape(path: Path) -> str:
    try:
        data = json.loads(_read_text(path))
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", path=path, line=exc.lineno) from None
    return "pytrec_eval" if isinstance(data, dict) else "json"


def _csv_shape(path: Path) -> str:
    first = _read_text(path).lstrip().splitlines()[0]
    sep = "\t" if "\t" in first and "," not in first else ","
    header = [h.strip().strip('"') for h in first.split(sep)]
    lower = [h.lower() for h in header]
    if header in (["run", "measure", "topic", "value"], ["judge", "run", "measure", "topic", "value"]):
        return "csv"
    if lower[-4:] == ["name", "qid", "measure", "value"] and len(lower) in (4, 5):
        return "pyterrier"
    if lower[0] in ("topic", "qid", "query_id") and len(header) > 1:
        return "wide"
    raise InputError(f"header {first.strip()!r} is none of the CSV shapes", path=path, line=1,
                     hint="evalkit: run,measure,topic,value; PyTerrier: name,qid,measure,value; "
                          "wide: topic,RUN1,RUN2,...")


def _three_fields(path: Path, rows) -> str:
    trec = any(f[0] == "runid" or f[1] == "all" for f in rows)
    irm = any(f[0] == "all" for f in rows)
    if trec != irm:
        return "trec_eval" if trec else "ir_measures"
    first = all(looks_like_measure(f[0]) for f in rows)
    second = all(looks_like_measure(f[1]) for f in rows)
    if first != second:
        return "trec_eval" if first else "ir_measures"
    raise InputError("three fields per line: trec_eval -q writes 'measure topic value', "
                     "ir_measures -q 'qid measure value', and this file does not tell which",
                     path=path, hint="give --scores-format trec_eval or --scores-format ir_measures")


def detect(path: Path) -> str:
    """The format name of ``path`` (a key of :data:`evalkit.formats.scores.shapes.READERS`)."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        return _json_shape(path)
    if suffix == ".jsonl":
        return "ir_measures"
    if suffix == ".csv":
        return _csv_shape(path)
    rows = [fields for _, fields in _lines(path)]
    if rows and rows[0] and rows[0][0].startswith("{"):
        return "ir_measures"
    if rows and [f.lower() for f in rows[0]] == ["name", "qid", "measure", "value"]:
        return "pyterrier"
    body = rows[1:] if rows and is_header(rows[0]) else rows
    if body and all(len(f) == 3 and (_number(f[2]) or f[0] in ("runid", *STRING_MEASURES))
                    for f in body):
        return _three_fields(path, body)
    return "tsv"


def _number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True
