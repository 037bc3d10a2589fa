"""``evalkit score`` from Python: every run scored under every judge, one tidy frame.

:func:`score` takes runs (files or a frame) and judgments — per-assessor
ratings pooled into one gain (RawG, WG or Sakai's UG), one qrels file per
judge, or graded qrels with a gain map — and returns rows ``run, measure,
topic, value`` (with ``judge`` first when scoring per judge), topic ``all``
being the mean.  The measures are those of
:mod:`evalkit.measures.registry`, named as ir_measures names them
(``nDCG@10``, ``AP``, ``P@10``, ``R@100``, ``RR``) or as NTCIREVAL's
(``nERR@10``, ``P+``, ``Q``, ``nG@1``).

Which topics a mean covers (``docs/measures.md``):

* a topic a run does not return counts 0 (trec_eval's ``-c``) unless
  ``missing="skip"``; run topics without judgments are dropped;
* trec_eval's measures score every topic of a judge's qrels (0 where it has
  no relevant document); NTCIREVAL's leave out a topic without a positive
  gain (``frame.attrs["excluded_topics"]``).

trec_eval's options (``docs/measures.md``): ``judged_only`` (``-J``, condensed
lists), ``depth`` (``-M``), ``rel_level`` (``-l``; a measure's own ``rel=`` wins)
and ``judgment_groups`` (``-R qrels_jg``, :mod:`.judgment_groups`).

Everything a user should know but not parse is in ``frame.attrs["notes"]``, and
is shown as a warning when called from a notebook (:mod:`evalkit.evaluate.notes`).
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from ...errors import InputError
from ...measures.ranked import UNJUDGED
from ...measures.registry import NTCIREVAL, expand_all, summarise
from ..memory import release_free_memory
from ..notes import show_notes
from ..runs.files import Progress, RunFiles, run_tables
from ..runs.frames import normalise_runs
from ..judges.holes import fill_holes, fill_name, with_fill
from ..sources import qrels_frame, ratings_and_judges, runs_source
from .gain_columns import gain_columns, judge_labels, judges_and_runs, pooled_judgments
from .judgments import Judgments, judgments
from .lists import ListOptions, Scored, score_runs
from .trec_eval_format import trec_eval_name
from .trec_eval_options import complete_num_rel, option_notes, with_rel_level

__all__ = ["score", "scored_runs", "gain_columns", "pooled_judgments", "judge_labels",
           "judges_and_runs", "tidy"]


def scored_runs(runs, judged: Judgments, specs, order: str = "score", missing: str = "zero",
                progress=None, options: ListOptions = ListOptions(),
                rename: dict | None = None, strings=()) -> Scored:
    """Every run's scores: run files (:class:`RunFiles`) read and scored one at a time, or a
    runs frame; the same values either way (tested).  ``options``: trec_eval's ``-M`` and
    ``-J`` (:class:`~evalkit.evaluate.scoring.lists.ListOptions`); ``strings``: specs of
    string measures (``relstring``), computed beside the numbers (``Scored.strings``)."""
    from ...formats._header import skip_headers
    from ...formats.trec import run_table

    if isinstance(runs, RunFiles):
        vocabulary, groups = _vocabulary(judged, runs.use_compiled())
        skip = skip_headers()          # --skip-header, read here: the reading thread has no context
        bar = Progress(runs, progress)
        try:
            read = partial(run_table, vocabulary=vocabulary, compiled=groups is not None,
                           skip_header=skip, groups=groups)
            return score_runs(runs, judged, specs, order, missing, bar.update, options, rename,
                              strings, mapper=partial(_read_and_score, read=read))
        finally:
            bar.close()
    frame = normalise_runs(runs)
    if frame["score"].isna().any() and order == "score":
        order = "rank"          # no scores to order by: the ranks as given
    frame["score"] = frame["score"].fillna(0.0)
    return score_runs(run_tables(frame, judged.docs.to_numpy(dtype=object)), judged, specs,
                      order, missing, options=options, rename=rename, strings=strings)


def _vocabulary(judged: Judgments, compiled: bool):
    """``(vocabulary, groups)`` for reading run files: the judged documents (hashed once
    for every file when ``compiled``) and, for the compiled reader, each topic's judged
    documents, against which a run's documents for that topic are coded
    (:meth:`~evalkit.formats._intern.Interned.block_codes`)."""
    docs = judged.docs.to_numpy(dtype=object)
    if not compiled:
        from ...formats._columns import distinct_ids

        return distinct_ids(docs), None
    from ...formats._intern import Interned

    vocabulary = Interned(docs)
    width = max(len(judged.docs), 1)             # keys: topic x len(docs) + doc, ascending
    offsets = np.searchsorted(judged.keys // width, np.arange(len(judged.topics) + 1))
    return vocabulary, vocabulary.groups(judged.topics, offsets, judged.keys % width)


#: Run files read and scored at once, each on a thread of its own.  The compiled reader
#: and most of numpy's work release the GIL, so two threads keep both cores of a small
#: machine busy: 20 runs of 200 topics x 1,000 documents under trec_eval's ``all_trec``
#: took 0.55 of pytrec_eval's time against 0.57 when two threads read and the caller
#: scored, the slower side (alternating, medians of 7; ``benchmarks/README.md``).
WORKERS = 2


def _read_and_score(score, paths, read, workers: int = WORKERS):
    """``score(read(path))`` of each path, in order, ``workers`` files at once on threads;
    at most ``workers`` run files and their lists in memory."""
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor

    def one(path):
        return score(read(path))

    paths = list(paths)
    if len(paths) < 2:
        yield from map(one, paths)
        return
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="evalkit-score") as pool:
        ahead = deque(pool.submit(one, p) for p in paths[:workers])
        for nxt in paths[workers:]:
            done = ahead.popleft().result()
            ahead.append(pool.submit(one, nxt))
            yield done
        while ahead:
            yield ahead.popleft().result()


def tidy(scored: Scored, specs, per_topic: bool, per_judge: bool) -> pd.DataFrame:
    """Rows ``[judge,] run, measure, topic, value``: per column, run and measure its topics
    (with ``per_topic``) and then ``all``, the measure's summary over the topics it can score
    (``spec.summary``: the mean; the sum for trec_eval's counts, the geometric mean for
    ``gm_map`` and ``gm_bpref``: :func:`evalkit.measures.summaries.summarise`).

    The summary adds the topics' values one after another in topic order (byte order of the
    ids) and divides by their number, as trec_eval does (``meas_acc.c``, ``meas_avg.c``), so
    that a mean lying on a rounding boundary prints trec_eval's four decimals (a pairwise
    sum differs in the last bit: P_avgjg_10 0.0437 against 0.0438 on a 40-topic case)."""
    labels = np.append(np.array(scored.topics, dtype=object), "all")
    runs, names = np.asarray(scored.runs), np.asarray([s.name for s in specs])
    how = [getattr(s, "summary", "mean") for s in specs]          # judgment groups: the mean
    shape = (len(runs), len(names), len(labels))                  # rows in this order
    parts: dict[str, list] = {"judge": [], "run": [], "measure": [], "topic": [], "value": []}
    for g, column in enumerate(scored.columns):
        values = scored.values[g]                                               # (M, R, T)
        means = (np.stack([summarise(values[m], h) for m, h in enumerate(how)]) if specs
                 else np.zeros(values.shape[:-1]))
        shown = np.isfinite(values) if per_topic else np.zeros(values.shape, bool)
        take = np.concatenate([shown.transpose(1, 0, 2), np.ones(shape[:2] + (1,), bool)], -1)
        parts["judge"].append(np.broadcast_to(np.asarray(column), shape)[take])
        parts["run"].append(np.broadcast_to(runs[:, None, None], shape)[take])
        parts["measure"].append(np.broadcast_to(names[None, :, None], shape)[take])
        parts["topic"].append(np.broadcast_to(labels, shape)[take])
        parts["value"].append(np.concatenate([values.transpose(1, 0, 2), means.T[..., None]],
                                             -1)[take])
    out = pd.DataFrame({name: np.concatenate(columns) for name, columns in parts.items()})
    return out if per_judge else out.drop(columns="judge")


def score(runs, ratings: pd.DataFrame | None = None, *, qrels: pd.DataFrame | None = None,
          gain_map=None, judges=None, gain: str = "raw", p: float = 0.2, dmax: int | None = None,
          measures=("nG@1", "P+", "nERR", "Q"), per_topic: bool = False, per_judge: bool = False,
          order: str = "score", missing: str = "zero", beta: float = 1.0,
          common_topics: bool = False, grades: tuple[int, int] | None = None,
          clip: bool = False, rename: dict | None = None, judged_only: bool = False,
          depth: int | None = None, rel_level: float | None = None,
          judgment_groups=None, fill=None) -> pd.DataFrame:
    """Score every run: rows ``[judge,] run, measure, topic, value`` (topic ``all``: the mean).

    ``runs``: a runs frame (``run, topic, doc, rank, score``, or ir_measures'
    ``query_id, doc_id, score``), a run file (``"-"``: standard input), a folder of run
    files or a list of paths (:func:`~evalkit.evaluate.sources.runs_source`).  Judgments:
    ``ratings`` (``topic, assessor, doc, rating``, a frame or a file) and/or
    ``judges`` (``{name: qrels path or frame}``, or a labels frame), pooled
    into ``all:<gain>`` and, with ``per_judge``, also scored judge by judge;
    or ``qrels`` (a frame or a file) + ``gain_map``; or ``judgment_groups`` (trec_eval's
    ``qrels_jg`` file or a ``topic, group, doc, grade`` frame) with ``measures=["qrels_jg"]``.
    ``order``: ``"score"`` (trec_eval's) or
    ``"rank"``; ``missing``: ``"zero"`` (trec_eval ``-c``) or ``"skip"``.
    ``measure`` echoes the names given.  ``beta``: P+ and Q's blended ratio.
    ``gain_map`` with judges maps each judge's grades before any pooling (``gain="raw"``).
    A judge sharing no topic with the other judges or with the runs is refused
    (:mod:`evalkit.evaluate.judges.topics`); ``common_topics``: every judge scored on the
    topics all of them judged.  ``grades=(LO, HI)`` and ``clip``: the judges' scale, as
    ``--grades`` and ``--clip``.  ``measures``: names, or one name as a string.  ``rename``:
    ``{OLD: NEW}``, OLD a run tag or file (``--rename``); run files sharing a tag are named
    by their files.  trec_eval's options: ``judged_only`` (``-J``), ``depth`` (``-M``),
    ``rel_level`` (``-l``: the relevance level of every binary measure whose name gives no
    ``rel=``).  ``fill``: a qrels path or frame whose labels fill each judge's holes on the
    topics it judged, each judge on its own before any pooling (``--fill``,
    :mod:`evalkit.evaluate.judges.holes`).  ``frame.attrs["num_q"]``: ``{column: {run: topics}}``, the topics each mean
    covers.
    """
    if beta != 1.0:
        raise InputError("beta other than 1 is not available in this version")
    if rel_level is not None and not (np.isfinite(float(rel_level)) and float(rel_level) > 0):
        from ...errors import ParameterError

        raise ParameterError("rel_level", rel_level, "a relevance level > 0 (trec_eval's -l)")
    options = ListOptions(depth, bool(judged_only))
    strings: list = []
    runs = runs_source(runs)
    if judgment_groups is not None:
        if per_judge or any(x is not None for x in (ratings, qrels, judges, fill)):
            raise InputError("judgment groups are the judgments of their own: give "
                             "--judgment-groups without --judge, --ratings, --qrels or --per-judge")
        from .judgment_groups import average_over_groups, group_columns, group_measures, groups_frame

        specs = group_measures(measure_names(measures), rel_level)
        judged = judgments(group_columns(groups_frame(judgment_groups)))
        scored = average_over_groups(scored_runs(runs, judged, specs, order, missing,
                                                 options=options, rename=rename))
        gain = "judgment groups"
    else:
        specs = [with_rel_level(s, rel_level)
                 for s in expand_all(measure_names(measures), strings=True)]
        strings = [s for s in specs if s.strings]
        specs = [s for s in specs if not s.strings]
        if not specs:
            raise InputError(f"{', '.join(s.name for s in strings)} gives strings, not numbers: "
                             "name a measure too")
        qrels = qrels_frame(qrels)
        if fill is not None and qrels is not None:
            raise InputError("fill fills each judge's holes: give judges, not qrels")
        ratings, judges, read = ratings_and_judges(ratings, with_fill(judges, fill), grades, clip)
        if fill is not None:          # each judge filled on its own, before any pooling
            judges, filled = fill_holes(judge_labels(ratings, judges)[0], where=fill_name(fill))
            ratings, read = None, read + filled
        labels, topics = (judge_labels(ratings, judges, common_topics) if qrels is None
                          else (None, {}))
        columns, gmax = gain_columns(None, qrels, gain_map, gain, p, dmax, labels, per_judge)
        judged = judgments(columns, gmax)
        del columns, ratings, qrels, judges, labels   # indexed in `judged`; what the caller
        release_free_memory()                         # does not hold is freed before the runs
        scored = scored_runs(runs, judged, specs, order, missing, options=options,
                             rename=rename, strings=strings)
        scored.notes[:0] = read
        scored.notes.extend(judges_and_runs(scored, topics))
    out = tidy(scored, specs, per_topic, per_judge)
    if judgment_groups is None:
        complete_num_rel(out, judged, specs, missing)
    ntcir = [s for s in specs if s.family == NTCIREVAL]
    pooled = len(scored.columns) - 1                  # the pooled column (or the qrels) is last
    excluded = ~scored.positive[pooled] if ntcir else np.zeros(len(scored.topics), bool)
    out.attrs["excluded_topics"] = [str(t) for t in np.array(scored.topics)[excluded]]
    out.attrs["notes"] = scored.notes + [
        f"{s.name}: a string per topic, not a number: --format trec_eval prints it, the "
        "scores leave it out" for s in strings]
    out.attrs["strings"] = [(column, run, name, topic, text)
                            for name, texts in scored.strings.items()
                            for g, column in enumerate(scored.columns)
                            for r, run in enumerate(scored.runs)
                            for t, topic in enumerate(scored.topics)
                            if (text := texts[g, r, t]) is not None]
    out.attrs["topics"] = int((~excluded).sum())
    counted = np.isfinite(scored.values).any(axis=1).sum(axis=-1)          # (G, R)
    out.attrs["num_q"] = {column: dict(zip(scored.runs, map(int, counted[g])))
                          for g, column in enumerate(scored.columns)}
    out.attrs["trec_eval_names"] = {s.name: trec_eval_name(s, rel_level)
                                    for s in [*specs, *strings]}
    out.attrs["measure_notes"] = (
        ["judgments: trec_eval's judgment groups (qrels_jg); each topic's value is the mean "
         "over the groups that judged it"] if judgment_groups is not None else
        measure_notes(specs, judged, gain, per_judge, gain_map, scored if ntcir else None)
    ) + option_notes(options, rel_level, specs)
    show_notes(out.attrs["notes"] + out.attrs["measure_notes"], "score")
    return out


def measure_names(measures) -> list[str]:
    """``measures`` as a list of names (one name may come as a string)."""
    if isinstance(measures, str):
        return [measures]
    names = list(measures) if hasattr(measures, "__iter__") else None
    if names is None or not all(isinstance(m, str) for m in names):
        raise InputError(f"measures must be names such as 'nDCG@10' (a string or a list of "
                         f"them), not {measures!r}")
    return names


def measure_notes(specs, judged: Judgments, gain: str, per_judge: bool, gain_map,
                  scored: Scored | None) -> list[str]:
    """What the measures used: the gains, ERR's and nERR's stopping probabilities, and (for
    NTCIREVAL's) the topics each judgment column leaves out."""
    names = list(judged.names)
    if names != ["qrels"] and gain_map is not None:
        gains = (f"gains: each judge's grades through the --gain-map {_map_text(gain_map)}, "
                 f"all:raw their sum")
    elif names == ["qrels"]:
        gains = (f"gains: the --gain-map {_map_text(gain_map)} of the --qrels grades"
                 if gain_map is not None else
                 "gains: the --qrels grades themselves, as trec_eval reads them (--gain-map G:V,... "
                 "maps them, as NTCIREVAL's gain values)")
    else:
        what = {"raw": "RawG, the sum of the judges' grades", "wg": "WG (Li & Yoshikawa)",
                "ug": "UG, Sakai's unanimity-aware gain"}[gain]
        gains = f"gains: all:{gain} = {what}" + (
            f"; {', '.join(names[:-1][:5])}{' ...' if len(names) > 6 else ''}: each judge's "
            "own grade (a grade below 0 is in the pool but unjudged, as trec_eval reads it)"
            if per_judge else "")
    notes = [gains]
    below = int((judged.status == UNJUDGED).any(axis=0).sum())
    if below:
        notes.append(f"{below} judged documents have a grade below 0 (for some judge): read as "
                     "trec_eval reads them, in the pool but unjudged (never relevant, and not "
                     "a judged non-relevant document for Bpref)")
    for s in specs:
        if s.base == "nERR":
            notes.append(f"{s.name}: NTCIREVAL's normalised ERR, stopping probability "
                         "g(r) / (gmax + 1) with gmax the topic's largest gain (ERR@k is "
                         "Chapelle et al.'s)")
        elif s.base == "ERR":
            tops = (f"{s.gmax:g}" if s.gmax is not None else ", ".join(
                f"{n} {g:g}" for n, g in zip(names, judged.gmax)))
            notes.append(f"{s.name}: Chapelle et al.'s ERR, stopping probability "
                         f"(2^g - 1) / 2^gmax, gmax: {tops} (set it with ERR(gmax=G)@k)")
    if scored is not None:
        topics = np.array(scored.topics, dtype=object)
        for g, name in enumerate(names):
            left = topics[~scored.positive[g]]
            if per_judge and g < len(names) - 1 and len(left):
                notes.append(f"{name}: {len(left)} topic(s) without a positive gain left out of "
                             f"NTCIREVAL's means: {', '.join(map(str, left[:10]))}"
                             + (" ..." if len(left) > 10 else ""))
    return notes


def _map_text(gain_map) -> str:
    if isinstance(gain_map, str):
        return gain_map
    return ",".join(f"{k}:{v:g}" for k, v in dict(gain_map).items())
