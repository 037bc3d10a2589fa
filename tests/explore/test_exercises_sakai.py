"""The Sakai chapter's exercises: each worked solution passes its check, wrong answers do not."""

import json

import pandas as pd
import pytest

from evalkit import paths
from evalkit.explore import exercises
from evalkit.explore.exercises import solutions

STEM = "sakai2017_unanimity_gain"


def _reps():
    """A replications frame: 4 draws; at N = 40 one discrepancy in draw 1, two in draw 3
    (both measures), none at N = 80: 2 draws, 3 pairs."""
    return pd.DataFrame([{"replication": r, "measure": m, "dmax": 2, "N": n,
                          "discrepancies": int(n == 40 and (r == 3 or (r == 1 and m == "P+")))
                          + (n == 5)}
                         for r in range(4) for m in ("nG@1", "P+") for n in (5, 40, 80)])


def test_every_answer_cell_has_a_solution_and_a_check():
    nb = json.loads((paths.NOTEBOOKS / f"{STEM}.ipynb").read_text())
    cells = solutions.answer_cells(nb)
    assert set(cells) == set(solutions.load(STEM)) == {"ug_by_hand", "hsd_trial", "draws_n40"}
    for ident, i in cells.items():
        assert "".join(nb["cells"][i]["source"]).startswith(f"answer_{ident} = None")
        check = "".join(nb["cells"][i + 1]["source"])
        assert "exercise" in nb["cells"][i + 1]["metadata"]["tags"]
        assert f"exercises.check_" in check and f"answer_{ident}" in check


@pytest.mark.parametrize("ident", ["ug_by_hand", "hsd_trial", "draws_n40"])
def test_each_solution_passes_its_check(ident, capsys):
    nb = json.loads((paths.NOTEBOOKS / f"{STEM}.ipynb").read_text())
    check = "".join(nb["cells"][solutions.answer_cells(nb)[ident] + 1]["source"])
    scope = {"exercises": exercises, "reps": _reps()}
    exec(solutions.load(STEM)[ident], scope)
    assert eval(check, scope)
    assert capsys.readouterr().out.startswith("Right.")


def test_ug_by_hand():
    # ratings 2,3,3,3,3 on 0..3: RawG 14, D 1, UG = 14 + 0.2 * 5 * 2 = 16
    assert exercises.check_ug_item(16, ratings="23333")
    assert not exercises.check_ug_item(14, ratings="23333")      # RawG alone
    assert not exercises.check_ug_item(17, ratings="23333")      # p N Dmax - D = 3 - 1 mixed up


def test_one_hsd_trial_by_hand(capsys):
    # permuted rows (0.2,0.6,0.4) (0.5,0.8,0.5) (0.4,0.1,0.4) (0.3,0.4,0.7): means 0.35, 0.475, 0.5
    assert exercises.hsd_trial_range() == pytest.approx(0.15)
    assert exercises.check_hsd_trial_range(0.15)
    out = capsys.readouterr().out
    assert "0.150" in out and "does not reach the observed |d| of A and B (0.225)" in out
    assert not exercises.check_hsd_trial_range(0.225)             # the observed |d|, not the trial's range
    assert not exercises.check_hsd_trial_range(0.325)             # the unpermuted range 0.625 - 0.3
    assert capsys.readouterr().out.startswith("Not yet. Hint:")


def test_draws_with_discrepancies(capsys):
    reps = _reps()
    assert exercises.draws_with_discrepancies(reps) == 2
    assert exercises.check_draws_with_discrepancies(2, reps)
    assert "2 of 4 draws" in capsys.readouterr().out
    for wrong in (3, 1, 4, True, "two"):                          # 3: the pairs, not the draws
        assert not exercises.check_draws_with_discrepancies(wrong, reps)


def test_none_reveals_nothing(capsys):
    reps = _reps()
    for check in (lambda: exercises.check_ug_item(None, ratings="23333"),
                  lambda: exercises.check_hsd_trial_range(None),
                  lambda: exercises.check_draws_with_discrepancies(None, reps)):
        assert not check()
        out = capsys.readouterr().out
        assert out.startswith("Not answered yet") and "0.15" not in out and "16" not in out
