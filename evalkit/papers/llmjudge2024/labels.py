"""The LLMJudge 2024 labels: one human and 33 LLM judges on the same 4,423 query-passage pairs.

The challenge (LLM4Eval workshop, SIGIR 2024) released the human labels of
TREC Deep Learning 2023 (25 topics, grades 0-3) and, in its benchmark
repository, the labels of 33 of its 64 LLM judge submissions for the same
pairs.  :func:`judge_files` names the installed files (``make data``);
:func:`load_labels` reads them with the library's
:func:`~evalkit.evaluate.judge_agreement.tables.read_judges` on the declared grades 0-3,
clipping as the organisers did (``0 if x < 0 else 3 if x > 3``), and
:func:`dirt` counts what the clipping touched.  :func:`label_matrix` lays the
long labels out as items x judges for the experiments.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ... import data
from ...errors import InputError
from ...evaluate.judge_agreement.tables import read_judges_clipped_and_raw

__all__ = ["HUMAN", "GRADES", "JUDGES", "judge_files", "team_of", "load_labels", "dirt",
           "changed_by_clipping", "LabelMatrix", "label_matrix"]

#: The reference judge's name in every table.
HUMAN = "human"
#: The declared label scale (TREC DL 2023: 0 irrelevant .. 3 perfectly relevant).
GRADES = (0, 3)
#: The 33 public LLM judges, ``<team>-<run>``, in the registry's order.
JUDGES = tuple(run for run, _size, _sha in data.LLMJUDGE_JUDGES)


def judge_files(external_dir) -> dict[str, Path]:
    """``{judge: installed file}``: the human labels first, then the 33 LLM judges."""
    root = Path(external_dir)
    files = {HUMAN: data.path_of("llmjudge-human", root)}
    files.update({j: data.path_of(f"llmjudge-{j}", root) for j in JUDGES})
    return files


def team_of(judge: str) -> str:
    """The team that submitted a judge: the part of ``<team>-<run>`` before the first dash."""
    return judge.split("-", 1)[0]


def load_labels(external_dir) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """``(labels, raw, notes)``: the labels clipped to 0-3, the labels as submitted, the reader's notes.

    Both frames have columns ``topic, judge, doc, grade``.  ``raw`` keeps the
    judges' own values (a 5 and a 10 on the 0-3 scale) so that :func:`dirt`
    can count them; every analysis uses ``labels``.
    """
    files = judge_files(external_dir)
    labels, raw, notes = read_judges_clipped_and_raw(files, GRADES)     # the files read once
    return labels, raw, list(notes)


def dirt(raw: pd.DataFrame, grades: tuple[int, int] = GRADES) -> pd.DataFrame:
    """Labels outside the declared scale: ``judge, label, count, clipped_to`` (empty when clean)."""
    lo, hi = grades
    bad = raw[(raw["grade"] < lo) | (raw["grade"] > hi)]
    out = bad.groupby(["judge", "grade"]).size().rename("count").reset_index()
    out = out.rename(columns={"grade": "label"})
    out["clipped_to"] = out["label"].clip(lo, hi)
    return out[["judge", "label", "count", "clipped_to"]]


@dataclass(frozen=True)
class LabelMatrix:
    """The labels as arrays: one row per (topic, doc) item, in the human file's order."""

    topics: np.ndarray      # (items,) topic id of each item
    docs: np.ndarray        # (items,) passage id
    human: np.ndarray       # (items,) the human grade
    llm: np.ndarray         # (items, judges) each LLM judge's grade
    judges: tuple[str, ...]

    @property
    def topic_codes(self) -> tuple[np.ndarray, np.ndarray]:
        """``(names, codes)``: the distinct topics in order of appearance, and each item's index."""
        names, first, codes = np.unique(self.topics, return_index=True, return_inverse=True)
        order = np.argsort(first)
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        return names[order], rank[codes]

    def select(self, judges) -> "LabelMatrix":
        """The same items with only ``judges`` (in that order)."""
        idx = [self.judges.index(j) for j in judges]
        return LabelMatrix(self.topics, self.docs, self.human, self.llm[:, idx], tuple(judges))


def label_matrix(labels: pd.DataFrame, judges=None, reference: str = HUMAN) -> LabelMatrix:
    """Items x judges from long ``topic, judge, doc, grade`` labels.

    The items are the reference's, in its order; a judge that misses one of
    them or labels an item the reference did not is an error (the organisers'
    outer merge would have met a missing value there; here every public judge
    labels exactly the human's 4,423 pairs).
    """
    judges = [j for j in pd.unique(labels["judge"]) if j != reference] if judges is None else list(judges)
    ref = labels[labels["judge"] == reference]
    if ref.empty:
        raise InputError(f"no labels of the reference judge {reference!r}")
    wide = (labels[labels["judge"].isin(judges)]
            .pivot_table(index=["topic", "doc"], columns="judge", values="grade", aggfunc="first"))
    keys = pd.MultiIndex.from_frame(ref[["topic", "doc"]])
    extra = wide.index.difference(keys)
    if len(extra):
        topic, doc = extra[0]
        raise InputError(f"{len(extra)} items labelled by a judge but not by {reference}, e.g. "
                         f"topic {topic} doc {doc}", hint="every judge must label the same pairs")
    wide = wide.reindex(keys)[judges]
    missing = wide.isna().sum()
    if missing.any():
        who = missing[missing > 0]
        raise InputError(f"judge {who.index[0]} misses {int(who.iloc[0])} of the {len(keys)} items "
                         f"{reference} labelled", hint="every judge must label the same pairs")
    return LabelMatrix(ref["topic"].to_numpy(), ref["doc"].to_numpy(),
                       ref["grade"].to_numpy(dtype=np.int64),
                       wide.to_numpy(dtype=np.int64), tuple(judges))


def changed_by_clipping(raw: pd.DataFrame, labels: pd.DataFrame) -> int:
    """How many labels differ between the labels as submitted and the clipped ones."""
    keys = ["topic", "judge", "doc"]
    both = raw.merge(labels, on=keys, suffixes=("_raw", "_clipped"), validate="one_to_one")
    return int((both["grade_raw"] != both["grade_clipped"]).sum())
