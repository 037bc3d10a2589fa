"""One reader per shape of per-topic scores; each yields ``(line, [run, measure, topic, value])``.

``line`` is the 1-based line number, or ``"record N"`` where the format
keeps none (JSON).  Values are yielded as read; :func:`evalkit.formats.scores.read_scores`
checks them.  A reader that meets a line of another shape (a measure called
``all``, a topic spelled like a measure, a header where a number belongs)
stops with an :class:`~evalkit.errors.InputError` naming the likely shape.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from ...errors import InputError
from .._text import _lines, _read_text
from .names import is_header, looks_like_measure

__all__ = ["READERS", "misread"]

_FIX = "give --scores-format {fmt}, or leave it auto"


def misread(problem: str, fmt: str, what: str, path: Path, line) -> InputError:
    """The error for a line that belongs to another shape: names it and the fix."""
    where = f"{line}: " if isinstance(line, str) else ""
    return InputError(f"{where}{problem}: this looks like {what}", path=path,
                      line=line if isinstance(line, int) else None, hint=_FIX.format(fmt=fmt))


_WHAT = {"trec_eval": "trec_eval -q output ('measure topic value')",
         "ir_measures": "ir_measures -q output ('qid measure value')",
         "pyterrier": "PyTerrier's per-query frame ('name,qid,measure,value')",
         "evalkit": "evalkit score --per-topic output ('run measure topic value')",
         "wide": "a wide table (a topic column, one column per run)"}


def header_error(fields, path: Path, line, shape: str) -> InputError:
    """A header line where ``shape`` wants numbers: name the shape that has that header."""
    words = [f.strip().lower() for f in fields]
    guess = ("pyterrier" if words[-4:] == ["name", "qid", "measure", "value"] else
             "evalkit" if words == ["run", "measure", "topic", "value"] else
             "ir_measures" if words == ["qid", "measure", "value"] else
             "trec_eval" if words == ["measure", "topic", "value"] else
             "wide" if words[0] in ("topic", "qid", "query_id") else None)
    text = " ".join(f.strip() for f in fields)
    if guess is None or guess == shape:
        return InputError(f"a header line {text!r} where {_WHAT[shape]} has a number",
                          path=path, line=line,
                          hint="drop the header line, or name the format with --scores-format")
    fmt = "csv" if guess == "evalkit" else guess
    return misread(f"a header line {text!r} where a number belongs", fmt, _WHAT[guess],
                   path, line)


def _checked(fields, number, path, shape):
    """A line of column names where ``shape`` has numbers is a header: name its shape."""
    if is_header(fields):
        raise header_error(fields, path, number, shape)


def evalkit_tsv(path: Path, measure=None):
    """``run measure topic value`` lines, or ``judge run measure topic value`` (``evalkit score
    --per-judge``; the judge is yielded fifth), the same number of fields on every line."""
    width = None
    for number, fields in _lines(path):
        width = width or (len(fields) if len(fields) in (4, 5) else 4)
        if len(fields) != width:
            layout = "'judge run measure topic value'" if width == 5 else "'run measure topic value'"
            hint = ("for trec_eval -q or ir_measures -q output give --scores-format trec_eval "
                    "or ir_measures (or auto)" if len(fields) == 3 else "")
            raise InputError(f"expected {width} fields {layout}, got {len(fields)}",
                             path=path, line=number, hint=hint)
        _checked(fields, number, path, "evalkit")
        yield number, (fields[1:] + fields[:1] if width == 5 else fields)


def _csv_rows(path: Path):
    text = _read_text(path)
    first = text.splitlines()[0] if text else ""
    delimiter = "\t" if "\t" in first and "," not in first else ","
    rows = csv.reader(text.splitlines(), delimiter=delimiter)
    header = [h.strip() for h in next(rows)]
    body = ((rows.line_num, fields) for fields in rows if any(f.strip() for f in fields))
    return header, body


def evalkit_csv(path: Path, measure=None):
    header, rows = _csv_rows(path)
    if header == ["judge", "run", "measure", "topic", "value"]:      # evalkit score --per-judge
        for number, fields in rows:
            if len(fields) != 5:
                raise InputError(f"expected 5 fields 'judge,run,measure,topic,value', got "
                                 f"{len(fields)}", path=path, line=number)
            yield number, fields[1:] + fields[:1]
        return
    if header != ["run", "measure", "topic", "value"]:
        if [h.lower() for h in header[-4:]] == ["name", "qid", "measure", "value"]:
            raise misread(f"header {','.join(header)!r} is not 'run,measure,topic,value'",
                          "pyterrier", _WHAT["pyterrier"], path, 1)
        raise InputError(f"header {','.join(header)!r} is not 'run,measure,topic,value'",
                         path=path, line=1,
                         hint="for PyTerrier's frame give --scores-format pyterrier, for a "
                              "topic column and one column per run --scores-format wide")
    for number, fields in rows:
        if len(fields) != 4:
            raise InputError(f"expected 4 fields 'run,measure,topic,value', got {len(fields)}",
                             path=path, line=number)
        yield number, fields


def pyterrier(path: Path, measure=None):
    """PyTerrier's ``pt.Experiment(..., perquery=True)`` frame saved with ``to_csv``:
    ``name,qid,measure,value`` (a leading unnamed index column, from ``index=True``,
    is skipped; tab-separated is read too)."""
    header, rows = _csv_rows(path)
    skip = 1 if len(header) == 5 and header[0] == "" else 0
    if [h.lower() for h in header[skip:]] != ["name", "qid", "measure", "value"]:
        raise InputError(f"header {','.join(header)!r} is not 'name,qid,measure,value' "
                         "(PyTerrier's per-query frame)", path=path, line=1,
                         hint="save it with frame.to_csv(path, index=False)")
    for number, fields in rows:
        if len(fields) != 4 + skip:
            raise InputError(f"expected {4 + skip} fields 'name,qid,measure,value', "
                             f"got {len(fields)}", path=path, line=number)
        name, qid, measure_name, value = fields[skip:]
        yield number, [name, measure_name, qid, value]


def wide(path: Path, measure=None):
    """A CSV with a ``topic`` (or ``qid``, ``query_id``) column and one column per run,
    all of one measure, named by ``measure``."""
    header, rows = _csv_rows(path)
    if not header or header[0].lower() not in ("topic", "qid", "query_id"):
        raise InputError(f"the first column of a wide table is 'topic', not {header[0]!r}",
                         path=path, line=1, hint="write it as topic,RUN1,RUN2,...")
    runs = header[1:]
    if not runs or any(not r for r in runs) or len(set(runs)) != len(runs):
        raise InputError("a wide table needs one named column per run, each name once",
                         path=path, line=1)
    if measure is None:
        raise InputError("a wide table holds one measure and does not name it", path=path,
                         hint="give its name with exactly one --measure (e.g. --measure P_10)")
    for number, fields in rows:
        if len(fields) != len(header):
            raise InputError(f"expected {len(header)} fields (topic and {len(runs)} runs), "
                             f"got {len(fields)}", path=path, line=number)
        for run, value in zip(runs, fields[1:]):
            yield number, [run, measure, fields[0].strip(), value]


def _json(path: Path):
    try:
        return json.loads(_read_text(path))
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", path=path, line=exc.lineno) from None


def evalkit_json(path: Path, measure=None):
    records = _json(path)
    if isinstance(records, dict):
        raise misread("a JSON object, not a list of records {run, measure, topic, value}",
                      "pytrec_eval", "pytrec_eval's output ({topic: {measure: value}})", path, None)
    if not isinstance(records, list):
        raise InputError("expected a JSON list of records {run, measure, topic, value}", path=path)
    keys = {"run", "measure", "topic", "value"}
    for i, record in enumerate(records, start=1):
        if not isinstance(record, dict) or set(record) - {"judge"} != keys:
            raise InputError(f"record {i} does not have exactly the keys run, measure, topic, "
                             "value (and judge, with evalkit score --per-judge)", path=path)
        yield f"record {i}", [str(record["run"]), str(record["measure"]), str(record["topic"]),
                              record["value"], *([str(record["judge"])] if "judge" in record
                                                 else [])]


def pytrec_eval(path: Path, measure=None):
    """``json.dump(evaluator.evaluate(run))``: ``{topic: {measure: value}}``, one file
    per run, the run named by the file's name without its extension."""
    data = _json(path)
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise InputError("expected pytrec_eval's JSON object {topic: {measure: value}}",
                         path=path, hint="write it with json.dump(evaluator.evaluate(run), f)")
    for topic, values in data.items():
        if looks_like_measure(topic) and not any(looks_like_measure(m) for m in values):
            raise InputError(f"topic {topic!r} is spelled like a measure and its keys are not: "
                             "the object looks like {measure: {topic: value}}", path=path,
                             hint="pytrec_eval writes {topic: {measure: value}}")
        for name, value in values.items():
            yield f"topic {topic}", [path.stem, str(name), str(topic), value]


