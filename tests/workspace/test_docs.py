"""Docs stay in step with code: the measures table of docs/measures.md is the registry's, every
evalkit name in the README and docs/ resolves, links resolve, CITATION.cff is valid, and the worked
numbers and reached calibration values the docs quote are what evalkit computes."""

import pytest

from evalkit import papers
from evalkit.measures import graded, registry
from evalkit.paths import ROOT


def test_measure_table_is_generated_from_the_registry():
    page = (ROOT / "docs" / "measures.md").read_text()
    start = page.index("<!-- measures-table -->\n") + len("<!-- measures-table -->\n")
    end = page.index("<!-- /measures-table -->")
    assert page[start:end].strip() == registry.measures_table().to_markdown(index=False)


def test_readme_fits_on_two_screens_and_links_every_docs_page():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 150
    for page in ("cli.md", "data.md", "sweeps.md", "explore.md", "findings.md", "README.md"):
        assert f"](docs/{page})" in readme, page
    assert "](benchmarks/README.md)" in readme


def test_every_notebook_is_registered_and_has_one_parameters_cell():
    import nbformat

    files = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert files == sorted(nb.name for nb in papers.notebooks())
    for nb in papers.notebooks():
        cells = nbformat.read(nb.path, as_version=4).cells
        tagged = [c for c in cells if "parameters" in c.metadata.get("tags", [])]
        assert len(tagged) == 1, nb.name
        assert all(not c.get("outputs") for c in cells if c.cell_type == "code"), nb.name


DOCS = sorted((ROOT / "docs").glob("*.md"))


def _dotted_names(text):
    """Every ``evalkit.x.y`` name in ``text``, in backticks or not, call brackets dropped."""
    import re

    return set(re.findall(r"\bevalkit(?:\.[A-Za-z_]\w*)+", text))


def _resolve(name):
    """Import the longest importable prefix of ``name``, then getattr the rest; None if missing."""
    import importlib

    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def test_dotted_name_finder_and_resolver():
    assert _dotted_names("`evalkit.stats.kendall_tau(x, y)` and evalkit.measures.graded.MEASURES.") == {
        "evalkit.stats.kendall_tau", "evalkit.measures.graded.MEASURES"}
    assert _resolve("evalkit.measures.graded.q_measure").__name__ == "q_measure"
    assert _resolve("evalkit.measures.graded.no_such_measure") is None
    assert _resolve("evalkit.no_such_module.x") is None


def test_every_evalkit_name_in_the_docs_exists():
    pages = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", ROOT / "notebooks" / "README.md", *DOCS]
    names = set().union(*(_dotted_names(page.read_text()) for page in pages))
    assert len(names) > 40                     # the docs do name the functions
    missing = sorted(n for n in names if _resolve(n) is None)
    assert not missing


def test_every_definition_page_names_its_functions():
    # each measure and test the docs define is tied to the function that computes it
    expected = {
        "measures.md": ["evalkit.measures.gains.unanimity_gain", "evalkit.measures.gains.weighted_gain",
                        "evalkit.measures.graded.ng_at_k", "evalkit.measures.graded.p_plus",
                        "evalkit.measures.graded.nerr_at_k", "evalkit.measures.graded.q_measure",
                        "evalkit.measures.timeline.cluster_scores",
                        "evalkit.stats.agreement.adjusted_rand_index",
                        "evalkit.measures.aggregation.average_correlation",
                        "evalkit.measures.aggregation.weighted_correlation",
                        "evalkit.measures.aggregation.rank_aggregation",
                        "evalkit.measures.aggregation.frespa",
                        "evalkit.measures.discriminativeness.discriminativeness"],
        "statistics.md": ["evalkit.stats.rank_correlation.kendall_tau",
                          "evalkit.stats.hsd.randomised_tukey_hsd", "evalkit.stats.hsd.residual_variance",
                          "evalkit.stats.agreement.cohens_kappa", "evalkit.stats.agreement.fleiss_kappa",
                          "evalkit.papers.wang2015_user_preferences.anova_by_bin"],
        "simulators.md": ["evalkit.simulate.stc.simulate_stc_collection",
                          "evalkit.simulate.stc.simulate_ratings", "evalkit.simulate.ttg.simulate_ttg",
                          "evalkit.simulate.preferences.simulate_preferences",
                          "evalkit.simulate.orderings.simulate_orderings"],
    }
    for page, names in expected.items():
        found = _dotted_names((ROOT / "docs" / page).read_text())
        assert not set(names) - found, page


