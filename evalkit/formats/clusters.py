"""TTG cluster files (the NIST JSON format of TREC 2014 Microblog)."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

import pandas as pd

from ..errors import InputError
from ..outputs import write_text
from ._text import _read_text, _topic

__all__ = ["read_clusters", "write_clusters"]


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
