"""Wang et al. §5: vectorised kappa, the F1 / weighted-F1 identity, claims judged over
simulated studies on the paper's own degrees of freedom, and the figures' conventions."""

import numpy as np
import pandas as pd
import pytest

from evalkit.declare.claims import figure_files
from evalkit.papers import wang2015_user_preferences as wang_up
from evalkit.stats.agreement import cohens_kappa


def _labels(table):
    cats = ["left", "right", "neither"][:len(table)]
    a, b = [], []
    for i, row in enumerate(table):
        for j, n in enumerate(row):
            a += [cats[i]] * int(n)
            b += [cats[j]] * int(n)
    return a, b


def test_kappa_of_a_hand_worked_table():
    # [[18, 6], [4, 12]]: p_o = 30/40 = 0.75, margins rows (0.6, 0.4), columns (0.55, 0.45),
    # p_e = 0.6 * 0.55 + 0.4 * 0.45 = 0.51, kappa = 0.24 / 0.49
    k = wang_up.kappa_of_tables(np.array([[18, 6], [4, 12]]))
    assert float(k["kappa"]) == pytest.approx(0.24 / 0.49)
    # FCE (1969): sum_i p_ii (1 - (p_i. + p_.i)(1 - k))^2 + (1 - k)^2 sum_i!=j p_ij (p_.i + p_j.)^2
    #             - (k - p_e (1 - k))^2, over (1 - p_e)^2 n
    kap, p = 0.24 / 0.49, np.array([[18, 6], [4, 12]]) / 40
    a = p[0, 0] * (1 - (0.6 + 0.55) * (1 - kap)) ** 2 + p[1, 1] * (1 - (0.4 + 0.45) * (1 - kap)) ** 2
    b = (1 - kap) ** 2 * (p[0, 1] * (0.55 + 0.4) ** 2 + p[1, 0] * (0.45 + 0.6) ** 2)
    c = (kap - 0.51 * (1 - kap)) ** 2
    assert float(k["se"]) == pytest.approx(np.sqrt((a + b - c) / (0.49 ** 2 * 40)))


def test_kappa_of_tables_equals_the_statsmodels_kappa_one_table_at_a_time():
    rng = np.random.default_rng(3)
    tables = rng.integers(0, 12, size=(40, 3, 3))
    tables[:5, 2, :] = 0                      # categories one rater never used
    tables[5] = [[7, 0, 0], [0, 0, 0], [0, 0, 0]]   # one category only: undefined
    got = wang_up.kappa_of_tables(tables, alpha=0.1)
    for t, kappa, low, high in zip(tables, got["kappa"], got["low"], got["high"]):
        ref = cohens_kappa(*_labels(t), alpha=0.1)
        np.testing.assert_allclose([kappa, low, high], [ref.kappa, ref.low, ref.high], rtol=1e-9,
                                   atol=1e-12, equal_nan=True)
    assert np.isnan(got["kappa"][5])


def test_agreement_gives_each_group_its_own_cohens_kappa():
    rng = np.random.default_rng(1)
    n = 300
    jt = pd.DataFrame({"metric": rng.choice(["precision", "recall"], n), "bin": rng.choice(list("ab"), n),
                       "choice": rng.choice(["left", "right", "neither"], n, p=[0.45, 0.45, 0.1]),
                       "implied": rng.choice(["left", "right"], n)})
    got = wang_up.agreement(jt).set_index(["metric", "bin"])
    for (m, b), g in jt.groupby(["metric", "bin"]):
        decided = g[g.choice != "neither"]
        ref = cohens_kappa(decided.choice, decided.implied)
        assert got.loc[(m, b), "kappa"] == pytest.approx(ref.kappa)
        assert got.loc[(m, b), "high"] == pytest.approx(ref.high)
        assert got.loc[(m, b), ["neither", "preferences"]].tolist() == [len(g) - len(decided), len(decided)]


def _f1_table(wf1_implied):
    rows = []
    for pid, (a, b) in enumerate(zip(["left", "right", "left"], wf1_implied)):
        rows += [{"pair_id": pid, "metric": "f1", "implied": a}, {"pair_id": pid, "metric": "weighted_f1",
                                                                  "implied": b}]
    return pd.DataFrame(rows)