def test_relative_links_in_readme_and_docs_resolve():
    import re

    broken = []
    pages = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", ROOT / "notebooks" / "README.md", *DOCS]
    assert {"README.md", "measures.md", "statistics.md", "simulators.md", "references.md", "cli.md",
            "data.md", "sweeps.md", "explore.md", "findings.md"} <= {p.name for p in DOCS}
    for page in pages:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert not broken


def test_docs_index_links_every_page():
    index = (ROOT / "docs" / "README.md").read_text()
    for page in DOCS:
        if page.name != "README.md":
            assert f"]({page.name})" in index, page.name


def test_citation_file_is_valid_yaml_with_the_required_keys():
    import tomllib

    import yaml

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0"
    assert {"cff-version", "message", "title", "authors", "version", "type", "references"} <= set(cff)
    assert cff["title"] == "evalkit" and cff["type"] == "software"
    assert cff["authors"] == [{"name": "evalkit contributors"}]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert str(cff["version"]) == project["version"]
    assert cff["license"] == project["license"]["text"]
    refs = {r["title"]: r for r in cff["references"]}
    assert len(refs) == 3
    assert refs["Assessor Differences and User Preferences in Tweet Timeline Generation"]["doi"] == \
        "10.1145/2766462.2767699"
    kim = refs["Aggregation of Multiple Judgments for Evaluating Ordered Lists"]
    assert (kim["volume"], kim["start"], kim["end"]) == (5993, 166, 178)
    assert "Unanimity-Aware Gain for Highly Subjective Assessments" in refs
    for r in refs.values():  # every reference has authors and a year
        assert r["authors"] and r["year"] in (2010, 2015, 2017)


def _page(name):
    return " ".join((ROOT / "docs" / name).read_text().split())  # line breaks -> spaces


def test_worked_numbers_in_measures_md_are_what_evalkit_computes():
    import numpy as np

    from evalkit.measures import aggregation as ag, discriminativeness as di, gains, timeline
    from evalkit.stats import agreement

    text = _page("measures.md")
    run, ideal = [2, 0, 3], [3, 2, 1]
    assert f"nG@1 = 2/3 = {graded.ng_at_k(run, ideal):.3f}" in text
    assert f"Q = (0.75 + 0.778)/3 = {graded.q_measure(run, ideal):.3f}" in text
    assert f"P+ = (0.75 + 0.778)/2 = {graded.p_plus(run, ideal):.3f}" in text
    assert f"nERR = {graded.nerr_at_k(run, ideal):.3f}" in text
    assert f"nG@3 = 3/1 = {graded.ng_at_k(run, ideal, 3):g}" in text
    assert f"UG = 4 + 0.2 · 2 · 3 = {gains.unanimity_gain([[2, 2, np.nan]], 3)[0]:g}" in text
    clusters = [["a", "b"], ["c"], ["d", "e", "f"]]
    s = timeline.cluster_scores(["a", "b", "c", "x"], clusters, dict(a=2, b=1, c=1, d=1, e=1, f=2))
    assert (f"precision {s['precision']:g}, recall 2/3, weighted recall 4/8 = {s['weighted_recall']:g}, "
            f"F1 {s['f1']:.3f}, weighted F1 {s['weighted_f1']:g}") in text
    assert f"give {agreement.adjusted_rand_index([0, 0, 1, 1, 2], [0, 0, 1, 2, 2]):g}." in text
    golds = [tuple(g) for g in ("ABCD", "ACBD", "BACD")]
    target = tuple("ABDC")
    assert f"= {ag.average_correlation(target, golds):.3f}, WCA-tau = " \
           f"{ag.weighted_correlation(target, golds):.3f}, RBA-tau = " \
           f"{ag.rank_aggregation(target, golds):.3f}" in text
    assert f"AC-Sp = {ag.average_correlation(target, golds, 'spearman'):.3f}" in text
    assert f"FreSPA = 18/33 = {ag.frespa(target, golds):.3f}" in text
    ed = {m: di.discriminativeness(m, golds) for m in ("ac-tau", "wca-tau", "rba-tau", "frespa")}
    assert ed["ac-tau"] == pytest.approx(ed["wca-tau"])
    assert (f"ED {ed['ac-tau']:.3f} for AC-tau and WCA-tau, {ed['rba-tau']:.3f} for RBA-tau and "
            f"{ed['frespa']:.3f} for FreSPA") in text


