"""docs/findings.md's "What we learned" and the report's checklists come from the claims tables."""

import pandas as pd

from evalkit.paths import FIGURES
from evalkit.workspace import findings


def test_findings_section_equals_the_generated_text():
    text = findings.FINDINGS.read_text()
    start = text.index(findings.START) + len(findings.START)
    assert text[start:text.index(findings.END)] == findings.render()


def _claims(folder):
    (folder / "sakai2017").mkdir()
    pd.DataFrame({"claim": ["A", "B", "C", "D", "E", "F"],
                  "kind": ["paper", "paper", "calibration", "paper", "paper", "beyond"],
                  "reproduced": ["1", "2", "3", "4", "not run", "6"],
                  "draws": ["", "", "", "12 of 20", "", "20 of 20"],
                  "verdict": ["holds", "does not hold", "does not hold", "mixed",
                              "not testable here", "holds"],
                  "explanation": ["", "because of n; see sakai2017/x.png and sakai2017/t.csv", "",
                                  "draws differ; see sakai2017/r.csv", "too few pairs", ""]}).to_csv(
        folder / "sakai2017" / "claims.csv", index=False)


def test_render_lists_every_claim_that_does_not_hold(tmp_path):
    _claims(tmp_path)
    text = findings.render(tmp_path)
    # the calibration row C is neither counted nor listed; the mixed row D is listed with its
    # draws; the untestable row E is listed with its reason and not counted; F is counted apart
    assert ("The paper's claims: 1 of 3 testable claims hold (1 not testable here). Beyond the "
            "paper: 1 of 1 testable claim holds (0 not testable here). Besides, 1 row of "
            "calibration targets and identities.") in text
    assert "* *B* (does not hold: 2). because of n; see sakai2017/x.png and sakai2017/t.csv" in text
    assert "* *D* (mixed; 12 of 20 draws: 4). draws differ; see sakai2017/r.csv" in text
    assert "* *E* (not testable here: not run). too few pairs" in text
    assert "*A*" not in text and "*C*" not in text and "*F*" not in text
    assert "tests the simulated world as much as the paper" in text
    assert FIGURES.name == "figures"


def test_paper_claims_names_the_files_each_explanation_cites(tmp_path):
    _claims(tmp_path)
    rows = findings.paper_claims(tmp_path / "sakai2017")
    assert [r["claim"] for r in rows] == ["A", "B", "C", "D", "E", "F"]
    assert [r["files"] for r in rows][:2] == [[], ["sakai2017/x.png", "sakai2017/t.csv"]]
    assert findings.held(rows) == 1 and [c["claim"] for c in findings.counted(rows)] == ["A", "B", "D"]
    assert findings.held(rows, "beyond") == 1
    assert findings.paper_claims(tmp_path / "nothing") == []


def test_write_rewrites_only_the_marked_section(tmp_path, monkeypatch):
    page = tmp_path / "findings.md"
    page.write_text(f"# Findings\n\nkept\n\n{findings.START}stale\n{findings.END}\n\nkept too\n")
    monkeypatch.setattr(findings, "render", lambda figures=None: "fresh\n")
    assert findings.write(page) is True
    assert page.read_text() == f"# Findings\n\nkept\n\n{findings.START}fresh\n{findings.END}\n\nkept too\n"
    assert findings.write(page) is False
