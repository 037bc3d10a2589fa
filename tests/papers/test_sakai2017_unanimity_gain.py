"""The Sakai pipeline: conditions, Table 2/3 logic and parameter checks."""

import numpy as np
import pytest

from evalkit.errors import ParameterError
from evalkit.measures import gains, graded
from evalkit.papers import sakai2017_unanimity_gain as sakai
from evalkit.simulate import stc as sim_stc


@pytest.fixture(scope="module")
def collection(small_collection):
    return sakai.load_collection(small_collection)


def test_batch_scores_equal_per_run_functions(collection):
    cond = sakai.score_conditions(collection, [2, 4], [3], p=0.2, seed=5)
    # Recompute condition (dmax=4, N=3) independently through the public per-run API.
    rng = np.random.default_rng(np.random.SeedSequence([5, 0, 4, 3]))
    lists = collection.lists
    for t, grade in enumerate(collection.grades):
        r = sim_stc.simulate_ratings(grade, 3, 4, rng)
        ug = gains.unanimity_gain(r, 4, 0.2)
        for run in range(len(lists.runs)):
            idx = lists.index[run, t]
            g = np.where(idx >= 0, ug[idx], 0.0)
            want = graded.p_plus(g, ug) if ug.max() > 0 else np.nan
            got = cond.scores["P+"][1, 1, run, t]
            assert got == pytest.approx(want, nan_ok=True)


def test_p_zero_makes_ug_equal_rawg(collection):
    cond = sakai.score_conditions(collection, [2], [5, 10], p=0.0, seed=1)
    t2 = sakai.tau_table(cond, collection.lists.runs)
    assert (t2["tau"] == 1.0).all()
    best = sakai.best_runs(collection)
    pairs, counts = sakai.discrepancies(cond, collection, best, n_trials=300, seed=2)
    assert pairs.empty and (counts["discrepancies"] == 0).all()
    assert (counts["significant_RawG"] == counts["significant_UG"]).all()


def test_best_runs_one_per_team(collection):
    best = sakai.best_runs(collection)
    teams = collection.teams
    assert sorted(teams[best]) == sorted(set(teams))
    padded = collection.lists.pad([sakai.official_gains(g) for g in collection.grades])
    scores, _ = graded.score_runs(collection.lists, padded, ("nG@1",))
    mean = np.nanmean(scores["nG@1"], axis=-1)
    for b in best:
        assert mean[b] == mean[teams == teams[b]].max()


def test_best_runs_are_the_evaluate_rule_and_break_ties_by_name_whatever_the_run_order():
    import pandas as pd

    from evalkit.evaluate.comparison.hsd import best_per_team

    qrels, runs = sim_stc.stc_frames(11, n_topics=6)
    base = sakai.collection_from_frames(qrels, runs)
    best = sakai.best_runs(base)
    first = base.lists.runs[best[0]]                      # e.g. T01-R2, its team's best
    team = first.split("-")[0]
    # two exact copies of it: equal means, so the name that sorts first must win ("T01-A")
    twins = [runs[runs["run"] == first].assign(run=f"{team}-{tag}") for tag in ("Z", "A")]
    rng = np.random.default_rng(7)
    for _ in range(3):
        shuffled = pd.concat([runs, *twins]).sample(frac=1, random_state=rng)
        collection = sakai.collection_from_frames(qrels, shuffled)
        chosen = [collection.lists.runs[i] for i in sakai.best_runs(collection)]
        assert chosen == sorted({f"{team}-A"} | {base.lists.runs[i] for i in best[1:]})
        padded = collection.lists.pad([sakai.official_gains(g) for g in collection.grades])
        scores, _ = graded.score_runs(collection.lists, padded, ("nG@1",))
        means = pd.Series(np.nanmean(scores["nG@1"], axis=-1), index=list(collection.lists.runs))
        assert means[f"{team}-A"] == means[f"{team}-Z"] == means[first]       # a real tie
        assert chosen == best_per_team(means)


def test_ratings_stream_is_one_seed_sequence_per_condition():
    a = sakai.ratings_stream(5, 0, 4, 3).integers(0, 1000, 5)
    b = np.random.default_rng(np.random.SeedSequence([5, 0, 4, 3])).integers(0, 1000, 5)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, sakai.ratings_stream(5, 1, 4, 3).integers(0, 1000, 5))


def test_official_gains():
    np.testing.assert_array_equal(sakai.official_gains([0, 1, 2]), [0, 1, 3])


def test_discrepancy_counts_match_pairs(collection):
    cond = sakai.score_conditions(collection, [2, 8], [3, 5], p=0.5, seed=3)
    best = sakai.best_runs(collection)
    pairs, counts = sakai.discrepancies(cond, collection, best, n_trials=400, seed=4)
    per = pairs.groupby(["measure", "dmax", "N"]).size()
    for row in counts.itertuples():
        assert per.get((row.measure, row.dmax, row.N), 0) == row.discrepancies
    # each listed pair is significant under exactly one gain
    assert ((pairs.p_RawG < 0.05) != (pairs.p_UG < 0.05)).all()


@pytest.mark.parametrize(
    "params, name",
    [
        ({"p": 1.5}, "p"),
        ({"trials": 0}, "trials"),
        ({"n_grid": []}, "n_grid"),
        ({"dmax_grid": [2, 2]}, "dmax_grid"),
        ({"alpha": 0}, "alpha"),
        ({"replications": 0}, "replications"),
        ({"seed": -1}, "seed"),
        ({"data_dir": "/nonexistent"}, "data_dir"),
        ({"cutoff": 2.5}, "cutoff"),
    ],
)
def test_bad_parameters_are_named(params, name):
    with pytest.raises(ParameterError, match=f"parameter {name} = "):
        sakai.NOTEBOOK.check(**params)