def trec_eval(path: Path, measure=None):
    """``trec_eval -q``: ``measure topic value``; the run named by ``runid all NAME``,
    else by the file's name without its extension."""
    rows, name = [], None
    for number, fields in _lines(path):
        if len(fields) != 3:
            raise InputError(f"expected 3 fields 'measure topic value' (trec_eval -q), "
                             f"got {len(fields)}", path=path, line=number)
        measure_name, topic, value = fields
        if measure_name == "runid" and topic == "all":
            name = value
            continue
        _checked(fields, number, path, "trec_eval")
        if measure_name == "all":
            raise misread("a measure called 'all' (trec_eval writes the means as 'measure all "
                          "value')", "ir_measures", _WHAT["ir_measures"], path, number)
        if looks_like_measure(topic) and not looks_like_measure(measure_name):
            raise misread(f"topic {topic!r} is spelled like a measure and measure "
                          f"{measure_name!r} like a topic", "ir_measures", _WHAT["ir_measures"],
                          path, number)
        rows.append((number, [None, measure_name, topic, value]))
    name = name if name is not None else path.stem
    for number, fields in rows:
        fields[0] = name
        yield number, fields


def ir_measures(path: Path, measure=None):
    """``ir_measures qrels run measures -q``: ``qid measure value`` (means as
    ``all measure value``), or its ``-o jsonl`` records ``{query_id, measure, value}``;
    the run named by the file's name without its extension."""
    text = _read_text(path)
    if text.lstrip().startswith("{"):
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"not valid JSON: {exc.msg}", path=path, line=number) from None
            if not isinstance(record, dict) or not {"query_id", "measure", "value"} <= set(record):
                raise InputError("expected a record {query_id, measure, value} (ir_measures -q "
                                 "-o jsonl)", path=path, line=number)
            yield number, [path.stem, str(record["measure"]), str(record["query_id"]),
                           record["value"]]
        return
    for number, fields in _lines(path):
        if len(fields) != 3:
            raise InputError(f"expected 3 fields 'qid measure value' (ir_measures -q), "
                             f"got {len(fields)}", path=path, line=number)
        qid, measure_name, value = fields
        if qid == "runid" or measure_name == "all":
            raise misread(f"{'a line runid' if qid == 'runid' else 'a measure called all'} "
                          "(ir_measures writes the means as 'all measure value')", "trec_eval",
                          _WHAT["trec_eval"], path, number)
        _checked(fields, number, path, "ir_measures")
        if looks_like_measure(qid) and not looks_like_measure(measure_name):
            raise misread(f"topic {qid!r} is spelled like a measure and measure "
                          f"{measure_name!r} like a topic", "trec_eval", _WHAT["trec_eval"],
                          path, number)
        yield number, [path.stem, measure_name, qid, value]


#: Format name -> reader.  ``evalkit`` is chosen by extension in :mod:`.detect`.
READERS = {"tsv": evalkit_tsv, "csv": evalkit_csv, "json": evalkit_json,
           "trec_eval": trec_eval, "ir_measures": ir_measures, "pyterrier": pyterrier,
           "wide": wide, "pytrec_eval": pytrec_eval}
