"""Tests that start processes, kernels or servers (the runner, notebooks, interruption,
Dask sweeps, the browser).  Every test in this folder is marked ``integration``, so
``pytest -m "not integration"`` runs the rest of the suite on its own."""

from pathlib import Path

import pytest

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items):
    for item in items:
        if HERE in Path(item.path).parents:
            item.add_marker(pytest.mark.integration)
