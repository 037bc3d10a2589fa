"""Consensus qrels (evalkit agreement --consensus): the rules by hand, the reference left out."""

import numpy as np
import pandas as pd
import pytest

from evalkit.errors import ParameterError
from evalkit.evaluate.judge_agreement.consensus import (CONSENSUS_METHODS, consensus,
                                                        consensus_table, entering_judges)


def _labels(grades: dict, scale=(0, 3)):
    """``{doc: {judge: grade}}`` on topic ``t1`` as a labels frame."""
    rows = [("t1", judge, doc, g) for doc, by in grades.items() for judge, g in by.items()]
    frame = pd.DataFrame(rows, columns=["topic", "judge", "doc", "grade"])
    frame.attrs["grades"] = scale
    return frame


# doc: the judges' grades -> (majority, median, mean) worked out by hand
CASES = {
    "d1": ({"a": 1, "b": 2}, (1, 1, 1)),                 # tie -> lower; even median lower; 1.5 -> 1
    "d2": ({"a": 0, "b": 3, "c": 3}, (3, 3, 2)),         # mean 2 exactly
    "d3": ({"a": 0, "b": 1, "c": 2, "d": 3}, (0, 1, 1)),  # four-way tie; median of 1, 2; mean 1.5
    "d4": ({"a": 3, "b": 3, "c": 0, "d": 0}, (0, 0, 1)),  # tie 0/3 -> 0; median of 0, 3 -> 0; 1.5 -> 1
    "d5": ({"a": 2, "b": 2, "c": 3}, (2, 2, 2)),         # mean 7/3 = 2.33 -> 2
    "d6": ({"a": 3, "b": 2, "c": 3, "d": 3}, (3, 3, 3)),  # mean 2.75 -> 3
    "d7": ({"c": 1}, (1, 1, 1)),                         # one judge
    "d8": ({"a": 1, "b": 2, "c": 2, "d": 1, "e": 3, "f": 0}, (1, 1, 1)),  # 0 1 1 2 2 3; 9/6 -> 1
}


@pytest.mark.parametrize("k, method", list(enumerate(["majority", "median", "mean"])))
def test_the_rules_by_hand(k, method):
    labels = _labels({doc: grades for doc, (grades, _) in CASES.items()})
    got = consensus_table(labels, method).set_index("doc")["grade"]
    assert got.to_dict() == {doc: want[k] for doc, (_, want) in CASES.items()}


def test_the_mean_is_exact_where_floating_point_would_round_wrongly():
    # 0.1 * 3 style errors cannot occur: 2 total - n over 2n in whole numbers
    grades = {f"d{i}": {f"j{k}": g for k, g in enumerate(row)} for i, row in
              enumerate([[1] * 5 + [2] * 5, [0, 1] * 7, [2, 3] * 50, [1, 1, 2]])}
    got = consensus_table(_labels(grades), "mean").set_index("doc")["grade"]
    assert got.tolist() == [1, 0, 2, 1]


def test_the_scale_offset_and_dawid_skene_on_separable_labels():
    grades = {f"d{i}": {"a": g, "b": g, "c": g if i % 3 else 1} for i, g in
              enumerate([1, 2, 3, 1, 3, 2, 2, 3, 1])}
    labels = _labels(grades, scale=(1, 3))
    for method in CONSENSUS_METHODS:
        got = consensus_table(labels, method).set_index("doc")["grade"]
        want = pd.Series({d: by["a"] for d, by in grades.items()})
        assert (got == want[got.index]).all(), method


def test_the_reference_stays_out_unless_asked():
    labels = _labels({"d1": {"human": 3, "a": 0, "b": 0}, "d2": {"human": 2}})
    entering = entering_judges(labels, "human")
    assert entering == ["a", "b"]
    got = consensus_table(labels, "majority", entering)
    assert got["doc"].tolist() == ["d1"] and got["grade"].tolist() == [0]   # d2: only the human
    both = consensus_table(labels, "majority", entering_judges(labels, "human", True))
    assert both["grade"].tolist() == [0, 2]
    assert entering_judges(labels, None) == ["human", "a", "b"]


def test_unknown_method_and_the_dawid_skene_of_every_judge():
    labels = _labels({"d1": {"a": 1, "b": 1}, "d2": {"a": 2, "b": 2}})
    with pytest.raises(ParameterError, match="consensus"):
        consensus_table(labels, "vote")
    ds = consensus(labels)
    assert ds["grade"].tolist() == [1, 2] and np.all(ds["probability"] > 0.5)
