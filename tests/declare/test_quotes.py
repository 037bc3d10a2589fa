"""Every paper claim quotes its paper verbatim: the quotes are found in the papers' fingerprints."""

import pandas as pd
import pytest

from evalkit.declare import claims, history, quotes
from evalkit.paths import FIGURES

#: The papers a folder's claims may quote (the real-data chapter asks Sakai's and Wang's questions).
QUOTED = {"sakai2017": ("sakai2017",), "wang2015": ("wang2015",), "kim2010": ("kim2010",),
          "real_data": ("sakai2017", "wang2015"), "llmjudge2024": ("llmjudge2024",)}


def test_words_are_normalised_for_ligatures_hyphenation_markup_and_case():
    assert quotes.words("The \ufb01rst de-\ngradation of *WCA* ($\\tau$)") == \
        ["the", "first", "degradation", "of", "wca", "tau"]
    assert quotes.words("Kendall\u2019s  tau") == quotes.words("kendall's tau")


def test_a_verbatim_quote_is_found_and_a_paraphrase_is_refused():
    kim = quotes.load("kim2010")
    said = ("we normalize both Kendall's \u03c4 and Spearman's rank correlation using the "
            "min-max normalization method")
    assert quotes.missing(said, kim) == []
    # one word changed, one dropped, one added: each breaks the windows that span it
    assert quotes.missing(said.replace("normalize", "rescale"), kim)
    assert quotes.missing(said.replace("both ", ""), kim)
    assert quotes.missing(said.replace("rank correlation", "rank order correlation"), kim)
    # found in Kim's paper, not in Wang's
    assert quotes.missing(said, quotes.load("wang2015"))
    # too short to be checked is refused, not waved through
    assert quotes.missing("highly correlated", quotes.load("wang2015")) == ["highly correlated"]


def test_an_elided_quote_is_found_part_by_part_in_the_organisers_printed_table():
    """The LLMJudge quotes are the organisers' printed table (their notebook's output): header
    ... one judge's row; a changed digit or a row under another judge's name is refused."""
    printed = quotes.load("llmjudge2024")
    header = "krippendorff kappa 0|123 kappa 01|23 kappa 012|3"
    row = "willia-umbrela1 0.491793 0.412928 0.393941 0.312438"
    assert quotes.missing(f"{header} ... {row}", printed) == []
    assert quotes.missing(f"{header} ... {row.replace('0.393941', '0.393942')}", printed)
    assert quotes.missing(f"{header} ... {row.replace('willia-umbrela1', 'willia-umbrela2')}", printed)
    assert quotes.missing(f"{header} {row}", printed)          # without the elision: not consecutive


def test_a_fingerprint_is_written_from_the_text_and_read_back(tmp_path):
    text = tmp_path / "paper.txt"
    text.write_text("One two three four five six seven.\n")
    quotes.write("toy", [text], tmp_path)
    prints = quotes.load("toy", tmp_path)
    assert len(prints) == 3  # 7 words, windows of 5
    assert quotes.missing("two three four five six", prints) == []
    assert quotes.missing("two three four five seven", prints) == ["two three four five seven"]


def _rows():
    for path in sorted(FIGURES.glob("*/claims*.csv")):
        for row in pd.read_csv(path, keep_default_na=False).to_dict("records"):
            yield path.parent.name, path.name, row


def test_every_committed_paper_claim_quotes_its_paper_and_names_its_section():
    prints = {p: quotes.load(p) for p in {q for qs in QUOTED.values() for q in qs}}
    bad = []
    rows = list(_rows())
    assert rows
    for folder, name, row in rows:
        if row.get("kind", "paper") != "paper" or folder not in QUOTED:
            continue
        if not row.get("quote") or not row.get("section"):
            bad.append(f"{folder}/{name}: {row['claim']!r} has no quote or section")
            continue
        found = [p for p in QUOTED[folder] if not quotes.missing(row["quote"], prints[p])]
        if not found:
            gaps = quotes.missing(row["quote"], prints[QUOTED[folder][0]])
            bad.append(f"{folder}/{name}: {row['claim']!r}: not in the paper: {gaps[:2]}")
    assert not bad, "\n".join(bad)


def test_committed_claims_tables_have_every_column_and_a_known_verdict():
    for folder, name, row in _rows():
        assert set(claims.COLUMNS) <= set(row), f"{folder}/{name} lacks {set(claims.COLUMNS) - set(row)}"
        assert row["verdict"] in (claims.HOLDS, claims.MIXED, claims.DOES_NOT_HOLD,
                                  claims.NOT_TESTABLE), (folder, name, row["claim"])
        assert row["kind"] in claims.KINDS, (folder, name, row["claim"])
        if row["threshold"]:
            assert row["source"] in claims.SOURCES, (folder, name, row["claim"])
        if row["source"] == "workspace":
            assert row["sensitivity"], (folder, name, row["claim"])
        if row["verdict"] == claims.NOT_TESTABLE:
            assert row["explanation"], (folder, name, row["claim"])
        if row["draws"]:
            assert row["varies"], f"{folder}/{name}: {row['claim']!r} says not what each draw redraws"


@pytest.mark.parametrize("module", [claims, quotes, history])
def test_the_declare_modules_examples_run(module):
    import doctest

    assert doctest.testmod(module).failed == 0
