"""Companion notebook ``notebooks/explore_sakai2017.ipynb``: the Sakai (EVIA 2017) explorer.

The explorer itself is :mod:`evalkit.explore.sakai` (widgets and the pure
compute function); this module only declares the notebook.  Run by
papermill (``make reproduce``, the tests, the course book) it gets
``interactive=False`` (:attr:`~evalkit.declare.notebook.Notebook.batch`)
and writes one small static figure, ``figures/sakai2017/explore.png``, of
its default values; in JupyterLab or Voila (``make explore``) it shows the
live widgets and writes nothing.
"""

from __future__ import annotations

from ..declare import params
from ..declare.notebook import Notebook
from . import sakai2017_unanimity_gain as sakai

__all__ = ["NOTEBOOK"]

PARAMETERS = {
    "interactive": params.flag(),
    "p": params.number(lambda x: 0 <= x <= 1, "a number in [0, 1]"),
    "dmax": params.whole(),
    "n": params.whole(2),
    "agreement": params.number(lambda x: 0 <= x <= 1, "a number in [0, 1]"),
    "trials": params.whole(),
    "seed": params.whole(0),
    "data_dir": params.folder("an existing folder with qrels.txt and runs/"),
}


NOTEBOOK = Notebook(
    name="explore_sakai2017",
    paper="sakai2017",
    title=sakai.NOTEBOOK.title,
    parameters=PARAMETERS,
    inputs=sakai.NOTEBOOK.inputs,
    outputs=("explore.png",),
    batch={"interactive": False},
    figures=(("explore.png", "Explorer (notebooks/explore_sakai2017.ipynb) at its default values: "
                             "tau and HSD discrepancies for Dmax = 3, N = 5, independent ratings, "
                             "one rating draw. Left: dots are tau between the RawG and UG "
                             "rankings of the 44 runs, error bars Kendall's 95% confidence "
                             "interval of that tau (as in Table 2; a bar cut at the axis is "
                             "marked), not a spread over draws."),),
)
