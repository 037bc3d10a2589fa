"""The real-data chapter's exercises: each worked solution passes its check, wrong answers fail,
and an unanswered exercise reveals nothing."""

import sys
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest

from evalkit.explore import exercises as ex
from evalkit.explore.exercises import solutions
from evalkit.paths import NOTEBOOKS

sys.path.insert(0, str(Path(__file__).parent))
from exercise_harness import run_quietly, solution_passes_and_wrong_answer_fails  # noqa: E402


_run = run_quietly


def _res():
    """Real nG@1 tau 0.96 over 25 runs; uniform draws: 12 above it, 7 equal, 1 below."""
    uniform = [0.98] * 12 + [0.96] * 7 + [0.94]
    rows = [{"ratings": "real", "replication": 0, "measure": "nG@1", "tau": 0.96, "runs": 25}]
    rows += [{"ratings": "uniform", "replication": i, "measure": "nG@1", "tau": t, "runs": 25}
             for i, t in enumerate(uniform)]
    return pd.DataFrame(rows)


def _worlds():
    """P+ tau: real 0.973, uniform mean 0.952, shuffled 0.851 (the lowest)."""
    summary = pd.DataFrame({"measure": ["P+", "P+"], "ratings": ["real", "uniform"], "tau": [0.973, 0.952]})
    controls = pd.DataFrame({"world": ["fixed RawG", "shuffled"], "measure": ["P+", "P+"],
                             "tau": [0.80, 0.851]})
    return summary, controls


@pytest.fixture()
def namespace():
    ratings = np.array([[1, 1, 2, 1, 1, 2, 1, 2, 1, 1], [0, 2, 2, 2, 2, 2, 2, 2, 2, 2.0]])
    summary, controls = _worlds()
    return {"exercises": ex, "np": np, "ratings": ratings, "example": 0, "p": 0.2, "res": _res(),
            "summary": summary, "controls": controls}


WRONG = {"ug": 16, "swaps": 7, "draws": 13, "world": "uniform"}


def test_hand_worked_expected_answers():
    # RawG = 13, D = 2 - 1 = 1, N = 10: UG = 13 + 0.2 * 10 * (2 - 1) = 15
    assert _run(ex.check_real_ug, 15, [1, 1, 2, 1, 1, 2, 1, 2, 1, 1], 0.2)[0]
    # 25 runs: 300 pairs; tau 0.96 = (C - D) / 300 with C + D = 300, so D = 6
    assert ex.swapped_pairs(0.96, 25) == 6
    assert ex.uniform_draws_above(_res()) == 12
    assert ex.lowest_tau_world(*_worlds()) == "shuffled"     # the fixed-RawG rows do not count


@pytest.mark.parametrize("ident", ["ug", "swaps", "draws", "world"])
def test_every_solution_passes_its_check_and_a_wrong_answer_fails(ident, namespace):
    solution_passes_and_wrong_answer_fails("real_data", ident, namespace, WRONG[ident])


def test_unanswered_reveals_nothing(namespace):
    for fn, args in ((ex.check_real_ug, (namespace["ratings"][0],)), (ex.check_swapped_pairs, (_res(),)),
                     (ex.check_uniform_draws_above, (_res(),)),
                     (ex.check_lowest_tau_world, _worlds())):
        ok, said = _run(fn, None, *args)
        assert not ok and "Right" not in said and not any(ch.isdigit() for ch in said)
        assert "shuffled" not in said


def test_the_chapter_has_four_exercises_whose_answers_start_empty():
    nb = nbformat.read(NOTEBOOKS / "real_data.ipynb", as_version=4)
    cells = solutions.answer_cells(nb)
    assert set(cells) == set(solutions.load("real_data")) == {"ug", "swaps", "draws", "world"}
    for ident, i in cells.items():
        assert nb.cells[i].source.startswith(f"answer_{ident} = None")
    assert solutions.with_solutions(nb, solutions.load("real_data"))   # ids match both ways


def test_draws_message_states_the_verdict_rule():
    ok, said = _run(ex.check_uniform_draws_above, 12, _res())
    assert ok and "12 of 20" in said and "'mixed'" in said