def test_weighted_f1_joins_f1s_time_panel_only_when_every_implied_choice_is_the_same():
    same = _f1_table(["left", "right", "left"])
    assert wang_up.same_implied(same) == (3, 3)
    assert wang_up.time_panels(same)[-1] == ("f1 = weighted f1 (same implied choice on all 3 "
                                             "F1-sampled judgments)", "f1")
    differ = _f1_table(["left", "left", "left"])
    assert wang_up.same_implied(differ) == (2, 3)
    assert [m for _, m in wang_up.time_panels(differ)] == wang_up.METRICS


def test_the_committed_figure9_identity_is_the_same_implied_choice_in_every_study():
    """The duplicate panel is explained by the data: F1 and weighted F1 imply the same choice
    on every F1-sampled judgment, in the committed study and in every simulated one."""
    from evalkit.paths import FIGURES

    by_time = pd.read_csv(FIGURES / "wang2015" / "figure9_kappa_by_time.csv")
    f1 = by_time[by_time.metric == "f1"].drop(columns="metric").reset_index(drop=True)
    wf1 = by_time[by_time.metric == "weighted_f1"].drop(columns="metric").reset_index(drop=True)
    pd.testing.assert_frame_equal(f1, wf1)
    draws = pd.read_csv(FIGURES / "wang2015" / "study_draws.csv")
    assert len(draws) >= 20 and (draws.f1_same == draws.f1_pairs).all()


def _draws(r=20, df=(3, 16), p=0.5, fleiss=0.3, min_prec=0.3, max_prec=0.5):
    anova = pd.DataFrame([{"insensitive_share": 0.0, "study": k, "metric": m, "df1": df[0], "df2": df[1],
                           "F": 1.0, "p": p} for k in range(r) for m in wang_up.METRICS])
    out = pd.DataFrame([{"insensitive_share": 0.0, "study": k, "busy_bins": 10, "busy_positive": 10 - (k < 3),
                         "fleiss": fleiss if k < 15 else 0.5, "f1_pairs": 5, "f1_same": 5,
                         **{f"{e}_{m}": v for m in wang_up.METRICS
                            for e, v in (("min", min_prec), ("max", max_prec), ("first", min_prec),
                                         ("last", max_prec))}} for k in range(r)])
    return wang_up.StudyDraws(anova, out)


def _committed():
    agg = pd.DataFrame({"metric": "precision", "bin": ["[0.1,0.2)", "[0.2,0.3)"], "kappa": [0.2, 0.6],
                        "low": 0.0, "high": 0.8, "neither": 1, "preferences": [30, 10]})
    per = pd.DataFrame({"assessor": "A1", "metric": wang_up.METRICS, "bin": "[0.1,0.2)", "kappa": 0.5})
    t2 = pd.DataFrame({"metric": wang_up.METRICS, "min": 0.3, "max": 0.5})
    t3 = pd.DataFrame({"metric": wang_up.METRICS, "df1": 2, "df2": 8, "F": 1.0, "p": 0.5,
                       "df1_published": [3, 3, 4, 3, 4], "df2_published": [16, 16, 20, 16, 20],
                       "p_published": [0.0437, 0.197, 0.247, 0.0115, 0.296]})
    return agg, per, t2, t3


def test_an_anova_on_other_degrees_of_freedom_is_not_a_match():
    agg, per, t2, t3 = _committed()
    rows = wang_up.claims(agg, per, t2, t3, 0.3, _draws(df=(2, 8), p=0.01)).set_index("claim")
    f1 = rows.loc[[c for c in rows.index if "for f1, F(3, 16)" in c][0]]
    # p = 0.01 < 0.05 in every study, but on F(2, 8): the paper's F(3, 16) design is never reached
    assert (f1.draws, f1.verdict) == ("0 of 20", "does not hold")
    assert f1.explanation.startswith("Cannot be run on the paper's degrees of freedom: F(3, 16)")
    assert "p < 0.05 in 20 of 20: a different test" in f1.explanation
    assert figure_files(f1.explanation) == ["wang2015/figure8_kappa_per_assessor.csv",
                                            "wang2015/anova_worlds_studies.csv"]


