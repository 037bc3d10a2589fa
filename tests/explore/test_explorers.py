"""The explorers' compute functions give the paper modules' numbers; the apps update."""

import asyncio

import numpy as np
import pandas as pd
import pytest

from evalkit.explore import _ui, kim, sakai, wang
from evalkit.formats import trec
from evalkit.formats.orderings import read_orderings
from evalkit.measures import discriminativeness as edm
from evalkit.measures import timeline
from evalkit.papers import kim2010_ordering_aggregation as kim_paper
from evalkit.papers import sakai2017_unanimity_gain as sakai_paper
from evalkit.stats import rank_correlation


@pytest.fixture(scope="module")
def collection(small_collection):
    return sakai_paper.load_collection(small_collection)


@pytest.mark.parametrize("dmax, n", [(3, 5), (8, 20)])
def test_sakai_at_agreement_zero_equals_the_notebook_pipeline(collection, dmax, n):
    view = sakai.compute(collection, p=0.2, dmax=dmax, n=n, agreement=0.0, trials=300, seed=5)
    cond = sakai_paper.score_conditions(collection, [dmax], [n], 0.2, 5)
    t2 = sakai_paper.tau_table(cond, collection.lists.runs)
    assert np.allclose(view.tau["tau"], t2["tau"]) and np.allclose(view.tau["high"], t2["high"])
    _, counts = sakai_paper.discrepancies(cond, collection, sakai_paper.best_runs(collection), 300,
                                          0.05, 5)
    assert view.hsd["discrepancies"].tolist() == counts["discrepancies"].tolist()


def test_sakai_example_gains_follow_eq2_and_agreement_one_is_unanimous(collection):
    view = sakai.compute(collection, p=0.3, dmax=4, n=6, agreement=0.4)
    ex = view.examples
    ratings = np.array([[int(c) for c in s] for s in ex["ratings"]])
    assert (ex["RawG"] == ratings.sum(1)).all()
    assert (ex["D"] == ratings.max(1) - ratings.min(1)).all()
    expected = np.where(ex["RawG"] > 0, ex["RawG"] + 0.3 * 6 * (4 - ex["D"]), 0)
    assert np.allclose(ex["UG"], expected)
    assert sakai.compute(collection, agreement=1.0).mean_spread == 0.0
    assert sakai.compute(collection, agreement=0.0).mean_spread > 1.0


def test_sakai_app_redraws_when_p_moves(collection):
    box = sakai.app(collection, trials=200)
    sliders = box.children[0].children[0].children
    numbers = box.children[1]
    before = numbers.value
    sliders[0].value = 1.0                     # p; no running loop: the full update at once
    assert numbers.value != before
    assert numbers.value == sakai.summary_html(sakai.compute(collection, p=1.0, trials=200))


def test_debounce_previews_while_moving_and_runs_in_full_once_rested():
    calls = []

    async def drag():
        deb = _ui.Debounced(calls.append, delay=0.05)
        deb()
        deb()
        await asyncio.sleep(0.15)

    asyncio.run(drag())
    assert calls == [True, True, False]
    _ui.Debounced(calls.append)()              # no loop: one full update
    assert calls[-1] is False and len(calls) == 4


@pytest.fixture(scope="module")
def world(small_ttg):
    return wang.World(trec.read_qrels(small_ttg / "qrels.txt"), seed=3)


def test_wang_stability_and_swap_scatter_agree_with_independent_scoring(world):
    view = wang.compute(world, level=1.5, metric="f1")
    alt = world.alternate(1.5)
    s_alt = timeline.run_means(timeline.score_runs(world.runs, timeline.cluster_table(alt, world.qrels)))
    x = world.official_scores["f1"].to_numpy()
    y = s_alt.loc[world.official_scores.index, "f1"].to_numpy()
    row = view.stability.set_index("metric").loc["f1"]
    assert row["tau"] == pytest.approx(rank_correlation.kendall_tau(x, y).tau)
    assert row["rank_swaps"] == rank_correlation.rank_swaps(x, y) == view.pairs["swapped"].sum()
    assert len(view.pairs) == len(x) * (len(x) - 1) // 2
    assert 0 < view.mean_ari < 1
    assert wang.compute(world, level=1.5).mean_ari == view.mean_ari      # same stream per level


def test_wang_rejects_an_unknown_metric(world):
    with pytest.raises(ValueError, match="weighted_f1"):
        wang.compute(world, metric="ndcg")


@pytest.fixture(scope="module")
def sets(notebook_inputs):
    return read_orderings(notebook_inputs["kim2010_ordering_aggregation"]["data_file"])


