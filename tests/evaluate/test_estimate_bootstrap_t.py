"""The bootstrap-t interval of evalkit estimate (evalkit.stats.bootstrap_t): against a plain loop
written here (one resample at a time, the formulas spelled out), the same seed the same bytes,
near the t interval on normal data, an infinite end where the data cannot bound it, and bad
values refused in one line (exit 2)."""

import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evalkit.evaluate import estimate
from evalkit.evaluate.estimation.output import table_text
from evalkit.stats.bootstrap_t import bootstrap_t_means
from evalkit.stats.prediction_powered import classical_mean, prediction_powered_mean
from evalkit.workspace.cli import main

sys.path.insert(0, str(Path(__file__).parent))
from estimate_world import write_world  # noqa: E402


def _loop(y, yh, yu, alpha, resamples, seed, own_axes):
    """The bootstrap-t one resample at a time on ``(..., n)`` arrays: every mean, variance and
    PPI++'s lam from the resampled values themselves."""
    lead, n, big_n = y.shape[:-1], y.shape[-1], yu.shape[-1]
    sets = math.prod(lead[:own_axes])
    y, yh, yu = (a.reshape(sets, -1, a.shape[-1]) for a in (y, yh, yu))
    k = math.floor((resamples + 1) * alpha / 2 + 1e-9)
    out = {m: {"low": np.empty(y.shape[:2]), "high": np.empty(y.shape[:2]),
               "p": np.empty(y.shape[:2])} for m in ("classical", "proxy", "ppi", "ppi++")}

    def lam_of(a, h, u):
        every = np.concatenate([h, u])
        cov = np.mean((a - a.mean()) * (h - h.mean()))                 # ddof 0, as ppi-python
        var = every.var(ddof=1)
        return float(np.clip(cov / ((1 + len(a) / len(u)) * var), 0, 1)) if var > 0 else 0.0

    def stats(a, h, u, lam):
        every = np.concatenate([h, u])
        return {"classical": (a.mean(), a.var(ddof=1) / len(a)),
                "proxy": (every.mean(), every.var(ddof=1) / len(every)),
                "ppi": (u.mean() + (a - h).mean(), (a - h).var(ddof=1) / len(a)
                        + u.var(ddof=1) / len(u)),
                "ppi++": (lam * u.mean() + (a - lam * h).mean(),
                          (a - lam * h).var(ddof=1) / len(a) + lam ** 2 * u.var(ddof=1) / len(u))}

    for d, child in enumerate(np.random.SeedSequence(seed).spawn(sets)):
        rng = np.random.default_rng(child)
        li, ui = rng.integers(0, n, (resamples, n)), rng.integers(0, big_n, (resamples, big_n))
        for r in range(y.shape[1]):
            a, h, u = y[d, r], yh[d, r], yu[d, r]
            tiny = 1e-13 * max(np.abs(a).max(), np.abs(h).max(), np.abs(u).max()) ** 2
            found = stats(a, h, u, lam_of(a, h, u))
            t_star = {m: [] for m in found}
            for b in range(resamples):
                ra, rh, ru = a[li[b]], h[li[b]], u[ui[b]]
                for m, (est, var) in stats(ra, rh, ru, lam_of(ra, rh, ru)).items():
                    se_b = math.sqrt(var) if var > tiny else 0.0
                    diff = est - found[m][0]
                    t_star[m].append(diff / se_b if se_b else
                                     (0.0 if diff == 0 else math.copysign(math.inf, diff)))
            for m, (est, var) in found.items():
                se = math.sqrt(var)
                t = sorted(t_star[m])
                out[m]["low"][d, r] = est - t[resamples - k] * se
                out[m]["high"][d, r] = est - t[k - 1] * se
                beyond = sum(abs(x) >= abs(est) / max(se, 1e-16) for x in t)
                out[m]["p"][d, r] = (beyond + 1) / (resamples + 1)
    return {m: {key: v.reshape(lead) for key, v in parts.items()} for m, parts in out.items()}


def _data(seed, lead, n, big_n, discrete=False):
    rng = np.random.default_rng(seed)
    if discrete:                     # nERR-like at the ceiling: resamples of ten 1s, se* = 0
        y = rng.choice([0.5, 1.0], p=[0.15, 0.85], size=(*lead, n))
    else:
        y = rng.beta(2, 5, size=(*lead, n))
    yh = np.clip(y + rng.normal(0, 0.2, y.shape), 0, 1)
    yu = rng.beta(2, 4, size=(*lead, big_n))
    return y, yh, yu


@pytest.mark.parametrize("discrete", [False, True])
def test_equals_a_plain_loop_one_resample_at_a_time(discrete):
    # two draws with their own resamples (own_axes = 1) of three runs sharing theirs
    y, yh, yu = _data(5, (2, 3), 10, 30, discrete)
    fast = bootstrap_t_means(y, yh, yu, 0.1, 199, [7, 1], own_axes=1)
    slow = _loop(y, yh, yu, 0.1, 199, [7, 1], 1)
    if discrete:                                         # the infinite ends are compared too
        assert np.isinf(slow["classical"]["low"]).sum() >= 2
    for m, e in fast.items():
        for got, want in ((e.low, slow[m]["low"]), (e.high, slow[m]["high"])):
            finite = np.isfinite(want)
            assert np.array_equal(np.isfinite(got), finite), m
            assert np.array_equal(got[~finite], want[~finite]), m
            assert np.abs(got[finite] - want[finite]).max() <= 1e-12, m
        assert np.array_equal(e.p_value, slow[m]["p"]), m


