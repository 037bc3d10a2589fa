"""The claims checklist every notebook ends with."""

import numpy as np
import pytest

from evalkit.declare.claims import (COLUMNS, Claims, boundary_note, figure_files, sensitivity,
                                    share_interval, tally_text, verdict, verdict_over_draws)

Q = {"section": "§4", "quote": "the paper's own words"}


def test_rows_keep_order_evidence_and_verdict():
    c = Claims()
    c.add("Table 1 is reproduced", "7 of 7 rows equal", True, **Q)
    c.add("ES is about 2", "median 0.52", np.float64(0.52) > 1.6, threshold="1.6", source="paper",
          **Q)  # a numpy bool
    c.add("ARI mean 0.45", "0.45", True, kind="calibration")
    frame = c.frame()
    assert tuple(frame.columns) == COLUMNS
    blank = dict.fromkeys(COLUMNS, "")
    assert frame.to_dict("records") == [
        {**blank, "claim": "Table 1 is reproduced", "kind": "paper", **Q,
         "reproduced": "7 of 7 rows equal", "verdict": "holds"},
        {**blank, "claim": "ES is about 2", "kind": "paper", **Q, "reproduced": "median 0.52",
         "threshold": "1.6", "source": "paper", "verdict": "does not hold"},
        {**blank, "claim": "ARI mean 0.45", "kind": "calibration", "reproduced": "0.45",
         "verdict": "holds"},
    ]
    # only the paper's own claims are counted: the calibration target is not a finding
    assert len(c) == 3 and c.counted() == 2 and c.held() == 1


@pytest.mark.parametrize("k, verdict_", [(20, "holds"), (16, "holds"), (15, "mixed"), (5, "mixed"),
                                          (4, "does not hold"), (0, "does not hold")])
def test_verdict_over_20_draws_follows_the_stated_rule(k, verdict_):
    # k / R >= 0.8 holds, <= 0.2 does not hold, mixed between: 16/20 = 0.8, 4/20 = 0.2 exactly
    c = Claims()
    c.add_over_draws("no discrepancies at N = 40", "0 in the committed draw",
                     [True] * k + [False] * (20 - k), varies="collection and ratings", **Q)
    row = c.frame().iloc[0]
    assert row.draws.split(" (")[0] == f"{k} of 20" and row.verdict == verdict_
    assert row.varies == "collection and ratings"
    assert verdict_over_draws(k, 20) == verdict_


def test_a_verdict_over_draws_needs_twenty_draws_and_bools():
    with pytest.raises(ValueError, match="at least 20 draws"):
        Claims().add_over_draws("c", "e", [True] * 19, varies="w", **Q)
    with pytest.raises(TypeError, match="bools"):
        Claims().add_over_draws("c", "e", [1] * 20, varies="w", **Q)
    with pytest.raises(ValueError, match="kind"):
        Claims().add("c", "e", True, kind="finding")
    with pytest.raises(ValueError, match="what each draw redraws"):
        Claims().add_over_draws("c", "e", [True] * 20, varies="", **Q)


def test_a_paper_claim_quotes_the_paper_and_a_workspace_threshold_has_its_range():
    with pytest.raises(ValueError, match="quotes the paper"):
        Claims().add("c", "e", True)
    with pytest.raises(ValueError, match="quotes the paper"):
        Claims().add("c", "e", True, section="§4")
    with pytest.raises(ValueError, match="names its source"):
        Claims().add("c", "e", True, threshold="tau >= 0.85", **Q)
    with pytest.raises(ValueError, match="sensitivity"):
        Claims().add("c", "e", True, threshold="tau >= 0.85", source="workspace", **Q)
    Claims().add("beyond", "e", True, kind="beyond")  # the workspace's own question needs no quote


@pytest.mark.parametrize("k, note", [(16, "one draw from mixed"), (15, "one draw from holds"),
                                     (5, "one draw from does not hold"),
                                     (4, "one draw from mixed"), (10, ""), (20, ""), (0, "")])
def test_a_verdict_within_one_draw_of_the_boundary_says_so(k, note):
    assert boundary_note(k, 20) == note
    c = Claims()
    c.add_over_draws("c", "e", [True] * k + [False] * (20 - k), varies="world", **Q)
    assert c.frame().draws[0] == f"{k} of 20" + (f" ({note})" if note else "")


def test_not_testable_rows_are_shown_with_their_reason_and_never_counted():
    c = Claims()
    c.add("A", "1", True, **Q)
    c.add("B", "2", False, "see x/y.png", **Q)
    c.add_not_testable("C", "the design has 166 recall pairs, not the paper's ~280", **Q)
    c.add("D", "4", True, kind="beyond")
    with pytest.raises(ValueError, match="reason"):
        c.add_not_testable("E", "", **Q)
    with pytest.raises(ValueError, match="sensitivity"):
        c.add_not_testable("E", "below resolution", threshold="2 SE", source="workspace", **Q)
    row = c.frame().iloc[2]
    assert (row.verdict, row.explanation) == ("not testable here",
                                             "the design has 166 recall pairs, not the paper's ~280")
    assert (c.held(), c.counted(), c.not_testable()) == (1, 2, 1)
    assert (c.held("beyond"), c.counted("beyond")) == (1, 1)
    rows = c.frame().to_dict("records")
    assert tally_text(rows) == "1 of 2 testable claims hold (1 not testable here)"
    assert tally_text(rows, "beyond") == "1 of 1 testable claim holds (0 not testable here)"


