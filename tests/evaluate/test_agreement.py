"""``evalkit.evaluate.judge_agreement.tables`` against the krippendorff package, scikit-learn and a hand count."""

import itertools

import numpy as np
import pandas as pd
import pytest

from evalkit.errors import InputError, ParameterError
from evalkit.evaluate.judge_agreement.tables import (agreement_table, confusion_table, consensus,
                                                     read_judges, reliability_table,
                                                     statistic_names)
from evalkit.evaluate.judges.example import JUDGES, RANDOM_JUDGE

krippendorff = pytest.importorskip("krippendorff")
metrics = pytest.importorskip("sklearn.metrics")


@pytest.fixture(scope="module")
def labels(sparse_example_labels):
    """The example judges on 12 topics, some items left ungraded by some judges."""
    return sparse_example_labels(12)


def _independent(a, b, cuts=(1, 2)):
    """Every statistic of agreement.csv from the krippendorff package and scikit-learn."""
    a, b = np.asarray(a), np.asarray(b)
    data = np.vstack([a, b]).astype(float)
    out = {f"alpha_{lv}": krippendorff.alpha(reliability_data=data, level_of_measurement=lv,
                                             value_domain=[0, 1, 2])
           for lv in ("ordinal", "interval", "nominal")}
    for name, w in (("cohen_kappa", None), ("kappa_linear", "linear"), ("kappa_quadratic", "quadratic")):
        out[name] = metrics.cohen_kappa_score(b, a, labels=[0, 1, 2], weights=w)
    for c in cuts:
        x, y = (a >= c).astype(int), (b >= c).astype(int)
        out[f"alpha_binary>={c}"] = krippendorff.alpha(reliability_data=np.vstack([x, y]).astype(float),
                                                      level_of_measurement="nominal")
        out[f"kappa_binary>={c}"] = metrics.cohen_kappa_score(y, x)
    return out


def _grades(labels, judge):
    return labels[labels["judge"] == judge].set_index(["topic", "doc"])["grade"]


def test_against_a_reference_equals_krippendorff_and_scikit_learn(labels):
    table = agreement_table(labels, reference="alice", cuts=(1, 2), bootstrap=0)
    assert set(table["judge"]) == {"bob", "carol", "mallory"}
    assert list(table.columns) == ["judge", "reference", "items", "statistic", "value", "ci_low",
                                   "ci_high"]
    ref = _grades(labels, "alice")
    for judge, rows in table.groupby("judge"):
        both = pd.concat([ref, _grades(labels, judge)], axis=1, join="inner")
        expected = _independent(both.iloc[:, 1], both.iloc[:, 0])
        assert (rows["items"] == len(both)).all() and (rows["reference"] == "alice").all()
        got = rows.set_index("statistic")["value"]
        assert list(got.index) == statistic_names((1, 2))
        for name, value in expected.items():
            assert got[name] == pytest.approx(value, abs=1e-12), name
        assert rows["ci_low"].isna().all() and rows["ci_high"].isna().all()


def test_the_others_pooled_are_every_pair_with_another_judge(labels):
    table = agreement_table(labels, cuts=(1, 2), bootstrap=0)
    for judge, rows in table.groupby("judge"):
        mine = _grades(labels, judge)
        a, b, items = [], [], set()
        for other in set(JUDGES) - {judge}:
            both = pd.concat([mine, _grades(labels, other)], axis=1, join="inner")
            a += both.iloc[:, 0].tolist()
            b += both.iloc[:, 1].tolist()
            items |= set(both.index)
        expected = _independent(a, b)
        got = rows.set_index("statistic")["value"]
        assert (rows["reference"] == "others").all() and (rows["items"] == len(items)).all()
        for name, value in expected.items():
            assert got[name] == pytest.approx(value, abs=1e-12), (judge, name)


def test_the_random_judge_agrees_least(labels):
    table = agreement_table(labels, bootstrap=200, cuts=(1, 2))
    alpha = table[table["statistic"] == "alpha_ordinal"].set_index("judge")
    assert alpha["value"].idxmin() == RANDOM_JUDGE
    assert alpha.loc[RANDOM_JUDGE, "ci_high"] < alpha.drop(RANDOM_JUDGE)["ci_low"].min()
    assert (alpha["ci_low"] <= alpha["value"]).all() and (alpha["value"] <= alpha["ci_high"]).all()


