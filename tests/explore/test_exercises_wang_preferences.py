"""Exercises of wang2015_user_preferences.ipynb: each worked solution passes its check, wrong
answers are rejected with a hint, and an unanswered check reveals nothing."""

import json

import pandas as pd
import pytest

from evalkit.explore.exercises import solutions
from evalkit.explore.exercises import wang_preferences as ex
from evalkit.paths import NOTEBOOKS

STEM = "wang2015_user_preferences"


def _studies():
    # 20 default-model studies, 3 of them significant, and other rows that must not count
    rows = [{"insensitive_share": 0.0, "study": k, "metric": "precision", "p": 0.01 if k < 3 else 0.3}
            for k in range(20)]
    rows += [{"insensitive_share": 1.0, "study": k, "metric": "precision", "p": 0.001} for k in range(20)]
    rows += [{"insensitive_share": 0.0, "study": k, "metric": "f1", "p": 0.001} for k in range(20)]
    return pd.DataFrame(rows)


def _run(block: str) -> dict:
    namespace = {"exercises": ex, "anova_studies": _studies()}
    exec(block, namespace)
    return namespace


def test_every_answer_cell_has_a_solution_and_a_check():
    cells = json.loads((NOTEBOOKS / f"{STEM}.ipynb").read_text())["cells"]
    answers = [c for c in cells if any(t.startswith("answer:") for t in c["metadata"].get("tags", []))]
    ids = [t.split(":", 1)[1] for c in answers for t in c["metadata"]["tags"] if t.startswith("answer:")]
    assert sorted(ids) == sorted(solutions.load(STEM)) and len(ids) >= 3
    for c in answers:
        ident = [t for t in c["metadata"]["tags"] if t.startswith("answer:")][0].split(":", 1)[1]
        assert "".join(c["source"]).startswith(f"answer_{ident} = None")
    checks = ["".join(c["source"]) for c in cells if c["metadata"].get("tags") == ["exercise"]]
    assert all(s.startswith("exercises.check_") for s in checks) and len(checks) == len(ids)


@pytest.mark.parametrize("ident, check, extra", [
    ("agree", ex.check_agreement_count, ()), ("kappa", ex.check_kappa_interval, ()),
    ("studies", ex.check_significant_studies, (_studies(),))])
def test_the_worked_solution_passes_its_check(ident, check, extra, capsys):
    answer = _run(solutions.load(STEM)[ident])[f"answer_{ident}"]
    assert check(answer, *extra)
    assert capsys.readouterr().out.startswith("Right.")


def test_hand_worked_answers_and_wrong_ones(capsys):
    # JUDGMENTS: implied left, right, right, (neither dropped), right, left -> 4 of 5 agree
    assert ex.check_agreement_count(4)
    assert not ex.check_agreement_count(5)
    assert not ex.check_agreement_count(3)
    # [[18, 6], [4, 12]]: kappa = (0.75 - 0.51) / 0.49 = 0.4898
    assert not ex.check_kappa_interval((0.4898, 0.30, 0.68))   # kappa right, interval wrong
    assert "kappa is right" in capsys.readouterr().out.splitlines()[-1]
    assert not ex.check_kappa_interval((0.75, 0.6, 0.9))        # p_o given as kappa
    assert not ex.check_kappa_interval("0.49")
    assert ex.check_significant_studies(3, _studies())
    assert not ex.check_significant_studies(23, _studies())     # other shares or metrics counted


def test_an_unanswered_check_reveals_nothing(capsys):
    for check, extra in ((ex.check_agreement_count, ()), (ex.check_kappa_interval, ()),
                         (ex.check_significant_studies, (_studies(),))):
        assert not check(None, *extra)
        out = capsys.readouterr().out
        assert out.startswith("Not answered yet") and not any(ch.isdigit() for ch in out)
