"""The coverage study of evalkit estimate's intervals, quick: its table's shape, what must hold
whatever the draws, and a world whose widths are known."""

import numpy as np
import pytest

from evalkit.evaluate.estimation.coverage import (COVERAGE_COLUMNS, SETTINGS, World,
                                                  coverage_rows, coverage_table, make_world)


@pytest.fixture(scope="module")
def quick():
    return coverage_table(ns=(10, 25), draws=60, pool=300, resamples=199)


def test_the_table_has_every_setting_n_method_and_interval(quick):
    assert list(quick.columns) == COVERAGE_COLUMNS
    assert len(quick) == len(SETTINGS) * 2 * 4 * 3                # settings x n x methods x intervals
    assert quick[["setting", "n", "method", "interval"]].drop_duplicates().shape[0] == len(quick)
    assert quick["coverage"].between(0, 1).all() and (quick["mc_error"] > 0).all()
    assert (quick.loc[quick["method"] == "classical", "width_ratio"] == 1).all()
    # only the bootstrap-t can have an infinite end, and its widths are finite (clipped to [0, 1])
    assert (quick.loc[quick["interval"] != "bootstrap-t", "infinite"] == 0).all()
    assert np.isfinite(quick["width_ratio"]).all()


def test_t_intervals_contain_the_normal_ones(quick):
    # ddof 1 and t quantiles make every t interval a superset: never lower coverage
    wide = quick.pivot_table(index=["setting", "n", "method"], columns="interval",
                             values="coverage")
    assert (wide["t"] >= wide["normal"]).all()


def test_the_biased_proxy_alone_misses_the_truth(quick):
    # (b) lenient and (c) favouring: the proxy's interval sits off the reference's truth
    proxy = quick[(quick["method"] == "proxy") & quick["setting"].isin(["lenient", "favouring"])]
    ppi = quick[(quick["method"] == "ppi") & quick["setting"].isin(["lenient", "favouring"])]
    assert proxy["coverage"].max() < 0.5 < ppi["coverage"].min()


def test_a_perfect_proxy_gives_the_widths_the_formula_says():
    # proxy = reference: ppi's rectifier is 0, its interval rests on the N = T - n others,
    # the proxy's on all T: widths in the ratio sqrt(T / N); classical on n: sqrt(T / n).
    rng = np.random.default_rng(0)
    scores = rng.beta(2, 3, size=(5000, 4))
    world = World("perfect", ("a", "b", "c", "d"), scores, scores)
    rows = coverage_rows(world, n=100, draws=400, seed=1, topics=200, resamples=99).set_index(
        ["method", "interval"])["width_ratio"]
    proxy, ppi = rows[("proxy", "normal")], rows[("ppi", "normal")]
    assert ppi / proxy == pytest.approx(np.sqrt(200 / 100), rel=0.01)
    assert 1 / proxy == pytest.approx(np.sqrt(200 / 100), rel=0.03)
    # PPI++: lam = 1 / (1 + n/N) = 0.5, variance s^2 (0.25/100 + 0.25/100) = s^2 / 200: every
    # topic used as if the reference had judged it, the proxy's own width (lam is estimated
    # per draw, hence a little wider)
    assert rows[("ppi++", "normal")] == pytest.approx(proxy, rel=0.03)


def test_the_same_seed_gives_the_same_world():
    a, b = make_world("favouring", 3, pool=80), make_world("favouring", 3, pool=80)
    assert np.array_equal(a.proxy, b.proxy) and np.array_equal(a.reference, b.reference)
    assert not np.array_equal(a.proxy, a.reference)
