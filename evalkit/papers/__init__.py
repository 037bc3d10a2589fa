"""One pipeline module per notebook, named after it.

``notebooks/<name>.ipynb`` imports ``evalkit.papers.<name>`` (``from
evalkit.papers import <name> as paper``), which holds that notebook's
pipeline and its one declaration, ``NOTEBOOK`` (a
:class:`~evalkit.declare.notebook.Notebook`).  :func:`notebooks` is the
registry the runner, the report and the tests read.

=================================  ==========================================
module                             paper
=================================  ==========================================
``sakai2017_unanimity_gain``       Sakai, EVIA 2017
``wang2015_assessor_differences``  Wang, Sherman, Lin & Efron, SIGIR 2015 §3-4
``wang2015_user_preferences``      Wang et al., SIGIR 2015 §5
``kim2010_ordering_aggregation``   Kim, Zhai & Han, ECIR 2010
``real_data``                      the real public data sets
``llmjudge2024``                   LLMJudge 2024: human and LLM judges (real labels)
``few_human_labels``               few human labels, many LLM labels (evalkit estimate)
``explore_sakai2017``              explorer and exercises (Sakai)
``explore_wang2015``               explorer and exercises (Wang et al. §3-4)
``explore_kim2010``                explorer and exercises (Kim et al.)
=================================  ==========================================

The ``explore_*`` companions (:mod:`evalkit.explore`) run in ``make
reproduce`` like the others but with ``interactive=False``
(``Notebook.batch``): each then writes one small static figure,
``figures/<paper>/explore.png``, and its executed copy feeds the course book.
"""

from __future__ import annotations

import importlib

__all__ = ["NAMES", "notebooks", "notebook"]

#: Every notebook's name, in the order the report presents them.
NAMES = (
    "sakai2017_unanimity_gain",
    "explore_sakai2017",
    "wang2015_assessor_differences",
    "wang2015_user_preferences",
    "explore_wang2015",
    "kim2010_ordering_aggregation",
    "explore_kim2010",
    "real_data",
    "llmjudge2024",
    "few_human_labels",
)


def notebook(name: str):
    """The declaration of notebook ``name`` (its paper module's ``NOTEBOOK``)."""
    if name not in NAMES:
        raise KeyError(f"no notebook {name!r}; choose from {', '.join(NAMES)}")
    return importlib.import_module(f"{__name__}.{name}").NOTEBOOK


def notebooks() -> tuple:
    """Every notebook's declaration, in :data:`NAMES` order."""
    return tuple(notebook(n) for n in NAMES)
