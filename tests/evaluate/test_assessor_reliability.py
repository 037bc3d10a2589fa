"""``evalkit assessors`` says who is unreliable: leave-one-out references, alpha without each
assessor, Dawid-Skene reliability, assessors scored on few topics, ties in the bump chart."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from evalkit.evaluate import assessors
from evalkit.evaluate.assessor_study.report import _end_labels, _side_by_side, bump_chart
from evalkit.evaluate.judges.labels import labels_to_ratings, read_labels
from evalkit.evaluate.judges.example import JUDGES, RANDOM_JUDGE
from evalkit.formats.trec import read_run
from evalkit.paths import EXAMPLES

FOLDER = EXAMPLES / "judges"


@pytest.fixture(scope="module")
def data():
    labels, _ = read_labels({j: FOLDER / f"{j}.qrels" for j in JUDGES})
    runs = pd.concat([read_run(p) for p in sorted((FOLDER / "runs").glob("*.txt"))],
                     ignore_index=True)
    return runs, labels_to_ratings(labels)


@pytest.fixture(scope="module")
def report(data):
    return assessors(*data, measures=["nERR@10", "nG@1"], trials=300, seed=2)


def test_the_summary_names_the_random_assessor_three_ways(report):
    lines = report.summary()
    assert len(lines) == 3
    assert lines[1].startswith(f"The leaderboard departing most from the others' is "
                               f"assessor:{RANDOM_JUDGE}'s")
    assert f"removing {RANDOM_JUDGE} raises the ordinal alpha most" in lines[2]
    assert f"Dawid-Skene finds {RANDOM_JUDGE} least reliable" in lines[2]
    alpha = report.agreement.set_index("statistic")["value"]
    assert f"to {alpha[f'alpha_without:{RANDOM_JUDGE}']:.3f}" in lines[2]


def test_each_assessor_is_compared_with_the_others_without_them(report):
    board = report.leaderboards
    rc = report.rank_correlation.set_index(["judge", "measure"])
    for a in JUDGES:
        for measure in ("nERR@10", "nG@1"):
            b = board[board["measure"] == measure].set_index(["judge", "run"])["value"]
            own, loo = b[f"assessor:{a}"].sort_index(), b[f"without:{a}"].sort_index()
            row = rc.loc[(f"assessor:{a}", measure)]
            assert row["loo_reference"] == f"without:{a}" and row["reference"] == "all:raw"
            assert row["loo_kendall_tau"] == pytest.approx(sps.kendalltau(loo, own).statistic, abs=1e-12)
    others = report.rank_correlation[~report.rank_correlation["judge"].str.startswith("assessor:")]
    assert others["loo_kendall_tau"].isna().all() and (others["loo_reference"] == "").all()


def test_reliability_is_each_assessors_dawid_skene_confusion_matrix(report):
    rel = report.reliability
    assert list(rel.columns) == ["judge", "grade", "estimated_grade", "probability"]
    assert np.allclose(rel.groupby(["judge", "estimated_grade"])["probability"].sum(), 1.0)
    diag = rel[rel["grade"] == rel["estimated_grade"]].groupby("judge")["probability"].mean()
    assert diag.idxmin() == RANDOM_JUDGE and diag[RANDOM_JUDGE] < 0.45 and diag.drop(RANDOM_JUDGE).min() > 0.8


def test_the_mean_over_assessors_is_named_for_what_it_is(report):
    assert "assessor-mean" in report.judges and "aware" not in report.judges


def test_an_assessor_scored_on_few_topics_is_flagged_and_not_named(data):
    runs, ratings = data
    # eve rates one item of one topic, at random against everyone: a full leaderboard from one topic
    first = ratings.iloc[0]
    eve = pd.DataFrame({"topic": [first["topic"]], "assessor": ["eve"], "doc": [first["doc"]],
                        "rating": [2 - int(first["rating"])]})
    rep = assessors(runs, pd.concat([ratings, eve], ignore_index=True), measures=["nERR@10"],
                    trials=100, min_topics=0.5)
    assert rep.flagged == ["eve"]
    assert any("fewer than 50% of the 30 topics" in n and "eve (1 topics)" in n for n in rep.notes)
    topics = rep.leaderboards.drop_duplicates("judge").set_index("judge")["topics"]
    assert topics["assessor:eve"] == 1 and topics["all:raw"] == 30 and topics["assessor:alice"] <= 30
    line = rep.summary()[1]
    assert "assessor:eve" not in line and "eve left out" in line
    assert assessors(runs, pd.concat([ratings, eve], ignore_index=True), measures=["nERR@10"],
                     trials=100, min_topics=0.0).flagged == []


def test_ties_are_drawn_side_by_side_and_named_together():
    ranks = np.array([[1.0, 2.0], [1.0, 1.0], [3.0, 2.0]])
    pos, tied = _side_by_side(ranks, np.array([0.0, 1.0]))
    assert tied.tolist() == [[True, True], [True, False], [False, True]]
    assert pos[0, 0] < 0 < pos[1, 0] and pos[0, 0] == pytest.approx(-pos[1, 0])
    assert pos[2, 0] == 0 and pos[1, 1] == 1 and pos[0, 1] < 1 < pos[2, 1]
    assert _end_labels(["a", "b", "c"], ranks[:, 0])[1] == ["a = b  1", "c  3"]


def test_the_bump_chart_passes_the_figure_check(report):
    pytest.importorskip("matplotlib")
    from evalkit.figure_check import problems

    fig = bump_chart(report)
    assert problems(fig) == []
    right = [ax for ax in fig.axes if ax.get_ylabel().startswith("rank under")]
    assert len(right) == 2 and all(len(ax.get_yticklabels()) > 0 for ax in right)