def test_ratings_collection_keeps_every_real_rating_and_takes_dmax_from_the_data():
    from evalkit.formats.assessor_ratings import read_assessor_ratings
    from evalkit.paths import EXAMPLES

    path = EXAMPLES / "ratings.txt"
    collection, per_topic, dmax = sakai.ratings_collection(path, seed=1)
    long = read_assessor_ratings(path)
    assert dmax == long["rating"].max() == 3
    assert sum(int((~np.isnan(r)).sum()) for r in per_topic) == len(long)     # nothing dropped
    assert len(collection.lists.runs) == 44 and len(collection.lists.topics) == 8
    for r, g in zip(per_topic, collection.grades):
        np.testing.assert_array_equal(g, (np.nansum(r, axis=1) > 0).astype(int))
    cond = sakai.ratings_conditions(collection, per_topic, dmax, 0.2)
    assert cond.grid == ((3, 5),)


def test_data_dir_is_not_checked_when_real_ratings_replace_the_simulation(tmp_path):
    from evalkit.paths import EXAMPLES

    missing = str(tmp_path / "no-such-folder")
    sakai.NOTEBOOK.check(data_dir=missing, ratings_file=str(EXAMPLES / "ratings.txt"))
    with pytest.raises(ParameterError, match="data_dir"):
        sakai.NOTEBOOK.check(data_dir=missing, ratings_file="")
    with pytest.raises(ParameterError, match="ratings_file"):
        sakai.NOTEBOOK.check(ratings_file=missing)


def test_es_at_the_hsd_border_is_q_over_root_n():
    import pandas as pd

    pairs = pd.DataFrame({"ES_RawG": [0.48, 0.50], "ES_UG": [0.52, 0.59]})
    v = sakai.es_arithmetic(pairs, n_topics=100, n_systems=16).set_index("quantity")["value"]
    q = v.iloc[0]
    assert q == pytest.approx(4.85, abs=0.01)        # printed tables: q(0.05; 16, inf) = 4.85
    assert v["predicted ES at the border, q / sqrt(n)"] == pytest.approx(q / 10)
    assert v["reproduced ES of discrepant pairs, median"] == pytest.approx(0.51)
    assert len(v) == 7                  # no "topics needed" rows: Table 3's ES is another formula


def test_run_spread_worlds_differ_only_in_run_spread_and_report_the_border():
    from evalkit.stats import hsd
    from scipy.stats import studentized_range

    worlds = sakai.run_spread_worlds([0.25, 0.5], 1, [2], [5], 0.2, 2017)
    assert list(worlds["world"]) == ["default", "alternative"]
    assert list(worlds["collection_seed"]) == [2017, 2017]        # the same seed at every value
    assert (worlds["conditions"] == 3).all()                      # 3 measures x 1 condition
    # the default world is the committed collection: recompute its border |d| by hand
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        sim_stc.simulate_stc_collection(tmp, seed=2017)
        collection = sakai.load_collection(tmp)
    cond = sakai.score_conditions(collection, [2], [5], 0.2, 2017)
    raw = cond.scores["nG@1"][0, 0][:, cond.valid[0]][sakai.best_runs(collection)].T
    n, s_ = raw.shape
    border = studentized_range.ppf(0.95, s_, (s_ - 1) * (n - 1)) * np.sqrt(hsd.residual_variance(raw) / n)
    assert worlds.loc[0, "hsd_border_d"] == pytest.approx(border)
    assert worlds.loc[0, "hsd_border_d"] != pytest.approx(worlds.loc[1, "hsd_border_d"])


def test_a_collection_built_in_memory_equals_the_one_read_back_from_its_files(tmp_path):
    qrels, runs = sim_stc.stc_frames(11, n_topics=6)
    sim_stc.simulate_stc_collection(tmp_path, seed=11, n_topics=6)
    a, b = sakai.collection_from_frames(qrels, runs), sakai.load_collection(tmp_path)
    assert (a.lists.runs, a.lists.topics, a.lists.items) == (b.lists.runs, b.lists.topics, b.lists.items)
    np.testing.assert_array_equal(a.lists.index, b.lists.index)
    assert all(np.array_equal(x, y) for x, y in zip(a.grades, b.grades))


def test_the_table3_transcription_is_the_papers_own_numbers():
    """All 24 rows (48 printed (pair, gain) values) are found, as printed, in the paper's text."""
    import pandas as pd

    from evalkit import paths
    from evalkit.declare import quotes

    sakai_text = quotes.load("sakai2017")
    t3 = pd.read_csv(paths.ROOT / "data" / "published" / "sakai2017_table3.csv", dtype=str)
    assert len(t3) == 24 and t3.groupby(["measure", "dmax", "N"]).size().sum() == 24

    def printed(r, pair):
        return f"{pair} {r.p_RawG} {r.d_RawG} {r.ES_RawG} {r.p_UG} {r.d_UG} {r.ES_UG}"

    for r in t3.itertuples():
        # the paper prints one run as "Poly-U-C-R1" (its name is PolyU-C-R1 in every other row)
        assert any(quotes.missing(printed(r, pair), sakai_text) == []
                   for pair in (r.pair, r.pair.replace("PolyU", "Poly-U"))), r.pair
    # one digit changed is not found
    r = t3.iloc[0]
    assert quotes.missing(printed(r, r.pair).replace("1.808", "1.809"), sakai_text)
    # the paper's discrepancies per N: 16, 6, 2 (none at N = 40, 80)
    assert t3.groupby("N").size().to_dict() == {"5": 16, "10": 6, "20": 2}


