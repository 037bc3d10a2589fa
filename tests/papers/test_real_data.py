"""Facts of the real data sets that the real-data notebook relies on."""

import numpy as np
import pytest
import pandas as pd

from evalkit.formats import trec
from evalkit.measures import gains
from evalkit.papers import real_data
from evalkit import data


def test_trec2014_descriptive_facts(external):
    qrels = trec.read_qrels(data.path_of("trec2014-qrels", external))
    facts = real_data.trec2014_facts(qrels).set_index("fact")
    assert facts.loc["topics", "computed"] == 55
    assert facts.loc["judgments", "computed"] == 57985
    assert (qrels.grade > 0).sum() == 10645
    assert facts.loc["relevant_per_topic", "computed"] == 193.5          # 10645 / 55
    # who states what: 55 topics and 194 per topic are Wang et al.'s (193.5 rounded), the
    # judgments the qrels' own count
    assert facts.loc["relevant_per_topic", "published"] == 194
    assert "Wang et al. §4.1" in facts.loc["relevant_per_topic", "stated_by"]
    assert "193.5" in facts.loc["relevant_per_topic", "stated_by"]
    assert "not in the paper" in facts.loc["judgments", "stated_by"]
    assert qrels.grade.value_counts().to_dict() == {0: 47340, 2: 5892, 1: 4753}
    topics = trec.read_topics(data.path_of("trec2014-topics", external))
    assert len(topics) == 55 and topics.set_index("topic").loc["179", "query"] == "care of Iditarod dogs"


def test_stc_ja_spread_matches_the_data_description(external):
    items, ratings = real_data.load_stc(data.path_of("stc-ja-test", external))
    assert ratings.shape == (18543, 10) and items.post.nunique() == 204
    spread = real_data.stc_spread(ratings, 2, seed=0).set_index("D")["real_items"]
    assert spread.to_dict() == {0: 60, 1: 6893, 2: 6491}


def test_stc_ja_dev_missing_ratings(external):
    _, dev = real_data.load_stc(data.path_of("stc-ja-dev", external))
    assert dev.shape == (1959, 10) and np.isnan(dev).any()
    n_i = (~np.isnan(dev)).sum(1)
    ug = gains.unanimity_gain(dev, 2, 0.2)
    raw = gains.raw_gain(dev)
    d = gains.rating_spread(dev)
    np.testing.assert_allclose(ug, np.where(raw > 0, raw + 0.2 * n_i * (2 - d), 0))


def _small_pool(seed=0, posts=6, replies=12, assessors=10):
    rng = np.random.default_rng(seed)
    items = pd.DataFrame([(f"p{i}", f"p{i}-r{j}") for i in range(posts) for j in range(replies)],
                         columns=["post", "reply"])
    latent = rng.integers(0, 3, len(items))[:, None]
    ratings = np.clip(latent + rng.integers(-1, 2, (len(items), assessors)), 0, 2).astype(float)
    return items, ratings


def test_all_ten_assessors_reproduce_the_real_ratings_row():
    items, ratings = _small_pool()
    collection, per_topic = real_data.stc_collection(items, ratings, seed=3, n_teams=3, n_runs=6)
    real = real_data.stc_experiment(collection, per_topic, 0.2, 200, 0.05, 3, 0, progress=False)
    by_n = real_data.assessor_subsets(collection, per_topic, 0.2, 200, 0.05, 3, subsets=3,
                                      n_grid=(2, 10), progress=False)
    assert (by_n.groupby("N")["subset"].nunique().to_dict()) == {2: 3, 10: 1}
    full = by_n[by_n["N"] == 10].set_index("measure")
    pd.testing.assert_series_equal(full["tau"], real.set_index("measure")["tau"].rename("tau"),
                                   check_names=False)
    pd.testing.assert_series_equal(full["discrepancies"], real.set_index("measure")["discrepancies"],
                                   check_names=False)


