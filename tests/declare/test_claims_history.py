"""No claims row changes its verdict, kind or rule without its history saying so (docs/claims.md)."""

import shutil
import subprocess

import pandas as pd
import pytest

from evalkit.declare import claims, history
from evalkit.workspace import claims_history
from evalkit.paths import FIGURES, ROOT

ROW = {"id": "upper-limits", "claim": "every upper limit >= 1", "kind": "paper", "threshold": "",
       "source": "", "verdict": "does not hold", "revised": ""}


def _table(*rows):
    return pd.DataFrame([{**ROW, **r} for r in rows])


def test_a_verdict_kind_or_rule_changed_without_a_new_revision_is_reported():
    old = _table({})
    for col, value in (("verdict", "mixed"), ("kind", "beyond"), ("threshold", "tau >= 0.9"),
                       ("source", "workspace")):
        assert history.unexplained(old, _table({col: value})) == [
            f"upper-limits: {col} changed ({ROW[col]!r} -> {value!r}) but its history did not"]
    # the evidence and the claim's words may change freely: only the watched columns count
    assert history.unexplained(old, _table({"claim": "every upper 95% limit >= 1"})) == []


def test_a_change_with_a_new_revision_passes_and_a_rewritten_history_fails():
    old = _table({"revised": "[1] kind paper -> beyond"})
    extended = _table({"verdict": "holds", "revised": "[1] kind paper -> beyond [2] tolerance 1.25 -> 1.15"})
    assert history.unexplained(old, extended) == []
    rewritten = _table({"verdict": "holds", "revised": "[1] tolerance 1.25 -> 1.15"})
    assert history.unexplained(old, rewritten) == ["upper-limits: its history was rewritten, not extended"]
    # an unchanged verdict with an unchanged history is fine; so is a history entry alone
    assert history.unexplained(old, old) == []


def test_rows_are_matched_by_id_not_by_position_and_a_removed_row_must_be_retired():
    old = _table({}, {"id": "frespa-best-a0", "verdict": "does not hold"})
    moved = _table({"id": "new-row", "verdict": "holds"}, {})        # order changed, a row added
    assert history.unexplained(old, moved) == [
        "frespa-best-a0: removed without being retired in its chapter's history"]
    assert history.unexplained(old, moved, retired={"frespa-best-a0": "no a-dependent comparison"}) == []
    assert history.unexplained(old, _table({}, {"id": "upper-limits"}),
                               retired={"frespa-best-a0": "gone"}) == ["ids used twice: ['upper-limits']"]
    assert history.unexplained(old, _table({"id": ""})) == [
        "1 rows have no id", "upper-limits: removed without being retired in its chapter's history",
        "frespa-best-a0: removed without being retired in its chapter's history"]


def test_a_table_from_before_ids_gives_no_baseline():
    old = _table({}).drop(columns="id")
    assert history.unexplained(old, _table({"verdict": "holds"})) == []


def test_every_committed_table_names_its_rows_with_unique_ids():
    paths = sorted(FIGURES.glob("*/claims*.csv"))
    assert len(paths) == len(claims_history.chapter_histories()) >= 7      # every chapter's
    for path in paths:
        table = pd.read_csv(path, keep_default_na=False)
        assert list(table.columns) == list(claims.COLUMNS), path
        assert table["id"].map(lambda x: bool(claims.ID_PATTERN.match(x))).all(), path
        assert not table["id"].duplicated().any(), path


def test_every_chapter_history_names_rows_of_its_own_table():
    found = claims_history.chapter_histories()
    assert sorted(found) == sorted(f"{p.parent.name}/{p.name}" for p in FIGURES.glob("*/claims*.csv"))
    for name, h in found.items():
        ids = set(pd.read_csv(FIGURES / name, keep_default_na=False)["id"])
        assert set(h["revised"]) <= ids, (name, set(h["revised"]) - ids)
        assert not set(h["retired"]) & ids, (name, "a retired id is back in the table")
        table = pd.read_csv(FIGURES / name, keep_default_na=False).set_index("id")
        for row_id, revisions in h["revised"].items():
            assert table.loc[row_id, "revised"] == claims.history_text(revisions)


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="needs the repository's git history")
def test_every_claims_table_against_its_last_committed_version():
    """Each ``figures/*/claims*.csv`` against the last committed version that differs from it:
    every verdict, kind or rule that changed carries a new history entry."""
    found = claims_history.check_all()
    assert len(found) == len(claims_history.chapter_histories())
    bad = [f"{name}: {p}" for name, problems in found.items() for p in problems]
    assert not bad, "\n".join(bad)


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="needs the repository's git history")
def test_the_baseline_is_the_last_committed_version_that_differs(tmp_path):
    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@example.org")
    git("config", "user.name", "t")
    path = tmp_path / "claims.csv"
    for verdict in ("holds", "mixed"):
        _table({"verdict": verdict}).to_csv(path, index=False)
        git("add", "claims.csv")
        git("commit", "-q", "-m", verdict)
    # the file equals HEAD's: compared with the version before (holds -> mixed, no history)
    base = history.committed_baseline(path, tmp_path)
    assert base["verdict"].tolist() == ["holds"]
    assert history.unexplained(base, pd.read_csv(path, keep_default_na=False, dtype=str)) == [
        "upper-limits: verdict changed ('holds' -> 'mixed') but its history did not"]
    # an uncommitted change: compared with HEAD's
    _table({"verdict": "does not hold", "revised": "[1] rule r -> s after the result"}).to_csv(
        path, index=False)
    assert history.committed_baseline(path, tmp_path)["verdict"].tolist() == ["mixed"]


def test_docs_count_the_rows_the_interval_rule_decides():
    """docs/claims.md says which rows use the interval rule; the committed tables agree."""
    rows = pd.concat([pd.read_csv(p, keep_default_na=False).assign(table=p.parent.name)
                      for p in sorted(FIGURES.glob("*/claims*.csv"))])
    decided = rows[rows.threshold.str.contains("95% topic-bootstrap interval|95% interval of the slope")
                   & (rows.explanation.str.startswith("Unresolved") | (rows.verdict != "not testable here"))]
    assert decided.table.tolist() == ["llmjudge2024"] * 5
    assert sorted(decided.id) == ["combiner-dawid-skene", "combiner-majority", "combiner-median",
                                  "combiner-team-median", "ug-vs-rawg-llm-judges"]
    docs = " ".join((ROOT / "docs" / "claims.md").read_text().split())
    assert "five rows use it, all in the LLMJudge chapter: four combiners and UG against RawG" in docs
