"""What the runner plans before any process starts: which jobs, with which output folders."""

from evalkit import paths
from evalkit.workspace import report, runner


def test_a_quick_run_writes_under_build_quick_not_into_the_committed_figures(monkeypatch):
    seen = []
    monkeypatch.setattr(runner, "ensure_raw_data", lambda *a, **k: [])
    monkeypatch.setattr(runner, "run_jobs", lambda jobs, *a, **k: seen.extend(jobs) or [])
    monkeypatch.setattr(report, "build", lambda **k: paths.BUILD / "quick" / "figures" / "index.html")
    runner.reproduce(only=["kim2010"], quick=True)  # the paper's notebook and its explorer
    assert sorted(j.name for j in seen) == ["explore_kim2010", "kim2010_ordering_aggregation"]
    # relative to notebooks/ (the kernels' folder): no machine path in an executed notebook
    assert {j.parameters["out_dir"] for j in seen} == {"../build/quick/figures/kim2010"}
    assert {j.executed.parent for j in seen} == {(paths.BUILD / "quick" / "notebooks").resolve()}
    seen.clear()
    runner.reproduce(only=["kim2010"], quick=False)
    assert {j.parameters["out_dir"] for j in seen} == {"../figures/kim2010"}


def test_kernel_paths_are_relative_to_the_notebooks_inside_the_repository_only(tmp_path):
    assert runner.kernel_path(paths.FIGURES / "sakai2017") == "../figures/sakai2017"
    assert runner.kernel_path(paths.NOTEBOOKS / "x") == "x"
    assert (paths.NOTEBOOKS / runner.kernel_path(paths.BUILD / "a")).resolve() == (paths.BUILD / "a").resolve()
    assert runner.kernel_path(tmp_path / "out") == str((tmp_path / "out").resolve())


def test_reading_every_declaration_loads_no_numerical_library():
    """The runner reads all nine declarations before it starts a notebook: the steps behind
    them (scipy, numba, matplotlib, scikit-learn) load only when a notebook uses them."""
    import subprocess
    import sys

    code = ("import sys; from evalkit import papers; papers.notebooks(); "
            "print(sorted(m for m in ('scipy', 'numba', 'matplotlib', 'sklearn', 'statsmodels') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