def test_the_published_denominator_by_hand():
    from scipy.stats import studentized_range

    from evalkit.workspace import published

    f = sakai.es_published_denominator(published.load("sakai2017_table3"))
    assert list(f.columns) == list(sakai.DENOMINATOR_COLUMNS) == [
        "measure", "dmax", "assessors", "gain", "pair", "p_value", "d", "es", "implied_denominator",
        "implied_sd", "border", "d_over_border"]
    assert len(f) == 48
    q = studentized_range.ppf(0.95, 16, 15 * 99)                  # scipy, independently: 4.8536
    assert q == pytest.approx(4.8536, abs=1e-4)
    first = f.iloc[0]                                             # nG@1, Dmax 2, N 5, MSRSC vs Grad1
    assert (first.measure, first.dmax, first.assessors, first.gain) == ("nG@1", 2, 5, "RawG")
    assert (first.p_value, first.d, first.es) == (0.064, 0.1373, 1.808)
    assert first.implied_denominator == pytest.approx(0.1373 / 1.808)           # 0.07594
    assert first.implied_sd == pytest.approx(np.sqrt(0.1373 / 1.808))           # 0.2756
    assert first.border == pytest.approx(q * np.sqrt(0.1373 / 1.808 / 100))    # 0.1337
    assert first.d_over_border == pytest.approx(0.1373 / (q * np.sqrt(0.1373 / 1.808 / 100)))
    assert first.d_over_border == pytest.approx(1.0265, abs=1e-4)
    # the example: nG@1, Dmax 2, N 5, RawG gives 0.07594, 0.07596, 0.07592
    cond = f[(f.measure == "nG@1") & (f.dmax == 2) & (f.assessors == 5) & (f.gain == "RawG")]
    assert cond.implied_denominator.round(5).tolist() == [0.07594, 0.07596, 0.07592]
    # under the sd reading the border is q (|d|/ES) / 10, so |d| / border = 10 ES / q
    assert sakai.sd_reading_d_over_border(f).to_numpy() == pytest.approx(10 * f.es / q)
    # every printed pair sits just above the border as a variance, 3-5 borders away as an sd
    assert f.d_over_border.between(1.01, 1.16).all()
    assert sakai.sd_reading_d_over_border(f).between(3.3, 5.1).all()


def test_the_denominator_spread_within_conditions_against_the_printing_precision():
    import pandas as pd

    from evalkit.workspace import published

    f = sakai.es_published_denominator(published.load("sakai2017_table3"))
    sp = sakai.denominator_spread(f)
    assert len(sp) == 12 and sp.pairs.sum() == 28          # 12 conditions with 2-3 pairs; 20 alone
    assert sp.within_printing.sum() == 11
    off = sp[~sp.within_printing].iloc[0]
    assert (off.measure, off.dmax, off.assessors, off.gain) == ("nERR", 2, 5, "UG")
    # by hand: .1268/2.283 = 0.055541, .1280/2.375 = 0.053895; the intervals
    # [.12675/2.2835, .12685/2.2825] and [.12795/2.3755, .12805/2.3745] do not meet
    assert off.implied_denominator_max == pytest.approx(0.1268 / 2.283)
    assert off.implied_denominator_min == pytest.approx(0.1280 / 2.375)
    assert off.overlap == pytest.approx(0.12805 / 2.3745 - 0.12675 / 2.2835)     # -0.00158
    # a hand-made condition: two pairs one rounding step apart share a point, two far apart do not
    toy = pd.DataFrame({"measure": "m", "dmax": 2, "assessors": 5, "gain": "RawG",
                        "pair": ["a", "b", "c", "d"], "d": [0.1000, 0.1001, 0.1000, 0.1100],
                        "es": [2.000, 2.000, 2.000, 2.000]})
    toy["implied_denominator"] = toy.d / toy.es
    ok = sakai.denominator_spread(toy.iloc[:2])
    assert bool(ok.within_printing.iloc[0]) and ok.relative_spread.iloc[0] == pytest.approx(
        0.0001 / 2 / ((0.1 + 0.1001) / 4))
    assert not bool(sakai.denominator_spread(toy.iloc[2:]).within_printing.iloc[0])


def test_the_two_readings_side_by_side():
    import pandas as pd

    from evalkit.workspace import published

    f = sakai.es_published_denominator(published.load("sakai2017_table3"))
    pairs = pd.DataFrame({"replication": 0, "measure": ["nG@1", "P+"], "d_RawG": [0.15, 0.10],
                          "ES_RawG": [0.5, 0.6], "d_UG": [0.14, 0.11], "ES_UG": [0.5, 0.55]})
    r = sakai.es_readings(f, pairs).set_index(["quantity", "reading", "measure"])
    # the paper's pairs as sqrt(V_E) with V_E = |d|/ES: ES = sqrt(|d| ES); first 0.4982
    var_es = np.sqrt(f.d * f.es)
    assert r.loc[("paper ES as |d| / sqrt(V_E)", "variance", "all"), "median"] == pytest.approx(var_es.median())
    assert r.loc[("paper ES as |d| / sqrt(V_E)", "standard deviation", "all"), "min"] == 1.629
    # the workspace's pairs as Table 3 computes them: |d|/V_E = ES^2/|d|
    ng = r.loc[("workspace ES as Table 3 computes it", "variance", "nG@1")]
    assert (ng["min"], ng["max"]) == pytest.approx((0.5 ** 2 / 0.15, 0.5 ** 2 / 0.14))
    sd = r.loc[("workspace ES as Table 3 computes it", "standard deviation", "all")]
    assert (sd["values"], sd["median"]) == (4, pytest.approx(0.525))
    assert r.loc[("paper ES as printed", "(either)", "nERR"), "max"] == 2.375


def test_borderline_es_follows_q_over_root_n_on_topic_subsets():
    from scipy.stats import studentized_range

    from evalkit.stats import hsd

    collection = sakai.collection_from_frames(*sim_stc.stc_frames(2017), 10)
    cond = sakai.score_conditions(collection, [2], [5], 0.2, 2017)
    best = sakai.best_runs(collection)
    res = sakai.es_vs_topics(cond, best, 1000, 0.05, 2017, topic_counts=(7, 100), subsets=2)
    assert sorted(res.groupby("topics")["subset"].nunique().items()) == [(7, 2), (100, 1)]
    q7 = studentized_range.ppf(0.95, 16, 15 * 6) / np.sqrt(7)
    assert res.loc[res.topics == 7, "q_over_root_n"].iloc[0] == pytest.approx(q7)      # 1.884
    # the all-topics row by hand: HSD on the best runs' nG@1 (RawG), pairs with 0.02 <= p <= 0.10
    full = cond.scores["nG@1"][0, 0][best][:, cond.valid[0]].T
    table = hsd.randomised_tukey_hsd(full, 1000, 2017)
    near = table[table.p_value.between(0.02, 0.10)]
    row = res[(res.topics == 100) & (res.measure == "nG@1")].iloc[0]
    assert row.pairs_near_border == len(near) > 0
    assert row.es_median == pytest.approx(np.median(np.abs(near["diff"]) / np.sqrt(hsd.residual_variance(full))))
    summary = sakai.es_topics_summary(res)
    ratio = summary["es_median"] / summary["q_over_root_n"]
    assert ratio.between(0.8, 1.4).all()                          # ES ~ q/sqrt(n) at 7 and 100 topics


