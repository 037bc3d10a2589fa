"""``evalkit assessors``: every judge equals ``evalkit score`` on the ratings it stands for.

The command as a process (exit status, nothing written on bad input) is in
``tests/integration/test_assessors_command.py``."""

import io
import json
import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from evalkit.errors import InputError
from evalkit.evaluate import assessors, compare, score
from evalkit.evaluate.assessor_study.report import FIGURES, TABLES, write_assessor_report
from evalkit.formats.assessor_ratings import read_assessor_ratings
from evalkit.formats.trec import read_run
from evalkit.workspace import cli
from evalkit.paths import EXAMPLES

RUN_FILES = sorted(str(p) for p in (EXAMPLES / "runs").glob("*.txt"))
RATINGS_FILE = str(EXAMPLES / "ratings.txt")
MEASURES = ["nG@1", "P+", "nERR@10", "Q"]


@pytest.fixture(scope="module")
def data():
    runs = pd.concat([read_run(p) for p in RUN_FILES], ignore_index=True)
    return runs, read_assessor_ratings(RATINGS_FILE)


@pytest.fixture(scope="module")
def report(data):
    return assessors(*data, measures=MEASURES, trials=1000, seed=3)


def _board(report, judge):
    b = report.leaderboards
    return b[b["judge"] == judge].set_index(["run", "measure"])["value"].sort_index()


def _scored(runs, ratings, **kw):
    out = score(runs, ratings, measures=MEASURES, **kw)
    return out.set_index(["run", "measure"])["value"].sort_index()


@pytest.mark.parametrize("gain", ["raw", "wg", "ug"])
def test_pooled_judges_equal_score(data, report, gain):
    runs, ratings = data
    pd.testing.assert_series_equal(_board(report, f"all:{gain}"), _scored(runs, ratings, gain=gain),
                                   check_exact=False, rtol=1e-13, check_names=False)


def test_each_assessor_and_each_left_out_equal_score_on_the_filtered_ratings(data, report):
    runs, ratings = data
    for a in sorted(ratings["assessor"].unique()):
        alone = ratings[ratings["assessor"] == a]
        others = ratings[ratings["assessor"] != a]
        pd.testing.assert_series_equal(_board(report, f"assessor:{a}"), _scored(runs, alone),
                                       check_exact=False, rtol=1e-13, check_names=False)
        pd.testing.assert_series_equal(_board(report, f"without:{a}"), _scored(runs, others),
                                       check_exact=False, rtol=1e-13, check_names=False)


def test_median_judge_equals_score_with_median_grades_as_qrels(data, report):
    runs, ratings = data
    med = ratings.groupby(["topic", "doc"])["rating"].median().apply(np.floor).astype(int)
    qrels = med.rename("grade").reset_index()
    got = score(runs, qrels=qrels, gain_map={g: float(g) for g in range(1, 4)}, measures=MEASURES)
    pd.testing.assert_series_equal(_board(report, "median"),
                                   got.set_index(["run", "measure"])["value"].sort_index(),
                                   check_exact=False, rtol=1e-13, check_names=False)


def test_aware_is_the_per_topic_mean_over_the_assessors_who_can_score_the_topic(data, report):
    runs, ratings = data
    per = []
    for a in sorted(ratings["assessor"].unique()):
        s = score(runs, ratings[ratings["assessor"] == a], measures=MEASURES, per_topic=True)
        per.append(s[s["topic"] != "all"].assign(assessor=a))
    per = pd.concat(per)
    by_topic = per.groupby(["run", "measure", "topic"])["value"].mean()   # over those who scored it
    expected = by_topic.groupby(["run", "measure"]).mean()
    got = _board(report, "assessor-mean")
    pd.testing.assert_series_equal(got.sort_index(), expected.sort_index(), check_exact=False,
                                   rtol=1e-13, check_names=False)


def test_ranks_and_rank_correlations_follow_the_leaderboards(report):
    b = report.leaderboards
    one = b[(b["judge"] == "assessor:A2") & (b["measure"] == "Q")]
    expected = sps.rankdata(-one["value"].to_numpy(), method="min")
    assert one["rank"].tolist() == expected.tolist()
    rc = report.rank_correlation.set_index(["judge", "measure"])
    ref = _board(report, "all:raw").xs("Q", level="measure")
    mine = _board(report, "assessor:A2").xs("Q", level="measure")
    assert rc.loc[("assessor:A2", "Q"), "kendall_tau"] == pytest.approx(
        sps.kendalltau(ref, mine).statistic, abs=1e-12)
    assert "all:raw" not in set(rc.index.get_level_values(0))
    assert len(rc) == (len(report.judges) - 1) * len(MEASURES)
    assert rc.loc[("without:A1", "nG@1"), "top1_same"] == (
        _board(report, "without:A1").xs("nG@1", level="measure").idxmax()
        == _board(report, "all:raw").xs("nG@1", level="measure").idxmax())


