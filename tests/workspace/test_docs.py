"""Docs stay in step with code: the README's measure table is the registry's."""

from evalkit import papers
from evalkit.measures import graded
from evalkit.workspace.paths import ROOT



def test_readme_measure_table_is_generated_from_the_registry():
    readme = (ROOT / "README.md").read_text()
    start = readme.index("<!-- measures-table -->\n") + len("<!-- measures-table -->\n")
    end = readme.index("<!-- /measures-table -->")
    assert readme[start:end].strip() == graded.measures_table().to_markdown(index=False)


def test_every_notebook_is_registered_and_has_one_parameters_cell():
    import nbformat

    files = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert files == sorted(nb.name for nb in papers.notebooks())
    for nb in papers.notebooks():
        cells = nbformat.read(nb.path, as_version=4).cells
        tagged = [c for c in cells if "parameters" in c.metadata.get("tags", [])]
        assert len(tagged) == 1, nb.name
        assert all(not c.get("outputs") for c in cells if c.cell_type == "code"), nb.name