def test_claims_count_studies_on_the_papers_design_and_keep_calibration_apart():
    agg, per, t2, t3 = _committed()
    c = wang_up.claims(agg, per, t2, t3, 0.3, _draws(p=0.2, min_prec=-0.1, max_prec=0.3))
    by = c.set_index("claim")
    chance = by.loc[[k for k in by.index if k.startswith("Assessors agree")][0]]
    assert (chance.draws, chance.verdict) == ("17 of 20", "holds")          # 3 studies had a kappa <= 0
    recall = by.loc[[k for k in by.index if "not significant for recall, F(3, 16)" in k][0]]
    assert (recall.draws, recall.verdict) == ("20 of 20", "holds")          # F(3, 16), p = 0.2 >= 0.05
    prec = by.loc[[k for k in by.index if "significant for precision" in k][0]]
    assert (prec.draws, prec.verdict) == ("0 of 20", "does not hold")
    levels = by.loc["Table 2 reading: of precision's bin kappas the smallest is poor and the largest is fair"]
    assert (levels.draws, levels.verdict) == ("20 of 20", "holds")          # -0.1 poor, 0.3 fair
    assert c.set_index("kind").loc["calibration"].claim.str.contains("Fleiss|grows").all()
    fleiss = c[c.claim.str.startswith("Fleiss")].iloc[0]
    assert (fleiss.kind, fleiss.draws, fleiss.verdict) == ("calibration", "15 of 20", "mixed")
    assert sorted(c.kind.unique()) == ["calibration", "paper"]
    assert (c.kind == "paper").sum() == 1 + 5 + len(wang_up.verdicts.LEVELS)


def test_the_level_claims_are_generated_from_their_declared_levels(monkeypatch):
    agg, per, t2, t3 = _committed()
    monkeypatch.setattr(wang_up.verdicts, "LEVELS", {"recall": ("moderate", None)})
    c = wang_up.claims(agg, per, t2, t3, 0.3, _draws(min_prec=0.5))
    row = c[c.claim.str.startswith("Table 2")].iloc[0]
    assert row.claim == "Table 2 reading: of recall's bin kappas the smallest is moderate"
    assert row.verdict == "holds"


def test_kappa_bars_keep_fixed_positions_and_clip_intervals_with_a_mark():
    import matplotlib.pyplot as plt

    agg = pd.DataFrame({"metric": "m", "bin": ["[0.1,0.2)", "[0.4,1]"], "kappa": [0.6, -0.9],
                        "low": [0.1, -1.5], "high": [1.3, -0.3], "neither": [1, 0], "preferences": [9, 4]})
    fig = wang_up.kappa_by_metric(agg, ["m"], wang_up.BIN_LABELS)
    ax = fig.axes[0]
    assert [round(p.get_x() + p.get_width() / 2, 6) for p in ax.patches] == [1.0, 4.0]
    segs = np.concatenate([s for c in ax.collections for s in c.get_segments()])
    assert segs[:, 1].max() <= 1 and segs[:, 1].min() >= -1
    marks = {ln.get_marker(): ln.get_xydata().tolist() for ln in ax.lines if len(ln.get_xydata())
             and ln.get_marker() in ("^", "v")}
    assert marks == {"^": [[1.0, 1.0]], "v": [[4.0, -1.0]]}
    assert [t.get_text() for t in ax.texts] == ["1|9", "0|4"]
    plt.close(fig)


def test_a_study_without_an_anova_for_a_metric_counts_as_missing_the_papers_design():
    agg, per, t2, t3 = _committed()
    draws = _draws()
    draws = draws._replace(anova=draws.anova[(draws.anova.metric != "recall") | (draws.anova.study < 5)])
    c = wang_up.claims(agg, per, t2, t3, 0.3, draws)
    recall = c[c.claim.str.contains("for recall, F")].iloc[0]
    assert (recall.draws, recall.verdict) == ("5 of 20", "mixed")
    assert "5 of 20 simulated studies reach it (5 run an ANOVA at all" in recall.explanation


