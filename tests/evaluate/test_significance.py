"""evalkit compare: p-values against a slow per-trial reference, ES against statsmodels' ANOVA."""

import numpy as np
import pandas as pd
import pytest

from evalkit.evaluate import best_per_team, compare
from evalkit.evaluate.examples import write_example
from evalkit.formats.assessor_ratings import read_assessor_ratings
from evalkit.formats.trec import read_run


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    folder = tmp_path_factory.mktemp("example")
    paths = write_example(folder)
    runs = pd.concat([read_run(p) for k, p in paths.items() if k != "ratings"], ignore_index=True)
    return runs, read_assessor_ratings(paths["ratings"])


def _slow_hsd(matrix: np.ndarray, trials: int, seed: int) -> np.ndarray:
    """Carterette's randomised Tukey HSD, one trial at a time: the p-value of every pair."""
    rng = np.random.default_rng(seed)
    ranges = np.empty(trials)
    for b in range(trials):
        permuted = np.array([rng.permutation(row) for row in matrix])
        means = permuted.mean(axis=0)
        ranges[b] = means.max() - means.min()
    means = matrix.mean(axis=0)
    s = matrix.shape[1]
    return np.array([(ranges >= abs(means[i] - means[j])).mean()
                     for i in range(s) for j in range(i + 1, s)])


def test_p_values_match_a_slow_reference_within_monte_carlo_error(example):
    from evalkit.evaluate.scoring.engine import score

    runs, ratings = example
    trials = 3000
    out = compare(runs, ratings, gains=["ug"], measures=["nERR@10"], trials=trials, seed=3)
    per_topic = score(runs, ratings, gain="ug", measures=["nERR@10"], per_topic=True)
    table = per_topic[per_topic["topic"] != "all"].pivot(index="topic", columns="run", values="value")
    reference = _slow_hsd(table.to_numpy(), trials, seed=99)
    p = out["p_value"].to_numpy()
    # two independent estimates: their difference has sd sqrt(2 p (1 - p) / B)
    sd = np.sqrt(2 * np.maximum(p * (1 - p), 1 / trials) / trials)
    assert np.all(np.abs(p - reference) <= 4 * sd + 1e-9)
    assert 0 < out["p_value"].min() < 0.2 and out["p_value"].max() == 1.0  # the table has range


def test_effect_size_uses_the_two_way_anova_residual_variance(example):
    import statsmodels.formula.api as smf

    from evalkit.evaluate.scoring.engine import score

    runs, ratings = example
    out = compare(runs, ratings, gains=["raw"], measures=["Q"], trials=200, seed=1)
    long = score(runs, ratings, gain="raw", measures=["Q"], per_topic=True)
    long = long[long["topic"] != "all"]
    fit = smf.ols("value ~ C(topic) + C(run)", data=long).fit()
    v_e = fit.ssr / fit.df_resid          # S_E / ((S - 1)(T - 1))
    assert fit.df_resid == (6 - 1) * (7 - 1)
    means = long.groupby("run")["value"].mean()
    for row in out.itertuples():
        d = means[row.system_a] - means[row.system_b]
        assert row.diff == pytest.approx(d)
        assert row.effect_size == pytest.approx(abs(d) / np.sqrt(v_e))


def test_two_gains_share_their_permutations_and_mark_discrepancies(example):
    runs, ratings = example
    alone = compare(runs, ratings, gains=["raw"], measures=["nERR@10"], trials=1000, seed=5)
    both = compare(runs, ratings, gains=["raw", "ug"], measures=["nERR@10"], trials=1000, seed=5)
    raw = both[both["gain"] == "raw"].reset_index(drop=True)
    pd.testing.assert_series_equal(raw["p_value"], alone["p_value"])     # common random numbers
    sig = both.pivot(index=["system_a", "system_b"], columns="gain", values="significant")
    flags = both.drop_duplicates(["system_a", "system_b"]).set_index(["system_a", "system_b"])
    assert (flags["discrepant"] == (sig["raw"] != sig["ug"])).all()
    assert list(both.columns)[-1] == "discrepant" and both.attrs["mc_se"] > 0


def test_best_per_team_keeps_each_teams_best_run():
    means = pd.Series({"alpha-1": 0.4, "alpha-2": 0.6, "beta-1": 0.5, "gamma-x": 0.1})
    assert best_per_team(means) == ["alpha-2", "beta-1", "gamma-x"]


def test_best_per_team_does_not_depend_on_the_order_of_the_runs():
    # ties within a team go to the name that sorts first, whatever the input order; a run
    # without a mean loses to any run with one; the team rule is the tag up to the first '-'
    means = pd.Series({"b-2": 0.5, "b-1": 0.5, "b-10": 0.5, "a-x": np.nan, "a-y": 0.2,
                       "c": np.nan, "d-1-fast": 0.3, "d-2": 0.3, "e-9": 0.1, "e-10": 0.4})
    want = ["a-y", "b-1", "c", "d-1-fast", "e-10"]
    rng = np.random.default_rng(20)
    for _ in range(50):
        assert best_per_team(means.iloc[rng.permutation(len(means))]) == want


def test_best_per_team_refuses_a_run_named_twice():
    from evalkit.errors import InputError

    with pytest.raises(InputError, match="'a-1' has two means"):
        best_per_team(pd.Series([0.1, 0.2], index=["a-1", "a-1"]))


def test_compare_with_best_per_team_tests_one_run_per_team(example):
    runs, ratings = example
    out = compare(runs, ratings, gains=["raw"], measures=["Q"], trials=100, seed=0,
                  best_per_team_runs=True)
    systems = set(out["system_a"]) | set(out["system_b"])
    assert len(systems) == 3 and {s.split("-")[0] for s in systems} == {"alpha", "beta", "gamma"}
    assert len(out) == 3
