"""Every exercise: the notebook's own solution passes its check; wrong answers fail."""

import contextlib
import io
import math

import nbformat
import pytest

from evalkit.explore import exercises as ex
from evalkit.explore.exercises import solutions
from evalkit.explore import kim, wang
from evalkit.formats import trec
from evalkit.formats.orderings import read_orderings
from evalkit.papers import sakai2017_unanimity_gain as sakai_paper
from evalkit.paths import NOTEBOOKS


def _run(fn, *args, **kw):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        ok = fn(*args, **kw)
    return bool(ok), out.getvalue()


@pytest.fixture(scope="module")
def context(small_collection, small_ttg, notebook_inputs):
    from evalkit.explore import sakai

    return {
        "explore_sakai2017": {"collection": sakai_paper.load_collection(small_collection),
                              "explorer": sakai},
        "explore_wang2015": {"world": wang.World(trec.read_qrels(small_ttg / "qrels.txt")),
                             "explorer": wang},
        "explore_kim2010": {"engines": kim.Engines(read_orderings(
            notebook_inputs["kim2010_ordering_aggregation"]["data_file"])), "explorer": kim},
    }


EXPLORERS = ["explore_sakai2017", "explore_wang2015", "explore_kim2010"]


@pytest.mark.parametrize("name", EXPLORERS)
def test_exercise_cells_are_tagged_and_hold_no_solution(name):
    cells = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4).cells
    tagged = [c for c in cells if "exercise" in c.metadata.get("tags", [])]
    assert len(tagged) == 6 and all(c.cell_type == "code" for c in tagged)   # Voila skips them
    answers = solutions.answer_cells({"cells": cells})
    assert sorted(answers) == sorted(solutions.load(name)) and len(answers) == 3
    for ident, index in answers.items():
        # the answer cell starts at None; the next cell checks it
        assert cells[index].source.startswith(f"answer_{ident} = None  # ")
        assert cells[index + 1].source.startswith("exercises.check_")
        assert f"(answer_{ident}" in cells[index + 1].source
    # no solution, hidden or not, is left in the student's notebook
    assert not [c for c in cells if "hide-input" in c.metadata.get("tags", [])]
    text = "\n".join(c.source for c in cells)
    for code in solutions.load(name).values():
        assert not [line for line in code.splitlines() if len(line.strip()) >= 12
                    and line.strip() in text]


@pytest.mark.parametrize("name", EXPLORERS)
def test_every_solution_passes_its_check_and_none_reveals_nothing(name, context):
    cells = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4).cells
    answers = solutions.answer_cells({"cells": cells})
    for ident, code in solutions.load(name).items():
        check = cells[answers[ident] + 1].source
        namespace = {"exercises": ex, **context[name]}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(code, namespace)                                  # noqa: S102
            ok = eval(check, namespace)
        assert bool(ok) is True and "Right." in out.getvalue(), (name, ident, out.getvalue())
        # the student's answer cell: None, and the check says only that it is not answered
        namespace[f"answer_{ident}"] = None
        with contextlib.redirect_stdout(out := io.StringIO()):
            assert not eval(check, namespace)
        assert out.getvalue().startswith("Not answered yet") and "Right" not in out.getvalue()


@pytest.mark.parametrize("check, right, wrong", [
    (ex.check_ug_item, 11.0, 10.0),                       # Table 1 item 2: 10 + 0.2*5*(3-2)
    (ex.check_unanimous_share, 0.625 ** 5 + 3 * 0.125 ** 5, 1 / 256),
    (ex.check_ari, (4 - 2.8) / (6.5 - 2.8), 0.5),          # by hand: index 4, expected 2.8, max 6.5
    (ex.check_swap_tau, 0.4, 0.6),                         # 3 of 10 pairs swap
    (ex.check_dilution, 0.45 * 9 / 14 * 10 / 15, 0.45 * 10 / 15),
    (ex.check_kendall_orderings, 1 / 3, 0.5),
])
def test_hand_computed_answers_pass_and_wrong_ones_get_a_hint(check, right, wrong):
    ok, text = _run(check, right)
    assert ok is True and text.startswith("Right.")
    ok, text = _run(check, wrong)
    assert ok is False and text.startswith("Not yet. Hint:")
    assert _run(check, "eleven")[0] is False and _run(check, math.nan)[0] is False


def test_explorer_exercises_on_the_small_data(context):
    collection = context["explore_sakai2017"]["collection"]
    n = ex.first_n_without_discrepancies(collection)
    assert n in (5, 10, 20, 40, 80)
    assert _run(ex.check_first_n_without_discrepancies, n, collection)[0]
    other = 80 if n != 80 else 5
    assert not _run(ex.check_first_n_without_discrepancies, other, collection)[0]

    world = context["explore_wang2015"]["world"]
    level = ex.lowest_ari_level(world)
    aris = {lv: wang.compute(world, lv).mean_ari for lv in (0.0, 0.5, 1.0, 2.0, 3.0)}
    assert aris[level] == min(aris.values())
    assert not _run(ex.check_lowest_ari_level, 0.25, world)[0]

    engines = context["explore_kim2010"]["engines"]
    ed = kim.compute(engines, noise_ratio=1.0).ed.set_index("method")["ED"]
    best = ed.idxmax()
    ok, text = _run(ex.check_best_method_at_full_noise, best.upper(), engines)
    assert ok and best in text
    assert not _run(ex.check_best_method_at_full_noise, ed.idxmin(), engines)[0]
