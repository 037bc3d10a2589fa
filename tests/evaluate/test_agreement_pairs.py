"""Tests between judges (pairs.csv of evalkit agreement) and per_topic.csv, against the
krippendorff package, statsmodels, evalkit compare and loops written from the definitions."""

import numpy as np
import pandas as pd
import pytest

from evalkit.evaluate.judge_agreement.pairs import PAIR_COLUMNS, pair_stack, pairs_table
from evalkit.evaluate.judge_agreement.report import agreement_report, summary
from evalkit.evaluate.judge_agreement.tables import per_topic_table
from evalkit.evaluate.judges.example import JUDGES

krippendorff = pytest.importorskip("krippendorff")


@pytest.fixture(scope="module")
def labels(sparse_example_labels):
    """The example judges on 10 topics, 15% of the labels dropped: pairs compare judges on the
    items both graded (and the reference graded), which then differ from pair to pair."""
    return sparse_example_labels(10)


def _wide(labels):
    return labels.pivot_table(index=["topic", "doc"], columns="judge", values="grade")


def _alpha(x, y):
    return krippendorff.alpha(reliability_data=np.vstack([x, y]).astype(float),
                              level_of_measurement="ordinal", value_domain=[0, 1, 2])


def _value(wide, judge, reference, keep):
    """Ordinal alpha of ``judge`` on the items ``keep``: against ``reference``, or pooled (every
    pair with another judge's grade of the item)."""
    rows = wide[keep]
    if reference is not None:
        return _alpha(rows[reference], rows[judge])
    x, y = [], []
    for other in wide.columns.drop(judge):
        both = rows[[judge, other]].dropna()
        x += both[other].tolist()
        y += both[judge].tolist()
    return _alpha(x, y)


def _slow_p(wide, a, b, reference, trials, seed):
    """The randomisation test from its definition: swap a's and b's labels on the topics of
    each trial (the swaps drawn as evalkit's docstring says) and recompute both values."""
    keep = wide[a].notna() & wide[b].notna()
    if reference is not None:
        keep &= wide[reference].notna()
    topics = sorted(wide.index.get_level_values("topic").unique())
    position = wide.index.get_level_values("topic").map({t: i for i, t in enumerate(topics)})
    swaps = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1,))).integers(
        0, 2, (trials, len(topics)))
    observed = _value(wide, a, reference, keep) - _value(wide, b, reference, keep)
    hits = 0
    for s in swaps:
        flip = s[np.asarray(position)].astype(bool)
        w = wide.copy()
        w.loc[flip, a], w.loc[flip, b] = wide.loc[flip, b].to_numpy(), wide.loc[flip, a].to_numpy()
        d = _value(w, a, reference, keep) - _value(w, b, reference, keep)
        hits += abs(d) >= abs(observed) - 1e-12
    return observed, (hits + 1) / (trials + 1)


@pytest.mark.parametrize("reference", ["alice", None])
def test_differences_and_p_values_are_the_definitions(labels, reference):
    judges = [j for j in JUDGES if j != reference]
    stack, ia, ib, _, _ = pair_stack(labels, reference, judges)
    assert len(stack) > len(judges)          # the dropped labels make pairs' own item sets
    pairs, _ = pairs_table(labels, reference, "alpha_ordinal", judges, bootstrap=0, trials=60,
                           seed=3)
    assert list(pairs.columns) == PAIR_COLUMNS and len(pairs) == len(judges) * (len(judges) - 1) // 2
    wide = _wide(labels)
    for r in pairs.itertuples(index=False):
        observed, p = _slow_p(wide, r.judge_a, r.judge_b, reference, 60, 3)
        assert r.difference == pytest.approx(observed, abs=1e-12), (r.judge_a, r.judge_b)
        assert r.p_value == p, (r.judge_a, r.judge_b)
    from statsmodels.stats.multitest import multipletests

    assert pairs["p_holm"].tolist() == list(multipletests(pairs["p_value"], method="holm")[1])


def test_the_interval_is_the_paired_topic_bootstrap_by_hand(labels):
    from evalkit.stats.confusion_agreement import topic_bootstrap

    pairs, _ = pairs_table(labels, "alice", "alpha_ordinal", ["bob", "mallory"], bootstrap=200,
                           trials=10, seed=5, alpha=0.1)
    wide = _wide(labels)
    topics = sorted(wide.index.get_level_values("topic").unique())
    keep = wide[["alice", "bob", "mallory"]].notna().all(axis=1)
    diffs = []
    for w in topic_bootstrap(len(topics), 200, 5):    # the same resampled topics for both judges
        x, y, z = [], [], []
        for t, n in zip(topics, w):
            rows = wide[keep].xs(t, level="topic")
            x += rows["alice"].tolist() * int(n)
            y += rows["bob"].tolist() * int(n)
            z += rows["mallory"].tolist() * int(n)
        diffs.append(_alpha(x, y) - _alpha(x, z))
    low, high = np.quantile(diffs, [0.05, 0.95])       # alpha = 0.1: a 90% interval
    assert pairs["ci_low"].iloc[0] == pytest.approx(low, abs=1e-12)
    assert pairs["ci_high"].iloc[0] == pytest.approx(high, abs=1e-12)


