"""ANOVA, intervals and pairwise tests against Sakai's book, statsmodels, scipy and slow references."""

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.stats
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm
from statsmodels.stats.multitest import multipletests

from evalkit.errors import ParameterError
from evalkit.stats import hsd
from evalkit.stats.anova import system_intervals, two_way_anova
from evalkit.stats.pairwise import hsd_pairs, paired_pairs, wins_ties_losses


def _statsmodels_anova(x: np.ndarray) -> pd.DataFrame:
    t, s = x.shape
    frame = pd.DataFrame([(i, j, x[i, j]) for i in range(t) for j in range(s)],
                         columns=["topic", "system", "score"])
    return anova_lm(smf.ols("score ~ C(system) + C(topic)", frame).fit())


def test_book_table_5_1_anova_intervals_and_effect_sizes(sakai_table_5_1):
    # Published for this table by elinor's CLI (github.com/kampersanda/elinor,
    # elinor-cli/README.md, "Two-way ANOVA without replication"): variation
    # 0.1083 / 1.0293 / 0.8317, df 2 / 19 / 38, F 2.4749 and 2.4754, p 0.0976 and 0.0086,
    # residual variance 0.0219; means 0.3450 / 0.2700 / 0.2450 with 95% MOE 0.0670;
    # Tukey ES 0.5070 (X-Y), 0.6760 (X-Z), 0.1690 (Y-Z).
    table = two_way_anova(sakai_table_5_1).set_index("source")
    assert table["ss"].round(4).tolist() == [0.1083, 1.0293, 0.8317]
    assert table["df"].tolist() == [2, 19, 38]
    assert table["F"].round(4).tolist()[:2] == [2.4749, 2.4754]
    assert table["p"].round(4).tolist()[:2] == [0.0976, 0.0086]
    assert round(table.at["residual", "ms"], 4) == 0.0219
    ci = system_intervals(sakai_table_5_1)
    assert ci["mean"].round(4).tolist() == [0.345, 0.27, 0.245]
    assert ((ci["ci_high"] - ci["mean"]).round(4) == 0.0670).all()
    pairs = hsd_pairs(sakai_table_5_1, 1000, seed=0)
    assert pairs["effect_size"].round(4).tolist() == [0.5070, 0.6760, 0.1690]


@pytest.mark.parametrize("shape, seed", [((20, 3), 0), ((7, 5), 1), ((50, 12), 2), ((3, 2), 3)])
def test_anova_equals_statsmodels_on_random_matrices(shape, seed):
    rng = np.random.default_rng(seed)
    x = rng.beta(2, 3, size=shape) + rng.normal(0, 0.1, size=shape[1])
    ours = two_way_anova(x)
    ref = _statsmodels_anova(x)
    for source, row in zip(["systems", "topics", "residual"],
                           ["C(system)", "C(topic)", "Residual"]):
        got = ours[ours["source"] == source].iloc[0]
        assert got["df"] == ref.at[row, "df"]
        assert got["ss"] == pytest.approx(ref.at[row, "sum_sq"], rel=1e-10)
        assert got["ms"] == pytest.approx(ref.at[row, "mean_sq"], rel=1e-10)
        if source != "residual":
            assert got["F"] == pytest.approx(ref.at[row, "F"], rel=1e-9)
            assert got["p"] == pytest.approx(ref.at[row, "PR(>F)"], rel=1e-8, abs=1e-15)
    # the interval: mean +- t(0.975; df_E) sqrt(V_E / T), V_E statsmodels' residual mean square
    ci = system_intervals(x, alpha=0.1)
    margin = scipy.stats.t.ppf(0.95, ref.at["Residual", "df"]) * np.sqrt(
        ref.at["Residual", "mean_sq"] / shape[0])
    np.testing.assert_allclose(ci["ci_high"] - ci["mean"], margin, rtol=1e-10)
    np.testing.assert_allclose(ci["mean"], x.mean(axis=0), rtol=1e-12)


@pytest.mark.parametrize("correction, method", [("holm", "holm"), ("bh", "fdr_bh"),
                                                ("bonferroni", "bonferroni"), ("none", None)])
