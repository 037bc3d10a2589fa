"""Fixtures shared by the judge-agreement tests."""

import numpy as np
import pytest

from evalkit.evaluate.judge_agreement.tables import read_judges
from evalkit.evaluate.judges.example import JUDGES, write_judges_example


@pytest.fixture(scope="module")
def sparse_example_labels(tmp_path_factory):
    """``make(topics)``: the example judges' labels (seed 5, ``topics`` topics x 10 documents,
    grades 0-2) with 15% of them dropped (seed 1), so that the items two judges both graded
    differ from pair to pair."""
    def make(topics: int):
        paths = write_judges_example(tmp_path_factory.mktemp("judges"), seed=5, topics=topics,
                                     docs=10)
        labels, _ = read_judges({j: paths[j] for j in JUDGES}, grades=(0, 2))
        drop = np.random.default_rng(1).random(len(labels)) < 0.15
        out = labels[~drop].reset_index(drop=True)
        out.attrs["grades"] = (0, 2)
        return out

    return make
