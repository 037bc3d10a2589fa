"""The claims checklist every notebook ends with."""

import numpy as np
import pytest

from evalkit.declare.claims import COLUMNS, Claims, figure_files, verdict


def test_rows_keep_order_evidence_and_verdict():
    c = Claims()
    c.add("Table 1 is reproduced", "7 of 7 rows equal", True)
    c.add("ES is about 2", "median 0.52", np.float64(0.52) > 1.6)  # a numpy bool
    frame = c.frame()
    assert tuple(frame.columns) == COLUMNS
    assert frame.to_dict("records") == [
        {"claim": "Table 1 is reproduced", "reproduced": "7 of 7 rows equal", "verdict": "holds",
         "explanation": ""},
        {"claim": "ES is about 2", "reproduced": "median 0.52", "verdict": "does not hold",
         "explanation": ""},
    ]
    assert len(c) == 2 and c.held() == 1


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
        if row.verdict == "holds":
            continue
        files = figure_files(row.explanation)
        # the generated texts say "the cause is not found here" when no world tried explains it
        if not files or "not found" in row.explanation:
            unexplained.append(f"{path.parent.name}: {row.claim}")
        missing += [f for f in files if f not in declared or not (FIGURES / f).is_file()]
    assert not unexplained, f"claims without an explanation naming an output file: {unexplained}"
    assert not missing, f"explanations name files no notebook writes or that are absent: {missing}"
