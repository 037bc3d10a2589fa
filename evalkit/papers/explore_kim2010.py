"""Companion notebook ``notebooks/explore_kim2010.ipynb``: the Kim, Zhai & Han (ECIR 2010) explorer.

The explorer itself is :mod:`evalkit.explore.kim`; this module only
declares the notebook.  Run by papermill it gets ``interactive=False`` and
writes ``figures/kim2010/explore.png`` (its default values); in JupyterLab
or Voila (``make explore``) it shows the live widgets and writes nothing.
"""

from __future__ import annotations

from ..declare import params
from ..declare.notebook import Notebook
from . import kim2010_ordering_aggregation as kim

__all__ = ["NOTEBOOK"]

PARAMETERS = {
    "interactive": params.flag(),
    "noise_ratio": params.number(lambda x: x >= 0, "a ratio >= 0"),
    "draws": params.whole(),
    "seed": params.whole(0),
    "min_sup": params.number(lambda x: 0 <= x <= 1, "a fraction in [0, 1]"),
    "w_len": params.number(lambda x: x >= 0, "a number >= 0"),
    "w_sup": params.number(lambda x: x >= 0, "a number >= 0"),
    "max_len_ratio": params.number(lambda x: 0 <= x <= 1, "a ratio in [0, 1]"),
    "data_file": params.file("an existing CSV file set,assessor,position,item"),
}


NOTEBOOK = Notebook(
    name="explore_kim2010",
    paper="kim2010",
    title=kim.NOTEBOOK.title,
    parameters=PARAMETERS,
    inputs=kim.NOTEBOOK.inputs,
    outputs=("explore.png",),
    batch={"interactive": False},
    figures=(("explore.png", "Explorer (notebooks/explore_kim2010.ipynb) at its default values: "
                             "ED of the seven methods at noise ratio 0.5."),),
)