@pytest.mark.parametrize("test", ["t", "wilcoxon"])
def test_paired_tests_equal_scipy_and_corrections_equal_statsmodels(test, correction, method):
    rng = np.random.default_rng(11)
    x = rng.normal(size=(25, 5)) * 0.2 + np.array([0, 0.02, 0.1, 0.15, 0.3])
    out = paired_pairs(x, test, correction)
    pairs = list(itertools.combinations(range(5), 2))
    assert list(zip(out["system_a"], out["system_b"])) == pairs
    if test == "t":
        ref = [scipy.stats.ttest_rel(x[:, i], x[:, j]) for i, j in pairs]
        intervals = [r.confidence_interval(0.95) for r in ref]
        np.testing.assert_allclose(out["ci_low"], [c.low for c in intervals], rtol=1e-10)
        np.testing.assert_allclose(out["ci_high"], [c.high for c in intervals], rtol=1e-10)
    else:
        ref = [scipy.stats.wilcoxon(x[:, i], x[:, j]) for i, j in pairs]
    p = np.array([r.pvalue for r in ref])
    np.testing.assert_allclose(out["p_value"], p, rtol=1e-12)
    adjusted = p if method is None else multipletests(p, alpha=0.05, method=method)[1]
    np.testing.assert_allclose(out["p_adjusted"], adjusted, rtol=1e-12)
    assert (out["significant"] == (adjusted < 0.05)).all()
    # both outcomes occur, so the flag is really tested
    assert out["significant"].any() and not out["significant"].all()
    d = np.array([x[:, i] - x[:, j] for i, j in pairs])
    np.testing.assert_allclose(out["diff"], d.mean(axis=1), rtol=1e-12)
    np.testing.assert_allclose(out["effect_size"], d.mean(axis=1) / d.std(axis=1, ddof=1))


def test_book_pairs_t_test_by_hand(sakai_table_5_1):
    # X - Y: differences .2 .2 .2 .4 0 .1 0 .2 -.2 0 .1 0 -.1 .2 .3 .2 0 -.1 -.1 -.1;
    # mean 0.075, and t = mean / (sd / sqrt(20)) with sd from the formula
    d = np.array([.2, .2, .2, .4, 0, .1, 0, .2, -.2, 0, .1, 0, -.1, .2, .3, .2, 0, -.1, -.1, -.1])
    sd = np.sqrt(((d - 0.075) ** 2).sum() / 19)
    t = 0.075 / (sd / np.sqrt(20))
    out = paired_pairs(sakai_table_5_1, "t", "none")
    row = out.iloc[0]
    assert row["diff"] == pytest.approx(0.075)
    assert row["p_value"] == pytest.approx(2 * scipy.stats.t.sf(t, 19))
    assert row["effect_size"] == pytest.approx(0.075 / sd)


def test_permutation_test_within_monte_carlo_error_of_exact_enumeration():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(10, 4)) * 0.3 + np.array([0, 0.1, 0.3, 0.5])
    b = 20000
    out = paired_pairs(x, "permutation", "none", n_trials=b, seed=3)
    signs = np.array(list(itertools.product([-1.0, 1.0], repeat=10)))      # all 1024 flips
    for row, (i, j) in zip(out.itertuples(), itertools.combinations(range(4), 2)):
        d = x[:, i] - x[:, j]
        exact = np.mean(np.abs(signs @ d) >= abs(d.sum()) - 1e-12)
        se = np.sqrt(max(exact * (1 - exact), 0.01) / b)
        assert abs(row.p_value - exact) < 4 * se, (i, j, row.p_value, exact)
    assert (out["p_value"] < 0.05).any() and (out["p_value"] > 0.2).any()
    again = paired_pairs(x, "permutation", "none", n_trials=b, seed=3)
    assert again["p_value"].tolist() == out["p_value"].tolist()


def _slow_null_ranges(x: np.ndarray, n_trials: int, seed: int) -> np.ndarray:
    """Reference: shuffle every topic row with numpy, take the range of the system means."""
    rng = np.random.default_rng(seed)
    out = np.empty(n_trials)
    for b in range(n_trials):
        sums = np.array([rng.permutation(row) for row in x]).sum(axis=0)
        out[b] = sums.max() - sums.min()
    return out


def test_hsd_pairs_within_monte_carlo_error_of_a_slow_reference(sakai_table_5_1):
    # Integer tenths, so the reference counts ties exactly (ranges of sums are integers).
    tenths = np.rint(sakai_table_5_1.to_numpy() * 10).astype(int)
    b = 20000
    ref = _slow_null_ranges(tenths, b, seed=1)
    ours = hsd_pairs(sakai_table_5_1, b, seed=2)
    sums = tenths.sum(axis=0)
    for row, (i, j) in zip(ours.itertuples(), itertools.combinations(range(3), 2)):
        p_ref = np.mean(ref >= abs(sums[i] - sums[j]))
        se = np.sqrt(p_ref * (1 - p_ref) * 2 / b)
        assert abs(row.p_value - p_ref) < 4 * se, (row, p_ref)
    # the simultaneous margin is the reference's 95% point of the range of the means
    # (sums of tenths / 200); the ranges are discrete, so 95% falls within its step:
    # P(R < margin) <= 0.95 <= P(R <= margin), up to Monte Carlo error
    margin = ours["ci_high"].iloc[0] - ours["diff"].iloc[0]
    ranges, se = ref / 200, np.sqrt(0.05 * 0.95 / b)
    assert np.mean(ranges < margin - 1e-9) < 0.95 + 4 * se
    assert np.mean(ranges <= margin + 1e-9) > 0.95 - 4 * se


