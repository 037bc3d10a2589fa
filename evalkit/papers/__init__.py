"""One pipeline module per notebook, named after it.

``notebooks/<name>.ipynb`` imports ``evalkit.papers.<name>`` (``from
evalkit.papers import <name> as paper``), which holds that notebook's
pipeline and its one declaration, ``NOTEBOOK`` (a
:class:`~evalkit.workspace.notebook.Notebook`).  :func:`notebooks` is the
registry the runner, the report and the tests read.

=================================  ==========================================
module                             paper
=================================  ==========================================
``sakai2017_unanimity_gain``       Sakai, EVIA 2017
``wang2015_assessor_differences``  Wang, Sherman, Lin & Efron, SIGIR 2015 §3-4
``wang2015_user_preferences``      Wang et al., SIGIR 2015 §5
``kim2010_ordering_aggregation``   Kim, Zhai & Han, ECIR 2010
``real_data``                      the real public data sets
=================================  ==========================================
"""

from __future__ import annotations

import importlib

__all__ = ["NAMES", "notebooks", "notebook"]

#: Every notebook's name, in the order the report presents them.
NAMES = (
    "sakai2017_unanimity_gain",
    "wang2015_assessor_differences",
    "wang2015_user_preferences",
    "kim2010_ordering_aggregation",
    "real_data",
)


def notebook(name: str):
    """The declaration of notebook ``name`` (its paper module's ``NOTEBOOK``)."""
    if name not in NAMES:
        raise KeyError(f"no notebook {name!r}; choose from {', '.join(NAMES)}")
    return importlib.import_module(f"{__name__}.{name}").NOTEBOOK


def notebooks() -> tuple:
    """Every notebook's declaration, in :data:`NAMES` order."""
    return tuple(notebook(n) for n in NAMES)