def test_the_bootstrap_interval_by_hand_on_two_topics():
    # topic 1: the judges agree on 4 items; topic 2: they disagree on 2 of 4.  A replicate draws
    # two topics: {1, 1}, {1, 2} or {2, 2}, with chances 1/4, 1/2, 1/4, so with 1000 replicates
    # the 2.5% and 97.5% percentiles are the kappas of {2, 2} and {1, 1}.
    rows = [("t1", "a", f"d{i}", g) for i, g in enumerate([0, 1, 0, 1])]
    rows += [("t1", "b", f"d{i}", g) for i, g in enumerate([0, 1, 0, 1])]
    rows += [("t2", "a", f"e{i}", g) for i, g in enumerate([0, 1, 0, 1])]
    rows += [("t2", "b", f"e{i}", g) for i, g in enumerate([0, 0, 1, 1])]
    labels = pd.DataFrame(rows, columns=["topic", "judge", "doc", "grade"])
    table = agreement_table(labels, reference="a", cuts=(1,), bootstrap=1000, seed=4)
    kappa = table.set_index("statistic").loc["cohen_kappa"]
    # {2, 2}: twice topic 2's table [[1, 1], [1, 1]]: p_o = 1/2, p_e = 1/2, kappa 0
    # {1, 1}: perfect agreement, kappa 1; all: p_o = 6/8, p_e = 1/2, kappa 1/2
    assert kappa["value"] == pytest.approx(0.5)
    assert kappa["ci_low"] == pytest.approx(0.0) and kappa["ci_high"] == pytest.approx(1.0)
    again = agreement_table(labels, reference="a", cuts=(1,), bootstrap=1000, seed=4)
    pd.testing.assert_frame_equal(table, again)


def test_confusion_table_counts_items_and_pairs(labels):
    conf = confusion_table(labels, "alice")
    both = pd.concat([_grades(labels, "alice"), _grades(labels, "bob")], axis=1, join="inner")
    bob = conf[conf["judge"] == "bob"].set_index(["reference_grade", "judge_grade"])["count"]
    for (r, j) in itertools.product(range(3), range(3)):
        assert bob[r, j] == int(((both.iloc[:, 0] == r) & (both.iloc[:, 1] == j)).sum())
    pooled = confusion_table(labels)
    assert (pooled["reference"] == "others").all()
    total = pooled[pooled["judge"] == "bob"]["count"].sum()
    pairs = sum(len(pd.concat([_grades(labels, "bob"), _grades(labels, o)], axis=1, join="inner"))
                for o in ("alice", "carol", "mallory"))
    assert total == pairs


def test_dawid_skene_finds_the_random_judge(labels):
    rel = reliability_table(labels)
    assert list(rel.columns) == ["judge", "grade", "estimated_grade", "probability"]
    sums = rel.groupby(["judge", "estimated_grade"])["probability"].sum()
    assert np.allclose(sums, 1.0)
    diagonal = rel[rel["grade"] == rel["estimated_grade"]].groupby("judge")["probability"].mean()
    assert diagonal.idxmin() == RANDOM_JUDGE and diagonal[RANDOM_JUDGE] < 0.5
    assert diagonal.drop(RANDOM_JUDGE).min() > 0.75
    best = consensus(labels)
    assert list(best.columns) == ["topic", "doc", "grade", "probability"]
    assert len(best) == len(labels.drop_duplicates(["topic", "doc"]))
    assert best["grade"].between(0, 2).all() and best["probability"].between(1 / 3, 1).all()


def test_bad_arguments(labels):
    with pytest.raises(ParameterError, match="cuts"):
        agreement_table(labels, cuts=(3,))
    assert set(agreement_table(labels, bootstrap=0)["statistic"]) == set(statistic_names((1, 2)))
    with pytest.raises(InputError, match="reference zoe is not one of the judges"):
        agreement_table(labels, reference="zoe")
    with pytest.raises(ParameterError, match="bootstrap"):
        agreement_table(labels, bootstrap=-1)
    twice = pd.concat([labels, labels.iloc[:1]], ignore_index=True)
    with pytest.raises(InputError, match="twice"):
        agreement_table(twice)


def test_clipped_and_raw_from_one_reading_equal_two_read_judges_calls(tmp_path):
    from evalkit.evaluate.judge_agreement.tables import read_judges_clipped_and_raw

    rng = np.random.default_rng(3)
    files = {}
    for name, top in (("human", 3), ("j1", 3), ("j2", 5), ("j3", 10), ("j4", 2)):
        grades = rng.integers(0, top + 1, 40)
        grades[:2] = [top, 0]
        files[name] = tmp_path / f"{name}.qrels"
        files[name].write_text("".join(f"{t} 0 d{i} {g}\n" for i, (t, g) in
                                       enumerate(zip(rng.choice(["7", "12"], 40), grades))))
    labels, raw, notes = read_judges_clipped_and_raw(files, (0, 3))
    want_labels, want_notes = read_judges(files, grades=(0, 3), clip=True)
    want_raw, _ = read_judges(files, grades=None)
    pd.testing.assert_frame_equal(labels, want_labels, check_exact=True)
    pd.testing.assert_frame_equal(raw, want_raw, check_exact=True)
    assert labels.attrs == want_labels.attrs and raw.attrs == want_raw.attrs
    assert notes == want_notes and len(notes) == 2                # j2's and j3's labels clamped
    assert (raw["grade"].max(), labels["grade"].max()) == (10, 3)
