"""Many proxy judges on one pool: a circular run and the LLM judges' worth in human topics, on
a small made-up pool and on the LLMJudge 2024 labels (needs $EVALKIT_DATA_MIRROR).  The runs
are simulated over the pool: these are worked examples, not verdicts on a paper."""

import numpy as np
import pandas as pd
import pytest

from evalkit.evaluate.estimation.judge_panel import (circular_run, circularity, panel_scores,
                                                     pool_runs, width_ratios)


def _labels():
    rng = np.random.default_rng(4)
    rows = []
    for t in range(12):
        grades = rng.choice(4, 30, p=[0.5, 0.25, 0.15, 0.1])
        for d, g in enumerate(grades):
            rows.append((f"t{t}", "human", f"d{t}-{d}", int(g)))
            rows.append((f"t{t}", "llm", f"d{t}-{d}", int(min(3, g + (rng.random() < 0.3)))))
    frame = pd.DataFrame(rows, columns=["topic", "judge", "doc", "grade"])
    frame.attrs["grades"] = (0, 3)
    return frame


def test_the_circular_run_ranks_by_its_judges_labels():
    labels = _labels()
    run = circular_run(labels, "llm", seed=1, depth=5)
    top = run[run["topic"] == "t3"]
    llm = labels[(labels["judge"] == "llm") & (labels["topic"] == "t3")].set_index("doc")["grade"]
    assert list(top["rank"]) == [1, 2, 3, 4, 5]
    assert llm.loc[top["doc"]].is_monotonic_decreasing
    assert llm.loc[top["doc"]].min() >= llm.sort_values().iloc[-5]


def test_a_small_panel_end_to_end():
    labels = _labels()
    runs = pd.concat([pool_runs(labels, "human", seed=2, n_runs=6, n_teams=3),
                      circular_run(labels, "llm", seed=2)], ignore_index=True)
    names, topics, human, proxies = panel_scores(runs, labels, "human", ["llm"])
    assert human.shape == (7, 12) and proxies["llm"].shape == (7, 12)
    widths = width_ratios(human, proxies, ns=(4,), draws=30, seed=0)
    assert list(widths.columns) == ["judge", "n", "method", "width_ratio"] and len(widths) == 2
    bias = circularity(names, topics, human, proxies, "circular-llm", trials=500, seed=0)
    assert bias["judge"].tolist() == ["llm"] and bias["relative_shift"].iloc[0] > 0


@pytest.fixture(scope="module")
def llmjudge(mirror):
    from evalkit.papers.llmjudge2024.labels import HUMAN, JUDGES, load_labels

    if not (mirror / "llmjudge-2024" / "llmjudge_test_qrel_idx.txt").is_file():
        pytest.skip("the LLMJudge 2024 files are not in the data mirror")
    labels, _, _ = load_labels(mirror)
    own = JUDGES[0]
    runs = pd.concat([pool_runs(labels, HUMAN, seed=7, n_runs=20, n_teams=8),
                      circular_run(labels, own, seed=7)], ignore_index=True)
    return own, panel_scores(runs, labels, HUMAN, JUDGES)


def test_llmjudge_the_circular_run_is_singled_out_for_its_own_judge(llmjudge):
    own, (names, topics, human, proxies) = llmjudge
    bias = circularity(names, topics, human, {own: proxies[own]}, f"circular-{own}",
                       trials=2000, seed=3).iloc[0]
    assert len(topics) == 25 and len(proxies) == 33
    assert bias["p_holm"] < 0.05 and bias["relative_shift"] > 0.3 and bias["shift"] > 0.4


def test_llmjudge_ppi_plus_plus_is_never_much_wider_than_the_humans_alone(llmjudge):
    _, (names, topics, human, proxies) = llmjudge
    widths = width_ratios(human, proxies, ns=(10,), draws=50, seed=1)
    tuned = widths[widths["method"] == "ppi++"]["width_ratio"]
    assert len(tuned) == 33 and tuned.max() < 1.05 and tuned.min() > 0.5