def test_subsets_keep_n_of_each_items_own_ratings(monkeypatch):
    items, ratings = _small_pool(assessors=4)
    ratings[:, :] = np.arange(4)[None, :] % 3          # assessor j always rates j mod 3
    collection, per_topic = real_data.stc_collection(items, ratings, seed=1, n_teams=2, n_runs=4)
    seen = []
    monkeypatch.setattr(gains, "raw_gain", lambda r: seen.append(r.copy()) or r.sum(axis=1))
    real_data.assessor_subsets(collection, per_topic, 0.2, 50, 0.05, 1, subsets=2, n_grid=(2,),
                               progress=False)
    assert seen and all(m.shape[1] == 2 for m in seen)
    for m in seen:       # two distinct assessors per item: never the same column twice
        assert all(sorted(row) in ([0, 1], [0, 2], [1, 2], [0, 0]) for row in m.tolist())


def test_agreement_knob_is_unanimous_at_tiny_noise_and_scattered_at_large_noise():
    items, ratings = _small_pool(seed=4)
    collection, per_topic = real_data.stc_collection(items, ratings, seed=3, n_teams=3, n_runs=6)
    worlds = real_data.agreement_worlds(collection, per_topic, 0.2, 100, 0.05, 3, noises=(1e-9, 50.0))
    assert len(worlds) == 3 * 2 and set(worlds["measure"]) == {"nG@1", "P+", "nERR"}
    share = worlds.groupby("sigma")["share_D_below_dmax"].first()
    assert share[1e-9] == 1.0                      # ten identical ratings: D = 0 < Dmax
    assert share[50.0] < 0.05                      # clipped to 0 or 2: D = Dmax almost always


def test_uniform_share_below_dmax_equals_enumeration():
    import itertools

    for n in (1, 2, 3, 4):
        outcomes = list(itertools.product(range(3), repeat=n))
        below = sum(max(o) - min(o) < 2 for o in outcomes) / len(outcomes)
        assert real_data.uniform_share_below_dmax(n) == pytest.approx(below)
    assert real_data.uniform_share_below_dmax(2) == pytest.approx(7 / 9)


def test_control_worlds_fix_rawg_and_keep_real_agreement_when_shuffled():
    items, ratings = _small_pool(seed=5)
    collection, per_topic = real_data.stc_collection(items, ratings, seed=3, n_teams=3, n_runs=6)
    worlds = real_data.control_worlds(collection, per_topic, 0.2, 200, 0.05, 3, draws=2,
                                      shares=(0.0, 1.0), progress=False)
    real = real_data.stc_experiment(collection, per_topic, 0.2, 200, 0.05, 3, 0, progress=False)
    assert len(worlds) == (2 * 2 + 2) * 3
    fixed = worlds[worlds["world"] == "fixed RawG"]
    # RawG is the real one in every fixed world: the same RawG-significant pairs as the real ratings
    sig = real.set_index("measure")["significant_RawG"]
    assert (fixed["significant_RawG"].to_numpy() == sig.loc[fixed["measure"]].to_numpy()).all()
    flat = np.concatenate(per_topic)
    raw = flat.sum(axis=1)
    rel = raw > 0
    share = fixed.groupby("disagree_share")["share_D_below_dmax"].agg(["min", "max"])
    assert share.loc[0.0].tolist() == [1.0, 1.0]                      # all unanimous: D <= 1
    cannot = ((raw[rel] < 2) | (raw[rel] > 18)).mean()                 # where D = 2 is impossible
    assert share.loc[1.0].tolist() == [pytest.approx(cannot)] * 2
    real_share = (gains.rating_spread(flat[rel]) < 2).mean()
    shuffled = worlds[worlds["world"] == "shuffled"]
    assert np.allclose(shuffled["share_D_below_dmax"], real_share)      # agreement exactly the real one


def test_stc_ja_unanimity_falls_slowly_with_n_for_real_raters(external):
    items, ratings = real_data.load_stc(data.path_of("stc-ja-test", external))
    collection, per_topic = real_data.stc_collection(items, ratings, seed=2017)
    by_n = real_data.assessor_subsets(collection, per_topic, 0.2, 100, 0.05, 2017, subsets=1,
                                      n_grid=(2, 10), progress=False)
    share = by_n.groupby("N")["share_D_below_dmax"].first()
    # N = 10 is every rating: D < 2 for 60 + 6,893 of the 13,444 relevant items (data README)
    assert share[10] == pytest.approx((60 + 6893) / 13444)
    assert share[2] > real_data.uniform_share_below_dmax(2)          # 0.778 for independent raters


