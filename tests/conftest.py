"""Shared fixtures: a small simulated collection, written once per session."""

from __future__ import annotations

import pytest

from evalkit.simulate import orderings as sim_orderings
from evalkit.simulate import preferences as sim_preferences
from evalkit.simulate import stc as sim_stc
from evalkit.simulate import ttg as sim_ttg


@pytest.fixture(scope="session")
def small_collection(tmp_path_factory):
    """A 12-topic, 10-run, 4-team STC-like collection in TREC formats."""
    folder = tmp_path_factory.mktemp("stc-small")
    sim_stc.simulate_stc_collection(folder, seed=7, n_topics=12, n_teams=4, n_runs=10,
                                     candidates=40)
    return folder


@pytest.fixture(scope="session")
def notebook_inputs(small_collection, small_ttg, tmp_path_factory):
    """Small raw inputs for each notebook, keyed by notebook name."""
    orderings = tmp_path_factory.mktemp("ordering") / "judgments.csv"
    sim_orderings.simulate_orderings(orderings, seed=11, n_sets=3)
    return {"sakai2017_unanimity_gain": {"data_dir": str(small_collection)},
            "kim2010_ordering_aggregation": {"data_file": str(orderings)},
            "wang2015_assessor_differences": {"data_dir": str(small_ttg),
                                              "timeline_topics": ["171", "172"]},
            "wang2015_user_preferences": {"data_dir": str(small_ttg)},
            "real_data": "external",
            "llmjudge2024": "external",
            "few_human_labels": "external",
            "explore_sakai2017": {"data_dir": str(small_collection)},
            "explore_wang2015": {"data_dir": str(small_ttg)},
            "explore_kim2010": {"data_file": str(orderings)}}


@pytest.fixture(scope="session")
def small_ttg(tmp_path_factory):
    """A 4-topic TTG world with 13 runs (topics 171-174) and a preference log."""
    import pandas as pd

    from evalkit.paths import ROOT

    folder = tmp_path_factory.mktemp("ttg")
    targets = pd.read_csv(ROOT / "data" / "published" / "wang2015_ttg_official_scores.csv")
    sim_ttg.simulate_ttg(folder, seed=5, targets=targets.iloc[::4], n_topics=4)
    sim_preferences.simulate_preferences(folder, seed=5)
    return folder


def mirror_dir():
    """The local data mirror named by $EVALKIT_DATA_MIRROR (CI sets it), or None."""
    import os
    from pathlib import Path

    value = os.environ.get("EVALKIT_DATA_MIRROR")
    return Path(value) if value and Path(value).is_dir() else None


@pytest.fixture(scope="session")
def mirror():
    folder = mirror_dir()
    if folder is None:
        pytest.skip("real data mirror not found: set EVALKIT_DATA_MIRROR to a folder laid out "
                    "like data/external/ (.ci/run does)")
    return folder


@pytest.fixture(scope="session")
def external(mirror, tmp_path_factory):
    """Every registered data set installed from the mirror into a temporary root."""
    from evalkit import data

    root = tmp_path_factory.mktemp("external")
    data.fetch(mirror=mirror, root=root, progress=False)
    return root


@pytest.fixture(scope="session")
def sakai_table_5_1():
    """Sakai (2018), *Laboratory Experiments in Information Retrieval*, Table 5.1:
    nDCG@5 of systems X, Y, Z over 20 topics (doi:10.1007/978-981-13-1199-4).

    Numbers as published in the elinor project's test data
    (github.com/kampersanda/elinor, test-data/sakai-book/X.csv, Y.csv, Z.csv).
    """
    import pandas as pd

    return pd.DataFrame(
        {"X": [.7, .3, .2, .6, .4, .4, 0, .7, .1, .3, .5, .4, 0, .6, .5, .3, .1, .5, .2, .1],
         "Y": [.5, .1, 0, .2, .4, .3, 0, .5, .3, .3, .4, .4, .1, .4, .2, .1, .1, .6, .3, .2],
         "Z": [0, 0, .2, .1, .3, .3, .1, .2, .4, .4, .4, .3, .3, .2, .2, .2, .1, .5, .4, .3]},
        index=pd.Index([f"Q{i}" for i in range(1, 21)], name="topic"))


#: ``make bench`` sets EVALKIT_FULL_GRID=1: differential sweeps then run their full grid.
FULL_GRID = __import__("os").environ.get("EVALKIT_FULL_GRID") == "1"


def pytest_configure(config):
    config.addinivalue_line("markers", "sweep(small, full): a differential sweep of `small` cases in "
                                       "make test, `full` in make bench (EVALKIT_FULL_GRID=1)")


@pytest.fixture
def sweep_size(request) -> int:
    """The number of cases of a test marked ``@pytest.mark.sweep(small, full)``."""
    marker = request.node.get_closest_marker("sweep")
    small, full = marker.args
    return full if FULL_GRID else small



#: The longest modules (about 150 s and 100 s serially), queued first so that under
#: pytest-xdist (``make test``: two workers, ``--dist loadfile``) each starts at once on a
#: worker of its own while the other modules fill the other worker.
FIRST = ("integration/test_notebooks.py", "integration/test_browser.py")


def pytest_collection_modifyitems(config, items):
    """Queue :data:`FIRST` before the rest; otherwise keep the collection order.

    ``--dist loadfile`` runs each module in one worker, so a module's fixtures (a
    built book, a served explorer, a simulated world) are made once, as in a
    serial run.
    """
    def rank(item):
        where = item.path.parent.name + "/" + item.path.name
        return FIRST.index(where) if where in FIRST else len(FIRST)

    items.sort(key=rank)   # stable: within a rank, the collection order
