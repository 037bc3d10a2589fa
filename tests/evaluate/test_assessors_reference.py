"""``evalkit assessors --reference NAME``: every judge's leaderboard against the reference's.

Independent checks: per-topic nDCG@10 from ``evalkit score`` on each judge's own
qrels; the bootstrap intervals from a slow loop written from the definition
(scipy's kendalltau, the scalar tau_ap, sets of top runs) with the same seed; the
five verdict counts from scipy's ``ttest_rel`` and statsmodels' ``multipletests``
(Holm) pair by pair, and from one ``randomised_tukey_hsd`` per judge for the HSD.
On ``data/examples/judges/`` the random judge (mallory) is the one whose
significance verdicts depart from alice's, and whose intervals reach lowest.
"""

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

from evalkit.errors import InputError, ParameterError
from evalkit.evaluate import assessors, score
from evalkit.evaluate.assessor_study.reference import reference_judges
from evalkit.formats.trec import read_qrels, read_run
from evalkit.paths import EXAMPLES
from evalkit.stats.hsd import randomised_tukey_hsd
from evalkit.stats.rank_correlation import tau_ap

FOLDER = EXAMPLES / "judges"
JUDGES = ("alice", "bob", "carol", "mallory")
RUN_FILES = sorted(str(p) for p in (FOLDER / "runs").glob("*.txt"))
OTHERS = ["assessor:bob", "assessor:carol", "assessor:mallory", "without:alice"]


def _ratings():
    return pd.concat([read_qrels(FOLDER / f"{j}.qrels").rename(columns={"grade": "rating"})
                      .assign(assessor=j) for j in JUDGES], ignore_index=True)


@pytest.fixture(scope="module")
def runs():
    return pd.concat([read_run(p) for p in RUN_FILES], ignore_index=True)


@pytest.fixture(scope="module")
def report(runs):
    return assessors(runs, _ratings(), measures=["nDCG@10", "P@10"], dmax=2, trials=300, seed=5,
                     reference="alice", bootstrap=300)


@pytest.fixture(scope="module")
def per_topic():
    """Each judge's per-topic nDCG@10 (topics x runs) from ``evalkit score`` on its own qrels."""
    out = {}
    for j in JUDGES:
        s = score(RUN_FILES, qrels=read_qrels(FOLDER / f"{j}.qrels"), gain_map={1: 1.0, 2: 2.0},
                  measures=["nDCG@10"], per_topic=True)
        s = s[s["topic"] != "all"]
        out[f"assessor:{j}"] = s.pivot(index="topic", columns="run", values="value").astype(float)
    return out


def _row(frame, judge, statistic, measure="nDCG@10"):
    return frame[(frame["judge"] == judge) & (frame["measure"] == measure)
                 & (frame["statistic"] == statistic)].iloc[0]


def test_judges_compared_with_the_reference():
    order = ["all:raw", "all:wg", "all:ug", "median", "dawid-skene", "assessor-mean",
             "assessor:alice", "assessor:bob", "without:alice", "without:bob"]
    assert reference_judges(order, ["alice", "bob"], "alice") == {
        "all:raw": True, "all:wg": True, "all:ug": True, "median": True, "dawid-skene": True,
        "assessor-mean": True, "assessor:bob": False, "without:alice": False}