def test_ratings_frame_collection_needs_the_four_columns():
    import pandas as pd

    long = pd.DataFrame({"topic": ["t1"] * 4, "assessor": ["a", "b", "a", "b"],
                         "doc": ["d1", "d1", "d2", "d2"], "rating": [2, 1, 0, 0]})
    collection, per_topic, dmax = sakai.ratings_frame_collection(long, seed=1, n_teams=2, n_runs=3, k=2)
    assert dmax == 2 and collection.grades[0].tolist() == [1, 0]
    assert per_topic[0].tolist() == [[2.0, 1.0], [0.0, 0.0]]
    with pytest.raises(ParameterError, match="missing \\['assessor'\\]"):
        sakai.ratings_frame_collection(long.drop(columns="assessor"), seed=1)


def test_the_package_exports_every_public_name_of_its_modules():
    import importlib
    import types

    subs = ("collection", "conditions", "tables", "replications", "effect_sizes", "run_spread",
            "verdicts", "figures", "convergence")
    for sub in subs:
        module = importlib.import_module(f"{sakai.__name__}.{sub}")
        own = {n for n, v in vars(module).items() if not n.startswith("_")
               and not isinstance(v, types.ModuleType) and getattr(v, "__module__", None) == module.__name__}
        assert own <= set(module.__all__) <= set(sakai.__all__), sub
    assert len(sakai.__all__) == len(set(sakai.__all__))
    assert all(hasattr(sakai, name) for name in sakai.__all__)


def test_stc_lists_equal_the_lists_read_from_the_frames():
    for seed, kw in ((11, {"n_topics": 6}), (3, {"n_topics": 4, "run_spread": 0.75})):
        qrels, runs = sim_stc.stc_frames(seed, **kw)
        slow = sakai.collection_from_frames(qrels, runs, 10)
        fast = sakai.collection_from_lists(*sim_stc.stc_lists(seed, **kw))
        assert (fast.lists.runs, fast.lists.topics, fast.lists.items) == \
            (slow.lists.runs, slow.lists.topics, slow.lists.items)
        np.testing.assert_array_equal(fast.lists.index, slow.lists.index)
        assert all(np.array_equal(x, y) for x, y in zip(fast.grades, slow.grades))
        assert fast.qrels[["topic", "doc", "grade"]].values.tolist() == \
            slow.qrels.sort_values(["topic", "doc"])[["topic", "doc", "grade"]].values.tolist()


def test_run_spread_summary_by_hand():
    import pandas as pd

    # 3 seeds at the default 0.25 and at 0.5; counts of 45
    worlds = pd.DataFrame({"run_spread": [0.25] * 3 + [0.5] * 3,
                           "collection_seed": [1, 2, 3] * 2,
                           "upper_at_least_1": [42, 44, 45, 45, 45, 45], "conditions": 45})
    s = sakai.run_spread_summary(worlds).set_index("run_spread")
    # mean 131/3 = 43.667, sd = sqrt(((-5/3)^2 + (1/3)^2 + (4/3)^2) / 2) = sqrt(7/3) = 1.5275
    half = 4.302653 * np.sqrt(7 / 3) / np.sqrt(3)                 # t(0.975, 2) = 4.3027
    assert s.loc[0.25, "mean"] == pytest.approx(131 / 3)
    assert (s.loc[0.25, "low"], s.loc[0.25, "high"]) == pytest.approx((131 / 3 - half, 131 / 3 + half))
    assert s.loc[0.25, "all_conditions"] == 1 and s.loc[0.5, "all_conditions"] == 3
    # paired differences 3, 1, 0: mean 4/3, sd sqrt(7/3): the same half width
    assert s.loc[0.5, "diff_vs_default"] == pytest.approx(4 / 3)
    assert (s.loc[0.5, "diff_low"], s.loc[0.5, "diff_high"]) == pytest.approx((4 / 3 - half, 4 / 3 + half))
    assert s.loc[0.5, "diff_low"] < 0                              # inconclusive at 3 seeds


def _draws(r=20, big_from=12):
    """A hand-made replications frame: r draws, 2 conditions (N = 5, N = 40) of one measure."""
    import pandas as pd

    rows = []
    for rep in range(r):
        rows.append({"replication": rep, "measure": "nG@1", "dmax": 2, "N": 5, "tau": 0.98,
                     "low": 0.96, "high": 1.001 if rep < 3 else 0.999, "discrepancies": 2})
        rows.append({"replication": rep, "measure": "nG@1", "dmax": 2, "N": 40, "tau": 1.0,
                     "low": 0.99, "high": 1.01, "discrepancies": int(rep >= big_from)})
    reps = pd.DataFrame(rows)
    # per draw two discrepant pairs at N = 5; |d| medians 0.12 (draws 0-1, at the edge) else 0.107
    pairs = pd.DataFrame([{"replication": rep, "measure": "nG@1", "dmax": 2, "N": 5,
                           "pair": f"A vs B{j}", "p_RawG": 0.04, "d_RawG": d, "ES_RawG": 0.5,
                           "p_UG": 0.06, "d_UG": d, "ES_UG": 2.0 if rep < 17 else 0.5}
                          for rep in range(r) for j, d in enumerate((0.12, 0.12) if rep < 2
                                                                   else (0.100, 0.114))])
    return reps, pairs