def test_the_same_seed_gives_the_same_bytes_and_another_seed_other_ones():
    y, yh, yu = _data(2, (4,), 12, 40)
    a, b = (bootstrap_t_means(y, yh, yu, 0.05, 999, 11) for _ in range(2))
    c = bootstrap_t_means(y, yh, yu, 0.05, 999, 12)
    for m in a:
        assert a[m].low.tobytes() == b[m].low.tobytes() and a[m].high.tobytes() == b[m].high.tobytes()
        assert a[m].p_value.tobytes() == b[m].p_value.tobytes()
    assert not np.array_equal(a["ppi"].low, c["ppi"].low)


def test_normal_data_of_moderate_n_gives_nearly_the_t_interval():
    # symmetric, continuous scores: the t* quantiles approach t_{n-1}'s; 9,999 resamples leave
    # about 1.5% of Monte Carlo noise in each end (the 2.5% quantile's sd ~ 0.027 / 1.96), the
    # rest is n = 60's own departure from normality
    rng = np.random.default_rng(4)
    y = rng.normal(0.5, 0.1, (6, 60))
    yh, yu = y + rng.normal(0, 0.05, y.shape), rng.normal(0.5, 0.1, (6, 240))
    boot = bootstrap_t_means(y, yh, yu, 0.05, 9999, 3)
    # (ppi++ re-tunes lam in every resample, which the t interval ignores: not compared)
    for m, t in (("classical", classical_mean(y, 0.05, "t")),
                 ("ppi", prediction_powered_mean(y, yh, yu, 1.0, 0.05, "t"))):
        half = (t.high - t.low) / 2
        assert (np.abs(boot[m].low - t.low) < 0.08 * half).all(), m
        assert (np.abs(boot[m].high - t.high) < 0.08 * half).all(), m
        assert np.abs((boot[m].high - boot[m].low) / (2 * half) - 1).mean() < 0.04, m
    # and the p-value of a mean far from 0 is the smallest the resamples can give
    assert (boot["ppi"].p_value == 1 / 10000).all()


def test_an_end_is_infinite_where_resamples_have_no_spread_and_zero_spread_gives_a_point():
    # nine scores at 1 and one at 0.5: a resample of ten 1s (0.9^10 = 35% of them) has se* = 0
    # and t* = +inf, so the lower end is -inf; ten equal scores give [1, 1] as the t interval
    y = np.array([[1.0] * 9 + [0.5], [1.0] * 10])
    yu = np.full((2, 20), 0.7)
    e = bootstrap_t_means(y, y, yu, 0.05, 199, 0)["classical"]
    assert e.low[0] == -np.inf and np.isfinite(e.high[0])
    assert e.low[1] == e.high[1] == 1.0


def test_an_infinite_end_is_valid_json_and_plain_text_in_csv():
    frame = pd.DataFrame({"ci_low": [-np.inf, 0.25], "ci_high": [np.inf, np.nan]})
    rows = json.loads(table_text(frame, "json"), parse_constant=lambda c: pytest.fail(c))
    assert rows == [{"ci_low": "-inf", "ci_high": "inf"}, {"ci_low": 0.25, "ci_high": None}]
    assert table_text(frame, "csv").splitlines()[1:] == ["-inf,inf", "0.25,nan"]


def test_the_command_and_the_api_give_bootstrap_t_rows(tmp_path, capsys):
    world = write_world(tmp_path / "w")
    judges = {"human": world["human"], "llm": world["llm"]}
    report = estimate(world["runs"], judges, reference="human", proxy="llm",
                      interval="bootstrap-t", bootstrap=199, seed=5, pairs=True)
    t = estimate(world["runs"], judges, reference="human", proxy="llm", interval="t")
    boot, t = report.estimates, t.estimates
    assert (boot["estimate"] == t["estimate"]).all()                 # the same theta
    assert not np.allclose(boot["ci_low"], t["ci_low"])
    p = report.pairs["p_value"]
    assert ((p * 200).round(9) % 1 == 0).all() and p.between(1 / 200, 1).all()  # (c + 1)/(B + 1)
    assert main(["estimate", "--judge", f"human={world['human']}", "--judge",
                 f"llm={world['llm']}", "--reference", "human", "--proxy", "llm", "--measure",
                 "nDCG@10", "--interval", "bootstrap-t", "--bootstrap", "199", "--seed", "5",
                 *map(str, world["runs"])]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1:] and f"{boot['ci_low'].iloc[0]:.6f}"[:6] in out


@pytest.mark.parametrize("extra, expected", [
    (["--interval", "bootstrap-t", "--bootstrap", "98"], "--bootstrap 98 is invalid: expected at "
                                                         "least 99 resamples"),
    (["--interval", "bootstrap-t", "--alpha", "0.001"], "expected at least 1999 resamples"),
    (["--interval", "bootstrap"], "--interval bootstrap is invalid: expected normal or t or "
                                  "bootstrap-t"),
], ids=["too-few-resamples", "too-few-for-alpha", "unknown-interval"])
def test_bad_values_are_one_line_exit_2_nothing_written(tmp_path, capsys, extra, expected):
    world = write_world(tmp_path / "w", topics=12, docs=10, runs=2, judged=4)
    status = main(["estimate", "--judge", f"human={world['human']}", "--judge",
                   f"llm={world['llm']}", "--reference", "human", "--proxy", "llm", "--measure",
                   "nDCG@10", *extra, "--out", str(tmp_path / "out"), *map(str, world["runs"])])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1 and expected in err, err
    assert not (tmp_path / "out").exists()
