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


DOCS = sorted((ROOT / "docs").glob("*.md"))


def test_every_evalkit_name_in_the_docs_exists():
    import importlib
    import re

    names = {m for doc in DOCS for m in re.findall(r"`(evalkit(?:\.\w+)+)`", doc.read_text())}
    assert len(names) > 20                     # the docs do name the functions
    missing = []
    for name in sorted(names):
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):   # the longest importable prefix, then attributes
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            try:
                for attr in parts[cut:]:
                    obj = getattr(obj, attr)
            except AttributeError:
                missing.append(name)
            break
        else:
            missing.append(name)
    assert not missing


def test_relative_links_in_readme_and_docs_resolve():
    import re

    broken = []
    for page in [ROOT / "README.md", *DOCS]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert not broken


def test_citation_file_is_valid_yaml_with_the_required_keys():
    import yaml

    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0"
    assert {"message", "title", "authors", "version"} <= set(cff)
    assert cff["version"] == importlib_version()
    dois = {r.get("doi") for r in cff["references"]}
    assert "10.1145/2766462.2767699" in dois


def importlib_version():
    import importlib.metadata

    return importlib.metadata.version("evalkit")
