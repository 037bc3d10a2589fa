"""The notebook registry: one declaration per notebook, read by the runner and the report."""

import pytest

from evalkit import papers
from evalkit import paths
from evalkit.workspace import report, runner
from evalkit.declare.notebook import Input, Notebook


def test_every_notebook_has_a_paper_module_of_the_same_stem():
    stems = sorted(p.stem for p in paths.NOTEBOOKS.glob("*.ipynb"))
    home = paths.ROOT / "evalkit" / "papers"     # a module or a package of the notebook's stem
    modules = sorted([p.stem for p in home.glob("*.py") if p.stem != "__init__"]
                     + [p.parent.name for p in home.glob("*/__init__.py")])
    assert stems == modules == sorted(papers.NAMES)
    for nb in papers.notebooks():
        assert isinstance(nb, Notebook) and nb.path.is_file()
        source = nb.path.read_text()
        assert f"from evalkit.papers import {nb.name} as paper" in source


def test_every_output_file_is_written_by_exactly_one_notebook():
    seen = {}
    for nb in papers.notebooks():
        for out in nb.outputs:
            key = f"{nb.paper}/{out}"
            assert key not in seen, f"{key} declared by {seen[key]} and {nb.name}"
            seen[key] = nb.name
    for nb in papers.notebooks():
        for name, _ in nb.figures:
            assert name in nb.outputs, f"{nb.name}: figure {name} is not a declared output"
        for c in nb.comparisons:
            assert c.reproduced.removeprefix(f"{nb.paper}/") in nb.outputs, (nb.name, c.reproduced)


def test_quick_parameters_pass_the_declared_checks():
    for nb in papers.notebooks():
        assert set(nb.quick) <= set(nb.parameters), nb.name
        for name, value in nb.quick.items():
            nb.parameters[name](name, value)


def test_unknown_notebook_names_the_choices():
    with pytest.raises(KeyError, match="sakai2017_unanimity_gain"):
        papers.notebook("sakai")


def test_report_sections_follow_the_registry():
    sections = report.sections()
    assert list(sections) == ["sakai2017", "wang2015", "kim2010", "real_data", "llmjudge2024",
                              "few_human_labels"]
    assert [nb.name for nb in sections["wang2015"]["notebooks"]] == [
        "wang2015_assessor_differences", "wang2015_user_preferences", "explore_wang2015"]


def test_raw_inputs_shared_by_notebooks_are_made_once_and_only_when_missing(monkeypatch, tmp_path):
    made = []

    def maker(path):
        def make():
            made.append(path)
            (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / path).write_text("x")
            return tmp_path / path
        return make

    shared = Input("raw/a.txt", maker("raw/a.txt"))
    fake = (Notebook("one", "p", "t", {}, (), inputs=(shared,)),
            Notebook("two", "p", "t", {}, (), inputs=(shared, Input("raw/b.txt", maker("raw/b.txt")),
                                                       Input("external/c.txt"))))
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(papers, "notebooks", lambda: fake)
    assert runner.ensure_raw_data() == [tmp_path / "raw/a.txt", tmp_path / "raw/b.txt"]
    assert made == ["raw/a.txt", "raw/b.txt"]
    assert runner.ensure_raw_data() == [] and len(made) == 2     # nothing missing
    assert len(runner.ensure_raw_data(force=True)) == 2 and len(made) == 4


def test_the_shared_ttg_world_is_declared_by_both_wang_notebooks():
    ttg = [i for nb in papers.notebooks() for i in nb.inputs if i.path == "data/raw/ttg/qrels.txt"]
    assert len(ttg) == 3 and ttg[0] is ttg[1] is ttg[2]      # and the explorer's


def test_parameter_defaults_equal_papermills_own_reading():
    import papermill

    for nb in papers.notebooks():
        expected = {k: v["default"] for k, v in papermill.inspect_notebook(str(nb.path)).items()}
        assert nb.defaults() == expected, nb.name
        assert set(expected) == set(nb.parameters) | {"out_dir"}, nb.name


def test_runs_start_longest_first_by_the_last_measured_time_else_the_declared_one(tmp_path):
    """Two cores, notebooks of 17, 13, 10 and 4 s: in registry order a 17 s notebook that
    starts last ends the run late; longest first, it starts at once."""
    import json

    from evalkit.workspace.runner import Job, expected_seconds, longest_first

    from dataclasses import replace

    a, b, c = (replace(papers.notebook(n), expected_seconds=s) for n, s in (
        ("sakai2017_unanimity_gain", 17), ("kim2010_ordering_aggregation", 10), ("explore_kim2010", 4)))
    jobs = [Job(nb, {}, tmp_path / f"{nb.name}.ipynb") for nb in (c, b, a)]
    # no earlier run: the declarations decide
    assert [expected_seconds(j) for j in jobs] == [4, 10, 17]
    assert [j.notebook for j in longest_first(jobs)] == [a, b, c]
    # the paper notebooks declare more than an explorer's 5 s default
    assert min(papers.notebook(n).expected_seconds for n in papers.NAMES if not n.startswith("explore")) > 5
    # measured times win; a failed run's time is not trusted; ties keep the given order
    for nb, seconds, status in ((c, 30.0, "ok"), (b, 99.0, "failed"), (a, 12.5, "ok")):
        (tmp_path / f"{nb.name}.result.json").write_text(json.dumps({"status": status, "seconds": seconds}))
    assert [expected_seconds(j) for j in jobs] == [30.0, b.expected_seconds, 12.5]
    assert [j.notebook for j in longest_first(jobs)] == [c, a, b]
    (tmp_path / f"{c.name}.result.json").write_text("{not json")
    assert expected_seconds(jobs[0]) == c.expected_seconds


def test_each_notebook_checks_its_parameters_with_one_call_and_its_cell_matches_the_declaration():
    import json

    for nb in papers.notebooks():
        code = "".join("".join(c["source"]) for c in json.loads(nb.path.read_text())["cells"]
                       if c["cell_type"] == "code")
        assert code.count("paper.NOTEBOOK.check_parameters(globals())") == 1, nb.name
        # what check_parameters enforces in the kernel: the cell assigns exactly the declared names
        assert set(nb.defaults()) - {"out_dir"} == set(nb.parameters), nb.name


def test_a_parameters_cell_that_drifts_from_its_declaration_is_named():
    import dataclasses

    import pytest

    nb = papers.notebook("kim2010_ordering_aggregation")
    drifted = dataclasses.replace(nb, parameters={**nb.parameters, "extra": nb.parameters["seed"]})
    with pytest.raises(ValueError, match=r"only declared \['extra'\]"):
        drifted.check_parameters({})