@pytest.mark.parametrize("judge", ["assessor:bob", "assessor:carol", "assessor:mallory"])
def test_bootstrap_intervals_equal_a_slow_loop_from_the_definition(report, per_topic, judge):
    ref, x = per_topic["assessor:alice"], per_topic[judge]
    t = len(ref)
    rng = np.random.default_rng(5)                  # the seed; one resample of T topics at a time
    boot = {"kendall_tau": [], "tau_ap": [], "top_5_overlap": []}
    for _ in range(300):
        idx = rng.integers(0, t, size=t)
        a, b = ref.to_numpy()[idx].mean(axis=0), x.to_numpy()[idx].mean(axis=0)
        boot["kendall_tau"].append(sps.kendalltau(a, b).statistic)
        boot["tau_ap"].append(tau_ap(a, b))
        assert len(set(a)) == len(set(b)) == len(a)                  # no ties: plain top-5 sets
        top_a, top_b = set(np.argsort(-a)[:5]), set(np.argsort(-b)[:5])
        boot["top_5_overlap"].append(len(top_a & top_b) / 5)
    full_a, full_b = ref.mean().to_numpy(), x.mean().to_numpy()
    point = {"kendall_tau": sps.kendalltau(full_a, full_b).statistic,
             "tau_ap": tau_ap(full_a, full_b),
             "top_5_overlap": len(set(np.argsort(-full_a)[:5]) & set(np.argsort(-full_b)[:5])) / 5}
    for statistic, values in boot.items():
        row = _row(report.reference_agreement, judge, statistic)
        low, high = np.percentile(values, [2.5, 97.5])
        assert row["value"] == pytest.approx(point[statistic], abs=1e-12)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high), abs=1e-12)
        assert row["topics"] == t == 30


def _slow_counts(ref, x, significant):
    """The five counts from two topics x runs matrices and a verdicts function."""
    sig_r, d_r = significant(ref)
    sig_x, d_x = significant(x)
    counts = dict.fromkeys(["both_same_direction", "reference_only", "judge_only", "opposite",
                            "neither"], 0)
    for sr, sx, dr, dx in zip(sig_r, sig_x, d_r, d_x):
        if sr and sx:
            counts["both_same_direction" if np.sign(dr) == np.sign(dx) else "opposite"] += 1
        else:
            counts["reference_only" if sr else "judge_only" if sx else "neither"] += 1
    return counts


def _t_holm(m):
    runs = list(m.columns)
    pairs = [(a, b) for i, a in enumerate(runs) for b in runs[i + 1:]]
    p = [sps.ttest_rel(m[a], m[b]).pvalue for a, b in pairs]
    reject = multipletests(p, alpha=0.05, method="holm")[0]
    return reject, [m[a].mean() - m[b].mean() for a, b in pairs]


def test_verdict_counts_equal_scipy_t_tests_with_statsmodels_holm(report, per_topic):
    table = report.significance_agreement.set_index(["judge", "measure"])
    for judge in ("assessor:bob", "assessor:carol", "assessor:mallory"):
        want = _slow_counts(per_topic["assessor:alice"], per_topic[judge], _t_holm)
        got = table.loc[(judge, "nDCG@10")]
        assert {k: int(got[k]) for k in want} == want
        assert got["pairs"] == 28 == sum(want.values())


def test_verdict_counts_under_the_hsd_equal_one_test_per_judge(runs, per_topic):
    rep = assessors(runs, _ratings(), measures=["nDCG@10"], dmax=2, trials=400, seed=2,
                    reference="alice", bootstrap=0, test="hsd")

    def hsd(m):
        t = randomised_tukey_hsd(m, n_trials=400, seed=2)             # the same permutations
        return (t["p_value"] < 0.05).to_numpy(), t["diff"].to_numpy()

    table = rep.significance_agreement.set_index("judge")
    for judge in ("assessor:bob", "assessor:mallory"):
        want = _slow_counts(per_topic["assessor:alice"], per_topic[judge], hsd)
        assert {k: int(table.loc[judge, k]) for k in want} == want
    assert rep.reference_agreement["ci_low"].isna().all()               # --bootstrap 0: no interval


