"""Readers and writers for every raw format the workspace uses.

Readers return tidy pandas frames and raise :class:`evalkit.errors.InputError`
naming the file, the line and what is wrong.  Writers are atomic: they write
to a temporary file in the destination folder and rename it into place, so an
interrupted run never leaves a half-written file that looks finished.

Formats
-------
qrels (TREC)
    ``topic iteration doc grade`` — whitespace separated; ``grade`` an integer
    >= 0 or ``L0``/``L1``/``L2``… (NTCIREVAL style).  The iteration field is
    ignored.  A document judged twice for one topic is an error.
run (TREC)
    ``topic Q0 doc rank score tag`` — one file per run (the tag names it).
    ``rank`` must be an integer, ``score`` a finite number; a document listed
    twice in one topic is an error.  Items are ordered by rank.

Text files are read as UTF-8; a byte-order mark is accepted and dropped, and
CRLF line endings are accepted.  Blank lines are skipped.
"""

from __future__ import annotations

import contextlib
import math
import os
import tempfile
from pathlib import Path
from typing import Iterator, Mapping

import numpy as np
import pandas as pd

from .errors import InputError

__all__ = [
    "read_qrels",
    "write_qrels",
    "read_run",
    "read_runs",
    "write_run",
    "atomic_write",
    "write_text",
    "write_table",
    "save_figure",
    "read_orderings",
    "read_clusters",
    "write_clusters",
    "read_ratings",
    "read_topics",
    "read_preferences",
]


# --------------------------------------------------------------------------
# low-level helpers
# --------------------------------------------------------------------------
def _read_text(path: Path) -> str:
    """A file's text, checked once: it exists, is UTF-8 (a BOM is dropped), is
    not empty and holds no NUL byte; errors name the file and the line."""
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path=path, hint="check the path")
    if not path.is_file():
        raise InputError("not a regular file", path=path)
    raw = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(
            f"byte 0x{raw[exc.start]:02x} is not valid UTF-8",
            path=path, line=line, hint="save the file as UTF-8",
        ) from None
    if not text.strip():
        raise InputError("file is empty", path=path)
    if "\x00" in text:
        raise InputError("NUL byte in line", path=path, line=text[: text.index("\x00")].count("\n") + 1)
    return text


