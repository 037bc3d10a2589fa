"""Wang §3–4: the largest-cluster knob, the curve's trends, the claims' kinds and draws, and the
sentences about the committed outputs checked against them."""

import numpy as np
import pandas as pd
import pytest

from evalkit.papers import wang2015_assessor_differences as paper
from evalkit.paths import FIGURES, ROOT
from evalkit.simulate import ttg as sim_ttg

UNITS = np.repeat(np.arange(40), np.r_[np.full(5, 30), np.ones(35, int)])   # 5 big units, 35 singletons


def test_largest_share_unset_is_todays_draw_and_leaves_the_stream_alone():
    r1, r2 = np.random.default_rng(5), np.random.default_rng(5)
    today = sim_ttg.assessor_clusters(UNITS, 0.3, 0.2, r1)
    unset = sim_ttg.assessor_clusters(UNITS, 0.3, 0.2, r2, largest_share=None)
    np.testing.assert_array_equal(today, unset)
    assert r1.random() == r2.random()


@pytest.mark.parametrize("share", [0.05, 0.2, 0.5])
def test_largest_share_sets_the_largest_cluster_to_that_share(share):
    labels = sim_ttg.assessor_clusters(UNITS, 0.3, 0.2, np.random.default_rng(5), largest_share=share)
    assert labels.size == UNITS.size == 185
    assert np.bincount(labels).max() == round(share * 185)       # 9, 37, 92 (and no other is larger)
    assert sorted(np.unique(labels)) == list(range(labels.max() + 1))


def test_largest_share_outside_0_1_is_refused():
    with pytest.raises(ValueError, match=r"largest_share must lie in \(0, 1\]"):
        sim_ttg.assessor_clusters(UNITS, 0.3, 0.2, np.random.default_rng(5), largest_share=1.5)


def _curve(taus):
    rows = []
    for level, ari in ((0, 0.7), (1, 0.5), (2, 0.3)):
        for m, t in taus.items():
            rows.append({"level": level, "mean_ARI": ari, "metric": m, "tau": t[level]})
    return pd.DataFrame(rows)


def test_curve_trends_read_the_direction_from_the_data():
    trends = paper.curve_trends(_curve({"f1": (0.80, 0.85, 0.90), "precision": (0.95, 0.90, 0.85),
                                        "recall": (0.95, 0.96, 0.96)})).set_index("metric")
    assert trends.direction.to_dict() == {"f1": "rises", "precision": "falls", "recall": "flat"}
    assert trends.loc["f1", "change"] == pytest.approx(0.10)
    text = paper.describe_trends(trends.reset_index())
    assert text == ("As the mean ARI falls from 0.70 to 0.30, precision's tau falls from 0.950 to 0.850; "
                    "f1's tau rises from 0.800 to 0.900; recall stay within 0.02.")


def _draws(n=20, tau_min=0.8, small=0.4, most="weighted_f1"):
    return pd.DataFrame({"world": "default", "draw": range(n), "tau_min": tau_min, "small_f1": 0.9,
                         "small_weighted_f1": small, "most_swaps": most, "swaps_weighted_f1": 100,
                         "ari_mean": np.linspace(0.40, 0.50, n), "ari_median": 0.48, "ari_sd": 0.22,
                         "clusters_official": 88.0, "clusters_alternate": 71.0})


def test_claims_have_kinds_and_are_judged_over_the_draws():
    ari = pd.Series([0.2, 0.5, 0.7])
    desc = pd.DataFrame({"mean": [190.0, 88.0, 0.7, 71.0]})
    t1 = pd.DataFrame({"metric": ["f1", "weighted_f1"], "rank_swaps": [60, 110], "tau": [0.9, 0.82]})
    diffs = {"f1": pd.Series([0.01, 0.02, 0.05]), "weighted_f1": pd.Series([0.01, 0.05])}
    draws = _draws()
    draws.loc[:4, "tau_min"] = 0.86                                   # stable in 5 of 20 draws
    c = paper.claims(ari, desc, t1, diffs, draws).set_index("claim")
    assert list(c.kind) == ["calibration"] * 4 + ["paper"] * 3
    mean_row = c.loc["Per-topic ARI mean between 0.395 and 0.495 (paper 0.445)"]
    # ARI means 0.400 .. 0.500 in steps of 0.1/19: all but the last inside [0.395, 0.495]
    assert mean_row.draws == "19 of 20" and mean_row.verdict == "holds"
    stable = c.loc["Rankings stable: tau >= 0.85 for every metric (paper 0.853-0.964)"]
    assert stable.draws == "5 of 20" and stable.verdict == "mixed"
    assert stable.reproduced.startswith("min tau 0.820 (draws 0.800-0.860)")
    small = c.loc["Most rank swaps are small (|diff| < 0.03) for F1 and weighted F1"]
    assert small.draws == "0 of 20" and small.verdict == "does not hold"
    assert c.loc["Weighted F1 has the most rank swaps (paper 90)", "draws"] == "20 of 20"