def test_example_mallory_departs_most_from_alice(report):
    """The random judge: worst on significance agreement and lowest intervals on nDCG@10, worst on
    every point estimate on P@10; on nDCG@10's point estimates bob is farther (see docs)."""
    rc, sig = report.reference_agreement, report.significance_agreement
    mine = sig[(sig["measure"] == "nDCG@10") & sig["judge"].isin(OTHERS)].set_index("judge")
    differ = mine["reference_only"] + mine["judge_only"] + mine["opposite"]
    assert differ.idxmax() == "assessor:mallory" and differ.max() == 17
    assert mine.loc["assessor:mallory", "both_same_direction"] == 0
    assert differ.drop("assessor:mallory").max() <= 3
    for statistic in ("kendall_tau", "tau_ap"):
        low = {j: _row(rc, j, statistic)["ci_low"] for j in OTHERS}
        assert min(low, key=low.get) == "assessor:mallory"
        p10 = {j: _row(rc, j, statistic, "P@10")["value"] for j in OTHERS}
        assert min(p10, key=p10.get) == "assessor:mallory"
    # nDCG@10 point estimates by hand from the leaderboards: bob reverses alice's run7 > run8 >
    # run6 (3 of 28 pairs discordant), mallory swaps run2 above run3 and run4 (2 of 28)
    board = report.leaderboards[report.leaderboards["measure"] == "nDCG@10"]
    means = {j: g.set_index("run")["value"] for j, g in board.groupby("judge")}
    runs = sorted(means["assessor:alice"].index)

    def discordant(judge):
        a, x = means["assessor:alice"], means[judge]
        return {(r, s) for i, r in enumerate(runs) for s in runs[i + 1:]
                if (a[r] - a[s]) * (x[r] - x[s]) < 0}

    assert discordant("assessor:bob") == {("run6", "run7"), ("run6", "run8"), ("run7", "run8")}
    assert discordant("assessor:mallory") == {("run2", "run3"), ("run2", "run4")}
    assert _row(rc, "assessor:bob", "kendall_tau")["value"] == pytest.approx(1 - 2 * 3 / 28)
    assert _row(rc, "assessor:mallory", "kendall_tau")["value"] == pytest.approx(1 - 2 * 2 / 28)


def test_summary_line_names_the_closest_and_farthest_from_the_data(report):
    lines = report.summary()
    assert len(lines) == 3 + 2
    ndcg = lines[3]
    assert ndcg.startswith("Against alice on nDCG@10 (4 judges without alice's labels, 30 topics")
    tau = {j: _row(report.reference_agreement, j, "kendall_tau") for j in OTHERS}
    far = min(tau, key=lambda j: tau[j]["value"])
    assert f"farthest {far} (Kendall tau {tau[far]['value']:.3f}" in ndcg
    assert (f"lowest interval: assessor:mallory (Kendall tau {tau['assessor:mallory']['value']:.3f}"
            f", 95% interval {tau['assessor:mallory']['ci_low']:.3f}") in ndcg
    assert "most verdicts differing from alice's: assessor:mallory, 17 of 28 run pairs" in ndcg


def test_judge_correlation_is_kendall_tau_of_the_leaderboards(report, per_topic):
    corr = report.judge_correlation
    corr = corr[corr["measure"] == "nDCG@10"].set_index(["judge_a", "judge_b"])["kendall_tau"]
    for a, b in [("assessor:alice", "assessor:bob"), ("assessor:bob", "assessor:mallory")]:
        want = sps.kendalltau(per_topic[a].mean(), per_topic[b].mean()).statistic
        assert corr[(a, b)] == corr[(b, a)] == pytest.approx(want, abs=1e-12)
    assert corr[("assessor:carol", "assessor:carol")] == 1.0
    judges = {"assessor:alice", *reference_judges(report.judges, report.assessors, "alice")}
    assert set(corr.index.get_level_values(0)) == judges and len(corr) == len(judges) ** 2