def _by_n(slopes, ns=(2, 3, 5, 7), full_tau=0.97):
    """Subset results with tau = 0.99 + b_s N exactly, plus the N = 10 set."""
    rows = [{"measure": "nG@1", "N": n, "subset": s, "tau": 0.99 + b * n, "discrepancies": 0,
             "share_D_below_dmax": 0.9 - 0.04 * n} for s, b in enumerate(slopes) for n in ns]
    rows.append({"measure": "nG@1", "N": 10, "subset": 0, "tau": full_tau, "discrepancies": 0,
                 "share_D_below_dmax": 0.5})
    return pd.DataFrame(rows)


def test_tau_trend_fits_over_the_subsets_and_counts_rising_replicates():
    slopes = [-0.002] * 15 + [0.001] * 5
    trend = real_data.tau_trend(_by_n(slopes)).iloc[0]
    # equal intercepts and the same N in every replicate: the pooled slope is the mean slope
    assert trend.slope == pytest.approx((15 * -0.002 + 5 * 0.001) / 20)
    assert (trend.rising, trend.replicates, trend.subsets_fitted) == (5, 20, 80)
    assert trend.slope_low < trend.slope < trend.slope_high < 0
    assert trend.tau_low_N == pytest.approx(0.99 + 2 * trend.slope)
    assert trend.tau_full == 0.97                             # N = 10 reported, not fitted
    text = real_data.trend_sentence(real_data.tau_trend(_by_n(slopes)))
    assert text.startswith("nG@1 tau falls with N") and "rising in 5 of 20 replicates" in text
    assert "one set, not a draw (tau nG@1 0.970)" in text
    flat = real_data.trend_sentence(real_data.tau_trend(_by_n([0.001, -0.001] * 10)))
    assert "shows no clear trend" in flat


def _claims(uniform_taus, real_tau=0.96, slopes=(-0.002,) * 20):
    res = pd.DataFrame(
        [{"measure": "nG@1", "ratings": "real", "replication": 0, "tau": real_tau,
          "discrepancies": 1, "significant_RawG": 6}]
        + [{"measure": "nG@1", "ratings": "uniform", "replication": i, "tau": t,
            "discrepancies": i % 2, "significant_RawG": 0} for i, t in enumerate(uniform_taus)])
    spread = pd.DataFrame({"D": [0, 1, 2], "real_share": [0.1, 0.4, 0.5],
                           "uniform_share": [0.0, 0.04, 0.96]})
    facts = pd.DataFrame({"fact": ["topics", "relevant_per_topic"], "computed": [55, 193.5],
                          "published": [55, 194], "stated_by": ["Wang", "Wang, rounded"]})
    return real_data.claims(spread, res, facts, _by_n(list(slopes))).set_index("claim")


def test_real_vs_uniform_rows_are_not_testable_with_their_reason_and_evidence():
    table = _claims([0.98] * 12 + [0.96] * 7 + [0.94])
    tau = table.loc[real_data.CLAIMS["tau"].format(m="nG@1")]
    assert (tau.kind, tau.section, tau.verdict) == ("paper", "§5", "not testable here")
    assert tau.explanation.startswith(real_data.NOT_TESTABLE_WHY)
    # ties count as not below: 12 draws above the real 0.96, 7 equal, 1 below
    assert "real below the draw in 12 of 20 draws" in tau.reproduced and "equal in 7" in tau.reproduced
    disc = table.loc[real_data.CLAIMS["discrepancies"].format(m="nG@1")]
    assert disc.verdict == "not testable here" and "real above the draw in 10 of 20" in disc.reproduced
    assert tau.varies == disc.varies == real_data.VARIES["uniform"]


def test_the_tau_sentence_counts_draws_below_from_the_experiment_table():
    res = pd.DataFrame(
        [{"measure": m, "ratings": "real", "replication": 0, "tau": t}
         for m, t in (("nG@1", 0.96), ("P+", 0.97), ("nERR", 1.0))]
        + [{"measure": m, "ratings": "uniform", "replication": i, "tau": t}
           for m in ("nG@1", "P+", "nERR") for i, t in enumerate([0.98] * 12 + [0.96] * 7 + [0.94])])
    # nG@1: 12 above 0.96; P+: 12 above 0.97; nERR: none above 1.0
    assert real_data.tau_sentence(res) == ("the real tau is below the uniform one in 12 of 20 "
                                           "draws for nG@1, 12 of 20 for P+ and 0 of 20 for nERR")


