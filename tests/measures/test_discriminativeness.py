"""ED: the vectorised engine against the definitions; noise."""

import itertools

import numpy as np
import pytest

from evalkit.errors import ParameterError
from evalkit.measures import aggregation, discriminativeness
from evalkit.simulate import orderings as sim_orderings


def _ed_by_definition(method, judgments, **p):
    scorer = {"ac": aggregation.average_correlation, "wca": aggregation.weighted_correlation,
              "rba": aggregation.rank_aggregation}
    diffs = []
    for i, o in enumerate(judgments):
        others = judgments[:i] + judgments[i + 1:]
        if method == "frespa":
            diffs.append(aggregation.frespa(o, others, **p) - aggregation.frespa(o[::-1], others, **p))
        else:
            kind, c = method.split("-")
            c = "kendall" if c == "tau" else "spearman"
            f = scorer[kind]
            diffs.append((f(o, others, c, **p) + 1) / 2 - (f(o[::-1], others, c, **p) + 1) / 2)
    return np.mean(diffs)


@pytest.mark.parametrize("method", discriminativeness.METHODS)
def test_ed_engine_equals_the_definitions(method):
    rng = np.random.default_rng(hash(method) % 2**32)
    for _ in range(6):
        k, n = int(rng.integers(3, 8)), int(rng.integers(3, 8))
        centre = list(range(k))
        judg = [sim_orderings.mallows(centre, 0.5, rng) for _ in range(n)]
        params = {}
        if method == "frespa":
            params = dict(min_sup=float(rng.choice([0, 0.5, 0.75, 1])),
                          w_len=float(rng.choice([0, 1, 5])), w_sup=float(rng.choice([0, 1, 20])),
                          min_len=2, max_len=int(rng.integers(2, k + 1)))
        assert discriminativeness.discriminativeness(method, judg, **params) == pytest.approx(
            _ed_by_definition(method, judg, **params), abs=1e-12)


@pytest.mark.parametrize("method", ["wca-tau", "wca-sp"])
def test_wca_weight_offset_engine_equals_the_definition(method):
    rng = np.random.default_rng(7)
    offsets = [0, 0.1, 0.25, 0.5, 1, 3]
    for _ in range(6):
        k, n = int(rng.integers(3, 8)), int(rng.integers(3, 8))
        judg = [sim_orderings.mallows(list(range(k)), 0.5, rng) for _ in range(n)]
        judg += [tuple(rng.permutation(k)) for _ in range(int(rng.integers(0, 4)))]  # noise
        grid = discriminativeness.discriminativeness(method, judg,
                                                     params_grid=[{"weight_offset": a} for a in offsets])
        for a, got in zip(offsets, grid):
            assert got == discriminativeness.discriminativeness(method, judg, weight_offset=a)
            assert got == pytest.approx(_ed_by_definition(method, judg, weight_offset=a), abs=1e-12)
        # a = 0 is the formula as printed, bit for bit; the default is a = 1 (§5.2's (x + 1)/2)
        assert grid[0] == discriminativeness.discriminativeness(method, judg, weight_offset=0)
        assert grid[4] == discriminativeness.discriminativeness(method, judg)
        assert grid[0] == pytest.approx(_wca_ed_as_printed(method, judg), abs=1e-12)


def test_wca_offset_grid_over_many_sets_equals_one_call_per_offset_bit_for_bit():
    rng = np.random.default_rng(8)
    sets = {f"s{j}": [sim_orderings.mallows(list(range(6)), 0.5, rng) for _ in range(int(rng.integers(9, 20)))]
            for j in range(13)}
    offsets = [0, 0.25, 1]
    for method in ("wca-tau", "wca-sp"):
        grid = discriminativeness.discriminativeness(method, sets, params_grid=[{"weight_offset": a}
                                                                               for a in offsets])
        assert list(grid) == [discriminativeness.discriminativeness(method, sets, weight_offset=a)
                              for a in offsets]
        assert grid[2] == discriminativeness.discriminativeness(method, sets)   # default a = 1


def _wca_ed_as_printed(method, judg):
    """WCA's ED with weights straight from the paper's formula (no offset), written out."""
    corr = aggregation.kendall if method == "wca-tau" else aggregation.spearman
    diffs = []
    for i, o in enumerate(judg):
        others = judg[:i] + judg[i + 1:]
        c = np.array([corr(o, g) for g in others])
        w = np.array([np.mean([corr(g, h) for j, h in enumerate(others) if j != m])
                      for m, g in enumerate(others)])
        diffs.append(c.mean() if abs(w.sum()) < 1e-12 else (w @ c) / w.sum())
    return np.mean(diffs)


def test_weight_offset_only_for_wca():
    judg = ["ABC", "ACB", "BAC"]
    with pytest.raises(ParameterError, match="params"):
        discriminativeness.discriminativeness("ac-tau", judg, weight_offset=1)
    with pytest.raises(ParameterError, match="params"):
        discriminativeness.discriminativeness("wca-tau", judg, min_sup=1)
    with pytest.raises(ParameterError, match="weight_offset"):
        discriminativeness.discriminativeness("wca-sp", judg, weight_offset=-1)


def test_frespa_grid_equals_one_call_per_setting():
    rng = np.random.default_rng(1)
    judg = [sim_orderings.mallows(list(range(6)), 0.4, rng) for _ in range(5)]
    grid = [dict(min_sup=s, max_len=(lambda k: max(2, k // 2))) for s in (0, 0.5, 1)]
    got = discriminativeness.discriminativeness("frespa", judg, params_grid=grid)
    for g, p in zip(got, grid):
        assert g == pytest.approx(discriminativeness.discriminativeness("frespa", judg, min_sup=p["min_sup"],
                                                              max_len=3))
    # settings that share their weights (same lengths, w_len, w_sup) and settings that do not
    mixed = [dict(min_sup=s, w_len=wl, w_sup=ws) for wl, ws in ((1, 1), (0, 5)) for s in (0.5, 1, 0.75)]
    got = discriminativeness.discriminativeness("frespa", judg, params_grid=mixed)
    assert list(got) == [discriminativeness.discriminativeness("frespa", judg, **p) for p in mixed]


def test_clean_ed_of_ac_tau_is_mean_pairwise_tau():
    rng = np.random.default_rng(2)
    judg = [sim_orderings.mallows(list("ABCDEFG"), 0.6, rng) for _ in range(9)]
    mean_tau = np.mean([aggregation.kendall(a, b) for a, b in itertools.combinations(judg, 2)])
    assert discriminativeness.discriminativeness("ac-tau", judg) == pytest.approx(mean_tau)


def test_add_noise_appends_round_n_r_permutations():
    judg = [tuple("ABCDE")] * 10
    rng = np.random.default_rng(0)
    for r, extra in ((0, 0), (0.25, 3), (0.5, 5), (1, 10)):  # 2.5 rounds half up to 3
        noisy = discriminativeness.add_noise(judg, r, rng)
        assert len(noisy) == 10 + extra and noisy[:10] == judg
        assert all(sorted(o) == list("ABCDE") for o in noisy)
    with pytest.raises(ParameterError, match="ratio"):
        discriminativeness.add_noise(judg, -0.1, rng)