def test_a_judge_sharing_no_topic_is_refused_and_one_grading_all_zero_kept(runs):
    ratings = _ratings()
    bob = ratings[ratings["assessor"] == "bob"]
    # issue 43: a judge whose topics are spelled otherwise ('x401' ...) would score 0 and
    # pool extra topics; it is refused in one line, naming a topic of each side (this test
    # kept it, with NaN rows and a note, before). An assessor of a ratings file may judge
    # other topics than the rest (one assessor per topic), but not none of the runs'
    disjoint = pd.concat([ratings[ratings["assessor"].isin(["alice", "carol"])],
                          bob.assign(assessor="disjoint", topic="x" + bob["topic"])],
                         ignore_index=True)
    with pytest.raises(InputError, match="judge disjoint shares no topic with the runs: "
                                         "its topic x401 against the runs' topic 401"):
        assessors(runs, disjoint, measures=["nDCG@10"], dmax=2, trials=100, reference="alice")
    odd = pd.concat([ratings[ratings["assessor"].isin(["alice", "carol"])],
                     bob.assign(assessor="zero", rating=0)], ignore_index=True)
    rep = assessors(runs, odd, measures=["nDCG@10"], dmax=2, trials=100, reference="alice",
                    bootstrap=100)
    rc = rep.reference_agreement.set_index(["judge", "statistic"])
    # all-zero grades: trec_eval's nDCG@10 is 0 on every topic, the leaderboard ties every run
    assert rc.loc[("assessor:zero", "topics")].eq(30).all()
    assert np.isnan(rc.loc[("assessor:zero", "kendall_tau"), "value"])
    assert np.isnan(rc.loc[("assessor:zero", "tau_ap"), "value"])
    assert rc.loc[("assessor:zero", "top_5_overlap"), "value"] == 5 / 8           # chance, K / R
    sig = rep.significance_agreement.set_index("judge")
    assert sig.loc["assessor:zero", "judge_only"] == sig.loc["assessor:zero", "opposite"] == 0
    line = rep.summary()[3]
    assert "(3 judges without alice's labels, 1 without a Kendall tau" in line
    # without:alice pools carol's grades with zeros: carol's order, so the two are alike
    assert "closest and farthest alike: assessor:carol (Kendall tau 1.000" in line
    assert " and without:alice (Kendall tau 1.000" in line


def test_without_reference_nothing_is_added(runs):
    rep = assessors(runs, _ratings(), measures=["nDCG@10"], dmax=2, trials=100, seed=5)
    assert rep.reference is None and rep.reference_agreement is None
    assert len(rep.summary()) == 3


@pytest.mark.parametrize("options, message", [
    ({"reference": "zed"}, "--reference zed: no judge of that name; the judges are alice, bob, "
                           "carol, mallory"),
    ({"reference": "alice", "top": 8}, "top = 8 is invalid: expected a whole number from 1 to 7"),
    ({"reference": "alice", "test": "wilcoxon"}, "test = 'wilcoxon' is invalid"),
    ({"reference": "alice", "bootstrap": -1}, "bootstrap = -1 is invalid"),
])
def test_bad_reference_options_are_refused(runs, options, message):
    with pytest.raises((InputError, ParameterError), match=message.replace("(", r"\(")):
        assessors(runs, _ratings(), measures=["nDCG@10"], dmax=2, trials=100, **options)


# --- the example in docs/assessors.md: every number is computed here --------------------------

def _table(out) -> str:
    """The docs' table of the judges without alice's labels, from the two CSV files."""
    rc, sig = pd.read_csv(out / "reference.csv"), pd.read_csv(out / "significance_agreement.csv")

    def cell(judge, statistic):
        r = rc[(rc["judge"] == judge) & (rc["statistic"] == statistic)].iloc[0]
        return f"{r['value']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]"

    lines = ["| judge | Kendall tau | tau_ap | top-5 overlap | both, same direction | alice only "
             "| judge only | opposite | neither |", "|---|---|---|---|---|---|---|---|---|"]
    for _, s in sig[~sig["includes_reference"]].iterrows():
        j = s["judge"]
        lines.append(f"| `{j}` | {cell(j, 'kendall_tau')} | {cell(j, 'tau_ap')} | "
                     f"{cell(j, 'top_5_overlap')} | {s['both_same_direction']} | "
                     f"{s['reference_only']} | {s['judge_only']} | {s['opposite']} | {s['neither']} |")
    return "\n".join(lines)