def test_claims_trend_rows_unanimity_closed_form_and_the_facts_identity():
    table = _claims([0.98] * 20, slopes=[-0.002] * 17 + [0.001] * 3)
    trend = table.loc[real_data.CLAIMS["trend"].format(m="nG@1")]
    # not testable here (issue 45): the runs are simulated and one fixed set, as for rows 1-6; the
    # pooled slope's interval (all below 0) still says what the rule alone would give
    assert (trend.kind, trend.draws, trend.verdict) == ("beyond", "", "not testable here")
    assert trend.explanation.startswith(real_data.NOT_TESTABLE_WHY)
    assert "By the interval rule alone (docs/claims.md) the slope's interval would say 'does not hold'" \
        in trend.explanation
    assert trend.varies == real_data.VARIES["subsets"] and trend.quote == ""
    assert "all ten assessors (one set): 0.970" in trend.reproduced
    assert "replicate slopes rising in 3 of 20" in trend.reproduced
    assert trend.source == "workspace" and trend.threshold == real_data.TREND_RULE
    assert trend.sensitivity == "does not hold over 90%-99% (no flip)"
    # whatever the slopes, the verdict is the same; the interval's own verdict is reported
    for slopes, says in (([-0.003] * 14 + [0.0005] * 6, "does not hold"),
                         ([0.001, -0.001] * 10, "not testable here"), ([0.002] * 20, "holds")):
        row = _claims([0.98] * 20, slopes=slopes).loc[real_data.CLAIMS["trend"].format(m="nG@1")]
        assert row.verdict == "not testable here"
        assert f"the slope's interval would say '{says}'" in row.explanation
    unanimous = table.loc[real_data.CLAIMS["unanimous"]]
    # real share of D < 2 is 1 - 0.5; uniform: 2 (2/3)^10 - (1/3)^10 = 0.0347
    assert unanimous.verdict == "holds" and "real 0.500 vs uniform 0.035" in unanimous.reproduced
    facts = table.iloc[-1]
    assert (facts.kind, facts.verdict) == ("identity", "holds")       # 193.5 rounds half up to 194
    assert "relevant per topic 194 (Wang, rounded)" in facts.name and "193.5" in facts.reproduced
    off = _claims([0.98] * 20, slopes=[-0.002] * 20)
    unanimous = off.loc[real_data.CLAIMS["unanimous"]]
    assert (unanimous.kind, unanimous.section) == ("paper", "§4") and "correlated" in unanimous.quote


