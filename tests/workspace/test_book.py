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
    assert files[:3] == ["notebooks/sakai2017_unanimity_gain", "notebooks/explore_sakai2017",
                         "notebooks/wang2015_assessor_differences"]


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
    assert sorted(p.stem for p in (src / "notebooks").glob("*.ipynb")) == sorted(staged)
    intro = (src / "intro.md").read_text()
    assert "](docs/references.md)" not in intro and "docs/references.md" in intro
    assert "(https://doi.org/10.1145/2766462.2767699)" in intro   # web links stay links
    assert "notebooks/real_data" not in (src / "_toc.yml").read_text()