def test_claims_refuse_fewer_than_20_draws():
    with pytest.raises(ValueError, match="at least 20 draws"):
        paper.claims(pd.Series([0.5, 0.4]), pd.DataFrame({"mean": [1.0, 2.0, 0.0, 1.0]}),
                     pd.DataFrame({"metric": ["f1"], "rank_swaps": [1], "tau": [0.9]}),
                     {"f1": pd.Series([0.01])}, _draws(n=5))


def test_committed_claims_count_only_the_papers_rows_and_judge_over_draws():
    claims = pd.read_csv(FIGURES / "wang2015" / "claims.csv", keep_default_na=False)
    assert set(claims.kind) == {"paper", "calibration"}
    assert claims[claims.claim.str.startswith("Per-topic ARI")].kind.eq("calibration").all()
    r = claims.draws.str.extract(r"(\d+) of (\d+)").astype(int)
    assert (r[1] >= 20).all()
    for row in claims[claims.verdict != "holds"].itertuples():
        assert "Correlational" in row.explanation and "Set directly" in row.explanation


def test_the_docs_sentence_on_the_curve_matches_the_committed_curve():
    curve = pd.read_csv(FIGURES / "wang2015" / "tau_vs_disagreement.csv")
    trends = paper.curve_trends(curve).set_index("metric").direction.to_dict()
    assert trends == {"precision": "flat", "recall": "flat", "weighted_recall": "flat",
                      "f1": "rises", "weighted_f1": "rises"}
    docs = (ROOT / "docs" / "findings.md").read_text()
    assert "tau falls as the assessors disagree more" not in docs
    assert ("as the assessors disagree more (the mean ARI falling), the tau of F1 and weighted F1 "
            "rises and that of precision and both recalls stays flat") in " ".join(docs.split())


def test_the_docs_sentences_on_the_claims_match_the_committed_claims():
    import re

    claims = pd.read_csv(FIGURES / "wang2015" / "claims.csv", keep_default_na=False).set_index("claim")
    docs = " ".join((ROOT / "docs" / "findings.md").read_text().split())
    # "... 'tau >= 0.85 for every metric' and 'most swaps are small' do not hold in any of the draws"
    assert "do not hold in any of the draws" in docs
    for claim in ("Rankings stable", "Most rank swaps are small"):
        row = claims[claims.index.str.startswith(claim)].iloc[0]
        assert row.draws.startswith("0 of ")
        # "Setting the largest-cluster share directly ... moves tau the same way in every draw"
        k, r = re.search(r"Set directly.*? in (\d+) of (\d+) draws", row.explanation).groups()
        assert k == r
    assert "moves tau the same way in every draw" in docs


def test_the_label_table_scores_runs_as_the_cluster_table_does():
    from evalkit.measures import timeline
    from evalkit.papers.wang2015_assessor_differences.worlds import _LabelTable

    qrels, latent = sim_ttg.ttg_pool(np.random.default_rng(3), n_topics=4)
    targets = pd.read_csv(paper.paths.PUBLISHED / "wang2015_ttg_official_scores.csv").head(12)
    score = timeline.RunScorer(sim_ttg.ttg_runs(qrels, latent, targets, np.random.default_rng(4)))
    labels = sim_ttg.ttg_labels(latent, 0.24, np.random.default_rng(5), largest_share=0.3)
    clusters = sim_ttg.ttg_clusters(latent, 0.24, np.random.default_rng(5), largest_share=0.3)
    assert [len(c) for c in clusters["171"]] == list(np.bincount(labels["171"]))
    by_list = timeline.run_means(score(timeline.cluster_table(clusters, qrels)))
    by_label = timeline.run_means(score(_LabelTable(latent, qrels)(labels)))
    pd.testing.assert_frame_equal(by_list, by_label)
