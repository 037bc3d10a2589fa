"""evalkit estimate's intervals and p-values against ppi-python (0.2.3, the reference
implementation of Angelopoulos et al.) on the same per-topic scores, and a case by hand."""

import math
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from evalkit.evaluate import estimate
from evalkit.stats.prediction_powered import (classical_mean, power_tuned_lambda,
                                              prediction_powered_mean)

sys.path.insert(0, str(Path(__file__).parent))
from estimate_world import write_world  # noqa: E402

ppi_py = pytest.importorskip("ppi_py")

ALPHA = 0.1          # not ppi-python's default either way: the option must reach the interval


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    paths = write_world(tmp_path_factory.mktemp("world"), runs=4)
    return estimate(paths["runs"], {"human": paths["human"], "llm": paths["llm"]},
                    reference="human", proxy="llm", measures=("nDCG@10", "AP"), alpha=ALPHA,
                    pairs=True)


def _samples(per_topic, run, measure):
    part = per_topic[(per_topic["run"] == run) & (per_topic["measure"] == measure)]
    labelled = part["reference"].notna().to_numpy()
    return (part["reference"].to_numpy()[labelled], part["proxy"].to_numpy()[labelled],
            part["proxy"].to_numpy()[~labelled])


def _reference_rows(y, yh, yu):
    """``{method: (low, high, p)}`` from ppi-python; ppi++'s lam is ppi_mean_ci's (clipped)."""
    from ppi_py import classical_mean_ci, ppi_mean_ci, ppi_mean_pval

    lam = float(power_tuned_lambda(y, yh, yu))
    out = {"classical": (*classical_mean_ci(y, alpha=ALPHA), np.nan),
           "proxy": (*classical_mean_ci(np.concatenate([yh, yu]), alpha=ALPHA), np.nan)}
    for method, lam_ in (("ppi", 1.0), ("ppi++", None)):
        low, high = ppi_mean_ci(y, yh, yu, alpha=ALPHA, lam=lam_)
        p = ppi_mean_pval(y, yh, yu, lam=1.0 if lam_ else lam)
        out[method] = (float(low[0]), float(high[0]), float(p[0]))
    return out


def test_every_interval_and_p_value_equals_ppi_python(report):
    est = report.estimates.set_index(["run", "measure", "method"])
    pairs = report.pairs.set_index(["run_a", "run_b", "measure", "method"])
    worst, checked = 0.0, 0
    runs = sorted(report.estimates["run"].unique())
    for measure in ("nDCG@10", "AP"):
        samples = {r: _samples(report.per_topic, r, measure) for r in runs}
        for run in runs:
            for method, (low, high, _) in _reference_rows(*samples[run]).items():
                row = est.loc[(run, measure, method)]
                worst = max(worst, abs(row["ci_low"] - low), abs(row["ci_high"] - high))
                checked += 1
        for a, b in combinations(runs, 2):
            diff = [x - y for x, y in zip(samples[a], samples[b])]
            for method, (low, high, p) in _reference_rows(*diff).items():
                row = pairs.loc[(a, b, measure, method)]
                worst = max(worst, abs(row["ci_low"] - low), abs(row["ci_high"] - high))
                if method.startswith("ppi"):
                    worst = max(worst, abs(row["p_value"] - p))
                checked += 1
    assert checked == 2 * (4 * 4 + 6 * 4)
    assert worst <= 1e-12, worst


def test_ppi_python_checks_are_not_vacuous(report):
    # the methods differ on these numbers, so equality with ppi-python says something
    est = report.estimates.query("run == 'r0' and measure == 'AP'")
    lows = est.set_index("method")["ci_low"]
    assert len(set(np.round(lows, 6))) == 4
    lam = est.set_index("method")["lambda"]
    assert 0 < lam["ppi++"] < 1 and lam["ppi"] == 1


Y = np.array([0.2, 0.4, 0.6, 0.8])
YH = np.array([0.3, 0.3, 0.7, 0.7])
YU = np.array([0.1, 0.5, 0.5, 0.9])
Z975 = 1.959963984540054            # the standard normal's 0.975 quantile (tables: 1.95996)


def test_a_case_worked_by_hand():
    # lam = 1: theta = mean(Yu) + mean(Y - Yh) = 0.5 + 0; se^2 = var(Yu)/4 + var(Y - Yh)/4
    #          = 0.08/4 + 0.01/4 = 0.0225, se = 0.15
    ppi = prediction_powered_mean(Y, YH, YU, 1.0, 0.05)
    assert ppi.estimate == pytest.approx(0.5, abs=1e-15)
    assert ppi.se == pytest.approx(0.15, abs=1e-15)
    assert (ppi.low, ppi.high) == pytest.approx((0.5 - Z975 * 0.15, 0.5 + Z975 * 0.15), abs=1e-12)
    assert ppi.p_value == pytest.approx(math.erfc((0.5 / 0.15) / math.sqrt(2)), rel=1e-9)
    assert ppi.effective_n == pytest.approx(0.05 / 0.0225, rel=1e-12)        # var(Y) / se^2
    # PPI++: cov(Y, Yh) = 1/25 (ddof 0), var of the 8 proxy scores = 0.48/7 (ddof 1),
    # lam = (1/25) / ((1 + 4/4) * 0.48/7) = 7/24; theta = 7/24 * 0.5 + 0.5 - 7/24 * 0.5 = 0.5;
    # var(Y - lam Yh) = 1/20 - 2 (7/24)(1/25) + (7/24)^2 (1/25) = 433/14400,
    # lam^2 var(Yu) = (49/576)(2/25) = 98/14400, se^2 = (433 + 98) / 14400 / 4
    assert power_tuned_lambda(Y, YH, YU) == pytest.approx(7 / 24, abs=1e-15)
    tuned = prediction_powered_mean(Y, YH, YU, None, 0.05)
    assert tuned.estimate == pytest.approx(0.5, abs=1e-15)
    assert tuned.se == pytest.approx(math.sqrt(531 / 57600), abs=1e-15)
    # classical with t quantiles: var(Y, ddof 1) = 0.2/3, se = sqrt(0.2/12); t(3, 0.975) = 3.182446
    t = classical_mean(Y, 0.05, "t")
    assert t.se == pytest.approx(math.sqrt(0.2 / 12), abs=1e-15)
    assert t.high - t.estimate == pytest.approx(3.182446305 * math.sqrt(0.2 / 12), abs=1e-8)


def test_lambda_is_clipped_to_the_unit_interval():
    # a proxy anti-correlated with the reference: lam would be negative, clipped to 0 (classical)
    assert power_tuned_lambda(Y, YH[::-1], YU) == 0.0
    # a proxy with a tenth of the reference's spread: lam would be about 10, clipped to 1
    assert power_tuned_lambda(Y, 0.5 + (Y - 0.5) / 10, np.full(40, 0.5)) == 1.0
    equal = prediction_powered_mean(Y, YH[::-1], YU, None, 0.05)
    classical = classical_mean(Y, 0.05)
    assert (equal.low, equal.high) == pytest.approx((classical.low, classical.high), abs=1e-15)


def test_welch_p_is_scipys():
    from scipy import stats

    from evalkit.evaluate.estimation.estimators import welch_p

    rng = np.random.default_rng(5)
    for a, b in ((rng.random(7), rng.random(30) + 0.2), (rng.normal(size=12), rng.normal(size=5))):
        assert welch_p(a, b) == pytest.approx(stats.ttest_ind(a, b, equal_var=False).pvalue,
                                              rel=1e-12)