def test_worked_numbers_in_statistics_md_are_what_evalkit_computes():
    import numpy as np

    from evalkit.stats import agreement, hsd, rank_correlation

    text = _page("statistics.md")
    kt = rank_correlation.kendall_tau([1, 2, 3, 4, 5], [1, 3, 2, 4, 5])
    assert f"tau = {kt.tau:g}" in text and f"[{kt.low:.3f}, {kt.high:.3f}]" in text
    x = np.array([[0.5, 0.4, 0.2], [0.6, 0.5, 0.4], [0.3, 0.3, 0.1], [0.7, 0.4, 0.3], [0.4, 0.5, 0.2]])
    ve = hsd.residual_variance(x)
    row = hsd.randomised_tukey_hsd(x, n_trials=5000, seed=1).iloc[1]  # systems 1 and 3
    assert f"$V_E = {ve:.5f}$" in text
    assert (f"ES = {abs(row['diff']):.2f} / {np.sqrt(ve):.4f} = {row.effect_size:.2f}, with p = "
            f"{row.p_value:.4f} (SE {row.p_value_se:.4f})") in text
    k = agreement.cohens_kappa(["y"] * 25 + ["n"] * 25, ["y"] * 20 + ["n"] * 5 + ["y"] * 10 + ["n"] * 15)
    assert f"κ = {k.kappa:.1f}, SE {k.se:.3f}, 95% interval [{k.low:.3f}, {k.high:.3f}]" in text


def test_simulator_values_in_simulators_md_are_reached(tmp_path):
    import pandas as pd

    from evalkit.formats.trec import read_qrels
    from evalkit.simulate import orderings, stc

    text = _page("simulators.md")
    sets = pd.read_csv(orderings.simulate_orderings(tmp_path / "o.csv", seed=2010)).groupby("set")
    assert f"| {sets.item.nunique().mean():.1f} (generating mean 8.8) |" in text
    assert f"| {sets.assessor.nunique().mean():.1f} (generating mean 10.4) |" in text
    stc.simulate_stc_collection(tmp_path / "stc", seed=2017)
    q = read_qrels(tmp_path / "stc" / "qrels.txt")
    per_topic = q.groupby("topic").grade
    shares = q.grade.value_counts(normalize=True).sort_index() * 100
    assert (f"{per_topic.size().mean():.1f} judged posts per topic, "
            f"{per_topic.apply(lambda g: (g > 0).sum()).mean():.1f} relevant; grades L0/L1/L2 "
            f"{shares[0]:.0f}% / {shares[1]:.0f}% / {shares[2]:.0f}%") in text


def test_reached_values_quoted_from_figures_are_in_those_files():
    """Every decimal in a 'reached' cell sourced from figures/ matches that file (to its rounding)."""
    import re

    source = None
    checked = 0
    for line in (ROOT / "docs" / "simulators.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) != 3 or cells[2] in ("from", "---"):
            continue
        quoted = re.search(r"`(figures/[^`]+)`", cells[2])
        source = quoted.group(1) if quoted else (source if cells[2] == "same" else None)
        if source is None:
            continue
        values = [float(v) for v in re.findall(r"\d+\.\d+", (ROOT / source).read_text())]
        for number in re.findall(r"\d+\.\d+", cells[1]):
            half = 0.5 * 10 ** -len(number.split(".")[1]) + 1e-9
            assert any(abs(v - float(number)) <= half for v in values), (number, source)
            checked += 1
    assert checked >= 20


def test_every_module_path_docs_readme_names_exists():
    """The table of modules per notebook in docs/README.md names today's paths (issue 43)."""
    import re

    text = (ROOT / "docs" / "README.md").read_text()
    table = text[text.index("## Which modules each notebook uses"):]
    paths = set(re.findall(r"`((?:[a-z_0-9]+/)+(?:[a-z_0-9]+\.py)?)`", table))
    paths |= set(re.findall(r"`([a-z_0-9]+/[a-z_0-9_]+\.py)`", table))
    assert len(paths) > 20, paths
    missing = sorted(p for p in paths if not (ROOT / "evalkit" / p).exists()
                     and not (ROOT / p).exists())
    assert not missing, missing