def test_claims_are_judged_over_draws_at_the_range_they_state():
    reps, pairs = _draws()
    t1 = sakai.table1()
    from evalkit.workspace import published

    v = sakai.claims(t1, published.load("sakai2017_table1"), reps, pairs).set_index("claim")
    assert sakai.CLAIM_RANGES == {"d": (0.12, 0.17)}
    row = lambda start: v[v.index.str.startswith(start)].iloc[0]   # noqa: E731
    assert row("Table 1")[["kind", "draws", "verdict"]].tolist() == ["identity", "", "holds"]
    # upper limits: all >= 1 only in draws 0-2 (both conditions): 3 of 20
    assert row("Table 2: every upper")[["kind", "draws", "verdict"]].tolist() == \
        ["paper", "3 of 20", "does not hold"]
    assert row("Table 2: with N = 5")[["draws", "verdict"]].tolist() == ["20 of 20", "holds"]
    assert row("Table 3: discrepancies occur")[["draws", "verdict"]].tolist() == ["20 of 20", "holds"]
    # none at N = 40 and 80 in draws 0-11: 12 of 20, mixed (0.6)
    none = row("Table 3: no discrepancies at N = 40 and 80")
    assert none[["draws", "verdict"]].tolist() == ["12 of 20", "mixed"]
    assert "8 of 20 draws have discrepancies at N = 40 or 80 (N = 40 in 8 draws" in none.explanation
    # totals per N: 2 at N = 5, then 0 (draws 0-11) or 1 (draws 12-19) at N = 40: never a rise
    fall = row("Table 3: the discrepancies fall as N grows")
    assert fall[["kind", "draws", "verdict"]].tolist() == ["paper", "20 of 20", "holds"]
    assert "committed draw 2, 0" in fall.reproduced and "rises" not in fall.reproduced
    # Table 3's printed ES range, judged again (issue 45) under the variance reading ES = ES_sd^2/|d|:
    # draws 0-16 have UG's ES_sd 2.0, so ES 33-40 for half the values and the median out of 1.6-2.4;
    # draws 17-19 have 0.5 throughout: ES 0.25/0.100 = 2.5 and 0.25/0.114 = 2.19, median 2.35, within
    es = row("Table 3: discrepant pairs have ES_HSD of about 1.6-2.4")
    assert es[["id", "kind", "draws", "verdict"]].tolist() == [
        "es-hsd-range-variance-reading", "paper", "3 of 20", "does not hold"]
    assert "median ES = |d|/V_E over all draws nG@1" in es.reproduced
    # |d|: median 0.12 (on the edge, inclusive) in draws 0-1, 0.107 elsewhere: 2 of 20, calibration
    d = row("Table 3: discrepant nG@1 pairs have |d| of about 0.12-0.17")
    assert d[["kind", "draws", "verdict"]].tolist() == ["calibration", "2 of 20", "does not hold"]
    assert "0 of 4 values within" not in d.reproduced and "4 of 4 values within 0.12-0.17" in d.reproduced


def test_the_fall_with_n_fails_in_a_draw_whose_total_rises_and_quotes_the_paper():
    from evalkit.workspace import published

    reps, pairs = _draws(big_from=15)
    reps.loc[(reps.replication >= 15) & (reps.N == 40), "discrepancies"] = 3    # 2 at N 5, 3 at N 40
    counts = sakai.count_published_pairs(published.load("sakai2017_table3"))
    v = sakai.claims(sakai.table1(), published.load("sakai2017_table1"), reps, pairs,
                     published_counts=counts)
    fall = v[v.claim.str.startswith("Table 3: the discrepancies fall")].iloc[0]
    assert (fall.draws, fall.verdict) == ("15 of 20 (one draw from holds)", "mixed")
    assert "the paper 16, 0" in fall.reproduced                   # N = 5 and N = 40 of Table 3
    assert "a total rises in draw 15 (2, 3)" in fall.reproduced
    assert fall.quote == sakai.QUOTES["reduce"][1] and fall.section == "§4"
    # one N (a ratings file: its own N) has no trend to judge: no row
    v = sakai.claims(sakai.table1(), published.load("sakai2017_table1"), reps[reps.N == 5], pairs)
    assert not v.claim.str.startswith("Table 3: the discrepancies fall").any()


def test_claims_on_fewer_than_twenty_draws_say_they_judge_the_committed_draw():
    reps, pairs = _draws(r=2, big_from=1)
    from evalkit.workspace import published

    v = sakai.claims(sakai.table1(), published.load("sakai2017_table1"), reps, pairs)
    none = v[v.claim.str.startswith("Table 3: no discrepancies")].iloc[0]
    assert none.draws == "" and none.verdict == "holds"             # draw 0 has none
    assert "only 2 draws: judged on the committed draw" in none.reproduced


