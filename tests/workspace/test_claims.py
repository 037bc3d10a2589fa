"""The claims checklist every notebook ends with."""

import numpy as np
import pytest

from evalkit.declare.claims import (COLUMNS, Claims, figure_files, share_interval, verdict,
                                    verdict_over_draws)


def test_rows_keep_order_evidence_and_verdict():
    c = Claims()
    c.add("Table 1 is reproduced", "7 of 7 rows equal", True)
    c.add("ES is about 2", "median 0.52", np.float64(0.52) > 1.6)  # a numpy bool
    c.add("ARI mean 0.45", "0.45", True, kind="calibration")
    frame = c.frame()
    assert tuple(frame.columns) == COLUMNS
    assert frame.to_dict("records") == [
        {"claim": "Table 1 is reproduced", "kind": "paper", "reproduced": "7 of 7 rows equal",
         "draws": "", "verdict": "holds", "explanation": ""},
        {"claim": "ES is about 2", "kind": "paper", "reproduced": "median 0.52", "draws": "",
         "verdict": "does not hold", "explanation": ""},
        {"claim": "ARI mean 0.45", "kind": "calibration", "reproduced": "0.45", "draws": "",
         "verdict": "holds", "explanation": ""},
    ]
    # only the paper's own claims are counted: the calibration target is not a finding
    assert len(c) == 3 and c.counted() == 2 and c.held() == 1


@pytest.mark.parametrize("k, verdict_", [(20, "holds"), (16, "holds"), (15, "mixed"), (5, "mixed"),
                                          (4, "does not hold"), (0, "does not hold")])
def test_verdict_over_20_draws_follows_the_stated_rule(k, verdict_):
    # k / R >= 0.8 holds, <= 0.2 does not hold, mixed between: 16/20 = 0.8, 4/20 = 0.2 exactly
    c = Claims()
    c.add_over_draws("no discrepancies at N = 40", "0 in the committed draw",
                     [True] * k + [False] * (20 - k))
    row = c.frame().iloc[0]
    assert row.draws == f"{k} of 20" and row.verdict == verdict_
    assert verdict_over_draws(k, 20) == verdict_


def test_a_verdict_over_draws_needs_twenty_draws_and_bools():
    with pytest.raises(ValueError, match="at least 20 draws"):
        Claims().add_over_draws("c", "e", [True] * 19)
    with pytest.raises(TypeError, match="bools"):
        Claims().add_over_draws("c", "e", [1] * 20)
    with pytest.raises(ValueError, match="kind"):
        Claims().add("c", "e", True, kind="finding")


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
        Claims().add("something holds", "", True)


def test_explanations_name_their_output_files():
    c = Claims()
    c.add("ES is about 2", "median 0.52", False,
          "ES = |d|/sqrt(V_E) gives q/sqrt(n); see sakai2017/es_vs_topics.png and "
          "sakai2017/es_vs_topics.csv.")
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
        if row.verdict == "holds" or getattr(row, "kind", "paper") != "paper":
            continue
        files = figure_files(row.explanation)
        # the generated texts say "the cause is not found here" when no world tried explains it
        if not files or "not found" in row.explanation:
            unexplained.append(f"{path.parent.name}: {row.claim}")
        missing += [f for f in files if f not in declared or not (FIGURES / f).is_file()]
    assert not unexplained, f"claims without an explanation naming an output file: {unexplained}"
    assert not missing, f"explanations name files no notebook writes or that are absent: {missing}"
