"""Companion notebook ``notebooks/explore_wang2015.ipynb``: the Wang et al. (SIGIR 2015) explorer.

The explorer itself is :mod:`evalkit.explore.wang`; this module only
declares the notebook.  Run by papermill it gets ``interactive=False`` and
writes ``figures/wang2015/explore.png`` (its default values); in JupyterLab
or Voila (``make explore``) it shows the live widgets and writes nothing.
"""

from __future__ import annotations

from ..measures import timeline
from ..declare import params
from ..declare.notebook import Notebook
from . import wang2015_assessor_differences as wang

__all__ = ["NOTEBOOK"]

PARAMETERS = {
    "interactive": params.flag(),
    "level": params.number(lambda x: x >= 0, "a number >= 0"),
    "metric": params.choice(timeline.METRICS),
    "seed": params.whole(0),
    "data_dir": params.folder("an existing folder with qrels.txt, clusters-*.json, runs/"),
}


NOTEBOOK = Notebook(
    name="explore_wang2015",
    paper="wang2015",
    title=wang.NOTEBOOK.title,
    parameters=PARAMETERS,
    inputs=wang.NOTEBOOK.inputs,
    outputs=("explore.png",),
    batch={"interactive": False},
    figures=(("explore.png", "Explorer (notebooks/explore_wang2015.ipynb) at its default values: "
                             "tau per metric and the weighted-F1 swap scatter."),),
)
