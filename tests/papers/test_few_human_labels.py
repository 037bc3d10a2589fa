"""The few-human-labels chapter's pipeline: the coverage verdicts, the judges' worth in human
topics, the circularity count, and the pool-depth study (an LLM that agrees with the humans
fills every hole with the human label: the full qrels' scores exactly)."""

import numpy as np
import pandas as pd
import pytest

from evalkit.papers import few_human_labels as paper


def _labels(topics=8, docs=40, seed=3):
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(topics):
        grades = rng.choice(4, docs, p=[0.5, 0.25, 0.15, 0.1])
        for d, g in enumerate(grades):
            rows.append((f"t{t}", "human", f"d{t}-{d}", int(g)))
            rows.append((f"t{t}", "same", f"d{t}-{d}", int(g)))
            rows.append((f"t{t}", "llm", f"d{t}-{d}", int(min(3, g + (rng.random() < 0.4)))))
    frame = pd.DataFrame(rows, columns=["topic", "judge", "doc", "grade"])
    frame.attrs["grades"] = (0, 3)
    return frame


def test_holds_table_reads_95_percent_plus_minus_two_mc_errors():
    cov = pd.DataFrame({"coverage": [0.93, 0.92, 0.97, 0.95], "mc_error": [0.01, 0.01, 0.005,
                                                                           0.0]})
    # 0.93 >= 0.95 - 0.02 holds; 0.92 < 0.93 under; 0.97 > 0.96 over; 0.95 exactly holds
    assert paper.holds_table(cov)["verdict"].tolist() == ["holds", "under", "over", "holds"]


def test_an_llm_equal_to_the_humans_fills_every_hole_with_the_human_label():
    summary, shifts = paper.pool_depth_study(_labels(), "human", "same", seed=1, depths=(3, 10),
                                             n_runs=8, n_teams=4)
    filled = summary[summary["strategy"] == "filled"]
    assert np.allclose(filled["tau"], 1, rtol=0, atol=1e-12)   # scipy's tau-b, rounding
    assert (filled["mean_abs_shift"] == 0).all()
    assert (shifts.loc[shifts["strategy"] == "filled", ["shift", "ci_low", "ci_high"]] == 0
            ).all().all()
    assert len(shifts) == 2 * 3 * 4                         # depths x strategies x left-out runs
    # a shallower pool judges fewer documents and leaves more holes to fill
    assert summary.groupby("depth")["judged"].first().is_monotonic_increasing
    assert filled["filled"].is_monotonic_decreasing and (filled["filled"] > 0).all()
    unfilled = summary[summary["strategy"] != "filled"]
    assert (unfilled["filled"] == 0).all() and (unfilled["mean_abs_shift"] > 0).any()


def test_worth_in_human_topics_and_the_circular_run():
    labels = _labels()
    order = pd.DataFrame({"judge": ["same", "llm"], "alpha": [1.0, 0.6]})
    p = paper.panel(labels, "human", order["judge"], "llm", seed=2, n_runs=6, n_teams=3)
    assert p.circular == "circular-llm" and p.human.shape == (7, 8)
    widths = paper.width_table(p, order, ns=(4,), draws=20, seed=0)
    assert widths["judge"].tolist() == ["same", "llm", "same", "llm"]  # by agreement
    assert widths["method"].tolist() == ["ppi", "ppi", "ppi++", "ppi++"]
    np.testing.assert_allclose(widths["worth_topics"], 4 / widths["width_ratio"] ** 2)
    same = widths[widths["judge"] == "same"].set_index("method")["width_ratio"]
    # labels equal to the humans': no rectifier variance, PPI's width is the 8 topics' (< 1)
    assert same["ppi"] < 1 and same["ppi++"] <= same["ppi"] + 1e-12
    circ = paper.circularity_table(p, trials=200, seed=0)
    assert circ["judge"].tolist()[0] == "llm" and circ["own_judge"].tolist() == [True, False]
    s = paper.singled_out(circ)
    assert s["own"] == "llm" and s["others"] == 1
    assert s["others_singled_out"] == int(circ["p_holm"].iloc[1] < 0.05)
    # the humans' own labels as a judge: no shift at all for any run
    assert circ.loc[circ["judge"] == "same", "shift"].iloc[0] == 0


def test_llmjudge_pool_depth_filled_by_the_humans_is_the_full_qrels(external):
    from evalkit.papers.llmjudge2024 import HUMAN, load_labels

    labels, _, _ = load_labels(external)
    humans = labels[labels["judge"] == HUMAN]
    twin = pd.concat([labels, humans.assign(judge="twin")], ignore_index=True)
    summary, _ = paper.pool_depth_study(twin, HUMAN, "twin", seed=44, depths=(10,))
    row = summary.set_index("strategy").loc["filled"]
    assert row["tau"] == pytest.approx(1, abs=1e-12) and row["mean_abs_shift"] == 0
    assert summary["judged"].iloc[0] < len(humans)          # the pool at depth 10 has holes
