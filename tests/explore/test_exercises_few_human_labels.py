"""The few-human-labels chapter's exercises: each worked solution passes its check, wrong
answers fail, and the expected answers are the formulas' values worked by hand."""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evalkit.explore import exercises as ex

sys.path.insert(0, str(Path(__file__).parent))
from exercise_harness import run_quietly, solution_passes_and_wrong_answer_fails  # noqa: E402

WIDTHS = pd.DataFrame({"judge": ["a", "a", "b"], "n": [10, 10, 10],
                       "method": ["ppi", "ppi++", "ppi++"], "width_ratio": [1.3, 0.8, 0.95]})
SUMMARY = pd.DataFrame({"depth": [10, 10, 10, 20], "strategy": ["non-relevant", "condensed",
                                                                 "filled", "filled"],
                        "tau": [0.88, 0.80, 0.99, 1.0]})


@pytest.fixture()
def namespace():
    return {"exercises": ex, "np": np, "widths": WIDTHS, "own": "a", "summary": SUMMARY,
            "human_5": np.array([0.5, 0.7]), "llm_5": np.array([0.4, 0.6]),
            "llm_20": np.array([0.3, 0.5])}


def test_hand_worked_expected_answers():
    # LLM mean on the unlabelled 0.4, rectifier mean(0.1, 0.1) = 0.1: 0.5
    assert run_quietly(ex.check_ppi_estimate, 0.5, [0.5, 0.7], [0.4, 0.6], [0.3, 0.5])[0]
    assert not run_quietly(ex.check_ppi_estimate, 0.4, [0.5, 0.7], [0.4, 0.6], [0.3, 0.5])[0]
    # ratio 0.8 at n = 10: 10 / 0.64 = 15.625 human topics
    assert run_quietly(ex.check_worth_topics, 15.6, WIDTHS, "a", 10)[0]
    assert run_quietly(ex.check_best_strategy, "filled", SUMMARY, 10)[0]


@pytest.mark.parametrize("ident, wrong", [("worth", 12.5), ("ppi", 0.45),
                                          ("strategy", "condensed")])
def test_every_solution_passes_its_check_and_a_wrong_answer_fails(ident, wrong, namespace):
    solution_passes_and_wrong_answer_fails("few_human_labels", ident, namespace, wrong)
