"""Can these LLM judges replace the human assessors?  The chapter's tests between judges and its
consensus without the humans, checked on the real labels (installed from the mirror) against the
library's own commands, the krippendorff package and statsmodels, and on hand-made tables."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evalkit.evaluate.judge_agreement.consensus import consensus_table, entering_judges
from evalkit.evaluate.judge_agreement.pairs import indistinguishable_from, pairs_table
from evalkit.evaluate.judge_agreement.tables import agreement_table
from evalkit.formats.trec import write_qrels
from evalkit.papers import llmjudge2024 as paper

FIGURES = Path(__file__).resolve().parents[2] / "figures" / "llmjudge2024"


@pytest.fixture(scope="module")
def loaded(external):
    labels, _, _ = paper.load_labels(external)
    table = agreement_table(labels, reference=paper.HUMAN, cuts=None, bootstrap=0)
    return labels, paper.label_matrix(labels), table


def _changed_human(labels: pd.DataFrame) -> pd.DataFrame:
    out = labels.copy()
    human = out["judge"] == paper.HUMAN
    out.loc[human, "grade"] = 3 - out.loc[human, "grade"]          # every human label changed
    return out


# --- consensus without the humans --------------------------------------------------------------

def test_the_consensus_files_are_byte_identical_when_the_human_labels_change(loaded, tmp_path):
    labels, m, _ = loaded
    changed = _changed_human(labels)
    assert (changed["grade"] != labels["grade"]).sum() == 4423
    entering = entering_judges(labels, paper.HUMAN)
    assert paper.HUMAN not in entering and len(entering) == 33
    for rule in paper.CONSENSUS_RULES:
        before, after = tmp_path / f"{rule}.txt", tmp_path / f"{rule}-changed.txt"
        write_qrels(consensus_table(labels, rule, entering), before)
        write_qrels(consensus_table(changed, rule, entering_judges(changed, paper.HUMAN)), after)
        assert before.read_bytes() == after.read_bytes()
    # the chapter's combiners too, built from a matrix whose human labels all changed
    m2 = paper.label_matrix(changed)
    ours, theirs = paper.combined_labels(m, 0.2), paper.combined_labels(m2, 0.2)
    assert all(np.array_equal(ours[k], theirs[k]) for k in paper.COMBINERS)
    # the test can fail: with the reference inside, Dawid-Skene moves with the human labels
    inside = entering_judges(labels, paper.HUMAN, with_reference=True)
    a = consensus_table(labels, "dawid-skene", inside)["grade"].to_numpy()
    b = consensus_table(changed, "dawid-skene", inside)["grade"].to_numpy()
    assert (a != b).any()


def test_the_consensus_grades_are_the_documented_ones(loaded):
    """docs/agreement.md: Dawid-Skene puts 790 items at grade 3 where the humans put 377
    (median 83, majority 153)."""
    _, m, _ = loaded
    c = paper.combined_labels(m, 0.2)
    assert {k: int((c[k] == 3).sum()) for k in ("dawid-skene", "median", "majority")} == \
        {"dawid-skene": 790, "median": 83, "majority": 153}
    assert int((m.human == 3).sum()) == 377


def test_the_consensus_alpha_equals_the_krippendorff_package(loaded):
    krippendorff = pytest.importorskip("krippendorff")
    _, m, _ = loaded
    c = paper.combined_labels(m, 0.2)
    comb, _ = paper.combining_table(m, c, folds=5, bootstrap=20, seed=1)
    value = comb.set_index("judge")["value"]
    for rule in paper.CONSENSUS_RULES:
        theirs = krippendorff.alpha(reliability_data=[m.human, c[rule]], value_domain=[0, 1, 2, 3],
                                    level_of_measurement="ordinal")
        assert value[rule] == pytest.approx(theirs, abs=1e-12)
    # documented in docs/agreement.md from `evalkit agreement`
    assert (round(value["majority"], 3), round(value["median"], 3),
            round(value["dawid-skene"], 3)) == (0.474, 0.495, 0.424)


def test_each_splits_randomisation_test_is_the_librarys_pairs_table(loaded):
    _, m, _ = loaded
    c = {k: v for k, v in paper.combined_labels(m, 0.2).items() if k in paper.CONSENSUS_RULES}
    splits = paper.split_draws(m, c, folds=5, draws=2, bootstrap=10, seed=3, trials=300)
    for draw in (0, 1):
        fair, _ = paper.fair_best_single(m, 5, 3 + draw)
        long = paper.combining.long_labels(m, c | {paper.FAIR: fair})
        want, _ = pairs_table(long, paper.HUMAN, "alpha_ordinal", [*c, paper.FAIR], bootstrap=0,
                              trials=300, seed=3)
        want = want[want["judge_b"] == paper.FAIR].set_index("judge_a")
        got = splits[splits["draw"] == draw].set_index("judge")
        assert got.loc[list(c), "p_value"].tolist() == want.loc[list(c), "p_value"].tolist()
        assert got.loc[list(c), "diff"].to_numpy() == pytest.approx(
            want.loc[list(c), "difference"].to_numpy(), abs=1e-12)
        holm = pytest.importorskip("statsmodels.stats.multitest").multipletests(
            got["p_value"], method="holm")[1]
        assert got["p_holm"].to_numpy() == pytest.approx(holm, abs=1e-15)


def test_the_consensus_summary_counts_the_splits():
    comb = pd.DataFrame({"judge": ["median", "majority"], "value": [0.5, 0.45],
                         "ci_low": [0.4, 0.35], "ci_high": [0.6, 0.55]})
    splits = pd.DataFrame({"draw": [0, 0, 1, 1, 2, 2], "judge": ["median", "majority"] * 3,
                           "diff": [0.02, -0.01, 0.03, 0.01, -0.01, -0.02],
                           "supported": [True, False, False, False, False, True],
                           "p_holm": [0.01, 0.5, 0.2, 0.9, 0.04, 0.03]})
    split_mean = pd.DataFrame({"judge": ["median", "majority"], "mean_diff": [0.0133, -0.0067],
                               "diff_low": [0.001, -0.03], "diff_high": [0.03, 0.02]})
    out = paper.consensus_summary(comb, splits, split_mean, 33, rules=("median", "majority"))
    got = out.set_index("rule")
    assert got.loc["median", ["positive", "interval_excludes_0", "test_rejects"]].tolist() == [2, 1, 2]
    assert got.loc["majority", ["positive", "interval_excludes_0", "test_rejects"]].tolist() == [1, 1, 1]
    assert got["verdict"].tolist() == ["holds", "not testable here"]
    assert (got["judges"] == 33).all() and (got["draws"] == 3).all()


# --- tests between judges ----------------------------------------------------------------------

def test_the_floor_of_holm_over_many_pairs_by_hand():
    assert paper.holm_floor(528, 5000) == pytest.approx(528 / 5001)
    assert paper.holm_floor(528, 5000) > 0.05 > paper.holm_floor(32, 5000)
    assert paper.trials_needed(528, 0.05) == 10560
    assert paper.holm_floor(528, 10560) < 0.05 <= paper.holm_floor(528, 10559)
    assert paper.trials_needed(32, 0.05) == 640 and paper.holm_floor(3, 1) == 1.0


def test_no_pair_of_the_33_judges_can_pass_holm_with_too_few_trials(loaded):
    labels, _, table = loaded
    pairs = paper.judge_pairs(labels, table, bootstrap=0, trials=400, seed=5)
    assert len(pairs) == 528 and (pairs["judge_a"].iloc[0] == "Olz-gpt4o")
    assert pairs["p_holm"].min() >= paper.holm_floor(528, 400) - 1e-15
    assert pairs["p_value"].min() == pytest.approx(1 / 401)         # some pair beats every swap


def test_the_difference_from_the_best_is_the_krippendorff_packages(loaded):
    krippendorff = pytest.importorskip("krippendorff")
    labels, m, table = loaded
    pairs = paper.judge_pairs(labels, table, bootstrap=30, trials=200, seed=2)
    rest = paper.best_versus_rest(labels, paper.judge_order(table), trials=200, seed=2, draws=2)
    versus = paper.versus_best(table, pairs, rest).set_index("judge")
    assert versus.index[0] == "Olz-gpt4o" and versus["alpha"].iloc[0] == pytest.approx(0.502, abs=5e-4)

    def kripp(j):
        return krippendorff.alpha(reliability_data=[m.human, m.llm[:, m.judges.index(j)]],
                                  value_domain=[0, 1, 2, 3], level_of_measurement="ordinal")
    for judge in ("h2oloo-fewself", "TREMA-rubric0"):
        assert versus.loc[judge, "difference"] == pytest.approx(kripp(judge) - kripp("Olz-gpt4o"),
                                                                abs=1e-12)
        row = pairs[(pairs.judge_a == "Olz-gpt4o") & (pairs.judge_b == judge)].iloc[0]
        assert (versus.loc[judge, "diff_low"], versus.loc[judge, "diff_high"]) == (
            -row.ci_high, -row.ci_low)
    assert (versus["diff_low"].iloc[1:] <= versus["difference"].iloc[1:]).all()


def test_draw_0_of_the_best_against_the_rest_is_pairs_csvs_test(loaded):
    statsmodels = pytest.importorskip("statsmodels.stats.multitest")
    labels, _, table = loaded
    order = paper.judge_order(table)
    pairs = paper.judge_pairs(labels, table, bootstrap=0, trials=300, seed=9)
    rest = paper.best_versus_rest(labels, order, trials=300, seed=9, draws=2)
    first = rest[rest["draw"] == 0].set_index("judge")
    mine = pairs[pairs["judge_a"] == order[0]].set_index("judge_b")
    assert first["p_value"].tolist() == mine.loc[first.index, "p_value"].tolist()
    assert first["p_holm"].to_numpy() == pytest.approx(
        statsmodels.multipletests(first["p_value"], method="holm")[1], abs=1e-15)
    second = rest[rest["draw"] == 1]["p_value"].to_numpy()
    assert not np.array_equal(second, first["p_value"].to_numpy())    # another swap stream


def test_the_committed_counts_are_recomputed_from_pairs_csv():
    """figures/llmjudge2024: the counts of indistinguishable judges from pairs.csv itself."""
    statsmodels = pytest.importorskip("statsmodels.stats.multitest")
    pairs = pd.read_csv(FIGURES / "pairs.csv")
    summary = pd.read_csv(FIGURES / "indistinguishable_summary.csv")
    versus = pd.read_csv(FIGURES / "indistinguishable.csv")
    agreement = pd.read_csv(FIGURES / "agreement.csv")
    alpha_ordinal = agreement[agreement["statistic"] == "alpha_ordinal"]
    best = alpha_ordinal.loc[alpha_ordinal["value"].idxmax(), "judge"]
    assert versus["judge"].iloc[0] == best and len(pairs) == 528
    trials = int(summary["trials"].iloc[0])
    # Holm over all pairs: statsmodels on pairs.csv's p-values gives its p_holm
    assert pairs["p_holm"].to_numpy() == pytest.approx(
        statsmodels.multipletests(pairs["p_value"], method="holm")[1], abs=1e-12)
    mine = pairs[(pairs["judge_a"] == best) | (pairs["judge_b"] == best)]
    every = summary.iloc[0]
    assert every["indistinguishable"] == int((mine["p_holm"] >= 0.05).sum()) == len(
        indistinguishable_from(pairs, best, 0.05))
    assert every["smallest_holm_p"] == pytest.approx(528 / (trials + 1), abs=1e-4)
    assert pairs["p_holm"].min() >= 528 / (trials + 1) - 1e-12
    # Holm over the best's 32 pairs, recomputed from pairs.csv: the summary's first stream
    own = statsmodels.multipletests(mine["p_value"], method="holm")[1]
    ours = summary.iloc[1]
    assert ours["indistinguishable"] == int((own >= 0.05).sum())
    assert ours["indistinguishable_low"] <= ours["indistinguishable"] <= ours["indistinguishable_high"]
    assert versus["indistinguishable"].iloc[1:].sum() == ours["indistinguishable"]


def test_versus_best_turns_pairs_where_the_best_is_judge_b():
    table = pd.DataFrame({"judge": ["a", "b", "c"], "statistic": "alpha_ordinal",
                          "value": [0.4, 0.5, 0.3], "ci_low": [0.3, 0.4, 0.2],
                          "ci_high": [0.5, 0.6, 0.4]})
    pairs = pd.DataFrame({"judge_a": ["a", "a", "b"], "judge_b": ["b", "c", "c"],
                          "difference": [-0.1, 0.1, 0.2], "ci_low": [-0.2, 0.0, 0.1],
                          "ci_high": [-0.05, 0.2, 0.3], "p_value": [0.01, 0.3, 0.001],
                          "p_holm": [0.02, 0.3, 0.003]})
    rest = pd.DataFrame({"draw": [0, 0, 1, 1], "judge": ["a", "c"] * 2,
                         "p_value": [0.01, 0.001, 0.02, 0.03], "p_holm": [0.01, 0.002, 0.04, 0.06]})
    v = paper.versus_best(table, pairs, rest).set_index("judge")
    assert list(v.index) == ["b", "a", "c"]
    assert v.loc["a", "difference"] == pytest.approx(-0.1)      # a minus b: a is 0.1 lower
    assert (v.loc["a", "diff_low"], v.loc["a", "diff_high"]) == (pytest.approx(-0.2),
                                                                 pytest.approx(-0.05))
    assert (v.loc["c", "difference"], v.loc["c", "diff_low"]) == (pytest.approx(-0.2),
                                                                  pytest.approx(-0.3))
    assert v.loc["c", "distinguished_draws"] == 1 and v.loc["a", "distinguished_draws"] == 2
    s = paper.indistinguishable_summary(v.reset_index(), pairs, rest, trials=1000)
    assert s["indistinguishable"].tolist() == [0, 0]
    assert s.loc[1, ["indistinguishable_low", "indistinguishable_high", "draws_at_count"]].tolist() \
        == [0, 1, 1]


# --- the answer --------------------------------------------------------------------------------

def _tables(trials: int, best_high: float = 0.615, verdicts=("not testable here",) * 3):
    versus = pd.DataFrame({"judge": ["best", "x", "y"], "alpha": [0.502, 0.49, 0.10],
                           "ci_low": [0.348, 0.3, 0.0], "ci_high": [best_high, 0.6, 0.2],
                           "difference": [0.0, -0.012, -0.402], "indistinguishable": [True, True, False]})
    summary = pd.DataFrame({"pairs": [3, 2], "trials": trials,
                            "smallest_holm_p": [paper.holm_floor(3, trials), paper.holm_floor(2, trials)],
                            "trials_needed": [60, 40], "indistinguishable": [2, 1],
                            "distinguishable": [0, 1], "draws": [1, 20],
                            "indistinguishable_low": [2, 1], "indistinguishable_high": [2, 2],
                            "draws_at_count": [1, 17]})
    consensus = pd.DataFrame({"rule": ["majority", "median", "dawid-skene"], "judges": 33,
                              "alpha": [0.474, 0.495, 0.424], "ci_low": [0.317, 0.356, 0.344],
                              "ci_high": [0.582, 0.591, 0.488], "draws": 20,
                              "mean_diff": [0.005, 0.027, -0.044], "diff_low": [-0.02, -0.004, -0.14],
                              "diff_high": [0.035, 0.06, 0.07], "test_rejects": [0, 1, 0],
                              "verdict": list(verdicts)})
    return versus, summary, consensus


def test_the_answer_is_written_from_the_tables():
    versus, summary, consensus = _tables(trials=20)
    best, cons, verdict = paper.replacement_answers(versus, summary, consensus, 25, 5)
    assert "cannot be told apart from 1 of the other 2" in best and "Only 1 are" in best
    assert "between 1 and 2 over 20 seeded swap streams, 1 in 17 of them" in best
    assert "fixed by B" in best and "below 0.143" in best and "B >= 60" in best
    assert "majority 0.474 (0.317 to 0.582)" in cons and "rejects in 1 of 20 splits" in cons
    assert "Dawid-Skene -0.044 (95% paired topic-bootstrap interval -0.140 to +0.070, includes 0" in cons
    assert "stays below 0.667" in verdict and "interval up to 0.615" in verdict
    assert "Combining does not help measurably" in verdict and "0.27 wide" in verdict
    assert "other combiners" not in verdict
    split_mean = pd.DataFrame({"judge": ["majority", "median", "dawid-skene", "team median", "ug"],
                               "mean_diff": [0.005, 0.027, -0.044, 0.038, 0.001],
                               "diff_low": [-0.02, -0.004, -0.14, 0.0016, -0.04],
                               "diff_high": [0.035, 0.06, 0.07, 0.0699, 0.06]})
    verdict = paper.replacement_answers(versus, summary, consensus, 25, 5, split_mean=split_mean)[2]
    assert ("the team median's (+0.038, 0.002 to 0.070) excludes 0: 1 interval of 5 combiners, "
            "none declared in advance and none adjusted for the 5") in verdict
    # enough trials: Holm over all pairs is reported as a result, not as a floor
    versus, summary, consensus = _tables(trials=5000, best_high=0.85,
                                         verdicts=("holds", "not testable here", "does not hold"))
    best, _, verdict = paper.replacement_answers(versus, summary, consensus, 25, 5)
    assert "fixed by B" not in best and "Holm over all 3 pairs: 2 of 2 indistinguishable" in best
    assert "Not settled" in verdict and "Combining helps: majority" in verdict
