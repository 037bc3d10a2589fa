"""The LLMJudge chapter's exercises: each worked solution passes its check, wrong answers fail,
and an unanswered exercise reveals nothing."""

import sys
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest

from evalkit.explore import exercises as ex
from evalkit.explore.exercises import solutions
from evalkit.papers.llmjudge2024.labels import LabelMatrix
from evalkit.paths import NOTEBOOKS

sys.path.insert(0, str(Path(__file__).parent))
from exercise_harness import run_quietly, solution_passes_and_wrong_answer_fails  # noqa: E402

#: The 2 x 2 table the organisers printed (h2oloo-fewself, grade >= 2), and their alpha.
PRINTED = [[2719, 519], [483, 702]]


_run = run_quietly


class _Hsd:
    """Judges a > b > c > d by mean; the HSD separates a-c and a-d, not a-b, and b-d."""
    systems = pd.DataFrame({"system": ["b", "a", "c", "d"], "mean": [0.4, 0.5, 0.2, 0.1]})
    pairs = pd.DataFrame({"system_a": ["a", "a", "a", "b", "b", "c"],
                          "system_b": ["b", "c", "d", "c", "d", "d"],
                          "significant": [False, True, True, False, True, False]})


@pytest.fixture()
def namespace():
    llm = np.array([[0] * 21 + [1] + [0] * 11, [3] * 33])
    m = LabelMatrix(np.array(["q1", "q1"]), np.array(["p1", "p2"]), np.array([0, 3]), llm,
                    tuple(f"t-{j}" for j in range(33)))
    return {"exercises": ex, "np": np, "crosstab": np.array(PRINTED), "hsd": _Hsd(), "m": m,
            "example": 0, "p": 0.2}


WRONG = {"alpha": 0.428 + 0.01, "worse": 3, "ug": 1}


def test_hand_worked_expected_answers():
    # n = 4423; zeros n_0 = 2*2719 + 519 + 483 = 6440, ones n_1 = 2*702 + 1002 = 2406;
    # alpha = 1 - (2n - 1)(n01 + n10) / (n_0 n_1) = 1 - 8845 * 1002 / (6440 * 2406)
    assert ex.binary_alpha(PRINTED) == pytest.approx(1 - 8845 * 1002 / (6440 * 2406), abs=1e-12)
    assert round(ex.binary_alpha(PRINTED), 6) == 0.428016       # the organisers' 'kappa 01|23'
    assert ex.worse_than_top(_Hsd.systems, _Hsd.pairs) == ("a", 2)
    # 33 grades, one 1: RawG = 1, D = 1, UG = 1 + 0.2 * 33 * (3 - 1) = 14.2
    assert _run(ex.check_item_ug, 14.2, [0] * 32 + [1], 0.2)[0]


@pytest.mark.parametrize("ident", ["alpha", "worse", "ug"])
def test_every_solution_passes_its_check_and_a_wrong_answer_fails(ident, namespace):
    solution_passes_and_wrong_answer_fails("llmjudge2024", ident, namespace, WRONG[ident])


def test_unanswered_reveals_nothing(namespace):
    for fn, args in ((ex.check_binary_alpha, (PRINTED,)),
                     (ex.check_worse_than_top, (_Hsd.systems, _Hsd.pairs)),
                     (ex.check_item_ug, ([0] * 32 + [1],))):
        ok, said = _run(fn, None, *args)
        assert not ok and "Right" not in said and not any(ch.isdigit() for ch in said)


def test_the_chapter_has_three_exercises_whose_answers_start_empty():
    nb = nbformat.read(NOTEBOOKS / "llmjudge2024.ipynb", as_version=4)
    cells = solutions.answer_cells(nb)
    assert set(cells) == set(solutions.load("llmjudge2024")) == {"alpha", "worse", "ug"}
    for ident, i in cells.items():
        assert nb.cells[i].source.startswith(f"answer_{ident} = None")
    assert solutions.with_solutions(nb, solutions.load("llmjudge2024"))