def test_sensitivity_recomputes_the_verdict_over_the_range():
    # a claim "tau >= t" with tau 0.87 in one draw: holds up to 0.87, fails above
    assert sensitivity([0.80, 0.85, 0.90], lambda t: 0.87 >= t) == \
        "flips: holds at 0.8-0.85, does not hold at 0.9"
    # over 20 draws with taus 0.80, 0.81, ..., 0.99: 16 of 20 >= 0.84 holds, 15 of 20 >= 0.85 mixed
    taus = [0.80 + i / 100 for i in range(20)]
    assert sensitivity([0.84, 0.85, 0.90, 0.96], lambda t: [x >= t - 1e-9 for x in taus]) == \
        "flips: holds at 0.84, mixed at 0.85-0.9, does not hold at 0.96"
    assert sensitivity([0.03, 0.05], lambda t: True, "{:.2f}") == "holds over 0.03-0.05 (no flip)"
    with pytest.raises(ValueError, match="two thresholds"):
        sensitivity([0.85], lambda t: True)


def test_share_interval_is_wilsons():
    # Wilson (1927) by hand for k = 16, R = 20, z = 1.959964: centre (0.8 + z^2/40)/(1 + z^2/20),
    # half z sqrt(0.8 * 0.2 / 20 + z^2/1600)/(1 + z^2/20)
    z = 1.959963984540054
    centre = (0.8 + z * z / 40) / (1 + z * z / 20)
    half = z * np.sqrt(0.8 * 0.2 / 20 + z * z / 1600) / (1 + z * z / 20)
    lo, hi = share_interval(16, 20)
    assert lo == pytest.approx(centre - half, abs=1e-12) and hi == pytest.approx(centre + half, abs=1e-12)
    assert (round(lo, 3), round(hi, 3)) == (0.584, 0.919)
    assert share_interval(20, 20)[1] == pytest.approx(1.0, abs=1e-12)
    assert share_interval(0, 20)[0] == pytest.approx(0.0, abs=1e-12)


def test_an_empty_checklist_still_has_its_columns():
    assert list(Claims().frame().columns) == list(COLUMNS)


@pytest.mark.parametrize("outcome", [1, 0.0, "yes", None, np.array([True])])
def test_outcome_must_be_a_bool(outcome):
    with pytest.raises(TypeError, match="must be a bool"):
        verdict(outcome)


def test_claim_without_evidence_is_refused():
    with pytest.raises(ValueError, match="evidence"):
        Claims().add("something holds", "", True, **Q)


def test_explanations_name_their_output_files():
    c = Claims()
    c.add("ES is about 2", "median 0.52", False,
          "ES = |d|/sqrt(V_E) gives q/sqrt(n); see sakai2017/es_vs_topics.png and "
          "sakai2017/es_vs_topics.csv.", **Q)
    assert c.frame().explanation[0].startswith("ES = ")
    assert figure_files(c.frame().explanation[0]) == ["sakai2017/es_vs_topics.png",
                                                       "sakai2017/es_vs_topics.csv"]
    assert figure_files("") == []


def _committed_claims():
    import pandas as pd

    from evalkit.paths import FIGURES

    for path in sorted(FIGURES.glob("*/claims*.csv")):
        for row in pd.read_csv(path, keep_default_na=False).itertuples():
            yield path, row


def test_every_committed_claim_that_does_not_hold_names_its_cause_and_the_files_that_show_it():
    from evalkit import papers
    from evalkit.paths import FIGURES

    declared = {f"{nb.paper}/{name}" for nb in papers.notebooks() for name in nb.outputs}
    unexplained, missing = [], []
    rows = list(_committed_claims())
    assert rows, "no claims tables under figures/"
    for path, row in rows:
        if row.verdict in ("holds", "not testable here") or getattr(row, "kind", "paper") != "paper":
            continue
        files = figure_files(row.explanation)
        # the generated texts say "the cause is not found here" when no world tried explains it
        if not files or "not found" in row.explanation:
            unexplained.append(f"{path.parent.name}: {row.claim}")
        missing += [f for f in files if f not in declared or not (FIGURES / f).is_file()]
    assert not unexplained, f"claims without an explanation naming an output file: {unexplained}"
    assert not missing, f"explanations name files no notebook writes or that are absent: {missing}"


@pytest.mark.parametrize("low, high, expected", [(0.001, 0.02, "holds"), (-0.0042, -0.0015, "does not hold"),
                                                 (-0.0013, 0.0010, "not testable here"),
                                                 (0.0, 0.0, "not testable here")])
def test_a_claim_resolved_by_an_interval_follows_its_sign_or_is_not_testable(low, high, expected):
    from evalkit.declare.claims import interval_verdict

    assert interval_verdict(low, high) == expected
    c = Claims()
    c.add_resolved("tau rises with N", f"slope CI {low} to {high}; rising in 5 of 20 replicates",
                   low, high, "why it does not rise", varies="assessor subsets",
                   unresolved="Unresolved: the interval includes 0.", kind="beyond",
                   threshold="the slope's 95% interval (ours)", sensitivity="(levels)")
    row = c.frame().iloc[0]
    assert (row.verdict, row.draws, row.varies, row.source) == (expected, "", "assessor subsets",
                                                                 "workspace")
    assert row.explanation == ("Unresolved: the interval includes 0. why it does not rise"
                               if expected == "not testable here" else "why it does not rise")
    # an unresolved claim is shown and not counted; a resolved one is counted
    assert c.counted("beyond") == (0 if expected == "not testable here" else 1)
    with pytest.raises(ValueError, match="needs its reason"):
        Claims().add_resolved("c", "e", -1, 1, varies="w", unresolved="")


def test_sensitivity_takes_verdicts_in_words():
    from evalkit.declare.claims import interval_verdict

    assert sensitivity([1, 2, 3], lambda t: interval_verdict(-t, 2 - t)) == \
        "flips: not testable here at 1-2, does not hold at 3"    # (-2, 0) still includes 0