def test_the_headline_findings_in_the_docs_match_the_committed_outputs():
    """Every number docs/findings.md states about Sakai is recomputed from figures/sakai2017/."""
    import re

    import pandas as pd

    from evalkit import paths

    text = " ".join((paths.ROOT / "docs" / "findings.md").read_text().split())
    head = text[text.index("## Headline findings (Sakai 2017"):text.index("## Headline findings (Wang")]
    fig = paths.ROOT / "figures" / "sakai2017"
    reps = pd.read_csv(fig / "replications.csv")
    r = reps.replication.nunique()
    assert f"judged over {r} worlds, each redrawing the simulated collection" in head
    assert reps.groupby("replication").collection_seed.first().nunique() == r   # r collections
    few = reps[reps.N <= 10].groupby("replication").apply(lambda g: (g.tau < 1).all(),
                                                          include_groups=False)
    assert f"in {int(few.sum())} of {r} worlds tau < 1 in every condition with N = 5 or 10" in head
    per = reps.groupby("replication")["high"].apply(lambda h: int((h >= 1).sum()))
    total = reps[reps.replication == 0].shape[0]
    assert (f"all {total} conditions reach 1 in only {int((per == total).sum())} of {r} worlds "
            f"(median {per.median():.0f} per world, range {per.min()}–{per.max()})") in head
    assert (reps[reps.N == 5].groupby("replication").discrepancies.sum() > 0).all()
    big = reps[reps.N.isin([40, 80])].groupby("replication").discrepancies.sum()
    at80 = reps[reps.N == 80].discrepancies.sum()
    assert at80 == 0 and (f"over {r} worlds, {int((big == 0).sum())} have none and "
                          f"{int((big > 0).sum())} have some, all at N = 40 (up to {big.max()} "
                          "in one world), so that claim is mixed") in head
    s = pd.read_csv(fig / "run_spread_summary.csv").set_index("run_spread").loc[0.75]
    assert (f"on the first {int(s.worlds)} worlds' collections: {s.diff_vs_default:+.1f} "
            f"conditions, 95% interval {s.diff_low:+.1f} to {s.diff_high:+.1f}, at run_spread "
            "0.75") in head
    assert f"only {int(s.all_conditions)} of {int(s.worlds)} collections reach all {total}" in head
    conv = pd.read_csv(fig / "ug_to_rawg.csv")
    claims = pd.read_csv(fig / "claims.csv", keep_default_na=False)
    ident = claims[claims.kind == "identity"]
    assert len(ident) == 3 and (ident.verdict == "holds").all() and "ug_to_rawg.md" in head
    assert conv.groupby("dmax").P_D_eq_Dmax.apply(lambda x: x.is_monotonic_increasing).all()
    pairs = pd.read_csv(fig / "replication_pairs.csv")
    med = {m: pd.concat([g.d_RawG, g.d_UG]).median() for m, g in pairs.groupby("measure")}
    assert [m for m, x in med.items() if 0.12 <= x <= 0.17] == ["nG@1"]
    assert med["P+"] < 0.12 and med["nERR"] < 0.12 and "tuned to, on nG@1 alone" in head
    assert f"sit lower (medians {med['P+']:.3f} and {med['nERR']:.3f}" in head
    agree = claims.set_index("id").loc["agreeing-ratings-larger-impact"]
    assert (agree.kind, agree.draws, agree.verdict) == ("paper", "6 of 20", "mixed")
    assert agree.sensitivity == "flips: does not hold at 0.25, mixed at 0.5, does not hold at 0.75"
    assert ("tau is lower for every measure in only 6 of 20 worlds (mixed; 2 of 20 at a = 0.25 and 4 of "
            "20 at a = 0.75)") in head and "lower in 37 and higher in 21 of the 60" in head
    assert "lower in 37, equal in 2 and higher in 21 of 60" in agree.explanation
    cal = claims.set_index("id").loc["discrepant-d-calibration"]
    assert cal.draws.startswith("20 of 20") and "met in 20 of 20 worlds (median 0.147" in head
    untuned = claims.set_index("id").loc["discrepant-d-untuned-measures"]
    assert untuned.draws.startswith("0 of 20") and "within the range in 0 of 20 worlds" in head
    sd = {m: (g.d_RawG / g.ES_RawG).median() for m, g in pairs.groupby("measure")}
    assert sd["nG@1"] > max(sd["P+"], sd["nERR"])                   # "smaller residual spread"
    assert not re.search(r"vanish", head)
    from evalkit.declare.claims import SIMULATED_NOTE, tally_text
    assert f"The paper's claims: {tally_text(claims.to_dict('records'))}." in head
    assert f"Beyond the paper: {tally_text(claims.to_dict('records'), 'beyond')}." in head
    assert SIMULATED_NOTE in head
    assert "cannot come from" not in head
    es_row = claims.set_index("id").loc["es-hsd-range-variance-reading"]
    assert (es_row.kind, es_row.draws, es_row.verdict) == ("paper", "0 of 20", "does not hold")
    assert ("\"about 1.6–2.4\", tested under that reading, holds for nG@1 alone and so does not hold "
            "(0 of 20 worlds)") in head
    # the fall with N, from the draws and the paper's Table 3
    per = reps.groupby(["replication", "N"]).discrepancies.sum().unstack("N")
    falls = int((per.diff(axis=1).iloc[:, 1:] <= 0).all(axis=1).sum())
    fall_row = claims[claims.claim.str.startswith("Table 3: the discrepancies fall")].iloc[0]
    assert fall_row.draws.startswith(f"{falls} of {r}")
    first = ", ".join(str(int(x)) for x in per.iloc[0])
    assert (f"never rises from one N to the next in {falls} of {r} worlds (committed world "
            f"{first}; the paper 16, 6, 2, 0, 0)") in head
    # how Table 3 computes ES, from es_published_denominator.csv and es_readings.csv
    es = pd.read_csv(fig / "es_published_denominator.csv")
    spread = pd.read_csv(fig / "es_denominator_spread.csv")
    assert (f"in {int(spread.within_printing.sum())} of {len(spread)} conditions with two or more "
            "printed pairs") in head
    sd_ratio = es.d_over_border / es.implied_sd
    assert (f"|d|/border is {es.d_over_border.min():.2f}–{es.d_over_border.max():.2f} for all "
            f"{len(es)} printed values, against {sd_ratio.min():.2f}–{sd_ratio.max():.2f}") in head
    text_es = np.sqrt(es.d * es.es)
    assert f"the paper's pairs have ES {text_es.min():.2f}–{text_es.max():.2f}" in head
    rd = pd.read_csv(fig / "es_readings.csv").set_index(["quantity", "reading", "measure"])["median"]
    ws = "workspace ES as Table 3 computes it"
    assert f"the workspace's {rd[(ws, 'standard deviation', 'all')]:.2f} (median" in head
    assert (f"ES {rd[(ws, 'variance', 'nG@1')]:.2f} (nG@1), {rd[(ws, 'variance', 'P+')]:.2f} (P+) "
            f"and {rd[(ws, 'variance', 'nERR')]:.2f} (nERR)") in head
    printed = {m: f"{g.es.min():.3f}–{g.es.max():.3f}" for m, g in es.groupby("measure")}
    assert (f"against the paper's {printed['nG@1']}, {printed['P+']} and {printed['nERR']}") in head


def test_the_run_spread_explanation_says_clear_or_inconclusive_from_the_intervals():
    import pandas as pd

    from evalkit.workspace import published

    def text(wide):
        worlds = pd.DataFrame({"run_spread": [0.25] * 3 + [0.75] * 3, "collection_seed": [1, 2, 3] * 2,
                               "upper_at_least_1": [42, 43, 44] + wide, "conditions": 45,
                               "hsd_border_d": [0.14, 0.14, 0.14, 0.13, 0.118, 0.13]})
        reps, pairs = _draws()
        v = sakai.claims(sakai.table1(), published.load("sakai2017_table1"), reps, pairs,
                         worlds=worlds, world_summary=sakai.run_spread_summary(worlds))
        return v[v.claim.str.startswith("Table 2: every upper")].iloc[0].explanation

    # differences 3, 2, 1: mean 2, sd 1, t(0.975, 2) = 4.303: 2 +- 2.48 includes 0
    assert "It is inconclusive at 0.75 (+2.0 [-0.5, +4.5]): the interval includes 0" in text([45, 45, 45])
    assert "No spread tried raises the count clearly" in text([45, 45, 45])
    # differences 2, 2, 1: mean 5/3, sd 0.577: 5/3 +- 1.43 excludes 0
    clear = text([44, 45, 45])
    assert "stands clear of the seed-to-seed spread at run_spread 0.75 (+1.7 [+0.2, +3.1])" in clear
    assert "only run_spread" not in clear and "no spread tried reaches all 45" in clear
    assert "missed at run_spread 0.75 in 1 of 3 collections" in clear