def _lines(path: Path, sep: str | None = None) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line_number, fields)`` of the non-blank lines of a checked text file.

    Fields are split on white space, or on ``sep`` (e.g. "," for simple CSV
    without quoting).
    """
    for number, line in enumerate(_read_text(path).splitlines(), start=1):
        if line.strip():
            yield number, line.split(sep)


def _grade(token: str, path: Path, line: int) -> int:
    t = token[1:] if token[:1] in ("L", "l") else token
    try:
        grade = int(t)
    except ValueError:
        raise InputError(
            f"grade {token!r} is not an integer or L0/L1/L2...", path=path, line=line
        ) from None
    if grade < 0:
        raise InputError(f"grade {token!r} is negative", path=path, line=line)
    return grade


def _topic(token: str) -> str:
    """Normalise topic ids: TREC Microblog writes 'MB171' and '171' alike."""
    return token[2:] if token[:2].upper() == "MB" and token[2:].isdigit() else token


# --------------------------------------------------------------------------
# qrels
# --------------------------------------------------------------------------
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


# --------------------------------------------------------------------------
# runs
# --------------------------------------------------------------------------
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


# --------------------------------------------------------------------------
# atomic writers
# --------------------------------------------------------------------------
@contextlib.contextmanager
def atomic_write(path, mode: str = "w", **kwargs):
    """Open a temporary file beside ``path``; rename it into place on success.

    On any exception (or interruption) the temporary file is removed and an
    existing ``path`` is left untouched.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_text(path, text: str) -> Path:
    """Atomically write ``text`` (UTF-8, ``\\n`` newlines) to ``path``."""
    with atomic_write(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    return Path(path)


def write_table(frame: pd.DataFrame, stem, float_format: str = "%.4f", index: bool = False) -> list[Path]:
    """Write ``frame`` as ``stem.csv`` and ``stem.md`` (atomically, deterministic)."""
    stem = Path(stem)
    csv = frame.to_csv(index=index, float_format=float_format, lineterminator="\n")
    md = frame.to_markdown(index=index, floatfmt=float_format.strip("%")) + "\n"
    return [write_text(stem.with_suffix(".csv"), csv), write_text(stem.with_suffix(".md"), md)]


def save_figure(fig, stem, formats: tuple[str, ...] = ("png", "svg"), dpi: int = 120) -> list[Path]:
    """Save a matplotlib figure deterministically (no dates, fixed SVG ids)."""
    import matplotlib

    matplotlib.rcParams["svg.hashsalt"] = "evalkit"
    stem = Path(stem)
    written = []
    for fmt in formats:
        target = stem.with_suffix("." + fmt)
        metadata = {"Software": None} if fmt == "png" else {"Date": None, "Creator": None}
        with atomic_write(target, "wb") as handle:
            fig.savefig(handle, format=fmt, dpi=dpi, metadata=metadata, bbox_inches="tight")
        written.append(target)
    return written


# --------------------------------------------------------------------------
# ordering judgments (Kim, Zhai & Han)
# --------------------------------------------------------------------------
def read_orderings(path) -> dict[str, list[tuple[str, ...]]]:
    """Read ordering judgments, CSV ``set,assessor,position,item`` with a header.

    Returns ``{set: [ordering of assessor 1, ...]}`` (assessors in file order).
    Positions of one (set, assessor) must be 1..k without gaps or repeats,
    items must not repeat, and every assessor of a set must order the same
    items; a set needs at least two assessors.
    """
    path = Path(path)
    lines = _lines(path, ",")
    header = next(lines, None)
    if header is None or header[1] != ["set", "assessor", "position", "item"]:
        raise InputError("expected the header 'set,assessor,position,item'", path=path, line=1)
    seen: dict[tuple[str, str], dict[int, tuple[str, int]]] = {}
    for number, fields in lines:
        if len(fields) != 4 or any(not f.strip() for f in fields):
            raise InputError(f"expected 4 non-empty fields, got {fields}", path=path, line=number)
        set_id, assessor, position, item = (f.strip() for f in fields)
        try:
            pos = int(position)
        except ValueError:
            raise InputError(f"position {position!r} is not an integer", path=path, line=number) from None
        entry = seen.setdefault((set_id, assessor), {})
        if pos in entry:
            raise InputError(f"position {pos} of {set_id}/{assessor} given twice "
                             f"(first on line {entry[pos][1]})", path=path, line=number)
        for other_item, other_line in entry.values():
            if other_item == item:
                raise InputError(f"{set_id}/{assessor} lists item {item!r} twice "
                                 f"(first on line {other_line})", path=path, line=number)
        entry[pos] = (item, number)
    sets: dict[str, list[tuple[str, ...]]] = {}
    first_line: dict[str, tuple[set, str, int]] = {}
    for (set_id, assessor), entry in seen.items():
        positions = sorted(entry)
        line = min(n for _, n in entry.values())
        if positions != list(range(1, len(positions) + 1)):
            raise InputError(f"positions of {set_id}/{assessor} are {positions[:12]}, not 1..k",
                             path=path, line=line)
        order = tuple(entry[p][0] for p in positions)
        if set_id in first_line:
            items, who, _ = first_line[set_id]
            if set(order) != items:
                raise InputError(
                    f"{set_id}/{assessor} does not order the same items as {who} "
                    f"(not a permutation of the set's items)", path=path, line=line)
        else:
            first_line[set_id] = (set(order), assessor, line)
        sets.setdefault(set_id, []).append(order)
    if not sets:
        raise InputError("no judgments in file", path=path)
    for set_id, orders in sets.items():
        if len(orders) < 2:
            raise InputError(f"set {set_id} has {len(orders)} judgment; at least two are needed",
                             path=path, line=first_line[set_id][2])
    return sets


# --------------------------------------------------------------------------
# TTG cluster files (NIST format)
# --------------------------------------------------------------------------
def read_clusters(path, qrels: pd.DataFrame | None = None) -> dict[str, list[list[str]]]:
    """Read a TTG cluster file ``{"topics": {"MB171": {"clusters": [[id, ...], ...]}}}``.

    Topic ids are normalised ("MB171" -> "171", as in the qrels); tweet ids are
    kept as strings.  Errors: malformed JSON (with line and column), a wrong
    structure, a tweet in two clusters of one topic, and — when ``qrels`` is
    given — a clustered tweet not judged relevant (grade >= 1).
    """
    import json

    path = Path(path)
    text = _read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON at column {exc.colno}: {exc.msg}",
                         path=path, line=exc.lineno) from None
    except RecursionError:
        raise InputError("JSON nested too deeply", path=path) from None
    if not isinstance(data, dict) or not isinstance(data.get("topics"), dict):
        raise InputError('expected an object with a "topics" object', path=path)
    relevant = None
    if qrels is not None:
        rel = qrels[qrels["grade"] > 0]
        relevant = set(zip(rel["topic"], rel["doc"].astype(str)))
    out: dict[str, list[list[str]]] = {}
    for raw_topic, entry in data["topics"].items():
        topic = _topic(str(raw_topic))
        clusters = entry.get("clusters") if isinstance(entry, dict) else None
        if not isinstance(clusters, list) or not all(isinstance(c, list) for c in clusters):
            raise InputError(f'topic {raw_topic}: "clusters" must be a list of lists of tweet ids',
                             path=path)
        seen: dict[str, int] = {}
        topic_clusters = []
        for ci, c in enumerate(clusters):
            ids = []
            for t in c:
                if isinstance(t, bool) or not isinstance(t, (str, int)) or not str(t).strip():
                    raise InputError(f"topic {raw_topic}, cluster {ci}: bad tweet id {t!r}", path=path)
                t = str(t).strip()
                if t in seen:
                    raise InputError(f"topic {raw_topic}: tweet {t} is in clusters {seen[t]} and {ci}",
                                     path=path, hint="a tweet belongs to one cluster")
                if relevant is not None and (topic, t) not in relevant:
                    raise InputError(f"topic {raw_topic}: clustered tweet {t} is not judged relevant "
                                     "in the qrels", path=path)
                seen[t] = ci
                ids.append(t)
            if ids:
                topic_clusters.append(ids)
        out[topic] = topic_clusters
    return out


