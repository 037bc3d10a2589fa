"""evalkit estimate --bias (does the proxy favour a run beyond the others) and --plan (how many
reference topics an interval of a given width needs)."""

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from evalkit.evaluate import estimate
from evalkit.evaluate.estimation.bias import relative_shifts
from evalkit.evaluate.estimation.plan import plan_widths

sys.path.insert(0, str(Path(__file__).parent))
from estimate_world import write_world  # noqa: E402

Z975 = 1.959963984540054


@pytest.fixture(scope="module")
def favoured(tmp_path_factory):
    """An LLM judge that agrees with the humans but calls run r2's non-relevant top 10 documents
    relevant, 20 human topics."""
    paths = write_world(tmp_path_factory.mktemp("favoured"), runs=6, judged=20, favoured=2,
                        noise=0.0)
    return estimate(paths["runs"], {"human": paths["human"], "llm": paths["llm"]},
                    reference="human", proxy="llm", measures=("nDCG@10",), bias=True,
                    plan=0.08, bootstrap=300, trials=2000, seed=11)


def test_the_favoured_run_is_singled_out_and_no_other(favoured):
    bias = favoured.bias.set_index("run")
    assert bias.loc["r2", "p_holm"] < 0.01 and bias.loc["r2", "relative_shift"] > 0.02
    others = bias.drop(index="r2")
    assert (others["p_holm"] > 0.05).all(), others
    # the shift is the mean LLM-minus-human difference on the topics both judged
    d = favoured.per_topic.query("run == 'r2' and reference == reference")
    assert bias.loc["r2", "shift"] == pytest.approx((d["proxy"] - d["reference"]).mean(), abs=1e-15)
    assert (bias["ci_low"] <= bias["shift"]).all() and (bias["shift"] <= bias["ci_high"]).all()


def test_the_null_is_the_others_median_not_zero():
    # every run shifted by +0.2 (a lenient judge), run 0 by +0.5 more: only run 0 stands out
    d = np.full((5, 8), 0.2) + np.linspace(-0.01, 0.01, 8)
    d[0] += 0.5
    e = relative_shifts(d)
    assert e[0] == pytest.approx(np.full(8, 0.5))
    assert np.allclose(e[1:], 0)          # the favoured run does not drag the others' null


def test_the_same_seed_gives_the_same_numbers(tmp_path):
    paths = write_world(tmp_path, runs=3, topics=12, judged=6)
    run = [estimate(paths["runs"], {"human": paths["human"], "llm": paths["llm"]},
                    reference="human", proxy="llm", bias=True, bootstrap=100, trials=200,
                    seed=s).bias for s in (4, 4, 5)]
    assert run[0].equals(run[1]) and not run[0].equals(run[2])


def test_plan_by_the_formula(favoured):
    plan = favoured.plan.set_index(["run", "method"])
    est = favoured.estimates.set_index(["run", "method"])
    for run in ("r0", "r3"):
        y = favoured.per_topic.query(f"run == '{run}' and reference == reference")["reference"]
        sd = y.std(ddof=0)
        # classical at the present n: the interval's own width; needed: ceil((2 z sd / W)^2)
        now = est.loc[(run, "classical")]
        assert plan.loc[(run, "classical"), "width_now"] == pytest.approx(
            now["ci_high"] - now["ci_low"], rel=1e-12)
        assert plan.loc[(run, "classical"), "reference_topics_needed"] == max(
            2, math.ceil((2 * Z975 * sd / 0.08) ** 2))
        assert (plan.loc[(run, "ppi++"), "reference_topics_needed"]
                <= plan.loc[(run, "classical"), "reference_topics_needed"])
    assert "random" in plan["assumption"].iloc[0]


def test_plan_widths_shrink_with_n_and_ppi_never_loses():
    rng = np.random.default_rng(2)
    y = rng.random(15)
    yh = y + rng.normal(0, 0.1, 15)
    every = np.concatenate([yh, rng.random(85)])
    widths = plan_widths(y, yh, every, 0.05, "normal")
    assert np.all(np.diff(widths["classical"]) < 0)
    # lam = 0 is allowed, so tuned PPI is never wider than the classical interval
    assert np.all(widths["ppi++"] <= widths["classical"] + 1e-15)
    assert widths["ppi++"][-1] == pytest.approx(widths["classical"][-1])   # n = T: no others