@pytest.mark.parametrize("ratio", [0.0, 0.5])
def test_kim_ed_equals_discriminativeness_on_the_same_noisy_sets(sets, ratio):
    view = kim.compute(kim.Engines(sets, seed=9), noise_ratio=ratio, draws=2, min_sup=0.5,
                       w_len=2.0, w_sup=0.5, max_len_ratio=0.75)
    draws = [kim_paper.noisy_sets(sets, ratio, 9, d) for d in range(1 if ratio == 0 else 2)]
    for m, ed in zip(view.ed["method"], view.ed["ED"]):
        params = dict(min_sup=0.5, w_len=2.0, w_sup=0.5,
                      max_len=kim_paper.length_from_ratio(0.75)) if m == "frespa" else {}
        expected = np.mean([edm.discriminativeness(m, d, **params) for d in draws])
        assert ed == pytest.approx(expected, abs=1e-12), m


def test_kim_published_row_is_the_papers_table1():
    row = kim.published_row(0.5)
    assert row["frespa"] == 0.551 and row["ac-tau"] == 0.220
    assert kim.published_row(0.3) is None


def test_static_mode_returns_a_figure_and_writes_nothing(collection, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    fig = sakai.show(collection, False, trials=100)
    assert fig is not None and len(fig.axes) == 2
    assert list(tmp_path.iterdir()) == []
    assert isinstance(sakai.compute(collection).tau, pd.DataFrame)


def test_wang_fast_scoring_equals_timeline_score_runs(world):
    for level in (0.0, 2.0):
        clusters = world.alternate(level)
        expected = timeline.run_means(timeline.score_runs(
            world.runs, timeline.cluster_table(clusters, world.qrels)))
        got = world._scores(clusters)
        assert list(got.index) == list(expected.index)
        assert np.allclose(got.to_numpy(), expected.to_numpy(), equal_nan=True)


def test_kim_app_prepares_the_other_noise_ratios_while_idle(sets):
    def hits_after_visiting_every_ratio(engines):
        before = engines._corr.cache_info().hits
        for r in (0.25, 0.5, 0.75, 1.0):
            engines.correlations(r, 0)
        return engines._corr.cache_info().hits - before

    idle = kim.Engines(sets, seed=4)

    async def open_app():
        kim.app(idle, noise_ratio=0.0, draws=1)
        await asyncio.sleep(3.0)                 # the kernel idles: the app prepares ratios

    asyncio.run(open_app())
    assert hits_after_visiting_every_ratio(idle) == 4
    cold = kim.Engines(sets, seed=4)
    kim.app(cold, noise_ratio=0.0, draws=1)      # no event loop: nothing prepared
    assert hits_after_visiting_every_ratio(cold) == 0


def test_kim_explorer_computes_without_importing_numba():
    """Its sets are small: FreSPA runs in numpy (the same bits as the compiled path, see
    tests/measures/test_frespa_kernels.py), and the kernel does not pay numba's import."""
    import subprocess
    import sys

    code = ("import sys\nfrom evalkit.explore import kim\n"
            "sets = {'a': [tuple('abcdefgh')] * 3 + [tuple('hgfedcba')] * 2}\n"
            "v = kim.compute(kim.Engines(sets, seed=1), noise_ratio=0.5, draws=2)\n"
            "assert v.ed['ED'].notna().all()\nprint('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_wang_world_indexes_the_runs_that_ttg_runs_writes(world):
    """The explorer scores from run_hits (tweet positions, no 280,000-row table); the table
    ttg_runs writes from the same generator state returns the same tweets in every cell."""
    runs = world.runs
    assert list(world.run_names) == sorted(runs["run"].unique())
    per_cell = runs.groupby(["run", "topic"]).size().unstack("topic")[list(world.topics)]
    assert np.array_equal(world.returned, per_cell.loc[list(world.run_names)].to_numpy().ravel())
    relevant = runs.merge(world.qrels[world.qrels["grade"] > 0], on=["topic", "doc"])
    cells = (pd.Index(world.run_names).get_indexer(relevant["run"]) * world.topics.size
             + pd.Index(world.topics).get_indexer(relevant["topic"]))
    rows = timeline.pair_positions(world.qrels["topic"], world.qrels["doc"], relevant["topic"], relevant["doc"])
    assert sorted(zip(cells.tolist(), rows.tolist())) == sorted(zip(world.cell.tolist(), world.row.tolist()))
    expected = timeline.run_means(timeline.score_runs(runs, timeline.cluster_table(world.official, world.qrels)))
    assert np.allclose(world.official_scores.to_numpy(), expected.to_numpy(), equal_nan=True)