def test_the_findings_headline_agrees_with_the_committed_claims_table():
    """docs/findings.md's hand-written real-data paragraph, sentence by sentence, against the data."""
    from evalkit.declare.claims import tally_text
    from evalkit.paths import FIGURES

    table = pd.read_csv(FIGURES / "real_data" / "claims.csv", keep_default_na=False)
    rows = table.to_dict("records")
    table = table.set_index("claim")
    claims = real_data.CLAIMS
    page = " ".join((FIGURES.parent / "docs" / "findings.md").read_text().split())
    head = page[page.index("## Headline findings (real data)"):page.index("## Headline findings (Kim")]
    assert table.loc[claims["unanimous"], "verdict"] == "holds"
    assert "real 0.5" in table.loc[claims["unanimous"], "reproduced"]          # about half
    assert "vs uniform 0.035" in table.loc[claims["unanimous"], "reproduced"]  # 3.5% expected
    assert f"Sakai's predictions: {tally_text(rows)}" in head
    for m in ("nG@1", "P+", "nERR"):
        for key in ("tau", "discrepancies"):
            assert table.loc[claims[key].format(m=m), "verdict"] == "not testable here"
    res = pd.read_csv(FIGURES / "real_data" / "stc_rawg_vs_ug.csv")
    assert real_data.tau_sentence(res) in head
    trend = [table.loc[claims["trend"].format(m=m)] for m in ("nG@1", "P+", "nERR")]
    assert all(t.kind == "beyond" and t.verdict != "holds" for t in trend)
    assert f"Beyond the paper, {tally_text(rows, 'beyond')}" in head
    # "the nG@1 and P+ tau falls": both slopes' intervals below 0, nERR's includes 0, as the rows'
    # explanations report; the rows are not testable (simulated runs); the replicate counts are the table's
    fits = real_data.tau_trend(pd.read_csv(FIGURES / "real_data" / "stc_assessors_n.csv")).set_index("measure")
    assert [t.verdict for t in trend] == ["not testable here"] * 3
    assert ["would say 'does not hold'" in t.explanation for t in trend] == [True, True, False]
    assert (fits.loc[["nG@1", "P+"], "slope_high"] < 0).all()
    assert fits.loc["nERR", "slope_low"] < 0 < fits.loc["nERR", "slope_high"]
    assert (f"only {fits.loc['nG@1', 'rising']} and {fits.loc['P+', 'rising']} of the "
            f"{fits.loc['P+', 'replicates']} replicates' own slopes rise") in head
    assert "tau falls (the 95% interval of each slope lies below 0" in head
    assert "even falls" not in head
    facts = table.loc[table.kind == "identity"].iloc[-1]
    assert facts.source == "workspace" and "states no rounding rule" in facts.threshold
    assert facts.sensitivity == "holds over 0.5-1 (no flip)" and "relevant per topic 193.5" in facts.reproduced
    assert "193.5 per topic, within the half unit" in head and "rounds to 194" not in head
    summary = pd.read_csv(FIGURES / "real_data" / "stc_assessors_n_summary.csv").set_index(["measure", "N"])
    for m in ("nG@1", "P+"):
        assert summary.loc[(m, 2), "tau"] > summary.loc[(m, 7), "tau"]
    facts = table[table["id"] == "pool-facts"]
    assert len(facts) == 1 and facts["verdict"].iloc[0] == "holds" and "TREC 2014" in facts.index[0]
    # Sakai's footnote 3 (issue 45): N = 10 from the installed ratings, the runs' size copied
    note = table[table["id"] == "stc-ja-footnote-3"]
    assert note["kind"].tolist() == ["identity"] and note["verdict"].tolist() == ["holds"]
    assert "installed ratings: 10 columns per item" in note["reproduced"].iloc[0]
    computed = pd.read_csv(FIGURES / "real_data" / "trec2014_facts.csv").set_index("fact")["computed"]
    assert (f"{computed['relevant_per_topic']:g} per topic, within the half unit a whole number can hide "
            "of the stated 194") in head
    assert f"the {int(computed['judgments']):,} judgments are the qrels' own count" in head


def test_the_facts_identity_fails_when_a_count_or_the_rounded_mean_differs():
    spread = pd.DataFrame({"D": [0, 1, 2], "real_share": [0.1, 0.4, 0.5],
                           "uniform_share": [0.0, 0.04, 0.96]})
    res = pd.DataFrame([{"measure": "nG@1", "ratings": r, "replication": 0, "tau": 0.97,
                         "discrepancies": 0, "significant_RawG": 0} for r in ("real", "uniform")])

    def verdict(computed):
        facts = pd.DataFrame({"fact": ["topics", "relevant_per_topic"], "computed": computed,
                              "published": [55, 194], "stated_by": ["Wang", "Wang, rounded"]})
        return real_data.claims(spread, res, facts).iloc[-1].verdict

    assert verdict([55, 193.5]) == "holds"            # within the workspace tolerance 0.5 of 194
    assert verdict([55, 194.5]) == "holds"            # either side: no rounding rule is assumed
    assert verdict([55, 193.4]) == "does not hold"    # 0.6 away
    assert verdict([54, 193.5]) == "does not hold"