def write_clusters(clusters: Mapping[str, list[list[str]]], path) -> Path:
    """Write clusters in the NIST format (topics as "MB<id>", ids as numbers)."""
    import json

    body = {"topics": {f"MB{t}": {"clusters": [[int(x) for x in c] for c in cl]}
                       for t, cl in clusters.items()}}
    return write_text(path, json.dumps(body, separators=(",", ":")) + "\n")


# --------------------------------------------------------------------------
# per-assessor ratings (NTCIR-12 STC Japanese format)
# --------------------------------------------------------------------------
def read_ratings(path, dmax: int | None = None) -> tuple[pd.DataFrame, np.ndarray]:
    """Read ``post reply r1 ... rN`` (whitespace separated) ratings.

    Returns ``(items, ratings)``: a frame with ``post, reply`` and an
    ``items x N`` float array, ``NaN`` where a rating is ``NA`` (missing).
    Every line must have the same N; ratings are whole numbers >= 0 (and
    <= ``dmax`` when given); an item listed twice is an error.
    """
    path = Path(path)
    items, rows = [], []
    seen: dict[tuple[str, str], int] = {}
    width = None
    for number, fields in _lines(path):
        if len(fields) < 3:
            raise InputError("expected 'post reply r1 ... rN'", path=path, line=number)
        if width is None:
            width = len(fields)
        elif len(fields) != width:
            raise InputError(f"expected {width - 2} ratings like the first line, got {len(fields) - 2}",
                             path=path, line=number)
        key = (fields[0], fields[1])
        if key in seen:
            raise InputError(f"item {key[0]} {key[1]} listed twice (first on line {seen[key]})",
                             path=path, line=number)
        seen[key] = number
        row = []
        for token in fields[2:]:
            if token.upper() == "NA":
                row.append(np.nan)
                continue
            try:
                value = int(token)
            except ValueError:
                raise InputError(f"rating {token!r} is not a whole number or NA",
                                 path=path, line=number) from None
            if value < 0 or (dmax is not None and value > dmax):
                raise InputError(f"rating {value} is outside 0..{dmax if dmax is not None else 'inf'}",
                                 path=path, line=number)
            row.append(float(value))
        items.append(key)
        rows.append(row)
    return pd.DataFrame(items, columns=["post", "reply"]), np.array(rows, dtype=float)