def _draws(n: int = 20) -> dict[str, int]:
    """In how many of ``n`` draws of the example's generator mallory is alone the farthest from
    alice on nDCG@10 (Kendall tau, tau_ap), has the lowest tau interval, the most differing
    verdicts."""
    import tempfile
    from pathlib import Path

    from evalkit.evaluate.judges.example import write_judges_example

    count = dict.fromkeys(["tau", "ap", "low", "sig"], 0)
    for seed in range(n):
        with tempfile.TemporaryDirectory() as tmp:
            write_judges_example(tmp, seed=seed)
            ratings = pd.concat([read_qrels(Path(tmp) / f"{j}.qrels")
                                 .rename(columns={"grade": "rating"}).assign(assessor=j)
                                 for j in JUDGES])
            runs = pd.concat([read_run(p) for p in sorted((Path(tmp) / "runs").glob("*.txt"))])
            rep = assessors(runs, ratings, measures=["nDCG@10"], dmax=2, trials=50, seed=0,
                            reference="alice", bootstrap=200)
        rc = rep.reference_agreement[rep.reference_agreement["judge"].isin(OTHERS)]
        for key, statistic, column in (("tau", "kendall_tau", "value"), ("ap", "tau_ap", "value"),
                                       ("low", "kendall_tau", "ci_low")):
            v = rc[rc["statistic"] == statistic].set_index("judge")[column]
            count[key] += int(v.idxmin() == "assessor:mallory" and (v == v.min()).sum() == 1)
        s = rep.significance_agreement.set_index("judge").loc[OTHERS]
        differ = s["reference_only"] + s["judge_only"] + s["opposite"]
        count["sig"] += int(differ.idxmax() == "assessor:mallory" and (differ == differ.max()).sum() == 1)
    return count


def example_numbers(out) -> dict[str, str]:
    """The placeholders of the docs' example, from the command's files in ``out``."""
    board = pd.read_csv(out / "leaderboards.csv")
    alice = board[board["judge"] == "assessor:alice"].set_index("run")["value"]
    top3 = alice.sort_values(ascending=False).head(3)
    rc = pd.read_csv(out / "reference.csv").set_index(["judge", "statistic"])
    sig = pd.read_csv(out / "significance_agreement.csv").set_index("judge")
    careful = sig.loc[["assessor:bob", "assessor:carol"]]
    draws = _draws()
    return {"TABLE": _table(out),
            "ALICE_SIGNIFICANT": str(sig.loc["assessor:mallory", "reference_only"]
                                     + sig.loc["assessor:mallory", "both_same_direction"]
                                     + sig.loc["assessor:mallory", "opposite"]),
            "CAREFUL_DIFFER_MAX": str((careful["reference_only"] + careful["judge_only"]
                                       + careful["opposite"]).max()),
            "MALLORY_TAU_LOW": f"{rc.loc[('assessor:mallory', 'kendall_tau'), 'ci_low']:.3f}",
            "MALLORY_AP_LOW": f"{rc.loc[('assessor:mallory', 'tau_ap'), 'ci_low']:.3f}",
            "TOP3_SPREAD": f"{top3.max() - top3.min():.3f}",
            "TOP3": ", ".join(f"{run} {value:.3f}" for run, value in top3.items()),
            "DRAWS_TAU": str(draws["tau"]), "DRAWS_AP": str(draws["ap"]),
            "DRAWS_LOW": str(draws["low"]), "DRAWS_SIG": str(draws["sig"])}


def run_docs_example(out, capsys, monkeypatch) -> list[str]:
    from evalkit.workspace import cli

    monkeypatch.chdir(FOLDER)
    judges = [a for j in JUDGES for a in ("--judge", f"{j}={j}.qrels")]
    runs = [f"runs/{p.split('/')[-1]}" for p in RUN_FILES]
    assert cli.main(["assessors", *judges, "--grades", "0:2", "--reference", "alice", "--measure",
                     "nDCG@10", "--trials", "2000", "--seed", "1", "--out", str(out), *runs]) == 0
    return capsys.readouterr().out.splitlines()