def test_agreement_equals_the_krippendorff_package(data, report):
    krippendorff = pytest.importorskip("krippendorff")
    _, ratings = data
    wide = ratings.pivot_table(index="assessor", columns=["topic", "doc"], values="rating")
    a = report.agreement.set_index("statistic")
    for level in ("ordinal", "interval"):
        assert a.loc[f"alpha_{level}", "value"] == pytest.approx(
            krippendorff.alpha(reliability_data=wide.to_numpy(float), level_of_measurement=level),
            abs=1e-12)
    without = wide.drop(index="A3").dropna(axis=1, how="all")
    assert a.loc["alpha_without:A3", "value"] == pytest.approx(
        krippendorff.alpha(reliability_data=without.to_numpy(float), level_of_measurement="ordinal"),
        abs=1e-12)
    assert np.isnan(a.loc["fleiss_kappa", "value"])
    assert a.loc["fleiss_kappa", "note"].startswith("not computed: items have 3 to 5 ratings")


def test_fleiss_kappa_when_every_item_has_the_same_number_of_ratings(data):
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    runs, ratings = data
    full = ratings.groupby(["topic", "doc"]).filter(lambda g: len(g) >= 3)
    three = full.sort_values("assessor").groupby(["topic", "doc"]).head(3)
    rep = assessors(runs, three, measures=["nG@1"], trials=50)
    wide = three.assign(k=three.groupby(["topic", "doc"]).cumcount()).pivot(
        index=["topic", "doc"], columns="k", values="rating")
    table, _ = aggregate_raters(wide.to_numpy())
    got = rep.agreement.set_index("statistic").loc["fleiss_kappa", "value"]
    assert got == pytest.approx(fleiss_kappa(table), abs=1e-12)


def test_verdicts_equal_compare_on_the_same_permutations(data, report):
    runs, ratings = data
    assert report.settings["hsd_topics"] == report.settings["topics"]
    v = report.verdict_stability.set_index(["measure", "system_a", "system_b"])
    full = compare(runs, ratings, measures=MEASURES, trials=1000, seed=3).set_index(
        ["measure", "system_a", "system_b"])
    assert v["significant"].tolist() == full["significant"].tolist()
    flips = pd.Series(0, index=v.index)
    for a in sorted(ratings["assessor"].unique()):
        left = compare(runs, ratings[ratings["assessor"] != a], measures=MEASURES, trials=1000,
                       seed=3).set_index(["measure", "system_a", "system_b"])
        changed = left["significant"] != full["significant"]
        flips += changed.astype(int)
        assert (v.loc[changed, "flipped_by"].str.split(";").map(lambda ids: a in ids)).all()
    assert (v["share_flipped"] == flips / 5).all()
    assert (v["share_flipped"] > 0).any()                  # the sample has fragile pairs


def test_fewer_than_two_assessors_and_bad_options_are_refused(data):
    runs, ratings = data
    with pytest.raises(InputError, match="only one assessor"):
        assessors(runs, ratings[ratings["assessor"] == "A1"])
    with pytest.raises(InputError, match="trials"):
        assessors(runs, ratings, trials=0)
    with pytest.raises(InputError, match="rates document"):
        assessors(runs, pd.concat([ratings, ratings.head(1)]))


def test_a_failure_while_writing_leaves_the_folder_as_it_was(tmp_path, report, monkeypatch):
    from evalkit.evaluate.assessor_study import report as assessor_report

    out = tmp_path / "out"
    out.mkdir()
    (out / "leaderboards.csv").write_text("old\n")

    def broken(_):
        raise RuntimeError("disk full")

    monkeypatch.setattr(assessor_report, "bump_chart", broken)
    with pytest.raises(RuntimeError):
        write_assessor_report(report, out)
    assert [p.name for p in out.iterdir()] == ["leaderboards.csv"]
    assert (out / "leaderboards.csv").read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_score_csv_and_json_carry_full_precision(data, capsys):
    # (compare --format csv|json is the statistics report, full precision: tests/evaluate/test_compare.py)
    runs, ratings = data
    expected = score(runs, ratings, measures=["P+", "Q"], gain="ug")["value"].to_numpy()
    for fmt in ("csv", "json"):
        cli.main(["score", "--ratings", RATINGS_FILE, "--gain", "ug", "--measure", "P+",
                  "--measure", "Q", "--format", fmt, *RUN_FILES])
        text = capsys.readouterr().out
        got = (pd.read_csv(io.StringIO(text)) if fmt == "csv"
               else pd.DataFrame(json.loads(text)))["value"].to_numpy()
        assert np.array_equal(got, expected), fmt            # bit for bit
    cli.main(["score", "--ratings", RATINGS_FILE, "--measure", "Q", *RUN_FILES])
    assert all(len(line.split("\t")[3].split(".")[1]) == 4
               for line in capsys.readouterr().out.splitlines())  # TSV keeps four decimals