def test_batched_rawg_vs_ug_equals_one_call_per_ratings_set():
    items, ratings = _small_pool(seed=4, posts=8)
    collection, per_topic = real_data.stc_collection(items, ratings, seed=5, n_teams=4, n_runs=8)
    best = real_data.stc_rawg_vs_ug.unanimity.best_runs(collection)
    rng = np.random.default_rng(6)
    sims = [[np.clip(np.rint(r + rng.normal(0, 1, r.shape)), 0, 2).astype(np.int64) for r in per_topic]
            for _ in range(3)]
    jobs = [(per_topic, 7), (sims[0], 7), (sims[1], 8), (sims[2], 7)]
    batched = real_data.rawg_vs_ug_many(collection, best, jobs, 2, 0.2, 300, 0.05)
    assert len(batched) == len(jobs)
    unanimity = real_data.stc_rawg_vs_ug.unanimity
    for (per, seed), got in zip(jobs, batched):   # oracle: one HSD pass per ratings set
        flat = np.concatenate(per)
        cond = unanimity.conditions_from_gains(
            collection, real_data.split_by_topic(gains.raw_gain(flat), per),
            real_data.split_by_topic(gains.unanimity_gain(flat, 2, 0.2), per), (2, flat.shape[1]))
        _, counts = unanimity.discrepancies(cond, collection, best, 300, 0.05, seed)
        one = unanimity.tau_table(cond, collection.lists.runs, 0.05).merge(
            counts, on=["measure", "dmax", "N"])
        pd.testing.assert_frame_equal(got, one, check_exact=True)
        pd.testing.assert_frame_equal(
            real_data.rawg_vs_ug(collection, best, per, 2, 0.2, 300, 0.05, seed), one,
            check_exact=True)


@pytest.mark.parametrize("threshold", [1, 10**9])    # batch compiled (when numba is there) or numpy
def test_conditions_scored_in_one_batch_equal_one_call_per_job_bit_for_bit(monkeypatch, threshold):
    from evalkit.measures import graded
    from evalkit.simulate import stc as simulate

    items, ratings = _small_pool(seed=8, posts=9)
    collection, per_topic = real_data.stc_collection(items, ratings, seed=2, n_teams=3, n_runs=7)
    flat = np.concatenate(per_topic)
    jobs = [(real_data.split_by_topic(simulate.subsample_assessors(flat, n, s), per_topic), s)
            for n, s in [(2, 1), (3, 2), (10, 3), (2, 4), (5, 5), (7, 6), (2, 7), (3, 8), (10, 9),
                         (5, 10), (2, 11)]]                # more than one batch of 8
    unanimity = real_data.stc_rawg_vs_ug.unanimity
    monkeypatch.setattr(graded, "COMPILED_MIN_LISTS", threshold)
    got = real_data.stc_rawg_vs_ug._conditions_many(collection, jobs, 2, 0.2)
    assert len(got) == len(jobs)
    monkeypatch.setattr(graded, "COMPILED_MIN_LISTS", 10**9)       # the oracle scores in numpy
    for (per, _), cond in zip(jobs, got):         # oracle: Sakai's conditions, one job at a time
        one = np.concatenate(per)
        raw, ug = gains.raw_and_unanimity_gain(one, 2, 0.2)
        ref = unanimity.conditions_from_gains(collection, real_data.split_by_topic(raw, per),
                                              real_data.split_by_topic(ug, per), (2, one.shape[1]))
        assert cond.grid == ref.grid == ((2, one.shape[1]),)
        assert cond.valid.shape == ref.valid.shape and (cond.valid == ref.valid).all()
        for m, s in ref.scores.items():
            assert cond.scores[m].shape == s.shape
            assert cond.scores[m].tobytes() == s.tobytes()
    assert real_data.stc_rawg_vs_ug._conditions_many(collection, [], 2, 0.2) == []


def test_line_fit_and_t_quantile_equal_scipy_stats_bit_for_bit():
    from scipy import stats

    from evalkit.papers.real_data.stc_assessors_n import _line_fit, _t_quantile

    rng = np.random.default_rng(21)
    for n in (2, 3, 5, 80, 200):
        x = pd.Series(rng.choice([2, 3, 5, 7], n))
        x.iloc[:2] = [2, 7]                                  # two distinct x at least
        for y in (pd.Series(rng.normal(0.8, 0.05, n)), pd.Series(-0.5 * x + 1.0),
                  pd.Series(np.full(n, 0.25))):
            want = stats.linregress(x, y)
            slope, stderr = _line_fit(x, y)
            assert np.float64(slope).tobytes() == np.float64(want.slope).tobytes()
            assert np.float64(stderr).tobytes() == np.float64(want.stderr).tobytes()
        for df in (1, 2, n - 1, n - 2):
            if df >= 1:
                assert np.float64(_t_quantile(0.975, df)).tobytes() == \
                    np.float64(stats.t.ppf(0.975, df)).tobytes()
    with pytest.raises(ValueError):
        _line_fit([3, 3, 3], [0.1, 0.2, 0.3])