def test_the_stated_ranges_are_the_papers_rows_rounded():
    from evalkit.workspace import published

    t3 = published.load("sakai2017_table3")
    d = t3[["d_RawG", "d_UG"]].to_numpy().ravel()
    es = t3[["ES_RawG", "ES_UG"]].to_numpy().ravel()
    assert (d.min(), d.max()) == pytest.approx((0.1146, 0.1666))
    assert (es.min(), es.max()) == pytest.approx((1.629, 2.447))
    assert sakai.CLAIM_RANGES == {"d": (0.12, 0.17)}   # "about", as stated
    # the paper states no range: the claim's range is a workspace reading, judged again over
    # a range whose middle reading is Table 3's own span
    assert sakai.SENSITIVITY_RANGES["d"][1] == pytest.approx((d.min(), d.max()))
    import pandas as pd

    from evalkit import paths
    claims = pd.read_csv(paths.ROOT / "figures" / "sakai2017" / "claims.csv", keep_default_na=False)
    row = claims[claims.claim.str.startswith("Table 3: discrepant nG@1 pairs have |d|")].iloc[0]
    assert row.source == "workspace" and "workspace reading" in row.threshold
    assert row.sensitivity.startswith(("does not hold over", "holds over", "mixed over", "flips:"))


def test_the_es_reading_row_is_a_finding_beyond_the_paper_decided_by_its_own_numbers():
    import pandas as pd

    from evalkit import paths
    from evalkit.workspace import published

    f = sakai.es_published_denominator(published.load("sakai2017_table3"))
    reps, pairs = _draws()
    v = sakai.claims(sakai.table1(), published.load("sakai2017_table1"), reps, pairs, es_published=f)
    row = v.set_index("id").loc["es-denominator-variance"]
    assert row.claim.startswith("Table 3's printed ES_HSD are consistent with |d| divided by the residual variance")
    assert (row.kind, row.verdict, row.draws, row.source) == ("beyond", "holds", "", "workspace")
    assert row.quote == sakai.QUOTES["es"][1]                   # what the text says it divides by
    assert "in 11 of 12 conditions" in row.reproduced and "nERR, Dmax 2, N 5, UG" in row.reproduced
    assert "1.09 (1.02-1.15) over all 48 printed values" in row.reproduced
    # the range runs below the largest |d|/border, 1.153: the verdict flips there (issue 45)
    assert row.sensitivity == "flips: does not hold at 1.05-1.15, holds at 1.2-1.33"
    assert ("every printed |d| lies 2%-15% above the variance reading's border, including the 24 printed "
            "values with p >= 0.05 (2%-12% above)") in row.reproduced
    assert sakai.BORDER_TOLERANCE["f"] in sakai.BORDER_TOLERANCE["sensitivity"]
    # the row's rule by hand: every |d|/border within 1/f..f as a variance, none as an sd
    f_ = sakai.BORDER_TOLERANCE["f"]
    assert f.d_over_border.between(1 / f_, f_).all()
    assert not sakai.sd_reading_d_over_border(f).between(1 / f_, f_).any()
    # had Table 3 printed |d|/sqrt(V_E) (ES = sqrt(|d| ES_printed)), the sd reading would fit: fails
    t3 = published.load("sakai2017_table3")
    fake = sakai.es_published_denominator(t3.assign(ES_RawG=np.sqrt(t3.d_RawG * t3.ES_RawG),
                                                    ES_UG=np.sqrt(t3.d_UG * t3.ES_UG)))
    bad = sakai.claims(sakai.table1(), published.load("sakai2017_table1"), reps, pairs,
                       es_published=fake)
    assert bad.set_index("id").loc["es-denominator-variance"].verdict == "does not hold"
    # the committed claims table carries it, and no failed ES claim
    committed = pd.read_csv(paths.ROOT / "figures" / "sakai2017" / "claims.csv", keep_default_na=False)
    es_rows = committed[committed.claim.str.contains("ES_HSD")]
    assert es_rows.id.tolist() == ["es-hsd-range-variance-reading", "es-denominator-variance"]
    assert es_rows.kind.tolist() == ["paper", "beyond"]
    assert es_rows.verdict.tolist() == ["does not hold", "holds"]


def test_agreement_worlds_at_zero_are_the_replications_own_worlds():
    """a = 0 is Sakai's uniform draw rating for rating (the same world, the same stream): its taus
    are the replications' for that condition; a = 0.5 changes them."""
    import pandas as pd

    from evalkit import paths

    collection = sakai.load_collection(paths.ROOT / "data" / "raw" / "stc", k=10)
    ag = sakai.agreement_worlds(collection, 2, 2, 5, agreements=(0.0, 0.5), seed=2017, k=10)
    reps = pd.read_csv(paths.FIGURES / "sakai2017" / "replications.csv")
    mine = reps[(reps.dmax == 2) & (reps.N == 5) & (reps.replication < 2)].set_index(["replication", "measure"])
    zero = ag[ag.agreement == 0].set_index(["replication", "measure"]).tau
    assert np.allclose(zero, mine.tau.reindex(zero.index), atol=5e-5)       # the CSV keeps 4 decimals
    assert len(ag) == 2 * 2 * 3 and not np.allclose(ag[ag.agreement == 0.5].tau.to_numpy(), zero.to_numpy())