def test_matrix_and_ranked_list_converters_round_trip(tmp_path, data):
    from evalkit.evaluate.assessor_study.study import ratings_from_matrix, runs_from_lists
    from evalkit.formats.assessor_ratings import read_any_ratings
    from evalkit.measures.graded import ranked_lists

    stc = tmp_path / "stc.txt"
    stc.write_text("P1\tR1\t0\t1\t2\nP1\tR2\t1\tNA\t2\nP2\tR3\t2\t2\t1\n")
    from_file = read_any_ratings(stc, 2, "stc")
    matrix = np.array([[0, 1, 2], [1, np.nan, 2], [2, 2, 1]])
    got = ratings_from_matrix(["P1", "P1", "P2"], ["R1", "R2", "R3"], matrix)
    pd.testing.assert_frame_equal(got, from_file)
    runs, ratings = data
    qrels = ratings.groupby(["topic", "doc"])["rating"].max().rename("grade").reset_index()
    lists = ranked_lists(runs, qrels, 10)
    again = ranked_lists(runs_from_lists(lists), qrels, 10)
    assert again.runs == lists.runs and again.topics == lists.topics
    assert np.array_equal(again.index, lists.index)      # unjudged entries stay unjudged, in place


def test_a_stem_names_the_files_for_a_shared_folder(tmp_path, report):
    written = write_assessor_report(report, tmp_path / "figs", figure=False, stem="stc_who_judged")
    assert sorted(p.name for p in written) == sorted(f"stc_who_judged_{n}" for n in TABLES)


def test_an_assessor_who_found_nothing_relevant_has_an_empty_leaderboard(data):
    runs, ratings = data
    zeroed = ratings.assign(rating=ratings["rating"].where(ratings["assessor"] != "A5", 0))
    rep = assessors(runs, zeroed, measures=["Q"], trials=100)
    board = rep.leaderboards[rep.leaderboards["judge"] == "assessor:A5"]
    assert board["value"].isna().all() and board["rank"].isna().all()
    assert any("under assessor:A5" in note for note in rep.notes)
    # AWARE averages the four other assessors only, topic by topic
    others = [score(runs, zeroed[zeroed["assessor"] == a], measures=["Q"], per_topic=True)
              for a in ("A1", "A2", "A3", "A4")]
    per = pd.concat(others)
    per = per[per["topic"] != "all"].groupby(["run", "topic"])["value"].mean()
    aware = rep.leaderboards[rep.leaderboards["judge"] == "assessor-mean"].set_index("run")["value"]
    np.testing.assert_allclose(aware.sort_index(), per.groupby("run").mean().sort_index(), rtol=1e-13)


def test_the_example_in_the_docs_is_what_the_command_prints(tmp_path, capsys):
    from evalkit.paths import ROOT

    doc = (ROOT / "docs" / "assessors.md").read_text()
    assert cli.main(["assessors", "--ratings", RATINGS_FILE, "--measure", "nG@1", "--measure",
                     "nERR@10", "--measure", "Q", "--trials", "2000", "--seed", "1",
                     "--out", str(tmp_path / "who"), *RUN_FILES]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and all(line in doc for line in lines)
    stability = pd.read_csv(tmp_path / "who" / "verdict_stability.csv").fillna("")
    row = stability[(stability["measure"] == "nERR@10") & (stability["system_a"] == "alpha-1")
                    & (stability["system_b"] == "gamma-2")].iloc[0]
    assert row["significant"] and row["share_flipped"] == 0.4 and row["flipped_by"] == "A1;A2"


def test_agreement_of_the_ten_real_stc_ja_assessors(external):
    """Real NTCIR-12 STC-ja ratings (18,543 items x 10 assessors): alpha against the
    krippendorff package, Fleiss' kappa (every item has ten ratings) against statsmodels."""
    krippendorff = pytest.importorskip("krippendorff")
    from statsmodels.stats.inter_rater import fleiss_kappa

    from evalkit import data
    from evalkit.evaluate.assessor_study.study import _agreement, ratings_from_matrix
    from evalkit.evaluate.judges.gains import judge_gains
    from evalkit.papers import real_data

    items, matrix = real_data.load_stc(data.path_of("stc-ja-test", external))
    got = _agreement(judge_gains(ratings_from_matrix(items.post, items.reply, matrix),
                                 dmax=2)).set_index("statistic")["value"]
    for level in ("ordinal", "interval"):
        assert got[f"alpha_{level}"] == pytest.approx(
            krippendorff.alpha(reliability_data=matrix.T, level_of_measurement=level), abs=1e-12)
    counts = np.stack([(matrix == g).sum(axis=1) for g in range(3)], axis=1)
    assert got["fleiss_kappa"] == pytest.approx(fleiss_kappa(counts), abs=1e-12)
    assert got["alpha_without:a10"] == pytest.approx(
        krippendorff.alpha(reliability_data=matrix[:, :9].T, level_of_measurement="ordinal"),
        abs=1e-12)
