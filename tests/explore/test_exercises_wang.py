"""Wang §3–4 exercises: the chapter's solutions pass their checks, wrong answers get a hint, and
the explorer's level exercise says from the data which way tau moves."""

import contextlib
import io
import re

import numpy as np
import pandas as pd
import pytest

from evalkit.explore import exercises as ex
from evalkit.explore import wang
from evalkit.explore.exercises import solutions
from evalkit.formats import trec
from evalkit.papers import wang2015_assessor_differences as paper

STEM = "wang2015_assessor_differences"


def _run(fn, *args, **kw):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        ok = fn(*args, **kw)
    return bool(ok), out.getvalue()


def _draws(taus):
    """A worlds_draws-like frame of the default world with the given smallest taus."""
    return pd.DataFrame({"world": "default", "draw": range(len(taus)), "tau_min": taus})


def test_topic_ari_by_hand():
    # official [[t1 t2 t3] [t4 t5] [t6] [t7]], alternate [[t1 t2] [t3 t4 t5] [t6 t7]]:
    # index 2 (t1t2, t4t5), a = 3 + 1 = 4, b = 1 + 3 + 1 = 5, E = 20/21, max 4.5
    right = (2 - 20 / 21) / (4.5 - 20 / 21)
    assert right == pytest.approx(0.29530, abs=1e-5)
    assert _run(ex.check_topic_ari, right)[0]
    ok, text = _run(ex.check_topic_ari, 0.5)
    assert not ok and text.startswith("Not yet. Hint:")


def test_rank_swaps_by_hand():
    # pairs (1,2) and (3,4) swap: 2 of 15, tau = 1 - 4/15
    ok, text = _run(ex.check_rank_swaps, 1 - 4 / 15)
    assert ok and "2 of 15 pairs swap" in text
    assert not _run(ex.check_rank_swaps, 1 - 2 / 15)[0]


def test_stable_draws_counts_the_default_world_only():
    draws = pd.concat([_draws([0.9] * 5 + [0.8] * 15),
                       pd.DataFrame({"world": "both knobs", "draw": [0], "tau_min": [0.99]})])
    ok, text = _run(ex.check_stable_draws, 5, draws)
    assert ok and "5 of 20 draws" in text and "'mixed'" in text and "could have told either" in text
    ok, text = _run(ex.check_stable_draws, 0, _draws([0.8] * 20))
    assert ok and "'does not hold'" in text and "every draw tells the same story" in text
    assert not _run(ex.check_stable_draws, 6, draws)[0]


def test_calibration_choice():
    assert _run(ex.check_calibration_meaning, "B")[0]
    ok, text = _run(ex.check_calibration_meaning, "a")
    assert not ok and "tuned" not in text          # the hint does not give the option away


@pytest.mark.parametrize("check", [ex.check_topic_ari, ex.check_rank_swaps, ex.check_calibration_meaning])
def test_an_unanswered_exercise_reveals_nothing(check):
    ok, text = _run(check, None)
    assert not ok and text.startswith("Not answered yet") and "Right" not in text


def test_every_solution_block_passes_its_check():
    import json

    from evalkit.paths import NOTEBOOKS

    blocks = solutions.load(STEM)
    nb = json.loads((NOTEBOOKS / f"{STEM}.ipynb").read_text())
    cells = solutions.answer_cells(nb)
    assert set(blocks) == set(cells) and len(blocks) >= 3
    rng = np.random.default_rng(1)
    namespace = {"paper": paper, "exercises": ex,
                 "worlds_draws": _draws(list(0.8 + 0.1 * rng.random(20)))}
    for ident, index in cells.items():
        check = "".join(nb["cells"][index + 1]["source"])
        assert f"answer_{ident}" in check and "exercises.check_" in check
        with contextlib.redirect_stdout(io.StringIO()):
            exec(blocks[ident], namespace)                          # noqa: S102
        ok, text = _run(eval, check, namespace)
        assert ok and text.startswith("Right."), (ident, text)


def test_the_level_exercise_says_which_way_tau_moves_from_the_data(small_ttg):
    world = wang.World(trec.read_qrels(small_ttg / "qrels.txt"))
    level = ex.lowest_ari_level(world)
    ok, text = _run(ex.check_lowest_ari_level, level, world)
    assert ok and "watch how little tau moves" not in text
    tau0 = float(wang.compute(world, 0.0).stability["tau"].min())
    tau1 = float(wang.compute(world, level).stability["tau"].min())
    assert f"({tau0:.3f} -> {tau1:.3f})" in text
    word = re.search(r"smallest tau over metrics (rises|falls|stays about the same)", text).group(1)
    assert word == ("stays about the same" if abs(tau1 - tau0) < 0.02 else
                    "rises" if tau1 > tau0 else "falls")
