"""What ``evalkit score`` says on stderr about the runs it scored: one tally over the runs.

:class:`Tally` sums what each run's placing found (unjudged documents, run topics
no judge judged, rank columns that contradict the scores, topics a run lacks,
fields after the sixth) and writes the notes; :func:`by_file` names runs whose
tags are alike by their files.  Used by :func:`evalkit.evaluate.scoring.lists.score_runs`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import InputError

__all__ = ["Tally", "by_file"]


@dataclass
class Tally:
    """What the notes say, summed over runs."""

    unjudged: int = 0
    kept: int = 0
    dropped_rows: int = 0
    dropped: set = field(default_factory=set)
    disagree: list = field(default_factory=list)     # (run, topics, of)
    lacking: list = field(default_factory=list)      # (run, topics)
    extra: list = field(default_factory=list)        # (run, lines with fields after the sixth)

    def add(self, run, judgments) -> None:
        """Count one :class:`~evalkit.evaluate.scoring.lists.RunScore` under ``judgments``."""
        info = run.info
        self.unjudged += info["unjudged"]
        self.kept += info["kept"]
        self.dropped_rows += info["dropped_rows"]
        self.dropped.update(info["dropped"])
        if info["disagree"]:
            self.disagree.append((run.tag, info["disagree"], int(run.shown.sum())))
        if run.extra_lines:
            self.extra.append((run.tag, run.extra_lines))
        lacking = int((judgments.in_qrels.any(axis=0) & ~run.shown).sum())
        if lacking:
            self.lacking.append((run.tag, lacking))

    def notes(self, order: str, missing: str, n_topics: int) -> list[str]:
        """The notes for stderr, in the order ``evalkit score`` prints them."""
        return _notes(self, order, missing, n_topics)


def by_file(names: list[str], paths: list) -> tuple[list[str], list[str]]:
    """``(names, notes)``: runs whose names are alike named by their file (its name, or its
    path when those are alike too); a note per such name.  Runs from a frame (no file) with
    the same name are an error."""
    from collections import Counter
    from pathlib import Path

    alike = {n for n, k in Counter(names).items() if k > 1}
    if not alike:
        return names, []
    out, notes = list(names), []
    for name in sorted(alike):
        rows = [i for i, n in enumerate(names) if n == name]
        if any(paths[i] is None for i in rows):
            raise InputError(f"two runs are named {name}", hint="give each run its own name")
        files = [Path(paths[i]).name for i in rows]
        labels = files if len(set(files)) == len(files) else [str(paths[i]) for i in rows]
        for i, label in zip(rows, labels):
            out[i] = label
        notes.append(f"{len(rows)} run files share the run tag {name}: named by their files "
                     f"({', '.join(labels)}); --rename OLD=NEW names them otherwise")
    if len(set(out)) != len(out):
        raise InputError(f"runs named by their files still share a name: {sorted(out)}",
                         hint="give --rename FILE=NEW for each")
    return out, notes


def _some(items, n: int = 10) -> str:
    items = list(items)
    return ", ".join(map(str, items[:n])) + (" ..." if len(items) > n else "")


def _notes(t: Tally, order: str, missing: str, n_topics: int) -> list[str]:
    notes = []
    if t.dropped:
        extra = sorted(t.dropped)
        notes.append(f"{len(extra)} run topics have no judgments and were dropped "
                     f"({t.dropped_rows} rows): {_some(extra)}")
    if t.extra:
        notes.append(f"{len(t.extra)} run(s) have fields after the sixth on some lines "
                     f"({_some(f'{run} {k}' for run, k in t.extra)} lines): ignored, as "
                     "trec_eval ignores them")
    if t.unjudged:
        notes.append(f"{t.unjudged} retrieved documents are unjudged (gain 0) in the ranks the "
                     "measures read")
    if t.disagree:
        how = ("scored in score order, as trec_eval orders them (--order rank follows the rank "
               "column, as NTCIREVAL reads ranked lists)" if order == "score" else
               "scored in rank-column order (--order rank); trec_eval orders by score")
        for run, topics, of in t.disagree:
            notes.append(f"run {run}: its rank column orders {topics} of its {of} topics "
                         f"differently from its scores; {how}")
            how = "the same"
    if t.lacking:
        counted = ("each scores 0 and counts in the mean, as trec_eval -c counts them "
                   "(--missing skip leaves them out)" if missing == "zero" else
                   "left out of the run's mean (--missing skip; --missing zero scores them 0, "
                   "as trec_eval -c)")
        lacks = ", ".join(f"{run} {k}" for run, k in t.lacking[:10])
        notes.append(f"{len(t.lacking)} run(s) lack qrels topics ({lacks}"
                     f"{' ...' if len(t.lacking) > 10 else ''} of {n_topics}): {counted}")
    return notes
