"""evalkit: evaluation with multiple, disagreeing assessors.

The package of the evalkit workspace.  It supplies the measures, statistics
and simulators that the notebooks under ``notebooks/`` use to reproduce Sakai
(EVIA 2017), Wang, Sherman, Lin & Efron (SIGIR 2015) and Kim, Zhai & Han
(ECIR 2010).

The packages, each importing only the ones listed before it:

* the base modules: :mod:`evalkit.errors`, :mod:`evalkit.paths` (the repository's
  folders), :mod:`evalkit.outputs` (atomic writers), :mod:`evalkit.seeds`,
  :mod:`evalkit.data` (the real public data sets).
* :mod:`evalkit.measures`: gains and evaluation measures, with their registry.
* :mod:`evalkit.formats`: readers and writers, one module per file format.
* :mod:`evalkit.stats`: rank correlation, the randomised Tukey HSD, agreement.
* :mod:`evalkit.simulate`: simulated worlds, one module per world.
* :mod:`evalkit.evaluate`: ``evalkit score`` and ``evalkit compare`` on your own data.
* :mod:`evalkit.declare`: what a notebook declares (parameters, outputs, claims).
* :mod:`evalkit.papers`: one pipeline module per notebook, with its declaration.
* :mod:`evalkit.workspace`: the runner, sweeps, the report, the findings, the book, the CLI.
* :mod:`evalkit.explore`: the explorers and the exercises' checks.

Importing the package has no side effects; submodules are imported on use.
"""

__version__ = "0.2.0"

__all__ = ["__version__"]