def test_the_headline_sentences_of_the_findings_page_match_the_committed_tables():
    from evalkit.paths import FIGURES, ROOT

    text = " ".join((ROOT / "docs" / "findings.md").read_text().split())
    claims = pd.read_csv(FIGURES / "wang2015" / "claims_preferences.csv", keep_default_na=False)
    row = {c.split(" (")[0].split(",")[0]: r for c, r in zip(claims.claim, claims.itertuples())}
    assert "judged over 20 simulated studies" in text
    assert claims[claims.draws != ""].draws.str.endswith("of 20").all()
    assert "better than chance in every study" in text
    assert row["Assessors agree with every metric better than chance"].draws == "20 of 20"
    t2 = pd.read_csv(FIGURES / "wang2015" / "table2_landis_koch.csv").set_index("metric")
    assert "precision's bin kappas run from moderate to substantial" in text
    assert tuple(t2.loc["precision", ["min_label", "max_label"]]) == ("moderate", "substantial")
    assert "none of the 20 studies gives the paper's poor to fair" in text
    assert row["Table 2 reading: of precision's bin kappas the smallest is poor and the largest is "
               "fair"].draws == "0 of 20"
    anova = claims[claims.claim.str.startswith("Table 3")]
    precision = anova[anova.claim.str.contains("for precision")].iloc[0]
    assert "it is significant in none of the 20 default studies" in text
    studies = pd.read_csv(FIGURES / "wang2015" / "anova_worlds_studies.csv")
    default = studies[(studies.metric == "precision") & (studies.insensitive_share == 0)]
    assert len(default) == 20 and (default.p >= 0.05).all() and precision.draws == "0 of 20"
    assert ((default.df1 == 3) & (default.df2 == 16)).all()
    assert "more often the more precision sensitivity" in text
    shares = pd.read_csv(FIGURES / "wang2015" / "anova_worlds.csv").sort_values("insensitive_share")
    assert shares.significant_share.is_monotonic_increasing
    assert "The four other ANOVAs (recall, weighted recall, F1, weighted F1) cannot be run" in text
    simulators = " ".join((ROOT / "docs" / "simulators.md").read_text().split())
    fleiss = claims[claims.claim.str.startswith("Fleiss")].iloc[0]
    draws = pd.read_csv(FIGURES / "wang2015" / "study_draws.csv").query("insensitive_share == 0")
    assert (f'"fair" in {fleiss.draws} simulated studies (range {draws.fleiss.min():.3f}–'
            f'{draws.fleiss.max():.3f})') in simulators
    grows = claims[claims.claim.str.startswith("Agreement grows")].iloc[0]
    assert f"larger in {grows.draws} simulated studies" in simulators
    for metric in ("for recall", "for weighted recall", "for f1", "for weighted f1"):
        row_ = anova[anova.claim.str.contains(metric)].iloc[0]
        assert row_.explanation.startswith("Cannot be run") and row_.draws == "0 of 20"


def test_every_figure_passes_the_figure_checker(small_ttg):
    import matplotlib.pyplot as plt

    from evalkit.figure_check import problems

    world, timelines, log = wang_up.load_study(small_ttg)
    jt = wang_up.judgment_table(log, timelines)
    agg = wang_up.agreement(jt)
    per = wang_up.agreement(jt, by=("assessor", "metric", "bin"))
    by_time = wang_up.agreement(jt, by=("metric", "time_bin"))
    studies = pd.DataFrame([{"insensitive_share": s, "study": k, "metric": "precision", "df1": 3, "df2": 16,
                             "F": 2.0, "p": 0.5 / (1 + 10 * s) / (k + 1)} for s in (0, 0.5, 1) for k in range(20)])
    figures = {"figure 7": wang_up.kappa_by_metric(agg, wang_up.METRICS, wang_up.BIN_LABELS),
               "figure 8": wang_up.kappa_small_multiples(per, wang_up.METRICS, sorted(log.assessor.unique()),
                                                         wang_up.BIN_LABELS),
               "figure 9": wang_up.kappa_by_time(by_time, wang_up.time_panels(jt), wang_up.TIME_BIN),
               "anova worlds": wang_up.anova_worlds_figure(studies, 0.5),
               "anova worlds, one share, none significant": wang_up.anova_worlds_figure(
                   studies[studies.insensitive_share == 0].assign(p=0.5))}
    for name, fig in figures.items():
        assert problems(fig) == [], name
        plt.close(fig)


def test_the_chapters_sentence_on_a4s_precision_row_holds_in_the_committed_figure8():
    """The notebook says A4's precision row in Figure 8 'stays near zero' (Landis-Koch slight or below)."""
    from evalkit.paths import FIGURES, ROOT

    assert "its precision row stays near zero" in (ROOT / "notebooks" / f"{wang_up.NOTEBOOK.name}.ipynb").read_text()
    per = pd.read_csv(FIGURES / "wang2015" / "figure8_kappa_per_assessor.csv")
    a4 = per[(per.assessor == "A4") & (per.metric == "precision")].kappa.dropna()
    assert len(a4) == 4 and (a4.abs() <= 0.2).all()
    others = per[(per.assessor != "A4") & (per.metric == "precision")].kappa.dropna()
    assert others.median() > 0.5
