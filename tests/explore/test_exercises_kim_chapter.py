"""The Kim chapter's exercises: every worked solution passes its check, wrong answers do not."""

import pandas as pd
import pytest

from evalkit import paths
from evalkit.explore import exercises
from evalkit.explore.exercises import solutions

STEM = "kim2010_ordering_aggregation"
CHECKS = {"ed_by_hand": exercises.check_ed_by_hand, "wca_score": exercises.check_wca_score,
          "minsup_worlds_best": exercises.check_minsup_worlds_best}


def _minsup_long():
    return pd.read_csv(paths.FIGURES / "kim2010" / "minsup_worlds_draws.csv")


def test_every_answer_cell_has_a_solution_and_a_check():
    import json

    nb = json.loads((paths.NOTEBOOKS / f"{STEM}.ipynb").read_text())
    assert set(solutions.answer_cells(nb)) == set(solutions.load(STEM)) == set(CHECKS)


@pytest.mark.parametrize("ident", sorted(CHECKS))
def test_each_solution_passes_its_check(ident, capsys):
    ns = {"minsup_long": _minsup_long()}
    exec(solutions.load(STEM)[ident], ns)
    args = (ns["minsup_long"],) if ident == "minsup_worlds_best" else ()
    assert CHECKS[ident](ns[f"answer_{ident}"], *args)
    assert capsys.readouterr().out.startswith("Right.")


def test_hand_worked_values_and_wrong_answers(capsys):
    # ED by hand: taus 1/3 (abc, acb), 1/3 (abc, bac), -1/3 (acb, bac) -> turns 1/3, 0, 0 -> 1/9
    assert exercises.check_ed_by_hand(1 / 9)
    assert not exercises.check_ed_by_hand(1 / 3)          # one turn only
    # WCA: (0.5 * 0.6 + 0.45 * 0.2) / 0.05 = 7.8
    assert exercises.check_wca_score(7.8)
    assert not exercises.check_wca_score(0.39)            # forgot to divide by the weight sum
    long = pd.DataFrame({"world": ["default"] * 20 + ["alternative"] * 20,
                         "best_min_sup": [1.0] * 16 + [0.75] * 4 + [1.0] * 20})
    assert exercises.check_minsup_worlds_best(16, long)
    assert not exercises.check_minsup_worlds_best(36, long)   # counted every world kind
    out = capsys.readouterr().out
    assert "Not yet. Hint:" in out and "16 of 20: the claim 'holds'" in out


def test_unanswered_reveals_nothing(capsys):
    for check in CHECKS.values():
        assert not check(None)
    out = capsys.readouterr().out
    assert "Right" not in out and "Hint" not in out and "1/9" not in out and "7.8" not in out


def test_minsup_message_is_generated_from_the_worlds(capsys):
    long = pd.DataFrame({"world": ["default"] * 20, "world_seed": range(20),
                         "best_min_sup": [0.75] + [1.0] * 15 + [0.75] * 4,
                         "mean_pairwise_tau": [0.40] + [0.50] * 15 + [0.42, 0.43, 0.44, 0.45]})
    assert exercises.check_minsup_worlds_best(15, long)
    out = capsys.readouterr().out
    assert "15 of 20: the claim 'mixed'" in out and "have minSup 0.75 best" in out
    assert "tau 0.500-0.500, the others 0.400-0.450" in out
