"""Wang et al. §5: every sampling rule on constructed runs, batches, ANOVA, the log reader."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from evalkit.errors import InputError
from evalkit.formats import preferences as preference_files
from evalkit.papers import wang2015_user_preferences as wang_up
from evalkit.simulate import preference_sampling as sampling


def run(p, r, length=20):
    return {"precision": p, "recall": r, "length": length}


def test_topic_weights_follow_the_normal_density_around_the_median():
    counts = pd.Series({"a": 100, "b": 120, "c": 140, "d": 400})  # median 130
    w = sampling.topic_weights(counts)
    raw = np.exp(-0.5 * (np.array([-30, -10, 10, 270]) / 20) ** 2)
    np.testing.assert_allclose(w.to_numpy(), raw / raw.sum())
    assert w["d"] < 1e-30  # atypical topics are practically never drawn
    drawn = sampling.draw_topics(counts, 2, np.random.default_rng(0))
    assert set(drawn) <= {"a", "b", "c"} and len(set(drawn)) == 2


def test_filters_drop_unjudged_runs_then_timelines_longer_than_the_median():
    t = pd.DataFrame({"run": ["x", "x", "y", "y", "z", "z"], "topic": ["1", "2"] * 3,
                      "length": [10, 50, 20, 30, 5, 99], "unjudged": [0, 0, 0, 0, 1, 0]})
    kept, limit = sampling.filter_timelines(t)
    assert limit == 25  # median of 10, 50, 20, 30 (run z dropped: it has an unjudged tweet)
    assert sorted(zip(kept.run, kept.topic)) == [("x", "1"), ("y", "1")]


@pytest.mark.parametrize("rule, keep, drop", [
    # precision sampling: recall within 0.1, precision more than 0.1 apart
    (sampling.precision_pair, (run(0.5, 0.30), run(0.3, 0.35)),
     [(run(0.5, 0.30), run(0.3, 0.45)), (run(0.5, 0.30), run(0.45, 0.32))]),
    # recall sampling: precision within 0.1, recall more than 0.1 apart
    (sampling.recall_pair, (run(0.5, 0.30), run(0.45, 0.5)),
     [(run(0.5, 0.30), run(0.3, 0.5)), (run(0.5, 0.30), run(0.52, 0.35))]),
    # F1 sampling: |P-R| within 0.1 of the base's, and P or R more than 0.1 apart
    (sampling.f1_pair, (run(0.6, 0.4), run(0.35, 0.2)),
     [(run(0.6, 0.4), run(0.3, 0.25)), (run(0.6, 0.4), run(0.9, 0.3)),
      (run(0.6, 0.4), run(0.65, 0.42))]),
])
def test_sampling_rules_keep_and_drop(rule, keep, drop):
    assert rule(*keep)
    for pair in drop:
        assert not rule(*pair), pair


def test_f1_rule_boundary_is_inclusive():
    # T = 0.2 vs T = 0.1: "within 0.1" keeps it (P differs by 0.3)
    assert sampling.f1_pair(run(0.6, 0.4), run(0.3, 0.4))


def test_length_rule():
    assert sampling.length_ok(run(0, 0, 10), run(0, 0, 30))
    assert not sampling.length_ok(run(0, 0, 10), run(0, 0, 31))


def test_sample_pairs_only_keeps_pairs_meeting_a_rule():
    rng = np.random.default_rng(0)
    rows = [{"run": f"r{i}", "topic": t, "length": int(rng.integers(5, 40)),
             "precision": rng.random(), "recall": rng.random()} for t in "AB" for i in range(12)]
    t = pd.DataFrame(rows)
    pairs = sampling.sample_pairs(t, rng, base_runs=5, per_type=3)
    idx = t.set_index(["run", "topic"])
    rules = {"precision": sampling.precision_pair, "recall": sampling.recall_pair,
             "f1": sampling.f1_pair}
    assert len(pairs)
    for p in pairs.itertuples():
        a, b = idx.loc[(p.run_a, p.topic)], idx.loc[(p.run_b, p.topic)]
        assert rules[p.type](a, b) and sampling.length_ok(a, b)
    assert pairs.groupby(["topic", "run_a", "type"]).size().max() <= 3


def test_batches_share_the_first_30_pairs_and_nothing_else():
    pairs = pd.DataFrame({"type": ["precision", "recall", "f1"] * 400, "topic": "1",
                          "run_a": [f"a{i}" for i in range(1200)], "run_b": "b"})
    b = sampling.make_batches(pairs, {"A1": 2, "A2": 1, "A3": 1}, np.random.default_rng(0))
    assert b.groupby(["assessor", "batch"]).size().eq(180).all()
    shared = b[b.shared]
    assert shared.groupby("assessor").pair_id.apply(frozenset).nunique() == 1
    assert shared.groupby("assessor").size().eq(30).all() and (shared.batch == 1).all()
    unique = b[~b.shared]
    assert unique.pair_id.is_unique
    assert b.groupby(["assessor", "batch"]).type.value_counts().between(59, 61).all()
    assert 0.35 < (b.left_run == [pairs.loc[i, "run_a"] for i in b.pair_id]).mean() < 0.65


def test_anova_equals_a_hand_computed_one_way_anova():
    per = pd.DataFrame({"metric": "m", "bin": list("aaabbbccc"),
                        "kappa": [0.1, 0.2, 0.15, 0.4, 0.5, 0.45, 0.7, 0.6, 0.8]})
    got = wang_up.anova_by_bin(per).iloc[0]
    groups = [per.kappa[per.bin == g].to_numpy() for g in "abc"]
    grand = per.kappa.mean()
    ssb = sum(len(g) * (g.mean() - grand) ** 2 for g in groups)
    ssw = sum(((g - g.mean()) ** 2).sum() for g in groups)
    f = (ssb / 2) / (ssw / 6)
    assert (got.df1, got.df2) == (2, 6)
    assert got.F == pytest.approx(f) and got.p == pytest.approx(sps.f.sf(f, 2, 6))


def test_agreement_drops_neither_and_counts_it():
    jt = pd.DataFrame({"metric": "precision", "bin": "[0.1,0.2)",
                       "choice": ["left", "right", "neither", "left"],
                       "implied": ["left", "right", "left", "right"]})
    row = wang_up.agreement(jt).iloc[0]
    assert (row.neither, row.preferences) == (1, 3)
    # 3 decided: table [[1,1],[0,1]] -> po = 2/3, pe = (2/3)(1/3) + (1/3)(2/3) = 4/9
    assert row.kappa == pytest.approx((2 / 3 - 4 / 9) / (1 - 4 / 9))


HEADER = ",".join(preference_files.PREFERENCE_COLUMNS) + "\n"


@pytest.mark.parametrize("line, message", [
    ("A1,1,7,precision,171,r1,zz,left,30\n", "unknown run 'zz'"),
    ("A1,1,7,precision,999,r1,r2,left,30\n", "unknown topic '999'"),
    ("A1,1,7,precision,171,r1,r2,maybe,30\n", "choice 'maybe'"),
    ("A1,1,7,precision,171,r1,r2,left,-3\n", ">= 0"),
    ("A1,1,7,precision,171,r1,r2,left,\n", "missing"),
    ("A1,1,7,precision,171,r1,r2,left,30\nA1,2,7,recall,171,r2,r1,right,9\n", "judged pair 7 twice"),
    ("A1,1,7,ndcg,171,r1,r2,left,30\n", "type 'ndcg'"),
])
def test_bad_preference_logs_name_file_and_line(tmp_path, line, message):
    path = tmp_path / "prefs.csv"
    path.write_text(HEADER + line)
    with pytest.raises(InputError, match=message) as info:
        preference_files.read_preferences(path, runs={"r1", "r2"}, topics={"171"})
    assert info.value.path == str(path) and info.value.line == len(line.splitlines()) + 1


def test_sample_pairs_finds_every_qualifying_partner_the_scalar_rules_find():
    """The vectorised rules select exactly the partners the scalar rules select (no cap)."""
    rng = np.random.default_rng(4)
    rows = [{"run": f"r{i:02d}", "topic": t, "length": int(rng.integers(5, 40)),
             "precision": round(rng.random(), 2), "recall": round(rng.random(), 2)}
            for t in "AB" for i in range(15)]
    t = pd.DataFrame(rows)
    pairs = sampling.sample_pairs(t, rng, base_runs=100, per_type=100)
    idx = t.set_index(["run", "topic"])
    rules = {"precision": sampling.precision_pair, "recall": sampling.recall_pair, "f1": sampling.f1_pair}
    got = {(p.type, p.topic, frozenset((p.run_a, p.run_b))) for p in pairs.itertuples()}
    expected = set()
    for topic, g in t.groupby("topic"):
        for a in g.run:
            for b in g.run:
                x, y = idx.loc[(a, topic)], idx.loc[(b, topic)]
                for kind, rule in rules.items():
                    if a != b and rule(x, y) and sampling.length_ok(x, y):
                        expected.add((kind, topic, frozenset((a, b))))
    assert got == expected and len(pairs) == len(got)     # each pair once per type


def test_a_scarce_type_is_spread_over_every_batch_and_a_pair_is_judged_once():
    # 40 recall pairs for 7 batches; pair 0 sits in the precision and the F1 pool (same runs)
    pairs = pd.DataFrame({"type": ["precision"] * 700 + ["recall"] * 40 + ["f1"] * 700, "topic": "1",
                          "run_a": [f"a{i}" for i in range(700)] + [f"r{i}" for i in range(40)]
                          + ["a0"] + [f"f{i}" for i in range(699)], "run_b": "b"})
    b = sampling.make_batches(pairs, {"A1": 2, "A2": 1, "A3": 2, "A4": 1, "A5": 1}, np.random.default_rng(1))
    per = b.groupby(["assessor", "batch"]).type.value_counts().unstack(fill_value=0)
    # all 40 recall pairs are used, ceil(40 / 7) = 6 of them among the shared pairs, >= 4 in every batch
    assert b[b.type == "recall"].pair_id.nunique() == 40 and (per.recall >= 4).all()
    assert (b[b.shared].type == "recall").sum() == 6 * 5
    assert (per.precision - per.f1).abs().max() <= 1                  # the others fill equally
    keys = b[~b.shared].apply(lambda r: frozenset((r.left_run, r.right_run)), axis=1)
    assert keys.is_unique


def test_anova_by_bin_equals_scipys_f_oneway_for_every_metric():
    rng = np.random.default_rng(2)
    per = pd.DataFrame({"metric": rng.choice(["m1", "m2"], 60), "bin": rng.choice(list("abcd"), 60),
                        "kappa": rng.normal(0.4, 0.2, 60)})
    per.loc[:3, "kappa"] = np.nan
    got = wang_up.anova_by_bin(per).set_index("metric")
    for m, g in per.dropna().groupby("metric"):
        groups = [x.kappa.to_numpy() for _, x in g.groupby("bin")]
        ref = sps.f_oneway(*groups)
        assert got.loc[m, "F"] == pytest.approx(ref.statistic) and got.loc[m, "p"] == pytest.approx(ref.pvalue)
        assert (got.loc[m, "df1"], got.loc[m, "df2"]) == (len(groups) - 1, len(g) - len(groups))


def test_time_bins_pool_the_slow_judgments_in_one_last_bin():
    bins = wang_up.time_bins(pd.Series([0.0, 29.9, 30.0, 299.9, 300.0, 571.2]))
    assert list(bins.astype(str)) == ["[0,30)", "[0,30)", "[30,60)", "[270,300)", "[300,572]", "[300,572]"]
    assert list(wang_up.time_bins(pd.Series([5.0, 65.0])).cat.categories)[-1] == "[270,300)"


def test_the_committed_log_is_study_0_of_its_seed(small_ttg):
    """simulate_preferences writes study 0 of its seed; the simulated studies redraw it exactly."""
    world, timelines, log = wang_up.load_study(small_ttg)
    draws = wang_up.anova_worlds(world, timelines, [0], 20, seed=5, committed_log=log)
    assert draws.committed is True
    other = wang_up.anova_worlds(world, timelines, [0], 20, seed=6, committed_log=log)
    assert other.committed is False
    assert sorted(draws.outcomes.study) == list(range(20))


@pytest.mark.parametrize("kappas, f, p", [([1, 1, 0.5, 0.5], np.inf, 0.0), ([1.0] * 4, np.nan, np.nan)])
def test_anova_by_bin_agrees_with_f_oneway_on_constant_bins(kappas, f, p):
    # no spread within bins: scipy gives F = inf, p = 0 when the bins differ and NaN when not
    got = wang_up.anova_by_bin(pd.DataFrame({"metric": "m", "bin": list("aabb"), "kappa": kappas})).iloc[0]
    np.testing.assert_equal([got.F, got.p], [f, p])
