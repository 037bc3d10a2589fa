"""Every notebook runs through papermill with quick parameters, twice, byte-identically."""

import hashlib

import pytest

from evalkit import papers
from evalkit.errors import NotebookError
from evalkit.workspace import runner

pytestmark = pytest.mark.notebook


def _digests(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file()}


def _inputs(nb, notebook_inputs, request):
    spec = notebook_inputs[nb.name]
    if spec == "external":  # real data: installed from the mirror, or skipped
        return {"external_dir": str(request.getfixturevalue("external"))}
    return spec


@pytest.mark.parametrize("nb", papers.notebooks(), ids=lambda nb: nb.name)
def test_notebook_writes_its_promised_outputs_deterministically(nb, tmp_path, notebook_inputs,
                                                                 request):
    params = dict(nb.quick, **_inputs(nb, notebook_inputs, request))
    digests = []
    for attempt in ("first", "second"):
        out = tmp_path / attempt
        runner.run_notebook(nb, out_dir=out, executed_dir=tmp_path / f"nb-{attempt}",
                               parameters=params)
        written = {p.name for p in out.iterdir() if p.is_file()}
        # declared once: every declared output is written, and nothing undeclared
        assert not set(nb.outputs) - written, f"{nb.name} did not write {sorted(set(nb.outputs) - written)}"
        assert not written - set(nb.outputs), f"{nb.name} wrote undeclared {sorted(written - set(nb.outputs))}"
        assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]
        digests.append(_digests(out))
    assert digests[0] == digests[1]


BAD_PARAMETERS = {"sakai2017_unanimity_gain": ("p", 1.5),
                  "kim2010_ordering_aggregation": ("noisy_ratio", -0.5),
                  "wang2015_assessor_differences": ("alpha", 2.0),
                  "wang2015_user_preferences": ("alpha", -1.0), "real_data": ("replications", 0),
                  "explore_sakai2017": ("agreement", 1.5), "explore_wang2015": ("level", -1.0),
                  "explore_kim2010": ("max_len_ratio", 2.0), "llmjudge2024": ("folds", 1),
                  "few_human_labels": ("alpha", 1.5)}


@pytest.mark.parametrize("nb", papers.notebooks(), ids=lambda nb: nb.name)
def test_notebook_stops_on_a_bad_parameter_naming_it(nb, tmp_path, notebook_inputs, request):
    name, value = BAD_PARAMETERS[nb.name]
    params = dict(nb.quick, **_inputs(nb, notebook_inputs, request), **{name: value})
    with pytest.raises(NotebookError, match=f"{nb.name} failed in cell 3: ParameterError: "
                                            f"parameter {name} = {value}") as info:
        runner.run_notebook(nb, out_dir=tmp_path / "out", executed_dir=tmp_path,
                               parameters=params)
    assert info.value.cell == 3 and info.value.error == "ParameterError"
    assert not (tmp_path / "out").exists()


@pytest.mark.notebook
def test_sakai_notebook_runs_on_real_per_assessor_ratings(tmp_path):
    """``ratings_file`` replaces the simulated ratings: one condition, Dmax and N from the data."""
    import pandas as pd

    from evalkit.paths import EXAMPLES

    nb = papers.notebook("sakai2017_unanimity_gain")
    out = tmp_path / "out"
    runner.run_notebook(nb, out_dir=out, executed_dir=tmp_path,
                           parameters={**nb.quick, "ratings_file": str(EXAMPLES / "ratings.txt")})
    t2 = pd.read_csv(out / "table2.csv")
    assert t2[["dmax", "N"]].drop_duplicates().values.tolist() == [[3, 5]]   # from the sample
    assert set(t2["measure"]) == {"nG@1", "P+", "nERR"} and (t2["topics_excluded"] == 1).all()