def test_the_example_in_the_docs_is_what_the_command_prints(tmp_path, capsys, monkeypatch):
    from evalkit.paths import ROOT

    doc = (ROOT / "docs" / "assessors.md").read_text()
    lines = run_docs_example(tmp_path / "who", capsys, monkeypatch)
    assert len(lines) == 4
    for line in lines:
        assert line in doc, line
    numbers = example_numbers(tmp_path / "who")
    assert numbers["CAREFUL_DIFFER_MAX"] == "2" and numbers["ALICE_SIGNIFICANT"] == "17"
    for key, value in numbers.items():
        assert value in doc, (key, value)


# --- figures ------------------------------------------------------------------------------------

def _many_judges(n_extra: int = 6):
    """The four judges and ``n_extra`` more, each alice's labels with a seeded share re-drawn."""
    ratings = _ratings()
    alice = ratings[ratings["assessor"] == "alice"]
    rng = np.random.default_rng(12)
    extra = []
    for k in range(n_extra):
        noisy = rng.random(len(alice)) < 0.1 * (k + 1)
        extra.append(alice.assign(assessor=f"judge{k + 1}",
                                  rating=np.where(noisy, rng.integers(0, 3, len(alice)),
                                                  alice["rating"])))
    return pd.concat([ratings, *extra], ignore_index=True)


def test_more_than_eight_judges_draw_the_reference_chart_and_the_heat_map(runs, tmp_path,
                                                                          monkeypatch):
    pytest.importorskip("matplotlib")
    from evalkit.evaluate.assessor_study import reference_figure, report as report_module
    from evalkit.evaluate.assessor_study.report import (FIGURES, REFERENCE_FIGURES,
                                                        REFERENCE_TABLES, write_assessor_report)

    rep = assessors(runs, _many_judges(), measures=["nDCG@10"], dmax=2, trials=100, seed=1,
                    reference="alice", bootstrap=50)
    assert len(rep.assessors) == 10
    drawn = []
    real = reference_figure.reference_chart
    monkeypatch.setattr(reference_figure, "reference_chart",
                        lambda r, *a: drawn.append("reference") or real(r, *a))
    monkeypatch.setattr(report_module, "bump_chart", lambda r: pytest.fail("bump chart drawn"))
    written = write_assessor_report(rep, tmp_path / "out", figure=True)
    assert drawn == ["reference"]
    assert {p.name for p in written} >= {*FIGURES, *REFERENCE_FIGURES, *REFERENCE_TABLES}
    # the coloured judges: the 3 highest and 3 lowest Kendall tau among the independent judges
    tau = pd.read_csv(tmp_path / "out" / "reference.csv")
    tau = tau[(tau["statistic"] == "kendall_tau") & ~tau["includes_reference"]]
    ordered = list(tau.sort_values("value", ascending=False, kind="stable")["judge"])
    best, worst = reference_figure.highlighted(rep, "nDCG@10")
    assert best == ordered[:3] and worst == ordered[-3:]
    fig = real(rep)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    compared = rep.reference_agreement["judge"].nunique()           # 9 assessors, 6 pooled, 1
    assert compared == 16 and labels[0] == f"the other {compared - 6} judges"
    assert labels[-1] == "assessor:alice (reference)"
    assert [label.split(": tau")[0] for label in labels[1:7]] == best + worst


def test_at_most_eight_judges_draw_the_bump_chart_with_the_reference_shaded(report):
    pytest.importorskip("matplotlib")
    from evalkit.evaluate.assessor_study.report import bump_chart

    fig = bump_chart(report)
    at = report.judges.index("assessor:alice")
    panels = fig.axes[:2]                                      # two measures; then their twins
    for ax in panels:
        # axvspan's patch (a Polygon before matplotlib 3.9, a Rectangle since), x in data units
        xs = [p.get_patch_transform().transform(p.get_path().vertices)[:, 0] for p in ax.patches]
        assert [(x.min(), x.max()) for x in xs] == [pytest.approx((at - 0.45, at + 0.45))]
    ticks = panels[-1].get_xticklabels()
    assert ticks[at].get_text() == "assessor:alice" and ticks[at].get_fontweight() == "bold"


def test_the_parsers_test_choices_are_the_reference_modules():
    from evalkit.evaluate.assessor_study import cli, reference

    assert cli.TESTS == reference.TESTS
