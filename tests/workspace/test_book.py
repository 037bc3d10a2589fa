"""The course book's configuration: TOC from notebooks/README.md, staging from executed copies."""

import shutil

import pytest
import yaml

from evalkit import papers
from evalkit import paths
from evalkit.workspace import book


def test_committed_toc_is_generated_from_the_teaching_order():
    assert (book.BOOK / "_toc.yml").read_text() == book.toc()
    toc = yaml.safe_load(book.toc())
    files = [c["file"] for part in toc["parts"] for c in part["chapters"]]
    assert files[-1] == "report" and toc["root"] == "intro"
    assert files[:4] == ["readme", "notebooks/sakai2017_unanimity_gain", "notebooks/explore_sakai2017",
                         "notebooks/wang2015_assessor_differences"]
    # the method pages and the command-line guide are chapters
    captions = [part["caption"] for part in toc["parts"]]
    assert captions == ["The workspace", "Notebooks, in teaching order", "Methods",
                        "Your data", "Reproduction"]
    assert {"docs/measures", "docs/statistics", "docs/simulators", "docs/cli",
            "docs/compare"} <= set(files)


def test_teaching_order_lists_every_registered_notebook_once():
    order = book.teaching_order()
    assert sorted(order) == sorted(papers.NAMES) and len(set(order)) == len(order)


def test_config_builds_from_executed_copies_without_executing():
    config = yaml.safe_load((book.BOOK / "_config.yml").read_text())
    assert config["execute"]["execute_notebooks"] == "off"
    assert config["sphinx"]["config"]["html_extra_path"] == ["_extra"]


def test_stage_names_make_reproduce_when_executed_notebooks_are_missing(tmp_path):
    with pytest.raises(FileNotFoundError, match="make reproduce"):
        book.stage(tmp_path / "src", executed=tmp_path / "none")


def test_stage_copies_pages_and_report_and_skips_a_real_data_notebook_not_run(tmp_path):
    executed = tmp_path / "executed"
    shutil.copytree(paths.NOTEBOOKS, executed, ignore=shutil.ignore_patterns("*.md", "real_data*"))
    staged = book.stage(tmp_path / "src", executed=executed)
    assert "real_data" not in staged and len(staged) == len(papers.NAMES) - 1
    src = tmp_path / "src"
    assert (src / "_extra" / "report" / "index.html").is_file()
    assert (src / "_static" / "evalkit.css").read_text() == (book.BOOK / "_static" / "evalkit.css").read_text()
    assert sorted(p.stem for p in (src / "notebooks").glob("*.ipynb")) == sorted(staged)
    assert (src / "intro.md").read_text() == (book.BOOK / "course.md").read_text()
    readme = (src / "readme.md").read_text()
    assert "[`docs/references.md`](docs/references.md)" in readme      # a page of the book
    assert "](docs/findings.md)" not in readme and "`docs/findings.md`" in readme   # not a page
    assert "](CITATION.cff)" not in readme
    assert "(https://doi.org/10.1145/2766462.2767699)" in readme   # web links stay links
    assert "notebooks/real_data" not in (src / "_toc.yml").read_text()
    for name in book.DOC_PAGES:
        assert (src / "docs" / f"{name}.md").is_file()
    assert (src / "docs" / "img" / "compare_coverage.png").is_file()
    assert "](statistics.md#randomised-tukey-hsd)" in (src / "docs" / "simulators.md").read_text()


def test_the_instructor_edition_says_so_and_the_student_edition_does_not(tmp_path):
    executed = tmp_path / "executed"
    shutil.copytree(paths.NOTEBOOKS, executed, ignore=shutil.ignore_patterns("*.md", "real_data*"))
    book.stage(tmp_path / "src", executed=executed, edition="instructor edition")
    assert "(instructor edition)" in (tmp_path / "src" / "_config.yml").read_text()
    assert "This is the instructor edition" in (tmp_path / "src" / "intro.md").read_text()


def test_links_to_book_pages_stay_and_the_others_become_text():
    pages = {"readme", "docs/measures", "docs/cli", "notebooks/x"}
    assert book.unlink("[`docs/cli.md`](docs/cli.md), [c](CITATION.cff), [w](https://a.org/b.md), "
                       "![i](img/a.png), [a](#foo)", "", pages) == (
        "[`docs/cli.md`](docs/cli.md), c, [w](https://a.org/b.md), ![i](img/a.png), [a](#foo)")
    assert book.unlink("[m](measures.md#graded) [f](findings.md) [n](../notebooks/x.ipynb)",
                       "docs", pages) == "[m](measures.md#graded) f [n](../notebooks/x.ipynb)"


def test_machine_paths_become_relative_to_the_notebooks_folder():
    text = f'out_dir = "{paths.ROOT}/figures/sakai2017"'
    assert book.without_machine_paths(text) == 'out_dir = "../figures/sakai2017"'


def test_every_notebook_link_to_the_docs_is_a_page_of_the_book():
    """The notebooks link the method pages as ../docs/<page>.md; each must be a chapter."""
    import re

    linked = {}
    for nb in sorted(paths.NOTEBOOKS.glob("*.ipynb")):
        for page in re.findall(r"\]\(\.\./docs/([\w-]+)\.md", nb.read_text()):
            linked.setdefault(page, []).append(nb.stem)
    assert {"measures", "statistics"} <= set(linked)          # the explorers link them at least
    assert not {p: n for p, n in linked.items() if p not in book.DOC_PAGES}


def test_solutions_shown_finds_each_solution_on_its_own_page_only(tmp_path):
    from evalkit.explore.exercises import solutions

    blocks = solutions.load("explore_kim2010")
    site = tmp_path / "site"
    (site / "notebooks").mkdir(parents=True)
    (site / "notebooks" / "explore_kim2010.html").write_text("<p>answer_kendall = None</p>")
    shown = book.solutions_shown(site)
    assert shown == {"explore_kim2010": {ident: [] for ident in blocks}}
    code = "".join(f"<pre><span>{c}</span></pre>".replace("&", "&amp;").replace('"', "&quot;")
                   for c in blocks.values())
    (site / "notebooks" / "explore_kim2010.html").write_text(code)
    assert book.solutions_shown(site)["explore_kim2010"] == {
        ident: ["notebooks/explore_kim2010.html"] for ident in blocks}


def test_the_instructor_edition_names_make_reproduce_before_running_anything(tmp_path):
    with pytest.raises(FileNotFoundError, match="make reproduce"):
        book.build(executed=tmp_path / "none", figures=tmp_path / "none", out=tmp_path / "site",
                   solutions=True)
    assert not (tmp_path / "notebooks-solutions").exists()