# --------------------------------------------------------------------------
# TREC Microblog topics
# --------------------------------------------------------------------------
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


# --------------------------------------------------------------------------
# user preference judgment logs (Wang et al. §5)
# --------------------------------------------------------------------------
PREFERENCE_COLUMNS = ["assessor", "batch", "pair_id", "type", "topic", "left_run", "right_run",
                      "choice", "seconds"]


def read_preferences(path, runs=None, topics=None) -> pd.DataFrame:
    """Read a preference judgment log (CSV with header :data:`PREFERENCE_COLUMNS`).

    ``type`` is the sampling type (precision, recall or f1), ``choice`` one of
    left, right, neither, ``seconds`` the time spent (>= 0).  With ``runs`` or
    ``topics`` (sets of known ids) unknown ones are refused.  A pair judged
    twice by one assessor is an error.
    """
    import math

    path = Path(path)
    lines = _lines(path, ",")
    header = next(lines, None)
    if header is None or [h.strip() for h in header[1]] != PREFERENCE_COLUMNS:
        raise InputError("expected the header " + ",".join(PREFERENCE_COLUMNS), path=path, line=1)
    rows, seen = [], {}
    for number, fields in lines:
        fields = [f.strip() for f in fields]
        if len(fields) != len(PREFERENCE_COLUMNS):
            raise InputError(f"expected {len(PREFERENCE_COLUMNS)} fields, got {len(fields)}",
                             path=path, line=number)
        assessor, batch, pair_id, kind, topic, left, right, choice, seconds = fields
        if choice not in ("left", "right", "neither"):
            raise InputError(f"choice {choice!r} is not left, right or neither", path=path, line=number)
        if kind not in ("precision", "recall", "f1"):
            raise InputError(f"type {kind!r} is not precision, recall or f1", path=path, line=number)
        try:
            secs = float(seconds)
        except ValueError:
            raise InputError(f"seconds {seconds!r} is missing or not a number", path=path, line=number) from None
        if not math.isfinite(secs) or secs < 0:
            raise InputError(f"seconds {seconds} must be a finite number >= 0", path=path, line=number)
        try:
            batch_i, pair_i = int(batch), int(pair_id)
        except ValueError:
            raise InputError("batch and pair_id must be whole numbers", path=path, line=number) from None
        topic = _topic(topic)
        if topics is not None and topic not in topics:
            raise InputError(f"unknown topic {topic!r}", path=path, line=number)
        for run in (left, right):
            if runs is not None and run not in runs:
                raise InputError(f"unknown run {run!r}", path=path, line=number)
        key = (assessor, pair_i)
        if key in seen:
            raise InputError(f"assessor {assessor} judged pair {pair_i} twice (first on line {seen[key]})",
                             path=path, line=number)
        seen[key] = number
        rows.append((assessor, batch_i, pair_i, kind, topic, left, right, choice, secs))
    if not rows:
        raise InputError("no judgments in file", path=path)
    return pd.DataFrame(rows, columns=PREFERENCE_COLUMNS)