def test_every_figure_passes_the_figure_checker():
    import matplotlib
    import pandas as pd

    matplotlib.use("Agg")
    from evalkit import figure_check, paths
    from evalkit.workspace import published

    fig = paths.ROOT / "figures" / "sakai2017"
    t3 = published.load("sakai2017_table3")
    es_rows = sakai.es_published_denominator(t3)
    figures = {
        "tau_grid": sakai.tau_grid(pd.read_csv(fig / "table2.csv"), published.load("sakai2017_table2")),
        "replications": sakai.replication_distributions(pd.read_csv(fig / "replications.csv"),
                                                        published.load("sakai2017_table2"),
                                                        sakai.count_published_pairs(t3)),
        "es": sakai.es_figure(pd.read_csv(fig / "es_denominator.csv"), es_rows),
        "es_reading": sakai.es_reading_figure(es_rows, sakai.denominator_spread(es_rows)),
        "run_spread": sakai.run_spread_figure(pd.read_csv(fig / "run_spread_worlds.csv")),
    }
    for name, f in figures.items():
        assert figure_check.problems(f) == [], name


def test_p_full_spread_and_relative_excess_by_hand_and_by_enumeration():
    # Dmax = 2, N = 5: P(D = 2) = 1 - 2 (2/3)^5 + (1/3)^5 = (243 - 64 + 1) / 243 = 180/243
    assert sakai.p_full_spread(5, 2) == pytest.approx(180 / 243)
    # S = (1/3)^5 + (2/3)^5 = 33/243; excess = 2 p (2 S - 2/3^5) / 2 = 0.2 * 64/243 = 0.05267
    assert sakai.relative_excess(5, 2, 0.2) == pytest.approx(0.2 * 64 / 243)
    # enumeration of all 3^5 rating vectors, each equally likely
    every = np.array(np.meshgrid(*[np.arange(3)] * 5, indexing="ij")).reshape(5, -1).T
    d = gains.rating_spread(every)
    raw, ug = gains.raw_gain(every), gains.unanimity_gain(every, 2, 0.2)
    assert (d == 2).mean() == pytest.approx(180 / 243)
    assert (ug - raw).mean() / raw.mean() == pytest.approx(0.2 * 64 / 243)
    for dmax in (2, 4, 8):                                  # rises to 1, falls to 0 with N
        ps = [sakai.p_full_spread(n, dmax) for n in (5, 10, 20, 40, 80)]
        ex = [sakai.relative_excess(n, dmax, 0.2) for n in (5, 10, 20, 40, 80)]
        assert np.all(np.diff(ps) > 0) and ps[-1] > 0.999 and np.all(np.diff(ex) < 0)


def test_ug_to_rawg_counts_the_committed_draws_ratings(collection):
    conv = sakai.ug_to_rawg(collection, [2], [5], 0.2, 2017).iloc[0]
    grades = np.concatenate(collection.grades)
    r = sim_stc.simulate_ratings(grades, 5, 2, sakai.ratings_stream(2017, 0, 2, 5))[grades > 0]
    assert conv.count_D_eq_Dmax == int((gains.rating_spread(r) == 2).sum())
    assert conv.P_D_eq_Dmax == pytest.approx(180 / 243)
    raw, ug = gains.raw_gain(r), gains.unanimity_gain(r, 2, 0.2)
    assert conv.excess == pytest.approx((ug - raw).sum() / raw.sum())


def test_each_draw_redraws_the_collection_and_draw_0_is_the_committed_one(collection):
    reps, _ = sakai.replicate(collection, [2], [5], 2, 0.2, 100, 0.05, 2017, progress=False, k=10)
    seeds = reps.groupby("replication")["collection_seed"].first()
    assert seeds[0] == sakai.DATA_SEED and seeds[1] == sakai.collection_seed(2017, 1) != seeds[0]
    # draw 1 by hand: its own collection, the ratings of replication 1
    other = sakai.collection_from_lists(*sim_stc.stc_lists(seeds[1], depth=10))
    cond = sakai.score_conditions(other, [2], [5], 0.2, 2017, 1)
    t2 = sakai.tau_table(cond, other.lists.runs)
    got = reps[reps.replication == 1].reset_index(drop=True)
    np.testing.assert_allclose(got["tau"], t2["tau"])
    assert got["hsd_border_d"].iloc[0] == pytest.approx(
        sakai.hsd_border_d(cond, sakai.best_runs(other)))
    # with the collection fixed only the ratings change
    fixed, _ = sakai.replicate(collection, [2], [5], 2, 0.2, 100, 0.05, 2017, progress=False,
                               redraw_collection=False)
    assert (fixed["collection_seed"] == sakai.DATA_SEED).all()
    assert "collection" in sakai.WHAT_VARIES[True] and "collection" not in \
        sakai.WHAT_VARIES[False].split(" on ")[0]


def test_run_spread_worlds_read_the_default_spread_from_the_draws():
    import pandas as pd

    reps = pd.DataFrame({"replication": [0, 0, 1, 1], "high": [1.01, 0.99, 1.0, 1.02],
                         "tau": [0.98, 0.97, 0.99, 0.96], "hsd_border_d": [0.14, 0.14, 0.15, 0.15]})
    w = sakai.run_spread_worlds([0.25], 2, [2], [5], 0.2, 2017, reps=reps)
    fresh = sakai.run_spread_worlds([0.25], 1, [2], [5], 0.2, 2017)
    # draw 0 is recomputed from its seed (the notebook's may be read from files), draw 1 read
    assert w.iloc[0].tolist() == fresh.iloc[0].tolist()
    assert w["upper_at_least_1"].iloc[1] == 2 and w["hsd_border_d"].iloc[1] == 0.15
    assert w["collection_seed"].tolist() == [sakai.DATA_SEED, sakai.collection_seed(2017, 1)]
    assert w["tau_mean"].iloc[1] == pytest.approx(0.975)


def test_every_quote_is_the_papers_and_the_paper_rows_carry_it():
    from evalkit.declare import quotes
    from evalkit.workspace import published

    prints = quotes.load("sakai2017")
    for key, (section, quote) in sakai.QUOTES.items():
        assert section.startswith("§") and quotes.missing(quote, prints) == [], key
    reps, pairs = _draws()
    v = sakai.claims(sakai.table1(), published.load("sakai2017_table1"), reps, pairs)
    paper = v[v.kind == "paper"]
    assert len(paper) == 7 and (paper.quote != "").all() and (paper.varies != "").all()
    assert set(paper.quote) <= {q for _, q in sakai.QUOTES.values()}
    top = v[v.claim.str.startswith("The largest UG")].iloc[0]
    assert (top.kind, top.verdict) == ("identity", "holds") and "max UG 18" in top.reproduced