def test_hsd_is_the_randomised_tukey_hsd_of_the_per_topic_values(labels):
    from evalkit.stats.pairwise import hsd_pairs

    order = ["carol", "bob", "mallory"]
    pairs, notes = pairs_table(labels, "alice", "alpha_ordinal", order, trials=500, seed=2,
                               test="hsd")
    scores, _ = per_topic_table(labels, "alice", cuts=[1])
    matrix = (scores[scores["measure"] == "alpha_ordinal"]
              .pivot(index="topic", columns="run", values="value")[order])
    want = hsd_pairs(matrix, 500, 2, 0.05)
    assert pairs["difference"].tolist() == pytest.approx(want["diff"].tolist(), abs=1e-12)
    assert pairs["p_value"].tolist() == want["p_value"].tolist() == pairs["p_holm"].tolist()


def test_the_summary_counts_the_judges_indistinguishable_from_the_best(labels):
    report = agreement_report(labels, "alice", trials=400, bootstrap=100, seed=1)
    best = report.headline()["judge"].iloc[0]
    mine = report.pairs[(report.pairs["judge_a"] == best) | (report.pairs["judge_b"] == best)]
    same = int((mine["p_holm"] >= 0.05).sum())
    line = summary(report)[3]
    assert line.startswith(f"Statistically indistinguishable from {best} at alpha = 0.05: "
                           f"{same} of the 2 other judges")
    assert same == 1                                   # bob and carol alike, mallory at random


def test_the_summary_says_when_holm_cannot_reject_with_so_few_trials(labels):
    """A p-value is at least 1 / (B + 1), so Holm over n pairs cannot go below n / (B + 1): with
    3 pairs and B = 40 that is 3 / 41 = 0.073 > 0.05, and "indistinguishable" says nothing."""
    report = agreement_report(labels, "alice", trials=40, bootstrap=0, seed=1)
    assert report.pairs["p_holm"].min() >= 3 / 41 - 1e-15
    line = summary(report)[3]
    assert line.endswith("No pair can be significant with these trials: the smallest "
                         "Holm-adjusted p is 3 / (B + 1) = 0.073; use --trials 60 or more.")
    report = agreement_report(labels, "alice", trials=60, bootstrap=0, seed=1)
    assert "No pair can be significant" not in summary(report)[3]         # 3 / 61 < 0.05
    report = agreement_report(labels, "alice", trials=40, bootstrap=0, seed=1, test="hsd")
    assert "No pair can be significant" not in summary(report)[3]         # p = count / B


def test_per_topic_values_are_each_topics_alpha(labels):
    scores, notes = per_topic_table(labels, "alice", cuts=[1, 2])
    assert list(scores.columns) == ["run", "measure", "topic", "value"]
    assert set(scores["run"]) == {"bob", "carol", "mallory"}
    wide = _wide(labels)
    ordinal = scores[scores["measure"] == "alpha_ordinal"].set_index(["run", "topic"])["value"]
    for (run, topic), value in ordinal.items():
        rows = wide.xs(topic, level="topic")[["alice", run]].dropna()
        assert value == pytest.approx(_alpha(rows["alice"], rows[run]), abs=1e-12)
    # compare needs every run on the same topics: an undefined topic is left out for everyone
    counts = scores.groupby(["measure", "run"]).size().unstack()
    assert (counts.nunique(axis=1) == 1).all()
    assert all("leaves out" in n for n in notes)


def test_more_than_forty_judges_turn_the_pairs_off_unless_asked(labels):
    rows = []
    for k in range(41):
        part = labels[labels["judge"] == JUDGES[k % 4]].assign(judge=f"j{k:02d}")
        rows.append(part)
    many = pd.concat(rows, ignore_index=True)
    many.attrs["grades"] = (0, 2)
    assert agreement_report(many, bootstrap=0, trials=10).pairs is None
    assert agreement_report(labels, bootstrap=0, trials=10).pairs is not None
    assert agreement_report(labels, bootstrap=0, trials=10, pairs=False).pairs is None
    forced = agreement_report(many[many["judge"].isin(["j00", "j01", "j02"])], bootstrap=0,
                              trials=10, pairs=True)
    assert len(forced.pairs) == 3


def test_the_parsers_choices_are_the_pairs_modules():
    from evalkit.evaluate.judge_agreement import cli, pairs

    assert (cli.PAIR_TESTS, cli.MAX_JUDGES_FOR_PAIRS) == (pairs.PAIR_TESTS, pairs.MAX_JUDGES_FOR_PAIRS)