def test_hsd_pairs_match_randomised_tukey_hsd_and_interval_excludes_zero_iff_significant():
    rng = np.random.default_rng(4)
    for trial in range(20):
        s = int(rng.integers(2, 9))
        x = np.round(rng.beta(2, 2, size=(30, s)) + rng.normal(0, 0.08, size=s), 2)
        out = hsd_pairs(x, 500, seed=trial)
        ref = hsd.randomised_tukey_hsd(x, 500, seed=trial)
        assert out["p_value"].tolist() == ref["p_value"].tolist()
        assert out["effect_size"].tolist() == ref["effect_size"].tolist()
        excludes = (out["ci_low"] > 0) | (out["ci_high"] < 0)
        assert (excludes == out["significant"]).all()
        assert (out["significant"] == (out["p_value"] < 0.05)).all()
        np.testing.assert_allclose(out["ci_high"] - out["ci_low"],
                                   2 * (out["ci_high"] - out["diff"]).iloc[0])   # one margin


def test_simultaneous_interval_covers_all_differences_about_95_percent_under_the_null():
    # Identical systems (exchangeable within each topic): every true difference is 0,
    # and the family of intervals covers all of them iff no pair is significant.
    rng = np.random.default_rng(2019)
    n_sets, covered = 400, 0
    for k in range(n_sets):
        topic = rng.normal(0, 0.2, size=(20, 1))
        x = topic + rng.normal(0, 0.1, size=(20, 5))
        out = hsd_pairs(x, 400, seed=k)
        covered += bool(((out["ci_low"] <= 0) & (out["ci_high"] >= 0)).all())
    coverage = covered / n_sets
    assert abs(coverage - 0.95) < 4 * np.sqrt(0.95 * 0.05 / n_sets), coverage


def test_wins_ties_losses_by_hand():
    x = np.array([[0.5, 0.5, 0.1], [0.2, 0.4, 0.2], [0.9, 0.1, 0.3]])
    out = wins_ties_losses(x)
    # A-B: tie, loss, win; A-C: win, tie, win; B-C: win, win, loss
    assert out.to_numpy().tolist() == [[1, 1, 1], [2, 1, 0], [2, 0, 1]]


def test_constant_differences_and_bad_parameters():
    x = np.array([[0.25, 0.25, 0.5], [0.5, 0.5, 0.75], [0.75, 0.75, 1.0]])
    t = paired_pairs(x, "t", "none")
    assert t["p_value"].tolist() == [1.0, 0.0, 0.0]       # d = 0 always; d = -0.25 always
    w = paired_pairs(x, "wilcoxon", "none")
    assert w["p_value"].iloc[0] == 1.0
    with pytest.raises(ParameterError, match="test"):
        paired_pairs(x, "hsd")
    with pytest.raises(ParameterError, match="correction"):
        paired_pairs(x, "t", "sidak")
    with pytest.raises(ParameterError, match="alpha"):
        hsd_pairs(x, 100, 0, alpha=1.5)


def test_holm_equals_statsmodels_multipletests_bit_for_bit():
    from statsmodels.stats.multitest import multipletests

    from evalkit.stats.pairwise import _holm

    rng = np.random.default_rng(32)
    cases = [rng.uniform(0, 1, 300), rng.uniform(0, 0.02, 45), np.array([0.5, 0.01, 0.01, 1.0, 0.0]),
             rng.choice([0.0, 1.0, 0.03, 0.2], 40), np.array([0.04]), np.array([], float),
             np.array([0.3, np.nan, 0.001])]
    for p in cases:
        want = multipletests(p, alpha=0.05, method="holm")[1]
        got = _holm(p)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("topics", [2, 3, 8, 9, 25, 50, 130])
def test_paired_t_p_values_equal_scipy_ttest_rel_bit_for_bit(topics):
    from evalkit.stats.pairwise import _ttest_rel_p

    rng = np.random.default_rng(topics)
    for x in (rng.uniform(0, 1, (topics, 12)), rng.integers(0, 4, (topics, 12)) / 3.0,
              1e6 + rng.normal(0, 1e-3, (topics, 12)), rng.normal(0, 50, (topics, 12))):
        a, b = np.triu_indices(x.shape[1], k=1)
        keep = x[:, a].std(axis=0) + x[:, b].std(axis=0) > 0
        xa, xb = x[:, a[keep]], x[:, b[keep]]
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = scipy.stats.ttest_rel(xa, xb, axis=0).pvalue
        got = _ttest_rel_p(xa, xb)
        assert got.shape == want.shape and got.tobytes() == want.tobytes()
